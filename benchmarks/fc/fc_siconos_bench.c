#define _POSIX_C_SOURCE 200809L
/* fc_siconos_bench.c — side by side, in one process run per solve (forked,
 * so a crash or hang of either library never stops the table): our
 * nsgs-ac / nsn-ac / auto against Siconos 4.4's NSGS (AC local solver) and
 * NSN_AC on the same FC3D .dat files, same tol, limits and time cap. Both
 * answers are scored by our ns_fc_error (Siconos 4.4's definition).
 * Output: one TSV row per (file, solver): file contacts solver converged
 * iterations seconds error.
 * usage: fc_siconos_bench [--solvers a,b,...] [--cap SECONDS] FILE...
 *   (default: all five; e.g. --solvers nsgs-ac,siconos-nsgs for the NSGS
 *   pair only). */
#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/Friction_cst.h>
#include "nonsmooth/nonsmooth.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

typedef struct { int conv, iters; double secs, err; } row;

static row run_ours(ns_problem *p, const char *solver, double tol, int maxit, double cap)
{
    row w = { 0, 0, 0, 0 };
    ns_solution *sol = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = tol; o.max_iter = maxit; o.time_limit = cap;
    ns_result res;
    ns_status st = ns_solve(p, solver, &o, sol, &res);
    w.conv = st == NS_CONVERGED; w.iters = res.iterations; w.secs = res.seconds; w.err = res.error;
    ns_solution_free(sol);
    return w;
}

static row run_siconos(const char *file, ns_problem *p, int id, double tol, int maxit)
{
    row w = { 0, 0, 0, 0 };
    FrictionContactProblem *fp = frictionContact_new_from_filename(file);
    if (!fp) { w.err = -1; return w; }
    int m = fp->dimension * fp->numberOfContacts;
    double *r = calloc(m, sizeof(double)), *u = calloc(m, sizeof(double));
    SolverOptions *so = solver_options_create(id);
    so->dparam[SICONOS_DPARAM_TOL] = tol;
    so->iparam[SICONOS_IPARAM_MAX_ITER] = maxit;
    double t0 = now();
    int info = fc3d_driver(fp, r, u, so);
    w.secs = now() - t0;
    w.iters = so->iparam[SICONOS_IPARAM_ITER_DONE];
    ns_solution *sol = ns_solution_new(p);
    memcpy(sol->vec[0], r, m * sizeof(double));
    w.err = ns_fc_error(p->u.fc, sol->vec[0], sol->vec[1], NS_FC_NORM_SICONOS);
    w.conv = info == 0 && w.err <= tol * 1.0001;
    ns_solution_free(sol);
    solver_options_delete(so);
    frictionContactProblem_free(fp);
    free(r); free(u);
    return w;
}

int main(int argc, char **argv)
{
    double tol = 1e-8, cap = 60;
    const char *only = NULL;
    int first = 1;
    while (first + 1 < argc && argv[first][0] == '-' && argv[first][1] == '-') {
        if (strcmp(argv[first], "--solvers") == 0) only = argv[first + 1];
        else if (strcmp(argv[first], "--cap") == 0) cap = atof(argv[first + 1]);
        else { fprintf(stderr, "fc_siconos_bench: unknown option %s\n", argv[first]); return 2; }
        first += 2;
    }
    printf("file\tcontacts\tsolver\tconverged\titerations\tseconds\terror\n");
    for (int a = first; a < argc; a++) {
        const char *file = argv[a];
        const char *names[] = { "nsgs-ac", "nsn-ac", "auto", "siconos-nsgs", "siconos-nsn-ac" };
        for (int s = 0; s < 5; s++) {
            if (only) { /* names[s] must be one of the comma-separated items */
                size_t n = strlen(names[s]);
                const char *h = only;
                int hit = 0;
                while (!hit && (h = strstr(h, names[s])) != NULL) {
                    hit = (h == only || h[-1] == ',') && (h[n] == ',' || h[n] == '\0');
                    h += n;
                }
                if (!hit) continue;
            }
            int fd[2];
            if (pipe(fd)) return 1;
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0) {
                close(fd[0]);
                alarm((unsigned)cap + 10);
                ns_problem *p = NULL;
                char err[NS_ERRMSG_LEN];
                row w = { 0, 0, 0, -1 };
                if (!ns_problem_read(file, NS_KIND_NONE, &p, err) && p->kind == NS_KIND_FC3D) {
                    if (s < 3) w = run_ours(p, names[s], tol, s == 1 ? 1000 : 100000, cap);
                    else if (strstr(file, ".dat"))
                        w = run_siconos(file, p, s == 3 ? SICONOS_FRICTION_3D_NSGS
                                                        : SICONOS_FRICTION_3D_NSN_AC,
                                        tol, s == 3 ? 100000 : 1000);
                }
                if (write(fd[1], &w, sizeof w) != sizeof w) _exit(1);
                _exit(0);
            }
            close(fd[1]);
            row w;
            int got = read(fd[0], &w, sizeof w) == sizeof w;
            close(fd[0]);
            int status;
            waitpid(pid, &status, 0);
            ns_problem *p = NULL;
            char err[NS_ERRMSG_LEN];
            int nc = ns_problem_read(file, NS_KIND_NONE, &p, err) ? -1 : p->u.fc->nc;
            ns_problem_free(p);
            const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
            if (!got) printf("%s\t%d\t%s\tcrash\t-\t-\t-\n", base, nc, names[s]);
            else printf("%s\t%d\t%s\t%s\t%d\t%.4f\t%.2e\n", base, nc, names[s],
                        w.conv ? "yes" : "no", w.iters, w.secs, w.err);
        }
    }
    return 0;
}
