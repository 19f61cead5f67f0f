/* test_collection_matrix.c — the real matrices of ../shared/data/matrix
 * (formats.md §2.5) read with ns_matrix_read, then:
 *   - size and count of non-zero entries as MANIFEST.tsv states them;
 *   - every storage (dense when small enough, canonical CSC, uniform 3×3
 *     blocks, an irregular block cut, the transpose twice) holds exactly the
 *     entries of the file;
 *   - y = αAx + βy and Aᵀ in every storage against a plain loop over the
 *     CSC arrays written here;
 *   - every square matrix factored with every applicable method, solutions
 *     checked by their residual (computed here). Cholesky must succeed
 *     exactly when this file's own unpivoted Cholesky loop finds the matrix
 *     positive definite, and otherwise report NS_SINGULAR.
 * Skips (exit 77) when the collection is absent. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

enum { DENSE_LIMIT = 4000 };   /* larger matrices are not densified */

typedef struct entry {
    const char *rel;            /* path under the data root */
    int nonsymmetric;           /* MANIFEST notes max|A−Aᵀ|/max|A| ≈ 1 */
} entry;

static const entry entries[] = {
    { "matrix/W_102x102.dat", 0 },
    { "matrix/NSM_csc_162x162.dat", 0 },
    { "matrix/NSM_triplet_162x162.dat", 0 },
    { "matrix/SBM1.dat", 0 },
    { "matrix/SBM2.dat", 0 },
    { "matrix/M_3Drigidbodies.dat", 0 },
    { "matrix/J_IPM_LU.dat", 1 },
};

/* rows, cols and nnz of rel from MANIFEST.tsv ("RxC" or "n=N", "nnz=K"). */
static int manifest(const char *rel, long *rows, long *cols, long *nnz)
{
    char path[4096], line[8192];
    FILE *f = fopen(ns_test_data_path(path, sizeof path, "MANIFEST.tsv"), "r");
    if (!f) return 0;
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        char *tab = strchr(line, '\t');
        if (!tab || (size_t)(tab - line) != strlen(rel) || strncmp(line, rel, strlen(rel))) continue;
        char *fields[5] = { 0 };
        char *s = line;
        for (int k = 0; k < 5 && s; k++) {
            fields[k] = s;
            s = strchr(s, '\t');
            if (s) *s++ = '\0';
        }
        if (!fields[4]) break;
        found = sscanf(fields[2], "%ldx%ld", rows, cols) == 2 && sscanf(fields[4], "nnz=%ld", nnz) == 1;
        break;
    }
    fclose(f);
    return found;
}

/* Canonical CSC reference: sorted, duplicates summed (the library's
 * to_sparse; its correctness is the business of test_matrix). */
static ns_matrix *reference_csc(const ns_matrix *A)
{
    ns_matrix *S = ns_matrix_to_sparse(A);
    assert_non_null(S);
    for (ns_int j = 0; j < S->cols; j++)
        for (ns_int k = S->csc.p[j] + 1; k < S->csc.p[j + 1]; k++)
            assert_true(S->csc.i[k] > S->csc.i[k - 1]);
    return S;
}

/* Random cut of 0..len into pieces of 1..7. */
static ns_int *irregular_cut(ns_rng *r, ns_int len, ns_int *count)
{
    ns_int *s = malloc(sizeof(ns_int) * ((size_t)len + 1)), k = 0;
    s[0] = 0;
    while (s[k] < len) {
        ns_int step = 1 + (ns_int)(ns_rng_uniform(r) * 7);
        s[k + 1] = s[k] + step < len ? s[k] + step : len;
        k++;
    }
    *count = k;
    return s;
}

/* Products in every storage against loops over the reference CSC S. */
static void check_products(const ns_matrix *X, const ns_matrix *S, const char *what)
{
    ns_int m = S->rows, n = S->cols;
    ns_rng r;
    ns_rng_seed(&r, 5);
    double *x = malloc(sizeof(double) * ((size_t)n + 1)), *xt = malloc(sizeof(double) * ((size_t)m + 1));
    double *y = malloc(sizeof(double) * ((size_t)m + 1)), *yt = malloc(sizeof(double) * ((size_t)n + 1));
    double *ref = calloc((size_t)m + 1, sizeof(double)), *bnd = calloc((size_t)m + 1, sizeof(double));
    double *reft = calloc((size_t)n + 1, sizeof(double)), *bndt = calloc((size_t)n + 1, sizeof(double));
    const double alpha = 1.3, beta = -0.7;
    for (ns_int j = 0; j < n; j++) { x[j] = ns_rng_range(&r, -1, 1); yt[j] = ns_rng_range(&r, -1, 1); }
    for (ns_int i = 0; i < m; i++) { xt[i] = ns_rng_range(&r, -1, 1); y[i] = ns_rng_range(&r, -1, 1); }
    for (ns_int i = 0; i < m; i++) { ref[i] = beta * y[i]; bnd[i] = fabs(beta * y[i]); }
    for (ns_int j = 0; j < n; j++) { reft[j] = beta * yt[j]; bndt[j] = fabs(beta * yt[j]); }
    for (ns_int j = 0; j < n; j++)
        for (ns_int k = S->csc.p[j]; k < S->csc.p[j + 1]; k++) {
            ns_int i = S->csc.i[k];
            double a = S->csc.x[k];
            ref[i] += alpha * a * x[j];
            bnd[i] += fabs(alpha * a * x[j]);
            reft[j] += alpha * a * xt[i];
            bndt[j] += fabs(alpha * a * xt[i]);
        }
    ns_matrix_gemv(alpha, X, x, beta, y);
    ns_matrix_gemv_t(alpha, X, xt, beta, yt);
    for (ns_int i = 0; i < m; i++)
        if (!(fabs(y[i] - ref[i]) <= 1e-13 * (bnd[i] + 1e-300)))
            fail_msg("%s gemv: y[%d] = %.17g, expected %.17g", what, i, y[i], ref[i]);
    for (ns_int j = 0; j < n; j++)
        if (!(fabs(yt[j] - reft[j]) <= 1e-13 * (bndt[j] + 1e-300)))
            fail_msg("%s gemv_t: y[%d] = %.17g, expected %.17g", what, j, yt[j], reft[j]);
    free(x); free(xt); free(y); free(yt); free(ref); free(bnd); free(reft); free(bndt);
}

/* X must hold exactly the entries of S and pass validation. */
static void check_same(const ns_matrix *X, const ns_matrix *S, const char *what)
{
    char err[NS_ERRMSG_LEN] = "";
    assert_non_null(X);
    if (ns_matrix_validate(X, what, err)) fail_msg("%s", err);
    double d = ns_matrix_max_abs_diff(X, S);
    if (d != 0.0) fail_msg("%s: max |X − A| = %g", what, d);
    check_products(X, S, what);
}

/* Unpivoted Cholesky by plain loops on a dense copy: 1 iff every pivot > 0. */
static int own_cholesky_pd(const ns_matrix *S)
{
    ns_int n = S->rows;
    if (n > DENSE_LIMIT) {                         /* only diagonal matrices that large */
        for (ns_int j = 0; j < n; j++) {
            assert_int_equal(S->csc.p[j + 1] - S->csc.p[j], 1);
            assert_int_equal(S->csc.i[S->csc.p[j]], j);
            if (!(S->csc.x[S->csc.p[j]] > 0)) return 0;
        }
        return 1;
    }
    double *L = calloc((size_t)n * (size_t)n + 1, sizeof(double));
    for (ns_int j = 0; j < n; j++)
        for (ns_int k = S->csc.p[j]; k < S->csc.p[j + 1]; k++) L[S->csc.i[k] + (size_t)j * n] = S->csc.x[k];
    int pd = 1;
    for (ns_int k = 0; k < n && pd; k++) {
        double d = L[k + (size_t)k * n];
        for (ns_int p = 0; p < k; p++) d -= L[k + (size_t)p * n] * L[k + (size_t)p * n];
        if (!(d > 0)) { pd = 0; break; }
        d = sqrt(d);
        L[k + (size_t)k * n] = d;
        for (ns_int i = k + 1; i < n; i++) {
            double s = L[i + (size_t)k * n];
            for (ns_int p = 0; p < k; p++) s -= L[i + (size_t)p * n] * L[k + (size_t)p * n];
            L[i + (size_t)k * n] = s / d;
        }
    }
    free(L);
    return pd;
}

/* Factor X with m, solve 3 right-hand sides (ldb = n + 2), check residuals
 * ‖S x − b‖ ≤ 1e-11 (‖S‖_F ‖x‖ + ‖b‖) with loops over S. */
static void factor_and_check(const ns_matrix *X, const ns_matrix *S, ns_factor_method m,
                             int expect_ok, const char *what)
{
    char err[NS_ERRMSG_LEN] = "";
    ns_factor *F = NULL;
    ns_status st = ns_factor_new(X, m, &F, err);
    if (!expect_ok) {
        if (st != NS_SINGULAR)
            fail_msg("%s %s: expected NS_SINGULAR, got %s", what, ns_factor_method_name(m), ns_status_name(st));
        assert_non_null(strstr(err, "not positive definite"));
        return;
    }
    if (st) fail_msg("%s %s: %s (%s)", what, ns_factor_method_name(m), ns_status_name(st), err);
    ns_int n = S->rows, ldb = n + 2, nrhs = 3;
    double *B = malloc(sizeof(double) * (size_t)ldb * nrhs), *B0 = malloc(sizeof(double) * (size_t)ldb * nrhs);
    double *r = malloc(sizeof(double) * (size_t)n);
    ns_rng rng;
    ns_rng_seed(&rng, 9);
    for (size_t k = 0; k < (size_t)ldb * nrhs; k++) B[k] = B0[k] = ns_rng_range(&rng, -1, 1);
    assert_int_equal(ns_factor_solve(F, B, nrhs, ldb), NS_OK);
    double nA = ns_matrix_norm_fro(S);
    for (ns_int c = 0; c < nrhs; c++) {
        const double *x = B + (size_t)c * ldb, *b = B0 + (size_t)c * ldb;
        for (ns_int i = 0; i < n; i++) r[i] = -b[i];
        for (ns_int j = 0; j < n; j++)
            for (ns_int k = S->csc.p[j]; k < S->csc.p[j + 1]; k++) r[S->csc.i[k]] += S->csc.x[k] * x[j];
        double nr = 0, nx = 0, nb = 0;
        for (ns_int i = 0; i < n; i++) { nr += r[i] * r[i]; nx += x[i] * x[i]; nb += b[i] * b[i]; }
        double rel = sqrt(nr) / (nA * sqrt(nx) + sqrt(nb));
        if (!(rel <= 1e-11)) fail_msg("%s %s: relative residual %.3g", what, ns_factor_method_name(m), rel);
        for (ns_int i = n; i < ldb; i++) assert_true(B[i + (size_t)c * ldb] == B0[i + (size_t)c * ldb]);
    }
    /* numeric phase again with the same values: same object, same answers */
    assert_int_equal(ns_factor_numeric(F, X, err), NS_OK);
    free(B); free(B0); free(r);
    ns_factor_free(F);
}

static void test_one_file(void **state)
{
    const entry *e = *state;
    char path[4096], err[NS_ERRMSG_LEN] = "";
    ns_matrix *A = NULL;
    ns_status st = ns_matrix_read(ns_test_data_path(path, sizeof path, e->rel), &A, err);
    if (st) fail_msg("%s: %s (%s)", e->rel, ns_status_name(st), err);
    if (ns_matrix_validate(A, e->rel, err)) fail_msg("%s", err);

    long rows = -1, cols = -1, nnz = -1;
    if (!manifest(e->rel, &rows, &cols, &nnz)) fail_msg("%s: not in MANIFEST.tsv", e->rel);
    assert_int_equal(A->rows, rows);
    assert_int_equal(A->cols, cols);
    ns_matrix *S = reference_csc(A);
    long nonzero = 0;
    for (ns_int k = 0; k < S->csc.nnz; k++) nonzero += S->csc.x[k] != 0.0;
    assert_int_equal(nonzero, nnz);

    /* every storage holds the file's entries */
    check_same(A, S, "as read");
    check_same(S, S, "csc");
    ns_matrix *D = NULL;
    if (A->rows <= DENSE_LIMIT && A->cols <= DENSE_LIMIT) {
        D = ns_matrix_to_dense(A);
        check_same(D, S, "dense");
        ns_matrix *DS = ns_matrix_to_sparse(D);
        check_same(DS, S, "dense→csc");
        ns_matrix_free(DS);
    }
    ns_matrix *U = ns_matrix_to_block_uniform(A, 3);
    check_same(U, S, "3×3 blocks");
    ns_rng r;
    ns_rng_seed(&r, 17);
    ns_int nbr, nbc;
    ns_int *rs = irregular_cut(&r, A->rows, &nbr), *cs = irregular_cut(&r, A->cols, &nbc);
    ns_matrix *I = ns_matrix_to_block(U, nbr, rs, nbc, cs);
    check_same(I, S, "irregular blocks");
    ns_matrix *IS = ns_matrix_to_sparse(I);
    check_same(IS, S, "irregular blocks→csc");
    if (A->storage == NS_BLOCK) {             /* re-cut along its own boundaries: same matrix */
        ns_matrix *R = ns_matrix_to_block(S, A->block.block_rows, A->block.row_start,
                                          A->block.block_cols, A->block.col_start);
        check_same(R, S, "own cut");
        ns_matrix_free(R);
    }
    const ns_matrix *X[4] = { A, S, U, I };
    for (int k = 0; k < 4; k++) {
        ns_matrix *T = ns_matrix_transpose(X[k]), *TT = ns_matrix_transpose(T);
        assert_int_equal(T->rows, A->cols);
        for (ns_int j = 0; j < A->cols && j < 40; j++)        /* spot check Tᵀ entries */
            for (ns_int i = 0; i < A->rows && i < 40; i++)
                assert_true(ns_matrix_get(T, j, i) == ns_matrix_get(S, i, j));
        check_same(TT, S, "transpose twice");
        ns_matrix_free(T); ns_matrix_free(TT);
    }

    /* symmetry as MANIFEST describes it */
    if (e->nonsymmetric) assert_false(ns_matrix_is_symmetric(A, 0.5));
    else assert_true(ns_matrix_is_symmetric(A, 1e-12));

    /* factorizations */
    if (A->rows == A->cols) {
        int pd = !e->nonsymmetric && own_cholesky_pd(S);
        factor_and_check(A, S, NS_FACTOR_SPARSE_LU, 1, e->rel);
        factor_and_check(U, S, NS_FACTOR_SPARSE_LU, 1, e->rel);
        factor_and_check(A, S, NS_FACTOR_AUTO, 1, e->rel);
        factor_and_check(U, S, NS_FACTOR_AUTO, 1, e->rel);
        if (!e->nonsymmetric) {
            factor_and_check(A, S, NS_FACTOR_SPARSE_CHOL, pd, e->rel);
            factor_and_check(I, S, NS_FACTOR_SPARSE_CHOL, pd, e->rel);
        }
        if (D) {
            factor_and_check(D, S, NS_FACTOR_DENSE_LU, 1, e->rel);
            if (!e->nonsymmetric) factor_and_check(D, S, NS_FACTOR_DENSE_CHOL, pd, e->rel);
        }
    }
    free(rs); free(cs);
    ns_matrix_free(A); ns_matrix_free(S); ns_matrix_free(D);
    ns_matrix_free(U); ns_matrix_free(I); ns_matrix_free(IS);
}

int main(void)
{
    if (!ns_test_data_dir()) {
        printf("test_collection_matrix: no collection at %s, skipped\n", NS_SHARED_DATA);
        return 77;
    }
    struct CMUnitTest tests[sizeof entries / sizeof entries[0]];
    for (size_t k = 0; k < sizeof entries / sizeof entries[0]; k++) {
        struct CMUnitTest t = cmocka_unit_test_prestate(test_one_file, (void *)&entries[k]);
        t.name = entries[k].rel;
        tests[k] = t;
    }
    return _cmocka_run_group_tests("collection_matrix", tests, sizeof entries / sizeof entries[0], NULL, NULL);
}
