/* ns_soclcp.h — second-order cone linear complementarity problem.
 *   find r ∈ ℝⁿ:  v = W r + q,  K ∋ r ⊥ v ∈ K*,
 *   K = K_1 × … × K_nc over blocks of given sizes d_i ≥ 1,
 *   K_i = { r_i : ‖(r_i1, …, r_i,d−1)‖ ≤ mu_i r_i0 },
 *   K_i* = { v_i : mu_i ‖(v_i1, …)‖ ≤ v_i0 }  (the dual cone).
 * Equivalently r = P_K(r − v). With d_i = 3 and u = v this is the
 * friction-contact problem without De Saxcé's term.
 */
#ifndef NS_SOCLCP_H
#define NS_SOCLCP_H
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_soclcp {
    ns_int n;            /* total size, cone_start[nc] */
    ns_int nc;           /* number of cones */
    ns_matrix *W;        /* (n × n) owned */
    double *q;           /* (n) owned */
    ns_int *cone_start;  /* (nc+1) owned: block i is cone_start[i] .. [i+1]−1 */
    double *mu;          /* (nc) owned, ≥ 0 */
} ns_soclcp;

/** Takes W (freed on failure), copies q (W->cols values), the nc+1 block
 *  starts and the nc coefficients. */
ns_soclcp *ns_soclcp_new(ns_matrix *W, const double *q, ns_int nc,
                         const ns_int *cone_start, const double *mu);
/** Square W of order n, finite q, starts 0 = s_0 < s_1 < … < s_nc = n,
 *  finite mu ≥ 0. */
ns_status ns_soclcp_validate(const ns_soclcp *p, char *err);
void ns_soclcp_free(ns_soclcp *p);

/** Projection of x (d values) onto {‖x[1..]‖ ≤ mu x[0]}, into px (may be x). */
void ns_soc_project(ns_int d, double mu, const double *x, double *px);

#ifdef __cplusplus
}
#endif
#endif
