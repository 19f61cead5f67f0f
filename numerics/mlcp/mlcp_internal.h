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

/** The MLCP reduced to an LCP in the complementarity unknowns z_C by
 *  eliminating z_E through M_EE (mlcp_schur.c): w_C = S z_C + qt. */
typedef struct ns_mlcp_schur {
    const ns_mlcp *p;
    ns_int N, ne, nc;
    ns_int *E, *C;       /* equality / complementarity row indices */
    double *X;           /* ne × (nc+1): M_EE⁻¹ [M_EC | q_E] */
    double *S, *qt;      /* nc × nc, nc */
    double *zf, *wf;     /* N scratch: the full z of the last expand */
} ns_mlcp_schur;

/** Builds S and qt from the dense M (N×N, column-major) and the equality
 *  mask. NS_OK, NS_SINGULAR (M_EE singular; message in msg, s freed) or
 *  NS_NO_MEMORY. */
ns_status ns_mlcp_schur_init(ns_mlcp_schur *s, const ns_mlcp *p, const double *M,
                             const unsigned char *eq, char *msg);
/** s->zf ← the full z of z_C. */
void ns_mlcp_schur_expand(const ns_mlcp_schur *s, const double *zc);
/** Kernel error callback (ctx: ns_mlcp_schur): the MLCP error of the full z
 *  of z_C; wc ← w_C. */
double ns_mlcp_schur_error(const void *ctx, const double *zc, double *wc);
void ns_mlcp_schur_free(ns_mlcp_schur *s);
#endif
