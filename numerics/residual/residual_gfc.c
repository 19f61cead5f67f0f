/* residual_gfc.c — error of a global friction-contact problem, 2D and 3D
 * (Siconos 4.4's gfc3d_compute_error; docs/errors.md §GFC). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* u ← Hᵀ v + b, and with s = ‖q + H r − M v‖₂:
 *   e_eq = s / max(‖q‖, ‖M v‖, ‖H r‖)   (division skipped if that max ≤ √DBL_EPSILON),
 *   e_c  = sqrt(Σ_α ‖r_α − P_Kα(r_α − û_α)‖²) / max(‖u‖, ‖r‖)  (same rule),
 *   e    = e_eq + e_c.
 * work: n doubles, or NULL (then allocated here). One buffer suffices: H r,
 * M v and q + H r − M v are formed in turn (four products instead of two).
 * +INFINITY on non-finite v, r, u, q, b, or on allocation failure. */
double ns_gfc_error(const ns_gfc *p, const double *v, const double *r,
                    double *u, double *work)
{
    if (!p || !v || (p->dim != 2 && p->dim != 3)) return INFINITY;
    const double min_scale = sqrt(DBL_EPSILON);
    const size_t n = (size_t)p->n;
    const size_t m = (size_t)p->dim * (size_t)p->nc;
    if (m > 0 && (!r || !u || !p->b || !p->mu)) return INFINITY;
    if (!ns_all_finite(v, n) || !ns_all_finite(p->q, n) ||
        (m > 0 && (!ns_all_finite(r, m) || !ns_all_finite(p->b, m))))
        return INFINITY;
    double *own = NULL;
    if (n > 0 && !work) {
        own = ns_malloc(n, sizeof(double));
        if (!own) return INFINITY;
        work = own;
    }
    double norm_Hr = 0.0, norm_Mv = 0.0, s = 0.0;
    if (n > 0) {
        if (m > 0) {
            ns_matrix_gemv(1.0, p->H, r, 0.0, work);
            norm_Hr = ns_norm2(work, n);
        }
        ns_matrix_gemv(1.0, p->M, v, 0.0, work);
        norm_Mv = ns_norm2(work, n);
        memcpy(work, p->q, n * sizeof(double));
        if (m > 0) ns_matrix_gemv(1.0, p->H, r, 1.0, work);
        ns_matrix_gemv(-1.0, p->M, v, 1.0, work);
        if (!ns_all_finite(work, n)) { free(own); return INFINITY; }
        s = ns_norm2(work, n);
    }
    free(own);
    double scale = fmax(ns_norm2(p->q, n), fmax(norm_Mv, norm_Hr));
    double e_eq = s;
    if (scale > min_scale) e_eq /= scale;

    double e_c = 0.0;
    if (m > 0) {
        memcpy(u, p->b, m * sizeof(double));
        ns_matrix_gemv_t(1.0, p->H, v, 1.0, u);
        if (!ns_all_finite(u, m)) return INFINITY;
        double c = 0.0;
        for (ns_int k = 0; k < p->nc; k++)
            c += ns_fc_contact_error_sq(p->dim, p->mu[k], r + (size_t)k * p->dim,
                                        u + (size_t)k * p->dim);
        e_c = sqrt(c);
        double sc = fmax(ns_norm2(u, m), ns_norm2(r, m));
        if (sc > min_scale) e_c /= sc;
    }
    double e = e_eq + e_c;
    return isfinite(e) ? e : INFINITY;
}
