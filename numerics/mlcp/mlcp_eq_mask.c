/* mlcp_eq_mask.c — which rows of an MLCP are equalities: the rows of the
 * blocks of kind 0 in the block description (default [0, n) equality,
 * [n, n+m) complementarity), i.e. w_i = 0 with z_i free; and the kernels'
 * error callback, the kind's own error ns_mlcp_error. */
#include "mlcp/mlcp_internal.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <string.h>

void ns_mlcp_eq_mask_fill(const ns_mlcp *p, unsigned char *eq)
{
    ns_int N = p->n + p->m;
    memset(eq, 0, (size_t)N);
    if (p->nblocks > 0 && p->block_start && p->block_kind) {
        for (ns_int k = 0; k < p->nblocks; k++)
            if (p->block_kind[k] == 0)
                for (ns_int i = p->block_start[k]; i < p->block_start[k + 1] && i < N; i++)
                    eq[i] = 1;
    } else {
        for (ns_int i = 0; i < p->n; i++) eq[i] = 1;
    }
}

unsigned char *ns_mlcp_eq_mask(const ns_mlcp *p)
{
    unsigned char *eq = ns_calloc((size_t)(p->n + p->m), 1);
    if (eq) ns_mlcp_eq_mask_fill(p, eq);
    return eq;
}

double ns_mlcp_kernel_error(const void *ctx, const double *z, double *w)
{
    return ns_mlcp_error((const ns_mlcp *)ctx, z, w);
}
