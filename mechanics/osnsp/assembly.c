/* assembly.c — the one-step nonsmooth problem of a time step, assembled in
 * BLOCK storage over the linked-interaction map.
 *
 * For the active interactions α (block row α, size m_α) and their systems j:
 *   M_αβ = [α = β] D_α + s Σ_{j ∈ DS_α ∩ DS_β} H_α^j W_j G_β^j,
 *   q_α  = H_α Z_α + ∂h/∂t(t_{k+1}) + e_α + e ẏ_α,k (impact rows),
 * with G = Hᵀ (Lagrangian; p = Hᵀλ) or B (first order; r = Bλ), s the
 * integrator's input scale (Moreau–Jean 1, Euler–Moreau h, or hθ with the
 * option theta_output), Z the free velocities V_free (Lagrangian), the free
 * state X_free (first order, the law on y_{k+1}) or θ X_free + (1 − θ) X_k
 * (theta_output, the law on y_{k+θ}). W_j G_β^j is kept per interaction
 * and system and recomputed only when W_j or H_β changed; the block
 * structure and the numerics problem are kept while the ordered active list
 * is unchanged, and the values are refilled only when some W G changed.
 *
 * Extension seams:
 *  - problem kind: choose_kind() counts the active rows per row class of
 *    the laws (nslaw/nslaw_kind.h: equality, complementarity, relay,
 *    friction) and new_problem() builds the numerics problem of that kind
 *    from the block matrix, q and the per-row law data (bounds, μ). A new
 *    kind (the generic mechanical problem for mixed classes, the global
 *    friction contact problem that keeps M and H apart) is one more case in
 *    both, plus its unknown layout in solve.c's unknowns_copy(); the
 *    blocks H_α^j, W_j, G are all available per interaction (nsm_idata).
 *  - storage: W_j G is formed by ns_factor_solve on the system's factor
 *    (nsm_dsdata.F_W), whatever the storage ns_factor was given, so a
 *    system type whose iteration matrix is SPARSE (CHOLMOD/UMFPACK) needs
 *    no change here; the one-step matrix stays BLOCK. */
#include "simulation/sim_internal.h"
#include "nslaw/nslaw_kind.h"
#include "relation/relation_kind.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* W_j G_α^j (n_j × m_α). Returns 1 if recomputed. */
static int update_WG(nsm_sim *s, int inter, nsm_idata *d)
{
    const nsm_interaction *I = &s->model->inter[inter];
    const nsm_relation *r = I->rel;
    int m = r->m, nc = r->ncols;
    int changed = 0;
    unsigned hv = d->H_version;
    for (int k = 0; k < I->nds; k++) {
        nsm_dsdata *dd = &s->d[I->ds[k]];
        if (d->WHt_valid[k] && d->WHt_Wver[k] == dd->W_version && d->WHt_Hver[k] == hv)
            continue;
        int n = dd->n, off = I->off[k];
        double *X = d->WHt[k];
        for (int c = 0; c < m; c++)
            for (int i = 0; i < n; i++) X[i + (size_t)c * n] = nsm_idata_G(d, nc, off + i, c);
        ns_factor_solve(dd->F_W, X, m, n);
        /* prescribed velocities are not moved by the multipliers */
        const nsm_ds *ds = s->model->ds[I->ds[k]];
        for (int b = 0; b < ds->nbc; b++)
            for (int c = 0; c < m; c++) X[ds->bc_dof[b] + (size_t)c * n] = 0.0;
        d->WHt_valid[k] = 1;
        d->WHt_Wver[k] = dd->W_version;
        d->WHt_Hver[k] = hv;
        changed = 1;
    }
    return changed;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Block structure over the linked-interaction map of the active set. */
static ns_status build_structure(nsm_sim *s)
{
    nsm_model *m = s->model;
    int nb = s->nact;
    if (nsm_grow((void **)&s->row_start, &s->cap_rs, nb + 1, sizeof(ns_int)) != 0) goto oom;
    if (nsm_grow((void **)&s->row_ptr, &s->cap_rp, nb + 1, sizeof(ns_int)) != 0) goto oom;
    s->row_start[0] = 0;
    for (int a = 0; a < nb; a++) s->row_start[a + 1] = s->row_start[a] + s->id[s->act[a]].m;
    s->nrows = s->row_start[nb];
    int nbc = 0;
    s->row_ptr[0] = 0;
    for (int a = 0; a < nb; a++) {
        int ia = s->act[a];
        const nsm_interaction *I = &m->inter[ia];
        int cnt = 0;
        for (int k = 0; k < I->nds; k++) cnt += m->ds_inter[I->ds[k]].n;
        if (nsm_grow((void **)&s->scratch, &s->cap_scratch, cnt + 1, sizeof(int)) != 0) goto oom;
        int ncol = 0;
        s->scratch[ncol++] = a;
        for (int k = 0; k < I->nds; k++) {
            const nsm_intlist *l = &m->ds_inter[I->ds[k]];
            for (int t = 0; t < l->n; t++) {
                int ib = l->v[t];
                if (ib == ia || !s->id || ib >= s->cap_id) continue;
                int pb = s->id[ib].pos;
                if (pb >= 0 && s->id[ib].gen == m->inter[ib].gen) s->scratch[ncol++] = pb;
            }
        }
        if (ncol <= 32)   /* a contact has a handful of neighbours: no qsort call */
            for (int t = 1; t < ncol; t++) {
                int v = s->scratch[t], j = t;
                for (; j > 0 && s->scratch[j - 1] > v; j--) s->scratch[j] = s->scratch[j - 1];
                s->scratch[j] = v;
            }
        else
            qsort(s->scratch, (size_t)ncol, sizeof(int), cmp_int);
        int u = 0;
        for (int t = 0; t < ncol; t++)
            if (u == 0 || s->scratch[t] != s->scratch[u - 1]) s->scratch[u++] = s->scratch[t];
        if (nsm_grow((void **)&s->block_col, &s->cap_bc, nbc + u, sizeof(ns_int)) != 0) goto oom;
        for (int t = 0; t < u; t++) s->block_col[nbc++] = s->scratch[t];
        s->row_ptr[a + 1] = nbc;
    }
    return NS_OK;
oom:
    nsm_set_err(s->err, "out of memory while assembling");
    return NS_NO_MEMORY;
}

/* The input scale of interaction I's systems (they share one integrator). */
static double input_scale(const nsm_sim *s, const nsm_interaction *I)
{
    const nsm_dsdata *d = &s->d[I->ds[0]];
    double sc = nsm_osi_of(d)->input_scale(&s->step);
    if (!d->lagrangian && s->o.theta_output) sc *= d->theta;
    return sc;
}

/* Block (α, β) values into X (m_α × m_β, column-major); sc: α's input
 * scale (input_scale, the same for every block of the row). */
static void block_values(nsm_sim *s, int ia, int ib, double *X, double sc)
{
    nsm_model *m = s->model;
    const nsm_interaction *A = &m->inter[ia], *B = &m->inter[ib];
    const nsm_idata *da = &s->id[ia], *db = &s->id[ib];
    int ma = da->m, mb = db->m;
    const double *Ha = da->H;
    memset(X, 0, (size_t)ma * mb * sizeof *X);
    for (int ka = 0; ka < A->nds; ka++)
        for (int kb = 0; kb < B->nds; kb++) {
            if (A->ds[ka] != B->ds[kb]) continue;
            int n = s->d[A->ds[ka]].n, offa = A->off[ka];
            const double *Wt = db->WHt[kb];
            for (int c = 0; c < mb; c++) {
                double *Xc = X + (size_t)c * ma;
                if (ma == 3) {
                    /* the column's three sums in registers: accumulating
                     * in X itself made every product wait for the store
                     * before it (a quarter of the assembly's time on a
                     * sphere pile). No test for w = 0: a contact's W_j Hᵀ
                     * has zeros where its pattern does not predict them,
                     * and the mispredicted branch cost more than the
                     * products (adding H·0 leaves a finite sum's value) */
                    double x0 = Xc[0], x1 = Xc[1], x2 = Xc[2];
                    const double *Wc = Wt + (size_t)c * n, *Hc = Ha + (size_t)offa * 3;
                    for (int i = 0; i < n; i++) {
                        const double w = Wc[i];
                        x0 += Hc[3 * i] * w;
                        x1 += Hc[3 * i + 1] * w;
                        x2 += Hc[3 * i + 2] * w;
                    }
                    Xc[0] = x0; Xc[1] = x1; Xc[2] = x2;
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    double w = Wt[i + (size_t)c * n];
                    if (w == 0.0) continue;
                    const double *Hcol = Ha + (size_t)(offa + i) * ma;
                    for (int r = 0; r < ma; r++) Xc[r] += Hcol[r] * w;
                }
            }
        }
    if (sc != 1.0) for (size_t t = 0; t < (size_t)ma * mb; t++) X[t] *= sc;
    if (ia != ib) return;
    const double *D = da->Dcur ? da->Dcur : nsm_relation_kind_of(A->rel)->D(A->rel);
    if (D)
        for (size_t t = 0; t < (size_t)ma * ma; t++) X[t] += D[t];
}

static ns_matrix *problem_matrix(ns_problem *p)
{
    switch (p->kind) {
    case NS_KIND_LCP: return p->u.lcp->M;
    case NS_KIND_MLCP: return p->u.mlcp->M;
    case NS_KIND_RELAY: return p->u.relay->M;
    case NS_KIND_EQUALITY: return p->u.equality->M;
    case NS_KIND_FC2D: case NS_KIND_FC3D: return p->u.fc->W;
    case NS_KIND_RFC3D: case NS_KIND_RFC2D: return p->u.rfc->W;
    case NS_KIND_GMP: return p->u.gmp->M;
    default: return NULL;
    }
}

static double *problem_q(ns_problem *p)
{
    switch (p->kind) {
    case NS_KIND_LCP: return p->u.lcp->q;
    case NS_KIND_MLCP: return p->u.mlcp->q;
    case NS_KIND_RELAY: return p->u.relay->q;
    case NS_KIND_EQUALITY: return p->u.equality->q;
    case NS_KIND_FC2D: case NS_KIND_FC3D: return p->u.fc->q;
    case NS_KIND_RFC3D: case NS_KIND_RFC2D: return p->u.rfc->q;
    case NS_KIND_GMP: return p->u.gmp->q;
    default: return NULL;
    }
}

/* Kind of the problem from the row classes of the active laws. */
static ns_status choose_kind(nsm_sim *s, ns_kind *kind, int *neq)
{
    nsm_model *m = s->model;
    int rows[NSM_ROWS_NCLASSES] = { 0 }, dim = 0;
    for (int a = 0; a < s->nact; a++) {
        const nsm_nslaw *L = m->laws[m->inter[s->act[a]].law];
        nsm_row_class c = nsm_nslaw_kind_of(L)->rows;
        rows[c] += L->size;
        if (c == NSM_ROWS_FRICTION || c == NSM_ROWS_ROLLING) {
            if (dim && dim != L->size) {
                nsm_set_err(s->err, dim + L->size == 11 ? "rolling laws with and without pivoting resistance in one problem"
                                                        : "2D and 3D friction laws in one problem");
                return NS_UNSUPPORTED;
            }
            dim = L->size;
        }
    }
    /* rolling friction: the RFC kinds, alone (no generic mechanical
     * problem holds rolling blocks) */
    if (rows[NSM_ROWS_ROLLING]) {
        int all = 0;
        for (int c = 0; c < NSM_ROWS_NCLASSES; c++) all += rows[c];
        if (rows[NSM_ROWS_ROLLING] != all || s->o.gmp == 1) {
            nsm_set_err(s->err, "rolling friction laws cannot share a one-step problem with other "
                        "laws (or the option gmp = 1): the rfc kinds hold rolling contacts only");
            return NS_UNSUPPORTED;
        }
        *neq = 0;
        *kind = dim == 3 ? NS_KIND_RFC2D : NS_KIND_RFC3D;
        return NS_OK;
    }
    int n_eq = rows[NSM_ROWS_EQUALITY], n_comp = rows[NSM_ROWS_COMPLEMENTARITY];
    int n_relay = rows[NSM_ROWS_RELAY], n_fc = rows[NSM_ROWS_FRICTION];
    *neq = n_eq;
    /* classes no single kind holds (friction with anything else, relay
     * with equalities), or the option gmp = 1: the generic mechanical
     * problem, one sub-problem per interaction (gmp.c) */
    if (s->o.gmp == 1 || (n_fc && (n_eq || n_comp || n_relay)) || (n_relay && n_eq)) {
        *kind = NS_KIND_GMP;
        return NS_OK;
    }
    if (n_fc) {
        *kind = dim == 2 ? NS_KIND_FC2D : NS_KIND_FC3D;
    } else if (n_relay) {
        *kind = NS_KIND_RELAY;
    } else if (n_eq && n_comp) *kind = NS_KIND_MLCP;
    else if (n_eq) *kind = NS_KIND_EQUALITY;
    else *kind = NS_KIND_LCP;
    return NS_OK;
}

/* μ of the law of the a-th active interaction. */
static double m_law_mu(const nsm_sim *s, int a)
{
    const nsm_model *m = s->model;
    return m->laws[m->inter[s->act[a]].law]->mu;
}

static ns_status new_problem(nsm_sim *s, ns_matrix *M, ns_kind kind, int neq)
{
    nsm_model *m = s->model;
    const double *q = s->qvec;
    ns_problem *p = NULL;
    int n = s->nrows;
    if (kind == NS_KIND_LCP) p = ns_problem_from_lcp(ns_lcp_new(M, q));
    else if (kind == NS_KIND_EQUALITY) p = ns_problem_from_equality(ns_equality_new(M, q));
    else if (kind == NS_KIND_MLCP) p = ns_problem_from_mlcp(ns_mlcp_new(neq, n - neq, M, q));
    else if (kind == NS_KIND_GMP) p = nsm_gmp_problem(s, M, q);
    else if (kind == NS_KIND_RELAY) {
        double *lb = malloc((size_t)n * sizeof *lb), *ub = malloc((size_t)n * sizeof *ub);
        if (lb && ub) {
            for (int a = 0; a < s->nact; a++) {
                const nsm_nslaw *L = m->laws[m->inter[s->act[a]].law];
                const nsm_nslaw_kind *lk = nsm_nslaw_kind_of(L);
                for (int c = 0; c < L->size; c++) {
                    int r = s->row_start[a] + c;
                    lb[r] = 0.0; ub[r] = INFINITY;
                    if (lk->bounds) lk->bounds(L, c, &lb[r], &ub[r]);
                }
            }
            p = ns_problem_from_relay(ns_relay_new(M, q, lb, ub));
        } else ns_matrix_free(M);
        free(lb); free(ub);
    } else if (kind == NS_KIND_RFC3D || kind == NS_KIND_RFC2D) {
        int nb = s->nact ? s->nact : 1;
        double *mu = malloc((size_t)nb * sizeof *mu), *mur = malloc((size_t)nb * sizeof *mur);
        if (mu && mur) {
            for (int a = 0; a < s->nact; a++) {
                const nsm_nslaw *L = m->laws[m->inter[s->act[a]].law];
                mu[a] = L->mu;
                mur[a] = L->mu_r;
            }
            int d = kind == NS_KIND_RFC2D ? 3 : s->nact ? m->laws[m->inter[s->act[0]].law]->size : 5;
            ns_rfc *rp = ns_rfc_new(d, s->nact, M, q, mu, mur);
            if (rp && d == 6)
                for (int a = 0; a < s->nact; a++) rp->mu_p[a] = m->laws[m->inter[s->act[a]].law]->mu_p;
            p = ns_problem_from_rfc(rp);
        } else ns_matrix_free(M);
        free(mu); free(mur);
    } else {
        int dim = kind == NS_KIND_FC2D ? 2 : 3;
        double *mu = malloc((size_t)(s->nact ? s->nact : 1) * sizeof *mu);
        if (mu) {
            for (int a = 0; a < s->nact; a++) mu[a] = m->laws[m->inter[s->act[a]].law]->mu;
            p = ns_problem_from_fc(ns_fc_new(dim, s->nact, M, q, mu));
        } else ns_matrix_free(M);
        free(mu);
    }
    if (!p) { nsm_set_err(s->err, "could not build the %s problem", ns_kind_name(kind)); return NS_NO_MEMORY; }
    s->prob = p;
    s->kind = kind;
    s->sol = ns_solution_new(p);
    if (!s->sol) { nsm_set_err(s->err, "out of memory"); return NS_NO_MEMORY; }
    return NS_OK;
}

/* Restitution used in the Newton law 0 ≤ U_{k+1} + e U_k ⊥ P ≥ 0 of one
 * row. With v_{k+θ} = θ v_{k+1} + (1 − θ) v_k, the impulse P does the work
 * P (θ U_{k+1} + (1 − θ) U_k) = P U_k (1 − θ − θ e) in the scheme's energy
 * balance (the law gives P U_{k+1} = −e P U_k). It is ≤ 0 for an approaching
 * row (U_k ≤ 0) when e ≤ (1 − θ)/θ, but > 0 for a separating row (U_k > 0)
 * with the physical e < 1: a contact that is active only because its
 * predicted gap is ≤ 0 would then push energy in. For separating rows the
 * option separating_restitution uses max(e, (1 − θ)/θ) (1 when θ < ½), which
 * makes that work ≤ 0; the law is continuous in U_k at 0, so resting
 * contacts behave as before. */
static double restitution(const nsm_sim *s, double th, double e, double uk)
{
    if (!s->o.separating_restitution || !(uk > 0.0)) return e;
    double es = th >= 0.5 ? (1.0 - th) / th : 1.0;
    return es > e ? es : e;
}

/* Entries of q at the round-off level of their own terms (|q_i| ≤ 16 ε
 * Σ|terms|: a free relative velocity that cancels exactly, e.g. touching
 * bodies moving together) are set to 0: their sign is noise, and a
 * relative LCP error divided by such a ‖q‖ would call an exact solution
 * unconverged. absq holds Σ|terms| per row. */
static void snap_roundoff(int m, double *qa, const double *absq)
{
    for (int i = 0; i < m; i++)
        if (fabs(qa[i]) <= 16.0 * DBL_EPSILON * absq[i]) qa[i] = 0.0;
}

/* |A| |x| for A m×nc column-major. */
static void abs_matvec(int m, int nc, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) y[i] = 0.0;
    for (int c = 0; c < nc; c++) {
        double xc = fabs(x[c]);
        if (xc == 0.0) continue;
        const double *Ac = A + (size_t)c * m;
        for (int i = 0; i < m; i++) y[i] += fabs(Ac[i]) * xc;
    }
}

/* q_α of one active interaction into qa. */
ns_status nsm_osnsp_q_block(nsm_sim *s, int ia, double *qa)
{
    nsm_model *m = s->model;
    const nsm_interaction *I = &m->inter[ia];
    const nsm_relation *r = I->rel;
    const nsm_relation_kind *rk = nsm_relation_kind_of(r);
    nsm_idata *d = &s->id[ia];
    const nsm_nslaw *L = m->laws[I->law];
    if (nsm_grow((void **)&s->xbuf, &s->cap_x, 2 * r->ncols + 3 * r->m, sizeof(double)) != 0) {
        nsm_set_err(s->err, "out of memory");
        return NS_NO_MEMORY;
    }
    double *Z = s->xbuf, *Q = Z + r->ncols, *work = Q, *absq = Q + r->ncols + 2 * r->m;
    nsm_inter_gather(m, I, s->vfree, Z);
    double th = s->d[I->ds[0]].theta;
    if (!rk->lagrangian && s->o.theta_output) {   /* X_{k+θ} without r */
        nsm_inter_gather(m, I, s->vqk, Q);
        for (int c = 0; c < r->ncols; c++) Z[c] = th * Z[c] + (1.0 - th) * Q[c];
    }
    if (rk->linearise) {
        /* q = h^α + C (X_free − X^α) + h C W r0 − D λ^α */
        nsm_inter_gather(m, I, s->vq, Q);
        for (int c = 0; c < r->ncols; c++) Z[c] -= Q[c];
        double sc = nsm_osi_of(&s->d[I->ds[0]])->input_scale(&s->step);
        for (int k = 0; k < I->nds; k++) {
            nsm_dsdata *dd = &s->d[I->ds[k]];
            memcpy(d->Wr0[k], d->r0 + I->off[k], (size_t)dd->n * sizeof(double));
            ns_factor_solve(dd->F_W, d->Wr0[k], 1, dd->n);
            for (int i = 0; i < dd->n; i++) Z[I->off[k] + i] += sc * d->Wr0[k][i];
        }
        nsm_matvec(r->m, r->ncols, d->H, Z, qa);
        for (int i = 0; i < r->m; i++) {
            qa[i] += d->yalpha[i];
            for (int c = 0; c < r->m; c++) qa[i] -= d->Dcur[i + (size_t)c * r->m] * d->lam0[c];
        }
        return NS_OK;
    }
    nsm_matvec(r->m, r->ncols, d->H, Z, qa);
    abs_matvec(r->m, r->ncols, d->H, Z, absq);
    if (!rk->lagrangian) {
        for (int c = 0; c < r->m; c++) work[c] = qa[c];
        int rc = nsm_rel_first_order_offset(r, s->step.t1, qa, work + r->m);
        if (rc != 0) { nsm_set_err(s->err, "interaction %d: e(t) callback returned %d", ia, rc); return NS_BAD_INPUT; }
        for (int c = 0; c < r->m; c++) absq[c] += fabs(qa[c] - work[c]);
        snap_roundoff(r->m, qa, absq);
        return NS_OK;
    }
    if (rk->dhdt) {
        nsm_inter_gather(m, I, s->vq, Q);
        double *out = Z;   /* Z no longer needed */
        int rc = rk->dhdt(r, s->step.t1, Q, out);
        if (rc != 0) { nsm_set_err(s->err, "interaction %d: dh/dt callback returned %d", ia, rc); return rc < 0 ? NS_DIVERGED : NS_BAD_INPUT; }
        for (int c = 0; c < r->m; c++) { qa[c] += out[c]; absq[c] += fabs(out[c]); }
    }
    int ni = nsm_nslaw_impact_rows(L);
    for (int c = 0; c < ni; c++) {
        double t = restitution(s, th, L->e, d->y1[c]) * d->y1[c];
        /* stabilisation: an overlapping row (y < 0 at q_k) must also
         * separate at β|y|/(θh), which takes a fraction β of the overlap
         * out within the step; a row kept by activation_hold with a gap
         * (y > 0) may approach at β y/(θh), closing a fraction β of the gap
         * (it still cannot pull: r ≥ 0) */
        if (s->o.stabilization > 0 && (d->y0[c] < 0 || (d->held && s->o.activation_hold > 0)))
            t += s->o.stabilization * d->y0[c] / (th * s->step.h);
        qa[c] += t;
        absq[c] += fabs(t);
    }
    if (rk->theta_point && nsm_nslaw_kind_of(L)->rows == NSM_ROWS_EQUALITY && th > 0.0 && th < 1.0) {
        /* H v_θ = 0: q += (1−θ)/θ H v_k, H the iterate's (the same H as p = Hᵀλ) */
        nsm_inter_gather(m, I, s->vvk, Z);
        nsm_matvec(r->m, r->ncols, d->H, Z, work);
        for (int c = 0; c < r->m; c++) {
            double t = (1.0 - th) / th * work[c];
            qa[c] += t;
            absq[c] += fabs(t);
        }
    }
    snap_roundoff(r->m, qa, absq);
    return NS_OK;
}

ns_status nsm_osnsp_assemble(nsm_sim *s)
{
    ns_kind kind; int neq;
    ns_status st = choose_kind(s, &kind, &neq);
    if (st != NS_OK) return st;
    s->global = 0;
    /* option global_fc: friction only → (M, H, q, b, μ), no W G (gfc.c) */
    if (s->o.global_fc && (kind == NS_KIND_FC2D || kind == NS_KIND_FC3D)) return nsm_gfc_assemble(s, kind);
    /* W G products */
    int dirty = 0;
    for (int a = 0; a < s->nact; a++) dirty |= update_WG(s, s->act[a], &s->id[s->act[a]]);
    int same = s->have_problem && s->nact == s->nact_prev;
    for (int a = 0; same && a < s->nact; a++)
        same = s->act[a] == s->prev_act[a] && s->act_gen[a] == s->prev_gen[a];
    if (same && kind != s->kind) same = 0;
    ns_matrix *M = NULL;
    /* a new active list of a friction problem: the problem of the last
     * step reshaped in place (its arrays only grow), not a new one */
    int reshape = !same && s->have_problem && s->prob && s->prob->kind == kind &&
                  (kind == NS_KIND_FC2D || kind == NS_KIND_FC3D) && s->prob->u.fc->W->storage == NS_BLOCK;
    if (!same) {
        if (!reshape) {
            ns_problem_free(s->prob); s->prob = NULL;
            ns_solution_free(s->sol); s->sol = NULL;
        }
        s->have_problem = 0;
        st = build_structure(s);
        if (st != NS_OK) return st;
        char err[NS_ERRMSG_LEN] = "";
        if (reshape) {
            ns_fc *fc = s->prob->u.fc;
            M = fc->W;
            st = ns_matrix_block_reshape(M, s->nact, s->nact, s->row_start, s->row_start,
                                         s->row_ptr, s->block_col, err);
            if (st == NS_OK) st = ns_fc_reshape(fc, s->nact);
            if (st == NS_OK) st = ns_solution_reshape(s->sol, s->prob);
            if (st != NS_OK) { nsm_set_err(s->err, "one-step problem reshape: %s", err[0] ? err : ns_status_name(st)); return st; }
            for (int a = 0; a < s->nact; a++) fc->mu[a] = m_law_mu(s, a);
        } else {
            M = ns_matrix_block_new(s->nact, s->nact, s->row_start, s->row_start,
                                    s->row_ptr, s->block_col, err);
            if (!M) { nsm_set_err(s->err, "block structure rejected: %s", err); return NS_BAD_INPUT; }
        }
        s->stats.rebuilds++;
        dirty = 1;
    } else {
        M = problem_matrix(s->prob);
        if (dirty) s->stats.refills++; else s->stats.reuses++;
    }
    if (dirty) {
        for (int a = 0; a < s->nact; a++) {
            const double sc = input_scale(s, &s->model->inter[s->act[a]]);
            for (ns_int k = M->block.row_ptr[a]; k < M->block.row_ptr[a + 1]; k++)
                block_values(s, s->act[a], s->act[M->block.block_col[k]],
                             M->block.x + M->block.value_ptr[k], sc);
        }
    }
    /* q, in a buffer of its own (qvec is the evaluation work) */
    st = nsm_sim_work(s, s->nrows + 1);
    if (st == NS_OK && nsm_grow((void **)&s->qbuf, &s->cap_qb, s->nrows + 1, sizeof(double)) != 0) {
        nsm_set_err(s->err, "out of memory");
        st = NS_NO_MEMORY;
    }
    for (int a = 0; st == NS_OK && a < s->nact; a++) st = nsm_osnsp_q_block(s, s->act[a], s->qbuf + s->row_start[a]);
    if (st != NS_OK) { if (!same && !reshape) ns_matrix_free(M); return st; }
    if (!same) {
        if (reshape) memcpy(problem_q(s->prob), s->qbuf, (size_t)s->nrows * sizeof(double));
        else {
            double *keep = s->qvec;
            s->qvec = s->qbuf;
            st = new_problem(s, M, kind, neq);
            s->qvec = keep;
            if (st != NS_OK) return st;
        }
        s->neq = neq;
        int cap = s->cap_prev;
        if (nsm_grow((void **)&s->prev_act, &s->cap_prev, s->nact, sizeof(int)) != 0) return NS_NO_MEMORY;
        if (s->cap_prev != cap || !s->prev_gen) {
            unsigned *g = realloc(s->prev_gen, (size_t)s->cap_prev * sizeof *g);
            if (!g) return NS_NO_MEMORY;
            s->prev_gen = g;
        }
        memcpy(s->prev_act, s->act, (size_t)s->nact * sizeof(int));
        memcpy(s->prev_gen, s->act_gen, (size_t)s->nact * sizeof(unsigned));
        s->nact_prev = s->nact;
        s->have_problem = 1;
    } else {
        memcpy(problem_q(s->prob), s->qbuf, (size_t)s->nrows * sizeof(double));
    }
    return NS_OK;
}
