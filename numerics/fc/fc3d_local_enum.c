/* fc3d_local_enum.c — exact one-contact solver by enumeration of the three
 * cases of the Coulomb law (u = W r + q):
 *   separated  r = 0                       (valid when q_N ≥ 0);
 *   sticking   u = 0,  W r = −q            (valid when r ∈ K);
 *   sliding    r = r_N (1, μ t),  t = (cos θ, sin θ),  u_N = 0,  u_T = −λ t:
 *       r_N = −q_N / (W d)_N,  d = (1, μ t), and θ a root of
 *       h(θ) = (W d)_N (q_T ∧ t) − q_N ((W d)_T ∧ t)    (a ∧ t = a₁t₂ − a₂t₁),
 *     a trigonometric polynomial of degree 2: its roots are bracketed on a
 *     grid of 360 angles and refined by bisection (d = 2: t = ±1).
 *   μ = 0 adds the frictionless r = (−q_N/W_NN, 0).
 * Every candidate is scored by the contact error; the best is kept, then
 * polished by the AC Newton (ns_fc_local_solve). Returns 0 if within tol. */
#include "fc/fc3d_local.h"
#include <math.h>
#include <string.h>

typedef struct { double r[3]; double err; } best_t;

static void consider(const ns_fc_contact *c, const double *r, best_t *b)
{
    double u[3];
    for (int i = 0; i < c->dim; i++) if (!isfinite(r[i])) return;
    double e = ns_fc_contact_residual(c, r, u);
    if (e < b->err) { b->err = e; memcpy(b->r, r, (size_t)c->dim * sizeof(double)); }
}

/* r_N and h at angle θ (3D). */
static double slide_h(const ns_fc_contact *c, double th, double *rout)
{
    const double *W = c->W, *q = c->q;
    double t1 = cos(th), t2 = sin(th), mu = c->mu;
    double dv[3] = { 1.0, mu * t1, mu * t2 }, Wd[3];
    for (int i = 0; i < 3; i++) Wd[i] = W[i] * dv[0] + W[i + 3] * dv[1] + W[i + 6] * dv[2];
    double h = Wd[0] * (q[1] * t2 - q[2] * t1) - q[0] * (Wd[1] * t2 - Wd[2] * t1);
    if (rout) {
        double rn = -q[0] / Wd[0];
        for (int i = 0; i < 3; i++) rout[i] = rn * dv[i];
    }
    return h;
}

int ns_fc_local_enum(const ns_fc_contact *c, double *r)
{
    const int d = c->dim;
    best_t b;
    double u[3], cand[3];
    b.err = ns_fc_contact_residual(c, r, u);
    memcpy(b.r, r, (size_t)d * sizeof(double));
    double zero[3] = { 0, 0, 0 };
    consider(c, zero, &b);
    double mq[3] = { -c->q[0], -c->q[1], d == 3 ? -c->q[2] : 0.0 };
    if (!ns_small_solve(d, c->W, mq, cand)) consider(c, cand, &b);
    if (c->W[0] != 0) {
        cand[0] = -c->q[0] / c->W[0]; cand[1] = cand[2] = 0.0;
        consider(c, cand, &b);
    }
    if (c->mu > 0 && d == 2) {
        for (int s = -1; s <= 1; s += 2) {
            double dv0 = 1.0, dv1 = s * c->mu;
            double WdN = c->W[0] * dv0 + c->W[2] * dv1;
            double rn = -c->q[0] / WdN;
            cand[0] = rn; cand[1] = rn * dv1;
            consider(c, cand, &b);
        }
    } else if (c->mu > 0) {
        const int N = 360;
        const double step = 6.283185307179586 / N;
        double ha = slide_h(c, 0.0, NULL);
        for (int k = 0; k < N; k++) {
            double a = k * step, bb = a + step;
            double hb = slide_h(c, bb, NULL);
            if (ha == 0.0) {
                slide_h(c, a, cand);
                consider(c, cand, &b);
            } else if ((ha < 0) != (hb < 0)) {
                double lo = a, hi = bb, hlo = ha;
                for (int it = 0; it < 60; it++) {
                    double mid = 0.5 * (lo + hi), hm = slide_h(c, mid, NULL);
                    if ((hm < 0) == (hlo < 0)) { lo = mid; hlo = hm; } else hi = mid;
                }
                slide_h(c, 0.5 * (lo + hi), cand);
                consider(c, cand, &b);
            }
            ha = hb;
        }
    }
    memcpy(r, b.r, (size_t)d * sizeof(double));
    return b.err <= c->tol ? 0 : 1;
}
