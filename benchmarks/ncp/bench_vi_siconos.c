/* bench_vi_siconos.c — our VI, convex QP and SOCLCP solvers side by side
 * with Debian's Siconos 4.4 (variationalInequality_driver, convexQP_driver
 * entry points convexQP_ProjectedGradient / convexQP_ADMM, soclcp_driver)
 * on generated families, in one run.
 *
 *   bench_vi_siconos [--max-n N] [--siconos-max-n N] [--tol T] [--kind vi|cqp|soclcp]
 *
 * Siconos 4.4's Debian headers declare these drivers but not the VI and
 * convex QP structs: the two struct layouts below are declared here from
 * Siconos' own header (VariationalInequality.h, ConvexQP.h) so that the
 * library can be called; the SOCLCP goes through its constructor.
 *
 * Families (deterministic seeds), n from 10 to 1000 side by side (11 sizes
 * per family, 2 families: 22 problems per kind), 2000 .. 10⁴ ours alone:
 *   vi   cubic: F(x) = T x + q + d∘x³ over [−1, 1]ⁿ (T = tridiag(−1, 2.5, −1));
 *        exp:   F(x) = B x + q + exp(x) − 1 over [0, 2]ⁿ (B pentadiagonal,
 *               positive definite symmetric part);
 *        X is the box built in on our side, Siconos' projection callback
 *        (the clamp) on its side;
 *        pairs: eg/VI_EG, fpp/VI_FPP, hp/VI_HP, auto/VI_EG.
 *   cqp  M = T (+ a random diagonal in [0, 1]), q ∈ [−1, 1]ⁿ, C = [−1, 1]ⁿ
 *        (box) or [0, ∞)ⁿ (orthant), by projection callbacks on both
 *        sides; pairs: pg-bb/CONVEXQP_PG, admm/CONVEXQP_ADMM, auto/CONVEXQP_PG.
 *   soclcp cones of size 3, mu ∈ [0.1, 1]; W = T ⊗-like banded SPD
 *        (tridiagonal 4/−1 inside a cone, −0.5 to the next cone's first
 *        component) or a diagonal-dominant pentadiagonal one; q ∈ [−1, 1]ⁿ;
 *        a third family, singular: the 1D Laplacian with free ends
 *        (kernel: the constant vector) and q = v* − W r* from a
 *        complementary pair (r* ∈ K, v* ∈ K*, r*ᵀv* = 0), so that a
 *        solution exists (30 problems for this kind);
 *        pairs: nsgs/SOCLCP_NSGS, auto/SOCLCP_NSGS, newton-fb/SOCLCP_NSGS,
 *        ipm/SOCLCP_NSGS (Siconos 4.4 has no SOCLCP Newton nor interior point).
 * Both sides get tol T (default 1e-9); a run is solved when OUR error
 * function of the kind, recomputed from the returned vector, is ≤ 1e-8
 * (vi: absolute natural residual; cqp: (‖x − P_C(x − g)‖)/(1 + ‖q‖);
 * soclcp: ‖r − P_K(r − v)‖/(1 + ‖q‖)). Matrices are dense on Siconos' side
 * (n ≤ 1000 by default), sparse on ours. Time: best of repeats totalling
 * ≥ 0.2 s. Run with OPENBLAS_NUM_THREADS=1 (run_vi.sh). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nonsmooth/nonsmooth.h"
#include "siconos/numerics/NumericsMatrix.h"
#include "siconos/numerics/NumericsFwd.h"
#include "siconos/numerics/NonSmoothDrivers.h"
#include "siconos/numerics/SolverOptions.h"

/* ---- Siconos declarations missing from Debian's headers ---- */
struct VariationalInequality {
    int size;
    void *env;
    void (*F)(void *self, int n, double *x, double *fx);
    void (*compute_nabla_F)(void *self, int n, double *x, NumericsMatrix *nabla_F);
    void (*ProjectionOnX)(void *self, double *x, double *PX);
    double normVI;
    int istheNormVIset;
    void *set;
    NumericsMatrix *nabla_F;
};
VariationalInequality *variationalInequality_new(int size);
void freeVariationalInequalityProblem(VariationalInequality *vi);
struct ConvexQP {
    int size;
    int m;
    void *env;
    NumericsMatrix *M;
    double *q;
    NumericsMatrix *A;
    double *b;
    void (*ProjectionOnC)(void *self, double *x, double *PX);
    double normConvexQP;
    int istheNormConvexQPset;
    void *set;
};
ConvexQP *convexQP_new(int size);
void convexQP_free(ConvexQP *cqp);
void convexQP_ProjectedGradient(ConvexQP *problem, double *z, double *w, int *info, SolverOptions *options);
void convexQP_ADMM(ConvexQP *problem, double *z, double *w, double *xi, double *u, int *info,
                   SolverOptions *options);
SecondOrderConeLinearComplementarityProblem *secondOrderConeLinearComplementarityProblem_new(
    int n, int nc, NumericsMatrix *M, double *q, unsigned int *coneIndex, double *mu);
void freeSecondOrderConeLinearComplementarityProblem(SecondOrderConeLinearComplementarityProblem *p);
enum { SIC_VI_EG = 1000, SIC_VI_FPP = 1001, SIC_VI_HP = 1002, SIC_SOCLCP_NSGS = 1100,
       SIC_CONVEXQP_PG = 1200, SIC_CONVEXQP_ADMM = 1203 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static unsigned long long rng_state;
static double urand(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

/* A banded problem: matrix diagonals band[bw + k] at offset k (k = −bw..bw),
 * plus diag[i]; q; for the VI its nonlinearity; the box. */
typedef struct fam {
    int n, bw, nonlin;          /* nonlin: 0 none, 1 cubic d∘x³, 2 exp(x) − 1 */
    double band[5], *diag, *q, *d, lo, hi;
    int nc;                     /* soclcp: cones of size 3 */
    double *mu;
} fam;

static void fam_free(fam *f) { free(f->diag); free(f->q); free(f->d); free(f->mu); }

static double entry(const fam *f, int i, int j)
{
    int k = j - i;
    if (k < -f->bw || k > f->bw) return 0.0;
    return f->band[f->bw + k] + (i == j ? f->diag[i] : 0.0);
}

static void fam_F(const fam *f, const double *x, double *F)
{
    for (int i = 0; i < f->n; i++) {
        double s = f->q[i];
        for (int k = -f->bw; k <= f->bw; k++) {
            int j = i + k;
            if (j >= 0 && j < f->n) s += entry(f, i, j) * x[j];
        }
        if (f->nonlin == 1) s += f->d[i] * x[i] * x[i] * x[i];
        else if (f->nonlin == 2) s += exp(x[i]) - 1;
        F[i] = s;
    }
}

static ns_matrix *fam_sparse(const fam *f)
{
    int n = f->n;
    ns_matrix *A = ns_matrix_sparse_new(n, n, (2 * f->bw + 1) * n);
    int k = 0;
    for (int j = 0; j < n; j++) {
        A->csc.p[j] = k;
        for (int i = j - f->bw; i <= j + f->bw; i++)
            if (i >= 0 && i < n) { A->csc.i[k] = i; A->csc.x[k++] = entry(f, i, j); }
    }
    A->csc.p[n] = k;
    A->csc.nnz = k;
    return A;
}

static NumericsMatrix *fam_dense_sic(const fam *f)
{
    int n = f->n;
    NumericsMatrix *M = NM_create(NM_DENSE, n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) M->matrix0[i + (size_t)j * n] = entry(f, i, j);
    return M;
}

static void fam_init(fam *f, int kind, int family, int n, unsigned seed)
{
    memset(f, 0, sizeof *f);
    rng_state = seed;
    f->n = n;
    f->diag = calloc((size_t)n, sizeof(double));
    f->q = malloc((size_t)n * sizeof(double));
    f->d = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) { f->q[i] = 2 * urand() - 1; f->d[i] = 0.5 + urand(); }
    if (kind == 0) {            /* vi */
        if (family == 0) { f->bw = 1; double b[3] = { -1, 2.5, -1 }; memcpy(f->band, b, sizeof b); f->nonlin = 1; f->lo = -1; f->hi = 1; }
        else { f->bw = 2; double b[5] = { -0.25, 0.5, 3.0, -1.0, 0.25 }; memcpy(f->band, b, sizeof b); f->nonlin = 2; f->lo = 0; f->hi = 2; }
    } else if (kind == 1) {     /* cqp: symmetric */
        f->bw = 1;
        double b[3] = { -1, 2.5, -1 };
        memcpy(f->band, b, sizeof b);
        for (int i = 0; i < n; i++) f->diag[i] = urand();
        f->lo = family == 0 ? -1 : 0;
        f->hi = family == 0 ? 1 : INFINITY;
    } else {                    /* soclcp: symmetric positive definite */
        f->nc = n / 3;
        f->mu = malloc((size_t)f->nc * sizeof(double));
        for (int c = 0; c < f->nc; c++) f->mu[c] = 0.1 + 0.9 * urand();
        if (family == 0) { f->bw = 1; double b[3] = { -1, 4, -1 }; memcpy(f->band, b, sizeof b); }
        else if (family == 1) { f->bw = 2; double b[5] = { 0.5, -1, 5, -1, 0.5 }; memcpy(f->band, b, sizeof b); }
        else {
            /* singular: the 1D Laplacian with free ends (kernel: the
             * constant vector; condition ~n² on its range), and q = v* −
             * W r* from a pair with r* ∈ K, v* ∈ K*, r*ᵀv* = 0 per cone
             * (r* inside and v* = 0, or the reverse, at random), so that
             * a solution exists */
            f->bw = 1;
            double b[3] = { -1, 2, -1 };
            memcpy(f->band, b, sizeof b);
            f->diag[0] = f->diag[n - 1] = -1.0;
            double *rs = calloc((size_t)n, sizeof(double)), *vs = calloc((size_t)n, sizeof(double));
            for (int c = 0; c < f->nc; c++) {
                int in = urand() < 0.5;
                double *x = in ? rs : vs, m = in ? f->mu[c] : 1.0 / f->mu[c];
                double t1 = 2 * urand() - 1, t2 = 2 * urand() - 1;
                x[3 * c + 1] = t1;
                x[3 * c + 2] = t2;
                x[3 * c] = hypot(t1, t2) / m + 0.2 + urand();
            }
            for (int i = 0; i < n; i++) {
                double w = vs[i];
                for (int j = i - 1; j <= i + 1; j++)
                    if (j >= 0 && j < n) w -= entry(f, i, j) * rs[j];
                f->q[i] = w;
            }
            free(rs);
            free(vs);
        }
    }
}

typedef struct run { double t, err; int ok, it; } run;

/* ------------------------------------------------------------------ VI */
static int our_vi_F(void *u, ns_int n, const double *x, double *F) { (void)n; fam_F(u, x, F); return 0; }
static ns_matrix *our_vi_J(void *u, ns_int n, const double *x)
{
    const fam *f = u;
    ns_matrix *J = fam_sparse(f);
    for (int j = 0; j < n; j++)
        for (int t = J->csc.p[j]; t < J->csc.p[j + 1]; t++)
            if (J->csc.i[t] == j)
                J->csc.x[t] += f->nonlin == 1 ? 3 * f->d[j] * x[j] * x[j] : exp(x[j]);
    return J;
}
static int our_clamp(void *u, ns_int n, const double *x, double *px)
{
    const fam *f = u;
    for (int i = 0; i < n; i++) px[i] = fmin(f->hi, fmax(f->lo, x[i]));
    return 0;
}
static void sic_vi_F(void *self, int n, double *x, double *F) { (void)n; fam_F(((VariationalInequality *)self)->env, x, F); }
static void sic_vi_P(void *self, double *x, double *px)
{
    const fam *f = ((VariationalInequality *)self)->env;
    for (int i = 0; i < f->n; i++) px[i] = fmin(f->hi, fmax(f->lo, x[i]));
}

static ns_problem *our_vi(fam *f)
{
    double *lb = malloc((size_t)f->n * sizeof(double)), *ub = malloc((size_t)f->n * sizeof(double));
    for (int i = 0; i < f->n; i++) { lb[i] = f->lo; ub[i] = f->hi; }
    ns_problem *p = ns_problem_from_vi(ns_vi_new_box(f->n, our_vi_F, our_vi_J, f, lb, ub));
    free(lb); free(ub);
    return p;
}

static run solve_ours(ns_problem *(*make)(fam *), fam *f, const char *solver, double tol)
{
    run r = { INFINITY, INFINITY, 0, 0 };
    double total = 0;
    for (int rep = 0; rep < 200 && (rep < 1 || total < 0.2); rep++) {
        ns_problem *p = make(f);
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
        r.it = res.iterations;
        ns_result_clear(&res);
        ns_solution_free(s);
        ns_problem_free(p);
    }
    r.ok = r.err <= 1e-8;
    return r;
}

/* our error of the kind on a given first vector */
static double our_error(ns_problem *(*make)(fam *), fam *f, const double *x)
{
    ns_problem *p = make(f);
    ns_solution *s = ns_solution_new(p);
    memcpy(s->vec[0], x, (size_t)f->n * sizeof(double));
    if (p->kind == NS_KIND_CQP) memset(s->vec[1], 0, 0);
    double e = ns_problem_error(p, s);
    ns_solution_free(s);
    ns_problem_free(p);
    return e;
}

static run solve_sic_vi(fam *f, int id, double tol)
{
    run r = { INFINITY, INFINITY, 0, 0 };
    int n = f->n;
    double *x = calloc((size_t)n, sizeof(double)), *w = calloc((size_t)n, sizeof(double));
    double total = 0;
    for (int rep = 0; rep < 200 && (rep < 1 || total < 0.2); rep++) {
        VariationalInequality *vi = variationalInequality_new(n);
        vi->env = f;
        vi->F = sic_vi_F;
        vi->ProjectionOnX = sic_vi_P;
        vi->normVI = 1.0;
        vi->istheNormVIset = 1;
        SolverOptions *o = solver_options_create(id);
        o->dparam[SICONOS_DPARAM_TOL] = tol;
        o->iparam[SICONOS_IPARAM_MAX_ITER] = 20000;
        memset(x, 0, (size_t)n * sizeof(double));
        double t0 = now();
        variationalInequality_driver(vi, x, w, o);
        double dt = now() - t0;
        total += dt;
        if (dt < r.t) r.t = dt;
        r.it = o->iparam[SICONOS_IPARAM_ITER_DONE];
        solver_options_delete(o);
        vi->env = NULL;
        free(vi);   /* its members are ours or NULL */
    }
    r.err = our_error(our_vi, f, x);
    r.ok = r.err <= 1e-8;
    free(x); free(w);
    return r;
}

/* ------------------------------------------------------------------ CQP */
static ns_problem *our_cqp(fam *f)
{
    ns_cqp *c = ns_cqp_new(fam_sparse(f), f->q);
    double *lb = malloc((size_t)f->n * sizeof(double)), *ub = malloc((size_t)f->n * sizeof(double));
    for (int i = 0; i < f->n; i++) { lb[i] = f->lo; ub[i] = f->hi; }
    ns_cqp_set_box(c, lb, ub);
    free(lb); free(ub);
    return ns_problem_from_cqp(c);
}
static void sic_cqp_P(void *self, double *x, double *px)
{
    const fam *f = ((ConvexQP *)self)->env;
    for (int i = 0; i < f->n; i++) px[i] = fmin(f->hi, fmax(f->lo, x[i]));
}

static run solve_sic_cqp(fam *f, int id, double tol)
{
    run r = { INFINITY, INFINITY, 0, 0 };
    int n = f->n;
    double *z = calloc((size_t)n, sizeof(double)), *w = calloc((size_t)n, sizeof(double)),
           *xi = calloc((size_t)n, sizeof(double)), *u = calloc((size_t)n, sizeof(double));
    double total = 0;
    NumericsMatrix *M = fam_dense_sic(f);
    for (int rep = 0; rep < 200 && (rep < 1 || total < 0.2); rep++) {
        ConvexQP *c = convexQP_new(n);
        c->env = f;
        c->M = M;
        c->q = f->q;
        c->A = NULL;
        c->b = NULL;
        c->m = n;
        c->ProjectionOnC = sic_cqp_P;
        c->normConvexQP = 1.0 + sqrt(0.0);
        c->istheNormConvexQPset = 0;
        SolverOptions *o = solver_options_create(id);
        o->dparam[SICONOS_DPARAM_TOL] = tol;
        o->iparam[SICONOS_IPARAM_MAX_ITER] = 20000;
        memset(z, 0, (size_t)n * sizeof(double));
        memset(w, 0, (size_t)n * sizeof(double));
        memset(xi, 0, (size_t)n * sizeof(double));
        memset(u, 0, (size_t)n * sizeof(double));
        int info = 0;
        double t0 = now();
        if (id == SIC_CONVEXQP_PG) convexQP_ProjectedGradient(c, z, w, &info, o);
        else convexQP_ADMM(c, z, w, xi, u, &info, o);
        double dt = now() - t0;
        total += dt;
        if (dt < r.t) r.t = dt;
        r.it = o->iparam[SICONOS_IPARAM_ITER_DONE];
        solver_options_delete(o);
        free(c);   /* M, q are ours */
    }
    NM_free(M);
    r.err = our_error(our_cqp, f, z);
    r.ok = r.err <= 1e-8;
    free(z); free(w); free(xi); free(u);
    return r;
}

/* --------------------------------------------------------------- SOCLCP */
static ns_problem *our_soclcp(fam *f)
{
    ns_int *start = malloc(((size_t)f->nc + 1) * sizeof(ns_int));
    for (int c = 0; c <= f->nc; c++) start[c] = 3 * c;
    ns_problem *p = ns_problem_from_soclcp(ns_soclcp_new(fam_sparse(f), f->q, f->nc, start, f->mu));
    free(start);
    return p;
}

static run solve_sic_soclcp(fam *f, int id, double tol)
{
    run r = { INFINITY, INFINITY, 0, 0 };
    int n = f->n;
    double *x = calloc((size_t)n, sizeof(double)), *v = calloc((size_t)n, sizeof(double));
    double total = 0;
    for (int rep = 0; rep < 200 && (rep < 1 || total < 0.2); rep++) {
        /* the problem owns what it is given: fresh copies each time */
        double *q = malloc((size_t)n * sizeof(double)), *mu = malloc((size_t)f->nc * sizeof(double));
        unsigned *ci = malloc(((size_t)f->nc + 1) * sizeof(unsigned));
        memcpy(q, f->q, (size_t)n * sizeof(double));
        memcpy(mu, f->mu, (size_t)f->nc * sizeof(double));
        for (int c = 0; c <= f->nc; c++) ci[c] = 3u * (unsigned)c;
        SecondOrderConeLinearComplementarityProblem *p =
            secondOrderConeLinearComplementarityProblem_new(n, f->nc, fam_dense_sic(f), q, ci, mu);
        SolverOptions *o = solver_options_create(id);
        o->dparam[SICONOS_DPARAM_TOL] = tol;
        o->iparam[SICONOS_IPARAM_MAX_ITER] = 10000;
        memset(x, 0, (size_t)n * sizeof(double));
        memset(v, 0, (size_t)n * sizeof(double));
        double t0 = now();
        soclcp_driver(p, x, v, o);
        double dt = now() - t0;
        total += dt;
        if (dt < r.t) r.t = dt;
        r.it = o->iparam[SICONOS_IPARAM_ITER_DONE];
        solver_options_delete(o);
        freeSecondOrderConeLinearComplementarityProblem(p);
    }
    r.err = our_error(our_soclcp, f, x);
    r.ok = r.err <= 1e-8;
    free(x); free(v);
    return r;
}

int main(int argc, char **argv)
{
    int maxn = 10000, sicmax = 1000, only = -1;
    double tol = 1e-9;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--max-n") && a + 1 < argc) maxn = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--siconos-max-n") && a + 1 < argc) sicmax = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--tol") && a + 1 < argc) tol = atof(argv[++a]);
        else if (!strcmp(argv[a], "--kind") && a + 1 < argc) {
            a++;
            only = !strcmp(argv[a], "vi") ? 0 : !strcmp(argv[a], "cqp") ? 1 : !strcmp(argv[a], "soclcp") ? 2 : -2;
            if (only == -2) { fprintf(stderr, "--kind: vi, cqp or soclcp\n"); return 2; }
        } else {
            fprintf(stderr, "usage: bench_vi_siconos [--max-n N] [--siconos-max-n N] [--tol T] "
                            "[--kind vi|cqp|soclcp]\n");
            return 2;
        }
    }
    static const int sizes[] = { 12, 21, 30, 51, 75, 102, 150, 201, 300, 501, 1002, 2001, 5001, 9999 };
    static const char *kname[] = { "vi", "cqp", "soclcp" };
    typedef struct pair { const char *ours; int sic; const char *sname; } pair;
    static const pair vip[] = { { "eg", SIC_VI_EG, "VI_EG" }, { "fpp", SIC_VI_FPP, "VI_FPP" },
                                { "hp", SIC_VI_HP, "VI_HP" }, { "auto", SIC_VI_EG, "VI_EG" } };
    static const pair cqpp[] = { { "pg-bb", SIC_CONVEXQP_PG, "CONVEXQP_PG" },
                                 { "admm", SIC_CONVEXQP_ADMM, "CONVEXQP_ADMM" },
                                 { "auto", SIC_CONVEXQP_PG, "CONVEXQP_PG" } };
    static const pair socp[] = { { "nsgs", SIC_SOCLCP_NSGS, "SOCLCP_NSGS" },
                                 { "auto", SIC_SOCLCP_NSGS, "SOCLCP_NSGS" },
                                 { "newton-fb", SIC_SOCLCP_NSGS, "SOCLCP_NSGS" },
                                 { "ipm", SIC_SOCLCP_NSGS, "SOCLCP_NSGS" } };
    const pair *pairs[3] = { vip, cqpp, socp };
    const int npairs[3] = { 4, 3, 4 };
    printf("%-6s %-6s %6s %-7s %-14s %10s %10s %8s %10s %10s %6s %6s\n", "kind", "family", "n", "ours",
           "siconos", "t_ours", "t_siconos", "ratio", "err_ours", "err_sic", "it_o", "it_s");
    for (int kind = 0; kind < 3; kind++) {
        if (only >= 0 && kind != only) continue;
        int so[4] = { 0 }, ss[4] = { 0 }, both[4] = { 0 }, total = 0;
        double logsum[4] = { 0 };
        ns_problem *(*make)(fam *) = kind == 0 ? our_vi : kind == 1 ? our_cqp : our_soclcp;
        for (int family = 0; family < (kind == 2 ? 3 : 2); family++)
            for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
                int n = sizes[si];
                if (n > maxn) continue;
                fam f;
                fam_init(&f, kind, family, n, 7919u * (unsigned)(kind + 1) + 31u * (unsigned)family + (unsigned)n);
                int alone = n > sicmax;
                if (!alone) total++;
                for (int k = 0; k < npairs[kind]; k++) {
                    const pair *pr = &pairs[kind][k];
                    run a = solve_ours(make, &f, pr->ours, tol);
                    if (alone) {
                        printf("%-6s %-6d %6d %-9s %-14s %10.3e %10s %8s %10.2e %10s  (ours alone, sparse)\n",
                               kname[kind], family, n, pr->ours, "-", a.t, "-", "-", a.err, "-");
                        fflush(stdout);
                        continue;
                    }
                    run b = kind == 0 ? solve_sic_vi(&f, pr->sic, tol)
                          : kind == 1 ? solve_sic_cqp(&f, pr->sic, tol)
                                      : solve_sic_soclcp(&f, pr->sic, tol);
                    so[k] += a.ok;
                    ss[k] += b.ok;
                    if (a.ok && b.ok) { both[k]++; logsum[k] += log(a.t / b.t); }
                    printf("%-6s %-6d %6d %-9s %-14s %10.3e %10.3e %8.3f %10.2e %10.2e %6d %6d\n", kname[kind],
                           family, n, pr->ours, pr->sname, a.t, b.t, a.t / b.t, a.err, b.err, a.it, b.it);
                    fflush(stdout);
                }
                fam_free(&f);
            }
        for (int k = 0; k < npairs[kind]; k++)
            printf("summary %s %-7s vs %-14s: solved %d/%d vs %d/%d; geomean time ratio ours/siconos "
                   "over %d both solved: %.3f\n", kname[kind], pairs[kind][k].ours, pairs[kind][k].sname,
                   so[k], total, ss[k], total, both[k], both[k] ? exp(logsum[k] / both[k]) : NAN);
    }
    return 0;
}
