/* lagrangian_linear.c — Lagrangian linear relation y = H Q + b, p = Hᵀ λ. */
#include "relation/relation_kind.h"
#include "ds/ds_kind.h"
#include <string.h>

nsm_relation *nsm_relation_lagrangian_linear_new(int m, int ncols,
                                                 const double *H,
                                                 const double *b)
{
    static const char who[] = "nsm_relation_lagrangian_linear_new";
    nsm_relation *r = nsm_relation_alloc(NSM_REL_LAGRANGIAN_LINEAR, m, ncols, who);
    if (!r) return NULL;
    if (nsm_ctor_check(who, "H", H, (size_t)m * ncols, 1) || nsm_ctor_check(who, "b", b, (size_t)m, 0)) { nsm_relation_free(r); return NULL; }
    r->H = nsm_dup(H, (size_t)m * ncols);
    r->b = nsm_dup(b, (size_t)m);
    if (!r->H || !r->b) { nsm_relation_free(r); return nsm_ctor_fail("%s: out of memory", who); }
    return r;
}

ns_status nsm_relation_set_H(nsm_relation *r, const double *H, const double *b)
{
    if (!r || r->type != NSM_REL_LAGRANGIAN_LINEAR || !H) return NS_BAD_INPUT;
    /* finite, as the constructor checks: a linear relation's H is not
     * checked again at every evaluation (nsm_relation_eval) */
    if (!nsm_all_finite(H, (size_t)r->m * r->ncols) || (b && !nsm_all_finite(b, (size_t)r->m))) return NS_BAD_INPUT;
    memcpy(r->H, H, (size_t)r->m * r->ncols * sizeof *H);
    if (b) memcpy(r->b, b, (size_t)r->m * sizeof *b);
    r->version++;
    return NS_OK;
}

ns_status nsm_relation_get_H(const nsm_relation *r, double *H, double *b)
{
    if (!r || r->type != NSM_REL_LAGRANGIAN_LINEAR || !H) return NS_BAD_INPUT;
    memcpy(H, r->H, (size_t)r->m * r->ncols * sizeof *H);
    if (b) memcpy(b, r->b, (size_t)r->m * sizeof *b);
    return NS_OK;
}

static int output(const nsm_relation *r, double t, const double *Q,
                  const double *lam, double *y, double *H, double *work)
{
    (void)t; (void)work;
    int m = r->m;
    if (H != r->H) memcpy(H, r->H, (size_t)m * r->ncols * sizeof *H);
    nsm_matvec(m, r->ncols, r->H, Q, y);
    for (int i = 0; i < m; i++) y[i] += r->b[i];
    if (r->D && lam)
        for (int c = 0; c < m; c++) for (int i = 0; i < m; i++) y[i] += r->D[i + (size_t)c * m] * lam[c];
    return 0;
}

static void input(const nsm_relation *r, const double *H, double *G) { nsm_relation_transpose(r->m, r->ncols, H, G); }
static const double *dblock(const nsm_relation *r) { return r->D; }
static const double *stored_H(const nsm_relation *r) { return r->H; }

const nsm_relation_kind nsm_rel_kind_lagrangian_linear = {
    .type = NSM_REL_LAGRANGIAN_LINEAR, .name = "Lagrangian linear",
    .lagrangian = 1, .linear = 1, .output = output, .input = input, .D = dblock, .stored_H = stored_H,
};
