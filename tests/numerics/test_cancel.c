#define _POSIX_C_SOURCE 200809L
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
#include <stdlib.h>
#include <time.h>

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
    { "fc3d/Capsules-i100-889.dat", "fpp" },
    { "fc3d/Capsules-i100-889.dat", "eg" },
    { "fc3d/Capsules-i100-889.dat", "desaxce" },
    { "fc3d/Capsules-i100-889.dat", "tresca-fp" },
    { "fc3d/Capsules-i100-889.dat", "admm" },
    { "fc3d/Capsules-i100-889.dat", "ipm" },
    { "../rolling-data/rfc3d/RFC3D_sphere_1.dat", "nsgs" },
    { "../rolling-data/rfc3d/RFC3D_sphere_1.dat", "nsn" },
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

/* Dense M = AᵀA/n + 0.1 I (A uniform in [−1, 1]) and q uniform in [−1, 1]. */
static ns_matrix *spd(int n, uint64_t seed, double *q)
{
    ns_rng r;
    ns_rng_seed(&r, seed);
    double *A = malloc((size_t)n * n * sizeof *A);
    ns_matrix *M = ns_matrix_dense_new(n, n);
    assert_non_null(A); assert_non_null(M);
    for (int i = 0; i < n * n; i++) A[i] = ns_rng_range(&r, -1, 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += A[k + (size_t)i * n] * A[k + (size_t)j * n];
            M->dense[i + (size_t)j * n] = s / n + (i == j ? 0.1 : 0.0);
        }
    for (int i = 0; i < n; i++) q[i] = ns_rng_range(&r, -1, 1);
    free(A);
    return M;
}

/* The solvers of the other kinds and the chains (auto), on generated
 * problems and shared files; each stops at the first cancel. */
static ns_problem *make(const char *kind, int n)
{
    double q[400], lb[400], ub[400];
    for (int i = 0; i < n; i++) { lb[i] = -0.5; ub[i] = 0.5; }
    ns_matrix *M = spd(n, 7, q);
    if (!strcmp(kind, "lcp")) return ns_problem_from_lcp(ns_lcp_new(M, q));
    if (!strcmp(kind, "ncp")) return ns_problem_from_ncp(ns_ncp_new_affine(M, q));
    if (!strcmp(kind, "mcp")) return ns_problem_from_mcp(ns_mcp_new_affine(M, q, lb, ub));
    if (!strcmp(kind, "vi")) return ns_problem_from_vi(ns_vi_new_affine_box(M, q, lb, ub));
    if (!strcmp(kind, "cqp")) {
        ns_cqp *c = ns_cqp_new(M, q);
        assert_int_equal(ns_cqp_set_box(c, lb, ub), NS_OK);
        return ns_problem_from_cqp(c);
    }
    if (!strcmp(kind, "soclcp")) {
        ns_int start[200];
        double mu[200];
        for (int c = 0; c <= n / 3; c++) start[c] = 3 * c;
        for (int c = 0; c < n / 3; c++) mu[c] = 0.5;
        return ns_problem_from_soclcp(ns_soclcp_new(M, q, n / 3, start, mu));
    }
    ns_matrix_free(M);
    return NULL;
}

static const struct { const char *kind, *file, *solver; int n; } more[] = {
    { "lcp", NULL, "ppm", 120 }, { "lcp", NULL, "newton-fb", 120 }, { "lcp", NULL, "newton-min", 120 },
    { "lcp", NULL, "enum", 24 }, { "lcp", NULL, "auto", 120 },
    { "ncp", NULL, "newton-fb", 60 }, { "ncp", NULL, "newton-min", 60 }, { "ncp", NULL, "homotopy", 60 },
    { "ncp", NULL, "auto", 60 },
    { "mcp", NULL, "newton-fb", 60 }, { "mcp", NULL, "homotopy", 60 }, { "mcp", NULL, "auto", 60 },
    { "vi", NULL, "eg", 60 }, { "vi", NULL, "fpp", 60 }, { "vi", NULL, "hp", 60 },
    { "vi", NULL, "newton-fb", 60 }, { "vi", NULL, "auto", 60 },
    { "cqp", NULL, "pg-bb", 60 }, { "cqp", NULL, "admm", 60 }, { "cqp", NULL, "auto", 60 },
    { "soclcp", NULL, "nsgs", 60 }, { "soclcp", NULL, "newton-fb", 60 }, { "soclcp", NULL, "auto", 60 },
    { NULL, "mlcp/PDSym_mlcp.dat", "auto", 0 }, { NULL, "mlcp/PDSym_mlcp.dat", "enum", 0 },
    { NULL, "mlcp/PDSym_mlcp.dat", "newton-fb", 0 },
    { NULL, "fc2d/FrictionContactProblem00031.dat", "lemke", 0 },
    { NULL, "gfc2d/gfc2d_granularflowonwall_00069_00350.dat", "admm", 0 },
};

static void test_cancel_other_kinds_and_chains(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof more / sizeof more[0]; k++) {
        ns_problem *p = more[k].kind ? make(more[k].kind, more[k].n) : read_or_skip(more[k].file);
        if (!p) continue;   /* a shared file not there */
        ns_solution *s = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-300;
        o.max_iter = 1000000;
        counter c = { 0, 1 };
        o.cancel = cancel_at;
        o.cancel_user = &c;
        ns_result r;
        ns_status st = ns_solve(p, more[k].solver, &o, s, &r);
        if (st != NS_INTERRUPTED)
            fail_msg("%s %s: %s (%s) after %d calls", more[k].kind ? more[k].kind : more[k].file,
                     more[k].solver, ns_status_name(st), r.message, c.calls);
        if (c.calls != 1)
            fail_msg("%s %s: asked %d times after the first yes", more[k].kind ? more[k].kind : more[k].file,
                     more[k].solver, c.calls - 1);
        ns_result_clear(&r);
        ns_solution_free(s);
        ns_problem_free(p);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

typedef struct { double t_stop; } deadline;
static int cancel_after(void *user) { return now() >= ((deadline *)user)->t_stop; }

/* A cancel 20 ms into a solve that would run for hours (enumeration of
 * 2^28 sets, Newton and homotopy to tol 1e-300 with 10^9 iterations)
 * returns NS_INTERRUPTED within 0.3 s of it. */
static void test_cancel_is_quick(void **state)
{
    (void)state;
    static const struct { const char *kind, *solver; int n; } slow[] = {
        { "lcp", "enum", 28 }, { "ncp", "homotopy", 60 }, { "vi", "hp", 60 }, { "cqp", "admm", 60 },
    };
    for (size_t k = 0; k < sizeof slow / sizeof slow[0]; k++) {
        ns_problem *p = make(slow[k].kind, slow[k].n);
        ns_solution *s = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-300;
        o.max_iter = 1000000000;
        deadline d = { now() + 0.02 };
        o.cancel = cancel_after;
        o.cancel_user = &d;
        ns_result r;
        ns_status st = ns_solve(p, slow[k].solver, &o, s, &r);
        double late = now() - d.t_stop;
        printf("%s %s: %s %.4f s after the cancel\n", slow[k].kind, slow[k].solver, ns_status_name(st), late);
        assert_int_equal(st, NS_INTERRUPTED);
        assert_true(late < 0.3);
        ns_result_clear(&r);
        ns_solution_free(s);
        ns_problem_free(p);
    }
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
        cmocka_unit_test(test_cancel_other_kinds_and_chains),
        cmocka_unit_test(test_cancel_is_quick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
