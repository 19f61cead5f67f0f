/* mlcp_pgs.c — projected Gauss–Seidel for the MLCP, w = M z + q:
 * swept over the row blocks of the problem in order,
 *   equality block k (rows K):  z_K ← −M_KK⁻¹ (q_K + Σ_{j∉K} M_Kj z_j)
 *                               (solved exactly; M_KK factored once by LU),
 *   complementarity row i:      z_i ← max(0, z_i − ω w_i / M_ii),
 * until the MLCP error (ns_mlcp_error) is ≤ tol. Needs M_ii > 0 on the
 * complementarity rows and invertible equality diagonal blocks: NS_BAD_INPUT
 * / NS_SINGULAR naming the row or block otherwise. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "mlcp/mlcp_internal.h"
#include "nonsmooth/ns_residual.h"
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_mlcp_pgs(const ns_mlcp *p, double *z, double *w,
                      const ns_options *o, ns_result *res)
{
    ns_int N = p->n + p->m;
    ns_status st = NS_MAX_ITER;
    const ns_int def_start[3] = { 0, p->n, N };
    const int def_kind[2] = { 0, 1 };
    ns_int nb = 2;
    const ns_int *start = def_start;
    const int *kind = def_kind;
    if (p->nblocks > 0 && p->block_start && p->block_kind) {
        nb = p->nblocks; start = p->block_start; kind = p->block_kind;
    }
    double *Mt = NULL, *D = NULL, *fac = NULL, *rhs = NULL, *zbest = NULL;
    lapack_int *piv = NULL;
    size_t *foff = NULL;
    double *M = ns_dense_copy(p->M);
    Mt = ns_malloc((size_t)N * N, sizeof(double));
    D = ns_malloc((size_t)N, sizeof(double));
    rhs = ns_malloc((size_t)N, sizeof(double));
    piv = ns_malloc((size_t)N, sizeof(lapack_int));
    foff = ns_malloc((size_t)nb + 1, sizeof(size_t));
    zbest = ns_malloc((size_t)N + 1, sizeof(double));
    if (!M || !Mt || !D || !rhs || !piv || !foff || !zbest) goto nomem;
    /* Mt: row i of M contiguous at Mt + i*N */
    for (ns_int j = 0; j < N; j++)
        for (ns_int i = 0; i < N; i++) Mt[j + (size_t)i * N] = M[i + (size_t)j * N];
    size_t tot = 0;
    for (ns_int k = 0; k < nb; k++) {
        foff[k] = tot;
        size_t len = (size_t)(start[k + 1] - start[k]);
        if (kind[k] == 0) tot += len * len;
    }
    foff[nb] = tot;
    fac = ns_malloc(tot ? tot : 1, sizeof(double));
    if (!fac) goto nomem;
    for (ns_int k = 0; k < nb; k++) {
        ns_int a = start[k], b = start[k + 1], len = b - a;
        if (kind[k] == 0) {
            double *F = fac + foff[k];
            for (ns_int jj = 0; jj < len; jj++)
                for (ns_int ii = 0; ii < len; ii++)
                    F[ii + (size_t)jj * len] = M[(a + ii) + (size_t)(a + jj) * N];
            if (len > 0 && LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, len, len, F, len, piv + a) != 0) {
                st = ns_fail(res->message, NS_SINGULAR, "mlcp pgs: equality block %d "
                             "(rows %d..%d) has a singular diagonal block; use enum, "
                             "newton-fb or lemke", (int)k, (int)a, (int)b - 1);
                goto done;
            }
        } else {
            for (ns_int i = a; i < b; i++) {
                D[i] = M[i + (size_t)i * N];
                if (!(D[i] > 0)) {
                    st = ns_fail(res->message, NS_BAD_INPUT, "mlcp pgs: M[%d][%d] = %g; "
                                 "the complementarity rows need a positive diagonal "
                                 "(try enum or newton-fb)", (int)i, (int)i, D[i]);
                    goto done;
                }
            }
        }
    }
    double omega = o->omega > 0 ? o->omega : 1.0;
    double t0 = ns_now(), z1 = 0.0;
    double ebest = ns_mlcp_error(p, z, w);   /* the starting point */
    memcpy(zbest, z, (size_t)N * sizeof(double));
    for (int it = 1; it <= o->max_iter; it++) {
        for (ns_int k = 0; k < nb; k++) {
            ns_int a = start[k], b = start[k + 1], len = b - a;
            if (len == 0) continue;
            if (kind[k] == 0) {
                for (ns_int i = a; i < b; i++) {
                    double wi = p->q[i] + cblas_ddot(N, Mt + (size_t)i * N, 1, z, 1);
                    /* remove the block's own contribution */
                    wi -= cblas_ddot(len, Mt + (size_t)i * N + a, 1, z + a, 1);
                    rhs[i - a] = -wi;
                }
                LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', len, 1, fac + foff[k], len,
                               piv + a, rhs, len);
                memcpy(z + a, rhs, (size_t)len * sizeof(double));
            } else {
                for (ns_int i = a; i < b; i++) {
                    double wi = p->q[i] + cblas_ddot(N, Mt + (size_t)i * N, 1, z, 1);
                    double zi = z[i] - omega * wi / D[i];
                    z[i] = zi > 0 ? zi : 0.0;
                }
            }
        }
        res->iterations = it;
        res->error = ns_mlcp_error(p, z, w);
        int stop = ns_iteration(o, res, res->error);
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        /* a sweep that grew ‖z‖∞ 1e10-fold past its first value is a
         * divergence (deltasigma: ×19 a sweep, overflow after 241 sweeps):
         * report it now rather than after the overflow */
        double zn = 0.0;
        for (ns_int i = 0; i < N; i++) if (fabs(z[i]) > zn) zn = fabs(z[i]);
        if (it == 1) z1 = zn;
        else if (zn > 1e10 * (1.0 + z1)) {
            st = ns_fail(res->message, NS_DIVERGED, "mlcp pgs: diverged (max |z| grew "
                         "from %.3g to %.3g in %d sweeps); returning the best iterate",
                         z1, zn, it);
            memcpy(z, zbest, (size_t)N * sizeof(double));
            res->error = ns_mlcp_error(p, z, w);
            break;
        }
        if (res->error < ebest) {
            ebest = res->error;
            memcpy(zbest, z, (size_t)N * sizeof(double));
        }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (stop) { st = NS_INTERRUPTED; break; }
    }
    goto done;
nomem:
    st = ns_fail(res->message, NS_NO_MEMORY, "mlcp pgs: out of memory");
done:
    free(M); free(Mt); free(D); free(fac); free(rhs); free(piv); free(foff); free(zbest);
    return st;
}
