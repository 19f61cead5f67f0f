/* gmp_nsgs.c — Gauss–Seidel over the block rows of a generic mechanical
 * problem (w = M z + q, block row ρ a sub-problem of its own type):
 *     q̃_ρ = q_ρ + Σ_{σ≠ρ} M_ρσ z_σ,   z_ρ ← solve_ρ(M_ρρ, q̃_ρ),
 * solve_ρ exact for its type:
 *   EQUALITY  M_ρρ z = −q̃ (LU of M_ρρ computed once, LAPACKE);
 *   LCP       principal enumeration of the 2^s active sets (s ≤ 16), the
 *             previous active set first; s = 1: z = max(0, −q̃/M);
 *   RELAY     s = 1: z = clamp(−q̃/M, lb, ub); larger boxes: 50 inner
 *             projected Gauss–Seidel passes;
 *   FC2D/FC3D the one-contact AC Newton with enumeration fallback.
 * The GMP error ns_gmp_error is computed after every sweep. */
#include "core/solvers.h"
#include "core/ns_internal.h"
#include "fc3d/fc3d_local.h"
#include "nonsmooth/ns_residual.h"
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GMP_MAX_LCP 16

/* 0 ≤ z ⊥ A z + b ≥ 0, A s×s column-major; work: s*s + s, piv: s. */
static int small_lcp(int s, const double *A, const double *b, double *z,
                     double *work, lapack_int *piv)
{
    unsigned first = 0;
    for (int i = 0; i < s; i++) if (z[i] > 0) first |= 1u << i;
    unsigned total = 1u << s;
    for (unsigned t = 0; t < total; t++) {
        unsigned mask = t == 0 ? first : (t == first ? 0 : t);
        int k = 0, idx[GMP_MAX_LCP];
        for (int i = 0; i < s; i++) if (mask >> i & 1u) idx[k++] = i;
        double *S = work, *x = work + s * s;
        for (int a = 0; a < k; a++) {
            x[a] = -b[idx[a]];
            for (int c = 0; c < k; c++) S[a + c * k] = A[idx[a] + idx[c] * s];
        }
        if (k && LAPACKE_dgesv(LAPACK_COL_MAJOR, k, 1, S, k, piv, x, k) != 0) continue;
        int ok = 1;
        for (int a = 0; a < k; a++) if (!(x[a] >= 0) ) ok = 0;
        if (!ok) continue;
        double zz[GMP_MAX_LCP] = { 0 };
        for (int a = 0; a < k; a++) zz[idx[a]] = x[a];
        for (int i = 0; i < s && ok; i++) {
            if (mask >> i & 1u) continue;
            double w = b[i];
            for (int j = 0; j < s; j++) w += A[i + j * s] * zz[j];
            if (w < -1e-14 * (1 + fabs(b[i]))) ok = 0;
        }
        if (ok) { memcpy(z, zz, (size_t)s * sizeof(double)); return 0; }
    }
    return 1;
}

ns_status ns_gmp_nsgs(const ns_gmp *p, double *z, double *w, const ns_options *o, ns_result *res)
{
    const ns_block *B = &p->M->block;
    const ns_int nb = p->nblocks;
    ns_status st = NS_MAX_ITER;
    size_t lu_len = 0;
    ns_int smax = 1;
    for (ns_int b = 0; b < nb; b++) {
        ns_int s = B->row_start[b + 1] - B->row_start[b];
        if (s > smax) smax = s;
        if (B->diag[b] < 0)
            return ns_fail(res->message, NS_BAD_INPUT, "gmp-nsgs: block row %d has no diagonal block", b);
        if (p->type[b] == NS_GMP_EQUALITY) lu_len += (size_t)s * s;
        if (p->type[b] == NS_GMP_LCP && s > GMP_MAX_LCP)
            return ns_fail(res->message, NS_UNSUPPORTED, "gmp-nsgs: LCP block %d of size %d > %d",
                           b, s, GMP_MAX_LCP);
    }
    double *lu = ns_malloc(lu_len + 1, sizeof(double));
    lapack_int *piv = ns_malloc((size_t)p->n + (size_t)smax + 1, sizeof(lapack_int));
    double *qt = ns_malloc((size_t)smax * smax + 3 * (size_t)smax + 1, sizeof(double));
    size_t *lu_off = ns_malloc((size_t)nb + 1, sizeof(size_t));
    if (!lu || !piv || !qt || !lu_off) { st = ns_fail(res->message, NS_NO_MEMORY, "gmp-nsgs: out of memory"); goto done; }
    double *work = qt + smax;
    size_t off = 0;
    for (ns_int b = 0; b < nb; b++) {
        ns_int s = B->row_start[b + 1] - B->row_start[b];
        const double *D = B->x + B->value_ptr[B->diag[b]];
        lu_off[b] = off;
        if (p->type[b] == NS_GMP_EQUALITY) {
            memcpy(lu + off, D, (size_t)s * s * sizeof(double));
            if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, s, s, lu + off, s, piv + B->row_start[b]) != 0) {
                st = ns_fail(res->message, NS_SINGULAR, "gmp-nsgs: equality block %d is singular", b);
                goto done;
            }
            off += (size_t)s * s;
        } else if (p->type[b] == NS_GMP_FC3D || p->type[b] == NS_GMP_FC2D) {
            if (ns_fc_check_diag_block(p->type[b] == NS_GMP_FC3D ? 3 : 2, D)) {
                st = ns_fail(res->message, NS_BAD_INPUT, "gmp-nsgs: contact block %d: diagonal block "
                             "has W_NN <= 0 or is indefinite", b);
                goto done;
            }
        } else if (!(D[0] > 0) && s == 1) {
            st = ns_fail(res->message, NS_BAD_INPUT, "gmp-nsgs: block %d: M_ii = %g <= 0", b, D[0]);
            goto done;
        }
    }
    double t0 = ns_now();
    for (int it = 1; it <= o->max_iter; it++) {
        for (ns_int b = 0; b < nb; b++) {
            ns_int r0 = B->row_start[b], s = B->row_start[b + 1] - r0;
            for (ns_int i = 0; i < s; i++) qt[i] = p->q[r0 + i];
            for (ns_int k = B->row_ptr[b]; k < B->row_ptr[b + 1]; k++) {
                if (k == B->diag[b]) continue;
                ns_int c = B->block_col[k], c0 = B->col_start[c], sc = B->col_start[c + 1] - c0;
                const double *Mk = B->x + B->value_ptr[k];
                for (ns_int j = 0; j < sc; j++)
                    for (ns_int i = 0; i < s; i++) qt[i] += Mk[i + j * s] * z[c0 + j];
            }
            const double *D = B->x + B->value_ptr[B->diag[b]];
            double *zb = z + r0;
            switch (p->type[b]) {
            case NS_GMP_EQUALITY:
                for (ns_int i = 0; i < s; i++) zb[i] = -qt[i];
                LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', s, 1, lu + lu_off[b], s, piv + r0, zb, s);
                break;
            case NS_GMP_LCP:
                if (s == 1) zb[0] = fmax(0.0, -qt[0] / D[0]);
                else small_lcp(s, D, qt, zb, work, piv + p->n);
                break;
            case NS_GMP_RELAY:
                for (int pass = 0; pass < (s == 1 ? 1 : 50); pass++)
                    for (ns_int i = 0; i < s; i++) {
                        double wi = qt[i];
                        for (ns_int j = 0; j < s; j++) if (j != i) wi += D[i + j * s] * zb[j];
                        zb[i] = fmin(p->ub[r0 + i], fmax(p->lb[r0 + i], -wi / D[i + i * s]));
                    }
                break;
            default: { /* FC2D / FC3D */
                ns_fc_contact c;
                int d = p->type[b] == NS_GMP_FC3D ? 3 : 2;
                double nq = 0.0;
                for (int i = 0; i < d; i++) nq += qt[i] * qt[i];
                ns_fc_contact_init(&c, d, D, qt, p->mu[b], 1e-12 * fmax(sqrt(nq), DBL_MIN), 20);
                ns_fc_local_solve(ns_fc_local_ac, &c, zb);
            } }
        }
        res->iterations = it;
        res->error = ns_gmp_error(p, z, w);
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
    }
done:
    free(lu); free(piv); free(qt); free(lu_off);
    return st;
}
