/* mlcp_lemke.c — Lemke's method for the MLCP after eliminating the free
 * unknowns. With E the equality rows and C the complementarity rows of
 * w = M z + q (w_E = 0, 0 ≤ z_C ⊥ w_C ≥ 0), when M_EE is invertible
 *   z_E = −M_EE⁻¹ (q_E + M_EC z_C),
 *   w_C = S z_C + q̃,  S = M_CC − M_CE M_EE⁻¹ M_EC,  q̃ = q_C − M_CE M_EE⁻¹ q_E,
 * an LCP in z_C (the Schur complement), solved by the lexicographic Lemke
 * kernel of lcp_lemke.c, stopping on the MLCP error of the recovered z.
 * M_EE is factored once by LAPACKE LU; singular → NS_SINGULAR (use enum or
 * newton-fb, which do not need it). The final active set {eq} ∪ {z_i > w_i}
 * is then solved once more on the full M (LU), then refined by least squares
 * on that set (ns_active_set_refine: works when the set's matrix is singular,
 * as with non-unique solutions), each result kept if more accurate. */
#include "core/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "mlcp/mlcp_internal.h"
#include "nonsmooth/ns_residual.h"
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

typedef struct schur_ctx {
    const ns_mlcp *p;
    ns_int N, ne, nc;
    const ns_int *E, *C;
    const double *X;     /* (ne × (nc+1)): M_EE⁻¹ [M_EC | q_E] */
    double *zf, *wf;     /* (N) scratch */
} schur_ctx;

/* Full z from z_C, then the MLCP error; w (nc) ← w_C. */
static void expand(const schur_ctx *s, const double *zc)
{
    const double *Xq = s->X + (size_t)s->nc * (size_t)s->ne;
    for (ns_int a = 0; a < s->ne; a++) s->zf[s->E[a]] = -Xq[a];
    if (s->ne > 0 && s->nc > 0) {
        double *tmp = s->wf;   /* free until the error call */
        cblas_dgemv(CblasColMajor, CblasNoTrans, s->ne, s->nc, 1.0, s->X, s->ne,
                    zc, 1, 0.0, tmp, 1);
        for (ns_int a = 0; a < s->ne; a++) s->zf[s->E[a]] -= tmp[a];
    }
    for (ns_int b = 0; b < s->nc; b++) s->zf[s->C[b]] = zc[b];
}

static double schur_error(const void *ctx, const double *zc, double *wc)
{
    const schur_ctx *s = ctx;
    expand(s, zc);
    double e = ns_mlcp_error(s->p, s->zf, s->wf);
    for (ns_int b = 0; b < s->nc; b++) wc[b] = s->wf[s->C[b]];
    return e;
}

ns_status ns_mlcp_lemke(const ns_mlcp *p, double *z, double *w,
                        const ns_options *o, ns_result *res)
{
    ns_int N = p->n + p->m;
    ns_status st = NS_OK;
    double *M = ns_dense_copy(p->M);
    unsigned char *eq = ns_mlcp_eq_mask(p);
    ns_int *E = ns_malloc((size_t)N, sizeof(ns_int)), *C = ns_malloc((size_t)N, sizeof(ns_int));
    double *MEE = NULL, *X = NULL, *MCE = NULL, *S = NULL, *qt = NULL, *zc = NULL, *wc = NULL;
    double *zf = ns_malloc((size_t)N, sizeof(double)), *wf = ns_malloc((size_t)N, sizeof(double));
    lapack_int *piv = ns_malloc((size_t)N, sizeof(lapack_int));
    if (!M || !eq || !E || !C || !zf || !wf || !piv) goto nomem;
    ns_int ne = 0, nc = 0;
    for (ns_int i = 0; i < N; i++) { if (eq[i]) E[ne++] = i; else C[nc++] = i; }
    MEE = ns_malloc((size_t)ne * ne, sizeof(double));
    X = ns_malloc((size_t)ne * (nc + 1), sizeof(double));
    MCE = ns_malloc((size_t)nc * ne, sizeof(double));
    S = ns_malloc((size_t)nc * nc, sizeof(double));
    qt = ns_malloc((size_t)nc, sizeof(double));
    zc = ns_malloc((size_t)nc, sizeof(double));
    wc = ns_malloc((size_t)nc, sizeof(double));
    if (!MEE || !X || !MCE || !S || !qt || !zc || !wc) goto nomem;
#define MAT(i, j) M[(size_t)(i) + (size_t)(j) * (size_t)N]
    for (ns_int b = 0; b < ne; b++)
        for (ns_int a = 0; a < ne; a++) MEE[a + (size_t)b * ne] = MAT(E[a], E[b]);
    for (ns_int b = 0; b < nc; b++)
        for (ns_int a = 0; a < ne; a++) X[a + (size_t)b * ne] = MAT(E[a], C[b]);
    for (ns_int a = 0; a < ne; a++) X[a + (size_t)nc * ne] = p->q[E[a]];
    for (ns_int b = 0; b < ne; b++)
        for (ns_int a = 0; a < nc; a++) MCE[a + (size_t)b * nc] = MAT(C[a], E[b]);
    for (ns_int b = 0; b < nc; b++)
        for (ns_int a = 0; a < nc; a++) S[a + (size_t)b * nc] = MAT(C[a], C[b]);
    for (ns_int a = 0; a < nc; a++) qt[a] = p->q[C[a]];
#undef MAT
    if (ne > 0) {
        lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, ne, ne, MEE, ne, piv);
        if (info > 0) {
            st = ns_fail(res->message, NS_SINGULAR, "mlcp lemke: the equality block "
                         "M_EE (%d x %d) is singular (zero pivot %d); use enum or "
                         "newton-fb", (int)ne, (int)ne, (int)info);
            goto done;
        }
        LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', ne, nc + 1, MEE, ne, piv, X, ne);
        if (nc > 0) {
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, nc, nc, ne, -1.0,
                        MCE, nc, X, ne, 1.0, S, nc);
            cblas_dgemv(CblasColMajor, CblasNoTrans, nc, ne, -1.0, MCE, nc,
                        X + (size_t)nc * ne, 1, 1.0, qt, 1);
        }
        if (!ns_all_finite(X, (size_t)ne * (nc + 1))) {
            st = ns_fail(res->message, NS_SINGULAR, "mlcp lemke: the equality block "
                         "M_EE is numerically singular; use enum or newton-fb");
            goto done;
        }
    }
    schur_ctx ctx = { p, N, ne, nc, E, C, X, zf, wf };
    for (ns_int b = 0; b < nc; b++) zc[b] = 0.0;
    st = ns_lemke_dense(nc, S, qt, zc, wc, o, schur_error, &ctx, res);
    expand(&ctx, zc);
    memcpy(z, zf, (size_t)N * sizeof(double));
    res->error = ns_mlcp_error(p, z, w);
    /* polish on the full system: the elimination may have lost digits */
    double *work = ns_malloc((size_t)N * N + (size_t)N, sizeof(double));
    if (work && ns_active_set_solve(N, M, p->q, eq, z, w, zf, work, piv, E) == 0) {
        double e2 = ns_mlcp_error(p, zf, wf);
        if (e2 < res->error) {
            memcpy(z, zf, (size_t)N * sizeof(double));
            memcpy(w, wf, (size_t)N * sizeof(double));
            res->error = e2;
        }
    }
    free(work);
    /* the active-set matrix is singular when the solutions are not unique
     * (deltasigma): refine by least squares on the same active set */
    for (int k = 0; k < 2 && res->error > 4.0 * DBL_EPSILON; k++)
        if (ns_active_set_refine(N, M, p->q, eq, z, w, zf, 3, k ? 1e-8 : 0.0) == 0) {
            double e2 = ns_mlcp_error(p, zf, wf);
            if (e2 < res->error) {
                memcpy(z, zf, (size_t)N * sizeof(double));
                memcpy(w, wf, (size_t)N * sizeof(double));
                res->error = e2;
            }
        }
    if (st != NS_CONVERGED && res->error <= o->tol) { st = NS_CONVERGED; res->message[0] = '\0'; }
    goto done;
nomem:
    st = ns_fail(res->message, NS_NO_MEMORY, "mlcp lemke: out of memory");
done:
    free(M); free(eq); free(E); free(C); free(MEE); free(X); free(MCE); free(S);
    free(qt); free(zc); free(wc); free(zf); free(wf); free(piv);
    return st;
}
