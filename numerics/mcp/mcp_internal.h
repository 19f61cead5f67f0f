/* mcp_internal.h — what the NCP, MCP and VI solvers share: F evaluated
 * from a callback or an affine M z + q, its Jacobian (the callback's, M,
 * or forward differences), and the semismooth Newton / smoothing
 * homotopy kernels for the box-constrained MCP
 *   z ∈ [l, u],  z = P_[l,u](z − F(z)),
 * which is also the NCP (l = 0, u = +∞) and the box VI. */
#ifndef NS_MCP_INTERNAL_H
#define NS_MCP_INTERNAL_H
#include "nonsmooth/ns_solver.h"

typedef struct ns_cp_map {
    ns_int n;
    ns_map_fn F;            /* callback, or NULL for M z + q */
    ns_jacobian_fn J;       /* NULL: M (affine) or forward differences */
    void *user;
    const ns_matrix *M;
    const double *q;
} ns_cp_map;

/** Fz ← F(z). 0 on success, non-zero when F fails or gives NaN/Inf. */
int ns_cp_eval(const ns_cp_map *f, const double *z, double *Fz);

/** ∇F(z): M itself (affine, *owned = NULL), else a new matrix put in
 *  *owned that the caller frees (the callback's, or dense forward
 *  differences from Fz = F(z) with work: 2n doubles). NULL on failure. */
const ns_matrix *ns_cp_jacobian(const ns_cp_map *f, const double *z, const double *Fz,
                                double *work, ns_matrix **owned);

/** ‖z − P_[l,u](z − Fz)‖₂ (natural-map residual). */
double ns_box_natural_residual(ns_int n, const double *lb, const double *ub,
                               const double *z, const double *Fz);

/** Reformulations for the Newton kernel. */
typedef enum { NS_CP_FB = 0, NS_CP_MIN = 1 } ns_cp_reform;

/** Semismooth Newton on Φ(z) = 0 (Fischer–Burmeister for boxes, or the
 *  min map), nonmonotone Armijo search on ½‖Φ‖², Levenberg–Marquardt and
 *  gradient fallbacks; stops when the natural residual ≤ o->tol. smooth
 *  > 0: the smoothed FB φ_μ(a, b) = a + b − √(a² + b² + 2μ²) at that μ
 *  (the homotopy's inner solve; stops at ‖Φ_μ‖ ≤ max(tol, smooth)).
 *  z: start in, solution out; Fz ← F(z). Fills res->iterations (added)
 *  and res->error. */
ns_status ns_box_newton(const ns_cp_map *f, const double *lb, const double *ub,
                        ns_cp_reform reform, double smooth, double *z, double *Fz,
                        const ns_options *o, ns_result *res);

/** Smoothing homotopy: μ from ‖Φ(z0)‖ down by factors of 10 to 0, each
 *  stage solved by the smoothed Newton from the last, then a plain FB
 *  Newton; for hard problems where the plain Newton stalls. */
ns_status ns_box_homotopy(const ns_cp_map *f, const double *lb, const double *ub,
                          double *z, double *Fz, const ns_options *o, ns_result *res);

/** The auto chain: newton-fb; then newton-min from the start; then the
 *  homotopy; the best iterate is kept. */
ns_status ns_box_auto(const ns_cp_map *f, const double *lb, const double *ub,
                      double *z, double *Fz, const ns_options *o, ns_result *res);
/** New bound arrays of n values, lb = −∞, ub = +∞; 0 on success. */
int ns_bounds_copy0(ns_int n, double **lb, double **ub);
#endif
