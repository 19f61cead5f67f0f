/* test_rigid_body.c — the Newton–Euler system (rigid body: q = position +
 * unit quaternion, v = linear velocity + body-frame ω) under Moreau–Jean.
 *
 *  - torque-free asymmetric body, θ = ½: the scheme is the implicit midpoint
 *    rule on ω with a Cayley step of the rotation, so the kinetic energy
 *    ½ ωᵀIω and the world angular momentum R(q) I ω are conserved up to
 *    the Newton tolerance and round-off: checked to 1e-8 relative over 10⁴
 *    steps, the quaternion's norm 1 to 1e-12 at every step;
 *  - symmetric top (I1 = I2): the body-frame ω precesses about the symmetry
 *    axis at Ω = (I3 − I1)/I1 ω3 (analytic, 1e-5 with the scheme's O(h²)
 *    phase error);
 *  - free fall with a spin: x(t) = x0 + v0 t − ½ g t² exactly (constant
 *    force, θ = ½);
 *  - bad input: each refused with a message naming the field. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nsm.h"

static void rot(const double *p, double *R)
{
    double w = p[0], x = p[1], y = p[2], z = p[3];
    R[0] = 1 - 2 * (y * y + z * z); R[3] = 2 * (x * y - w * z);     R[6] = 2 * (x * z + w * y);
    R[1] = 2 * (x * y + w * z);     R[4] = 1 - 2 * (x * x + z * z); R[7] = 2 * (y * z - w * x);
    R[2] = 2 * (x * z - w * y);     R[5] = 2 * (y * z + w * x);     R[8] = 1 - 2 * (x * x + y * y);
}

/* E = ½ ωᵀIω, L = R I ω (world) for a diagonal I */
static void invariants(const double *I, const double *q, const double *v, double *E, double *L)
{
    double Iw[3] = { I[0] * v[3], I[1] * v[4], I[2] * v[5] }, R[9];
    *E = 0.5 * (v[3] * Iw[0] + v[4] * Iw[1] + v[5] * Iw[2]);
    rot(q + 3, R);
    for (int i = 0; i < 3; i++) L[i] = R[i] * Iw[0] + R[i + 3] * Iw[1] + R[i + 6] * Iw[2];
}

static nsm_sim *one_body(nsm_model **pm, const double *Id, const double *q0, const double *v0, double h)
{
    double I[9] = { Id[0], 0, 0, 0, Id[1], 0, 0, 0, Id[2] };
    nsm_model *m = nsm_model_new();
    assert_non_null(m);
    nsm_ds *b = nsm_ds_newton_euler_new(2.0, I, q0, v0);
    assert_non_null(b);
    assert_int_equal(nsm_ds_size(b), 6);
    assert_int_equal(nsm_ds_position_size(b), 7);
    assert_int_equal(nsm_model_add_ds(m, b), 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    o.theta = 0.5;
    o.newton_tol = 1e-14;
    o.newton_max_iter = 50;
    char err[256];
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    *pm = m;
    return s;
}

static void test_torque_free_asymmetric(void **state)
{
    (void)state;
    const double Id[3] = { 1.0, 2.0, 3.5 };
    /* a general orientation and a spin near the intermediate axis (it
     * tumbles: the hardest case for the invariants) */
    double a = 0.4, nrm = sqrt(1.0 + 4.0 + 9.0);
    double q0[7] = { 0.1, -0.2, 0.3, cos(a), sin(a) / nrm, 2 * sin(a) / nrm, 3 * sin(a) / nrm };
    double v0[6] = { 0.5, 0.0, -0.25, 0.05, 2.0, 0.1 };
    nsm_model *m;
    nsm_sim *s = one_body(&m, Id, q0, v0, 1e-3);
    double E0, L0[3], E, L[3];
    invariants(Id, q0, v0, &E0, L0);
    double nL0 = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
    double worst_E = 0.0, worst_L = 0.0, worst_q = 0.0, wmin = 1e300, wmax = -1e300;
    for (int k = 0; k < 10000; k++) {
        ns_status st = nsm_sim_step(s);
        if (st != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        const double *q = nsm_sim_q(s, 0), *v = nsm_sim_v(s, 0);
        invariants(Id, q, v, &E, L);
        worst_E = fmax(worst_E, fabs(E - E0) / E0);
        double d = 0.0;
        for (int i = 0; i < 3; i++) d += (L[i] - L0[i]) * (L[i] - L0[i]);
        worst_L = fmax(worst_L, sqrt(d) / nL0);
        worst_q = fmax(worst_q, fabs(sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]) - 1.0));
        wmin = fmin(wmin, v[4]); wmax = fmax(wmax, v[4]);
        /* the centre of mass moves freely */
        double t = nsm_sim_time(s);
        for (int i = 0; i < 3; i++) assert_true(fabs(q[i] - (q0[i] + v0[i] * t)) <= 1e-10);
    }
    print_message("torque-free: max rel. energy error %.3g, angular momentum %.3g, | |q| - 1 | %.3g, "
                  "omega_2 in [%.3f, %.3f]\n", worst_E, worst_L, worst_q, wmin, wmax);
    assert_true(wmin < 0.0 && wmax > 1.5);   /* it did tumble (ω₂ changed sign) */
    assert_true(worst_E <= 1e-8);
    assert_true(worst_L <= 1e-8);
    assert_true(worst_q <= 1e-12);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_symmetric_top(void **state)
{
    (void)state;
    const double Id[3] = { 1.0, 1.0, 2.0 };
    double q0[7] = { 0, 0, 0, 1, 0, 0, 0 }, w0 = 0.3, w3 = 2.0;
    double v0[6] = { 0, 0, 0, w0, 0.0, w3 };
    nsm_model *m;
    double h = 1e-3;
    nsm_sim *s = one_body(&m, Id, q0, v0, h);
    double Om = (Id[2] - Id[0]) / Id[0] * w3, worst = 0.0;
    for (int k = 0; k < 2000; k++) {
        assert_int_equal(nsm_sim_step(s), NS_OK);
        const double *v = nsm_sim_v(s, 0);
        double t = nsm_sim_time(s);
        /* I ω̇ = −ω × Iω: ω̇1 = −Ω ω2, ω̇2 = Ω ω1 */
        worst = fmax(worst, fabs(v[3] - w0 * cos(Om * t)) + fabs(v[4] - w0 * sin(Om * t)));
        assert_true(fabs(v[5] - w3) <= 1e-12);
    }
    print_message("symmetric top: max |omega - analytic| = %.3g over 2 s\n", worst);
    assert_true(worst <= 1e-5 * w0);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_free_fall(void **state)
{
    (void)state;
    double I[9] = { 0.1, 0, 0, 0, 0.2, 0, 0, 0, 0.3 };
    double q0[7] = { 1, 2, 3, 1, 0, 0, 0 }, v0[6] = { 0.5, -1, 2, 1, 2, 3 };
    nsm_model *m = nsm_model_new();
    nsm_ds *b = nsm_ds_newton_euler_new(3.0, I, q0, v0);
    double g = 9.81, f[6] = { 0, 0, -3.0 * g, 0, 0, 0 };
    assert_int_equal(nsm_ds_set_fext_constant(b, f), NS_OK);
    nsm_model_add_ds(m, b);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-2;
    char err[256];
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    for (int k = 0; k < 200; k++) {
        assert_int_equal(nsm_sim_step(s), NS_OK);
        double t = nsm_sim_time(s);
        const double *q = nsm_sim_q(s, 0), *v = nsm_sim_v(s, 0);
        assert_true(fabs(q[0] - (1 + 0.5 * t)) <= 1e-12 * (1 + t));
        assert_true(fabs(q[2] - (3 + 2 * t - 0.5 * g * t * t)) <= 1e-11 * (1 + t * t));
        assert_true(fabs(v[2] - (2 - g * t)) <= 1e-11 * (1 + t));
    }
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void expect_refused(nsm_ds *b, const char *words)
{
    assert_null(b);
    const char *e = nsm_constructor_error();
    if (!strstr(e, words)) fail_msg("message \"%s\" does not name \"%s\"", e, words);
}

static void test_bad_input(void **state)
{
    (void)state;
    double I[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    double q[7] = { 0, 0, 0, 1, 0, 0, 0 };
    expect_refused(nsm_ds_newton_euler_new(0.0, I, q, NULL), "mass");
    expect_refused(nsm_ds_newton_euler_new(-1.0, I, q, NULL), "mass");
    expect_refused(nsm_ds_newton_euler_new(NAN, I, q, NULL), "mass");
    expect_refused(nsm_ds_newton_euler_new(1.0, NULL, q, NULL), "inertia");
    double Ibad[9] = { 1, 0.5, 0, 0, 1, 0, 0, 0, 1 };
    expect_refused(nsm_ds_newton_euler_new(1.0, Ibad, q, NULL), "inertia is not symmetric");
    double Ineg[9] = { 1, 0, 0, 0, -1, 0, 0, 0, 1 };
    expect_refused(nsm_ds_newton_euler_new(1.0, Ineg, q, NULL), "inertia is not positive definite");
    double qn[7] = { 0, 0, 0, 1, 0.1, 0, 0 };
    expect_refused(nsm_ds_newton_euler_new(1.0, I, qn, NULL), "quaternion");
    double qnan[7] = { 0, NAN, 0, 1, 0, 0, 0 };
    expect_refused(nsm_ds_newton_euler_new(1.0, I, qnan, NULL), "q0");
    double vnan[6] = { 0, 0, INFINITY, 0, 0, 0 };
    expect_refused(nsm_ds_newton_euler_new(1.0, I, q, vnan), "v0");
    /* a relation that does not know rigid bodies cannot couple one */
    nsm_model *m = nsm_model_new();
    nsm_ds *b = nsm_ds_newton_euler_new(1.0, I, q, NULL);
    assert_non_null(b);
    nsm_model_add_ds(m, b);
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.0));
    double H[6] = { 0, 0, 1, 0, 0, 0 };
    assert_int_equal(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 6, H, NULL), law, 0, -1), -1);
    assert_non_null(strstr(nsm_model_error(m), "rigid body"));
    assert_int_equal(nsm_ds_newton_euler_set_forces(NULL, NULL), NS_BAD_INPUT);
#ifdef NSM_HAVE_EVENT_DRIVEN
    /* the event-driven scheme takes q̇ = v systems only: refused by name */
    nsm_ed_options eo;
    nsm_ed_options_default(&eo);
    eo.T = 1.0;
    char err[NS_ERRMSG_LEN];
    assert_null(nsm_ed_new(m, &eo, err));
    if (!strstr(err, "rigid body")) fail_msg("nsm_ed_new: \"%s\" does not name the rigid body", err);
#endif
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torque_free_asymmetric), cmocka_unit_test(test_symmetric_top),
        cmocka_unit_test(test_free_fall), cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
