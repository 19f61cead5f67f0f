/* factor_cholmod.c — sparse Cholesky A = P L Lᵀ Pᵀ with CHOLMOD (int
 * indices). Only the lower triangle of A is read (stype = −1). Each object
 * owns its cholmod_common: nothing global, nothing printed. */
#include "matrix/factor_internal.h"
#include "core/ns_internal.h"
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <cholmod.h>

typedef struct chol_factor {
    cholmod_common c;
    int started;
    cholmod_factor *L;
    ns_int n, nnz;
    ns_int *p, *i;                 /* pattern L was analysed for */
    cholmod_dense *X, *Y, *E;      /* solve workspace, reused */
} chol_factor;

/* CHOLMOD view of a canonical CSC (no copy; lower triangle used). */
static cholmod_sparse view(const ns_matrix *S)
{
    cholmod_sparse A;
    memset(&A, 0, sizeof A);
    A.nrow = (size_t)S->rows;
    A.ncol = (size_t)S->cols;
    A.nzmax = (size_t)(S->csc.nnz > 0 ? S->csc.nnz : 1);
    A.p = S->csc.p;
    A.i = S->csc.i;
    A.x = S->csc.x;
    A.stype = -1;
    A.itype = CHOLMOD_INT;
    A.xtype = CHOLMOD_REAL;
    A.dtype = CHOLMOD_DOUBLE;
    A.sorted = 1;
    A.packed = 1;
    return A;
}

static ns_status chol_status(const chol_factor *f, const char *what, char *err)
{
    if (f->c.status == CHOLMOD_OUT_OF_MEMORY)
        return ns_fail(err, NS_NO_MEMORY, "sparse Cholesky (CHOLMOD): out of memory in %s", what);
    return ns_fail(err, NS_BAD_INPUT, "sparse Cholesky (CHOLMOD): %s failed (status %d)", what,
                   f->c.status);
}

/* Fill-reducing ordering and symbolic factorization of S's pattern. */
static ns_status analyse(chol_factor *f, const ns_matrix *S, char *err)
{
    cholmod_free_factor(&f->L, &f->c);
    free(f->p);
    free(f->i);
    f->n = S->cols;
    f->nnz = S->csc.nnz;
    f->p = ns_malloc((size_t)f->n + 1, sizeof(ns_int));
    f->i = ns_malloc((size_t)f->nnz, sizeof(ns_int));
    if (!f->p || !f->i) return ns_fail(err, NS_NO_MEMORY, "sparse Cholesky: out of memory");
    memcpy(f->p, S->csc.p, ((size_t)f->n + 1) * sizeof(ns_int));
    if (f->nnz) memcpy(f->i, S->csc.i, (size_t)f->nnz * sizeof(ns_int));
    cholmod_sparse A = view(S);
    f->L = cholmod_analyze(&A, &f->c);
    if (!f->L) return chol_status(f, "analyze", err);
    return NS_OK;
}

ns_status ns_cholmod_analyze(const ns_matrix *S, void **impl, char *err)
{
    chol_factor *f = calloc(1, sizeof *f);
    if (!f) return ns_fail(err, NS_NO_MEMORY, "sparse Cholesky: out of memory");
    if (!cholmod_start(&f->c)) { free(f); return ns_fail(err, NS_NO_MEMORY, "cholmod_start failed"); }
    f->started = 1;
    f->c.print = 0;
    f->c.error_handler = NULL;
    /* LLᵀ, not the simplicial default LDLᵀ, which runs through indefinite
     * matrices: with final_ll CHOLMOD reports CHOLMOD_NOT_POSDEF instead. */
    f->c.final_ll = 1;
    *impl = f;
    return analyse(f, S, err);
}

/* L Lᵀ = P A Pᵀ; NS_SINGULAR when a pivot is not positive, or when CHOLMOD's
 * estimate (min/max diag L)² is below machine epsilon (the true reciprocal
 * condition number is at most that estimate, so A is numerically singular). */
ns_status ns_cholmod_numeric(void *impl, const ns_matrix *S, char *err)
{
    chol_factor *f = impl;
    ns_status st;
    if (!ns_csc_same_pattern(S, f->n, f->p, f->i) && (st = analyse(f, S, err))) return st;
    cholmod_sparse A = view(S);
    int ok = cholmod_factorize(&A, f->L, &f->c);
    if (f->c.status == CHOLMOD_NOT_POSDEF || (ok && f->L->minor < f->L->n))
        return ns_fail(err, NS_SINGULAR,
                       "sparse Cholesky (CHOLMOD): matrix not positive definite (pivot %d of %d)",
                       (int)f->L->minor, (int)f->n);
    if (!ok || f->c.status < 0) return chol_status(f, "factorize", err);
    double rc = cholmod_rcond(f->L, &f->c);
    if (!(rc >= DBL_EPSILON))
        return ns_fail(err, NS_SINGULAR,
                       "sparse Cholesky (CHOLMOD): matrix is numerically singular (rcond estimate %.3g)", rc);
    return NS_OK;
}

ns_status ns_cholmod_solve(void *impl, double *B, ns_int nrhs, ns_int ldb)
{
    chol_factor *f = impl;
    cholmod_dense b;
    memset(&b, 0, sizeof b);
    b.nrow = (size_t)f->n;
    b.ncol = (size_t)nrhs;
    b.d = (size_t)ldb;
    b.nzmax = (size_t)ldb * (size_t)nrhs;
    b.x = B;
    b.xtype = CHOLMOD_REAL;
    b.dtype = CHOLMOD_DOUBLE;
    if (!cholmod_solve2(CHOLMOD_A, f->L, &b, NULL, &f->X, NULL, &f->Y, &f->E, &f->c))
        return f->c.status == CHOLMOD_OUT_OF_MEMORY ? NS_NO_MEMORY : NS_BAD_INPUT;
    const double *x = f->X->x;
    for (ns_int k = 0; k < nrhs; k++)
        memcpy(B + (size_t)k * (size_t)ldb, x + (size_t)k * f->X->d, (size_t)f->n * sizeof(double));
    return NS_OK;
}

void ns_cholmod_free(void *impl)
{
    chol_factor *f = impl;
    if (!f) return;
    if (f->started) {
        cholmod_free_factor(&f->L, &f->c);
        cholmod_free_dense(&f->X, &f->c);
        cholmod_free_dense(&f->Y, &f->c);
        cholmod_free_dense(&f->E, &f->c);
        cholmod_finish(&f->c);
    }
    free(f->p);
    free(f->i);
    free(f);
}

ns_status ns_cholmod_fill(const ns_matrix *S, double *lnz, double *flops, char *err)
{
    if (!S || S->storage != NS_SPARSE || S->rows != S->cols)
        return ns_fail(err, NS_BAD_INPUT, "sparse Cholesky fill: a square SPARSE matrix is needed");
    cholmod_common c;
    if (!cholmod_start(&c)) return ns_fail(err, NS_NO_MEMORY, "cholmod_start failed");
    c.print = 0;
    c.error_handler = NULL;
    c.nmethods = 1;                    /* AMD only: an estimate, quickly */
    c.method[0].ordering = CHOLMOD_AMD;
    c.supernodal = CHOLMOD_SIMPLICIAL; /* the counts, no supernodal analysis */
    cholmod_sparse A = view(S);
    cholmod_factor *L = cholmod_analyze(&A, &c);
    ns_status st = NS_OK;
    if (!L) st = ns_fail(err, c.status == CHOLMOD_OUT_OF_MEMORY ? NS_NO_MEMORY : NS_BAD_INPUT,
                         "sparse Cholesky fill: analyze failed (status %d)", c.status);
    else {
        *lnz = c.lnz;
        *flops = c.fl;
    }
    cholmod_free_factor(&L, &c);
    cholmod_finish(&c);
    return st;
}
