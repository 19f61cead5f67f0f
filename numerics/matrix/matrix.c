/* matrix.c — construction, copy, validation, entries, norms and comparisons
 * of ns_matrix (the three storages described in ns_matrix.h). */
#include "matrix/matrix_internal.h"
#include "core/ns_internal.h"
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Shell with no arrays: storage and sizes only (sizes must be ≥ 0). */
ns_matrix *ns_matrix_shell(ns_storage storage, ns_int rows, ns_int cols)
{
    if (rows < 0 || cols < 0) return NULL;
    ns_matrix *A = calloc(1, sizeof *A);
    if (!A) return NULL;
    A->storage = storage;
    A->rows = rows;
    A->cols = cols;
    return A;
}

/* A = 0 ∈ ℝ^{rows×cols}, dense column-major; rows*cols*8 must stay below
 * PTRDIFF_MAX (checked in size_t before multiplying). */
ns_matrix *ns_matrix_dense_new(ns_int rows, ns_int cols)
{
    if (rows < 0 || cols < 0) return NULL;
    if (cols > 0 && (size_t)rows > (size_t)PTRDIFF_MAX / sizeof(double) / (size_t)cols) return NULL;
    ns_matrix *A = ns_matrix_shell(NS_DENSE, rows, cols);
    if (!A) return NULL;
    A->dense = ns_calloc((size_t)rows * (size_t)cols, sizeof(double));
    if (!A->dense) { free(A); return NULL; }
    return A;
}

/* Empty CSC rows×cols (p = 0) with room for nnz entries; csc.nnz = nnz, the
 * count the caller promises to fill (p[cols] must end equal to it). */
ns_matrix *ns_matrix_sparse_new(ns_int rows, ns_int cols, ns_int nnz)
{
    if (rows < 0 || cols < 0 || nnz < 0) return NULL;
    ns_matrix *A = ns_matrix_shell(NS_SPARSE, rows, cols);
    if (!A) return NULL;
    A->csc.nnz = nnz;
    A->csc.p = ns_calloc((size_t)cols + 1, sizeof(ns_int));
    A->csc.i = ns_malloc((size_t)nnz, sizeof(ns_int));
    A->csc.x = ns_malloc((size_t)nnz, sizeof(double));
    if (!A->csc.p || !A->csc.i || !A->csc.x) { ns_matrix_free(A); return NULL; }
    return A;
}

static ns_int *dup_int(const ns_int *src, size_t n)
{
    ns_int *d = ns_malloc(n, sizeof *d);
    if (d && n) memcpy(d, src, n * sizeof *d);
    return d;
}

/* B = A, deep copy of every array (same storage and structure). */
ns_matrix *ns_matrix_copy(const ns_matrix *A)
{
    if (!A) return NULL;
    ns_matrix *B = ns_matrix_shell(A->storage, A->rows, A->cols);
    if (!B) return NULL;
    size_t nv = ns_matrix_nvalues(A);
    if (A->storage == NS_DENSE) {
        B->dense = ns_dup(A->dense, nv);
        if (!B->dense) goto fail;
    } else if (A->storage == NS_SPARSE) {
        B->csc.nnz = A->csc.nnz;
        B->csc.p = dup_int(A->csc.p, (size_t)A->cols + 1);
        B->csc.i = dup_int(A->csc.i, (size_t)A->csc.nnz);
        B->csc.x = ns_dup(A->csc.x, (size_t)A->csc.nnz);
        if (!B->csc.p || !B->csc.i || !B->csc.x) goto fail;
    } else {
        const ns_block *a = &A->block;
        ns_block *b = &B->block;
        *b = *a;
        b->cap_rows = b->cap_cols = b->cap_blocks = b->cap_values = 0;   /* exact copies */
        b->row_start = dup_int(a->row_start, (size_t)a->block_rows + 1);
        b->col_start = dup_int(a->col_start, (size_t)a->block_cols + 1);
        b->row_ptr = dup_int(a->row_ptr, (size_t)a->block_rows + 1);
        b->block_col = dup_int(a->block_col, (size_t)a->nblocks);
        b->value_ptr = dup_int(a->value_ptr, (size_t)a->nblocks + 1);
        b->diag = dup_int(a->diag, (size_t)a->block_rows);
        b->x = ns_dup(a->x, nv);
        if (!b->row_start || !b->col_start || !b->row_ptr || !b->block_col ||
            !b->value_ptr || !b->diag || !b->x) goto fail;
    }
    return B;
fail:
    ns_matrix_free(B);
    return NULL;
}

/* Releases A and every array it owns. */
void ns_matrix_free(ns_matrix *A)
{
    if (!A) return;
    free(A->dense);
    free(A->csc.p);
    free(A->csc.i);
    free(A->csc.x);
    free(A->block.row_start);
    free(A->block.col_start);
    free(A->block.row_ptr);
    free(A->block.block_col);
    free(A->block.value_ptr);
    free(A->block.diag);
    free(A->block.x);
    free(A);
}

/* Number of stored values: rows*cols, nnz, or Σ block sizes. */
size_t ns_matrix_nvalues(const ns_matrix *A)
{
    if (!A) return 0;
    switch (A->storage) {
    case NS_DENSE: return (size_t)A->rows * (size_t)A->cols;
    case NS_SPARSE: return A->csc.nnz > 0 ? (size_t)A->csc.nnz : 0;
    case NS_BLOCK:
        return A->block.value_ptr && A->block.nblocks >= 0
                   ? (size_t)A->block.value_ptr[A->block.nblocks] : 0;
    }
    return 0;
}

/* The stored values array (length ns_matrix_nvalues), owned by A. */
double *ns_matrix_values(ns_matrix *A)
{
    if (!A) return NULL;
    switch (A->storage) {
    case NS_DENSE: return A->dense;
    case NS_SPARSE: return A->csc.x;
    case NS_BLOCK: return A->block.x;
    }
    return NULL;
}

const double *ns_matrix_values_const(const ns_matrix *A)
{
    return ns_matrix_values((ns_matrix *)A);
}

/* Boundary array start[0..n]: start[0] = 0, strictly increasing, start[n] = end. */
static ns_status check_bounds(const ns_int *start, ns_int n, ns_int end,
                              const char *name, const char *field, char *err)
{
    if (!start) return ns_fail(err, NS_BAD_INPUT, "%s: %s is NULL", name, field);
    if (start[0] != 0)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s[0] = %d, expected 0", name, field, start[0]);
    for (ns_int k = 0; k < n; k++)
        if (start[k + 1] <= start[k])
            return ns_fail(err, NS_BAD_INPUT, "%s: %s[%d] = %d not above %s[%d] = %d",
                           name, field, k + 1, start[k + 1], field, k, start[k]);
    if (start[n] != end)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s[%d] = %d, expected %d",
                       name, field, n, start[n], end);
    return NS_OK;
}

static ns_status validate_block(const ns_matrix *A, const char *name, char *err)
{
    const ns_block *b = &A->block;
    ns_status st;
    if (b->block_rows < 0 || b->block_cols < 0 || b->nblocks < 0)
        return ns_fail(err, NS_BAD_INPUT, "%s: negative block counts", name);
    if ((st = check_bounds(b->row_start, b->block_rows, A->rows, name, "row_start", err)))
        return st;
    if ((st = check_bounds(b->col_start, b->block_cols, A->cols, name, "col_start", err)))
        return st;
    if (!b->row_ptr || !b->value_ptr || !b->diag || (b->nblocks && (!b->block_col || !b->x)))
        return ns_fail(err, NS_BAD_INPUT, "%s: missing block arrays", name);
    if (b->row_ptr[0] != 0)
        return ns_fail(err, NS_BAD_INPUT, "%s: row_ptr[0] = %d, expected 0", name, b->row_ptr[0]);
    if (b->row_ptr[b->block_rows] != b->nblocks)
        return ns_fail(err, NS_BAD_INPUT, "%s: row_ptr[%d] = %d, expected nblocks = %d", name,
                       b->block_rows, b->row_ptr[b->block_rows], b->nblocks);
    if (b->value_ptr[0] != 0)
        return ns_fail(err, NS_BAD_INPUT, "%s: value_ptr[0] = %d, expected 0", name, b->value_ptr[0]);
    for (ns_int r = 0; r < b->block_rows; r++) {
        if (b->row_ptr[r + 1] < b->row_ptr[r])
            return ns_fail(err, NS_BAD_INPUT, "%s: row_ptr decreases at %d", name, r + 1);
        ns_int h = b->row_start[r + 1] - b->row_start[r], dk = -1;
        for (ns_int k = b->row_ptr[r]; k < b->row_ptr[r + 1]; k++) {
            ns_int c = b->block_col[k];
            if (c < 0 || c >= b->block_cols)
                return ns_fail(err, NS_BAD_INPUT, "%s: block_col[%d] = %d out of range [0, %d)",
                               name, k, c, b->block_cols);
            if (k > b->row_ptr[r] && c <= b->block_col[k - 1])
                return ns_fail(err, NS_BAD_INPUT,
                               "%s: block_col not increasing in block row %d (block %d)", name, r, k);
            long long sz = (long long)h * (b->col_start[c + 1] - b->col_start[c]);
            if ((long long)b->value_ptr[k + 1] - b->value_ptr[k] != sz)
                return ns_fail(err, NS_BAD_INPUT, "%s: value_ptr[%d] = %d, block %d needs %lld values",
                               name, k + 1, b->value_ptr[k + 1], k, sz);
            if (c == r) dk = k;
        }
        if (b->diag[r] != dk)
            return ns_fail(err, NS_BAD_INPUT, "%s: diag[%d] = %d, expected %d", name, r, b->diag[r], dk);
    }
    long k = ns_first_nonfinite(b->x, ns_matrix_nvalues(A));
    if (k >= 0) return ns_fail(err, NS_BAD_INPUT, "%s: value x[%ld] is not finite", name, k);
    return NS_OK;
}

/* NS_OK iff A's structure is consistent (sizes, pointers, indices in range)
 * and every stored value is finite; otherwise NS_BAD_INPUT naming the field. */
ns_status ns_matrix_validate(const ns_matrix *A, const char *name, char *err)
{
    if (!name) name = "matrix";
    if (!A) return ns_fail(err, NS_BAD_INPUT, "%s: missing (NULL)", name);
    if (A->rows < 0 || A->cols < 0)
        return ns_fail(err, NS_BAD_INPUT, "%s: negative size %dx%d", name, A->rows, A->cols);
    if (A->storage == NS_DENSE) {
        size_t n = (size_t)A->rows * (size_t)A->cols;
        if (!A->dense) return ns_fail(err, NS_BAD_INPUT, "%s: dense values are NULL", name);
        long k = ns_first_nonfinite(A->dense, n);
        if (k >= 0)
            return ns_fail(err, NS_BAD_INPUT, "%s: entry (%ld, %ld) is not finite", name,
                           k % A->rows, k / A->rows);
        return NS_OK;
    }
    if (A->storage == NS_SPARSE) {
        const ns_csc *c = &A->csc;
        if (!c->p) return ns_fail(err, NS_BAD_INPUT, "%s: column pointers p are NULL", name);
        if (c->nnz < 0) return ns_fail(err, NS_BAD_INPUT, "%s: nnz = %d is negative", name, c->nnz);
        if (c->nnz > 0 && (!c->i || !c->x))
            return ns_fail(err, NS_BAD_INPUT, "%s: row indices or values are NULL", name);
        if (c->p[0] != 0) return ns_fail(err, NS_BAD_INPUT, "%s: p[0] = %d, expected 0", name, c->p[0]);
        for (ns_int j = 0; j < A->cols; j++)
            if (c->p[j + 1] < c->p[j])
                return ns_fail(err, NS_BAD_INPUT, "%s: p[%d] = %d below p[%d] = %d", name, j + 1,
                               c->p[j + 1], j, c->p[j]);
        if (c->p[A->cols] != c->nnz)
            return ns_fail(err, NS_BAD_INPUT, "%s: p[%d] = %d differs from nnz = %d", name, A->cols,
                           c->p[A->cols], c->nnz);
        for (ns_int k = 0; k < c->nnz; k++)
            if (c->i[k] < 0 || c->i[k] >= A->rows)
                return ns_fail(err, NS_BAD_INPUT, "%s: row index i[%d] = %d out of range [0, %d)",
                               name, k, c->i[k], A->rows);
        long k = ns_first_nonfinite(c->x, (size_t)c->nnz);
        if (k >= 0) return ns_fail(err, NS_BAD_INPUT, "%s: value x[%ld] is not finite", name, k);
        return NS_OK;
    }
    if (A->storage == NS_BLOCK) return validate_block(A, name, err);
    return ns_fail(err, NS_BAD_INPUT, "%s: unknown storage %d", name, (int)A->storage);
}

/* A(i, j): dense lookup, sum over the stored duplicates of column j (CSC),
 * value inside the block holding (i, j) (BLOCK); 0 when not stored. */
double ns_matrix_get(const ns_matrix *A, ns_int i, ns_int j)
{
    if (!A || i < 0 || j < 0 || i >= A->rows || j >= A->cols) return 0.0;
    if (A->storage == NS_DENSE) return A->dense[(size_t)i + (size_t)j * (size_t)A->rows];
    if (A->storage == NS_SPARSE) {
        double s = 0.0;
        for (ns_int k = A->csc.p[j]; k < A->csc.p[j + 1]; k++)
            if (A->csc.i[k] == i) s += A->csc.x[k];
        return s;
    }
    const ns_block *b = &A->block;
    ns_int r = ns_block_locate(b->row_start, b->block_rows, i);
    ns_int c = ns_block_locate(b->col_start, b->block_cols, j);
    ns_int k = ns_block_find(b, r, c);
    if (k < 0) return 0.0;
    ns_int h = b->row_start[r + 1] - b->row_start[r];
    return b->x[b->value_ptr[k] + (i - b->row_start[r]) + (size_t)(j - b->col_start[c]) * h];
}

/* 1 iff same storage, sizes, structure arrays and bit-identical values. */
int ns_matrix_identical(const ns_matrix *A, const ns_matrix *B)
{
    if (!A || !B) return A == B;
    if (A->storage != B->storage || A->rows != B->rows || A->cols != B->cols) return 0;
    size_t nv = ns_matrix_nvalues(A);
    if (nv != ns_matrix_nvalues(B)) return 0;
    if (A->storage == NS_SPARSE) {
        if (A->csc.nnz != B->csc.nnz) return 0;
        if (memcmp(A->csc.p, B->csc.p, ((size_t)A->cols + 1) * sizeof(ns_int))) return 0;
        if (nv && memcmp(A->csc.i, B->csc.i, nv * sizeof(ns_int))) return 0;
    } else if (A->storage == NS_BLOCK) {
        const ns_block *a = &A->block, *b = &B->block;
        if (a->block_rows != b->block_rows || a->block_cols != b->block_cols ||
            a->nblocks != b->nblocks) return 0;
        if (memcmp(a->row_start, b->row_start, ((size_t)a->block_rows + 1) * sizeof(ns_int)) ||
            memcmp(a->col_start, b->col_start, ((size_t)a->block_cols + 1) * sizeof(ns_int)) ||
            memcmp(a->row_ptr, b->row_ptr, ((size_t)a->block_rows + 1) * sizeof(ns_int)) ||
            (a->nblocks && memcmp(a->block_col, b->block_col, (size_t)a->nblocks * sizeof(ns_int))))
            return 0;
    }
    const double *xa = ns_matrix_values_const(A), *xb = ns_matrix_values_const(B);
    return nv == 0 || memcmp(xa, xb, nv * sizeof(double)) == 0;
}

/* max |A(i,j)|; stored values are entries except for CSC duplicates, which
 * are summed first. NaN if an entry is NaN. */
double ns_matrix_norm_max(const ns_matrix *A)
{
    if (!A) return NAN;
    ns_matrix *own = NULL;
    const ns_matrix *C = A->storage == NS_SPARSE ? ns_csc_canonical(A, &own) : A;
    if (!C) return NAN;
    const double *x = ns_matrix_values_const(C);
    size_t n = ns_matrix_nvalues(C);
    double m = 0.0;
    for (size_t k = 0; k < n; k++) {
        double a = fabs(x[k]);
        if (a > m) m = a;
        else if (isnan(a)) { m = NAN; break; }
    }
    ns_matrix_free(own);
    return m;
}

/* ‖A‖_F = sqrt(Σ A(i,j)²), computed with scaling (no overflow). */
double ns_matrix_norm_fro(const ns_matrix *A)
{
    if (!A) return NAN;
    ns_matrix *own = NULL;
    const ns_matrix *C = A->storage == NS_SPARSE ? ns_csc_canonical(A, &own) : A;
    if (!C) return NAN;
    const double *x = ns_matrix_values_const(C);
    size_t n = ns_matrix_nvalues(C);
    double r = 0.0;
    const size_t chunk = (size_t)1 << 30;
    for (size_t k = 0; k < n; k += chunk)
        r = hypot(r, ns_norm2(x + k, n - k < chunk ? n - k : chunk));
    ns_matrix_free(own);
    return r;
}

/* max_{i,j} |A(i,j) − B(i,j)| over canonical CSC copies merged column by
 * column (dense×dense directly); INFINITY when sizes differ, NaN if a
 * difference is NaN. */
double ns_matrix_max_abs_diff(const ns_matrix *A, const ns_matrix *B)
{
    if (!A || !B || A->rows != B->rows || A->cols != B->cols) return INFINITY;
    double m = 0.0;
    if (A->storage == NS_DENSE && B->storage == NS_DENSE) {
        size_t n = ns_matrix_nvalues(A);
        for (size_t k = 0; k < n; k++) {
            double d = fabs(A->dense[k] - B->dense[k]);
            if (isnan(d)) return NAN;
            if (d > m) m = d;
        }
        return m;
    }
    ns_matrix *oa = NULL, *ob = NULL;
    const ns_matrix *a = ns_csc_canonical(A, &oa), *b = ns_csc_canonical(B, &ob);
    if (!a || !b) { ns_matrix_free(oa); ns_matrix_free(ob); return NAN; }
    for (ns_int j = 0; j < A->cols; j++) {
        ns_int ka = a->csc.p[j], ea = a->csc.p[j + 1];
        ns_int kb = b->csc.p[j], eb = b->csc.p[j + 1];
        while (ka < ea || kb < eb) {
            double d;
            if (kb >= eb || (ka < ea && a->csc.i[ka] < b->csc.i[kb])) d = a->csc.x[ka++];
            else if (ka >= ea || b->csc.i[kb] < a->csc.i[ka]) d = b->csc.x[kb++];
            else d = a->csc.x[ka++] - b->csc.x[kb++];
            d = fabs(d);
            if (isnan(d)) { m = NAN; goto done; }
            if (d > m) m = d;
        }
    }
done:
    ns_matrix_free(oa);
    ns_matrix_free(ob);
    return m;
}

/* 1 iff A is square and |A(i,j) − A(j,i)| ≤ tol·max|A| for all i, j
 * (tol = 0: exact symmetry). */
int ns_matrix_is_symmetric(const ns_matrix *A, double tol)
{
    if (!A || A->rows != A->cols) return 0;
    double bound = tol > 0 ? tol * ns_matrix_norm_max(A) : 0.0;
    if (isnan(bound)) return 0;
    if (A->storage == NS_DENSE) {
        size_t n = (size_t)A->rows;
        for (size_t j = 0; j < n; j++)
            for (size_t i = j + 1; i < n; i++)
                if (!(fabs(A->dense[i + j * n] - A->dense[j + i * n]) <= bound)) return 0;
        return 1;
    }
    ns_matrix *own = NULL;
    const ns_matrix *C = ns_csc_canonical(A, &own);
    ns_matrix *T = C ? ns_csc_transpose(C) : NULL;
    double d = T ? ns_matrix_max_abs_diff(C, T) : NAN;
    ns_matrix_free(T);
    ns_matrix_free(own);
    return d <= bound;
}
