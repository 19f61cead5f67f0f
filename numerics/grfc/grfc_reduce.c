/* grfc_reduce.c — global rolling friction contact (GRFC3D) by reduction to
 * the local problem:
 *     M v = H r + q,  u = Hᵀ v + b
 *  ⇒  u = W r + q̃,   W = Hᵀ M⁻¹ H,   q̃ = b + Hᵀ M⁻¹ q,
 * M factored once by the factor layer (AUTO: CHOLMOD when symmetric,
 * UMFPACK otherwise), W formed by ns_delassus_block (gfc_delassus.h) in
 * BLOCK storage of 5×5 blocks, the RFC3D problem solved by the local solver
 * (o->local_solver, default auto), then v = M⁻¹(H r + q), u = Hᵀ v + b.
 * The local solve is repeated warm with tol/100 while the global error
 * ns_grfc_error is above tol, at most 3 times. Registered as "reduce"
 * (default), "nsgs" and "nsn" (reduction + that local solver). */
#include "rfc/rfc_internal.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "gfc/gfc_delassus.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static ns_status reduce_with(const ns_grfc *p, double *v, double *u, double *r,
                             const ns_options *o, const char *local, ns_result *res)
{
    const int d = p->dim;
    const ns_int n = p->n, nc = p->nc, m = d * nc;
    ns_status st;
    ns_factor *F = NULL;
    ns_matrix *Hs = NULL, *Wb = NULL;
    ns_rfc *lp = NULL;
    double *qt = NULL, *ul = NULL;
    const ns_solver_info *info = ns_solver_find(local ? local : "auto", NS_KIND_RFC3D);
    if (!info) return ns_fail(res->message, NS_BAD_INPUT, "grfc3d reduce: no rfc3d solver '%s'",
                              local);
    char ferr[NS_ERRMSG_LEN];
    if ((st = ns_factor_new(p->M, NS_FACTOR_AUTO, &F, ferr)))
        return ns_fail(res->message, st, "grfc3d reduce: M cannot be factored: %s", ferr);
    qt = ns_malloc((size_t)m + 1, sizeof(double));
    if (!qt) { st = ns_fail(res->message, NS_NO_MEMORY, "grfc3d reduce: out of memory"); goto done; }
    if (nc == 0) {
        memcpy(v, p->q, (size_t)n * sizeof(double));
        st = ns_factor_solve(F, v, 1, n);
        res->error = ns_grfc_error(p, v, r, u, NULL);
        if (!st) st = res->error <= o->tol ? NS_CONVERGED : NS_FAILED;
        goto done;
    }
    Hs = ns_matrix_to_sparse(p->H);
    if (!Hs) { st = ns_fail(res->message, NS_NO_MEMORY, "grfc3d reduce: out of memory"); goto done; }
    if ((st = ns_delassus_block(F, Hs, n, m, d, p->q, p->b, &Wb, qt, "grfc3d reduce", res->message))) goto done;
    lp = ns_rfc_new(d, nc, Wb, qt, p->mu, p->mu_r);
    Wb = NULL;   /* owned by lp now (freed on failure) */
    ul = ns_malloc((size_t)m + 1, sizeof(double));
    if (!lp || !ul) { st = ns_fail(res->message, NS_NO_MEMORY, "grfc3d reduce: out of memory"); goto done; }
    ns_options lo = *o;
    lo.local_solver = NULL;
    if (lo.max_iter == 0) lo.max_iter = info->default_max_iter;
    double t0 = ns_now();
    st = NS_MAX_ITER;
    for (int pass = 0; pass < 4; pass++) {
        ns_result lr;
        ns_result_init(&lr);
        if (o->time_limit > 0) {
            lo.time_limit = o->time_limit - (ns_now() - t0);
            if (lo.time_limit <= 0) { st = NS_TIME_LIMIT; break; }
        }
        st = info->fn.rfc(lp, r, ul, &lo, &lr);
        lo.warm_start = 1;
        res->iterations += lr.iterations;
        if (!ns_status_is_outcome(st)) { memcpy(res->message, lr.message, NS_ERRMSG_LEN); goto done; }
        memcpy(v, p->q, (size_t)n * sizeof(double));   /* v = M⁻¹ (H r + q) */
        ns_matrix_gemv(1.0, Hs, r, 1.0, v);
        if (ns_factor_solve(F, v, 1, n)) { st = ns_fail(res->message, NS_SINGULAR, "grfc3d reduce: solve with M failed"); goto done; }
        res->error = ns_grfc_error(p, v, r, u, NULL);
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (st == NS_CONVERGED) st = NS_MAX_ITER;
        lo.tol *= 0.01;
    }
done:
    ns_factor_free(F);
    ns_matrix_free(Hs);
    ns_matrix_free(Wb);
    ns_rfc_free(lp);
    free(qt); free(ul);
    return st;
}

ns_status ns_grfc_reduce(const ns_grfc *p, double *v, double *u, double *r,
                         const ns_options *o, ns_result *res)
{ return reduce_with(p, v, u, r, o, o->local_solver, res); }
ns_status ns_grfc_reduce_nsgs(const ns_grfc *p, double *v, double *u, double *r,
                              const ns_options *o, ns_result *res)
{ return reduce_with(p, v, u, r, o, "nsgs", res); }
ns_status ns_grfc_reduce_nsn(const ns_grfc *p, double *v, double *u, double *r,
                             const ns_options *o, ns_result *res)
{ return reduce_with(p, v, u, r, o, "nsn", res); }
