/* lcp_dense_lu.c — LU with partial pivoting of a small dense column-major
 * matrix, P A = L U, and the solve A x = b, for the complementarity kernels:
 *   ns_kernel_lu:       A (n×n, leading dimension lda) ← L\U, piv 1-based
 *                       (LAPACK's dgetrf format); returns 1 when U is exactly
 *                       singular (a zero pivot column), 0 otherwise.
 *   ns_kernel_lu_solve: b ← A⁻¹ b from the factors.
 *   ns_kernel_lu_and_solve: both in one call (dgesv: OpenBLAS sets up its
 *                       buffers once per call, most of a small system's
 *                       cost), for a factorization used once.
 * All go to LAPACK (dgetrf/dgetrs/dgesv through LAPACKE's _work entry
 * points, which skip LAPACKE's NaN scan of the input): the project does not
 * hand-write factorizations, even for the small sizes where a plain loop
 * would save LAPACK's call overhead. OpenBLAS' threaded dgetrf spends its
 * time starting and spinning threads on small sizes, so the tools (nsolve,
 * nsbench, benchmarks) run BLAS single-threaded — see
 * tools/common/blas_threads.c and the README. */
#include "lcp/lcp_kernels.h"

int ns_kernel_lu(ns_int n, double *A, ns_int lda, lapack_int *piv)
{
    if (n == 0) return 0;
    return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, A, lda, piv) != 0 ? 1 : 0;
}

void ns_kernel_lu_solve(ns_int n, const double *A, ns_int lda,
                        const lapack_int *piv, double *b)
{
    if (n == 0) return;
    LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, A, lda, piv, b, n > 0 ? n : 1);
}

int ns_kernel_lu_and_solve(ns_int n, double *A, ns_int lda, lapack_int *piv, double *b)
{
    if (n == 0) return 0;
    return LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, 1, A, lda, piv, b, n) != 0 ? 1 : 0;
}
