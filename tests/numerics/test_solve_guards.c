/* test_solve_guards.c — what ns_solve promises whatever the solver:
 *   - a problem without unknowns (relay, AVI box, LCP, FC3D with n = 0) is
 *     converged with error 0 and writes nothing on stdout (OpenBLAS used to
 *     print its parameter error there, breaking --json);
 *   - friction contact with W = 10⁻¹² I, q_N = −1: every solver that stops
 *     is converged only on a point where the contact does not approach (the
 *     velocity check of docs/errors.md), recomputed here from r alone. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nonsmooth/nonsmooth.h"

/* runs ns_solve with stdout redirected to a file; returns the bytes written */
static long solve_quiet(const ns_problem *p, const char *solver, ns_status *st)
{
    char path[] = "/tmp/ns_test_stdout_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    ns_solution *s = ns_solution_new(p);
    ns_result r;
    *st = ns_solve(p, solver, NULL, s, &r);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    long n = lseek(fd, 0, SEEK_END);
    close(fd);
    unlink(path);
    if (*st == NS_CONVERGED) assert_true(r.error == 0.0 && r.iterations == 0);
    ns_result_clear(&r);
    ns_solution_free(s);
    return n;
}

static void test_empty_problems(void **state)
{
    (void)state;
    const char *texts[] = {
        "0\n0\n0\n0\n0\t0\n\n\n\n\n",                 /* relay */
        "0\n0\n0\n0\n0\t0\n\navi-box\n\n\n",          /* AVI with a box */
    };
    for (int k = 0; k < 2; k++) {
        char path[] = "/tmp/ns_test_empty_XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, texts[k], strlen(texts[k])), (ssize_t)strlen(texts[k]));
        close(fd);
        ns_problem *p = NULL;
        char err[NS_ERRMSG_LEN];
        ns_status rs = ns_problem_read(path, NS_KIND_NONE, &p, err);
        unlink(path);
        if (rs != NS_OK) fail_msg("empty problem %d: %s", k, err);
        for (size_t i = 0; i < ns_solver_count(); i++) {
            const ns_solver_info *si = ns_solver_at(i);
            if (si->kind != p->kind) continue;
            ns_status st;
            long out = solve_quiet(p, si->name, &st);
            if (st != NS_CONVERGED) fail_msg("%s on an empty %s: %s", si->name, ns_kind_name(p->kind), ns_status_name(st));
            if (out != 0) fail_msg("%s on an empty %s wrote %ld bytes on stdout", si->name, ns_kind_name(p->kind), out);
        }
        ns_problem_free(p);
    }
}

static void test_fc_tiny_W(void **state)
{
    (void)state;
    ns_matrix *W = ns_matrix_dense_new(3, 3);
    assert_non_null(W);
    for (int i = 0; i < 3; i++) W->dense[i * 4] = 1e-12;
    double q[3] = { -1, 0, 0 }, mu = 0.5;
    ns_problem *p = ns_problem_from_fc(ns_fc_new(3, 1, W, q, &mu));
    assert_non_null(p);
    int checked = 0;
    for (size_t i = 0; i < ns_solver_count(); i++) {
        const ns_solver_info *si = ns_solver_at(i);
        if (si->kind != NS_KIND_FC3D) continue;
        ns_solution *s = ns_solution_new(p);
        ns_result r;
        ns_options o;
        ns_options_default(&o);
        o.time_limit = 5;
        ns_status st = ns_solve(p, si->name, &o, s, &r);
        /* recomputed from r alone: u_N = 1e-12 r_N − 1 (the exact solution
         * r = (10¹², 0, 0) gives u = 0) */
        double rn = s->vec[0][0], un = 1e-12 * rn - 1.0;
        if (st == NS_CONVERGED && un < -1e-6)
            fail_msg("%s: converged with u_N = %g (r_N = %g): a violated contact", si->name, un, rn);
        if (st != NS_CONVERGED && un < -1e-6 && r.error <= o.tol && !strstr(r.message, "penetrates"))
            fail_msg("%s: %s without naming the penetration: %s", si->name, ns_status_name(st), r.message);
        checked++;
        ns_result_clear(&r);
        ns_solution_free(s);
    }
    assert_true(checked >= 5);
    ns_problem_free(p);
}

/* An AVI whose set is empty (z ≤ −1 and −z ≤ −1): no solver may report
 * converged (the error counts z's violation of K, since the projection on
 * an empty K has no answer), and a no-solution verdict on the KKT
 * reformulation is reported failed with a message that says why. */
static void test_avi_empty_set(void **state)
{
    (void)state;
    const char *text = "1\n0\n1\n1\n1\t1\n1\n0\navi-polyhedron\n0\n2\n1\n2\t1\n1\n-1\n-1 -1\n";
    char path[] = "/tmp/ns_test_avi_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    ns_problem *p = NULL;
    char err[NS_ERRMSG_LEN];
    assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &p, err), NS_OK);
    unlink(path);
    for (size_t i = 0; i < ns_solver_count(); i++) {
        const ns_solver_info *si = ns_solver_at(i);
        if (si->kind != NS_KIND_AVI) continue;
        ns_solution *s = ns_solution_new(p);
        ns_result r;
        ns_status st = ns_solve(p, si->name, NULL, s, &r);
        if (st == NS_CONVERGED) fail_msg("%s: converged on an empty set (error %g)", si->name, r.error);
        if (strstr(r.message, "certificate checked") && !strstr(r.message, "reformulation"))
            fail_msg("%s: '%s'", si->name, r.message);
        ns_result_clear(&r);
        ns_solution_free(s);
    }
    ns_problem_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_problems),
        cmocka_unit_test(test_fc_tiny_W),
        cmocka_unit_test(test_avi_empty_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
