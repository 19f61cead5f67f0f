/* vi_problem.c — VI construction (box or projection callback; callback or
 * affine F), validation, free. */
#include "nonsmooth/ns_vi.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <stdlib.h>

ns_vi *ns_vi_new_box(ns_int n, ns_map_fn F, ns_jacobian_fn J, void *user,
                     const double *lb, const double *ub)
{
    ns_vi *p = ns_calloc(1, sizeof *p);
    if (!p) return NULL;
    p->n = n;
    p->F = F;
    p->J = J;
    p->user = user;
    if (n >= 0 && ns_bounds_copy(n, lb, ub, &p->lb, &p->ub)) { free(p); return NULL; }
    return p;
}

ns_vi *ns_vi_new(ns_int n, ns_map_fn F, ns_jacobian_fn J, void *user,
                 ns_projection_fn project)
{
    ns_vi *p = ns_calloc(1, sizeof *p);
    if (!p) return NULL;
    p->n = n;
    p->F = F;
    p->J = J;
    p->user = user;
    p->project = project;
    return p;
}

ns_vi *ns_vi_new_affine_box(ns_matrix *M, const double *q, const double *lb,
                            const double *ub)
{
    if (!M) return NULL;
    ns_int n = M->cols;
    ns_vi *p = ns_vi_new_box(n, NULL, NULL, NULL, lb, ub);
    double *qc = ns_calloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!p || !qc) { ns_vi_free(p); free(qc); ns_matrix_free(M); return NULL; }
    if (q) for (ns_int i = 0; i < n; i++) qc[i] = q[i];
    p->M = M;
    p->q = qc;
    return p;
}

ns_status ns_vi_validate(const ns_vi *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "vi: no problem");
    ns_status st = ns_check_map(p->n, p->F != NULL, p->M, p->q, "vi", err);
    if (st) return st;
    if (p->project && (p->lb || p->ub))
        return ns_fail(err, NS_BAD_INPUT, "vi: X: both a projection and a box given");
    if (!p->project) {
        if (!p->lb && !p->ub && p->n > 0)
            return ns_fail(err, NS_BAD_INPUT, "vi: X: no projection and no box given");
        return ns_check_bounds(p->n, p->lb, p->ub, "vi", err);
    }
    return NS_OK;
}

void ns_vi_free(ns_vi *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    free(p->q);
    free(p->lb);
    free(p->ub);
    free(p);
}
