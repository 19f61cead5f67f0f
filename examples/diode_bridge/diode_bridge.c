/* diode_bridge.c — reference example 4 of docs/mechanics.md: an LC tank
 * (L = 1e-2 H, C = 1e-6 F, charged to 10 V, no current) feeding a full-wave
 * bridge of four ideal diodes into a load R = 1e3 Ω. Euler–Moreau θ = 0.5,
 * h = 1e-6, T = 5e-3 (--T).
 *
 * State x = (v, i_L) (tank voltage v = v_a − v_b, inductor current):
 *   ẋ = A x + r,  A = [0 −1/C; 1/L 0].
 * Diodes: D1 a→p, D2 b→p, D3 n→a, D4 n→b (p, n: load terminals), each
 * 0 ≤ −v_D ⊥ i_D ≥ 0. With v_b = 0 and
 *   λ = (−v_D2, −v_D4, i_D1, i_D3),  y = (i_D2, i_D4, −v_D1, −v_D3):
 *   v_p = λ0, v_n = −λ1, v_R = λ0 + λ1, i_R = v_R / R, Kirchhoff at p and n:
 *   y = C x + D λ, C = [0 0; 0 0; −1 0; 1 0],
 *   D = [1/R 1/R −1 0; 1/R 1/R 0 −1; 1 0 0 0; 0 1 0 0],
 *   r = B λ, B = [0 0 −1/C 1/C; 0 0 0 0]  (current into the bridge at a).
 * One LCP per step (complementarity law of size 4).
 *
 * --out DIR: trajectory.csv (t, v, iL, vR, iR, energy), diode_bridge.svg. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "nonsmooth/nsm.h"
#include "example_util.h"
#include "svgplot.h"

int main(int argc, char **argv)
{
    nsx_args a;
    int prc = nsx_parse(argc, argv, &a, "");
    if (prc != 0) return prc > 0 ? 0 : 2;
    const double L = 1e-2, Cap = 1e-6, R = 1e3, v0 = 10.0;
    double h = a.h > 0 ? a.h : 1e-6, T = a.T > 0 ? a.T : 5e-3;
    if (a.steps > 0) T = a.steps * h;
    nsm_model *model = nsm_model_new();
    double A[4] = { 0, 1 / L, -1 / Cap, 0 };   /* column-major */
    double x0[2] = { v0, 0 };
    int ds = nsm_model_add_ds(model, nsm_ds_first_order_lti_new(2, A, NULL, NULL, x0));
    int law = nsm_model_add_law(model, nsm_nslaw_complementarity_new(4));
    double C[8] = { 0, 0, -1, 1,   0, 0, 0, 0 };               /* 4×2 column-major */
    double D[16] = { 1 / R, 1 / R, 1, 0,   1 / R, 1 / R, 0, 1,  -1, 0, 0, 0,   0, -1, 0, 0 };
    double B[8] = { 0, 0,   0, 0,   -1 / Cap, 0,   1 / Cap, 0 }; /* 2×4 column-major */
    int inter = nsm_model_add_interaction(model, nsm_relation_first_order_linear_new(4, 2, C, D, B, NULL), law, ds, -1);
    if (ds < 0 || law < 0 || inter < 0) { fprintf(stderr, "diode_bridge: %s\n", nsm_model_error(model)); return 1; }
    nsm_sim *sim = nsx_sim_new(model, &a, h, "diode_bridge");
    if (!sim) { return 1; }
    FILE *traj = NULL;
    char path[4096];
    nsx_series ts = { 0 }, vs = { 0 }, vrs = { 0 }, is = { 0 };
    if (a.out) {
        traj = fopen(nsx_path(path, sizeof path, a.out, "trajectory.csv"), "w");
        if (!traj) { fprintf(stderr, "diode_bridge: cannot write in %s\n", a.out); return 1; }
        fprintf(traj, "t,v,iL,vR,iR,energy\n");
    }
    ns_status st = NS_OK;
    double minvR = INFINITY, E0 = 0.5 * Cap * v0 * v0, E = E0;
    for (long k = 0;; k++) {
        const double *x = nsm_sim_x(sim, ds), *lam = nsm_sim_lambda(sim, inter, 0);
        double vR = lam[0] + lam[1];
        E = 0.5 * Cap * x[0] * x[0] + 0.5 * L * x[1] * x[1];
        if (k > 0 && vR < minvR) minvR = vR;
        if (traj && k % a.save_every == 0) {
            double t = nsm_sim_time(sim);
            fprintf(traj, "%.10g,%.12g,%.12g,%.12g,%.12g,%.12g\n", t, x[0], x[1], vR, vR / R, E);
            nsx_push(&ts, 1e3 * t); nsx_push(&vs, x[0]); nsx_push(&vrs, vR); nsx_push(&is, 1e3 * x[1]);
        }
        if (nsm_sim_time(sim) >= T - 0.5 * h) break;
        st = nsm_sim_step(sim);
        if (st != NS_OK) { fprintf(stderr, "diode_bridge: %s\n", nsm_sim_error(sim)); break; }
    }
    if (!a.quiet)
        printf("diode_bridge: %ld steps, tank energy %.6g -> %.6g J, min load voltage %.3g V, %ld solves (%ld not converged)\n",
               nsm_sim_step_count(sim), E0, E, minvR, nsm_sim_get_stats(sim)->solves, nsm_sim_get_stats(sim)->nonconverged);
    if (traj) {
        fclose(traj);
        svgplot *p = svgplot_new(2, "Diode bridge (Euler-Moreau, h = 1e-6)");
        svgplot_labels(p, 0, "t [ms]", "voltage [V]");
        svgplot_series(p, 0, "v_LC (tank)", ts.n, ts.v, vs.v, 0);
        svgplot_series(p, 0, "v_R (load)", ts.n, ts.v, vrs.v, 0);
        svgplot_labels(p, 1, "t [ms]", "current [mA]");
        svgplot_series(p, 1, "i_L", ts.n, ts.v, is.v, 0);
        svgplot_write(p, nsx_path(path, sizeof path, a.out, "diode_bridge.svg"));
        svgplot_free(p);
    }
    nsx_series_free(&ts); nsx_series_free(&vs); nsx_series_free(&vrs); nsx_series_free(&is);
    nsm_sim_free(sim);
    nsm_model_free(model);
    return st == NS_OK ? 0 : 1;
}
