/* matrix_gemv.c — y = αAx + βy and y = αAᵀx + βy for the three storages.
 * BLOCK products are what Gauss–Seidel sweeps run: 1×1, 2×2 and 3×3 blocks
 * have unrolled kernels, other small blocks a plain loop, large ones CBLAS.
 * A small DENSE matrix (at most SMALL_DENSE entries) takes the same plain
 * loop: OpenBLAS' dgemv costs ~400 instructions of call overhead, more than
 * the product itself below ~16×16, and small problems (one time step of a
 * few contacts) compute several products per solve. */
#include "matrix/matrix_internal.h"
#include "core/ns_internal.h"
#include <cblas.h>
#include <string.h>

/* y ← βy over n entries (β = 0 sets y = 0 whatever its content). */
static void scale(double beta, double *y, ns_int n)
{
    if (beta == 1.0) return;
    if (beta == 0.0) { if (n > 0) memset(y, 0, (size_t)n * sizeof *y); return; }
    for (ns_int k = 0; k < n; k++) y[k] *= beta;
}

/* acc[0..h) += B x with B h×w column-major (small blocks). */
static inline void block_mv_add(ns_int h, ns_int w, const double *B, const double *x, double *acc)
{
    if (h == 3 && w == 3) {
        double x0 = x[0], x1 = x[1], x2 = x[2];
        acc[0] += B[0] * x0 + B[3] * x1 + B[6] * x2;
        acc[1] += B[1] * x0 + B[4] * x1 + B[7] * x2;
        acc[2] += B[2] * x0 + B[5] * x1 + B[8] * x2;
    } else if (h == 2 && w == 2) {
        double x0 = x[0], x1 = x[1];
        acc[0] += B[0] * x0 + B[2] * x1;
        acc[1] += B[1] * x0 + B[3] * x1;
    } else if (h == 1 && w == 1) {
        acc[0] += B[0] * x[0];
    } else {
        for (ns_int j = 0; j < w; j++) {
            double xj = x[j];
            const double *col = B + (size_t)j * h;
            for (ns_int i = 0; i < h; i++) acc[i] += col[i] * xj;
        }
    }
}

/* y[0..w) += α Bᵀ x with B h×w column-major (small blocks). */
static inline void block_mtv_add(double alpha, ns_int h, ns_int w, const double *B,
                                 const double *x, double *y)
{
    if (h == 3 && w == 3) {
        double x0 = x[0], x1 = x[1], x2 = x[2];
        y[0] += alpha * (B[0] * x0 + B[1] * x1 + B[2] * x2);
        y[1] += alpha * (B[3] * x0 + B[4] * x1 + B[5] * x2);
        y[2] += alpha * (B[6] * x0 + B[7] * x1 + B[8] * x2);
    } else if (h == 2 && w == 2) {
        double x0 = x[0], x1 = x[1];
        y[0] += alpha * (B[0] * x0 + B[1] * x1);
        y[1] += alpha * (B[2] * x0 + B[3] * x1);
    } else if (h == 1 && w == 1) {
        y[0] += alpha * B[0] * x[0];
    } else {
        for (ns_int j = 0; j < w; j++) {
            const double *col = B + (size_t)j * h;
            double s = 0.0;
            for (ns_int i = 0; i < h; i++) s += col[i] * x[i];
            y[j] += alpha * s;
        }
    }
}

enum { SMALL_ROWS = 16, SMALL_BLOCK = 64 };

/* A block row of height 3 whose blocks are all 3×3 (the contact rows of
 * FC3D): the sums held in registers (the general path below zeroes and
 * reads back a 16-entry buffer and tests each block's shape), the same
 * operations in the same order as block_mv_add. 0 (nothing written) when a
 * block of the row is not 3 wide. */
static inline int block_row3(double alpha, const ns_block *b, const double *x, double beta,
                             double *yr, ns_int r)
{
    double a0 = 0.0, a1 = 0.0, a2 = 0.0;
    for (ns_int k = b->row_ptr[r]; k < b->row_ptr[r + 1]; k++) {
        ns_int c = b->block_col[k], c0 = b->col_start[c];
        if (b->col_start[c + 1] - c0 != 3) return 0;
        const double *B = b->x + b->value_ptr[k], *xc = x + c0;
        const double x0 = xc[0], x1 = xc[1], x2 = xc[2];
        a0 += B[0] * x0 + B[3] * x1 + B[6] * x2;
        a1 += B[1] * x0 + B[4] * x1 + B[7] * x2;
        a2 += B[2] * x0 + B[5] * x1 + B[8] * x2;
    }
    if (beta == 0.0) {
        yr[0] = alpha * a0; yr[1] = alpha * a1; yr[2] = alpha * a2;
    } else {
        yr[0] = alpha * a0 + beta * yr[0];
        yr[1] = alpha * a1 + beta * yr[1];
        yr[2] = alpha * a2 + beta * yr[2];
    }
    return 1;
}

/* y = αAx + βy, A in BLOCK storage: each block row accumulates into a local
 * buffer (small heights) or goes through CBLAS (tall block rows). */
/* block row r of y = αAx + βy, A in BLOCK storage */
static inline void block_gemv_row(double alpha, const ns_block *b, const double *x, double beta,
                                  double *y, ns_int r)
{
    ns_int r0 = b->row_start[r], h = b->row_start[r + 1] - r0;
    double *yr = y + r0;
    if (h == 3 && block_row3(alpha, b, x, beta, yr, r)) return;
    if (h <= SMALL_ROWS) {
        double acc[SMALL_ROWS] = { 0 };
        for (ns_int k = b->row_ptr[r]; k < b->row_ptr[r + 1]; k++) {
            ns_int c = b->block_col[k], c0 = b->col_start[c];
            ns_int w = b->col_start[c + 1] - c0;
            const double *B = b->x + b->value_ptr[k];
            if ((long long)w * h <= SMALL_BLOCK || h < 2) block_mv_add(h, w, B, x + c0, acc);
            else cblas_dgemv(CblasColMajor, CblasNoTrans, h, w, 1.0, B, h, x + c0, 1, 1.0, acc, 1);
        }
        if (beta == 0.0) for (ns_int i = 0; i < h; i++) yr[i] = alpha * acc[i];
        else for (ns_int i = 0; i < h; i++) yr[i] = alpha * acc[i] + beta * yr[i];
    } else {
        scale(beta, yr, h);
        for (ns_int k = b->row_ptr[r]; k < b->row_ptr[r + 1]; k++) {
            ns_int c = b->block_col[k], c0 = b->col_start[c];
            ns_int w = b->col_start[c + 1] - c0;
            cblas_dgemv(CblasColMajor, CblasNoTrans, h, w, alpha, b->x + b->value_ptr[k], h,
                        x + c0, 1, 1.0, yr, 1);
        }
    }
}

static void block_gemv(double alpha, const ns_block *b, const double *x, double beta, double *y)
{
    for (ns_int r = 0; r < b->block_rows; r++) block_gemv_row(alpha, b, x, beta, y, r);
}

/* y = αAᵀx + βy, A in BLOCK storage: block (r, c) adds α Bᵀ x_r to y_c. */
static void block_gemv_t(double alpha, const ns_block *b, ns_int cols, const double *x,
                         double beta, double *y)
{
    scale(beta, y, cols);
    for (ns_int r = 0; r < b->block_rows; r++) {
        ns_int r0 = b->row_start[r], h = b->row_start[r + 1] - r0;
        for (ns_int k = b->row_ptr[r]; k < b->row_ptr[r + 1]; k++) {
            ns_int c = b->block_col[k], c0 = b->col_start[c];
            ns_int w = b->col_start[c + 1] - c0;
            const double *B = b->x + b->value_ptr[k];
            if ((long long)w * h <= SMALL_BLOCK) block_mtv_add(alpha, h, w, B, x + r0, y + c0);
            else cblas_dgemv(CblasColMajor, CblasTrans, h, w, alpha, B, h, x + r0, 1, 1.0, y + c0, 1);
        }
    }
}

enum { SMALL_DENSE = 256 };

/* y[0..n) = α acc + βy (β = 0 ignores y's content). */
static inline void small_finish(double alpha, double beta, const double *acc, ns_int n, double *y)
{
    if (beta == 0.0) for (ns_int i = 0; i < n; i++) y[i] = alpha * acc[i];
    else if (beta == 1.0) for (ns_int i = 0; i < n; i++) y[i] += alpha * acc[i];
    else for (ns_int i = 0; i < n; i++) y[i] = alpha * acc[i] + beta * y[i];
}

/* y = αAx + βy, A dense r×c (r·c ≤ SMALL_DENSE, so r ≤ SMALL_DENSE).
 * With GCC/Clang's vector extension: eight rows at a time held in four
 * two-lane sums over all columns (one pass over A, the sums in registers,
 * four independent add chains), then four rows (four sums over even and
 * odd columns), then pairs of rows, then a last row. The
 * compiler's own vectorisation of a column loop of length r pays run-time
 * checks and remainders on every column: a 12×12 product took ~690
 * instructions that way, ~590 this way. */
#if defined(__GNUC__)
static void small_dense_gemv(double alpha, ns_int r, ns_int c, const double *A,
                             const double *x, double beta, double *y)
{
    const size_t ld = (size_t)r;
    double acc[8];
    ns_int i = 0;
    for (; i + 8 <= r; i += 8) {
        ns_v2d s0 = { 0.0, 0.0 }, s1 = s0, s2 = s0, s3 = s0;
        const double *a = A + i;
        for (ns_int j = 0; j < c; j++, a += ld) {
            const double xj = x[j];
            s0 += ns_v2d_load(a) * xj;
            s1 += ns_v2d_load(a + 2) * xj;
            s2 += ns_v2d_load(a + 4) * xj;
            s3 += ns_v2d_load(a + 6) * xj;
        }
        memcpy(acc, &s0, sizeof s0);
        memcpy(acc + 2, &s1, sizeof s1);
        memcpy(acc + 4, &s2, sizeof s2);
        memcpy(acc + 6, &s3, sizeof s3);
        small_finish(alpha, beta, acc, 8, y + i);
    }
    if (i + 4 <= r) {   /* four rows: two sums over even and odd columns each */
        ns_v2d s0 = { 0.0, 0.0 }, s1 = s0, s2 = s0, s3 = s0;
        const double *a = A + i;
        ns_int j = 0;
        for (; j + 2 <= c; j += 2, a += 2 * ld) {
            const double x0 = x[j], x1 = x[j + 1];
            s0 += ns_v2d_load(a) * x0;
            s1 += ns_v2d_load(a + 2) * x0;
            s2 += ns_v2d_load(a + ld) * x1;
            s3 += ns_v2d_load(a + ld + 2) * x1;
        }
        if (j < c) {
            s0 += ns_v2d_load(a) * x[j];
            s1 += ns_v2d_load(a + 2) * x[j];
        }
        s0 += s2;
        s1 += s3;
        memcpy(acc, &s0, sizeof s0);
        memcpy(acc + 2, &s1, sizeof s1);
        small_finish(alpha, beta, acc, 4, y + i);
        i += 4;
    }
    for (; i + 2 <= r; i += 2) {
        ns_v2d s0 = { 0.0, 0.0 }, s1 = s0;   /* even and odd columns */
        const double *a = A + i;
        ns_int j = 0;
        for (; j + 2 <= c; j += 2, a += 2 * ld) {
            s0 += ns_v2d_load(a) * x[j];
            s1 += ns_v2d_load(a + ld) * x[j + 1];
        }
        if (j < c) s0 += ns_v2d_load(a) * x[j];
        s0 += s1;
        memcpy(acc, &s0, sizeof s0);
        small_finish(alpha, beta, acc, 2, y + i);
    }
    if (i < r) {
        double s = 0.0;
        for (ns_int j = 0; j < c; j++) s += A[(size_t)j * ld + (size_t)i] * x[j];
        small_finish(alpha, beta, &s, 1, y + i);
    }
}
#else
static void small_dense_gemv(double alpha, ns_int r, ns_int c, const double *A,
                             const double *x, double beta, double *y)
{
    double acc[SMALL_DENSE];
    for (ns_int i = 0; i < r; i++) acc[i] = A[i] * x[0];
    for (ns_int j = 1; j < c; j++) {
        const double xj = x[j], *col = A + (size_t)j * (size_t)r;
        for (ns_int i = 0; i < r; i++) acc[i] += col[i] * xj;
    }
    small_finish(alpha, beta, acc, r, y);
}
#endif

/* y = αAᵀx + βy, A dense r×c (r·c ≤ SMALL_DENSE). */
static void small_dense_gemv_t(double alpha, ns_int r, ns_int c, const double *A,
                               const double *x, double beta, double *y)
{
    for (ns_int j = 0; j < c; j++) {
        const double *col = A + (size_t)j * (size_t)r;
        double s = 0.0;
        for (ns_int i = 0; i < r; i++) s += col[i] * x[i];
        y[j] = beta == 0.0 ? alpha * s : alpha * s + beta * y[j];
    }
}

/* y = αAx + βy (x ∈ ℝ^cols, y ∈ ℝ^rows); β = 0 ignores y's content. */
void ns_matrix_gemv(double alpha, const ns_matrix *A, const double *x, double beta, double *y)
{
    if (A->rows == 0) return;
    if (A->cols == 0 || alpha == 0.0) { scale(beta, y, A->rows); return; }
    switch (A->storage) {
    case NS_DENSE:
        if ((long long)A->rows * A->cols <= SMALL_DENSE) {
            small_dense_gemv(alpha, A->rows, A->cols, A->dense, x, beta, y);
            break;
        }
        scale(beta == 0.0 ? 0.0 : 1.0, y, A->rows);
        cblas_dgemv(CblasColMajor, CblasNoTrans, A->rows, A->cols, alpha, A->dense, A->rows,
                    x, 1, beta, y, 1);
        break;
    case NS_SPARSE: {
        const ns_csc *c = &A->csc;
        scale(beta, y, A->rows);
        for (ns_int j = 0; j < A->cols; j++) {
            double t = alpha * x[j];
            for (ns_int k = c->p[j]; k < c->p[j + 1]; k++) y[c->i[k]] += c->x[k] * t;
        }
        break;
    }
    case NS_BLOCK:
        block_gemv(alpha, &A->block, x, beta, y);
        break;
    }
}

/* Entry j of y = αAᵀx + βy for CSC A: column j's dot product with x
 * (shared by the serial and the threaded product, so both give the same
 * bits). */
static inline void csc_gemv_t_col(double alpha, const ns_csc *c, const double *x, double beta,
                                  double *y, ns_int j)
{
    double s = 0.0;
    for (ns_int k = c->p[j]; k < c->p[j + 1]; k++) s += c->x[k] * x[c->i[k]];
    y[j] = beta == 0.0 ? alpha * s : alpha * s + beta * y[j];
}

/* y = αAᵀx + βy (x ∈ ℝ^rows, y ∈ ℝ^cols); β = 0 ignores y's content. */
void ns_matrix_gemv_t(double alpha, const ns_matrix *A, const double *x, double beta, double *y)
{
    if (A->cols == 0) return;
    if (A->rows == 0 || alpha == 0.0) { scale(beta, y, A->cols); return; }
    switch (A->storage) {
    case NS_DENSE:
        if ((long long)A->rows * A->cols <= SMALL_DENSE) {
            small_dense_gemv_t(alpha, A->rows, A->cols, A->dense, x, beta, y);
            break;
        }
        scale(beta == 0.0 ? 0.0 : 1.0, y, A->cols);
        cblas_dgemv(CblasColMajor, CblasTrans, A->rows, A->cols, alpha, A->dense, A->rows,
                    x, 1, beta, y, 1);
        break;
    case NS_SPARSE: {
        const ns_csc *c = &A->csc;
        for (ns_int j = 0; j < A->cols; j++) csc_gemv_t_col(alpha, c, x, beta, y, j);
        break;
    }
    case NS_BLOCK:
        block_gemv_t(alpha, &A->block, A->cols, x, beta, y);
        break;
    }
}

/* y = αAx + βy on `threads` OpenMP threads where the product is a gather:
 * BLOCK storage, one block row per task. Every row is computed by the
 * same code as ns_matrix_gemv's, so the result is bit-identical to it for
 * any thread count; other storages (CSC's product is a scatter) and
 * threads ≤ 1 call ns_matrix_gemv. */
void ns_matrix_gemv_threads(double alpha, const ns_matrix *A, const double *x, double beta,
                            double *y, int threads)
{
#ifdef _OPENMP
    if (threads > 1 && A->storage == NS_BLOCK && A->rows > 0 && A->cols > 0 && alpha != 0.0) {
        const ns_block *b = &A->block;
#pragma omp parallel for schedule(static) num_threads(threads)
        for (ns_int r = 0; r < b->block_rows; r++) block_gemv_row(alpha, b, x, beta, y, r);
        return;
    }
#endif
    (void)threads;
    ns_matrix_gemv(alpha, A, x, beta, y);
}

/* y = αAᵀx + βy on `threads` OpenMP threads where the product is a
 * gather: CSC storage, one column of A (an entry of y) per task, each the
 * same dot product as ns_matrix_gemv_t's, so bit-identical to it for any
 * thread count; other storages and threads ≤ 1 call ns_matrix_gemv_t. */
void ns_matrix_gemv_t_threads(double alpha, const ns_matrix *A, const double *x, double beta,
                              double *y, int threads)
{
#ifdef _OPENMP
    if (threads > 1 && A->storage == NS_SPARSE && A->rows > 0 && A->cols > 0 && alpha != 0.0) {
        const ns_csc *c = &A->csc;
#pragma omp parallel for schedule(static) num_threads(threads)
        for (ns_int j = 0; j < A->cols; j++) csc_gemv_t_col(alpha, c, x, beta, y, j);
        return;
    }
#endif
    (void)threads;
    ns_matrix_gemv_t(alpha, A, x, beta, y);
}
