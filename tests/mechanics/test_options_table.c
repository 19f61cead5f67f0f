/* test_options_table.c — every field of every public options struct
 * (ns_options, nsm_sim_options, nsm_ed_options) set in turn to NaN, +inf,
 * −inf, 0, −1 and a huge value (1e300; INT_MAX / LONG_MAX for integers),
 * the others at their defaults. Each (field, value) is either refused —
 * NS_BAD_INPUT from the options' validation and from the constructor
 * (ns_solve, nsm_sim_new, nsm_ed_new), the message naming the field — or
 * accepted as the header documents; an accepted value then runs (a solve,
 * three time steps, one event-driven event) and returns, with a message
 * when it fails. The table says which values each field accepts: a
 * validation that lets one more value through, or refuses a documented
 * one, fails here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "nonsmooth/nsm.h"
#ifdef NSM_HAVE_EVENT_DRIVEN
#include "nonsmooth/nsm_event_driven.h"
#endif

enum { V_NAN = 1, V_PINF = 2, V_NINF = 4, V_ZERO = 8, V_NEG = 16, V_HUGE = 32, V_ALL = 63 };
static const int classes[] = { V_NAN, V_PINF, V_NINF, V_ZERO, V_NEG, V_HUGE };
static const char *const class_name[] = { "NaN", "+inf", "-inf", "0", "-1", "huge" };

typedef enum { F_DOUBLE, F_INT, F_LONG } ftype;
typedef struct field {
    const char *name;      /* as named in the refusal */
    size_t off;
    ftype type;
    int accept;            /* value classes accepted (integers: no NaN/inf) */
} field;

/* Sets the field to the value of class c; 0 if the class does not apply. */
static int set(void *base, const field *f, int c)
{
    char *p = (char *)base + f->off;
    if (f->type == F_DOUBLE) {
        double v = c == V_NAN ? NAN : c == V_PINF ? INFINITY : c == V_NINF ? -INFINITY
                 : c == V_ZERO ? 0.0 : c == V_NEG ? -1.0 : 1e300;
        memcpy(p, &v, sizeof v);
        return 1;
    }
    if (c == V_NAN || c == V_PINF || c == V_NINF) return 0;
    if (f->type == F_INT) {
        int v = c == V_ZERO ? 0 : c == V_NEG ? -1 : INT_MAX;
        memcpy(p, &v, sizeof v);
    } else {
        long v = c == V_ZERO ? 0 : c == V_NEG ? -1 : LONG_MAX;
        memcpy(p, &v, sizeof v);
    }
    return 1;
}

#define D(s, f, a) { #f, offsetof(s, f), F_DOUBLE, a }
#define I(s, f, a) { #f, offsetof(s, f), F_INT, a }
#define L(s, f, a) { #f, offsetof(s, f), F_LONG, a }

static const field ns_fields[] = {
    D(ns_options, tol, V_HUGE),
    I(ns_options, max_iter, V_ZERO | V_HUGE),
    D(ns_options, time_limit, V_ZERO | V_HUGE),
    I(ns_options, verbosity, V_ZERO | V_HUGE),
    I(ns_options, warm_start, V_ZERO),
    I(ns_options, fc_norm, V_ZERO),
    D(ns_options, omega, V_ZERO),
    I(ns_options, check_every, V_ZERO | V_HUGE),
    I(ns_options, shuffle, V_ZERO),
    I(ns_options, sweep, V_ZERO),
    I(ns_options, anderson, V_ZERO),
    I(ns_options, threads, V_ZERO),
    I(ns_options, record_history, V_ZERO),
};

/* A 2×2 LCP (M = [2 1; 1 2], q = (−1, −1)): every accepted setting solves. */
static void test_ns_options(void **state)
{
    (void)state;
    double M[4] = { 2, 1, 1, 2 }, q[2] = { -1, -1 };
    ns_matrix *A = ns_matrix_dense_new(2, 2);
    assert_non_null(A);
    memcpy(A->dense, M, sizeof M);
    ns_problem *p = ns_problem_from_lcp(ns_lcp_new(A, q));
    assert_non_null(p);
    for (size_t k = 0; k < sizeof ns_fields / sizeof *ns_fields; k++) {
        const field *f = &ns_fields[k];
        for (int ci = 0; ci < 6; ci++) {
            ns_options o;
            ns_options_default(&o);
            if (!set(&o, f, classes[ci])) continue;
            char err[NS_ERRMSG_LEN] = "";
            ns_status st = ns_options_validate(&o, err);
            int accepted = (f->accept & classes[ci]) != 0;
            ns_solution *s = ns_solution_new(p);
            ns_result r;
            ns_result_init(&r);
            ns_status st2 = ns_solve(p, "lemke", &o, s, &r);
            if (accepted) {
                if (st != NS_OK) fail_msg("ns_options.%s = %s refused: %s", f->name, class_name[ci], err);
                if (st2 == NS_BAD_INPUT) fail_msg("ns_solve, %s = %s: %s", f->name, class_name[ci], r.message);
            } else {
                if (st != NS_BAD_INPUT) fail_msg("ns_options.%s = %s accepted", f->name, class_name[ci]);
                if (!strstr(err, f->name)) fail_msg("ns_options.%s = %s: '%s' does not name it", f->name, class_name[ci], err);
                if (st2 != NS_BAD_INPUT || !strstr(r.message, f->name))
                    fail_msg("ns_solve with ns_options.%s = %s: %s '%s'", f->name, class_name[ci], ns_status_name(st2), r.message);
            }
            ns_result_clear(&r);
            ns_solution_free(s);
        }
    }
    ns_problem_free(p);
}

/* A ball of mass 1 at height 1 above a floor (Newton law, e = 0.5). */
static nsm_model *ball(void)
{
    nsm_model *m = nsm_model_new();
    double M = 1.0, q0 = 1.0, v0 = 0.0, g = -9.81, H = 1.0;
    int ds = nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(1, &M, &q0, &v0));
    nsm_ds_set_fext_constant(nsm_model_ds(m, ds), &g);
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.5));
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, &H, NULL), law, ds, -1) >= 0);
    return m;
}

#define S(f, a) D(nsm_sim_options, f, a)
#define SI(f, a) I(nsm_sim_options, f, a)
#define SL(f, a) L(nsm_sim_options, f, a)
static const field sim_fields[] = {
    S(t0, V_ZERO | V_NEG),                  /* huge: t0 + h == t0 */
    S(h, V_HUGE),
    S(theta, V_ZERO),
    SI(warm_start, V_ZERO),
    S(gap_tol, V_ZERO | V_HUGE),
    SI(activation, V_ZERO),
    S(activation_gamma, V_ZERO | V_HUGE),
    SI(separating_restitution, V_ZERO),
    SI(theta_output, V_ZERO),
    SI(linearisation, V_ZERO),
    SI(em_use_gamma, V_ZERO),
    S(em_gamma, V_ZERO),
    S(newton_tol, V_HUGE),
    SI(newton_criterion, V_ZERO),
    SI(newton_max_iter, V_HUGE),
    SI(accept_nonconverged, V_ZERO),
    SL(dump_every, V_ZERO | V_HUGE),
    SL(dump_max, V_ZERO | V_HUGE),
    SI(projection, V_ZERO),
    S(projection_tol, V_HUGE),
    S(projection_tol_unilateral, V_HUGE),
    SI(projection_max_iter, V_HUGE),
    SI(projection_metric, V_ZERO),
    SI(projection_all, V_ZERO),
    SI(projection_hysteresis, V_ZERO),
    S(projection_activate_pos, V_ZERO | V_NEG | V_HUGE),
    S(projection_deactivate_pos, V_ZERO | V_NEG | V_HUGE),
    S(projection_deactivate_vel, V_ZERO | V_NEG | V_HUGE),
    SI(gmp, V_ZERO),
    SI(global_fc, V_ZERO),
    SI(order_by_system, V_ZERO),
};

static void sim_defaults(nsm_sim_options *o)
{
    nsm_sim_options_default(o);
    o->h = 1e-3;
    o->projection = NSM_PROJECTION_DIRECT;   /* the projection fields are read */
    o->projection_hysteresis = 1;
}

static void test_sim_options(void **state)
{
    (void)state;
    nsm_model *m = ball();
    for (size_t k = 0; k < sizeof sim_fields / sizeof *sim_fields; k++) {
        const field *f = &sim_fields[k];
        for (int ci = 0; ci < 6; ci++) {
            nsm_sim_options o;
            sim_defaults(&o);
            if (!set(&o, f, classes[ci])) continue;
            char err[NS_ERRMSG_LEN] = "", err2[NS_ERRMSG_LEN] = "";
            ns_status st = nsm_sim_options_validate(&o, err);
            nsm_sim *s = nsm_sim_new(m, &o, err2);
            int accepted = (f->accept & classes[ci]) != 0;
            if (accepted) {
                if (st != NS_OK || !s) fail_msg("nsm_sim_options.%s = %s refused: %s / %s", f->name, class_name[ci], err, err2);
                for (int i = 0; i < 3; i++) {
                    double t = nsm_sim_time(s);
                    ns_status r = nsm_sim_step(s);
                    if (r != NS_OK) {   /* a failure says why and leaves the state of t_k */
                        if (!nsm_sim_error(s)[0]) fail_msg("%s = %s: step fails without a reason", f->name, class_name[ci]);
                        assert_true(nsm_sim_time(s) == t);
                        assert_true(isfinite(nsm_sim_q(s, 0)[0]) && isfinite(nsm_sim_v(s, 0)[0]));
                        break;
                    }
                }
                nsm_sim_free(s);
            } else {
                if (st != NS_BAD_INPUT) fail_msg("nsm_sim_options.%s = %s accepted", f->name, class_name[ci]);
                if (s) fail_msg("nsm_sim_new took nsm_sim_options.%s = %s", f->name, class_name[ci]);
                if (!strstr(err, f->name) || !strstr(err2, f->name))
                    fail_msg("nsm_sim_options.%s = %s: '%s' / '%s' do not name it", f->name, class_name[ci], err, err2);
            }
        }
    }
    /* the solver options inside, and NULL */
    nsm_sim_options o;
    sim_defaults(&o);
    o.solver_options.tol = NAN;
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(nsm_sim_options_validate(&o, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "tol"));
    assert_int_equal(nsm_sim_options_validate(NULL, err), NS_BAD_INPUT);
    nsm_model_free(m);
}

/* nsm_sim_run from t0 = -inf or with h below the spacing of doubles at t0
 * used to loop for ever: refused at nsm_sim_new now (and a tiny step at an
 * ordinary t0 is accepted). */
static void test_sim_time_never_moves(void **state)
{
    (void)state;
    nsm_model *m = ball();
    nsm_sim_options o;
    char err[NS_ERRMSG_LEN] = "";
    sim_defaults(&o);
    o.t0 = 1e6; o.h = 1e-12;           /* t0 + h == t0 */
    assert_null(nsm_sim_new(m, &o, err));
    assert_non_null(strstr(err, "resolution"));
    o.t0 = 1.0; o.h = 1e-12;           /* moves */
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    assert_int_equal(nsm_sim_step(s), NS_OK);
    assert_true(nsm_sim_time(s) > 1.0);
    nsm_sim_free(s);
    nsm_model_free(m);
}

#ifdef NSM_HAVE_EVENT_DRIVEN
#define E(f, a) D(nsm_ed_options, f, a)
#define EI(f, a) I(nsm_ed_options, f, a)
#define EL(f, a) L(nsm_ed_options, f, a)
static const field ed_fields[] = {
    E(t0, V_ZERO | V_NEG),                  /* huge: not < T */
    E(T, V_HUGE),                           /* 0 = t0, −1 < t0 */
    E(output_step, V_ZERO | V_HUGE),
    EI(method, V_ZERO),
    EI(fixed_point, V_ZERO),
    EI(linear_solver, V_ZERO),
    E(rtol, V_HUGE),
    E(atol, V_HUGE),
    E(hmin, V_ZERO),                        /* huge: > T − t0 */
    E(hmax, V_ZERO | V_HUGE),
    EL(max_steps, V_HUGE),
    E(gap_tol, V_ZERO | V_HUGE),
    E(vel_tol, V_ZERO | V_HUGE),
    E(rest_vel, V_ZERO | V_HUGE),
    E(rest_gap, V_ZERO | V_HUGE),
    E(lambda_tol, V_ZERO | V_HUGE),
    E(acc_tol, V_ZERO | V_HUGE),
    EL(history, V_ZERO),                    /* huge: more than 10⁸ */
    EI(accept_nonconverged, V_ZERO),
};

static void test_ed_options(void **state)
{
    (void)state;
    nsm_model *m = ball();
    for (size_t k = 0; k < sizeof ed_fields / sizeof *ed_fields; k++) {
        const field *f = &ed_fields[k];
        for (int ci = 0; ci < 6; ci++) {
            nsm_ed_options o;
            nsm_ed_options_default(&o);
            o.T = 1.0;
            if (!set(&o, f, classes[ci])) continue;
            char err[NS_ERRMSG_LEN] = "", err2[NS_ERRMSG_LEN] = "";
            ns_status st = nsm_ed_options_validate(&o, err);
            int accepted = (f->accept & classes[ci]) != 0;
            if (accepted) {
                nsm_ed *s = nsm_ed_new(m, &o, err2);
                if (st != NS_OK || !s) fail_msg("nsm_ed_options.%s = %s refused: %s / %s", f->name, class_name[ci], err, err2);
                int r = nsm_ed_advance_to_event(s);   /* to the first event */
                if (r < 0 && !nsm_ed_error(s)[0]) fail_msg("%s = %s: advance fails without a reason", f->name, class_name[ci]);
                nsm_ed_free(s);
            } else {
                nsm_ed *s = nsm_ed_new(m, &o, err2);
                if (st != NS_BAD_INPUT) fail_msg("nsm_ed_options.%s = %s accepted", f->name, class_name[ci]);
                if (s) fail_msg("nsm_ed_new took nsm_ed_options.%s = %s", f->name, class_name[ci]);
                if (!strstr(err, f->name) || !strstr(err2, f->name))
                    fail_msg("nsm_ed_options.%s = %s: '%s' / '%s' do not name it", f->name, class_name[ci], err, err2);
            }
        }
    }
    nsm_ed_options o;
    char err[NS_ERRMSG_LEN] = "";
    /* output_step = 1e-300: 10^300 time events; used to overflow a cast to
     * long and return at t0 having integrated nothing */
    nsm_ed_options_default(&o); o.T = 1.0; o.output_step = 1e-300;
    assert_null(nsm_ed_new(m, &o, err));
    assert_non_null(strstr(err, "output_step"));
    /* hmin > hmax: named, not a CVODE code */
    nsm_ed_options_default(&o); o.T = 1.0; o.hmin = 0.1; o.hmax = 0.01;
    assert_null(nsm_ed_new(m, &o, err));
    assert_non_null(strstr(err, "hmin"));
    assert_non_null(strstr(err, "hmax"));
    /* the solver options inside */
    nsm_ed_options_default(&o); o.T = 1.0; o.solver_options.omega = NAN;
    assert_null(nsm_ed_new(m, &o, err));
    assert_non_null(strstr(err, "omega"));
    assert_int_equal(nsm_ed_options_validate(NULL, err), NS_BAD_INPUT);
    nsm_model_free(m);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ns_options),
        cmocka_unit_test(test_sim_options),
        cmocka_unit_test(test_sim_time_never_moves),
#ifdef NSM_HAVE_EVENT_DRIVEN
        cmocka_unit_test(test_ed_options),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
