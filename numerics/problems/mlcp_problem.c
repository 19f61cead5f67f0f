/* mlcp_problem.c — MLCP in M form and split (ABCD) form. */
#include "nonsmooth/ns_mlcp.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <stdlib.h>

static int set_default_blocks(ns_mlcp *p)
{
    p->nblocks = 2;
    p->block_start = ns_malloc(3, sizeof(ns_int));
    p->block_kind = ns_malloc(2, sizeof(int));
    if (!p->block_start || !p->block_kind) return -1;
    p->block_start[0] = 0;
    p->block_start[1] = p->n;
    p->block_start[2] = p->n + p->m;
    p->block_kind[0] = 0;
    p->block_kind[1] = 1;
    return 0;
}

ns_mlcp *ns_mlcp_new(ns_int n, ns_int m, ns_matrix *M, const double *q)
{
    if (!M || n < 0 || m < 0) { ns_matrix_free(M); return NULL; }
    ns_mlcp *p = ns_calloc(1, sizeof *p);
    if (!p) { ns_matrix_free(M); return NULL; }
    p->n = n;
    p->m = m;
    p->M = M;
    p->q = ns_calloc((size_t)M->cols, sizeof(double));
    if (!p->q || set_default_blocks(p)) { ns_mlcp_free(p); return NULL; }
    if (q) for (ns_int i = 0; i < M->cols; i++) p->q[i] = q[i];
    return p;
}

/* M = [[A, C], [D, B]] (dense), q = (a, b). */
ns_mlcp *ns_mlcp_new_abcd(ns_matrix *A, ns_matrix *B, ns_matrix *C,
                          ns_matrix *D, const double *a, const double *b)
{
    ns_mlcp *p = NULL;
    if (!A || !B || !C || !D) goto fail;
    ns_int n = A->rows, m = B->rows;
    if (A->cols != n || B->cols != m || C->rows != n || C->cols != m ||
        D->rows != m || D->cols != n)
        goto fail;
    p = ns_calloc(1, sizeof *p);
    if (!p) goto fail;
    p->n = n;
    p->m = m;
    p->A = A; p->B = B; p->C = C; p->D = D;
    A = B = C = D = NULL;
    p->M = ns_matrix_dense_new(n + m, n + m);
    p->q = ns_calloc((size_t)(n + m), sizeof(double));
    p->a = ns_calloc((size_t)n, sizeof(double));
    p->b = ns_calloc((size_t)m, sizeof(double));
    if (!p->M || !p->q || !p->a || !p->b || set_default_blocks(p)) goto fail;
    ns_int N = n + m;
    double *x = p->M->dense;
    for (ns_int j = 0; j < N; j++)
        for (ns_int i = 0; i < N; i++) {
            double v;
            if (i < n && j < n) v = ns_matrix_get(p->A, i, j);
            else if (i < n) v = ns_matrix_get(p->C, i, j - n);
            else if (j < n) v = ns_matrix_get(p->D, i - n, j);
            else v = ns_matrix_get(p->B, i - n, j - n);
            x[(size_t)i + (size_t)j * (size_t)N] = v;
        }
    for (ns_int i = 0; i < n; i++) p->q[i] = p->a[i] = a ? a[i] : 0.0;
    for (ns_int i = 0; i < m; i++) p->q[n + i] = p->b[i] = b ? b[i] : 0.0;
    return p;
fail:
    ns_matrix_free(A); ns_matrix_free(B); ns_matrix_free(C); ns_matrix_free(D);
    ns_mlcp_free(p);
    return NULL;
}

static ns_status check_block(const ns_matrix *X, ns_int r, ns_int c,
                             const char *name, char *err)
{
    if (!X) return ns_fail(err, NS_BAD_INPUT, "mlcp: %s: missing in split form", name);
    if (X->rows != r || X->cols != c)
        return ns_fail(err, NS_BAD_INPUT, "mlcp: %s: is %d x %d, expected %d x %d",
                       name, X->rows, X->cols, r, c);
    char sub[NS_ERRMSG_LEN];
    if (ns_matrix_validate(X, name, sub)) return ns_fail(err, NS_BAD_INPUT, "mlcp: %s", sub);
    return NS_OK;
}

ns_status ns_mlcp_validate(const ns_mlcp *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "mlcp: no problem");
    if (p->n < 0 || p->m < 0)
        return ns_fail(err, NS_BAD_INPUT, "mlcp: n, m: negative sizes %d, %d", p->n, p->m);
    ns_int N = p->n + p->m;
    if (!p->M) return ns_fail(err, NS_BAD_INPUT, "mlcp: M: missing matrix");
    if (p->M->rows != p->M->cols)
        return ns_fail(err, NS_BAD_INPUT,
                       "mlcp: M: rectangular MLCP (%d x %d) is not supported; "
                       "M must be (n+m) x (n+m) = %d x %d",
                       p->M->rows, p->M->cols, N, N);
    ns_status st = ns_check_square(p->M, N, "mlcp", "M", err);
    if (st) return st;
    if ((st = ns_check_vector(p->q, N, "mlcp", "q", err))) return st;
    if (p->nblocks < 1 || !p->block_start || !p->block_kind)
        return ns_fail(err, NS_BAD_INPUT, "mlcp: blocks: missing block description");
    if (p->block_start[0] != 0 || p->block_start[p->nblocks] != N)
        return ns_fail(err, NS_BAD_INPUT,
                       "mlcp: blocks: boundaries must run from 0 to n+m = %d", N);
    for (ns_int k = 0; k < p->nblocks; k++) {
        if (p->block_start[k + 1] <= p->block_start[k])
            return ns_fail(err, NS_BAD_INPUT, "mlcp: blocks: boundary %d not increasing", k + 1);
        if (p->block_kind[k] != 0 && p->block_kind[k] != 1)
            return ns_fail(err, NS_BAD_INPUT, "mlcp: blocks: kind %d of block %d is not 0/1",
                           p->block_kind[k], k);
    }
    if (p->A || p->B || p->C || p->D) {
        if ((st = check_block(p->A, p->n, p->n, "A", err))) return st;
        if ((st = check_block(p->B, p->m, p->m, "B", err))) return st;
        if ((st = check_block(p->C, p->n, p->m, "C", err))) return st;
        if ((st = check_block(p->D, p->m, p->n, "D", err))) return st;
        if ((st = ns_check_vector(p->a, p->n, "mlcp", "a", err))) return st;
        if ((st = ns_check_vector(p->b, p->m, "mlcp", "b", err))) return st;
    }
    return NS_OK;
}

void ns_mlcp_free(ns_mlcp *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    ns_matrix_free(p->A); ns_matrix_free(p->B);
    ns_matrix_free(p->C); ns_matrix_free(p->D);
    free(p->q); free(p->a); free(p->b);
    free(p->block_start); free(p->block_kind);
    free(p);
}
