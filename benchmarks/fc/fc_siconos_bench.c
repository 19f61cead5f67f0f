#define _POSIX_C_SOURCE 200809L
/* fc_siconos_bench.c — the FC3D robustness table in one run: every FC3D
 * solver of ours and Siconos 4.4's NSGS (AC local solver), NSN_AC and ADMM
 * (fc3d_admm, its default options) on the same FC3D files (.dat and local
 * FCLIB .hdf5), same tol, same limits: 100000 sweeps / iterations for the
 * Gauss-Seidel and fixed-point solvers, 1000 for the Newton-type ones
 * (nsn-*, prox outer steps, Siconos NSN_AC), 20000 for ADMM (ours and
 * Siconos', Siconos' default), ipm its own default (100 interior iterations
 * and its Newton finish), --cap seconds per run (default 60). Each run happens in a forked child
 * (a crash or hang of either library never stops the table). Every answer,
 * ours and Siconos', is scored by our ns_fc_error (Siconos 4.4's definition).
 *
 * Siconos side: .dat files are read by Siconos' own reader; .hdf5 files
 * (Debian's Siconos has no FCLIB) are read by ours and handed over as a
 * dense W. Siconos 4.4 has no time limit, so its NSGS runs in chunks of
 * 100, 200, 400, ... at most 10000 sweeps (fewer when the time per sweep
 * says the cap is near; a few calls, so the per-call set-up is noise),
 * warm-started from the last iterate, until converged, 100000 sweeps or the
 * cap (a solve that ends past the cap counts as not converged); NSN_AC and
 * ADMM run in one call under an alarm at the cap (status timeout when it fires,
 * error then unknown).
 *
 * Output (stdout): one TSV row per (file, solver):
 *   file contacts solver converged iterations seconds error status
 * Progress on stderr, one line per run.
 * usage: fc_siconos_bench [--solvers a,b,...] [--cap SECONDS] [--tol T] FILE...
 *   (default: every solver but admm, ipm and siconos-admm, which run when
 *   named; e.g. --solvers nsgs-ac,siconos-nsgs for the NSGS pair only). */
#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/Friction_cst.h>
#include "nonsmooth/nonsmooth.h"
#include "blas_threads.h"
#include "malloc_policy.h"
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

static const char *const all_solvers[] = {
    "nsgs-ac", "nsgs-fb", "nsgs-nm", "nsgs-proj", "fpp", "eg", "desaxce", "tresca-fp",
    "nsn-ac", "nsn-fb", "nsn-nm", "prox", "auto", "siconos-nsgs", "siconos-nsn-ac",
    /* run only when --solvers names them (the default set is the table of run.sh) */
    "admm", "ipm", "siconos-admm" };
enum { N_SOLVERS = sizeof all_solvers / sizeof all_solvers[0], N_DEFAULT = N_SOLVERS - 3 };

/* Newton-type solvers get 1000 iterations, ADMM (ours and Siconos') 20000,
 * Siconos' default, ipm its own default (0: 100 interior iterations and its
 * Newton finish), the others 100000. */
static int max_iter_of(const char *s)
{
    if (strcmp(s, "ipm") == 0) return 0;
    if (strcmp(s, "admm") == 0 || strcmp(s, "siconos-admm") == 0) return 20000;
    return strncmp(s, "nsn-", 4) == 0 || strcmp(s, "prox") == 0 ||
           strcmp(s, "siconos-nsn-ac") == 0 ? 1000 : 100000;
}

static row run_ours(ns_problem *p, const char *solver, double tol, int maxit, double cap)
{
    row w = { 0, 0, 0, 0, "" };
    ns_solution *sol = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = tol; o.max_iter = maxit; o.time_limit = cap;
    ns_result res;
    ns_status st = ns_solve(p, solver, &o, sol, &res);
    w.iters = res.iterations; w.secs = res.seconds;
    /* scored like Siconos' answer: our error function on the returned r */
    w.err = ns_fc_error(p->u.fc, sol->vec[0], sol->vec[1], NS_FC_NORM_SICONOS);
    w.conv = st == NS_CONVERGED && w.err <= tol * 1.0001;
    snprintf(w.status, sizeof w.status, "%s", ns_status_name(st));
    ns_result_clear(&res);
    ns_solution_free(sol);
    return w;
}

/* Our problem as a Siconos one with a dense W (for FCLIB files). */
static FrictionContactProblem *to_siconos(const ns_fc *f)
{
    int m = f->dim * (int)f->nc;
    ns_matrix *D = ns_matrix_to_dense(f->W);
    if (!D) return NULL;
    double *w = malloc((size_t)m * (size_t)m * sizeof *w), *q = malloc((size_t)m * sizeof *q),
           *mu = malloc((size_t)f->nc * sizeof *mu);
    memcpy(w, D->dense, (size_t)m * (size_t)m * sizeof *w);
    memcpy(q, f->q, (size_t)m * sizeof *q);
    memcpy(mu, f->mu, (size_t)f->nc * sizeof *mu);
    ns_matrix_free(D);
    return frictionContactProblem_new_with_data(f->dim, (int)f->nc,
                                                NM_create_from_data(NM_DENSE, m, m, w), q, mu);
}

static row run_siconos(const char *file, ns_problem *p, int sid, double tol, int maxit,
                       double cap)
{
    row w = { 0, 0, 0, -1, "bad_input" };
    FrictionContactProblem *fp = strstr(file, ".hdf5") ? to_siconos(p->u.fc)
                                                       : frictionContact_new_from_filename(file);
    if (!fp) return w;
    int m = fp->dimension * fp->numberOfContacts;
    double *r = calloc(m, sizeof(double)), *u = calloc(m, sizeof(double));
    int nsgs = sid == SICONOS_FRICTION_3D_NSGS;
    SolverOptions *so = solver_options_create(sid);
    so->dparam[SICONOS_DPARAM_TOL] = tol;
    double t0 = now();
    int info = 1;
    if (nsgs) { /* warm-started chunks of 100, 200, ... at most 10000 sweeps,
                 * cut from the time per sweep so far to end near the cap */
        int chunk = 100;
        while (info && w.iters < maxit && now() - t0 < cap) {
            int n = maxit - w.iters < chunk ? maxit - w.iters : chunk;
            so->iparam[SICONOS_IPARAM_MAX_ITER] = n;
            info = fc3d_driver(fp, r, u, so);
            w.iters += so->iparam[SICONOS_IPARAM_ITER_DONE];
            double per = (now() - t0) / (w.iters > 0 ? w.iters : 1), left = cap - (now() - t0);
            chunk = 2 * chunk < 10000 ? 2 * chunk : 10000;
            if (per > 0 && left / per < chunk) chunk = left / per > 1 ? (int)(left / per) : 1;
        }
    } else {
        so->iparam[SICONOS_IPARAM_MAX_ITER] = maxit;
        alarm((unsigned)cap + 1);
        info = fc3d_driver(fp, r, u, so);
        w.iters = so->iparam[SICONOS_IPARAM_ITER_DONE];
    }
    w.secs = now() - t0;
    ns_solution *sol = ns_solution_new(p);
    memcpy(sol->vec[0], r, m * sizeof(double));
    w.err = ns_fc_error(p->u.fc, sol->vec[0], sol->vec[1], NS_FC_NORM_SICONOS);
    w.conv = info == 0 && w.err <= tol * 1.0001 && w.secs <= cap;
    snprintf(w.status, sizeof w.status, "%s",
             w.conv ? "converged" : w.secs >= cap ? "time_limit"
                    : w.iters >= maxit ? "max_iter" : "failed");
    ns_solution_free(sol);
    solver_options_delete(so);
    frictionContactProblem_free(fp);
    free(r); free(u);
    return w;
}

static int siconos_id(const char *name)
{
    return strcmp(name, "siconos-nsgs") == 0 ? SICONOS_FRICTION_3D_NSGS
         : strcmp(name, "siconos-admm") == 0 ? SICONOS_FRICTION_3D_ADMM
                                             : SICONOS_FRICTION_3D_NSN_AC;
}

/* 1 when name is one of the comma-separated items of list. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *h = list; (h = strstr(h, name)) != NULL; h += n)
        if ((h == list || h[-1] == ',') && (h[n] == ',' || h[n] == '\0')) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    double tol = 1e-8, cap = 60;
    const char *only = NULL;
    int first = 1;
    ns_tool_blas_single_thread();
    ns_tool_malloc_policy();
    while (first + 1 < argc && argv[first][0] == '-' && argv[first][1] == '-') {
        if (strcmp(argv[first], "--solvers") == 0) only = argv[first + 1];
        else if (strcmp(argv[first], "--cap") == 0) cap = atof(argv[first + 1]);
        else if (strcmp(argv[first], "--tol") == 0) tol = atof(argv[first + 1]);
        else { fprintf(stderr, "fc_siconos_bench: unknown option %s\n", argv[first]); return 2; }
        first += 2;
    }
    if (only) /* every name asked for must exist */
        for (const char *h = only; *h;) {
            size_t n = strcspn(h, ",");
            int ok = 0;
            for (int s = 0; s < N_SOLVERS; s++)
                ok |= strlen(all_solvers[s]) == n && strncmp(all_solvers[s], h, n) == 0;
            if (!ok) { fprintf(stderr, "fc_siconos_bench: unknown solver %.*s\n", (int)n, h); return 2; }
            h += n + (h[n] == ',');
        }
    int total = 0, done = 0;
    for (int s = 0; s < N_SOLVERS; s++) total += only ? listed(only, all_solvers[s]) : s < N_DEFAULT;
    total *= argc - first;
    double t_start = now();
    printf("file\tcontacts\tsolver\tconverged\titerations\tseconds\terror\tstatus\n");
    for (int a = first; a < argc; a++) {
        const char *file = argv[a];
        const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
        ns_problem *p0 = NULL;
        char err[NS_ERRMSG_LEN];
        int nc = ns_problem_read(file, NS_KIND_NONE, &p0, err) || p0->kind != NS_KIND_FC3D
                     ? -1 : (int)p0->u.fc->nc;
        ns_problem_free(p0);
        for (int s = 0; s < N_SOLVERS; s++) {
            const char *name = all_solvers[s];
            if (only ? !listed(only, name) : s >= N_DEFAULT) continue;
            int sic = strncmp(name, "siconos-", 8) == 0, maxit = max_iter_of(name);
            int fd[2];
            if (pipe(fd)) return 1;
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0) {
                close(fd[0]);
                alarm((unsigned)cap + 10); /* safety: our solvers stop themselves */
                ns_problem *p = NULL;
                row w = { 0, 0, 0, -1, "bad_input" };
                if (nc > 0 && !ns_problem_read(file, NS_KIND_NONE, &p, err))
                    w = sic ? run_siconos(file, p, siconos_id(name), tol, maxit, cap)
                            : run_ours(p, name, tol, maxit, cap);
                if (write(fd[1], &w, sizeof w) != sizeof w) _exit(1);
                _exit(0);
            }
            close(fd[1]);
            row w;
            int got = read(fd[0], &w, sizeof w) == sizeof w;
            close(fd[0]);
            int status;
            waitpid(pid, &status, 0);
            if (!got) {
                int alrm = WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM;
                printf("%s\t%d\t%s\tno\t-\t%.4f\t-\t%s\n", base, nc, name,
                       alrm ? cap : 0.0, alrm ? "timeout" : "crash");
            } else {
                printf("%s\t%d\t%s\t%s\t%d\t%.4f\t%.2e\t%s\n", base, nc, name,
                       w.conv ? "yes" : "no", w.iters, w.secs, w.err, w.status);
            }
            fflush(stdout);
            done++;
            fprintf(stderr, "[%d/%d %.0fs] %s %s: %s\n", done, total, now() - t_start, base, name,
                    !got ? "killed" : w.conv ? "converged" : w.status);
        }
    }
    return 0;
}
