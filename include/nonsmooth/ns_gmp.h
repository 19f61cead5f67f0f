/* ns_gmp.h — generic mechanical problem.
 *   One square BLOCK matrix M and vector q; each block row r is a
 *   sub-problem of its own type on the unknowns of that block row:
 *     w = M z + q, and for block row r, (z_r, w_r) satisfy
 *     EQUALITY: w_r = 0;  LCP: 0 ≤ z_r ⊥ w_r ≥ 0;
 *     RELAY: lb_r ≤ z_r ≤ ub_r, −w_r ∈ N(z_r);  FC2D/FC3D: Coulomb law with μ_r.
 */
#ifndef NS_GMP_H
#define NS_GMP_H
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Sub-problem type codes, equal to the Siconos file codes. */
typedef enum ns_gmp_type {
    NS_GMP_LCP = 0,
    NS_GMP_MLCP = 1,      /* not supported in problems (Siconos 4.4 neither) */
    NS_GMP_EQUALITY = 2,
    NS_GMP_FC2D = 3,
    NS_GMP_FC3D = 4,
    NS_GMP_RELAY = 9
} ns_gmp_type;

typedef struct ns_gmp {
    ns_int n;          /* order of M */
    ns_matrix *M;      /* (n × n) owned, BLOCK storage */
    double *q;         /* (n) owned */
    ns_int nblocks;    /* = M->block.block_rows */
    int *type;         /* (nblocks) ns_gmp_type of each block row */
    double *mu;        /* (nblocks) friction coefficient (FC blocks), NAN otherwise */
    double *lb, *ub;   /* (n) relay bounds, NULL when no relay block */
} ns_gmp;

/** Takes M (freed on failure; must be BLOCK), copies q (M->cols), type and mu
 *  (one per block row; mu may be NULL → NAN). */
ns_gmp *ns_gmp_new(ns_matrix *M, const double *q, const int *type,
                   const double *mu);
/** M BLOCK and square, diagonal blocks square, supported types, block sizes
 *  fit the type (FC3D: 3, FC2D: 2), μ ≥ 0 for FC blocks, finite entries. */
ns_status ns_gmp_validate(const ns_gmp *p, char *err);
/** Count of block rows of a given type. */
ns_int ns_gmp_count(const ns_gmp *p, ns_gmp_type t);
void ns_gmp_free(ns_gmp *p);

#ifdef __cplusplus
}
#endif
#endif
