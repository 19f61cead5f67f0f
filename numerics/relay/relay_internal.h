/* relay_internal.h — the relay problem as an LCP (relay_as_lcp.c). Private. */
#ifndef NS_RELAY_INTERNAL_H
#define NS_RELAY_INTERNAL_H
#include "nonsmooth/ns_relay.h"
#include "nonsmooth/ns_solver.h"

typedef struct ns_relay_lcp {
    const ns_relay *p;
    ns_int n;        /* relay size */
    ns_int N;        /* LCP size n + K (K finite ranges) */
    double *M;       /* (N × N) dense column-major */
    double *q;       /* (N) */
    double *off;     /* (n) z = off + s ∘ ζ */
    double *sgn;     /* (n) ±1 */
    double *zr, *wr; /* (n) scratch for the relay error */
} ns_relay_lcp;

/** Builds the LCP of p (see relay_as_lcp.c). NS_UNSUPPORTED with a message
 *  when a variable has no finite bound; NS_NO_MEMORY. */
ns_status ns_relay_lcp_build(const ns_relay *p, ns_relay_lcp *r, char *err);
void ns_relay_lcp_free(ns_relay_lcp *r);
/** z (n) of the relay from the LCP unknowns x (N). */
void ns_relay_lcp_recover(const ns_relay_lcp *r, const double *x, double *z);
/** Kernel error callback (ctx = ns_relay_lcp): fills wx = M x + q (N) and
 *  returns the relay error of the recovered z. */
double ns_relay_lcp_error(const void *ctx, const double *x, double *wx);
/** Runs a dense LCP kernel on the reformulation and writes back z, w. */
typedef ns_status (*ns_relay_kernel)(const ns_relay_lcp *r, double *x, double *wx,
                                     const ns_options *o, ns_result *res);
ns_status ns_relay_via_lcp(const ns_relay *p, double *z, double *w,
                           const ns_options *o, ns_result *res,
                           ns_relay_kernel kernel);
#endif
