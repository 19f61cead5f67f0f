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
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
