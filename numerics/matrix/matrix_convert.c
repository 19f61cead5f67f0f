/* matrix_convert.c — conversions between storages and transposition.
 * Every function returns a new matrix the caller owns (NULL on failure) and
 * leaves its argument untouched. */
#include "matrix/matrix_internal.h"
#include "core/ns_internal.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* D = A as a dense column-major matrix (CSC duplicates summed). */
ns_matrix *ns_matrix_to_dense(const ns_matrix *A)
{
    if (!A) return NULL;
    if (A->storage == NS_DENSE) return ns_matrix_copy(A);
    ns_matrix *D = ns_matrix_dense_new(A->rows, A->cols);
    if (!D) return NULL;
    size_t ld = (size_t)A->rows;
    if (A->storage == NS_SPARSE) {
        const ns_csc *c = &A->csc;
        for (ns_int j = 0; j < A->cols; j++)
            for (ns_int k = c->p[j]; k < c->p[j + 1]; k++)
                D->dense[(size_t)c->i[k] + (size_t)j * ld] += c->x[k];
        return D;
    }
    const ns_block *b = &A->block;
    for (ns_int r = 0; r < b->block_rows; r++) {
        ns_int r0 = b->row_start[r], h = b->row_start[r + 1] - r0;
        for (ns_int k = b->row_ptr[r]; k < b->row_ptr[r + 1]; k++) {
            ns_int c = b->block_col[k], c0 = b->col_start[c];
            ns_int w = b->col_start[c + 1] - c0;
            const double *B = b->x + b->value_ptr[k];
            for (ns_int j = 0; j < w; j++)
                memcpy(D->dense + (size_t)r0 + (size_t)(c0 + j) * ld, B + (size_t)j * h,
                       (size_t)h * sizeof(double));
        }
    }
    return D;
}

/* T = Aᵀ for CSC A by counting sort over row indices: T's columns list
 * their row indices in non-decreasing order; duplicates are kept. */
ns_matrix *ns_csc_transpose(const ns_matrix *A)
{
    const ns_csc *c = &A->csc;
    ns_int nnz = c->p[A->cols];
    ns_matrix *T = ns_matrix_sparse_new(A->cols, A->rows, nnz);
    ns_int *next = ns_malloc((size_t)A->rows + 1, sizeof(ns_int));
    if (!T || !next) { ns_matrix_free(T); free(next); return NULL; }
    ns_int *tp = T->csc.p;
    for (ns_int k = 0; k < nnz; k++) tp[c->i[k] + 1]++;
    for (ns_int i = 0; i < A->rows; i++) tp[i + 1] += tp[i];
    memcpy(next, tp, ((size_t)A->rows + 1) * sizeof(ns_int));
    for (ns_int j = 0; j < A->cols; j++)
        for (ns_int k = c->p[j]; k < c->p[j + 1]; k++) {
            ns_int q = next[c->i[k]]++;
            T->csc.i[q] = j;
            T->csc.x[q] = c->x[k];
        }
    free(next);
    return T;
}

/* 1 iff every column has strictly increasing row indices. */
int ns_csc_is_canonical(const ns_matrix *A)
{
    for (ns_int j = 0; j < A->cols; j++)
        for (ns_int k = A->csc.p[j] + 1; k < A->csc.p[j + 1]; k++)
            if (A->csc.i[k] <= A->csc.i[k - 1]) return 0;
    return 1;
}

const ns_matrix *ns_csc_canonical(const ns_matrix *A, ns_matrix **owned)
{
    *owned = NULL;
    if (A->storage == NS_SPARSE && ns_csc_is_canonical(A)) return A;
    *owned = ns_matrix_to_sparse(A);
    return *owned;
}

/* CSC of a dense matrix: entries ≠ 0 (NaN kept), rows sorted. */
static ns_matrix *dense_to_sparse(const ns_matrix *A)
{
    size_t ld = (size_t)A->rows, nnz = 0, n = ld * (size_t)A->cols;
    for (size_t k = 0; k < n; k++) nnz += A->dense[k] != 0.0;
    if (nnz > INT_MAX) return NULL;
    ns_matrix *S = ns_matrix_sparse_new(A->rows, A->cols, (ns_int)nnz);
    if (!S) return NULL;
    ns_int q = 0;
    for (ns_int j = 0; j < A->cols; j++) {
        const double *col = A->dense + (size_t)j * ld;
        for (ns_int i = 0; i < A->rows; i++)
            if (col[i] != 0.0) { S->csc.i[q] = i; S->csc.x[q++] = col[i]; }
        S->csc.p[j + 1] = q;
    }
    return S;
}

/* CSC of a BLOCK matrix: every value of every stored block, rows sorted
 * (block rows visited in order, each block's column copied whole). */
static ns_matrix *block_to_sparse(const ns_matrix *A)
{
    const ns_block *b = &A->block;
    size_t nv = ns_matrix_nvalues(A);
    ns_matrix *S = ns_matrix_sparse_new(A->rows, A->cols, (ns_int)nv);
    ns_int *next = ns_malloc((size_t)A->cols + 1, sizeof(ns_int));
    if (!S || !next) { ns_matrix_free(S); free(next); return NULL; }
    ns_int *p = S->csc.p;
    for (ns_int r = 0; r < b->block_rows; r++) {
        ns_int h = b->row_start[r + 1] - b->row_start[r];
        for (ns_int k = b->row_ptr[r]; k < b->row_ptr[r + 1]; k++) {
            ns_int c = b->block_col[k];
            for (ns_int j = b->col_start[c]; j < b->col_start[c + 1]; j++) p[j + 1] += h;
        }
    }
    for (ns_int j = 0; j < A->cols; j++) p[j + 1] += p[j];
    memcpy(next, p, ((size_t)A->cols + 1) * sizeof(ns_int));
    for (ns_int r = 0; r < b->block_rows; r++) {
        ns_int r0 = b->row_start[r], h = b->row_start[r + 1] - r0;
        for (ns_int k = b->row_ptr[r]; k < b->row_ptr[r + 1]; k++) {
            ns_int c = b->block_col[k], c0 = b->col_start[c];
            const double *B = b->x + b->value_ptr[k];
            for (ns_int j = c0; j < b->col_start[c + 1]; j++) {
                ns_int q = next[j];
                for (ns_int i = 0; i < h; i++) {
                    S->csc.i[q + i] = r0 + i;
                    S->csc.x[q + i] = B[(size_t)(j - c0) * h + i];
                }
                next[j] = q + h;
            }
        }
    }
    free(next);
    return S;
}

/* Canonical CSC of a CSC matrix: Aᵀᵀ by two counting sorts (rows sorted,
 * duplicates adjacent), then duplicates summed in place. */
static ns_matrix *sparse_to_sparse(const ns_matrix *A)
{
    ns_matrix *T = ns_csc_transpose(A);
    ns_matrix *S = T ? ns_csc_transpose(T) : NULL;
    ns_matrix_free(T);
    if (!S) return NULL;
    ns_int *p = S->csc.p, *ri = S->csc.i, q = 0;
    double *x = S->csc.x;
    ns_int start = 0;
    for (ns_int j = 0; j < S->cols; j++) {
        ns_int end = p[j + 1], col0 = q;
        for (ns_int k = start; k < end; k++) {
            if (q > col0 && ri[q - 1] == ri[k]) x[q - 1] += x[k];
            else { ri[q] = ri[k]; x[q] = x[k]; q++; }
        }
        start = end;
        p[j + 1] = q;
    }
    S->csc.nnz = q;
    return S;
}

/* CSC copy: DENSE keeps entries ≠ 0, BLOCK every stored value, SPARSE is
 * sorted with duplicates summed. */
ns_matrix *ns_matrix_to_sparse(const ns_matrix *A)
{
    if (!A) return NULL;
    switch (A->storage) {
    case NS_DENSE: return dense_to_sparse(A);
    case NS_SPARSE: return sparse_to_sparse(A);
    case NS_BLOCK: return block_to_sparse(A);
    }
    return NULL;
}

/* start[0..n]: 0, strictly increasing, ends at end. */
static int bounds_ok(const ns_int *start, ns_int n, ns_int end)
{
    if (n < 0 || !start || start[0] != 0 || start[n] != end) return 0;
    for (ns_int k = 0; k < n; k++)
        if (start[k + 1] <= start[k]) return 0;
    return 1;
}

/* Map of every index 0..end-1 to the block holding it. */
static ns_int *index_to_block(const ns_int *start, ns_int n, ns_int end)
{
    ns_int *m = ns_malloc((size_t)end, sizeof(ns_int));
    if (!m) return NULL;
    for (ns_int b = 0; b < n; b++)
        for (ns_int i = start[b]; i < start[b + 1]; i++) m[i] = b;
    return m;
}

/* BLOCK copy of A cut along row_start/col_start; block (r, c) is stored iff
 * A stores an entry inside it (DENSE: a non-zero entry). Works on the
 * canonical CSC of A: one pass counts the blocks of each block row, one
 * records them (block columns visited in order keep them sorted), one
 * scatters the values. */
/* ns_matrix_to_block of a DENSE A, read in place: the blocks holding an
 * entry != 0 (NaN included), in the same order and with the same values as
 * through the CSC copy (whose construction and canonical pass were most of
 * the conversion of a small W: 9k of a 6-contact fc2d solve's 19k
 * instructions). */
static ns_matrix *dense_to_block(const ns_matrix *A, ns_int block_rows,
                                 const ns_int *row_start, ns_int block_cols,
                                 const ns_int *col_start)
{
    const size_t ld = (size_t)A->rows;
    ns_int *rs = ns_malloc((size_t)block_rows + 1, sizeof(ns_int));
    ns_int *cs = ns_malloc((size_t)block_cols + 1, sizeof(ns_int));
    ns_int *rp = ns_malloc((size_t)block_rows + 1, sizeof(ns_int));
    unsigned char *nz = ns_malloc((size_t)block_rows * (size_t)block_cols + 1, 1);
    ns_int *bcol = NULL;
    ns_matrix *B = NULL;
    if (!rs || !cs || !rp || !nz) goto fail;
    memcpy(rs, row_start, ((size_t)block_rows + 1) * sizeof(ns_int));
    memcpy(cs, col_start, ((size_t)block_cols + 1) * sizeof(ns_int));
    rp[0] = 0;
    for (ns_int r = 0; r < block_rows; r++) {
        ns_int cnt = 0;
        for (ns_int bc = 0; bc < block_cols; bc++) {
            int any = 0;
            for (ns_int j = col_start[bc]; j < col_start[bc + 1] && !any; j++) {
                const double *col = A->dense + (size_t)j * ld;
                for (ns_int i = row_start[r]; i < row_start[r + 1]; i++)
                    if (col[i] != 0.0 || col[i] != col[i]) { any = 1; break; }
            }
            nz[(size_t)r * (size_t)block_cols + (size_t)bc] = (unsigned char)any;
            cnt += any;
        }
        rp[r + 1] = rp[r] + cnt;
    }
    bcol = ns_malloc((size_t)rp[block_rows] + 1, sizeof(ns_int));
    if (!bcol) goto fail;
    for (ns_int r = 0, q = 0; r < block_rows; r++)
        for (ns_int bc = 0; bc < block_cols; bc++)
            if (nz[(size_t)r * (size_t)block_cols + (size_t)bc]) bcol[q++] = bc;
    B = ns_block_adopt(block_rows, block_cols, rs, cs, rp, bcol, NULL);
    rs = cs = rp = bcol = NULL;
    if (!B) goto fail;
    const ns_block *b = &B->block;
    for (ns_int r = 0; r < block_rows; r++) {
        const ns_int h = row_start[r + 1] - row_start[r];
        for (ns_int q = b->row_ptr[r]; q < b->row_ptr[r + 1]; q++) {
            const ns_int bc = b->block_col[q];
            double *x = b->x + b->value_ptr[q];
            for (ns_int j = col_start[bc]; j < col_start[bc + 1]; j++) {
                const double *col = A->dense + (size_t)j * ld + row_start[r];
                double *xc = x + (size_t)(j - col_start[bc]) * (size_t)h;
                for (ns_int i = 0; i < h; i++) xc[i] = col[i] != 0.0 ? col[i] : 0.0;
            }
        }
    }
    free(nz);
    return B;
fail:
    free(rs); free(cs); free(rp); free(nz); free(bcol);
    ns_matrix_free(B);
    return NULL;
}

ns_matrix *ns_matrix_to_block(const ns_matrix *A, ns_int block_rows,
                              const ns_int *row_start, ns_int block_cols,
                              const ns_int *col_start)
{
    if (!A || !bounds_ok(row_start, block_rows, A->rows) || !bounds_ok(col_start, block_cols, A->cols))
        return NULL;
    if (A->storage == NS_DENSE)
        return dense_to_block(A, block_rows, row_start, block_cols, col_start);
    ns_matrix *own = NULL, *B = NULL;
    const ns_matrix *S = ns_csc_canonical(A, &own);
    ns_int *rb = index_to_block(row_start, block_rows, A->rows);
    ns_int *mark = ns_malloc((size_t)block_rows, sizeof(ns_int));
    ns_int *rp = ns_calloc((size_t)block_rows + 1, sizeof(ns_int));
    ns_int *rs = ns_malloc((size_t)block_rows + 1, sizeof(ns_int));
    ns_int *cs = ns_malloc((size_t)block_cols + 1, sizeof(ns_int));
    ns_int *bcol = NULL;
    if (!S || !rb || !mark || !rp || !rs || !cs) goto fail;
    memcpy(rs, row_start, ((size_t)block_rows + 1) * sizeof(ns_int));
    memcpy(cs, col_start, ((size_t)block_cols + 1) * sizeof(ns_int));
    const ns_csc *c = &S->csc;
    for (int pass = 0; pass < 3; pass++) {
        for (ns_int r = 0; r < block_rows; r++) mark[r] = -1;
        for (ns_int bc = 0; bc < block_cols; bc++) {
            ns_int c0 = col_start[bc];
            for (ns_int j = c0; j < col_start[bc + 1]; j++)
                for (ns_int k = c->p[j]; k < c->p[j + 1]; k++) {
                    ns_int r = rb[c->i[k]];
                    if (pass == 0) {
                        if (mark[r] != bc) { mark[r] = bc; rp[r + 1]++; }
                    } else if (pass == 1) {
                        if (mark[r] != bc) { mark[r] = bc; bcol[rp[r]++] = bc; }
                    } else {
                        if (mark[r] != bc) { mark[r] = bc; rp[r]++; }
                        ns_int q = rp[r] - 1, h = row_start[r + 1] - row_start[r];
                        B->block.x[B->block.value_ptr[q] + (c->i[k] - row_start[r]) +
                                   (size_t)(j - c0) * h] += c->x[k];
                    }
                }
        }
        if (pass == 0) {
            for (ns_int r = 0; r < block_rows; r++) rp[r + 1] += rp[r];
            bcol = ns_malloc((size_t)rp[block_rows], sizeof(ns_int));
            if (!bcol) goto fail;
        } else if (pass == 1) {
            /* rp[r] now holds the end of block row r: shift back to starts */
            for (ns_int r = block_rows; r > 0; r--) rp[r] = rp[r - 1];
            rp[0] = 0;
            ns_int *rp_copy = ns_malloc((size_t)block_rows + 1, sizeof(ns_int));
            if (!rp_copy) goto fail;
            memcpy(rp_copy, rp, ((size_t)block_rows + 1) * sizeof(ns_int));
            B = ns_block_adopt(block_rows, block_cols, rs, cs, rp_copy, bcol, NULL);
            rs = cs = bcol = NULL;
            if (!B) goto fail;
        }
    }
    free(rb); free(mark); free(rp);
    ns_matrix_free(own);
    return B;
fail:
    free(rb); free(mark); free(rp); free(rs); free(cs); free(bcol);
    ns_matrix_free(own);
    ns_matrix_free(B);
    return NULL;
}

/* BLOCK copy with uniform d×d blocks (d divides rows and cols). */
ns_matrix *ns_matrix_to_block_uniform(const ns_matrix *A, ns_int d)
{
    if (!A || d <= 0 || A->rows % d || A->cols % d) return NULL;
    ns_int nr = A->rows / d, nc = A->cols / d;
    ns_int *rs = ns_malloc((size_t)nr + 1, sizeof(ns_int));
    ns_int *cs = ns_malloc((size_t)nc + 1, sizeof(ns_int));
    ns_matrix *B = NULL;
    if (rs && cs) {
        for (ns_int k = 0; k <= nr; k++) rs[k] = k * d;
        for (ns_int k = 0; k <= nc; k++) cs[k] = k * d;
        B = ns_matrix_to_block(A, nr, rs, nc, cs);
    }
    free(rs);
    free(cs);
    return B;
}

/* Transposed BLOCK matrix: block (r, c) becomes (c, r) with its values
 * transposed; counting sort over block columns keeps each new block row
 * sorted. */
static ns_matrix *block_transpose(const ns_matrix *A)
{
    const ns_block *b = &A->block;
    ns_int nb = b->nblocks;
    ns_int *rs = ns_malloc((size_t)b->block_cols + 1, sizeof(ns_int));
    ns_int *cs = ns_malloc((size_t)b->block_rows + 1, sizeof(ns_int));
    ns_int *rp = ns_calloc((size_t)b->block_cols + 1, sizeof(ns_int));
    ns_int *bc = ns_malloc((size_t)nb, sizeof(ns_int));
    ns_int *src = ns_malloc((size_t)nb, sizeof(ns_int));   /* new block q ← old block src[q] */
    ns_int *next = ns_malloc((size_t)b->block_cols + 1, sizeof(ns_int));
    if (!rs || !cs || !rp || !bc || !src || !next) goto fail;
    memcpy(rs, b->col_start, ((size_t)b->block_cols + 1) * sizeof(ns_int));
    memcpy(cs, b->row_start, ((size_t)b->block_rows + 1) * sizeof(ns_int));
    for (ns_int k = 0; k < nb; k++) rp[b->block_col[k] + 1]++;
    for (ns_int c = 0; c < b->block_cols; c++) rp[c + 1] += rp[c];
    memcpy(next, rp, ((size_t)b->block_cols + 1) * sizeof(ns_int));
    for (ns_int r = 0; r < b->block_rows; r++)
        for (ns_int k = b->row_ptr[r]; k < b->row_ptr[r + 1]; k++) {
            ns_int q = next[b->block_col[k]]++;
            bc[q] = r;
            src[q] = k;
        }
    ns_matrix *T = ns_block_adopt(b->block_cols, b->block_rows, rs, cs, rp, bc, NULL);
    rs = cs = rp = bc = NULL;
    if (!T) goto fail;
    for (ns_int nr = 0; nr < T->block.block_rows; nr++) {
        ns_int h = T->block.row_start[nr + 1] - T->block.row_start[nr];   /* old width */
        for (ns_int q = T->block.row_ptr[nr]; q < T->block.row_ptr[nr + 1]; q++) {
            ns_int oc = T->block.block_col[q];
            ns_int w = b->row_start[oc + 1] - b->row_start[oc];            /* old height */
            const double *O = b->x + b->value_ptr[src[q]];
            double *N = T->block.x + T->block.value_ptr[q];
            for (ns_int j = 0; j < w; j++)
                for (ns_int i = 0; i < h; i++) N[i + (size_t)j * h] = O[j + (size_t)i * w];
        }
    }
    free(src);
    free(next);
    return T;
fail:
    free(rs); free(cs); free(rp); free(bc); free(src); free(next);
    return NULL;
}

/* Aᵀ in the storage of A (CSC: rows sorted, duplicates kept). */
ns_matrix *ns_matrix_transpose(const ns_matrix *A)
{
    if (!A) return NULL;
    if (A->storage == NS_SPARSE) return ns_csc_transpose(A);
    if (A->storage == NS_BLOCK) return block_transpose(A);
    ns_matrix *T = ns_matrix_dense_new(A->cols, A->rows);
    if (!T) return NULL;
    size_t m = (size_t)A->rows, n = (size_t)A->cols;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < m; i++) T->dense[j + i * n] = A->dense[i + j * m];
    return T;
}
