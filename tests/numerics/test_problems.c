/* test_problems.c — problem constructors and validation: every class of
 * nonsense is rejected with a message naming the field. */
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
    if (colmajor) memcpy(A->dense, colmajor, sizeof(double) * (size_t)(r * c));
    return A;
}

static ns_matrix *eye(ns_int n)
{
    ns_matrix *A = dense(n, n, NULL);
    for (ns_int i = 0; i < n; i++) A->dense[i + i * n] = 1.0;
    return A;
}

/* Asserts st is NS_BAD_INPUT and err mentions every given word. */
static void expect_bad(ns_status st, const char *err, const char *word)
{
    assert_int_equal(st, NS_BAD_INPUT);
    if (!strstr(err, word)) fail_msg("message '%s' does not name '%s'", err, word);
}

static void test_lcp_valid_and_sizes(void **state)
{
    (void)state;
    double q[3] = { -1, 2, 3 };
    ns_lcp *p = ns_lcp_new(eye(3), q);
    char err[NS_ERRMSG_LEN] = "";
    assert_non_null(p);
    assert_int_equal(p->n, 3);
    assert_int_equal(ns_lcp_validate(p, err), NS_OK);
    assert_true(p->q[0] == -1 && p->q[2] == 3);
    ns_problem *P = ns_problem_from_lcp(p);
    assert_int_equal(P->kind, NS_KIND_LCP);
    assert_int_equal(ns_problem_size(P), 3);
    ns_solution *s = ns_solution_new(P);
    assert_int_equal(s->nvec, 2);
    assert_string_equal(s->name[0], "z");
    assert_int_equal(s->len[1], 3);
    ns_solution_free(s);
    ns_problem_free(P);
}

static void test_lcp_nonsquare_and_nan(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN] = "";
    ns_lcp *p = ns_lcp_new(dense(2, 3, NULL), NULL);
    expect_bad(ns_lcp_validate(p, err), err, "not square");
    ns_lcp_free(p);

    double q[2] = { 1, NAN };
    p = ns_lcp_new(eye(2), q);
    expect_bad(ns_lcp_validate(p, err), err, "q[1]");
    ns_lcp_free(p);

    ns_matrix *M = eye(2);
    M->dense[1] = INFINITY;
    p = ns_lcp_new(M, NULL);
    expect_bad(ns_lcp_validate(p, err), err, "M");
    ns_lcp_free(p);
}

static void test_relay_bounds(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN] = "";
    double lb[2] = { -1, 2 }, ub[2] = { 1, 1 };
    ns_relay *p = ns_relay_new(eye(2), NULL, lb, ub);
    expect_bad(ns_relay_validate(p, err), err, "lb[1]");
    p->ub[1] = 3;
    assert_int_equal(ns_relay_validate(p, err), NS_OK);
    p->lb[0] = NAN;
    expect_bad(ns_relay_validate(p, err), err, "lb[0]");
    ns_relay_free(p);
}

static void test_fc_mu_and_sizes(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN] = "";
    double mu[2] = { 0.3, -0.1 };
    ns_fc *p = ns_fc_new(3, 2, eye(6), NULL, mu);
    expect_bad(ns_fc_validate(p, err), err, "mu[1]");
    p->mu[1] = NAN;
    expect_bad(ns_fc_validate(p, err), err, "mu[1]");
    p->mu[1] = 0.0;
    assert_int_equal(ns_fc_validate(p, err), NS_OK);
    p->dim = 4;
    expect_bad(ns_fc_validate(p, err), err, "dim");
    ns_fc_free(p);

    /* contact count disagrees with W's order */
    p = ns_fc_new(3, 3, eye(6), NULL, NULL);
    expect_bad(ns_fc_validate(p, err), err, "W");
    ns_fc_free(p);

    ns_problem *P = ns_problem_from_fc(ns_fc_new(2, 3, eye(6), NULL, NULL));
    assert_int_equal(P->kind, NS_KIND_FC2D);
    assert_int_equal(ns_problem_validate(P, err), NS_OK);
    ns_problem_free(P);
}

static void test_gfc_sizes(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN] = "";
    double mu[1] = { 0.5 };
    /* H with the wrong number of rows */
    ns_gfc *p = ns_gfc_new(3, 1, eye(6), dense(5, 3, NULL), NULL, NULL, mu);
    expect_bad(ns_gfc_validate(p, err), err, "H");
    ns_gfc_free(p);
    /* H with the wrong number of columns for one 3D contact */
    p = ns_gfc_new(3, 1, eye(6), dense(6, 2, NULL), NULL, NULL, mu);
    expect_bad(ns_gfc_validate(p, err), err, "H");
    ns_gfc_free(p);
    p = ns_gfc_new(3, 1, eye(6), dense(6, 3, NULL), NULL, NULL, mu);
    assert_int_equal(ns_gfc_validate(p, err), NS_OK);
    ns_gfc_free(p);
    /* no contact at all is a valid problem (gfc2d file with H 900 x 0) */
    p = ns_gfc_new(2, 0, eye(4), dense(4, 0, NULL), NULL, NULL, NULL);
    assert_int_equal(ns_gfc_validate(p, err), NS_OK);
    ns_gfc_free(p);
}

static void test_mlcp_forms(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN] = "";
    /* the example of formats.md §3.4: n = 1, m = 2 */
    double A[1] = { 2 }, B[4] = { 3, 0, 1, 4 } /* col-major [[3,1],[0,4]] */;
    double C[2] = { -1, 5 } /* 1x2 */, D[2] = { 1, 0 } /* 2x1 */;
    double a[1] = { 1 }, b[2] = { -1, -2 };
    ns_mlcp *p = ns_mlcp_new_abcd(dense(1, 1, A), dense(2, 2, B), dense(1, 2, C),
                                  dense(2, 1, D), a, b);
    assert_non_null(p);
    assert_int_equal(ns_mlcp_validate(p, err), NS_OK);
    /* M = [[2, −1, 5], [1, 3, 1], [0, 0, 4]] as stated by formats.md */
    const double Mrow[3][3] = { { 2, -1, 5 }, { 1, 3, 1 }, { 0, 0, 4 } };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            assert_true(ns_matrix_get(p->M, i, j) == Mrow[i][j]);
    assert_true(p->q[0] == 1 && p->q[1] == -1 && p->q[2] == -2);
    ns_mlcp_free(p);

    /* rectangular M is reported as such */
    p = ns_mlcp_new(1, 1, dense(3, 2, NULL), NULL);
    expect_bad(ns_mlcp_validate(p, err), err, "rectangular");
    ns_mlcp_free(p);

    /* blocks that disagree with n + m */
    p = ns_mlcp_new(1, 2, eye(3), NULL);
    p->block_start[2] = 2;
    expect_bad(ns_mlcp_validate(p, err), err, "blocks");
    ns_mlcp_free(p);
}

static void test_gmp_types(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN] = "";
    ns_int rs[3] = { 0, 1, 4 }, rp[3] = { 0, 1, 2 }, bc[2] = { 0, 1 };
    ns_matrix *M = ns_matrix_block_new(2, 2, rs, rs, rp, bc, err);
    assert_non_null(M);
    for (size_t k = 0; k < ns_matrix_nvalues(M); k++) M->block.x[k] = 0;
    M->block.x[0] = 1;                               /* 1×1 block */
    for (int i = 0; i < 3; i++) M->block.x[1 + 4 * i] = 1;  /* 3×3 identity */
    int type[2] = { NS_GMP_EQUALITY, NS_GMP_FC3D };
    double mu[2] = { NAN, 0.5 };
    ns_gmp *p = ns_gmp_new(M, NULL, type, mu);
    assert_non_null(p);
    assert_int_equal(ns_gmp_validate(p, err), NS_OK);
    assert_int_equal(ns_gmp_count(p, NS_GMP_FC3D), 1);
    p->mu[1] = -1;
    expect_bad(ns_gmp_validate(p, err), err, "mu");
    p->mu[1] = 0.5;
    p->type[0] = 7;
    expect_bad(ns_gmp_validate(p, err), err, "type 7");
    p->type[0] = NS_GMP_FC3D; /* size-1 block cannot be a 3D contact */
    p->mu[0] = 0.1;
    expect_bad(ns_gmp_validate(p, err), err, "size 1");
    ns_gmp_free(p);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(ns_status_name(NS_CONVERGED), "converged");
    assert_string_equal(ns_status_name(NS_TIME_LIMIT), "time_limit");
    assert_int_equal(ns_kind_from_name("gfc3d"), NS_KIND_GFC3D);
    assert_int_equal(ns_kind_from_name("nope"), NS_KIND_NONE);
    for (int k = 1; k < NS_KIND_COUNT; k++)
        assert_int_equal(ns_kind_from_name(ns_kind_name((ns_kind)k)), k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lcp_valid_and_sizes),
        cmocka_unit_test(test_lcp_nonsquare_and_nan),
        cmocka_unit_test(test_relay_bounds),
        cmocka_unit_test(test_fc_mu_and_sizes),
        cmocka_unit_test(test_gfc_sizes),
        cmocka_unit_test(test_mlcp_forms),
        cmocka_unit_test(test_gmp_types),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
