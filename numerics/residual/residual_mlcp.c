/* residual_mlcp.c — error of a mixed linear complementarity problem, as
 * Siconos 4.4's mlcp_compute_error computes it (docs/errors.md §MLCP). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <math.h>
#include <string.h>

/* Siconos' complementarity defect of one pair (z_i, w_i):
 *   φ = [z<0](−z + [w<0] z·w) + [w<0](−w) + [z>0 ∧ w>0] z·w  (≥ 0, 0 iff 0 ≤ z ⊥ w ≥ 0). */
static double comp_defect(double z, double w)
{
    double f = 0.0;
    if (z < 0.0) {
        f += -z;
        if (w < 0.0) f += z * w;
    }
    if (w < 0.0) f += -w;
    if (z > 0.0 && w > 0.0) f += z * w;
    return f;
}

/* z = (u, v) ∈ ℝⁿ⁺ᵐ; w ← M z + q.  Over the row blocks of the problem
 * (default: rows 0..n-1 equality, n..n+m-1 complementarity):
 *   e_e = Σ_{equality blocks k} ‖w_k‖₂,      N_e = 1 + Σ_{equality blocks k} ‖q_k‖₂,
 *   e_i = Σ_{complementarity rows i} φ(z_i, w_i),  N_i = 1 + Σ_{compl. blocks k} ‖w_k‖₂,
 *   e = e_i / (1 + N_i)  if e_i/N_i ≥ e_e/N_e,  else  e_e / (1 + N_e).
 * (N_i uses w, not q, and the "1 +" appears twice: both as in Siconos 4.4.)
 * +INFINITY on non-finite z, w or q, or when M is not (n+m)×(n+m). */
double ns_mlcp_error(const ns_mlcp *p, const double *z, double *w)
{
    if (!p || !p->M || !z || !w) return INFINITY;
    const ns_int N = p->n + p->m;
    if (p->M->rows != N || p->M->cols != N) return INFINITY;
    if (N == 0) return 0.0;
    memcpy(w, p->q, (size_t)N * sizeof(double));
    ns_matrix_gemv(1.0, p->M, z, 1.0, w);
    /* NaN iff some z_i or w_i is not finite; a non-finite q makes w so */
    double bad = 0.0;
    for (ns_int i = 0; i < N; i++) bad += (z[i] - z[i]) + (w[i] - w[i]);
    if (bad != 0.0) return INFINITY;

    const ns_int def_start[3] = { 0, p->n, N };
    const int def_kind[2] = { 0, 1 };
    ns_int nb = 2;
    const ns_int *start = def_start;
    const int *kind = def_kind;
    if (p->nblocks > 0 && p->block_start && p->block_kind) {
        nb = p->nblocks;
        start = p->block_start;
        kind = p->block_kind;
    }
    double err_e = 0.0, norm_e = 1.0, err_i = 0.0, norm_i = 1.0;
    for (ns_int k = 0; k < nb; k++) {
        ns_int a = start[k], b = start[k + 1];
        if (a < 0 || b > N || b < a) return INFINITY;
        size_t len = (size_t)(b - a);
        if (len == 0) continue;
        if (kind[k] == 0) {
            err_e += ns_norm2(w + a, len);
            norm_e += ns_norm2(p->q + a, len);
        } else {
            for (ns_int i = a; i < b; i++) err_i += comp_defect(z[i], w[i]);
            norm_i += ns_norm2(w + a, len);
        }
    }
    double e = (err_i / norm_i >= err_e / norm_e) ? err_i / (1.0 + norm_i)
                                                  : err_e / (1.0 + norm_e);
    return isfinite(e) ? e : INFINITY;
}
