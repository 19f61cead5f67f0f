/* mlcp_internal.h — helpers shared by the MLCP solvers (private). */
#ifndef NS_MLCP_INTERNAL_H
#define NS_MLCP_INTERNAL_H
#include "nonsmooth/ns_mlcp.h"

/** eq[i] = 1 for the rows of the equality blocks of p (block_start,
 *  block_kind; default the first n rows), 0 for complementarity rows.
 *  n+m bytes the caller frees; NULL on allocation failure. */
unsigned char *ns_mlcp_eq_mask(const ns_mlcp *p);
/** The same mask written into eq (n + m bytes, the caller's). */
void ns_mlcp_eq_mask_fill(const ns_mlcp *p, unsigned char *eq);

/** Error callback for the dense kernels: ctx is the ns_mlcp. */
double ns_mlcp_kernel_error(const void *ctx, const double *z, double *w);

/** The MLCP reduced to an LCP of size nc (the complementarity rows) by a
 *  principal pivot on P = E ∪ R (mlcp_schur.c): y = S x + qt, 0 ≤ x ⊥ y ≥ 0,
 *  x_b = w_{C[b]}, y_b = z_{C[b]} for b < nr (the pivoted rows R), and
 *  x_b = z_{C[b]}, y_b = w_{C[b]} for b ≥ nr. nr = 0: the Schur complement
 *  on M_EE, x = z_C. */
typedef struct ns_mlcp_schur {
    const ns_mlcp *p;
    ns_int N, ne, nc, nr;
    ns_int *E, *C;       /* equality rows; complementarity rows, R first */
    double *X;           /* (ne+nr) × (nc+1): M_PP⁻¹ [−I_{P,R} | M_PQ | q_P] */
    double *S, *qt;      /* nc × nc, nc */
    double *zf, *wf;     /* N scratch: the full z of the last expand */
    double *block;       /* the one allocation all the arrays above live in */
} ns_mlcp_schur;

/** Builds S and qt from the dense M (N×N, column-major) and the equality
 *  mask. allow_pivot = 0: R = ∅ (needs M_EE invertible); 1: when M_EE is
 *  singular or ill-conditioned, rows of C are pivoted too (Cao–Ferris).
 *  NS_OK, NS_SINGULAR (no invertible pivot block; message in msg, s freed)
 *  or NS_NO_MEMORY. */
ns_status ns_mlcp_schur_init(ns_mlcp_schur *s, const ns_mlcp *p, const double *M,
                             const unsigned char *eq, int allow_pivot, char *msg);
/** s->zf ← the full z of the LCP unknowns x. */
void ns_mlcp_schur_expand(const ns_mlcp_schur *s, const double *x);
/** Kernel error callback (ctx: ns_mlcp_schur): the MLCP error of the full z
 *  of x; y ← the LCP's y (z_R, w_Q). */
double ns_mlcp_schur_error(const void *ctx, const double *x, double *y);
void ns_mlcp_schur_free(ns_mlcp_schur *s);
#endif
