/* mlcp_lemke.c — Lemke's method for the MLCP after eliminating the free
 * unknowns. With E the equality rows and C the complementarity rows of
 * w = M z + q (w_E = 0, 0 ≤ z_C ⊥ w_C ≥ 0), when M_EE is invertible
 *   z_E = −M_EE⁻¹ (q_E + M_EC z_C),
 *   w_C = S z_C + q̃,  S = M_CC − M_CE M_EE⁻¹ M_EC,  q̃ = q_C − M_CE M_EE⁻¹ q_E,
 * an LCP in z_C (the Schur complement, mlcp_schur.c), solved by the
 * lexicographic Lemke kernel of lcp_lemke.c, stopping on the MLCP error of
 * the recovered z. M_EE is factored once by LAPACKE LU; singular →
 * NS_SINGULAR (use enum or newton-fb, which do not need it). The final
 * active set {eq} ∪ {z_i > w_i} is then solved once more on the full M (LU),
 * then refined by least squares
 * on that set (ns_active_set_refine: works when the set's matrix is singular,
 * as with non-unique solutions), each result kept if more accurate. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "mlcp/mlcp_internal.h"
#include "nonsmooth/ns_residual.h"
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_mlcp_lemke(const ns_mlcp *p, double *z, double *w,
                        const ns_options *o, ns_result *res)
{
    ns_int N = p->n + p->m;
    ns_status st;
    double *M = ns_dense_copy(p->M);
    unsigned char *eq = ns_mlcp_eq_mask(p);
    double *zf = ns_malloc((size_t)N + 1, sizeof(double)), *wf = ns_malloc((size_t)N + 1, sizeof(double));
    ns_int *idx = ns_malloc((size_t)N + 1, sizeof(ns_int));
    lapack_int *piv = ns_malloc((size_t)N + 1, sizeof(lapack_int));
    ns_mlcp_schur sc;
    memset(&sc, 0, sizeof sc);
    double *zc = NULL, *wc = NULL;
    if (!M || !eq || !zf || !wf || !idx || !piv) goto nomem;
    char msg[NS_ERRMSG_LEN];
    st = ns_mlcp_schur_init(&sc, p, M, eq, 1, msg);
    if (st == NS_SINGULAR) {
        st = ns_fail(res->message, NS_SINGULAR, "mlcp lemke: %s; use enum or newton-fb", msg);
        goto done;
    }
    if (st != NS_OK) goto nomem;
    ns_int nc = sc.nc;
    zc = ns_calloc((size_t)nc + 1, sizeof(double));
    wc = ns_malloc((size_t)nc + 1, sizeof(double));
    if (!zc || !wc) goto nomem;
    st = ns_lemke_dense(nc, sc.S, sc.qt, zc, wc, o, ns_mlcp_schur_error, &sc, res);
    ns_mlcp_schur_expand(&sc, zc);
    memcpy(z, sc.zf, (size_t)N * sizeof(double));
    res->error = ns_mlcp_error(p, z, w);
    /* polish on the full system: the elimination may have lost digits */
    double *work = ns_malloc((size_t)N * N + (size_t)N, sizeof(double));
    if (work && ns_active_set_solve(N, M, p->q, eq, z, w, zf, work, piv, idx) == 0) {
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
    ns_mlcp_schur_free(&sc);
    free(M); free(eq); free(zf); free(wf); free(idx); free(piv); free(zc); free(wc);
    return st;
}
