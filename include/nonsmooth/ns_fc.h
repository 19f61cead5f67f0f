/* ns_fc.h — local friction-contact problem, 2D or 3D (FC2D / FC3D).
 *   d = 2 or 3, nc contacts, m = d·nc.  Find r, u ∈ ℝᵐ:
 *     u = W r + q,
 *     per contact α (normal component first in each d-block):
 *     K_α* ∋ û_α ⊥ r_α ∈ K_α,   û_α = u_α + μ_α ‖u_T,α‖ e_N,
 *   K_α = { r : ‖r_T‖ ≤ μ_α r_N } the Coulomb cone.
 */
#ifndef NS_FC_H
#define NS_FC_H
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_fc {
    int dim;           /* 2 or 3 */
    ns_int nc;         /* number of contacts */
    ns_matrix *W;      /* (d·nc × d·nc) owned; dense, BLOCK or SPARSE */
    double *q;         /* (d·nc) owned */
    double *mu;        /* (nc) owned */
    ns_int cap_nc;     /* q and mu have room for this many contacts (ns_fc_reshape); 0 = nc */
} ns_fc;

/** Takes W (freed on failure), copies q (W->cols values) and mu (nc). */
ns_fc *ns_fc_new(int dim, ns_int nc, ns_matrix *W, const double *q,
                 const double *mu);
/** dim ∈ {2,3}, W square of order dim·nc, finite entries, μ ≥ 0 and finite. */
ns_status ns_fc_validate(const ns_fc *p, char *err);
void ns_fc_free(ns_fc *p);
/** Resizes q (dim·nc) and μ (nc) for nc contacts, zeroed, in p's own
 *  arrays (grown with 1/8 headroom, never shrunk: nothing allocated once
 *  p has seen its largest nc). W is the caller's to reshape to dim·nc
 *  (ns_matrix_block_reshape) before p is solved. NS_BAD_INPUT (nc < 0) or
 *  NS_NO_MEMORY, p unchanged. */
ns_status ns_fc_reshape(ns_fc *p, ns_int nc);

#ifdef __cplusplus
}
#endif
#endif
