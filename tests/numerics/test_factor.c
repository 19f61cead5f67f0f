/* test_factor.c — every factorization method on random matrices (fixed
 * seeds) in every storage: one and many right-hand sides, ldb > n,
 * refactorization with new values, a changed pattern, and breakdowns
 * (singular, indefinite) reported as NS_SINGULAR.
 *
 * Solutions are checked two independent ways: the residual ‖Ax − b‖ computed
 * here by plain loops, relative to ‖A‖‖x‖ + ‖b‖, and the distance to the
 * solution of a Gaussian elimination with partial pivoting written here. */
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

/* ------------------------------------------------------------ helpers */

static double *Aij(ns_matrix *D, ns_int i, ns_int j)
{
    return &D->dense[(size_t)i + (size_t)j * (size_t)D->rows];
}

/* Symmetric positive definite n×n with about density·n² off-diagonal
 * entries: symmetric random pattern, diagonal = Σ|row| + shift. */
static ns_matrix *random_spd(ns_rng *r, ns_int n, double density, double shift)
{
    ns_matrix *D = ns_matrix_dense_new(n, n);
    for (ns_int j = 0; j < n; j++)
        for (ns_int i = j + 1; i < n; i++)
            if (ns_rng_uniform(r) < density) *Aij(D, i, j) = *Aij(D, j, i) = ns_rng_range(r, -1, 1);
    for (ns_int i = 0; i < n; i++) {
        double s = 0.0;
        for (ns_int j = 0; j < n; j++) s += fabs(*Aij(D, i, j));
        *Aij(D, i, i) = s + shift;
    }
    return D;
}

/* General sparse n×n: random entries, a diagonal of random sign and size
 * comparable to the rest (pivoting matters), never symmetric. */
static ns_matrix *random_general(ns_rng *r, ns_int n, double density)
{
    ns_matrix *D = ns_matrix_dense_new(n, n);
    for (ns_int j = 0; j < n; j++)
        for (ns_int i = 0; i < n; i++)
            if (i == j) *Aij(D, i, j) = (ns_rng_uniform(r) < 0.5 ? -1 : 1) * ns_rng_range(r, 1.0, 2.0);
            else if (ns_rng_uniform(r) < density) *Aij(D, i, j) = ns_rng_range(r, -1, 1);
    if (n > 1) *Aij(D, 0, n - 1) += 0.5;            /* break any accidental symmetry */
    return D;
}

/* CSC of D with unsorted rows and entries split into two exact halves. */
static ns_matrix *messy_csc(ns_rng *r, const ns_matrix *D)
{
    ns_int n = D->cols, m = D->rows, q = 0;
    ns_matrix *S = ns_matrix_sparse_new(m, n, 2 * m * n + 1);
    for (ns_int j = 0; j < n; j++) {
        ns_int c0 = q;
        for (ns_int i = m - 1; i >= 0; i--) {                /* reversed: unsorted */
            double v = D->dense[(size_t)i + (size_t)j * m];
            if (v == 0.0) continue;
            if (ns_rng_uniform(r) < 0.25) {
                S->csc.i[q] = i; S->csc.x[q++] = 0.5 * v;
                S->csc.i[q] = i; S->csc.x[q++] = 0.5 * v;
            } else { S->csc.i[q] = i; S->csc.x[q++] = v; }
        }
        (void)c0;
        S->csc.p[j + 1] = q;
    }
    S->csc.nnz = q;
    return S;
}

/* The three storages of D (block cut 2/3/1 sizes repeating). */
static void storages(ns_rng *r, const ns_matrix *D, ns_matrix *X[3])
{
    ns_int n = D->rows, nb = 0;
    ns_int *st = malloc(sizeof(ns_int) * ((size_t)n + 1));
    static const int sizes[] = { 2, 3, 1 };
    st[0] = 0;
    while (st[nb] < n) { ns_int s = st[nb] + sizes[nb % 3]; st[nb + 1] = s < n ? s : n; nb++; }
    X[0] = ns_matrix_copy(D);
    X[1] = messy_csc(r, D);
    X[2] = ns_matrix_to_block(D, nb, st, nb, st);
    assert_non_null(X[0]); assert_non_null(X[1]); assert_non_null(X[2]);
    free(st);
}

static void free3(ns_matrix *X[3])
{
    for (int k = 0; k < 3; k++) ns_matrix_free(X[k]);
}

/* x = D⁻¹ b by Gaussian elimination with partial pivoting (independent
 * reference). Returns 0 if a pivot is exactly zero. */
static int gepp_solve(const ns_matrix *D, const double *b, double *x)
{
    ns_int n = D->rows;
    double *a = malloc(sizeof(double) * (size_t)n * (size_t)n + 1);
    memcpy(a, D->dense, sizeof(double) * (size_t)n * (size_t)n);
    memcpy(x, b, sizeof(double) * (size_t)n);
    for (ns_int k = 0; k < n; k++) {
        ns_int piv = k;
        for (ns_int i = k + 1; i < n; i++)
            if (fabs(a[i + (size_t)k * n]) > fabs(a[piv + (size_t)k * n])) piv = i;
        if (a[piv + (size_t)k * n] == 0.0) { free(a); return 0; }
        if (piv != k) {
            for (ns_int j = 0; j < n; j++) {
                double t = a[k + (size_t)j * n]; a[k + (size_t)j * n] = a[piv + (size_t)j * n];
                a[piv + (size_t)j * n] = t;
            }
            double t = x[k]; x[k] = x[piv]; x[piv] = t;
        }
        for (ns_int i = k + 1; i < n; i++) {
            double l = a[i + (size_t)k * n] / a[k + (size_t)k * n];
            for (ns_int j = k + 1; j < n; j++) a[i + (size_t)j * n] -= l * a[k + (size_t)j * n];
            x[i] -= l * x[k];
        }
    }
    for (ns_int k = n - 1; k >= 0; k--) {
        double s = x[k];
        for (ns_int j = k + 1; j < n; j++) s -= a[k + (size_t)j * n] * x[j];
        x[k] = s / a[k + (size_t)k * n];
    }
    free(a);
    return 1;
}

static double vnorm(const double *v, ns_int n)
{
    double s = 0.0;
    for (ns_int k = 0; k < n; k++) s += v[k] * v[k];
    return sqrt(s);
}

static double fro(const ns_matrix *D)
{
    return vnorm(D->dense, D->rows * D->cols);
}

/* Asserts x solves D x = b: small residual and close to the GEPP solution. */
static void check_solution(const ns_matrix *D, const double *b, const double *x, const char *what)
{
    ns_int n = D->rows;
    double *r = malloc(sizeof(double) * ((size_t)n + 1)), *xr = malloc(sizeof(double) * ((size_t)n + 1));
    for (ns_int i = 0; i < n; i++) {
        double s = -b[i];
        for (ns_int j = 0; j < n; j++) s += D->dense[(size_t)i + (size_t)j * n] * x[j];
        r[i] = s;
    }
    double res = vnorm(r, n) / (fro(D) * vnorm(x, n) + vnorm(b, n) + 1e-300);
    if (!(res <= 1e-13)) fail_msg("%s: relative residual %.3g", what, res);
    assert_true(gepp_solve(D, b, xr));
    for (ns_int i = 0; i < n; i++) xr[i] -= x[i];
    double dist = vnorm(xr, n) / (vnorm(x, n) + 1e-300);
    if (!(dist <= 1e-10)) fail_msg("%s: distance to GEPP solution %.3g", what, dist);
    free(r);
    free(xr);
}

/* Factor X (a storage of D) with method m, solve with nrhs right-hand
 * sides in a ldb = n + pad array; padding rows must be left untouched. */
static void solve_and_check(ns_rng *rng, const ns_matrix *D, const ns_matrix *X,
                            ns_factor_method m, ns_int nrhs, ns_int pad, const char *what)
{
    ns_int n = D->rows, ldb = n + pad;
    char err[NS_ERRMSG_LEN] = "";
    ns_factor *F = NULL;
    ns_status st = ns_factor_new(X, m, &F, err);
    if (st) fail_msg("%s: ns_factor_new: %s (%s)", what, ns_status_name(st), err);
    double *B = malloc(sizeof(double) * (size_t)ldb * (size_t)nrhs + 1);
    double *B0 = malloc(sizeof(double) * (size_t)ldb * (size_t)nrhs + 1);
    for (size_t k = 0; k < (size_t)ldb * (size_t)nrhs; k++) B0[k] = ns_rng_range(rng, -1, 1);
    memcpy(B, B0, sizeof(double) * (size_t)ldb * (size_t)nrhs);
    assert_int_equal(ns_factor_solve(F, B, nrhs, ldb), NS_OK);
    for (ns_int c = 0; c < nrhs; c++) {
        check_solution(D, B0 + (size_t)c * ldb, B + (size_t)c * ldb, what);
        for (ns_int i = n; i < ldb; i++) assert_true(B[i + (size_t)c * ldb] == B0[i + (size_t)c * ldb]);
    }
    free(B);
    free(B0);
    ns_factor_free(F);
}

/* ------------------------------------------------------------- tests */

static const ns_int sizes_n[] = { 1, 2, 7, 30, 90 };
#define NSIZES (sizeof sizes_n / sizeof sizes_n[0])

static void run_method_on(ns_factor_method m, int spd, uint64_t seed)
{
    ns_rng r;
    ns_rng_seed(&r, seed);
    for (size_t s = 0; s < NSIZES; s++) {
        ns_int n = sizes_n[s];
        ns_matrix *D = spd ? random_spd(&r, n, 0.15, 0.5) : random_general(&r, n, 0.15);
        ns_matrix *X[3];
        storages(&r, D, X);
        for (int k = 0; k < 3; k++) {
            char what[128];
            snprintf(what, sizeof what, "%s n=%d storage=%d", ns_factor_method_name(m), n, (int)X[k]->storage);
            solve_and_check(&r, D, X[k], m, 1, 0, what);
            solve_and_check(&r, D, X[k], m, 5, 3, what);
        }
        free3(X);
        ns_matrix_free(D);
    }
}

static void test_dense_lu(void **state) { (void)state; run_method_on(NS_FACTOR_DENSE_LU, 0, 11); }
static void test_dense_chol(void **state) { (void)state; run_method_on(NS_FACTOR_DENSE_CHOL, 1, 12); }
static void test_sparse_chol(void **state) { (void)state; run_method_on(NS_FACTOR_SPARSE_CHOL, 1, 13); }
static void test_sparse_lu(void **state) { (void)state; run_method_on(NS_FACTOR_SPARSE_LU, 0, 14); }
static void test_sparse_lu_spd(void **state) { (void)state; run_method_on(NS_FACTOR_SPARSE_LU, 1, 15); }
static void test_auto_general(void **state) { (void)state; run_method_on(NS_FACTOR_AUTO, 0, 16); }
static void test_auto_spd(void **state) { (void)state; run_method_on(NS_FACTOR_AUTO, 1, 17); }

/* AUTO picks by storage and symmetry (exact, or within 1e-12 relative). */
static void test_auto_choice(void **state)
{
    (void)state;
    ns_rng r;
    ns_rng_seed(&r, 21);
    ns_matrix *P = random_spd(&r, 12, 0.3, 1.0), *G = random_general(&r, 12, 0.3);
    ns_matrix *XP[3], *XG[3];
    storages(&r, P, XP);
    storages(&r, G, XG);
    static const ns_factor_method want_spd[3] = { NS_FACTOR_DENSE_LU, NS_FACTOR_SPARSE_CHOL, NS_FACTOR_SPARSE_CHOL };
    static const ns_factor_method want_gen[3] = { NS_FACTOR_DENSE_LU, NS_FACTOR_SPARSE_LU, NS_FACTOR_SPARSE_LU };
    char err[NS_ERRMSG_LEN];
    for (int k = 0; k < 3; k++) {
        ns_factor *F = NULL;
        assert_int_equal(ns_factor_analyze(XP[k], NS_FACTOR_AUTO, &F, err), NS_OK);
        assert_int_equal(ns_factor_get_method(F), want_spd[k]);
        ns_factor_free(F);
        assert_int_equal(ns_factor_analyze(XG[k], NS_FACTOR_AUTO, &F, err), NS_OK);
        assert_int_equal(ns_factor_get_method(F), want_gen[k]);
        ns_factor_free(F);
    }
    /* nearly symmetric: 1e-14 relative off → still Cholesky; 1e-9 → LU */
    ns_matrix *S = ns_matrix_to_sparse(P);
    double mx = ns_matrix_norm_max(S);
    ns_int k0 = -1;
    for (ns_int k = 0; k < S->csc.nnz && k0 < 0; k++)
        if (S->csc.i[k] != 0 && S->csc.p[1] > k) k0 = k;     /* an off-diagonal entry of column 0 */
    assert_true(k0 >= 0);
    S->csc.x[k0] += 1e-14 * mx;
    ns_factor *F = NULL;
    assert_int_equal(ns_factor_analyze(S, NS_FACTOR_AUTO, &F, err), NS_OK);
    assert_int_equal(ns_factor_get_method(F), NS_FACTOR_SPARSE_CHOL);
    ns_factor_free(F);
    S->csc.x[k0] += 1e-9 * mx;
    assert_int_equal(ns_factor_analyze(S, NS_FACTOR_AUTO, &F, err), NS_OK);
    assert_int_equal(ns_factor_get_method(F), NS_FACTOR_SPARSE_LU);
    ns_factor_free(F);
    ns_matrix_free(S);
    free3(XP); free3(XG);
    ns_matrix_free(P); ns_matrix_free(G);
}

/* Symmetric indefinite sparse: explicit Cholesky fails with NS_SINGULAR,
 * AUTO falls back to LU and solves. */
static void test_auto_indefinite_falls_back(void **state)
{
    (void)state;
    ns_rng r;
    ns_rng_seed(&r, 22);
    ns_matrix *D = random_spd(&r, 20, 0.2, 1.0);
    for (ns_int i = 0; i < 20; i += 3) *Aij(D, i, i) = -*Aij(D, i, i);   /* indefinite */
    ns_matrix *S = ns_matrix_to_sparse(D);
    char err[NS_ERRMSG_LEN] = "";
    ns_factor *F = NULL;
    assert_int_equal(ns_factor_new(S, NS_FACTOR_SPARSE_CHOL, &F, err), NS_SINGULAR);
    assert_null(F);
    assert_non_null(strstr(err, "not positive definite"));
    assert_int_equal(ns_factor_new(S, NS_FACTOR_AUTO, &F, err), NS_OK);
    assert_int_equal(ns_factor_get_method(F), NS_FACTOR_SPARSE_LU);
    ns_factor_free(F);
    solve_and_check(&r, D, S, NS_FACTOR_AUTO, 2, 1, "auto indefinite");
    ns_matrix_free(S);
    ns_matrix_free(D);
}

/* analyze once, numeric with new values (same pattern) several times; then
 * a new pattern. Every solve checked against its own matrix. */
static void test_refactorization(void **state)
{
    (void)state;
    static const ns_factor_method ms[] = { NS_FACTOR_DENSE_LU, NS_FACTOR_DENSE_CHOL,
                                           NS_FACTOR_SPARSE_CHOL, NS_FACTOR_SPARSE_LU, NS_FACTOR_AUTO };
    ns_rng r;
    ns_rng_seed(&r, 31);
    for (size_t mi = 0; mi < sizeof ms / sizeof ms[0]; mi++) {
        ns_int n = 40;
        ns_matrix *D = random_spd(&r, n, 0.1, 1.0);
        ns_matrix *S = ns_matrix_to_sparse(D);
        char err[NS_ERRMSG_LEN] = "";
        ns_factor *F = NULL;
        assert_int_equal(ns_factor_analyze(S, ms[mi], &F, err), NS_OK);
        double *b = malloc(sizeof(double) * n), *x = malloc(sizeof(double) * n);
        for (int round = 0; round < 3; round++) {
            /* new values on the same pattern, still SPD */
            for (ns_int k = 0; k < S->csc.nnz; k++) S->csc.x[k] *= ns_rng_range(&r, 0.5, 1.5);
            ns_matrix *T = ns_matrix_transpose(S);             /* symmetrize: (S + Sᵀ)/2 */
            for (ns_int k = 0; k < S->csc.nnz; k++) S->csc.x[k] = 0.5 * (S->csc.x[k] + T->csc.x[k]);
            ns_matrix_free(T);
            for (ns_int j = 0; j < n; j++) {                  /* restore diagonal dominance */
                double s = 0.0; ns_int kd = -1;
                for (ns_int k = S->csc.p[j]; k < S->csc.p[j + 1]; k++)
                    if (S->csc.i[k] == j) kd = k; else s += fabs(S->csc.x[k]);
                S->csc.x[kd] = s + 0.5;
            }
            ns_matrix *Dn = ns_matrix_to_dense(S);
            if (ns_factor_numeric(F, S, err)) fail_msg("%s round %d: %s", ns_factor_method_name(ms[mi]), round, err);
            for (ns_int i = 0; i < n; i++) b[i] = x[i] = ns_rng_range(&r, -1, 1);
            assert_int_equal(ns_factor_solve(F, x, 1, n), NS_OK);
            check_solution(Dn, b, x, ns_factor_method_name(ms[mi]));
            ns_matrix_free(Dn);
        }
        /* different pattern (an extra symmetric pair) on the same object */
        ns_matrix *D2 = ns_matrix_to_dense(S);
        *Aij(D2, 0, n - 1) = *Aij(D2, n - 1, 0) = 0.25;
        *Aij(D2, 0, 0) += 1.0; *Aij(D2, n - 1, n - 1) += 1.0;
        ns_matrix *S2 = ns_matrix_to_sparse(D2);
        if (ns_factor_numeric(F, S2, err)) fail_msg("new pattern: %s", err);
        for (ns_int i = 0; i < n; i++) b[i] = x[i] = ns_rng_range(&r, -1, 1);
        assert_int_equal(ns_factor_solve(F, x, 1, n), NS_OK);
        check_solution(D2, b, x, "new pattern");
        /* wrong size */
        ns_matrix *E = ns_matrix_dense_new(n + 1, n + 1);
        assert_int_equal(ns_factor_numeric(F, E, err), NS_BAD_INPUT);
        assert_int_equal(ns_factor_solve(F, x, 1, n), NS_BAD_INPUT);   /* no valid factors now */
        ns_matrix_free(E);
        ns_matrix_free(S2); ns_matrix_free(D2);
        free(b); free(x);
        ns_factor_free(F);
        ns_matrix_free(S); ns_matrix_free(D);
    }
}

static void expect_singular(const ns_matrix *A, ns_factor_method m, const char *word)
{
    char err[NS_ERRMSG_LEN] = "";
    ns_factor *F = NULL;
    ns_status st = ns_factor_new(A, m, &F, err);
    if (st != NS_SINGULAR)
        fail_msg("%s: expected singular, got %s (%s)", ns_factor_method_name(m), ns_status_name(st), err);
    assert_null(F);
    if (!strstr(err, word)) fail_msg("%s: message '%s' lacks '%s'", ns_factor_method_name(m), err, word);
    /* the two-phase path: numeric fails, solve refuses */
    assert_int_equal(ns_factor_analyze(A, m, &F, err), NS_OK);
    assert_int_equal(ns_factor_numeric(F, A, err), NS_SINGULAR);
    double b[64] = { 0 };
    assert_int_equal(ns_factor_solve(F, b, 1, A->rows), NS_BAD_INPUT);
    ns_factor_free(F);
}

static void test_singular_and_indefinite(void **state)
{
    (void)state;
    /* exactly singular: row 2 = 2·row 1 with exact arithmetic; and a zero column */
    double a[9] = { 1, 2, 0, 2, 4, 1, 3, 6, 5 };        /* columns (1,2,0) (2,4,1) (3,6,5) */
    ns_matrix *D = ns_matrix_dense_new(3, 3);
    memcpy(D->dense, a, sizeof a);
    ns_matrix *S = ns_matrix_to_sparse(D);
    expect_singular(D, NS_FACTOR_DENSE_LU, "singular");
    expect_singular(S, NS_FACTOR_SPARSE_LU, "singular");
    expect_singular(D, NS_FACTOR_SPARSE_LU, "singular");
    ns_matrix *Z = ns_matrix_dense_new(4, 4);
    for (ns_int i = 0; i < 4; i++) *Aij(Z, i, i) = 1.0;
    *Aij(Z, 2, 2) = 0.0;                                 /* zero column and row 2 */
    ns_matrix *ZS = ns_matrix_to_sparse(Z), *ZB = ns_matrix_to_block_uniform(Z, 2);
    expect_singular(Z, NS_FACTOR_DENSE_LU, "singular");
    expect_singular(ZS, NS_FACTOR_SPARSE_LU, "singular");
    expect_singular(ZB, NS_FACTOR_SPARSE_LU, "singular");
    expect_singular(Z, NS_FACTOR_DENSE_CHOL, "not positive definite");
    expect_singular(ZS, NS_FACTOR_SPARSE_CHOL, "not positive definite");
    expect_singular(Z, NS_FACTOR_AUTO, "singular");
    expect_singular(ZS, NS_FACTOR_AUTO, "singular");
    /* numerically singular: rank one u uᵀ with random u (no exact zero pivot) */
    ns_rng r;
    ns_rng_seed(&r, 41);
    ns_matrix *U = ns_matrix_dense_new(6, 6);
    double u[6];
    for (int i = 0; i < 6; i++) u[i] = ns_rng_range(&r, 0.5, 1.5);
    for (int j = 0; j < 6; j++) for (int i = 0; i < 6; i++) *Aij(U, i, j) = u[i] * u[j];
    expect_singular(U, NS_FACTOR_DENSE_LU, "singular");
    expect_singular(U, NS_FACTOR_DENSE_CHOL, "");
    /* symmetric indefinite (eigenvalues 3, −1) */
    double ind[4] = { 1, 2, 2, 1 };
    ns_matrix *I2 = ns_matrix_dense_new(2, 2);
    memcpy(I2->dense, ind, sizeof ind);
    ns_matrix *I2S = ns_matrix_to_sparse(I2);
    expect_singular(I2, NS_FACTOR_DENSE_CHOL, "not positive definite");
    expect_singular(I2S, NS_FACTOR_SPARSE_CHOL, "not positive definite");
    /* negative definite diagonal */
    ns_matrix *N = ns_matrix_dense_new(3, 3);
    for (ns_int i = 0; i < 3; i++) *Aij(N, i, i) = -2.0;
    ns_matrix *NS = ns_matrix_to_sparse(N);
    expect_singular(NS, NS_FACTOR_SPARSE_CHOL, "not positive definite");
    expect_singular(N, NS_FACTOR_DENSE_CHOL, "not positive definite");
    ns_matrix *M[] = { D, S, Z, ZS, ZB, U, I2, I2S, N, NS };
    for (size_t k = 0; k < sizeof M / sizeof M[0]; k++) ns_matrix_free(M[k]);
}

/* SPARSE_CHOL reads only the lower triangle: garbage above the diagonal
 * does not change the solution. */
static void test_sparse_chol_lower_only(void **state)
{
    (void)state;
    ns_rng r;
    ns_rng_seed(&r, 51);
    ns_matrix *D = random_spd(&r, 25, 0.2, 1.0);
    ns_matrix *G = ns_matrix_copy(D);
    for (ns_int j = 1; j < 25; j++)
        for (ns_int i = 0; i < j; i++)
            if (*Aij(G, i, j) != 0.0) *Aij(G, i, j) = 1e3;
    ns_matrix *GS = ns_matrix_to_sparse(G);
    solve_and_check(&r, D, GS, NS_FACTOR_SPARSE_CHOL, 3, 0, "lower only");
    solve_and_check(&r, D, G, NS_FACTOR_DENSE_CHOL, 3, 0, "dense lower only");
    ns_matrix_free(GS); ns_matrix_free(G); ns_matrix_free(D);
}

static void test_bad_input(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN] = "";
    ns_factor *F = (ns_factor *)&err;                      /* must be reset to NULL */
    ns_matrix *R = ns_matrix_dense_new(3, 2);
    assert_int_equal(ns_factor_new(R, NS_FACTOR_DENSE_LU, &F, err), NS_BAD_INPUT);
    assert_null(F);
    assert_non_null(strstr(err, "not square"));
    ns_matrix *A = ns_matrix_dense_new(2, 2);
    A->dense[0] = A->dense[3] = 1.0;
    A->dense[1] = NAN;
    assert_int_equal(ns_factor_new(A, NS_FACTOR_SPARSE_LU, &F, err), NS_BAD_INPUT);
    A->dense[1] = 0.0;
    assert_int_equal(ns_factor_new(A, (ns_factor_method)42, &F, err), NS_BAD_INPUT);
    assert_int_equal(ns_factor_new(NULL, NS_FACTOR_AUTO, &F, err), NS_BAD_INPUT);
    assert_int_equal(ns_factor_new(A, NS_FACTOR_DENSE_LU, &F, err), NS_OK);
    double b[4] = { 1, 2, 3, 4 };
    assert_int_equal(ns_factor_solve(F, b, 1, 1), NS_BAD_INPUT);      /* ldb < n */
    assert_int_equal(ns_factor_solve(F, b, -1, 2), NS_BAD_INPUT);
    assert_int_equal(ns_factor_solve(F, NULL, 1, 2), NS_BAD_INPUT);
    assert_int_equal(ns_factor_solve(F, NULL, 0, 2), NS_OK);
    assert_int_equal(ns_factor_solve(NULL, b, 1, 2), NS_BAD_INPUT);
    assert_int_equal(ns_factor_solve(F, b, 2, 2), NS_OK);
    assert_true(b[0] == 1 && b[1] == 2 && b[2] == 3 && b[3] == 4);   /* identity */
    ns_factor_free(F);
    ns_factor_free(NULL);
    /* 0×0 works with every method */
    ns_matrix *E = ns_matrix_dense_new(0, 0), *ES = ns_matrix_to_sparse(E);
    for (int m = NS_FACTOR_AUTO; m <= NS_FACTOR_SPARSE_LU; m++) {
        assert_int_equal(ns_factor_new(m == NS_FACTOR_SPARSE_CHOL ? ES : E, (ns_factor_method)m, &F, err), NS_OK);
        assert_int_equal(ns_factor_solve(F, b, 1, 1), NS_OK);
        ns_factor_free(F);
    }
    ns_matrix_free(E); ns_matrix_free(ES);
    ns_matrix_free(R); ns_matrix_free(A);
}

static void test_method_names(void **state)
{
    (void)state;
    assert_string_equal(ns_factor_method_name(NS_FACTOR_AUTO), "auto");
    assert_string_equal(ns_factor_method_name(NS_FACTOR_DENSE_LU), "dense-lu");
    assert_string_equal(ns_factor_method_name(NS_FACTOR_DENSE_CHOL), "dense-chol");
    assert_string_equal(ns_factor_method_name(NS_FACTOR_SPARSE_CHOL), "sparse-chol");
    assert_string_equal(ns_factor_method_name(NS_FACTOR_SPARSE_LU), "sparse-lu");
    assert_non_null(ns_factor_method_name((ns_factor_method)99));
}

/* Two factor objects alive at once, interleaved, do not meet. */
static void test_two_objects(void **state)
{
    (void)state;
    ns_rng r;
    ns_rng_seed(&r, 61);
    ns_matrix *D1 = random_spd(&r, 30, 0.2, 1.0), *D2 = random_spd(&r, 30, 0.2, 2.0);
    ns_matrix *S1 = ns_matrix_to_sparse(D1), *S2 = ns_matrix_to_sparse(D2);
    char err[NS_ERRMSG_LEN];
    ns_factor *F1 = NULL, *F2 = NULL, *F3 = NULL;
    assert_int_equal(ns_factor_new(S1, NS_FACTOR_SPARSE_CHOL, &F1, err), NS_OK);
    assert_int_equal(ns_factor_new(S2, NS_FACTOR_SPARSE_CHOL, &F2, err), NS_OK);
    assert_int_equal(ns_factor_new(S2, NS_FACTOR_SPARSE_LU, &F3, err), NS_OK);
    double b[30], x1[30], x2[30], x3[30];
    for (int i = 0; i < 30; i++) b[i] = x1[i] = x2[i] = x3[i] = ns_rng_range(&r, -1, 1);
    assert_int_equal(ns_factor_solve(F2, x2, 1, 30), NS_OK);
    assert_int_equal(ns_factor_solve(F1, x1, 1, 30), NS_OK);
    ns_factor_free(F2);
    assert_int_equal(ns_factor_solve(F3, x3, 1, 30), NS_OK);
    check_solution(D1, b, x1, "F1");
    check_solution(D2, b, x2, "F2");
    check_solution(D2, b, x3, "F3");
    ns_factor_free(F1); ns_factor_free(F3);
    ns_matrix_free(S1); ns_matrix_free(S2); ns_matrix_free(D1); ns_matrix_free(D2);
}

/* A diagonal matrix (a point mass, a sphere's M) takes the solve's
 * diagonal path: x = b / a_jj exactly (LU: one division; Cholesky: two by
 * sqrt(a_jj), within a few ulps), several right-hand sides; and a matrix with one
 * off-diagonal entry set afterwards (refactorised) leaves that path:
 * A x = b by the residual. */
static void test_dense_diagonal(void **state)
{
    (void)state;
    enum { n = 6 };
    ns_matrix *A = ns_matrix_dense_new(n, n);
    for (int j = 0; j < n; j++) A->dense[j + n * j] = 0.25 + j;   /* M = diag(m, m, m, I, I, I)-like */
    for (int meth = 0; meth < 2; meth++) {
        ns_factor *F = NULL;
        char err[NS_ERRMSG_LEN] = "";
        assert_int_equal(ns_factor_new(A, meth ? NS_FACTOR_DENSE_CHOL : NS_FACTOR_DENSE_LU, &F, err), NS_OK);
        double B[3 * n];
        for (int i = 0; i < 3 * n; i++) B[i] = 1.0 + 0.37 * i - 0.01 * i * i;
        double B0[3 * n];
        memcpy(B0, B, sizeof B);
        assert_int_equal(ns_factor_solve(F, B, 3, n), NS_OK);
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < n; i++) {
                double want = B0[i + n * c] / A->dense[i + n * i];
                if (meth == 0) assert_true(B[i + n * c] == want);
                else assert_true(fabs(B[i + n * c] - want) <= 1e-15 * fabs(want));
            }
        /* one coupling term: not diagonal any more, the general path */
        A->dense[1 + n * 4] = 0.3;
        if (meth) A->dense[4 + n * 1] = 0.3;   /* Cholesky reads the lower triangle: keep A symmetric */
        assert_int_equal(ns_factor_numeric(F, A, err), NS_OK);
        memcpy(B, B0, sizeof B);
        assert_int_equal(ns_factor_solve(F, B, 3, n), NS_OK);
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < n; i++) {
                double r = -B0[i + n * c];
                for (int j = 0; j < n; j++) r += A->dense[i + n * j] * B[j + n * c];
                assert_true(fabs(r) <= 1e-14 * (1 + fabs(B0[i + n * c])));
            }
        A->dense[1 + n * 4] = 0.0; A->dense[4 + n * 1] = 0.0;
        ns_factor_free(F);
    }
    ns_matrix_free(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dense_diagonal),
        cmocka_unit_test(test_dense_lu),
        cmocka_unit_test(test_dense_chol),
        cmocka_unit_test(test_sparse_chol),
        cmocka_unit_test(test_sparse_lu),
        cmocka_unit_test(test_sparse_lu_spd),
        cmocka_unit_test(test_auto_general),
        cmocka_unit_test(test_auto_spd),
        cmocka_unit_test(test_auto_choice),
        cmocka_unit_test(test_auto_indefinite_falls_back),
        cmocka_unit_test(test_refactorization),
        cmocka_unit_test(test_singular_and_indefinite),
        cmocka_unit_test(test_sparse_chol_lower_only),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_method_names),
        cmocka_unit_test(test_two_objects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
