/* residual_soclcp.c — error of an SOCLCP (docs/kinds.md): v ← W r + q,
 *   e = ‖r − P_K(r − v)‖₂ / (1 + ‖q‖₂),  P_K per cone (ns_soc_project). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <math.h>
#include <string.h>

double ns_soclcp_error(const ns_soclcp *p, const double *r, double *v)
{
    if (!p || !r || !v || !p->cone_start) return INFINITY;
    size_t n = (size_t)p->n;
    if (!ns_all_finite(r, n)) return INFINITY;
    memcpy(v, p->q, n * sizeof(double));
    ns_matrix_gemv(1.0, p->W, r, 1.0, v);
    if (!ns_all_finite(v, n)) return INFINITY;
    double s = 0.0, x[64], px[64];
    for (ns_int c = 0; c < p->nc; c++) {
        ns_int a = p->cone_start[c], d = p->cone_start[c + 1] - a;
        if (d <= 64) {
            for (ns_int j = 0; j < d; j++) x[j] = r[a + j] - v[a + j];
            ns_soc_project(d, p->mu[c], x, px);
            for (ns_int j = 0; j < d; j++) { double e = r[a + j] - px[j]; s += e * e; }
        } else {
            /* long cones: ‖x_T‖ first, then each component on the fly */
            double x0 = r[a] - v[a], nt = 0.0;
            for (ns_int j = 1; j < d; j++) { double t = r[a + j] - v[a + j]; nt += t * t; }
            nt = sqrt(nt);
            double mu = p->mu[c], p0, sc;
            if (nt <= mu * x0) { p0 = x0; sc = 1.0; }
            else if (mu * nt <= -x0 || (mu == 0.0 && x0 <= 0.0)) { p0 = 0.0; sc = 0.0; }
            else { p0 = (x0 + mu * nt) / (1.0 + mu * mu); sc = nt > 0 ? mu * p0 / nt : 0.0; }
            double e0 = r[a] - p0;
            s += e0 * e0;
            for (ns_int j = 1; j < d; j++) {
                double e = r[a + j] - sc * (r[a + j] - v[a + j]);
                s += e * e;
            }
        }
    }
    double e = sqrt(s) / (1.0 + ns_norm2(p->q, n));
    return isfinite(e) ? e : INFINITY;
}
