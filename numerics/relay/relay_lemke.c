/* relay_lemke.c — the relay problem solved by Lemke's method (lexicographic,
 * lcp_lemke.c), by principal pivoting (lcp_ppm.c) or by the LCP auto chain
 * (lcp_auto.c) on its LCP reformulation (relay_as_lcp.c).
 *
 * Certificates. A Farkas vector (yζ, yλ) of the reformulated LCP
 * (yζ, yλ ≥ 0, [[SMS, E], [−Eᵀ, 0]]ᵀ (yζ, yλ) ≤ 0, q̃ᵀ(yζ, yλ) < 0) gives the
 * relay's (ns_solver.h): y_i = s_i yζ_i, 0 where both bounds are finite
 * (Eᵀyζ ≤ 0 forces yζ_i = 0 there). Lemke's ray is such a vector when the
 * reformulated M is copositive-plus; ns_solve checks it on the relay data. */
#include "solve/solvers.h"
#include "lcp/lcp_kernels.h"
#include "relay/relay_internal.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the relay certificate from an LCP Farkas vector x (N) into res->cert */
static void relay_cert(const ns_relay_lcp *r, const double *x, ns_result *res,
                       const char *source)
{
    double *y = ns_malloc((size_t)r->n + 1, sizeof(double));
    if (!y) return;
    for (ns_int i = 0; i < r->n; i++) {
        int boxed = isfinite(r->p->lb[i]) && isfinite(r->p->ub[i]);
        double v = x[i] > 0 ? x[i] : 0.0;
        y[i] = boxed ? 0.0 : r->sgn[i] * v;
    }
    free(res->cert.y);
    memset(&res->cert, 0, sizeof res->cert);
    res->cert.kind = NS_CERT_FARKAS;
    res->cert.len = r->n;
    res->cert.y = y;
    snprintf(res->cert.source, sizeof res->cert.source, "%s", source);
}

static ns_status run_lemke(const ns_relay_lcp *r, double *x, double *wx,
                           const ns_options *o, ns_result *res)
{
    for (ns_int i = 0; i < r->N; i++) x[i] = 0.0;   /* Lemke starts from z = 0 */
    double *ray = NULL;
    ns_status st = ns_lemke_dense_ex(r->N, r->M, r->q, NULL, x, wx, o, ns_relay_lcp_error,
                                     r, res, &ray);
    if (st == NS_NO_SOLUTION && ray) relay_cert(r, ray, res, "lemke secondary ray (relay as LCP)");
    free(ray);
    return st;
}

static ns_status run_auto(const ns_relay_lcp *r, double *x, double *wx,
                          const ns_options *o, ns_result *res)
{
    double *y = NULL;
    ns_status st = ns_lcp_auto_dense(r->N, r->M, r->q, x, wx, o, ns_relay_lcp_error, r,
                                     res, &y);
    if (st == NS_NO_SOLUTION) relay_cert(r, y, res, "relay auto (relay as LCP)");
    free(y);
    return st;
}

static ns_status run_ppm(const ns_relay_lcp *r, double *x, double *wx,
                         const ns_options *o, ns_result *res)
{
    return ns_ppm_dense(r->N, r->M, r->q, x, wx, o, ns_relay_lcp_error, r, res);
}

ns_status ns_relay_lemke(const ns_relay *p, double *z, double *w,
                         const ns_options *o, ns_result *res)
{
    return ns_relay_via_lcp(p, z, w, o, res, run_lemke);
}

ns_status ns_relay_auto(const ns_relay *p, double *z, double *w,
                        const ns_options *o, ns_result *res)
{
    return ns_relay_via_lcp(p, z, w, o, res, run_auto);
}

ns_status ns_relay_ppm(const ns_relay *p, double *z, double *w,
                       const ns_options *o, ns_result *res)
{
    return ns_relay_via_lcp(p, z, w, o, res, run_ppm);
}
