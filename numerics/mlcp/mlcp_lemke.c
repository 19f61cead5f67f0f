/* mlcp_lemke.c — Lemke's method for the MLCP. With E the equality rows and
 * C the complementarity rows of w = M z + q (w_E = 0, 0 ≤ z_C ⊥ w_C ≥ 0):
 *   1. one tableau (ns_lemke_mixed_dense, lcp_lemke.c): the free z_E are
 *      pivoted into the basis first (partial pivoting over the rows E) and
 *      never leave it, the rest is the lexicographic Lemke of the Schur
 *      complement LCP w_C = S z_C + q̃, S = M_CC − M_CE M_EE⁻¹ M_EC — no
 *      elimination, no LAPACK, the cost of a small LCP;
 *   2. when M_EE is numerically singular there: the explicit reduction of
 *      mlcp_schur.c (LAPACKE LU of M_EE, or of M_PP with complementarity
 *      rows pivoted in, Cao–Ferris), and the Lemke kernel on that LCP,
 *      stopping on the MLCP error of the recovered z; NS_SINGULAR when no
 *      pivot block works (use enum or newton-fb then).
 * Unless the error is already ≤ min(tol, 64 eps), the final active set
 * {eq} ∪ {z_i > w_i} is then solved once more on the full M (LU), then
 * refined by least squares on that set (ns_active_set_refine: works when the
 * set's matrix is singular, as with non-unique solutions), each result kept
 * if more accurate. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "mlcp/mlcp_internal.h"
#include "nonsmooth/ns_residual.h"
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_mlcp_lemke(const ns_mlcp *p, double *z, double *w,
                        const ns_options *o, ns_result *res)
{
    ns_int N = p->n + p->m;
    ns_status st;
    /* a dense M is used in place; small problems pay per allocation, so
     * the vectors share one block: zf, wf, zc, wc (nc ≤ N), idx, piv */
    double *Mc = p->M->storage == NS_DENSE ? NULL : ns_dense_copy(p->M);
    const double *M = Mc ? Mc : p->M->dense;
    unsigned char *eq = ns_mlcp_eq_mask(p);
    size_t nv = (size_t)N + 1;
    double *blk = ns_malloc(4 * nv * sizeof(double) + nv * (sizeof(ns_int) + sizeof(lapack_int)), 1);
    double *zf = blk, *wf = blk ? blk + nv : NULL;
    double *zc = blk ? blk + 2 * nv : NULL, *wc = blk ? blk + 3 * nv : NULL;
    ns_int *idx = blk ? (ns_int *)(blk + 4 * nv) : NULL;
    lapack_int *piv = blk ? (lapack_int *)(idx + nv) : NULL;
    ns_mlcp_schur sc;
    memset(&sc, 0, sizeof sc);
    if ((!Mc && p->M->storage != NS_DENSE) || !eq || !blk) goto nomem;
    /* one tableau first (no elimination, no LAPACK); a singular M_EE then
     * goes to the Schur complement with pivoted complementarity rows */
    st = ns_lemke_mixed_dense(N, M, p->q, eq, z, w, o, ns_mlcp_kernel_error, p, res);
    if (st != NS_SINGULAR) goto polish;
    res->message[0] = '\0';
    char msg[NS_ERRMSG_LEN];
    st = ns_mlcp_schur_init(&sc, p, M, eq, 1, msg);
    if (st == NS_SINGULAR) {
        st = ns_fail(res->message, NS_SINGULAR, "mlcp lemke: %s; use enum or newton-fb", msg);
        goto done;
    }
    if (st != NS_OK) goto nomem;
    ns_int nc = sc.nc;
    memset(zc, 0, (size_t)nc * sizeof(double));
    st = ns_lemke_dense(nc, sc.S, sc.qt, zc, wc, o, ns_mlcp_schur_error, &sc, res);
    ns_mlcp_schur_expand(&sc, zc);
    memcpy(z, sc.zf, (size_t)N * sizeof(double));
    res->error = ns_mlcp_error(p, z, w);
polish:;
    /* polish on the full system: the elimination may have lost digits —
     * unless the error is already at the rounding level (lemke refines its
     * basic solution with its own tableau), which saves an LU of M on small
     * problems solved at every time step */
    double *work = NULL;
    int polished = res->error <= fmin(o->tol, 64.0 * DBL_EPSILON);
    if (!polished) work = ns_malloc((size_t)N * N + (size_t)N, sizeof(double));
    if (work && ns_active_set_solve(N, M, p->q, eq, z, w, zf, work, piv, idx) == 0) {
        double e2 = ns_mlcp_error(p, zf, wf);
        if (e2 < res->error) {
            memcpy(z, zf, (size_t)N * sizeof(double));
            memcpy(w, wf, (size_t)N * sizeof(double));
            res->error = e2;
        }
    }
    free(work);
    work = NULL;
    /* the active-set matrix is singular when the solutions are not unique
     * (deltasigma): refine by least squares on the same active set */
    for (int k = 0; k < 2 && !polished && res->error > 4.0 * DBL_EPSILON; k++)
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
    free(Mc); free(eq); free(blk);
    return st;
}
