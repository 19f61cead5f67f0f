/* fc3d_local_ac3.c — the Alart–Curnier one-contact Newton of
 * fc3d_local_newton.c written out for d = 3 (the NSGS inner loop):
 * same residual (fc3d_phi.c), same Armijo rule (σ = 1e-4, t = 1, ½, …,
 * at most 30 halvings), same exit test (contact error ≤ tol, checked on
 * entry so that a contact the sweep barely moved costs one 3×3 product and
 * one error), but every 3×3 product, the Jacobian rows J = A + B W and the
 * solve (Cramer, Gaussian elimination when the determinant is small next
 * to the rows' norms) are unrolled, the contact error is computed inline
 * (ns_fc_contact_error_sq's formula) and nothing is cleared or copied that
 * the step does not use. Returns 0 when r ends within tol, 1 otherwise (r
 * then holds the best iterate). */
#include "fc/fc3d_local.h"
#include <math.h>
#include <stddef.h>

/* u ← W r + q. */
static inline void wrq(const double *W, const double *q, const double *r, double *u)
{
    u[0] = q[0] + W[0] * r[0] + W[3] * r[1] + W[6] * r[2];
    u[1] = q[1] + W[1] * r[0] + W[4] * r[1] + W[7] * r[2];
    u[2] = q[2] + W[2] * r[0] + W[5] * r[1] + W[8] * r[2];
}

/* ‖r − P_K(r − û)‖², û = u + μ‖u_T‖ e_N (ns_fc_contact_error_sq, d = 3). */
static inline double err_sq(double mu, const double *r, const double *u)
{
    double x0 = r[0] - (u[0] + mu * sqrt(u[1] * u[1] + u[2] * u[2]));
    double x1 = r[1] - u[1], x2 = r[2] - u[2];
    double nt = sqrt(x1 * x1 + x2 * x2);
    if (mu * nt <= -x0) {
        x0 = x1 = x2 = 0.0;
    } else if (!(nt <= mu * x0)) {
        double a = (x0 + mu * nt) / (1.0 + mu * mu), s = mu * a / nt;
        x0 = a; x1 *= s; x2 *= s;
    }
    double d0 = r[0] - x0, d1 = r[1] - x1, d2 = r[2] - x2;
    double e = d0 * d0 + d1 * d1 + d2 * d2;
    return e == e ? e : INFINITY;
}

/* Alart–Curnier residual F at (r, u); with J ≠ NULL also the rows of
 * J = A + B W (row-major here: J[3i + j]). */
static inline void phi_ac3(const ns_fc_contact *c, const double *r, const double *u,
                           double *F, double *J)
{
    const double rn = c->rho_n, rt = c->rho_t, mu = c->mu, *W = c->W;
    double s = r[0] - rn * u[0];
    double dRr = 0.0, dRu = 0.0;
    if (s > 0) {
        F[0] = rn * u[0];
        if (J) { J[0] = rn * W[0]; J[1] = rn * W[3]; J[2] = rn * W[6]; }
        dRr = mu; dRu = -mu * rn;
    } else {
        F[0] = r[0];
        if (J) { J[0] = 1.0; J[1] = 0.0; J[2] = 0.0; }
    }
    double R = s > 0 ? mu * s : 0.0;
    double y1 = r[1] - rt * u[1], y2 = r[2] - rt * u[2];
    double ny = sqrt(y1 * y1 + y2 * y2);
    if (ny <= R) {
        F[1] = rt * u[1]; F[2] = rt * u[2];
        if (J) {
            J[3] = rt * W[1]; J[4] = rt * W[4]; J[5] = rt * W[7];
            J[6] = rt * W[2]; J[7] = rt * W[5]; J[8] = rt * W[8];
        }
        return;
    }
    double h1 = y1 / ny, h2 = y2 / ny, f = R / ny;
    F[1] = r[1] - R * h1; F[2] = r[2] - R * h2;
    if (!J) return;
    /* row i (1, 2): A_i = (−ĥ_i ∂R/∂r_N, e_i − f P_i),  B_i = (−ĥ_i ∂R/∂u_N, ρ_T f P_i),
     * P = I − ĥĥᵀ on the tangential block. */
    double P11 = 1.0 - h1 * h1, P12 = -h1 * h2, P22 = 1.0 - h2 * h2;
    double hv[2] = { h1, h2 }, Pr[2][2] = { { P11, P12 }, { P12, P22 } };
    for (int i = 0; i < 2; i++) {
        double b0 = -hv[i] * dRu, b1 = rt * f * Pr[i][0], b2 = rt * f * Pr[i][1];
        double *Ji = J + 3 * (i + 1);
        Ji[0] = -hv[i] * dRr + b0 * W[0] + b1 * W[1] + b2 * W[2];
        Ji[1] = (i == 0 ? 1.0 : 0.0) - f * Pr[i][0] + b0 * W[3] + b1 * W[4] + b2 * W[5];
        Ji[2] = (i == 1 ? 1.0 : 0.0) - f * Pr[i][1] + b0 * W[6] + b1 * W[7] + b2 * W[8];
    }
}

/* x ← J⁻¹ b (J row-major); 1 if singular. */
static int solve3(const double *J, const double *b, double *x)
{
    double c00 = J[4] * J[8] - J[5] * J[7];
    double c01 = J[5] * J[6] - J[3] * J[8];
    double c02 = J[3] * J[7] - J[4] * J[6];
    double det = J[0] * c00 + J[1] * c01 + J[2] * c02;
    double n0 = J[0] * J[0] + J[1] * J[1] + J[2] * J[2];
    double n1 = J[3] * J[3] + J[4] * J[4] + J[5] * J[5];
    double n2 = J[6] * J[6] + J[7] * J[7] + J[8] * J[8];
    if (fabs(det) > 1e-6 * sqrt(n0 * n1 * n2)) {
        double id = 1.0 / det;
        double c10 = J[2] * J[7] - J[1] * J[8], c11 = J[0] * J[8] - J[2] * J[6];
        double c12 = J[1] * J[6] - J[0] * J[7];
        double c20 = J[1] * J[5] - J[2] * J[4], c21 = J[2] * J[3] - J[0] * J[5];
        double c22 = J[0] * J[4] - J[1] * J[3];
        x[0] = (c00 * b[0] + c10 * b[1] + c20 * b[2]) * id;
        x[1] = (c01 * b[0] + c11 * b[1] + c21 * b[2]) * id;
        x[2] = (c02 * b[0] + c12 * b[1] + c22 * b[2]) * id;
        return !(isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]));
    }
    double Jc[9] = { J[0], J[3], J[6], J[1], J[4], J[7], J[2], J[5], J[8] };
    return ns_small_solve(3, Jc, b, x);
}

/* The two states of a contact that have a closed form, tried before the
 * Newton iterations: take-off (q_N ≥ 0: r = 0, u = q; û_N = q_N + μ‖q_T‖
 * ≥ μ‖q_T‖ puts û in the dual cone, so r = P_K(r − û) exactly) and
 * sticking (r = −W⁻¹q inside the cone, u = 0 up to the rounding of the
 * 3×3 solve, so r = P_K(r − û) again). Both are exact solutions of the
 * one-contact problem, whatever the warm start; in a resting pile nearly
 * every contact is in one of them, at the cost of one 3×3 solve. Otherwise
 * r is left as it was and the Newton iterations decide (sliding
 * contacts). Returns 1 when r was set. */
static int closed_form(const ns_fc_contact *c, double *r)
{
    const double *W = c->W, *q = c->q;
    if (q[0] >= 0.0) {
        r[0] = r[1] = r[2] = 0.0;
        return 1;
    }
    double J[9] = { W[0], W[3], W[6], W[1], W[4], W[7], W[2], W[5], W[8] };   /* row-major */
    double mq[3] = { -q[0], -q[1], -q[2] }, x[3];
    if (solve3(J, mq, x)) return 0;
    if (!(x[0] > 0.0) || x[1] * x[1] + x[2] * x[2] > c->mu * c->mu * x[0] * x[0]) return 0;
    r[0] = x[0]; r[1] = x[1]; r[2] = x[2];
    return 1;
}

int ns_fc_local_ac3(const ns_fc_contact *c, double *r)
{
    const double *W = c->W, tol2 = c->tol * c->tol;
    double u[3], F[3], J[9], mF[3], dl[3], Wd[3], rt[3], ut[3], Ft[3];
    if (closed_form(c, r)) return 0;
    wrq(W, c->q, r, u);
    double e2 = err_sq(c->mu, r, u);
    if (e2 <= tol2) return 0;
    double best[3] = { r[0], r[1], r[2] }, best_e2 = e2;
    for (int it = 0; it < c->max_iter; it++) {
        phi_ac3(c, r, u, F, J);
        double th = F[0] * F[0] + F[1] * F[1] + F[2] * F[2];
        mF[0] = -F[0]; mF[1] = -F[1]; mF[2] = -F[2];
        if (solve3(J, mF, dl)) break;
        Wd[0] = W[0] * dl[0] + W[3] * dl[1] + W[6] * dl[2];
        Wd[1] = W[1] * dl[0] + W[4] * dl[1] + W[7] * dl[2];
        Wd[2] = W[2] * dl[0] + W[5] * dl[1] + W[8] * dl[2];
        double t = 1.0;
        int ok = 0;
        for (int ls = 0; ls < 30; ls++, t *= 0.5) {
            for (int i = 0; i < 3; i++) { rt[i] = r[i] + t * dl[i]; ut[i] = u[i] + t * Wd[i]; }
            phi_ac3(c, rt, ut, Ft, NULL);
            if (Ft[0] * Ft[0] + Ft[1] * Ft[1] + Ft[2] * Ft[2] <= (1.0 - 2e-4 * t) * th) {
                ok = 1;
                break;
            }
        }
        if (!ok) break;
        r[0] = rt[0]; r[1] = rt[1]; r[2] = rt[2];
        wrq(W, c->q, r, u);
        e2 = err_sq(c->mu, r, u);
        if (e2 < best_e2) { best_e2 = e2; best[0] = r[0]; best[1] = r[1]; best[2] = r[2]; }
        if (e2 <= tol2) return 0;
    }
    r[0] = best[0]; r[1] = best[1]; r[2] = best[2];
    return best_e2 <= tol2 ? 0 : 1;
}
