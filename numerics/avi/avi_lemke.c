/* avi_lemke.c — the AVI  find z ∈ K: (M z + q)ᵀ(y − z) ≥ 0 ∀ y ∈ K  by
 * complementary pivoting on its KKT system.
 *  - K = {z : H z ≤ h}: −(Mz + q) ∈ N_K(z) ⇔ ∃ λ ≥ 0:
 *        M z + q + Hᵀ λ = 0,   0 ≤ λ ⊥ h − H z ≥ 0,
 *    the MLCP with u = z (n free), v = λ (nh), matrix [[M, Hᵀ], [−H, 0]] and
 *    vector (q, h). lemke: the MLCP's Lemke (mlcp_lemke.c, mlcp_schur.c):
 *    z eliminated through M when M is invertible (an LCP in λ with matrix
 *    H M⁻¹ Hᵀ), otherwise pivoted in against constraint rows as Cao and
 *    Ferris do (z pinned by rows of H, an LCP in those rows' slacks and the
 *    other multipliers); no other method is tried, so a failure is
 *    reported as such. auto (the default): lemke, then the MLCP chain's
 *    newton-fb and enum (mlcp_auto.c) when lemke cannot pivot or stops on a
 *    ray.
 *  - K = [lb, ub] (box): the relay problem of the same data, by relay lemke.
 *  - K = ℝⁿ: M z + q = 0, the MLCP with m = 0.
 * The driver then recomputes the AVI error (natural map). */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <stdlib.h>
#include <string.h>

static ns_status avi_box(const ns_avi *p, double *z, const ns_options *o,
                         ns_result *res)
{
    ns_matrix *M = ns_matrix_copy(p->M);
    ns_relay *r = M ? ns_relay_new(M, p->q, p->lb, p->ub) : NULL;
    double *w = ns_malloc((size_t)p->n, sizeof(double));
    ns_status st;
    if (!r || !w) st = ns_fail(res->message, NS_NO_MEMORY, "avi: out of memory");
    else st = ns_relay_lemke(r, z, w, o, res);
    ns_relay_free(r);
    free(w);
    return st;
}

static ns_status avi_kkt(const ns_avi *p, double *z, double *w, const ns_options *o,
                         ns_result *res, ns_mlcp_solver solve)
{
    ns_int n = p->n;
    if (!p->H && p->lb && p->ub) return avi_box(p, z, o, res);
    ns_int nh = p->H ? p->H->rows : 0;
    ns_int N = n + nh;
    ns_status st;
    ns_matrix *K = ns_matrix_dense_new(N, N);
    ns_matrix *Md = ns_matrix_to_dense(p->M);
    ns_matrix *Hd = p->H ? ns_matrix_to_dense(p->H) : NULL;
    double *q = ns_malloc((size_t)N, sizeof(double));
    double *x = ns_calloc((size_t)N, sizeof(double));
    double *wx = ns_malloc((size_t)N, sizeof(double));
    ns_mlcp *m = NULL;
    if (!K || !Md || (p->H && !Hd) || !q || !x || !wx) {
        ns_matrix_free(K);
        st = ns_fail(res->message, NS_NO_MEMORY, "avi: out of memory");
        goto done;
    }
    for (ns_int j = 0; j < n; j++)
        for (ns_int i = 0; i < n; i++)
            K->dense[i + (size_t)j * N] = Md->dense[i + (size_t)j * n];
    for (ns_int k = 0; k < nh; k++)
        for (ns_int j = 0; j < n; j++) {
            double hkj = Hd->dense[k + (size_t)j * nh];
            K->dense[j + (size_t)(n + k) * N] = hkj;     /* Hᵀ */
            K->dense[(n + k) + (size_t)j * N] = -hkj;    /* −H */
        }
    memcpy(q, p->q, (size_t)n * sizeof(double));
    for (ns_int k = 0; k < nh; k++) q[n + k] = p->h[k];
    m = ns_mlcp_new(n, nh, K, q);
    if (!m) { st = ns_fail(res->message, NS_NO_MEMORY, "avi: out of memory"); goto done; }
    memcpy(x, z, (size_t)n * sizeof(double));
    st = solve(m, x, wx, o, res);
    memcpy(z, x, (size_t)n * sizeof(double));
    res->error = ns_avi_error(p, z, w);
done:
    ns_mlcp_free(m);
    ns_matrix_free(Md);
    ns_matrix_free(Hd);
    free(q); free(x); free(wx);
    return st;
}

ns_status ns_avi_lemke(const ns_avi *p, double *z, double *w,
                       const ns_options *o, ns_result *res)
{
    return avi_kkt(p, z, w, o, res, ns_mlcp_lemke);
}

ns_status ns_avi_auto(const ns_avi *p, double *z, double *w,
                      const ns_options *o, ns_result *res)
{
    return avi_kkt(p, z, w, o, res, ns_mlcp_auto);
}
