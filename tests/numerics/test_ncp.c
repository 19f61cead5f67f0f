/* test_ncp.c — nonlinear and mixed complementarity (ncp, mcp kinds).
 *
 * Answers are checked against published or analytic solutions, and every
 * residual is recomputed here with the test's own arithmetic (min map on
 * F evaluated by the test's own functions), not the library's error:
 *  - Kojima–Shindo NCP (n = 4): solutions (1, 0, 3, 0) and the degenerate
 *    (√6/2, 0, 0, 1/2);
 *  - the 5-firm Nash–Cournot oligopoly (Murphy, Sherali, Soyster 1982)
 *    with its published equilibrium (Harker 1984):
 *    q ≈ (36.93, 41.82, 43.71, 42.66, 39.18);
 *  - a mixed MCP with an equality row and a box MCP with both bounds
 *    finite, solved by hand;
 *  - LCP and MLCP files read as affine NCP / MCP;
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

static const char *const SOLVERS[] = { "auto", "newton-fb", "newton-min", "homotopy" };
#define NSOLVERS (sizeof SOLVERS / sizeof SOLVERS[0])

/* ---------------------------------------------------------- Kojima–Shindo */
static int ks_F(void *user, ns_int n, const double *x, double *F)
{
    (void)user; (void)n;
    F[0] = 3 * x[0] * x[0] + 2 * x[0] * x[1] + 2 * x[1] * x[1] + x[2] + 3 * x[3] - 6;
    F[1] = 2 * x[0] * x[0] + x[0] + x[1] * x[1] + 10 * x[2] + 2 * x[3] - 2;
    F[2] = 3 * x[0] * x[0] + x[0] * x[1] + 2 * x[1] * x[1] + 2 * x[2] + 9 * x[3] - 9;
    F[3] = x[0] * x[0] + 3 * x[1] * x[1] + 2 * x[2] + 3 * x[3] - 3;
    return 0;
}

static ns_matrix *ks_J(void *user, ns_int n, const double *x)
{
    (void)user;
    ns_matrix *J = ns_matrix_dense_new(n, n);
    if (!J) return NULL;
    double *a = J->dense;   /* column-major: a[i + 4j] = dF_i/dx_j */
    a[0] = 6 * x[0] + 2 * x[1]; a[4] = 2 * x[0] + 4 * x[1]; a[8] = 1; a[12] = 3;
    a[1] = 4 * x[0] + 1;        a[5] = 2 * x[1];            a[9] = 10; a[13] = 2;
    a[2] = 6 * x[0] + x[1];     a[6] = x[0] + 4 * x[1];     a[10] = 2; a[14] = 9;
    a[3] = 2 * x[0];            a[7] = 6 * x[1];            a[11] = 2; a[15] = 3;
    return J;
}

/* ‖min(z, F(z))‖ with F recomputed by f. */
static double own_ncp_residual(ns_map_fn f, void *user, int n, const double *z)
{
    double F[16];
    f(user, n, z, F);
    double s = 0;
    for (int i = 0; i < n; i++) { double m = fmin(z[i], F[i]); s += m * m; }
    return sqrt(s);
}

static void test_kojima_shindo(void **state)
{
    (void)state;
    const double s1[4] = { 1, 0, 3, 0 }, s2[4] = { sqrt(6.0) / 2, 0, 0, 0.5 };
    const double starts[3][4] = { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 1.2, 0.1, 2.5, 0.1 } };
    for (int jac = 0; jac < 2; jac++)
        for (size_t s = 0; s < NSOLVERS; s++)
            for (int st = 0; st < 3; st++) {
                ns_problem *p = ns_problem_from_ncp(ns_ncp_new(4, ks_F, jac ? ks_J : NULL, NULL));
                assert_non_null(p);
                ns_solution *sol = ns_solution_new(p);
                memcpy(sol->vec[0], starts[st], sizeof starts[st]);
                ns_options o;
                ns_options_default(&o);
                o.warm_start = 1;
                ns_result r;
                ns_status rs = ns_solve(p, SOLVERS[s], &o, sol, &r);
                const double *z = sol->vec[0];
                double e = own_ncp_residual(ks_F, NULL, 4, z);
                double d1 = 0, d2 = 0;
                for (int i = 0; i < 4; i++) { d1 = fmax(d1, fabs(z[i] - s1[i])); d2 = fmax(d2, fabs(z[i] - s2[i])); }
                if (rs != NS_CONVERGED || e > 1e-8 || fmin(d1, d2) > 1e-6)
                    print_message("kojima-shindo %s jac=%d start %d: %s (%s) own residual %.3e dist %.3e\n",
                                  SOLVERS[s], jac, st, ns_status_name(rs), r.message, e, fmin(d1, d2));
                assert_int_equal(rs, NS_CONVERGED);
                assert_true(e <= 1e-8);
                assert_true(fmin(d1, d2) <= 1e-6);
                /* F vector returned is F(z) */
                double F[4];
                ks_F(NULL, 4, z, F);
                for (int i = 0; i < 4; i++) assert_true(fabs(F[i] - sol->vec[1][i]) <= 1e-12 * (1 + fabs(F[i])));
                ns_result_clear(&r);
                ns_solution_free(sol);
                ns_problem_free(p);
            }
}

/* ---------------------------------------------------------- Nash–Cournot */
static int cournot_F(void *user, ns_int n, const double *q, double *F)
{
    (void)user;
    static const double c[5] = { 10, 8, 6, 4, 2 }, K[5] = { 5, 5, 5, 5, 5 },
                        b[5] = { 1.2, 1.1, 1.0, 0.9, 0.8 };
    const double gamma = 1.1, L = 5000;
    double Q = 0;
    for (int i = 0; i < n; i++) Q += q[i];
    if (!(Q > 0)) return 1;   /* the price is not defined at Q = 0 */
    double p = pow(L, 1 / gamma) * pow(Q, -1 / gamma);
    double dp = -p / (gamma * Q);
    for (int i = 0; i < n; i++) {
        double mc = c[i] + pow(fmax(q[i], 0) / K[i], 1 / b[i]);
        F[i] = mc - p - q[i] * dp;
    }
    return 0;
}

static void test_nash_cournot(void **state)
{
    (void)state;
    const double pub[5] = { 36.933, 41.818, 43.707, 42.659, 39.179 };
    for (size_t s = 0; s < NSOLVERS; s++) {
        ns_problem *p = ns_problem_from_ncp(ns_ncp_new(5, cournot_F, NULL, NULL));
        ns_solution *sol = ns_solution_new(p);
        for (int i = 0; i < 5; i++) sol->vec[0][i] = 10;
        ns_options o;
        ns_options_default(&o);
        o.warm_start = 1;
        ns_result r;
        ns_status rs = ns_solve(p, SOLVERS[s], &o, sol, &r);
        double e = own_ncp_residual(cournot_F, NULL, 5, sol->vec[0]);
        if (rs != NS_CONVERGED) print_message("cournot %s: %s (%s)\n", SOLVERS[s], ns_status_name(rs), r.message);
        assert_int_equal(rs, NS_CONVERGED);
        assert_true(e <= 1e-8);
        for (int i = 0; i < 5; i++) assert_true(fabs(sol->vec[0][i] - pub[i]) <= 0.03);
        ns_result_clear(&r);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* ---------------------------------------------------------- MCP */
/* Mixed: z1 free with F1 = z1 + z2 − 1 = 0; 0 ≤ z2 ⊥ F2 = z2 − z1 + 0.5 +
 * (z2 − 0.25)³ ≥ 0. Solution z = (0.75, 0.25). Jacobian not given. */
static int mixed_F(void *user, ns_int n, const double *z, double *F)
{
    (void)user; (void)n;
    F[0] = z[0] + z[1] - 1;
    double t = z[1] - 0.25;
    F[1] = z[1] - z[0] + 0.5 + t * t * t;
    return 0;
}

/* Box with both bounds: F_i = exp(z_i) − c_i, [l, u] = [−1, 1]: the
 * solution is mid(−1, 1, log c_i) (c_i > 0), and z = −1 where F > 0 at
 * −1 for tiny c, z = 1 where F < 0 at 1. */
static const double box_c[4] = { 0.01, 0.5, 1.0, 20.0 };
static int box_F(void *user, ns_int n, const double *z, double *F)
{
    (void)user;
    for (int i = 0; i < n; i++) F[i] = exp(z[i]) - box_c[i];
    return 0;
}
static ns_matrix *box_J(void *user, ns_int n, const double *z)
{
    (void)user;
    ns_matrix *J = ns_matrix_sparse_new(n, n, n);
    if (!J) return NULL;
    for (int i = 0; i < n; i++) { J->csc.p[i] = i; J->csc.i[i] = i; J->csc.x[i] = exp(z[i]); }
    J->csc.p[n] = n;
    return J;
}

static void test_mcp(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSOLVERS; s++) {
        ns_problem *p = ns_problem_from_mcp(ns_mcp_new_mixed(1, 1, mixed_F, NULL, NULL));
        ns_solution *sol = ns_solution_new(p);
        ns_result r;
        ns_status rs = ns_solve(p, SOLVERS[s], NULL, sol, &r);
        assert_int_equal(rs, NS_CONVERGED);
        /* residual ≤ 1e-8, the active Jacobian [[1, 1], [−1, 1]] has an inverse of norm 1 */
        assert_true(fabs(sol->vec[0][0] - 0.75) < 2e-8 && fabs(sol->vec[0][1] - 0.25) < 2e-8);
        ns_result_clear(&r);
        ns_solution_free(sol);
        ns_problem_free(p);

        const double lb[4] = { -1, -1, -1, -1 }, ub[4] = { 1, 1, 1, 1 };
        p = ns_problem_from_mcp(ns_mcp_new(4, box_F, box_J, NULL, lb, ub));
        sol = ns_solution_new(p);
        rs = ns_solve(p, SOLVERS[s], NULL, sol, &r);
        assert_int_equal(rs, NS_CONVERGED);
        for (int i = 0; i < 4; i++) {
            double want = fmin(1, fmax(-1, log(box_c[i])));
            /* residual ≤ 1e-8 and F' = exp(z) ≥ e⁻¹ on the box: |z − z*| ≤ 2.8e-8 */
            if (fabs(sol->vec[0][i] - want) >= 3e-8)
                print_message("box %s: z[%d] = %.17g, want %.17g (%s)\n", SOLVERS[s], i,
                              sol->vec[0][i], want, r.message);
            assert_true(fabs(sol->vec[0][i] - want) < 3e-8);
        }
        ns_result_clear(&r);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* ---------------------------------------------------------- files */
/* Siconos' LCP layout: n, then the NumericsMatrix (storage 0 = dense,
 * rows, cols, "rows cols", the rows), then q. */
static const char LCP_TEXT[] =
    "3\n0\n3\n3\n3 3\n2 1 1\n1 2 1\n1 1 2\n-1 -1 -3\n";

static void test_files(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN];
    ns_problem *p = NULL;
    /* the LCP file as an NCP: solution compared with the min map computed
     * here from M and q as written in the text */
    assert_int_equal(ns_problem_read_dat_buffer(LCP_TEXT, sizeof LCP_TEXT - 1, "t.dat",
                                                NS_KIND_NCP, &p, err), NS_OK);
    assert_int_equal(p->kind, NS_KIND_NCP);
    const double M[3][3] = { { 2, 1, 1 }, { 1, 2, 1 }, { 1, 1, 2 } }, q[3] = { -1, -1, -3 };
    for (size_t s = 0; s < NSOLVERS; s++) {
        ns_solution *sol = ns_solution_new(p);
        ns_result r;
        assert_int_equal(ns_solve(p, SOLVERS[s], NULL, sol, &r), NS_CONVERGED);
        double e = 0;
        for (int i = 0; i < 3; i++) {
            double w = q[i];
            for (int j = 0; j < 3; j++) w += M[i][j] * sol->vec[0][j];
            double m = fmin(sol->vec[0][i], w);
            e += m * m;
        }
        assert_true(sqrt(e) <= 1e-8);
        /* the unique solution (M is positive definite): z = (0, 0, 1.5) */
        assert_true(fabs(sol->vec[0][2] - 1.5) < 1e-8 && fabs(sol->vec[0][0]) < 1e-8);
        ns_result_clear(&r);
        ns_solution_free(sol);
    }
    ns_problem_free(p);

    /* an MLCP file (n = 1 free, m = 2), written by the library's MLCP
     * writer, read as an MCP: u free, v ≥ 0 */
    {
        ns_matrix *Mm = ns_matrix_dense_new(3, 3);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) Mm->dense[i + 3 * j] = M[i][j];
        ns_problem *w = ns_problem_from_mlcp(ns_mlcp_new(1, 2, Mm, q));
        char path[256];
        ns_test_tmpname(path, sizeof path, ".dat");
        assert_int_equal(ns_problem_write(path, w, NS_FORMAT_AUTO, err), NS_OK);
        ns_problem_free(w);
        assert_int_equal(ns_problem_read(path, NS_KIND_MCP, &p, err), NS_OK);
        remove(path);
    }
    assert_int_equal(p->kind, NS_KIND_MCP);
    assert_true(isinf(p->u.mcp->lb[0]) && p->u.mcp->lb[1] == 0 && p->u.mcp->lb[2] == 0);
    ns_solution *sol = ns_solution_new(p);
    ns_result r;
    assert_int_equal(ns_solve(p, NULL, NULL, sol, &r), NS_CONVERGED);
    {
        const double *z = sol->vec[0];
        double w[3];
        for (int i = 0; i < 3; i++) {
            w[i] = q[i];
            for (int j = 0; j < 3; j++) w[i] += M[i][j] * z[j];
        }
        assert_true(fabs(w[0]) <= 1e-8);
        for (int i = 1; i < 3; i++) assert_true(fabs(fmin(z[i], w[i])) <= 1e-8);
    }
    ns_result_clear(&r);
    ns_solution_free(sol);
    ns_problem_free(p);

    /* bad files name the field */
    static const char BAD[] = "3\n0\n3\n3\n3 3\n2 1 1\n1 2 1\n1 1 2\n-1 -1\n";
    assert_int_equal(ns_problem_read_dat_buffer(BAD, sizeof BAD - 1, "bad.dat", NS_KIND_NCP, &p, err),
                     NS_BAD_INPUT);
    assert_null(p);
    assert_non_null(strstr(err, "q"));
    assert_int_equal(ns_problem_read_dat_buffer(BAD, sizeof BAD - 1, "bad.dat", NS_KIND_MCP, &p, err),
                     NS_BAD_INPUT);
    assert_null(p);
}

/* ---------------------------------------------------------- bad input */
static int failing_F(void *user, ns_int n, const double *z, double *F)
{
    (void)user; (void)z;
    for (int i = 0; i < n; i++) F[i] = 0;
    return 1;
}
static ns_matrix *wrong_J(void *user, ns_int n, const double *z)
{
    (void)user; (void)z;
    return ns_matrix_dense_new(n + 1, n);
}
static int nan_F(void *user, ns_int n, const double *z, double *F)
{
    (void)user; (void)z;
    for (int i = 0; i < n; i++) F[i] = NAN;
    return 0;
}

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
    expect_bad(ns_ncp_validate(NULL, err), err, "no problem");
    expect_bad(ns_mcp_validate(NULL, err), err, "no problem");
    ns_ncp *n = ns_ncp_new(-1, ks_F, NULL, NULL);
    expect_bad(ns_ncp_validate(n, err), err, "negative");
    n->n = 4;
    n->F = NULL;
    expect_bad(ns_ncp_validate(n, err), err, "no callback");
    ns_ncp_free(n);
    assert_null(ns_ncp_new_affine(NULL, NULL));
    ns_matrix *R = ns_matrix_dense_new(2, 3);
    n = ns_ncp_new_affine(R, NULL);
    expect_bad(ns_ncp_validate(n, err), err, "M");
    n->F = ks_F;
    expect_bad(ns_ncp_validate(n, err), err, "both");
    ns_ncp_free(n);

    double lb[2] = { 0, NAN }, ub[2] = { 1, 1 };
    ns_mcp *m = ns_mcp_new(2, ks_F, NULL, NULL, lb, ub);
    expect_bad(ns_mcp_validate(m, err), err, "lb[1] is NaN");
    m->lb[1] = 2;
    expect_bad(ns_mcp_validate(m, err), err, "lb[1] = 2 > ub[1]");
    m->lb[1] = INFINITY;
    m->ub[1] = INFINITY;
    expect_bad(ns_mcp_validate(m, err), err, "lb[1] is +inf");
    m->lb[1] = -INFINITY;
    m->ub[1] = -INFINITY;
    expect_bad(ns_mcp_validate(m, err), err, "ub[1] is -inf");
    free(m->ub);
    m->ub = NULL;
    expect_bad(ns_mcp_validate(m, err), err, "ub");
    ns_mcp_free(m);
    m = ns_mcp_new_mixed(-1, 2, ks_F, NULL, NULL);
    expect_bad(ns_mcp_validate(m, err), err, "negative");
    ns_mcp_free(m);

    /* a failing F, a NaN F, a Jacobian of the wrong size: a clear failure */
    ns_map_fn bad_fs[2] = { failing_F, nan_F };
    for (int k = 0; k < 2; k++) {
        ns_problem *p = ns_problem_from_ncp(ns_ncp_new(2, bad_fs[k], NULL, NULL));
        ns_solution *sol = ns_solution_new(p);
        ns_result r;
        for (size_t s = 0; s < NSOLVERS; s++) {
            ns_status st = ns_solve(p, SOLVERS[s], NULL, sol, &r);
            assert_int_equal(st, NS_FAILED);
            assert_non_null(strstr(r.message, "F cannot be evaluated"));
            assert_true(isinf(r.error));
            ns_result_clear(&r);
        }
        ns_solution_free(sol);
        ns_problem_free(p);
    }
    ns_problem *p = ns_problem_from_ncp(ns_ncp_new(4, ks_F, wrong_J, NULL));
    ns_solution *sol = ns_solution_new(p);
    ns_result r;
    assert_int_equal(ns_solve(p, "newton-fb", NULL, sol, &r), NS_FAILED);
    assert_non_null(strstr(r.message, "Jacobian"));
    ns_result_clear(&r);
    /* no file form for a callback F */
    char path[256];
    ns_test_tmpname(path, sizeof path, ".dat");
    assert_int_equal(ns_problem_write(path, p, NS_FORMAT_AUTO, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "callback"));
    remove(path);
    ns_solution_free(sol);
    ns_problem_free(p);
    /* the solve driver refuses a NULL-F problem before any solver runs */
    p = ns_problem_from_ncp(ns_ncp_new(2, NULL, NULL, NULL));
    sol = ns_solution_new(p);
    assert_int_equal(ns_solve(p, NULL, NULL, sol, &r), NS_BAD_INPUT);
    assert_non_null(strstr(r.message, "ncp: F"));
    ns_result_clear(&r);
    ns_solution_free(sol);
    ns_problem_free(p);
    assert_null(ns_problem_from_ncp(NULL));
    assert_null(ns_problem_from_mcp(NULL));
}

/* The affine NCP of an LCP written back: the LCP layout, read again. */
static void test_write_affine(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN], path[256];
    ns_problem *p = NULL, *q = NULL;
    assert_int_equal(ns_problem_read_dat_buffer(LCP_TEXT, sizeof LCP_TEXT - 1, "t.dat",
                                                NS_KIND_NCP, &p, err), NS_OK);
    ns_test_tmpname(path, sizeof path, ".dat");
    assert_int_equal(ns_problem_write(path, p, NS_FORMAT_AUTO, err), NS_OK);
    assert_int_equal(ns_problem_read(path, NS_KIND_NCP, &q, err), NS_OK);
    assert_true(ns_matrix_identical(p->u.ncp->M, q->u.ncp->M));
    for (int i = 0; i < 3; i++) assert_true(p->u.ncp->q[i] == q->u.ncp->q[i]);
    remove(path);
    ns_problem_free(p);
    ns_problem_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kojima_shindo),
        cmocka_unit_test(test_nash_cournot),
        cmocka_unit_test(test_mcp),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_write_affine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
