/* gfc_reduce.c — global friction contact (GFC2D/GFC3D) by reduction to the
 * local problem:
 *     M v = H r + q,  u = Hᵀ v + b
 *  ⇒  u = W r + q̃,   W = Hᵀ M⁻¹ H,   q̃ = b + Hᵀ M⁻¹ q,
 * M factored once (ns_factor AUTO: CHOLMOD when M is symmetric, UMFPACK
 * otherwise), W formed by ns_delassus_block (gfc_delassus.h, shared with
 * the global rolling kind) in BLOCK storage of d×d blocks; the local problem is solved by the
 * FC solver named by o->local_solver (default auto), then
 *     v = M⁻¹ (H r + q),  u = Hᵀ v + b.
 * The local solve is repeated with tol/100 (warm) while the global error
 * ns_gfc_error is above tol, at most 3 times. Registered as "reduce"
 * (default) and as "nsgs-ac", "nsn-ac" (reduction + that local solver). */
#include "solve/solvers.h"
#include "gfc/gfc_delassus.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_delassus_block(ns_factor *F, const ns_matrix *Hs, ns_int n, ns_int m, int d,
                            const double *q, const double *b, ns_matrix **Wb, double *qt,
                            const char *who, char *msg)
{
    const ns_int chunk = 64;
    *Wb = NULL;
    ns_status st = NS_OK;
    double *X = ns_malloc((size_t)n * chunk + (size_t)n + 1, sizeof(double));
    ns_matrix *Wd = ns_matrix_dense_new(m, m);
    if (!X || !Wd) { st = ns_fail(msg, NS_NO_MEMORY, "%s: out of memory", who); goto done; }
    for (ns_int j0 = 0; j0 < m; j0 += chunk) {
        ns_int k = m - j0 < chunk ? m - j0 : chunk;
        memset(X, 0, (size_t)n * k * sizeof(double));
        for (ns_int j = 0; j < k; j++)
            for (ns_int t = Hs->csc.p[j0 + j]; t < Hs->csc.p[j0 + j + 1]; t++)
                X[(size_t)j * n + Hs->csc.i[t]] += Hs->csc.x[t];
        if ((st = ns_factor_solve(F, X, k, n))) { ns_fail(msg, st, "%s: solve with M failed", who); goto done; }
        for (ns_int j = 0; j < k; j++)
            ns_matrix_gemv_t(1.0, Hs, X + (size_t)j * n, 0.0, Wd->dense + (size_t)(j0 + j) * m);
    }
    memcpy(X, q, (size_t)n * sizeof(double));   /* M⁻¹ q */
    if ((st = ns_factor_solve(F, X, 1, n))) { ns_fail(msg, st, "%s: solve with M failed", who); goto done; }
    memcpy(qt, b, (size_t)m * sizeof(double));
    ns_matrix_gemv_t(1.0, Hs, X, 1.0, qt);
    if (!(*Wb = ns_matrix_to_block_uniform(Wd, d))) st = ns_fail(msg, NS_NO_MEMORY, "%s: out of memory", who);
done:
    ns_matrix_free(Wd);
    free(X);
    return st;
}

static ns_status reduce_with(const ns_gfc *p, double *v, double *u, double *r,
                             const ns_options *o, const char *local, ns_result *res)
{
    const int d = p->dim;
    const ns_int n = p->n, nc = p->nc, m = d * nc;
    ns_status st;
    ns_factor *F = NULL;
    ns_matrix *Hs = NULL, *Wb = NULL;
    ns_fc *fc = NULL;
    double *qt = NULL, *ul = NULL;
    const ns_kind lk = d == 3 ? NS_KIND_FC3D : NS_KIND_FC2D;
    const ns_solver_info *info = ns_solver_find(local ? local : "auto", lk);
    if (!info) return ns_fail(res->message, NS_BAD_INPUT, "gfc reduce: no %s solver '%s'",
                              ns_kind_name(lk), local);
    char ferr[NS_ERRMSG_LEN];
    if ((st = ns_factor_new(p->M, NS_FACTOR_AUTO, &F, ferr)))
        return ns_fail(res->message, st, "gfc reduce: M cannot be factored: %s", ferr);
    qt = ns_malloc((size_t)m + 1, sizeof(double));
    if (!qt) { st = ns_fail(res->message, NS_NO_MEMORY, "gfc reduce: out of memory"); goto done; }
    if (nc == 0) {
        memcpy(v, p->q, (size_t)n * sizeof(double));
        st = ns_factor_solve(F, v, 1, n);
        res->error = ns_gfc_error(p, v, r, u, NULL);
        goto done;
    }
    Hs = ns_matrix_to_sparse(p->H);
    if (!Hs) { st = ns_fail(res->message, NS_NO_MEMORY, "gfc reduce: out of memory"); goto done; }
    if ((st = ns_delassus_block(F, Hs, n, m, d, p->q, p->b, &Wb, qt, "gfc reduce", res->message))) goto done;
    fc = ns_fc_new(d, nc, Wb, qt, p->mu);
    Wb = NULL; /* owned by fc now (freed on failure) */
    ul = ns_malloc((size_t)m + 1, sizeof(double));
    if (!fc || !ul) { st = ns_fail(res->message, NS_NO_MEMORY, "gfc reduce: out of memory"); goto done; }
    ns_options lo = *o;
    lo.local_solver = NULL;
    if (lo.max_iter == 0 || strcmp(info->name, "auto") != 0) lo.max_iter = o->max_iter;
    if (lo.max_iter == 0) lo.max_iter = info->default_max_iter;
    double t0 = ns_now();
    for (int pass = 0; pass < 4; pass++) {
        ns_result lr;
        ns_result_init(&lr);
        if (o->time_limit > 0) {
            lo.time_limit = o->time_limit - (ns_now() - t0);
            if (lo.time_limit <= 0) { st = NS_TIME_LIMIT; break; }
        }
        st = info->fn.fc(fc, r, ul, &lo, &lr);
        res->iterations += lr.iterations;
        if (!ns_status_is_outcome(st)) { memcpy(res->message, lr.message, NS_ERRMSG_LEN); goto done; }
        /* v = M⁻¹ (H r + q) */
        memcpy(v, p->q, (size_t)n * sizeof(double));
        ns_matrix_gemv(1.0, Hs, r, 1.0, v);
        if (ns_factor_solve(F, v, 1, n)) { st = ns_fail(res->message, NS_SINGULAR, "gfc reduce: solve with M failed"); goto done; }
        res->error = ns_gfc_error(p, v, r, u, NULL);
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        lo.tol *= 0.01;
    }
done:
    ns_factor_free(F);
    ns_matrix_free(Hs);
    ns_matrix_free(Wb);
    ns_fc_free(fc);
    free(qt); free(ul);
    return st;
}

ns_status ns_gfc_reduce(const ns_gfc *p, double *v, double *u, double *r,
                        const ns_options *o, ns_result *res)
{ return reduce_with(p, v, u, r, o, o->local_solver, res); }
ns_status ns_gfc_reduce_nsgs_ac(const ns_gfc *p, double *v, double *u, double *r,
                                const ns_options *o, ns_result *res)
{ return reduce_with(p, v, u, r, o, p->dim == 3 ? "nsgs-ac" : "nsgs", res); }
ns_status ns_gfc_reduce_nsn_ac(const ns_gfc *p, double *v, double *u, double *r,
                               const ns_options *o, ns_result *res)
{ return reduce_with(p, v, u, r, o, "nsn-ac", res); }
