/* test_cancel.c — ns_options.cancel and record_history: every iterative
 * solver asks cancel once per iteration of its main loop, stops at once with
 * NS_INTERRUPTED when it answers non-zero (its iterate kept, finite), and
 * records one history entry per iteration when asked. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

typedef struct { int calls, stop_at; } counter;

static int cancel_at(void *user)
{
    counter *c = user;
    return ++c->calls >= c->stop_at;
}

static ns_problem *read_or_skip(const char *rel)
{
    char path[1024], err[NS_ERRMSG_LEN] = "";
    ns_problem *p = NULL;
    if (ns_problem_read(ns_test_data_path(path, sizeof path, rel), NS_KIND_NONE, &p, err) != NS_OK)
        return NULL;
    return p;
}

static const struct { const char *file, *solver; } cases[] = {
    { "fc3d/Capsules-i100-889.dat", "nsgs-ac" },
    { "fc3d/Capsules-i100-889.dat", "nsn-ac" },
    { "fc3d/Capsules-i100-889.dat", "auto" },
    { "lcp/lcp_mmc.dat", "pgs" },
    { "lcp/lcp_mmc.dat", "lemke" },
    { "relay/relay1.dat", "pgs" },
    { "mlcp/PDSym_mlcp.dat", "pgs" },
    { "gmp/Example1_Fc3D_SBM.dat", "gmp-nsgs" },
    { "fc2d/FrictionContactProblem00031.dat", "nsgs" },
    { "gfc2d/gfc2d_granularflowonwall_00069_00350.dat", "nsn-ac" },
    { "fc3d/Capsules-i100-889.dat", "prox" },
};

static void test_cancel_stops_every_iterative_solver(void **state)
{
    (void)state;
    int ran = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ns_problem *p = read_or_skip(cases[k].file);
        if (!p) continue;
        ns_solution *s = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-300;             /* never reached: only cancel can stop it early */
        o.max_iter = 1000000;
        counter c = { 0, 3 };
        o.cancel = cancel_at;
        o.cancel_user = &c;
        ns_result r;
        ns_status st = ns_solve(p, cases[k].solver, &o, s, &r);
        if (st != NS_INTERRUPTED)
            fail_msg("%s on %s: %s (%s) after %d calls", cases[k].solver, cases[k].file,
                     ns_status_name(st), r.message, c.calls);
        assert_int_equal(c.calls, 3);          /* stopped at the first yes */
        assert_true(ns_status_is_outcome(st));
        assert_true(isfinite(r.error));
        assert_string_equal(ns_status_name(st), "interrupted");
        ns_result_clear(&r);
        ns_solution_free(s);
        ns_problem_free(p);
        ran++;
    }
    if (!ran) skip();
}

static void test_history_one_entry_per_iteration(void **state)
{
    (void)state;
    /* pgs on the SPD LCP M = [[2, 1], [1, 2]], q = (-5, -6): an error per
     * sweep, decreasing, the last one the recomputed error */
    ns_matrix *M = ns_matrix_dense_new(2, 2);
    M->dense[0] = 2; M->dense[1] = 1; M->dense[2] = 1; M->dense[3] = 2;
    const double q[2] = { -5, -6 };
    ns_problem *p = ns_problem_from_lcp(ns_lcp_new(M, q));
    ns_solution *s = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-12;
    o.record_history = 1;
    ns_result r;
    assert_int_equal(ns_solve(p, "pgs", &o, s, &r), NS_CONVERGED);
    assert_non_null(r.history);
    assert_int_equal(r.history_len, r.iterations);
    for (int i = 1; i < r.history_len; i++) assert_true(r.history[i] < r.history[i - 1]);
    assert_true(r.history[r.history_len - 1] == r.error);
    ns_result_clear(&r);
    assert_null(r.history);
    /* without record_history: none */
    o.record_history = 0;
    ns_solve(p, "pgs", &o, s, &r);
    assert_null(r.history);
    assert_int_equal(r.history_len, 0);
    ns_result_clear(&r);
    ns_solution_free(s);
    ns_problem_free(p);

    /* nsgs: one entry per sweep (NaN between global checks), more than the
     * buffer's first capacity, so it grew */
    p = read_or_skip("fc3d/Capsules-i100-889.dat");
    if (!p) return;
    s = ns_solution_new(p);
    o.record_history = 1;
    o.tol = 1e-8;
    assert_int_equal(ns_solve(p, "nsgs-ac", &o, s, &r), NS_CONVERGED);
    assert_true(r.iterations > 200);
    assert_int_equal(r.history_len, r.iterations);
    int finite = 0;
    for (int i = 0; i < r.history_len; i++) finite += isfinite(r.history[i]);
    assert_true(finite >= 2 && finite < r.history_len);
    assert_true(r.history[r.history_len - 1] <= 1e-8);
    ns_result_clear(&r);
    ns_solution_free(s);
    ns_problem_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cancel_stops_every_iterative_solver),
        cmocka_unit_test(test_history_one_entry_per_iteration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
