/* nsm_nslaw.h — nonsmooth laws: how y and λ of an interaction are constrained.
 *
 *  Newton impact (e):    0 ≤ y ⊥ λ ≥ 0 and, at an impact, ẏ⁺ = −e ẏ⁻;
 *                        at velocity level 0 ≤ ẏ_{k+1} + e ẏ_k ⊥ P ≥ 0.
 *  Newton + Coulomb (e, μ, d = 2 or 3): normal component first, then the
 *                        d−1 tangential ones; r ∈ K_μ, Coulomb's law.
 *  Newton + rolling friction (e, μ, μr, d = 5 or 3): normal row, then the
 *                        sliding rows (2 or 1), then the rolling rows (2
 *                        or 1, relative angular velocity about the
 *                        tangential axes); the law of ns_rfc.h, the
 *                        rolling torque bounded by μr r_N (docs/rolling.md).
 *                        With pivoting resistance (e, μ, μr, μp, d = 6): a
 *                        sixth row, the relative angular velocity about
 *                        the normal, its torque bounded by μp r_N.
 *  complementarity:      0 ≤ y ⊥ λ ≥ 0 (componentwise).
 *  relay (lb, ub):       lb ≤ λ ≤ ub, −y ∈ N_[lb,ub](λ); on a Lagrangian
 *                        relation at velocity level, y = ẏ_{k+1} and λ the
 *                        impulse over the step (dry friction: bounds
 *                        ± force × h; nsm_joint_friction_new).
 *  equality:             y = 0 (λ free).
 *
 * A law is owned by the caller until nsm_model_add_law takes it; one law
 * may serve many interactions.
 */
#ifndef NSM_NSLAW_H
#define NSM_NSLAW_H
#include "ns_status.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum nsm_nslaw_type {
    NSM_LAW_NEWTON = 0,
    NSM_LAW_NEWTON_COULOMB,
    NSM_LAW_COMPLEMENTARITY,
    NSM_LAW_RELAY,
    NSM_LAW_EQUALITY,
    NSM_LAW_NEWTON_ROLLING
} nsm_nslaw_type;

typedef struct nsm_nslaw nsm_nslaw;

/** Newton impact law of size m (each component a unilateral contact), e ∈ [0, 1]. */
nsm_nslaw *nsm_nslaw_newton_new(int m, double e);
/** Newton impact + Coulomb friction, dim 2 or 3, e ∈ [0, 1], μ ≥ 0. */
nsm_nslaw *nsm_nslaw_newton_coulomb_new(int dim, double e, double mu);
/** Newton impact + rolling friction: dim 5 (3D: normal, 2 sliding, 2
 *  rolling rows) or 3 (2D), e ∈ [0, 1], μ ≥ 0, μr ≥ 0 (a length: the
 *  rolling torque is at most μr r_N). The one-step problems of a model
 *  whose active laws are all of this kind are RFC3D / RFC2D. */
nsm_nslaw *nsm_nslaw_newton_rolling_new(int dim, double e, double mu, double mu_r);
/** Newton impact + rolling and pivoting friction (3D, 6 rows: normal, 2
 *  sliding, 2 rolling, then the relative angular velocity about the
 *  normal), e ∈ [0, 1], μ ≥ 0, μr ≥ 0, μp ≥ 0 (μr and μp lengths: the
 *  rolling torque is at most μr r_N, the pivoting torque μp r_N). Its
 *  one-step problems are RFC3D with 6 unknowns per contact; it cannot
 *  share a problem with the 5-row law. */
nsm_nslaw *nsm_nslaw_newton_rolling_pivot_new(double e, double mu, double mu_r, double mu_p);
nsm_nslaw *nsm_nslaw_complementarity_new(int m);
/** Copies lb, ub (m each, lb ≤ ub; ±INFINITY allowed). */
nsm_nslaw *nsm_nslaw_relay_new(int m, const double *lb, const double *ub);
nsm_nslaw *nsm_nslaw_equality_new(int m);

nsm_nslaw_type nsm_nslaw_get_type(const nsm_nslaw *l);
int nsm_nslaw_size(const nsm_nslaw *l);
double nsm_nslaw_restitution(const nsm_nslaw *l);
double nsm_nslaw_friction(const nsm_nslaw *l);
/** μr of a rolling friction law (0 for the other laws; NAN for NULL). */
double nsm_nslaw_rolling(const nsm_nslaw *l);
/** μp of a rolling law with pivoting resistance (0 for the other laws;
 *  NAN for NULL). */
double nsm_nslaw_pivoting(const nsm_nslaw *l);
void nsm_nslaw_free(nsm_nslaw *l);

#ifdef __cplusplus
}
#endif
#endif
