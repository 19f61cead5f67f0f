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
    /* one pass: the defect, and (z − z) + (w − w), NaN iff some z_i or w_i
     * is not finite (fmax would hide a NaN in w). A non-finite q makes w
     * non-finite, so q needs no scan of its own. */
    double s = 0.0, bad = 0.0;
    for (size_t i = 0; i < n; i++) {
        double t = z[i] - w[i];
        double d = z[i] - (t > 0.0 ? t : 0.0);   /* fmax(0, t), inlined */
        s += d * d;
        bad += (z[i] - z[i]) + (w[i] - w[i]);
    }
    if (bad != 0.0) return INFINITY;
    double e = sqrt(s);
    double nq = ns_norm2(p->q, n);
    if (nq > DBL_EPSILON) e /= nq;
    return isfinite(e) ? e : INFINITY;
}
