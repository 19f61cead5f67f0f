/* newton_rolling.c — Newton impact + rolling friction (e, μ, μr; 5 rows in
 * 3D, 3 in 2D): one contact, normal row (restitution, activation), then
 * the sliding rows, then the rolling rows. The one-step problem is RFC3D /
 * RFC2D (docs/rolling.md). */
#include "nslaw/nslaw_kind.h"
#include <math.h>

nsm_nslaw *nsm_nslaw_newton_rolling_new(int dim, double e, double mu, double mu_r)
{
    static const char who[] = "nsm_nslaw_newton_rolling_new";
    if (dim != 5 && dim != 3) return nsm_ctor_fail("%s: dim = %d must be 5 (3D) or 3 (2D)", who, dim);
    if (!(e >= 0.0 && e <= 1.0)) return nsm_ctor_fail("%s: restitution e = %g must be in [0, 1]", who, e);
    if (!(mu >= 0.0) || !isfinite(mu)) return nsm_ctor_fail("%s: friction mu = %g must be finite and >= 0", who, mu);
    if (!(mu_r >= 0.0) || !isfinite(mu_r))
        return nsm_ctor_fail("%s: rolling friction mu_r = %g must be finite and >= 0", who, mu_r);
    nsm_nslaw *l = nsm_nslaw_alloc(NSM_LAW_NEWTON_ROLLING, dim, who);
    if (l) { l->e = e; l->mu = mu; l->mu_r = mu_r; }
    return l;
}

const nsm_nslaw_kind nsm_law_kind_newton_rolling = {
    .type = NSM_LAW_NEWTON_ROLLING, .name = "Newton impact + rolling friction",
    .rows = NSM_ROWS_ROLLING, .unilateral = 1, .activation_rows = 1,
    .impact_rows = 1, .lagrangian_only = 1,
};
