/* nsm_relation.h — relations: how an interaction's output y and input λ
 * relate to the state of the one or two systems it couples.
 *
 * The coupled state is the concatenation of the systems' states in the
 * order given to nsm_model_add_interaction: Q = (q1, q2) (Lagrangian) or
 * X = (x1, x2) (first order); ncols = n1 (+ n2).
 *
 *  Lagrangian linear:       y = H Q + b,   ẏ = H Q̇,           p = Hᵀ λ
 *  Lagrangian scleronomous: y = h(Q),      ẏ = ∇h(Q) Q̇,        p = ∇hᵀ λ
 *  Lagrangian rheonomous:   y = h(Q, t),   ẏ = ∇h Q̇ + ∂h/∂t,   p = ∇hᵀ λ
 *  First-order linear:      y = C X + D λ + e,                   r = B λ
 *  Lagrangian compliant linear: y = H Q + b, ẏ = H Q̇ + D λ[1],  p = Hᵀ λ
 *                           (the law at velocity level on H v + D P, P
 *                           the step's impulse: D adds to the one-step
 *                           matrix, as Siconos' LagrangianCompliantLinearTIR)
 *
 * Matrices are dense column-major and copied; H, C are m×ncols, B is
 * ncols×m, D is m×m. A relation is owned by the caller until
 * nsm_model_add_interaction takes it (then freed with the interaction).
 */
#ifndef NSM_RELATION_H
#define NSM_RELATION_H
#include "ns_status.h"
#include "nsm_ds.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum nsm_relation_type {
    NSM_REL_LAGRANGIAN_LINEAR = 0,
    NSM_REL_LAGRANGIAN_SCLERONOMOUS,
    NSM_REL_LAGRANGIAN_RHEONOMOUS,
    NSM_REL_FIRST_ORDER_LINEAR,
    NSM_REL_LAGRANGIAN_COMPLIANT_LINEAR,
    NSM_REL_FIRST_ORDER_NONLINEAR,
    NSM_REL_RIGID                  /* contacts and joints of rigid bodies (nsm_rigid.h) */
} nsm_relation_type;

typedef struct nsm_relation nsm_relation;

/** out (m) ← h(Q, t) or ∂h/∂t (Q, t); t is unused by scleronomous relations. */
typedef int (*nsm_h_fn)(double t, int nq, const double *Q, int m, double *out,
                        void *user);
/** H (m×nq, column-major) ← ∇_Q h(Q, t). */
typedef int (*nsm_jach_fn)(double t, int nq, const double *Q, int m,
                           double *H, void *user);

/** y = H Q + b. b may be NULL (zero). */
nsm_relation *nsm_relation_lagrangian_linear_new(int m, int ncols,
                                                 const double *H,
                                                 const double *b);
/** y = H Q + b with compliance D (m×m) at velocity level; b may be NULL. */
nsm_relation *nsm_relation_lagrangian_compliant_linear_new(int m, int ncols,
                                                           const double *H,
                                                           const double *D,
                                                           const double *b);
/** First-order nonlinear relation, output: y ← h(t, X, λ) (m values) and,
 *  when non-NULL, C ← ∂h/∂X (m×nx), D ← ∂h/∂λ (m×m). */
typedef int (*nsm_fo_output_fn)(double t, int nx, const double *X, int m,
                                const double *lambda, double *y, double *C,
                                double *D, void *user);
/** First-order nonlinear relation, input: r ← g(t, λ) (nx values) and, when
 *  non-NULL, B ← ∂g/∂λ (nx×m). g does not depend on X. */
typedef int (*nsm_fo_input_fn)(double t, int nx, int m, const double *lambda,
                               double *r, double *B, void *user);
/** y = h(X, λ, t), r = g(λ, t) (both required). Euler–Moreau linearises
 *  them at the Newton iterate (X^α, λ^α): the step's problem has the matrix
 *  D + h C W B and the Newton loop iterates until λ and the systems settle
 *  (newton_tol). Relative degree per row from the callbacks' Jacobians at
 *  the state where the interaction is first met: 0 when ∂h/∂λ's row is
 *  nonzero, 1 when (∂h/∂X) M⁻¹ (∂g/∂λ)'s is, otherwise refused. Time-stepping
 *  only. */
nsm_relation *nsm_relation_first_order_nonlinear_new(int m, int ncols,
                                                     nsm_fo_output_fn h,
                                                     nsm_fo_input_fn g,
                                                     void *user);
/** Replaces H (and b if non-NULL) of a Lagrangian linear relation, e.g. when
 *  a contact's normal turns between steps. NS_BAD_INPUT (nothing changed)
 *  for a NULL r or H, another relation type, or a non-finite entry. */
ns_status nsm_relation_set_H(nsm_relation *r, const double *H, const double *b);
/** Copies H (m × ncols, column-major) and b (m; if non-NULL) of a Lagrangian
 *  linear relation. NS_BAD_INPUT for a NULL r or H or another type. */
ns_status nsm_relation_get_H(const nsm_relation *r, double *H, double *b);

/** y = h(Q); h and jach required. */
nsm_relation *nsm_relation_scleronomous_new(int m, int ncols, nsm_h_fn h,
                                            nsm_jach_fn jach, void *user);
/** y = h(Q, t); h, jach and dhdt required. */
nsm_relation *nsm_relation_rheonomous_new(int m, int ncols, nsm_h_fn h,
                                          nsm_jach_fn jach, nsm_h_fn dhdt,
                                          void *user);
/** y = C X + D λ + e, r = B λ. D and e may be NULL (zero). */
nsm_relation *nsm_relation_first_order_linear_new(int m, int ncols,
                                                  const double *C,
                                                  const double *D,
                                                  const double *B,
                                                  const double *e);

/** Lagrangian relations: compliance D (m×m, copied; NULL removes it), so
 *  that y = h(Q) + ... and ẏ = ∇h Q̇ + D λ[1] (the compliant relation
 *  y = h(q) + Dλ at velocity level, as the compliant linear type). */
ns_status nsm_relation_set_compliance(nsm_relation *r, const double *D);

/** First-order linear relation: a time-varying offset, y = C X + D λ + e
 *  + e(t) (e fills m values; NULL removes it). */
ns_status nsm_relation_set_offset_fn(nsm_relation *r, nsm_time_fn e, void *user);

nsm_relation_type nsm_relation_get_type(const nsm_relation *r);
int nsm_relation_size(const nsm_relation *r);   /* m */
int nsm_relation_ncols(const nsm_relation *r);  /* n1 (+ n2) */
void nsm_relation_free(nsm_relation *r);

#ifdef __cplusplus
}
#endif
#endif
