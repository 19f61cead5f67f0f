/* residual_lcp.c — error of a linear complementarity problem (Siconos 4.4's
 * lcp_compute_error; docs/errors.md §LCP). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <float.h>
#include <math.h>
#include <string.h>

/* w ← M z + q;
 * e = ‖z − max(0, z − w)‖₂ / ‖q‖₂, the division skipped when ‖q‖₂ ≤ DBL_EPSILON.
 * +INFINITY when z, w or q holds a non-finite value. */
double ns_lcp_error(const ns_lcp *p, const double *z, double *w)
{
    if (!p || !z || !w) return INFINITY;
    const size_t n = (size_t)p->n;
    if (n == 0) return 0.0;
    memcpy(w, p->q, n * sizeof(double));
    ns_matrix_gemv(1.0, p->M, z, 1.0, w);
    if (!ns_all_finite(z, n) || !ns_all_finite(w, n) || !ns_all_finite(p->q, n))
        return INFINITY;
    double s = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = z[i] - fmax(0.0, z[i] - w[i]);
        s += d * d;
    }
    double e = sqrt(s);
    double nq = ns_norm2(p->q, n);
    if (nq > DBL_EPSILON) e /= nq;
    return isfinite(e) ? e : INFINITY;
}
