/* test_reshape.c — in-place reshaping of a BLOCK matrix, an FC problem and
 * its solution (ns_matrix_block_reshape, ns_fc_reshape,
 * ns_solution_reshape): the reshaped objects equal freshly built ones
 * (structure, value offsets, diagonal index, zeroed values and vectors),
 * a shrink keeps the arrays, a bad structure is refused with the matrix
 * unchanged, and a problem reshaped and refilled solves to the same
 * multipliers as a new one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "nonsmooth/ns_matrix.h"
#include "nonsmooth/ns_fc.h"
#include "nonsmooth/ns_problem.h"
#include "nonsmooth/ns_solver.h"

/* A chain of nc 3×3 contacts: block row a has (a−1, a, a+1). */
static void chain(int nc, ns_int *rs, ns_int *rp, ns_int *bc)
{
    int nb = 0;
    rp[0] = 0;
    for (int a = 0; a <= nc; a++) rs[a] = 3 * a;
    for (int a = 0; a < nc; a++) {
        for (int b = a - 1; b <= a + 1; b++) if (b >= 0 && b < nc) bc[nb++] = b;
        rp[a + 1] = nb;
    }
}

static void fill(ns_matrix *W, int nc)
{
    const ns_block *B = &W->block;
    for (int a = 0; a < nc; a++)
        for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
            double *x = B->x + B->value_ptr[k];
            int b = B->block_col[k];
            for (int i = 0; i < 9; i++) x[i] = a == b ? (i % 4 == 0 ? 4.0 : 0.0) : (i % 4 == 0 ? -1.0 : 0.0);
        }
}

static void same_structure(const ns_matrix *A, const ns_matrix *B)
{
    const ns_block *a = &A->block, *b = &B->block;
    assert_int_equal(A->rows, B->rows);
    assert_int_equal(A->cols, B->cols);
    assert_int_equal(a->block_rows, b->block_rows);
    assert_int_equal(a->nblocks, b->nblocks);
    assert_memory_equal(a->row_start, b->row_start, ((size_t)a->block_rows + 1) * sizeof(ns_int));
    assert_memory_equal(a->row_ptr, b->row_ptr, ((size_t)a->block_rows + 1) * sizeof(ns_int));
    assert_memory_equal(a->block_col, b->block_col, (size_t)a->nblocks * sizeof(ns_int));
    assert_memory_equal(a->value_ptr, b->value_ptr, ((size_t)a->nblocks + 1) * sizeof(ns_int));
    assert_memory_equal(a->diag, b->diag, (size_t)a->block_rows * sizeof(ns_int));
    for (ns_int t = 0; t < b->value_ptr[b->nblocks]; t++) assert_true(a->x[t] == 0.0);
}

static void test_block_reshape(void **state)
{
    (void)state;
    ns_int rs[41], rp[41], bc[120];
    char err[NS_ERRMSG_LEN] = "";
    chain(10, rs, rp, bc);
    ns_matrix *A = ns_matrix_block_new(10, 10, rs, rs, rp, bc, err);
    assert_non_null(A);
    fill(A, 10);
    for (int nc = 25; nc >= 1; nc -= 8) {   /* grow, then shrink */
        chain(nc, rs, rp, bc);
        assert_int_equal(ns_matrix_block_reshape(A, nc, nc, rs, rs, rp, bc, err), NS_OK);
        ns_matrix *B = ns_matrix_block_new(nc, nc, rs, rs, rp, bc, err);
        assert_non_null(B);
        same_structure(A, B);
        ns_matrix_free(B);
        fill(A, nc);
    }
    double *x = A->block.x;   /* shrinking again keeps the arrays */
    chain(1, rs, rp, bc);
    assert_int_equal(ns_matrix_block_reshape(A, 1, 1, rs, rs, rp, bc, err), NS_OK);
    assert_ptr_equal(A->block.x, x);
    /* a bad structure (block columns not increasing) is refused, A unchanged */
    chain(4, rs, rp, bc);
    ns_int t = bc[1]; bc[1] = bc[0]; bc[0] = t;
    err[0] = 0;
    assert_int_equal(ns_matrix_block_reshape(A, 4, 4, rs, rs, rp, bc, err), NS_BAD_INPUT);
    assert_true(strstr(err, "increasing") != NULL);
    assert_int_equal(A->block.block_rows, 1);
    assert_int_equal(A->rows, 3);
    assert_int_equal(ns_matrix_block_reshape(NULL, 1, 1, rs, rs, rp, bc, err), NS_BAD_INPUT);
    ns_matrix *D = ns_matrix_dense_new(3, 3);
    assert_int_equal(ns_matrix_block_reshape(D, 1, 1, rs, rs, rp, bc, err), NS_BAD_INPUT);
    ns_matrix_free(D);
    /* a copy of a reshaped matrix is exact again */
    chain(2, rs, rp, bc);
    assert_int_equal(ns_matrix_block_reshape(A, 2, 2, rs, rs, rp, bc, err), NS_OK);
    ns_matrix *C = ns_matrix_copy(A);
    assert_non_null(C);
    assert_int_equal(C->block.cap_values, 0);
    same_structure(C, A);
    ns_matrix_free(C);
    ns_matrix_free(A);
}

/* The same problem (chain of nc contacts pressed down: q_N = −1) built
 * new, and reshaped from another size: same solution. */
static void test_fc_reshape_solves_alike(void **state)
{
    (void)state;
    ns_int rs[41], rp[41], bc[120];
    double q[120], mu[40];
    char err[NS_ERRMSG_LEN] = "";
    chain(7, rs, rp, bc);
    ns_matrix *W0 = ns_matrix_block_new(7, 7, rs, rs, rp, bc, err);
    fill(W0, 7);
    for (int i = 0; i < 21; i++) q[i] = i % 3 == 0 ? -1.0 : 0.1;
    for (int a = 0; a < 7; a++) mu[a] = 0.3;
    ns_problem *P = ns_problem_from_fc(ns_fc_new(3, 7, W0, q, mu));
    assert_non_null(P);
    ns_solution *S = ns_solution_new(P);
    for (int nc = 30; nc >= 12; nc -= 18) {
        chain(nc, rs, rp, bc);
        for (int i = 0; i < 3 * nc; i++) q[i] = i % 3 == 0 ? -1.0 - 0.01 * i : 0.1;
        for (int a = 0; a < nc; a++) mu[a] = 0.2 + 0.01 * a;
        ns_fc *fc = P->u.fc;
        assert_int_equal(ns_matrix_block_reshape(fc->W, nc, nc, rs, rs, rp, bc, err), NS_OK);
        assert_int_equal(ns_fc_reshape(fc, nc), NS_OK);
        assert_int_equal(ns_solution_reshape(S, P), NS_OK);
        assert_int_equal(S->len[0], 3 * nc);
        for (int i = 0; i < 3 * nc; i++) assert_true(S->vec[0][i] == 0.0 && S->vec[1][i] == 0.0);
        fill(fc->W, nc);
        memcpy(fc->q, q, (size_t)(3 * nc) * sizeof *q);
        memcpy(fc->mu, mu, (size_t)nc * sizeof *mu);
        ns_matrix *W = ns_matrix_block_new(nc, nc, rs, rs, rp, bc, err);
        fill(W, nc);
        ns_problem *Q = ns_problem_from_fc(ns_fc_new(3, nc, W, q, mu));
        ns_solution *T = ns_solution_new(Q);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-12;
        ns_result r1, r2;
        ns_result_init(&r1); ns_result_init(&r2);
        assert_int_equal(ns_solve(P, "nsgs-ac", &o, S, &r1), NS_OK);
        assert_int_equal(ns_solve(Q, "nsgs-ac", &o, T, &r2), NS_OK);
        assert_int_equal(r1.iterations, r2.iterations);
        assert_memory_equal(S->vec[0], T->vec[0], (size_t)(3 * nc) * sizeof(double));
        ns_result_clear(&r1); ns_result_clear(&r2);
        ns_solution_free(T);
        ns_problem_free(Q);
    }
    assert_int_equal(ns_fc_reshape(P->u.fc, -1), NS_BAD_INPUT);
    assert_int_equal(ns_fc_reshape(NULL, 1), NS_BAD_INPUT);
    assert_int_equal(ns_solution_reshape(NULL, P), NS_BAD_INPUT);
    ns_solution_free(S);
    ns_problem_free(P);
}

int main(void)
{
    const struct CMUnitTest all[] = {
        cmocka_unit_test(test_block_reshape),
        cmocka_unit_test(test_fc_reshape_solves_alike),
    };
    return cmocka_run_group_tests(all, NULL, NULL);
}
