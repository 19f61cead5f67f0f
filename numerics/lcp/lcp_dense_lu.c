/* lcp_dense_lu.c — LU with partial pivoting of a small dense column-major
 * matrix, P A = L U, and the solve A x = b, for the complementarity kernels.
 *   ns_kernel_lu:       A (n×n, leading dimension lda) ← L\U, piv[k] = row
 *                       swapped with k (0-based); 0, or k+1 when U_kk = 0.
 *   ns_kernel_lu_solve: b ← A⁻¹ b from the factors.
 * For n ≤ NS_KERNEL_LU_SMALL a right-looking loop of our own (column axpys
 * the compiler vectorises) is used; above, LAPACK's dgetrf/dgetrs (the same
 * factors, threaded by OpenBLAS, whose thread start-up and sched_yield spin
 * would otherwise dominate the kernels' many small solves). */
#include "lcp/lcp_kernels.h"
#include <math.h>

int ns_kernel_lu(ns_int n, double *A, ns_int lda, lapack_int *piv)
{
    if (n > NS_KERNEL_LU_SMALL)
        return (int)LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, A, lda, piv) > 0 ?
               1 : 0;
    int info = 0;
    for (ns_int k = 0; k < n; k++) {
        double *Ak = A + (size_t)k * (size_t)lda;
        ns_int p = k;
        double amax = fabs(Ak[k]);
        for (ns_int i = k + 1; i < n; i++)
            if (fabs(Ak[i]) > amax) { amax = fabs(Ak[i]); p = i; }
        piv[k] = (lapack_int)(p + 1);
        if (amax == 0.0) { if (!info) info = (int)k + 1; continue; }
        if (p != k)
            for (ns_int j = 0; j < n; j++) {
                double *Aj = A + (size_t)j * (size_t)lda;
                double t = Aj[k]; Aj[k] = Aj[p]; Aj[p] = t;
            }
        double inv = 1.0 / Ak[k];
        for (ns_int i = k + 1; i < n; i++) Ak[i] *= inv;
        for (ns_int j = k + 1; j < n; j++) {
            double *Aj = A + (size_t)j * (size_t)lda;
            double a = Aj[k];
            if (a == 0.0) continue;
            for (ns_int i = k + 1; i < n; i++) Aj[i] -= a * Ak[i];
        }
    }
    return info ? 1 : 0;
}

void ns_kernel_lu_solve(ns_int n, const double *A, ns_int lda,
                        const lapack_int *piv, double *b)
{
    if (n > NS_KERNEL_LU_SMALL) {
        LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, A, lda, piv, b, n);
        return;
    }
    for (ns_int k = 0; k < n; k++) {
        ns_int p = (ns_int)piv[k] - 1;
        if (p != k) { double t = b[k]; b[k] = b[p]; b[p] = t; }
    }
    for (ns_int j = 0; j < n; j++) {            /* L y = b (unit lower) */
        const double *Aj = A + (size_t)j * (size_t)lda;
        double bj = b[j];
        if (bj != 0.0) for (ns_int i = j + 1; i < n; i++) b[i] -= bj * Aj[i];
    }
    for (ns_int j = n - 1; j >= 0; j--) {       /* U x = y */
        const double *Aj = A + (size_t)j * (size_t)lda;
        b[j] /= Aj[j];
        double bj = b[j];
        if (bj != 0.0) for (ns_int i = 0; i < j; i++) b[i] -= bj * Aj[i];
    }
}
