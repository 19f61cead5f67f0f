/* residual_fc.c — error of a local friction-contact problem, 2D and 3D
 * (Siconos 4.4's fc2d/fc3d_compute_error; docs/errors.md §FC). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include "fc/fc3d_internal.h"
#include <float.h>
#include <math.h>
#include <string.h>

/* x ← P_K(x), K = { (x_N, x_T) : ‖x_T‖ ≤ μ x_N } the Coulomb cone (d = 2, 3;
 * x_T has d−1 components):
 *   μ‖x_T‖ ≤ −x_N      (x in the polar cone)   → 0,
 *   ‖x_T‖ ≤ μ x_N      (x in K)                → x,
 *   otherwise  a = (x_N + μ‖x_T‖)/(1 + μ²)     → (a, μ a x_T/‖x_T‖).
 * The polar test comes first so that μ = 0 gives K = {x_T = 0, x_N ≥ 0}. */
static void project_on_cone(int dim, double mu, double *x)
{
    double nt = dim == 3 ? ns_fc_norm_t(x[1], x[2]) : fabs(x[1]);
    if (mu * nt <= -x[0]) {
        x[0] = x[1] = 0.0;   /* (not a loop: the compiler made it a memset call) */
        if (dim == 3) x[2] = 0.0;
    } else if (nt <= mu * x[0]) {
        return;
    } else {
        double a = (x[0] + mu * nt) / (1.0 + mu * mu);
        double s = mu * a / nt;   /* nt > 0 here */
        x[0] = a;
        for (int k = 1; k < dim; k++) x[k] *= s;
    }
}

/* ns_fc_contact_error_sq on arguments already checked (dim 2 or 3, r, u
 * finite): ns_fc_error checks r and u whole, once. */
static inline double contact_error_sq(int dim, double mu, const double *r, const double *u)
{
    if (!isfinite(mu)) return INFINITY;
    double ut = dim == 3 ? ns_fc_norm_t(u[1], u[2]) : fabs(u[1]);
    double x[3] = { 0.0, 0.0, 0.0 };
    x[0] = r[0] - (u[0] + mu * ut);
    for (int k = 1; k < dim; k++) x[k] = r[k] - u[k];
    project_on_cone(dim, mu, x);
    double s = 0.0;
    for (int k = 0; k < dim; k++) {
        double d = r[k] - x[k];
        s += d * d;
    }
    return isfinite(s) ? s : INFINITY;
}

/* For one contact: û = u + μ‖u_T‖e_N, returns ‖r − P_K(r − û)‖₂²
 * (+INFINITY if dim ∉ {2,3} or a value of r, u, μ is not finite). */
double ns_fc_contact_error_sq(int dim, double mu, const double *r, const double *u)
{
    if ((dim != 2 && dim != 3) || !r || !u || !isfinite(mu)) return INFINITY;
    if (!ns_all_finite(r, (size_t)dim) || !ns_all_finite(u, (size_t)dim)) return INFINITY;
    return contact_error_sq(dim, mu, r, u);
}

/* u ← W r + q;  absolute error a = sqrt(Σ_α ‖r_α − P_Kα(r_α − û_α)‖²);
 *   NS_FC_NORM_SICONOS: e = a / max(‖q‖, ‖r‖, ‖u‖),
 *   NS_FC_NORM_Q:       e = a / ‖q‖,
 * the division skipped when the divisor is ≤ DBL_EPSILON.
 * +INFINITY on non-finite r, u or q. */
double ns_fc_error(const ns_fc *p, const double *r, double *u, ns_fc_norm norm)
{
    if (!p || !r || !u || (p->dim != 2 && p->dim != 3)) return INFINITY;
    const int d = p->dim;
    const size_t m = (size_t)d * (size_t)p->nc;
    if (m == 0) return 0.0;
    memcpy(u, p->q, m * sizeof(double));
    size_t nz = 0;   /* r = 0 (a cold start's first check): u = q, no product */
    while (nz < m && r[nz] == 0.0) nz++;
    if (nz < m) ns_matrix_gemv(1.0, p->W, r, 1.0, u);
    return ns_fc_error_of(p, r, u, norm);
}

/* The error of ns_fc_error for a u = W r + q the caller already has. */
double ns_fc_error_of(const ns_fc *p, const double *r, const double *u, ns_fc_norm norm)
{
    const int d = p->dim;
    const size_t m = (size_t)d * (size_t)p->nc;
    if (m <= 64) {
        /* Small problems (where this call is a good part of a solve): the
         * sums of squares of q, r, u in one pass; all three below 1e300
         * means every value is finite and no square overflowed, so the
         * finiteness scans are not needed and the norms are their square
         * roots — what ns_norm2 computes for n ≤ 64, same order, same
         * rounding. (A sum that underflowed gives a norm below 1e-145,
         * which decides nothing next to the DBL_EPSILON threshold.) */
        double sq = 0.0, sr = 0.0, su = 0.0;
        for (size_t i = 0; i < m; i++) {
            sq += p->q[i] * p->q[i];
            sr += r[i] * r[i];
            su += u[i] * u[i];
        }
        if (sq < 1e300 && sr < 1e300 && su < 1e300) {
            double s = 0.0;   /* (dim a constant in each loop: inlined, unrolled) */
            if (d == 2)
                for (ns_int c = 0; c < p->nc; c++)
                    s += contact_error_sq(2, p->mu[c], r + 2 * (size_t)c, u + 2 * (size_t)c);
            else
                for (ns_int c = 0; c < p->nc; c++)
                    s += contact_error_sq(3, p->mu[c], r + 3 * (size_t)c, u + 3 * (size_t)c);
            double e = sqrt(s);
            double big = sq;   /* (no fmax calls: the sums are finite here) */
            if (norm == NS_FC_NORM_SICONOS) {
                if (sr > big) big = sr;
                if (su > big) big = su;
            }
            double scale = sqrt(big);
            if (scale > DBL_EPSILON) e /= scale;
            return isfinite(e) ? e : INFINITY;
        }
    }
    if (!ns_all_finite(r, m) || !ns_all_finite(u, m) || !ns_all_finite(p->q, m))
        return INFINITY;
    double s = 0.0;
    for (ns_int c = 0; c < p->nc; c++)
        s += contact_error_sq(d, p->mu[c], r + (size_t)c * d, u + (size_t)c * d);
    double e = sqrt(s);
    double scale = ns_norm2(p->q, m);
    if (norm == NS_FC_NORM_SICONOS)
        scale = fmax(scale, fmax(ns_norm2(r, m), ns_norm2(u, m)));
    if (scale > DBL_EPSILON) e /= scale;
    return isfinite(e) ? e : INFINITY;
}

/* fmax(a, b) (a NaN argument ignored) without the library call */
static inline double max_num(double a, double b)
{
    return b > a || a != a ? b : a;
}

double ns_fc_velocity_violation(const ns_fc *f, const double *u, ns_int *contact)
{
    ns_int none;
    if (!contact) contact = &none;
    *contact = -1;
    if (!f || !u || (f->dim != 2 && f->dim != 3) || f->nc < 0 || (f->nc > 0 && (!f->q || !f->mu)))
        return INFINITY;
    const int d = f->dim;
    double scale = 0.0, worst = 0.0;
    ns_int m = (ns_int)d * f->nc;
    for (ns_int i = 0; i < m; i++)
        scale = max_num(scale, max_num(fabs(f->q[i]), max_num(fabs(u[i]), fabs(u[i] - f->q[i]))));
    for (ns_int c = 0; c < f->nc; c++) {
        const double *uc = u + (size_t)d * (size_t)c;
        double ut = d == 3 ? ns_fc_norm_t(uc[1], uc[2]) : fabs(uc[1]);
        double un = uc[0] + f->mu[c] * ut;
        if (-un > worst) { worst = -un; *contact = c; }
    }
    return scale > DBL_EPSILON ? worst / scale : worst;   /* absolute below ε, as the errors */
}
