/* map_check.c — validation shared by the kinds whose F is a callback or
 * affine (ncp, mcp, vi) and by the kinds with box bounds. */
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>

ns_status ns_check_map(ns_int n, int has_F, const ns_matrix *M, const double *q,
                       const char *kind, char *err)
{
    if (n < 0) return ns_fail(err, NS_BAD_INPUT, "%s: n = %d is negative", kind, n);
    if (has_F && M) return ns_fail(err, NS_BAD_INPUT, "%s: F: both a callback and an affine M given", kind);
    if (!has_F && !M) return ns_fail(err, NS_BAD_INPUT, "%s: F: no callback and no affine M given", kind);
    if (M) {
        ns_status st = ns_check_square(M, n, kind, "M", err);
        if (st) return st;
        return ns_check_vector(q, n, kind, "q", err);
    }
    return NS_OK;
}

/* New bounds arrays, NULL lb → −∞, NULL ub → +∞; 0 on success. */
int ns_bounds_copy(ns_int n, const double *lb, const double *ub, double **l, double **u)
{
    size_t m = (size_t)(n > 0 ? n : 1);
    *l = ns_malloc(m, sizeof(double));
    *u = ns_malloc(m, sizeof(double));
    if (!*l || !*u) { free(*l); free(*u); *l = *u = NULL; return 1; }
    for (ns_int i = 0; i < n; i++) {
        (*l)[i] = lb ? lb[i] : -INFINITY;
        (*u)[i] = ub ? ub[i] : INFINITY;
    }
    return 0;
}

ns_status ns_check_bounds(ns_int n, const double *lb, const double *ub,
                          const char *kind, char *err)
{
    if (n > 0 && (!lb || !ub))
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: missing bounds", kind, lb ? "ub" : "lb");
    for (ns_int i = 0; i < n; i++) {
        if (isnan(lb[i]) || isnan(ub[i]))
            return ns_fail(err, NS_BAD_INPUT, "%s: %s[%d] is NaN", kind, isnan(lb[i]) ? "lb" : "ub", i);
        if (lb[i] == INFINITY)
            return ns_fail(err, NS_BAD_INPUT, "%s: lb[%d] is +inf", kind, i);
        if (ub[i] == -INFINITY)
            return ns_fail(err, NS_BAD_INPUT, "%s: ub[%d] is -inf", kind, i);
        if (lb[i] > ub[i])
            return ns_fail(err, NS_BAD_INPUT, "%s: lb[%d] = %g > ub[%d] = %g", kind, i,
                           lb[i], i, ub[i]);
    }
    return NS_OK;
}

