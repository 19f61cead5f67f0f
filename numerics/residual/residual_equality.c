/* residual_equality.c — error of a linear system M z + q = 0
 * (docs/errors.md §Equality). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <math.h>
#include <string.h>

/* w ← M z + q;  e = ‖w‖₂ / (1 + ‖q‖₂).  +INFINITY on non-finite z, w or q. */
double ns_equality_error(const ns_equality *p, const double *z, double *w)
{
    if (!p || !z || !w) return INFINITY;
    const size_t n = (size_t)p->n;
    if (n == 0) return 0.0;
    memcpy(w, p->q, n * sizeof(double));
    ns_matrix_gemv(1.0, p->M, z, 1.0, w);
    if (!ns_all_finite(z, n) || !ns_all_finite(w, n) || !ns_all_finite(p->q, n))
        return INFINITY;
    double e = ns_norm2(w, n) / (1.0 + ns_norm2(p->q, n));
    return isfinite(e) ? e : INFINITY;
}
