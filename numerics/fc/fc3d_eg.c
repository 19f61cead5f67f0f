/* fc3d_eg.c — extragradient (Korpelevich) for FC2D/FC3D on the VI form
 * with û(r) = W r + q + μ‖u_T‖ e_N:
 *     r̄ = P_K(r − ρ û(r)),   r⁺ = P_K(r − ρ û(r̄)),
 * ρ self-adaptive (Khobotov): r̄ is kept when ρ‖û(r̄) − û(r)‖ ≤ L‖r̄ − r‖
 * (L = 0.9), else ρ ← ν ρ (ν = 2/3, at most 60 times); as in fpp the step
 * is also kept when r⁺ lowers the FC error by 1 − 1e-4 (the kink term of û
 * makes the Lipschitz test pessimistic for large μ). ρ ← ρ/ν after a ratio
 * < 0.3. ρ_0 = 1/max_α W_αα,NN. Two W·x products per iteration (one per
 * extra trial); errors from the known u. Registered as "eg". */
#include "fc/fc3d_internal.h"
#include "fc/fc3d_vi.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_fc3d_eg(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st) { ns_matrix_free(owned); return st; }
    const size_t m = (size_t)p->dim * (size_t)p->nc;
    double *work = ns_malloc(6 * m + 1, sizeof(double));
    if (!work) { ns_matrix_free(owned); return ns_fail(res->message, NS_NO_MEMORY, "eg: out of memory"); }
    double *uh = work, *rb = work + m, *ub = work + 2 * m, *uhb = work + 3 * m,
           *rp = work + 4 * m, *up = work + 5 * m;
    const ns_fc_norm nm = (ns_fc_norm)o->fc_norm;
    double qn = 0.0;
    for (size_t i = 0; i < m; i++) qn += p->q[i] * p->q[i];
    qn = sqrt(qn);
    double rho = ns_fc_vi_rho0(&view), t0 = ns_now();
    ns_fc_vi_velocity(&view, r, u);
    ns_fc_vi_modified(&view, u, uh);
    double err = ns_fc_vi_error(&view, r, u, qn, nm);
    st = NS_MAX_ITER;
    if (err <= o->tol) st = NS_CONVERGED;
    for (int it = 1; st == NS_MAX_ITER && it <= o->max_iter; it++) {
        double ratio = 0.0, ep = err;
        int ok = 0;
        for (int trial = 0; trial < 60 && !ok; trial++) {
            ns_fc_vi_project(&view, rho, NULL, r, uh, rb);
            ns_fc_vi_velocity(&view, rb, ub);
            ns_fc_vi_modified(&view, ub, uhb);
            double dr = ns_fc_vi_dist(m, rb, r);
            ratio = dr > 0 ? rho * ns_fc_vi_dist(m, uhb, uh) / dr : 0.0;
            if (ratio <= 0.9) ok = 1;
            ns_fc_vi_project(&view, rho, NULL, r, uhb, rp);
            ns_fc_vi_velocity(&view, rp, up);
            ep = ns_fc_vi_error(&view, rp, up, qn, nm);
            if (ep <= (1.0 - 1e-4) * err) ok = 1;
            if (!ok) rho *= 2.0 / 3.0;
        }
        res->iterations = it;
        if (!ok || !isfinite(ep)) { ns_fail(res->message, NS_MAX_ITER, "eg: no acceptable step at iteration %d", it); break; }
        /* keep the better of r⁺ and r̄ (r̄ is free: its u is known) */
        double eb = ns_fc_vi_error(&view, rb, ub, qn, nm);
        if (eb < ep) { memcpy(r, rb, m * sizeof(double)); memcpy(u, ub, m * sizeof(double)); err = eb; }
        else { memcpy(r, rp, m * sizeof(double)); memcpy(u, up, m * sizeof(double)); err = ep; }
        ns_fc_vi_modified(&view, u, uh);
        if (ratio < 0.3) rho *= 1.5;
        ns_log(o, 2, "eg iteration %d rho %.3g error %.3e", it, rho, err);
        st = ns_fc_vi_iteration_end(&view, r, u, o, t0, &err);
    }
    res->error = err;
    free(work);
    ns_matrix_free(owned);
    return st;
}
