/* fc_ipm_system.c — the Newton matrix of the ipm solvers (fc_ipm.h): a
 * fixed sorted CSC pattern built once from (row, column) pairs, Jacobi
 * scaling, dense (LAPACKE) or sparse (CHOLMOD / UMFPACK) factorization
 * through ns_factor with the symbolic analysis reused, and a regularised
 * retry when the factorization fails. */
#include "fc/fc_ipm.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    ns_int x = *(const ns_int *)a, y = *(const ns_int *)b;
    return (x > y) - (x < y);
}

static ns_int find_row(const ns_int *rows, ns_int lo, ns_int hi, ns_int r)
{
    while (lo < hi) {
        ns_int mid = lo + (hi - lo) / 2;
        if (rows[mid] < r) lo = mid + 1; else hi = mid;
    }
    return lo;
}

ns_status ns_ipm_sys_init(ns_ipm_sys *s, ns_int n, size_t npairs, const ns_int *ri,
                          const ns_int *ci, ns_int *pos, int symmetric, char *err)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->symmetric = symmetric;
    size_t tot = npairs + (size_t)n;
    ns_int *cnt = ns_calloc((size_t)n + 1, sizeof(ns_int));
    ns_int *rows = ns_malloc(tot + 1, sizeof(ns_int));
    ns_int *fill = ns_malloc((size_t)n + 1, sizeof(ns_int));
    ns_status st = NS_OK;
    if (!cnt || !rows || !fill) { st = ns_fail(err, NS_NO_MEMORY, "ipm: out of memory"); goto done; }
    for (size_t k = 0; k < npairs; k++) cnt[ci[k] + 1]++;
    for (ns_int j = 0; j < n; j++) cnt[j + 1]++;
    for (ns_int j = 0; j < n; j++) cnt[j + 1] += cnt[j];
    memcpy(fill, cnt, (size_t)n * sizeof(ns_int));
    for (size_t k = 0; k < npairs; k++) rows[fill[ci[k]]++] = ri[k];
    for (ns_int j = 0; j < n; j++) rows[fill[j]++] = j;
    /* sort and deduplicate each column in place */
    ns_int nnz = 0;
    for (ns_int j = 0; j < n; j++) {
        ns_int a = cnt[j], b = cnt[j + 1];
        qsort(rows + a, (size_t)(b - a), sizeof(ns_int), cmp_int);
        ns_int start = nnz;
        for (ns_int t = a; t < b; t++)
            if (t == a || rows[t] != rows[t - 1]) rows[nnz++] = rows[t];
        fill[j] = start; /* fill now: start of column j in the compacted array */
    }
    s->K = ns_matrix_sparse_new(n, n, nnz);
    s->diag = ns_malloc((size_t)n + 1, sizeof(ns_int));
    s->S = ns_malloc((size_t)n + 1, sizeof(double));
    if (!s->K || !s->diag || !s->S) { st = ns_fail(err, NS_NO_MEMORY, "ipm: out of memory"); goto done; }
    for (ns_int j = 0; j < n; j++) s->K->csc.p[j] = fill[j];
    s->K->csc.p[n] = nnz;
    memcpy(s->K->csc.i, rows, (size_t)nnz * sizeof(ns_int));
    memset(s->K->csc.x, 0, (size_t)nnz * sizeof(double));
    const ns_int *P = s->K->csc.p, *I = s->K->csc.i;
    for (size_t k = 0; k < npairs; k++) pos[k] = find_row(I, P[ci[k]], P[ci[k] + 1], ri[k]);
    for (ns_int j = 0; j < n; j++) s->diag[j] = find_row(I, P[j], P[j + 1], j);
    if (n <= NS_IPM_DENSE_MAX) {
        s->Kd = ns_matrix_dense_new(n, n);
        if (!s->Kd) { st = ns_fail(err, NS_NO_MEMORY, "ipm: out of memory"); goto done; }
    }
done:
    free(cnt); free(rows); free(fill);
    if (st) ns_ipm_sys_free(s);
    return st;
}

static ns_status factor_once(ns_ipm_sys *s, char *err)
{
    const ns_matrix *A = s->K;
    ns_factor_method meth = s->symmetric ? NS_FACTOR_SPARSE_CHOL : NS_FACTOR_SPARSE_LU;
    if (s->Kd) {
        const ns_int n = s->n, *P = s->K->csc.p, *I = s->K->csc.i;
        memset(s->Kd->dense, 0, (size_t)n * (size_t)n * sizeof(double));
        for (ns_int j = 0; j < n; j++)
            for (ns_int t = P[j]; t < P[j + 1]; t++) s->Kd->dense[I[t] + (size_t)j * n] = s->K->csc.x[t];
        A = s->Kd;
        meth = s->symmetric ? NS_FACTOR_DENSE_CHOL : NS_FACTOR_DENSE_LU;
    }
    if (s->F) return ns_factor_numeric(s->F, A, err);
    return ns_factor_new(A, meth, &s->F, err);
}

ns_status ns_ipm_sys_factor(ns_ipm_sys *s, char *err)
{
    const ns_int n = s->n, *P = s->K->csc.p, *I = s->K->csc.i;
    double *x = s->K->csc.x;
    for (ns_int j = 0; j < n; j++) {
        double d = fabs(x[s->diag[j]]);
        s->S[j] = d > 0 && isfinite(d) ? 1.0 / sqrt(d) : 1.0;
    }
    for (ns_int j = 0; j < n; j++)
        for (ns_int t = P[j]; t < P[j + 1]; t++) x[t] *= s->S[I[t]] * s->S[j];
    if (!ns_all_finite(x, (size_t)P[n])) return ns_fail(err, NS_BAD_INPUT, "ipm: Newton matrix not finite");
    ns_status st = factor_once(s, err);
    double reg = 1e-12, prev = 0.0;
    while (st && reg <= 1e-8) {
        for (ns_int j = 0; j < n; j++) x[s->diag[j]] += reg - prev;
        prev = reg;
        st = factor_once(s, err);
        reg *= 100.0;
    }
    return st;
}

ns_status ns_ipm_sys_solve(ns_ipm_sys *s, double *b)
{
    for (ns_int i = 0; i < s->n; i++) b[i] *= s->S[i];
    ns_status st = ns_factor_solve(s->F, b, 1, s->n);
    for (ns_int i = 0; i < s->n; i++) b[i] *= s->S[i];
    return st;
}

void ns_ipm_sys_free(ns_ipm_sys *s)
{
    if (!s) return;
    ns_factor_free(s->F);
    ns_matrix_free(s->K);
    ns_matrix_free(s->Kd);
    free(s->diag);
    free(s->S);
    memset(s, 0, sizeof *s);
}
