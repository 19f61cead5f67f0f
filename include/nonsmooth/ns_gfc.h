/* ns_gfc.h — global friction-contact problem, 2D or 3D (GFC2D / GFC3D).
 *   n dofs, nc contacts of dimension d, m = d·nc.  Find v, r, u:
 *     M v = H r + q        (M: n × n, H: n × m)
 *     u   = Hᵀ v + b
 *   and the Coulomb law of ns_fc.h per contact on (u_α, r_α).
 */
#ifndef NS_GFC_H
#define NS_GFC_H
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_gfc {
    int dim;           /* 2 or 3 */
    ns_int n;          /* degrees of freedom */
    ns_int nc;         /* contacts (0 allowed) */
    ns_matrix *M;      /* (n × n) owned */
    ns_matrix *H;      /* (n × d·nc) owned */
    double *q;         /* (n) owned */
    double *b;         /* (d·nc) owned (may be NULL when nc = 0) */
    double *mu;        /* (nc) owned (may be NULL when nc = 0) */
} ns_gfc;

/** Takes M and H (both freed on failure), copies q (M->cols), b (H->cols),
 *  mu (nc). */
ns_gfc *ns_gfc_new(int dim, ns_int nc, ns_matrix *M, ns_matrix *H,
                   const double *q, const double *b, const double *mu);
/** dim ∈ {2,3}, M square, rows(H) = rows(M), cols(H) = dim·nc, finite
 *  entries, μ ≥ 0. */
ns_status ns_gfc_validate(const ns_gfc *p, char *err);
void ns_gfc_free(ns_gfc *p);

#ifdef __cplusplus
}
#endif
#endif
