/* residual_gfc.c — error of a global friction-contact problem, 2D and 3D
 * (Siconos 4.4's gfc3d_compute_error; docs/errors.md §GFC). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include "residual/residual_global.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double ns_global_equilibrium_error(const ns_matrix *M, const ns_matrix *H, const double *q,
                                   const double *v, const double *r, size_t n, size_t m,
                                   double *work)
{
    if (n == 0) return 0.0;
    double *own = NULL;
    if (!work) {
        own = ns_malloc(n, sizeof(double));
        if (!own) return INFINITY;
        work = own;
    }
    double norm_Hr = 0.0;
    if (m > 0) {
        ns_matrix_gemv(1.0, H, r, 0.0, work);
        norm_Hr = ns_norm2(work, n);
    }
    ns_matrix_gemv(1.0, M, v, 0.0, work);
    double norm_Mv = ns_norm2(work, n);
    memcpy(work, q, n * sizeof(double));
    if (m > 0) ns_matrix_gemv(1.0, H, r, 1.0, work);
    ns_matrix_gemv(-1.0, M, v, 1.0, work);
    double s = ns_all_finite(work, n) ? ns_norm2(work, n) : INFINITY;
    free(own);
    double scale = fmax(ns_norm2(q, n), fmax(norm_Mv, norm_Hr));
    return scale > sqrt(DBL_EPSILON) ? s / scale : s;
}

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
    double e_eq = ns_global_equilibrium_error(p->M, p->H, p->q, v, r, n, m, work);
    if (!isfinite(e_eq)) return INFINITY;

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
