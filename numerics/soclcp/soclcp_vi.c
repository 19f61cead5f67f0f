/* soclcp_vi.c — the SOCLCP as the VI  r ∈ K, ⟨W r + q, s − r⟩ ≥ 0 ∀s ∈ K
 * (same solutions: K is a cone), solved by the projection methods of
 * vi/vi_projection.c (fpp, eg) with P_K per cone; auto runs nsgs, then eg
 * from nsgs' iterate if nsgs did not reach tol. The VI methods stop on
 * the absolute natural residual: they are given tol·(1 + ‖q‖), which is
 * the kind's relative error. */
#include "solve/solvers.h"
#include "vi/vi_internal.h"
#include "nonsmooth/ns_soclcp.h"
#include "core/ns_internal.h"

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
    ns_status st = ns_soclcp_nsgs(p, r, v, o, res);
    if (st == NS_CONVERGED || st == NS_NO_MEMORY || st == NS_BAD_INPUT || st == NS_INTERRUPTED) return st;
    res->message[0] = '\0';
    return run(p, NS_VI_EG, r, v, o, res);
}
