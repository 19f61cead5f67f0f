/* mcp_problem.c — MCP construction (callback, mixed or affine), bounds,
 * validation, free. */
#include "nonsmooth/ns_mcp.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>

ns_mcp *ns_mcp_new(ns_int n, ns_map_fn F, ns_jacobian_fn J, void *user,
                   const double *lb, const double *ub)
{
    ns_mcp *p = ns_calloc(1, sizeof *p);
    if (!p) return NULL;
    p->n = n;
    p->F = F;
    p->J = J;
    p->user = user;
    if (n >= 0 && ns_bounds_copy(n, lb, ub, &p->lb, &p->ub)) { free(p); return NULL; }
    return p;
}

ns_mcp *ns_mcp_new_mixed(ns_int n_eq, ns_int n_cp, ns_map_fn F, ns_jacobian_fn J,
                         void *user)
{
    if (n_eq < 0 || n_cp < 0) return ns_mcp_new(-1, F, J, user, NULL, NULL);
    ns_mcp *p = ns_mcp_new(n_eq + n_cp, F, J, user, NULL, NULL);
    if (p)
        for (ns_int i = n_eq; i < n_eq + n_cp; i++) p->lb[i] = 0.0;
    return p;
}

ns_mcp *ns_mcp_new_affine(ns_matrix *M, const double *q, const double *lb,
                          const double *ub)
{
    if (!M) return NULL;
    ns_int n = M->cols;
    ns_mcp *p = ns_mcp_new(n, NULL, NULL, NULL, lb, ub);
    double *qc = ns_calloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!p || !qc) { ns_mcp_free(p); free(qc); ns_matrix_free(M); return NULL; }
    if (q) for (ns_int i = 0; i < n; i++) qc[i] = q[i];
    p->M = M;
    p->q = qc;
    return p;
}

ns_status ns_mcp_validate(const ns_mcp *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "mcp: no problem");
    ns_status st = ns_check_map(p->n, p->F != NULL, p->M, p->q, "mcp", err);
    if (st) return st;
    return ns_check_bounds(p->n, p->lb, p->ub, "mcp", err);
}

void ns_mcp_free(ns_mcp *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    free(p->q);
    free(p->lb);
    free(p->ub);
    free(p);
}
