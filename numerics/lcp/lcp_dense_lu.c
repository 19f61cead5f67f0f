/* lcp_dense_lu.c — LU with partial pivoting of a small dense column-major
 * matrix, P A = L U, and the solve A x = b, for the complementarity kernels:
 *   ns_kernel_lu:       A (n×n, leading dimension lda) ← L\U, piv 1-based
 *                       (LAPACK's dgetrf format); returns 1 when U is exactly
 *                       singular (a zero pivot column), 0 otherwise.
 *   ns_kernel_lu_solve: b ← A⁻¹ b from the factors.
 * The kernels run many small factorizations (enum: one per active set;
 * newton: one per iteration on the rows that are not inactive): up to
 * SMALL_N rows they are done here, by a right-looking LU and plain
 * substitutions, without LAPACK's call and dispatch overhead — OpenBLAS'
 * dgetrf falls to its unblocked dot-product LU (dgetf2) on such sizes, and
 * dgetrs to trsv calls; above, by LAPACK (dgetrf/dgetrs). Both store the same
 * factors, so either solve reads either factorization. The loops are built
 * for AVX2 as well as the baseline x86-64 and chosen at load time (function
 * multiversioning), the library being compiled for the baseline.
 * OpenBLAS' threaded dgetrf spends its time starting and spinning threads on
 * small sizes, so the tools (nsolve, nsbench, benchmarks) run BLAS
 * single-threaded — see tools/common/blas_threads.c and the README. */
#include "lcp/lcp_kernels.h"
#include <math.h>

#define SMALL_N 64

#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define NS_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
#endif
#ifndef NS_SIMD_CLONES
#define NS_SIMD_CLONES
#endif

NS_SIMD_CLONES static int small_lu(ns_int n, double *A, ns_int lda, lapack_int *piv)
{
    int singular = 0;
    for (ns_int k = 0; k < n; k++) {
        double *Ak = A + (size_t)k * (size_t)lda;
        ns_int p = k;
        double mx = fabs(Ak[k]);
        for (ns_int i = k + 1; i < n; i++) {
            double v = fabs(Ak[i]);
            if (v > mx) { mx = v; p = i; }
        }
        piv[k] = (lapack_int)(p + 1);
        if (mx == 0.0) { singular = 1; continue; }   /* as dgetrf: go on */
        if (p != k)
            for (ns_int j = 0; j < n; j++) {
                double *c = A + (size_t)j * (size_t)lda, t = c[k];
                c[k] = c[p];
                c[p] = t;
            }
        double inv = 1.0 / Ak[k];
        for (ns_int i = k + 1; i < n; i++) Ak[i] *= inv;
        ns_int j = k + 1;
        for (; j + 1 < n; j += 2) {   /* two columns a pass: Ak read once */
            double *Aj = A + (size_t)j * (size_t)lda, *Aj1 = Aj + lda;
            double a = Aj[k], b = Aj1[k];
            for (ns_int i = k + 1; i < n; i++) {
                double l = Ak[i];
                Aj[i] -= a * l;
                Aj1[i] -= b * l;
            }
        }
        for (; j < n; j++) {
            double *Aj = A + (size_t)j * (size_t)lda, a = Aj[k];
            for (ns_int i = k + 1; i < n; i++) Aj[i] -= a * Ak[i];
        }
    }
    return singular;
}

NS_SIMD_CLONES static void small_solve(ns_int n, const double *A, ns_int lda,
                                       const lapack_int *piv, double *b)
{
    for (ns_int k = 0; k < n; k++) {          /* b ← P b */
        ns_int p = (ns_int)piv[k] - 1;
        if (p != k) { double t = b[k]; b[k] = b[p]; b[p] = t; }
    }
    for (ns_int k = 0; k < n; k++) {          /* L y = b (unit lower), by columns */
        const double *Ak = A + (size_t)k * (size_t)lda;
        double bk = b[k];
        if (bk != 0.0)
            for (ns_int i = k + 1; i < n; i++) b[i] -= bk * Ak[i];
    }
    for (ns_int k = n - 1; k >= 0; k--) {     /* U x = y, by columns */
        const double *Ak = A + (size_t)k * (size_t)lda;
        double bk = b[k] / Ak[k];
        b[k] = bk;
        if (bk != 0.0)
            for (ns_int i = 0; i < k; i++) b[i] -= bk * Ak[i];
    }
}

int ns_kernel_lu(ns_int n, double *A, ns_int lda, lapack_int *piv)
{
    if (n == 0) return 0;
    if (n <= SMALL_N) return small_lu(n, A, lda, piv);
    return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, A, lda, piv) != 0 ? 1 : 0;
}

void ns_kernel_lu_solve(ns_int n, const double *A, ns_int lda,
                        const lapack_int *piv, double *b)
{
    if (n == 0) return;
    if (n <= SMALL_N) { small_solve(n, A, lda, piv, b); return; }
    LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, A, lda, piv, b, n > 0 ? n : 1);
}
