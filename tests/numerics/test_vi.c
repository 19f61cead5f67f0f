/* test_vi.c — variational inequalities (vi kind), convex QPs (cqp) and
 * second-order cone LCPs (soclcp).
 *
 * Analytic answers, checked with the test's own arithmetic:
 *  - VI with F(x) = x − c: the solution is the Euclidean projection of c on
 *    X (a box: the clamp; a ball given by its projection callback:
 *    c·R/‖c‖); with F(x) = (x − c) + (x − c)³ on a box (separable) it is
 *    still the clamp;
 *  - QP min ½‖x − c‖² over a box / a second-order cone: P_C(c) (the cone
 *    projection written out here); min ½ xᵀ D x s.t. Σ x = 1 (D diagonal):
 *    x_i = λ/d_i, y = λ = 1/Σ(1/d_i); a random PSD QP: KKT conditions
 *    checked here;
 *  - SOCLCP with W = αI: r = P_K(−q/α) by Moreau's decomposition (K° =
 *    −K*), for any mu; a random SPD W: complementarity checked here; the
 *    interior point and auto on singular W (q = v* − W r* from a
 *    complementary pair, so that a solution exists).
 *  - bad input on every new entry point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

/* ns_solve with a solver spec NAME[/key=value]... (o: NULL for defaults) */
static ns_status solve_spec(const ns_problem *p, const char *spec, const ns_options *o,
                            ns_solution *sol, ns_result *r)
{
    ns_options oo;
    if (o) oo = *o; else ns_options_default(&oo);
    char name[NS_SOLVER_NAME_LEN], err[NS_ERRMSG_LEN];
    ns_status ps = ns_solver_spec_parse(spec, p->kind, name, sizeof name, &oo, err);
    if (ps) print_message("spec %s: %s\n", spec, err);
    assert_int_equal(ps, NS_OK);
    return ns_solve(p, name, &oo, sol, r);
}

#define N 6
static const double C[N] = { -2.0, -0.3, 0.2, 0.9, 1.7, 3.0 };

static int shift_F(void *user, ns_int n, const double *x, double *F)
{
    const double *c = user;
    for (int i = 0; i < n; i++) F[i] = x[i] - c[i];
    return 0;
}
static int cubic_F(void *user, ns_int n, const double *x, double *F)
{
    const double *c = user;
    for (int i = 0; i < n; i++) { double d = x[i] - c[i]; F[i] = d + d * d * d; }
    return 0;
}
static int ball_project(void *user, ns_int n, const double *x, double *px)
{
    (void)user;
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    s = sqrt(s);
    double f = s > 1.5 ? 1.5 / s : 1.0;
    for (int i = 0; i < n; i++) px[i] = f * x[i];
    return 0;
}

static void test_vi_box_and_ball(void **state)
{
    (void)state;
    const double lb[N] = { -1, -1, -1, -1, -1, -1 }, ub[N] = { 1, 1, 1, 1, 1, 1 };
    const char *box_solvers[] = { "auto", "eg", "fpp", "hp", "newton-fb", "newton-min" };
    ns_map_fn maps[2] = { shift_F, cubic_F };
    for (int m = 0; m < 2; m++)
        for (size_t s = 0; s < sizeof box_solvers / sizeof *box_solvers; s++) {
            ns_problem *p = ns_problem_from_vi(ns_vi_new_box(N, maps[m], NULL, (void *)C, lb, ub));
            ns_solution *sol = ns_solution_new(p);
            ns_result r;
            ns_status st = ns_solve(p, box_solvers[s], NULL, sol, &r);
            if (st != NS_CONVERGED) print_message("vi box %s: %s %s\n", box_solvers[s], ns_status_name(st), r.message);
            assert_int_equal(st, NS_CONVERGED);
            for (int i = 0; i < N; i++)
                assert_true(fabs(sol->vec[0][i] - fmin(1, fmax(-1, C[i]))) <= 1e-8);
            ns_result_clear(&r);
            ns_solution_free(sol);
            ns_problem_free(p);
        }
    double nc = 0;
    for (int i = 0; i < N; i++) nc += C[i] * C[i];
    nc = sqrt(nc);
    const char *ball_solvers[] = { "auto", "eg", "fpp", "hp" };
    for (size_t s = 0; s < 4; s++) {
        ns_problem *p = ns_problem_from_vi(ns_vi_new(N, shift_F, NULL, (void *)C, ball_project));
        ns_solution *sol = ns_solution_new(p);
        ns_result r;
        assert_int_equal(ns_solve(p, ball_solvers[s], NULL, sol, &r), NS_CONVERGED);
        for (int i = 0; i < N; i++) assert_true(fabs(sol->vec[0][i] - 1.5 * C[i] / nc) <= 1e-8);
        ns_result_clear(&r);
        /* Newton needs a box */
        assert_int_equal(ns_solve(p, "newton-fb", NULL, sol, &r), NS_BAD_INPUT);
        assert_non_null(strstr(r.message, "box"));
        ns_result_clear(&r);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* F(x) = A (x − c), A skew-symmetric (a rotation by 90° in each pair of
 * coordinates, scaled by 1 + pair index): monotone (⟨F(x) − F(y), x − y⟩
 * = 0) but not strongly, F(c) = 0, A invertible, so with c inside the box
 * x = c is the only solution. A projected gradient step spirals away from
 * c (‖(I − ρA)(x − c)‖ > ‖x − c‖), so only methods for monotone F (eg,
 * hp) may be asked to solve it. */
static int skew_F(void *user, ns_int n, const double *x, double *F)
{
    const double *c = user;
    for (int i = 0; i + 1 < n; i += 2) {
        double s = 1.0 + i / 2;
        F[i] = s * (x[i + 1] - c[i + 1]);
        F[i + 1] = -s * (x[i] - c[i]);
    }
    return 0;
}

static void test_vi_monotone_not_strongly(void **state)
{
    (void)state;
    static const double c[N] = { 0.5, -0.25, 0.75, 0.1, -0.6, 0.3 };
    const double lb[N] = { -1, -1, -1, -1, -1, -1 }, ub[N] = { 1, 1, 1, 1, 1, 1 };
    const char *solvers[] = { "eg", "hp" };
    for (size_t s = 0; s < 2; s++) {
        ns_problem *p = ns_problem_from_vi(ns_vi_new_box(N, skew_F, NULL, (void *)c, lb, ub));
        ns_solution *sol = ns_solution_new(p);
        ns_result r;
        ns_options o;
        ns_options_default(&o);
        o.max_iter = 100000;
        ns_status st = ns_solve(p, solvers[s], &o, sol, &r);
        if (st != NS_CONVERGED) print_message("vi skew %s: %s %s\n", solvers[s], ns_status_name(st), r.message);
        assert_int_equal(st, NS_CONVERGED);
        for (int i = 0; i < N; i++) assert_true(fabs(sol->vec[0][i] - c[i]) <= 1e-7);
        ns_result_clear(&r);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* A relay file read as a box VI. */
static void test_vi_file(void **state)
{
    (void)state;
    static const char TEXT[] = "2\n0\n2\n2\n2 2\n2 1\n1 2\n-5 1\n-1 -1\n1 1\n";
    char err[NS_ERRMSG_LEN];
    ns_problem *p = NULL;
    assert_int_equal(ns_problem_read_dat_buffer(TEXT, sizeof TEXT - 1, "r.dat", NS_KIND_VI, &p, err), NS_OK);
    assert_int_equal(p->kind, NS_KIND_VI);
    ns_solution *sol = ns_solution_new(p);
    ns_result r;
    assert_int_equal(ns_solve(p, NULL, NULL, sol, &r), NS_CONVERGED);
    /* x = (1, x2): w1 = 2 + x2 − 5 ≤ 0 (at the upper bound), w2 = 1 + 2 x2 + 1 = 0: x2 = −1 */
    assert_true(fabs(sol->vec[0][0] - 1) < 1e-8 && fabs(sol->vec[0][1] + 1) < 1e-8);
    ns_result_clear(&r);
    ns_solution_free(sol);
    ns_problem_free(p);
}

/* ------------------------------------------------------------------ cqp */
static void soc_proj_ref(int d, double mu, const double *x, double *p)
{
    double nt = 0;
    for (int k = 1; k < d; k++) nt += x[k] * x[k];
    nt = sqrt(nt);
    if (nt <= mu * x[0]) { memcpy(p, x, (size_t)d * sizeof *p); return; }
    if (mu * nt <= -x[0]) { for (int k = 0; k < d; k++) p[k] = 0; return; }
    double t = (x[0] + mu * nt) / (1 + mu * mu);
    p[0] = t;
    for (int k = 1; k < d; k++) p[k] = mu * t * x[k] / nt;
}

static ns_matrix *identity(int n, double a)
{
    ns_matrix *I = ns_matrix_dense_new(n, n);
    for (int i = 0; i < n; i++) I->dense[i + (size_t)i * n] = a;
    return I;
}

static void test_cqp_projection(void **state)
{
    (void)state;
    double mq[N];
    for (int i = 0; i < N; i++) mq[i] = -C[i];
    const double lb[N] = { -1, -1, -1, -1, -1, -1 }, ub[N] = { 1, 1, 1, 1, 1, 1 };
    const char *solvers[] = { "auto", "pg-bb", "admm" };
    for (size_t s = 0; s < 3; s++) {
        /* box */
        ns_cqp *q = ns_cqp_new(identity(N, 1), mq);
        assert_int_equal(ns_cqp_set_box(q, lb, ub), NS_OK);
        ns_problem *p = ns_problem_from_cqp(q);
        ns_solution *sol = ns_solution_new(p);
        ns_result r;
        assert_int_equal(solve_spec(p, solvers[s], NULL, sol, &r), NS_CONVERGED);
        for (int i = 0; i < N; i++) assert_true(fabs(sol->vec[0][i] - fmin(1, fmax(-1, C[i]))) <= 1e-7);
        ns_result_clear(&r);
        ns_solution_free(sol);
        ns_problem_free(p);
        /* two cones (3 and 3), mu 0.5 and 2 */
        q = ns_cqp_new(identity(N, 1), mq);
        const ns_int start[3] = { 0, 3, 6 };
        const double mu[2] = { 0.5, 2.0 };
        assert_int_equal(ns_cqp_set_cones(q, 2, start, mu), NS_OK);
        p = ns_problem_from_cqp(q);
        sol = ns_solution_new(p);
        assert_int_equal(solve_spec(p, solvers[s], NULL, sol, &r), NS_CONVERGED);
        double want[N];
        soc_proj_ref(3, 0.5, C, want);
        soc_proj_ref(3, 2.0, C + 3, want + 3);
        for (int i = 0; i < N; i++) assert_true(fabs(sol->vec[0][i] - want[i]) <= 1e-7);
        ns_result_clear(&r);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

static void test_cqp_equality(void **state)
{
    (void)state;
    const double d[N] = { 1, 2, 3, 4, 5, 6 };
    ns_matrix *D = ns_matrix_dense_new(N, N), *A = ns_matrix_dense_new(1, N);
    for (int i = 0; i < N; i++) { D->dense[i + (size_t)i * N] = d[i]; A->dense[i] = 1; }
    const double b[1] = { 1 }, lb[N] = { 0, 0, 0, 0, 0, 0 };
    ns_cqp *q = ns_cqp_new(D, NULL);
    assert_int_equal(ns_cqp_set_equalities(q, A, b), NS_OK);
    assert_int_equal(ns_cqp_set_box(q, lb, NULL), NS_OK);
    ns_problem *p = ns_problem_from_cqp(q);
    ns_solution *sol = ns_solution_new(p);
    ns_result r;
    assert_int_equal(ns_solve(p, NULL, NULL, sol, &r), NS_CONVERGED);
    double inv = 0;
    for (int i = 0; i < N; i++) inv += 1 / d[i];
    double lam = 1 / inv;
    for (int i = 0; i < N; i++) assert_true(fabs(sol->vec[0][i] - lam / d[i]) <= 1e-7);
    assert_true(fabs(sol->vec[1][0] - lam) <= 1e-7);
    ns_result_clear(&r);
    /* pg-bb refuses equality constraints */
    assert_int_equal(ns_solve(p, "pg-bb", NULL, sol, &r), NS_BAD_INPUT);
    assert_non_null(strstr(r.message, "admm"));
    ns_result_clear(&r);
    ns_solution_free(sol);
    ns_problem_free(p);
}

/* Random PSD M = BᵀB (rank deficient), q random, x ≥ 0, Σx = 2: KKT
 * recomputed here: x ≥ 0, Σx = 2, g = Mx + q − y·1 with g ≥ 0, x ⊥ g. */
static void test_cqp_random(void **state)
{
    (void)state;
    enum { n = 20, k = 12 };
    ns_rng rng;
    ns_rng_seed(&rng, 7);
    double B[k][n], q[n];
    for (int i = 0; i < k; i++)
        for (int j = 0; j < n; j++) B[i][j] = ns_rng_range(&rng, -1, 1);
    for (int j = 0; j < n; j++) q[j] = ns_rng_range(&rng, -1, 1);
    ns_matrix *M = ns_matrix_dense_new(n, n), *A = ns_matrix_dense_new(1, n);
    double Md[n][n];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int t = 0; t < k; t++) s += B[t][i] * B[t][j];
            Md[i][j] = s;
            M->dense[i + (size_t)j * n] = s;
        }
    for (int j = 0; j < n; j++) A->dense[j] = 1;
    const double b[1] = { 2 };
    double lb[n];
    for (int j = 0; j < n; j++) lb[j] = 0;
    ns_cqp *c = ns_cqp_new(M, q);
    ns_cqp_set_equalities(c, A, b);
    ns_cqp_set_box(c, lb, NULL);
    ns_problem *p = ns_problem_from_cqp(c);
    ns_solution *sol = ns_solution_new(p);
    ns_result r;
    assert_int_equal(ns_solve(p, "admm", NULL, sol, &r), NS_CONVERGED);
    const double *x = sol->vec[0], y = sol->vec[1][0];
    double sx = 0, e = 0;
    for (int i = 0; i < n; i++) {
        double g = q[i] - y;
        for (int j = 0; j < n; j++) g += Md[i][j] * x[j];
        sx += x[i];
        double m = fmin(x[i], g);   /* min map of 0 ≤ x ⊥ g ≥ 0 */
        e += m * m;
    }
    assert_true(fabs(sx - 2) <= 1e-7);
    assert_true(sqrt(e) <= 1e-7);
    ns_result_clear(&r);
    ns_solution_free(sol);
    ns_problem_free(p);
}

/* --------------------------------------------------------------- soclcp */

static void test_soclcp_analytic(void **state)
{
    (void)state;
    const double q[7] = { 0.5, -2.0, 1.0, -1.0, 0.3, 0.4, 2.0 };
    const ns_int start[4] = { 0, 3, 5, 7 };   /* cones of size 3, 2, 2 */
    const double mu[3] = { 0.7, 1.0, 3.0 };
    const double alpha = 2.0;
    const char *solvers[] = { "auto", "nsgs", "fpp", "eg", "newton-fb", "ipm", "nsgs/local=newton" };
    for (size_t s = 0; s < 7; s++) {
        ns_problem *p = ns_problem_from_soclcp(ns_soclcp_new(identity(7, alpha), q, 3, start, mu));
        ns_solution *sol = ns_solution_new(p);
        ns_result r;
        assert_int_equal(solve_spec(p, solvers[s], NULL, sol, &r), NS_CONVERGED);
        double x[7], want[7];
        for (int i = 0; i < 7; i++) x[i] = -q[i] / alpha;
        for (int c = 0; c < 3; c++) soc_proj_ref((int)(start[c + 1] - start[c]), mu[c], x + start[c], want + start[c]);
        for (int i = 0; i < 7; i++) {
            if (fabs(sol->vec[0][i] - want[i]) > 1e-7)
                print_message("soclcp %s r[%d] = %g want %g\n", solvers[s], i, sol->vec[0][i], want[i]);
            assert_true(fabs(sol->vec[0][i] - want[i]) <= 1e-7);
        }
        ns_result_clear(&r);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* One cone of size 3 with an SPD W: r ∈ K, v ∈ K*, rᵀv = 0 checked here. */
static void test_soclcp_one_cone(void **state)
{
    (void)state;
    const double Wd[9] = { 4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2 };
    const double q[3] = { -1, 0.5, -0.8 };
    const ns_int start[2] = { 0, 3 };
    const double mu[1] = { 0.6 };
    const char *solvers[] = { "auto", "nsgs", "fpp", "eg", "newton-fb", "ipm", "nsgs/local=newton" };
    for (size_t s = 0; s < 7; s++) {
        ns_matrix *W = ns_matrix_dense_new(3, 3);
        memcpy(W->dense, Wd, sizeof Wd);
        ns_problem *p = ns_problem_from_soclcp(ns_soclcp_new(W, q, 1, start, mu));
        ns_solution *sol = ns_solution_new(p);
        ns_result r;
        assert_int_equal(solve_spec(p, solvers[s], NULL, sol, &r), NS_CONVERGED);
        const double *x = sol->vec[0];
        double v[3];
        for (int i = 0; i < 3; i++) {
            v[i] = q[i];
            for (int j = 0; j < 3; j++) v[i] += Wd[i + 3 * j] * x[j];
        }
        double tol = 1e-7;
        assert_true(hypot(x[1], x[2]) <= mu[0] * x[0] + tol);           /* r ∈ K */
        assert_true(mu[0] * hypot(v[1], v[2]) <= v[0] + tol);           /* v ∈ K* */
        assert_true(fabs(x[0] * v[0] + x[1] * v[1] + x[2] * v[2]) <= tol);
        assert_true(x[0] > 0.1);   /* the contact is active for this q */
        ns_result_clear(&r);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* Newton from a warm start (no nsgs sweeps first): cones of sizes 3, 3, 2,
 * 1, 3 with one mu = 0, a random SPD W = BᵀB + I; r ∈ K, v ∈ K*, rᵀv = 0
 * per cone checked here; same r from nsgs (the solution is unique). */
static void test_soclcp_newton(void **state)
{
    (void)state;
    enum { n = 12, nc = 5 };
    const ns_int start[nc + 1] = { 0, 3, 6, 8, 9, 12 };
    const double mu[nc] = { 0.5, 0.0, 1.3, 0.7, 0.2 };
    ns_rng rng;
    ns_rng_seed(&rng, 11);
    double B[n][n], Wd[n * n], q[n];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) B[i][j] = ns_rng_range(&rng, -0.5, 0.5);
    for (int i = 0; i < n; i++) {
        q[i] = ns_rng_range(&rng, -1, 1);
        for (int j = 0; j < n; j++) {
            double s = i == j ? 1.0 : 0.0;
            for (int k = 0; k < n; k++) s += B[k][i] * B[k][j];
            Wd[i + n * j] = s;
        }
    }
    double rs[3][n];
    const char *solvers[3] = { "newton-fb", "nsgs", "nsgs/local=newton" };
    for (int s = 0; s < 3; s++) {
        ns_matrix *W = ns_matrix_dense_new(n, n);
        memcpy(W->dense, Wd, sizeof Wd);
        ns_problem *p = ns_problem_from_soclcp(ns_soclcp_new(W, q, nc, start, mu));
        ns_solution *sol = ns_solution_new(p);
        for (int i = 0; i < n; i++) sol->vec[0][i] = i % 3 == 0 ? 1.0 : 0.1;
        ns_options o;
        ns_options_default(&o);
        o.warm_start = 1;
        ns_result r;
        ns_status st = solve_spec(p, solvers[s], &o, sol, &r);
        if (st != NS_CONVERGED) print_message("soclcp %s: %s %s\n", solvers[s], ns_status_name(st), r.message);
        assert_int_equal(st, NS_CONVERGED);
        if (s == 0) assert_true(r.iterations < 50);   /* Newton, not a crawl */
        const double *x = sol->vec[0];
        for (int c = 0; c < nc; c++) {
            int a = (int)start[c], d = (int)(start[c + 1] - start[c]);
            double v[3], nt = 0, nv = 0, dot = 0;
            for (int i = 0; i < d; i++) {
                v[i] = q[a + i];
                for (int j = 0; j < n; j++) v[i] += Wd[(a + i) + n * j] * x[j];
                dot += x[a + i] * v[i];
                if (i) { nt += x[a + i] * x[a + i]; nv += v[i] * v[i]; }
            }
            assert_true(sqrt(nt) <= mu[c] * x[a] + 1e-7);   /* r ∈ K */
            assert_true(mu[c] * sqrt(nv) <= v[0] + 1e-7);   /* v ∈ K* */
            assert_true(fabs(dot) <= 1e-7);
        }
        memcpy(rs[s], x, sizeof rs[s]);
        ns_result_clear(&r);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
    for (int i = 0; i < n; i++) assert_true(fabs(rs[0][i] - rs[1][i]) <= 1e-6);
    for (int i = 0; i < n; i++) assert_true(fabs(rs[0][i] - rs[2][i]) <= 1e-6);
    /* a local solver the sweeps do not know, through the C API: refused */
    ns_matrix *W = ns_matrix_dense_new(n, n);
    memcpy(W->dense, Wd, sizeof Wd);
    ns_problem *p = ns_problem_from_soclcp(ns_soclcp_new(W, q, nc, start, mu));
    ns_solution *sol = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.local_solver = "ac";
    ns_result r;
    assert_int_equal(ns_solve(p, "nsgs", &o, sol, &r), NS_BAD_INPUT);
    assert_non_null(strstr(r.message, "local solver 'ac'"));
    ns_result_clear(&r);
    ns_solution_free(sol);
    ns_problem_free(p);
}

/* The interior point on cones of sizes 1, 2, 3 and 5 (some μ = 0), W
 * sparse. (a) W = BᵀB + I/10 (SPD): cold and warm starts reach 1e-10 and
 * the same r as newton-fb (unique solution); a warm start that solves the
 * problem returns at once. (b) W = BᵀB with B of rank n/2 (singular, as a
 * hyperstatic contact network's): r is not unique, v = W r + q is; the
 * SOCLCP conditions are checked here per cone. */
static void soclcp_check(int n, int nc, const ns_int *start, const double *mu, const double *Wd,
                         const double *q, const double *x, double tol)
{
    for (int c = 0; c < nc; c++) {
        int a = (int)start[c], d = (int)(start[c + 1] - start[c]);
        double v[5], nt = 0, nv = 0, dot = 0;
        for (int i = 0; i < d; i++) {
            v[i] = q[a + i];
            for (int j = 0; j < n; j++) v[i] += Wd[(a + i) + n * j] * x[j];
            dot += x[a + i] * v[i];
            if (i) { nt += x[a + i] * x[a + i]; nv += v[i] * v[i]; }
        }
        assert_true(sqrt(nt) <= mu[c] * x[a] + tol);   /* r ∈ K */
        assert_true(mu[c] * sqrt(nv) <= v[0] + tol);   /* v ∈ K* */
        assert_true(fabs(dot) <= tol);
    }
}

static ns_problem *soclcp_sparse(int n, int nc, const ns_int *start, const double *mu,
                                 const double *Wd, const double *q)
{
    ns_int nnz = 0;
    for (int i = 0; i < n * n; i++) nnz += Wd[i] != 0.0;
    ns_matrix *W = ns_matrix_sparse_new(n, n, nnz);
    ns_int k = 0;
    for (int j = 0; j < n; j++) {
        W->csc.p[j] = k;
        for (int i = 0; i < n; i++)
            if (Wd[i + n * j] != 0.0) { W->csc.i[k] = i; W->csc.x[k++] = Wd[i + n * j]; }
    }
    W->csc.p[n] = k;
    return ns_problem_from_soclcp(ns_soclcp_new(W, q, nc, start, mu));
}

static void test_soclcp_ipm(void **state)
{
    (void)state;
    enum { n = 22, nc = 8 };
    const ns_int start[nc + 1] = { 0, 3, 5, 6, 11, 14, 16, 17, 22 };
    const double mu[nc] = { 0.5, 0.0, 1.0, 0.8, 0.0, 2.0, 0.3, 0.25 };
    ns_rng rng;
    ns_rng_seed(&rng, 5);
    static double B[n][n], Wd[n * n], q[n];
    for (int pass = 0; pass < 2; pass++) {
        int rank = pass == 0 ? n : n / 2;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)   /* banded: a sparse W */
                B[i][j] = i < rank && abs(i - j) <= 3 ? ns_rng_range(&rng, -1, 1) : 0.0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = pass == 0 && i == j ? 0.1 : 0.0;
                for (int k = 0; k < n; k++) s += B[k][i] * B[k][j];
                Wd[i + n * j] = s;
            }
        /* q = v* − W r* for a point with r* ∈ K, v* ∈ K*, r*ᵀv* = 0 per
         * cone (r* strictly inside and v* = 0, or r* = 0 and v* strictly
         * inside, alternately), so that a solution exists when W is
         * singular */
        double rs[n], vs[n];
        for (int c = 0; c < nc; c++) {
            int a = (int)start[c], d = (int)(start[c + 1] - start[c]);
            double *x = c % 2 ? vs : rs, *y = c % 2 ? rs : vs;
            double m = c % 2 ? (mu[c] > 0 ? 1.0 / mu[c] : 1.0) : mu[c];   /* K* = K_{1/μ} */
            double nt = 0.0;
            for (int i = 1; i < d; i++) { x[a + i] = m > 0 ? ns_rng_range(&rng, -1, 1) : 0.0; nt += x[a + i] * x[a + i]; }
            x[a] = (m > 0 ? sqrt(nt) / m : 0.0) + ns_rng_range(&rng, 0.2, 1.0);
            for (int i = 0; i < d; i++) y[a + i] = 0.0;
        }
        for (int i = 0; i < n; i++) {
            q[i] = vs[i];
            for (int j = 0; j < n; j++) q[i] -= Wd[i + n * j] * rs[j];
        }
        double ref[n];
        for (int warm = 0; warm < 2; warm++) {
            ns_problem *p = soclcp_sparse(n, nc, start, mu, Wd, q);
            ns_solution *sol = ns_solution_new(p);
            ns_options o;
            ns_options_default(&o);
            o.tol = 1e-10;
            o.warm_start = warm;
            if (warm)
                for (int i = 0; i < n; i++) sol->vec[0][i] = i % 2 ? 0.0 : 0.5;
            ns_result r;
            ns_status st = ns_solve(p, "ipm", &o, sol, &r);
            if (st != NS_CONVERGED) print_message("soclcp ipm (%d, %d): %s %s\n", pass, warm, ns_status_name(st), r.message);
            assert_int_equal(st, NS_CONVERGED);
            soclcp_check(n, nc, start, mu, Wd, q, sol->vec[0], 1e-8);
            if (pass == 0 && warm == 0) memcpy(ref, sol->vec[0], sizeof ref);
            if (pass == 0 && warm == 1) {
                for (int i = 0; i < n; i++) assert_true(fabs(sol->vec[0][i] - ref[i]) <= 1e-7);
                /* the answer as a warm start: returned at once */
                ns_result r2;
                assert_int_equal(ns_solve(p, "ipm", &o, sol, &r2), NS_CONVERGED);
                assert_int_equal(r2.iterations, 0);
                ns_result_clear(&r2);
            }
            ns_result_clear(&r);
            ns_solution_free(sol);
            ns_problem_free(p);
        }
        if (pass == 0) {   /* newton-fb gives the same (unique) r */
            ns_problem *p = soclcp_sparse(n, nc, start, mu, Wd, q);
            ns_solution *sol = ns_solution_new(p);
            ns_options o;
            ns_options_default(&o);
            o.tol = 1e-10;
            ns_result r;
            assert_int_equal(ns_solve(p, "newton-fb", &o, sol, &r), NS_CONVERGED);
            for (int i = 0; i < n; i++) assert_true(fabs(sol->vec[0][i] - ref[i]) <= 1e-7);
            ns_result_clear(&r);
            ns_solution_free(sol);
            ns_problem_free(p);
        }
    }
}

/* auto's interior-point stage: W the 1D Laplacian with free ends (singular,
 * condition ~n² on its range; the sweeps crawl on it), q from a
 * complementary pair so that a solution exists (r* inside every cone but
 * the middle one, where v* is: one long chain); nsgs alone stops short of
 * 1e-10 in 2000 sweeps, auto (nsgs, then ipm) converges; the conditions are
 * checked here. */
static void test_soclcp_auto_singular(void **state)
{
    (void)state;
    enum { nc = 100, n = 3 * nc };
    static double Wd[n * n], q[n], rs[n], vs[n];
    ns_int start[nc + 1];
    double mu[nc];
    ns_rng rng;
    ns_rng_seed(&rng, 3);
    for (int i = 0; i < n; i++) {
        if (i > 0) Wd[i + n * (i - 1)] = -1.0;
        if (i < n - 1) Wd[i + n * (i + 1)] = -1.0;
        Wd[i + n * i] = i == 0 || i == n - 1 ? 1.0 : 2.0;
    }
    for (int c = 0; c < nc; c++) {
        start[c] = 3 * c;
        mu[c] = ns_rng_range(&rng, 0.1, 1.0);
        int in = c != nc / 2;
        double *x = in ? rs : vs, m = in ? mu[c] : 1.0 / mu[c];
        x[3 * c + 1] = ns_rng_range(&rng, -1, 1);
        x[3 * c + 2] = ns_rng_range(&rng, -1, 1);
        x[3 * c] = hypot(x[3 * c + 1], x[3 * c + 2]) / m + ns_rng_range(&rng, 0.2, 1.0);
    }
    start[nc] = n;
    for (int i = 0; i < n; i++) {
        q[i] = vs[i];
        for (int j = 0; j < n; j++) q[i] -= Wd[i + n * j] * rs[j];
    }
    const char *solvers[2] = { "nsgs", "auto" };
    for (int s = 0; s < 2; s++) {
        ns_problem *p = soclcp_sparse(n, nc, start, mu, Wd, q);
        ns_solution *sol = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-10;
        o.max_iter = 2000;
        ns_result r;
        ns_status st = ns_solve(p, solvers[s], &o, sol, &r);
        if (s == 0) assert_int_not_equal(st, NS_CONVERGED);
        else {
            if (st != NS_CONVERGED) print_message("soclcp auto: %s %s\n", ns_status_name(st), r.message);
            assert_int_equal(st, NS_CONVERGED);
            soclcp_check(n, nc, start, mu, Wd, q, sol->vec[0], 1e-8);
        }
        ns_result_clear(&r);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* Siconos' SOCLCP layout: this text is what Siconos 4.4's
 * secondOrderConeLinearComplementarityProblem_printInFile wrote for n = 5,
 * nc = 2, a dense M with matrix0[k] = 2 (k % 6 == 0) or 0.1 k (column-major
 * k = i + 5 j), q_i = i − 2.5, cones [0, 3), [3, 5), mu = (0.5, 0.7). */
static const char SICONOS_SOCLCP[] =
    "5\n2\n0\n5\n5\n5\t5\n"
    "  2.000000000000000000000000e+00   1.000000000000000055511151e-01   2.000000000000000111022302e-01   3.000000000000000444089210e-01   4.000000000000000222044605e-01 \n"
    "  5.000000000000000000000000e-01   2.000000000000000000000000e+00   7.000000000000000666133815e-01   8.000000000000000444089210e-01   9.000000000000000222044605e-01 \n"
    "  1.000000000000000000000000e+00   1.100000000000000088817842e+00   2.000000000000000000000000e+00   1.300000000000000044408921e+00   1.400000000000000133226763e+00 \n"
    "  1.500000000000000000000000e+00   1.600000000000000088817842e+00   1.700000000000000177635684e+00   2.000000000000000000000000e+00   1.900000000000000133226763e+00 \n"
    "  2.000000000000000000000000e+00   2.100000000000000088817842e+00   2.200000000000000177635684e+00   2.300000000000000266453526e+00   2.000000000000000000000000e+00 \n"
    " -2.500000000000000000000000e+00  -1.500000000000000000000000e+00  -5.000000000000000000000000e-01   5.000000000000000000000000e-01   1.500000000000000000000000e+00 \n"
    "0 3 5 \n"
    "  5.000000000000000000000000e-01   6.999999999999999555910790e-01 \n";

static void test_soclcp_file(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN], path[256];
    ns_problem *p = NULL, *r = NULL;
    assert_int_equal(ns_problem_read_dat_buffer(SICONOS_SOCLCP, sizeof SICONOS_SOCLCP - 1, "s.dat",
                                                NS_KIND_SOCLCP, &p, err), NS_OK);
    const ns_soclcp *s = p->u.soclcp;
    assert_int_equal(s->n, 5);
    assert_int_equal(s->nc, 2);
    assert_int_equal(s->cone_start[1], 3);
    assert_true(s->mu[0] == 0.5 && fabs(s->mu[1] - 0.7) < 1e-15);
    for (int i = 0; i < 5; i++) {
        assert_true(s->q[i] == i - 2.5);
        for (int j = 0; j < 5; j++) {
            int k = i + 5 * j;
            double want = k % 6 == 0 ? 2.0 : 0.1 * k;
            assert_true(fabs(ns_matrix_get(s->W, i, j) - want) < 1e-15);
        }
    }
    /* round trip through our writer */
    ns_test_tmpname(path, sizeof path, ".dat");
    assert_int_equal(ns_problem_write(path, p, NS_FORMAT_AUTO, err), NS_OK);
    assert_int_equal(ns_problem_read(path, NS_KIND_SOCLCP, &r, err), NS_OK);
    assert_true(ns_matrix_max_abs_diff(s->W, r->u.soclcp->W) == 0.0);
    for (int i = 0; i < 5; i++) assert_true(r->u.soclcp->q[i] == s->q[i]);
    remove(path);
    ns_problem_free(r);
    ns_problem_free(p);
}

/* ------------------------------------------------------------ bad input */
static void expect_bad(ns_status st, const char *err, const char *needle)
{
    assert_int_equal(st, NS_BAD_INPUT);
    if (!strstr(err, needle)) print_message("message '%s' lacks '%s'\n", err, needle);
    assert_non_null(strstr(err, needle));
}

static void test_bad_input(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN];
    /* vi */
    expect_bad(ns_vi_validate(NULL, err), err, "no problem");
    ns_vi *v = ns_vi_new(2, shift_F, NULL, (void *)C, NULL);
    expect_bad(ns_vi_validate(v, err), err, "no projection and no box");
    v->project = ball_project;
    v->lb = malloc(2 * sizeof(double));
    v->ub = malloc(2 * sizeof(double));
    v->lb[0] = v->lb[1] = 0;
    v->ub[0] = v->ub[1] = 1;
    expect_bad(ns_vi_validate(v, err), err, "both a projection and a box");
    v->project = NULL;
    v->lb[1] = 3;
    expect_bad(ns_vi_validate(v, err), err, "lb[1] = 3 > ub[1]");
    v->F = NULL;
    expect_bad(ns_vi_validate(v, err), err, "no callback");
    ns_vi_free(v);
    assert_null(ns_vi_new_affine_box(NULL, NULL, NULL, NULL));
    assert_null(ns_problem_from_vi(NULL));
    /* cqp */
    expect_bad(ns_cqp_validate(NULL, err), err, "no problem");
    assert_null(ns_cqp_new(NULL, NULL));
    ns_matrix *M = identity(3, 1);
    M->dense[1] = 0.5;   /* (1, 0) without (0, 1) */
    ns_cqp *c = ns_cqp_new(M, NULL);
    expect_bad(ns_cqp_validate(c, err), err, "not symmetric");
    M->dense[3] = 0.5;
    assert_int_equal(ns_cqp_validate(c, err), NS_OK);
    assert_int_equal(ns_cqp_set_equalities(c, ns_matrix_dense_new(1, 2), NULL), NS_OK);
    expect_bad(ns_cqp_validate(c, err), err, "A: 1 x 2");
    assert_int_equal(ns_cqp_set_equalities(c, ns_matrix_dense_new(1, 3), NULL), NS_OK);
    assert_int_equal(ns_cqp_validate(c, err), NS_OK);
    const ns_int bad_start[2] = { 0, 2 };
    const double mu1[1] = { 1 }, mun[1] = { -1 };
    assert_int_equal(ns_cqp_set_cones(c, 1, bad_start, mu1), NS_OK);
    expect_bad(ns_cqp_validate(c, err), err, "cone_start");
    const ns_int good_start[2] = { 0, 3 };
    assert_int_equal(ns_cqp_set_cones(c, 1, good_start, mun), NS_OK);
    expect_bad(ns_cqp_validate(c, err), err, "mu[0] = -1");
    assert_int_equal(ns_cqp_set_cones(c, 1, good_start, mu1), NS_OK);
    assert_int_equal(ns_cqp_set_box(c, NULL, NULL), NS_OK);
    expect_bad(ns_cqp_validate(c, err), err, "more than one");
    assert_int_equal(ns_cqp_set_cones(NULL, 1, good_start, mu1), NS_BAD_INPUT);
    assert_int_equal(ns_cqp_set_projection(c, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(ns_cqp_set_equalities(c, NULL, NULL), NS_BAD_INPUT);
    ns_cqp_free(c);
    assert_null(ns_problem_from_cqp(NULL));
    /* soclcp */
    expect_bad(ns_soclcp_validate(NULL, err), err, "no problem");
    assert_null(ns_soclcp_new(NULL, NULL, 0, NULL, NULL));
    assert_null(ns_soclcp_new(identity(2, 1), NULL, 1, NULL, NULL));
    const ns_int st2[2] = { 0, 3 };
    ns_soclcp *s = ns_soclcp_new(identity(2, 1), NULL, 1, st2, mu1);
    expect_bad(ns_soclcp_validate(s, err), err, "cone_start");
    s->cone_start[1] = 2;
    s->mu[0] = NAN;
    expect_bad(ns_soclcp_validate(s, err), err, "mu[0]");
    s->mu[0] = 1;
    s->q[1] = INFINITY;
    expect_bad(ns_soclcp_validate(s, err), err, "q");
    ns_soclcp_free(s);
    assert_null(ns_problem_from_soclcp(NULL));
    /* a bad SOCLCP file names the field */
    static const char BADSOC[] = "3\n1\n0\n3\n3\n3 3\n1 0 0\n0 1 0\n0 0 1\n1 2 3\n0 2\n0.5\n";
    ns_problem *bp = NULL;
    assert_int_equal(ns_problem_read_dat_buffer(BADSOC, sizeof BADSOC - 1, "s.dat", NS_KIND_SOCLCP, &bp, err),
                     NS_BAD_INPUT);
    assert_null(bp);
    assert_non_null(strstr(err, "coneIndex"));
    /* no file form for a cqp */
    ns_problem *p = ns_problem_from_cqp(ns_cqp_new(identity(2, 1), NULL));
    char path[256];
    ns_test_tmpname(path, sizeof path, ".dat");
    assert_int_equal(ns_problem_write(path, p, NS_FORMAT_AUTO, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "cqp"));
    remove(path);
    ns_problem_free(p);
    ns_problem *r = NULL;
    assert_int_equal(ns_problem_read_dat_buffer("1\n", 2, "x.dat", NS_KIND_CQP, &r, err), NS_BAD_INPUT);
    assert_null(r);
    /* the error functions refuse NULL and non-finite input with +inf */
    double z[2] = { 0, 0 }, w[2], y[1] = { 0 };
    assert_true(isinf(ns_ncp_error(NULL, z, w)));
    assert_true(isinf(ns_mcp_error(NULL, z, w)));
    assert_true(isinf(ns_vi_error(NULL, z, w)));
    assert_true(isinf(ns_cqp_error(NULL, z, y, w)));
    assert_true(isinf(ns_soclcp_error(NULL, z, w)));
    ns_vi *vb = ns_vi_new_box(2, shift_F, NULL, (void *)C, NULL, NULL);
    z[1] = NAN;
    assert_true(isinf(ns_vi_error(vb, z, w)));
    ns_vi_free(vb);
    vb = ns_vi_new_box(-1, shift_F, NULL, (void *)C, NULL, NULL);
    expect_bad(ns_vi_validate(vb, err), err, "negative");
    ns_vi_free(vb);
    /* setters on no problem */
    assert_int_equal(ns_cqp_set_box(NULL, NULL, NULL), NS_BAD_INPUT);
    assert_int_equal(ns_cqp_set_cones(NULL, 0, NULL, NULL), NS_BAD_INPUT);
    assert_null(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vi_box_and_ball),
        cmocka_unit_test(test_vi_monotone_not_strongly),
        cmocka_unit_test(test_vi_file),
        cmocka_unit_test(test_cqp_projection),
        cmocka_unit_test(test_cqp_equality),
        cmocka_unit_test(test_cqp_random),
        cmocka_unit_test(test_soclcp_analytic),
        cmocka_unit_test(test_soclcp_one_cone),
        cmocka_unit_test(test_soclcp_file),
        cmocka_unit_test(test_soclcp_newton),
        cmocka_unit_test(test_soclcp_ipm),
        cmocka_unit_test(test_soclcp_auto_singular),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
