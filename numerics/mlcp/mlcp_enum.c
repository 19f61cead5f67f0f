/* mlcp_enum.c — active-set enumeration for the MLCP
 *   A u + C v + a = 0,  0 ≤ v ⊥ w_v = D u + B v + b ≥ 0  (M form, w = M z + q).
 * For each set J of complementarity rows with w_i = 0, solves the equality
 * rows and J together (u free, v_J) by LU and accepts v_J ≥ 0, w ≥ 0 off J
 * (lcp_enum.c's kernel with the equality rows always in the set). The set
 * {i : v_i > 0} of the starting point is tried first: with warm_start, the
 * previous time step's active set, which usually still holds. */
#include "core/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "mlcp/mlcp_internal.h"
#include <stdlib.h>

ns_status ns_mlcp_enum(const ns_mlcp *p, double *z, double *w,
                       const ns_options *o, ns_result *res)
{
    double *M = ns_dense_copy(p->M);
    unsigned char *eq = ns_mlcp_eq_mask(p);
    ns_status st;
    if (!M || !eq) st = ns_fail(res->message, NS_NO_MEMORY, "mlcp enum: out of memory");
    else st = ns_enum_dense(p->n + p->m, M, p->q, eq, z, w, o,
                            ns_mlcp_kernel_error, p, res);
    free(M);
    free(eq);
    return st;
}
