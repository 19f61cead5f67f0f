/* matrix_internal.h — helpers shared by the files of the matrix module. */
#ifndef NS_MATRIX_INTERNAL_H
#define NS_MATRIX_INTERNAL_H
#include "nonsmooth/ns_matrix.h"

/** New empty ns_matrix shell (storage, sizes set, no arrays). */
ns_matrix *ns_matrix_shell(ns_storage storage, ns_int rows, ns_int cols);

/** BLOCK matrix adopting the malloc'd arrays row_start, col_start, row_ptr
 *  and block_col (ownership passes to the result, or they are freed on
 *  failure): checks the structure, computes value_ptr and diag, allocates
 *  zeroed values. NULL with err filled (if non-NULL) on failure. */
ns_matrix *ns_block_adopt(ns_int block_rows, ns_int block_cols,
                          ns_int *row_start, ns_int *col_start,
                          ns_int *row_ptr, ns_int *block_col, char *err);

/** Index k of block row r, block column c (binary search), -1 if absent. */
ns_int ns_block_find(const ns_block *b, ns_int r, ns_int c);

/** Index of the block row / column that holds row (column) i of a boundary
 *  array start[0..n] (binary search). */
ns_int ns_block_locate(const ns_int *start, ns_int n, ns_int i);

/** 1 if the CSC matrix A has strictly increasing row indices in every
 *  column (sorted, no duplicates). */
int ns_csc_is_canonical(const ns_matrix *A);

/** Transposed copy of a CSC matrix by counting sort: duplicates kept, row
 *  indices of the result sorted (non-decreasing) in every column. */
ns_matrix *ns_csc_transpose(const ns_matrix *A);

/** Canonical CSC view of A: A itself when it is SPARSE and canonical (then
 *  *owned = NULL), otherwise a new canonical copy stored in *owned that the
 *  caller frees. NULL on allocation failure. */
const ns_matrix *ns_csc_canonical(const ns_matrix *A, ns_matrix **owned);

/** y = αAx + βy with the block rows of a BLOCK matrix split among
 *  `threads` OpenMP threads; bit-identical to ns_matrix_gemv for every
 *  thread count (other storages, threads ≤ 1: ns_matrix_gemv itself). */
void ns_matrix_gemv_threads(double alpha, const ns_matrix *A, const double *x, double beta,
                            double *y, int threads);

/** y = αAᵀx + βy with the columns of a CSC matrix split among `threads`
 *  OpenMP threads (a gather); bit-identical to ns_matrix_gemv_t for every
 *  thread count (other storages, threads ≤ 1: ns_matrix_gemv_t itself). */
void ns_matrix_gemv_t_threads(double alpha, const ns_matrix *A, const double *x, double beta,
                              double *y, int threads);
#endif
