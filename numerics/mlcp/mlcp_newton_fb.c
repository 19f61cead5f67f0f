/* mlcp_newton_fb.c — semismooth Newton for the MLCP on
 *   Φ_i = w_i (equality rows),  Φ_i = √(z_i² + w_i²) − z_i − w_i
 *   (complementarity rows),  w = M z + q,
 * with the line search and safeguard of lcp_newton_fb.c (shared kernel),
 * stopping on the MLCP error (ns_mlcp_error). */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "mlcp/mlcp_internal.h"
#include <stdlib.h>

ns_status ns_mlcp_newton_fb(const ns_mlcp *p, double *z, double *w,
                            const ns_options *o, ns_result *res)
{
    double *M = ns_dense_copy(p->M);
    unsigned char *eq = ns_mlcp_eq_mask(p);
    ns_status st;
    if (!M || !eq) st = ns_fail(res->message, NS_NO_MEMORY, "mlcp newton-fb: out of memory");
    else st = ns_newton_dense(p->n + p->m, M, p->q, eq, 0, z, w, o,
                              ns_mlcp_kernel_error, p, res);
    free(M);
    free(eq);
    return st;
}
