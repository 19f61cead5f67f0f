/* test_log.c — solver progress messages: every solver reports through the
 * caller's log callback only, at levels no higher than the verbosity asked
 * for, and is silent at verbosity 0 or without a callback. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

typedef struct { int count, max_level, empty; char first[NS_ERRMSG_LEN]; } sink;

static void collect(void *user, int level, const char *msg)
{
    sink *s = user;
    if (s->count == 0) snprintf(s->first, sizeof s->first, "%s", msg);
    s->count++;
    if (level > s->max_level) s->max_level = level;
    if (!msg || !msg[0]) s->empty++;
}

/* Solves `file` with `solver` at the given verbosity, messages into s. */
static void run(const char *file, const char *solver, int verbosity, int with_log, sink *s)
{
    char path[1024], err[NS_ERRMSG_LEN] = "";
    ns_problem *p = NULL;
    if (!ns_test_data_dir()) skip();   /* no ../shared/data beside the source */
    if (ns_problem_read(ns_test_data_path(path, sizeof path, file), NS_KIND_NONE, &p, err) != NS_OK)
        fail_msg("%s: %s", file, err);
    ns_solution *x = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.verbosity = verbosity;
    o.log = with_log ? collect : NULL;
    o.log_user = s;
    ns_result r;
    ns_result_init(&r);
    ns_solve(p, solver, &o, x, &r);
    ns_result_clear(&r);
    ns_solution_free(x);
    ns_problem_free(p);
}

static const struct { const char *file, *solver; } cases[] = {
    { "lcp/lcp_CPS_4.dat", "lemke" },
    { "lcp/lcp_CPS_4.dat", "newton-fb" },
    { "lcp/lcp_mmc.dat", "pgs" },
    { "fc3d/Capsules-i100-889.dat", "nsgs-ac" },
    { "fc3d/Capsules-i100-889.dat", "nsn-ac" },
    { "fc3d/Capsules-i100-889.dat", "prox" },
    { "fc3d/Capsules-i100-889.dat", "auto" },
};

static void test_levels_follow_verbosity(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (int v = 0; v <= 2; v++) {
            sink s = { 0 };
            run(cases[k].file, cases[k].solver, v, 1, &s);
            if (v == 0 && s.count)
                fail_msg("%s on %s: %d messages at verbosity 0 (first: %s)", cases[k].solver,
                         cases[k].file, s.count, s.first);
            if (s.max_level > v)
                fail_msg("%s: a level-%d message at verbosity %d", cases[k].solver, s.max_level, v);
            assert_int_equal(s.empty, 0);
        }
    }
}

static void test_verbose_solvers_say_something(void **state)
{
    (void)state;
    /* these report per iteration (pivot, sweep) at verbosity 2 */
    static const struct { const char *file, *solver; } talkers[] = {
        { "fc3d/Capsules-i100-889.dat", "nsn-ac" },
        { "fc3d/Capsules-i100-889.dat", "prox" },
        { "lcp/lcp_CPS_4.dat", "lemke" },
        { "lcp/lcp_mmc.dat", "pgs" },
    };
    for (size_t k = 0; k < sizeof talkers / sizeof talkers[0]; k++) {
        sink s = { 0 };
        run(talkers[k].file, talkers[k].solver, 2, 1, &s);
        if (s.count == 0) fail_msg("%s printed nothing at verbosity 2", talkers[k].solver);
    }
}

static void test_no_callback_is_silent_and_safe(void **state)
{
    (void)state;
    sink s = { 0 };
    run("fc3d/Capsules-i100-889.dat", "nsn-ac", 2, 0, &s);
    assert_int_equal(s.count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_follow_verbosity),
        cmocka_unit_test(test_verbose_solvers_say_something),
        cmocka_unit_test(test_no_callback_is_silent_and_safe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
