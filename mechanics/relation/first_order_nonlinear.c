/* first_order_nonlinear.c — first-order nonlinear relation y = h(X, λ, t),
 * r = g(λ, t), with the Jacobians C = ∂h/∂X, D = ∂h/∂λ, B = ∂g/∂λ given by
 * the callbacks. At the Newton iterate (X^α, λ^α) Euler–Moreau uses
 *   y ≈ h^α + C (X − X^α) + D (λ − λ^α),   r ≈ r0 + B λ,  r0 = g^α − B λ^α,
 * so the step's problem has the matrix D + h C W B (osnsp/assembly.c). */
#include "relation/relation_kind.h"
#include <stdlib.h>
#include <string.h>

nsm_relation *nsm_relation_first_order_nonlinear_new(int m, int ncols,
                                                     nsm_fo_output_fn h,
                                                     nsm_fo_input_fn g,
                                                     void *user)
{
    static const char who[] = "nsm_relation_first_order_nonlinear_new";
    if (!h || !g) return nsm_ctor_fail("%s: h and g are required", who);
    nsm_relation *r = nsm_relation_alloc(NSM_REL_FIRST_ORDER_NONLINEAR, m, ncols, who);
    if (!r) return NULL;
    r->fo_h = h; r->fo_g = g; r->user = user;
    return r;
}

static int output(const nsm_relation *r, double t, const double *Q,
                  const double *lam, double *y, double *H, double *work)
{
    (void)work;
    memset(H, 0, (size_t)r->m * r->ncols * sizeof *H);
    return r->fo_h(t, r->ncols, Q, r->m, lam, y, H, NULL, r->user);
}

static int linearise(const nsm_relation *r, double t, const double *X,
                     const double *lam, double *D, double *G, double *r0,
                     double *work)
{
    int m = r->m, nc = r->ncols;
    memset(D, 0, (size_t)m * m * sizeof *D);
    memset(work, 0, (size_t)m * sizeof *work);
    int rc = r->fo_h(t, nc, X, m, lam, work, NULL, D, r->user);
    if (rc != 0) return rc;
    memset(G, 0, (size_t)nc * m * sizeof *G);
    rc = r->fo_g(t, nc, m, lam, r0, G, r->user);
    if (rc != 0) return rc;
    for (int c = 0; c < m; c++)
        for (int i = 0; i < nc; i++) r0[i] -= G[i + (size_t)c * nc] * lam[c];
    return 0;
}

static void input(const nsm_relation *r, const double *H, double *G) { (void)r; (void)H; (void)G; /* by linearise */ }
static const double *dblock(const nsm_relation *r) { (void)r; return NULL; }
/* At (t, X, λ): 0 when row i of D = ∂h/∂λ is nonzero, 1 when row i of
 * C M⁻¹ B = (∂h/∂X) M⁻¹ (∂g/∂λ) is, −1 otherwise (λ would enter only ÿ); −2 when a
 * callback fails (reported by the first evaluation of the step). */
static int relative_degree(const nsm_relation *r, double t, const double *X, const double *lam, int i,
                           const nsm_minv *minv)
{
    int m = r->m, nc = r->ncols, deg = -1;
    double *buf = calloc((size_t)m * nc * 2 + (size_t)m * m + (size_t)m + nc, sizeof(double));
    if (!buf) return -2;
    double *C = buf, *B = C + (size_t)m * nc, *D = B + (size_t)nc * m, *y = D + (size_t)m * m, *g = y + m;
    if (r->fo_h(t, nc, X, m, lam, y, C, D, r->user) != 0 || r->fo_g(t, nc, m, lam, g, B, r->user) != 0) {
        free(buf);
        return -2;
    }
    for (int c = 0; c < m && deg < 0; c++) if (D[i + (size_t)c * m] != 0.0) deg = 0;
    if (deg < 0) deg = nsm_rel_cb_row_nonzero(m, nc, C, B, i, minv);
    free(buf);
    return deg;
}

const nsm_relation_kind nsm_rel_kind_first_order_nonlinear = {
    .type = NSM_REL_FIRST_ORDER_NONLINEAR, .name = "first-order nonlinear",
    .lagrangian = 0, .linear = 0, .output = output, .input = input, .D = dblock,
    .relative_degree = relative_degree, .linearise = linearise,
};
