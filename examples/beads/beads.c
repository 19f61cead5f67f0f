/* beads.c — reference example 2 of docs/mechanics.md: beads of radius R
 * on a vertical line, each a 1-dof Lagrangian LTI system (height of its
 * centre), Newton impact laws between neighbours and with the floor. Every
 * inner bead is shared by two interactions: the linked-interaction map.
 *
 *  --variant column (default): n = 10 beads stacked with gaps above a floor,
 *     gravity, e = 0.8 (--e); they fall, bounce, settle.
 *  --variant cradle: n = 5 beads in contact on a horizontal line (no
 *     gravity, no floor), the first one hits the row at speed 1; e = 1
 *     transmits the momentum to the last bead.
 *
 *  --variant stack: n beads touching each other (no gaps), dropped together
 *     from 0.5 above the floor: the floor impact is simultaneous with the
 *     touching contacts (an impact LCP with several active contacts).
 *
 * --scheme ed: event-driven (CVODE, nsm_event_driven.h) instead of
 * time-stepping (ts, default); --rtol, --atol (default 1e-10, 1e-12).
 * --out DIR: trajectory.csv (t, positions, velocities, kinetic energy),
 * beads.svg. Exit code 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nsm.h"
#include "example_util.h"
#include "svgplot.h"

#define MAXB 64

#ifdef NSM_HAVE_EVENT_DRIVEN
typedef struct edctx { FILE *traj; int n; double m, g; long impacts, multi; } edctx;

static int observe_ed(nsm_ed *s, const nsm_event *ev, void *user)
{
    edctx *c = user;
    if (ev->type == NSM_EVENT_NONSMOOTH && ev->impact) {
        c->impacts++;
        int active = 0, nr = nsm_ed_nrows(s);
        for (int r = 0; r < nr; r++) {
            int in, comp;
            nsm_ed_row(s, r, &in, &comp);
            if (nsm_ed_lambda(s, in, 1)[comp] > 0) active++;
        }
        if (active >= 2) c->multi++;
    }
    if (c->traj && ev->type == NSM_EVENT_TIME) {
        double E = 0;
        fprintf(c->traj, "%.10g", ev->t);
        for (int i = 0; i < c->n; i++) fprintf(c->traj, ",%.12g", nsm_ed_q(s, i)[0]);
        for (int i = 0; i < c->n; i++) {
            double v = nsm_ed_v(s, i)[0];
            fprintf(c->traj, ",%.12g", v);
            E += 0.5 * c->m * v * v + c->m * c->g * nsm_ed_q(s, i)[0];
        }
        fprintf(c->traj, ",%.12g\n", E);
    }
    return 0;
}

static int run_ed(nsm_model *model, const nsx_args *a, int n, double m, double g, double h, double T,
                  double rtol, double atol)
{
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = T; o.output_step = h; o.rtol = rtol; o.atol = atol;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *ed = nsm_ed_new(model, &o, err);
    if (!ed) { fprintf(stderr, "beads: %s\n", err); return 1; }
    edctx c = { 0 };
    c.n = n; c.m = m; c.g = g;
    char path[4096];
    if (a->out) {
        c.traj = fopen(nsx_path(path, sizeof path, a->out, "trajectory.csv"), "w");
        if (!c.traj) { fprintf(stderr, "beads: cannot write in %s\n", a->out); return 1; }
        fprintf(c.traj, "t");
        for (int i = 0; i < n; i++) fprintf(c.traj, ",q%d", i);
        for (int i = 0; i < n; i++) fprintf(c.traj, ",v%d", i);
        fprintf(c.traj, ",energy\n");
    }
    ns_status st = nsm_ed_run(ed, observe_ed, &c);
    if (st != NS_OK) fprintf(stderr, "beads: %s\n", nsm_ed_error(ed));
    const nsm_ed_stats *S = nsm_ed_get_stats(ed);
    if (!a->quiet) {
        printf("beads (event-driven, n = %d): t = %g, %ld CVODE steps, %ld nonsmooth events, %ld impacts "
               "(%ld with >= 2 active contacts), %ld rest, %ld releases, velocities:",
               n, nsm_ed_time(ed), S->cvode_steps, S->events[NSM_EVENT_NONSMOOTH], c.impacts, c.multi,
               S->rests, S->releases);
        for (int i = 0; i < n; i++) printf(" %.4f", nsm_ed_v(ed, i)[0]);
        printf("\n");
    }
    if (c.traj) fclose(c.traj);
    nsm_ed_free(ed);
    return st == NS_OK ? 0 : 1;
}
#endif

int main(int argc, char **argv)
{
    nsx_args a;
    int scheme = nsx_take_scheme(&argc, argv);
    double rtol = 1e-10, atol = 1e-12;
    nsx_take_double(&argc, argv, "--rtol", &rtol);
    nsx_take_double(&argc, argv, "--atol", &atol);
    if (scheme < 0) { fprintf(stderr, "beads: --scheme ts|ed\n"); return 2; }
    int prc = nsx_parse(argc, argv, &a, "[--variant column|cradle|stack] [--n N] [--e E] [--scheme ts|ed]");
    if (prc != 0) return prc > 0 ? 0 : 2;
    int cradle = a.variant && !strcmp(a.variant, "cradle");
    int stack = a.variant && !strcmp(a.variant, "stack");
    int n = a.n > 0 ? a.n : (cradle ? 5 : 10);
    if (n > MAXB) n = MAXB;
    double R = 0.1, m = 1.0, g = cradle ? 0.0 : 9.81;
    double e = isnan(a.e) ? (cradle ? 1.0 : 0.8) : a.e;
    double h = a.h > 0 ? a.h : (cradle ? 1e-3 : 5e-3);
    double T = a.T > 0 ? a.T : (cradle ? 1.0 : 5.0);
    if (a.steps > 0) T = a.steps * h;

    nsm_model *model = nsm_model_new();
    int law = nsm_model_add_law(model, nsm_nslaw_newton_new(1, e));
    for (int i = 0; i < n; i++) {
        double M[1] = { m }, q0[1], v0[1] = { 0 }, f[1] = { -m * g };
        /* column: bead i at height R + i·(2R + 0.1) + 0.5; cradle: a row with
         * 5 mm gaps (so that the impacts are binary and successive, as in
         * the real cradle; with touching beads the simultaneous Newton
         * impacts spread the momentum), bead 0 further away, moving at 1 m/s */
        if (cradle) { q0[0] = i == 0 ? -0.05 : (2 * R + 0.005) * i; v0[0] = i == 0 ? 1.0 : 0.0; }
        else if (stack) q0[0] = 0.5 + R + i * 2 * R;
        else q0[0] = 0.5 + R + i * (2 * R + 0.1);
        nsm_ds *ds = nsm_ds_lagrangian_lti_new(1, M, q0, v0);
        nsm_ds_set_fext_constant(ds, f);
        nsm_model_add_ds(model, ds);
    }
    if (!cradle) {  /* floor: y = q0 − R */
        double H[1] = { 1 }, b[1] = { -R };
        nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, 1, H, b), law, 0, -1);
    }
    for (int i = 0; i + 1 < n; i++) {  /* y = q_{i+1} − q_i − 2R */
        double H[2] = { -1, 1 }, b[1] = { -2 * R };
        if (nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, 2, H, b), law, i, i + 1) < 0)
            fprintf(stderr, "beads: %s\n", nsm_model_error(model));
    }
    if (scheme == 1) {
#ifdef NSM_HAVE_EVENT_DRIVEN
        int rc = run_ed(model, &a, n, m, g, h, T, rtol, atol);
        nsm_model_free(model);
        return rc;
#else
        fprintf(stderr, "beads: built without CVODE: no event-driven scheme\n");
        nsm_model_free(model);
        return 1;
#endif
    }
    nsm_sim *sim = nsx_sim_new(model, &a, h, "beads");
    if (!sim) { nsm_model_free(model); return 1; }

    FILE *traj = NULL;
    char path[4096];
    nsx_series ts = { 0 }, ys[MAXB], es = { 0 };
    memset(ys, 0, sizeof ys);
    if (a.out) {
        traj = fopen(nsx_path(path, sizeof path, a.out, "trajectory.csv"), "w");
        if (!traj) { fprintf(stderr, "beads: cannot write in %s\n", a.out); return 1; }
        fprintf(traj, "t");
        for (int i = 0; i < n; i++) fprintf(traj, ",q%d", i);
        for (int i = 0; i < n; i++) fprintf(traj, ",v%d", i);
        fprintf(traj, ",energy\n");
    }
    ns_status st = NS_OK;
    double E0 = 0;
    for (long k = 0;; k++) {
        double E = 0;
        for (int i = 0; i < n; i++) {
            double q = nsm_sim_q(sim, i)[0], v = nsm_sim_v(sim, i)[0];
            E += 0.5 * m * v * v + m * g * q;
        }
        if (k == 0) E0 = E;
        if (traj && k % a.save_every == 0) {
            double t = nsm_sim_time(sim);
            fprintf(traj, "%.10g", t);
            for (int i = 0; i < n; i++) fprintf(traj, ",%.12g", nsm_sim_q(sim, i)[0]);
            for (int i = 0; i < n; i++) fprintf(traj, ",%.12g", nsm_sim_v(sim, i)[0]);
            fprintf(traj, ",%.12g\n", E);
            nsx_push(&ts, t);
            nsx_push(&es, E);
            for (int i = 0; i < n; i++) nsx_push(&ys[i], nsm_sim_q(sim, i)[0]);
        }
        if (nsm_sim_time(sim) >= T - 0.5 * h) break;
        st = nsm_sim_step(sim);
        if (st != NS_OK) { fprintf(stderr, "beads: %s\n", nsm_sim_error(sim)); break; }
    }
    double E = 0;
    for (int i = 0; i < n; i++) {
        double q = nsm_sim_q(sim, i)[0], v = nsm_sim_v(sim, i)[0];
        E += 0.5 * m * v * v + m * g * q;
    }
    if (!a.quiet) {
        printf("beads (%s, n = %d, e = %g): %ld steps, energy %.6g -> %.6g, velocities:",
               cradle ? "cradle" : "column", n, e, nsm_sim_step_count(sim), E0, E);
        for (int i = 0; i < n; i++) printf(" %.4f", nsm_sim_v(sim, i)[0]);
        printf("\n");
    }
    if (traj) {
        fclose(traj);
        svgplot *p = svgplot_new(2, cradle ? "Newton's cradle (Moreau-Jean)" : "Column of beads (Moreau-Jean)");
        svgplot_labels(p, 0, "t [s]", "bead centre [m]");
        for (int i = 0; i < n && i < 8; i++) {
            char name[32];
            snprintf(name, sizeof name, "bead %d", i);
            svgplot_series(p, 0, name, ts.n, ts.v, ys[i].v, 0);
        }
        svgplot_labels(p, 1, "t [s]", "energy [J]");
        svgplot_series(p, 1, "kinetic + potential", ts.n, ts.v, es.v, 0);
        svgplot_write(p, nsx_path(path, sizeof path, a.out, "beads.svg"));
        svgplot_free(p);
    }
    nsx_series_free(&ts); nsx_series_free(&es);
    for (int i = 0; i < n; i++) nsx_series_free(&ys[i]);
    nsm_sim_free(sim);
    nsm_model_free(model);
    return st == NS_OK ? 0 : 1;
}
