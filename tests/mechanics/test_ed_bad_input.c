/* test_ed_bad_input.c — event-driven acceptance 5: what the scheme does not
 * handle is refused by nsm_ed_new with a message naming the reason (a
 * first-order system, a friction law, other laws, bad options), never a
 * crash; the same models still run under time-stepping (switching schemes
 * needs no new model), and a state moves between the two schemes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nsm.h"

static void test_first_order(void **state)
{
    (void)state;
    nsm_model *m = nsm_model_new();
    double A[1] = { -1 }, x0[1] = { 1 };
    nsm_model_add_ds(m, nsm_ds_first_order_lti_new(1, A, NULL, NULL, x0));
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = 1;
    char err[NS_ERRMSG_LEN] = "";
    assert_null(nsm_ed_new(m, &o, err));
    assert_non_null(strstr(err, "first order"));
    nsm_model_free(m);
}

static void test_friction(void **state)
{
    (void)state;
    nsm_model *m = nsm_model_new();
    double M[4] = { 1, 0, 0, 1 }, q0[2] = { 0, 1 }, v0[2] = { 0 };
    int ds = nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(2, M, q0, v0));
    int law = nsm_model_add_law(m, nsm_nslaw_newton_coulomb_new(2, 0.5, 0.3));
    double H[4] = { 0, 1, 1, 0 };
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(2, 2, H, NULL), law, ds, -1) >= 0);
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = 1;
    char err[NS_ERRMSG_LEN] = "";
    assert_null(nsm_ed_new(m, &o, err));
    assert_non_null(strstr(err, "friction"));
    /* the same model runs under time-stepping */
    nsm_sim_options so;
    nsm_sim_options_default(&so);
    so.h = 1e-3;
    nsm_sim *ts = nsm_sim_new(m, &so, err);
    assert_non_null(ts);
    nsm_sim_free(ts);
    nsm_model_free(m);
}

static void test_bad_options(void **state)
{
    (void)state;
    nsm_model *m = nsm_model_new();
    double M[1] = { 1 }, q0[1] = { 1 }, v0[1] = { 0 };
    nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(1, M, q0, v0));
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    char err[NS_ERRMSG_LEN] = "";
    assert_null(nsm_ed_new(m, &o, err));          /* T = 0 = t0 */
    assert_non_null(strstr(err, "final time"));
    o.T = 1; o.rtol = -1;
    assert_null(nsm_ed_new(m, &o, err));
    assert_non_null(strstr(err, "rtol"));
    o.rtol = 1e-8; o.solver_options.tol = -1;
    assert_null(nsm_ed_new(m, &o, err));
    assert_null(nsm_ed_new(NULL, &o, err));
    double Ms[1] = { 0 };
    nsm_model *m2 = nsm_model_new();
    nsm_model_add_ds(m2, nsm_ds_lagrangian_lti_new(1, Ms, q0, v0));
    nsm_ed_options_default(&o);
    o.T = 1;
    assert_null(nsm_ed_new(m2, &o, err));
    assert_non_null(strstr(err, "singular"));
    nsm_model_free(m2);
    nsm_model_free(m);
}

/* A free particle under gravity: time-stepping to 0.5, event-driven from
 * there to 1 (state switched), then back: exact free fall. */
static void test_switch_schemes(void **state)
{
    (void)state;
    nsm_model *m = nsm_model_new();
    double M[1] = { 1 }, q0[1] = { 10 }, v0[1] = { 0 }, f[1] = { -9.81 };
    nsm_ds *d = nsm_ds_lagrangian_lti_new(1, M, q0, v0);
    nsm_ds_set_fext_constant(d, f);
    nsm_model_add_ds(m, d);
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.5));
    double H[1] = { 1 };
    nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, H, NULL), law, 0, -1);
    nsm_sim_options so;
    nsm_sim_options_default(&so);
    so.h = 0.01;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *ts = nsm_sim_new(m, &so, err);
    assert_non_null(ts);
    assert_int_equal(nsm_sim_run(ts, 0.5, NULL, NULL), NS_OK);
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = 1.0;
    nsm_ed *ed = nsm_ed_new(m, &o, err);
    assert_non_null(ed);
    assert_int_equal(nsm_ed_set_state_from_sim(ed, ts), NS_OK);
    assert_true(fabs(nsm_ed_time(ed) - 0.5) < 1e-12);
    assert_int_equal(nsm_ed_run(ed, NULL, NULL), NS_OK);
    assert_true(fabs(nsm_ed_q(ed, 0)[0] - (10 - 0.5 * 9.81)) < 1e-8);   /* θ = ½ is exact here */
    assert_true(fabs(nsm_ed_v(ed, 0)[0] + 9.81) < 1e-8);
    assert_int_equal(nsm_ed_copy_state_to_sim(ed, ts), NS_OK);
    assert_true(fabs(nsm_sim_v(ts, 0)[0] + 9.81) < 1e-8);
    nsm_ed_free(ed);
    nsm_sim_free(ts);
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_order),
        cmocka_unit_test(test_friction),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_switch_schemes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
