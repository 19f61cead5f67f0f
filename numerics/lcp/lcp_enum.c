/* lcp_enum.c — principal enumeration for the LCP (and, through the kernel,
 * the MLCP and the relay problem)
 *   w = M z + q, 0 ≤ z ⊥ w ≥ 0  (w_i = 0, z_i free on equality rows).
 * A solution is fixed by the set B of rows where w_i = 0 (z_i may be
 * non-zero): z_B = −M_BB⁻¹ q_B, z = 0 off B, and it is a solution when
 * z_i ≥ 0 on the complementarity rows of B and w_i ≥ 0 off B. Equality rows
 * are always in B. The set {i : z_i > 0} of the starting z is tried first
 * (what a time-stepping loop wants: the last active set usually still
 * holds), then all 2^m sets of the m complementarity rows in order of
 * Hamming distance from a guess J0 (the caller's, default {i : q_i < 0}):
 * the solution is usually a few flips away from it (Buck converter MLCPs: 2
 * and 4 of 12), so a few hundred sets are tried instead of thousands. Each
 * costs one LU of M_BB (ns_kernel_lu). For small m only (m ≤ 30). */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Solves the system of set B (inB[i] = 1); fills z. 0 if z is feasible
 * (before the error check), 1 otherwise. */
static int try_set(ns_int n, const double *M, const double *q,
                   const unsigned char *eq, const unsigned char *inB,
                   double *z, double *w, double *work, lapack_int *piv, ns_int *B)
{
    ns_int nb = 0;
    for (ns_int i = 0; i < n; i++) if (inB[i]) B[nb++] = i;
    for (ns_int i = 0; i < n; i++) z[i] = 0.0;
    if (nb > 0) {
        double *rhs = work + (size_t)nb * (size_t)nb;
        for (ns_int b = 0; b < nb; b++) {
            rhs[b] = -q[B[b]];
            for (ns_int a = 0; a < nb; a++)
                work[a + (size_t)b * nb] = M[B[a] + (size_t)B[b] * n];
        }
        if (ns_kernel_lu_and_solve(nb, work, nb, piv, rhs) != 0) return 1;
        /* z_B ≥ 0 up to the round-off of the solve: a degenerate solution
         * (z_i = 0 with i in B) comes out as ±1e-20, and refusing −1e-20
         * would refuse the only set that holds it (the friction LCP of two
         * contacts with equal tangents at rest); such entries are set to 0
         * and the kind's error decides */
        double zs = 0.0;
        for (ns_int a = 0; a < nb; a++) {
            if (!isfinite(rhs[a])) return 1;
            if (fabs(rhs[a]) > zs) zs = fabs(rhs[a]);
        }
        for (ns_int a = 0; a < nb; a++) {
            double za = rhs[a];
            if (!(eq && eq[B[a]]) && za < 0.0) {
                if (za < -1e-12 * (1.0 + zs)) return 1;
                za = 0.0;
            }
            z[B[a]] = za;
        }
    }
    /* w off B */
    double scale = 0.0;
    for (ns_int i = 0; i < n; i++) if (fabs(z[i]) > scale) scale = fabs(z[i]);
    for (ns_int i = 0; i < n; i++) {
        if (inB[i]) continue;
        double wi = q[i];
        for (ns_int j = 0; j < nb; j++) wi += M[i + (size_t)B[j] * n] * z[B[j]];
        if (wi < -1e-12 * (1.0 + fabs(q[i]) + scale)) return 1;
    }
    (void)w;
    return 0;
}

ns_status ns_enum_dense_guess(ns_int n, const double *M, const double *q,
                              const unsigned char *eq, const unsigned char *guess,
                              double *z, double *w, const ns_options *o,
                              ns_kernel_error_fn err, const void *ctx, ns_result *res)
{
    ns_status st = NS_MAX_ITER;
    res->iterations = 0;
    const size_t nn = (size_t)n * (size_t)n, un = (size_t)n;
    /* one block (a small MLCP's solve paid a fifth of its time in malloc
     * and free): the doubles, then the ns_int, lapack_int and byte arrays,
     * each no less aligned than the one before */
    const size_t nd = nn + 3 * un;   /* work (n² + n), zt, wt */
    const size_t bytes = nd * sizeof(double) + 2 * un * sizeof(ns_int) +
                         un * sizeof(lapack_int) + 2 * un + 1;
    double small_blk[16 * 16 + 3 * 16 + 24];   /* n ≤ 16: on the stack */
    char *blk = bytes <= sizeof small_blk ? (char *)small_blk : ns_malloc(bytes, 1);
    if (!blk) {
        st = ns_fail(res->message, NS_NO_MEMORY, "enum: out of memory");
        goto done;
    }
    double *work = (double *)blk, *zt = work + nn + un, *wt = zt + un;
    ns_int *B = (ns_int *)(wt + un), *comp = B + un;
    lapack_int *piv = (lapack_int *)(comp + un);
    unsigned char *inB = (unsigned char *)(piv + un), *g0 = inB + un;
    ns_int m = 0;
    for (ns_int i = 0; i < n; i++) if (!(eq && eq[i])) comp[m++] = i;
    double best = INFINITY;
    /* warm set first */
    for (ns_int i = 0; i < n; i++) inB[i] = (eq && eq[i]) || z[i] > 0.0;
    res->iterations = 1;
    if (try_set(n, M, q, eq, inB, zt, wt, work, piv, B) == 0) {
        double e = err(ctx, zt, wt);
        if (e < best) { best = e; memcpy(z, zt, (size_t)n * sizeof(double)); }
        if (e <= o->tol) { best = e; st = NS_CONVERGED; goto found; }
    }
    if (m > 30) {
        st = ns_fail(res->message, NS_BAD_INPUT, "enum: %d complementarity rows are "
                     "too many to enumerate (at most 30; the warm-start active set "
                     "was tried and failed)", (int)m);
        goto out;
    }
    uint64_t total = (uint64_t)1 << m;
    const double t0 = o->time_limit > 0 ? ns_now() : 0.0;   /* no clock read without a limit */
    /* the guess J0: the caller's, or {i : q_i < 0} (the rows that z = 0
     * leaves infeasible); then every set in order of Hamming distance k
     * from J0 (k = 0, 1, …, m; the k flipped rows by Gosper's next
     * combination), each exactly once */
    for (ns_int c = 0; c < m; c++)
        g0[c] = guess ? (guess[comp[c]] != 0) : (q[comp[c]] < 0.0);
    uint64_t tried = 0;
    for (int k = 0; k <= (int)m && st == NS_MAX_ITER; k++) {
        uint64_t mask = k == 0 ? 0 : ((uint64_t)1 << k) - 1;
        for (;;) {
            if ((uint64_t)res->iterations >= (uint64_t)o->max_iter) { st = NS_MAX_ITER; k = (int)m + 1; break; }
            if (o->time_limit > 0 && (tried & 63u) == 0 && ns_now() - t0 > o->time_limit) {
                st = NS_TIME_LIMIT; k = (int)m + 1; break;
            }
            if ((tried & 63u) == 0 && ns_cancelled(o)) { st = NS_INTERRUPTED; k = (int)m + 1; break; }
            for (ns_int i = 0; i < n; i++) inB[i] = (eq && eq[i]);
            for (ns_int c = 0; c < m; c++)
                inB[comp[c]] = (unsigned char)(g0[c] ^ ((mask >> c) & 1u));
            tried++;
            res->iterations++;
            if (try_set(n, M, q, eq, inB, zt, wt, work, piv, B) == 0) {
                double e = err(ctx, zt, wt);
                if (e < best) { best = e; memcpy(z, zt, (size_t)n * sizeof(double)); }
                if (e <= o->tol) { best = e; st = NS_CONVERGED; goto found; }
            }
            if (k == 0) break;
            uint64_t c = mask & (~mask + 1), r = mask + c;   /* Gosper's hack */
            mask = (((r ^ mask) >> 2) / c) | r;
            if (mask >= total) break;
        }
    }
    if (st == NS_MAX_ITER && !isfinite(best) && (uint64_t)res->iterations >= total + 1)
        st = ns_fail(res->message, NS_NO_SOLUTION, "enum: none of the %llu active "
                     "sets gives a solution", (unsigned long long)total);
out:
    res->error = err(ctx, z, w);
    goto done;
found:   /* the last error call was on the answer: its w and error stand */
    memcpy(z, zt, (size_t)n * sizeof(double));
    memcpy(w, wt, (size_t)n * sizeof(double));
    res->error = best;
done:
    if (blk != (char *)small_blk) free(blk);
    return st;
}

ns_status ns_enum_dense(ns_int n, const double *M, const double *q,
                        const unsigned char *eq, double *z, double *w,
                        const ns_options *o, ns_kernel_error_fn err,
                        const void *ctx, ns_result *res)
{
    return ns_enum_dense_guess(n, M, q, eq, NULL, z, w, o, err, ctx, res);
}

static double lcp_err(const void *ctx, const double *z, double *w)
{
    return ns_lcp_error((const ns_lcp *)ctx, z, w);
}

ns_status ns_lcp_enum(const ns_lcp *p, double *z, double *w,
                      const ns_options *o, ns_result *res)
{
    /* a dense M is read in place */
    double *Mc = p->M->storage == NS_DENSE ? NULL : ns_dense_copy(p->M);
    if (!Mc && p->M->storage != NS_DENSE) return ns_fail(res->message, NS_NO_MEMORY, "enum: out of memory");
    ns_status st = ns_enum_dense(p->n, Mc ? Mc : p->M->dense, p->q, NULL, z, w, o, lcp_err, p, res);
    free(Mc);
    return st;
}
