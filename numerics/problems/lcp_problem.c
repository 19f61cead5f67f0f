/* lcp_problem.c — LCP construction, validation, free. */
#include "nonsmooth/ns_lcp.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <stdlib.h>

ns_lcp *ns_lcp_new(ns_matrix *M, const double *q)
{
    if (!M) return NULL;
    ns_lcp *p = ns_calloc(1, sizeof *p);
    if (!p) { ns_matrix_free(M); return NULL; }
    p->n = M->cols;
    p->M = M;
    p->q = ns_calloc((size_t)M->cols, sizeof(double));
    if (!p->q) { ns_lcp_free(p); return NULL; }
    if (q) for (ns_int i = 0; i < M->cols; i++) p->q[i] = q[i];
    return p;
}

ns_status ns_lcp_validate(const ns_lcp *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "lcp: no problem");
    if (p->n < 0) return ns_fail(err, NS_BAD_INPUT, "lcp: n: negative size %d", p->n);
    ns_status st = ns_check_square(p->M, p->n, "lcp", "M", err);
    if (st) return st;
    return ns_check_vector(p->q, p->n, "lcp", "q", err);
}

void ns_lcp_free(ns_lcp *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    free(p->q);
    free(p);
}
