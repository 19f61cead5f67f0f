/* relay_newton_fb.c — the relay problem solved by the semismooth
 * Fischer–Burmeister Newton method (lcp_newton_fb.c) on its LCP
 * reformulation (relay_as_lcp.c), stopping on the relay error. */
#include "solve/solvers.h"
#include "lcp/lcp_kernels.h"
#include "relay/relay_internal.h"

static ns_status run(const ns_relay_lcp *r, double *x, double *wx,
                     const ns_options *o, ns_result *res)
{
    return ns_newton_dense(r->N, r->M, r->q, NULL, 0, x, wx, o,
                           ns_relay_lcp_error, r, res);
}

ns_status ns_relay_newton_fb(const ns_relay *p, double *z, double *w,
                             const ns_options *o, ns_result *res)
{
    return ns_relay_via_lcp(p, z, w, o, res, run);
}
