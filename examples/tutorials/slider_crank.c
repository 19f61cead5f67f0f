/* slider_crank.c — SliderCrankMoreauJeanDirectProjectionOSI (Flores et al.'s
 * slider-crank with a clearance joint, the Siconos program of that name):
 * crank angle q₀, connecting-rod angle q₁, slider angle q₂ (l₁ = 0.153,
 * l₂ = 0.306, slider half sizes a = 0.05, b = 0.025, clearance c = 0.001,
 * masses 0.038, 0.038, 0.076, inertias 7.4e-5, 5.9e-4, 2.7e-6, g = 9.81),
 * v(0) = (150, −75, 0) rad/s; the reduced equations of the program's plugin
 * (M(q), f_gyr, f_int and their Jacobians). The four corners of the slider
 * against the two guides are 2-D frictional contacts (scleronomous: the
 * normal gap, then the tangential position), e_N = 0.4, μ = 0.01.
 * Moreau–Jean θ = 0.5 with γ = 0, h = 1e-4, 2000 steps, FC2D by
 * enumeration, a Newton loop (Siconos' default tolerance 1e-6, 50
 * iterations), then the direct position projection (at most 10 problems,
 * tolerances 1e-10) over every contact (the program's levelForProjection
 * = 0: a contact that closed within the step unforeseen is projected too,
 * projection_all), with the direct-projection integrator's index set: a
 * contact enters at y ≤ 1e-6 and leaves at y > 1e-7 with ẏ ≥ 0 (unless it
 * passes the entry test at once).
 *
 * Columns: t, q₀/2π, q₁, q₂, q̇₀, q̇₁, q̇₂, the four corners' heights and the
 * slider's position (normalised as the program does), the four gaps, their
 * rates (Siconos' y(1): the velocity step's output, taken before the
 * projection moves q), the four normal impulses, the four position
 * multipliers, the
 * Newton iterations, the position problems and the largest unilateral
 * violation of the step. */
#include "tutorials.h"
#include <math.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const double l1 = 0.1530, l2 = 0.3060, A = 0.05, B = 0.025, C = 0.001;
static const double m1 = 0.038, m2 = 0.038, m3 = 0.0760, J1 = 7.4e-5, J2 = 5.9e-4, J3 = 2.7e-6, G = 9.81;
#define D (2.0 * (B + C))
#define K2 ((0.5 * m2 + m3) * l1 * l2)

static int mass(int n, const double *q, double *M, void *u)
{
    double c = cos(q[1] - q[0]);
    M[0] = J1 + (0.25 * m1 + m2 + m3) * l1 * l1; M[1] = K2 * c; M[2] = 0;
    M[3] = K2 * c; M[4] = J2 + (0.25 * m2 + m3) * l2 * l2; M[5] = 0;
    M[6] = 0; M[7] = 0; M[8] = J3;
    return 0;
}

static int fgyr(double t, int n, const double *q, const double *v, double *f, void *u)
{
    double s = sin(q[0] - q[1]);
    f[0] = K2 * s * v[1] * v[1];
    f[1] = -K2 * s * v[0] * v[0];
    f[2] = 0;
    return 0;
}

static int jfgyr(double t, int n, const double *q, const double *v, double *Jq, double *Jv, void *u)
{
    double s = sin(q[0] - q[1]), c = cos(q[0] - q[1]);
    for (int i = 0; i < 9; i++) Jq[i] = Jv[i] = 0;
    Jq[0] = K2 * c * v[1] * v[1]; Jq[1] = -K2 * c * v[0] * v[0];
    Jq[3] = -K2 * c * v[1] * v[1]; Jq[4] = K2 * c * v[0] * v[0];
    Jv[1] = -2.0 * K2 * s * v[0];
    Jv[3] = 2.0 * K2 * s * v[1];
    return 0;
}

static int fint(double t, int n, const double *q, const double *v, double *f, void *u)
{
    f[0] = (0.5 * m1 + m2 + m3) * G * l1 * cos(q[0]);
    f[1] = (0.5 * m2 + m3) * G * l2 * cos(q[1]);
    f[2] = 0;
    return 0;
}

static int jfint(double t, int n, const double *q, const double *v, double *Jq, double *Jv, void *u)
{
    for (int i = 0; i < 9; i++) Jq[i] = Jv[i] = 0;
    Jq[0] = -(0.5 * m1 + m2 + m3) * G * l1 * sin(q[0]);
    Jq[4] = -(0.5 * m2 + m3) * G * l2 * sin(q[1]);
    return 0;
}

/* corner k (0..3): sign of the guide (su: upper guide −, lower +), of a and of b */
static const double SU[4] = { -1, -1, 1, 1 }, SA[4] = { -1, 1, -1, 1 }, SB[4] = { 1, 1, -1, -1 };

static int hc(double t, int nq, const double *q, int m, double *y, void *u)
{
    int k = *(const int *)u;
    double ys = l1 * sin(q[0]) + l2 * sin(q[1]) + SA[k] * A * sin(q[2]) + SB[k] * B * cos(q[2]);
    y[0] = 0.5 * D + SU[k] * ys;
    y[1] = l1 * cos(q[0]) + l2 * cos(q[1]) + SA[k] * A * cos(q[2]) - SB[k] * B * sin(q[2]);
    return 0;
}

static int jc(double t, int nq, const double *q, int m, double *H, void *u)
{
    int k = *(const int *)u;
    H[0] = SU[k] * l1 * cos(q[0]); H[1] = -l1 * sin(q[0]);
    H[2] = SU[k] * l2 * cos(q[1]); H[3] = -l2 * sin(q[1]);
    H[4] = SU[k] * (SA[k] * A * cos(q[2]) - SB[k] * B * sin(q[2]));
    H[5] = -SA[k] * A * sin(q[2]) - SB[k] * B * cos(q[2]);
    return 0;
}

static const int CORNER[4] = { 0, 1, 2, 3 };

static void fill(double *r, const double *q, const double *v)
{
    double ys = l1 * sin(q[0]) + l2 * sin(q[1]);
    r[1] = q[0] / (2.0 * M_PI); r[2] = q[1]; r[3] = q[2];
    r[4] = v[0]; r[5] = v[1]; r[6] = v[2];
    r[7] = (ys - A * sin(q[2]) + B * cos(q[2]) - B) / C;
    r[8] = (ys + A * sin(q[2]) + B * cos(q[2]) - B) / C;
    r[9] = (ys - A * sin(q[2]) - B * cos(q[2]) + B) / C;
    r[10] = (ys + A * sin(q[2]) - B * cos(q[2]) + B) / C;
    r[11] = (l1 * cos(q[0]) + l2 * cos(q[1]) - l2) / l1;
    r[12] = ys / C;
}

static int run(const tut_params *p, tut_table *t, char *err)
{
    double q0[3] = { 0, 0, 0 }, v0[3] = { 150.0, -75.0, 0 };
    double eN = isnan(p->e) ? 0.4 : p->e;
    nsm_lagrangian_fns f = { .mass = mass, .fgyr = fgyr, .jac_fgyr = jfgyr, .fint = fint, .jac_fint = jfint };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    int ds = nsm_model_add_ds(model, nsm_ds_lagrangian_new(3, &f, q0, v0)), in[4], ok = ds >= 0;
    for (int k = 0; k < 4; k++) {
        int law = nsm_model_add_law(model, nsm_nslaw_newton_coulomb_new(2, eN, 0.01));
        in[k] = nsm_model_add_interaction(model, nsm_relation_scleronomous_new(2, 3, hc, jc, (void *)&CORNER[k]),
                                          law, ds, -1);
        ok = ok && law >= 0 && in[k] >= 0;
    }
    if (!ok) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 1e-4, 0.5, "enum", 1e-8);
    double h = o.h, th = o.theta;
    o.activation = NSM_ACTIVATION_GAMMA;
    o.activation_gamma = 0.0;
    o.newton_criterion = NSM_NEWTON_ABS_NORM2;   /* Siconos' defaults: |r|_2 <= 1e-6, 50 */
    o.newton_tol = 1e-6;
    o.newton_max_iter = 50;
    o.projection = NSM_PROJECTION_DIRECT;
    o.projection_max_iter = 10;
    o.projection_tol = o.projection_tol_unilateral = 1e-10;
    o.projection_all = 1;        /* the program projects over index set 0 (levelForProjection = 0) */
    o.projection_hysteresis = 1;
    o.projection_activate_pos = 1e-6;
    o.projection_deactivate_pos = 1e-7;
    o.projection_deactivate_vel = 0.0;
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 2000);
    int rc = 0;
    double *r = tut_row(t);
    if (r) {
        fill(r, q0, v0);
        for (int k = 0; k < 4; k++) {
            double y[2];
            hc(0, 3, q0, 2, y, (void *)&CORNER[k]);
            r[13 + k] = y[0];
        }
    }
    long iters = 0, proj = 0;
    double qk[3], vk[3];
    for (long k = 1; k <= N && r; k++) {
        memcpy(qk, nsm_sim_q(s, ds), sizeof qk);
        memcpy(vk, nsm_sim_v(s, ds), sizeof vk);
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) break;
        const nsm_sim_stats *st = nsm_sim_get_stats(s);
        const double *q = nsm_sim_q(s, ds), *v = nsm_sim_v(s, ds);
        int projected = st->projection_iterations > proj;
        /* Siconos' y(1) is the output of the velocity step: after a
         * projection it is H(q*) v_{k+1} at the position q* the velocity
         * step gave (θ rule), not at the projected q */
        double qs[3];
        for (int i = 0; i < 3; i++) qs[i] = qk[i] + h * (th * v[i] + (1.0 - th) * vk[i]);
        r[0] = nsm_sim_time(s);
        fill(r, q, v);
        for (int c = 0; c < 4; c++) {
            const double *l0 = nsm_sim_lambda(s, in[c], 0);
            r[13 + c] = nsm_sim_y(s, in[c], 0)[0];
            if (projected) {
                double H[6];
                jc(0, 3, qs, 2, H, (void *)&CORNER[c]);
                r[17 + c] = H[0] * v[0] + H[2] * v[1] + H[4] * v[2];
            } else r[17 + c] = nsm_sim_y(s, in[c], 1)[0];
            r[21 + c] = nsm_sim_lambda(s, in[c], 1)[0];
            r[25 + c] = l0 ? l0[0] : 0.0;
        }
        r[29] = (double)(st->newton_iterations - iters);
        r[30] = (double)(st->projection_iterations - proj);
        r[31] = st->projection_violation;
        iters = st->newton_iterations;
        proj = st->projection_iterations;
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_slider_crank = {
    "SliderCrankMoreauJeanDirectProjectionOSI", "slider-crank with clearance: 4 frictional corners, direct projection",
    "mechanics/SliderCrank/SliderCrankMoreauJeanDirectProjectionOSI.ref", 32, 0, run,
    { "angles, positions", "angular velocities [rad/s]", "impulses" },
    { { { 1, "crank revolutions" }, { 11, "slider x (normalised)" }, { 12, "slider y (normalised)" }, { 0, NULL } },
      { { 4, "crank" }, { 5, "rod" }, { 6, "slider" }, { 0, NULL } },
      { { 21, "P1" }, { 22, "P2" }, { 23, "P3" }, { 24, "P4" }, { 0, NULL } } },
    NULL
};
