/* newton.c — Newton impact law (e): complementarity rows at velocity level
 * 0 ≤ ẏ_{k+1} + e ẏ_k ⊥ P ≥ 0, every row a unilateral contact. */
#include "nslaw/nslaw_kind.h"

nsm_nslaw *nsm_nslaw_newton_new(int m, double e)
{
    if (!(e >= 0.0 && e <= 1.0)) return nsm_ctor_fail("nsm_nslaw_newton_new: restitution e = %g must be in [0, 1]", e);
    nsm_nslaw *l = nsm_nslaw_alloc(NSM_LAW_NEWTON, m, "nsm_nslaw_newton_new");
    if (l) l->e = e;
    return l;
}

const nsm_nslaw_kind nsm_law_kind_newton = {
    .type = NSM_LAW_NEWTON, .name = "Newton impact", .rows = NSM_ROWS_COMPLEMENTARITY,
    .unilateral = 1, .activation_rows = 0, .impact_rows = -1, .lagrangian_only = 1,
};
