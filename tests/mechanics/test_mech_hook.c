/* test_mech_hook.c — what happens when a one-step problem does not converge
 *. A column of 3 beads resting on the floor gives an LCP
 * of 3 coupled rows each step; PGS limited to 1 sweep from zero cannot
 * solve it to 1e-8, Lemke can.
 *  - default: the run stops at the first step with a message naming step,
 *    time, kind, solver and error;
 *  - accept_nonconverged = 1: the run goes on, each such step counted;
 *  - a hook that retries with Lemke: the run equals a Lemke run;
 *  - a hook that raises the iteration limit until PGS converges;
 *  - a hook that stops;
 *  - event-driven: the same hook on its acceleration problem, and on its
 *    impact problem (a falling column: the rebound velocity is exact). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "nonsmooth/nsm.h"

#define NB 3
#define R 0.1

static nsm_model *column(void)
{
    nsm_model *m = nsm_model_new();
    double M = 1.0, v0 = 0.0, f = -9.81;
    for (int i = 0; i < NB; i++) {
        double q0 = R + 2 * R * i;
        int d = nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(1, &M, &q0, &v0));
        nsm_ds_set_fext_constant(nsm_model_ds(m, d), &f);
    }
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.5));
    double H1 = 1.0, b1 = -R, H2[2] = { -1.0, 1.0 }, b2 = -2 * R;
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, &H1, &b1), law, 0, -1) >= 0);
    for (int i = 0; i + 1 < NB; i++)
        assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 2, H2, &b2), law, i, i + 1) >= 0);
    return m;
}

static nsm_sim_options pgs_options(void)
{
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    o.solver = "pgs";
    o.solver_options.max_iter = 1;
    o.warm_start = 0;
    return o;
}

static nsm_hook_action to_lemke(const nsm_solve_info *info, nsm_solve_settings *next, void *user)
{
    int *calls = user;
    (*calls)++;
    assert_non_null(info->problem);
    assert_int_equal(info->problem->kind, NS_KIND_LCP);
    assert_int_equal(ns_problem_size(info->problem), NB);
    assert_true(info->result->error > 1e-8);
    assert_string_equal(info->what, "one-step");
    if (info->attempt > 0) return NSM_HOOK_STOP;
    next->solver = "lemke";
    next->options.max_iter = 0;   /* Lemke's default */
    return NSM_HOOK_RETRY;
}

static nsm_hook_action more_iterations(const nsm_solve_info *info, nsm_solve_settings *next, void *user)
{
    int *max_attempt = user;
    if (info->attempt > *max_attempt) *max_attempt = info->attempt;
    next->options.max_iter *= 4;
    return NSM_HOOK_RETRY;
}

static nsm_hook_action looser_tol(const nsm_solve_info *info, nsm_solve_settings *next, void *user)
{
    double *tol = user;
    if (info->attempt > 0) return NSM_HOOK_STOP;   /* the looser tolerance must suffice */
    next->options.tol = fmax(2.0 * info->result->error, next->options.tol);
    *tol = fmax(*tol, next->options.tol);
    return NSM_HOOK_RETRY;
}

static nsm_hook_action stop(const nsm_solve_info *info, nsm_solve_settings *next, void *user)
{
    (void)info; (void)next; (void)user;
    return NSM_HOOK_STOP;
}

static void test_default_stops(void **state)
{
    (void)state;
    nsm_model *m = column();
    nsm_sim_options o = pgs_options();
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    ns_status st = nsm_sim_run(s, 0.1, NULL, NULL);
    printf("default: %s (%s)\n", ns_status_name(st), nsm_sim_error(s));
    assert_int_not_equal(st, NS_OK);
    const char *e = nsm_sim_error(s);
    assert_non_null(strstr(e, "step 0"));
    assert_non_null(strstr(e, "t = 0"));
    assert_non_null(strstr(e, ns_kind_name(NS_KIND_LCP)));
    assert_non_null(strstr(e, "'pgs'"));
    assert_non_null(strstr(e, "error"));
    assert_int_equal(nsm_sim_step_count(s), 0);
    nsm_sim_free(s);
    /* accepted and counted */
    o.accept_nonconverged = 1;
    s = nsm_sim_new(m, &o, err);
    assert_int_equal(nsm_sim_run(s, 0.1, NULL, NULL), NS_OK);
    printf("accepted: %ld of %ld solves not converged\n", nsm_sim_get_stats(s)->nonconverged, nsm_sim_get_stats(s)->solves);
    assert_true(nsm_sim_get_stats(s)->nonconverged > 0);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_hook_retries(void **state)
{
    (void)state;
    nsm_model *m = column();
    char err[NS_ERRMSG_LEN] = "";
    /* reference: Lemke throughout */
    nsm_sim_options ol = pgs_options();
    ol.solver = "lemke";
    ol.solver_options.max_iter = 0;   /* the solver's default */
    nsm_sim *ref = nsm_sim_new(m, &ol, err);
    assert_int_equal(nsm_sim_run(ref, 0.1, NULL, NULL), NS_OK);
    /* PGS with a hook switching to Lemke */
    nsm_sim_options o = pgs_options();
    int calls = 0;
    o.solve_hook = to_lemke;
    o.solve_hook_user = &calls;
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_int_equal(nsm_sim_run(s, 0.1, NULL, NULL), NS_OK);
    const nsm_sim_stats *st = nsm_sim_get_stats(s);
    printf("hook -> lemke: %d calls, %ld retries, %ld not converged\n", calls, st->retries, st->nonconverged);
    assert_true(calls > 0);
    assert_int_equal(st->retries, calls);
    assert_int_equal(st->nonconverged, 0);
    for (int j = 0; j < NB; j++) {
        assert_true(fabs(nsm_sim_q(s, j)[0] - nsm_sim_q(ref, j)[0]) <= 1e-12);
        assert_true(fabs(nsm_sim_v(s, j)[0] - nsm_sim_v(ref, j)[0]) <= 1e-12);
    }
    nsm_sim_free(s);
    /* raising max_iter until PGS converges */
    int max_attempt = 0;
    o.solve_hook = more_iterations;
    o.solve_hook_user = &max_attempt;
    s = nsm_sim_new(m, &o, err);
    assert_int_equal(nsm_sim_run(s, 0.1, NULL, NULL), NS_OK);
    printf("hook -> more PGS sweeps: up to %d retries per step, %ld in all\n", max_attempt + 1, nsm_sim_get_stats(s)->retries);
    assert_int_equal(nsm_sim_get_stats(s)->nonconverged, 0);
    assert_true(max_attempt >= 1);
    for (int j = 0; j < NB; j++) assert_true(fabs(nsm_sim_q(s, j)[0] - nsm_sim_q(ref, j)[0]) <= 1e-8);
    nsm_sim_free(s);
    /* a hook that loosens the tolerance: the retry (same one PGS sweep)
     * is judged against the new tolerance, which the result's error meets */
    double loose = 0.0;
    o.solve_hook = looser_tol;
    o.solve_hook_user = &loose;
    s = nsm_sim_new(m, &o, err);
    assert_int_equal(nsm_sim_run(s, 0.1, NULL, NULL), NS_OK);
    printf("hook -> tolerance %.3g: %ld retries, %ld not converged\n", loose, nsm_sim_get_stats(s)->retries,
           nsm_sim_get_stats(s)->nonconverged);
    assert_true(nsm_sim_get_stats(s)->retries > 0);
    assert_int_equal(nsm_sim_get_stats(s)->nonconverged, 0);
    assert_true(nsm_sim_last_result(s)->error <= loose);
    nsm_sim_free(s);
    /* a hook that stops */
    o.solve_hook = stop;
    s = nsm_sim_new(m, &o, err);
    assert_int_not_equal(nsm_sim_run(s, 0.1, NULL, NULL), NS_OK);
    assert_non_null(strstr(nsm_sim_error(s), "stopped by the hook"));
    nsm_sim_free(s);
    nsm_sim_free(ref);
    nsm_model_free(m);
}

#ifdef NSM_HAVE_EVENT_DRIVEN
static nsm_hook_action ed_hook(const nsm_solve_info *info, nsm_solve_settings *next, void *user)
{
    int *calls = user;
    (*calls)++;
    assert_string_equal(info->scheme, "event-driven");
    assert_true(!strcmp(info->what, "acceleration") || !strcmp(info->what, "impact"));
    assert_int_equal(info->problem->kind, NS_KIND_LCP);
    next->solver = "lemke";
    next->options.max_iter = 0;   /* Lemke's default */
    return NSM_HOOK_RETRY;
}

static void test_event_driven_hook(void **state)
{
    (void)state;
    nsm_model *m = column();
    nsm_ed_options eo;
    nsm_ed_options_default(&eo);
    eo.T = 0.05;
    eo.solver = "pgs";
    eo.solver_options.max_iter = 1;
    int calls = 0;
    eo.solve_hook = ed_hook;
    eo.solve_hook_user = &calls;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *e = nsm_ed_new(m, &eo, err);
    assert_non_null(e);
    assert_int_equal(nsm_ed_run(e, NULL, NULL), NS_OK);
    printf("event-driven hook: %d calls, %ld retries\n", calls, nsm_ed_get_stats(e)->lcp_retries);
    assert_true(calls > 0);
    assert_int_equal(nsm_ed_get_stats(e)->lcp_retries, calls);
    /* the column stays at rest: contact forces carry the weights */
    for (int j = 0; j < NB; j++) assert_true(fabs(nsm_ed_q(e, j)[0] - (R + 2 * R * j)) < 1e-9);
    const double *l = nsm_ed_lambda(e, 0, 2);
    assert_non_null(l);
    assert_true(fabs(l[0] - NB * 9.81) < 1e-6);
    assert_int_equal(nsm_ed_get_stats(e)->lcp_nonconverged, 0);   /* every retry converged */
    nsm_ed_free(e);
    /* no hook, by default: the unconverged LCP stops the run, and the
     * message names the problem, the solver and its error */
    eo.solve_hook = NULL;
    e = nsm_ed_new(m, &eo, err);
    assert_non_null(e);
    assert_int_not_equal(nsm_ed_run(e, NULL, NULL), NS_OK);
    printf("event-driven, no hook, PGS 1 sweep: %s\n", nsm_ed_error(e));
    assert_non_null(strstr(nsm_ed_error(e), "LCP"));
    assert_non_null(strstr(nsm_ed_error(e), "'pgs'"));
    assert_non_null(strstr(nsm_ed_error(e), "accept_nonconverged"));
    assert_int_equal(nsm_ed_get_stats(e)->lcp_nonconverged, 0);
    assert_true(nsm_ed_get_stats(e)->lcp_failures > 0);
    nsm_ed_free(e);
    /* accept_nonconverged = 1: such LCPs are accepted, and counted, not
     * silent */
    eo.accept_nonconverged = 1;
    e = nsm_ed_new(m, &eo, err);
    assert_non_null(e);
    assert_int_equal(nsm_ed_run(e, NULL, NULL), NS_OK);
    printf("event-driven, no hook, accept_nonconverged, PGS 1 sweep: %ld LCPs accepted unconverged, %ld failures\n",
           nsm_ed_get_stats(e)->lcp_nonconverged, nsm_ed_get_stats(e)->lcp_failures);
    assert_true(nsm_ed_get_stats(e)->lcp_nonconverged > 0);
    nsm_ed_free(e);
    nsm_model_free(m);
}
/* The impact problem has the hook too: the column lifted by H0 (beads
 * touching each other) falls; at the floor the impact LCP couples the
 * floor row (approaching) with the two touching bead rows, PGS with one
 * sweep cannot solve it, the hook switches to Lemke. e = 0.5 on every row
 * and the bead rows at zero relative velocity: the whole column leaves the
 * floor at e·√(2 g H0) (λ = 1.5 m |v⁻| × 3, 2, 1 from the floor up). */
static nsm_hook_action ed_count(const nsm_solve_info *info, nsm_solve_settings *next, void *user)
{
    int *calls = user;   /* [0]: impact, [1]: acceleration */
    calls[strcmp(info->what, "impact") ? 1 : 0]++;
    assert_string_equal(info->scheme, "event-driven");
    assert_int_equal(info->step, -1);
    assert_true(info->t >= 0.0);
    if (!strcmp(info->what, "impact")) assert_int_equal(ns_problem_size(info->problem), NB);
    next->solver = "lemke";
    next->options.max_iter = 0;
    return NSM_HOOK_RETRY;
}

static void test_event_driven_impact_hook(void **state)
{
    (void)state;
    const double H0 = 0.05, g = 9.81, e = 0.5;
    nsm_model *m = column();
    nsm_ed_options eo;
    nsm_ed_options_default(&eo);
    double t_imp = sqrt(2.0 * H0 / g), vminus = sqrt(2.0 * g * H0);
    eo.T = t_imp + 0.01;
    eo.solver = "pgs";
    eo.solver_options.max_iter = 1;
    int calls[2] = { 0, 0 };
    eo.solve_hook = ed_count;
    eo.solve_hook_user = calls;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *s = nsm_ed_new(m, &eo, err);
    assert_non_null(s);
    for (int j = 0; j < NB; j++) nsm_ed_q(s, j)[0] += H0;
    nsm_ed_reinit(s);
    assert_int_equal(nsm_ed_run(s, NULL, NULL), NS_OK);
    const nsm_ed_stats *st = nsm_ed_get_stats(s);
    double vexp = e * vminus - g * (eo.T - t_imp), worst = 0.0;
    for (int j = 0; j < NB; j++) worst = fmax(worst, fabs(nsm_ed_v(s, j)[0] - vexp));
    printf("event-driven impact hook: %d impact / %d acceleration calls, %ld impacts, %ld retries; "
           "|v - (e sqrt(2 g H0) - g (T - t_imp))| = %.2e\n", calls[0], calls[1], st->impacts, st->lcp_retries, worst);
    assert_true(calls[0] >= 1);
    assert_int_equal(st->lcp_retries, calls[0] + calls[1]);
    assert_true(worst < 1e-7);
    nsm_ed_free(s);
    nsm_model_free(m);
}
#endif

/* A hook that retries with settings the problem's kind cannot take — an
 * unknown solver, or options ns_options_validate refuses — stops the
 * step (time-stepping) or the event (event-driven) with NS_BAD_INPUT and a
 * message naming what was wrong; both schemes share the retry loop
 * (mechanics/osnsp/solve_retry.c), so they answer alike. */
static nsm_hook_action bad_solver(const nsm_solve_info *info, nsm_solve_settings *next, void *user)
{
    (void)info; (void)user;
    next->solver = "no-such-solver";
    return NSM_HOOK_RETRY;
}

static nsm_hook_action bad_tol(const nsm_solve_info *info, nsm_solve_settings *next, void *user)
{
    (void)info; (void)user;
    next->options.tol = -1.0;
    return NSM_HOOK_RETRY;
}

static void test_hook_bad_settings(void **state)
{
    (void)state;
    nsm_model *m = column();
    nsm_solve_hook_fn hooks[2] = { bad_solver, bad_tol };
    const char *why[2] = { "'no-such-solver'", "bad options" };
    for (int k = 0; k < 2; k++) {
        nsm_sim_options o = pgs_options();
        o.solve_hook = hooks[k];
        nsm_sim *s = nsm_sim_new(m, &o, NULL);
        assert_non_null(s);
        assert_int_equal(nsm_sim_run(s, 0.01, NULL, NULL), NS_BAD_INPUT);
        printf("time-stepping, bad hook settings: %s\n", nsm_sim_error(s));
        assert_non_null(strstr(nsm_sim_error(s), why[k]));
        assert_non_null(strstr(nsm_sim_error(s), "step 0"));
        assert_int_equal(nsm_sim_step_count(s), 0);
        nsm_sim_free(s);
#ifdef NSM_HAVE_EVENT_DRIVEN
        nsm_ed_options eo;
        nsm_ed_options_default(&eo);
        eo.T = 0.05;
        eo.solver = "pgs";
        eo.solver_options.max_iter = 1;
        eo.solve_hook = hooks[k];
        char err[NS_ERRMSG_LEN] = "";
        nsm_ed *e = nsm_ed_new(m, &eo, err);
        assert_non_null(e);
        assert_int_not_equal(nsm_ed_run(e, NULL, NULL), NS_OK);
        printf("event-driven, bad hook settings: %s\n", nsm_ed_error(e));
        assert_non_null(strstr(nsm_ed_error(e), why[k]));
        assert_non_null(strstr(nsm_ed_error(e), "LCP") || strstr(nsm_ed_error(e), "lcp"));
        nsm_ed_free(e);
#endif
    }
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_stops),
        cmocka_unit_test(test_hook_retries),
        cmocka_unit_test(test_hook_bad_settings),
#ifdef NSM_HAVE_EVENT_DRIVEN
        cmocka_unit_test(test_event_driven_hook),
        cmocka_unit_test(test_event_driven_impact_hook),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
