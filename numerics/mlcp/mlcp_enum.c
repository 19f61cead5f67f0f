/* mlcp_enum.c — active-set enumeration for the MLCP
 *   A u + C v + a = 0,  0 ≤ v ⊥ w_v = D u + B v + b ≥ 0  (M form, w = M z + q).
 * When the equality block M_EE is invertible, the free unknowns are
 * eliminated once (mlcp_schur.c: w_C = S z_C + q̃) and the enumeration runs
 * on that LCP of the m complementarity unknowns alone: each set J costs an
 * LU of S_JJ (|J| ≤ m) instead of one of the (n+|J|)-square block of M —
 * on the Buck converter files (n = 20, m = 12) the average factorization
 * shrinks from 26 to 6 rows. A solution whose error is above min(tol, 64 ε)
 * is then solved once more on the full M (LU with iterative refinement,
 * then least squares if that set is singular) and kept if more accurate.
 * When M_EE is singular, the sets are enumerated on the full M with the
 * equality rows always in the set (lcp_enum.c's kernel), from the guess of
 * singular_guess.
 * Either way the set {i : v_i > 0} of the starting point is tried first
 * (with warm_start, the previous time step's active set, which usually still
 * holds), then all sets by Hamming distance from the guess {i : q̃_i < 0}
 * (lcp_enum.c). Sets tried (Siconos 4.4's enum tries them in binary order):
 * BuckConverter 510 of 4096, BuckFirstStep 49, diodeBridge20 11123 of 2^20
 * (Gray-code order: 4094, 4094 and 978672). */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "mlcp/mlcp_internal.h"
#include "nonsmooth/ns_residual.h"
#include <float.h>
#include <math.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

/* Scratch of up to this many doubles (unknowns up to 16) lives on the
 * stack: a small MLCP's solve took a fifth of its time in malloc and free */
enum { SMALL_N = 16, SMALL_BLOCK = 4 * (SMALL_N + 1) + SMALL_N * SMALL_N + 2 * (SMALL_N + 1) + 16 };

/* Enumeration on the Schur complement; NS_SINGULAR when M_EE is. */
static ns_status enum_schur(const ns_mlcp *p, const double *M, const unsigned char *eq,
                            double *z, double *w, const ns_options *o, ns_result *res)
{
    ns_int N = p->n + p->m;
    ns_mlcp_schur sc;
    char msg[NS_ERRMSG_LEN];
    ns_status st = ns_mlcp_schur_init(&sc, p, M, eq, 0, msg);
    if (st == NS_SINGULAR) return st;
    if (st != NS_OK) return ns_fail(res->message, NS_NO_MEMORY, "mlcp enum: out of memory");
    /* one block: zc, wc (nc), zp, wp (N), work (N² + N), then idx and piv;
     * on the stack up to SMALL_N unknowns */
    const size_t nc1 = (size_t)sc.nc + 1, N1 = (size_t)N + 1;
    const size_t nd = 2 * nc1 + 2 * N1 + (size_t)N * N + N1;
    const size_t bytes = nd * sizeof(double) + N1 * (sizeof(ns_int) + sizeof(lapack_int));
    double small_blk[SMALL_BLOCK];
    double *zc = bytes <= sizeof small_blk ? small_blk : ns_malloc(bytes, 1);
    if (!zc) {
        st = ns_fail(res->message, NS_NO_MEMORY, "mlcp enum: out of memory");
        goto done;
    }
    double *wc = zc + nc1, *zp = wc + nc1, *wp = zp + N1, *work = wp + N1;
    ns_int *idx = (ns_int *)(zc + nd);
    lapack_int *piv = (lapack_int *)(idx + N1);
    for (ns_int b = 0; b < sc.nc; b++) zc[b] = z[sc.C[b]];   /* warm set */
    st = ns_enum_dense(sc.nc, sc.S, sc.qt, NULL, zc, wc, o, ns_mlcp_schur_error, &sc, res);
    if (st == NS_NO_MEMORY || st == NS_BAD_INPUT || st == NS_NO_SOLUTION) {
        if (st == NS_BAD_INPUT) {   /* too many sets: keep the warm point */
            ns_mlcp_schur_expand(&sc, zc);
            memcpy(z, sc.zf, (size_t)N * sizeof(double));
            res->error = ns_mlcp_error(p, z, w);
        }
        goto done;
    }
    if (st == NS_CONVERGED) {   /* the kernel's last error call expanded zc */
        memcpy(z, sc.zf, (size_t)N * sizeof(double));
        memcpy(w, sc.wf, (size_t)N * sizeof(double));
    } else {
        ns_mlcp_schur_expand(&sc, zc);
        memcpy(z, sc.zf, (size_t)N * sizeof(double));
        res->error = ns_mlcp_error(p, z, w);
    }
    /* the set on the full system, when the elimination lost digits: an
     * answer within min(tol, 64 ε) is at the rounding level already (the
     * bar lemke's tableau answers meet) */
    if (res->error > fmin(o->tol, 64.0 * DBL_EPSILON) &&
        ns_active_set_solve(N, M, p->q, eq, z, w, zp, work, piv, idx) == 0) {
        double e2 = ns_mlcp_error(p, zp, wp);
        if (e2 < res->error) {
            memcpy(z, zp, (size_t)N * sizeof(double));
            memcpy(w, wp, (size_t)N * sizeof(double));
            res->error = e2;
        }
    }
    /* least squares on the set (two pivoted QRs, more than the whole
     * enumeration of a small MLCP) only when the LU left the point
     * outside tol: a singular set matrix (non-unique solutions) */
    for (int k = 0; k < 2 && res->error > o->tol && res->error > 4.0 * DBL_EPSILON; k++)
        if (ns_active_set_refine(N, M, p->q, eq, z, w, zp, 3, k ? 1e-8 : 0.0) == 0) {
            double e2 = ns_mlcp_error(p, zp, wp);
            if (e2 < res->error) {
                memcpy(z, zp, (size_t)N * sizeof(double));
                memcpy(w, wp, (size_t)N * sizeof(double));
                res->error = e2;
            }
        }
    if (res->error <= o->tol) { st = NS_CONVERGED; res->message[0] = '\0'; }
done:
    ns_mlcp_schur_free(&sc);
    if (zc != small_blk) free(zc);
    return st;
}

/* Guess of the set when M_EE is singular: z_C = 0, z_E the minimum-norm
 * least-squares solution of M_EE z_E = −q_E (dgelsy), and the rows where
 * w_C = q_C + M_CE z_E < 0 (those z_C = 0 leaves infeasible). NULL on
 * failure (the kernel then guesses {q_i < 0}). */
static unsigned char *singular_guess(ns_int N, const double *M, const double *q,
                                     const unsigned char *eq)
{
    ns_int ne = 0;
    for (ns_int i = 0; i < N; i++) ne += eq[i] != 0;
    unsigned char *g = ns_calloc((size_t)N + 1, 1);
    ns_int *E = ns_malloc((size_t)ne + 1, sizeof(ns_int));
    double *A = ns_malloc((size_t)ne * ne + 1, sizeof(double)), *b = ns_malloc((size_t)ne + 1, sizeof(double));
    lapack_int *jp = ns_calloc((size_t)ne + 1, sizeof(lapack_int));
    lapack_int rank = 0;
    if (!g || !E || !A || !b || !jp) goto fail;
    ne = 0;
    for (ns_int i = 0; i < N; i++) if (eq[i]) E[ne++] = i;
    for (ns_int c = 0; c < ne; c++) {
        b[c] = -q[E[c]];
        for (ns_int r = 0; r < ne; r++) A[r + (size_t)c * ne] = M[E[r] + (size_t)E[c] * N];
    }
    if (ne > 0 && LAPACKE_dgelsy(LAPACK_COL_MAJOR, ne, ne, 1, A, ne, b, ne, jp, 1e-12, &rank) != 0)
        goto fail;
    for (ns_int i = 0; i < N; i++) {
        if (eq[i]) { g[i] = 1; continue; }
        double wi = q[i];
        for (ns_int c = 0; c < ne; c++) wi += M[i + (size_t)E[c] * N] * b[c];
        g[i] = wi < 0.0;
    }
    free(E); free(A); free(b); free(jp);
    return g;
fail:
    free(g); free(E); free(A); free(b); free(jp);
    return NULL;
}

ns_status ns_mlcp_enum(const ns_mlcp *p, double *z, double *w,
                       const ns_options *o, ns_result *res)
{
    /* a dense M is read in place (nothing here writes to it) */
    double *Mc = p->M->storage == NS_DENSE ? NULL : ns_dense_copy(p->M);
    const double *M = Mc ? Mc : p->M->dense;
    unsigned char eq_small[SMALL_N];
    unsigned char *eq = p->n + p->m <= SMALL_N ? eq_small : ns_mlcp_eq_mask(p);
    if (eq == eq_small) ns_mlcp_eq_mask_fill(p, eq);
    ns_status st;
    if ((!Mc && p->M->storage != NS_DENSE) || !eq)
        st = ns_fail(res->message, NS_NO_MEMORY, "mlcp enum: out of memory");
    else {
        st = enum_schur(p, M, eq, z, w, o, res);
        if (st == NS_SINGULAR) {   /* M_EE singular: the sets on the full M */
            unsigned char *g = singular_guess(p->n + p->m, M, p->q, eq);
            st = ns_enum_dense_guess(p->n + p->m, M, p->q, eq, g, z, w, o,
                                     ns_mlcp_kernel_error, p, res);
            free(g);
        }
    }
    free(Mc);
    if (eq != eq_small) free(eq);
    return st;
}
