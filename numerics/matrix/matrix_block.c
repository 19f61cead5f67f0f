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

/* *p grown to hold `need` elements of size elt when its capacity (*cap,
 * or `len` when *cap is 0) is smaller: 1/8 headroom. 0 or −1 (out of
 * memory, *p unchanged). */
static int grow_array(void **p, ns_int *cap, ns_int len, ns_int need, size_t elt)
{
    ns_int have = *cap > len ? *cap : len;
    if (need <= have && *p) return 0;
    long long c = (long long)need + need / 8 + 1;
    if (c > INT_MAX) c = need;
    void *q = realloc(*p, (size_t)c * elt);
    if (!q) return -1;
    *p = q;
    *cap = (ns_int)c;
    return 0;
}

ns_status ns_matrix_block_reshape(ns_matrix *A, ns_int block_rows, ns_int block_cols,
                                  const ns_int *row_start, const ns_int *col_start,
                                  const ns_int *row_ptr, const ns_int *block_col,
                                  char *err)
{
    if (!A || A->storage != NS_BLOCK)
        return ns_fail(err, NS_BAD_INPUT, "block matrix: reshape of a missing or non-BLOCK matrix");
    if (block_rows < 0 || block_cols < 0)
        return ns_fail(err, NS_BAD_INPUT, "block matrix: negative block counts %d, %d", block_rows, block_cols);
    if (check_start(row_start, block_rows, "row_start", err) || check_start(col_start, block_cols, "col_start", err))
        return NS_BAD_INPUT;
    if (!row_ptr || row_ptr[0] != 0)
        return ns_fail(err, NS_BAD_INPUT, "block matrix: row_ptr missing or row_ptr[0] != 0");
    ns_int nb = row_ptr[block_rows];
    if (nb > 0 && !block_col) return ns_fail(err, NS_BAD_INPUT, "block matrix: block_col is NULL");
    long long total = 0;   /* checked before A is touched */
    for (ns_int r = 0; r < block_rows; r++) {
        if (row_ptr[r + 1] < row_ptr[r])
            return ns_fail(err, NS_BAD_INPUT, "block matrix: row_ptr decreases at %d", r + 1);
        long long h = row_start[r + 1] - row_start[r];
        for (ns_int k = row_ptr[r]; k < row_ptr[r + 1]; k++) {
            ns_int c = block_col[k];
            if (c < 0 || c >= block_cols)
                return ns_fail(err, NS_BAD_INPUT, "block matrix: block_col[%d] = %d out of range [0, %d)",
                               k, c, block_cols);
            if (k > row_ptr[r] && c <= block_col[k - 1])
                return ns_fail(err, NS_BAD_INPUT,
                               "block matrix: block_col not strictly increasing in block row %d", r);
            total += h * (col_start[c + 1] - col_start[c]);
            if (total > INT_MAX) return ns_fail(err, NS_BAD_INPUT, "block matrix: more than %d values", INT_MAX);
        }
    }
    ns_block *b = &A->block;
    ns_int rows = b->block_rows, cols = b->block_cols, blocks = b->nblocks;
    ns_int values = b->value_ptr ? b->value_ptr[blocks] : 0;
    /* every array first (A keeps its old structure if one fails), then the
     * capacities, which count elements of the larger arrays */
    ns_int cr = b->cap_rows, cc = b->cap_cols, cb = b->cap_blocks, cv = b->cap_values;
    ns_int cr2 = cr, cr3 = cr, cb2 = cb;
    if (grow_array((void **)&b->row_start, &cr, rows + 1, block_rows + 1, sizeof(ns_int)) ||
        grow_array((void **)&b->row_ptr, &cr2, rows + 1, block_rows + 1, sizeof(ns_int)) ||
        grow_array((void **)&b->diag, &cr3, rows + 1, block_rows + 1, sizeof(ns_int)) ||
        grow_array((void **)&b->col_start, &cc, cols + 1, block_cols + 1, sizeof(ns_int)) ||
        grow_array((void **)&b->block_col, &cb, blocks + 1, nb + 1, sizeof(ns_int)) ||
        grow_array((void **)&b->value_ptr, &cb2, blocks + 1, nb + 1, sizeof(ns_int)) ||
        grow_array((void **)&b->x, &cv, values, (ns_int)total, sizeof(double)))
        return ns_fail(err, NS_NO_MEMORY, "block matrix: out of memory");
    /* the row arrays grew together (same lengths, same rule): one capacity */
    b->cap_rows = cr < cr2 ? (cr < cr3 ? cr : cr3) : (cr2 < cr3 ? cr2 : cr3);
    b->cap_cols = cc;
    b->cap_blocks = cb < cb2 ? cb : cb2;
    b->cap_values = cv;
    memcpy(b->row_start, row_start, ((size_t)block_rows + 1) * sizeof(ns_int));
    memcpy(b->col_start, col_start, ((size_t)block_cols + 1) * sizeof(ns_int));
    memcpy(b->row_ptr, row_ptr, ((size_t)block_rows + 1) * sizeof(ns_int));
    if (nb) memcpy(b->block_col, block_col, (size_t)nb * sizeof(ns_int));
    b->block_rows = block_rows;
    b->block_cols = block_cols;
    b->nblocks = nb;
    b->value_ptr[0] = 0;
    long long t = 0;
    for (ns_int r = 0; r < block_rows; r++) {
        long long h = row_start[r + 1] - row_start[r];
        b->diag[r] = -1;
        for (ns_int k = row_ptr[r]; k < row_ptr[r + 1]; k++) {
            ns_int c = block_col[k];
            if (c == r) b->diag[r] = k;
            t += h * (col_start[c + 1] - col_start[c]);
            b->value_ptr[k + 1] = (ns_int)t;
        }
    }
    if (total) memset(b->x, 0, (size_t)total * sizeof(double));
    A->rows = row_start[block_rows];
    A->cols = col_start[block_cols];
    return NS_OK;
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
