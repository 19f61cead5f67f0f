/* factor_internal.h — the backends behind ns_factor (private).
 *
 * Each backend keeps its own state behind a void pointer. analyze gets the
 * matrix in the form the backend works on (DENSE for dense methods, a
 * canonical CSC — rows sorted, no duplicates — for sparse ones); numeric
 * gets the same form and may redo the analysis itself when the pattern
 * changed; solve overwrites B (n×nrhs, leading dimension ldb ≥ n). */
#ifndef NS_FACTOR_INTERNAL_H
#define NS_FACTOR_INTERNAL_H
#include "nonsmooth/ns_factor.h"

ns_status ns_lapacke_analyze(ns_int n, int cholesky, void **impl, char *err);
ns_status ns_lapacke_numeric(void *impl, const ns_matrix *A, char *err);
ns_status ns_lapacke_solve(void *impl, double *B, ns_int nrhs, ns_int ldb);
void ns_lapacke_free(void *impl);

ns_status ns_cholmod_analyze(const ns_matrix *S, void **impl, char *err);
ns_status ns_cholmod_numeric(void *impl, const ns_matrix *S, char *err);
ns_status ns_cholmod_solve(void *impl, double *B, ns_int nrhs, ns_int ldb);
void ns_cholmod_free(void *impl);
/** The fill of S's Cholesky factor (lower triangle of S read) under AMD,
 *  without factoring: *lnz ← entries of L, *flops ← flops of the
 *  factorization (CHOLMOD's counts). A prediction of a factorization's
 *  cost before paying for it. */
ns_status ns_cholmod_fill(const ns_matrix *S, double *lnz, double *flops, char *err);

ns_status ns_umfpack_analyze(const ns_matrix *S, void **impl, char *err);
ns_status ns_umfpack_numeric(void *impl, const ns_matrix *S, char *err);
ns_status ns_umfpack_solve(void *impl, double *B, ns_int nrhs, ns_int ldb);
void ns_umfpack_free(void *impl);

/** 1 if the canonical CSC S has exactly the pattern n, p[0..n], i[0..nnz). */
int ns_csc_same_pattern(const ns_matrix *S, ns_int n, const ns_int *p, const ns_int *i);
#endif
