/* soclcp_vi.c — the SOCLCP as the VI  r ∈ K, ⟨W r + q, s − r⟩ ≥ 0 ∀s ∈ K
 * (same solutions: K is a cone), solved by the projection methods of
 * vi/vi_projection.c (fpp, eg) with P_K per cone; auto runs nsgs, then the
 * interior point (soclcp_ipm.c) from a cold start if nsgs did not reach
 * tol, then eg from the better of their points. The VI methods stop on
 * the absolute natural residual: they are given tol·(1 + ‖q‖), which is
 * the kind's relative error. */
#include "solve/solvers.h"
#include "vi/vi_internal.h"
#include "nonsmooth/ns_soclcp.h"
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <stdlib.h>
#include <string.h>

static int project(void *user, ns_int n, const double *x, double *px)
{
    const ns_soclcp *p = user;
    (void)n;
    for (ns_int c = 0; c < p->nc; c++) {
        ns_int a = p->cone_start[c];
        ns_soc_project(p->cone_start[c + 1] - a, p->mu[c], x + a, px + a);
    }
    return 0;
}

static ns_status run(const ns_soclcp *p, ns_vi_method m, double *r, double *v,
                     const ns_options *o, ns_result *res)
{
    ns_cp_map f = { p->n, NULL, NULL, NULL, p->W, p->q };
    ns_vi_set X = { project, (void *)p, NULL, NULL };
    ns_options oo = *o;
    oo.tol = o->tol * (1.0 + ns_norm2(p->q, (size_t)p->n));
    ns_status st = ns_vi_projection_method(&f, &X, m, r, v, &oo, res);
    res->error /= 1.0 + ns_norm2(p->q, (size_t)p->n);
    return st;
}

ns_status ns_soclcp_fpp(const ns_soclcp *p, double *r, double *v, const ns_options *o, ns_result *res)
{ return run(p, NS_VI_FPP, r, v, o, res); }
ns_status ns_soclcp_eg(const ns_soclcp *p, double *r, double *v, const ns_options *o, ns_result *res)
{ return run(p, NS_VI_EG, r, v, o, res); }

ns_status ns_soclcp_auto(const ns_soclcp *p, double *r, double *v, const ns_options *o, ns_result *res)
{
    const double t0 = ns_now();
    ns_status st = ns_soclcp_nsgs(p, r, v, o, res);
    if (st == NS_CONVERGED || st == NS_NO_MEMORY || st == NS_BAD_INPUT || st == NS_INTERRUPTED) return st;
    /* the interior point from a cold start (it does not care about the
     * rank of W, where the sweeps crawl); eg from the better point if it
     * fails too */
    const size_t n = (size_t)p->n;
    double *r0 = ns_malloc(n > 0 ? n : 1, sizeof(double));
    if (!r0) return ns_fail(res->message, NS_NO_MEMORY, "auto: out of memory");
    memcpy(r0, r, n * sizeof(double));
    const double e0 = res->error;
    int iters = res->iterations;
    ns_options oi = *o;
    oi.warm_start = 0;
    oi.max_iter = 0;   /* ipm's own default */
    if (o->time_limit > 0) {
        oi.time_limit = o->time_limit - (ns_now() - t0);
        if (oi.time_limit <= 0) { free(r0); return st; }
    }
    ns_result ri;
    ns_result_init(&ri);
    ns_status si = ns_soclcp_ipm(p, r, v, &oi, &ri);
    iters += ri.iterations;
    if (si == NS_CONVERGED || si == NS_INTERRUPTED) {
        res->error = ri.error;
        res->iterations = iters;
        memcpy(res->message, ri.message, sizeof res->message);
        ns_result_clear(&ri);
        free(r0);
        return si;
    }
    if (!(ri.error < e0)) memcpy(r, r0, n * sizeof(double));
    ns_result_clear(&ri);
    free(r0);
    res->message[0] = '\0';
    ns_options oe = *o;
    oe.warm_start = 1;
    if (o->time_limit > 0) {
        oe.time_limit = o->time_limit - (ns_now() - t0);
        if (oe.time_limit <= 0) { res->error = ns_soclcp_error(p, r, v); return NS_TIME_LIMIT; }
    }
    st = run(p, NS_VI_EG, r, v, &oe, res);
    res->iterations += iters;
    return st;
}
