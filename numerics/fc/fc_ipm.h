/* fc_ipm.h — the interior-point core shared by the GFC3D and FC3D "ipm"
 * solvers (private to libnonsmooth_numerics; docs/ipm.md).
 *
 * Each contact α is a second-order cone after De Saxcé's change of variable
 * and the scaling D_α = diag(1, μ_α, μ_α):
 *     z_α = D_α⁻¹ r_α ∈ L,   x_α = D_α (u_α + s_α e_N) ∈ L,   x_α ∘ z_α = 0,
 * L = {(t, y) : ‖y‖ ≤ t} (the tangential part of z is unused when μ_α = 0:
 * r_α = D_α z_α then has r_T = 0). The problem supplies, through ns_ipm_ops,
 *     r_d(y, z)      = the equations without cones (GFC: M v − Ĥ z − q; FC: none),
 *     r_p(y, z, x, s) = D(u + s e_N) − x,
 * and the Newton solve with the Nesterov–Todd scaling W (per cone, W z = W⁻¹ x):
 *     GFC: (M + Ĥ W⁻² Ĥᵀ) Δv = −r_d + Ĥ W⁻² t,  Δz = W⁻² (t − Ĥᵀ Δv),
 *     FC:  (Ŵ + W²) Δz = t,
 * with t = W ξ − r_p, Ĥ = H D, Ŵ = D W D; the core does the rest
 * (scaling, Mehrotra predictor–corrector, step lengths, s = μ‖u_T‖,
 * the finishing call). */
#ifndef NS_FC_IPM_H
#define NS_FC_IPM_H
#include "nonsmooth/ns_solver.h"
#include "nonsmooth/ns_factor.h"

typedef struct ns_ipm_ops {
    void *ctx;
    ns_int ny;          /* unknowns outside the cones (GFC: n; FC: 0) */
    ns_int nc;          /* contacts (cones of dimension 3) */
    const double *mu;   /* (nc) */
    /* rd (ny) ← r_d(y, z); rp (3nc) ← D(u + s e_N) − x; u (3nc) ← the
     * velocity (unscaled) at (y, z) */
    void (*residual)(void *ctx, const double *y, const double *z, const double *x,
                     const double *s, double *rd, double *rp, double *u);
    /* factors the Newton matrix for the per-cone blocks W² and W⁻²
     * (9 doubles each, column-major) */
    ns_status (*factor)(void *ctx, const double *W2, const double *W2i, char *err);
    /* dy (ny), dz (3nc) from rd and t with the last factorization */
    ns_status (*solve)(void *ctx, const double *rd, const double *t, double *dy, double *dz);
    /* the library's error of the point (y, z) (unscaled reactions r = D z) */
    double (*error)(void *ctx, const double *y, const double *z);
    /* semismooth Newton from (y, z) with tolerance tol, at most max_iter
     * iterations and time_limit seconds (0: none); writes the caller's
     * output vectors and returns the library's error of what it wrote
     * (+INFINITY when it failed); *iters ← its iterations */
    double (*finish)(void *ctx, const double *y, const double *z, double tol, int max_iter,
                     double time_limit, int *iters);
    /* writes the caller's output vectors from (y, z) */
    void (*output)(void *ctx, const double *y, const double *z);
} ns_ipm_ops;

/** Runs the interior-point method: fixed_point 0 updates s = μ‖u_T‖ from
 *  the current velocity before every step (the direct variant), 1 only
 *  once the convex problem with the current s is solved (the outer fixed
 *  point). y (ny) and z (3nc) hold the warm start
 *  (unscaled reactions already mapped to z) when o->warm_start, else are
 *  ignored. On return the caller's outputs have been written through
 *  ops->output or ops->finish; res gets iterations, error, message. */
ns_status ns_ipm_run(const ns_ipm_ops *ops, double *y, double *z, const ns_options *o,
                     int fixed_point, ns_result *res);

/** The options of an ipm solver's semismooth Newton finish: the defaults,
 *  then tol, max_iter, time_limit (0: none), a warm start, and the
 *  caller's fc_norm, log, cancel hook and verbosity less one (the finish's
 *  own iterations only at the caller's level 3). */
void ns_ipm_finish_options(const ns_options *o, double tol, int max_iter, double time_limit,
                           ns_options *fo);

/* ---- one cone of dimension 3 (exposed for the white-box tests) ---- */
/** NT scaling of (x, z) ∈ int L × int L: W, W⁻¹, W², W⁻² (3×3 symmetric,
 *  column-major) with W z = W⁻¹ x. 0 when x or z is not interior. */
int ns_soc_nt(const double *x, const double *z, double *W, double *Wi, double *W2, double *W2i);
/** Largest α ≥ 0 (+INFINITY if none) with x + α d ∈ L, x ∈ int L. */
double ns_soc_max_step(const double *x, const double *d);

/* ---- the Newton matrix of the ipm solvers (fc_ipm_system.c) ----
 * A square matrix with a fixed pattern given once as (row, column) pairs
 * (the diagonal is always added), whose values the caller writes into
 * K->csc.x at every iteration through the positions the pattern returned.
 * ns_ipm_sys_factor scales it symmetrically by S = diag(|K_ii|^-1/2)
 * (Jacobi: the factorization's condition estimate then sees the scaled
 * matrix), copies it to dense storage when the order is at most
 * NS_IPM_DENSE_MAX (LAPACKE), and factors it: Cholesky when symmetric
 * (CHOLMOD with the symbolic analysis of the first call reused), LU
 * otherwise (UMFPACK), retried with a diagonal regularisation 1e-12,
 * 1e-10, 1e-8 (relative to the unit scaled diagonal) when it fails. */
#define NS_IPM_DENSE_MAX 128
typedef struct ns_ipm_sys {
    ns_int n;
    int symmetric;
    ns_matrix *K;       /* SPARSE n×n, sorted full pattern; values written by the caller */
    ns_matrix *Kd;      /* DENSE copy when n ≤ NS_IPM_DENSE_MAX, else NULL */
    ns_int *diag;       /* (n) position of K_ii in K->csc.x */
    double *S;          /* (n) Jacobi scaling of the last factorization */
    ns_factor *F;
} ns_ipm_sys;

/** Builds the pattern of n×n K from npairs pairs (ri[k], ci[k]) (repeats
 *  allowed) and the diagonal; pos[k] ← position of pair k in K->csc.x. */
ns_status ns_ipm_sys_init(ns_ipm_sys *s, ns_int n, size_t npairs, const ns_int *ri,
                          const ns_int *ci, ns_int *pos, int symmetric, char *err);
/** Scales and factors K (its values are overwritten by the scaled ones). */
ns_status ns_ipm_sys_factor(ns_ipm_sys *s, char *err);
/** b ← K⁻¹ b with the last factorization. */
ns_status ns_ipm_sys_solve(ns_ipm_sys *s, double *b);
/** Frees what s holds (s itself is the caller's). */
void ns_ipm_sys_free(ns_ipm_sys *s);

#endif
