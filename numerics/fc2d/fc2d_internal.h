/* fc2d_internal.h — FC2D pieces private to libnonsmooth_numerics. */
#ifndef NS_FC2D_INTERNAL_H
#define NS_FC2D_INTERNAL_H
#include "nonsmooth/ns_fc.h"
#include "nonsmooth/ns_solver.h"
#include "nonsmooth/ns_residual.h"

/** Cases of the exact one-contact solver (fc2d_local.c). */
enum {
    NS_FC2D_SEPARATED = 0,   /* r = 0, u_N ≥ 0 */
    NS_FC2D_STICKING = 1,    /* u = 0, |r_T| ≤ μ r_N */
    NS_FC2D_SLIDING_POS = 2, /* u_N = 0, u_T ≥ 0, r_T = −μ r_N */
    NS_FC2D_SLIDING_NEG = 3  /* u_N = 0, u_T ≤ 0, r_T = +μ r_N */
};

/** Exact solution of the one-contact problem (W 2×2 column-major, q, μ):
 *  returns its case, or −1 when no case holds (W not positive definite;
 *  r is then the candidate of smallest residual). */
int ns_fc2d_local_exact(const double *W, const double *q, double mu, double *r);

/** ‖r − P_K(r − û)‖ of one 2D contact (û_N = u_N + μ|u_T|, u = W r + q). */
double ns_fc2d_local_residual(const double *W, const double *q, double mu, const double *r);

/** FC2D NSGS with the exact local solver (fc2d_nsgs.c). */
ns_status ns_fc2d_nsgs(const ns_fc *p, double *r, double *u, const ns_options *o,
                       ns_result *res);

/** The LCP reformulation of an FC2D problem (fc2d_lcp.c): per contact α,
 *  z_α = (r_N, λ⁺, λ⁻, γ), order n = 4 nc. ns_fc2d_lcp_build fills M (n×n,
 *  column-major) and q (n) from W (2nc × 2nc dense, column-major). */
void ns_fc2d_lcp_build(const ns_fc *p, const double *W, double *M, double *q);
/** r from the LCP's z (r_T = λ⁺ − λ⁻). */
void ns_fc2d_z_to_r(ns_int nc, const double *z, double *r);
/** A dense kernel's error callback (lcp_kernels.h): w = M z + q, then the
 *  FC2D error of r read back from z (u filled), ctx an ns_fc2d_lcp. */
typedef struct ns_fc2d_lcp {
    const ns_fc *p;
    double *r, *u;
    const double *M, *q;
    ns_int n;
    ns_fc_norm norm;
} ns_fc2d_lcp;
double ns_fc2d_lcp_error(const void *ctx, const double *z, double *w);
#endif
