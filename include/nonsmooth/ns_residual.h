/* ns_residual.h — one error function per kind (Siconos 4.4 definitions,
 * formulas in docs/errors.md). Each takes the unknowns, recomputes the
 * dependent vectors into the output buffer(s) (never trusting them), and
 * returns the relative error (≥ 0; +INFINITY if a vector holds NaN/Inf).
 * No allocation except where noted; thread-safe.
 */
#ifndef NS_RESIDUAL_H
#define NS_RESIDUAL_H
#include "ns_problem.h"
#ifdef __cplusplus
extern "C" {
#endif

/** Normalisation of the friction-contact errors. */
typedef enum ns_fc_norm {
    NS_FC_NORM_SICONOS = 0,  /* divide by max(‖q‖, ‖r‖, ‖u‖) (Siconos 4.4) */
    NS_FC_NORM_Q = 1         /* divide by ‖q‖ (FCLIB 2018 study) */
} ns_fc_norm;

/** w ← M z + q; returns ‖z − max(0, z − w)‖ / ‖q‖ (‖q‖ replaced by 1 when 0). */
double ns_lcp_error(const ns_lcp *p, const double *z, double *w);

/** z = (u, v); w ← M z + q (n+m); returns the MLCP error (docs/errors.md). */
double ns_mlcp_error(const ns_mlcp *p, const double *z, double *w);

/** w ← M z + q; returns ‖z − P_[lb,ub](z − w)‖ / (1 + ‖q‖). */
double ns_relay_error(const ns_relay *p, const double *z, double *w);

/** w ← M z + q; returns the AVI natural-map error (docs/errors.md). */
double ns_avi_error(const ns_avi *p, const double *z, double *w);

/** w ← M z + q; returns ‖w‖ / (1 + ‖q‖). */
double ns_equality_error(const ns_equality *p, const double *z, double *w);

/** u ← W r + q; returns ‖r − P_K(r − û)‖ / norm (see ns_fc_norm). */
double ns_fc_error(const ns_fc *p, const double *r, double *u, ns_fc_norm norm);

/** The second test of "converged" for friction contact (docs/errors.md):
 *  the largest approach −(u_N + μ‖u_T‖) over the contacts, relative to
 *  max(‖q‖∞, ‖u‖∞, ‖W r‖∞), with u = W r + q as ns_fc_error leaves it. A
 *  point that ns_solve reports converged keeps it ≤ NS_FC_VELOCITY_FACTOR ·
 *  tol (the two measures differ by their scales, by a small factor on a
 *  true solution). *contact: the worst contact (−1: none approaches). */
#define NS_FC_VELOCITY_FACTOR 100.0
double ns_fc_velocity_violation(const ns_fc *f, const double *u, ns_int *contact);

/** u ← Hᵀ v + b; returns the global error (docs/errors.md), which also
 *  measures ‖M v − H r − q‖. work: n doubles or NULL (then allocated). */
double ns_gfc_error(const ns_gfc *p, const double *v, const double *r,
                    double *u, double *work);

/** u ← W r + q; returns sqrt(Σ_α ‖r_α − P_Kα(r_α − û_α)‖²) / norm, K_α the
 *  rolling cone and û_α the modified velocity of ns_rfc.h (RFC3D, RFC2D). */
double ns_rfc_error(const ns_rfc *p, const double *r, double *u, ns_fc_norm norm);
/** u ← Hᵀ v + b; returns e_eq + e_c as ns_gfc_error, e_c with the rolling
 *  cone (GRFC3D). work: n doubles or NULL (then allocated). */
double ns_grfc_error(const ns_grfc *p, const double *v, const double *r,
                     double *u, double *work);
/** velocity ← M reaction + q; returns the GMP error (docs/errors.md). */
double ns_gmp_error(const ns_gmp *p, const double *reaction, double *velocity);

/** F ← F(z); returns ‖z − max(0, z − F)‖₂ (absolute, as Siconos'
 *  ncp_compute_error); +INFINITY when F cannot be evaluated. */
double ns_ncp_error(const ns_ncp *p, const double *z, double *F);

/** F ← F(z); returns ‖z − P_[lb,ub](z − F)‖₂ (absolute). */
double ns_mcp_error(const ns_mcp *p, const double *z, double *F);

/** F ← F(x); returns ‖x − P_X(x − F)‖₂ (absolute, natural map). */
double ns_vi_error(const ns_vi *p, const double *x, double *F);

/** g ← M x + q − Aᵀ y; returns (‖x − P_C(x − g)‖₂ + ‖A x − b‖₂)
 *  / (1 + ‖q‖₂ + ‖b‖₂). */
double ns_cqp_error(const ns_cqp *p, const double *x, const double *y, double *g);

/** v ← W r + q; returns ‖r − P_K(r − v)‖₂ / (1 + ‖q‖₂). */
double ns_soclcp_error(const ns_soclcp *p, const double *r, double *v);

/** Error of one contact: ‖r − P_K(r − û)‖² for one d-block (d = 2, 3). */
double ns_fc_contact_error_sq(int dim, double mu, const double *r,
                              const double *u);

/** Dispatch on the kind: fills the dependent vectors of s from its unknowns
 *  and returns the kind's error. */
double ns_problem_error(const ns_problem *p, ns_solution *s);

#ifdef __cplusplus
}
#endif
#endif
