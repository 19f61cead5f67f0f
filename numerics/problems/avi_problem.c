/* avi_problem.c — AVI construction, set description, validation, free. */
#include "nonsmooth/ns_avi.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>

ns_avi *ns_avi_new(ns_matrix *M, const double *q)
{
    if (!M) return NULL;
    ns_avi *p = ns_calloc(1, sizeof *p);
    if (!p) { ns_matrix_free(M); return NULL; }
    p->n = M->cols;
    p->M = M;
    p->q = ns_calloc((size_t)M->cols, sizeof(double));
    if (!p->q) { ns_avi_free(p); return NULL; }
    if (q) for (ns_int i = 0; i < M->cols; i++) p->q[i] = q[i];
    return p;
}

ns_status ns_avi_set_polyhedron(ns_avi *p, ns_matrix *H, const double *h)
{
    if (!p || !H) { ns_matrix_free(H); return NS_BAD_INPUT; }
    double *hc = ns_calloc((size_t)H->rows, sizeof(double));
    if (!hc) { ns_matrix_free(H); return NS_NO_MEMORY; }
    if (h) for (ns_int i = 0; i < H->rows; i++) hc[i] = h[i];
    ns_matrix_free(p->H);
    free(p->h);
    p->H = H;
    p->h = hc;
    return NS_OK;
}

ns_status ns_avi_set_box(ns_avi *p, const double *lb, const double *ub)
{
    if (!p) return NS_BAD_INPUT;
    size_t n = (size_t)p->n;
    double *l = ns_malloc(n, sizeof(double)), *u = ns_malloc(n, sizeof(double));
    if (!l || !u) { free(l); free(u); return NS_NO_MEMORY; }
    for (size_t i = 0; i < n; i++) {
        l[i] = lb ? lb[i] : -INFINITY;
        u[i] = ub ? ub[i] : INFINITY;
    }
    free(p->lb);
    free(p->ub);
    p->lb = l;
    p->ub = u;
    return NS_OK;
}

ns_status ns_avi_validate(const ns_avi *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "avi: no problem");
    ns_status st = ns_check_square(p->M, p->n, "avi", "M", err);
    if (st) return st;
    if ((st = ns_check_vector(p->q, p->n, "avi", "q", err))) return st;
    if (p->H) {
        if (p->H->cols != p->n)
            return ns_fail(err, NS_BAD_INPUT, "avi: H: %d columns, expected n = %d",
                           p->H->cols, p->n);
        char sub[NS_ERRMSG_LEN];
        if (ns_matrix_validate(p->H, "H", sub))
            return ns_fail(err, NS_BAD_INPUT, "avi: %s", sub);
        if ((st = ns_check_vector(p->h, p->H->rows, "avi", "h", err))) return st;
    } else if (p->lb || p->ub) {
        if (!p->lb || !p->ub) return ns_fail(err, NS_BAD_INPUT, "avi: lb/ub: only one given");
        for (ns_int i = 0; i < p->n; i++) {
            if (isnan(p->lb[i]) || isnan(p->ub[i]))
                return ns_fail(err, NS_BAD_INPUT, "avi: bound %d is NaN", i);
            if (p->lb[i] > p->ub[i])
                return ns_fail(err, NS_BAD_INPUT, "avi: lb[%d] = %g > ub[%d] = %g", i,
                               p->lb[i], i, p->ub[i]);
        }
    }
    return NS_OK;
}

void ns_avi_free(ns_avi *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    ns_matrix_free(p->H);
    free(p->q);
    free(p->h);
    free(p->lb);
    free(p->ub);
    free(p);
}
