/* fc3d_local_newton.c — one-contact semismooth Newton on Φ(r, W r + q) = 0
 * (Φ = ac, fb or nm of fc3d_phi.c):
 *     J = A + B W,   J δ = −Φ,   r ← r + t δ,
 * t the first of 1, ½, ¼, … (at most 30) with the Armijo decrease
 *     ½‖Φ(r + tδ)‖² ≤ (1 − 2σt) ½‖Φ(r)‖²,  σ = 1e-4.
 * Stops when the contact error ≤ tol (0 returned), or on a singular J, a
 * failed line search or max_iter (1 returned; r is the best iterate).
 * ac in 3D goes to the unrolled copy of this loop (fc3d_local_ac3.c). */
#include "fc/fc3d_local.h"
#include <math.h>
#include <string.h>

static int local_newton(ns_fc_phi_fn phi, const ns_fc_contact *c, double *r)
{
    const int d = c->dim;
    double u[3], F[3], A[9], B[9], J[9], dl[3], Wd[3], rt[3], ut[3], Ft[3], mF[3];
    double err = ns_fc_contact_residual(c, r, u);
    if (err <= c->tol) return 0;
    double best[3], best_err = err;
    memcpy(best, r, (size_t)d * sizeof(double));
    for (int it = 0; it < c->max_iter; it++) {
        phi(c, r, u, F, A, B);
        double th = 0.0;
        for (int i = 0; i < d; i++) { th += F[i] * F[i]; mF[i] = -F[i]; }
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++) {
                double s = A[i + j * d];
                for (int k = 0; k < d; k++) s += B[i + k * d] * c->W[k + j * d];
                J[i + j * d] = s;
            }
        if (ns_small_solve(d, J, mF, dl)) break;
        for (int i = 0; i < d; i++) {
            double s = 0.0;
            for (int j = 0; j < d; j++) s += c->W[i + j * d] * dl[j];
            Wd[i] = s;
        }
        double t = 1.0;
        int ok = 0;
        for (int ls = 0; ls < 30; ls++, t *= 0.5) {
            for (int i = 0; i < d; i++) { rt[i] = r[i] + t * dl[i]; ut[i] = u[i] + t * Wd[i]; }
            phi(c, rt, ut, Ft, NULL, NULL);
            double tht = 0.0;
            for (int i = 0; i < d; i++) tht += Ft[i] * Ft[i];
            if (tht <= (1.0 - 2e-4 * t) * th) { ok = 1; break; }
        }
        if (!ok) break;
        memcpy(r, rt, (size_t)d * sizeof(double));
        err = ns_fc_contact_residual(c, r, u);
        if (err < best_err) { best_err = err; memcpy(best, r, (size_t)d * sizeof(double)); }
        if (err <= c->tol) return 0;
    }
    memcpy(r, best, (size_t)d * sizeof(double));
    return best_err <= c->tol ? 0 : 1;
}

int ns_fc_local_ac(const ns_fc_contact *c, double *r)
{
    return c->dim == 3 ? ns_fc_local_ac3(c, r) : local_newton(ns_fc_phi_ac, c, r);
}
int ns_fc_local_fb(const ns_fc_contact *c, double *r) { return local_newton(ns_fc_phi_fb, c, r); }
int ns_fc_local_nm(const ns_fc_contact *c, double *r) { return local_newton(ns_fc_phi_nm, c, r); }
