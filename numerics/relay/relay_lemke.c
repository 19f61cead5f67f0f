/* relay_lemke.c — the relay problem solved by Lemke's method (lexicographic,
 * lcp_lemke.c) on its LCP reformulation (relay_as_lcp.c). */
#include "solve/solvers.h"
#include "lcp/lcp_kernels.h"
#include "relay/relay_internal.h"

static ns_status run(const ns_relay_lcp *r, double *x, double *wx,
                     const ns_options *o, ns_result *res)
{
    for (ns_int i = 0; i < r->N; i++) x[i] = 0.0;   /* Lemke starts from z = 0 */
    return ns_lemke_dense(r->N, r->M, r->q, x, wx, o, ns_relay_lcp_error, r, res);
}

ns_status ns_relay_lemke(const ns_relay *p, double *z, double *w,
                         const ns_options *o, ns_result *res)
{
    return ns_relay_via_lcp(p, z, w, o, res, run);
}
