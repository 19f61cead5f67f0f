/* lcp_pgs.c — projected Gauss–Seidel (and over-relaxed, PSOR) for the LCP
 *   z_i ← max(0, z_i − ω (M z + q)_i / M_ii),  i = 0 … n−1,
 * swept until the LCP error e(z) = ‖z − max(0, z − w)‖₂/‖q‖₂ (ns_lcp_error)
 * is ≤ tol. ω = o->omega, default 1 for pgs and 1.2 for psor. Needs M_ii > 0
 * (checked: NS_UNSUPPORTED naming the row otherwise — the LCP is a valid
 * one, the method does not apply to it; lemke solves it or proves it has
 * no solution).
 * Column form. w = M z + q is kept up to date: when z_i moves by δ ≠ 0,
 * w ← w + δ M_{:,i} (column i, contiguous for DENSE, a CSC column otherwise),
 * so row i reads w_i directly, rows whose z_i stays 0 cost O(1), and e(z)
 * costs O(n) after each sweep with no product M z. Round-off drift of the
 * updated w is harmless: "converged" is declared only after ns_lcp_error
 * recomputes w = M z + q exactly and confirms e ≤ tol; otherwise the exact w
 * replaces the updated one and the sweeps go on. With check_every = k > 0 the
 * estimate is looked at every k sweeps only. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The sweep is one long axpy per moved row: built for AVX2+FMA as well as
 * for the baseline x86-64 (SSE2) and chosen at load time (GCC/Clang function
 * multiversioning), since the library is compiled for the baseline. */

/* One sweep; w is updated with z. A: dense column-major (or NULL), C: CSC. */
NS_SIMD_CLONES static void sweep(ns_int n, const double *A, const ns_csc *C, const double *dinv,
                  double omega, double *z, double *w)
{
    for (ns_int i = 0; i < n; i++) {
        double zo = z[i], zi = zo - omega * w[i] * dinv[i];
        if (zi < 0) zi = 0.0;
        double d = zi - zo;
        if (d == 0.0) continue;
        z[i] = zi;
        if (A) {
            const double *Ai = A + (size_t)i * (size_t)n;
            for (ns_int k = 0; k < n; k++) w[k] += d * Ai[k];
        } else {
            for (ns_int k = C->p[i]; k < C->p[i + 1]; k++) w[C->i[k]] += d * C->x[k];
        }
    }
}

/* ‖z − max(0, z − w)‖₂² */
static double resid2(ns_int n, const double *z, const double *w)
{
    double s = 0.0;
    for (ns_int i = 0; i < n; i++) {
        double r = z[i] - w[i] > 0 ? w[i] : z[i];
        s += r * r;
    }
    return s;
}

static ns_status pgs_sweeps(const ns_lcp *p, double *z, double *w,
                            const ns_options *o, double omega, ns_result *res)
{
    ns_int n = p->n;
    ns_status st = NS_MAX_ITER;
    ns_matrix *S = NULL;
    const double *A = NULL;
    const ns_csc *C = NULL;
    double *dinv = ns_malloc((size_t)n, sizeof(double));
    if (p->M->storage == NS_DENSE) A = p->M->dense;
    else if (p->M->storage == NS_SPARSE) C = &p->M->csc;
    else if ((S = ns_matrix_to_sparse(p->M))) C = &S->csc;
    if ((!A && !C) || !dinv) {
        st = ns_fail(res->message, NS_NO_MEMORY, "pgs: out of memory");
        goto done;
    }
    for (ns_int i = 0; i < n; i++) {
        double d = 0.0;
        if (A) d = A[i + (size_t)i * n];
        else
            for (ns_int k = C->p[i]; k < C->p[i + 1]; k++)
                if (C->i[k] == i) d += C->x[k];
        if (!(d > 0)) {
            st = ns_fail(res->message, NS_UNSUPPORTED,
                         "pgs: M[%d][%d] = %g; projected Gauss-Seidel needs a positive "
                         "diagonal (try lemke)", i, i, d);
            goto done;
        }
        dinv[i] = 1.0 / d;
    }
    double nq = ns_norm2(p->q, (size_t)n);
    double scale2 = nq > DBL_EPSILON ? nq * nq : 1.0;
    double tol2 = o->tol * o->tol;
    int every = o->check_every > 0 ? o->check_every : 1;
    /* w = M z + q; a cold start (z = 0, the usual case) needs no product */
    int cold = 1;
    for (ns_int i = 0; i < n && cold; i++) cold = z[i] == 0.0;
    if (cold) memcpy(w, p->q, (size_t)n * sizeof(double));
    else ns_lcp_error(p, z, w);
    double t0 = ns_now();
    for (int it = 1; it <= o->max_iter; it++) {
        sweep(n, A, C, dinv, omega, z, w);
        res->iterations = it;
        if (it % every != 0 && it != o->max_iter) continue;
        double s = resid2(n, z, w) / scale2;
        if (s <= tol2 || !isfinite(s) || it == o->max_iter) {
            res->error = ns_lcp_error(p, z, w);  /* exact w and e */
            if (res->error <= o->tol) { ns_iteration(o, res, res->error); st = NS_CONVERGED; break; }
            if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        } else {
            res->error = sqrt(s);
        }
        if (it <= 10 || (it & (it - 1)) == 0 || it % 1000 == 0)   /* verbosity 2: sparse progress */
            ns_log(o, 2, "pgs: sweep %d error %.3e", it, res->error);
        if (ns_iteration(o, res, res->error)) {
            res->error = ns_lcp_error(p, z, w);
            st = NS_INTERRUPTED;
            break;
        }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) {
            res->error = ns_lcp_error(p, z, w);
            st = NS_TIME_LIMIT;
            break;
        }
    }
done:
    ns_matrix_free(S);
    free(dinv);
    return st;
}

ns_status ns_lcp_pgs(const ns_lcp *p, double *z, double *w,
                     const ns_options *o, ns_result *res)
{
    return pgs_sweeps(p, z, w, o, o->omega > 0 ? o->omega : 1.0, res);
}

ns_status ns_lcp_psor(const ns_lcp *p, double *z, double *w,
                      const ns_options *o, ns_result *res)
{
    return pgs_sweeps(p, z, w, o, o->omega > 0 ? o->omega : 1.2, res);
}
