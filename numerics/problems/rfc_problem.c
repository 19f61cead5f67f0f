/* rfc_problem.c — rolling friction-contact problems: local (RFC3D, RFC2D)
 * and global (GRFC3D). See ns_rfc.h. */
#include "nonsmooth/ns_rfc.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *rfc_kind_name(int dim) { return dim == 3 ? "rfc2d" : "rfc3d"; }

/* μr (μp): the same checks as μ, named mu_r (mu_p) in messages. */
static ns_status check_coef(const double *c, const char *name, ns_int nc, const char *kind, char *err)
{
    if (nc > 0 && !c) return ns_fail(err, NS_BAD_INPUT, "%s: %s: missing", kind, name);
    for (ns_int a = 0; a < nc; a++) {
        if (isnan(c[a]))
            return ns_fail(err, NS_BAD_INPUT, "%s: %s[%d] is NaN", kind, name, a);
        if (c[a] < 0)
            return ns_fail(err, NS_BAD_INPUT, "%s: %s[%d] = %g is negative", kind, name, a, c[a]);
        if (!isfinite(c[a]))
            return ns_fail(err, NS_BAD_INPUT, "%s: %s[%d] is infinite", kind, name, a);
    }
    return NS_OK;
}
static ns_status check_mu_r(const double *mu_r, ns_int nc, const char *kind, char *err)
{
    return check_coef(mu_r, "mu_r", nc, kind, err);
}

/* n doubles: a zeroed copy of src (or zeros); n = 0 gives a 1-slot array. */
static double *copy_or_zero(const double *src, ns_int n)
{
    double *x = ns_calloc(n > 0 ? (size_t)n : 1, sizeof *x);
    if (x && src && n > 0) memcpy(x, src, (size_t)n * sizeof *x);
    return x;
}

ns_rfc *ns_rfc_new(int dim, ns_int nc, ns_matrix *W, const double *q,
                   const double *mu, const double *mu_r)
{
    if (!W || nc < 0 || (dim != 3 && dim != 5 && dim != 6)) { ns_matrix_free(W); return NULL; }
    ns_rfc *p = ns_calloc(1, sizeof *p);
    if (!p) { ns_matrix_free(W); return NULL; }
    p->dim = dim;
    p->nc = nc;
    p->W = W;
    p->q = copy_or_zero(q, W->cols);
    p->mu = copy_or_zero(mu, nc);
    p->mu_r = copy_or_zero(mu_r, nc);
    p->mu_p = copy_or_zero(NULL, nc);
    if (!p->q || !p->mu || !p->mu_r || !p->mu_p) { ns_rfc_free(p); return NULL; }
    return p;
}

ns_status ns_rfc_validate(const ns_rfc *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "rfc: no problem");
    if (p->dim != 3 && p->dim != 5 && p->dim != 6)
        return ns_fail(err, NS_BAD_INPUT, "rfc: dim: %d is not 5 or 6 (3D, 6 with pivoting) or 3 (2D)",
                       p->dim);
    const char *kind = rfc_kind_name(p->dim);
    if (p->nc < 0) return ns_fail(err, NS_BAD_INPUT, "%s: nc: negative contact count", kind);
    if (p->nc > NS_INT_MAX_DIM / p->dim)
        return ns_fail(err, NS_BAD_INPUT, "%s: nc: %d contacts is too many", kind, p->nc);
    ns_int m = p->dim * p->nc;
    if (p->W && p->W->cols != m)
        return ns_fail(err, NS_BAD_INPUT,
                       "%s: W: %d columns disagree with %d contacts x dim %d = %d",
                       kind, p->W->cols, p->nc, p->dim, m);
    ns_status st = ns_check_square(p->W, m, kind, "W", err);
    if (st) return st;
    if ((st = ns_check_vector(p->q, m, kind, "q", err))) return st;
    if ((st = ns_check_mu(p->mu, p->nc, kind, err))) return st;
    if ((st = check_mu_r(p->mu_r, p->nc, kind, err))) return st;
    return p->dim == 6 ? check_coef(p->mu_p, "mu_p", p->nc, kind, err) : NS_OK;
}

void ns_rfc_free(ns_rfc *p)
{
    if (!p) return;
    ns_matrix_free(p->W);
    free(p->q);
    free(p->mu);
    free(p->mu_r);
    free(p->mu_p);
    free(p);
}

ns_grfc *ns_grfc_new(int dim, ns_int nc, ns_matrix *M, ns_matrix *H,
                     const double *q, const double *b, const double *mu,
                     const double *mu_r)
{
    ns_grfc *p = NULL;
    if (!M || !H || nc < 0 || dim != 5) goto fail;
    p = ns_calloc(1, sizeof *p);
    if (!p) goto fail;
    p->dim = dim;
    p->nc = nc;
    p->n = M->cols;
    p->M = M;
    p->H = H;
    M = H = NULL;
    p->q = copy_or_zero(q, p->n);
    p->b = copy_or_zero(b, p->H->cols);
    p->mu = copy_or_zero(mu, nc);
    p->mu_r = copy_or_zero(mu_r, nc);
    if (!p->q || !p->b || !p->mu || !p->mu_r) goto fail;
    return p;
fail:
    ns_matrix_free(M);
    ns_matrix_free(H);
    ns_grfc_free(p);
    return NULL;
}

ns_status ns_grfc_validate(const ns_grfc *p, char *err)
{
    const char *kind = "grfc3d";
    if (!p) return ns_fail(err, NS_BAD_INPUT, "grfc3d: no problem");
    if (p->dim != 5) return ns_fail(err, NS_BAD_INPUT, "grfc3d: dim: %d is not 5", p->dim);
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
                       "%s: H: %d columns disagree with %d contacts x dim 5 = %d",
                       kind, p->H->cols, p->nc, m);
    char sub[NS_ERRMSG_LEN];
    if (ns_matrix_validate(p->H, "H", sub)) return ns_fail(err, NS_BAD_INPUT, "%s: %s", kind, sub);
    if ((st = ns_check_vector(p->q, p->n, kind, "q", err))) return st;
    if ((st = ns_check_vector(p->b, m, kind, "b", err))) return st;
    if ((st = ns_check_mu(p->mu, p->nc, kind, err))) return st;
    return check_mu_r(p->mu_r, p->nc, kind, err);
}

void ns_grfc_free(ns_grfc *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    ns_matrix_free(p->H);
    free(p->q);
    free(p->b);
    free(p->mu);
    free(p->mu_r);
    free(p);
}
