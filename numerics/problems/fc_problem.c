/* fc_problem.c — local friction-contact problem (FC2D/FC3D). */
#include "nonsmooth/ns_fc.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <stdlib.h>
#include <string.h>

ns_fc *ns_fc_new(int dim, ns_int nc, ns_matrix *W, const double *q,
                 const double *mu)
{
    if (!W || nc < 0) { ns_matrix_free(W); return NULL; }
    ns_fc *p = ns_calloc(1, sizeof *p);
    if (!p) { ns_matrix_free(W); return NULL; }
    p->dim = dim;
    p->nc = nc;
    p->W = W;
    p->q = ns_calloc((size_t)W->cols, sizeof(double));
    p->mu = ns_calloc((size_t)nc, sizeof(double));
    if (!p->q || !p->mu) { ns_fc_free(p); return NULL; }
    if (q) for (ns_int i = 0; i < W->cols; i++) p->q[i] = q[i];
    if (mu) for (ns_int a = 0; a < nc; a++) p->mu[a] = mu[a];
    return p;
}

ns_status ns_fc_validate(const ns_fc *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "fc: no problem");
    const char *kind = p->dim == 2 ? "fc2d" : "fc3d";
    if (p->dim != 2 && p->dim != 3)
        return ns_fail(err, NS_BAD_INPUT, "fc: dim: %d is not 2 or 3", p->dim);
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
    return ns_check_mu(p->mu, p->nc, kind, err);
}

void ns_fc_free(ns_fc *p)
{
    if (!p) return;
    ns_matrix_free(p->W);
    free(p->q);
    free(p->mu);
    free(p);
}

ns_status ns_fc_reshape(ns_fc *p, ns_int nc)
{
    if (!p || nc < 0 || (p->dim != 2 && p->dim != 3) || nc > NS_INT_MAX_DIM / p->dim) return NS_BAD_INPUT;
    ns_int have = p->cap_nc > p->nc ? p->cap_nc : p->nc;
    if (nc > have) {
        size_t c = (size_t)nc + (size_t)nc / 8 + 1;
        double *q = realloc(p->q, c * (size_t)p->dim * sizeof *q);
        if (!q) return NS_NO_MEMORY;
        p->q = q;
        double *mu = realloc(p->mu, c * sizeof *mu);
        if (!mu) return NS_NO_MEMORY;   /* q is larger, still valid for p->nc */
        p->mu = mu;
        p->cap_nc = (ns_int)c;
    }
    p->nc = nc;
    memset(p->q, 0, (size_t)nc * (size_t)p->dim * sizeof *p->q);
    memset(p->mu, 0, (size_t)nc * sizeof *p->mu);
    return NS_OK;
}
