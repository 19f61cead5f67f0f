/* fc3d_phi.c — semismooth residuals of the Coulomb law of one contact
 * (d = 2 or 3), with partial Jacobians A = ∂Φ/∂r, B = ∂Φ/∂u:
 *
 *  Alart–Curnier (ac):  s = r_N − ρ_N u_N,  R = μ max(0, s),
 *      Φ_N = r_N − max(0, s),   Φ_T = r_T − P_B(0,R)(r_T − ρ_T u_T).
 *  natural map (nm):    Φ = r − P_K(r − ρ û),  û = u + μ‖u_T‖ e_N,
 *                       ρ = ρ_N / max(1, μ).
 *  Fischer–Burmeister (fb), on the second-order cone L = {‖x_T‖ ≤ x_0}:
 *      x = (μ r_N, r_T) ∈ L,  y = (û_N, μ û_T) ∈ L*,  xᵀy = μ rᵀû
 *      (μ > 1: x = (r_N, r_T/μ), y = (û_N/μ, û_T), xᵀy = rᵀû/μ),
 *      Φ = x + y − (x∘x + y∘y)^{1/2}  (Jordan product, spectral square
 *      root); its partials analytic where (x∘x + y∘y)^{1/2} is interior
 *      to L (I − L_z⁻¹L_x, I − L_z⁻¹L_y, L the arrow matrices), the element
 *      (1 − 1/√2)I at x = y = 0, central differences elsewhere on the
 *      boundary; the kink ‖u_T‖ = 0 takes the element g = 0. μ = 0 uses ac.
 * Each Φ vanishes exactly at the solutions of the contact law. */
#include "fc/fc3d_local.h"
#include <math.h>
#include <string.h>

void ns_fc_phi_ac(const ns_fc_contact *c, const double *r, const double *u,
                  double *F, double *A, double *B)
{
    const int d = c->dim;
    const double rn = c->rho_n, rt = c->rho_t, mu = c->mu;
    if (A) memset(A, 0, (size_t)(d * d) * sizeof(double));
    if (B) memset(B, 0, (size_t)(d * d) * sizeof(double));
    double s = r[0] - rn * u[0];
    double dRr = 0.0, dRu = 0.0; /* ∂R/∂r_N, ∂R/∂u_N */
    if (s > 0) {
        F[0] = rn * u[0];
        if (B) B[0] = rn;
        dRr = mu;
        dRu = -mu * rn;
    } else {
        F[0] = r[0];
        if (A) A[0] = 1.0;
    }
    double R = mu * (s > 0 ? s : 0.0);
    double y[2] = { r[1] - rt * u[1], d == 3 ? r[2] - rt * u[2] : 0.0 };
    double ny = d == 3 ? ns_fc_norm_t(y[0], y[1]) : fabs(y[0]);
    if (ny <= R) {
        for (int i = 1; i < d; i++) {
            F[i] = rt * u[i];
            if (B) B[i + i * d] = rt;
        }
        return;
    }
    double yh[2] = { y[0] / ny, y[1] / ny }, f = R / ny;
    for (int i = 1; i < d; i++) {
        F[i] = r[i] - R * yh[i - 1];
        if (!A) continue;
        /* A_T = [0 I] − ŷ ∂R/∂rᵀ − f (I − ŷŷᵀ)[0 I]; B_T = −ŷ ∂R/∂uᵀ + ρ_T f (I − ŷŷᵀ)[0 I] */
        A[i + 0 * d] = -yh[i - 1] * dRr;
        B[i + 0 * d] = -yh[i - 1] * dRu;
        for (int j = 1; j < d; j++) {
            double Pij = (i == j ? 1.0 : 0.0) - yh[i - 1] * yh[j - 1];
            A[i + j * d] = (i == j ? 1.0 : 0.0) - f * Pij;
            B[i + j * d] = rt * f * Pij;
        }
    }
}

void ns_fc_phi_nm(const ns_fc_contact *c, const double *r, const double *u,
                  double *F, double *A, double *B)
{
    const int d = c->dim;
    const double rho = c->rho_n / fmax(1.0, c->mu), mu = c->mu; /* μ‖u_T‖ kept O(1) */
    double nut = d == 3 ? ns_fc_norm_t(u[1], u[2]) : fabs(u[1]);
    double z[3], JP[9];
    z[0] = r[0] - rho * (u[0] + mu * nut);
    for (int i = 1; i < d; i++) z[i] = r[i] - rho * u[i];
    ns_fc_project_cone(d, mu, z, A ? JP : NULL);
    for (int i = 0; i < d; i++) F[i] = r[i] - z[i];
    if (!A) return;
    /* dû/du = I + μ e_N gᵀ, g = (0, u_T/‖u_T‖) */
    double g[3] = { 0.0, nut > 0 ? u[1] / nut : 0.0, d == 3 && nut > 0 ? u[2] / nut : 0.0 };
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++) {
            A[i + j * d] = (i == j ? 1.0 : 0.0) - JP[i + j * d];
            B[i + j * d] = rho * (JP[i + j * d] + JP[i + 0 * d] * mu * g[j]);
        }
}

/* The scaled coordinates of the header: x = Dx r, y = y(u), with
 * Dx = diag(μ, 1, 1) and ∂y/∂u = [e_N + μ g; μ e_T] (μ ≤ 1), or
 * Dx = diag(1, 1/μ, 1/μ) and ∂y/∂u = [e_N/μ + g; e_T] (μ > 1),
 * g = (0, u_T/‖u_T‖) (0 on the kink u_T = 0). Dy is filled when not NULL. */
static void fb_scaled(int d, double mu, const double *r, const double *u,
                      double *x, double *y, double *Dx, double *Dy)
{
    double nut = d == 3 ? ns_fc_norm_t(u[1], u[2]) : fabs(u[1]);
    double g[3] = { 0.0, nut > 0 ? u[1] / nut : 0.0, d == 3 && nut > 0 ? u[2] / nut : 0.0 };
    const double sx0 = mu <= 1.0 ? mu : 1.0, sxt = mu <= 1.0 ? 1.0 : 1.0 / mu;
    const double sy0 = mu <= 1.0 ? 1.0 : 1.0 / mu, syt = mu <= 1.0 ? mu : 1.0;
    x[0] = sx0 * r[0];
    y[0] = sy0 * (u[0] + mu * nut);
    for (int i = 1; i < d; i++) { x[i] = sxt * r[i]; y[i] = syt * u[i]; }
    if (!Dy) return;
    for (int k = 0; k < d * d; k++) { Dx[k] = 0.0; Dy[k] = 0.0; }
    Dx[0] = sx0;
    Dy[0] = sy0;
    for (int j = 1; j < d; j++) Dy[0 + j * d] = sy0 * mu * g[j];
    for (int i = 1; i < d; i++) { Dx[i + i * d] = sxt; Dy[i + i * d] = syt; }
}

/* z = (x∘x + y∘y)^{1/2} (Jordan product, spectral square root); returns
 * the spectral values s1 ≤ s2 of z in s[0], s[1]. */
static void fb_sqrt(int d, const double *x, const double *y, double *z, double *s)
{
    double xx = 0, yy = 0, w[3];
    for (int i = 0; i < d; i++) { xx += x[i] * x[i]; yy += y[i] * y[i]; }
    w[0] = xx + yy;
    for (int i = 1; i < d; i++) w[i] = 2.0 * (x[0] * x[i] + y[0] * y[i]);
    double nw = d == 3 ? ns_fc_norm_t(w[1], w[2]) : fabs(w[1]);
    double s1 = sqrt(fmax(w[0] - nw, 0.0)), s2 = sqrt(fmax(w[0] + nw, 0.0));
    z[0] = 0.5 * (s1 + s2);
    for (int i = 1; i < d; i++) z[i] = nw > 0 ? 0.5 * (s2 - s1) * w[i] / nw : 0.0;
    s[0] = s1;
    s[1] = s2;
}

/* Φ_FB in the scaled coordinates (see the header comment). */
static void fb_value(int d, double mu, const double *r, const double *u, double *F)
{
    double x[3], y[3], z[3], s[2];
    fb_scaled(d, mu, r, u, x, y, NULL, NULL);
    fb_sqrt(d, x, y, z, s);
    for (int i = 0; i < d; i++) F[i] = x[i] + y[i] - z[i];
}

/* Arrow matrix L_v = [v0 v̄ᵀ; v̄ v0 I] (column-major d×d). */
static void arrow(int d, const double *v, double *L)
{
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++)
            L[i + j * d] = i == j ? v[0] : i == 0 ? v[j] : j == 0 ? v[i] : 0.0;
}

void ns_fc_phi_fb(const ns_fc_contact *c, const double *r, const double *u,
                  double *F, double *A, double *B)
{
    const int d = c->dim;
    if (!(c->mu > 0)) { ns_fc_phi_ac(c, r, u, F, A, B); return; }
    double x[3], y[3], z[3], s[2], Dx[9], Dy[9];
    fb_scaled(d, c->mu, r, u, x, y, Dx, Dy);
    fb_sqrt(d, x, y, z, s);
    for (int i = 0; i < d; i++) F[i] = x[i] + y[i] - z[i];
    if (!A) return;
    /* z∘z = x∘x + y∘y gives L_z dz = L_x dx + L_y dy, so where z is interior
     * to the cone (s1 > 0, L_z invertible)
     *     ∂Φ/∂x = I − L_z⁻¹ L_x,   ∂Φ/∂y = I − L_z⁻¹ L_y,
     * and A = ∂Φ/∂x Dx, B = ∂Φ/∂y ∂y/∂u. */
    if (s[0] > 1e-10 * s[1]) {
        double Lz[9], Lx[9], Ly[9], Mx[9], My[9];
        arrow(d, z, Lz);
        arrow(d, x, Lx);
        arrow(d, y, Ly);
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++) {
                double a = 0.0, b = 0.0;
                for (int l = 0; l < d; l++) {
                    a += Lx[i + l * d] * Dx[l + j * d];
                    b += Ly[i + l * d] * Dy[l + j * d];
                }
                Mx[i + j * d] = a;
                My[i + j * d] = b;
            }
        int bad = 0;
        for (int j = 0; j < d && !bad; j++) {
            double cx[3], cy[3];
            bad = ns_small_solve(d, Lz, Mx + j * d, cx) || ns_small_solve(d, Lz, My + j * d, cy);
            for (int i = 0; i < d && !bad; i++) {
                A[i + j * d] = Dx[i + j * d] - cx[i];
                B[i + j * d] = Dy[i + j * d] - cy[i];
            }
        }
        if (!bad) return;
    }
    if (s[1] <= 0.0) { /* x = y = 0: the element (1 − 1/√2)(Dx, ∂y/∂u) */
        const double k = 1.0 - sqrt(0.5);
        for (int i = 0; i < d * d; i++) { A[i] = k * Dx[i]; B[i] = k * Dy[i]; }
        return;
    }
    /* z on the boundary of the cone (s1 = 0 < s2): central differences, an
     * approximation of an element of the generalized Jacobian there. */
    double rp[3], up[3], Fp[3], Fm[3];
    for (int j = 0; j < d; j++) {
        memcpy(rp, r, (size_t)d * sizeof(double));
        double h = 1e-7 * fmax(1.0, fabs(r[j]));
        rp[j] = r[j] + h;
        fb_value(d, c->mu, rp, u, Fp);
        rp[j] = r[j] - h;
        fb_value(d, c->mu, rp, u, Fm);
        for (int i = 0; i < d; i++) A[i + j * d] = (Fp[i] - Fm[i]) / (2 * h);
        memcpy(up, u, (size_t)d * sizeof(double));
        h = 1e-7 * fmax(1.0, fabs(u[j]));
        up[j] = u[j] + h;
        fb_value(d, c->mu, r, up, Fp);
        up[j] = u[j] - h;
        fb_value(d, c->mu, r, up, Fm);
        for (int i = 0; i < d; i++) B[i + j * d] = (Fp[i] - Fm[i]) / (2 * h);
    }
}
