/* lcp_newton_min.c — semismooth Newton method on the min-map reformulation
 * of the LCP
 *   Φ_i(z) = min(z_i, (M z + q)_i) = 0,
 * whose Jacobian rows are e_iᵀ where z_i ≤ w_i and M_i where z_i > w_i (a
 * Newton step solves the LCP's equations on the guessed active set). Line
 * search and safeguard as in lcp_newton_fb.c (the kernel is shared). */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <stdlib.h>

static double lcp_err(const void *ctx, const double *z, double *w)
{
    return ns_lcp_error((const ns_lcp *)ctx, z, w);
}

ns_status ns_lcp_newton_min(const ns_lcp *p, double *z, double *w,
                            const ns_options *o, ns_result *res)
{
    double *M = ns_dense_copy(p->M);
    if (!M) return ns_fail(res->message, NS_NO_MEMORY, "newton-min: out of memory");
    ns_status st = ns_newton_dense(p->n, M, p->q, NULL, 1, z, w, o, lcp_err, p, res);
    free(M);
    return st;
}
