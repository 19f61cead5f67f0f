/* relay_enum.c — the relay problem solved by principal enumeration
 * (lcp_enum.c) on its LCP reformulation (relay_as_lcp.c): 2^(n+K) sets, K
 * the number of variables with two finite bounds; small problems only. */
#include "solve/solvers.h"
#include "lcp/lcp_kernels.h"
#include "relay/relay_internal.h"

static ns_status run(const ns_relay_lcp *r, double *x, double *wx,
                     const ns_options *o, ns_result *res)
{
    return ns_enum_dense(r->N, r->M, r->q, NULL, x, wx, o, ns_relay_lcp_error, r, res);
}

ns_status ns_relay_enum(const ns_relay *p, double *z, double *w,
                        const ns_options *o, ns_result *res)
{
    return ns_relay_via_lcp(p, z, w, o, res, run);
}
