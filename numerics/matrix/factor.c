/* factor.c — ns_factor: method choice, conversion of the matrix to the form
 * each backend takes, and the two-phase life cycle (analyze once, numeric
 * for every new set of values, solve as often as needed). */
#include "matrix/factor_internal.h"
#include "matrix/matrix_internal.h"
#include "core/ns_internal.h"
#include <stdlib.h>
#include <string.h>

struct ns_factor {
    ns_factor_method method;    /* resolved, never AUTO */
    int automatic;              /* AUTO asked: SPARSE_CHOL may fall back to SPARSE_LU */
    ns_int n;
    int ready;                  /* numeric phase succeeded */
    void *impl;                 /* backend state (NULL when n = 0) */
};

const char *ns_factor_method_name(ns_factor_method m)
{
    switch (m) {
    case NS_FACTOR_AUTO: return "auto";
    case NS_FACTOR_DENSE_LU: return "dense-lu";
    case NS_FACTOR_DENSE_CHOL: return "dense-chol";
    case NS_FACTOR_SPARSE_CHOL: return "sparse-chol";
    case NS_FACTOR_SPARSE_LU: return "sparse-lu";
    }
    return "unknown";
}

ns_factor_method ns_factor_get_method(const ns_factor *F)
{
    return F ? F->method : NS_FACTOR_AUTO;
}

static int is_dense_method(ns_factor_method m)
{
    return m == NS_FACTOR_DENSE_LU || m == NS_FACTOR_DENSE_CHOL;
}

/* The form a backend takes: dense column-major, or canonical CSC. *owned
 * receives a converted copy when A itself cannot serve. */
static const ns_matrix *backend_form(const ns_matrix *A, ns_factor_method m, ns_matrix **owned)
{
    *owned = NULL;
    if (is_dense_method(m)) {
        if (A->storage == NS_DENSE) return A;
        *owned = ns_matrix_to_dense(A);
        return *owned;
    }
    return ns_csc_canonical(A, owned);
}

static void free_impl(ns_factor *F)
{
    switch (F->method) {
    case NS_FACTOR_DENSE_LU:
    case NS_FACTOR_DENSE_CHOL: ns_lapacke_free(F->impl); break;
    case NS_FACTOR_SPARSE_CHOL: ns_cholmod_free(F->impl); break;
    case NS_FACTOR_SPARSE_LU: ns_umfpack_free(F->impl); break;
    case NS_FACTOR_AUTO: break;
    }
    F->impl = NULL;
}

static ns_status analyze_impl(ns_factor *F, const ns_matrix *X, char *err)
{
    if (F->n == 0) return NS_OK;
    switch (F->method) {
    case NS_FACTOR_DENSE_LU: return ns_lapacke_analyze(F->n, 0, &F->impl, err);
    case NS_FACTOR_DENSE_CHOL: return ns_lapacke_analyze(F->n, 1, &F->impl, err);
    case NS_FACTOR_SPARSE_CHOL: return ns_cholmod_analyze(X, &F->impl, err);
    case NS_FACTOR_SPARSE_LU: return ns_umfpack_analyze(X, &F->impl, err);
    case NS_FACTOR_AUTO: break;
    }
    return ns_fail(err, NS_BAD_INPUT, "factor: no method");
}

static ns_status check_square(const ns_matrix *A, char *err)
{
    ns_status st = ns_matrix_validate(A, "factor: A", err);
    if (st) return st;
    if (A->rows != A->cols)
        return ns_fail(err, NS_BAD_INPUT, "factor: A is %d×%d, not square", A->rows, A->cols);
    return NS_OK;
}

/* Resolves AUTO (DENSE → DENSE_LU; otherwise SPARSE_CHOL when A equals Aᵀ
 * within 1e-12·max|A|, SPARSE_LU if not) and runs the symbolic phase. */
ns_status ns_factor_analyze(const ns_matrix *A, ns_factor_method method,
                            ns_factor **out, char *err)
{
    if (!out) return ns_fail(err, NS_BAD_INPUT, "factor: out is NULL");
    *out = NULL;
    ns_status st = check_square(A, err);
    if (st) return st;
    if ((int)method < NS_FACTOR_AUTO || method > NS_FACTOR_SPARSE_LU)
        return ns_fail(err, NS_BAD_INPUT, "factor: unknown method %d", (int)method);
    ns_factor *F = calloc(1, sizeof *F);
    if (!F) return ns_fail(err, NS_NO_MEMORY, "factor: out of memory");
    F->n = A->rows;
    F->automatic = method == NS_FACTOR_AUTO;
    if (method == NS_FACTOR_AUTO)
        method = A->storage == NS_DENSE ? NS_FACTOR_DENSE_LU
               : ns_matrix_is_symmetric(A, 1e-12) ? NS_FACTOR_SPARSE_CHOL : NS_FACTOR_SPARSE_LU;
    F->method = method;
    ns_matrix *own = NULL;
    const ns_matrix *X = F->n ? backend_form(A, method, &own) : A;
    st = X ? analyze_impl(F, X, err) : ns_fail(err, NS_NO_MEMORY, "factor: out of memory converting A");
    ns_matrix_free(own);
    if (st) { ns_factor_free(F); return st; }
    *out = F;
    return NS_OK;
}

static ns_status numeric_impl(ns_factor *F, const ns_matrix *X, char *err)
{
    switch (F->method) {
    case NS_FACTOR_DENSE_LU:
    case NS_FACTOR_DENSE_CHOL: return ns_lapacke_numeric(F->impl, X, err);
    case NS_FACTOR_SPARSE_CHOL: return ns_cholmod_numeric(F->impl, X, err);
    case NS_FACTOR_SPARSE_LU: return ns_umfpack_numeric(F->impl, X, err);
    case NS_FACTOR_AUTO: break;
    }
    return ns_fail(err, NS_BAD_INPUT, "factor: no method");
}

/* Factors A (n×n as analysed). A pattern differing from the analysed one
 * is analysed again. Under AUTO, a Cholesky breakdown switches the object
 * to SPARSE_LU for good. */
ns_status ns_factor_numeric(ns_factor *F, const ns_matrix *A, char *err)
{
    if (!F) return ns_fail(err, NS_BAD_INPUT, "factor: F is NULL");
    F->ready = 0;
    ns_status st = check_square(A, err);
    if (st) return st;
    if (A->rows != F->n)
        return ns_fail(err, NS_BAD_INPUT, "factor: A is %d×%d, analysed for %d×%d", A->rows,
                       A->cols, F->n, F->n);
    if (F->n == 0) { F->ready = 1; return NS_OK; }
    ns_matrix *own = NULL;
    const ns_matrix *X = backend_form(A, F->method, &own);
    if (!X) return ns_fail(err, NS_NO_MEMORY, "factor: out of memory converting A");
    st = numeric_impl(F, X, err);
    if (st == NS_SINGULAR && F->automatic && F->method == NS_FACTOR_SPARSE_CHOL) {
        free_impl(F);
        F->method = NS_FACTOR_SPARSE_LU;
        if (err) err[0] = '\0';
        st = analyze_impl(F, X, err);
        if (!st) st = numeric_impl(F, X, err);
    }
    ns_matrix_free(own);
    if (!st) F->ready = 1;
    return st;
}

ns_status ns_factor_new(const ns_matrix *A, ns_factor_method method,
                        ns_factor **out, char *err)
{
    ns_status st = ns_factor_analyze(A, method, out, err);
    if (st) return st;
    st = ns_factor_numeric(*out, A, err);
    if (st) { ns_factor_free(*out); *out = NULL; }
    return st;
}

/* B ← A⁻¹ B for the last successful numeric phase. */
ns_status ns_factor_solve(ns_factor *F, double *B, ns_int nrhs, ns_int ldb)
{
    if (!F || !F->ready || nrhs < 0 || ldb < (F->n > 1 ? F->n : 1) || (nrhs > 0 && F->n > 0 && !B))
        return NS_BAD_INPUT;
    if (F->n == 0 || nrhs == 0) return NS_OK;
    switch (F->method) {
    case NS_FACTOR_DENSE_LU:
    case NS_FACTOR_DENSE_CHOL: return ns_lapacke_solve(F->impl, B, nrhs, ldb);
    case NS_FACTOR_SPARSE_CHOL: return ns_cholmod_solve(F->impl, B, nrhs, ldb);
    case NS_FACTOR_SPARSE_LU: return ns_umfpack_solve(F->impl, B, nrhs, ldb);
    case NS_FACTOR_AUTO: break;
    }
    return NS_BAD_INPUT;
}

void ns_factor_free(ns_factor *F)
{
    if (!F) return;
    free_impl(F);
    free(F);
}

int ns_csc_same_pattern(const ns_matrix *S, ns_int n, const ns_int *p, const ns_int *i)
{
    if (S->cols != n || !p || S->csc.p[n] != p[n]) return 0;
    return memcmp(S->csc.p, p, ((size_t)n + 1) * sizeof(ns_int)) == 0 &&
           (p[n] == 0 || memcmp(S->csc.i, i, (size_t)p[n] * sizeof(ns_int)) == 0);
}
