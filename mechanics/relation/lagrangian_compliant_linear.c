/* lagrangian_compliant_linear.c — Lagrangian compliant linear relation
 * y = H Q + b, ẏ = H Q̇ + D λ[1], p = Hᵀ λ: the law of the step applies to
 * H v_{k+1} + D P (P the impulse), so D adds to the one-step matrix
 * H W Hᵀ (Siconos' LagrangianCompliantLinearTIR at velocity level).
 * A new relation type = this file + one row in relation.c. */
#include "relation/relation_kind.h"
#include "ds/ds_kind.h"
#include <string.h>

nsm_relation *nsm_relation_lagrangian_compliant_linear_new(int m, int ncols,
                                                           const double *H,
                                                           const double *D,
                                                           const double *b)
{
    static const char who[] = "nsm_relation_lagrangian_compliant_linear_new";
    nsm_relation *r = nsm_relation_alloc(NSM_REL_LAGRANGIAN_COMPLIANT_LINEAR, m, ncols, who);
    if (!r) return NULL;
    if (nsm_ctor_check(who, "H", H, (size_t)m * ncols, 1) || nsm_ctor_check(who, "D", D, (size_t)m * m, 1) ||
        nsm_ctor_check(who, "b", b, (size_t)m, 0)) {
        nsm_relation_free(r);
        return NULL;
    }
    r->H = nsm_dup(H, (size_t)m * ncols);
    r->D = nsm_dup(D, (size_t)m * m);
    r->b = nsm_dup(b, (size_t)m);
    if (!r->H || !r->D || !r->b) { nsm_relation_free(r); return nsm_ctor_fail("%s: out of memory", who); }
    return r;
}

static int output(const nsm_relation *r, double t, const double *Q,
                  const double *lam, double *y, double *H, double *work)
{
    (void)t; (void)work; (void)lam;
    int m = r->m;
    if (H != r->H) memcpy(H, r->H, (size_t)m * r->ncols * sizeof *H);
    nsm_matvec(m, r->ncols, r->H, Q, y);
    for (int i = 0; i < m; i++) y[i] += r->b[i];
    return 0;
}

static void input(const nsm_relation *r, const double *H, double *G) { nsm_relation_transpose(r->m, r->ncols, H, G); }
static const double *dblock(const nsm_relation *r) { return r->D; }
static const double *stored_H(const nsm_relation *r) { return r->H; }
/* λ[1] enters ẏ directly through D: degree 1 where D's row is nonzero */
static int relative_degree(const nsm_relation *r, double t, const double *X, const double *lam, int i,
                           const nsm_minv *minv)
{
    (void)t; (void)X; (void)lam; (void)minv;
    for (int c = 0; c < r->m; c++) if (r->D[i + (size_t)c * r->m] != 0.0) return 1;
    return 2;
}

const nsm_relation_kind nsm_rel_kind_lagrangian_compliant_linear = {
    .type = NSM_REL_LAGRANGIAN_COMPLIANT_LINEAR, .name = "Lagrangian compliant linear",
    .lagrangian = 1, .linear = 1, .output = output, .input = input, .D = dblock, .stored_H = stored_H,
    .relative_degree = relative_degree,
};
