/* ns_relay.h — relay problem (box-constrained affine VI).
 *   find z, w = M z + q with lb ≤ z ≤ ub and −w ∈ N_[lb,ub](z):
 *   z_i = lb_i ⇒ w_i ≥ 0;  z_i = ub_i ⇒ w_i ≤ 0;  lb_i < z_i < ub_i ⇒ w_i = 0.
 */
#ifndef NS_RELAY_H
#define NS_RELAY_H
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_relay {
    ns_int n;
    ns_matrix *M;      /* (n × n) owned */
    double *q;         /* (n) owned */
    double *lb;        /* (n) owned; may hold -INFINITY */
    double *ub;        /* (n) owned; may hold +INFINITY */
} ns_relay;

/** Takes M (freed on failure), copies q, lb, ub (M->cols values each). */
ns_relay *ns_relay_new(ns_matrix *M, const double *q, const double *lb,
                       const double *ub);
/** Square M, finite M and q, no NaN bound, lb ≤ ub. */
ns_status ns_relay_validate(const ns_relay *p, char *err);
void ns_relay_free(ns_relay *p);

#ifdef __cplusplus
}
#endif
#endif
