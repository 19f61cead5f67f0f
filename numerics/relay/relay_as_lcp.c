/* relay_as_lcp.c — the relay problem (lb ≤ z ≤ ub, −w ∈ N_[lb,ub](z),
 * w = M z + q) as an LCP. Each variable is shifted to a bound it has,
 *   z_i = lb_i + ζ_i (s_i = +1) if lb_i is finite, else z_i = ub_i − ζ_i
 *   (s_i = −1), ζ_i ∈ [0, r_i], r_i = ub_i − lb_i (+∞ if a bound is),
 * and w̃ = S w = S M S ζ + S (M off + q). With λ_k for each finite r_i,
 *   0 ≤ ζ ⊥ w̃ + E λ ≥ 0,   0 ≤ λ ⊥ r − Eᵀ ζ ≥ 0     (E: n × K selection),
 * i.e. the LCP of size N = n + K with matrix [[S M S, E], [−Eᵀ, 0]] and
 * vector (S(M off + q), r). A variable without any finite bound would be a
 * free variable (an MLCP): NS_UNSUPPORTED, use pgs or newton-fb on the
 * MLCP form. */
#include "relay/relay_internal.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* y ← A x + y, A n×n dense column-major, through ns_matrix_gemv (a plain
 * loop on small sizes, where a CBLAS call costs more than the product) */
static void dense_gemv(ns_int n, const double *A, const double *x, double *y)
{
    ns_matrix V;
    memset(&V, 0, sizeof V);
    V.storage = NS_DENSE;
    V.rows = V.cols = n;
    V.dense = (double *)A;   /* read only */
    ns_matrix_gemv(1.0, &V, x, 1.0, y);
}

ns_status ns_relay_lcp_build(const ns_relay *p, ns_relay_lcp *r, char *err)
{
    memset(r, 0, sizeof *r);
    ns_int n = p->n, K = 0;
    r->p = p;
    r->n = n;
    for (ns_int i = 0; i < n; i++) {
        if (!isfinite(p->lb[i]) && !isfinite(p->ub[i]))
            return ns_fail(err, NS_UNSUPPORTED, "relay: z[%d] has no finite bound; the "
                           "LCP reformulation needs one (use pgs)", (int)i);
        if (isfinite(p->lb[i]) && isfinite(p->ub[i])) K++;
    }
    ns_int N = n + K;
    r->N = N;
    /* M read in place when dense; the LCP's arrays in one zeroed block
     * (M, q, off, sgn, zr, wr: on a 1×1 relay, seven allocations cost more
     * than the solve) */
    double *Mc = p->M->storage == NS_DENSE ? NULL : ns_dense_copy(p->M);
    const double *Md = Mc ? Mc : p->M->dense;
    if (!Md || (size_t)N > SIZE_MAX / sizeof(double) / ((size_t)N + 1) - 4) {
        free(Mc);
        return ns_fail(err, NS_NO_MEMORY, "relay: out of memory");
    }
    r->M = ns_calloc((size_t)N * N + (size_t)N + 4 * (size_t)n, sizeof(double));
    if (!r->M) {
        free(Mc);
        return ns_fail(err, NS_NO_MEMORY, "relay: out of memory");
    }
    r->q = r->M + (size_t)N * N;
    r->off = r->q + N;
    r->sgn = r->off + n;
    r->zr = r->sgn + n;
    r->wr = r->zr + n;
    for (ns_int i = 0; i < n; i++) {
        int lo = isfinite(p->lb[i]);
        r->off[i] = lo ? p->lb[i] : p->ub[i];
        r->sgn[i] = lo ? 1.0 : -1.0;
    }
    /* q̃ = S (M off + q) */
    memcpy(r->q, p->q, (size_t)n * sizeof(double));
    dense_gemv(n, Md, r->off, r->q);
    for (ns_int i = 0; i < n; i++) r->q[i] *= r->sgn[i];
    for (ns_int j = 0; j < n; j++)
        for (ns_int i = 0; i < n; i++)
            r->M[i + (size_t)j * N] = r->sgn[i] * Md[i + (size_t)j * n] * r->sgn[j];
    ns_int k = n;
    for (ns_int i = 0; i < n; i++) {
        if (!(isfinite(p->lb[i]) && isfinite(p->ub[i]))) continue;
        r->M[i + (size_t)k * N] = 1.0;     /* E */
        r->M[k + (size_t)i * N] = -1.0;    /* −Eᵀ */
        r->q[k] = p->ub[i] - p->lb[i];
        k++;
    }
    free(Mc);
    return NS_OK;
}

void ns_relay_lcp_free(ns_relay_lcp *r)
{
    free(r->M);   /* the one block of ns_relay_lcp_build */
    memset(r, 0, sizeof *r);
}

void ns_relay_lcp_recover(const ns_relay_lcp *r, const double *x, double *z)
{
    for (ns_int i = 0; i < r->n; i++) {
        double zi = r->off[i] + r->sgn[i] * x[i];
        /* clamp the rounding of ζ = r into the box */
        if (zi < r->p->lb[i]) zi = r->p->lb[i];
        if (zi > r->p->ub[i]) zi = r->p->ub[i];
        z[i] = zi;
    }
}

double ns_relay_lcp_error(const void *ctx, const double *x, double *wx)
{
    const ns_relay_lcp *r = ctx;
    memcpy(wx, r->q, (size_t)r->N * sizeof(double));
    dense_gemv(r->N, r->M, x, wx);
    ns_relay_lcp_recover(r, x, r->zr);
    return ns_relay_error(r->p, r->zr, r->wr);
}

ns_status ns_relay_via_lcp(const ns_relay *p, double *z, double *w,
                           const ns_options *o, ns_result *res,
                           ns_relay_kernel kernel)
{
    ns_relay_lcp r;
    ns_status st = ns_relay_lcp_build(p, &r, res->message);
    if (st) return st;
    double *x = ns_calloc(2 * (size_t)r.N, sizeof(double));   /* x, wx */
    double *wx = x ? x + r.N : NULL;
    if (!x) {
        st = ns_fail(res->message, NS_NO_MEMORY, "relay: out of memory");
    } else {
        /* warm start: ζ from z (λ = 0) */
        for (ns_int i = 0; i < p->n; i++) {
            double zeta = r.sgn[i] * (z[i] - r.off[i]);
            x[i] = zeta > 0 ? zeta : 0.0;
        }
        st = kernel(&r, x, wx, o, res);
        ns_relay_lcp_recover(&r, x, z);
        res->error = ns_relay_error(p, z, w);
    }
    free(x);
    ns_relay_lcp_free(&r);
    return st;
}
