/* fc3d_cone.c — the Coulomb cone and one-contact helpers.
 *   P_K(x), K = {‖x_T‖ ≤ μ x_N}:
 *     μ‖x_T‖ ≤ −x_N → 0;   ‖x_T‖ ≤ μ x_N → x;
 *     else a = (x_N + μ‖x_T‖)/(1+μ²), P_K(x) = (a, μ a t), t = x_T/‖x_T‖,
 *   with Jacobian (third case) ∂a/∂x = (1, μ tᵀ)/(1+μ²),
 *     ∂P_T/∂x = μ t ∂a/∂x + μ a [0, (I − t tᵀ)/‖x_T‖].
 * Also: the d×d solve used by the local Newton methods, contact set-up and
 * residual, and the diagonal-block check. */
#include "fc/fc3d_local.h"
#include "fc/fc3d_internal.h"
#include "nonsmooth/ns_residual.h"
#include <lapacke.h>
#include <math.h>
#include <string.h>

void ns_fc_project_cone(int dim, double mu, double *x, double *J)
{
    const int d = dim;
    if (J) memset(J, 0, (size_t)(d * d) * sizeof(double));
    /* inside the cone (most points, e.g. after Anderson's extrapolation):
     * recognised without a square root; c < 1e150 keeps c² finite, an
     * overflowing ‖x_T‖² goes to the test below */
    const double c = mu * x[0], t2 = d == 3 ? x[1] * x[1] + x[2] * x[2] : x[1] * x[1];
    if (c > 0.0 && c < 1e150 && t2 <= c * c) {   /* c > 0: the origin keeps its J below */
        if (J) for (int k = 0; k < d; k++) J[k + k * d] = 1.0;
        return;
    }
    double nt = d == 3 ? ns_fc_norm_t(x[1], x[2]) : fabs(x[1]);
    if (mu * nt <= -x[0]) {
        for (int k = 0; k < d; k++) x[k] = 0.0;
        return;
    }
    if (nt <= mu * x[0]) {
        if (J) for (int k = 0; k < d; k++) J[k + k * d] = 1.0;
        return;
    }
    double a = (x[0] + mu * nt) / (1.0 + mu * mu);
    double t[2] = { x[1] / nt, d == 3 ? x[2] / nt : 0.0 };
    if (J) {
        double da[3] = { 1.0 / (1.0 + mu * mu), mu * t[0] / (1.0 + mu * mu),
                         mu * t[1] / (1.0 + mu * mu) };
        for (int j = 0; j < d; j++) J[0 + j * d] = da[j];
        for (int i = 1; i < d; i++)
            for (int j = 0; j < d; j++) {
                double v = mu * t[i - 1] * da[j];
                if (j > 0) v += mu * a * ((i == j ? 1.0 : 0.0) - t[i - 1] * t[j - 1]) / nt;
                J[i + j * d] = v;
            }
    }
    x[0] = a;
    for (int k = 1; k < d; k++) x[k] = mu * a * t[k - 1];
}

int ns_small_solve(int d, const double *A, const double *b, double *x)
{
    double M[3][4];
    double scale = 0.0;
    for (int i = 0; i < d; i++) {
        for (int j = 0; j < d; j++) {
            M[i][j] = A[i + j * d];
            scale = fmax(scale, fabs(M[i][j]));
        }
        M[i][d] = b[i];
    }
    if (!(scale > 0) || !isfinite(scale)) return 1;
    for (int k = 0; k < d; k++) {
        int p = k;
        for (int i = k + 1; i < d; i++) if (fabs(M[i][k]) > fabs(M[p][k])) p = i;
        if (!(fabs(M[p][k]) > 1e-14 * scale)) return 1;
        if (p != k)
            for (int j = 0; j <= d; j++) { double t = M[k][j]; M[k][j] = M[p][j]; M[p][j] = t; }
        for (int i = k + 1; i < d; i++) {
            double f = M[i][k] / M[k][k];
            for (int j = k; j <= d; j++) M[i][j] -= f * M[k][j];
        }
    }
    double y[3];
    for (int i = d - 1; i >= 0; i--) {
        double s = M[i][d];
        for (int j = i + 1; j < d; j++) s -= M[i][j] * y[j];
        y[i] = s / M[i][i];
    }
    for (int i = 0; i < d; i++) if (!isfinite(y[i])) return 1;
    memcpy(x, y, (size_t)d * sizeof(double));
    return 0;
}

void ns_fc_contact_init(ns_fc_contact *c, int dim, const double *W,
                        const double *q, double mu, double tol, int max_iter)
{
    c->dim = dim;
    c->W = W;
    c->q = q;
    c->mu = mu;
    double rho[2];
    ns_fc_contact_rho(dim, W, rho);
    c->rho_n = rho[0];
    c->rho_t = rho[1];
    c->tol = tol;
    c->max_iter = max_iter;
}

double ns_fc_contact_residual(const ns_fc_contact *c, const double *r, double *u)
{
    const int d = c->dim;
    for (int i = 0; i < d; i++) {
        double s = c->q[i];
        for (int j = 0; j < d; j++) s += c->W[i + j * d] * r[j];
        u[i] = s;
    }
    return sqrt(ns_fc_contact_error_sq(d, c->mu, r, u));
}

int ns_fc_check_diag_block(int dim, const double *W)
{
    if (!(W[0] > 0)) return 1;
    /* the usual case first, written out (a solve of a few contacts checks
     * every diagonal block; the general loops cost ~100 instructions per
     * 2×2 block): finite, leading minors clearly positive — the test
     * below, on the same values */
    if (dim == 2) {
        const double a = 0.5 * (W[0] + W[0]), b = 0.5 * (W[1] + W[2]), c = 0.5 * (W[3] + W[3]);
        const double s2 = fabs(a) + fabs(c);
        if (isfinite(a) && isfinite(b) && isfinite(c) && a > 0 && a * c - b * b > 1e-12 * s2 * s2)
            return 0;
    }
    double S[9], ev[3], work[32];
    for (int i = 0; i < dim; i++)
        for (int j = 0; j < dim; j++) {
            S[i + j * dim] = 0.5 * (W[i + j * dim] + W[j + i * dim]);
            if (!isfinite(S[i + j * dim])) return 2;
        }
    /* Sylvester's criterion first: leading minors clearly positive means
     * positive definite, the usual case (one per contact per solve),
     * without an eigenvalue solve; otherwise the eigenvalues decide */
    double m1 = S[0], s2 = fabs(S[0]) + fabs(S[dim + 1]);
    double m2 = S[0] * S[dim + 1] - S[1] * S[dim];
    if (dim == 2 && m1 > 0 && m2 > 1e-12 * s2 * s2) return 0;
    if (dim == 3) {
        double s3 = s2 + fabs(S[8]);
        double m3 = S[0] * (S[4] * S[8] - S[5] * S[7]) - S[3] * (S[1] * S[8] - S[2] * S[7]) +
                    S[6] * (S[1] * S[5] - S[2] * S[4]);
        if (m1 > 0 && m2 > 1e-12 * s2 * s2 && m3 > 1e-12 * s3 * s3 * s3) return 0;
    }
    /* the _work entry point with a stack workspace allocates nothing and
     * skips LAPACKE's NaN scan (done above) */
    if (LAPACKE_dsyev_work(LAPACK_COL_MAJOR, 'N', 'U', dim, S, dim, ev, work, 32) != 0) return 2;
    double big = fmax(fabs(ev[0]), fabs(ev[dim - 1]));
    if (ev[0] < -1e-10 * big) return 2;
    return 0;
}


void ns_fc_project_cones(int dim, ns_int nc, const double *mu, double *x, int threads)
{
#ifdef _OPENMP
    if (threads > 1) {
#pragma omp parallel for schedule(static) num_threads(threads)
        for (ns_int a = 0; a < nc; a++) ns_fc_project_cone(dim, mu[a], x + (size_t)a * dim, NULL);
        return;
    }
#endif
    (void)threads;
    for (ns_int a = 0; a < nc; a++) ns_fc_project_cone(dim, mu[a], x + (size_t)a * dim, NULL);
}
