/* ds_kind.h — the behaviour of a dynamical-system type, one table row per
 * type (nsm_ds_type), defined in that type's file and listed in ds.c.
 *
 * Both schemes (time-stepping osi/ and event-driven simulation/) evaluate a
 * system through these entries only; none of them switches on the type.
 * Storage: the matrices of these entries are dense n×n
 * column-major. A kind with .sparse set (lagrangian_lti_sparse.c) keeps
 * M, C, K in CSC (ds->Ms, Cs, Ks); the integrator then builds W⁻¹ sparse
 * (nsm_ds_sparse_combination) and the simulation allocates no n×n buffer;
 * its dense entries only scatter for callers that work densely (small n).
 * iteration.c factorises through ns_factor (dense LU, or AUTO for sparse:
 * CHOLMOD when symmetric, UMFPACK otherwise). */
#ifndef NSM_DS_KIND_H
#define NSM_DS_KIND_H
#include "nsm_internal.h"

typedef struct nsm_ds_kind {
    nsm_ds_type type;
    const char *name;
    int lagrangian;           /* state (q, v); otherwise x */
    int constant;             /* M, C, K (or A, M) constant: W factorised once */
    int linear;               /* one linearised step is exact (no Newton loop) */
    int sparse;               /* M, C, K SPARSE (ds->Ms, Cs, Ks): no n×n dense
                                 matrix anywhere; W sparse (ns_factor AUTO) */
    /* Lagrangian: M (n×n, zeroed by the caller) ← M(q). */
    int (*mass)(const nsm_ds *ds, const double *q, double *M);
    /* Lagrangian: F ← f_ext(t) − f_int(t, q, v) − f_gyr(q, v); when Kt
     * (Ct) is non-NULL also Kt ← ∂(f_int + f_gyr)/∂q (Ct ← ∂/∂v), n×n.
     * work: 3 n + 2 n². *what names the callback that failed. */
    int (*forces)(const nsm_ds *ds, double t, const double *q, const double *v,
                  double *F, double *Kt, double *Ct, double *work,
                  const char **what);
    /* First order: f ← f(t, x) and, when J is non-NULL, J ← ∂f/∂x (n×n).
     * work: n + n². */
    int (*field)(const nsm_ds *ds, double t, const double *x, double *f,
                 double *J, double *work, const char **what);
    /* Lagrangian: out (nq) ← q moved by dv (n), an increment in velocity
     * coordinates: q + T(q) dv, back on its manifold (a rigid body's
     * quaternion renormalised). out may be q. NULL: out = q + dv (nq = n). */
    void (*advance)(const nsm_ds *ds, const double *q, const double *dv, double *out);
    /* 1: Moreau–Jean evaluates the forces once per step at the θ-point
     * (t_k + θh, q_k ⊕ θh v_θ, v_θ = θ v_{k+1} + (1−θ) v_k) instead of
     * θ F_{k+1} + (1−θ) F_k: with θ = ½ the gyroscopic term ω × Iω then
     * keeps ½ ωᵀIω and the angular momentum exactly (implicit midpoint). */
    int forces_at_theta;
} nsm_ds_kind;

extern const nsm_ds_kind nsm_ds_kind_lagrangian_lti_sparse, nsm_ds_kind_newton_euler;
/** out (nq) ← q ⊕ dv through the kind's advance (q + dv when it has none);
 *  out may be q. */
void nsm_ds_advance(const nsm_ds *ds, const double *q, const double *dv, double *out);
extern const nsm_ds_kind nsm_ds_kind_lagrangian, nsm_ds_kind_lagrangian_lti,
    nsm_ds_kind_first_order, nsm_ds_kind_first_order_linear,
    nsm_ds_kind_first_order_lti;

/** The table row of ds's type. */
const nsm_ds_kind *nsm_ds_kind_of(const nsm_ds *ds);

/* A callback that returned non-finite values (reported as such). */
#define NSM_CB_NAN (-0x7ffffff0)

/* shared by the type files */
nsm_ds *nsm_ds_alloc(nsm_ds_type type, int n, const char *who);
/** Checks a state / matrix argument of a constructor: non-NULL when
 *  required and finite. 0 ok; −1 with the reason recorded. */
int nsm_ctor_check(const char *who, const char *what, const double *v, size_t len, int required);
double *nsm_dup(const double *src, size_t len);
/** out ← f_ext(t) (constant part + callback) of a Lagrangian system. */
int nsm_ds_fext(const nsm_ds *ds, double t, double *out, double *tmp);
/** 1 if every entry of v (len) is finite. */
int nsm_all_finite(const double *v, size_t len);

/* lagrangian_lti_sparse.c: M + a C + b K of a sparse system (CSC, new). */
ns_matrix *nsm_ds_sparse_combination(const nsm_ds *ds, double a, double b);

/* iteration.c: the evaluation layer used by both schemes */
/** Lagrangian: M ← M(q), F, Kt, Ct at (t, q, v) (Kt/Ct NULL: not wanted);
 *  errors (callback failure, non-finite value) name system j and the
 *  callback in err. */
ns_status nsm_ds_eval_lagrangian(const nsm_ds *ds, int j, double t,
                                 const double *q, const double *v, double *M,
                                 double *F, double *Kt, double *Ct,
                                 double *work, char *err);
/** First order: f, J (J NULL: not wanted) at (t, x), errors as above. */
ns_status nsm_ds_eval_field(const nsm_ds *ds, int j, double t, const double *x,
                            double *f, double *J, double *work, char *err);
/** Refuses a constant mass matrix that is not symmetric positive definite. */
ns_status nsm_ds_check_mass(const nsm_ds *ds, int j, char *err);
/** Factorises Wmat through ns_factor (dense LU; *F created on first use).
 *  `what` describes the matrix for the error message. */
ns_status nsm_ds_factor(int j, ns_matrix *Wmat, ns_factor **F,
                        const char *what, char *err);
#endif
