/* bench_ncp_siconos.c — our NCP and MCP solvers side by side with Debian's
 * Siconos 4.4 (mcp_driver: an NCP is its MCP with n1 = 0) on generated
 * families, in one run.
 *
 *   bench_ncp_siconos [--max-n N] [--siconos-max-n N] [--tol T] [--sparse]
 *
 * Families (deterministic seeds), sizes n = 10 … 1000 (13 sizes) side by
 * side, and 2000, 5000, 10⁴ for our solvers alone:
 *   cubic  F(z) = T z + q + d∘z³,  T = tridiag(−1, 2.5, −1), d ∈ [0.5, 1.5],
 *          q ∈ [−1, 1]: monotone, one solution;
 *   exp    F(z) = B z + q + exp(z) − 1, B pentadiagonal, nonsymmetric with
 *          a positive definite symmetric part (3 on the diagonal, −1 and
 *          0.5 next to it, 0.25 and −0.25 two away): strongly monotone.
 * Each family is run as an NCP (n1 = 0) and as an MCP whose first n/4
 * rows are equalities (z free, F_i = 0). Siconos 4.4's MCP Newton takes a
 * dense Jacobian only (its FB Jacobian asserts NM_DENSE), so both sides
 * get the same dense n × n Jacobian (ours through ns_jacobian_fn); with
 * --sparse ours gets a CSC one instead (UMFPACK path). Siconos is not run
 * beyond --siconos-max-n (default 1000; a dense 10⁴ Jacobian is 800 MB per
 * copy, and a dense LU of order 2000 takes ~0.5 s): the larger sizes are
 * ours alone, with the sparse Jacobian.
 * Time: best of repeats totalling ≥ 0.2 s (one run when a run is longer).
 * Run with OPENBLAS_NUM_THREADS=1 (run.sh does): OpenBLAS' threads cost
 * ~10 µs a call on tiny systems, which is all of a 10-unknown solve.
 * Pairs: our auto / newton-fb / newton-min against SICONOS_MCP_NEWTON_FB_FBLSA
 * and SICONOS_MCP_NEWTON_MIN_FBLSA; both get tol T (default 1e-9); a run is
 * "solved" when OUR error function (the natural-map residual
 * ‖z − P(z − F(z))‖, recomputed from the returned z by the same code for
 * both libraries) is ≤ 1e-8.
 * Output: one line per problem and pair, then per kind the solved counts
 * and the geometric mean of ours/Siconos time over the problems both
 * solved. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nonsmooth/nonsmooth.h"
#include "siconos/numerics/MixedComplementarityProblem.h"
#include "siconos/numerics/NumericsMatrix.h"
#include "siconos/numerics/NumericsSparseMatrix.h"
#include "siconos/numerics/CSparseMatrix_internal.h"
#include "siconos/numerics/NonSmoothDrivers.h"
#include "siconos/numerics/SolverOptions.h"
#include "siconos/numerics/MCP_cst.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---------------------------------------------------------- the families */
typedef struct fam {
    int kind;            /* 0 cubic, 1 exp */
    int n, bw;           /* size, half bandwidth (1 or 2) */
    double band[5];      /* B's diagonals −2..2 */
    double *q, *d;
    long evals;
    int dense;           /* our Jacobian dense (1) or CSC (0) */
} fam;

static unsigned long long rng_state;
static double urand(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static void fam_init(fam *f, int kind, int n, unsigned seed)
{
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->n = n;
    rng_state = seed;
    if (kind == 0) {
        f->bw = 1;
        double b[5] = { 0, -1, 2.5, -1, 0 };
        memcpy(f->band, b, sizeof b);
    } else {
        f->bw = 2;
        double b[5] = { -0.25, 0.5, 3.0, -1.0, 0.25 };   /* B_{i,i+k} = band[2+k] */
        memcpy(f->band, b, sizeof b);
    }
    f->q = malloc((size_t)n * sizeof(double));
    f->d = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) {
        f->q[i] = 2 * urand() - 1;
        f->d[i] = 0.5 + urand();
    }
}

static void fam_F(fam *f, const double *z, double *F)
{
    int n = f->n;
    f->evals++;
    for (int i = 0; i < n; i++) {
        double s = f->q[i];
        for (int k = -f->bw; k <= f->bw; k++) {
            int j = i + k;
            if (j >= 0 && j < n) s += f->band[2 + k] * z[j];
        }
        s += f->kind == 0 ? f->d[i] * z[i] * z[i] * z[i] : exp(z[i]) - 1;
        F[i] = s;
    }
}

/* CSC of ∇F (column j: rows j−bw .. j+bw); returns nnz. */
static int fam_J(const fam *f, const double *z, int *p, int *ii, double *x)
{
    int n = f->n, k = 0;
    for (int j = 0; j < n; j++) {
        p[j] = k;
        for (int i = j - f->bw; i <= j + f->bw; i++) {
            if (i < 0 || i >= n) continue;
            double v = f->band[2 + (j - i)];
            if (i == j) v += f->kind == 0 ? 3 * f->d[i] * z[i] * z[i] : exp(z[i]);
            ii[k] = i;
            x[k++] = v;
        }
    }
    p[n] = k;
    return k;
}

/* ---------------------------------------------------------- ours */
static int our_F(void *u, ns_int n, const double *z, double *F) { (void)n; fam_F(u, z, F); return 0; }
static ns_matrix *our_J(void *u, ns_int n, const double *z)
{
    const fam *f = u;
    if (f->dense) {
        ns_matrix *D = ns_matrix_dense_new(n, n);
        if (!D) return NULL;
        int nnz = (2 * f->bw + 1) * n;
        int *p = malloc(((size_t)n + 1) * sizeof(int)), *ii = malloc((size_t)nnz * sizeof(int));
        double *x = malloc((size_t)nnz * sizeof(double));
        fam_J(f, z, p, ii, x);
        for (int j = 0; j < n; j++)
            for (int t = p[j]; t < p[j + 1]; t++) D->dense[ii[t] + (size_t)j * n] = x[t];
        free(p); free(ii); free(x);
        return D;
    }
    ns_matrix *J = ns_matrix_sparse_new(n, n, (ns_int)(2 * f->bw + 1) * n);
    if (!J) return NULL;
    J->csc.nnz = fam_J(f, z, J->csc.p, J->csc.i, J->csc.x);
    return J;
}

typedef struct run { double t, err; int ok, iters; long evals; } run;

static run run_ours(fam *f, int n1, const char *solver, double tol)
{
    run r = { INFINITY, INFINITY, 0, 0, 0 };
    double total = 0;
    for (int rep = 0; rep < 200 && (rep < 1 || total < 0.2); rep++) {
        ns_problem *p;
        if (n1 == 0) p = ns_problem_from_ncp(ns_ncp_new(f->n, our_F, our_J, f));
        else p = ns_problem_from_mcp(ns_mcp_new_mixed(n1, f->n - n1, our_F, our_J, f));
        ns_solution *s = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = tol;
        ns_result res;
        double t0 = now();
        ns_solve(p, solver, &o, s, &res);
        double dt = now() - t0;
        total += dt;
        if (dt < r.t) r.t = dt;
        r.err = ns_problem_error(p, s);
        r.iters = res.iterations;
        ns_result_clear(&res);
        ns_solution_free(s);
        ns_problem_free(p);
    }
    r.ok = r.err <= 1e-8;
    return r;
}

/* ---------------------------------------------------------- Siconos */
static void sic_F(void *env, int n, double *z, double *F) { (void)n; fam_F(env, z, F); }
static void sic_J(void *env, int n, double *z, NumericsMatrix *J)
{
    const fam *f = env;
    int nnz = (2 * f->bw + 1) * n;
    int *p = malloc(((size_t)n + 1) * sizeof(int)), *ii = malloc((size_t)nnz * sizeof(int));
    double *x = malloc((size_t)nnz * sizeof(double));
    fam_J(f, z, p, ii, x);
    memset(J->matrix0, 0, (size_t)n * (size_t)n * sizeof(double));
    for (int j = 0; j < n; j++)
        for (int t = p[j]; t < p[j + 1]; t++) J->matrix0[ii[t] + (size_t)j * n] = x[t];
    free(p); free(ii); free(x);
}

static run run_siconos(fam *f, int n1, int id, double tol)
{
    run r = { INFINITY, INFINITY, 0, 0, 0 };
    int n = f->n;
    double *z = calloc((size_t)n, sizeof(double)), *w = calloc((size_t)n, sizeof(double));
    double total = 0;
    for (int rep = 0; rep < 200 && (rep < 1 || total < 0.2); rep++) {
        MixedComplementarityProblem *m = mixedComplementarityProblem_new();
        m->n1 = n1;
        m->n2 = n - n1;
        m->compute_Fmcp = sic_F;
        m->compute_nabla_Fmcp = sic_J;
        m->nabla_Fmcp = NM_create(NM_DENSE, n, n);
        m->env = f;
        SolverOptions *o = solver_options_create(id);
        o->dparam[SICONOS_DPARAM_TOL] = tol;
        memset(z, 0, (size_t)n * sizeof(double));
        double t0 = now();
        mcp_driver(m, z, w, o);
        double dt = now() - t0;
        total += dt;
        if (dt < r.t) r.t = dt;
        r.iters = o->iparam[SICONOS_IPARAM_ITER_DONE];
        solver_options_delete(o);
        m->env = NULL;
        mixedComplementarityProblem_free(m);
    }
    /* our error on Siconos' z */
    ns_problem *p;
    if (n1 == 0) p = ns_problem_from_ncp(ns_ncp_new(n, our_F, our_J, f));
    else p = ns_problem_from_mcp(ns_mcp_new_mixed(n1, n - n1, our_F, our_J, f));
    ns_solution *s = ns_solution_new(p);
    memcpy(s->vec[0], z, (size_t)n * sizeof(double));
    r.err = ns_problem_error(p, s);
    r.ok = r.err <= 1e-8;
    ns_solution_free(s);
    ns_problem_free(p);
    free(z); free(w);
    return r;
}

int main(int argc, char **argv)
{
    int maxn = 10000, sparse = 0, sicmax = 1000;
    double tol = 1e-9;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--max-n") && a + 1 < argc) maxn = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--tol") && a + 1 < argc) tol = atof(argv[++a]);
        else if (!strcmp(argv[a], "--sparse")) sparse = 1;
        else if (!strcmp(argv[a], "--siconos-max-n") && a + 1 < argc) sicmax = atoi(argv[++a]);
        else { fprintf(stderr, "usage: bench_ncp_siconos [--max-n N] [--siconos-max-n N] [--tol T] [--sparse]\n"); return 2; }
    }
    static const int sizes[] = { 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000,
                                 1500, 2000, 5000, 10000 };
    struct pair { const char *ours; int sic; const char *sname; } pairs[] = {
        { "auto", SICONOS_MCP_NEWTON_FB_FBLSA, "NEWTON_FB_FBLSA" },
        { "newton-fb", SICONOS_MCP_NEWTON_FB_FBLSA, "NEWTON_FB_FBLSA" },
        { "newton-min", SICONOS_MCP_NEWTON_MIN_FBLSA, "NEWTON_MIN_FBLSA" },
    };
    enum { NP = 3 };
    printf("%-5s %-6s %6s %-11s %-17s %10s %10s %8s %10s %10s %5s %5s\n", "kind", "family", "n", "ours",
           "siconos", "t_ours", "t_siconos", "ratio", "err_ours", "err_sic", "it_o", "it_s");
    for (int kind = 0; kind < 2; kind++) {   /* 0 ncp, 1 mcp */
        int solved_o[NP] = { 0 }, solved_s[NP] = { 0 }, both[NP] = { 0 }, total = 0;
        double logsum[NP] = { 0 };
        for (int fk = 0; fk < 2; fk++)
            for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
                int n = sizes[si];
                if (n > maxn) continue;
                total++;
                fam f;
                fam_init(&f, fk, n, 1000u * (unsigned)fk + (unsigned)n);
                int n1 = kind == 0 ? 0 : n / 4, alone = n > sicmax;
                f.dense = !sparse && !alone;
                if (alone) total--;
                for (int k = 0; k < NP; k++) {
                    run a = run_ours(&f, n1, pairs[k].ours, tol);
                    run b = { NAN, NAN, 0 };
                    if (!alone) b = run_siconos(&f, n1, pairs[k].sic, tol);
                    else {
                        printf("%-5s %-6s %6d %-11s %-17s %10.3e %10s %8s %10.2e %10s  (ours alone, sparse)\n",
                               kind ? "mcp" : "ncp", fk ? "exp" : "cubic", n, pairs[k].ours, "-", a.t,
                               "-", "-", a.err, "-");
                        continue;
                    }
                    solved_o[k] += a.ok;
                    solved_s[k] += b.ok;
                    if (a.ok && b.ok) { both[k]++; logsum[k] += log(a.t / b.t); }
                    printf("%-5s %-6s %6d %-11s %-17s %10.3e %10.3e %8.3f %10.2e %10.2e %5d %5d\n",
                           kind ? "mcp" : "ncp", fk ? "exp" : "cubic", n, pairs[k].ours,
                           pairs[k].sname, a.t, b.t, a.t / b.t, a.err, b.err, a.iters, b.iters);
                    fflush(stdout);
                }
                free(f.q); free(f.d);
            }
        for (int k = 0; k < NP; k++)
            printf("summary %s %-11s vs %-17s: solved %d/%d vs %d/%d; geomean time ratio ours/siconos "
                   "over %d both solved: %.3f\n", kind ? "mcp" : "ncp", pairs[k].ours, pairs[k].sname,
                   solved_o[k], total, solved_s[k], total, both[k],
                   both[k] ? exp(logsum[k] / both[k]) : NAN);
    }
    return 0;
}
