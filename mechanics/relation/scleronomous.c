/* scleronomous.c — Lagrangian scleronomous relation y = h(Q), ẏ = ∇h Q̇,
 * p = ∇hᵀ λ (callbacks h and ∇h). */
#include "relation/relation_kind.h"
#include <string.h>

nsm_relation *nsm_relation_scleronomous_new(int m, int ncols, nsm_h_fn h,
                                            nsm_jach_fn jach, void *user)
{
    if (!h || !jach) return nsm_ctor_fail("nsm_relation_scleronomous_new: h and jach are required");
    nsm_relation *r = nsm_relation_alloc(NSM_REL_LAGRANGIAN_SCLERONOMOUS, m, ncols, "nsm_relation_scleronomous_new");
    if (!r) return NULL;
    r->h = h; r->jach = jach; r->user = user;
    return r;
}

/* y = h(Q, t) (+ D λ), H = ∇h: shared with the rheonomous type */
int nsm_rel_lagrangian_output(const nsm_relation *r, double t, const double *Q,
                              const double *lam, double *y, double *H, double *work)
{
    (void)work;
    int m = r->m, nc = r->ncols;
    int rc = r->h(t, nc, Q, m, y, r->user);
    if (rc != 0) return rc;
    memset(H, 0, (size_t)m * nc * sizeof *H);
    rc = r->jach(t, nc, Q, m, H, r->user);
    if (rc != 0) return rc;
    if (r->D && lam)
        for (int c = 0; c < m; c++) for (int i = 0; i < m; i++) y[i] += r->D[i + (size_t)c * m] * lam[c];
    return 0;
}

static void input(const nsm_relation *r, const double *H, double *G) { nsm_relation_transpose(r->m, r->ncols, H, G); }
static const double *dblock(const nsm_relation *r) { return r->D; }

const nsm_relation_kind nsm_rel_kind_scleronomous = {
    .type = NSM_REL_LAGRANGIAN_SCLERONOMOUS, .name = "Lagrangian scleronomous",
    .lagrangian = 1, .linear = 0, .output = nsm_rel_lagrangian_output,
    .input = input, .D = dblock,
};
