/* matrix_block.c — BLOCK storage: construction from a block structure and
 * access to single blocks. */
#include "matrix/matrix_internal.h"
#include "core/ns_internal.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Block row/column b with start[b] ≤ i < start[b+1] for a boundary array
 * start[0..n] (strictly increasing); -1 if i is outside [start[0], start[n]). */
ns_int ns_block_locate(const ns_int *start, ns_int n, ns_int i)
{
    if (n <= 0 || i < start[0] || i >= start[n]) return -1;
    ns_int lo = 0, hi = n - 1;           /* answer in [lo, hi] */
    while (lo < hi) {
        ns_int mid = lo + (hi - lo + 1) / 2;
        if (start[mid] <= i) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* k with block_col[k] = c among the blocks of block row r, -1 if absent. */
ns_int ns_block_find(const ns_block *b, ns_int r, ns_int c)
{
    if (r < 0 || r >= b->block_rows || c < 0 || c >= b->block_cols) return -1;
    ns_int lo = b->row_ptr[r], hi = b->row_ptr[r + 1] - 1;
    while (lo <= hi) {
        ns_int mid = lo + (hi - lo) / 2;
        if (b->block_col[mid] == c) return mid;
        if (b->block_col[mid] < c) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

static ns_status check_start(const ns_int *s, ns_int n, const char *name, char *err)
{
    if (!s) return ns_fail(err, NS_BAD_INPUT, "block matrix: %s is NULL", name);
    if (s[0] != 0) return ns_fail(err, NS_BAD_INPUT, "block matrix: %s[0] = %d, expected 0", name, s[0]);
    for (ns_int k = 0; k < n; k++)
        if (s[k + 1] <= s[k])
            return ns_fail(err, NS_BAD_INPUT, "block matrix: %s not strictly increasing at %d",
                           name, k + 1);
    return NS_OK;
}

/* Takes ownership of the four arrays; value_ptr[k+1] − value_ptr[k] =
 * height(row of k) × width(block_col[k]); diag[r] = k with block_col[k] = r. */
ns_matrix *ns_block_adopt(ns_int block_rows, ns_int block_cols,
                          ns_int *row_start, ns_int *col_start,
                          ns_int *row_ptr, ns_int *block_col, char *err)
{
    ns_matrix *A = NULL;
    if (block_rows < 0 || block_cols < 0) {
        ns_fail(err, NS_BAD_INPUT, "block matrix: negative block counts %d, %d", block_rows, block_cols);
        goto fail;
    }
    if (check_start(row_start, block_rows, "row_start", err) ||
        check_start(col_start, block_cols, "col_start", err))
        goto fail;
    if (!row_ptr || row_ptr[0] != 0) {
        ns_fail(err, NS_BAD_INPUT, "block matrix: row_ptr missing or row_ptr[0] != 0");
        goto fail;
    }
    for (ns_int r = 0; r < block_rows; r++) {
        if (row_ptr[r + 1] < row_ptr[r]) {
            ns_fail(err, NS_BAD_INPUT, "block matrix: row_ptr decreases at %d", r + 1);
            goto fail;
        }
    }
    ns_int nb = row_ptr[block_rows];
    if (nb > 0 && !block_col) {
        ns_fail(err, NS_BAD_INPUT, "block matrix: block_col is NULL");
        goto fail;
    }
    A = ns_matrix_shell(NS_BLOCK, row_start[block_rows], col_start[block_cols]);
    if (!A) { ns_fail(err, NS_NO_MEMORY, "block matrix: out of memory"); goto fail; }
    ns_block *b = &A->block;
    b->block_rows = block_rows;
    b->block_cols = block_cols;
    b->nblocks = nb;
    b->row_start = row_start;
    b->col_start = col_start;
    b->row_ptr = row_ptr;
    b->block_col = block_col;
    row_start = col_start = row_ptr = block_col = NULL;   /* owned by A now */
    b->value_ptr = ns_malloc((size_t)nb + 1, sizeof(ns_int));
    b->diag = ns_malloc((size_t)block_rows, sizeof(ns_int));
    if (!b->value_ptr || !b->diag) { ns_fail(err, NS_NO_MEMORY, "block matrix: out of memory"); goto fail; }
    long long total = 0;
    b->value_ptr[0] = 0;
    for (ns_int r = 0; r < block_rows; r++) {
        long long h = b->row_start[r + 1] - b->row_start[r];
        b->diag[r] = -1;
        for (ns_int k = b->row_ptr[r]; k < b->row_ptr[r + 1]; k++) {
            ns_int c = b->block_col[k];
            if (c < 0 || c >= block_cols) {
                ns_fail(err, NS_BAD_INPUT, "block matrix: block_col[%d] = %d out of range [0, %d)",
                        k, c, block_cols);
                goto fail;
            }
            if (k > b->row_ptr[r] && c <= b->block_col[k - 1]) {
                ns_fail(err, NS_BAD_INPUT,
                        "block matrix: block_col not strictly increasing in block row %d", r);
                goto fail;
            }
            if (c == r) b->diag[r] = k;
            total += h * (b->col_start[c + 1] - b->col_start[c]);
            if (total > INT_MAX) {
                ns_fail(err, NS_BAD_INPUT, "block matrix: more than %d values", INT_MAX);
                goto fail;
            }
            b->value_ptr[k + 1] = (ns_int)total;
        }
    }
    b->x = ns_calloc((size_t)total, sizeof(double));
    if (!b->x) { ns_fail(err, NS_NO_MEMORY, "block matrix: out of memory"); goto fail; }
    return A;
fail:
    free(row_start);
    free(col_start);
    free(row_ptr);
    free(block_col);
    ns_matrix_free(A);
    return NULL;
}

static ns_int *copy_ints(const ns_int *src, size_t n)
{
    if (!src) return NULL;
    ns_int *d = ns_malloc(n, sizeof *d);
    if (d && n) memcpy(d, src, n * sizeof *d);
    return d;
}

/* BLOCK matrix with zero values on a copy of the given structure. */
ns_matrix *ns_matrix_block_new(ns_int block_rows, ns_int block_cols,
                               const ns_int *row_start, const ns_int *col_start,
                               const ns_int *row_ptr, const ns_int *block_col,
                               char *err)
{
    if (block_rows < 0 || block_cols < 0) {
        ns_fail(err, NS_BAD_INPUT, "block matrix: negative block counts %d, %d", block_rows, block_cols);
        return NULL;
    }
    if (!row_start || !col_start || !row_ptr) {
        ns_fail(err, NS_BAD_INPUT, "block matrix: NULL structure array");
        return NULL;
    }
    ns_int nb = row_ptr[block_rows];
    if (nb < 0) {
        ns_fail(err, NS_BAD_INPUT, "block matrix: row_ptr[%d] = %d is negative", block_rows, nb);
        return NULL;
    }
    ns_int *rs = copy_ints(row_start, (size_t)block_rows + 1);
    ns_int *cs = copy_ints(col_start, (size_t)block_cols + 1);
    ns_int *rp = copy_ints(row_ptr, (size_t)block_rows + 1);
    ns_int *bc = nb ? copy_ints(block_col, (size_t)nb) : ns_malloc(1, sizeof(ns_int));
    if (!rs || !cs || !rp || !bc) {
        free(rs); free(cs); free(rp); free(bc);
        ns_fail(err, block_col || !nb ? NS_NO_MEMORY : NS_BAD_INPUT,
                "block matrix: %s", block_col || !nb ? "out of memory" : "block_col is NULL");
        return NULL;
    }
    return ns_block_adopt(block_rows, block_cols, rs, cs, rp, bc, err);
}

/* Values of block (br, bc), column-major, or NULL if not stored. */
const double *ns_matrix_block_get(const ns_matrix *A, ns_int br, ns_int bc)
{
    if (!A || A->storage != NS_BLOCK) return NULL;
    ns_int k = ns_block_find(&A->block, br, bc);
    return k < 0 ? NULL : A->block.x + A->block.value_ptr[k];
}

/* Diagonal block (r, r) of size *n × *n, NULL if absent or not square. */
const double *ns_matrix_block_diag(const ns_matrix *A, ns_int r, ns_int *n)
{
    if (!A || A->storage != NS_BLOCK || r < 0 || r >= A->block.block_rows) return NULL;
    const ns_block *b = &A->block;
    ns_int k = b->diag[r];
    if (k < 0 || r >= b->block_cols) return NULL;
    ns_int h = b->row_start[r + 1] - b->row_start[r];
    ns_int w = b->col_start[r + 1] - b->col_start[r];
    if (h != w) return NULL;
    if (n) *n = h;
    return b->x + b->value_ptr[k];
}
