#define _POSIX_C_SOURCE 200809L
/* rfc_siconos_bench.c — rolling friction contact side by side with Debian's
 * Siconos 4.4: for every file (RFC3D or GRFC3D .dat), our default solver
 * and Siconos' driver (rolling_fc3d_driver with
 * SICONOS_ROLLING_FRICTION_3D_NSGS, its only complete RFC3D solver in 4.4;
 * g_rolling_fc3d_driver with SICONOS_GLOBAL_ROLLING_FRICTION_3D_NSGS_WR for
 * GRFC3D), same tolerance, 100000 iterations, --cap seconds per run. Each
 * run happens in a forked child (a crash or hang never stops the table);
 * Siconos reads the file with its own reader; only the driver call is
 * timed (ours: ns_result.seconds, the solve alone). Both answers are scored
 * by our error function (Siconos' definition, docs/rolling.md §3).
 *
 * Output (stdout): one TSV row per (file, solver):
 *   file contacts solver converged iterations seconds error status
 * then, on stderr, the summary: solved counts, and the geometric mean of
 * the time ratio ours/Siconos over the files both solved.
 * usage: rfc_siconos_bench [--cap SECONDS] [--tol T] [--solver NAME] FILE... */
#include <siconos/numerics/RollingFrictionContactProblem.h>
#include <siconos/numerics/GlobalRollingFrictionContactProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/Friction_cst.h>
#include "nonsmooth/nonsmooth.h"
#include <math.h>
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

typedef struct { int conv, iters; double secs, err; char status[16]; } row;

/* Our error of (r[, v]) for the problem p (r, v owned by the caller). */
static double score(const ns_problem *p, const double *v, const double *r)
{
    ns_solution *s = ns_solution_new(p);
    double e;
    if (p->kind == NS_KIND_GRFC3D) {
        memcpy(s->vec[0], v, (size_t)s->len[0] * sizeof(double));
        memcpy(s->vec[2], r, (size_t)s->len[2] * sizeof(double));
        e = ns_grfc_error(p->u.grfc, s->vec[0], s->vec[2], s->vec[1], NULL);
    } else {
        memcpy(s->vec[0], r, (size_t)s->len[0] * sizeof(double));
        e = ns_rfc_error(p->u.rfc, s->vec[0], s->vec[1], NS_FC_NORM_SICONOS);
    }
    ns_solution_free(s);
    return e;
}

static row run_ours(const ns_problem *p, const char *solver, double tol, double cap)
{
    row w = { 0, 0, 0, 0, "" };
    ns_solution *sol = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = tol; o.time_limit = cap;
    ns_result res;
    ns_status st = ns_solve(p, solver, &o, sol, &res);
    w.iters = res.iterations; w.secs = res.seconds;
    w.err = p->kind == NS_KIND_GRFC3D ? score(p, sol->vec[0], sol->vec[2])
                                      : score(p, NULL, sol->vec[0]);
    w.conv = st == NS_CONVERGED && w.err <= tol * 1.0001;
    snprintf(w.status, sizeof w.status, "%s", ns_status_name(st));
    ns_result_clear(&res);
    ns_solution_free(sol);
    return w;
}

static row run_siconos(const char *file, const ns_problem *p, double tol, int maxit, double cap)
{
    row w = { 0, 0, 0, -1, "bad_input" };
    int info = 1;
    double t0;
    alarm((unsigned)cap + 1);
    if (p->kind == NS_KIND_GRFC3D) {
        GlobalRollingFrictionContactProblem *gp = globalRollingFrictionContact_new_from_filename(file);
        if (!gp) return w;
        int m = gp->dimension * gp->numberOfContacts, n = gp->M->size0;
        double *r = calloc(m, sizeof(double)), *u = calloc(m, sizeof(double)),
               *v = calloc(n, sizeof(double));
        SolverOptions *so = solver_options_create(SICONOS_GLOBAL_ROLLING_FRICTION_3D_NSGS_WR);
        so->dparam[SICONOS_DPARAM_TOL] = tol;
        so->iparam[SICONOS_IPARAM_MAX_ITER] = maxit;
        t0 = now();
        info = g_rolling_fc3d_driver(gp, r, u, v, so);
        w.secs = now() - t0;
        w.iters = so->iparam[SICONOS_IPARAM_ITER_DONE];
        w.err = score(p, v, r);
        solver_options_delete(so);
        globalRollingFrictionContactProblem_free(gp);
        free(r); free(u); free(v);
    } else {
        RollingFrictionContactProblem *rp = rollingFrictionContact_new_from_filename(file);
        if (!rp) return w;
        int m = rp->dimension * rp->numberOfContacts;
        double *r = calloc(m, sizeof(double)), *u = calloc(m, sizeof(double));
        SolverOptions *so = solver_options_create(SICONOS_ROLLING_FRICTION_3D_NSGS);
        so->dparam[SICONOS_DPARAM_TOL] = tol;
        so->iparam[SICONOS_IPARAM_MAX_ITER] = maxit;
        t0 = now();
        info = rolling_fc3d_driver(rp, r, u, so);
        w.secs = now() - t0;
        w.iters = so->iparam[SICONOS_IPARAM_ITER_DONE];
        w.err = score(p, NULL, r);
        solver_options_delete(so);
        rollingFrictionContactProblem_free(rp);
        free(r); free(u);
    }
    w.conv = info == 0 && w.err <= tol * 1.0001;
    snprintf(w.status, sizeof w.status, "%s", w.conv ? "converged"
             : w.iters >= maxit ? "max_iter" : "failed");
    return w;
}

int main(int argc, char **argv)
{
    double tol = 1e-8, cap = 30;
    const char *ours = NULL;
    int first = 1;
    while (first + 1 < argc && argv[first][0] == '-' && argv[first][1] == '-') {
        if (strcmp(argv[first], "--cap") == 0) cap = atof(argv[first + 1]);
        else if (strcmp(argv[first], "--tol") == 0) tol = atof(argv[first + 1]);
        else if (strcmp(argv[first], "--solver") == 0) ours = argv[first + 1];
        else { fprintf(stderr, "rfc_siconos_bench: unknown option %s\n", argv[first]); return 2; }
        first += 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: rfc_siconos_bench [--cap S] [--tol T] [--solver NAME] FILE...\n");
        return 2;
    }
    int n_ours = 0, n_sic = 0, n_both = 0, files = 0;
    double logsum = 0;
    printf("file\tcontacts\tsolver\tconverged\titerations\tseconds\terror\tstatus\n");
    for (int a = first; a < argc; a++) {
        const char *file = argv[a];
        const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
        ns_problem *p = NULL;
        char err[NS_ERRMSG_LEN];
        if (ns_problem_read(file, NS_KIND_NONE, &p, err) ||
            (p->kind != NS_KIND_RFC3D && p->kind != NS_KIND_GRFC3D)) {
            fprintf(stderr, "rfc_siconos_bench: %s: skipped (%s)\n", file,
                    p ? "not rfc3d/grfc3d" : err);
            ns_problem_free(p);
            continue;
        }
        files++;
        int nc = p->kind == NS_KIND_GRFC3D ? (int)p->u.grfc->nc : (int)p->u.rfc->nc;
        row res[2];
        for (int side = 0; side < 2; side++) {
            int fd[2];
            if (pipe(fd)) return 1;
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0) {
                close(fd[0]);
                row w = side == 0 ? run_ours(p, ours, tol, cap) : run_siconos(file, p, tol, 100000, cap);
                if (write(fd[1], &w, sizeof w) != (ssize_t)sizeof w) _exit(1);
                _exit(0);
            }
            close(fd[1]);
            row w = { 0, 0, cap, -1, "crashed" };
            ssize_t got = read(fd[0], &w, sizeof w);
            close(fd[0]);
            int ws = 0;
            waitpid(pid, &ws, 0);
            if (got != (ssize_t)sizeof w) {
                w = (row){ 0, 0, cap, -1, "" };
                snprintf(w.status, sizeof w.status, "%s",
                         WIFSIGNALED(ws) && WTERMSIG(ws) == SIGALRM ? "time_limit" : "crashed");
            }
            res[side] = w;
            printf("%s\t%d\t%s\t%d\t%d\t%.6g\t%.3e\t%s\n", base, nc,
                   side ? "siconos-nsgs" : (ours ? ours : "auto"), w.conv, w.iters, w.secs,
                   w.err, w.status);
            fflush(stdout);
            fprintf(stderr, "%s (%d contacts) %s: %s, %.3g s, error %.2e\n", base, nc,
                    side ? "siconos" : "ours", w.status, w.secs, w.err);
        }
        n_ours += res[0].conv;
        n_sic += res[1].conv;
        if (res[0].conv && res[1].conv) {
            n_both++;
            logsum += log(fmax(res[0].secs, 1e-7) / fmax(res[1].secs, 1e-7));
        }
        ns_problem_free(p);
    }
    fprintf(stderr, "summary: %d files, solved at tol %g: ours %d, siconos %d; geometric mean "
            "time ratio ours/siconos over the %d both solved: %.3g\n", files, tol, n_ours,
            n_sic, n_both, n_both ? exp(logsum / n_both) : NAN);
    return 0;
}
