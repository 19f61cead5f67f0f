/* test_mech_rolling.c — the Newton + rolling friction law through the whole
 * time-stepping path (RFC3D one-step problems), against the exact answer of
 * a solid sphere rolling on a plane:
 *
 *   radius R, mass m, inertia I = 2/5 m R², gravity g, rolling without
 *   slipping along x at v0 (spin ω_y = v0/R). The rolling resistance torque
 *   μr m g opposes the spin; with the friction force F at the contact
 *   (no slip: v = R ω), m v̇ = F and I ω̇ = −R F − μr m g give
 *       v̇ = −a,  a = μr g R / (R² + I/m) = 5 μr g / (7 R),
 *   so the sphere stops after t* = v0/a at the distance d = v0²/(2a) =
 *   7 R v0² / (10 μr g), and then stays (the static rolling torque holds).
 *
 * Moreau–Jean with θ = ½ integrates the constant decelerations exactly
 * step by step; only the step where the sphere stops departs from the
 * continuous answer (by at most v h). The same holds for a sphere spinning
 * about the vertical under the pivoting law (test_spin_stops_where_predicted). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nsm.h"
#include "nonsmooth/ns_problem.h"

#define G 9.81
#define RAD 0.1
#define MASS 2.0
#define H 1e-3

/* dofs (x, y, z, θx, θy, θz); rows: normal (z), sliding x (v_x − R ω_y),
 * sliding y (v_y + R ω_x), rolling about x (ω_x), about y (ω_y). */
static void roll(double v0, double mu, double mur, int nsteps, double *x_end, double *t_stop,
                 double *max_slip)
{
    const int n = 6;
    double M[36] = { 0 }, q0[6] = { 0 }, vv[6] = { v0, 0, 0, 0, v0 / RAD, 0 };
    double fext[6] = { 0, 0, -MASS * G, 0, 0, 0 };
    const double I = 0.4 * MASS * RAD * RAD;
    for (int i = 0; i < 3; i++) { M[i + n * i] = MASS; M[3 + i + n * (3 + i)] = I; }
    nsm_model *m = nsm_model_new();
    assert_non_null(m);
    nsm_ds *ds = nsm_ds_lagrangian_lti_new(n, M, q0, vv);
    assert_non_null(ds);
    assert_int_equal(nsm_ds_set_fext_constant(ds, fext), NS_OK);
    int d = nsm_model_add_ds(m, ds);
    double Hm[30] = { 0 };   /* 5 × 6, column-major */
    Hm[0 + 5 * 2] = 1;
    Hm[1 + 5 * 0] = 1; Hm[1 + 5 * 4] = -RAD;
    Hm[2 + 5 * 1] = 1; Hm[2 + 5 * 3] = RAD;
    Hm[3 + 5 * 3] = 1;
    Hm[4 + 5 * 4] = 1;
    int law = nsm_model_add_law(m, nsm_nslaw_newton_rolling_new(5, 0.0, mu, mur));
    assert_true(law >= 0);
    int it = nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(5, n, Hm, NULL), law, d, -1);
    assert_true(it >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = H;
    o.solver_options.tol = 1e-12;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    *t_stop = -1;
    *max_slip = 0;
    for (int k = 1; k <= nsteps; k++) {
        ns_status st = nsm_sim_step(s);
        if (st != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        const ns_problem *P = nsm_sim_problem(s);
        assert_non_null(P);
        assert_int_equal(P->kind, NS_KIND_RFC3D);
        const double *q = nsm_sim_q(s, d), *v = nsm_sim_v(s, d);
        const double *p = nsm_sim_lambda(s, it, 1);
        assert_true(fabs(q[2]) < 1e-12 && fabs(v[2]) < 1e-12);            /* stays on the plane */
        assert_true(fabs(p[0] - MASS * G * H) < 1e-9 * MASS * G * H);      /* carries its weight */
        assert_true(hypot(p[3], p[4]) <= mur * p[0] * (1 + 1e-9) + 1e-15); /* torque in its disc */
        *max_slip = fmax(*max_slip, fabs(v[0] - RAD * v[4]));
        if (*t_stop < 0 && fabs(v[0]) < 1e-12 && fabs(v[4]) < 1e-12) *t_stop = k * H;
        if (*t_stop >= 0) {   /* stopped: stays stopped */
            assert_true(fabs(v[0]) < 1e-12 && fabs(v[4]) < 1e-12);
        }
        *x_end = q[0];
    }
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_sphere_stops_where_predicted(void **state)
{
    (void)state;
    static const double cases[][2] = { { 1.0, 0.01 }, { 0.5, 0.004 }, { 2.0, 0.02 } };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double v0 = cases[c][0], mur = cases[c][1];
        double a = 5 * mur * G / (7 * RAD), dist = v0 * v0 / (2 * a), tstar = v0 / a;
        int nsteps = (int)(tstar / H) + 300;
        double x, ts, slip;
        roll(v0, 0.5, mur, nsteps, &x, &ts, &slip);
        print_message("v0 %.2g, mu_r %.3g: stops at x = %.6f (predicted %.6f) at t = %.4f "
                      "(predicted %.4f), max slip %.1e\n", v0, mur, x, dist, ts, tstar, slip);
        assert_true(ts > 0);
        assert_true(fabs(ts - tstar) <= 2 * H);
        assert_true(fabs(x - dist) <= v0 * H + 1e-9 * dist);   /* the stopping step only */
        assert_true(slip < 1e-9 * v0);                         /* rolls without slipping */
    }
}

/* Without rolling resistance it never stops: x = v0 t exactly. */
static void test_no_rolling_resistance(void **state)
{
    (void)state;
    double x, ts, slip;
    roll(1.0, 0.5, 0.0, 500, &x, &ts, &slip);
    assert_true(ts < 0);
    assert_true(fabs(x - 500 * H) < 1e-9);
}

/* Pivoting resistance (the 6-row law): a sphere spinning about the
 * vertical on a plane at ω0, centre at rest. The floor's pivoting torque
 * μp m g opposes the spin, nothing else acts on it (no sliding, no
 * rolling: the contact point does not move), so I ω̇ = −μp m g: the spin
 * falls linearly and stops at t* = I ω0 / (μp m g) after turning
 * θ* = I ω0² / (2 μp m g), then stays stopped. Rows: normal (z), sliding
 * x, y, rolling about x, y, pivoting about z. */
static void spin(double w0, double mup, int nsteps, double *th_end, double *t_stop, double *max_v)
{
    const int n = 6;
    double M[36] = { 0 }, q0[6] = { 0 }, vv[6] = { 0, 0, 0, 0, 0, w0 };
    double fext[6] = { 0, 0, -MASS * G, 0, 0, 0 };
    const double I = 0.4 * MASS * RAD * RAD;
    for (int i = 0; i < 3; i++) { M[i + n * i] = MASS; M[3 + i + n * (3 + i)] = I; }
    nsm_model *m = nsm_model_new();
    assert_non_null(m);
    nsm_ds *ds = nsm_ds_lagrangian_lti_new(n, M, q0, vv);
    assert_non_null(ds);
    assert_int_equal(nsm_ds_set_fext_constant(ds, fext), NS_OK);
    int d = nsm_model_add_ds(m, ds);
    double Hm[36] = { 0 };   /* 6 × 6, column-major */
    Hm[0 + 6 * 2] = 1;
    Hm[1 + 6 * 0] = 1; Hm[1 + 6 * 4] = -RAD;
    Hm[2 + 6 * 1] = 1; Hm[2 + 6 * 3] = RAD;
    Hm[3 + 6 * 3] = 1;
    Hm[4 + 6 * 4] = 1;
    Hm[5 + 6 * 5] = 1;
    int law = nsm_model_add_law(m, nsm_nslaw_newton_rolling_pivot_new(0.0, 0.5, 0.01, mup));
    assert_true(law >= 0);
    int it = nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(6, n, Hm, NULL), law, d, -1);
    assert_true(it >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = H;
    o.solver_options.tol = 1e-12;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    *t_stop = -1;
    *max_v = 0;
    for (int k = 1; k <= nsteps; k++) {
        ns_status st = nsm_sim_step(s);
        if (st != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        const ns_problem *P = nsm_sim_problem(s);
        assert_non_null(P);
        assert_int_equal(P->kind, NS_KIND_RFC3D);
        assert_int_equal(P->u.rfc->dim, 6);
        const double *q = nsm_sim_q(s, d), *v = nsm_sim_v(s, d);
        const double *p = nsm_sim_lambda(s, it, 1);
        assert_true(fabs(p[0] - MASS * G * H) < 1e-9 * MASS * G * H);      /* carries its weight */
        assert_true(fabs(p[5]) <= mup * p[0] * (1 + 1e-9) + 1e-15);        /* torque in its interval */
        for (int i = 0; i < 5; i++) *max_v = fmax(*max_v, fabs(v[i]));     /* only the spin moves */
        if (*t_stop < 0 && fabs(v[5]) < 1e-12) *t_stop = k * H;
        if (*t_stop >= 0) assert_true(fabs(v[5]) < 1e-12);                 /* stopped: stays */
        *th_end = q[5];
    }
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_spin_stops_where_predicted(void **state)
{
    (void)state;
    static const double cases[][2] = { { 10.0, 0.01 }, { 4.0, 0.002 }, { 20.0, 0.05 } };
    const double I = 0.4 * MASS * RAD * RAD;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double w0 = cases[c][0], mup = cases[c][1];
        double alpha = mup * MASS * G / I, tstar = w0 / alpha, thstar = w0 * w0 / (2 * alpha);
        double th, ts, vmax;
        spin(w0, mup, (int)(tstar / H) + 300, &th, &ts, &vmax);
        print_message("w0 %.3g, mu_p %.3g: stops after %.6f rad (predicted %.6f) at t = %.4f "
                      "(predicted %.4f), other velocities <= %.1e\n", w0, mup, th, thstar, ts, tstar, vmax);
        assert_true(ts > 0);
        assert_true(fabs(ts - tstar) <= 2 * H);
        assert_true(fabs(th - thstar) <= w0 * H + 1e-9 * thstar);   /* the stopping step only */
        assert_true(vmax < 1e-12);
    }
    /* μp = 0 in the same 6-row law: nothing resists the spin */
    double th, ts, vmax;
    spin(10.0, 0.0, 500, &th, &ts, &vmax);
    assert_true(ts < 0);
    assert_true(fabs(th - 10.0 * 500 * H) < 1e-9);
}

static void test_law_bad_input(void **state)
{
    (void)state;
    assert_null(nsm_nslaw_newton_rolling_new(4, 0.0, 0.5, 0.1));
    assert_null(nsm_nslaw_newton_rolling_new(5, 1.5, 0.5, 0.1));
    assert_null(nsm_nslaw_newton_rolling_new(5, 0.0, -0.5, 0.1));
    assert_null(nsm_nslaw_newton_rolling_new(5, 0.0, 0.5, -0.1));
    assert_null(nsm_nslaw_newton_rolling_new(5, 0.0, 0.5, NAN));
    assert_null(nsm_nslaw_newton_rolling_new(6, 0.0, 0.5, 0.1));   /* 6 rows: the pivot constructor */
    assert_null(nsm_nslaw_newton_rolling_pivot_new(1.5, 0.5, 0.1, 0.1));
    assert_null(nsm_nslaw_newton_rolling_pivot_new(0.0, -0.5, 0.1, 0.1));
    assert_null(nsm_nslaw_newton_rolling_pivot_new(0.0, 0.5, -0.1, 0.1));
    assert_null(nsm_nslaw_newton_rolling_pivot_new(0.0, 0.5, 0.1, -0.1));
    assert_null(nsm_nslaw_newton_rolling_pivot_new(0.0, 0.5, 0.1, NAN));
    assert_null(nsm_nslaw_newton_rolling_pivot_new(0.0, 0.5, 0.1, INFINITY));
    nsm_nslaw *lp = nsm_nslaw_newton_rolling_pivot_new(0.1, 0.5, 0.1, 0.02);
    assert_non_null(lp);
    assert_int_equal(nsm_nslaw_size(lp), 6);
    assert_true(nsm_nslaw_pivoting(lp) == 0.02 && nsm_nslaw_rolling(lp) == 0.1);
    assert_true(isnan(nsm_nslaw_pivoting(NULL)));
    nsm_nslaw_free(lp);
    nsm_nslaw *l = nsm_nslaw_newton_rolling_new(3, 0.2, 0.5, 0.1);
    assert_non_null(l);
    assert_int_equal(nsm_nslaw_get_type(l), NSM_LAW_NEWTON_ROLLING);
    assert_int_equal(nsm_nslaw_size(l), 3);
    assert_true(nsm_nslaw_rolling(l) == 0.1);
    assert_true(isnan(nsm_nslaw_rolling(NULL)));
    nsm_nslaw_free(l);
}

/* A rolling contact beside a plain Newton contact: no kind holds both; the
 * step fails with the reason, it does not crash or mix them up. */
static void test_mixed_laws_refused(void **state)
{
    (void)state;
    double M1[1] = { 1.0 }, z0[1] = { 0.0 }, w0[1] = { 0.0 }, f1[1] = { -G };
    double M6[36] = { 0 }, q0[6] = { 0 }, v0[6] = { 0 }, f6[6] = { 0, 0, -G, 0, 0, 0 };
    for (int i = 0; i < 6; i++) M6[i + 6 * i] = 1.0;
    nsm_model *m = nsm_model_new();
    nsm_ds *a = nsm_ds_lagrangian_lti_new(1, M1, z0, w0), *b = nsm_ds_lagrangian_lti_new(6, M6, q0, v0);
    nsm_ds_set_fext_constant(a, f1);
    nsm_ds_set_fext_constant(b, f6);
    int da = nsm_model_add_ds(m, a), db = nsm_model_add_ds(m, b);
    double H1[1] = { 1.0 }, H5[30] = { 0 };
    H5[0 + 5 * 2] = 1; H5[1 + 5 * 0] = 1; H5[2 + 5 * 1] = 1; H5[3 + 5 * 3] = 1; H5[4 + 5 * 4] = 1;
    int ln = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.0));
    int lr = nsm_model_add_law(m, nsm_nslaw_newton_rolling_new(5, 0.0, 0.5, 0.01));
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, H1, NULL), ln, da, -1) >= 0);
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(5, 6, H5, NULL), lr, db, -1) >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = H;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    assert_int_equal(nsm_sim_step(s), NS_UNSUPPORTED);
    assert_non_null(strstr(nsm_sim_error(s), "rolling"));
    nsm_sim_free(s);
    nsm_model_free(m);

    /* the 5-row law beside the 6-row (pivoting) law: refused, named */
    m = nsm_model_new();
    nsm_ds *c1 = nsm_ds_lagrangian_lti_new(6, M6, q0, v0), *c2 = nsm_ds_lagrangian_lti_new(6, M6, q0, v0);
    nsm_ds_set_fext_constant(c1, f6);
    nsm_ds_set_fext_constant(c2, f6);
    int d1 = nsm_model_add_ds(m, c1), d2 = nsm_model_add_ds(m, c2);
    double H6[36] = { 0 };
    H6[0 + 6 * 2] = 1; H6[1 + 6 * 0] = 1; H6[2 + 6 * 1] = 1; H6[3 + 6 * 3] = 1; H6[4 + 6 * 4] = 1; H6[5 + 6 * 5] = 1;
    int l5 = nsm_model_add_law(m, nsm_nslaw_newton_rolling_new(5, 0.0, 0.5, 0.01));
    int l6 = nsm_model_add_law(m, nsm_nslaw_newton_rolling_pivot_new(0.0, 0.5, 0.01, 0.01));
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(5, 6, H5, NULL), l5, d1, -1) >= 0);
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(6, 6, H6, NULL), l6, d2, -1) >= 0);
    s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    assert_int_equal(nsm_sim_step(s), NS_UNSUPPORTED);
    assert_non_null(strstr(nsm_sim_error(s), "pivoting"));
    nsm_sim_free(s);
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_stops_where_predicted),
        cmocka_unit_test(test_no_rolling_resistance),
        cmocka_unit_test(test_spin_stops_where_predicted),
        cmocka_unit_test(test_law_bad_input),
        cmocka_unit_test(test_mixed_laws_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
