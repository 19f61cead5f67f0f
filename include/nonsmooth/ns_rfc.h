/* ns_rfc.h — rolling friction contact: local 3D (RFC3D), local 2D (RFC2D)
 * and global 3D (GRFC3D). Mathematics in docs/rolling.md.
 *
 * Each contact carries d unknowns, normal first, then the sliding part T
 * (2 components in 3D, 1 in 2D), then the rolling part R (2 in 3D, 1 in
 * 2D): d = 5 (RFC3D, GRFC3D) or d = 3 (RFC2D), the "dimension" written in
 * Siconos' files. The cone of contact α is
 *     K_α = { r : ‖r_T‖ ≤ μ_α r_N,  ‖r_R‖ ≤ μr_α r_N }
 * (μ the sliding, μr the rolling resistance coefficient), and the law is
 *     K_α* ∋ û_α ⊥ r_α ∈ K_α,   û_α = u_α + (μ_α‖u_T,α‖ + μr_α‖u_R,α‖) e_N.
 *
 * RFC3D also takes d = 6: a sixth unknown per contact, the pivoting
 * (drilling) torque r_P about the normal against the relative angular
 * velocity u_P about the normal, with |r_P| ≤ μp_α r_N and μp_α|u_P,α|
 * added to û_N (the same law for a third part; docs/rolling.md §1).
 * Siconos' files have no such part: the .dat writer refuses d = 6.
 *
 * Local (ns_rfc): u = W r + q, W of order d·nc.
 * Global (ns_grfc): M v = H r + q, u = Hᵀ v + b (M: n × n, H: n × d·nc).
 */
#ifndef NS_RFC_H
#define NS_RFC_H
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_rfc {
    int dim;           /* unknowns per contact: 5 (RFC3D) or 3 (RFC2D) */
    ns_int nc;         /* number of contacts */
    ns_matrix *W;      /* (d·nc × d·nc) owned; DENSE, BLOCK or SPARSE */
    double *q;         /* (d·nc) owned */
    double *mu;        /* (nc) owned: sliding friction coefficients */
    double *mu_r;      /* (nc) owned: rolling resistance coefficients */
    double *mu_p;      /* (nc) owned: pivoting resistance coefficients (read
                          only when dim = 6; zeros from ns_rfc_new) */
} ns_rfc;

typedef struct ns_grfc {
    int dim;           /* unknowns per contact: 5 */
    ns_int n;          /* degrees of freedom */
    ns_int nc;         /* contacts (0 allowed) */
    ns_matrix *M;      /* (n × n) owned */
    ns_matrix *H;      /* (n × d·nc) owned */
    double *q;         /* (n) owned */
    double *b;         /* (d·nc) owned */
    double *mu;        /* (nc) owned */
    double *mu_r;      /* (nc) owned */
} ns_grfc;

/** Takes W (freed on failure, and when dim is not 3, 5 or 6), copies q
 *  (W->cols values), mu and mu_r (nc each; NULL arrays give zeros); mu_p
 *  starts at zeros (set p->mu_p[α] for dim 6).
 *  NULL when out of memory or W is NULL or nc < 0. Free with ns_rfc_free. */
ns_rfc *ns_rfc_new(int dim, ns_int nc, ns_matrix *W, const double *q,
                   const double *mu, const double *mu_r);
/** dim ∈ {3, 5, 6}, W square of order dim·nc, finite entries, μ ≥ 0,
 *  μr ≥ 0 (and with dim 6 μp ≥ 0) finite. NS_OK or NS_BAD_INPUT with the field named in err. */
ns_status ns_rfc_validate(const ns_rfc *p, char *err);
/** Frees p and everything it owns (NULL allowed). */
void ns_rfc_free(ns_rfc *p);

/** Takes M and H (both freed on failure), copies q (M->cols), b (H->cols),
 *  mu and mu_r (nc). dim must be 5. Free with ns_grfc_free. */
ns_grfc *ns_grfc_new(int dim, ns_int nc, ns_matrix *M, ns_matrix *H,
                     const double *q, const double *b, const double *mu,
                     const double *mu_r);
/** dim = 5, M square, rows(H) = rows(M), cols(H) = 5·nc, finite entries,
 *  μ, μr ≥ 0. */
ns_status ns_grfc_validate(const ns_grfc *p, char *err);
/** Frees p and everything it owns (NULL allowed). */
void ns_grfc_free(ns_grfc *p);

/** x ← P_K(x): Euclidean projection of one contact's d-vector (d = 3 or
 *  5) on the rolling cone K = {‖x_T‖ ≤ μ x_N, ‖x_R‖ ≤ μr x_N}. Exact (the
 *  one-dimensional convex problem in x_N solved in closed form on its
 *  piece). μ, μr ≥ 0. Returns 0 (polar cone: x ← 0), 1 (inside: x kept),
 *  2 (projected on the boundary). */
int ns_rfc_project(int dim, double mu, double mu_r, double *x);
/** The same on K = {‖x_T‖ ≤ μ x_N, ‖x_R‖ ≤ μr x_N, |x_P| ≤ μp x_N} for d =
 *  6 (μp ignored for d = 3, 5; ns_rfc_project is this with μp = 0). */
int ns_rfc_project_pivot(int dim, double mu, double mu_r, double mu_p, double *x);

/** ‖r − P_K(r − û)‖² for one contact (d = 3 or 5); +INFINITY when a value
 *  is not finite or d is neither 3 nor 5. */
double ns_rfc_contact_error_sq(int dim, double mu, double mu_r,
                               const double *r, const double *u);
/** The same with the pivoting coefficient (d = 3, 5 or 6). */
double ns_rfc_contact_error_sq_pivot(int dim, double mu, double mu_r, double mu_p,
                                     const double *r, const double *u);

#ifdef __cplusplus
}
#endif
#endif
