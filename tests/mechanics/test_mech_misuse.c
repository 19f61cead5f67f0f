/* test_mech_misuse.c — bad input and misuse of the mechanics API:
 * NULL handles everywhere, ∂h/∂t given Q, constructors that say why
 * they fail, solver names checked at nsm_sim_new, bad final times, constant
 * mass matrices that are not symmetric positive definite, and force
 * callbacks returning NaN (named in the error). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "nonsmooth/nsm.h"

static nsm_model *ball(double e, const char *solver_unused)
{
    (void)solver_unused;
    nsm_model *m = nsm_model_new();
    double M = 1.0, q0 = 1.0, v0 = 0.0, f = -9.81, H = 1.0;
    int ds = nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(1, &M, &q0, &v0));
    nsm_ds_set_fext_constant(nsm_model_ds(m, ds), &f);
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, e));
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, &H, NULL), law, ds, -1) >= 0);
    return m;
}

static void test_null_handles(void **state)
{
    (void)state;
    /* simulation */
    assert_int_equal(nsm_sim_compute_free_state(NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_sim_solve(NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_sim_update(NULL), NS_BAD_INPUT);
    nsm_sim_next_step(NULL);
    assert_int_equal(nsm_sim_step(NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_sim_run(NULL, 1.0, NULL, NULL), NS_BAD_INPUT);
    assert_true(isnan(nsm_sim_time(NULL)));
    assert_true(isnan(nsm_sim_step_size(NULL)));
    assert_true(nsm_sim_step_count(NULL) < 0);
    assert_null(nsm_sim_model(NULL));
    assert_null(nsm_sim_q(NULL, 0)); assert_null(nsm_sim_v(NULL, 0));
    assert_null(nsm_sim_x(NULL, 0)); assert_null(nsm_sim_p(NULL, 0));
    assert_null(nsm_sim_y(NULL, 0, 0)); assert_null(nsm_sim_lambda(NULL, 0, 1));
    assert_int_equal(nsm_sim_index_set(NULL, 1, NULL, 0), 0);
    assert_null(nsm_sim_problem(NULL));
    assert_null(nsm_sim_last_result(NULL));
    assert_null(nsm_sim_get_stats(NULL));
    assert_true(isnan(nsm_sim_kinetic_energy(NULL, 0)));
    assert_non_null(nsm_sim_error(NULL));
    nsm_sim_free(NULL);
    nsm_sim_options_default(NULL);
    char err[NS_ERRMSG_LEN] = "";
    assert_null(nsm_sim_new(NULL, NULL, err));
    assert_null(nsm_output_open("/tmp/x.csv", NULL, err));
    assert_int_equal(nsm_output_row(NULL, NULL), NS_BAD_INPUT);
    nsm_output_close(NULL);
    /* model, systems, relations, laws */
    assert_int_equal(nsm_model_add_ds(NULL, NULL), -1);
    assert_int_equal(nsm_model_add_law(NULL, NULL), -1);
    assert_int_equal(nsm_model_add_interaction(NULL, NULL, 0, 0, -1), -1);
    assert_int_equal(nsm_model_remove_interaction(NULL, 0), NS_BAD_INPUT);
    assert_int_equal(nsm_model_nds(NULL), 0);
    assert_int_equal(nsm_model_ninter(NULL), 0);
    assert_int_equal(nsm_model_inter_capacity(NULL), 0);
    assert_int_equal(nsm_model_inter_alive(NULL, 0), 0);
    assert_int_equal(nsm_model_inter_generation(NULL, 0), 0);
    assert_null(nsm_model_ds(NULL, 0)); assert_null(nsm_model_ds_const(NULL, 0));
    assert_null(nsm_model_relation(NULL, 0)); assert_null(nsm_model_law(NULL, 0));
    assert_int_equal(nsm_model_inter_law(NULL, 0), -1);
    int two[2];
    assert_int_equal(nsm_model_inter_ds(NULL, 0, two), 0);
    assert_int_equal(nsm_model_inter_size(NULL, 0), 0);
    assert_int_equal(nsm_model_linked(NULL, 0, NULL, NULL, 0), 0);
    assert_int_equal(nsm_model_ds_interactions(NULL, 0, NULL, 0), 0);
    assert_non_null(nsm_model_error(NULL));
    nsm_model_free(NULL);
    assert_int_equal(nsm_ds_set_damping(NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_stiffness(NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_fext(NULL, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_fext_constant(NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_size(NULL), 0);
    assert_int_equal(nsm_ds_is_lagrangian(NULL), 0);
    assert_true((int)nsm_ds_get_type(NULL) < 0);
    nsm_ds_free(NULL);
    assert_int_equal(nsm_relation_set_H(NULL, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_relation_get_H(NULL, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_relation_size(NULL), 0);
    assert_int_equal(nsm_relation_ncols(NULL), 0);
    assert_true((int)nsm_relation_get_type(NULL) < 0);
    nsm_relation_free(NULL);
    assert_int_equal(nsm_nslaw_size(NULL), 0);
    assert_true(isnan(nsm_nslaw_restitution(NULL)));
    assert_true(isnan(nsm_nslaw_friction(NULL)));
    assert_true((int)nsm_nslaw_get_type(NULL) < 0);
    nsm_nslaw_free(NULL);
#ifdef NSM_HAVE_EVENT_DRIVEN
    nsm_ed_options_default(NULL);
    assert_null(nsm_ed_new(NULL, NULL, err));
    nsm_ed_free(NULL);
    assert_int_equal(nsm_ed_set_state_from_sim(NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_ed_copy_state_to_sim(NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_ed_add_event(NULL, 1.0), NS_BAD_INPUT);
    assert_int_equal(nsm_ed_has_next_event(NULL), 0);
    assert_true(isnan(nsm_ed_starting_time(NULL)));
    assert_true(isnan(nsm_ed_next_time(NULL)));
    assert_null(nsm_ed_current_event(NULL));
    nsm_event ev;
    assert_int_equal(nsm_ed_next_event(NULL, &ev), 0);
    assert_int_equal(nsm_ed_past_events(NULL, &ev, 1), 0);
    assert_int_equal(nsm_ed_advance_to_event(NULL), -1);
    assert_int_equal(nsm_ed_process_events(NULL), NS_BAD_INPUT);
    int rows[1];
    assert_int_equal(nsm_ed_root_info(NULL, rows, 1), 0);
    assert_int_equal(nsm_ed_nrows(NULL), 0);
    int in = 0, comp = 0;
    nsm_ed_row(NULL, 0, &in, &comp);
    assert_int_equal(in, -1);
    assert_int_equal(nsm_ed_run(NULL, NULL, NULL), NS_BAD_INPUT);
    assert_true(isnan(nsm_ed_time(NULL)));
    assert_null(nsm_ed_q(NULL, 0)); assert_null(nsm_ed_v(NULL, 0));
    nsm_ed_reinit(NULL);
    assert_null(nsm_ed_y(NULL, 0, 0)); assert_null(nsm_ed_lambda(NULL, 0, 1));
    assert_null(nsm_ed_acceleration(NULL, 0));
    nsm_ed_options_siconos(NULL);
    assert_int_equal(nsm_ed_index_set(NULL, 1, NULL, 0), 0);
    assert_null(nsm_ed_get_stats(NULL));
    assert_non_null(nsm_ed_error(NULL));
    assert_int_equal(nsm_relation_set_d2hdt2(NULL, NULL), NS_BAD_INPUT);
#endif
    /* the model-type and output entry points */
    int dof = 0;
    double one = 1.0;
    assert_int_equal(nsm_ds_set_boundary_condition(NULL, 1, &dof, &one, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_theta(NULL, 0.5), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_mass(NULL, &one), NS_BAD_INPUT);
    assert_int_equal(nsm_relation_set_compliance(NULL, &one), NS_BAD_INPUT);
    assert_int_equal(nsm_relation_set_offset_fn(NULL, NULL, NULL), NS_BAD_INPUT);
    assert_null(nsm_sim_bc_reaction(NULL, 0));
    assert_int_equal(nsm_sim_relative_degree(NULL, 0), -1);
    assert_null(nsm_output_open(NULL, NULL, err));
    assert_non_null(nsm_constructor_error());
}

/* The setters refuse a handle of the wrong type or bad values (NS_BAD_INPUT,
 * nothing changed), and the getters of a live simulation refuse bad ids. */
static void test_wrong_handles(void **state)
{
    (void)state;
    double M = 1.0, q0 = 0.0, A = -1.0, nan1 = NAN, C = 1.0, B = 1.0;
    int dof = 0, baddof = 3;
    nsm_ds *lag = nsm_ds_lagrangian_lti_new(1, &M, &q0, &q0);
    nsm_ds *fo = nsm_ds_first_order_lti_new(1, &A, NULL, NULL, &q0);
    assert_non_null(lag); assert_non_null(fo);
    assert_int_equal(nsm_ds_set_boundary_condition(fo, 1, &dof, &M, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_boundary_condition(lag, 1, &baddof, &M, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_boundary_condition(lag, 1, &dof, &nan1, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_boundary_condition(lag, 1, NULL, &M, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_mass(lag, &M), NS_BAD_INPUT);        /* Lagrangian: M is the constructor's */
    assert_int_equal(nsm_ds_set_mass(fo, &nan1), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_theta(fo, nan1), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_theta(fo, -0.1), NS_BAD_INPUT);
    assert_int_equal(nsm_ds_set_damping(fo, &M), NS_BAD_INPUT);
    nsm_relation *rl = nsm_relation_lagrangian_linear_new(1, 1, &C, NULL);
    nsm_relation *rf = nsm_relation_first_order_linear_new(1, 1, &C, NULL, &B, NULL);
    assert_int_equal(nsm_relation_set_compliance(rf, &M), NS_BAD_INPUT);   /* first order: D is the constructor's */
    assert_int_equal(nsm_relation_set_compliance(rl, &nan1), NS_BAD_INPUT);
    assert_int_equal(nsm_relation_set_offset_fn(rl, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_relation_set_H(rf, &C, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_relation_set_H(rl, &nan1, NULL), NS_BAD_INPUT);   /* non-finite H, b */
    assert_int_equal(nsm_relation_set_H(rl, &C, &nan1), NS_BAD_INPUT);
    assert_int_equal(nsm_relation_set_H(rl, &C, NULL), NS_OK);
    double Hg = 0.0, bg = 1.0;
    assert_int_equal(nsm_relation_get_H(rf, &Hg, &bg), NS_BAD_INPUT);      /* not Lagrangian linear */
    assert_int_equal(nsm_relation_get_H(rl, NULL, &bg), NS_BAD_INPUT);
    assert_int_equal(nsm_relation_get_H(rl, &Hg, &bg), NS_OK);
    assert_true(Hg == C && bg == 0.0);
    nsm_relation_free(rl); nsm_relation_free(rf);
    nsm_ds_free(lag); nsm_ds_free(fo);
    /* bad ids on a live simulation */
    nsm_model *m = ball(0.5, NULL);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    assert_null(nsm_sim_q(s, 1)); assert_null(nsm_sim_q(s, -1));
    assert_null(nsm_sim_x(s, 0));                 /* Lagrangian: no x */
    assert_null(nsm_sim_bc_reaction(s, 7));
    assert_null(nsm_sim_y(s, 5, 0)); assert_null(nsm_sim_y(s, 0, 9));
    assert_null(nsm_sim_lambda(s, -1, 1));
    assert_int_equal(nsm_sim_relative_degree(s, 3), -1);
    assert_true(isnan(nsm_sim_kinetic_energy(s, 2)));
    nsm_sim_free(s);
    nsm_model_free(m);
}

/* Every constructor given a NULL where it needs an array or a callback, or a
 * bad size, returns NULL and names itself and the reason. */
static int h1(double t, int nq, const double *Q, int mm, double *y, void *u)
{ (void)t; (void)nq; (void)mm; (void)u; y[0] = Q[0]; return 0; }
static int jh1(double t, int nq, const double *Q, int mm, double *H, void *u)
{ (void)t; (void)nq; (void)Q; (void)mm; (void)u; H[0] = 1.0; return 0; }

static void test_every_constructor_says_why(void **state)
{
    (void)state;
    double M = 1.0, q0 = 0.0, nan1 = NAN;
#define EXPECT_FAIL(call, who, why) do { \
        const void *got_ = (call); \
        const char *msg_ = nsm_constructor_error(); \
        if (got_ || !strstr(msg_, who) || !strstr(msg_, why)) \
            fail_msg("%s: got %p, reason '%s' (want '%s' and '%s')", #call, got_, msg_, who, why); \
    } while (0)
    EXPECT_FAIL(nsm_ds_lagrangian_lti_new(1, &M, &nan1, &q0), "nsm_ds_lagrangian_lti_new", "q0 has a non-finite");
    EXPECT_FAIL(nsm_ds_lagrangian_lti_sparse_new(2, NULL, NULL, NULL, &q0, &q0), "nsm_ds_lagrangian_lti_sparse_new", "M is NULL");
    EXPECT_FAIL(nsm_ds_lagrangian_new(1, NULL, &q0, &q0), "nsm_ds_lagrangian_new", "mass");
    EXPECT_FAIL(nsm_ds_first_order_new(1, NULL, NULL, NULL, &q0), "nsm_ds_first_order_new", "required");
    EXPECT_FAIL(nsm_ds_first_order_linear_new(1, NULL, NULL, NULL, &q0), "nsm_ds_first_order_linear_new", "required");
    EXPECT_FAIL(nsm_ds_first_order_lti_new(1, NULL, NULL, NULL, &q0), "nsm_ds_first_order_lti_new", "A");
    EXPECT_FAIL(nsm_ds_first_order_lti_new(0, &M, NULL, NULL, &q0), "nsm_ds_first_order_lti_new", "n = 0");
    EXPECT_FAIL(nsm_relation_lagrangian_linear_new(1, 1, NULL, NULL), "nsm_relation_lagrangian_linear_new", "H");
    EXPECT_FAIL(nsm_relation_lagrangian_compliant_linear_new(1, 1, &M, NULL, NULL), "nsm_relation_lagrangian_compliant_linear_new", "D");
    EXPECT_FAIL(nsm_relation_first_order_linear_new(1, 1, &M, NULL, NULL, NULL), "nsm_relation_first_order_linear_new", "B");
    EXPECT_FAIL(nsm_relation_first_order_nonlinear_new(1, 1, NULL, NULL, NULL), "nsm_relation_first_order_nonlinear_new", "required");
    EXPECT_FAIL(nsm_relation_rheonomous_new(1, 1, h1, jh1, NULL, NULL), "nsm_relation_rheonomous_new", "dhdt");
    EXPECT_FAIL(nsm_relation_scleronomous_new(0, 1, h1, jh1, NULL), "nsm_relation_scleronomous_new", "m = 0");
    EXPECT_FAIL(nsm_nslaw_relay_new(1, NULL, NULL), "nsm_nslaw_relay_new", "required");
    EXPECT_FAIL(nsm_nslaw_equality_new(0), "nsm_nslaw_equality_new", "size 0");
    EXPECT_FAIL(nsm_nslaw_complementarity_new(-1), "nsm_nslaw_complementarity_new", "size -1");
    EXPECT_FAIL(nsm_nslaw_newton_coulomb_new(4, 0.0, 0.1), "nsm_nslaw_newton_coulomb_new", "dim = 4");
#undef EXPECT_FAIL
}

/* ∂h/∂t is given Q (it used to get NULL): y = q − c t, read through Q. */
static int h_fn(double t, int nq, const double *Q, int m, double *y, void *u)
{ (void)nq; (void)m; y[0] = Q[0] - *(double *)u * t; return 0; }
static int jh_fn(double t, int nq, const double *Q, int m, double *H, void *u)
{ (void)t; (void)nq; (void)Q; (void)m; (void)u; H[0] = 1.0; return 0; }
static int dhdt_fn(double t, int nq, const double *Q, int m, double *out, void *u)
{
    (void)t; (void)nq; (void)m;
    if (!Q || !isfinite(Q[0])) return 1;
    out[0] = -*(double *)u;
    return 0;
}

static void test_dhdt_gets_Q(void **state)
{
    (void)state;
    double c = 0.5;
    nsm_model *m = nsm_model_new();
    double M = 1.0, q0 = 0.0, v0 = 0.0;
    int ds = nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(1, &M, &q0, &v0));
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.0));
    /* q ≥ c t: a wall moving at speed c pushes the resting mass */
    assert_true(nsm_model_add_interaction(m, nsm_relation_rheonomous_new(1, 1, h_fn, jh_fn, dhdt_fn, &c), law, ds, -1) >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 0.01;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    assert_int_equal(nsm_sim_run(s, 1.0, NULL, NULL), NS_OK);
    /* the mass moves with the wall: v = c (e = 0) */
    assert_true(fabs(nsm_sim_v(s, 0)[0] - c) < 1e-9);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_constructors_say_why(void **state)
{
    (void)state;
    double M[1] = { 1 }, q0[1] = { 0 }, nan1[1] = { NAN };
    assert_null(nsm_ds_lagrangian_lti_new(0, M, q0, q0));
    assert_non_null(strstr(nsm_constructor_error(), "n = 0"));
    assert_null(nsm_ds_lagrangian_lti_new(1, nan1, q0, q0));
    assert_non_null(strstr(nsm_constructor_error(), "M has a non-finite"));
    assert_null(nsm_ds_lagrangian_lti_new(1, NULL, q0, q0));
    assert_non_null(strstr(nsm_constructor_error(), "M is NULL"));
    assert_null(nsm_nslaw_newton_new(1, 1.5));
    assert_non_null(strstr(nsm_constructor_error(), "e = 1.5"));
    assert_null(nsm_nslaw_newton_coulomb_new(3, 0.5, -1.0));
    assert_non_null(strstr(nsm_constructor_error(), "mu = -1"));
    double lb = 1, ub = 0;
    assert_null(nsm_nslaw_relay_new(1, &lb, &ub));
    assert_non_null(strstr(nsm_constructor_error(), "lb <= ub"));
    assert_null(nsm_relation_lagrangian_linear_new(1, 0, M, NULL));
    assert_non_null(strstr(nsm_constructor_error(), "ncols = 0"));
    assert_null(nsm_relation_scleronomous_new(1, 1, NULL, NULL, NULL));
    assert_non_null(strstr(nsm_constructor_error(), "required"));
    /* a success clears it; the model repeats the reason of a NULL argument */
    nsm_nslaw *ok = nsm_nslaw_newton_new(1, 0.5);
    assert_non_null(ok);
    assert_string_equal(nsm_constructor_error(), "");
    nsm_model *m = nsm_model_new();
    assert_int_equal(nsm_model_add_law(m, ok), 0);
    assert_int_equal(nsm_model_add_law(m, nsm_nslaw_newton_new(1, -2.0)), -1);
    assert_non_null(strstr(nsm_model_error(m), "e = -2"));
    nsm_model_free(m);
}

static void test_solver_name_checked(void **state)
{
    (void)state;
    nsm_model *m = ball(0.9, NULL);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    char err[NS_ERRMSG_LEN] = "";
    o.solver = "no-such-solver";
    assert_null(nsm_sim_new(m, &o, err));
    assert_non_null(strstr(err, "no-such-solver"));
    /* a solver of another kind only (the FC3D default) for an LCP model */
    const ns_solver_info *fc = ns_solver_default(NS_KIND_FC3D);
    assert_non_null(fc);
    if (!ns_solver_find(fc->name, NS_KIND_LCP)) {
        o.solver = fc->name;
        assert_null(nsm_sim_new(m, &o, err));
        assert_non_null(strstr(err, "solves none"));
    }
    o.solver = "lemke";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    nsm_sim_free(s);
    o.solver = NULL;
    o.gmp_solver = "lemke";   /* not a GMP solver */
    assert_null(nsm_sim_new(m, &o, err));
    assert_non_null(strstr(err, "gmp_solver 'lemke'"));
    /* a frictional model: a GFC-only solver name is right with global_fc
     * (the steps are GFC problems), wrong without */
    nsm_model *fm = nsm_model_new();
    double M3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, q3[3] = { 0, 0, 0 }, v3[3] = { 1, 0, 0 }, g[3] = { 0, 0, -9.81 };
    double H3[9] = { 0, 1, 0, 0, 0, 1, 1, 0, 0 };   /* rows: normal q2, tangents q0, q1 */
    int d3 = nsm_model_add_ds(fm, nsm_ds_lagrangian_lti_new(3, M3, q3, v3));
    nsm_ds_set_fext_constant(nsm_model_ds(fm, d3), g);
    int lf = nsm_model_add_law(fm, nsm_nslaw_newton_coulomb_new(3, 0.0, 0.5));
    assert_true(nsm_model_add_interaction(fm, nsm_relation_lagrangian_linear_new(3, 3, H3, NULL), lf, d3, -1) >= 0);
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    o.solver = "reduce";
    assert_null(nsm_sim_new(fm, &o, err));
    assert_non_null(strstr(err, "solves none"));
    o.global_fc = 1;
    s = nsm_sim_new(fm, &o, err);
    if (!s) fail_msg("%s", err);
    assert_int_equal(nsm_sim_run(s, 0.1, NULL, NULL), NS_OK);
    /* sliding block: v0 = 1 decelerates at mu g */
    assert_true(fabs(nsm_sim_v(s, 0)[0] - (1.0 - 0.5 * 9.81 * 0.1)) < 1e-6);
    nsm_sim_free(s);
    nsm_model_free(fm);
#ifdef NSM_HAVE_EVENT_DRIVEN
    nsm_ed_options eo;
    nsm_ed_options_default(&eo);
    eo.T = 1.0;
    eo.solver = "no-such-solver";
    assert_null(nsm_ed_new(m, &eo, err));
    assert_non_null(strstr(err, "no-such-solver"));
#endif
    nsm_model_free(m);
}

static void test_bad_final_time(void **state)
{
    (void)state;
    nsm_model *m = ball(0.9, NULL);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    assert_int_equal(nsm_sim_run(s, NAN, NULL, NULL), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_sim_error(s), "final time"));
    assert_int_equal(nsm_sim_run(s, INFINITY, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_sim_run(s, 0.01, NULL, NULL), NS_OK);
    assert_int_equal(nsm_sim_run(s, 0.005, NULL, NULL), NS_BAD_INPUT);   /* before t */
    assert_int_equal(nsm_sim_run(s, nsm_sim_time(s), NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(nsm_sim_step_count(s), 10);
    nsm_sim_free(s);
#ifdef NSM_HAVE_EVENT_DRIVEN
    /* event-driven: T is an option, checked by nsm_ed_new */
    const double bad[4] = { NAN, INFINITY, 0.0, -1.0 };
    for (int c = 0; c < 4; c++) {
        nsm_ed_options eo;
        nsm_ed_options_default(&eo);
        eo.T = bad[c];
        assert_null(nsm_ed_new(m, &eo, err));
        assert_non_null(strstr(err, "final time"));
    }
#endif
    nsm_model_free(m);
}

static int mass_ns(int n, const double *q, double *M, void *u)
{ (void)n; (void)q; (void)u; M[0] = 2; M[1] = 0.5; M[2] = 0.0; M[3] = 1; return 0; }

static void test_mass_matrix_checked(void **state)
{
    (void)state;
    double q0[2] = { 0, 0 };
    double Mns[4] = { 2, 0.5, 0.0, 1 };       /* non-symmetric */
    double Mind[4] = { 1, 2, 2, 1 };          /* symmetric, indefinite */
    double Mspd[4] = { 2, 0.5, 0.5, 1 };
    const double *cases[3] = { Mns, Mind, Mspd };
    const char *why[3] = { "not symmetric", "not positive definite", NULL };
    for (int c = 0; c < 3; c++) {
        nsm_model *m = nsm_model_new();
        assert_int_equal(nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(2, cases[c], q0, q0)), 0);
        nsm_sim_options o;
        nsm_sim_options_default(&o);
        o.h = 1e-3;
        char err[NS_ERRMSG_LEN] = "";
        nsm_sim *s = nsm_sim_new(m, &o, err);
        if (why[c]) { assert_null(s); assert_non_null(strstr(err, why[c])); }
        else assert_non_null(s);
        nsm_sim_free(s);
#ifdef NSM_HAVE_EVENT_DRIVEN
        nsm_ed_options eo;
        nsm_ed_options_default(&eo);
        eo.T = 1.0;
        nsm_ed *e = nsm_ed_new(m, &eo, err);
        if (why[c]) { assert_null(e); assert_non_null(strstr(err, why[c])); }
        else assert_non_null(e);
        nsm_ed_free(e);
#endif
        nsm_model_free(m);
    }
    /* a callback M(q) may be non-symmetric (PendulumAttachedToSlider) */
    nsm_model *m = nsm_model_new();
    nsm_lagrangian_fns f = { .mass = mass_ns };
    assert_int_equal(nsm_model_add_ds(m, nsm_ds_lagrangian_new(2, &f, q0, q0)), 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    assert_int_equal(nsm_sim_step(s), NS_OK);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static int mass_one(int n, const double *q, double *M, void *u)
{ (void)n; (void)q; (void)u; M[0] = 1; return 0; }
static int fint_nan(double t, int n, const double *q, const double *v, double *f, void *u)
{ (void)n; (void)q; (void)v; (void)u; f[0] = t > 0.05 ? NAN : 0.0; return 0; }
static int fext_nan(double t, int n, double *out, void *u)
{ (void)n; (void)u; out[0] = t > 0.05 ? NAN : -1.0; return 0; }

static int mass_nan(int n, const double *q, double *M, void *u)
{ (void)n; (void)u; M[0] = q[0] < -0.01 ? NAN : 1.0; return 0; }
static int fint_lin(double t, int n, const double *q, const double *v, double *f, void *u)
{ (void)t; (void)n; (void)v; (void)u; f[0] = 1.0 + 0.0 * q[0]; return 0; }
static int jac_nan(double t, int n, const double *q, const double *v, double *Jq, double *Jv, void *u)
{ (void)n; (void)q; (void)v; (void)u; Jq[0] = t > 0.05 ? NAN : 0.0; Jv[0] = 0.0; return 0; }
static int field_nan(double t, int n, const double *x, double *f, void *u)
{ (void)n; (void)u; f[0] = t > 0.05 ? NAN : -x[0]; return 0; }
static int jac_zero(double t, int n, const double *x, double *J, void *u)
{ (void)t; (void)n; (void)x; (void)u; J[0] = -1.0; return 0; }

static void test_nan_force_named(void **state)
{
    (void)state;
    double q0 = 0, v0 = 0, M = 1;
    /* nonlinear system: f_int returns NaN after t = 0.05 */
    nsm_model *m = nsm_model_new();
    nsm_lagrangian_fns f = { .mass = mass_one, .fint = fint_nan };
    nsm_model_add_ds(m, nsm_ds_lagrangian_new(1, &f, &q0, &v0));
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 0.01;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    ns_status st = nsm_sim_run(s, 1.0, NULL, NULL);
    assert_int_not_equal(st, NS_OK);
    printf("%s\n", nsm_sim_error(s));
    assert_non_null(strstr(nsm_sim_error(s), "system 0"));
    assert_non_null(strstr(nsm_sim_error(s), "f_int"));
    assert_non_null(strstr(nsm_sim_error(s), "non-finite"));
    assert_true(nsm_sim_time(s) < 0.1);
    nsm_sim_free(s);
    nsm_model_free(m);
    /* LTI system: the f_ext callback returns NaN */
    m = nsm_model_new();
    int ds = nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(1, &M, &q0, &v0));
    nsm_ds_set_fext(nsm_model_ds(m, ds), fext_nan, NULL);
    s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    assert_int_not_equal(nsm_sim_run(s, 1.0, NULL, NULL), NS_OK);
    printf("%s\n", nsm_sim_error(s));
    assert_non_null(strstr(nsm_sim_error(s), "system 0"));
    assert_non_null(strstr(nsm_sim_error(s), "f_ext"));
    nsm_sim_free(s);
#ifdef NSM_HAVE_EVENT_DRIVEN
    /* the event-driven scheme evaluates forces through the same layer */
    nsm_ed_options eo;
    nsm_ed_options_default(&eo);
    eo.T = 1.0;
    nsm_ed *e = nsm_ed_new(m, &eo, err);
    assert_non_null(e);
    assert_int_not_equal(nsm_ed_run(e, NULL, NULL), NS_OK);
    printf("%s\n", nsm_ed_error(e));
    assert_non_null(strstr(nsm_ed_error(e), "system 0"));
    assert_non_null(strstr(nsm_ed_error(e), "f_ext"));
    assert_true(nsm_ed_time(e) < 0.1);
    nsm_ed_free(e);
#endif
    nsm_model_free(m);
    /* M(q) and a force Jacobian returning NaN are named too */
    for (int c = 0; c < 2; c++) {
        m = nsm_model_new();
        nsm_lagrangian_fns fm = { .mass = c ? mass_one : mass_nan, .fint = fint_lin,
                                  .jac_fint = c ? jac_nan : NULL };
        nsm_model_add_ds(m, nsm_ds_lagrangian_new(1, &fm, &q0, &v0));
        s = nsm_sim_new(m, &o, err);
        assert_non_null(s);
        assert_int_not_equal(nsm_sim_run(s, 1.0, NULL, NULL), NS_OK);
        printf("%s\n", nsm_sim_error(s));
        assert_non_null(strstr(nsm_sim_error(s), "system 0"));
        assert_non_null(strstr(nsm_sim_error(s), c ? "jac" : "mass"));
        assert_non_null(strstr(nsm_sim_error(s), "non-finite"));
        nsm_sim_free(s);
        nsm_model_free(m);
    }
    /* first-order nonlinear system: f returns NaN */
    m = nsm_model_new();
    nsm_model_add_ds(m, nsm_ds_first_order_new(1, field_nan, jac_zero, NULL, &q0));
    s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    assert_int_not_equal(nsm_sim_run(s, 1.0, NULL, NULL), NS_OK);
    printf("%s\n", nsm_sim_error(s));
    assert_non_null(strstr(nsm_sim_error(s), "system 0"));
    assert_non_null(strstr(nsm_sim_error(s), "the f callback"));
    assert_true(nsm_sim_time(s) < 0.1);
    nsm_sim_free(s);
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_handles),
        cmocka_unit_test(test_wrong_handles),
        cmocka_unit_test(test_every_constructor_says_why),
        cmocka_unit_test(test_dhdt_gets_Q),
        cmocka_unit_test(test_constructors_say_why),
        cmocka_unit_test(test_solver_name_checked),
        cmocka_unit_test(test_bad_final_time),
        cmocka_unit_test(test_mass_matrix_checked),
        cmocka_unit_test(test_nan_force_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
