/* soak.c — long runs with flat memory (benchmarks/soak/run.sh).
 *
 *   soak sim STEPS     a column of 3 balls on a floor (Newton impacts,
 *                      e = 0.5, the balls come to rest and stay in contact:
 *                      the one-step LCP is solved at every step), STEPS
 *                      time steps of h = 1e-3 through nsm_sim_step
 *   soak solve SOLVES  one FC3D problem (4 contacts, μ = 0.3, q drawn anew
 *                      each time) solved SOLVES times by ns_solve with auto
 *                      and with nsgs, alternately, in one process
 *
 * Prints the resident set size (VmRSS, /proc/self/status) after a warm-up
 * (1 % of the iterations) and at the end, and the growth. Exit status 1 if
 * the growth exceeds 1 MiB (or a step / solve fails), 0 otherwise. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nonsmooth/nonsmooth.h"
#include "nonsmooth/nsm.h"

static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6)) { kb = atol(line + 6); break; }
    fclose(f);
    return kb;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int report(const char *what, long n, long warm, long start, long end, double secs)
{
    long growth = end - start;
    printf("%s: %ld iterations in %.1f s; RSS %ld kB after %ld (warm-up), %ld kB at the end: "
           "growth %+ld kB\n", what, n, secs, start, warm, end, growth);
    if (growth > 1024) {
        printf("%s: memory grew by more than 1 MiB\n", what);
        return 1;
    }
    return 0;
}

static int soak_sim(long steps)
{
    nsm_model *m = nsm_model_new();
    double M = 1.0, g = -9.81, v0 = 0.0;
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.5));
    for (int k = 0; k < 3; k++) {   /* ball k at height 1 + k, radius 0.1 */
        double q0 = 1.0 + k;
        int d = nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(1, &M, &q0, &v0));
        nsm_ds_set_fext_constant(nsm_model_ds(m, d), &g);
        if (k == 0) {
            double H = 1.0, b = -0.1;
            nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, &H, &b), law, d, -1);
        } else {   /* gap between ball k−1 and ball k */
            double H[2] = { -1.0, 1.0 }, b = -0.2;
            nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 2, H, &b), law, d - 1, d);
        }
    }
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    char err[NS_ERRMSG_LEN];
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) { fprintf(stderr, "soak sim: %s\n", err); return 1; }
    long warm = steps / 100 > 0 ? steps / 100 : 1, start = -1;
    double t0 = now();
    for (long k = 0; k < steps; k++) {
        if (k == warm) start = rss_kb();
        if (nsm_sim_step(s) != NS_OK) { fprintf(stderr, "soak sim: step %ld: %s\n", k, nsm_sim_error(s)); return 1; }
    }
    if (start < 0) start = rss_kb();
    long end = rss_kb();
    double secs = now() - t0;
    /* the balls rest on each other: heights 0.1, 0.3, 0.5 (within the
     * scheme's position drift from the impacts, 10⁻⁴ here) */
    for (int k = 0; k < 3; k++) {
        double q = nsm_sim_q(s, k)[0];
        if (fabs(q - (0.1 + 0.2 * k)) > 1e-3) { fprintf(stderr, "soak sim: ball %d at %g\n", k, q); return 1; }
    }
    nsm_sim_free(s);
    nsm_model_free(m);
    return report("sim", steps, warm, start, end, secs);
}

static int soak_solve(long solves)
{
    const int nc = 4, n = 3 * nc;
    ns_matrix *W = ns_matrix_dense_new(n, n);
    double q[12], mu[4] = { 0.3, 0.3, 0.3, 0.3 };
    unsigned seed = 12345;
    /* W = A Aᵀ + I, A with entries in [−0.5, 0.5] */
    double A[144];
    for (int i = 0; i < n * n; i++) { seed = seed * 1103515245u + 12345u; A[i] = (double)(seed >> 8) / 16777216.0 - 0.5; }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = i == j ? 1.0 : 0.0;
            for (int k = 0; k < n; k++) s += A[i + k * n] * A[j + k * n];
            W->dense[i + j * n] = s;
        }
    for (int i = 0; i < n; i++) q[i] = 0.0;
    ns_problem *p = ns_problem_from_fc(ns_fc_new(3, nc, W, q, mu));
    ns_solution *sol = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    ns_result r;
    long warm = solves / 100 > 0 ? solves / 100 : 1, start = -1, fails = 0;
    double t0 = now();
    for (long k = 0; k < solves; k++) {
        if (k == warm) start = rss_kb();
        for (int i = 0; i < n; i++) {   /* a new q: normal parts pushing in */
            seed = seed * 1103515245u + 12345u;
            double x = (double)(seed >> 8) / 16777216.0;
            p->u.fc->q[i] = i % 3 == 0 ? -0.5 - x : x - 0.5;
        }
        ns_solve(p, (k & 1) ? "nsgs" : "auto", &o, sol, &r);
        if (r.status != NS_CONVERGED) fails++;
        ns_result_clear(&r);
    }
    if (start < 0) start = rss_kb();
    long end = rss_kb();
    double secs = now() - t0;
    ns_solution_free(sol);
    ns_problem_free(p);
    printf("solve: %ld of %ld not converged\n", fails, solves);
    return report("solve", solves, warm, start, end, secs) || fails > 0;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "sim") && strcmp(argv[1], "solve"))) {
        fprintf(stderr, "usage: soak sim STEPS | soak solve SOLVES\n");
        return 2;
    }
    long n = atol(argv[2]);
    if (n < 1) { fprintf(stderr, "soak: %s is not a positive count\n", argv[2]); return 2; }
    return !strcmp(argv[1], "sim") ? soak_sim(n) : soak_solve(n);
}
