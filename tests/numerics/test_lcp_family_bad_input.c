/* test_lcp_family_bad_input.c — a singular equality
 * block, an MLCP whose blocks disagree, an LCP with a zero diagonal given to
 * pgs, a singular linear system: each gets a clear status and message. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"

static ns_matrix *dense(ns_int r, ns_int c, const double *colmajor)
{
    ns_matrix *A = ns_matrix_dense_new(r, c);
    assert_non_null(A);
    memcpy(A->dense, colmajor, sizeof(double) * (size_t)(r * c));
    return A;
}

static ns_status solve(ns_problem *p, const char *solver, ns_result *r)
{
    ns_solution *s = ns_solution_new(p);
    assert_non_null(s);
    ns_options o;
    ns_options_default(&o);
    ns_status st = ns_solve(p, solver, &o, s, r);
    for (int k = 0; k < s->nvec; k++)
        for (ns_int i = 0; i < s->len[k]; i++)
            assert_false(isnan(s->vec[k][i]));   /* nothing NaN leaks out */
    ns_solution_free(s);
    return st;
}

/* MLCP with n = 2 equality rows whose block A = [[1, 1], [1, 1]] is
 * singular, and the coupling C = 0: A u + a = 0 has no solution for
 * a = (1, −1), and the equality block cannot be eliminated. */
static void test_mlcp_singular_equality_block(void **state)
{
    (void)state;
    const double A[4] = { 1, 1, 1, 1 }, B[1] = { 2 }, C[2] = { 0, 0 }, D[2] = { 0, 0 };
    const double a[2] = { 1, -1 }, b[1] = { -1 };
    ns_problem *p = ns_problem_from_mlcp(ns_mlcp_new_abcd(dense(2, 2, A), dense(1, 1, B),
                                                          dense(2, 1, C), dense(1, 2, D), a, b));
    assert_non_null(p);
    ns_result r;
    ns_status st = solve(p, "lemke", &r);
    assert_int_equal(st, NS_SINGULAR);
    assert_true(strlen(r.message) > 0);
    /* the default chain must not report success either */
    ns_result_clear(&r);
    st = solve(p, NULL, &r);
    assert_int_not_equal(st, NS_CONVERGED);
    /* A u + a = 0 is inconsistent (u1 + u2 = -1 and = 1): no_solution, with
     * the certificate ns_solve checked */
    if (st == NS_NO_SOLUTION) assert_int_equal(r.cert.checked, 1);
    ns_result_clear(&r);
    ns_problem_free(p);
}

static void test_mlcp_blocks_disagree(void **state)
{
    (void)state;
    const double M[9] = { 2, 0, 0, 0, 2, 0, 0, 0, 2 };
    ns_mlcp *m = ns_mlcp_new(1, 2, dense(3, 3, M), NULL);
    m->m = 3;   /* sizes now disagree with M (3 ≠ 1 + 3) */
    ns_problem *p = ns_problem_from_mlcp(m);
    ns_result r;
    assert_int_equal(solve(p, NULL, &r), NS_BAD_INPUT);
    assert_non_null(strstr(r.message, "M"));
    ns_problem_free(p);
}

static void test_lcp_zero_diagonal_pgs(void **state)
{
    (void)state;
    const double M[4] = { 0, 1, 1, 3 };   /* M_00 = 0 */
    const double q[2] = { 1, -2 };   /* solution z = (0, 2/3), w = (5/3, 0) */
    ns_problem *p = ns_problem_from_lcp(ns_lcp_new(dense(2, 2, M), q));
    ns_result r;
    assert_int_equal(solve(p, "pgs", &r), NS_UNSUPPORTED);
    assert_non_null(strstr(r.message, "diagonal"));
    /* lemke does not need a positive diagonal */
    ns_solution *s = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    assert_int_equal(ns_solve(p, "lemke", &o, s, &r), NS_CONVERGED);
    assert_true(fabs(s->vec[0][0]) < 1e-14 && fabs(s->vec[0][1] - 2.0 / 3) < 1e-14);
    ns_solution_free(s);
    ns_problem_free(p);
}

static void test_equality_singular(void **state)
{
    (void)state;
    const double M[4] = { 1, 2, 2, 4 };   /* rank 1 */
    const double q[2] = { 1, 1 };
    ns_problem *p = ns_problem_from_equality(ns_equality_new(dense(2, 2, M), q));
    ns_result r;
    assert_int_equal(solve(p, "direct", &r), NS_SINGULAR);
    assert_non_null(strstr(r.message, "singular"));
    ns_problem_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mlcp_singular_equality_block),
        cmocka_unit_test(test_mlcp_blocks_disagree),
        cmocka_unit_test(test_lcp_zero_diagonal_pgs),
        cmocka_unit_test(test_equality_singular),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
