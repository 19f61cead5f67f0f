/* newton_coulomb.c — Newton impact + Coulomb friction (e, μ, 2D/3D): one
 * contact, normal row (restitution, activation) then the tangential ones. */
#include "nslaw/nslaw_kind.h"
#include <math.h>

nsm_nslaw *nsm_nslaw_newton_coulomb_new(int dim, double e, double mu)
{
    if ((dim != 2 && dim != 3) || !(e >= 0.0 && e <= 1.0) || !(mu >= 0.0) || !isfinite(mu))
        return NULL;
    nsm_nslaw *l = nsm_nslaw_alloc(NSM_LAW_NEWTON_COULOMB, dim);
    if (l) { l->e = e; l->mu = mu; }
    return l;
}

const nsm_nslaw_kind nsm_law_kind_newton_coulomb = {
    .type = NSM_LAW_NEWTON_COULOMB, .name = "Newton impact + Coulomb friction",
    .rows = NSM_ROWS_FRICTION, .unilateral = 1, .activation_rows = 1,
    .impact_rows = 1, .lagrangian_only = 1,
};
