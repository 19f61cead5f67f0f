/* nsm_ds.h — dynamical systems of the mechanics layer.
 *
 * Lagrangian (q, v = q̇ ∈ ℝⁿ):
 *     M(q) q̈ + f_gyr(q̇, q) + f_int(t, q̇, q) = f_ext(t) + p
 *   linear time-invariant case: M q̈ + C q̇ + K q = f_ext(t) + p
 *   (f_int = C q̇ + K q, f_gyr = 0, M constant).
 * First order (x ∈ ℝⁿ):
 *     ẋ = f(t, x) + r
 *   linear case f = A(t) x + b(t); time-invariant case A constant.
 *
 * Matrices are dense, column-major, n×n. Constructors copy what they are
 * given; the caller keeps ownership of its arrays. A new system is owned by
 * the caller until nsm_model_add_ds takes it.
 *
 * Callbacks return 0 on success, > 0 for a recoverable failure (the step is
 * refused), < 0 to stop the simulation. `user` is passed through untouched.
 */
#ifndef NSM_DS_H
#define NSM_DS_H
#include "ns_status.h"
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum nsm_ds_type {
    NSM_DS_LAGRANGIAN = 0,      /* nonlinear, callbacks */
    NSM_DS_LAGRANGIAN_LTI,      /* M, C, K constant */
    NSM_DS_FIRST_ORDER,         /* ẋ = f(t, x) + r, callbacks */
    NSM_DS_FIRST_ORDER_LINEAR,  /* ẋ = A(t) x + b(t) + r */
    NSM_DS_FIRST_ORDER_LTI,     /* ẋ = A x + b(t) + r, A constant */
    NSM_DS_LAGRANGIAN_LTI_SPARSE, /* M, C, K constant, kept in SPARSE storage */
    NSM_DS_NEWTON_EULER         /* rigid body: q = (x, quaternion), v = (v, ω body) */
} nsm_ds_type;

typedef struct nsm_ds nsm_ds;

/** out (n) ← a vector function of time: f_ext(t) or b(t). */
typedef int (*nsm_time_fn)(double t, int n, double *out, void *user);
/** M (n×n, column-major) ← M(q). */
typedef int (*nsm_mass_fn)(int n, const double *q, double *M, void *user);
/** out (n) ← a force f(t, q, v) (f_int, or f_gyr with t unused). */
typedef int (*nsm_force_fn)(double t, int n, const double *q, const double *v,
                            double *out, void *user);
/** Jq, Jv (n×n each, column-major) ← ∂f/∂q, ∂f/∂v of a force. */
typedef int (*nsm_force_jac_fn)(double t, int n, const double *q,
                                const double *v, double *Jq, double *Jv,
                                void *user);
/** First order: out (n) ← f(t, x). */
typedef int (*nsm_vector_field_fn)(double t, int n, const double *x,
                                   double *out, void *user);
/** First order: J (n×n) ← ∂f/∂x (t, x); also A(t) for the linear case (x NULL). */
typedef int (*nsm_matrix_fn)(double t, int n, const double *x, double *J,
                             void *user);

/** Callbacks of a nonlinear Lagrangian system. mass is required; the others
 *  may be NULL (zero force). A force without its Jacobian is treated
 *  explicitly (zero Jacobian in the iteration matrix). */
typedef struct nsm_lagrangian_fns {
    nsm_mass_fn mass;
    nsm_force_fn fgyr;  nsm_force_jac_fn jac_fgyr;
    nsm_force_fn fint;  nsm_force_jac_fn jac_fint;
    nsm_time_fn fext;
    void *user;
} nsm_lagrangian_fns;

/** Rigid-body callbacks (Newton–Euler): out (6) ← (f, τ), a force in the
 *  world frame and a torque in the body frame, at (t, q (7), v (6)). */
typedef int (*nsm_wrench_fn)(double t, const double *q, const double *v,
                             double *out, void *user);
/** Jq, Jv (6×6, column-major, zeroed by the caller) ← the wrench's
 *  derivatives: Jv = ∂out/∂v; Jq = ∂out/∂δ for a displacement δ = (δx in
 *  the world frame, δφ a body-frame rotation) of the body. */
typedef int (*nsm_wrench_jac_fn)(double t, const double *q, const double *v,
                                 double *Jq, double *Jv, void *user);
/** Forces of a rigid body; every entry may be NULL (zero). f_int without
 *  jac_fint is treated explicitly. */
typedef struct nsm_body_fns {
    nsm_wrench_fn fext;                          /* external wrench */
    nsm_wrench_fn fint; nsm_wrench_jac_fn jac_fint; /* internal wrench */
    void *user;
} nsm_body_fns;
/** Rigid body (Newton–Euler) with mass > 0 and a symmetric positive
 *  definite body-frame inertia I (3×3, column-major; copied).
 *  q0 (7) = (x, y, z, q0, q1, q2, q3): centre of mass in the world frame and
 *  a unit quaternion (scalar first, body → world); v0 (6) = (linear
 *  velocity, world frame; angular velocity ω, body frame); NULL: at rest at
 *  the origin with the identity orientation. The equations:
 *      m v̇ = f,   I ω̇ + ω × Iω = τ,   ẋ = v,   q̇ = ½ q ⊗ (0, ω).
 *  Size n = 6 (velocities), nsm_ds_position_size 7. Forces: a constant
 *  wrench (nsm_ds_set_fext_constant, 6 values: world force, body torque),
 *  nsm_ds_set_fext (a function of t) and nsm_ds_newton_euler_set_forces.
 *  Moreau–Jean evaluates them at the θ-point and moves the quaternion by
 *  q_{k+1} = normalise(q_k + h T(q_k) ω_θ). NULL with the reason in
 *  nsm_constructor_error() for a mass ≤ 0 or non-finite, an inertia that is
 *  not symmetric positive definite, a quaternion whose norm is not 1 within
 *  1e-10, or a non-finite entry. */
nsm_ds *nsm_ds_newton_euler_new(double mass, const double *inertia,
                                const double *q0, const double *v0);
/** Sets the force callbacks of a rigid body (copied; NULL clears them). */
ns_status nsm_ds_newton_euler_set_forces(nsm_ds *ds, const nsm_body_fns *fns);
/** Linear time-invariant Lagrangian system: copies M (n×n), q0, v0 (n).
 *  C and K are zero until set. NULL on bad sizes or allocation failure. */
nsm_ds *nsm_ds_lagrangian_lti_new(int n, const double *M, const double *q0,
                                  const double *v0);
/** Sets C or K (copied; NULL sets zero). NS_BAD_INPUT if ds is not LTI. */
ns_status nsm_ds_set_damping(nsm_ds *ds, const double *C);
ns_status nsm_ds_set_stiffness(nsm_ds *ds, const double *K);
/** f_ext(t) callback of a Lagrangian system (NULL = none). */
ns_status nsm_ds_set_fext(nsm_ds *ds, nsm_time_fn fext, void *user);
/** Constant f_ext (copied, n values) used when no callback is set. */
ns_status nsm_ds_set_fext_constant(nsm_ds *ds, const double *fext);

/** Linear time-invariant Lagrangian system with M, C, K in SPARSE storage,
 *  for large systems (FEM): M (required), C and K (NULL
 *  = zero) are n×n ns_matrix of any storage, copied and kept as compressed
 *  sparse columns; no n×n dense matrix is ever formed. The iteration
 *  matrix W⁻¹ = M + hθC + h²θ²K is assembled sparse and factorised by
 *  ns_factor (CHOLMOD when symmetric, UMFPACK otherwise); the products W Hᵀ
 *  of the one-step problem come from that factor. f_ext as for the dense
 *  LTI type (nsm_ds_set_fext, nsm_ds_set_fext_constant). NULL (reason in
 *  nsm_constructor_error()) on bad sizes, non-finite entries or a missing M. */
nsm_ds *nsm_ds_lagrangian_lti_sparse_new(int n, const ns_matrix *M,
                                         const ns_matrix *C, const ns_matrix *K,
                                         const double *q0, const double *v0);

/** Nonlinear Lagrangian system with callbacks (fns copied). */
nsm_ds *nsm_ds_lagrangian_new(int n, const nsm_lagrangian_fns *fns,
                              const double *q0, const double *v0);

/** First-order nonlinear ẋ = f(t, x) + r with Jacobian jac (both required). */
nsm_ds *nsm_ds_first_order_new(int n, nsm_vector_field_fn f, nsm_matrix_fn jac,
                               void *user, const double *x0);
/** First-order linear ẋ = A(t) x + b(t) + r: A callback required, b may be NULL. */
nsm_ds *nsm_ds_first_order_linear_new(int n, nsm_matrix_fn A, nsm_time_fn b,
                                      void *user, const double *x0);
/** First-order LTI ẋ = A x + b(t) + r: copies A (n×n); b may be NULL. */
nsm_ds *nsm_ds_first_order_lti_new(int n, const double *A, nsm_time_fn b,
                                   void *user, const double *x0);

/** Prescribed velocity (Siconos' BoundaryCondition) on ndof degrees of
 *  freedom dof[0..ndof−1] of a Lagrangian system: their velocity is imposed,
 *  v[dof[b]](t) = fn(t)[b] (fn fills ndof values) or the constant v[b] when
 *  fn is NULL; the multipliers do not move them, and the impulse the
 *  imposition needs in each step is nsm_sim_bc_reaction (time-stepping
 *  only; nsm_ed_new refuses it). Copied; ndof = 0 removes them. Set it
 *  (and θ, the first-order mass below) before nsm_sim_new: a simulation
 *  reads them when it is created. */
ns_status nsm_ds_set_boundary_condition(nsm_ds *ds, int ndof, const int *dof,
                                        const double *v, nsm_time_fn fn, void *user);
/** θ of this system's integrator (default: the simulation's). */
ns_status nsm_ds_set_theta(nsm_ds *ds, double theta);
/** First-order systems: constant mass matrix M (n×n, copied; NULL = I):
 *  M ẋ = f(t, x) + r. M must make M − hθJ invertible (checked when the
 *  simulation factorises it). */
ns_status nsm_ds_set_mass(nsm_ds *ds, const double *M);

nsm_ds_type nsm_ds_get_type(const nsm_ds *ds);
/** Dimension: n = size of v (Lagrangian; also of q except for a rigid
 *  body) or of x (first order). */
int nsm_ds_size(const nsm_ds *ds);
/** Length of q: n, or 7 for a rigid body (position + quaternion). */
int nsm_ds_position_size(const nsm_ds *ds);
/** 1 for the Lagrangian types. */
int nsm_ds_is_lagrangian(const nsm_ds *ds);

/** Frees ds (NULL allowed). Do not free a system owned by a model. */
void nsm_ds_free(nsm_ds *ds);

#ifdef __cplusplus
}
#endif
#endif
