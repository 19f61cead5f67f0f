/* impacting_bar.c — benchmark of sparse systems: the
 * ImpactingBar model of ../shared/siconos-tutorials/mechanics/FEM/
 * ImpactingBar at N nodes. A steel bar (L = 1 m, section S = 3.14e-4 m²,
 * E = 210 GPa, ρ = 7800 kg/m³) of N linear elements, lumped as in the
 * tutorial: consistent tridiagonal mass ρ S l (1/3, 2/3 …, 1/6 off the
 * diagonal) and stiffness E S / l (1, 2 …, −1), l = L/N; all nodes start
 * at q = 5e-5 m with v = −0.1 m/s; node 0 hits the ground y = q_0 ≥ 0
 * (Newton, e = 0); no gravity; Moreau–Jean θ = ½, h = 2e-6.
 *
 *   impacting_bar [--n N] [--steps S] [--dense] [--csv FILE]
 * --n nodes (default 10000), --steps (default 1000), --dense builds the
 * same model with dense n×n matrices (for comparison; O(n²) memory),
 * --csv writes t, q_0, v_0, λ of every step. Prints one line: n, steps,
 * seconds, CPU seconds per step (of this process: not inflated by other
 * processes on a shared machine), wall seconds per step, final q_0, v_0,
 * impulse sum, kinetic energy.
 * Peak memory: run under /usr/bin/time -v (benchmarks/mechanics/run_impacting_bar.sh). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nonsmooth/nsm.h"

/* Tridiagonal CSC n×n with diagonal d (ends de), off-diagonal o, times s. */
static ns_matrix *tridiag(int n, double d, double de, double o, double s)
{
    ns_matrix *A = ns_matrix_sparse_new(n, n, 3 * (ns_int)n - 2);
    if (!A) return NULL;
    ns_int k = 0;
    for (int c = 0; c < n; c++) {
        A->csc.p[c] = k;
        if (c > 0) { A->csc.i[k] = c - 1; A->csc.x[k++] = o * s; }
        A->csc.i[k] = c; A->csc.x[k++] = (c == 0 || c == n - 1 ? de : d) * s;
        if (c < n - 1) { A->csc.i[k] = c + 1; A->csc.x[k++] = o * s; }
    }
    A->csc.p[n] = k;
    return A;
}

int main(int argc, char **argv)
{
    int n = 10000, dense = 0;
    long steps = 1000;
    const char *csv = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atol(argv[++i]);
        else if (!strcmp(argv[i], "--dense")) dense = 1;
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv = argv[++i];
        else { fprintf(stderr, "usage: impacting_bar [--n N] [--steps S] [--dense] [--csv FILE]\n"); return 2; }
    }
    if (n < 2 || steps < 1) { fprintf(stderr, "impacting_bar: --n must be >= 2, --steps >= 1\n"); return 2; }
    const double L = 1.0, S = 0.000314, E = 210e9, rho = 7800.0, l = L / n;
    ns_matrix *M = tridiag(n, 2.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0, rho * S * l);
    ns_matrix *K = tridiag(n, 2.0, 1.0, -1.0, E * S / l);
    double *q0 = malloc((size_t)n * sizeof *q0), *v0 = malloc((size_t)n * sizeof *v0);
    double *Hrow = calloc((size_t)n, sizeof *Hrow);
    if (!M || !K || !q0 || !v0 || !Hrow) { fprintf(stderr, "impacting_bar: out of memory\n"); return 1; }
    for (int i = 0; i < n; i++) { q0[i] = 0.00005; v0[i] = -0.1; }
    Hrow[0] = 1.0;
    nsm_ds *ds;
    if (dense) {
        ns_matrix *Md = ns_matrix_to_dense(M), *Kd = ns_matrix_to_dense(K);
        if (!Md || !Kd) { fprintf(stderr, "impacting_bar: out of memory (dense)\n"); return 1; }
        ds = nsm_ds_lagrangian_lti_new(n, Md->dense, q0, v0);
        if (ds) nsm_ds_set_stiffness(ds, Kd->dense);
        ns_matrix_free(Md); ns_matrix_free(Kd);
    } else {
        ds = nsm_ds_lagrangian_lti_sparse_new(n, M, NULL, K, q0, v0);
    }
    if (!ds) { fprintf(stderr, "impacting_bar: %s\n", nsm_constructor_error()); return 1; }
    nsm_model *m = nsm_model_new();
    int d = nsm_model_add_ds(m, ds);
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.0));
    int in = nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, n, Hrow, NULL), law, d, -1);
    if (in < 0) { fprintf(stderr, "impacting_bar: %s\n", nsm_model_error(m)); return 1; }
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 2e-6;
    o.t0 = 1e-8;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) { fprintf(stderr, "impacting_bar: %s\n", err); return 1; }
    FILE *f = csv ? fopen(csv, "w") : NULL;
    if (csv && !f) { fprintf(stderr, "impacting_bar: cannot write %s\n", csv); return 1; }
    if (f) fprintf(f, "t,q0,v0,lambda\n");
    double psum = 0;
    struct timespec t0, t1, c0, c1;
    timespec_get(&t0, TIME_UTC);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    for (long k = 0; k < steps; k++) {
        if (nsm_sim_step(s) != NS_OK) { fprintf(stderr, "impacting_bar: step %ld: %s\n", k, nsm_sim_error(s)); return 1; }
        double P = nsm_sim_lambda(s, in, 1)[0];
        psum += P;
        if (f) fprintf(f, "%.17g,%.17g,%.17g,%.17g\n", nsm_sim_time(s), nsm_sim_q(s, d)[0], nsm_sim_v(s, d)[0], P);
    }
    timespec_get(&t1, TIME_UTC);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
    printf("impacting_bar %s n=%d steps=%ld seconds=%.4f cpu_per_step=%.3e per_step=%.3e q0=%.17g v0=%.17g impulse=%.17g Ekin=%.17g\n",
           dense ? "dense" : "sparse", n, steps, secs, cpu / steps, secs / steps, nsm_sim_q(s, d)[0], nsm_sim_v(s, d)[0], psum,
           nsm_sim_kinetic_energy(s, d));
    if (f) fclose(f);
    nsm_sim_free(s);
    nsm_model_free(m);
    ns_matrix_free(M); ns_matrix_free(K);
    free(q0); free(v0); free(Hrow);
    return 0;
}
