/* rfc_phi.c — the two residual functions of one rolling contact whose
 * zeros are the rolling law, with their generalized Jacobians A = ∂Φ/∂r
 * and B = ∂Φ/∂u (d×d, column-major: for u = W r + q the Newton matrix is
 * A + B W), docs/rolling.md §4.
 *
 * Natural map (De Saxcé): Φ = r − P_K(r − ρ û(u)); with JP the Jacobian of
 * the projection at r − ρû and G = dû/du (rfc_cone.c),
 *     A = I − JP,   B = ρ JP G.
 *
 * Alart–Curnier. With ρ > 0 and
 * a = r_N − ρ u_N, a⁺ = max(a, 0):
 *     Φ_N = r_N − a⁺
 *     Φ_T = r_T − P_D(μ a⁺)(r_T − ρ u_T)
 *     Φ_R = r_R − P_D(μr a⁺)(r_R − ρ u_R)
 *     Φ_P = r_P − P_D(μp a⁺)(r_P − ρ u_P)   (d = 6: pivoting)
 * (P_D(ρ): projection on the disc of that radius). Φ = 0 is the rolling
 * law: complementarity in the normal direction, and in each of the sliding
 * and rolling parts a force inside its disc of radius μ r_N (μr r_N) that
 * opposes the motion when there is one. Φ is semismooth; with
 * y = r_T − ρu_T, s = y/‖y‖ and R = μ a⁺ outside the disc,
 *     ∂Φ_T/∂r_T = I − (R/‖y‖)(I − s sᵀ),  ∂Φ_T/∂u_T = ρ (R/‖y‖)(I − s sᵀ),
 *     ∂Φ_T/∂r_N = −μ s,  ∂Φ_T/∂u_N = μρ s   (a > 0),
 * and ∂Φ_T/∂u_T = ρI inside it (Φ_T = ρ u_T); the rolling part likewise. */
#include "rfc/rfc_internal.h"
#include <math.h>
#include <string.h>

double ns_rfc_ac(int d, double mu, double mur, double mup, double rho, const double *r,
                 const double *u, double *F, double *A, double *B)
{
    int off[RFC_PMAX], sz[RFC_PMAX];
    const int np = ns_rfc_parts(d, off, sz);
    if (A) { memset(A, 0, (size_t)d * d * sizeof *A); memset(B, 0, (size_t)d * d * sizeof *B); }
    double a = r[0] - rho * u[0], ap = a > 0 ? a : 0.0;
    F[0] = r[0] - ap;
    if (A) {
        if (a > 0) B[0] = rho;
        else A[0] = 1.0;
    }
    const double mus[RFC_PMAX] = { mu, mur, mup };
    for (int p = 0; p < np; p++) {
        const int o = off[p], h = sz[p];
        double y[2], ny = 0.0;
        for (int k = 0; k < h; k++) { y[k] = r[o + k] - rho * u[o + k]; ny += y[k] * y[k]; }
        ny = sqrt(ny);
        const double R = mus[p] * ap;
        if (ny <= R) {   /* inside the disc: Φ = ρ u */
            for (int k = 0; k < h; k++) {
                F[o + k] = rho * u[o + k];
                if (B) B[(o + k) * (d + 1)] = rho;
            }
            continue;
        }
        double s[2] = { 0, 0 };
        if (ny > 0) for (int k = 0; k < h; k++) s[k] = y[k] / ny;
        for (int k = 0; k < h; k++) F[o + k] = r[o + k] - R * s[k];
        if (!A) continue;
        const double c = ny > 0 ? R / ny : 0.0;
        for (int i = 0; i < h; i++) {
            for (int j = 0; j < h; j++) {
                double P = (i == j) - s[i] * s[j];
                A[(o + i) + (o + j) * d] = (i == j) - c * P;
                B[(o + i) + (o + j) * d] = rho * c * P;
            }
            if (a > 0) {
                A[(o + i) + 0 * d] = -mus[p] * s[i];
                B[(o + i) + 0 * d] = mus[p] * rho * s[i];
            }
        }
    }
    double n2 = 0.0;
    for (int i = 0; i < d; i++) n2 += F[i] * F[i];
    return isfinite(n2) ? sqrt(n2) : INFINITY;
}

double ns_rfc_nm(int d, double mu, double mur, double mup, double rho, const double *r,
                 const double *u, double *F, double *A, double *B)
{
    double uh[RFC_DMAX], y[RFC_DMAX], p[RFC_DMAX], G[RFC_DMAX * RFC_DMAX], JP[RFC_DMAX * RFC_DMAX];
    ns_rfc_modified_velocity(d, mu, mur, mup, u, uh, A ? G : NULL);
    for (int i = 0; i < d; i++) { y[i] = r[i] - rho * uh[i]; p[i] = y[i]; }
    ns_rfc_project_pivot(d, mu, mur, mup, p);
    double n2 = 0.0;
    for (int i = 0; i < d; i++) { F[i] = r[i] - p[i]; n2 += F[i] * F[i]; }
    if (A) {
        ns_rfc_project_jacobian(d, mu, mur, mup, y, JP);
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++) {
                double s = 0.0;
                for (int k = 0; k < d; k++) s += JP[i + k * d] * G[k + j * d];
                A[i + j * d] = (i == j) - JP[i + j * d];
                B[i + j * d] = rho * s;
            }
    }
    return isfinite(n2) ? sqrt(n2) : INFINITY;
}
