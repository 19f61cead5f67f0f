/* equality_problem.c — linear system M z + q = 0: construction, validation. */
#include "nonsmooth/ns_equality.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <stdlib.h>

ns_equality *ns_equality_new(ns_matrix *M, const double *q)
{
    if (!M) return NULL;
    ns_equality *p = ns_calloc(1, sizeof *p);
    if (!p) { ns_matrix_free(M); return NULL; }
    p->n = M->cols;
    p->M = M;
    p->q = ns_calloc((size_t)M->cols, sizeof(double));
    if (!p->q) { ns_equality_free(p); return NULL; }
    if (q) for (ns_int i = 0; i < M->cols; i++) p->q[i] = q[i];
    return p;
}

ns_status ns_equality_validate(const ns_equality *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "equality: no problem");
    ns_status st = ns_check_square(p->M, p->n, "equality", "M", err);
    if (st) return st;
    return ns_check_vector(p->q, p->n, "equality", "q", err);
}

void ns_equality_free(ns_equality *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    free(p->q);
    free(p);
}
