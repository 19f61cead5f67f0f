/* test_mech_activation.c — the activation rules of nsm_sim_options
 *. A ball (m = 1, radius R = 0.1) falls from z0 = 1 under
 * g = 9.81 onto z = 0 (y = z − R, Newton e = 0.5). Before the first impact
 * Moreau–Jean with θ = ½ integrates free flight exactly:
 *   v_k = −g t_k,  z_k = z0 − g t_k² / 2,
 * so the step at which each rule first activates the contact is computed
 * here by hand and compared with the first step whose problem holds the
 * contact (nsm_sim_index_set level 1). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "nonsmooth/nsm.h"

#define GRAV 9.81
#define Z0 1.0
#define RAD 0.1

static int first_active_step(nsm_activation rule, double gamma, double h, double *t_act)
{
    nsm_model *m = nsm_model_new();
    double M = 1.0, q0 = Z0, v0 = 0.0, f = -GRAV, H = 1.0, b = -RAD;
    int ds = nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(1, &M, &q0, &v0));
    nsm_ds_set_fext_constant(nsm_model_ds(m, ds), &f);
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.5));
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, &H, &b), law, ds, -1) >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    o.activation = rule;
    o.activation_gamma = gamma;
    o.gap_tol = 0.0;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    int k = -1;
    for (int i = 0; i < 100000 && k < 0; i++) {
        double t = nsm_sim_time(s);
        assert_int_equal(nsm_sim_step(s), NS_OK);
        if (nsm_sim_index_set(s, 1, NULL, 0) > 0) { k = i; *t_act = t; }
    }
    nsm_sim_free(s);
    nsm_model_free(m);
    return k;
}

/* The first k with pred(k) ≤ 0 from the exact free flight. */
static int by_hand(nsm_activation rule, double gamma, double h)
{
    for (int k = 0; k < 100000; k++) {
        double t = k * h, v = -GRAV * t, y = Z0 - 0.5 * GRAV * t * t - RAD;
        double yp = rule == NSM_ACTIVATION_PREDICTED ? y + h * v : y;
        if (yp + gamma * h * v <= 0.0) return k;
    }
    return -1;
}

static void test_rules(void **state)
{
    (void)state;
    /* h = 0.017: gamma 0 > standard = gamma 1 > predicted (26, 25, 25, 24) */
    const double hs[2] = { 0.01, 0.017 };
    struct { nsm_activation rule; double gamma; const char *name; } cases[] = {
        { NSM_ACTIVATION_GAMMA, 0.5, "standard y_k + h/2 y'_k" },
        { NSM_ACTIVATION_GAMMA, 0.0, "gamma = 0" },
        { NSM_ACTIVATION_GAMMA, 1.0, "gamma = 1" },
        { NSM_ACTIVATION_PREDICTED, 0.5, "predicted y(q_k + h v_k) + h/2 y'_k" },
    };
    for (int ih = 0; ih < 2; ih++) {
        double h = hs[ih];
        int ks[4];
        for (int c = 0; c < 4; c++) {
            double t = 0.0;
            int k = first_active_step(cases[c].rule, cases[c].gamma, h, &t);
            int kh = by_hand(cases[c].rule, cases[c].gamma, h);
            printf("h = %.3f %-40s first active step %d (t = %.3f), by hand %d\n", h, cases[c].name, k, t, kh);
            assert_int_equal(k, kh);
            ks[c] = k;
        }
        /* the rules are ordered: a longer look-ahead activates earlier */
        assert_true(ks[2] <= ks[0] && ks[0] <= ks[1]);
        assert_true(ks[3] <= ks[0]);
        assert_true(ks[1] > ks[2]);
        if (ih == 1) { assert_true(ks[1] > ks[0]); assert_true(ks[3] < ks[2]); }
    }
}

/* activation_hold: the ball rests on the floor (active), then is kicked
 * upward at V0. While its predicted gap y_k + (h/2) ẏ_k stays ≤ HOLD the
 * contact stays in the problem (without the hold it leaves at once); held
 * and separating, it must not touch the motion: impulse 0 and the free
 * flight of θ = ½, z_k = R + V0 t − g t²/2, exact. Once the prediction
 * passes HOLD the contact leaves and does not come back before landing.
 * With stabilization β > 0 the same (a held row with a positive gap only
 * allows an approach of β y/(θh); it never pulls). */
#define V0 0.05
#define HOLD 1e-4
static void kicked(double hold, double beta)
{
    const double h = 1e-3;
    nsm_model *m = nsm_model_new();
    double M = 1.0, q0 = RAD, v0 = 0.0, f = -GRAV, H = 1.0, b = -RAD;
    int ds = nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(1, &M, &q0, &v0));
    nsm_ds_set_fext_constant(nsm_model_ds(m, ds), &f);
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.0));
    int ia = nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, &H, &b), law, ds, -1);
    assert_true(ia >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    o.activation_hold = hold;
    o.stabilization = beta;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    for (int i = 0; i < 5; i++) {   /* at rest on the floor: active, holding m g h */
        assert_int_equal(nsm_sim_step(s), NS_OK);
        assert_int_equal(nsm_sim_index_set(s, 1, NULL, 0), 1);
        assert_true(fabs(nsm_sim_q(s, ds)[0] - RAD) < 1e-14);
    }
    nsm_sim_v(s, ds)[0] = V0;
    double t0 = nsm_sim_time(s);
    int held = 0, left = 0;
    for (int i = 0; i < 8; i++) {   /* the flight up to 8 h (it lands at 2 V0 / g ≈ 10 h) */
        double t = nsm_sim_time(s) - t0, z = nsm_sim_q(s, ds)[0], v = nsm_sim_v(s, ds)[0];
        double pred = z - RAD + 0.5 * h * v;   /* by hand, before the step */
        assert_int_equal(nsm_sim_step(s), NS_OK);
        int active = nsm_sim_index_set(s, 1, NULL, 0) == 1;
        int expect = !left && pred <= hold;
        assert_int_equal(active, expect);
        if (active) { held++; assert_true(fabs(nsm_sim_lambda(s, ia, 1)[0]) < 1e-15); }
        else left = 1;
        double tn = t + h;
        assert_true(fabs(nsm_sim_q(s, ds)[0] - (RAD + V0 * tn - 0.5 * GRAV * tn * tn)) < 1e-12);
    }
    printf("hold %g, beta %g: held %d steps after the kick\n", hold, beta, held);
    if (hold > 0) assert_true(held >= 1 && left);   /* V0 h/2 < HOLD < the apex V0²/2g */
    else assert_int_equal(held, 0);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_hold(void **state)
{
    (void)state;
    kicked(0.0, 0.0);
    kicked(HOLD, 0.0);
    kicked(HOLD, 0.2);
}

static void test_bad_options(void **state)
{
    (void)state;
    nsm_model *m = nsm_model_new();
    double M = 1.0, q0 = 1.0, v0 = 0.0;
    nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(1, &M, &q0, &v0));
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 0.01;
    char err[NS_ERRMSG_LEN] = "";
    o.activation_gamma = -1.0;
    assert_null(nsm_sim_new(m, &o, err));
    assert_non_null(strstr(err, "activation_gamma"));
    o.activation_gamma = 0.5;
    o.activation = (nsm_activation)7;
    assert_null(nsm_sim_new(m, &o, err));
    assert_non_null(strstr(err, "activation"));
    o.activation = NSM_ACTIVATION_GAMMA;
    const double bad[3] = { -1e-6, NAN, INFINITY };
    for (int i = 0; i < 3; i++) {
        o.activation_hold = bad[i];
        assert_null(nsm_sim_new(m, &o, err));
        assert_non_null(strstr(err, "activation_hold"));
    }
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_hold),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
