/* rfc_local.c — one contact of a rolling friction-contact problem:
 *     u = W r + q (W: the d×d diagonal block),  K* ∋ û ⊥ r ∈ K,
 * written as the natural map Φ(r) = r − P_K(r − ρ û(W r + q)) = 0 (any
 * ρ > 0 has the same zeros; ρ = 1/‖W‖_F keeps Φ in the units of r).
 *
 * Newton (newton = 1): on the Alart–Curnier function Φ_AC(r, W r + q) of
 * rfc_phi.c (same zeros), the step solves (A + B W) δ = −Φ (solve_small)
 * and is damped by halving until ‖Φ‖ decreases by the factor 1 − 10⁻⁴t;
 * when no step length decreases it (or the matrix is singular) one
 * projected fixed-point step r ← P_K(r − ρû) is tried instead, kept if it
 * decreases ‖Φ‖. Projection only (newton = 0): those fixed-point steps
 * alone, with ρ = 1/‖W‖_F ≤ 1/λ_max(W). */
#include "rfc/rfc_internal.h"
#include <math.h>
#include <string.h>

/* Φ at r (also returns u and the projected point in y). */
static double phi(int d, double mu, double mur, double mup, const double *W, const double *q,
                  double rho, const double *r, double *u, double *y, double *F)
{
    double uh[RFC_DMAX];
    for (int i = 0; i < d; i++) {
        double s = q[i];
        for (int j = 0; j < d; j++) s += W[i + j * d] * r[j];
        u[i] = s;
    }
    ns_rfc_modified_velocity(d, mu, mur, mup, u, uh, NULL);
    double nf = 0.0;
    for (int i = 0; i < d; i++) y[i] = r[i] - rho * uh[i];
    double p[RFC_DMAX];
    memcpy(p, y, (size_t)d * sizeof *p);
    ns_rfc_project_pivot(d, mu, mur, mup, p);
    for (int i = 0; i < d; i++) { F[i] = r[i] - p[i]; nf += F[i] * F[i]; }
    return isfinite(nf) ? sqrt(nf) : INFINITY;
}

static double local_scaled(int d, double mu, double mur, double mup, const double *W,
                           const double *q, double *r, double tol, int max_iter,
                           int newton);

/* Scaling: with S = diag(1, s_T, s_T, s_R, s_R[, s_P]) the change of
 * unknowns r = S r', u' = S u maps the problem (W, q, μ, μr, μp) onto
 * (SWS, Sq, μ/s_T, μr/s_R, μp/s_P) of the same form (cone and modified
 * velocity included), so each part's diagonal is brought to W_NN before
 * solving; rolling blocks are often 10⁴ times larger than sliding ones. */
double ns_rfc_local_solve(int d, double mu, double mur, double mup, const double *W,
                          const double *q, double *r, double tol, int max_iter,
                          int newton)
{
    int off[RFC_PMAX], sz[RFC_PMAX];
    const int np = ns_rfc_parts(d, off, sz);
    double sc[RFC_DMAX], Ws[RFC_DMAX * RFC_DMAX], qs[RFC_DMAX], rs[RFC_DMAX];
    double part[RFC_PMAX] = { 1.0, 1.0, 1.0 };
    sc[0] = 1.0;
    for (int p = 0; p < np; p++) {
        double w = 0.0;
        for (int k = 0; k < sz[p]; k++) w += W[(off[p] + k) * (d + 1)];
        w /= sz[p];
        part[p] = W[0] > 0 && w > 0 && isfinite(W[0] / w) ? sqrt(W[0] / w) : 1.0;
        for (int k = 0; k < sz[p]; k++) sc[off[p] + k] = part[p];
    }
    for (int i = 0; i < d; i++) {
        qs[i] = sc[i] * q[i];
        rs[i] = r[i] / sc[i];
        for (int j = 0; j < d; j++) Ws[i + j * d] = sc[i] * W[i + j * d] * sc[j];
    }
    local_scaled(d, mu / part[0], mur / part[1], mup / part[2], Ws, qs, rs, tol, max_iter, newton);
    double u[RFC_DMAX];
    for (int i = 0; i < d; i++) r[i] = sc[i] * rs[i];
    for (int i = 0; i < d; i++) {
        double s = q[i];
        for (int j = 0; j < d; j++) s += W[i + j * d] * r[j];
        u[i] = s;
    }
    return sqrt(ns_rfc_contact_error_sq_pivot(d, mu, mur, mup, r, u));
}

static double local_projection(int d, double mu, double mur, double mup, const double *W,
                               const double *q, double *r, double rho, double atol, int max_iter);

/* x ← J⁻¹ x for a d×d J (d ≤ 6, column-major, overwritten): Gaussian
 * elimination with partial pivoting. Written out because a LAPACK call
 * costs more than this arithmetic (and its first call in a process tens of
 * µs), as the library's small dense products skip CBLAS. 0, or 1 when a
 * pivot is zero or not finite. */
static int solve_small(int d, double *J, double *x)
{
    for (int k = 0; k < d; k++) {
        int piv = k;
        for (int i = k + 1; i < d; i++)
            if (fabs(J[i + k * d]) > fabs(J[piv + k * d])) piv = i;
        double pv = J[piv + k * d];
        if (pv == 0.0 || !isfinite(pv)) return 1;
        if (piv != k) {
            for (int j = 0; j < d; j++) {
                double t = J[k + j * d]; J[k + j * d] = J[piv + j * d]; J[piv + j * d] = t;
            }
            double t = x[k]; x[k] = x[piv]; x[piv] = t;
        }
        for (int i = k + 1; i < d; i++) {
            double f = J[i + k * d] / pv;
            if (f == 0.0) continue;
            for (int j = k + 1; j < d; j++) J[i + j * d] -= f * J[k + j * d];
            x[i] -= f * x[k];
        }
    }
    for (int k = d - 1; k >= 0; k--) {
        double t = x[k];
        for (int j = k + 1; j < d; j++) t -= J[k + j * d] * x[j];
        x[k] = t / J[k + k * d];
    }
    return 0;
}

/* Alart–Curnier residual at r (u ← W r + q); A, B when jac. */
static double ac_at(int d, double mu, double mur, double mup, const double *W, const double *q,
                    double rho, const double *r, double *u, double *F, double *A, double *B)
{
    for (int i = 0; i < d; i++) {
        double s = q[i];
        for (int j = 0; j < d; j++) s += W[i + j * d] * r[j];
        u[i] = s;
    }
    return ns_rfc_ac(d, mu, mur, mup, rho, r, u, F, A, B);
}

static double local_scaled(int d, double mu, double mur, double mup, const double *W,
                           const double *q, double *r, double tol, int max_iter,
                           int newton)
{
    double fro = 0.0;
    for (int k = 0; k < d * d; k++) fro += W[k] * W[k];
    fro = sqrt(fro);
    const double rho = fro > 0 ? 1.0 / fro : 1.0;
    double scale = 0.0;
    for (int i = 0; i < d; i++) scale = fmax(scale, fabs(rho * q[i]));
    const double atol = tol * fmax(scale, 1e-300);
    if (!newton) return local_projection(d, mu, mur, mup, W, q, r, rho, atol, max_iter);
    double u[RFC_DMAX] = { 0 }, F[RFC_DMAX], A[RFC_DMAX * RFC_DMAX], B[RFC_DMAX * RFC_DMAX];
    double nf = ac_at(d, mu, mur, mup, W, q, rho, r, u, F, A, B);
    for (int it = 0; it < max_iter && nf > atol; it++) {
        double J[RFC_DMAX * RFC_DMAX], dl[RFC_DMAX], rn[RFC_DMAX], un[RFC_DMAX], Fn[RFC_DMAX];
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++) {
                double s = A[i + j * d];
                for (int k = 0; k < d; k++) s += B[i + k * d] * W[k + j * d];
                J[i + j * d] = s;
            }
        for (int i = 0; i < d; i++) dl[i] = -F[i];
        int moved = 0;
        if (solve_small(d, J, dl) == 0) {
            double t = 1.0;
            for (int ls = 0; ls < 20; ls++, t *= 0.5) {
                for (int i = 0; i < d; i++) rn[i] = r[i] + t * dl[i];
                double nn = ac_at(d, mu, mur, mup, W, q, rho, rn, un, Fn, NULL, NULL);
                if (nn < (1.0 - 1e-4 * t) * nf) { moved = 1; break; }
            }
        }
        if (!moved) {   /* a projected fixed-point step on the natural map */
            double uh[RFC_DMAX];
            ns_rfc_modified_velocity(d, mu, mur, mup, u, uh, NULL);
            for (int i = 0; i < d; i++) rn[i] = r[i] - rho * uh[i];
            ns_rfc_project_pivot(d, mu, mur, mup, rn);
            double nn = ac_at(d, mu, mur, mup, W, q, rho, rn, un, Fn, NULL, NULL);
            if (!(nn < nf)) break;   /* nothing helps: keep the best */
        }
        memcpy(r, rn, (size_t)d * sizeof *r);
        nf = ac_at(d, mu, mur, mup, W, q, rho, r, u, F, A, B);
    }
    return nf;
}

/* The projected fixed point r ← P_K(r − ρ û(W r + q)) (natural map). */
static double local_projection(int d, double mu, double mur, double mup, const double *W,
                               const double *q, double *r, double rho, double atol, int max_iter)
{
    double u[RFC_DMAX], y[RFC_DMAX], F[RFC_DMAX];
    double nf = phi(d, mu, mur, mup, W, q, rho, r, u, y, F);
    for (int it = 0; it < max_iter && nf > atol; it++) {
        for (int i = 0; i < d; i++) r[i] -= F[i];   /* r ← P_K(y) */
        nf = phi(d, mu, mur, mup, W, q, rho, r, u, y, F);
        if (!isfinite(nf)) break;
    }
    return nf;
}
