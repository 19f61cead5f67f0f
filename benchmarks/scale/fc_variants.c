/* fc_variants.c — one FC3D problem file solved by NSGS variants (and any
 * registered solver) from a cold start: status, sweeps, seconds and the
 * error recomputed here from W's blocks (u = W r + q, De Saxcé's û,
 * projection on each cone, Siconos' normalisation).
 *   fc_variants FILE TOL SPEC[/verbose] ...
 * SPEC: a solver spec NAME[/key=value]... (e.g. nsgs-ac/anderson=3/sweep=symmetric,
 * nsolve --list-solvers --options); /verbose: the solver's messages on stderr.
 * One line per variant: variant status sweeps seconds (wall) error cpu_s
 * (process CPU time of the solve, all threads); FCV_GUESS=FILE starts every
 * variant from FILE's solution (ns_solution_read); FCV_WORST=K in the environment also prints the K contacts
 * of largest local error (stderr); FCV_OUT=FILE writes each variant's
 * solution to FILE (the last variant's stays). The variants share one
 * ns_workspace, as a simulation's steps do (the first solve grows it, the
 * others find their buffers there); FCV_NO_WORKSPACE=1 gives each solve
 * its own allocations. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"


/* worst > 0: prints the `worst` contacts of largest local error to stderr */
static double own_error_w(const ns_fc *f, const double *r, int worst);
static double own_error_w(const ns_fc *f, const double *r, int worst)
{
    double wl[64] = { 0 };
    ns_int wa[64];
    if (worst > 64) worst = 64;
    ns_matrix *W = f->W;
    if (W->storage != NS_BLOCK) return NAN;
    const ns_block *B = &W->block;
    double e2 = 0, q2 = 0, r2 = 0, u2 = 0;
    for (ns_int a = 0; a < f->nc; a++) {
        double u[3] = { f->q[3 * a], f->q[3 * a + 1], f->q[3 * a + 2] };
        for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
            const double *X = B->x + B->value_ptr[k], *rb = r + 3 * B->block_col[k];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) u[i] += X[i + 3 * j] * rb[j];
        }
        const double *ra = r + 3 * a;
        double mu = f->mu[a];
        double x[3] = { ra[0] - u[0] - mu * hypot(u[1], u[2]), ra[1] - u[1], ra[2] - u[2] };
        double nt = hypot(x[1], x[2]);
        if (nt > mu * x[0]) {
            if (mu * nt <= -x[0]) x[0] = x[1] = x[2] = 0;
            else {
                double s = (x[0] + mu * nt) / (1 + mu * mu);
                x[0] = s; x[1] *= mu * s / nt; x[2] *= mu * s / nt;
            }
        }
        double el = 0.0;
        for (int i = 0; i < 3; i++) el += (ra[i] - x[i]) * (ra[i] - x[i]);
        for (int w = 0; w < worst; w++)
            if (el > wl[w]) {
                for (int v = worst - 1; v > w; v--) { wl[v] = wl[v - 1]; wa[v] = wa[v - 1]; }
                wl[w] = el; wa[w] = a;
                break;
            }
        for (int i = 0; i < 3; i++) {
            e2 += (ra[i] - x[i]) * (ra[i] - x[i]);
            q2 += f->q[3 * a + i] * f->q[3 * a + i];
            r2 += ra[i] * ra[i];
            u2 += u[i] * u[i];
        }
    }
    for (int w = 0; w < worst && wl[w] > 0; w++) {
        ns_int a = wa[w];
        ns_int kd = B->row_ptr[a];
        while (kd < B->row_ptr[a + 1] - 1 && B->block_col[kd] != a) kd++;
        const double *X = B->x + B->value_ptr[kd];
        fprintf(stderr, "worst %d: contact %ld blocks %ld mu %g local %.3g q (%.3g %.3g %.3g) r (%.3g %.3g %.3g) "
                "Waa diag (%.3g %.3g %.3g)\n", w, (long)a, (long)(B->row_ptr[a + 1] - B->row_ptr[a]), f->mu[a],
                sqrt(wl[w]), f->q[3 * a], f->q[3 * a + 1], f->q[3 * a + 2], r[3 * a], r[3 * a + 1], r[3 * a + 2],
                X[0], X[4], X[8]);
    }
    if (worst) fprintf(stderr, "norms: q %.3g r %.3g u %.3g\n", sqrt(q2), sqrt(r2), sqrt(u2));
    return sqrt(e2) / fmax(sqrt(fmax(q2, fmax(r2, u2))), 1e-300);
}

static void log_stderr(void *user, int level, const char *msg)
{
    (void)user; (void)level;
    fprintf(stderr, "%s\n", msg);
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: fc_variants FILE TOL VARIANT...\n"); return 2; }
    ns_problem *p = NULL;
    char err[NS_ERRMSG_LEN] = "";
    if (ns_problem_read(argv[1], NS_KIND_NONE, &p, err) != NS_OK || p->kind != NS_KIND_FC3D) {
        fprintf(stderr, "fc_variants: %s: %s\n", argv[1], err[0] ? err : "not an FC3D problem");
        return 2;
    }
    double tol = atof(argv[2]);
    /* BLOCK storage for the error computed here (the solvers convert alike) */
    if (p->u.fc->W->storage != NS_BLOCK) {
        ns_matrix *B = ns_matrix_to_block_uniform(p->u.fc->W, 3);
        if (!B) { fprintf(stderr, "fc_variants: cannot convert W to 3x3 blocks\n"); return 2; }
        ns_matrix_free(p->u.fc->W);
        p->u.fc->W = B;
    }
    printf("%-40s %-10s %7s %9s %10s %9s  (%ld contacts)\n", "variant", "status", "sweeps", "seconds", "error",
           "cpu_s",
           (long)p->u.fc->nc);
    ns_workspace *ws = getenv("FCV_NO_WORKSPACE") ? NULL : ns_workspace_new();
    for (int k = 3; k < argc; k++) {
        char buf[256], solver[256];
        snprintf(buf, sizeof buf, "%s", argv[k]);
        ns_options o;
        ns_options_default(&o);
        o.tol = tol;
        o.workspace = ws;
        /* a trailing /verbose: the solver's messages on stderr; the rest is a
         * solver spec NAME[/key=value]... (ns_solver_spec_parse) */
        size_t bl = strlen(buf);
        if (bl > 8 && !strcmp(buf + bl - 8, "/verbose")) {
            buf[bl - 8] = '\0';
            o.verbosity = 2;
            o.log = log_stderr;
        }
        if (ns_solver_spec_parse(buf, p->kind, solver, sizeof solver, &o, err) != NS_OK) {
            fprintf(stderr, "fc_variants: %s\n", err);
            return 2;
        }
        ns_solution *sol = ns_solution_new(p);
        const char *guess = getenv("FCV_GUESS");   /* a warm start (ns_solution_read) */
        if (guess) {
            if (ns_solution_read(guess, sol, err) != NS_OK) { fprintf(stderr, "fc_variants: %s\n", err); return 2; }
            o.warm_start = 1;
        }
        ns_result res;
        ns_result_init(&res);
        double c0 = cpu_now();
        ns_status st = ns_solve(p, solver, &o, sol, &res);
        double cpu = cpu_now() - c0;
        const char *out = getenv("FCV_OUT");   /* the last variant's solution (ns_solution_write) */
        if (out && ns_solution_write(out, sol, err) != NS_OK) fprintf(stderr, "fc_variants: %s\n", err);
        const char *wenv = getenv("FCV_WORST");
        printf("%-40s %-10s %7d %9.6f %10.3g %9.4f\n", argv[k], ns_status_name(st), res.iterations, res.seconds,
               own_error_w(p->u.fc, sol->vec[0], wenv ? atoi(wenv) : 0), cpu);
        fflush(stdout);
        ns_result_clear(&res);
        ns_solution_free(sol);
    }
    ns_workspace_free(ws);
    ns_problem_free(p);
    return 0;
}
