/* ns_lcp.h — linear complementarity problem.
 *   find z ∈ ℝⁿ:  w = M z + q,  0 ≤ z ⊥ w ≥ 0.
 */
#ifndef NS_LCP_H
#define NS_LCP_H
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_lcp {
    ns_int n;          /* size */
    ns_matrix *M;      /* (n × n), any storage; owned */
    double *q;         /* (n) owned */
} ns_lcp;

/** New LCP. Takes ownership of M (also on failure: M is then freed);
 *  copies q (n = M->cols values). NULL on allocation failure. No validation:
 *  call ns_lcp_validate. */
ns_lcp *ns_lcp_new(ns_matrix *M, const double *q);

/** Square M, n = rows = cols, finite entries. NS_OK or NS_BAD_INPUT + err. */
ns_status ns_lcp_validate(const ns_lcp *p, char *err);

void ns_lcp_free(ns_lcp *p);

#ifdef __cplusplus
}
#endif
#endif
