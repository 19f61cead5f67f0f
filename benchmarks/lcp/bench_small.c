/* bench_small.c — latency of ns_solve on small problems:
 * the time of the first call in the process and of warm calls (same
 * problem and solution, options reused: what a time-stepping loop pays every
 * step), error recomputation by the driver included.
 *
 *   bench_small [--case lcp4|lcp10|mlcp3|all] [--solver NAME] [--reps N]
 *               [--callgrind]
 *
 * Cases: lcp4 and lcp10, M = tridiag(-1, 4, -1) + 0.1 (a P-matrix, dense)
 * with q alternating in sign (some z > 0, some w > 0); mlcp3, the 3x3 MLCP
 * of docs/formats.md §3.4 (n = 1, m = 2). --solver: a registered name, or
 * "default" (the kind's default, NULL to ns_solve). Prints one line per
 * case: first call (µs), warm mean and best of 200 batches (µs per solve),
 * and the process CPU time per warm solve.
 * --callgrind: only the warm loop is instrumented (callgrind client
 * requests; run under valgrind --tool=callgrind --collect-atstart=no) and
 * N calls are made, so the instruction count / N is the cost of one warm
 * solve. Run with nice, compare figures measured in the same run. */
#define _POSIX_C_SOURCE 200809L
#include "nonsmooth/nonsmooth.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum { NB = 200 };   /* timing batches */

static ns_problem *make_lcp(int n)
{
    ns_matrix *M = ns_matrix_dense_new(n, n);
    double q[16];
    if (!M) return NULL;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            M->dense[i + j * n] = (i == j ? 4.0 : (i - j == 1 || j - i == 1) ? -1.0 : 0.0) + 0.1;
        q[i] = i % 2 ? 1.0 + 0.1 * i : -1.0 - 0.05 * i;
    }
    return ns_problem_from_lcp(ns_lcp_new(M, q));
}

/* formats §3.4: M = [[2, -1, 5], [1, 3, 1], [0, 0, 4]], q = (1, -1, -2). */
static ns_problem *make_mlcp(void)
{
    static const double Mc[9] = { 2, 1, 0, -1, 3, 0, 5, 1, 4 };   /* column-major */
    static const double q[3] = { 1, -1, -2 };
    ns_matrix *M = ns_matrix_dense_new(3, 3);
    if (!M) return NULL;
    memcpy(M->dense, Mc, sizeof Mc);
    return ns_problem_from_mlcp(ns_mlcp_new(1, 2, M, q));
}

static int run_case(const char *name, ns_problem *p, const char *solver, long reps, int cg)
{
    if (!p) { fprintf(stderr, "bench_small: out of memory\n"); return 2; }
    ns_solution *s = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-10;
    ns_result res;
    double t0 = now();
    ns_status st = ns_solve(p, solver, &o, s, &res);
    double first = now() - t0;
    ns_result_clear(&res);
    if (st != NS_CONVERGED) {
        fprintf(stderr, "bench_small: %s: %s\n", name, ns_status_name(st));
        ns_solution_free(s);
        ns_problem_free(p);
        return 1;
    }
    double best = 1e30, total = 0, cpu = 0;
    if (cg) {
        CALLGRIND_START_INSTRUMENTATION;
        for (long r = 0; r < reps; r++) { ns_solve(p, solver, &o, s, &res); ns_result_clear(&res); }
        CALLGRIND_STOP_INSTRUMENTATION;
    } else {
        /* NB batches short enough (~0.1-1 ms) that the best of them ran
         * without being preempted on a shared machine; the mean is over all
         * of them; cpu: process CPU time per solve over the whole run (time
         * spent preempted excluded, cache effects of neighbours not) */
        long batch = reps / NB > 0 ? reps / NB : 1;
        double c0 = cpu_now();
        for (int b = 0; b < NB; b++) {
            double tb = now();
            for (long r = 0; r < batch; r++) {
                ns_solve(p, solver, &o, s, &res);
                ns_result_clear(&res);
            }
            double dt = (now() - tb) / (double)batch;
            total += dt;
            if (dt < best) best = dt;
        }
        cpu = (cpu_now() - c0) / ((double)batch * NB);
    }
    printf("%-6s %-8s first %8.2f us   warm mean %7.3f us   best %7.3f us   cpu %7.3f us   error %.1e\n",
           name, solver ? solver : "default", first * 1e6, total / NB * 1e6, best * 1e6,
           cpu * 1e6, res.error);
    ns_solution_free(s);
    ns_problem_free(p);
    return 0;
}

int main(int argc, char **argv)
{
    const char *which = "all", *solver = NULL;
    long reps = 200000;
    int cg = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--case") && i + 1 < argc) which = argv[++i];
        else if (!strcmp(argv[i], "--solver") && i + 1 < argc) solver = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atol(argv[++i]);
        else if (!strcmp(argv[i], "--callgrind")) cg = 1;
        else {
            fprintf(stderr, "usage: bench_small [--case lcp4|lcp10|mlcp3|all] "
                    "[--solver NAME|default] [--reps N] [--callgrind]\n");
            return 2;
        }
    }
    if (solver && !strcmp(solver, "default")) solver = NULL;
    if (reps < 1) reps = 1;
    int rc = 0, all = !strcmp(which, "all");
    if (all || !strcmp(which, "lcp4")) rc |= run_case("lcp4", make_lcp(4), solver, reps, cg);
    if (all || !strcmp(which, "lcp10")) rc |= run_case("lcp10", make_lcp(10), solver, reps, cg);
    if (all || !strcmp(which, "mlcp3")) rc |= run_case("mlcp3", make_mlcp(), solver, reps, cg);
    return rc;
}
