/* fc3d_desaxce.c — De Saxcé's fixed point for FC2D/FC3D:
 *     r_{k+1} = P_K(r_k − ρ_α û_α(r_k)) per contact α,
 *     û = W r + q + μ‖u_T‖ e_N,   ρ_α = ρ / W_αα,NN,
 * a Jacobi-type step with a fixed ρ (= o->omega when given in (0, 2),
 * else 1). ρ stays fixed while the iteration contracts (a divergence
 * guard: a plain fixed point with too large a ρ never converges).
 * Precisely: 50 iterations without a new best error restart from the best
 * point with ρ/2. One W·x
 * product per iteration; the error is computed from the known u.
 * Registered as "desaxce". */
#include "fc/fc3d_internal.h"
#include "fc/fc3d_vi.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_fc3d_desaxce(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st) { ns_matrix_free(owned); return st; }
    const size_t m = (size_t)p->dim * (size_t)p->nc;
    double *work = ns_malloc(3 * m + (size_t)p->nc + 1, sizeof(double));
    if (!work) { ns_matrix_free(owned); return ns_fail(res->message, NS_NO_MEMORY, "desaxce: out of memory"); }
    double *uh = work, *best = work + m, *rn = work + 2 * m, *scale = work + 3 * m;
    const ns_block *B = &view.W->block;
    for (ns_int a = 0; a < p->nc; a++) scale[a] = 1.0 / B->x[B->value_ptr[B->diag[a]]];
    const ns_fc_norm nm = (ns_fc_norm)o->fc_norm;
    double qn = 0.0;
    for (size_t i = 0; i < m; i++) qn += p->q[i] * p->q[i];
    qn = sqrt(qn);
    double rho = o->omega > 0 ? o->omega : 1.0, t0 = ns_now();
    ns_fc_vi_velocity(&view, r, u);
    double err = ns_fc_vi_error(&view, r, u, qn, nm), best_err = err;
    memcpy(best, r, m * sizeof(double));
    int grew = 0;
    st = err <= o->tol ? NS_CONVERGED : NS_MAX_ITER;
    for (int it = 1; st == NS_MAX_ITER && it <= o->max_iter; it++) {
        ns_fc_vi_modified(&view, u, uh);
        ns_fc_vi_project(&view, rho, scale, r, uh, rn);
        memcpy(r, rn, m * sizeof(double));
        ns_fc_vi_velocity(&view, r, u);
        double e = ns_fc_vi_error(&view, r, u, qn, nm);
        res->iterations = it;
        if (!isfinite(e)) { /* restart from the best point with a smaller step */
            memcpy(r, best, m * sizeof(double));
            ns_fc_vi_velocity(&view, r, u);
            e = best_err;
            rho *= 0.5;
            grew = 0;
        } else if (!(e < best_err)) {
            if (++grew >= 50) { /* no new best for 50 iterations: restart smaller */
                memcpy(r, best, m * sizeof(double));
                ns_fc_vi_velocity(&view, r, u);
                e = best_err;
                rho *= 0.5;
                grew = 0;
            }
        } else grew = 0;
        err = e;
        if (err < best_err) { best_err = err; memcpy(best, r, m * sizeof(double)); }
        ns_log(o, 2, "desaxce iteration %d rho %.3g error %.3e", it, rho, err);
        st = ns_fc_vi_iteration_end(&view, r, u, o, t0, &err);
    }
    ns_fc_vi_keep_best(&view, st, best, best_err, r, u, &err);
    res->error = err;
    free(work);
    ns_matrix_free(owned);
    return st;
}
