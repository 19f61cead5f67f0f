/* mlcp_schur.c — elimination of the free unknowns of an MLCP, shared by
 * lemke and enum. E: the equality rows, C: the complementarity rows of
 * w = M z + q (w_E = 0, 0 ≤ z_C ⊥ w_C ≥ 0).
 *
 * Plain Schur complement (R = ∅). When M_EE is invertible
 *   z_E = −M_EE⁻¹ (q_E + M_EC z_C),
 *   w_C = S z_C + q̃,  S = M_CC − M_CE M_EE⁻¹ M_EC,  q̃ = q_C − M_CE M_EE⁻¹ q_E,
 * an LCP in z_C alone.
 *
 * Pivoting on complementarity rows too (Cao–Ferris). When M_EE is singular
 * the free unknowns cannot be solved for from the equality rows alone; they
 * can be from the equality rows together with a set R ⊆ C of complementarity
 * rows (an AVI's KKT system: z is pinned by the constraints H_R z = h_R − s_R
 * of a vertex; Cao and Ferris, "A pivotal method for affine variational
 * inequalities", Math. Oper. Res. 21, 1996). With P = E ∪ R, Q = C \ R and
 * K = M_PP invertible, a principal pivot on P exchanges z_R with w_R:
 *   z_P = K⁻¹ (w_P − M_PQ z_Q − q_P),    w_P = (0_E, w_R),
 *   w_Q = M_QP z_P + M_QQ z_Q + q_Q,
 * an LCP in x = (w_R, z_Q) ≥ 0 with y = (z_R, w_Q) ≥ 0, x ⊥ y — the pairs
 * (w_i, z_i) of R keep their complementarity, swapped. R = ∅ is the plain
 * Schur complement. R is tried in two sizes: the fewest rows that make up
 * for M_EE's null space N (k = dim N rows whose M_CE restricted to N is
 * independent: QR with column pivoting of (M_CE Z)ᵀ, Z a basis of N by SVD),
 * then every independent row of M_CE (QR with column pivoting of M_CEᵀ):
 * for an AVI with H of full column rank, the latter pins z at a vertex and K
 * is invertible whatever M is. Each candidate K is factored by LAPACKE LU
 * and accepted when its reciprocal condition number is above NS_RCOND_MIN
 * (estimated only when the LU's pivots spread over 6 orders of magnitude).
 *
 * Storage. The LCP unknowns are ordered (R, Q): x_b = w_{C[b]} for b < nr,
 * z_{C[b]} after; X = K⁻¹ [−I_{P,R} | M_PQ | q_P], so that
 * z_P = −X_{:,0:nc} x − X_{:,nc} (P ordered E then R). */
#include "mlcp/mlcp_internal.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Reciprocal condition (1-norm) below which a pivot block counts as
 * singular for the purpose of choosing R (a rank-deficient M_EE factored in
 * floating point rarely gives an exact zero pivot). */
#define NS_RCOND_MIN 1e-14

/* Products with at most this many multiply-adds use plain loops: below it
 * the BLAS call overhead (argument checks, buffer bookkeeping) dominates. */
#define SMALL_PRODUCT 4096

#define MAT(i, j) M[(size_t)(i) + (size_t)(j) * (size_t)N]

static int cmp_int(const void *a, const void *b)
{
    ns_int x = *(const ns_int *)a, y = *(const ns_int *)b;
    return (x > y) - (x < y);
}

/* Factors K = M_PP (np × np) for P = E ∪ R (R: the first nr entries of
 * s->C) and fills X, S, qt. Returns 0 on success, 1 if K is singular or
 * ill-conditioned (rcond below NS_RCOND_MIN when check_rcond), -1 on
 * allocation failure. */
static int build(ns_mlcp_schur *s, const double *M, int check_rcond)
{
    const ns_int N = s->N, ne = s->ne, nc = s->nc, nr = s->nr, np = ne + nr;
    const ns_int nq = nc - nr;
    const ns_int *E = s->E, *C = s->C;
    int rc = -1;
    /* one block (small problems pay per allocation): K, MQP, then P, piv;
     * on the stack when small */
    size_t nK = (size_t)np * np + 1, nM = (size_t)nq * np + 1;
    size_t nblk = (nK + nM + (size_t)np + 1) * (sizeof(double) + sizeof(ns_int) +
                                                sizeof(lapack_int));
    double small_blk[160];
    double *K = nblk <= sizeof small_blk ? small_blk : ns_malloc(nblk, 1);
    double *MQP = K ? K + nK : NULL;
    ns_int *P = K ? (ns_int *)(MQP + nM) : NULL;
    lapack_int *piv = K ? (lapack_int *)(P + np + 1) : NULL;
    if (!K) goto out;
    for (ns_int a = 0; a < ne; a++) P[a] = E[a];
    for (ns_int a = 0; a < nr; a++) P[ne + a] = C[a];
    for (ns_int b = 0; b < np; b++)
        for (ns_int a = 0; a < np; a++) K[a + (size_t)b * np] = MAT(P[a], P[b]);
    /* right-hand sides: −e_{ne+b} for the w_R columns, M_PQ, q_P */
    memset(s->X, 0, ((size_t)np * (nc + 1)) * sizeof(double));
    for (ns_int b = 0; b < nr; b++) s->X[(ne + b) + (size_t)b * np] = -1.0;
    for (ns_int b = nr; b < nc; b++)
        for (ns_int a = 0; a < np; a++) s->X[a + (size_t)b * np] = MAT(P[a], C[b]);
    for (ns_int a = 0; a < np; a++) s->X[a + (size_t)nc * np] = s->p->q[P[a]];
    for (ns_int b = 0; b < np; b++)
        for (ns_int a = 0; a < nq; a++) MQP[a + (size_t)b * nq] = MAT(C[nr + a], P[b]);
    rc = 1;
    if (np > 0) {
        double anorm = check_rcond ? LAPACKE_dlange(LAPACK_COL_MAJOR, '1', np, np, K, np) : 0.0;
        /* factor and solve in one call (dgesv: one buffer set-up instead
         * of dgetrf's and dgetrs'); the condition is judged on the factor
         * afterwards, a rejected K costing a wasted solve */
        if (LAPACKE_dgesv_work(LAPACK_COL_MAJOR, np, nc + 1, K, np, piv, s->X, np) != 0) goto out;
        /* the condition estimate (dgecon: ~10k instructions even at 3 × 3)
         * only when the pivots spread over 6 orders of magnitude; a matrix
         * with even pivots is taken as it is, as it was before R existed */
        double umin = INFINITY, umax = 0.0;
        for (ns_int a = 0; check_rcond && a < np; a++) {
            double u = fabs(K[a + (size_t)a * np]);
            umin = fmin(umin, u);
            umax = fmax(umax, u);
        }
        if (check_rcond && !(umin >= 1e-6 * umax)) {
            double rcond = 0.0;
            if (LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', np, K, np, anorm, &rcond) != 0 ||
                !(rcond >= NS_RCOND_MIN))
                goto out;
        }
        if (!ns_all_finite(s->X, (size_t)np * (nc + 1))) goto out;
    }
    /* rows of R: y = z_R = −X_R x − X_{R,q} */
    for (ns_int b = 0; b <= nc; b++)
        for (ns_int a = 0; a < nr; a++) {
            double v = -s->X[(ne + a) + (size_t)b * np];
            if (b < nc) s->S[a + (size_t)b * nc] = v;
            else s->qt[a] = v;
        }
    /* rows of Q: y = w_Q = [0 | M_QQ] x + q_Q − M_QP (X x + X_q) */
    for (ns_int b = 0; b < nc; b++)
        for (ns_int a = nr; a < nc; a++)
            s->S[a + (size_t)b * nc] = b < nr ? 0.0 : MAT(C[a], C[b]);
    for (ns_int a = nr; a < nc; a++) s->qt[a] = s->p->q[C[a]];
    if (nq > 0 && np > 0 && (size_t)nq * nc * np <= SMALL_PRODUCT) {
        /* small: own loops (BLAS's call overhead is most of the cost) */
        for (ns_int b = 0; b <= nc; b++) {
            const double *xb = s->X + (size_t)b * np;
            double *sb = b < nc ? s->S + nr + (size_t)b * nc : s->qt + nr;
            for (ns_int k = 0; k < np; k++) {
                double v = xb[k];
                if (v == 0.0) continue;
                const double *mk = MQP + (size_t)k * nq;
                for (ns_int a = 0; a < nq; a++) sb[a] -= mk[a] * v;
            }
        }
    } else if (nq > 0 && np > 0) {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, nq, nc, np, -1.0,
                    MQP, nq, s->X, np, 1.0, s->S + nr, nc);
        cblas_dgemv(CblasColMajor, CblasNoTrans, nq, np, -1.0, MQP, nq,
                    s->X + (size_t)nc * np, 1, 1.0, s->qt + nr, 1);
    }
    rc = ns_all_finite(s->S, (size_t)nc * nc) && ns_all_finite(s->qt, (size_t)nc) ? 0 : 1;
out:
    if (K != small_blk) free(K);
    return rc;
}

/* Puts the chosen rows sel[0..k) of C first in s->C (each group ascending)
 * and sets s->nr = k. C_all: the complementarity rows in increasing order. */
static void order_C(ns_mlcp_schur *s, const ns_int *C_all, const lapack_int *sel,
                    ns_int k, unsigned char *mark)
{
    memset(mark, 0, (size_t)s->nc + 1);
    for (ns_int a = 0; a < k; a++) mark[sel[a]] = 1;
    ns_int t = 0;
    for (ns_int b = 0; b < s->nc; b++) if (mark[b]) s->C[t++] = C_all[b];
    for (ns_int b = 0; b < s->nc; b++) if (!mark[b]) s->C[t++] = C_all[b];
    qsort(s->C, (size_t)k, sizeof(ns_int), cmp_int);
    s->nr = k;
}

/* QR with column pivoting of the r × c matrix A (overwritten): the first
 * `want` (or, want < 0, rank-many) pivot columns, 0-based, in jp; returns
 * their number, 0 when the requested columns are not independent. */
static ns_int pivot_columns(ns_int r, ns_int c, double *A, ns_int want, lapack_int *jp)
{
    if (r == 0 || c == 0) return 0;
    double *tau = ns_malloc((size_t)(r < c ? r : c) + 1, sizeof(double));
    if (!tau) return 0;
    for (ns_int j = 0; j < c; j++) jp[j] = 0;
    ns_int k = 0;
    if (LAPACKE_dgeqp3(LAPACK_COL_MAJOR, r, c, A, r, jp, tau) == 0) {
        ns_int kmax = r < c ? r : c;
        double r11 = fabs(A[0]), tol = r11 * 1e-12 * (double)(r > c ? r : c);
        while (k < kmax && r11 > 0 && fabs(A[k + (size_t)k * r]) > tol) k++;
        if (want >= 0) k = k >= want ? want : 0;
        for (ns_int j = 0; j < k; j++) jp[j] -= 1;
    }
    free(tau);
    return k;
}

/* Tries R = the fewest rows, then every independent row of M_CE (see the
 * head comment). 0: s built; 1: no candidate works; -1: no memory. */
static int choose_rows(ns_mlcp_schur *s, const double *M)
{
    const ns_int N = s->N, ne = s->ne, nc = s->nc;
    int rc = -1;
    ns_int *C_all = ns_malloc((size_t)nc + 1, sizeof(ns_int));
    double *A = ns_malloc((size_t)ne * ne + 1, sizeof(double));
    double *sv = ns_malloc((size_t)ne + 1, sizeof(double));
    double *VT = ns_malloc((size_t)ne * ne + 1, sizeof(double));
    double *superb = ns_malloc((size_t)ne + 1, sizeof(double));
    double *Y = ns_malloc((size_t)(ne + 1) * (nc + 1), sizeof(double));
    lapack_int *jp = ns_malloc((size_t)nc + 1, sizeof(lapack_int));
    unsigned char *mark = ns_malloc((size_t)nc + 1, 1);
    if (!C_all || !A || !sv || !VT || !superb || !Y || !jp || !mark) goto out;
    memcpy(C_all, s->C, (size_t)nc * sizeof(ns_int));
    rc = 1;
    if (ne == 0 || nc == 0) goto out;
    for (ns_int b = 0; b < ne; b++)
        for (ns_int a = 0; a < ne; a++) A[a + (size_t)b * ne] = MAT(s->E[a], s->E[b]);
    /* null space of M_EE: right singular vectors of the small singular values */
    if (LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'A', ne, ne, A, ne, sv, NULL, 1, VT, ne,
                       superb) == 0) {
        ns_int k = 0;
        double tol = sv[0] * 1e-12 * (double)ne;
        while (k < ne && sv[ne - 1 - k] <= tol) k++;
        if (k > 0 && k <= nc) {
            /* Yᵀ = (M_CE Z)ᵀ, k × nc; Z's columns are the last k rows of VT */
            for (ns_int b = 0; b < nc; b++)
                for (ns_int a = 0; a < k; a++) {
                    double v = 0.0;
                    for (ns_int e = 0; e < ne; e++)
                        v += MAT(C_all[b], s->E[e]) * VT[(ne - k + a) + (size_t)e * ne];
                    Y[a + (size_t)b * k] = v;
                }
            if (pivot_columns(k, nc, Y, k, jp) == k) {
                order_C(s, C_all, jp, k, mark);
                if ((rc = build(s, M, 1)) <= 0) goto out;
            }
        }
    }
    /* every independent row of M_CE: columns of M_CEᵀ (ne × nc) */
    for (ns_int b = 0; b < nc; b++)
        for (ns_int a = 0; a < ne; a++) Y[a + (size_t)b * ne] = MAT(C_all[b], s->E[a]);
    ns_int r = pivot_columns(ne, nc, Y, -1, jp);
    if (r > 0) {
        order_C(s, C_all, jp, r, mark);
        if ((rc = build(s, M, 1)) <= 0) goto out;
    }
    rc = 1;
out:
    if (rc != 0 && s->nr > 0) {   /* restore the plain order (C_all was copied) */
        memcpy(s->C, C_all, (size_t)nc * sizeof(ns_int));
        s->nr = 0;
    }
    free(C_all); free(A); free(sv); free(VT); free(superb); free(Y); free(jp); free(mark);
    return rc;
}

ns_status ns_mlcp_schur_init(ns_mlcp_schur *s, const ns_mlcp *p, const double *M,
                             const unsigned char *eq, int allow_pivot, char *msg)
{
    memset(s, 0, sizeof *s);
    ns_int N = p->n + p->m;
    s->p = p;
    s->N = N;
    ns_int ne = 0, nc = 0;
    for (ns_int i = 0; i < N; i++) ne += eq[i] != 0;
    nc = N - ne;
    /* one block: zf, wf, X, S, qt, then E, C. X holds up to (ne + nc) ×
     * (nc + 1) values once rows of C are pivoted */
    size_t nz = (size_t)N + 1, nX = (size_t)(ne + (allow_pivot ? nc : 0)) * (nc + 1) + 1;
    size_t nS = (size_t)nc * nc + 1, nd = 2 * nz + nX + nS + (size_t)nc + 1;
    s->block = ns_malloc(nd * sizeof(double) + 2 * nz * sizeof(ns_int), 1);
    if (!s->block) goto nomem;
    s->zf = s->block;
    s->wf = s->zf + nz;
    s->X = s->wf + nz;
    s->S = s->X + nX;
    s->qt = s->S + nS;
    s->E = (ns_int *)(s->block + nd);
    s->C = s->E + nz;
    ne = nc = 0;
    for (ns_int i = 0; i < N; i++) { if (eq[i]) s->E[ne++] = i; else s->C[nc++] = i; }
    s->ne = ne;
    s->nc = nc;
    int rc = build(s, M, allow_pivot);
    if (rc == 1 && allow_pivot) {
        rc = choose_rows(s, M);
        if (rc == 1) rc = build(s, M, 0);   /* ill-conditioned M_EE after all */
    }
    if (rc < 0) goto nomem;
    if (rc > 0) {
        ns_mlcp_schur_free(s);
        return ns_fail(msg, NS_SINGULAR, allow_pivot
                       ? "the equality block M_EE (%d x %d) is singular and no set of "
                         "complementarity rows completes it to an invertible pivot block"
                       : "the equality block M_EE (%d x %d) is singular",
                       (int)ne, (int)ne);
    }
    return NS_OK;
nomem:
    ns_mlcp_schur_free(s);
    return ns_fail(msg, NS_NO_MEMORY, "out of memory");
}
#undef MAT

void ns_mlcp_schur_expand(const ns_mlcp_schur *s, const double *x)
{
    const ns_int ne = s->ne, nc = s->nc, nr = s->nr, np = ne + nr;
    const double *Xq = s->X + (size_t)nc * (size_t)np;
    double *tmp = s->wf;   /* free until the error call */
    for (ns_int a = 0; a < np; a++) tmp[a] = -Xq[a];
    if (np > 0 && nc > 0 && (size_t)np * nc <= SMALL_PRODUCT) {
        for (ns_int b = 0; b < nc; b++) {
            const double *xb = s->X + (size_t)b * np;
            double v = x[b];
            if (v != 0.0) for (ns_int a = 0; a < np; a++) tmp[a] -= xb[a] * v;
        }
    } else if (np > 0 && nc > 0) {
        cblas_dgemv(CblasColMajor, CblasNoTrans, np, nc, -1.0, s->X, np, x, 1, 1.0, tmp, 1);
    }
    for (ns_int a = 0; a < ne; a++) s->zf[s->E[a]] = tmp[a];
    for (ns_int a = 0; a < nr; a++) s->zf[s->C[a]] = tmp[ne + a];
    for (ns_int b = nr; b < nc; b++) s->zf[s->C[b]] = x[b];
}

double ns_mlcp_schur_error(const void *ctx, const double *x, double *y)
{
    const ns_mlcp_schur *s = ctx;
    ns_mlcp_schur_expand(s, x);
    double e = ns_mlcp_error(s->p, s->zf, s->wf);
    for (ns_int b = 0; b < s->nc; b++)
        y[b] = b < s->nr ? s->zf[s->C[b]] : s->wf[s->C[b]];
    return e;
}

void ns_mlcp_schur_free(ns_mlcp_schur *s)
{
    free(s->block);
    memset(s, 0, sizeof *s);
}
