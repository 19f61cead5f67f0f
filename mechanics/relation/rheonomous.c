/* rheonomous.c — Lagrangian rheonomous relation y = h(Q, t),
 * ẏ = ∇h Q̇ + ∂h/∂t, p = ∇hᵀ λ. */
#include "relation/relation_kind.h"

int nsm_rel_lagrangian_output(const nsm_relation *r, double t, const double *Q,
                              const double *lam, double *y, double *H, double *work);

nsm_relation *nsm_relation_rheonomous_new(int m, int ncols, nsm_h_fn h,
                                          nsm_jach_fn jach, nsm_h_fn dhdt,
                                          void *user)
{
    if (!h || !jach || !dhdt) return nsm_ctor_fail("nsm_relation_rheonomous_new: h, jach and dhdt are required");
    nsm_relation *r = nsm_relation_alloc(NSM_REL_LAGRANGIAN_RHEONOMOUS, m, ncols, "nsm_relation_rheonomous_new");
    if (!r) return NULL;
    r->h = h; r->jach = jach; r->dhdt = dhdt; r->user = user;
    return r;
}

/* declared in nsm_event_driven.h: the exact ∂²h/∂t² for the event-driven γ */
ns_status nsm_relation_set_d2hdt2(nsm_relation *r, nsm_h_fn d2hdt2)
{
    if (!r || r->type != NSM_REL_LAGRANGIAN_RHEONOMOUS) return NS_BAD_INPUT;
    r->d2hdt2 = d2hdt2;
    return NS_OK;
}

static int dhdt(const nsm_relation *r, double t, const double *Q, double *out)
{
    return r->dhdt(t, r->ncols, Q, r->m, out, r->user);
}

static void input(const nsm_relation *r, const double *H, double *G) { nsm_relation_transpose(r->m, r->ncols, H, G); }
static const double *dblock(const nsm_relation *r) { return r->D; }

const nsm_relation_kind nsm_rel_kind_rheonomous = {
    .type = NSM_REL_LAGRANGIAN_RHEONOMOUS, .name = "Lagrangian rheonomous",
    .lagrangian = 1, .linear = 0, .output = nsm_rel_lagrangian_output,
    .dhdt = dhdt, .input = input, .D = dblock,
};
