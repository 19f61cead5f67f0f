/* factor_umfpack.c — sparse LU P R⁻¹ A Q = L U with UMFPACK (int indices).
 * The Symbolic object is kept and reused while the pattern stays the same;
 * the values are copied because umfpack_di_wsolve reads A again for
 * iterative refinement. */
#include "matrix/factor_internal.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <umfpack.h>

typedef struct lu_factor {
    ns_int n, nnz;
    ns_int *p, *i;
    double *x;
    void *symbolic, *numeric;
    double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
    ns_int *wi;
    double *w, *rhs;
} lu_factor;

static ns_status umf_fail(int status, const char *what, char *err)
{
    if (status == UMFPACK_ERROR_out_of_memory)
        return ns_fail(err, NS_NO_MEMORY, "sparse LU (UMFPACK): out of memory in %s", what);
    return ns_fail(err, NS_BAD_INPUT, "sparse LU (UMFPACK): %s failed (status %d)", what, status);
}

static void drop(lu_factor *f)
{
    if (f->numeric) umfpack_di_free_numeric(&f->numeric);
    if (f->symbolic) umfpack_di_free_symbolic(&f->symbolic);
    free(f->p); free(f->i); free(f->x);
    f->p = f->i = NULL;
    f->x = NULL;
}

/* Column ordering and symbolic analysis of S's pattern. */
static ns_status analyse(lu_factor *f, const ns_matrix *S, char *err)
{
    drop(f);
    f->n = S->cols;
    f->nnz = S->csc.nnz;
    f->p = ns_malloc((size_t)f->n + 1, sizeof(ns_int));
    f->i = ns_malloc((size_t)f->nnz, sizeof(ns_int));
    f->x = ns_malloc((size_t)f->nnz, sizeof(double));
    if (!f->p || !f->i || !f->x) return ns_fail(err, NS_NO_MEMORY, "sparse LU: out of memory");
    memcpy(f->p, S->csc.p, ((size_t)f->n + 1) * sizeof(ns_int));
    if (f->nnz) {
        memcpy(f->i, S->csc.i, (size_t)f->nnz * sizeof(ns_int));
        memcpy(f->x, S->csc.x, (size_t)f->nnz * sizeof(double));
    }
    int st = umfpack_di_symbolic(f->n, f->n, f->p, f->i, f->x, &f->symbolic, f->control, f->info);
    if (st != UMFPACK_OK) return umf_fail(st, "symbolic analysis", err);
    return NS_OK;
}

ns_status ns_umfpack_analyze(const ns_matrix *S, void **impl, char *err)
{
    lu_factor *f = calloc(1, sizeof *f);
    if (!f) return ns_fail(err, NS_NO_MEMORY, "sparse LU: out of memory");
    *impl = f;
    umfpack_di_defaults(f->control);
    f->control[UMFPACK_PRL] = 0;
    f->wi = ns_malloc((size_t)S->cols, sizeof(ns_int));
    f->w = ns_malloc(5 * (size_t)S->cols, sizeof(double));
    f->rhs = ns_malloc((size_t)S->cols, sizeof(double));
    if (!f->wi || !f->w || !f->rhs) return ns_fail(err, NS_NO_MEMORY, "sparse LU: out of memory");
    return analyse(f, S, err);
}

/* Numeric LU of S (same pattern, or analysed again); NS_SINGULAR when
 * UMFPACK meets an exactly zero pivot. */
ns_status ns_umfpack_numeric(void *impl, const ns_matrix *S, char *err)
{
    lu_factor *f = impl;
    ns_status st;
    if (f->symbolic && ns_csc_same_pattern(S, f->n, f->p, f->i)) {
        if (f->nnz) memcpy(f->x, S->csc.x, (size_t)f->nnz * sizeof(double));
    } else if ((st = analyse(f, S, err))) {
        return st;
    }
    if (f->numeric) umfpack_di_free_numeric(&f->numeric);
    int s = umfpack_di_numeric(f->p, f->i, f->x, f->symbolic, &f->numeric, f->control, f->info);
    if (s == UMFPACK_WARNING_singular_matrix || (s == UMFPACK_OK && !(f->info[UMFPACK_RCOND] > 0)))
        return ns_fail(err, NS_SINGULAR, "sparse LU (UMFPACK): matrix is singular (zero pivot)");
    if (s != UMFPACK_OK) return umf_fail(s, "numeric factorization", err);
    return NS_OK;
}

ns_status ns_umfpack_solve(void *impl, double *B, ns_int nrhs, ns_int ldb)
{
    lu_factor *f = impl;
    for (ns_int k = 0; k < nrhs; k++) {
        double *b = B + (size_t)k * (size_t)ldb;
        memcpy(f->rhs, b, (size_t)f->n * sizeof(double));
        int s = umfpack_di_wsolve(UMFPACK_A, f->p, f->i, f->x, b, f->rhs, f->numeric,
                                  f->control, f->info, f->wi, f->w);
        if (s != UMFPACK_OK)
            return s == UMFPACK_ERROR_out_of_memory ? NS_NO_MEMORY
                 : s == UMFPACK_WARNING_singular_matrix ? NS_SINGULAR : NS_BAD_INPUT;
    }
    return NS_OK;
}

void ns_umfpack_free(void *impl)
{
    lu_factor *f = impl;
    if (!f) return;
    drop(f);
    free(f->wi); free(f->w); free(f->rhs);
    free(f);
}
