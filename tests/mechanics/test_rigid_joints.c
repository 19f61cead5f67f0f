/* test_rigid_joints.c — joints between rigid bodies (nsm_joint_new) as
 * equality relations with position projection:
 *  - a three-link pendulum on revolute joints (y axis) released from the
 *    horizontal, h = 1e-3: every joint row stays within 1e-8 of 0 at
 *    every step and the energy drifts by at most 1e-6 m g L per simulated
 *    second, with the direct projection (identity metric) and without any.
 *    The joints hold on H v_θ = 0 with H the discrete gradient between
 *    q_k and q_{k+1} (relation_kind.h mean_jacobian): the rows keep their
 *    value over the step, so the projection has nothing to move, and the
 *    joint impulses do no work in the θ = ½ energy balance;
 *  - a prismatic joint on an inclined axis: the body slides with the
 *    analytic acceleration g (axis · −e_z) and does not turn; with a lower
 *    joint stop it comes to rest on the stop;
 *  - a fixed joint holds a body against gravity and a torque (reaction =
 *    the applied wrench);
 *  - a cylindrical joint on a vertical axis: free fall along it while the
 *    spin about it is kept;
 *  - a ball joint (spherical pendulum): drift and energy;
 *  - a revolute angle stop: the released link comes to rest on it;
 *  - bad input named. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nsm.h"

#define G 9.81

static nsm_ds *rod(double m, double L, const double *q0, const double *v0)
{
    double a = 0.5 * L, b = 0.02, c = 0.02;
    double I[9] = { m / 3 * (b * b + c * c), 0, 0, 0, m / 3 * (a * a + c * c), 0, 0, 0, m / 3 * (a * a + b * b) };
    nsm_ds *d = nsm_ds_newton_euler_new(m, I, q0, v0);
    assert_non_null(d);
    double f[6] = { 0, 0, -m * G, 0, 0, 0 };
    assert_int_equal(nsm_ds_set_fext_constant(d, f), NS_OK);
    return d;
}

static double energy(nsm_sim *s, nsm_model *m, int nb, const double *mass)
{
    double E = 0.0;
    for (int j = 0; j < nb; j++) {
        (void)m;
        E += nsm_sim_kinetic_energy(s, j) + mass[j] * G * nsm_sim_q(s, j)[2];
    }
    return E;
}

static double drift(nsm_sim *s, const int *ji, int nj)
{
    double d = 0.0;
    for (int k = 0; k < nj; k++) {
        const double *y = nsm_sim_y(s, ji[k], 0);
        for (int r = 0; r < nsm_model_inter_size(nsm_sim_model(s), ji[k]); r++) d = fmax(d, fabs(y[r]));
    }
    return d;
}

/* metric 1: the projection moves the bodies along W Hᵀ (mass-weighted);
 * all: project every live interaction (a stop reached within the step too) */
static nsm_sim *sim_all(nsm_model *m, double h, int projection, int metric, int all);
static nsm_sim *sim(nsm_model *m, double h, int projection, int metric) { return sim_all(m, h, projection, metric, 0); }

static nsm_sim *sim_all(nsm_model *m, double h, int projection, int metric, int all)
{
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    o.solver_options.tol = 1e-14;
    o.newton_tol = 1e-13;
    o.newton_max_iter = 50;
    o.projection = projection;
    o.projection_tol = 1e-12;
    o.projection_tol_unilateral = 1e-12;
    o.projection_metric = metric;
    o.projection_all = all;
    char err[256];
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    return s;
}

static void three_link_pendulum(int projection)
{
    const double L = 0.5, T = 2.0, h = 1e-3;
    double mass[3] = { 1.0, 0.8, 0.6 };
    nsm_model *m = nsm_model_new();
    double qs[3][7], axis[3] = { 0, 1, 0 };
    for (int k = 0; k < 3; k++) {
        double q[7] = { (k + 0.5) * L, 0, 0, 1, 0, 0, 0 };
        memcpy(qs[k], q, sizeof q);
        assert_int_equal(nsm_model_add_ds(m, rod(mass[k], L, q, NULL)), k);
    }
    int law = nsm_model_add_law(m, nsm_nslaw_equality_new(5));
    int ji[3];
    for (int k = 0; k < 3; k++) {
        double anchor[3] = { k * L, 0, 0 };
        nsm_relation *r = nsm_joint_new(NSM_JOINT_REVOLUTE, qs[k], k ? qs[k - 1] : NULL, anchor, axis);
        assert_non_null(r);
        ji[k] = nsm_model_add_interaction(m, r, law, k, k ? k - 1 : -1);
        assert_true(ji[k] >= 0);
    }
    nsm_sim *s = sim(m, h, projection, 0);
    double E0 = energy(s, m, 3, mass), worst_drift = 0.0, worst_E = 0.0, minz = 0.0;
    int N = (int)(T / h + 0.5);
    for (int k = 0; k < N; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        worst_drift = fmax(worst_drift, drift(s, ji, 3));
        worst_E = fmax(worst_E, fabs(energy(s, m, 3, mass) - E0));
        minz = fmin(minz, nsm_sim_q(s, 2)[2]);
        for (int j = 0; j < 3; j++) assert_true(fabs(nsm_sim_q(s, j)[1]) <= 1e-9);   /* stays in the x–z plane */
    }
    double scale = (mass[0] + mass[1] + mass[2]) * G * L;
    print_message("three-link pendulum (h = %g, %s): max joint drift %.3g, max |E - E0| = %.3g (%.3g m g L per second), "
                  "lowest z %.3f\n", h, projection ? "projection" : "no projection", worst_drift, worst_E, worst_E / scale / T, minz);
    assert_true(minz < -L);                   /* it swung down */
    assert_true(worst_drift <= 1e-8);
    assert_true(worst_E / scale / T <= 1e-6);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_three_link_pendulum(void **state) { (void)state; three_link_pendulum(NSM_PROJECTION_DIRECT); }
static void test_three_link_pendulum_free(void **state) { (void)state; three_link_pendulum(NSM_PROJECTION_NONE); }

static void prismatic(int with_stop)
{
    double beta = 0.4, axis[3] = { cos(beta), 0, -sin(beta) }, h = 1e-3;
    double q0[7] = { 0, 0, 1, 1, 0, 0, 0 }, anchor[3] = { 0, 0, 1 };
    nsm_model *m = nsm_model_new();
    int b = nsm_model_add_ds(m, rod(2.0, 0.3, q0, NULL));
    int law = nsm_model_add_law(m, nsm_nslaw_equality_new(5));
    int ji = nsm_model_add_interaction(m, nsm_joint_new(NSM_JOINT_PRISMATIC, q0, NULL, anchor, axis), law, b, -1);
    assert_true(ji >= 0);
    int stop = -1;
    const double limit = 0.05;
    if (with_stop) {
        /* s = displacement of the ground's anchor from the body's along
         * the axis: the body moving along +axis makes s negative; an upper
         * stop s ≤ … is a lower one on the body: s ≥ −limit */
        int l1 = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.0));
        stop = nsm_model_add_interaction(m, nsm_joint_stop_new(q0, NULL, anchor, axis, -limit, 0), l1, b, -1);
        assert_true(stop >= 0);
    }
    nsm_sim *s = sim(m, h, NSM_PROJECTION_DIRECT, 0);
    int N = 400;
    double a = G * sin(beta), T = N * h;
    for (int k = 0; k < N; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        const double *v = nsm_sim_v(s, b);
        for (int i = 3; i < 6; i++) assert_true(fabs(v[i]) <= 1e-10);
        assert_true(drift(s, &ji, 1) <= 1e-10);
    }
    const double *q = nsm_sim_q(s, b), *v = nsm_sim_v(s, b);
    double along = (q[0] - q0[0]) * axis[0] + (q[2] - q0[2]) * axis[2];
    double speed = v[0] * axis[0] + v[2] * axis[2];
    if (!with_stop) {
        print_message("prismatic: a = %.12g, exact %.12g\n", speed / T, a);
        assert_true(fabs(speed / T - a) <= 1e-9 * a);
        assert_true(fabs(along - 0.5 * a * T * T) <= 1e-9 * a * T * T);
    } else {
        print_message("prismatic with stop: travel %.12g (limit %.3g), speed %.3g\n", along, limit, speed);
        assert_true(fabs(along - limit) <= 1e-9);
        assert_true(fabs(speed) <= 1e-9);
    }
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_prismatic(void **state) { (void)state; prismatic(0); }
static void test_prismatic_stop(void **state) { (void)state; prismatic(1); }

static void test_fixed(void **state)
{
    (void)state;
    double q0[7] = { 0.2, 0.1, 0.5, cos(0.3), 0, sin(0.3), 0 }, anchor[3] = { 0, 0, 0.5 }, h = 1e-3;
    nsm_model *m = nsm_model_new();
    nsm_ds *d = rod(1.5, 0.4, q0, NULL);
    double f[6] = { 0.3, 0, -1.5 * G, 0.2, -0.1, 0.4 };
    nsm_ds_set_fext_constant(d, f);
    int b = nsm_model_add_ds(m, d);
    int law = nsm_model_add_law(m, nsm_nslaw_equality_new(6));
    int ji = nsm_model_add_interaction(m, nsm_joint_new(NSM_JOINT_FIXED, q0, NULL, anchor, NULL), law, b, -1);
    assert_true(ji >= 0);
    nsm_sim *s = sim(m, h, NSM_PROJECTION_DIRECT, 0);
    for (int k = 0; k < 500; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        const double *q = nsm_sim_q(s, b), *v = nsm_sim_v(s, b), *p = nsm_sim_p(s, b);
        for (int i = 0; i < 7; i++) assert_true(fabs(q[i] - q0[i]) <= 1e-12);
        for (int i = 0; i < 6; i++) {
            assert_true(fabs(v[i]) <= 1e-12);
            assert_true(fabs(p[i] + h * f[i]) <= 1e-12);   /* the joint's impulse cancels the wrench */
        }
    }
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_cylindrical(void **state)
{
    (void)state;
    double q0[7] = { 0, 0, 2, 1, 0, 0, 0 }, v0[6] = { 0, 0, 0, 0, 0, 3.0 }, axis[3] = { 0, 0, 1 }, h = 1e-3;
    double anchor[3] = { 0, 0, 2 };
    nsm_model *m = nsm_model_new();
    int b = nsm_model_add_ds(m, rod(1.0, 0.4, q0, v0));
    int law = nsm_model_add_law(m, nsm_nslaw_equality_new(4));
    int ji = nsm_model_add_interaction(m, nsm_joint_new(NSM_JOINT_CYLINDRICAL, q0, NULL, anchor, axis), law, b, -1);
    assert_true(ji >= 0);
    nsm_sim *s = sim(m, h, NSM_PROJECTION_DIRECT, 0);
    for (int k = 0; k < 300; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        double t = nsm_sim_time(s);
        const double *q = nsm_sim_q(s, b), *v = nsm_sim_v(s, b);
        assert_true(fabs(q[2] - (2 - 0.5 * G * t * t)) <= 1e-10);
        assert_true(fabs(v[5] - 3.0) <= 1e-10);
        assert_true(fabs(q[0]) + fabs(q[1]) + fabs(v[3]) + fabs(v[4]) <= 1e-10);
        /* the angle about the axis: 2 atan2(q3, q0) = 3 t */
        assert_true(fabs(2 * atan2(q[6], q[3]) - 3.0 * t) <= 1e-5);
    }
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_ball(void **state)
{
    (void)state;
    /* a rod hanging from the origin by its end, tilted and spun about z */
    double L = 0.6, c = cos(0.25), sn = sin(0.25), h = 1e-3;
    double q0[7] = { 0.5 * L * sn, 0, -0.5 * L * c, cos(0.5 * (1.5707963267948966 - 0.25)), 0, sin(0.5 * (1.5707963267948966 - 0.25)), 0 };
    double anchor[3] = { 0, 0, 0 }, mass = 1.0;
    nsm_model *m = nsm_model_new();
    double v0[6] = { 0, 0.8, 0, 0, 0, 0 };
    int b = nsm_model_add_ds(m, rod(mass, L, q0, v0));
    int law = nsm_model_add_law(m, nsm_nslaw_equality_new(3));
    int ji = nsm_model_add_interaction(m, nsm_joint_new(NSM_JOINT_BALL, q0, NULL, anchor, NULL), law, b, -1);
    assert_true(ji >= 0);
    nsm_sim *s = sim(m, h, NSM_PROJECTION_DIRECT, 0);
    double E0 = energy(s, m, 1, &mass), worst_E = 0.0, worst_d = 0.0;
    for (int k = 0; k < 2000; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        worst_d = fmax(worst_d, drift(s, &ji, 1));
        worst_E = fmax(worst_E, fabs(energy(s, m, 1, &mass) - E0));
    }
    print_message("ball joint: drift %.3g, |E - E0| = %.3g (%.3g m g L per second)\n", worst_d, worst_E,
                  worst_E / (mass * G * L) / 2.0);
    assert_true(worst_d <= 1e-8);
    assert_true(worst_E / (mass * G * L) / 2.0 <= 1e-6);
    nsm_sim_free(s);
    nsm_model_free(m);
}

/* a link on a revolute joint to the ground, released horizontal, stopped
 * at 45° below the horizontal by an angle stop (e = 0): it rests there.
 * φ is the ground's rotation relative to the link (body 1 = the link), so
 * the link turning down by θ about y is φ = −θ: the stop is φ ≥ −π/4. */
static void test_revolute_angle_stop(void **state)
{
    (void)state;
    const double L = 0.5, h = 1e-3, lim = 0.7853981633974483;
    double q0[7] = { 0.5 * L, 0, 0, 1, 0, 0, 0 }, axis[3] = { 0, 1, 0 }, anchor[3] = { 0, 0, 0 };
    nsm_model *m = nsm_model_new();
    int b = nsm_model_add_ds(m, rod(1.0, L, q0, NULL));
    int law = nsm_model_add_law(m, nsm_nslaw_equality_new(5));
    int ji = nsm_model_add_interaction(m, nsm_joint_new(NSM_JOINT_REVOLUTE, q0, NULL, anchor, axis), law, b, -1);
    int l1 = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.0));
    int st = nsm_model_add_interaction(m, nsm_joint_angle_stop_new(q0, NULL, axis, -lim, 0), l1, b, -1);
    assert_true(ji >= 0 && st >= 0);
    nsm_sim *s = sim_all(m, h, NSM_PROJECTION_DIRECT, 0, 1);
    for (int k = 0; k < 1500; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        const double *q = nsm_sim_q(s, b);
        double theta = atan2(-q[2], q[0]);   /* the link's angle below the horizontal */
        if (!(theta <= lim + 1e-9)) fail_msg("step %d: theta = %.12f beyond the stop %.12f (y = %g)", k, theta, lim, nsm_sim_y(s, st, 0)[0]);
    }
    const double *q = nsm_sim_q(s, b), *v = nsm_sim_v(s, b);
    double theta = atan2(-q[2], q[0]);
    print_message("revolute angle stop: rests at %.12f rad (limit %.12f), |omega| = %.3g\n", theta, lim, fabs(v[4]));
    assert_true(fabs(theta - lim) <= 1e-9);
    assert_true(fabs(v[4]) <= 1e-9);
    assert_true(drift(s, &ji, 1) <= 1e-10);
    nsm_sim_free(s);
    nsm_model_free(m);
}

/* Joint friction (nsm_joint_friction_new + a relay law of bounds ± T h):
 * a rod pivoting about the vertical axis through its centre, spun at ω0,
 * slows down at exactly T / I_zz and stops at t* = I_zz ω0 / T, then stays
 * (the scheme's impulse per step is T h while it slides: ω_k = ω0 − k h T / I
 * to round-off); driven by a torque τ from rest it stays stuck for τ < T
 * and turns up at (τ − T) / I_zz for τ > T. */
static void revolute_friction(double omega0, double tau, double T, double t_end, double *w_out, double *w_worst_err)
{
    const double L = 0.5, h = 1e-3, mass = 1.0;
    double q0[7] = { 0, 0, 0, 1, 0, 0, 0 }, v0[6] = { 0, 0, 0, 0, 0, omega0 };
    double axis[3] = { 0, 0, 1 }, anchor[3] = { 0, 0, 0 };
    nsm_model *m = nsm_model_new();
    int b = nsm_model_add_ds(m, rod(mass, L, q0, v0));
    double f[6] = { 0, 0, -mass * G, 0, 0, tau };
    assert_int_equal(nsm_ds_set_fext_constant(nsm_model_ds(m, b), f), NS_OK);
    int law = nsm_model_add_law(m, nsm_nslaw_equality_new(5));
    int ji = nsm_model_add_interaction(m, nsm_joint_new(NSM_JOINT_REVOLUTE, q0, NULL, anchor, axis), law, b, -1);
    assert_int_equal(nsm_joint_friction_size(NSM_JOINT_REVOLUTE), 1);
    double lb = -T * h, ub = T * h;
    int lf = nsm_model_add_law(m, nsm_nslaw_relay_new(1, &lb, &ub));
    int fi = nsm_model_add_interaction(m, nsm_joint_friction_new(NSM_JOINT_REVOLUTE, q0, NULL, anchor, axis), lf, b, -1);
    if (ji < 0 || fi < 0) fail_msg("add_interaction: %s", nsm_model_error(m));
    nsm_sim *s = sim(m, h, NSM_PROJECTION_NONE, 0);
    /* I_zz of rod(): m/3 (a² + b²), a = L/2, b = 0.02 */
    double Izz = mass / 3 * (0.25 * L * L + 0.02 * 0.02), worst = 0.0;
    int N = (int)(t_end / h + 0.5);
    for (int k = 1; k <= N; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        double t = k * h, exact;
        if (omega0 > 0) exact = fmax(0.0, omega0 - T / Izz * t);
        else exact = tau > T ? (tau - T) / Izz * t : 0.0;
        worst = fmax(worst, fabs(nsm_sim_v(s, b)[5] - exact));
    }
    *w_out = nsm_sim_v(s, b)[5];
    *w_worst_err = worst;
    assert_true(drift(s, &ji, 1) <= 1e-8);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_revolute_friction(void **state)
{
    (void)state;
    double w, err;
    revolute_friction(3.0, 0.0, 0.05, 1.5, &w, &err);    /* stops at t* = 1.258 s */
    print_message("revolute friction, spin-down: max |omega - exact| = %.3g, final omega %.3g\n", err, w);
    assert_true(err <= 1e-10);
    assert_true(fabs(w) <= 1e-12);
    revolute_friction(0.0, 0.03, 0.05, 0.5, &w, &err);   /* τ < T: stuck */
    print_message("revolute friction, tau < T: max |omega| = %.3g\n", err);
    assert_true(err <= 1e-12);
    revolute_friction(0.0, 0.08, 0.05, 0.5, &w, &err);   /* τ > T: (τ − T) / I */
    print_message("revolute friction, tau > T: max |omega - (tau - T) t / I| = %.3g\n", err);
    assert_true(err <= 1e-10);
    assert_true(w > 0.5);
}

/* A slider on a horizontal prismatic joint launched at v0 against a
 * friction force F stops after v0 m / F, decelerating at F / m. */
static void test_prismatic_friction(void **state)
{
    (void)state;
    const double h = 1e-3, mass = 2.0, v0 = 1.2, F = 3.0;
    double q0[7] = { 0, 0, 1, 1, 0, 0, 0 }, v[6] = { v0, 0, 0, 0, 0, 0 }, axis[3] = { 1, 0, 0 };
    nsm_model *m = nsm_model_new();
    int b = nsm_model_add_ds(m, rod(mass, 0.3, q0, v));
    int law = nsm_model_add_law(m, nsm_nslaw_equality_new(5));
    int ji = nsm_model_add_interaction(m, nsm_joint_new(NSM_JOINT_PRISMATIC, q0, NULL, q0, axis), law, b, -1);
    double lb = -F * h, ub = F * h;
    int lf = nsm_model_add_law(m, nsm_nslaw_relay_new(1, &lb, &ub));
    int fi = nsm_model_add_interaction(m, nsm_joint_friction_new(NSM_JOINT_PRISMATIC, q0, NULL, q0, axis), lf, b, -1);
    if (ji < 0 || fi < 0) fail_msg("add_interaction: %s", nsm_model_error(m));
    nsm_sim *s = sim(m, h, NSM_PROJECTION_NONE, 0);
    double worst = 0.0;
    for (int k = 1; k <= 1000; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        worst = fmax(worst, fabs(nsm_sim_v(s, b)[0] - fmax(0.0, v0 - F / mass * k * h)));
    }
    /* travel: v0² m / (2F) = 0.48 (the trapezoid rule is exact on a linear v) */
    double x = nsm_sim_q(s, b)[0];
    print_message("prismatic friction: max |v - exact| = %.3g, travel %.12f (exact %.12f)\n", worst, x, v0 * v0 * mass / (2 * F));
    assert_true(worst <= 1e-10);
    assert_true(fabs(x - v0 * v0 * mass / (2 * F)) <= 1e-9);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_bad_input(void **state)
{
    (void)state;
    double q[7] = { 0, 0, 0, 1, 0, 0, 0 }, p[3] = { 0 }, ax[3] = { 0, 0, 1 }, bad_ax[3] = { 0, 0, 2 };
    assert_null(nsm_joint_new(NSM_JOINT_REVOLUTE, q, NULL, p, bad_ax));
    assert_non_null(strstr(nsm_constructor_error(), "axis"));
    assert_null(nsm_joint_new(NSM_JOINT_REVOLUTE, q, NULL, p, NULL));
    assert_non_null(strstr(nsm_constructor_error(), "axis is NULL"));
    assert_null(nsm_joint_new(NSM_JOINT_BALL, q, NULL, NULL, NULL));
    assert_non_null(strstr(nsm_constructor_error(), "anchor"));
    assert_null(nsm_joint_new((nsm_joint_type)42, q, NULL, p, ax));
    assert_non_null(strstr(nsm_constructor_error(), "unknown joint type"));
    double qn[7] = { 0, 0, 0, 1, 1, 0, 0 };
    assert_null(nsm_joint_new(NSM_JOINT_FIXED, q, qn, p, NULL));
    assert_non_null(strstr(nsm_constructor_error(), "q2"));
    assert_null(nsm_joint_friction_new(NSM_JOINT_BALL, q, NULL, p, ax));
    assert_non_null(strstr(nsm_constructor_error(), "no friction rows"));
    assert_null(nsm_joint_friction_new(NSM_JOINT_REVOLUTE, q, NULL, p, bad_ax));
    assert_non_null(strstr(nsm_constructor_error(), "axis"));
    assert_null(nsm_joint_friction_new(NSM_JOINT_REVOLUTE, NULL, NULL, p, ax));
    assert_non_null(strstr(nsm_constructor_error(), "q1 is NULL"));
    assert_int_equal(nsm_joint_friction_size(NSM_JOINT_FIXED), -1);
    assert_null(nsm_joint_stop_new(q, NULL, p, ax, NAN, 0));
    assert_non_null(strstr(nsm_constructor_error(), "limit"));
    assert_null(nsm_joint_angle_stop_new(q, NULL, bad_ax, 0.1, 1));
    assert_non_null(strstr(nsm_constructor_error(), "axis"));
    assert_int_equal(nsm_joint_size(NSM_JOINT_PRISMATIC), 5);
    assert_int_equal(nsm_joint_size((nsm_joint_type)-1), -1);
    /* a joint of size 5 cannot take a law of size 3 */
    nsm_model *m = nsm_model_new();
    double I[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    int b = nsm_model_add_ds(m, nsm_ds_newton_euler_new(1.0, I, q, NULL));
    int law = nsm_model_add_law(m, nsm_nslaw_equality_new(3));
    assert_int_equal(nsm_model_add_interaction(m, nsm_joint_new(NSM_JOINT_REVOLUTE, q, NULL, p, ax), law, b, -1), -1);
    nsm_model_free(m);
}

/* the relations' evaluator (mechanics/relation/relation_kind.h, private):
 * y and H of a relation at positions Q */
ns_status nsm_relation_eval(const nsm_relation *r, int inter, double t, const double *Q, const double *V,
                            const double *lam, double *y0, double *y1, double *H, double *work, char *err);

/* Q ⊕ ε d for two rigid bodies: x + ε dx, q ⊗ (1, ½ ε dω) normalised */
static void advance2(const double *Q, const double *d, double eps, int nb, double *out)
{
    for (int k = 0; k < nb; k++) {
        const double *q = Q + 7 * k + 3, *w = d + 6 * k + 3;
        double c[4] = { 1.0, 0.5 * eps * w[0], 0.5 * eps * w[1], 0.5 * eps * w[2] }, r[4];
        r[0] = q[0] * c[0] - q[1] * c[1] - q[2] * c[2] - q[3] * c[3];
        r[1] = q[0] * c[1] + q[1] * c[0] + q[2] * c[3] - q[3] * c[2];
        r[2] = q[0] * c[2] - q[1] * c[3] + q[2] * c[0] + q[3] * c[1];
        r[3] = q[0] * c[3] + q[1] * c[2] - q[2] * c[1] + q[3] * c[0];
        double n = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
        for (int c3 = 0; c3 < 3; c3++) out[7 * k + c3] = Q[7 * k + c3] + eps * d[6 * k + c3];
        for (int i = 0; i < 4; i++) out[7 * k + 3 + i] = r[i] / n;
    }
}

/* A coupler's y and H: y is c2 − ratio c1 of the coordinates as the
 * joints define them (checked on a known motion), H its derivative along
 * any velocity (central differences, 1e-7). */
static void test_coupler(void **state)
{
    (void)state;
    double s2 = sqrt(0.5);
    double q1[7] = { 0.3, -0.2, 0.5, 1, 0, 0, 0 }, q2[7] = { 1.0, 0.4, 0.1, s2, 0, s2, 0 };
    nsm_joint_coord c1 = { NSM_JOINT_REVOLUTE, 0, 0, -1, { 0.1, 0.0, 0.2 }, { 0, 0.6, 0.8 } };
    nsm_joint_coord c2 = { NSM_JOINT_CYLINDRICAL, 0, 1, 0, { 0.5, 0.1, 0.3 }, { 1, 0, 0 } };
    nsm_relation *r = nsm_joint_coupler_new(q1, q2, &c1, &c2, 0.7);
    assert_non_null(r);
    assert_int_equal(nsm_relation_size(r), 1);
    double Q[14], y, H[12], work[16], err[1];
    char msg[NS_ERRMSG_LEN];
    (void)err;
    memcpy(Q, q1, sizeof q1);
    memcpy(Q + 7, q2, sizeof q2);
    assert_int_equal(nsm_relation_eval(r, 0, 0.0, Q, NULL, NULL, &y, NULL, H, work, msg), NS_OK);
    assert_true(fabs(y) <= 1e-15);   /* 0 in the poses given */
    /* body 1 turned by 0.4 about the revolute axis: c1 (the ground relative
     * to body 1) = −0.4; body 2 moved by 0.25 along x: c2 = 0.25 */
    double d[12] = { 0 }, Qm[14];
    d[3] = 0.0; d[4] = 0.6; d[5] = 0.8;   /* ω of body 1 (body frame = world here) */
    d[6] = 1.0;                           /* v of body 2 */
    advance2(Q, d, 1.0, 2, Qm);
    /* exact coordinates after the step: the Cayley step turns body 1 by
     * 2 atan(1/2) about the axis (through its centre); c1 (the ground
     * relative to body 1 about the revolute axis) = −turn; c2 (body 1's
     * anchor relative to body 2's, along x fixed in body 2, which only
     * moved by +1 along x): x · (x1 + R r1 − (anchor + e_x)) */
    double turn = 2.0 * atan(0.5);
    assert_int_equal(nsm_relation_eval(r, 0, 0.0, Qm, NULL, NULL, &y, NULL, H, work, msg), NS_OK);
    {
        double a[3] = { 0, 0.6, 0.8 }, ca = cos(turn), sa = sin(turn);
        double r1[3] = { 0.5 - 0.3, 0.1 + 0.2, 0.3 - 0.5 }, ar = a[0] * r1[0] + a[1] * r1[1] + a[2] * r1[2], xr[3];
        xr[0] = a[1] * r1[2] - a[2] * r1[1];
        xr[1] = a[2] * r1[0] - a[0] * r1[2];
        xr[2] = a[0] * r1[1] - a[1] * r1[0];
        double R1r1x = r1[0] * ca + xr[0] * sa + a[0] * ar * (1 - ca);   /* Rodrigues, x component */
        double c2v = 0.3 + R1r1x - (0.5 + 1.0), c1v = -turn;
        print_message("coupler: y = %.15g, c2 - 0.7 c1 = %.15g\n", y, c2v - 0.7 * c1v);
        assert_true(fabs(y - (c2v - 0.7 * c1v)) <= 1e-13);
    }
    /* H against central differences at that pose, along three velocities */
    double dirs[3][12] = { { 0.3, -0.1, 0.2, 0.5, -0.4, 0.9, -0.2, 0.7, 0.1, 0.3, 0.6, -0.8 },
                           { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0 },
                           { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.2, -1.0, 0.4 } };
    double worst = 0.0;
    for (int k = 0; k < 3; k++) {
        double Qp[14], Qn[14], yp, yn, Hd = 0.0, eps = 1e-6;
        advance2(Qm, dirs[k], eps, 2, Qp);
        advance2(Qm, dirs[k], -eps, 2, Qn);
        nsm_relation_eval(r, 0, 0.0, Qm, NULL, NULL, &y, NULL, H, work, msg);
        for (int j = 0; j < 12; j++) Hd += H[j] * dirs[k][j];
        nsm_relation_eval(r, 0, 0.0, Qp, NULL, NULL, &yp, NULL, H, work, msg);
        nsm_relation_eval(r, 0, 0.0, Qn, NULL, NULL, &yn, NULL, H, work, msg);
        worst = fmax(worst, fabs((yp - yn) / (2 * eps) - Hd));
    }
    print_message("coupler: max |H d - finite difference| = %.3g\n", worst);
    assert_true(worst <= 1e-7);
    nsm_relation_free(r);
    /* bad input */
    assert_null(nsm_joint_coupler_new(NULL, q2, &c1, &c2, 1.0));
    assert_non_null(strstr(nsm_constructor_error(), "q1 is NULL"));
    assert_null(nsm_joint_coupler_new(q1, q2, &c1, &c2, NAN));
    assert_non_null(strstr(nsm_constructor_error(), "ratio"));
    assert_null(nsm_joint_coupler_new(q1, q2, NULL, &c2, 1.0));
    assert_non_null(strstr(nsm_constructor_error(), "c1 is NULL"));
    nsm_joint_coord b = c1;
    b.dof = 1;
    assert_null(nsm_joint_coupler_new(q1, q2, &b, &c2, 1.0));
    assert_non_null(strstr(nsm_constructor_error(), "c1: dof 1 out of range"));
    b = c2; b.body2 = 1;
    assert_null(nsm_joint_coupler_new(q1, q2, &c1, &b, 1.0));
    assert_non_null(strstr(nsm_constructor_error(), "c2: bodies 1, 1"));
    b = c1; b.body2 = 1;
    assert_null(nsm_joint_coupler_new(q1, NULL, &b, &c2, 1.0));
    assert_non_null(strstr(nsm_constructor_error(), "c1: bodies 0, 1"));
    b = c1; b.type = NSM_JOINT_BALL;
    assert_null(nsm_joint_coupler_new(q1, q2, &b, &c2, 1.0));
    assert_non_null(strstr(nsm_constructor_error(), "has no coordinate"));
    b = c1; b.axis[2] = 2.0;
    assert_null(nsm_joint_coupler_new(q1, q2, &b, &c2, 1.0));
    assert_non_null(strstr(nsm_constructor_error(), "c1: axis has norm"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_link_pendulum), cmocka_unit_test(test_three_link_pendulum_free), cmocka_unit_test(test_revolute_friction), cmocka_unit_test(test_prismatic_friction), cmocka_unit_test(test_prismatic),
        cmocka_unit_test(test_prismatic_stop), cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_cylindrical), cmocka_unit_test(test_ball),
        cmocka_unit_test(test_revolute_angle_stop), cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_coupler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
