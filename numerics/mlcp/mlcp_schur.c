/* mlcp_schur.c — elimination of the free unknowns of an MLCP, shared by
 * lemke and enum. With E the equality rows and C the complementarity rows
 * of w = M z + q (w_E = 0, 0 ≤ z_C ⊥ w_C ≥ 0), when M_EE is invertible
 *   z_E = −M_EE⁻¹ (q_E + M_EC z_C),
 *   w_C = S z_C + q̃,  S = M_CC − M_CE M_EE⁻¹ M_EC,  q̃ = q_C − M_CE M_EE⁻¹ q_E,
 * an LCP in z_C alone. M_EE is factored once by LAPACKE LU. */
#include "mlcp/mlcp_internal.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <cblas.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_mlcp_schur_init(ns_mlcp_schur *s, const ns_mlcp *p, const double *M,
                             const unsigned char *eq, char *msg)
{
    memset(s, 0, sizeof *s);
    ns_int N = p->n + p->m;
    s->p = p;
    s->N = N;
    s->E = ns_malloc((size_t)N + 1, sizeof(ns_int));
    s->C = ns_malloc((size_t)N + 1, sizeof(ns_int));
    s->zf = ns_malloc((size_t)N + 1, sizeof(double));
    s->wf = ns_malloc((size_t)N + 1, sizeof(double));
    if (!s->E || !s->C || !s->zf || !s->wf) goto nomem;
    ns_int ne = 0, nc = 0;
    for (ns_int i = 0; i < N; i++) { if (eq[i]) s->E[ne++] = i; else s->C[nc++] = i; }
    s->ne = ne;
    s->nc = nc;
    double *MEE = ns_malloc((size_t)ne * ne + 1, sizeof(double));
    double *MCE = ns_malloc((size_t)nc * ne + 1, sizeof(double));
    lapack_int *piv = ns_malloc((size_t)ne + 1, sizeof(lapack_int));
    s->X = ns_malloc((size_t)ne * (nc + 1) + 1, sizeof(double));
    s->S = ns_malloc((size_t)nc * nc + 1, sizeof(double));
    s->qt = ns_malloc((size_t)nc + 1, sizeof(double));
    if (!MEE || !MCE || !piv || !s->X || !s->S || !s->qt) {
        free(MEE); free(MCE); free(piv);
        goto nomem;
    }
    const ns_int *E = s->E, *C = s->C;
#define MAT(i, j) M[(size_t)(i) + (size_t)(j) * (size_t)N]
    for (ns_int b = 0; b < ne; b++)
        for (ns_int a = 0; a < ne; a++) MEE[a + (size_t)b * ne] = MAT(E[a], E[b]);
    for (ns_int b = 0; b < nc; b++)
        for (ns_int a = 0; a < ne; a++) s->X[a + (size_t)b * ne] = MAT(E[a], C[b]);
    for (ns_int a = 0; a < ne; a++) s->X[a + (size_t)nc * ne] = p->q[E[a]];
    for (ns_int b = 0; b < ne; b++)
        for (ns_int a = 0; a < nc; a++) MCE[a + (size_t)b * nc] = MAT(C[a], E[b]);
    for (ns_int b = 0; b < nc; b++)
        for (ns_int a = 0; a < nc; a++) s->S[a + (size_t)b * nc] = MAT(C[a], C[b]);
    for (ns_int a = 0; a < nc; a++) s->qt[a] = p->q[C[a]];
#undef MAT
    ns_status st = NS_OK;
    if (ne > 0) {
        lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, ne, ne, MEE, ne, piv);
        if (info > 0) {
            st = ns_fail(msg, NS_SINGULAR, "the equality block M_EE (%d x %d) is "
                         "singular (zero pivot %d)", (int)ne, (int)ne, (int)info);
        } else {
            LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', ne, nc + 1, MEE, ne, piv, s->X, ne);
            if (nc > 0) {
                cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, nc, nc, ne, -1.0,
                            MCE, nc, s->X, ne, 1.0, s->S, nc);
                cblas_dgemv(CblasColMajor, CblasNoTrans, nc, ne, -1.0, MCE, nc,
                            s->X + (size_t)nc * ne, 1, 1.0, s->qt, 1);
            }
            if (!ns_all_finite(s->X, (size_t)ne * (nc + 1)))
                st = ns_fail(msg, NS_SINGULAR, "the equality block M_EE is "
                             "numerically singular");
        }
    }
    free(MEE); free(MCE); free(piv);
    if (st != NS_OK) ns_mlcp_schur_free(s);
    return st;
nomem:
    ns_mlcp_schur_free(s);
    return ns_fail(msg, NS_NO_MEMORY, "out of memory");
}

void ns_mlcp_schur_expand(const ns_mlcp_schur *s, const double *zc)
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

double ns_mlcp_schur_error(const void *ctx, const double *zc, double *wc)
{
    const ns_mlcp_schur *s = ctx;
    ns_mlcp_schur_expand(s, zc);
    double e = ns_mlcp_error(s->p, s->zf, s->wf);
    for (ns_int b = 0; b < s->nc; b++) wc[b] = s->wf[s->C[b]];
    return e;
}

void ns_mlcp_schur_free(ns_mlcp_schur *s)
{
    free(s->E); free(s->C); free(s->X); free(s->S); free(s->qt);
    free(s->zf); free(s->wf);
    memset(s, 0, sizeof *s);
}
