/* lcp_active_refine.c — final polish of a near-solution on its active set,
 * for problems whose active-set matrix may be singular (non-unique
 * solutions, e.g. the deltasigma circuit MLCPs, where the solution set is a
 * segment and an LU of M_AA breaks down or amplifies rounding).
 *
 * With A = {eq} ∪ {i : z_i > w_i} and zp = z on A, 0 off A, a few steps of
 *     r_A = q_A + M_{A,A} zp_A            (accumulated in long double)
 *     M_AA d = −r_A                         (minimum-norm least squares,
 *                                            LAPACK dgelsy: QR with column
 *                                            pivoting, rank by rcond)
 *     zp_A ← zp_A + d
 * move zp by the smallest correction that zeroes the residual of the
 * active equations; when M_AA is regular this is iterative refinement of the
 * exact solve, when it is singular (but the system consistent) the point
 * stays near z, on the solution set, instead of jumping along its null
 * space. The factorization is computed once (dgeqp3 + the triangular
 * solve of dgelsy's algorithm), then reused by every step. */
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int ns_active_set_refine(ns_int n, const double *M, const double *q,
                         const unsigned char *eq, const double *z,
                         const double *w, double *zp, int steps)
{
    ns_int na = 0;
    ns_int *A = ns_malloc((size_t)n + 1, sizeof(ns_int));
    if (!A) return 1;
    for (ns_int i = 0; i < n; i++)
        if ((eq && eq[i]) || z[i] > w[i]) A[na++] = i;
    for (ns_int i = 0; i < n; i++) zp[i] = 0.0;
    for (ns_int a = 0; a < na; a++) zp[A[a]] = z[A[a]];
    if (na == 0) { free(A); return 0; }
    size_t sq = (size_t)na * (size_t)na;
    double *QR = ns_malloc(sq + 3 * (size_t)na, sizeof(double));
    lapack_int *jpvt = ns_malloc((size_t)na, sizeof(lapack_int));
    if (!QR || !jpvt) { free(A); free(QR); free(jpvt); return 1; }
    double *tau = QR + sq, *rhs = tau + na, *d = rhs + na;
    for (ns_int b = 0; b < na; b++)
        for (ns_int a = 0; a < na; a++)
            QR[a + (size_t)b * na] = M[A[a] + (size_t)A[b] * n];
    for (ns_int b = 0; b < na; b++) jpvt[b] = 0;
    int fail = LAPACKE_dgeqp3(LAPACK_COL_MAJOR, na, na, QR, na, jpvt, tau) != 0;
    /* numerical rank: |R_kk| > rcond |R_11| (dgelsy's test, simplified) */
    ns_int rank = 0;
    if (!fail) {
        double r11 = fabs(QR[0]);
        const double rcond = 1e-13;
        while (rank < na && fabs(QR[rank + (size_t)rank * na]) > rcond * r11) rank++;
        fail = rank == 0;
    }
    for (int s = 0; s < steps && !fail; s++) {
        for (ns_int a = 0; a < na; a++) {
            long double r = q[A[a]];
            for (ns_int b = 0; b < na; b++)
                r += (long double)M[A[a] + (size_t)A[b] * n] * zp[A[b]];
            rhs[a] = (double)-r;
        }
        /* rhs ← Qᵀ rhs; solve R11 y = (Qᵀ rhs)_1:rank; basic solution
         * (the free variables of a rank-deficient R set to 0: a correction
         * of the order of the residual, which is what refinement needs) */
        if (LAPACKE_dormqr(LAPACK_COL_MAJOR, 'L', 'T', na, 1, na, QR, na, tau,
                           rhs, na) != 0) { fail = 1; break; }
        cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, rank,
                    QR, na, rhs, 1);
        for (ns_int k = 0; k < na; k++) d[k] = 0.0;
        for (ns_int k = 0; k < rank; k++) d[jpvt[k] - 1] = rhs[k];
        if (!ns_all_finite(d, (size_t)na)) { fail = 1; break; }
        for (ns_int a = 0; a < na; a++) zp[A[a]] += d[a];
    }
    free(A); free(QR); free(jpvt);
    return fail;
}
