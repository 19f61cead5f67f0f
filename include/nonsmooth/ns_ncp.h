/* ns_ncp.h — nonlinear complementarity problem.
 *   find z ∈ ℝⁿ:  0 ≤ z ⊥ F(z) ≥ 0.
 * F is either a callback (with its Jacobian, or without: then the solvers
 * difference F) or affine, F(z) = M z + q (an LCP read as an NCP).
 * The callback types below are shared by the MCP and VI kinds.
 */
#ifndef NS_NCP_H
#define NS_NCP_H
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

/** Evaluates F(z) into Fz (n values). Returns 0 on success, non-zero when
 *  F cannot be evaluated at z (solvers then shorten their step, or stop
 *  with NS_FAILED). user is the problem's user pointer, passed through. */
typedef int (*ns_map_fn)(void *user, ns_int n, const double *z, double *Fz);

/** Returns the Jacobian ∇F(z) (n × n, DENSE or SPARSE or BLOCK) as a new
 *  matrix that the caller (the solver) owns and frees with ns_matrix_free;
 *  NULL when it cannot be evaluated. */
typedef ns_matrix *(*ns_jacobian_fn)(void *user, ns_int n, const double *z);

typedef struct ns_ncp {
    ns_int n;
    ns_map_fn F;          /* callback, or NULL for the affine form */
    ns_jacobian_fn J;     /* NULL: forward differences of F (dense) */
    void *user;           /* borrowed: passed to F and J, never freed */
    ns_matrix *M;         /* affine form (n × n), owned; NULL with a callback */
    double *q;            /* affine form (n), owned */
} ns_ncp;

/** NCP with a callback F (required) and Jacobian J (may be NULL); user is
 *  borrowed. NULL on allocation failure. */
ns_ncp *ns_ncp_new(ns_int n, ns_map_fn F, ns_jacobian_fn J, void *user);

/** Affine NCP F(z) = M z + q: takes M (freed on failure), copies q
 *  (M->cols values). */
ns_ncp *ns_ncp_new_affine(ns_matrix *M, const double *q);

/** n ≥ 0 and either F (callback form) or a valid square M with finite q,
 *  not both. NS_OK or NS_BAD_INPUT with the field in err. */
ns_status ns_ncp_validate(const ns_ncp *p, char *err);

/** Frees p, M and q (never user). NULL allowed. */
void ns_ncp_free(ns_ncp *p);

#ifdef __cplusplus
}
#endif
#endif
