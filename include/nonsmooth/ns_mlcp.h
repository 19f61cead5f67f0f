/* ns_mlcp.h — mixed linear complementarity problem.
 *   z = (u, v), u ∈ ℝⁿ free, v ∈ ℝᵐ:
 *     A u + C v + a = 0,
 *     0 ≤ v ⊥ w_v = D u + B v + b ≥ 0,
 *   i.e. with M = [[A, C], [D, B]], q = (a, b): w = M z + q, w_u = 0.
 * The problem is held in the M form (always present after construction);
 * the split ABCD form is kept too when it was given (files hold both).
 */
#ifndef NS_MLCP_H
#define NS_MLCP_H
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_mlcp {
    ns_int n;          /* equality rows / free unknowns */
    ns_int m;          /* complementarity rows */
    ns_matrix *M;      /* ((n+m) × (n+m)) owned; a file may hold a rectangular one */
    double *q;         /* (M->cols) owned */
    /* optional split form (all NULL when absent), owned, dense: */
    ns_matrix *A;      /* (n × n) */
    ns_matrix *B;      /* (m × m) */
    ns_matrix *C;      /* (n × m) */
    ns_matrix *D;      /* (m × n) */
    double *a;         /* (n) */
    double *b;         /* (m) */
    /* block description of the M form (as in Siconos files): */
    ns_int nblocks;    /* number of row blocks */
    ns_int *block_start; /* (nblocks+1) row boundaries, 0 .. n+m */
    int *block_kind;   /* (nblocks) 0 = equality, 1 = complementarity */
} ns_mlcp;

/** M form. Takes M (freed on failure), copies q (M->cols values). Block
 *  description set to [0, n, n+m] with kinds (0, 1). */
ns_mlcp *ns_mlcp_new(ns_int n, ns_int m, ns_matrix *M, const double *q);

/** Split form: takes A, B, C, D (all freed on failure), copies a, b; builds
 *  the dense M form from them. */
ns_mlcp *ns_mlcp_new_abcd(ns_matrix *A, ns_matrix *B, ns_matrix *C,
                          ns_matrix *D, const double *a, const double *b);

/** M is (n+m)×(n+m) (a rectangular M is reported as such), finite entries,
 *  block description consistent, split form (if any) of matching sizes. */
ns_status ns_mlcp_validate(const ns_mlcp *p, char *err);
void ns_mlcp_free(ns_mlcp *p);

#ifdef __cplusplus
}
#endif
#endif
