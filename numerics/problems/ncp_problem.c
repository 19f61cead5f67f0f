/* ncp_problem.c — NCP construction (callback or affine), validation, free. */
#include "nonsmooth/ns_ncp.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <stdlib.h>

ns_ncp *ns_ncp_new(ns_int n, ns_map_fn F, ns_jacobian_fn J, void *user)
{
    ns_ncp *p = ns_calloc(1, sizeof *p);
    if (!p) return NULL;
    p->n = n;
    p->F = F;
    p->J = J;
    p->user = user;
    return p;
}

ns_ncp *ns_ncp_new_affine(ns_matrix *M, const double *q)
{
    if (!M) return NULL;
    ns_ncp *p = ns_calloc(1, sizeof *p);
    double *qc = ns_calloc((size_t)(M->cols > 0 ? M->cols : 1), sizeof(double));
    if (!p || !qc) { free(p); free(qc); ns_matrix_free(M); return NULL; }
    if (q) for (ns_int i = 0; i < M->cols; i++) qc[i] = q[i];
    p->n = M->cols;
    p->M = M;
    p->q = qc;
    return p;
}

ns_status ns_ncp_validate(const ns_ncp *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "ncp: no problem");
    return ns_check_map(p->n, p->F != NULL, p->M, p->q, "ncp", err);
}

void ns_ncp_free(ns_ncp *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    free(p->q);
    free(p);
}
