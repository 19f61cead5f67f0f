/* residual_vi.c — error of a VI (docs/kinds.md): the natural-map residual
 * ‖x − P_X(x − F(x))‖₂, absolute. +INFINITY when F or the projection
 * fails, or x is not finite. */
#include "nonsmooth/ns_residual.h"
#include "vi/vi_internal.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>

double ns_vi_error(const ns_vi *p, const double *x, double *F)
{
    if (!p || !x || !F || p->n < 0) return INFINITY;
    if ((p->F == NULL) == (p->M == NULL)) return INFINITY;
    if (!p->project && (!p->lb || !p->ub) && p->n > 0) return INFINITY;
    if (!ns_all_finite(x, (size_t)p->n)) return INFINITY;
    ns_cp_map f = { p->n, p->F, p->J, p->user, p->M, p->q };
    if (ns_cp_eval(&f, x, F)) return INFINITY;
    ns_vi_set X = { p->project, p->user, p->lb, p->ub };
    double *w = ns_malloc((size_t)(p->n > 0 ? p->n : 1), sizeof(double));
    if (!w) return INFINITY;
    double e = ns_vi_natural_residual(&X, p->n, x, F, w);
    free(w);
    return isfinite(e) ? e : INFINITY;
}
