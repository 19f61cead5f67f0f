/* first_order_linear.c — first-order linear relation y = C X + D λ + e,
 * r = B λ (e constant, or e(t) with nsm_relation_set_offset_fn). */
#include "relation/relation_kind.h"
#include "ds/ds_kind.h"
#include <string.h>

nsm_relation *nsm_relation_first_order_linear_new(int m, int ncols,
                                                  const double *C,
                                                  const double *D,
                                                  const double *B,
                                                  const double *e)
{
    static const char who[] = "nsm_relation_first_order_linear_new";
    nsm_relation *r = nsm_relation_alloc(NSM_REL_FIRST_ORDER_LINEAR, m, ncols, who);
    if (!r) return NULL;
    size_t mn = (size_t)m * ncols;
    if (nsm_ctor_check(who, "C", C, mn, 1) || nsm_ctor_check(who, "B", B, mn, 1) ||
        nsm_ctor_check(who, "D", D, (size_t)m * m, 0) || nsm_ctor_check(who, "e", e, (size_t)m, 0)) {
        nsm_relation_free(r);
        return NULL;
    }
    r->C = nsm_dup(C, (size_t)m * ncols);
    r->B = nsm_dup(B, (size_t)ncols * m);
    r->D = D ? nsm_dup(D, (size_t)m * m) : NULL;
    r->e = e ? nsm_dup(e, (size_t)m) : NULL;
    if (!r->C || !r->B || (D && !r->D) || (e && !r->e)) {
        nsm_relation_free(r);
        return nsm_ctor_fail("%s: out of memory", who);
    }
    return r;
}

ns_status nsm_relation_set_offset_fn(nsm_relation *r, nsm_time_fn e, void *user)
{
    if (!r || r->type != NSM_REL_FIRST_ORDER_LINEAR) return NS_BAD_INPUT;
    r->e_fn = e;
    r->e_user = user;
    return NS_OK;
}

/* e (+ e(t)) added to y; work: m */
int nsm_rel_first_order_offset(const nsm_relation *r, double t, double *y, double *work)
{
    if (r->e) for (int i = 0; i < r->m; i++) y[i] += r->e[i];
    if (r->e_fn) {
        int rc = r->e_fn(t, r->m, work, r->e_user);
        if (rc != 0) return rc;
        for (int i = 0; i < r->m; i++) y[i] += work[i];
    }
    return 0;
}

static int output(const nsm_relation *r, double t, const double *Q,
                  const double *lam, double *y, double *H, double *work)
{
    int m = r->m;
    if (H != r->C) memcpy(H, r->C, (size_t)m * r->ncols * sizeof *H);
    nsm_matvec(m, r->ncols, r->C, Q, y);
    if (r->D && lam) for (int c = 0; c < m; c++) for (int i = 0; i < m; i++) y[i] += r->D[i + (size_t)c * m] * lam[c];
    return nsm_rel_first_order_offset(r, t, y, work);
}

static void input(const nsm_relation *r, const double *H, double *G)
{
    (void)H;
    memcpy(G, r->B, (size_t)r->ncols * r->m * sizeof *G);
}
static const double *dblock(const nsm_relation *r) { return r->D; }

/* y_i = C_i X + D_i λ + e_i: degree 0 if D_i ≠ 0; else ẏ_i = C_i (f + B λ)
 * gives 1 if C_i B ≠ 0 (B over the coupled state: the systems' blocks are
 * consecutive, so C_i B sums C_i^j B^j); otherwise ≥ 2: undefined here. */
static int relative_degree(const nsm_relation *r, double t, const double *X, const double *lam, int i,
                           const nsm_minv *minv)
{
    (void)t; (void)X; (void)lam;
    int m = r->m, nc = r->ncols;
    if (r->D) for (int c = 0; c < m; c++) if (r->D[i + (size_t)c * m] != 0.0) return 0;
    return nsm_rel_cb_row_nonzero(m, nc, r->C, r->B, i, minv);
}

const nsm_relation_kind nsm_rel_kind_first_order_linear = {
    .type = NSM_REL_FIRST_ORDER_LINEAR, .name = "first-order linear",
    .lagrangian = 0, .linear = 1, .output = output, .input = input, .D = dblock,
    .relative_degree = relative_degree,
};
