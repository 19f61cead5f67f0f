/* fc2d_local.c — the exact one-contact solver of 2D Coulomb friction.
 * For u = W r + q (W 2×2, column-major: W[0] = W_NN, W[1] = W_TN,
 * W[2] = W_NT, W[3] = W_TT) find r ∈ K = {|r_T| ≤ μ r_N}, u_N ≥ 0,
 * r_N u_N = 0, and r_T = −μ r_N sign(u_T) when u_T ≠ 0. The cases are tried
 * in order, each by a closed formula:
 *   separated  q_N ≥ 0: r = 0;
 *   sticking   u = 0: r = −W⁻¹q, valid if r_N > 0 and |r_T| ≤ μ r_N;
 *   sliding s  (s = ±1) r_T = −s μ r_N, u_N = 0:
 *              r_N = −q_N / (W_NN − s μ W_NT), valid if r_N > 0 and s u_T ≥ 0.
 * With W_αα positive definite exactly one case holds (up to ties on the
 * boundaries, which give the same r). When none holds (W_αα not positive
 * definite), the candidate of smallest local residual is kept and −1
 * returned. */
#include "fc2d/fc2d_internal.h"
#include <math.h>

/* ‖r − P_K(r − û)‖ for one 2D contact, û_N = u_N + μ|u_T|. */
double ns_fc2d_local_residual(const double *W, const double *q, double mu, const double *r)
{
    double un = W[0] * r[0] + W[2] * r[1] + q[0];
    double ut = W[1] * r[0] + W[3] * r[1] + q[1];
    double x0 = r[0] - un - mu * fabs(ut), x1 = r[1] - ut;
    double p0, p1, xt = fabs(x1);
    if (mu * xt <= -x0) { p0 = 0.0; p1 = 0.0; }
    else if (xt <= mu * x0) { p0 = x0; p1 = x1; }
    else {
        double a = (x0 + mu * xt) / (1.0 + mu * mu);
        p0 = a;
        p1 = mu * a * (x1 > 0 ? 1.0 : -1.0);
    }
    return hypot(r[0] - p0, r[1] - p1);
}

int ns_fc2d_local_exact(const double *W, const double *q, double mu, double *r)
{
    const double a = W[0], c = W[1], b = W[2], d = W[3];
    if (q[0] >= 0.0) { r[0] = 0.0; r[1] = 0.0; return NS_FC2D_SEPARATED; }
    double cand[4][2];
    int ncand = 0;
    const double rel = 1e-14;
    double det = a * d - b * c;
    if (det != 0.0) {
        double rn = -(d * q[0] - b * q[1]) / det;
        double rt = -(a * q[1] - c * q[0]) / det;
        if (rn > 0.0 && fabs(rt) <= mu * rn * (1.0 + rel)) {
            if (fabs(rt) > mu * rn) rt = rt > 0 ? mu * rn : -mu * rn;
            r[0] = rn; r[1] = rt;
            return NS_FC2D_STICKING;
        }
        cand[ncand][0] = rn > 0 ? rn : 0.0;
        cand[ncand][1] = fabs(rt) <= mu * cand[ncand][0] ? rt : (rt > 0 ? 1 : -1) * mu * cand[ncand][0];
        ncand++;
    }
    for (int k = 0; k < 2; k++) {
        double s = k == 0 ? 1.0 : -1.0;
        double den = a - s * mu * b;
        if (!(den > 0.0)) continue;
        double rn = -q[0] / den, rt = -s * mu * rn;
        double ut = c * rn + d * rt + q[1];
        double sc = fabs(c * rn) + fabs(d * rt) + fabs(q[1]);
        if (s * ut >= -rel * sc) {
            r[0] = rn; r[1] = rt;
            return k == 0 ? NS_FC2D_SLIDING_POS : NS_FC2D_SLIDING_NEG;
        }
        cand[ncand][0] = rn; cand[ncand][1] = rt;
        ncand++;
    }
    /* no case holds exactly: the best candidate (r = 0 included) */
    double best = ns_fc2d_local_residual(W, q, mu, (double[2]){ 0.0, 0.0 });
    r[0] = 0.0; r[1] = 0.0;
    for (int k = 0; k < ncand; k++) {
        double e = ns_fc2d_local_residual(W, q, mu, cand[k]);
        if (e < best) { best = e; r[0] = cand[k][0]; r[1] = cand[k][1]; }
    }
    return -1;
}
