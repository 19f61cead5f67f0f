/* fc3d_fpp.c — fixed-point projection for FC2D/FC3D on the VI form
 *     r_{k+1} = P_K(r_k − ρ_k û(r_k)),   û = W r + q + μ‖u_T‖ e_N,
 * with a self-adaptive step (Khobotov's rule, Armijo-like): the trial
 * r̄ = P_K(r − ρ û(r)) is accepted when
 *     ρ ‖û(r̄) − û(r)‖ ≤ L ‖r̄ − r‖        (L = 0.9),
 * or, failing that, when it lowers the FC error by the factor 1 − 1e-4
 * (safeguard that keeps large steps where û's kink term μ‖u_T‖ makes the
 * Lipschitz test pessimistic); otherwise ρ ← ν ρ (ν = 2/3) and retry (at
 * most 60 times). After an accepted step whose ratio was < L_min = 0.3,
 * ρ ← ρ/ν. ρ_0 = 1/max_α W_αα,NN. One W·x product per trial; the error is
 * ns_fc_error evaluated from the already known u. Workspace allocated once.
 * Registered as "fpp" (FC3D, FC2D). */
#include "fc/fc3d_internal.h"
#include "fc/fc3d_vi.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_fc3d_fpp(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st) { ns_matrix_free(owned); return st; }
    const size_t m = (size_t)p->dim * (size_t)p->nc;
    double *work = ns_malloc(4 * m + 1, sizeof(double));
    if (!work) { ns_matrix_free(owned); return ns_fail(res->message, NS_NO_MEMORY, "fpp: out of memory"); }
    double *uh = work, *rb = work + m, *ub = work + 2 * m, *uhb = work + 3 * m;
    const ns_fc_norm nm = (ns_fc_norm)o->fc_norm;
    double qn = 0.0;
    for (size_t i = 0; i < m; i++) qn += p->q[i] * p->q[i];
    qn = sqrt(qn);
    double rho = ns_fc_vi_rho0(&view), t0 = ns_now();
    ns_fc_vi_velocity(&view, r, u);
    ns_fc_vi_modified(&view, u, uh);
    double err = ns_fc_vi_error(&view, r, u, qn, nm);
    res->error = err;
    st = NS_MAX_ITER;
    if (err <= o->tol) st = NS_CONVERGED;
    for (int it = 1; st == NS_MAX_ITER && it <= o->max_iter; it++) {
        double ratio = 0.0, eb = err;
        int ok = 0;
        for (int trial = 0; trial < 60 && !ok; trial++) {
            ns_fc_vi_project(&view, rho, NULL, r, uh, rb);
            ns_fc_vi_velocity(&view, rb, ub);
            ns_fc_vi_modified(&view, ub, uhb);
            double dr = ns_fc_vi_dist(m, rb, r);
            if (!(dr > 0)) { ok = 1; ratio = 0.0; eb = ns_fc_vi_error(&view, rb, ub, qn, nm); break; }
            ratio = rho * ns_fc_vi_dist(m, uhb, uh) / dr;
            eb = ns_fc_vi_error(&view, rb, ub, qn, nm);
            if (ratio <= 0.9 || eb <= (1.0 - 1e-4) * err) ok = 1;
            else rho *= 2.0 / 3.0;
        }
        res->iterations = it;
        if (!ok || !isfinite(eb)) { ns_fail(res->message, NS_MAX_ITER, "fpp: no acceptable step at iteration %d", it); break; }
        memcpy(r, rb, m * sizeof(double));
        memcpy(u, ub, m * sizeof(double));
        memcpy(uh, uhb, m * sizeof(double));
        err = eb;
        if (ratio < 0.3) rho *= 1.5;
        ns_log(o, 2, "fpp iteration %d rho %.3g error %.3e", it, rho, err);
        st = ns_fc_vi_iteration_end(&view, r, u, o, t0, &err);
    }
    res->error = err;
    free(work);
    ns_matrix_free(owned);
    return st;
}
