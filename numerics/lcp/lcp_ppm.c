/* lcp_ppm.c — principal pivoting for the LCP w = M z + q, 0 ≤ z ⊥ w ≥ 0:
 * block principal pivoting (Kostreva; Júdice and Pires, "A block principal
 * pivoting algorithm for large-scale strictly monotone linear
 * complementarity problems", Comput. Oper. Res. 21, 1994) with Murty's
 * least-index single pivot as its safeguard.
 *
 * A set F (z_F basic, w_F = 0; z = 0 and w basic off F) gives
 *   z_F = −M_FF⁻¹ q_F,   w = M z + q.
 * The infeasible indices are I = {i ∈ F : z_i < 0} ∪ {i ∉ F : w_i < 0}.
 * Every index of I changes side at once while |I| keeps reaching new minima
 * (up to 3 non-improving block steps in a row); then only the least index
 * of I changes side (Murty's rule, finite for P-matrices) until |I| is
 * below its best again. One LU (LAPACK) of M_FF per step.
 *
 * Scope: P-matrices (then every M_FF is invertible and the method ends at
 * the unique solution, in a few block steps on typical problems); row
 * scaling of M and q leaves every step unchanged. A singular M_FF (PSD or
 * degenerate problems) stops it with NS_SINGULAR: auto then moves on.
 * Signs are tested against 1e-13 times the size of the terms of each
 * component, so rounding does not cause a pivot. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_ppm_dense(ns_int n, const double *M, const double *q, double *z,
                       double *w, const ns_options *o, ns_kernel_error_fn err,
                       const void *ctx, ns_result *res)
{
    res->iterations = 0;
    if (n == 0) { res->error = err(ctx, z, w); return NS_CONVERGED; }
    size_t un = (size_t)n;
    double *K = ns_malloc(un * un, sizeof(double));
    double *rhs = ns_malloc(un, sizeof(double)), *wscale = ns_malloc(un, sizeof(double));
    double *zt = ns_malloc(un, sizeof(double)), *wt = ns_malloc(un, sizeof(double));
    ns_int *F = ns_malloc(un, sizeof(ns_int));
    unsigned char *inF = ns_malloc(un, 1);
    lapack_int *piv = ns_malloc(un, sizeof(lapack_int));
    ns_status st = NS_MAX_ITER;
    if (!K || !rhs || !wscale || !zt || !wt || !F || !inF || !piv) {
        st = ns_fail(res->message, NS_NO_MEMORY, "ppm: out of memory");
        goto out;
    }
    /* start: the support of the caller's z (warm start), else {q < 0} */
    int warm = 0;
    for (ns_int i = 0; i < n; i++) if (z[i] > 0) warm = 1;
    for (ns_int i = 0; i < n; i++) inF[i] = warm ? z[i] > 0 : q[i] < 0;
    ns_int best = n + 1;
    int chances = 3;
    double t0 = ns_now();
    for (int it = 0;; it++) {
        if (it >= o->max_iter) { st = NS_MAX_ITER; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
        ns_int nf = 0;
        for (ns_int i = 0; i < n; i++) if (inF[i]) F[nf++] = i;
        for (ns_int b = 0; b < nf; b++) {
            rhs[b] = -q[F[b]];
            for (ns_int a = 0; a < nf; a++)
                K[a + (size_t)b * nf] = M[F[a] + (size_t)F[b] * n];
        }
        for (ns_int i = 0; i < n; i++) zt[i] = 0.0;
        if (nf > 0) {
            if (ns_kernel_lu(nf, K, nf, piv) != 0) {
                st = ns_fail(res->message, NS_SINGULAR, "ppm: singular principal block "
                             "(%d x %d) at step %d; M is not a P-matrix", (int)nf, (int)nf, it);
                break;
            }
            ns_kernel_lu_solve(nf, K, nf, piv, rhs);
            for (ns_int b = 0; b < nf; b++) zt[F[b]] = rhs[b];
        }
        double zmax = 0.0;
        for (ns_int i = 0; i < n; i++) {
            long double s = q[i], a = fabs(q[i]);
            for (ns_int b = 0; b < nf; b++) {
                long double t = (long double)M[i + (size_t)F[b] * n] * zt[F[b]];
                s += t;
                a += fabsl(t);
            }
            wt[i] = (double)s;
            wscale[i] = (double)a;
            if (fabs(zt[i]) > zmax) zmax = fabs(zt[i]);
        }
        res->iterations = it + 1;
        ns_int ninf = 0, first = -1;
        for (ns_int i = 0; i < n; i++) {
            int bad = inF[i] ? zt[i] < -1e-13 * zmax : wt[i] < -1e-13 * wscale[i];
            if (bad) { ninf++; if (first < 0) first = i; }
        }
        ns_log(o, 2, "ppm: step %d, |F| = %d, %d infeasible", it + 1, (int)nf, (int)ninf);
        if (ninf == 0) { st = NS_CONVERGED; break; }
        if (ninf < best) { best = ninf; chances = 3; }
        else if (chances > 0) chances--;
        else { inF[first] = !inF[first]; continue; }   /* Murty: least index */
        for (ns_int i = 0; i < n; i++) {
            int bad = inF[i] ? zt[i] < -1e-13 * zmax : wt[i] < -1e-13 * wscale[i];
            if (bad) inF[i] = !inF[i];
        }
    }
    if (st == NS_CONVERGED || st == NS_MAX_ITER || st == NS_TIME_LIMIT) {
        for (ns_int i = 0; i < n; i++) z[i] = zt[i] > 0 ? zt[i] : 0.0;
    }
    res->error = err(ctx, z, w);
    if (st == NS_CONVERGED && res->error > 4.0 * DBL_EPSILON &&
        ns_active_set_refine(n, M, q, NULL, z, w, zt, 2, 0.0) == 0) {
        double e2 = err(ctx, zt, wt);
        if (e2 < res->error) {
            memcpy(z, zt, un * sizeof(double));
            memcpy(w, wt, un * sizeof(double));
            res->error = e2;
        }
    }
out:
    free(K); free(rhs); free(wscale); free(zt); free(wt); free(F); free(inF); free(piv);
    return st;
}

static double lcp_err(const void *ctx, const double *z, double *w)
{
    return ns_lcp_error((const ns_lcp *)ctx, z, w);
}

ns_status ns_lcp_ppm(const ns_lcp *p, double *z, double *w, const ns_options *o,
                     ns_result *res)
{
    double *M = ns_dense_copy(p->M);
    if (!M) return ns_fail(res->message, NS_NO_MEMORY, "ppm: out of memory");
    ns_status st = ns_ppm_dense(p->n, M, p->q, z, w, o, lcp_err, p, res);
    free(M);
    return st;
}
