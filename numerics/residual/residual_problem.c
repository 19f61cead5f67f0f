/* residual_problem.c — ns_problem_error: the kind's error on a solution's
 * vectors (ns_problem.h lists them per kind). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 1 if s has at least k vectors and vector i has length len[i] for i < k. */
static int shape_ok(const ns_solution *s, int k, const ns_int *len)
{
    if (s->nvec < k) return 0;
    for (int i = 0; i < k; i++)
        if (s->len[i] != len[i] || (len[i] > 0 && !s->vec[i])) return 0;
    return 1;
}

/* Fills the dependent vectors of s from its unknowns and returns the kind's
 * error (FC: NS_FC_NORM_SICONOS).  A scratch vector is allocated where the
 * solution has no room for w (MLCP needs z = (u, v) contiguous, AVI and
 * equality keep no w).  +INFINITY when s does not match p or on allocation
 * failure. */
double ns_problem_error(const ns_problem *p, ns_solution *s)
{
    if (!p || !s || s->kind != p->kind) return INFINITY;
    switch (p->kind) {
    case NS_KIND_LCP: {
        ns_int l[2] = { p->u.lcp->n, p->u.lcp->n };
        if (!shape_ok(s, 2, l)) return INFINITY;
        return ns_lcp_error(p->u.lcp, s->vec[0], s->vec[1]);
    }
    case NS_KIND_RELAY: {
        ns_int l[2] = { p->u.relay->n, p->u.relay->n };
        if (!shape_ok(s, 2, l)) return INFINITY;
        return ns_relay_error(p->u.relay, s->vec[0], s->vec[1]);
    }
    case NS_KIND_MLCP: {
        const ns_mlcp *q = p->u.mlcp;
        ns_int l[3] = { q->n, q->m, q->n + q->m };
        if (!shape_ok(s, 3, l)) return INFINITY;
        double *z = ns_malloc((size_t)(q->n + q->m > 0 ? q->n + q->m : 1), sizeof(double));
        if (!z) return INFINITY;
        if (q->n) memcpy(z, s->vec[0], (size_t)q->n * sizeof(double));
        if (q->m) memcpy(z + q->n, s->vec[1], (size_t)q->m * sizeof(double));
        double e = ns_mlcp_error(q, z, s->vec[2]);
        free(z);
        return e;
    }
    case NS_KIND_AVI:
    case NS_KIND_EQUALITY: {
        ns_int n = p->kind == NS_KIND_AVI ? p->u.avi->n : p->u.equality->n;
        if (!shape_ok(s, 1, &n)) return INFINITY;
        double *w = ns_malloc((size_t)(n > 0 ? n : 1), sizeof(double));
        if (!w) return INFINITY;
        double e = p->kind == NS_KIND_AVI ? ns_avi_error(p->u.avi, s->vec[0], w)
                                          : ns_equality_error(p->u.equality, s->vec[0], w);
        free(w);
        return e;
    }
    case NS_KIND_FC2D:
    case NS_KIND_FC3D: {
        ns_int m = p->u.fc->dim * p->u.fc->nc;
        ns_int l[2] = { m, m };
        if (!shape_ok(s, 2, l)) return INFINITY;
        return ns_fc_error(p->u.fc, s->vec[0], s->vec[1], NS_FC_NORM_SICONOS);
    }
    case NS_KIND_GFC2D:
    case NS_KIND_GFC3D: {
        ns_int m = p->u.gfc->dim * p->u.gfc->nc;
        ns_int l[3] = { p->u.gfc->n, m, m };
        if (!shape_ok(s, 3, l)) return INFINITY;
        return ns_gfc_error(p->u.gfc, s->vec[0], s->vec[2], s->vec[1], NULL);
    }
    case NS_KIND_GMP: {
        ns_int l[2] = { p->u.gmp->n, p->u.gmp->n };
        if (!shape_ok(s, 2, l)) return INFINITY;
        return ns_gmp_error(p->u.gmp, s->vec[0], s->vec[1]);
    }
    default:
        return INFINITY;
    }
}
