/* gfc.c — the global formulation of a friction-contact step
 * (option global_fc). With the systems j that the active contacts
 * touch (offsets o_j in the global velocity), the Moreau–Jean step
 *     W_j⁻¹ (v_j − v_free,j) = Σ_α G_α^j r_α,   u_α = H_α V_α + b_α
 * is the global friction-contact problem of ns_gfc.h:
 *     M v = H r + q,  u = Hᵀ v + b,  Coulomb's law on (u_α, r_α),
 * M = diag(W_j⁻¹) (the iteration matrices M + hθC + h²θ²K as assembled,
 * sparse systems' CSC kept), H = [G_α^j] (global rows o_j + i, one column
 * per contact row), q = M v_free, b_α = q_α − H_α V_free,α (the
 * restitution term e ẏ_k of the normal row and ∂h/∂t). Neither W_j Gᵀ
 * nor W = H M⁻¹ Hᵀ is formed; the solver (nsn-ac by default: Newton on
 * (v, r) with UMFPACK) returns v directly, which the update takes as the
 * new velocity of those systems (the others keep v_free). */
#include "simulation/sim_internal.h"
#include "relation/relation_kind.h"
#include <stdlib.h>
#include <string.h>

ns_status nsm_gfc_assemble(nsm_sim *s, ns_kind fckind)
{
    nsm_model *m = s->model;
    int dim = fckind == NS_KIND_FC2D ? 2 : 3, nc = s->nact;
    if (!s->gfc_off) {
        s->gfc_off = malloc((size_t)s->nd * sizeof *s->gfc_off);
        if (!s->gfc_off) goto oom;
    }
    for (int j = 0; j < s->nd; j++) s->gfc_off[j] = -1;
    for (int a = 0; a < nc; a++) {
        const nsm_interaction *I = &m->inter[s->act[a]];
        for (int k = 0; k < I->nds; k++) {
            if (m->ds[I->ds[k]]->nbc) {
                nsm_set_err(s->err, "global_fc: system %d has prescribed velocities (not supported in the global formulation)", I->ds[k]);
                return NS_UNSUPPORTED;
            }
            s->gfc_off[I->ds[k]] = 0;
        }
    }
    ns_int n = 0, nnzM = 0;
    for (int j = 0; j < s->nd; j++) {
        if (s->gfc_off[j] < 0) continue;
        s->gfc_off[j] = (int)n;
        n += s->d[j].n;
        const ns_matrix *W = s->d[j].Wmat;
        nnzM += W->storage == NS_SPARSE ? W->csc.nnz : (ns_int)s->d[j].n * s->d[j].n;
    }
    /* row_start of the contacts (unknowns_copy, update) */
    if (nsm_grow((void **)&s->row_start, &s->cap_rs, nc + 1, sizeof(ns_int)) != 0) goto oom;
    s->row_start[0] = 0;
    for (int a = 0; a < nc; a++) s->row_start[a + 1] = s->row_start[a] + dim;
    s->nrows = dim * nc;
    ns_matrix *M = ns_matrix_sparse_new(n, n, nnzM);
    if (!M) goto oom;
    ns_int z = 0;
    for (int j = 0; j < s->nd; j++) {
        if (s->gfc_off[j] < 0) continue;
        const ns_matrix *W = s->d[j].Wmat;
        int nj = s->d[j].n, o = s->gfc_off[j];
        for (int c = 0; c < nj; c++) {
            M->csc.p[o + c] = z;
            if (W->storage == NS_SPARSE) {
                for (ns_int k = W->csc.p[c]; k < W->csc.p[c + 1]; k++) {
                    M->csc.i[z] = o + W->csc.i[k]; M->csc.x[z++] = W->csc.x[k];
                }
            } else {
                for (int i = 0; i < nj; i++) {
                    double w = W->dense[i + (size_t)c * nj];
                    if (w != 0.0) { M->csc.i[z] = o + i; M->csc.x[z++] = w; }
                }
            }
        }
    }
    M->csc.p[n] = z;
    M->csc.nnz = z;
    /* H: one column per contact row */
    ns_int nnzH = 0;
    for (int a = 0; a < nc; a++) nnzH += (ns_int)dim * m->inter[s->act[a]].rel->ncols;
    ns_matrix *H = ns_matrix_sparse_new(n, (ns_int)dim * nc, nnzH);
    double *q = calloc((size_t)n + 1, sizeof *q), *b = calloc((size_t)dim * nc + 1, sizeof *b);
    double *mu = calloc((size_t)nc + 1, sizeof *mu);
    int maxc = 1;
    for (int a = 0; a < nc; a++) if (m->inter[s->act[a]].rel->ncols > maxc) maxc = m->inter[s->act[a]].rel->ncols;
    double *Z = malloc((size_t)maxc * sizeof *Z), *hv = malloc((size_t)dim * sizeof *hv);
    if (!H || !q || !b || !mu || !Z || !hv) {
        ns_matrix_free(M); ns_matrix_free(H); free(q); free(b); free(mu); free(Z); free(hv);
        goto oom;
    }
    z = 0;
    ns_status st = NS_OK;
    for (int a = 0; a < nc && st == NS_OK; a++) {
        int ia = s->act[a];
        const nsm_interaction *I = &m->inter[ia];
        const nsm_idata *d = &s->id[ia];
        int ncol = I->rel->ncols;
        for (int c = 0; c < dim; c++) {
            H->csc.p[a * dim + c] = z;
            for (int k = 0; k < I->nds; k++) {
                int o = s->gfc_off[I->ds[k]], nj = s->d[I->ds[k]].n, off = I->off[k];
                for (int i = 0; i < nj; i++) {
                    double g = nsm_idata_G(d, ncol, off + i, c);
                    if (g != 0.0) { H->csc.i[z] = o + i; H->csc.x[z++] = g; }
                }
            }
        }
        mu[a] = m->laws[I->law]->mu;
        st = nsm_osnsp_q_block(s, ia, b + (size_t)a * dim);   /* H V_free + extra terms */
        if (st != NS_OK) break;
        nsm_inter_gather(m, I, s->vfree, Z);
        nsm_matvec(dim, ncol, d->H, Z, hv);
        for (int c = 0; c < dim; c++) b[a * dim + c] -= hv[c];
    }
    H->csc.p[(ns_int)dim * nc] = z;
    H->csc.nnz = z;
    for (int j = 0; j < s->nd && st == NS_OK; j++)
        if (s->gfc_off[j] >= 0) ns_matrix_gemv(1.0, s->d[j].Wmat, s->d[j].free, 0.0, q + s->gfc_off[j]);
    free(Z); free(hv);
    if (st != NS_OK) { ns_matrix_free(M); ns_matrix_free(H); free(q); free(b); free(mu); return st; }
    ns_problem_free(s->prob); s->prob = NULL;
    ns_solution_free(s->sol); s->sol = NULL;
    s->have_problem = 0;
    s->prob = ns_problem_from_gfc(ns_gfc_new(dim, nc, M, H, q, b, mu));
    free(q); free(b); free(mu);
    if (!s->prob) goto oom;
    s->kind = s->prob->kind;
    s->sol = ns_solution_new(s->prob);
    if (!s->sol) goto oom;
    /* initial velocity: the free one */
    for (int j = 0; j < s->nd; j++)
        if (s->gfc_off[j] >= 0) memcpy(s->sol->vec[0] + s->gfc_off[j], s->d[j].free, (size_t)s->d[j].n * sizeof(double));
    s->global = 1;
    s->stats.rebuilds++;
    return NS_OK;
oom:
    nsm_set_err(s->err, "out of memory while assembling the global friction-contact problem");
    return NS_NO_MEMORY;
}
