/* rfc_internal.h — private helpers of the rolling friction-contact kinds
 * (numerics/rfc, numerics/grfc). Contact vectors have d = 3, 5 or 6
 * entries: normal, sliding part T, rolling part R (each 1 entry in 2D, 2
 * in 3D), and with d = 6 the pivoting part P (1 entry). Each part p has
 * its coefficient c_p (μ, μr, μp) and its disc ‖x_p‖ ≤ c_p x_N. */
#ifndef NS_RFC_INTERNAL_H
#define NS_RFC_INTERNAL_H
#include "nonsmooth/ns_rfc.h"
#include "nonsmooth/ns_solver.h"

enum { RFC_DMAX = 6, RFC_PMAX = 3 };

/** The parts of a d-vector: number of parts (2 or 3), their first index
 *  and their length. */
static inline int ns_rfc_parts(int d, int off[RFC_PMAX], int len[RFC_PMAX])
{
    if (d == 3) { off[0] = 1; off[1] = 2; len[0] = len[1] = 1; return 2; }
    off[0] = 1; off[1] = 3; len[0] = len[1] = 2;
    if (d == 6) { off[2] = 5; len[2] = 1; return 3; }
    return 2;
}

/** J (d×d, column-major) ← the Jacobian of P_K at x (the projection of
 *  ns_rfc_project; on a kink, the one-sided choice of the region x lies
 *  in). */
void ns_rfc_project_jacobian(int dim, double mu, double mu_r, double mu_p,
                             const double *x, double *J);

/** û ← u + (μ‖u_T‖ + μr‖u_R‖ + μp|u_P|) e_N and, when G is not NULL, G
 *  (d×d, column-major) ← dû/du = I + e_N (μ s_Tᵀ, μr s_Rᵀ, μp s_P), s the
 *  unit direction of each part (0 when the part is 0). μp is ignored
 *  unless d = 6. */
void ns_rfc_modified_velocity(int dim, double mu, double mu_r, double mu_p, const double *u,
                              double *uhat, double *G);

/** Residuals of one contact (rfc_phi.c): F ← Φ(r, u) with step ρ; when A
 *  is not NULL, A ← ∂Φ/∂r and B ← ∂Φ/∂u (d×d, column-major). Returns ‖Φ‖
 *  (+INFINITY if not finite). ns_rfc_ac: Alart–Curnier; ns_rfc_nm: the
 *  natural map r − P_K(r − ρû). */
double ns_rfc_ac(int d, double mu, double mu_r, double mu_p, double rho, const double *r,
                 const double *u, double *F, double *A, double *B);
double ns_rfc_nm(int d, double mu, double mu_r, double mu_p, double rho, const double *r,
                 const double *u, double *F, double *A, double *B);
typedef double (*ns_rfc_phi_fn)(int d, double mu, double mu_r, double mu_p, double rho,
                                const double *r, const double *u, double *F, double *A,
                                double *B);

/** One contact: finds r with Φ(r) = 0 for u = W r + q, W the d×d block
 *  (column-major), on the problem scaled per part (rfc_local.c): newton =
 *  1, damped semismooth Newton on the Alart–Curnier function with
 *  projected fixed-point steps as safeguard; newton = 0, projected
 *  fixed-point steps r ← P_K(r − ρû) only. r holds the start and receives
 *  the result; returns the final ‖r − P_K(r − û)‖ (absolute, unscaled). */
double ns_rfc_local_solve(int dim, double mu, double mu_r, double mu_p, const double *W,
                          const double *q, double *r, double tol, int max_iter,
                          int newton);

/* solvers (registry: solve/solve_registry.c): nsgs, nsgs-proj (rfc_nsgs.c),
 * nsn, nsn-ac (rfc_nsn.c), ipm (rfc_ipm.c), auto (rfc_auto.c), grfc3d reduce (grfc_reduce.c) */
ns_status ns_rfc_nsgs(const ns_rfc *p, double *r, double *u, const ns_options *o,
                      ns_result *res);
ns_status ns_rfc_nsgs_proj(const ns_rfc *p, double *r, double *u, const ns_options *o,
                           ns_result *res);
ns_status ns_rfc_nsn(const ns_rfc *p, double *r, double *u, const ns_options *o,
                     ns_result *res);
ns_status ns_rfc_nsn_ac(const ns_rfc *p, double *r, double *u, const ns_options *o,
                        ns_result *res);
/* interior point on the intersection-of-cones form (rfc_ipm.c) */
ns_status ns_rfc_ipm(const ns_rfc *p, double *r, double *u, const ns_options *o,
                     ns_result *res);
/* interior point for GRFC3D, W never formed (grfc/grfc_ipm.c) */
ns_status ns_grfc_ipm(const ns_grfc *p, double *v, double *u, double *r,
                      const ns_options *o, ns_result *res);
ns_status ns_rfc_auto(const ns_rfc *p, double *r, double *u, const ns_options *o,
                      ns_result *res);
ns_status ns_grfc_reduce(const ns_grfc *p, double *v, double *u, double *r,
                         const ns_options *o, ns_result *res);
ns_status ns_grfc_reduce_nsgs(const ns_grfc *p, double *v, double *u, double *r,
                              const ns_options *o, ns_result *res);
ns_status ns_grfc_reduce_nsn(const ns_grfc *p, double *v, double *u, double *r,
                             const ns_options *o, ns_result *res);
#endif
