/* newton_coulomb.c — Newton impact + Coulomb friction (e, μ, 2D/3D): one
 * contact, normal row (restitution, activation) then the tangential ones. */
#include "nslaw/nslaw_kind.h"
#include <math.h>

nsm_nslaw *nsm_nslaw_newton_coulomb_new(int dim, double e, double mu)
{
    static const char who[] = "nsm_nslaw_newton_coulomb_new";
    if (dim != 2 && dim != 3) return nsm_ctor_fail("%s: dim = %d must be 2 or 3", who, dim);
    if (!(e >= 0.0 && e <= 1.0)) return nsm_ctor_fail("%s: restitution e = %g must be in [0, 1]", who, e);
    if (!(mu >= 0.0) || !isfinite(mu)) return nsm_ctor_fail("%s: friction mu = %g must be finite and >= 0", who, mu);
    nsm_nslaw *l = nsm_nslaw_alloc(NSM_LAW_NEWTON_COULOMB, dim, who);
    if (l) { l->e = e; l->mu = mu; }
    return l;
}

const nsm_nslaw_kind nsm_law_kind_newton_coulomb = {
    .type = NSM_LAW_NEWTON_COULOMB, .name = "Newton impact + Coulomb friction",
    .rows = NSM_ROWS_FRICTION, .unilateral = 1, .activation_rows = 1,
    .impact_rows = 1, .lagrangian_only = 1,
};
