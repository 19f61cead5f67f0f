/* ns_factor.h — factorizations behind one interface.
 *
 * Two phases, as in CSparse/CHOLMOD: ns_factor_analyze looks at the pattern
 * (ordering, symbolic factorization), ns_factor_numeric computes the factors
 * of a matrix with that pattern and can be called again with new values
 * (e.g. at every time step). ns_factor_solve overwrites B with A⁻¹B.
 *
 *   DENSE_LU    : LAPACKE dgetrf/dgetrs (any square matrix)
 *   DENSE_CHOL  : LAPACKE dpotrf/dpotrs (symmetric positive definite)
 *   SPARSE_CHOL : CHOLMOD (symmetric positive definite; lower triangle used)
 *   SPARSE_LU   : UMFPACK (any square sparse matrix)
 *   AUTO        : DENSE storage → DENSE_LU; SPARSE/BLOCK → SPARSE_CHOL if the
 *                 matrix is symmetric (exactly, or within 1e-12·max|A|),
 *                 SPARSE_LU otherwise. If that Cholesky factorization breaks
 *                 down (symmetric but not positive definite), the object
 *                 switches to SPARSE_LU for good; ns_factor_get_method says so.
 *
 * Both Cholesky methods read the lower triangle of A only.
 * NS_SINGULAR is also returned when the factorization succeeds but A is
 * numerically singular: reciprocal condition number estimate below machine
 * epsilon (LAPACKE dgecon/dpocon for the dense methods, CHOLMOD's diagonal
 * estimate for SPARSE_CHOL); UMFPACK reports exactly zero pivots.
 *
 * Any storage is accepted by any method (converted internally). A factor
 * object is not shared between threads; two objects never meet.
 */
#ifndef NS_FACTOR_H
#define NS_FACTOR_H

#include "ns_matrix.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ns_factor_method {
    NS_FACTOR_AUTO = 0,
    NS_FACTOR_DENSE_LU,
    NS_FACTOR_DENSE_CHOL,
    NS_FACTOR_SPARSE_CHOL,
    NS_FACTOR_SPARSE_LU
} ns_factor_method;

typedef struct ns_factor ns_factor;

/** Symbolic phase for A (square). *out receives a new object the caller frees
 *  with ns_factor_free. NS_BAD_INPUT for a non-square A. */
ns_status ns_factor_analyze(const ns_matrix *A, ns_factor_method method,
                            ns_factor **out, char *err);

/** Numeric phase: factors A, which must have the pattern given to analyze
 *  (a sparse method given another pattern of the same size analyses it
 *  again, at the cost of a new symbolic phase). NS_SINGULAR (LU) or
 *  NS_SINGULAR with a message saying "not positive definite" (Cholesky) when
 *  the factorization breaks down; NS_BAD_INPUT when A is not the analysed
 *  size or holds a non-finite value. After a failure, solve refuses
 *  (NS_BAD_INPUT) until a numeric phase succeeds. */
ns_status ns_factor_numeric(ns_factor *F, const ns_matrix *A, char *err);

/** Both phases in one call. On failure *out is NULL (nothing to free). */
ns_status ns_factor_new(const ns_matrix *A, ns_factor_method method,
                        ns_factor **out, char *err);

/** B (n×nrhs, column-major, leading dimension ldb ≥ n) ← A⁻¹ B. */
ns_status ns_factor_solve(ns_factor *F, double *B, ns_int nrhs, ns_int ldb);

/** Method actually used (AUTO resolved). */
ns_factor_method ns_factor_get_method(const ns_factor *F);

/** Name of a method ("dense-lu", ...). */
const char *ns_factor_method_name(ns_factor_method m);

/** Frees F. NULL is allowed. */
void ns_factor_free(ns_factor *F);

#ifdef __cplusplus
}
#endif
#endif
