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
 *      root); its partials by central differences (0 on the kink ‖u_T‖ = 0). μ = 0 uses ac.
 * Each Φ vanishes exactly at the solutions of the contact law. */
#include "fc3d/fc3d_local.h"
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
    double ny = d == 3 ? hypot(y[0], y[1]) : fabs(y[0]);
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
    double nut = d == 3 ? hypot(u[1], u[2]) : fabs(u[1]);
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

/* Φ_FB in the scaled coordinates (see the header comment). */
static void fb_value(int d, double mu, const double *r, const double *u, double *F)
{
    double nut = d == 3 ? hypot(u[1], u[2]) : fabs(u[1]);
    double x[3], y[3], w[3];
    if (mu <= 1.0) {
        x[0] = mu * r[0];
        y[0] = u[0] + mu * nut;
        for (int i = 1; i < d; i++) { x[i] = r[i]; y[i] = mu * u[i]; }
    } else { /* same cones divided by μ: x = (r_N, r_T/μ), y = (û_N/μ, û_T) */
        x[0] = r[0];
        y[0] = (u[0] + mu * nut) / mu;
        for (int i = 1; i < d; i++) { x[i] = r[i] / mu; y[i] = u[i]; }
    }
    double xx = 0, yy = 0;
    for (int i = 0; i < d; i++) { xx += x[i] * x[i]; yy += y[i] * y[i]; }
    w[0] = xx + yy;
    for (int i = 1; i < d; i++) w[i] = 2.0 * (x[0] * x[i] + y[0] * y[i]);
    double nw = d == 3 ? hypot(w[1], w[2]) : fabs(w[1]);
    double l1 = fmax(w[0] - nw, 0.0), l2 = fmax(w[0] + nw, 0.0);
    double s1 = sqrt(l1), s2 = sqrt(l2);
    double sq[3];
    sq[0] = 0.5 * (s1 + s2);
    for (int i = 1; i < d; i++) sq[i] = nw > 0 ? 0.5 * (s2 - s1) * w[i] / nw : 0.0;
    for (int i = 0; i < d; i++) F[i] = x[i] + y[i] - sq[i];
}

void ns_fc_phi_fb(const ns_fc_contact *c, const double *r, const double *u,
                  double *F, double *A, double *B)
{
    const int d = c->dim;
    if (!(c->mu > 0)) { ns_fc_phi_ac(c, r, u, F, A, B); return; }
    fb_value(d, c->mu, r, u, F);
    if (!A) return;
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
