/* fc3d_local.h — one-contact friction solvers (private to libnonsmooth_numerics).
 *
 * One contact of dimension d (2 or 3, normal first):
 *     u = W r + q          (W: d×d column-major, q: d),
 *     K ∋ r ⊥ û ∈ K*,      û = u + μ‖u_T‖ e_N,   K = {‖r_T‖ ≤ μ r_N}.
 * Every solver improves r in place (its content is the starting point) and
 * returns 0 when sqrt(ns_fc_contact_error_sq(d, μ, r, W r + q)) ≤ tol,
 * 1 otherwise (r then holds its best iterate). No allocation, no state.
 *
 * The semismooth Newton solvers (ac, fb, nm) share one driver over a
 * residual Φ(r, u) with partial Jacobians A = ∂Φ/∂r and B = ∂Φ/∂u, so the
 * same residuals also serve the global Newton method (fc3d_nsn.c), whose
 * Jacobian is blockdiag(A) + blockdiag(B) W. */
#ifndef NS_FC3D_LOCAL_H
#define NS_FC3D_LOCAL_H

#include <math.h>

/* ‖(a, b)‖ for the tangential parts of the cone tests: sqrt(a² + b²),
 * hypot's scaling (several times slower) only where the squares would
 * overflow or lose the value to underflow. */
static inline double ns_fc_norm_t(double a, double b)
{
    double s = a * a + b * b;
    return s > 1e-300 && s < 1e300 ? sqrt(s) : hypot(a, b);
}

typedef struct ns_fc_contact {
    int dim;            /* 2 or 3 */
    const double *W;    /* (d×d) column-major */
    const double *q;    /* (d) */
    double mu;          /* ≥ 0 */
    double rho_n;       /* AC/NM scaling of the normal part (> 0) */
    double rho_t;       /* AC scaling of the tangential part (> 0) */
    double tol;         /* absolute, on the contact error */
    int max_iter;       /* Newton / fixed-point iterations */
} ns_fc_contact;

/** Residual of a semismooth reformulation at (r, u): F (d); A, B (d×d,
 *  column-major) its partial Jacobians w.r.t. r and u (skipped when NULL).
 *  The problem data used are dim, mu, rho_n, rho_t. */
typedef void (*ns_fc_phi_fn)(const ns_fc_contact *c, const double *r,
                             const double *u, double *F, double *A, double *B);

void ns_fc_phi_ac(const ns_fc_contact *c, const double *r, const double *u,
                  double *F, double *A, double *B);
void ns_fc_phi_nm(const ns_fc_contact *c, const double *r, const double *u,
                  double *F, double *A, double *B);
void ns_fc_phi_fb(const ns_fc_contact *c, const double *r, const double *u,
                  double *F, double *A, double *B);

/** One-contact solver. */
typedef int (*ns_fc_local_fn)(const ns_fc_contact *c, double *r);

int ns_fc_local_ac(const ns_fc_contact *c, double *r);
/** ac for d = 3 unrolled (what ns_fc_local_ac calls when dim = 3). */
int ns_fc_local_ac3(const ns_fc_contact *c, double *r);
int ns_fc_local_fb(const ns_fc_contact *c, double *r);
int ns_fc_local_nm(const ns_fc_contact *c, double *r);
int ns_fc_local_proj(const ns_fc_contact *c, double *r);
/** Exact: tries separation, sticking and every sliding direction (roots of
 *  a trigonometric polynomial in the sliding angle), keeps the best. */
int ns_fc_local_enum(const ns_fc_contact *c, double *r);

/** Local solver by short name ("ac", "fb", "nm", "proj", "enum"); NULL if
 *  unknown. */
ns_fc_local_fn ns_fc_local_find(const char *name);

/** f, then — if it fails — the exact enumeration from the best point so
 *  far, then a polishing AC Newton from the enumeration's answer.
 *  Returns 0 when r ends within tol. */
int ns_fc_local_solve(ns_fc_local_fn f, const ns_fc_contact *c, double *r);

/** Fills rho_n, rho_t from W's diagonal (1/W_NN, 1/mean W_TT), tol and
 *  max_iter with the given values. */
void ns_fc_contact_init(ns_fc_contact *c, int dim, const double *W,
                        const double *q, double mu, double tol, int max_iter);

/** The rho_n, rho_t ns_fc_contact_init computes from W's diagonal block:
 *  rho[0], rho[1]. (A sweep computes them once per solve, not once per
 *  contact update: two divisions on every local solve's critical path.) */
static inline void ns_fc_contact_rho(int dim, const double *W, double *rho)
{
    double wn = W[0], wt = dim == 3 ? 0.5 * (W[4] + W[8]) : W[3];
    rho[0] = wn > 0 ? 1.0 / wn : 1.0;
    rho[1] = wt > 0 ? 1.0 / wt : rho[0];
}

/** u ← W r + q for one contact; returns sqrt(contact error²). */
double ns_fc_contact_residual(const ns_fc_contact *c, const double *r, double *u);

/** x ← P_K(x), K the Coulomb cone of coefficient μ (d = 2 or 3). When J is
 *  not NULL it receives the d×d Jacobian of P_K at x (column-major; an
 *  element of the generalized Jacobian on the kinks). */
void ns_fc_project_cone(int dim, double mu, double *x, double *J);

/** Solves the d×d system A x = b (d ≤ 3; partial pivoting); returns 1 if A
 *  is singular to working precision (x untouched), 0 otherwise. */
int ns_small_solve(int d, const double *A, const double *b, double *x);

/** Validates one diagonal block: W_NN > 0 and sym(W) not indefinite.
 *  Returns 0 if usable, 1 for a non-positive normal entry, 2 for an
 *  indefinite symmetric part. */
int ns_fc_check_diag_block(int dim, const double *W);
#endif
