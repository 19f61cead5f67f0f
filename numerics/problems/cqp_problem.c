/* cqp_problem.c — convex QP construction, its set (box, cones or
 * projection), equality constraints, validation, free. */
#include "nonsmooth/ns_cqp.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

ns_cqp *ns_cqp_new(ns_matrix *M, const double *q)
{
    if (!M) return NULL;
    ns_cqp *p = ns_calloc(1, sizeof *p);
    double *qc = ns_calloc((size_t)(M->cols > 0 ? M->cols : 1), sizeof(double));
    if (!p || !qc) { free(p); free(qc); ns_matrix_free(M); return NULL; }
    if (q) for (ns_int i = 0; i < M->cols; i++) qc[i] = q[i];
    p->n = M->cols;
    p->M = M;
    p->q = qc;
    return p;
}

ns_status ns_cqp_set_box(ns_cqp *p, const double *lb, const double *ub)
{
    if (!p) return NS_BAD_INPUT;
    double *l, *u;
    if (ns_bounds_copy(p->n, lb, ub, &l, &u)) return NS_NO_MEMORY;
    free(p->lb);
    free(p->ub);
    p->lb = l;
    p->ub = u;
    return NS_OK;
}

ns_status ns_cqp_set_cones(ns_cqp *p, ns_int ncones, const ns_int *start, const double *mu)
{
    if (!p || ncones < 0 || (ncones > 0 && (!start || !mu))) return NS_BAD_INPUT;
    ns_int *s = ns_malloc((size_t)ncones + 1, sizeof(ns_int));
    double *m = ns_malloc((size_t)(ncones > 0 ? ncones : 1), sizeof(double));
    if (!s || !m) { free(s); free(m); return NS_NO_MEMORY; }
    if (ncones > 0) {
        memcpy(s, start, ((size_t)ncones + 1) * sizeof(ns_int));
        memcpy(m, mu, (size_t)ncones * sizeof(double));
    } else s[0] = 0;
    free(p->cone_start);
    free(p->cone_mu);
    p->ncones = ncones;
    p->cone_start = s;
    p->cone_mu = m;
    return NS_OK;
}

ns_status ns_cqp_set_projection(ns_cqp *p, ns_projection_fn project, void *user)
{
    if (!p || !project) return NS_BAD_INPUT;
    p->project = project;
    p->user = user;
    return NS_OK;
}

ns_status ns_cqp_set_equalities(ns_cqp *p, ns_matrix *A, const double *b)
{
    if (!p || !A) { ns_matrix_free(A); return NS_BAD_INPUT; }
    double *bc = ns_calloc((size_t)(A->rows > 0 ? A->rows : 1), sizeof(double));
    if (!bc) { ns_matrix_free(A); return NS_NO_MEMORY; }
    if (b) for (ns_int i = 0; i < A->rows; i++) bc[i] = b[i];
    ns_matrix_free(p->A);
    free(p->b);
    p->A = A;
    p->b = bc;
    p->m = A->rows;
    return NS_OK;
}

ns_status ns_cqp_validate(const ns_cqp *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "cqp: no problem");
    ns_status st = ns_check_square(p->M, p->n, "cqp", "M", err);
    if (st) return st;
    if ((st = ns_check_vector(p->q, p->n, "cqp", "q", err))) return st;
    if (!ns_matrix_is_symmetric(p->M, 1e-10))
        return ns_fail(err, NS_BAD_INPUT, "cqp: M: not symmetric");
    if (p->m < 0) return ns_fail(err, NS_BAD_INPUT, "cqp: m = %d is negative", p->m);
    if (p->m > 0 || p->A) {
        if (!p->A) return ns_fail(err, NS_BAD_INPUT, "cqp: A: missing (m = %d)", p->m);
        if (p->A->rows != p->m || p->A->cols != p->n)
            return ns_fail(err, NS_BAD_INPUT, "cqp: A: %d x %d, expected m x n = %d x %d",
                           p->A->rows, p->A->cols, p->m, p->n);
        char sub[NS_ERRMSG_LEN];
        if (ns_matrix_validate(p->A, "A", sub))
            return ns_fail(err, NS_BAD_INPUT, "cqp: %s", sub);
        if ((st = ns_check_vector(p->b, p->m, "cqp", "b", err))) return st;
    }
    int sets = (p->project != NULL) + (p->lb || p->ub) + (p->cone_start != NULL);
    if (sets > 1)
        return ns_fail(err, NS_BAD_INPUT, "cqp: C: more than one of box, cones, projection given");
    if (p->lb || p->ub) return ns_check_bounds(p->n, p->lb, p->ub, "cqp", err);
    if (p->cone_start) {
        if (p->ncones < 0 || p->cone_start[0] != 0 || p->cone_start[p->ncones] != p->n)
            return ns_fail(err, NS_BAD_INPUT, "cqp: cone_start: must run from 0 to n = %d", p->n);
        for (ns_int c = 0; c < p->ncones; c++) {
            if (p->cone_start[c + 1] <= p->cone_start[c])
                return ns_fail(err, NS_BAD_INPUT, "cqp: cone_start[%d]: cone %d is empty", c + 1, c);
            if (!isfinite(p->cone_mu[c]) || p->cone_mu[c] < 0)
                return ns_fail(err, NS_BAD_INPUT, "cqp: mu[%d] = %g: must be finite and >= 0",
                               c, p->cone_mu[c]);
        }
    }
    return NS_OK;
}

void ns_cqp_free(ns_cqp *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    ns_matrix_free(p->A);
    free(p->q);
    free(p->b);
    free(p->lb);
    free(p->ub);
    free(p->cone_start);
    free(p->cone_mu);
    free(p);
}
