/* test_fc_chain.c — the friction-contact `auto` chain on a problem where
 * the sweeps cycle: the one-step problem of step 880 of the spheres
 * example's box scene with the warm start the time-stepping gave it
 * (tests/numerics/data/README.md). From there NSGS-AC sweeps, plain or
 * accelerated, never reach tol 1e-4; `auto` notices the stall, goes on to
 * the global Newton and converges — checked with u = W r + q and the
 * natural-map error recomputed here from a dense copy of W. on_switch hears
 * of every switch of method and can stop the chain; a chain that ends
 * above tol names every method it tried. */
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
#include <time.h>
#include "ns_test.h"
#include "nonsmooth/nonsmooth.h"
#include "fc/fc3d_internal.h"

static ns_problem *g_p;
static ns_solution *g_guess;

static int setup(void **state)
{
    (void)state;
    char path[1024], err[NS_ERRMSG_LEN] = "";
    snprintf(path, sizeof path, "%s/tests/numerics/data/spheres_box_step880.dat", NS_SOURCE_DIR);
    if (ns_problem_read(path, NS_KIND_NONE, &g_p, err) != NS_OK) { fprintf(stderr, "%s\n", err); return -1; }
    g_guess = ns_solution_new(g_p);
    snprintf(path, sizeof path, "%s/tests/numerics/data/spheres_box_step880.guess", NS_SOURCE_DIR);
    if (!g_guess || ns_solution_read(path, g_guess, err) != NS_OK) { fprintf(stderr, "%s\n", err); return -1; }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ns_solution_free(g_guess);
    ns_problem_free(g_p);
    return 0;
}

/* ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖) with û = u + μ‖u_T‖e_N, from a
 * dense W: the library's error written again, independently. */
static double own_error(const ns_fc *p, const double *r)
{
    ns_matrix *D = ns_matrix_to_dense(p->W);
    assert_non_null(D);
    ns_int m = 3 * p->nc;
    double *u = malloc((size_t)m * sizeof *u);
    assert_non_null(u);
    double nq = 0, nr = 0, nu = 0, e2 = 0;
    for (ns_int i = 0; i < m; i++) {
        long double s = p->q[i];
        for (ns_int j = 0; j < m; j++) s += (long double)D->dense[i + (size_t)j * m] * r[j];
        u[i] = (double)s;
        nq += p->q[i] * p->q[i]; nr += r[i] * r[i]; nu += u[i] * u[i];
    }
    for (ns_int a = 0; a < p->nc; a++) {
        const double *ra = r + 3 * a, *ua = u + 3 * a;
        double mu = p->mu[a];
        double x[3] = { ra[0] - (ua[0] + mu * hypot(ua[1], ua[2])), ra[1] - ua[1], ra[2] - ua[2] };
        /* projection on K = {‖x_T‖ ≤ μ x_N} */
        double xt = hypot(x[1], x[2]), pr[3];
        if (xt <= mu * x[0]) { pr[0] = x[0]; pr[1] = x[1]; pr[2] = x[2]; }
        else if (mu * xt <= -x[0]) { pr[0] = pr[1] = pr[2] = 0.0; }
        else {
            double t = (x[0] + mu * xt) / (1 + mu * mu);
            pr[0] = t; pr[1] = mu * t * x[1] / xt; pr[2] = mu * t * x[2] / xt;
        }
        for (int k = 0; k < 3; k++) e2 += (ra[k] - pr[k]) * (ra[k] - pr[k]);
    }
    free(u);
    ns_matrix_free(D);
    return sqrt(e2) / fmax(sqrt(fmax(nq, fmax(nr, nu))), 1e-300);
}

static ns_status solve_from_guess(const char *solver, ns_options *o, ns_solution *s, ns_result *r)
{
    for (int v = 0; v < s->nvec; v++) memcpy(s->vec[v], g_guess->vec[v], (size_t)s->len[v] * sizeof(double));
    o->warm_start = 1;
    ns_result_init(r);
    return ns_solve(g_p, solver, o, s, r);
}

static void test_sweeps_cycle(void **state)
{
    (void)state;
    for (int anderson = 0; anderson <= 3; anderson += 3) {
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-4;
        o.max_iter = 5000;
        o.anderson = anderson;
        ns_solution *s = ns_solution_new(g_p);
        ns_result r;
        ns_status st = solve_from_guess("nsgs-ac", &o, s, &r);
        print_message("nsgs-ac anderson %d: %s after %d sweeps, error %.3g\n", anderson, ns_status_name(st),
                      r.iterations, r.error);
        assert_int_equal(st, NS_MAX_ITER);
        assert_true(r.error > 1e-4);
        ns_result_clear(&r);
        ns_solution_free(s);
    }
}

typedef struct { int calls, stop_at; char methods[512]; } switches;

static int on_switch(void *user, const char *method, double best, int iterations)
{
    switches *w = user;
    assert_true(best > 0 && iterations >= 0);
    size_t n = strlen(w->methods);
    snprintf(w->methods + n, sizeof w->methods - n, "%s;", method);
    return ++w->calls == w->stop_at;
}

static void test_auto_converges(void **state)
{
    (void)state;
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-4;
    switches w = { 0, 0, "" };
    o.on_switch = on_switch;
    o.switch_user = &w;
    ns_solution *s = ns_solution_new(g_p);
    ns_result r;
    ns_status st = solve_from_guess("auto", &o, s, &r);
    double own = own_error(g_p->u.fc, s->vec[0]);
    print_message("auto: %s, %d iterations, error %.3g (recomputed %.3g), switches: %s\n", ns_status_name(st),
                  r.iterations, r.error, own, w.methods);
    assert_int_equal(st, NS_OK);
    assert_true(own <= 1e-4);
    assert_true(fabs(own - r.error) <= 1e-6 * fmax(own, 1e-12) + 1e-12);
    assert_true(w.calls >= 1);                       /* the sweeps stalled: a switch */
    assert_non_null(strstr(w.methods, "nsn-ac"));
    ns_result_clear(&r);
    ns_solution_free(s);
}

static void test_switch_stops(void **state)
{
    (void)state;
    double start = own_error(g_p->u.fc, g_guess->vec[0]);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-4;
    switches w = { 0, 1, "" };
    o.on_switch = on_switch;
    o.switch_user = &w;
    ns_solution *s = ns_solution_new(g_p);
    ns_result r;
    ns_status st = solve_from_guess("auto", &o, s, &r);
    print_message("stopped: %s, %s\n", ns_status_name(st), r.message);
    assert_int_equal(st, NS_MAX_ITER);
    assert_int_equal(w.calls, 1);
    assert_non_null(strstr(r.message, "stopped by on_switch"));
    assert_non_null(strstr(r.message, "nsgs-ac"));
    double own = own_error(g_p->u.fc, s->vec[0]);
    assert_true(own <= start);                       /* the best point, not the last */
    assert_true(fabs(own - r.error) <= 1e-6 * own);
    ns_result_clear(&r);
    ns_solution_free(s);
}

/* An unreachable tol: the message of a chain that ends above it names the
 * methods it ran, each with its error (here the chain is stopped when it
 * turns to its third method, so that the test does not depend on time). */
static void test_message_names_methods(void **state)
{
    (void)state;
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-30;
    switches w = { 0, 2, "" };
    o.on_switch = on_switch;
    o.switch_user = &w;
    ns_solution *s = ns_solution_new(g_p);
    ns_result r;
    ns_status st = solve_from_guess("auto", &o, s, &r);
    print_message("%s: %s\n", ns_status_name(st), r.message);
    assert_int_equal(st, NS_MAX_ITER);
    assert_non_null(strstr(r.message, "nsgs-ac "));
    assert_non_null(strstr(r.message, "nsn-ac from start "));
    /* the best point of the three methods is returned, its error reported */
    double own = own_error(g_p->u.fc, s->vec[0]);
    assert_true(own <= own_error(g_p->u.fc, g_guess->vec[0]));
    assert_true(fabs(own - r.error) <= 1e-6 * own);
    ns_result_clear(&r);
    ns_solution_free(s);
}

/* The cancel hook, asked between iterations, made slow: it burns `spin`
 * seconds of CPU, counts its calls and never cancels. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct { double spin; long calls; } slow;

static int slow_hook(void *user)
{
    slow *h = user;
    const double t0 = now_s();
    h->calls++;
    while (now_s() - t0 < h->spin) { }
    return 0;
}

/* The race's budgets are counted work, not clock time: the chain takes the
 * same path and returns the same point, bit for bit, when every iteration
 * of its solvers takes longer (here 30 µs more, more than a sweep of this
 * problem costs: a clocked race would give Newton twice the sweeps' time). */
static void test_auto_reproducible(void **state)
{
    (void)state;
    ns_solution *s[2];
    ns_result r[2];
    slow hook = { 30e-6, 0 };
    for (int k = 0; k < 2; k++) {
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-4;
        if (k == 1) {
            o.cancel = slow_hook;
            o.cancel_user = &hook;
        }
        s[k] = ns_solution_new(g_p);
        assert_non_null(s[k]);
        ns_status st = solve_from_guess("auto", &o, s[k], &r[k]);
        print_message("auto%s: %s, %d iterations, %.2f s, method %s\n", k ? " (slow hook)" : "",
                      ns_status_name(st), r[k].iterations, r[k].seconds, r[k].method);
        assert_int_equal(st, NS_OK);
    }
    /* the hook ran between the iterations: at least 30 µs each */
    assert_true(hook.calls >= r[1].iterations / 2);
    assert_int_equal(r[0].iterations, r[1].iterations);
    assert_string_equal(r[0].method, r[1].method);
    assert_memory_equal(s[0]->vec[0], s[1]->vec[0], (size_t)s[0]->len[0] * sizeof(double));
    for (int k = 0; k < 2; k++) {
        ns_result_clear(&r[k]);
        ns_solution_free(s[k]);
    }
}

/* auto on a hyperstatic stack's step at tol 1e-10 (tests/numerics/data/
 * README.md) with at most max_iter sweeps (0: the chain's own budget): it
 * must converge, by the error recomputed from a dense W; returns the
 * chain's iteration count, and the methods it switched to in w. */
static int solve_stack(int max_iter, switches *w)
{
    char path[1024], err[NS_ERRMSG_LEN] = "";
    snprintf(path, sizeof path, "%s/tests/numerics/data/stack10_step6.dat", NS_SOURCE_DIR);
    ns_problem *p = NULL;
    assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &p, err), NS_OK);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-10;
    o.max_iter = max_iter;
    o.on_switch = on_switch;
    o.switch_user = w;
    ns_solution *s = ns_solution_new(p);
    assert_non_null(s);
    ns_result r;
    ns_result_init(&r);
    ns_status st = ns_solve(p, "auto", &o, s, &r);
    double own = own_error(p->u.fc, s->vec[0]);
    print_message("stack step, %d sweeps at most: %s, %d iterations, error %.3g (recomputed %.3g), "
                  "method %s, switches %s\n", max_iter, ns_status_name(st), r.iterations, r.error,
                  own, r.method, w->methods);
    assert_int_equal(st, NS_OK);
    assert_true(own <= 1e-10 * (1 + 1e-6));
    const int its = r.iterations;
    ns_result_clear(&r);
    ns_solution_free(s);
    ns_problem_free(p);
    return its;
}

/* The stack with a budget of 3000 sweeps: the race of sweeps and Newton
 * ends above tol, and the interior point that follows it converges. */
static void test_auto_hyperstatic_stack(void **state)
{
    (void)state;
    switches w = { 0, 0, "" };
    solve_stack(3000, &w);
    assert_non_null(strstr(w.methods, "ipm;"));
}

/* The sweeps' handover (ns_fc_nsgs_ctl.more): accelerated sweeps on the
 * step-880 problem from a cold start, asked for 1e-12, decay too slowly
 * to get there in 2·10⁴ sweeps. Told that the other method costs nothing,
 * the run stops at the first stall test whose rate predicts more than ten
 * times the sweeps made (slow = stalled = 1, above tol); told that it
 * costs more than any run, the run is not stopped by it and goes on
 * longer; either way the cost is asked for once. */
static double other_method(void *ctx)
{
    double *v = ctx;
    v[1] += 1.0;
    return v[0];
}

static void test_sweeps_hand_over(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN] = "";
    ns_fc view;
    ns_matrix *owned = NULL;
    assert_int_equal(ns_fc_blocked(g_p->u.fc, &view, &owned, err), NS_OK);
    const size_t m = (size_t)view.dim * (size_t)view.nc;
    double *r = malloc(m * sizeof *r), *u = malloc(m * sizeof *u);
    assert_true(r && u);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-12;
    o.max_iter = 20000;
    o.anderson = 3;
    int its[2];
    for (int k = 0; k < 2; k++) {
        double cost[2] = { k == 0 ? 0.0 : 1e30, 0.0 };   /* sweeps, calls */
        memset(r, 0, m * sizeof *r);
        ns_fc_nsgs_ctl ctl = { 2000, 0.75, NULL, INFINITY, 0, NAN, 0, other_method, cost, 0 };
        ns_result res;
        ns_result_init(&res);
        ns_status st = ns_fc_nsgs_run_ctl(&view, r, u, &o, ns_fc_local_ac, &res, &ctl);
        its[k] = res.iterations;
        double e = ns_fc_error(&view, r, u, NS_FC_NORM_SICONOS);
        print_message("other method %g sweeps: %s after %d sweeps, error %.3g, slow %d, asked %g times\n",
                      cost[0], ns_status_name(st), res.iterations, e, ctl.slow, cost[1]);
        ns_result_clear(&res);
        assert_int_equal(st, NS_MAX_ITER);
        assert_true(e > o.tol);
        assert_true(cost[1] == 1.0);
        assert_int_equal(ctl.slow, k == 0);
        if (k == 0) assert_true(ctl.stalled && its[0] >= 2000 && its[0] < o.max_iter);
    }
    assert_true(its[0] < its[1]);
    free(r);
    free(u);
    ns_matrix_free(owned);
}

/* The stack with the chain's own budgets: the sweeps crawl, and the
 * race's Newton walk from the caller's point, resumed turn after turn with
 * its line search's history, converges within the race's first rounds
 * (with each turn starting the line search afresh the chain needed more
 * than 10⁵ iterations). */
static void test_auto_stack_walk(void **state)
{
    (void)state;
    switches w = { 0, 0, "" };
    assert_true(solve_stack(0, &w) < 30000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweeps_cycle),
        cmocka_unit_test(test_auto_converges),
        cmocka_unit_test(test_switch_stops),
        cmocka_unit_test(test_message_names_methods),
        cmocka_unit_test(test_auto_reproducible),
        cmocka_unit_test(test_auto_hyperstatic_stack),
        cmocka_unit_test(test_sweeps_hand_over),
        cmocka_unit_test(test_auto_stack_walk),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
