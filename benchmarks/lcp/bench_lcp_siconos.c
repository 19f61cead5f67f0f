/* bench_lcp_siconos.c — our LCP/MLCP solvers side by side with Debian's
 * Siconos 4.4 (libsiconos-numerics) on the same files, in one run.
 *   bench_lcp_siconos lcp|mlcp FILE...   per file and solver pair: both
 *       times (best of R repeats, R so that a pair runs ≥ 0.2 s), ratio
 *       ours/Siconos, both errors — each recomputed by OUR error function of
 *       the kind (ns_lcp_error / ns_mlcp_error, Siconos 4.4 definitions)
 *       from the vectors each library returned.
 *   bench_lcp_siconos scaling     lemke on dense random P-matrix LCPs,
 *       n = 100 … 1600, beside one LAPACKE dgetrf of the same size.
 * Pairs: lcp lemke/SICONOS_LCP_LEMKE (lexicographic), pgs/SICONOS_LCP_PGS,
 * newton-fb/SICONOS_LCP_NEWTON_FB_FBLSA; mlcp enum/SICONOS_MLCP_ENUM,
 * pgs/SICONOS_MLCP_PGS, newton-fb/SICONOS_MLCP_FB. tol 1e-10 on both sides. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <lapacke.h>
#include "nonsmooth/nonsmooth.h"
#include "siconos/numerics/LinearComplementarityProblem.h"
#include "siconos/numerics/MixedLinearComplementarityProblem.h"
#include "siconos/numerics/NumericsMatrix.h"
#include "siconos/numerics/NonSmoothDrivers.h"
#include "siconos/numerics/SolverOptions.h"
#include "siconos/numerics/LCP_Solvers.h"
#include "siconos/numerics/MLCP_Solvers.h"
#include "siconos/numerics/lcp_cst.h"
#include "siconos/numerics/mlcp_cst.h"

#define TOL 1e-10

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct run { double t, err; const char *status; } run;

static run ours(const ns_problem *p, const char *solver)
{
    run r = { INFINITY, INFINITY, "" };
    ns_options o;
    ns_options_default(&o);
    o.tol = TOL;
    double total = 0;
    for (int k = 0; k < 1000 && (k < 1 || total < 0.2); k++) {
        ns_solution *s = ns_solution_new(p);
        ns_result res;
        double t0 = now();
        ns_status st = ns_solve(p, solver, &o, s, &res);
        double dt = now() - t0;
        total += dt;
        if (dt < r.t) r.t = dt;
        r.err = ns_problem_error(p, s);
        r.status = ns_status_name(st);
        ns_solution_free(s);
    }
    return r;
}

static run siconos_lcp(const char *path, const ns_problem *p, int id)
{
    run r = { INFINITY, INFINITY, "" };
    LinearComplementarityProblem *lcp = newLCP();
    /* Siconos 4.4's linearComplementarity_newFromFilename returns 1 on success
     * (checked: 1 with size 10 on data/lcp/lcp_pd_n10.dat), unlike
     * mixedLinearComplementarity_newFromFilename, which returns 0: judge the
     * read by what it filled in, not by the code */
    linearComplementarity_newFromFilename(lcp, path);
    if (lcp->size <= 0 || !lcp->q || !lcp->M) {
        freeLinearComplementarityProblem(lcp);
        r.status = "read-fail";
        return r;
    }
    int n = lcp->size;
    /* Siconos 4.4's LCP driver only handles dense M with these solvers: a
     * sparse (CSC) M reaches lcp_lexicolemke with matrix0 = NULL and fails
     * its assert (abort), an SBM M makes it exit(). Hand Siconos a dense
     * copy of the M it read (converted before timing, as our solvers copy
     * to dense inside theirs): the row's status says "dense-copy". */
    int converted = 0;
    if (lcp->M->storageType != NM_DENSE) {
        NumericsMatrix *D = NM_create(NM_DENSE, n, n);
        NM_to_dense(lcp->M, D);
        NM_free(lcp->M);
        lcp->M = D;
        converted = 1;
    }
    double *z = calloc(n, sizeof(double)), *w = calloc(n, sizeof(double));
    double total = 0;
    for (int k = 0; k < 1000 && (k < 1 || total < 0.2); k++) {
        SolverOptions *o = solver_options_create(id);
        o->dparam[SICONOS_DPARAM_TOL] = TOL;
        if (id == SICONOS_LCP_PGS) o->iparam[SICONOS_IPARAM_MAX_ITER] = 10000;
        memset(z, 0, n * sizeof(double));
        memset(w, 0, n * sizeof(double));
        double t0 = now();
        int info = linearComplementarity_driver(lcp, z, w, o);
        double dt = now() - t0;
        total += dt;
        if (dt < r.t) r.t = dt;
        r.status = info == 0 ? (converted ? "converged(dense-copy)" : "converged")
                             : (converted ? "failed(dense-copy)" : "failed");
        solver_options_delete(o);
    }
    double *wo = malloc(n * sizeof(double));
    r.err = ns_lcp_error(p->u.lcp, z, wo);
    free(wo); free(z); free(w);
    freeLinearComplementarityProblem(lcp);
    return r;
}

static run siconos_mlcp(const char *path, const ns_problem *p, int id)
{
    run r = { INFINITY, INFINITY, "" };
    MixedLinearComplementarityProblem *m = mixedLinearComplementarity_new();
    if (mixedLinearComplementarity_newFromFilename(m, path)) { r.status = "read-fail"; return r; }
    int N = m->n + m->m;
    double *z = calloc(N, sizeof(double)), *w = calloc(N, sizeof(double));
    double total = 0;
    for (int k = 0; k < 1000 && (k < 1 || total < 0.2); k++) {
        SolverOptions *o = solver_options_create(id);
        o->dparam[SICONOS_DPARAM_TOL] = TOL;
        if (id == SICONOS_MLCP_PGS) o->iparam[SICONOS_IPARAM_MAX_ITER] = 10000;
        memset(z, 0, N * sizeof(double));
        memset(w, 0, N * sizeof(double));
        double t0 = now();
        mlcp_driver_init(m, o);
        int info = mlcp_driver(m, z, w, o);
        mlcp_driver_reset(m, o);
        double dt = now() - t0;
        total += dt;
        if (dt < r.t) r.t = dt;
        r.status = info == 0 ? "converged" : "failed";
        solver_options_delete(o);
    }
    double *wo = malloc(N * sizeof(double));
    r.err = ns_mlcp_error(p->u.mlcp, z, wo);
    free(wo); free(z); free(w);
    mixedLinearComplementarity_free(m);
    return r;
}

static void row(const char *file, int n, const char *name, run a, run b)
{
    printf("| %-28s %5d %-10s %11.3e %11.3e %7.3f %10.2e %10.2e  %s/%s\n", file, n, name,
           a.t, b.t, a.t / b.t, a.err, b.err, a.status, b.status);
}

static int compare(const char *kind, int argc, char **argv)
{
    int is_lcp = strcmp(kind, "lcp") == 0;
    const char *ours_names[3] = { is_lcp ? "lemke" : "enum", "pgs", "newton-fb" };
    int sic_ids[3] = { is_lcp ? SICONOS_LCP_LEMKE : SICONOS_MLCP_ENUM,
                       is_lcp ? SICONOS_LCP_PGS : SICONOS_MLCP_PGS,
                       is_lcp ? SICONOS_LCP_NEWTON_FB_FBLSA : SICONOS_MLCP_FB };
    printf("| %-28s %5s %-10s %11s %11s %7s %10s %10s  %s\n", "file", "n", "solver",
           "ours[s]", "siconos[s]", "ratio", "err ours", "err sic", "status ours/siconos");
    for (int f = 0; f < argc; f++) {
        /* each file in a child process: an abort or exit() inside either
         * library (Siconos 4.4 asserts on some inputs) costs that file's rows,
         * not the rest of the table */
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); return 1; }
        if (pid > 0) {
            int wst = 0;
            waitpid(pid, &wst, 0);
            if (WIFSIGNALED(wst))
                printf("| # %s: crashed (signal %d); no rows\n", argv[f], WTERMSIG(wst));
            else if (WIFEXITED(wst) && WEXITSTATUS(wst) != 0)
                printf("| # %s: exited with status %d; rows may be missing\n", argv[f],
                       WEXITSTATUS(wst));
            continue;
        }
        ns_problem *p;
        char err[NS_ERRMSG_LEN];
        if (ns_problem_read(argv[f], NS_KIND_NONE, &p, err)) { printf("| # %s\n", err); fflush(stdout); _exit(0); }
        if (ns_problem_validate(p, err)) { printf("| # %s: %s\n", argv[f], err); fflush(stdout); ns_problem_free(p); _exit(0); }
        const char *base = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];
        int n = ns_problem_size(p);
        for (int s = 0; s < 3; s++) {
            /* enumeration is exponential: only small m */
            if (!is_lcp && s == 0 && p->u.mlcp->m > 20) continue;
            run a = ours(p, ours_names[s]);
            run b = is_lcp ? siconos_lcp(argv[f], p, sic_ids[s])
                           : siconos_mlcp(argv[f], p, sic_ids[s]);
            row(base, n, ours_names[s], a, b);
        }
        if (!is_lcp) {   /* our default (the lemke chain) beside Siconos' enum */
            run a = ours(p, NULL);
            run b = p->u.mlcp->m <= 20 ? siconos_mlcp(argv[f], p, SICONOS_MLCP_ENUM) : (run){ NAN, NAN, "skipped" };
            row(base, n, "auto/enum", a, b);
        }
        fflush(stdout);
        ns_problem_free(p);
        _exit(0);
    }
    return 0;
}

/* dense P-matrix: strictly diagonally dominant rows, positive diagonal */
static ns_problem *random_pmatrix(int n, unsigned seed)
{
    ns_matrix *M = ns_matrix_dense_new(n, n);
    double *q = malloc(n * sizeof(double));
    srand(seed);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            M->dense[i + (size_t)j * n] = i == j ? 0 : (2.0 * rand() / RAND_MAX - 1.0) / n;
    for (int i = 0; i < n; i++) {
        M->dense[i + (size_t)i * n] = 1.5 + (double)rand() / RAND_MAX;
        q[i] = 2.0 * rand() / RAND_MAX - 1.0;
    }
    ns_problem *p = ns_problem_from_lcp(ns_lcp_new(M, q));
    free(q);
    return p;
}

static int scaling(void)
{
    printf("%6s %8s %12s %12s %10s %10s %10s\n", "n", "pivots", "lemke[s]", "dgetrf[s]",
           "ratio", "lemke/n^3", "error");
    for (int n = 100; n <= 1600; n *= 2) {
        ns_problem *p = random_pmatrix(n, 7);
        ns_solution *s = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = TOL;
        ns_result r;
        double t0 = now();
        ns_solve(p, "lemke", &o, s, &r);
        double tl = now() - t0;
        double *A = malloc(sizeof(double) * n * n);
        lapack_int *piv = malloc(sizeof(lapack_int) * n);
        double tf = INFINITY;
        for (int k = 0; k < 3; k++) {
            memcpy(A, p->u.lcp->M->dense, sizeof(double) * n * n);
            double t1 = now();
            LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, A, n, piv);
            double dt = now() - t1;
            if (dt < tf) tf = dt;
        }
        printf("%6d %8d %12.4f %12.4f %10.1f %10.3e %10.2e\n", n, r.iterations, tl, tf,
               tl / tf, tl / ((double)n * n * n), r.error);
        fflush(stdout);
        free(A); free(piv);
        ns_solution_free(s);
        ns_problem_free(p);
    }
    return 0;
}

/* dense symmetric positive definite: M = AᵀA/n + I/2, A uniform in [−1, 1] */
static ns_problem *random_pd(int n, unsigned seed)
{
    double *A = malloc(sizeof(double) * n * n), *q = malloc(n * sizeof(double));
    ns_matrix *M = ns_matrix_dense_new(n, n);
    srand(seed);
    for (int k = 0; k < n * n; k++) A[k] = 2.0 * rand() / RAND_MAX - 1.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += A[k + (size_t)i * n] * A[k + (size_t)j * n];
            M->dense[i + (size_t)j * n] = s / n + (i == j ? 0.5 : 0.0);
        }
    for (int i = 0; i < n; i++) q[i] = 2.0 * rand() / RAND_MAX - 1.0;
    ns_problem *p = ns_problem_from_lcp(ns_lcp_new(M, q));
    free(A); free(q);
    return p;
}

/* writes random LCPs (P-matrix and PD families, n = 50 … 400) as .dat files
 * so both libraries read the same numbers */
static int write_random(const char *dir)
{
    const int sizes[] = { 50, 100, 200, 400 };
    for (int fam = 0; fam < 2; fam++)
        for (int k = 0; k < 4; k++) {
            ns_problem *p = fam == 0 ? random_pmatrix(sizes[k], 100 + k)
                                     : random_pd(sizes[k], 200 + k);
            char path[1024], err[NS_ERRMSG_LEN];
            snprintf(path, sizeof path, "%s/random_%s_%d.dat", dir,
                     fam == 0 ? "pmatrix" : "pd", sizes[k]);
            if (ns_problem_write(path, p, NS_FORMAT_DAT, err)) { fprintf(stderr, "%s\n", err); return 1; }
            printf("%s\n", path);
            ns_problem_free(p);
        }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "scaling") == 0) return scaling();
    if (argc >= 3 && strcmp(argv[1], "write-random") == 0) return write_random(argv[2]);
    if (argc >= 3 && (strcmp(argv[1], "lcp") == 0 || strcmp(argv[1], "mlcp") == 0))
        return compare(argv[1], argc - 2, argv + 2);
    fprintf(stderr, "usage: %s lcp|mlcp FILE... | scaling | write-random DIR\n", argv[0]);
    return 2;
}
