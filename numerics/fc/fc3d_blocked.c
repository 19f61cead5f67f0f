/* fc3d_blocked.c — a friction-contact problem with W in BLOCK storage of
 * d×d blocks, the storage every sweep reads: block row α holds
 * W_αβ, β ∈ contacts coupled to α, and the diagonal block W_αα that the
 * one-contact solvers take. Converted once per solve when needed. */
#include "fc/fc3d_internal.h"
#include "core/ns_internal.h"
#include <math.h>

static int uniform_blocks(const ns_matrix *W, int d, ns_int nc)
{
    if (W->storage != NS_BLOCK) return 0;
    const ns_block *B = &W->block;
    if (B->block_rows != nc || B->block_cols != nc) return 0;
    for (ns_int i = 0; i <= nc; i++)
        if (B->row_start[i] != d * i || B->col_start[i] != d * i) return 0;
    return 1;
}

ns_status ns_fc_blocked_unchecked(const ns_fc *p, ns_fc *view, ns_matrix **owned, char *err)
{
    const int d = p->dim;
    *view = *p;
    *owned = NULL;
    if (p->W->rows != d * p->nc || p->W->cols != d * p->nc)
        return ns_fail(err, NS_BAD_INPUT, "fc: W is %dx%d, %d contacts of dimension %d need %d",
                       p->W->rows, p->W->cols, p->nc, d, d * p->nc);
    if (!uniform_blocks(p->W, d, p->nc)) {
        *owned = ns_matrix_to_block_uniform(p->W, d);
        if (!*owned) return ns_fail(err, NS_NO_MEMORY, "fc: out of memory converting W to blocks");
        view->W = *owned;
    }
    for (ns_int c = 0; c < p->nc; c++)
        if (!(p->mu[c] >= 0) || !isfinite(p->mu[c]))
            return ns_fail(err, NS_BAD_INPUT, "fc: mu[%d] = %g is not a finite number >= 0", c, p->mu[c]);
    return NS_OK;
}

ns_int ns_fc_bad_diagonal(const ns_fc *view, char *err)
{
    const ns_block *B = &view->W->block;
    for (ns_int c = 0; c < view->nc; c++) {
        ns_int k = B->diag[c];
        int bad = k < 0 ? 1 : ns_fc_check_diag_block(view->dim, B->x + B->value_ptr[k]);
        if (bad == 1) {
            ns_fail(err, NS_BAD_INPUT, "fc: contact %d: diagonal block has W_NN = %g <= 0",
                    (int)c, k < 0 ? 0.0 : B->x[B->value_ptr[k]]);
            return c;
        }
        if (bad == 2) {
            ns_fail(err, NS_BAD_INPUT, "fc: contact %d: diagonal block is indefinite", (int)c);
            return c;
        }
    }
    return -1;
}

ns_status ns_fc_blocked(const ns_fc *p, ns_fc *view, ns_matrix **owned, char *err)
{
    ns_status st = ns_fc_blocked_unchecked(p, view, owned, err);
    if (st != NS_OK) return st;
    return ns_fc_bad_diagonal(view, err) >= 0 ? NS_BAD_INPUT : NS_OK;
}
