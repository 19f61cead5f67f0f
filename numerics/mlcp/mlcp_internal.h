/* mlcp_internal.h — helpers shared by the MLCP solvers (private). */
#ifndef NS_MLCP_INTERNAL_H
#define NS_MLCP_INTERNAL_H
#include "nonsmooth/ns_mlcp.h"

/** eq[i] = 1 for the rows of the equality blocks of p (block_start,
 *  block_kind; default the first n rows), 0 for complementarity rows.
 *  n+m bytes the caller frees; NULL on allocation failure. */
unsigned char *ns_mlcp_eq_mask(const ns_mlcp *p);

/** Error callback for the dense kernels: ctx is the ns_mlcp. */
double ns_mlcp_kernel_error(const void *ctx, const double *z, double *w);
#endif
