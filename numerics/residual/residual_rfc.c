/* residual_rfc.c — errors of the rolling friction-contact kinds
 * (docs/rolling.md §3), the same definitions as Siconos 4.4's
 * rolling_fc3d_compute_error, rolling_fc2d_compute_error and
 * grfc3d_compute_error (natural map with De Saxcé's modified velocity). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include "residual/residual_global.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* u ← W r + q;  a = sqrt(Σ_α ‖r_α − P_Kα(r_α − û_α)‖²),
 *   NS_FC_NORM_SICONOS: e = a / max(‖q‖, ‖r‖, ‖u‖),  NS_FC_NORM_Q: a / ‖q‖,
 * the division skipped when the divisor is ≤ DBL_EPSILON. */
double ns_rfc_error(const ns_rfc *p, const double *r, double *u, ns_fc_norm norm)
{
    if (!p || !r || !u || (p->dim != 3 && p->dim != 5 && p->dim != 6) || !p->W) return INFINITY;
    const int d = p->dim;
    const size_t m = (size_t)d * (size_t)p->nc;
    if (m == 0) return 0.0;
    memcpy(u, p->q, m * sizeof(double));
    ns_matrix_gemv(1.0, p->W, r, 1.0, u);
    if (!ns_all_finite(r, m) || !ns_all_finite(u, m) || !ns_all_finite(p->q, m))
        return INFINITY;
    double s = 0.0;
    for (ns_int c = 0; c < p->nc; c++)
        s += ns_rfc_contact_error_sq_pivot(d, p->mu[c], p->mu_r[c], d == 6 ? p->mu_p[c] : 0.0,
                                           r + (size_t)c * d, u + (size_t)c * d);
    double e = sqrt(s);
    double scale = ns_norm2(p->q, m);
    if (norm == NS_FC_NORM_SICONOS) scale = fmax(scale, fmax(ns_norm2(r, m), ns_norm2(u, m)));
    if (scale > DBL_EPSILON) e /= scale;
    return isfinite(e) ? e : INFINITY;
}

/* u ← Hᵀ v + b, s = ‖q + H r − M v‖:
 *   e_eq = s / max(‖q‖, ‖M v‖, ‖H r‖),
 *   e_c  = sqrt(Σ_α ‖r_α − P_Kα(r_α − û_α)‖²) / max(‖u‖, ‖r‖),
 *   e    = e_eq + e_c, each division skipped below √DBL_EPSILON. */
double ns_grfc_error(const ns_grfc *p, const double *v, const double *r, double *u,
                     double *work)
{
    if (!p || !v || p->dim != 5 || !p->M || !p->H) return INFINITY;
    const double min_scale = sqrt(DBL_EPSILON);
    const size_t n = (size_t)p->n, m = (size_t)p->dim * (size_t)p->nc;
    if (m > 0 && (!r || !u || !p->b || !p->mu || !p->mu_r)) return INFINITY;
    if (!ns_all_finite(v, n) || !ns_all_finite(p->q, n) ||
        (m > 0 && (!ns_all_finite(r, m) || !ns_all_finite(p->b, m))))
        return INFINITY;
    double e = ns_global_equilibrium_error(p->M, p->H, p->q, v, r, n, m, work);
    if (!isfinite(e)) return INFINITY;
    if (m > 0) {
        memcpy(u, p->b, m * sizeof(double));
        ns_matrix_gemv_t(1.0, p->H, v, 1.0, u);
        if (!ns_all_finite(u, m)) return INFINITY;
        double c = 0.0;
        for (ns_int k = 0; k < p->nc; k++)
            c += ns_rfc_contact_error_sq(5, p->mu[k], p->mu_r[k], r + (size_t)k * 5,
                                         u + (size_t)k * 5);
        double ec = sqrt(c), sc = fmax(ns_norm2(u, m), ns_norm2(r, m));
        e += sc > min_scale ? ec / sc : ec;
    }
    return isfinite(e) ? e : INFINITY;
}
