/* lcp_active_refine.c — final polish of a near-solution on its active set,
 * for problems whose active-set matrix may be singular (non-unique
 * solutions, e.g. the deltasigma circuit MLCPs, where the solution set is a
 * segment and an LU of M_AA breaks down or amplifies rounding).
 *
 * With A = {eq} ∪ {i : z_i > w_i, z_i > zsmall_rel ‖z‖∞} (zsmall_rel > 0: a
 * degenerate row, z_i ≈ w_i ≈ 0, is taken with z_i = 0 — leaving it in A can
 * make M_AA nearly singular, and least squares then moves it far below 0;
 * zsmall_rel = 0 keeps small genuine z_i, as deltasigma has) and
 * zp = z on A, 0 off A, a few steps of
 *     r_A = q_A + M_{A,A} zp_A            (accumulated in long double)
 *     M_AA d = −r_A                         (minimum-norm least squares,
 *                                            LAPACK dgelsy: complete
 *                                            orthogonal factorization, rank
 *                                            by rcond 1e-13)
 *     zp_A ← zp_A + d
 * move zp by the smallest correction that zeroes the residual of the
 * active equations; when M_AA is regular this is iterative refinement of the
 * exact solve, when it is singular (but the system consistent) the point
 * stays near z, on the solution set, instead of jumping along its null
 * space (a basic solution of a rank-deficient QR would not do: its free
 * components can move degenerate rows, z_i ≈ w_i ≈ 0, far below 0). Each
 * step refactors (dgelsy has no separate solve): a final polish only. */
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int ns_active_set_refine(ns_int n, const double *M, const double *q,
                         const unsigned char *eq, const double *z,
                         const double *w, double *zp, int steps, double zsmall_rel)
{
    ns_int na = 0;
    ns_int *A = ns_malloc((size_t)n + 1, sizeof(ns_int));
    if (!A) return 1;
    double zmax = 0.0;
    for (ns_int i = 0; i < n; i++) if (fabs(z[i]) > zmax) zmax = fabs(z[i]);
    const double zsmall = zsmall_rel * zmax;
    for (ns_int i = 0; i < n; i++)
        if ((eq && eq[i]) || (z[i] > w[i] && z[i] > zsmall)) A[na++] = i;
    for (ns_int i = 0; i < n; i++) zp[i] = 0.0;
    for (ns_int a = 0; a < na; a++) zp[A[a]] = z[A[a]];
    if (na == 0) { free(A); return 0; }
    size_t sq = (size_t)na * (size_t)na;
    double *QR = ns_malloc(2 * sq + (size_t)na, sizeof(double));
    lapack_int *jpvt = ns_malloc((size_t)na, sizeof(lapack_int));
    if (!QR || !jpvt) { free(A); free(QR); free(jpvt); return 1; }
    double *MA = QR + sq, *rhs = MA + sq;
    for (ns_int b = 0; b < na; b++)
        for (ns_int a = 0; a < na; a++)
            MA[a + (size_t)b * na] = M[A[a] + (size_t)A[b] * n];
    int fail = 0;
    for (int s = 0; s < steps && !fail; s++) {
        for (ns_int a = 0; a < na; a++) {
            long double r = q[A[a]];
            for (ns_int b = 0; b < na; b++)
                r += (long double)MA[a + (size_t)b * na] * zp[A[b]];
            rhs[a] = (double)-r;
        }
        /* minimum-norm least-squares correction (complete orthogonal
         * factorization, rank by rcond): when M_AA is singular the point
         * moves by the least amount, not along the null space */
        memcpy(QR, MA, sq * sizeof(double));
        for (ns_int b = 0; b < na; b++) jpvt[b] = 0;
        lapack_int rank = 0;
        if (LAPACKE_dgelsy(LAPACK_COL_MAJOR, na, na, 1, QR, na, rhs, na, jpvt,
                           1e-13, &rank) != 0 || rank == 0 ||
            !ns_all_finite(rhs, (size_t)na)) { fail = 1; break; }
        for (ns_int a = 0; a < na; a++) zp[A[a]] += rhs[a];
    }
    free(A); free(QR); free(jpvt);
    return fail;
}
