/* ns_matrix.h — one matrix type, three storages.
 *
 *  DENSE  : column-major, entry (i, j) at x[i + j*rows]; handed to CBLAS/LAPACKE.
 *  SPARSE : compressed sparse column (CSC): column j holds entries
 *           p[j] .. p[j+1]-1 with row indices i[k] and values x[k]. Row indices
 *           inside a column need not be sorted; explicit zeros are allowed.
 *  BLOCK  : sparse block matrix, block-row compressed. Block row r covers rows
 *           row_start[r] .. row_start[r+1]-1, block column c covers columns
 *           col_start[c] .. col_start[c+1]-1. The blocks of block row r are
 *           numbers row_ptr[r] .. row_ptr[r+1]-1, block k sits in block column
 *           block_col[k] (strictly increasing inside a block row) and its values
 *           are x[value_ptr[k] .. value_ptr[k+1]-1], column-major. All values
 *           live in one array.
 *
 * Storage codes equal those of the Siconos NumericsMatrix file header.
 * Ownership: an ns_matrix owns every array it points to; ns_matrix_free frees
 * them all. Operations never modify their const arguments.
 */
#ifndef NS_MATRIX_H
#define NS_MATRIX_H

#include <stddef.h>
#include "ns_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ns_storage {
    NS_DENSE = 0,
    NS_BLOCK = 1,
    NS_SPARSE = 2
} ns_storage;

typedef struct ns_csc {
    ns_int nnz;        /* number of stored entries = p[cols] */
    ns_int *p;         /* (cols+1) column pointers, p[0] = 0 */
    ns_int *i;         /* (nnz) row indices */
    double *x;         /* (nnz) values */
} ns_csc;

typedef struct ns_block {
    ns_int block_rows;   /* number of block rows */
    ns_int block_cols;   /* number of block columns */
    ns_int nblocks;      /* number of stored blocks */
    ns_int *row_start;   /* (block_rows+1) first row of each block row; last = rows */
    ns_int *col_start;   /* (block_cols+1) first column of each block column; last = cols */
    ns_int *row_ptr;     /* (block_rows+1) blocks of block row r: row_ptr[r]..row_ptr[r+1]-1 */
    ns_int *block_col;   /* (nblocks) block column of each block */
    ns_int *value_ptr;   /* (nblocks+1) offset of each block's values in x */
    ns_int *diag;        /* (block_rows) index of the diagonal block (r, r), -1 if absent */
    double *x;           /* (value_ptr[nblocks]) all block values, each block column-major */
    /* room in the arrays beyond the structure (ns_matrix_block_reshape):
     * row_start, row_ptr, diag hold cap_rows (+1), col_start cap_cols + 1,
     * block_col and value_ptr cap_blocks (+1), x cap_values; 0 = exactly
     * the structure's lengths */
    ns_int cap_rows, cap_cols, cap_blocks, cap_values;
} ns_block;

typedef struct ns_matrix {
    ns_storage storage;
    ns_int rows;
    ns_int cols;
    double *dense;       /* DENSE: (rows*cols) column-major; NULL otherwise */
    ns_csc csc;          /* SPARSE */
    ns_block block;      /* BLOCK */
} ns_matrix;

/* ---- construction (all return NULL on allocation failure or bad sizes) ---- */

/** New zero dense rows×cols matrix. Caller owns; free with ns_matrix_free.
 *  NULL also when rows*cols*sizeof(double) would exceed PTRDIFF_MAX. */
ns_matrix *ns_matrix_dense_new(ns_int rows, ns_int cols);

/** New CSC matrix with room for nnz entries; p is zeroed (all columns empty
 *  until the caller fills p, i, x). csc.nnz is set to nnz: the caller fills
 *  exactly that many entries (p[cols] = nnz), or lowers csc.nnz to p[cols]
 *  (ns_matrix_validate checks p[cols] == csc.nnz). */
ns_matrix *ns_matrix_sparse_new(ns_int rows, ns_int cols, ns_int nnz);

/** New BLOCK matrix with the given structure; copies the arrays, allocates
 *  zeroed values, computes value_ptr and diag. row_start/col_start have
 *  block_rows+1 / block_cols+1 entries starting at 0 and strictly increasing;
 *  row_ptr has block_rows+1 entries, block_col has row_ptr[block_rows].
 *  Returns NULL (err filled if non-NULL) when the structure is inconsistent. */
ns_matrix *ns_matrix_block_new(ns_int block_rows, ns_int block_cols,
                               const ns_int *row_start, const ns_int *col_start,
                               const ns_int *row_ptr, const ns_int *block_col,
                               char *err);

/** Gives the BLOCK matrix A a new structure (the arrays are copied, as by
 *  ns_matrix_block_new) with zero values, in A's own arrays: they grow
 *  (with 1/8 headroom) when the structure needs more and never shrink, so
 *  that a caller whose structure changes every step (a time-stepping
 *  one-step problem) allocates nothing once it has seen its largest one.
 *  NS_BAD_INPUT (A unchanged, err filled) on an inconsistent structure or a
 *  non-BLOCK A; NS_NO_MEMORY (A unchanged). */
ns_status ns_matrix_block_reshape(ns_matrix *A, ns_int block_rows, ns_int block_cols,
                                  const ns_int *row_start, const ns_int *col_start,
                                  const ns_int *row_ptr, const ns_int *block_col,
                                  char *err);

/** Deep copy. Caller owns the result. */
ns_matrix *ns_matrix_copy(const ns_matrix *A);

/** Frees A and everything it owns. NULL is allowed. */
void ns_matrix_free(ns_matrix *A);

/** Number of stored values (dense: rows*cols, sparse: nnz, block: sum of
 *  block sizes). */
size_t ns_matrix_nvalues(const ns_matrix *A);

/** Pointer to the stored values array (length ns_matrix_nvalues). */
double *ns_matrix_values(ns_matrix *A);
const double *ns_matrix_values_const(const ns_matrix *A);

/** Checks structural consistency (pointers, indices in range, sizes) and that
 *  every stored value is finite. NS_OK or NS_BAD_INPUT with err naming the
 *  field (err may be NULL; name is used as the matrix name in the message). */
ns_status ns_matrix_validate(const ns_matrix *A, const char *name, char *err);

/* ---- products ---- */

/** y = alpha*A*x + beta*y (x: cols, y: rows). beta = 0 ignores y's content.
 *  x and y must not overlap (as in BLAS). */
void ns_matrix_gemv(double alpha, const ns_matrix *A, const double *x,
                    double beta, double *y);

/** y = alpha*Aᵀ*x + beta*y (x: rows, y: cols); x and y must not overlap. */
void ns_matrix_gemv_t(double alpha, const ns_matrix *A, const double *x,
                      double beta, double *y);

/* ---- entries and blocks ---- */

/** Entry (i, j) (0 if not stored; sums duplicates in SPARSE). O(1) dense,
 *  O(column length) sparse, O(log blocks of row) block. For tests and I/O. */
double ns_matrix_get(const ns_matrix *A, ns_int i, ns_int j);

/** BLOCK: pointer to the values (column-major) of block (br, bc), NULL if
 *  that block is not stored or A is not BLOCK. */
const double *ns_matrix_block_get(const ns_matrix *A, ns_int br, ns_int bc);

/** BLOCK: pointer to the diagonal block of block row r (size *n × *n),
 *  NULL if absent, not square, or A not BLOCK. */
const double *ns_matrix_block_diag(const ns_matrix *A, ns_int r, ns_int *n);

/* ---- conversions (new matrices; caller owns; NULL on failure) ---- */

/** Dense copy of any storage. */
ns_matrix *ns_matrix_to_dense(const ns_matrix *A);

/** CSC copy of any storage. Dense: stores entries != 0. BLOCK: stores every
 *  value of every stored block (explicit zeros kept). SPARSE: copy with row
 *  indices sorted and duplicates summed. */
ns_matrix *ns_matrix_to_sparse(const ns_matrix *A);

/** BLOCK copy of any storage with the given block boundaries (row_start has
 *  block_rows+1 entries, col_start block_cols+1, both from 0 to rows/cols).
 *  A block is stored when any of its entries is stored (and non-zero for
 *  DENSE). */
ns_matrix *ns_matrix_to_block(const ns_matrix *A, ns_int block_rows,
                              const ns_int *row_start, ns_int block_cols,
                              const ns_int *col_start);

/** BLOCK copy with square uniform d×d blocks (rows and cols divisible by d). */
ns_matrix *ns_matrix_to_block_uniform(const ns_matrix *A, ns_int d);

/** Transposed copy, same storage. */
ns_matrix *ns_matrix_transpose(const ns_matrix *A);

/* ---- norms and comparisons ---- */

/** Largest |entry|. */
double ns_matrix_norm_max(const ns_matrix *A);

/** Frobenius norm. */
double ns_matrix_norm_fro(const ns_matrix *A);

/** 1 if A and B have the same storage, sizes, structure and bit-identical
 *  values, 0 otherwise. */
int ns_matrix_identical(const ns_matrix *A, const ns_matrix *B);

/** Largest |A(i,j) - B(i,j)| over all entries, any storages (sizes must
 *  agree; returns INFINITY otherwise). */
double ns_matrix_max_abs_diff(const ns_matrix *A, const ns_matrix *B);

/** 1 if A is square and A(i,j) == A(j,i) within tol*max|A|. */
int ns_matrix_is_symmetric(const ns_matrix *A, double tol);

#ifdef __cplusplus
}
#endif
#endif
