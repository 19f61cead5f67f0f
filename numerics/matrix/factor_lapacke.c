/* factor_lapacke.c — dense LU (dgetrf/dgetrs) and Cholesky (dpotrf/dpotrs)
 * through LAPACKE, column-major. A factorization whose reciprocal condition
 * number estimate (dgecon/dpocon, 1-norm) falls below machine epsilon is
 * reported as numerically singular: its solutions would carry no digit. */
#include "matrix/factor_internal.h"
#include "core/ns_internal.h"
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>

typedef struct dense_factor {
    ns_int n;
    int cholesky;
    double *f;          /* n×n factors (LU with pivots, or lower L) */
    lapack_int *ipiv;   /* LU row interchanges */
    int diagonal;       /* A was diagonal: the factors are too (no interchange) */
} dense_factor;

/* Workspace for an n×n factorization (no pattern to analyse). */
ns_status ns_lapacke_analyze(ns_int n, int cholesky, void **impl, char *err)
{
    dense_factor *d = calloc(1, sizeof *d);
    if (!d) return ns_fail(err, NS_NO_MEMORY, "dense factor: out of memory");
    d->n = n;
    d->cholesky = cholesky;
    d->f = ns_malloc((size_t)n * (size_t)n, sizeof(double));
    d->ipiv = ns_malloc((size_t)n, sizeof(lapack_int));
    if (!d->f || !d->ipiv) {
        ns_lapacke_free(d);
        return ns_fail(err, NS_NO_MEMORY, "dense factor: out of memory for %d×%d factors", n, n);
    }
    *impl = d;
    return NS_OK;
}

/* A = P L U (LU) or A = L Lᵀ from A's lower triangle (Cholesky). */
ns_status ns_lapacke_numeric(void *impl, const ns_matrix *A, char *err)
{
    dense_factor *d = impl;
    lapack_int n = d->n, info;
    double anorm, rcond = 0.0;
    memcpy(d->f, A->dense, (size_t)n * (size_t)n * sizeof(double));
    d->diagonal = 1;   /* point masses, spheres, bodies in principal axes: M diagonal */
    for (lapack_int j = 0; j < n && d->diagonal; j++)
        for (lapack_int i = 0; i < n; i++)
            if (i != j && d->f[i + (size_t)j * n] != 0.0) { d->diagonal = 0; break; }
    if (d->cholesky) {
        anorm = LAPACKE_dlansy(LAPACK_COL_MAJOR, '1', 'L', n, d->f, n);
        info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, d->f, n);
        if (info > 0)
            return ns_fail(err, NS_SINGULAR,
                           "dense Cholesky: matrix not positive definite (leading minor of order %d)",
                           (int)info);
        if (info < 0) return ns_fail(err, NS_BAD_INPUT, "dense Cholesky: dpotrf argument %d", (int)-info);
        info = LAPACKE_dpocon(LAPACK_COL_MAJOR, 'L', n, d->f, n, anorm, &rcond);
    } else {
        anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', n, n, d->f, n);
        info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, d->f, n, d->ipiv);
        if (info > 0)
            return ns_fail(err, NS_SINGULAR, "dense LU: matrix is singular (zero pivot in column %d)",
                           (int)info - 1);
        if (info < 0) return ns_fail(err, NS_BAD_INPUT, "dense LU: dgetrf argument %d", (int)-info);
        info = LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', n, d->f, n, anorm, &rcond);
    }
    if (info != 0) return ns_fail(err, NS_NO_MEMORY, "dense factor: condition estimate failed (%d)", (int)info);
    if (!(rcond >= DBL_EPSILON))
        return ns_fail(err, NS_SINGULAR, "dense %s: matrix is numerically singular (rcond %.3g)",
                       d->cholesky ? "Cholesky" : "LU", rcond);
    return NS_OK;
}

/* Substitutions with the factors LAPACK computed, for small n: the
 * dpotrs/dgetrs route costs far more than the O(n² nrhs) flops there
 * (LAPACKE's NaN scan of both operands, and OpenBLAS waking its thread pool
 * for the dtrsm inside: on the 1000-sphere pile, whose assembly solves one
 * 6×6 system with 3 right-hand sides per contact and step, the assembly
 * took 76 ms a step through dpotrs and 1.2 ms with OPENBLAS_NUM_THREADS=1).
 * Same operations in the same order as the reference dtrsm, so the results
 * agree to rounding. */
enum { SMALL_SOLVE = 32 };

static void small_solve(const dense_factor *d, double *B, ns_int nrhs, ns_int ldb)
{
    const ns_int n = d->n;
    const double *F = d->f;
    if (d->diagonal) {   /* the same divisions as the substitutions below, without their zero terms */
        for (ns_int c = 0; c < nrhs; c++) {
            double *b = B + (size_t)c * (size_t)ldb;
            for (ns_int j = 0; j < n; j++) {
                double fj = F[j + (size_t)j * n];
                b[j] = d->cholesky ? (b[j] / fj) / fj : b[j] / fj;
            }
        }
        return;
    }
    for (ns_int c = 0; c < nrhs; c++) {
        double *b = B + (size_t)c * (size_t)ldb;
        if (d->cholesky) {                 /* L y = b, then Lᵀ x = y */
            for (ns_int j = 0; j < n; j++) {
                double v = b[j] / F[j + (size_t)j * n];
                b[j] = v;
                for (ns_int i = j + 1; i < n; i++) b[i] -= v * F[i + (size_t)j * n];
            }
            for (ns_int j = n - 1; j >= 0; j--) {
                double v = b[j];
                for (ns_int i = j + 1; i < n; i++) v -= F[i + (size_t)j * n] * b[i];
                b[j] = v / F[j + (size_t)j * n];
            }
        } else {                           /* P b, L y = P b (unit L), U x = y */
            for (ns_int i = 0; i < n; i++) {
                ns_int p = d->ipiv[i] - 1;
                if (p != i) { double t = b[i]; b[i] = b[p]; b[p] = t; }
            }
            for (ns_int j = 0; j < n; j++) {
                double v = b[j];
                for (ns_int i = j + 1; i < n; i++) b[i] -= v * F[i + (size_t)j * n];
            }
            for (ns_int j = n - 1; j >= 0; j--) {
                double v = b[j] / F[j + (size_t)j * n];
                b[j] = v;
                for (ns_int i = 0; i < j; i++) b[i] -= v * F[i + (size_t)j * n];
            }
        }
    }
}

/* B ← A⁻¹ B with the stored factors (LAPACK's _work entry points beyond
 * SMALL_SOLVE: no NaN scan of the operands on every call). */
ns_status ns_lapacke_solve(void *impl, double *B, ns_int nrhs, ns_int ldb)
{
    dense_factor *d = impl;
    if (nrhs < 0 || ldb < (d->n > 1 ? d->n : 1)) return NS_BAD_INPUT;
    if (d->n <= SMALL_SOLVE) {
        small_solve(d, B, nrhs, ldb);
        return NS_OK;
    }
    lapack_int info = d->cholesky
        ? LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', d->n, nrhs, d->f, d->n, B, ldb)
        : LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', d->n, nrhs, d->f, d->n, d->ipiv, B, ldb);
    return info == 0 ? NS_OK : NS_BAD_INPUT;
}

void ns_lapacke_free(void *impl)
{
    dense_factor *d = impl;
    if (!d) return;
    free(d->f);
    free(d->ipiv);
    free(d);
}
