/* newton_rolling.c — Newton impact + rolling friction (e, μ, μr; 5 rows in
 * 3D, 3 in 2D; with pivoting resistance μp, 6 rows): one contact, normal
 * row (restitution, activation), then the sliding rows, then the rolling
 * rows, then the pivoting row. The one-step problem is RFC3D / RFC2D
 * (docs/rolling.md). */
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

nsm_nslaw *nsm_nslaw_newton_rolling_pivot_new(double e, double mu, double mu_r, double mu_p)
{
    static const char who[] = "nsm_nslaw_newton_rolling_pivot_new";
    if (!(e >= 0.0 && e <= 1.0)) return nsm_ctor_fail("%s: restitution e = %g must be in [0, 1]", who, e);
    if (!(mu >= 0.0) || !isfinite(mu)) return nsm_ctor_fail("%s: friction mu = %g must be finite and >= 0", who, mu);
    if (!(mu_r >= 0.0) || !isfinite(mu_r))
        return nsm_ctor_fail("%s: rolling friction mu_r = %g must be finite and >= 0", who, mu_r);
    if (!(mu_p >= 0.0) || !isfinite(mu_p))
        return nsm_ctor_fail("%s: pivoting friction mu_p = %g must be finite and >= 0", who, mu_p);
    nsm_nslaw *l = nsm_nslaw_alloc(NSM_LAW_NEWTON_ROLLING, 6, who);
    if (l) { l->e = e; l->mu = mu; l->mu_r = mu_r; l->mu_p = mu_p; }
    return l;
}

const nsm_nslaw_kind nsm_law_kind_newton_rolling = {
    .type = NSM_LAW_NEWTON_ROLLING, .name = "Newton impact + rolling friction",
    .rows = NSM_ROWS_ROLLING, .unilateral = 1, .activation_rows = 1,
    .impact_rows = 1, .lagrangian_only = 1,
};
