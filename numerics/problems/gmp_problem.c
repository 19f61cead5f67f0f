/* gmp_problem.c — generic mechanical problem: one BLOCK matrix, one
 * sub-problem type per block row. */
#include "nonsmooth/ns_gmp.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>

ns_gmp *ns_gmp_new(ns_matrix *M, const double *q, const int *type,
                   const double *mu)
{
    if (!M || M->storage != NS_BLOCK || !type) { ns_matrix_free(M); return NULL; }
    ns_gmp *p = ns_calloc(1, sizeof *p);
    if (!p) { ns_matrix_free(M); return NULL; }
    p->n = M->cols;
    p->M = M;
    p->nblocks = M->block.block_rows;
    p->q = ns_calloc((size_t)M->cols, sizeof(double));
    p->type = ns_calloc((size_t)p->nblocks, sizeof(int));
    p->mu = ns_calloc((size_t)p->nblocks, sizeof(double));
    if (!p->q || !p->type || !p->mu) { ns_gmp_free(p); return NULL; }
    if (q) for (ns_int i = 0; i < M->cols; i++) p->q[i] = q[i];
    for (ns_int k = 0; k < p->nblocks; k++) {
        p->type[k] = type[k];
        p->mu[k] = mu ? mu[k] : NAN;
    }
    return p;
}

ns_status ns_gmp_validate(const ns_gmp *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "gmp: no problem");
    if (!p->M || p->M->storage != NS_BLOCK)
        return ns_fail(err, NS_BAD_INPUT, "gmp: M: must be in sparse-block storage");
    ns_status st = ns_check_square(p->M, p->n, "gmp", "M", err);
    if (st) return st;
    if ((st = ns_check_vector(p->q, p->n, "gmp", "q", err))) return st;
    const ns_block *B = &p->M->block;
    if (p->nblocks != B->block_rows)
        return ns_fail(err, NS_BAD_INPUT, "gmp: %d types for %d block rows", p->nblocks,
                       B->block_rows);
    int has_relay = 0;
    for (ns_int r = 0; r < p->nblocks; r++) {
        ns_int sz = B->row_start[r + 1] - B->row_start[r], dn = 0;
        if (!ns_matrix_block_diag(p->M, r, &dn) || dn != sz)
            return ns_fail(err, NS_BAD_INPUT,
                           "gmp: M: block row %d has no square diagonal block", r);
        switch (p->type[r]) {
        case NS_GMP_LCP: case NS_GMP_EQUALITY: break;
        case NS_GMP_RELAY: has_relay = 1; break;
        case NS_GMP_FC2D: case NS_GMP_FC3D: {
            int d = p->type[r] == NS_GMP_FC2D ? 2 : 3;
            if (sz != d)
                return ns_fail(err, NS_BAD_INPUT,
                               "gmp: block %d: friction block of size %d, expected %d", r, sz, d);
            if (!(p->mu[r] >= 0) || !isfinite(p->mu[r]))
                return ns_fail(err, NS_BAD_INPUT, "gmp: block %d: mu = %g is not a valid "
                               "friction coefficient", r, p->mu[r]);
            break;
        }
        default:
            return ns_fail(err, NS_BAD_INPUT,
                           "gmp: block %d: sub-problem type %d is not supported "
                           "(0 lcp, 2 equality, 3 fc2d, 4 fc3d, 9 relay)", r, p->type[r]);
        }
    }
    if (has_relay) {
        if (!p->lb || !p->ub)
            return ns_fail(err, NS_BAD_INPUT, "gmp: relay block without bounds lb/ub");
        for (ns_int i = 0; i < p->n; i++)
            if (isnan(p->lb[i]) || isnan(p->ub[i]) || p->lb[i] > p->ub[i])
                return ns_fail(err, NS_BAD_INPUT, "gmp: bounds: lb[%d] > ub[%d] or NaN", i, i);
    }
    return NS_OK;
}

ns_int ns_gmp_count(const ns_gmp *p, ns_gmp_type t)
{
    ns_int c = 0;
    if (p)
        for (ns_int k = 0; k < p->nblocks; k++) c += p->type[k] == (int)t;
    return c;
}

void ns_gmp_free(ns_gmp *p)
{
    if (!p) return;
    ns_matrix_free(p->M);
    free(p->q);
    free(p->type);
    free(p->mu);
    free(p->lb);
    free(p->ub);
    free(p);
}
