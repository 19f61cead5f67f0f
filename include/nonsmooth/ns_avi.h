/* ns_avi.h — affine variational inequality over a polyhedron.
 *   find z ∈ K:  (M z + q)ᵀ (y − z) ≥ 0  for all y ∈ K,
 *   K = { z : H z ≤ h }  (H: nh × n)  or, when H is NULL, the box
 *   K = { z : lb ≤ z ≤ ub }.
 * A Siconos AVI file stores n, M, q only; our AVI layout adds the set after q
 * (docs/formats-extensions.md §1).
 */
#ifndef NS_AVI_H
#define NS_AVI_H
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_avi {
    ns_int n;
    ns_matrix *M;      /* (n × n) owned */
    double *q;         /* (n) owned */
    ns_matrix *H;      /* (nh × n) owned, or NULL for a box / no set */
    double *h;         /* (nh) owned, with H */
    double *lb, *ub;   /* (n) owned, box bounds when H is NULL; both NULL = ℝⁿ */
} ns_avi;

/** Takes M (freed on failure), copies q. Set fields H/h or lb/ub afterwards
 *  (owned by the problem), or use ns_avi_set_polyhedron / ns_avi_set_box. */
ns_avi *ns_avi_new(ns_matrix *M, const double *q);
/** Takes H (freed on failure), copies h (H->rows values). */
ns_status ns_avi_set_polyhedron(ns_avi *p, ns_matrix *H, const double *h);
/** Copies lb, ub (n values each). */
ns_status ns_avi_set_box(ns_avi *p, const double *lb, const double *ub);
ns_status ns_avi_validate(const ns_avi *p, char *err);
void ns_avi_free(ns_avi *p);

#ifdef __cplusplus
}
#endif
#endif
