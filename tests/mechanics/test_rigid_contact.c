/* test_rigid_contact.c — contacts of rigid bodies (nsm_relation_contact_new)
 * against exact answers:
 *  - a box at rest on a plane (4 corner contacts; FC3D, and normal-only
 *    LCP): the corner reactions sum to m g within 1e-10 relative at every
 *    one of 10⁴ steps, and the box does not move (no drift);
 *  - a box on a plane inclined below atan μ stays stuck (friction = m g
 *    sin α); above it, it slides with a = g (sin α − μ cos α), 1e-6
 *    relative;
 *  - a sphere rolling without slipping down an incline: a = 5/7 g sin α,
 *    1e-6 relative, and v = ω ρ;
 *  - body–body: two equal spheres meeting head-on with e = 1 exchange their
 *    velocities (momentum and energy conserved); a sphere resting on a box
 *    on the ground: the ground carries both weights, the box's top the
 *    sphere's.
 * The incline is the plane z = 0 with gravity tilted by α in the x–z
 * plane. Moreau–Jean θ = ½ integrates constant forces exactly, so the
 * tolerances are the one-step solver's (tol 1e-14). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nsm.h"

#define G 9.81
static const double BA = 0.5, BB = 0.3, BC = 0.2;   /* box half extents */

static nsm_ds *box(double m, const double *q0, const double *v0, double alpha)
{
    double I[9] = { m / 3 * (BB * BB + BC * BC), 0, 0, 0, m / 3 * (BA * BA + BC * BC), 0, 0, 0, m / 3 * (BA * BA + BB * BB) };
    nsm_ds *b = nsm_ds_newton_euler_new(m, I, q0, v0);
    assert_non_null(b);
    double f[6] = { m * G * sin(alpha), 0, -m * G * cos(alpha), 0, 0, 0 };
    assert_int_equal(nsm_ds_set_fext_constant(b, f), NS_OK);
    return b;
}

/* 4 corner contacts of body `body` on the ground z = 0; ids in ci */
static void corners(nsm_model *m, int body, int law, int rows, int *ci)
{
    for (int k = 0; k < 4; k++) {
        nsm_contact_frame c = { .normal = { 0, 0, 1 } };
        c.r1[0] = (k & 1) ? BA : -BA;
        c.r1[1] = (k & 2) ? BB : -BB;
        c.r1[2] = -BC;
        ci[k] = nsm_model_add_interaction(m, nsm_relation_contact_new(rows, 1, &c), law, body, -1);
        assert_true(ci[k] >= 0);
    }
}

static nsm_sim *sim(nsm_model *m, double h)
{
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    o.solver_options.tol = 1e-14;
    o.solver_options.max_iter = 100000;
    o.newton_tol = 1e-14;
    o.newton_max_iter = 50;
    char err[256];
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    return s;
}

static void box_at_rest(int rows)
{
    nsm_model *m = nsm_model_new();
    double q0[7] = { 0.3, -0.1, BC, 1, 0, 0, 0 }, mass = 2.5, h = 1e-3;
    int b = nsm_model_add_ds(m, box(mass, q0, NULL, 0.0));
    int law = nsm_model_add_law(m, rows == 3 ? nsm_nslaw_newton_coulomb_new(3, 0.0, 0.5) : nsm_nslaw_newton_new(1, 0.0));
    int ci[4];
    corners(m, b, law, rows, ci);
    nsm_sim *s = sim(m, h);
    double worst = 0.0, drift = 0.0;
    for (int k = 0; k < 10000; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        /* the tangential reactions may hold a self-equilibrated set (four
         * contacts are statically indeterminate): only their sum is zero */
        double sum = 0.0, tx = 0.0, ty = 0.0;
        for (int c = 0; c < 4; c++) {
            const double *lam = nsm_sim_lambda(s, ci[c], 1);
            assert_true(lam[0] >= -1e-14);
            sum += lam[0] / h;
            if (rows == 3) { tx += lam[1] / h; ty += lam[2] / h; }
        }
        assert_true(fabs(tx) + fabs(ty) <= 1e-10 * mass * G);
        worst = fmax(worst, fabs(sum - mass * G) / (mass * G));
        const double *q = nsm_sim_q(s, b);
        drift = fmax(drift, fabs(q[0] - q0[0]) + fabs(q[1] - q0[1]) + fabs(q[2] - q0[2]) +
                     fabs(q[4]) + fabs(q[5]) + fabs(q[6]));
    }
    print_message("box at rest (%s): max |sum of corner reactions - m g| / m g = %.3g, max drift %.3g\n",
                  rows == 3 ? "FC3D" : "LCP", worst, drift);
    assert_true(worst <= 1e-10);
    assert_true(drift <= 1e-10);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_box_at_rest_fc3d(void **state) { (void)state; box_at_rest(3); }
static void test_box_at_rest_lcp(void **state) { (void)state; box_at_rest(1); }

/* box on the incline α with friction μ, from rest, T = 0.5 s */
static void incline(double alpha, double mu)
{
    nsm_model *m = nsm_model_new();
    double q0[7] = { 0, 0, BC, 1, 0, 0, 0 }, mass = 1.5, h = 1e-3;
    int b = nsm_model_add_ds(m, box(mass, q0, NULL, alpha));
    int law = nsm_model_add_law(m, nsm_nslaw_newton_coulomb_new(3, 0.0, mu));
    int ci[4];
    corners(m, b, law, 3, ci);
    nsm_sim *s = sim(m, h);
    int N = 500;
    int stick = tan(alpha) < mu;
    for (int k = 0; k < N; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        const double *v = nsm_sim_v(s, b);
        for (int i = 3; i < 6; i++) assert_true(fabs(v[i]) <= 1e-9);   /* no rotation */
        assert_true(fabs(v[2]) <= 1e-10);
        if (stick) {
            
            assert_true(fabs(v[0]) + fabs(v[1]) <= 1e-10);
        }
    }
    const double *v = nsm_sim_v(s, b), *q = nsm_sim_q(s, b);
    double T = N * h;
    if (stick) {
        /* the tangential reactions hold m g sin α along −x */
        double t1[3], t2[3], n[3] = { 0, 0, 1 }, fx = 0.0;
        nsm_contact_tangents(n, t1, t2);
        for (int c = 0; c < 4; c++) {
            const double *lam = nsm_sim_lambda(s, ci[c], 1);
            fx += (lam[1] * t1[0] + lam[2] * t2[0]) / h;
        }
        print_message("incline %.3f < atan mu: stuck, |x| = %.3g, friction %.12g (m g sin a = %.12g)\n",
                      alpha, fabs(q[0]), fx, mass * G * sin(alpha));
        assert_true(fabs(q[0]) <= 1e-10);
        assert_true(fabs(fx + mass * G * sin(alpha)) <= 1e-9 * mass * G);
    } else {
        double a = v[0] / T, exact = G * (sin(alpha) - mu * cos(alpha));
        print_message("incline %.3f > atan mu: a = %.12g, exact %.12g, rel. error %.3g\n", alpha, a, exact,
                      fabs(a - exact) / exact);
        assert_true(fabs(a - exact) <= 1e-6 * exact);
        assert_true(fabs(q[0] - 0.5 * exact * T * T) <= 1e-6 * exact * T * T);
    }
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_incline_stick(void **state) { (void)state; incline(0.35, 0.5); }   /* tan = 0.365 */
static void test_incline_slip(void **state) { (void)state; incline(0.6, 0.5); }     /* tan = 0.684 */

static void test_rolling_sphere(void **state)
{
    (void)state;
    double rho = 0.1, mass = 1.2, alpha = 0.3, h = 1e-3, Is = 0.4 * mass * rho * rho;
    double I[9] = { Is, 0, 0, 0, Is, 0, 0, 0, Is }, q0[7] = { 0, 0, rho, 1, 0, 0, 0 };
    nsm_model *m = nsm_model_new();
    nsm_ds *sp = nsm_ds_newton_euler_new(mass, I, q0, NULL);
    double f[6] = { mass * G * sin(alpha), 0, -mass * G * cos(alpha), 0, 0, 0 };
    nsm_ds_set_fext_constant(sp, f);
    int b = nsm_model_add_ds(m, sp);
    int law = nsm_model_add_law(m, nsm_nslaw_newton_coulomb_new(3, 0.0, 0.8));
    /* round shape: the arm −ρ n follows the normal, not the body */
    nsm_contact_frame c = { .normal = { 0, 0, 1 }, .r1 = { 0, 0, -rho }, .r1_world = 1 };
    assert_true(nsm_model_add_interaction(m, nsm_relation_contact_new(3, 1, &c), law, b, -1) >= 0);
    nsm_sim *s = sim(m, h);
    int N = 800;
    for (int k = 0; k < N; k++) if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
    const double *v = nsm_sim_v(s, b), *q = nsm_sim_q(s, b);
    double a = v[0] / (N * h), exact = 5.0 / 7.0 * G * sin(alpha);
    /* ω_y in the world frame: R ω */
    double w = q[3], x = q[4], y = q[5], z = q[6];
    double wy = 2 * (x * y + w * z) * v[3] + (1 - 2 * (x * x + z * z)) * v[4] + 2 * (y * z - w * x) * v[5];
    print_message("rolling sphere: a = %.12g, 5/7 g sin a = %.12g, rel. error %.3g; v - w rho = %.3g\n", a, exact,
                  fabs(a - exact) / exact, v[0] - wy * rho);
    assert_true(fabs(a - exact) <= 1e-6 * exact);
    assert_true(fabs(v[0] - wy * rho) <= 1e-9 * fabs(v[0]));
    assert_true(fabs(q[2] - rho) <= 1e-10);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_spheres_collide(void **state)
{
    (void)state;
    double rho = 0.1, Is = 0.4 * rho * rho, I[9] = { Is, 0, 0, 0, Is, 0, 0, 0, Is };
    double q1[7] = { 0, 0, 0, 1, 0, 0, 0 }, q2[7] = { 0.25, 0, 0, 1, 0, 0, 0 };
    double v1[6] = { 1, 0, 0, 0, 0, 0 }, v2[6] = { -1, 0, 0, 0, 0, 0 };
    nsm_model *m = nsm_model_new();
    int a = nsm_model_add_ds(m, nsm_ds_newton_euler_new(1.0, I, q1, v1));
    int b = nsm_model_add_ds(m, nsm_ds_newton_euler_new(1.0, I, q2, v2));
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 1.0));
    /* normal from body 2 (right) towards body 1 (left) */
    nsm_contact_frame c = { .normal = { -1, 0, 0 }, .r1 = { rho, 0, 0 }, .r1_world = 1, .r2 = { -rho, 0, 0 }, .r2_world = 1 };
    int ci = nsm_model_add_interaction(m, nsm_relation_contact_new(1, 2, &c), law, a, b);
    assert_true(ci >= 0);
    nsm_sim *s = sim(m, 1e-3);
    for (int k = 0; k < 100; k++) {
        assert_int_equal(nsm_sim_step(s), NS_OK);
        const double *va = nsm_sim_v(s, a), *vb = nsm_sim_v(s, b);
        assert_true(fabs(va[0] + vb[0]) <= 1e-12);   /* momentum */
        assert_true(nsm_sim_y(s, ci, 0)[0] >= -1e-3 * 2);
    }
    assert_true(fabs(nsm_sim_v(s, a)[0] + 1.0) <= 1e-12);
    assert_true(fabs(nsm_sim_v(s, b)[0] - 1.0) <= 1e-12);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_sphere_on_box(void **state)
{
    (void)state;
    double rho = 0.1, ms = 0.7, mb = 2.0, h = 1e-3, Is = 0.4 * ms * rho * rho;
    double I[9] = { Is, 0, 0, 0, Is, 0, 0, 0, Is };
    double qb[7] = { 0, 0, BC, 1, 0, 0, 0 }, qs[7] = { 0, 0, 2 * BC + rho, 1, 0, 0, 0 };
    nsm_model *m = nsm_model_new();
    nsm_ds *sp = nsm_ds_newton_euler_new(ms, I, qs, NULL);
    double f[6] = { 0, 0, -ms * G, 0, 0, 0 };
    nsm_ds_set_fext_constant(sp, f);
    int s_id = nsm_model_add_ds(m, sp);
    int b_id = nsm_model_add_ds(m, box(mb, qb, NULL, 0.0));
    int law = nsm_model_add_law(m, nsm_nslaw_newton_coulomb_new(3, 0.0, 0.3));
    int ci[4];
    corners(m, b_id, law, 3, ci);
    /* sphere (body 1) on the box's top (body 2, material point (0, 0, c)) */
    nsm_contact_frame c = { .normal = { 0, 0, 1 }, .r1 = { 0, 0, -rho }, .r1_world = 1, .r2 = { 0, 0, BC } };
    int top = nsm_model_add_interaction(m, nsm_relation_contact_new(3, 2, &c), law, s_id, b_id);
    assert_true(top >= 0);
    nsm_sim *s = sim(m, h);
    double worst_g = 0.0, worst_t = 0.0;
    for (int k = 0; k < 2000; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        double sum = 0.0;
        for (int c4 = 0; c4 < 4; c4++) sum += nsm_sim_lambda(s, ci[c4], 1)[0] / h;
        worst_g = fmax(worst_g, fabs(sum - (ms + mb) * G) / ((ms + mb) * G));
        worst_t = fmax(worst_t, fabs(nsm_sim_lambda(s, top, 1)[0] / h - ms * G) / (ms * G));
    }
    print_message("sphere on box: ground %.3g, top %.3g (relative errors)\n", worst_g, worst_t);
    assert_true(worst_g <= 1e-10 && worst_t <= 1e-10);
    assert_true(fabs(nsm_sim_q(s, s_id)[2] - qs[2]) <= 1e-10);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_bad_input(void **state)
{
    (void)state;
    nsm_contact_frame c = { .normal = { 0, 0, 2 } };
    assert_null(nsm_relation_contact_new(3, 1, &c));
    assert_non_null(strstr(nsm_constructor_error(), "normal"));
    c.normal[2] = 1;
    assert_null(nsm_relation_contact_new(2, 1, &c));
    assert_non_null(strstr(nsm_constructor_error(), "m = 2"));
    assert_null(nsm_relation_contact_new(3, 3, &c));
    assert_non_null(strstr(nsm_constructor_error(), "nbodies"));
    assert_null(nsm_relation_contact_new(3, 1, NULL));
    c.r1[1] = NAN;
    assert_null(nsm_relation_contact_new(3, 1, &c));
    assert_non_null(strstr(nsm_constructor_error(), "non-finite"));
    c.r1[1] = 0;
    nsm_relation *r = nsm_relation_contact_new(3, 1, &c);
    assert_non_null(r);
    c.normal[0] = 1;
    assert_int_equal(nsm_relation_contact_set(r, &c), NS_BAD_INPUT);
    assert_int_equal(nsm_relation_contact_set(NULL, &c), NS_BAD_INPUT);
    nsm_relation_free(r);
    double q[7] = { 0, 0, 0, 1, 0, 0, 0 }, p[3] = { 0 }, n[3] = { 0, 0, 1 };
    nsm_contact_frame out;
    assert_int_equal(nsm_contact_frame_from_points(NULL, NULL, p, p, n, &out), NS_BAD_INPUT);
    assert_int_equal(nsm_contact_frame_from_points(q, NULL, p, p, n, &out), NS_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_at_rest_fc3d), cmocka_unit_test(test_box_at_rest_lcp),
        cmocka_unit_test(test_incline_stick), cmocka_unit_test(test_incline_slip),
        cmocka_unit_test(test_rolling_sphere), cmocka_unit_test(test_spheres_collide),
        cmocka_unit_test(test_sphere_on_box), cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
