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
 *      Also when the tableau ends above tol (an ill-conditioned M_EE passes
 *      its pivot test but not the condition test of mlcp_schur.c); the
 *      better of the two is kept.
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

/* The polish of a lemke result on the full system (see the head comment). */
static void polish(const ns_mlcp *p, const double *M, const unsigned char *eq, double *z,
                   double *w, double *zf, double *wf, lapack_int *piv, ns_int *idx,
                   const ns_options *o, ns_result *res)
{
    ns_int N = p->n + p->m;
    if (res->error <= fmin(o->tol, 64.0 * DBL_EPSILON)) return;
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
     * (deltasigma): refine by least squares on the same active set, when
     * the LU left the point outside tol (two pivoted QRs cost more than
     * the pivots of a small MLCP) */
    for (int k = 0; k < 2 && res->error > o->tol && res->error > 4.0 * DBL_EPSILON; k++)
        if (ns_active_set_refine(N, M, p->q, eq, z, w, zf, 3, k ? 1e-8 : 0.0) == 0) {
            double e2 = ns_mlcp_error(p, zf, wf);
            if (e2 < res->error) {
                memcpy(z, zf, (size_t)N * sizeof(double));
                memcpy(w, wf, (size_t)N * sizeof(double));
                res->error = e2;
            }
        }
}

ns_status ns_mlcp_lemke(const ns_mlcp *p, double *z, double *w,
                        const ns_options *o, ns_result *res)
{
    ns_int N = p->n + p->m;
    ns_status st, st1 = NS_SINGULAR;
    /* a dense M is used in place; small problems pay per allocation, so
     * the vectors share one block: zf, wf, zc, wc (nc ≤ N), z1, w1, idx, piv */
    double *Mc = p->M->storage == NS_DENSE ? NULL : ns_dense_copy(p->M);
    const double *M = Mc ? Mc : p->M->dense;
    unsigned char *eq = ns_mlcp_eq_mask(p);
    size_t nv = (size_t)N + 1;
    double *blk = ns_malloc(6 * nv * sizeof(double) + nv * (sizeof(ns_int) + sizeof(lapack_int)), 1);
    double *zf = blk, *wf = blk ? blk + nv : NULL;
    double *zc = blk ? blk + 2 * nv : NULL, *wc = blk ? blk + 3 * nv : NULL;
    double *z1 = blk ? blk + 4 * nv : NULL, *w1 = blk ? blk + 5 * nv : NULL;
    ns_int *idx = blk ? (ns_int *)(blk + 6 * nv) : NULL;
    lapack_int *piv = blk ? (lapack_int *)(idx + nv) : NULL;
    ns_result r1;
    ns_result_init(&r1);
    ns_mlcp_schur sc;
    memset(&sc, 0, sizeof sc);
    if ((!Mc && p->M->storage != NS_DENSE) || !eq || !blk) goto nomem;
    /* 1. one tableau (no elimination, no LAPACK) */
    st = ns_lemke_mixed_dense(N, M, p->q, eq, z, w, o, ns_mlcp_kernel_error, p, res);
    if (st == NS_NO_MEMORY) goto done;
    if (st != NS_SINGULAR) {
        polish(p, M, eq, z, w, zf, wf, piv, idx, o, res);
        if (res->error <= o->tol || st == NS_INTERRUPTED) goto judge;
        /* not solved: keep it, and try the explicit elimination (an
         * ill-conditioned M_EE passes the tableau's pivot test but not the
         * condition test there, which then pivots rows of C in) */
        st1 = st;
        r1 = *res;
        memcpy(z1, z, (size_t)N * sizeof(double));
        memcpy(w1, w, (size_t)N * sizeof(double));
    }
    /* 2. Schur complement, with pivoted complementarity rows if need be */
    res->message[0] = '\0';
    char msg[NS_ERRMSG_LEN];
    st = ns_mlcp_schur_init(&sc, p, M, eq, 1, msg);
    if (st == NS_SINGULAR) {
        st = ns_fail(res->message, NS_SINGULAR, "mlcp lemke: %s; use enum or newton-fb", msg);
    } else if (st != NS_OK) {
        goto nomem;
    } else {
        ns_int nc = sc.nc;
        memset(zc, 0, (size_t)nc * sizeof(double));
        st = ns_lemke_dense(nc, sc.S, sc.qt, zc, wc, o, ns_mlcp_schur_error, &sc, res);
        res->iterations += st1 != NS_SINGULAR ? r1.iterations : 0;
        ns_mlcp_schur_expand(&sc, zc);
        memcpy(z, sc.zf, (size_t)N * sizeof(double));
        res->error = ns_mlcp_error(p, z, w);
        polish(p, M, eq, z, w, zf, wf, piv, idx, o, res);
    }
    if (st1 != NS_SINGULAR && !(res->error < r1.error)) {   /* the first was better */
        int it = res->iterations;
        *res = r1;
        res->iterations = it;
        st = st1;
        memcpy(z, z1, (size_t)N * sizeof(double));
        memcpy(w, w1, (size_t)N * sizeof(double));
    }
judge:
    if (st != NS_CONVERGED && res->error <= o->tol) { st = NS_CONVERGED; res->message[0] = '\0'; }
    goto done;
nomem:
    st = ns_fail(res->message, NS_NO_MEMORY, "mlcp lemke: out of memory");
done:
    ns_mlcp_schur_free(&sc);
    free(Mc); free(eq); free(blk);
    return st;
}
