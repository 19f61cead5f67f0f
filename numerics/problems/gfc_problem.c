/* gfc_problem.c — global friction-contact problem (GFC2D/GFC3D). */
#include "nonsmooth/ns_gfc.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <stdlib.h>

/* A new array of n doubles: a copy of x (ns_dup), or zeros when x is NULL. */
static double *copy_or_zero(const double *x, ns_int n)
{
    return x ? ns_dup(x, (size_t)n) : ns_calloc((size_t)n, sizeof(double));
}

ns_gfc *ns_gfc_new(int dim, ns_int nc, ns_matrix *M, ns_matrix *H,
                   const double *q, const double *b, const double *mu)
{
    ns_gfc *p = NULL;
    if (!M || !H || nc < 0) goto fail;
    p = ns_calloc(1, sizeof *p);
    if (!p) goto fail;
    p->dim = dim;
    p->nc = nc;
    p->n = M->cols;
    p->M = M;
    p->H = H;
    M = H = NULL;
    if (!(p->q = copy_or_zero(q, p->n)) || !(p->b = copy_or_zero(b, p->H->cols)) ||
        !(p->mu = copy_or_zero(mu, nc)))
        goto fail;
    return p;
fail:
    ns_matrix_free(M);
    ns_matrix_free(H);
    ns_gfc_free(p);
    return NULL;
}

ns_status ns_gfc_validate(const ns_gfc *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "gfc: no problem");
    if (p->dim != 2 && p->dim != 3)
        return ns_fail(err, NS_BAD_INPUT, "gfc: dim: %d is not 2 or 3", p->dim);
    const char *kind = p->dim == 2 ? "gfc2d" : "gfc3d";
    if (p->nc < 0 || p->nc > NS_INT_MAX_DIM / p->dim)
        return ns_fail(err, NS_BAD_INPUT, "%s: nc: invalid contact count %d", kind, p->nc);
    ns_int m = p->dim * p->nc;
    ns_status st = ns_check_square(p->M, p->n, kind, "M", err);
    if (st) return st;
    if (!p->H) return ns_fail(err, NS_BAD_INPUT, "%s: H: missing matrix", kind);
    if (p->H->rows != p->M->rows)
        return ns_fail(err, NS_BAD_INPUT, "%s: H: %d rows disagree with M's %d", kind,
                       p->H->rows, p->M->rows);
    if (p->H->cols != m)
        return ns_fail(err, NS_BAD_INPUT,
                       "%s: H: %d columns disagree with %d contacts x dim %d = %d",
                       kind, p->H->cols, p->nc, p->dim, m);
    char sub[NS_ERRMSG_LEN];
    if (ns_matrix_validate(p->H, "H", sub)) return ns_fail(err, NS_BAD_INPUT, "%s: %s", kind, sub);
    if ((st = ns_check_vector(p->q, p->n, kind, "q", err))) return st;
    if ((st = ns_check_vector(p->b, m, kind, "b", err))) return st;
    return ns_check_mu(p->mu, p->nc, kind, err);
}

void ns_gfc_free(ns_gfc *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    ns_matrix_free(p->H);
    free(p->q);
    free(p->b);
    free(p->mu);
    free(p);
}
