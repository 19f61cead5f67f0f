/* lcp_lh.c — the Lemke–Howson method for LCPs of bimatrix structure
 *   M = [[0, A], [Bᵀ, 0]],  A (m × k) > 0,  B (m × k) > 0,  q < 0
 * (a two-player game in cost form; always solvable, while Lemke's method
 * with a positive covering vector may end on a ray).
 *
 * Rows scaled to q = −1 (As_ij = A_ij / −q_i, likewise Bᵀ), the game is
 * turned into payoffs A' = cA − As > 0, B'ᵀ = cB − Bsᵀ > 0 (cA = 2 max As:
 * the best responses are unchanged) and the Lemke–Howson path is followed
 * on the labelled polytopes {x ≥ 0 : B'ᵀx ≤ 1}, {y ≥ 0 : A'y ≤ 1}, i.e.
 * complementary pivoting on  I w' + [[0, A'], [B'ᵀ, 0]] z' = 1 from the
 * artificial equilibrium z' = 0: label k0 is dropped (z'_k0 enters), the
 * complement of each leaving variable enters next, and the path ends when
 * w'_k0 or z'_k0 leaves. The ratio test is lexicographic on (x, B⁻¹) so
 * degenerate games end too (the start x = 1 is lexicographically positive).
 * The equilibrium (x̂, ŷ), normalised to probabilities, gives the LCP's
 * solution x = x̂ / min_j (Bsᵀx̂)_j, y = ŷ / min_i (As ŷ)_i: the support of
 * x̂ is among the rows where As ŷ is least, so w = Mz + q ≥ 0 and z ⊥ w.
 * Dense basis inverse, O(n²) per pivot. A path longer than 10 n + 100
 * pivots is abandoned (rounding can make the lexicographic rule cycle on
 * games with many exact ties) and the next label dropped, up to 16 labels. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

ns_int ns_bimatrix_split(ns_int n, const double *M, const double *q)
{
    if (n < 2) return 0;
    ns_int m = 0;
    for (ns_int j = 1; j < n && !m; j++) if (M[(size_t)j * n] != 0.0) m = j;
    if (m == 0) return 0;
    for (ns_int i = 0; i < n; i++) if (!(q[i] < 0)) return 0;
    for (ns_int j = 0; j < n; j++)
        for (ns_int i = 0; i < n; i++) {
            double v = M[i + (size_t)j * n];
            int off = (i < m) != (j < m);
            if (off ? !(v > 0) : v != 0.0) return 0;
        }
    return m;
}

/* lexicographic minimum ratio over rows with c_i > tol */
static ns_int lh_ratio(ns_int n, const double *x, const double *Binv, const double *c,
                       ns_int *cand)
{
    double cmax = 0.0;
    for (ns_int i = 0; i < n; i++) if (fabs(c[i]) > cmax) cmax = fabs(c[i]);
    ns_int nc = 0;
    for (ns_int i = 0; i < n; i++) if (c[i] > 1e-11 * cmax) cand[nc++] = i;
    if (nc == 0) return -1;
    for (ns_int k = -1; k < n && nc > 1; k++) {
        double best = INFINITY, scale = 0.0;
        for (ns_int t = 0; t < nc; t++) {
            double v = (k < 0 ? x[cand[t]] : Binv[cand[t] + (size_t)k * n]) / c[cand[t]];
            if (v < best) best = v;
            if (fabs(v) > scale) scale = fabs(v);
        }
        double tol = 1e-12 * (1.0 + scale);
        ns_int m2 = 0;
        for (ns_int t = 0; t < nc; t++) {
            double v = (k < 0 ? x[cand[t]] : Binv[cand[t] + (size_t)k * n]) / c[cand[t]];
            if (v <= best + tol) cand[m2++] = cand[t];
        }
        nc = m2;
    }
    ns_int r = cand[0];
    for (ns_int t = 1; t < nc; t++) if (c[cand[t]] > c[r]) r = cand[t];
    return r;
}

/* One Lemke–Howson path dropping label k0. 0 on success (zp filled). */
static int lh_path(ns_int n, const double *P, ns_int k0, int max_piv, double *Binv,
                   double *x, double *c, ns_int *basis, ns_int *cand, double *zp, int *pivots)
{
    for (size_t t = 0; t < (size_t)n * n; t++) Binv[t] = 0.0;
    for (ns_int i = 0; i < n; i++) { Binv[i + (size_t)i * n] = 1.0; x[i] = 1.0; basis[i] = i; }
    ns_int entering = n + k0;
    for (int it = 0; it < max_piv; it++) {
        /* c = B⁻¹ a; a = e_i (w'_i) or P_{:,j} (z'_j) */
        if (entering < n) {
            for (ns_int i = 0; i < n; i++) c[i] = Binv[i + (size_t)entering * n];
        } else {
            const double *a = P + (size_t)(entering - n) * n;
            for (ns_int i = 0; i < n; i++) c[i] = 0.0;
            for (ns_int k = 0; k < n; k++) {
                if (a[k] == 0.0) continue;
                const double *bk = Binv + (size_t)k * n;
                for (ns_int i = 0; i < n; i++) c[i] += bk[i] * a[k];
            }
        }
        ns_int r = lh_ratio(n, x, Binv, c, cand);
        if (r < 0) return 1;
        double cr = c[r];
        double xr = x[r] / cr;
        for (ns_int i = 0; i < n; i++) if (i != r) { x[i] -= c[i] * xr; if (x[i] < 0) x[i] = 0.0; }
        x[r] = xr;
        for (ns_int k = 0; k < n; k++) {
            double *bk = Binv + (size_t)k * n;
            double v = bk[r] / cr;
            if (v == 0.0) continue;
            for (ns_int i = 0; i < n; i++) if (i != r) bk[i] -= c[i] * v;
            bk[r] = v;
        }
        ns_int leaving = basis[r];
        basis[r] = entering;
        *pivots = it + 1;
        if (leaving == k0 || leaving == n + k0) {
            for (ns_int j = 0; j < n; j++) zp[j] = 0.0;
            for (ns_int i = 0; i < n; i++) if (basis[i] >= n) zp[basis[i] - n] = x[i];
            return 0;
        }
        entering = leaving < n ? leaving + n : leaving - n;
    }
    return 1;
}

ns_status ns_lh_dense(ns_int n, const double *M, const double *q, double *z, double *w,
                      const ns_options *o, ns_kernel_error_fn err, const void *ctx,
                      ns_result *res)
{
    res->iterations = 0;
    ns_int m = ns_bimatrix_split(n, M, q);
    if (m == 0)
        return ns_fail(res->message, NS_UNSUPPORTED, "lemke-howson: M is not [[0, A], [B', 0]] "
                       "with A, B > 0 and q < 0");
    size_t un = (size_t)n;
    double *P = ns_calloc(un * un, sizeof(double)), *Binv = ns_malloc(un * un, sizeof(double));
    double *x = ns_malloc(un, sizeof(double)), *c = ns_malloc(un, sizeof(double));
    double *zp = ns_malloc(un, sizeof(double)), *zr = ns_malloc(un, sizeof(double));
    double *wr = ns_malloc(un, sizeof(double));
    ns_int *basis = ns_malloc(un, sizeof(ns_int)), *cand = ns_malloc(un, sizeof(ns_int));
    ns_status st = NS_MAX_ITER;
    if (!P || !Binv || !x || !c || !zp || !zr || !wr || !basis || !cand) {
        st = ns_fail(res->message, NS_NO_MEMORY, "lemke-howson: out of memory");
        goto out;
    }
    /* scaled costs, then payoffs (two blocks, each with its own shift) */
    double cA = 0.0, cB = 0.0;
    for (ns_int j = 0; j < n; j++)
        for (ns_int i = 0; i < n; i++) {
            double v = M[i + (size_t)j * n];
            if (v == 0.0) continue;
            v /= -q[i];
            P[i + (size_t)j * n] = v;
            if (i < m) cA = fmax(cA, v); else cB = fmax(cB, v);
        }
    cA *= 2.0; cB *= 2.0;
    for (ns_int j = 0; j < n; j++)
        for (ns_int i = 0; i < n; i++)
            if ((i < m) != (j < m)) P[i + (size_t)j * n] = (i < m ? cA : cB) - P[i + (size_t)j * n];
    double ebest = INFINITY;
    int total = 0;
    /* a path of a random game is short (a few n pivots); one that runs
     * long is cycling on rounding in a degenerate game: another dropped
     * label is tried instead */
    int max_piv = 10 * (int)n + 100;
    int interrupted = 0;
    for (ns_int k0 = 0; k0 < n && k0 < 16 && total < o->max_iter; k0++) {
        if (ns_cancelled(o)) { interrupted = 1; break; }
        int piv = 0;
        int rc = lh_path(n, P, k0, max_piv, Binv, x, c, basis, cand, zp, &piv);
        total += piv;
        if (rc) continue;
        double sx = 0.0, sy = 0.0;
        for (ns_int i = 0; i < m; i++) sx += zp[i];
        for (ns_int i = m; i < n; i++) sy += zp[i];
        if (!(sx > 0 && sy > 0)) continue;
        /* y = ŷ / min_i (As ŷ)_i, x = x̂ / min_j (Bsᵀ x̂)_j, with As = M/−q rows */
        double vmin = INFINITY, umin = INFINITY;
        for (ns_int i = 0; i < m; i++) {
            long double s = 0.0L;
            for (ns_int j = m; j < n; j++) s += (long double)M[i + (size_t)j * n] / -q[i] * (zp[j] / sy);
            vmin = fmin(vmin, (double)s);
        }
        for (ns_int i = m; i < n; i++) {
            long double s = 0.0L;
            for (ns_int j = 0; j < m; j++) s += (long double)M[i + (size_t)j * n] / -q[i] * (zp[j] / sx);
            umin = fmin(umin, (double)s);
        }
        if (!(vmin > 0 && umin > 0)) continue;
        for (ns_int i = 0; i < m; i++) zr[i] = zp[i] / sx / umin;
        for (ns_int i = m; i < n; i++) zr[i] = zp[i] / sy / vmin;
        double e = err(ctx, zr, wr);
        if (e < ebest) {
            ebest = e;
            memcpy(z, zr, un * sizeof(double));
            memcpy(w, wr, un * sizeof(double));
        }
        if (e <= o->tol) break;
    }
    res->iterations = total;
    if (!isfinite(ebest)) {
        st = ns_fail(res->message, NS_FAILED, "lemke-howson: no path ended at an equilibrium");
        res->error = err(ctx, z, w);
        goto out;
    }
    res->error = ebest;
    if (ebest > 4.0 * DBL_EPSILON && ns_active_set_refine(n, M, q, NULL, z, w, zr, 2, 0.0) == 0) {
        double e2 = err(ctx, zr, wr);
        if (e2 < res->error) {
            memcpy(z, zr, un * sizeof(double));
            memcpy(w, wr, un * sizeof(double));
            res->error = e2;
        }
    }
    st = res->error <= o->tol ? NS_CONVERGED : interrupted ? NS_INTERRUPTED : NS_MAX_ITER;
out:
    free(P); free(Binv); free(x); free(c); free(zp); free(zr); free(wr); free(basis); free(cand);
    return st;
}
