/* rfc_cone.c — the rolling cone of one contact (docs/rolling.md §2):
 *     K = { x = (x_N, x_T, x_R) : ‖x_T‖ ≤ μ x_N,  ‖x_R‖ ≤ μr x_N },
 * its projection, the Jacobian of the projection, and the modified
 * velocity û = u + (μ‖u_T‖ + μr‖u_R‖) e_N.
 *
 * Projection. For a fixed normal value n ≥ 0 the nearest point of K keeps
 * the directions of x_T and x_R and clips their lengths t, m to μn and
 * μr n, so P_K(x) = (n*, x_T min(1, μn* / t), x_R min(1, μr n* / m)) where n*
 * minimises ½(n − x_N)² + ½(t − μn)₊² + ½(m − μr n)₊² over n ≥ 0. That
 * function is convex and piecewise quadratic; its derivative
 *     g(n) = n − x_N − μ(t − μn)₊ − μr(m − μr n)₊
 * is increasing and piecewise linear with breakpoints t/μ and m/μr. If
 * g(0) ≥ 0 (x in the polar cone, μt + μr m ≤ −x_N) then n* = 0 and
 * P_K(x) = 0; otherwise the piece where g changes sign is found by
 * evaluating g at the sorted breakpoints, and n* solves g = 0 there:
 *     n* = (x_N + Σ_{k active} μ_k ℓ_k) / (1 + Σ_{k active} μ_k²)
 * (active: the parts still clipped at n*, ℓ_k their lengths). */
#include "rfc/rfc_internal.h"
#include <math.h>
#include <string.h>

/* Lengths of the sliding and rolling parts of x. */
static void part_norms(int dim, const double *x, double *t, double *m)
{
    if (dim == 5) { *t = hypot(x[1], x[2]); *m = hypot(x[3], x[4]); }
    else { *t = fabs(x[1]); *m = fabs(x[2]); }
}

/* g(n) above. */
static double gfun(double n, double a, double mu, double t, double mur, double m)
{
    return n - a - mu * fmax(t - mu * n, 0.0) - mur * fmax(m - mur * n, 0.0);
}

/* n* for a point outside the polar cone, and which parts are active. */
static double normal_root(double a, double mu, double t, double mur, double m,
                          int *actT, int *actR)
{
    double b[2];
    int nb = 0;
    if (mu > 0 && t > 0) b[nb++] = t / mu;
    if (mur > 0 && m > 0) b[nb++] = m / mur;
    if (nb == 2 && b[0] > b[1]) { double s = b[0]; b[0] = b[1]; b[1] = s; }
    /* the root lies before the first breakpoint where g ≥ 0 */
    double lo_bound = 0.0;
    for (int k = 0; k <= nb; k++) {
        if (k < nb && gfun(b[k], a, mu, t, mur, m) < 0) { lo_bound = b[k]; continue; }
        /* root in [lo_bound, b[k]] (or [lo_bound, ∞)): active parts are
         * those whose breakpoint lies beyond lo_bound */
        int aT = mu > 0 && t > 0 && t / mu > lo_bound;
        int aR = mur > 0 && m > 0 && m / mur > lo_bound;
        double num = a, den = 1.0;
        if (aT) { num += mu * t; den += mu * mu; }
        if (aR) { num += mur * m; den += mur * mur; }
        *actT = aT;
        *actR = aR;
        double n = num / den;
        return n > 0 ? n : 0.0;
    }
    *actT = *actR = 0;   /* not reached */
    return a > 0 ? a : 0.0;
}

int ns_rfc_project(int dim, double mu, double mu_r, double *x)
{
    const int h = (dim - 1) / 2;   /* components per part */
    double t, m;
    part_norms(dim, x, &t, &m);
    if (mu * t + mu_r * m <= -x[0]) {
        for (int k = 0; k < dim; k++) x[k] = 0.0;
        return 0;
    }
    if (t <= mu * x[0] && m <= mu_r * x[0]) return 1;
    int aT, aR;
    double n = normal_root(x[0], mu, t, mu_r, m, &aT, &aR);
    x[0] = n;
    double cT = t > 0 ? fmin(1.0, mu * n / t) : 0.0;
    double cR = m > 0 ? fmin(1.0, mu_r * n / m) : 0.0;
    for (int k = 0; k < h; k++) { x[1 + k] *= cT; x[1 + h + k] *= cR; }
    return 2;
}

void ns_rfc_project_jacobian(int dim, double mu, double mu_r, const double *x, double *J)
{
    const int d = dim, h = (dim - 1) / 2;
    memset(J, 0, (size_t)d * d * sizeof *J);
    double t, m;
    part_norms(dim, x, &t, &m);
    if (mu * t + mu_r * m <= -x[0]) return;              /* polar: P = 0 */
    if (t <= mu * x[0] && m <= mu_r * x[0]) {            /* inside: P = id */
        for (int k = 0; k < d; k++) J[k + k * d] = 1.0;
        return;
    }
    int act[2];
    double n = normal_root(x[0], mu, t, mu_r, m, &act[0], &act[1]);
    const double mus[2] = { mu, mu_r }, len[2] = { t, m };
    double den = 1.0;
    for (int p = 0; p < 2; p++) if (act[p]) den += mus[p] * mus[p];
    /* dn/dx: row 0 */
    double dn[RFC_DMAX] = { 0 };
    dn[0] = 1.0 / den;
    for (int p = 0; p < 2; p++)
        if (act[p])
            for (int k = 0; k < h; k++) dn[1 + p * h + k] = mus[p] * x[1 + p * h + k] / len[p] / den;
    for (int c = 0; c < d; c++) J[0 + c * d] = dn[c];
    for (int p = 0; p < 2; p++) {
        const int o = 1 + p * h;
        if (act[p]) {   /* x'_p = μ_p n s_p */
            for (int i = 0; i < h; i++) {
                double si = x[o + i] / len[p];
                for (int c = 0; c < d; c++) J[o + i + c * d] = mus[p] * si * dn[c];
                for (int j = 0; j < h; j++) {
                    double sj = x[o + j] / len[p];
                    J[o + i + (o + j) * d] += mus[p] * n / len[p] * ((i == j) - si * sj);
                }
            }
        } else if (mus[p] > 0) {   /* x'_p = x_p */
            for (int i = 0; i < h; i++) J[o + i + (o + i) * d] = 1.0;
        }   /* μ_p = 0: x'_p = 0 */
    }
}

void ns_rfc_modified_velocity(int dim, double mu, double mu_r, const double *u,
                              double *uhat, double *G)
{
    const int d = dim, h = (dim - 1) / 2;
    double t, m;
    part_norms(dim, u, &t, &m);
    for (int k = 0; k < d; k++) uhat[k] = u[k];
    uhat[0] += mu * t + mu_r * m;
    if (!G) return;
    memset(G, 0, (size_t)d * d * sizeof *G);
    for (int k = 0; k < d; k++) G[k + k * d] = 1.0;
    for (int k = 0; k < h; k++) {
        if (t > 0) G[0 + (1 + k) * d] += mu * u[1 + k] / t;
        if (m > 0) G[0 + (1 + h + k) * d] += mu_r * u[1 + h + k] / m;
    }
}

double ns_rfc_contact_error_sq(int dim, double mu, double mu_r, const double *r,
                               const double *u)
{
    if ((dim != 3 && dim != 5) || !r || !u || !isfinite(mu) || !isfinite(mu_r))
        return INFINITY;
    double uh[RFC_DMAX], x[RFC_DMAX];
    for (int k = 0; k < dim; k++)
        if (!isfinite(r[k]) || !isfinite(u[k])) return INFINITY;
    ns_rfc_modified_velocity(dim, mu, mu_r, u, uh, NULL);
    for (int k = 0; k < dim; k++) x[k] = r[k] - uh[k];
    ns_rfc_project(dim, mu, mu_r, x);
    double s = 0.0;
    for (int k = 0; k < dim; k++) s += (r[k] - x[k]) * (r[k] - x[k]);
    return isfinite(s) ? s : INFINITY;
}
