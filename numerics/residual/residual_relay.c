/* residual_relay.c — error of a relay problem (Siconos 4.4's
 * relay_compute_error; docs/errors.md §Relay). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <math.h>
#include <string.h>

/* w ← M z + q;
 * e = ‖z − P_[lb,ub](z − w)‖₂ / (1 + ‖q‖₂), P the componentwise clamp
 * (infinite bounds allowed). +INFINITY on non-finite z, w or q. */
double ns_relay_error(const ns_relay *p, const double *z, double *w)
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
        double y = z[i] - w[i];
        if (y < p->lb[i]) y = p->lb[i];
        else if (y > p->ub[i]) y = p->ub[i];
        double d = z[i] - y;
        s += d * d;
    }
    double e = sqrt(s) / (1.0 + ns_norm2(p->q, n));
    return isfinite(e) ? e : INFINITY;
}
