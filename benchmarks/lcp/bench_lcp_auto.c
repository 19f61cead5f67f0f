/* bench_lcp_auto — auto (the default) against lemke on the same files, in
 * the same process, interleaved.
 *
 *   bench_lcp_auto [--min-ms T] [--rounds R] FILE...
 *   bench_lcp_auto --solver S --reps K FILE      (K solves, no output: run it
 *       under callgrind --toggle-collect=ns_solve to count instructions per
 *       solve, as auto_vs_lemke.sh does)
 *
 * Per file and solver: one warm-up solve, then R rounds; in each round
 * each solver (alternating) is repeated until ≥ T ms (default 20) have
 * passed and the time per solve is kept; the table shows the minimum per
 * solver over the rounds (the least disturbed by the other processes of a
 * shared machine), the ratio auto / lemke and both statuses and
 * errors (ns_solve's, i.e. recomputed). Files of kinds other than LCP,
 * MLCP and relay are skipped. Prints one markdown row per file. */
#define _POSIX_C_SOURCE 200809L
#include "nonsmooth/nonsmooth.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* time per solve, repeated until min_s passed */
static double timed(const ns_problem *p, const char *solver, ns_solution *s, double min_s,
                    ns_status *st, double *err)
{
    int reps = 0;
    double t0 = now(), t;
    do {
        ns_result r;
        *st = ns_solve(p, solver, NULL, s, &r);
        *err = r.error;
        ns_result_clear(&r);
        reps++;
        t = now() - t0;
    } while (t < min_s);
    return t / reps;
}

int main(int argc, char **argv)
{
    double min_ms = 20;
    int rounds = 9, reps = -1;
    const char *solver = NULL;
    int first = 1;
    for (; first < argc; first++) {
        if (!strcmp(argv[first], "--min-ms") && first + 1 < argc) min_ms = atof(argv[++first]);
        else if (!strcmp(argv[first], "--rounds") && first + 1 < argc) rounds = atoi(argv[++first]);
        else if (!strcmp(argv[first], "--solver") && first + 1 < argc) solver = argv[++first];
        else if (!strcmp(argv[first], "--reps") && first + 1 < argc) reps = atoi(argv[++first]);
        else break;
    }
    if (solver && reps >= 0 && first == argc - 1) {
        char err[NS_ERRMSG_LEN];
        ns_problem *p = NULL;
        if (ns_problem_read(argv[first], NS_KIND_NONE, &p, err) != NS_OK) {
            fprintf(stderr, "bench_lcp_auto: %s\n", err);
            return 2;
        }
        ns_solution *s = ns_solution_new(p);
        for (int k = 0; k < reps; k++) {
            ns_result r;
            ns_solve(p, solver, NULL, s, &r);
            ns_result_clear(&r);
        }
        ns_solution_free(s);
        ns_problem_free(p);
        return 0;
    }
    if (first >= argc || rounds < 1 || rounds > 99 || !(min_ms > 0)) {
        fprintf(stderr, "usage: bench_lcp_auto [--min-ms T] [--rounds R] FILE...\n");
        return 2;
    }
    printf("| file | kind | n | lemke status | lemke error | auto status | auto error | "
           "lemke s/solve | auto s/solve | auto/lemke |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (int a = first; a < argc; a++) {
        char err[NS_ERRMSG_LEN];
        ns_problem *p = NULL;
        if (ns_problem_read(argv[a], NS_KIND_NONE, &p, err) != NS_OK ||
            ns_problem_validate(p, err) != NS_OK) {
            fprintf(stderr, "bench_lcp_auto: %s: skipped (%s)\n", argv[a], err);
            ns_problem_free(p);
            continue;
        }
        if (p->kind != NS_KIND_LCP && p->kind != NS_KIND_MLCP && p->kind != NS_KIND_RELAY) {
            ns_problem_free(p);
            continue;
        }
        ns_solution *s = ns_solution_new(p);
        const char *names[2] = { "lemke", "auto" };
        double t[2][99], e[2] = { 0, 0 };
        ns_status st[2] = { NS_OK, NS_OK };
        for (int k = 0; k < 2; k++) timed(p, names[k], s, 0.0, &st[k], &e[k]);   /* warm-up */
        for (int r = 0; r < rounds; r++)
            for (int k = 0; k < 2; k++) {
                int kk = (r % 2) ? 1 - k : k;    /* alternate who goes first */
                t[kk][r] = timed(p, names[kk], s, min_ms * 1e-3, &st[kk], &e[kk]);
            }
        double med[2];
        for (int k = 0; k < 2; k++) {
            qsort(t[k], (size_t)rounds, sizeof(double), cmp_d);
            med[k] = t[k][0];
        }
        const char *base = strrchr(argv[a], '/');
        printf("| %s | %s | %d | %s | %.2g | %s | %.2g | %.3g | %.3g | %.2f%s |\n",
               base ? base + 1 : argv[a], ns_kind_name(p->kind), ns_problem_size(p),
               ns_status_name(st[0]), e[0], ns_status_name(st[1]), e[1], med[0], med[1],
               med[1] / med[0], st[0] == NS_CONVERGED ? "" : " (lemke unsolved)");
        fflush(stdout);
        ns_solution_free(s);
        ns_problem_free(p);
    }
    return 0;
}
