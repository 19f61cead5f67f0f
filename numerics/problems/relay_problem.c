/* relay_problem.c — relay problem construction, validation, free. */
#include "nonsmooth/ns_relay.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>

ns_relay *ns_relay_new(ns_matrix *M, const double *q, const double *lb,
                       const double *ub)
{
    if (!M) return NULL;
    ns_relay *p = ns_calloc(1, sizeof *p);
    if (!p) { ns_matrix_free(M); return NULL; }
    size_t n = (size_t)M->cols;
    p->n = M->cols;
    p->M = M;
    p->q = ns_calloc(n, sizeof(double));
    p->lb = ns_calloc(n, sizeof(double));
    p->ub = ns_calloc(n, sizeof(double));
    if (!p->q || !p->lb || !p->ub) { ns_relay_free(p); return NULL; }
    for (size_t i = 0; i < n; i++) {
        p->q[i] = q ? q[i] : 0.0;
        p->lb[i] = lb ? lb[i] : -INFINITY;
        p->ub[i] = ub ? ub[i] : INFINITY;
    }
    return p;
}

ns_status ns_relay_validate(const ns_relay *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "relay: no problem");
    ns_status st = ns_check_square(p->M, p->n, "relay", "M", err);
    if (st) return st;
    if ((st = ns_check_vector(p->q, p->n, "relay", "q", err))) return st;
    if (p->n > 0 && (!p->lb || !p->ub))
        return ns_fail(err, NS_BAD_INPUT, "relay: lb/ub: missing bounds");
    for (ns_int i = 0; i < p->n; i++) {
        if (isnan(p->lb[i])) return ns_fail(err, NS_BAD_INPUT, "relay: lb[%d] is NaN", i);
        if (isnan(p->ub[i])) return ns_fail(err, NS_BAD_INPUT, "relay: ub[%d] is NaN", i);
        if (p->lb[i] > p->ub[i])
            return ns_fail(err, NS_BAD_INPUT, "relay: lb[%d] = %g > ub[%d] = %g", i,
                           p->lb[i], i, p->ub[i]);
    }
    return NS_OK;
}

void ns_relay_free(ns_relay *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    free(p->q);
    free(p->lb);
    free(p->ub);
    free(p);
}
