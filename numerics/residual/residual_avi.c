/* residual_avi.c — natural-map error of an affine variational inequality
 * (our definition; Siconos 4.4 has no AVI error function: docs/errors.md §AVI). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AVI_MAX_SWEEPS 10000

/* y ← P_K(x) for K = { y : H y ≤ h } (Hd: H dense, nh × n, column-major),
 * by Hildreth's dual coordinate ascent: λ ≥ 0, y = x − Hᵀλ; for each row i,
 * λ_i ← max(0, λ_i + (a_iᵀy − h_i)/‖a_i‖²), y ← y − Δλ_i a_i; stops when a
 * sweep moves y by at most 1e-15·(1 + ‖x‖∞) in every step, or after
 * AVI_MAX_SWEEPS sweeps. lam: nh doubles of scratch. */
static void project_polyhedron(const double *Hd, const double *h, ns_int nh, ns_int n,
                               const double *x, double *y, double *lam)
{
    double xinf = 0.0;
    for (ns_int j = 0; j < n; j++) xinf = fmax(xinf, fabs(x[j]));
    const double tol = 1e-15 * (1.0 + xinf);
    memcpy(y, x, (size_t)n * sizeof(double));
    for (ns_int i = 0; i < nh; i++) lam[i] = 0.0;
    for (int sweep = 0; sweep < AVI_MAX_SWEEPS; sweep++) {
        double moved = 0.0;
        for (ns_int i = 0; i < nh; i++) {
            double ay = 0.0, aa = 0.0;
            for (ns_int j = 0; j < n; j++) {
                double a = Hd[i + (size_t)j * nh];
                ay += a * y[j];
                aa += a * a;
            }
            if (aa == 0.0) continue;
            double li = fmax(0.0, lam[i] + (ay - h[i]) / aa);
            double d = li - lam[i];
            if (d == 0.0) continue;
            lam[i] = li;
            for (ns_int j = 0; j < n; j++) y[j] -= d * Hd[i + (size_t)j * nh];
            moved = fmax(moved, fabs(d) * sqrt(aa));
        }
        if (moved <= tol) break;
    }
}

/* w ← M z + q;  e = ‖z − P_K(z − w)‖₂ / (1 + ‖q‖₂) with K the AVI's set
 * (for a polyhedron, plus the violation ‖max(0, Hz − h)‖ of z ∈ K inside
 * the norm):
 * the box [lb, ub] (clamp), ℝⁿ when no set is given (then e = ‖w‖/(1+‖q‖)),
 * or the polyhedron {H y ≤ h} (projection computed iteratively, see
 * project_polyhedron; this case allocates n + nh + nh·n doubles).
 * +INFINITY on non-finite z, w, q, or on allocation failure. */
double ns_avi_error(const ns_avi *p, const double *z, double *w)
{
    if (!p || !z || !w) return INFINITY;
    const ns_int n = p->n;
    if (n == 0) return 0.0;
    memcpy(w, p->q, (size_t)n * sizeof(double));
    ns_matrix_gemv(1.0, p->M, z, 1.0, w);
    if (!ns_all_finite(z, (size_t)n) || !ns_all_finite(w, (size_t)n) ||
        !ns_all_finite(p->q, (size_t)n))
        return INFINITY;
    double s = 0.0;
    if (p->H) {
        const ns_int nh = p->H->rows;
        ns_matrix *Hd = ns_matrix_to_dense(p->H);
        double *x = ns_malloc((size_t)n, sizeof(double));
        double *y = ns_malloc((size_t)n, sizeof(double));
        double *lam = ns_malloc((size_t)(nh > 0 ? nh : 1), sizeof(double));
        if (!Hd || !x || !y || !lam || p->H->cols != n) {
            ns_matrix_free(Hd); free(x); free(y); free(lam);
            return INFINITY;
        }
        for (ns_int i = 0; i < n; i++) x[i] = z[i] - w[i];
        project_polyhedron(Hd->dense, p->h, nh, n, x, y, lam);
        for (ns_int i = 0; i < n; i++) {
            double d = z[i] - y[i];
            s += d * d;
        }
        /* z itself must be in K: the iterative projection cannot tell an
         * empty K (it never converges, and its last iterate may sit near
         * z), so the rows z violates are added, max(0, (Hz − h)_i)² */
        for (ns_int i = 0; i < nh; i++) {
            double r = -p->h[i];
            for (ns_int j = 0; j < n; j++) r += Hd->dense[i + (size_t)j * nh] * z[j];
            if (r > 0.0) s += r * r;
        }
        ns_matrix_free(Hd); free(x); free(y); free(lam);
    } else {
        for (ns_int i = 0; i < n; i++) {
            double y = z[i] - w[i];
            if (p->lb && y < p->lb[i]) y = p->lb[i];
            if (p->ub && y > p->ub[i]) y = p->ub[i];
            double d = z[i] - y;
            s += d * d;
        }
    }
    double e = sqrt(s) / (1.0 + ns_norm2(p->q, (size_t)n));
    return isfinite(e) ? e : INFINITY;
}
