/* residual_gmp.c — error of a generic mechanical problem, as Siconos 4.4's
 * gmp_compute_error computes it (docs/errors.md §GMP). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <math.h>

/* Error of block row r once velocity[a..b) holds q_loc (see below); adds
 * D z_r to make velocity[a..b) = (M z + q)_r, and returns the local error. */
static double block_error(const ns_gmp *p, ns_int r, const double *z, double *vel)
{
    const ns_block *B = &p->M->block;
    const ns_int a = B->row_start[r], sz = B->row_start[r + 1] - a;
    /* ‖q_loc‖ before the diagonal product is added */
    double nq = ns_norm2(vel + a, (size_t)sz);
    const double *D = NULL;
    for (ns_int k = B->row_ptr[r]; k < B->row_ptr[r + 1]; k++)
        if (B->block_col[k] == r) D = B->x + B->value_ptr[k];
    if (D)
        for (ns_int j = 0; j < sz; j++)
            for (ns_int i = 0; i < sz; i++) vel[a + i] += D[i + j * sz] * z[a + j];
    const double *zl = z + a, *wl = vel + a;
    if (!ns_all_finite(zl, (size_t)sz) || !ns_all_finite(wl, (size_t)sz)) return INFINITY;
    double s = 0.0;
    switch (p->type[r]) {
    case NS_GMP_EQUALITY:
        for (ns_int i = 0; i < sz; i++) s = fmax(s, fabs(wl[i]));
        return s;
    case NS_GMP_LCP:
        for (ns_int i = 0; i < sz; i++) {
            double d = zl[i] - fmax(0.0, zl[i] - wl[i]);
            s += d * d;
        }
        return sqrt(s) / (1.0 + nq);
    case NS_GMP_RELAY:
        if (!p->lb || !p->ub) return INFINITY;
        for (ns_int i = 0; i < sz; i++) {
            double y = zl[i] - wl[i];
            if (y < p->lb[a + i]) y = p->lb[a + i];
            else if (y > p->ub[a + i]) y = p->ub[a + i];
            double d = zl[i] - y;
            s += d * d;
        }
        /* Siconos 4.4 divides the relay error, already relative to 1 + ‖q_loc‖,
         * once more by 1 + ‖q_loc‖. */
        return sqrt(s) / ((1.0 + nq) * (1.0 + nq));
    case NS_GMP_FC2D:
    case NS_GMP_FC3D: {
        int d = p->type[r] == NS_GMP_FC2D ? 2 : 3;
        if (sz != d) return INFINITY;
        return sqrt(ns_fc_contact_error_sq(d, p->mu[r], zl, wl)) / (1.0 + nq);
    }
    default:
        return INFINITY;   /* MLCP and unknown types: no error defined */
    }
}

/* velocity ← M reaction + q (M BLOCK, square block structure).  For each
 * block row r with diagonal block D_r and local vector
 *   q_loc,r = q_r + Σ_{c ≠ r} M_rc z_c      (velocity_r = q_loc,r + D_r z_r):
 *   EQUALITY  e_r = ‖w_r‖∞                                   (absolute),
 *   LCP       e_r = ‖z_r − max(0, z_r − w_r)‖ / (1 + ‖q_loc,r‖),
 *   RELAY     e_r = ‖z_r − P_[lb,ub](z_r − w_r)‖ / (1 + ‖q_loc,r‖)²,
 *   FC2D/FC3D e_r = ‖z_r − P_K(z_r − ŵ_r)‖ / (1 + ‖q_loc,r‖),
 * and e = max_r e_r.  +INFINITY on non-finite values, an unsupported
 * sub-problem type, or a matrix that is not BLOCK with square blocking. */
double ns_gmp_error(const ns_gmp *p, const double *reaction, double *velocity)
{
    if (!p || !p->M || p->M->storage != NS_BLOCK || !reaction || !velocity) return INFINITY;
    const ns_block *B = &p->M->block;
    if (p->M->rows != p->n || p->M->cols != p->n || B->block_rows != p->nblocks ||
        B->block_cols != B->block_rows)
        return INFINITY;
    for (ns_int r = 0; r <= B->block_rows; r++)
        if (B->row_start[r] != B->col_start[r]) return INFINITY;
    if (!ns_all_finite(reaction, (size_t)p->n) || !ns_all_finite(p->q, (size_t)p->n))
        return INFINITY;
    /* velocity ← q_loc for every block row (off-diagonal products only) */
    for (ns_int r = 0; r < B->block_rows; r++) {
        const ns_int a = B->row_start[r], h = B->row_start[r + 1] - a;
        for (ns_int i = 0; i < h; i++) velocity[a + i] = p->q[a + i];
        for (ns_int k = B->row_ptr[r]; k < B->row_ptr[r + 1]; k++) {
            const ns_int c = B->block_col[k];
            if (c == r) continue;
            const ns_int c0 = B->col_start[c], w = B->col_start[c + 1] - c0;
            const double *X = B->x + B->value_ptr[k];
            for (ns_int j = 0; j < w; j++)
                for (ns_int i = 0; i < h; i++) velocity[a + i] += X[i + j * h] * reaction[c0 + j];
        }
    }
    double e = 0.0;
    for (ns_int r = 0; r < B->block_rows; r++) {
        double er = block_error(p, r, reaction, velocity);
        if (!(er <= e)) e = er;   /* also propagates INFINITY */
    }
    return isfinite(e) ? e : INFINITY;
}
