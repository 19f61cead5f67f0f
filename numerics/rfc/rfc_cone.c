/* rfc_cone.c — the rolling cone of one contact (docs/rolling.md §2):
 *     K = { x = (x_N, x_T, x_R[, x_P]) : ‖x_p‖ ≤ c_p x_N for every part p },
 * c = (μ, μr[, μp]) (the pivoting part P only when d = 6), its projection,
 * the Jacobian of the projection, and the modified velocity
 * û = u + Σ_p c_p‖u_p‖ e_N.
 *
 * Projection. For a fixed normal value n ≥ 0 the nearest point of K keeps
 * the directions of the parts and clips their lengths ℓ_p to c_p n, so
 * P_K(x) = (n*, x_p min(1, c_p n* / ℓ_p)) where n* minimises
 * ½(n − x_N)² + Σ_p ½(ℓ_p − c_p n)₊² over n ≥ 0. That function is convex
 * and piecewise quadratic; its derivative
 *     g(n) = n − x_N − Σ_p c_p(ℓ_p − c_p n)₊
 * is increasing and piecewise linear with breakpoints ℓ_p/c_p. If g(0) ≥ 0
 * (x in the polar cone, Σ_p c_p ℓ_p ≤ −x_N) then n* = 0 and P_K(x) = 0;
 * otherwise the piece where g changes sign is found by evaluating g at the
 * sorted breakpoints, and n* solves g = 0 there:
 *     n* = (x_N + Σ_{p active} c_p ℓ_p) / (1 + Σ_{p active} c_p²)
 * (active: the parts still clipped at n*). */
#include "rfc/rfc_internal.h"
#include <math.h>
#include <string.h>

/* Coefficients and lengths of the parts of x; returns their number. */
static int part_info(int dim, double mu, double mur, double mup, const double *x,
                     double c[RFC_PMAX], double len[RFC_PMAX], int off[RFC_PMAX], int sz[RFC_PMAX])
{
    int np = ns_rfc_parts(dim, off, sz);
    c[0] = mu; c[1] = mur; c[2] = mup;
    for (int p = 0; p < np; p++)
        len[p] = sz[p] == 2 ? hypot(x[off[p]], x[off[p] + 1]) : fabs(x[off[p]]);
    return np;
}

/* Where x lies: 0 in the polar cone (P_K(x) = 0), 1 in K (P_K(x) = x),
 * 2 outside both (the projection clips some parts). */
static int cone_side(double xn, int np, const double *c, const double *len)
{
    double polar = 0.0;
    int inside = 1;
    for (int p = 0; p < np; p++) { polar += c[p] * len[p]; inside &= len[p] <= c[p] * xn; }
    return polar <= -xn ? 0 : inside ? 1 : 2;
}

/* g(n) above. */
static double gfun(double n, double a, int np, const double *c, const double *len)
{
    double g = n - a;
    for (int p = 0; p < np; p++) g -= c[p] * fmax(len[p] - c[p] * n, 0.0);
    return g;
}

/* n* for a point outside the polar cone, and which parts are active. */
static double normal_root(double a, int np, const double *c, const double *len, int *act)
{
    double b[RFC_PMAX];
    int nb = 0;
    for (int p = 0; p < np; p++)
        if (c[p] > 0 && len[p] > 0) b[nb++] = len[p] / c[p];
    for (int i = 1; i < nb; i++)   /* insertion sort of ≤ 3 values */
        for (int j = i; j > 0 && b[j - 1] > b[j]; j--) { double t = b[j]; b[j] = b[j - 1]; b[j - 1] = t; }
    /* the root lies before the first breakpoint where g ≥ 0 */
    double lo_bound = 0.0;
    for (int k = 0; k < nb && gfun(b[k], a, np, c, len) < 0; k++) lo_bound = b[k];
    /* active parts: those whose breakpoint lies beyond lo_bound */
    double num = a, den = 1.0;
    for (int p = 0; p < np; p++) {
        act[p] = c[p] > 0 && len[p] > 0 && len[p] / c[p] > lo_bound;
        if (act[p]) { num += c[p] * len[p]; den += c[p] * c[p]; }
    }
    double n = num / den;
    return n > 0 ? n : 0.0;
}

int ns_rfc_project_pivot(int dim, double mu, double mu_r, double mu_p, double *x)
{
    double c[RFC_PMAX], len[RFC_PMAX];
    int off[RFC_PMAX], sz[RFC_PMAX], act[RFC_PMAX];
    int np = part_info(dim, mu, mu_r, mu_p, x, c, len, off, sz);
    int where = cone_side(x[0], np, c, len);
    if (where == 0) {
        for (int k = 0; k < dim; k++) x[k] = 0.0;
        return 0;
    }
    if (where == 1) return 1;
    double n = normal_root(x[0], np, c, len, act);
    x[0] = n;
    for (int p = 0; p < np; p++) {
        double cp = len[p] > 0 ? fmin(1.0, c[p] * n / len[p]) : 0.0;
        for (int k = 0; k < sz[p]; k++) x[off[p] + k] *= cp;
    }
    return 2;
}

int ns_rfc_project(int dim, double mu, double mu_r, double *x)
{
    return ns_rfc_project_pivot(dim, mu, mu_r, 0.0, x);
}

void ns_rfc_project_jacobian(int dim, double mu, double mu_r, double mu_p, const double *x,
                             double *J)
{
    const int d = dim;
    memset(J, 0, (size_t)d * d * sizeof *J);
    double c[RFC_PMAX], len[RFC_PMAX];
    int off[RFC_PMAX], sz[RFC_PMAX], act[RFC_PMAX];
    int np = part_info(dim, mu, mu_r, mu_p, x, c, len, off, sz);
    int where = cone_side(x[0], np, c, len);
    if (where == 0) return;                                /* polar: P = 0 */
    if (where == 1) {                                      /* inside: P = id */
        for (int k = 0; k < d; k++) J[k + k * d] = 1.0;
        return;
    }
    double n = normal_root(x[0], np, c, len, act);
    double den = 1.0;
    for (int p = 0; p < np; p++) if (act[p]) den += c[p] * c[p];
    /* dn/dx: row 0 */
    double dn[RFC_DMAX] = { 0 };
    dn[0] = 1.0 / den;
    for (int p = 0; p < np; p++)
        if (act[p])
            for (int k = 0; k < sz[p]; k++) dn[off[p] + k] = c[p] * x[off[p] + k] / len[p] / den;
    for (int col = 0; col < d; col++) J[0 + col * d] = dn[col];
    for (int p = 0; p < np; p++) {
        const int o = off[p], h = sz[p];
        if (act[p]) {   /* x'_p = c_p n s_p */
            for (int i = 0; i < h; i++) {
                double si = x[o + i] / len[p];
                for (int col = 0; col < d; col++) J[o + i + col * d] = c[p] * si * dn[col];
                for (int j = 0; j < h; j++) {
                    double sj = x[o + j] / len[p];
                    J[o + i + (o + j) * d] += c[p] * n / len[p] * ((i == j) - si * sj);
                }
            }
        } else if (c[p] > 0) {   /* x'_p = x_p */
            for (int i = 0; i < h; i++) J[o + i + (o + i) * d] = 1.0;
        }   /* c_p = 0: x'_p = 0 */
    }
}

void ns_rfc_modified_velocity(int dim, double mu, double mu_r, double mu_p, const double *u,
                              double *uhat, double *G)
{
    const int d = dim;
    double c[RFC_PMAX], len[RFC_PMAX];
    int off[RFC_PMAX], sz[RFC_PMAX];
    int np = part_info(dim, mu, mu_r, mu_p, u, c, len, off, sz);
    for (int k = 0; k < d; k++) uhat[k] = u[k];
    for (int p = 0; p < np; p++) uhat[0] += c[p] * len[p];
    if (!G) return;
    memset(G, 0, (size_t)d * d * sizeof *G);
    for (int k = 0; k < d; k++) G[k + k * d] = 1.0;
    for (int p = 0; p < np; p++)
        if (len[p] > 0)
            for (int k = 0; k < sz[p]; k++) G[0 + (off[p] + k) * d] += c[p] * u[off[p] + k] / len[p];
}

double ns_rfc_contact_error_sq(int dim, double mu, double mu_r, const double *r,
                               const double *u)
{
    return ns_rfc_contact_error_sq_pivot(dim, mu, mu_r, 0.0, r, u);
}

double ns_rfc_contact_error_sq_pivot(int dim, double mu, double mu_r, double mu_p,
                                     const double *r, const double *u)
{
    if ((dim != 3 && dim != 5 && dim != 6) || !r || !u || !isfinite(mu) || !isfinite(mu_r) ||
        !isfinite(mu_p))
        return INFINITY;
    double uh[RFC_DMAX], x[RFC_DMAX];
    for (int k = 0; k < dim; k++)
        if (!isfinite(r[k]) || !isfinite(u[k])) return INFINITY;
    ns_rfc_modified_velocity(dim, mu, mu_r, mu_p, u, uh, NULL);
    for (int k = 0; k < dim; k++) x[k] = r[k] - uh[k];
    ns_rfc_project_pivot(dim, mu, mu_r, mu_p, x);
    double s = 0.0;
    for (int k = 0; k < dim; k++) s += (r[k] - x[k]) * (r[k] - x[k]);
    return isfinite(s) ? s : INFINITY;
}
