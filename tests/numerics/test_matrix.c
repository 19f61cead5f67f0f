/* test_matrix.c — the three storages of ns_matrix against plain dense
 * arithmetic written here: products (with several α, β), conversions both
 * ways, block access, transposition, norms, comparisons, validation.
 *
 * Every case starts from a random dense matrix D (fixed seeds) and builds its
 * CSC and BLOCK forms in this file, independently of the library: the CSC
 * form has unsorted rows, duplicates (an entry split in two exact halves)
 * and explicit zeros; the BLOCK form has blocks of varying sizes, an empty
 * block row and stored all-zero blocks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

/* ------------------------------------------------------------ fixtures */

typedef struct fixture {
    ns_int m, n;
    ns_int nbr, nbc;            /* block partition */
    ns_int *rs, *cs;            /* row_start, col_start */
    ns_matrix *D, *S, *B;       /* dense, messy CSC, BLOCK of the same matrix */
} fixture;

static int rng_int(ns_rng *r, int lo, int hi)   /* uniform in [lo, hi] */
{
    return lo + (int)(ns_rng_uniform(r) * (hi - lo + 1));
}

/* Random partition of 0..len into pieces of 1..maxb, with one long piece
 * (≥ 17) when len allows, to reach the large-block code paths. */
static ns_int *partition(ns_rng *r, ns_int len, int maxb, ns_int *count)
{
    ns_int *s = malloc(sizeof(ns_int) * ((size_t)len + 1));
    ns_int k = 0, at = 0;
    s[0] = 0;
    int long_done = len < 40;
    while (at < len) {
        int sz = rng_int(r, 1, maxb);
        if (!long_done && k == 1) { sz = 18; long_done = 1; }
        if (at + sz > len) sz = len - at;
        at += sz;
        s[++k] = at;
    }
    *count = k;
    return s;
}

static double D_at(const ns_matrix *D, ns_int i, ns_int j)
{
    return D->dense[(size_t)i + (size_t)j * (size_t)D->rows];
}

/* CSC of D built by hand: columns listed in shuffled order, some entries
 * split into two halves, explicit zeros added. */
static ns_matrix *messy_csc(ns_rng *r, const ns_matrix *D)
{
    ns_int m = D->rows, n = D->cols;
    size_t cap = 3 * (size_t)m * (size_t)n + 1;
    ns_int *ri = malloc(sizeof(ns_int) * cap);
    double *rx = malloc(sizeof(double) * cap);
    ns_int *p = calloc((size_t)n + 1, sizeof(ns_int));
    ns_int q = 0;
    for (ns_int j = 0; j < n; j++) {
        ns_int c0 = q;
        for (ns_int i = 0; i < m; i++) {
            double v = D_at(D, i, j);
            if (v != 0.0) {
                if (ns_rng_uniform(r) < 0.3) {
                    ri[q] = i; rx[q++] = 0.5 * v;
                    ri[q] = i; rx[q++] = 0.5 * v;
                } else { ri[q] = i; rx[q++] = v; }
            }
            if (ns_rng_uniform(r) < 0.1) { ri[q] = i; rx[q++] = 0.0; }
        }
        for (ns_int k = q - 1; k > c0; k--) {       /* Fisher–Yates inside the column */
            ns_int t = c0 + rng_int(r, 0, k - c0);
            ns_int ti = ri[k]; ri[k] = ri[t]; ri[t] = ti;
            double tx = rx[k]; rx[k] = rx[t]; rx[t] = tx;
        }
        p[j + 1] = q;
    }
    ns_matrix *S = ns_matrix_sparse_new(m, n, q);
    assert_non_null(S);
    memcpy(S->csc.p, p, sizeof(ns_int) * ((size_t)n + 1));
    if (q) {
        memcpy(S->csc.i, ri, sizeof(ns_int) * (size_t)q);
        memcpy(S->csc.x, rx, sizeof(double) * (size_t)q);
    }
    free(ri); free(rx); free(p);
    return S;
}

static int block_nonzero(const ns_matrix *D, const ns_int *rs, const ns_int *cs, ns_int r, ns_int c)
{
    for (ns_int j = cs[c]; j < cs[c + 1]; j++)
        for (ns_int i = rs[r]; i < rs[r + 1]; i++)
            if (D_at(D, i, j) != 0.0) return 1;
    return 0;
}

/* BLOCK form of D through ns_matrix_block_new: every non-zero block, plus
 * some all-zero blocks outside block row 1; values copied by hand. */
static ns_matrix *manual_block(ns_rng *r, const ns_matrix *D, ns_int nbr, const ns_int *rs,
                               ns_int nbc, const ns_int *cs)
{
    ns_int *rp = calloc((size_t)nbr + 1, sizeof(ns_int));
    ns_int *bc = calloc((size_t)nbr * (size_t)nbc + 1, sizeof(ns_int));
    ns_int nb = 0;
    for (ns_int br = 0; br < nbr; br++) {
        for (ns_int c = 0; c < nbc; c++)
            if (block_nonzero(D, rs, cs, br, c) || (br != 1 && ns_rng_uniform(r) < 0.15))
                bc[nb++] = c;
        rp[br + 1] = nb;
    }
    char err[NS_ERRMSG_LEN] = "";
    ns_matrix *B = ns_matrix_block_new(nbr, nbc, rs, cs, rp, bc, err);
    if (!B) fail_msg("block_new: %s", err);
    assert_int_equal(B->block.nblocks, nb);
    for (ns_int br = 0; br < nbr; br++)
        for (ns_int k = rp[br]; k < rp[br + 1]; k++) {
            ns_int c = bc[k], h = rs[br + 1] - rs[br], w = cs[c + 1] - cs[c];
            assert_int_equal(B->block.value_ptr[k + 1] - B->block.value_ptr[k], h * w);
            double *X = ns_matrix_values(B) + B->block.value_ptr[k];
            for (ns_int j = 0; j < w; j++)
                for (ns_int i = 0; i < h; i++) X[i + j * h] = D_at(D, rs[br] + i, cs[c] + j);
        }
    free(rp); free(bc);
    return B;
}

static void fixture_make(fixture *f, uint64_t seed, ns_int m, ns_int n, int maxb, double density)
{
    ns_rng r;
    ns_rng_seed(&r, seed);
    memset(f, 0, sizeof *f);
    f->m = m; f->n = n;
    f->rs = partition(&r, m, maxb, &f->nbr);
    f->cs = partition(&r, n, maxb, &f->nbc);
    f->D = ns_matrix_dense_new(m, n);
    assert_non_null(f->D);
    for (ns_int j = 0; j < n; j++)
        for (ns_int i = 0; i < m; i++)
            if (ns_rng_uniform(&r) < density) f->D->dense[i + (size_t)j * m] = ns_rng_range(&r, -1, 1);
    if (f->nbr >= 3)                          /* block row 1 left empty */
        for (ns_int j = 0; j < n; j++)
            for (ns_int i = f->rs[1]; i < f->rs[2]; i++) f->D->dense[i + (size_t)j * m] = 0.0;
    f->S = messy_csc(&r, f->D);
    f->B = manual_block(&r, f->D, f->nbr, f->rs, f->nbc, f->cs);
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(ns_matrix_validate(f->D, "D", err), NS_OK);
    assert_int_equal(ns_matrix_validate(f->S, "S", err), NS_OK);
    if (ns_matrix_validate(f->B, "B", err)) fail_msg("%s", err);
}

static void fixture_free(fixture *f)
{
    ns_matrix_free(f->D); ns_matrix_free(f->S); ns_matrix_free(f->B);
    free(f->rs); free(f->cs);
}

/* The shapes every test runs over: square, rectangular, degenerate. */
static const struct { ns_int m, n; int maxb; double density; } shapes[] = {
    { 0, 0, 3, 0.5 }, { 0, 4, 2, 0.5 }, { 5, 0, 2, 0.5 }, { 1, 1, 1, 1.0 },
    { 6, 6, 3, 0.6 }, { 9, 4, 3, 0.5 }, { 4, 11, 4, 0.4 }, { 12, 12, 3, 1.0 },
    { 30, 30, 3, 0.3 }, { 45, 45, 5, 0.2 }, { 50, 23, 2, 0.25 }, { 23, 50, 6, 0.3 },
    { 60, 60, 3, 0.05 },
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static void fixture_shape(fixture *f, size_t s, uint64_t seed)
{
    fixture_make(f, seed * 1000 + s, shapes[s].m, shapes[s].n, shapes[s].maxb, shapes[s].density);
}

/* Max |X(i,j) − D(i,j)| computed entry by entry through ns_matrix_get,
 * which the dense checks below validate independently. */
static double dense_diff(const ns_matrix *X, const ns_matrix *D)
{
    assert_int_equal(X->rows, D->rows);
    assert_int_equal(X->cols, D->cols);
    double m = 0.0;
    for (ns_int j = 0; j < D->cols; j++)
        for (ns_int i = 0; i < D->rows; i++) {
            double d = fabs(ns_matrix_get(X, i, j) - D_at(D, i, j));
            if (!(d <= m)) m = d;
        }
    return m;
}

/* ----------------------------------------------------------------- tests */

static void test_dense_basics(void **state)
{
    (void)state;
    ns_matrix *A = ns_matrix_dense_new(3, 2);
    assert_non_null(A);
    assert_int_equal(A->storage, NS_DENSE);
    assert_int_equal(ns_matrix_nvalues(A), 6);
    for (int k = 0; k < 6; k++) assert_true(A->dense[k] == 0.0);
    A->dense[1 + 1 * 3] = 7.0;                         /* entry (1, 1) */
    assert_true(ns_matrix_get(A, 1, 1) == 7.0);
    assert_true(ns_matrix_get(A, 3, 0) == 0.0);        /* out of range */
    assert_true(ns_matrix_get(A, -1, 0) == 0.0);
    assert_ptr_equal(ns_matrix_values(A), A->dense);
    assert_null(ns_matrix_dense_new(-1, 2));
    assert_null(ns_matrix_dense_new(2147483647, 2147483647));   /* 2^62 doubles: refused */
    assert_null(ns_matrix_sparse_new(2, -1, 0));
    ns_matrix_free(A);
    ns_matrix_free(NULL);
}

/* y = αAx + βy and y = αAᵀx + βy for every storage against loops over D;
 * β = 0 must ignore a NaN-filled y. */
static void test_gemv_all_storages(void **state)
{
    (void)state;
    static const double ab[][2] = { { 1, 0 }, { -2.5, 0.5 }, { 0, 3 }, { 1.5, 1 }, { 0, 0 } };
    for (uint64_t seed = 1; seed <= 3; seed++)
        for (size_t s = 0; s < NSHAPES; s++) {
            fixture f;
            fixture_shape(&f, s, seed);
            ns_rng r;
            ns_rng_seed(&r, 77 + seed);
            size_t m = (size_t)f.m, n = (size_t)f.n;
            double *x = malloc(sizeof(double) * (n + 1)), *xt = malloc(sizeof(double) * (m + 1));
            double *y0 = malloc(sizeof(double) * (m + 1)), *yt0 = malloc(sizeof(double) * (n + 1));
            double *y = malloc(sizeof(double) * (m + 1)), *yt = malloc(sizeof(double) * (n + 1));
            double *ref = malloc(sizeof(double) * (m + 1)), *reft = malloc(sizeof(double) * (n + 1));
            for (size_t j = 0; j < n; j++) { x[j] = ns_rng_range(&r, -1, 1); yt0[j] = ns_rng_range(&r, -1, 1); }
            for (size_t i = 0; i < m; i++) { xt[i] = ns_rng_range(&r, -1, 1); y0[i] = ns_rng_range(&r, -1, 1); }
            const ns_matrix *X[3] = { f.D, f.S, f.B };
            for (size_t a = 0; a < sizeof ab / sizeof ab[0]; a++) {
                double alpha = ab[a][0], beta = ab[a][1];
                double scaleA = 0.0;            /* Σ|α||A_ij||x_j| + |β||y_i| bound for rounding */
                for (size_t i = 0; i < m; i++) {
                    double acc = 0.0, sa = 0.0;
                    for (size_t j = 0; j < n; j++) { acc += D_at(f.D, (ns_int)i, (ns_int)j) * x[j];
                                                    sa += fabs(D_at(f.D, (ns_int)i, (ns_int)j) * x[j]); }
                    ref[i] = alpha * acc + (beta == 0.0 ? 0.0 : beta * y0[i]);
                    if (sa > scaleA) scaleA = sa;
                }
                for (size_t j = 0; j < n; j++) {
                    double acc = 0.0, sa = 0.0;
                    for (size_t i = 0; i < m; i++) { acc += D_at(f.D, (ns_int)i, (ns_int)j) * xt[i];
                                                    sa += fabs(D_at(f.D, (ns_int)i, (ns_int)j) * xt[i]); }
                    reft[j] = alpha * acc + (beta == 0.0 ? 0.0 : beta * yt0[j]);
                    if (sa > scaleA) scaleA = sa;
                }
                double tol = 1e-13 * (1.0 + 3.0 * scaleA + fabs(beta));
                for (int k = 0; k < 3; k++) {
                    for (size_t i = 0; i < m; i++) y[i] = beta == 0.0 ? NAN : y0[i];
                    for (size_t j = 0; j < n; j++) yt[j] = beta == 0.0 ? NAN : yt0[j];
                    ns_matrix_gemv(alpha, X[k], x, beta, y);
                    ns_matrix_gemv_t(alpha, X[k], xt, beta, yt);
                    for (size_t i = 0; i < m; i++)
                        if (!(fabs(y[i] - ref[i]) <= tol))
                            fail_msg("gemv storage %d shape %zu seed %d alpha %g beta %g: y[%zu] = %.17g, expected %.17g",
                                     (int)X[k]->storage, s, (int)seed, alpha, beta, i, y[i], ref[i]);
                    for (size_t j = 0; j < n; j++)
                        if (!(fabs(yt[j] - reft[j]) <= tol))
                            fail_msg("gemv_t storage %d shape %zu seed %d alpha %g beta %g: y[%zu] = %.17g, expected %.17g",
                                     (int)X[k]->storage, s, (int)seed, alpha, beta, j, yt[j], reft[j]);
                }
            }
            free(x); free(xt); free(y0); free(yt0); free(y); free(yt); free(ref); free(reft);
            fixture_free(&f);
        }
}

/* ns_matrix_get agrees with D on every entry of every storage (the messy CSC
 * sums its two halves exactly). */
static void test_get_all_storages(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSHAPES; s++) {
        fixture f;
        fixture_shape(&f, s, 4);
        for (ns_int j = 0; j < f.n; j++)
            for (ns_int i = 0; i < f.m; i++) {
                assert_true(ns_matrix_get(f.D, i, j) == D_at(f.D, i, j));
                assert_true(ns_matrix_get(f.S, i, j) == D_at(f.D, i, j));
                assert_true(ns_matrix_get(f.B, i, j) == D_at(f.D, i, j));
            }
        fixture_free(&f);
    }
}

static void assert_canonical_csc(const ns_matrix *S)
{
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(S->storage, NS_SPARSE);
    if (ns_matrix_validate(S, "S", err)) fail_msg("%s", err);
    for (ns_int j = 0; j < S->cols; j++)
        for (ns_int k = S->csc.p[j] + 1; k < S->csc.p[j + 1]; k++)
            assert_true(S->csc.i[k] > S->csc.i[k - 1]);
}

/* Expected block structure of to_block: block stored iff the source stores
 * an entry inside it (CSC: scanned here; DENSE: a non-zero). */
static int csc_touches(const ns_matrix *S, const ns_int *rs, const ns_int *cs, ns_int r, ns_int c)
{
    for (ns_int j = cs[c]; j < cs[c + 1]; j++)
        for (ns_int k = S->csc.p[j]; k < S->csc.p[j + 1]; k++)
            if (S->csc.i[k] >= rs[r] && S->csc.i[k] < rs[r + 1]) return 1;
    return 0;
}

static void check_block_structure(const ns_matrix *B, const fixture *f, const ns_matrix *src)
{
    char err[NS_ERRMSG_LEN] = "";
    assert_non_null(B);
    assert_int_equal(B->storage, NS_BLOCK);
    if (ns_matrix_validate(B, "B", err)) fail_msg("%s", err);
    assert_int_equal(B->block.block_rows, f->nbr);
    assert_int_equal(B->block.block_cols, f->nbc);
    for (ns_int r = 0; r < f->nbr; r++)
        for (ns_int c = 0; c < f->nbc; c++) {
            int want = src->storage == NS_DENSE ? block_nonzero(src, f->rs, f->cs, r, c)
                                                : csc_touches(src, f->rs, f->cs, r, c);
            assert_int_equal(ns_matrix_block_get(B, r, c) != NULL, want);
        }
}

static void test_conversions(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 2; seed++)
        for (size_t s = 0; s < NSHAPES; s++) {
            fixture f;
            fixture_shape(&f, s, seed + 10);
            /* to dense: exact (the CSC halves sum exactly) */
            const ns_matrix *X[3] = { f.D, f.S, f.B };
            for (int k = 0; k < 3; k++) {
                ns_matrix *T = ns_matrix_to_dense(X[k]);
                assert_non_null(T);
                assert_int_equal(T->storage, NS_DENSE);
                assert_true(dense_diff(T, f.D) == 0.0);
                assert_true(ns_matrix_identical(T, f.D));
                ns_matrix_free(T);
            }
            /* to sparse: canonical, same entries */
            ns_matrix *SD = ns_matrix_to_sparse(f.D), *SS = ns_matrix_to_sparse(f.S),
                      *SB = ns_matrix_to_sparse(f.B);
            assert_non_null(SD); assert_non_null(SS); assert_non_null(SB);
            assert_canonical_csc(SD); assert_canonical_csc(SS); assert_canonical_csc(SB);
            assert_true(dense_diff(SD, f.D) == 0.0);
            assert_true(dense_diff(SS, f.D) == 0.0);
            assert_true(dense_diff(SB, f.D) == 0.0);
            size_t nzD = 0;
            for (size_t k = 0; k < ns_matrix_nvalues(f.D); k++) nzD += f.D->dense[k] != 0.0;
            assert_int_equal(SD->csc.nnz, (ns_int)nzD);                 /* dense: non-zeros only */
            assert_int_equal((size_t)SB->csc.nnz, ns_matrix_nvalues(f.B)); /* block: every value */
            /* SS keeps each distinct stored (row, col) of S exactly once */
            size_t distinct = 0;
            for (ns_int j = 0; j < f.n; j++)
                for (ns_int k = f.S->csc.p[j]; k < f.S->csc.p[j + 1]; k++) {
                    int seen = 0;
                    for (ns_int k2 = f.S->csc.p[j]; k2 < k; k2++) seen |= f.S->csc.i[k2] == f.S->csc.i[k];
                    distinct += !seen;
                }
            assert_int_equal((size_t)SS->csc.nnz, distinct);
            /* to block from every storage */
            ns_matrix *BD = ns_matrix_to_block(f.D, f.nbr, f.rs, f.nbc, f.cs);
            ns_matrix *BS = ns_matrix_to_block(f.S, f.nbr, f.rs, f.nbc, f.cs);
            ns_matrix *BB = ns_matrix_to_block(f.B, f.nbr, f.rs, f.nbc, f.cs);
            check_block_structure(BD, &f, f.D);
            check_block_structure(BS, &f, f.S);
            check_block_structure(BB, &f, SB);
            assert_true(dense_diff(BD, f.D) == 0.0);
            assert_true(dense_diff(BS, f.D) == 0.0);
            assert_true(dense_diff(BB, f.D) == 0.0);
            assert_true(ns_matrix_identical(BB, f.B));   /* same cut, same stored blocks */
            /* round trip block → sparse → dense → block */
            ns_matrix *T1 = ns_matrix_to_dense(SB), *T2 = ns_matrix_to_block(T1, f.nbr, f.rs, f.nbc, f.cs);
            assert_true(ns_matrix_identical(T2, BD));
            ns_matrix_free(T1); ns_matrix_free(T2);
            /* max_abs_diff across storages */
            assert_true(ns_matrix_max_abs_diff(f.S, f.B) == 0.0);
            assert_true(ns_matrix_max_abs_diff(f.B, f.D) == 0.0);
            ns_matrix_free(SD); ns_matrix_free(SS); ns_matrix_free(SB);
            ns_matrix_free(BD); ns_matrix_free(BS); ns_matrix_free(BB);
            fixture_free(&f);
        }
}

static void test_to_block_uniform_and_bad_cuts(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f, 99, 12, 6, 3, 0.5);
    ns_matrix *U = ns_matrix_to_block_uniform(f.S, 3);
    assert_non_null(U);
    assert_int_equal(U->block.block_rows, 4);
    assert_int_equal(U->block.block_cols, 2);
    for (ns_int k = 0; k <= 4; k++) assert_int_equal(U->block.row_start[k], 3 * k);
    assert_true(dense_diff(U, f.D) == 0.0);
    ns_int n3;
    for (ns_int r = 0; r < 2; r++)
        if (ns_matrix_block_get(U, r, r)) {
            assert_non_null(ns_matrix_block_diag(U, r, &n3));
            assert_int_equal(n3, 3);
        }
    assert_null(ns_matrix_block_diag(U, 3, &n3));          /* block row 3 has no block (3,3) */
    ns_matrix_free(U);
    assert_null(ns_matrix_to_block_uniform(f.D, 5));        /* 12 not divisible by 5 */
    assert_null(ns_matrix_to_block_uniform(f.D, 0));
    ns_int bad_rs[3] = { 0, 7, 7 }, cs[2] = { 0, 6 }, short_rs[2] = { 0, 11 };
    assert_null(ns_matrix_to_block(f.D, 2, bad_rs, 1, cs));   /* not strictly increasing */
    assert_null(ns_matrix_to_block(f.D, 1, short_rs, 1, cs)); /* does not end at rows */
    fixture_free(&f);
}

/* Aᵀ in the same storage equals the transpose of D. */
static void test_transpose(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSHAPES; s++) {
        fixture f;
        fixture_shape(&f, s, 21);
        ns_matrix *Dt = ns_matrix_dense_new(f.n, f.m);
        for (ns_int j = 0; j < f.n; j++)
            for (ns_int i = 0; i < f.m; i++) Dt->dense[j + (size_t)i * f.n] = D_at(f.D, i, j);
        const ns_matrix *X[3] = { f.D, f.S, f.B };
        for (int k = 0; k < 3; k++) {
            ns_matrix *T = ns_matrix_transpose(X[k]);
            char err[NS_ERRMSG_LEN] = "";
            assert_non_null(T);
            assert_int_equal(T->storage, X[k]->storage);
            if (ns_matrix_validate(T, "T", err)) fail_msg("%s", err);
            assert_true(dense_diff(T, Dt) == 0.0);
            ns_matrix *TT = ns_matrix_transpose(T);
            assert_true(dense_diff(TT, f.D) == 0.0);
            if (X[k]->storage != NS_SPARSE) assert_true(ns_matrix_identical(TT, X[k]));
            else assert_int_equal(TT->csc.nnz, f.S->csc.nnz);   /* duplicates kept */
            ns_matrix_free(T); ns_matrix_free(TT);
        }
        ns_matrix_free(Dt);
        fixture_free(&f);
    }
}

/* block_get / block_diag point at the right sub-blocks of D. */
static void test_block_access(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSHAPES; s++) {
        fixture f;
        fixture_shape(&f, s, 31);
        for (ns_int r = 0; r < f.nbr; r++) {
            ns_int h = f.rs[r + 1] - f.rs[r];
            for (ns_int c = 0; c < f.nbc; c++) {
                const double *X = ns_matrix_block_get(f.B, r, c);
                if (!X) { assert_false(block_nonzero(f.D, f.rs, f.cs, r, c)); continue; }
                for (ns_int j = f.cs[c]; j < f.cs[c + 1]; j++)
                    for (ns_int i = f.rs[r]; i < f.rs[r + 1]; i++)
                        assert_true(X[(i - f.rs[r]) + (size_t)(j - f.cs[c]) * h] == D_at(f.D, i, j));
            }
            ns_int dn = -1;
            const double *Xd = ns_matrix_block_diag(f.B, r, &dn);
            const double *Xg = ns_matrix_block_get(f.B, r, r);
            int square = r < f.nbc && h == f.cs[r + 1] - f.cs[r];
            if (Xg && square) { assert_ptr_equal(Xd, Xg); assert_int_equal(dn, h); }
            else assert_null(Xd);
            if (f.nbr >= 3 && r == 1) assert_int_equal(f.B->block.row_ptr[2], f.B->block.row_ptr[1]);
        }
        assert_null(ns_matrix_block_get(f.B, -1, 0));
        assert_null(ns_matrix_block_get(f.B, f.nbr, 0));
        assert_null(ns_matrix_block_get(f.D, 0, 0));         /* not BLOCK */
        assert_null(ns_matrix_block_diag(f.S, 0, NULL));
        fixture_free(&f);
    }
}

static void test_block_new_rejects(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN];
    ns_int rs[3] = { 0, 2, 5 }, cs[3] = { 0, 3, 4 };
    ns_int rp[3] = { 0, 2, 3 }, bcol[3] = { 0, 1, 1 };
    ns_matrix *A = ns_matrix_block_new(2, 2, rs, cs, rp, bcol, err);
    assert_non_null(A);
    assert_int_equal(A->rows, 5);
    assert_int_equal(A->cols, 4);
    assert_int_equal(ns_matrix_nvalues(A), 2 * 3 + 2 * 1 + 3 * 1);
    assert_int_equal(A->block.diag[0], 0);
    assert_int_equal(A->block.diag[1], 2);
    ns_int n = 0;
    assert_null(ns_matrix_block_diag(A, 0, &n));             /* 2×3: not square */
    assert_null(ns_matrix_block_diag(A, 1, &n));             /* 3×1: not square */
    ns_matrix_free(A);

    ns_int bad_rs[3] = { 0, 2, 2 };
    err[0] = 0;
    assert_null(ns_matrix_block_new(2, 2, bad_rs, cs, rp, bcol, err));
    assert_non_null(strstr(err, "row_start"));
    ns_int bad_bcol[3] = { 1, 0, 1 };
    err[0] = 0;
    assert_null(ns_matrix_block_new(2, 2, rs, cs, rp, bad_bcol, err));
    assert_non_null(strstr(err, "block_col"));
    ns_int out_bcol[3] = { 0, 2, 1 };
    err[0] = 0;
    assert_null(ns_matrix_block_new(2, 2, rs, cs, rp, out_bcol, err));
    assert_non_null(strstr(err, "block_col"));
    ns_int bad_rp[3] = { 0, 3, 2 };
    err[0] = 0;
    assert_null(ns_matrix_block_new(2, 2, rs, cs, bad_rp, bcol, err));
    assert_non_null(strstr(err, "row_ptr"));
    assert_null(ns_matrix_block_new(2, 2, bad_rs, cs, rp, bcol, NULL));   /* err may be NULL */
    ns_matrix_free(ns_matrix_block_new(2, 2, rs, cs, rp, bcol, NULL));
}

static void expect_invalid(const ns_matrix *A, const char *word)
{
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(ns_matrix_validate(A, "Mx", err), NS_BAD_INPUT);
    if (!strstr(err, word) || !strstr(err, "Mx")) fail_msg("message '%s' does not name '%s'", err, word);
}

static void test_validate_rejects(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f, 5, 9, 9, 3, 0.5);
    f.D->dense[3] = NAN;
    expect_invalid(f.D, "not finite");
    /* sparse: decreasing p, row out of range, nnz mismatch, infinite value */
    ns_matrix *S = ns_matrix_copy(f.S);
    S->csc.p[4] = S->csc.p[3] - 1;
    expect_invalid(S, "p[4]");
    ns_matrix_free(S);
    S = ns_matrix_copy(f.S);
    assert_true(S->csc.nnz > 0);
    S->csc.i[0] = 9;
    expect_invalid(S, "i[0]");
    ns_matrix_free(S);
    S = ns_matrix_copy(f.S);
    S->csc.nnz += 1;
    expect_invalid(S, "nnz");
    ns_matrix_free(S);
    S = ns_matrix_copy(f.S);
    S->csc.x[S->csc.nnz - 1] = INFINITY;
    expect_invalid(S, "not finite");
    ns_matrix_free(S);
    /* block: wrong diag, block column out of range, NaN */
    ns_matrix *B = ns_matrix_copy(f.B);
    assert_true(B->block.nblocks > 0);
    B->block.diag[0] = 99;
    expect_invalid(B, "diag[0]");
    ns_matrix_free(B);
    B = ns_matrix_copy(f.B);
    B->block.block_col[0] = B->block.block_cols;
    expect_invalid(B, "block_col[0]");
    ns_matrix_free(B);
    B = ns_matrix_copy(f.B);
    B->block.x[0] = NAN;
    expect_invalid(B, "not finite");
    ns_matrix_free(B);
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(ns_matrix_validate(NULL, "Z", err), NS_BAD_INPUT);
    fixture_free(&f);
}

static void test_norms(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSHAPES; s++) {
        fixture f;
        fixture_shape(&f, s, 41);
        double mx = 0.0, ss = 0.0;
        for (size_t k = 0; k < ns_matrix_nvalues(f.D); k++) {
            if (fabs(f.D->dense[k]) > mx) mx = fabs(f.D->dense[k]);
            ss += f.D->dense[k] * f.D->dense[k];
        }
        const ns_matrix *X[3] = { f.D, f.S, f.B };
        for (int k = 0; k < 3; k++) {
            assert_true(ns_matrix_norm_max(X[k]) == mx);
            assert_true(fabs(ns_matrix_norm_fro(X[k]) - sqrt(ss)) <= 1e-14 * (1 + sqrt(ss)));
        }
        fixture_free(&f);
    }
    /* a CSC whose duplicates cancel has norm 0, one whose halves add has the sum */
    ns_matrix *S = ns_matrix_sparse_new(2, 1, 2);
    S->csc.p[1] = 2;
    S->csc.i[0] = 1; S->csc.x[0] = 3.0;
    S->csc.i[1] = 1; S->csc.x[1] = 4.0;
    assert_true(ns_matrix_norm_max(S) == 7.0);
    assert_true(ns_matrix_norm_fro(S) == 7.0);
    S->csc.x[1] = -3.0;
    assert_true(ns_matrix_norm_max(S) == 0.0);
    ns_matrix_free(S);
}

static void test_copy_identical_diff(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f, 61, 20, 14, 4, 0.4);
    const ns_matrix *X[3] = { f.D, f.S, f.B };
    for (int k = 0; k < 3; k++) {
        ns_matrix *C = ns_matrix_copy(X[k]);
        assert_true(ns_matrix_identical(C, X[k]));
        assert_true(C != X[k] && ns_matrix_values(C) != ns_matrix_values_const(X[k]));
        assert_true(ns_matrix_max_abs_diff(C, X[k]) == 0.0);
        double *v = ns_matrix_values(C);
        v[0] += 0.25;                                    /* one stored value changes */
        assert_false(ns_matrix_identical(C, X[k]));
        assert_true(fabs(ns_matrix_max_abs_diff(C, f.D) - 0.25) <= 1e-15);
        assert_true(fabs(ns_matrix_max_abs_diff(f.D, C) - 0.25) <= 1e-15);
        ns_matrix_free(C);
    }
    assert_false(ns_matrix_identical(f.D, f.S));          /* same entries, other storage */
    ns_matrix *W = ns_matrix_dense_new(20, 13);
    assert_true(isinf(ns_matrix_max_abs_diff(f.D, W)));
    ns_matrix_free(W);
    fixture_free(&f);
}

/* Symmetric = D + Dᵀ in every storage; one perturbed entry breaks exact
 * symmetry but stays within a relative tolerance larger than it. */
static void test_is_symmetric(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSHAPES; s++) {
        fixture f;
        fixture_shape(&f, s, 51);
        if (f.m != f.n) {
            assert_false(ns_matrix_is_symmetric(f.D, 1.0));
            assert_false(ns_matrix_is_symmetric(f.S, 1.0));
            fixture_free(&f);
            continue;
        }
        ns_int n = f.n;
        ns_matrix *Y = ns_matrix_dense_new(n, n);
        for (ns_int j = 0; j < n; j++)
            for (ns_int i = 0; i < n; i++) Y->dense[i + (size_t)j * n] = D_at(f.D, i, j) + D_at(f.D, j, i);
        ns_matrix *YS = ns_matrix_to_sparse(Y), *YB = ns_matrix_to_block(Y, f.nbr, f.rs, f.nbc, f.cs);
        const ns_matrix *X[3] = { Y, YS, YB };
        for (int k = 0; k < 3; k++) assert_true(ns_matrix_is_symmetric(X[k], 0.0));
        /* perturb one off-diagonal entry (i, j), i ≠ j */
        ns_int i0 = -1, j0 = -1;
        for (ns_int j = 0; j < n && i0 < 0; j++)
            for (ns_int i = j + 1; i < n; i++)
                if (Y->dense[i + (size_t)j * n] != 0.0) { i0 = i; j0 = j; break; }
        if (i0 >= 0) {
            double mx = ns_matrix_norm_max(Y);
            Y->dense[i0 + (size_t)j0 * n] += 1e-13 * mx;
            ns_matrix *YS2 = ns_matrix_to_sparse(Y), *YB2 = ns_matrix_to_block(Y, f.nbr, f.rs, f.nbc, f.cs);
            const ns_matrix *Z[3] = { Y, YS2, YB2 };
            for (int k = 0; k < 3; k++) {
                assert_false(ns_matrix_is_symmetric(Z[k], 0.0));
                assert_true(ns_matrix_is_symmetric(Z[k], 1e-12));
                assert_false(ns_matrix_is_symmetric(Z[k], 1e-14));
            }
            ns_matrix_free(YS2); ns_matrix_free(YB2);
        }
        ns_matrix_free(Y); ns_matrix_free(YS); ns_matrix_free(YB);
        fixture_free(&f);
    }
}

/* A symmetric matrix stored in CSC with an entry split into duplicates on one
 * side only is still symmetric (entries, not storage, are compared). */
static void test_symmetric_with_duplicates(void **state)
{
    (void)state;
    ns_matrix *S = ns_matrix_sparse_new(2, 2, 4);
    ns_int p[3] = { 0, 2, 4 }, ri[4] = { 1, 1, 0, 1 };
    double x[4] = { 1.5, 0.5, 2.0, 5.0 };            /* A = [0 2; 2 5] with A10 = 1.5 + 0.5 */
    memcpy(S->csc.p, p, sizeof p); memcpy(S->csc.i, ri, sizeof ri); memcpy(S->csc.x, x, sizeof x);
    assert_true(ns_matrix_is_symmetric(S, 0.0));
    S->csc.x[1] = 0.75;
    assert_false(ns_matrix_is_symmetric(S, 0.0));
    ns_matrix_free(S);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dense_basics),
        cmocka_unit_test(test_gemv_all_storages),
        cmocka_unit_test(test_get_all_storages),
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_to_block_uniform_and_bad_cuts),
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_block_access),
        cmocka_unit_test(test_block_new_rejects),
        cmocka_unit_test(test_validate_rejects),
        cmocka_unit_test(test_norms),
        cmocka_unit_test(test_copy_identical_diff),
        cmocka_unit_test(test_is_symmetric),
        cmocka_unit_test(test_symmetric_with_duplicates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
