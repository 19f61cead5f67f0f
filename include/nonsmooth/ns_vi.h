/* ns_vi.h — variational inequality.
 *   find x ∈ X:  ⟨F(x), y − x⟩ ≥ 0  for all y ∈ X,
 *   X closed and convex, given by the projection onto it (a callback), or
 *   the box X = [lb, ub] built in. F as for the NCP (ns_ncp.h): a callback
 *   (its Jacobian optional: only the box Newton solver uses it), or affine
 *   F(x) = M x + q. Equivalently x = P_X(x − ρ F(x)) for any ρ > 0.
 */
#ifndef NS_VI_H
#define NS_VI_H
#include "ns_ncp.h"
#ifdef __cplusplus
extern "C" {
#endif

/** Writes the Euclidean projection of x onto X into px (n values; px and
 *  x do not overlap). Returns 0 on success, non-zero on failure. */
typedef int (*ns_projection_fn)(void *user, ns_int n, const double *x, double *px);

typedef struct ns_vi {
    ns_int n;
    ns_map_fn F;              /* callback, or NULL for the affine form */
    ns_jacobian_fn J;         /* optional; NULL: forward differences */
    void *user;               /* borrowed, passed to F, J and project */
    ns_matrix *M;             /* affine form (n × n), owned */
    double *q;                /* affine form (n), owned */
    ns_projection_fn project; /* X by its projection, or NULL for the box */
    double *lb, *ub;          /* (n) owned, the box when project is NULL */
} ns_vi;

/** VI with callback F (J may be NULL) over X = [lb, ub] (copied; NULL lb:
 *  all −∞, NULL ub: all +∞). */
ns_vi *ns_vi_new_box(ns_int n, ns_map_fn F, ns_jacobian_fn J, void *user,
                     const double *lb, const double *ub);

/** VI with callback F over the set whose projection is `project`. */
ns_vi *ns_vi_new(ns_int n, ns_map_fn F, ns_jacobian_fn J, void *user,
                 ns_projection_fn project);

/** Affine F(x) = M x + q over the box [lb, ub]: takes M (freed on
 *  failure), copies q, lb, ub. */
ns_vi *ns_vi_new_affine_box(ns_matrix *M, const double *q, const double *lb,
                            const double *ub);

/** As for the MCP; a projection callback or a box, not both. */
ns_status ns_vi_validate(const ns_vi *p, char *err);

/** Frees p and what it owns (never user). NULL allowed. */
void ns_vi_free(ns_vi *p);

#ifdef __cplusplus
}
#endif
#endif
