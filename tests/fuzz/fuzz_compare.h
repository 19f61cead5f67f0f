/* fuzz_compare.h — bit-identity of matrices and problems for the fuzz
 * targets' write-then-read checks (1 = identical). */
#ifndef NS_FUZZ_COMPARE_H
#define NS_FUZZ_COMPARE_H
#include <string.h>
#include "nonsmooth/nonsmooth.h"

static inline int same_d(const double *a, const double *b, ns_int n)
{
    if (n <= 0) return 1;
    return a && b && memcmp(a, b, sizeof(double) * (size_t)n) == 0;
}

static inline int same_i(const ns_int *a, const ns_int *b, ns_int n)
{
    if (n <= 0) return 1;
    return a && b && memcmp(a, b, sizeof(ns_int) * (size_t)n) == 0;
}

static inline int ns_fuzz_same_matrix(const ns_matrix *A, const ns_matrix *B)
{
    if (!A || !B) return A == B;
    if (A->storage != B->storage || A->rows != B->rows || A->cols != B->cols) return 0;
    switch (A->storage) {
    case NS_DENSE: return same_d(A->dense, B->dense, A->rows * A->cols);
    case NS_SPARSE:
        return A->csc.nnz == B->csc.nnz && same_i(A->csc.p, B->csc.p, A->cols + 1) &&
               same_i(A->csc.i, B->csc.i, A->csc.nnz) && same_d(A->csc.x, B->csc.x, A->csc.nnz);
    case NS_BLOCK: {
        const ns_block *a = &A->block, *b = &B->block;
        return a->block_rows == b->block_rows && a->block_cols == b->block_cols &&
               a->nblocks == b->nblocks &&
               same_i(a->row_start, b->row_start, a->block_rows + 1) &&
               same_i(a->col_start, b->col_start, a->block_cols + 1) &&
               same_i(a->row_ptr, b->row_ptr, a->block_rows + 1) &&
               same_i(a->block_col, b->block_col, a->nblocks) &&
               same_i(a->value_ptr, b->value_ptr, a->nblocks + 1) &&
               same_i(a->diag, b->diag, a->block_rows) &&
               same_d(a->x, b->x, a->value_ptr[a->nblocks]);
    }
    }
    return 0;
}

static inline int ns_fuzz_same_problem(const ns_problem *P, const ns_problem *Q)
{
    if (P->kind != Q->kind) return 0;
    switch (P->kind) {
    case NS_KIND_LCP:
        return P->u.lcp->n == Q->u.lcp->n && ns_fuzz_same_matrix(P->u.lcp->M, Q->u.lcp->M) &&
               same_d(P->u.lcp->q, Q->u.lcp->q, P->u.lcp->M->cols);
    case NS_KIND_RELAY: {
        const ns_relay *a = P->u.relay, *b = Q->u.relay;
        ns_int n = a->M->cols;
        return a->n == b->n && ns_fuzz_same_matrix(a->M, b->M) && same_d(a->q, b->q, n) &&
               same_d(a->lb, b->lb, n) && same_d(a->ub, b->ub, n);
    }
    case NS_KIND_AVI: {   /* with its set (formats-extensions.md §1) */
        const ns_avi *a = P->u.avi, *b = Q->u.avi;
        ns_int n = a->M->cols;
        if (a->n != b->n || !ns_fuzz_same_matrix(a->M, b->M) || !same_d(a->q, b->q, n) ||
            !ns_fuzz_same_matrix(a->H, b->H) || !a->lb != !b->lb)
            return 0;
        if (a->H && !same_d(a->h, b->h, a->H->rows)) return 0;
        return !a->lb || (same_d(a->lb, b->lb, n) && same_d(a->ub, b->ub, n));
    }
    case NS_KIND_MLCP: {
        const ns_mlcp *a = P->u.mlcp, *b = Q->u.mlcp;
        if (a->n != b->n || a->m != b->m || !ns_fuzz_same_matrix(a->M, b->M) ||
            !same_d(a->q, b->q, a->M->cols) || a->nblocks != b->nblocks ||
            !same_i(a->block_start, b->block_start, a->nblocks + 1))
            return 0;
        for (ns_int k = 0; k < a->nblocks; k++)
            if (a->block_kind[k] != b->block_kind[k]) return 0;
        if (!a->A) return !b->A;
        return ns_fuzz_same_matrix(a->A, b->A) && ns_fuzz_same_matrix(a->B, b->B) &&
               ns_fuzz_same_matrix(a->C, b->C) && ns_fuzz_same_matrix(a->D, b->D) &&
               same_d(a->a, b->a, a->n) && same_d(a->b, b->b, a->m);
    }
    case NS_KIND_FC2D: case NS_KIND_FC3D: {
        const ns_fc *a = P->u.fc, *b = Q->u.fc;
        return a->dim == b->dim && a->nc == b->nc && ns_fuzz_same_matrix(a->W, b->W) &&
               same_d(a->q, b->q, a->W->cols) && same_d(a->mu, b->mu, a->nc);
    }
    case NS_KIND_GFC2D: case NS_KIND_GFC3D: {
        const ns_gfc *a = P->u.gfc, *b = Q->u.gfc;
        return a->dim == b->dim && a->n == b->n && a->nc == b->nc &&
               ns_fuzz_same_matrix(a->M, b->M) && ns_fuzz_same_matrix(a->H, b->H) &&
               same_d(a->q, b->q, a->M->cols) && same_d(a->b, b->b, a->H->cols) &&
               same_d(a->mu, b->mu, a->nc);
    }
    case NS_KIND_GMP: {
        const ns_gmp *a = P->u.gmp, *b = Q->u.gmp;
        if (a->n != b->n || a->nblocks != b->nblocks || !ns_fuzz_same_matrix(a->M, b->M) ||
            !same_d(a->q, b->q, a->M->cols))
            return 0;
        for (ns_int r = 0; r < a->nblocks; r++) {
            if (a->type[r] != b->type[r]) return 0;
            if (a->type[r] == NS_GMP_FC3D && !same_d(&a->mu[r], &b->mu[r], 1)) return 0;
        }
        return 1;
    }
    case NS_KIND_RFC2D: case NS_KIND_RFC3D: {
        const ns_rfc *a = P->u.rfc, *b = Q->u.rfc;
        return a->dim == b->dim && a->nc == b->nc && ns_fuzz_same_matrix(a->W, b->W) &&
               same_d(a->q, b->q, a->W->cols) && same_d(a->mu, b->mu, a->nc) &&
               same_d(a->mu_r, b->mu_r, a->nc);
    }
    case NS_KIND_GRFC3D: {
        const ns_grfc *a = P->u.grfc, *b = Q->u.grfc;
        return a->dim == b->dim && a->n == b->n && a->nc == b->nc &&
               ns_fuzz_same_matrix(a->M, b->M) && ns_fuzz_same_matrix(a->H, b->H) &&
               same_d(a->q, b->q, a->M->cols) && same_d(a->b, b->b, a->H->cols) &&
               same_d(a->mu, b->mu, a->nc) && same_d(a->mu_r, b->mu_r, a->nc);
    }
    case NS_KIND_SOCLCP: {
        const ns_soclcp *a = P->u.soclcp, *b = Q->u.soclcp;
        return a->n == b->n && a->nc == b->nc && ns_fuzz_same_matrix(a->W, b->W) &&
               same_d(a->q, b->q, a->n) && same_i(a->cone_start, b->cone_start, a->nc + 1) &&
               same_d(a->mu, b->mu, a->nc);
    }
    default:   /* a kind the .dat reader does not make: never equal */
        return 0;
    }
}
#endif
