/* osnsp.c — the one-step nonsmooth problem: index set, assembly in BLOCK
 * storage over the linked-interaction map, solve through the numerics API.
 *
 * For the active interactions α (block row α, size m_α) and their systems j:
 *   Lagrangian:  M_αβ = Σ_{j ∈ DS_α ∩ DS_β} H_α^j W_j (H_β^j)ᵀ,
 *                q_α  = H_α V_free,α (+ ∂h/∂t(t_{k+1})) + e ẏ_α,k (normal rows),
 *   first order: M_αβ = [α = β] D_α + h Σ_{j ∈ DS_α ∩ DS_β} C_α^j W_j B_β^j,
 *                q_α  = C_α X_free,α + e_α  (the law on y_{k+1}), or with
 *                the option theta_output (the law on y_{k+θ}) hθ instead of
 *                h and q_α = C_α (θ X_free,α + (1 − θ) X_k,α) + e_α,
 * where H_α^j is the column slice of H_α on system j. W_j (H_β^j)ᵀ (or
 * W_j B_β^j) is kept per interaction and system and recomputed only when W_j
 * or H_β changed; the block structure and the numerics problem are kept while
 * the ordered active list is unchanged, and the values are refilled only when
 * some W H_ᵀ product changed.
 *
 * Activity (index set I1): a Lagrangian interaction with a unilateral law
 * is active when its predicted gap y + (h/2) ẏ ≤ gap_tol (first component for
 * Newton–Coulomb, any component otherwise); equality and first-order
 * interactions are always active. A separating active Newton row uses the
 * restitution of restitution() below. */
#include "simulation/sim_internal.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(void **p, int *cap, int need, size_t elt)
{
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * elt);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static void idata_clear(nsm_idata *d)
{
    free(d->y0); free(d->y1); free(d->lam0); free(d->lam1); free(d->H);
    free(d->WHt[0]); free(d->WHt[1]); free(d->y1_prev);
    memset(d, 0, sizeof *d);
}

/* Data of a live interaction, (re)allocated when the slot is new. */
nsm_idata *nsm_sim_idata(nsm_sim *s, int inter)
{
    nsm_model *m = s->model;
    if (!nsm_model_inter_alive(m, inter)) return NULL;
    if (inter >= s->cap_id) {
        int old = s->cap_id;
        int cap = old ? old : 16;
        while (cap <= inter) cap *= 2;
        nsm_idata *v = realloc(s->id, (size_t)cap * sizeof *v);
        if (!v) return NULL;
        memset(v + old, 0, (size_t)(cap - old) * sizeof *v);
        s->id = v;
        s->cap_id = cap;
    }
    nsm_idata *d = &s->id[inter];
    const nsm_interaction *I = &m->inter[inter];
    if (d->gen == I->gen) return d;
    idata_clear(d);
    int mm = I->rel->m, nc = I->rel->ncols;
    d->m = mm;
    d->y0 = calloc((size_t)mm, sizeof(double));
    d->y1 = calloc((size_t)mm, sizeof(double));
    d->lam0 = calloc((size_t)mm, sizeof(double));
    d->lam1 = calloc((size_t)mm, sizeof(double));
    d->y1_prev = calloc((size_t)mm, sizeof(double));
    d->H = calloc((size_t)mm * nc, sizeof(double));
    for (int k = 0; k < I->nds; k++)
        d->WHt[k] = calloc((size_t)m->ds[I->ds[k]]->n * mm, sizeof(double));
    if (!d->y0 || !d->y1 || !d->lam0 || !d->lam1 || !d->H || !d->y1_prev ||
        !d->WHt[0] || (I->nds == 2 && !d->WHt[1])) {
        idata_clear(d);
        return NULL;
    }
    d->H_version = 1;
    d->pos = -1;
    d->gen = I->gen;
    /* H_version tracks changes of d->H; rel->version+1 is remembered in
     * WHt_Hver to notice set_H on linear relations */
    return d;
}

/* Gathers Q (or X) of an interaction from the given per-system vectors. */
static void gather(const nsm_sim *s, const nsm_interaction *I, int which, double *out)
{
    for (int k = 0; k < I->nds; k++) {
        const nsm_dsdata *d = &s->d[I->ds[k]];
        const double *src = which == 0 ? d->q : which == 1 ? d->v : which == 2 ? d->free : d->qk;
        memcpy(out + I->off[k], src, (size_t)d->n * sizeof *out);
    }
}

/* y = A x for A m×nc column-major. */
static void matvec(int m, int nc, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) y[i] = 0.0;
    for (int c = 0; c < nc; c++) {
        double xc = x[c];
        if (xc == 0.0) continue;
        const double *Ac = A + (size_t)c * m;
        for (int i = 0; i < m; i++) y[i] += Ac[i] * xc;
    }
}

static int is_unilateral(nsm_nslaw_type t)
{
    return t == NSM_LAW_NEWTON || t == NSM_LAW_NEWTON_COULOMB || t == NSM_LAW_COMPLEMENTARITY;
}

/* y0, y1 (Lagrangian) or y0 (first order) of interaction I at the current
 * state (q, v / x), time t; refreshes H of nonlinear relations. work: ncols. */
static ns_status outputs(nsm_sim *s, int inter, nsm_idata *d, double t, double *work)
{
    const nsm_interaction *I = &s->model->inter[inter];
    const nsm_relation *r = I->rel;
    int m = r->m, nc = r->ncols;
    int rc = 0;
    gather(s, I, 0, work);
    switch (r->type) {
    case NSM_REL_LAGRANGIAN_LINEAR:
        if (d->WHt_Hver[0] == 0 || memcmp(d->H, r->H, (size_t)m * nc * sizeof(double)) != 0) {
            memcpy(d->H, r->H, (size_t)m * nc * sizeof(double));
            d->H_version++;
        }
        matvec(m, nc, d->H, work, d->y0);
        for (int i = 0; i < m; i++) d->y0[i] += r->b[i];
        gather(s, I, 1, work);
        matvec(m, nc, d->H, work, d->y1);
        break;
    case NSM_REL_LAGRANGIAN_SCLERONOMOUS:
    case NSM_REL_LAGRANGIAN_RHEONOMOUS:
        rc = r->h(t, nc, work, m, d->y0, r->user);
        if (rc == 0) { memset(d->H, 0, (size_t)m * nc * sizeof(double)); rc = r->jach(t, nc, work, m, d->H, r->user); }
        d->H_version++;
        if (rc == 0) {
            gather(s, I, 1, work);
            matvec(m, nc, d->H, work, d->y1);
            if (r->type == NSM_REL_LAGRANGIAN_RHEONOMOUS) {
                rc = r->dhdt(t, nc, NULL, m, work, r->user);
                if (rc == 0) for (int i = 0; i < m; i++) d->y1[i] += work[i];
            }
        }
        break;
    case NSM_REL_FIRST_ORDER_LINEAR:
        if (d->WHt_Hver[0] == 0) { memcpy(d->H, r->C, (size_t)m * nc * sizeof(double)); }
        matvec(m, nc, r->C, work, d->y0);
        if (r->D) for (int c = 0; c < m; c++) for (int i = 0; i < m; i++) d->y0[i] += r->D[i + (size_t)c * m] * d->lam0[c];
        if (r->e) for (int i = 0; i < m; i++) d->y0[i] += r->e[i];
        break;
    }
    if (rc != 0) {
        nsm_set_err(s->err, "interaction %d: relation callback returned %d", inter, rc);
        return rc < 0 ? NS_DIVERGED : NS_BAD_INPUT;
    }
    return NS_OK;
}

static ns_status ensure_work(nsm_sim *s, int n)
{
    if (grow((void **)&s->qvec, &s->cap_q, n, sizeof(double)) != 0) {
        nsm_set_err(s->err, "out of memory");
        return NS_NO_MEMORY;
    }
    return NS_OK;
}

ns_status nsm_osnsp_refresh_outputs(nsm_sim *s)
{
    nsm_model *m = s->model;
    for (int i = 0; i < m->ninter_slots; i++) {
        if (!m->inter[i].alive) continue;
        nsm_idata *d = nsm_sim_idata(s, i);
        if (!d) { nsm_set_err(s->err, "out of memory"); return NS_NO_MEMORY; }
        ns_status st = ensure_work(s, m->inter[i].rel->ncols + m->inter[i].rel->m);
        if (st != NS_OK) return st;
        st = outputs(s, i, d, s->t, s->qvec);
        if (st != NS_OK) return st;
    }
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
static double restitution(const nsm_sim *s, double e, double uk)
{
    if (!s->o.separating_restitution || !(uk > 0.0)) return e;
    double th = s->theta;
    double es = th >= 0.5 ? (1.0 - th) / th : 1.0;
    return es > e ? es : e;
}

/* Step start: y at (t_k, q_k, v_k), H refreshed, active set in problem order
 * (equality laws first). */
ns_status nsm_osnsp_prepare_interactions(nsm_sim *s)
{
    nsm_model *m = s->model;
    ns_status st = nsm_osnsp_refresh_outputs(s);
    if (st != NS_OK) return st;
    s->nact = 0;
    if (m->ninter_slots + 1 > s->cap_act) {
        int cap = 2 * (m->ninter_slots + 1);
        int *a = realloc(s->act, (size_t)cap * sizeof *a);
        if (a) s->act = a;
        unsigned *g = realloc(s->act_gen, (size_t)cap * sizeof *g);
        if (g) s->act_gen = g;
        if (!a || !g) { nsm_set_err(s->err, "out of memory"); return NS_NO_MEMORY; }
        s->cap_act = cap;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < m->ninter_slots; i++) {
            const nsm_interaction *I = &m->inter[i];
            if (!I->alive) continue;
            nsm_idata *d = &s->id[i];
            if (pass == 0) d->pos = -1;
            nsm_nslaw_type lt = m->laws[I->law]->type;
            int is_eq = lt == NSM_LAW_EQUALITY;
            if ((pass == 0) != is_eq) continue;
            int active = 1;
            if (I->rel->type != NSM_REL_FIRST_ORDER_LINEAR && is_unilateral(lt)) {
                active = 0;
                int ncheck = lt == NSM_LAW_NEWTON_COULOMB ? 1 : d->m;
                for (int c = 0; c < ncheck; c++)
                    if (d->y0[c] + 0.5 * s->h * d->y1[c] <= s->o.gap_tol) active = 1;
            }
            d->active = active;
            if (!active) continue;
            d->pos = s->nact;
            s->act[s->nact] = i;
            s->act_gen[s->nact] = I->gen;
            s->nact++;
        }
    }
    return NS_OK;
}

/* W_j (H_α^j)ᵀ (Lagrangian) or W_j B_α^j (first order), n_j × m_α. Returns 1
 * if recomputed. */
static int update_WHt(nsm_sim *s, int inter, nsm_idata *d)
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
            for (int i = 0; i < n; i++)
                X[i + (size_t)c * n] = r->type == NSM_REL_FIRST_ORDER_LINEAR
                    ? r->B[(off + i) + (size_t)c * nc]
                    : d->H[c + (size_t)(off + i) * m];
        ns_factor_solve(dd->F, X, m, n);
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
    if (grow((void **)&s->row_start, &s->cap_rs, nb + 1, sizeof(ns_int)) != 0) goto oom;
    {
        int cap = s->cap_rs ? s->cap_rs : 0;
        (void)cap;
        ns_int *rp = realloc(s->row_ptr, (size_t)(nb + 1) * sizeof *rp);
        if (!rp) goto oom;
        s->row_ptr = rp;
    }
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
        if (grow((void **)&s->scratch, &s->cap_scratch, cnt + 1, sizeof(int)) != 0) goto oom;
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
        qsort(s->scratch, (size_t)ncol, sizeof(int), cmp_int);
        int u = 0;
        for (int t = 0; t < ncol; t++)
            if (u == 0 || s->scratch[t] != s->scratch[u - 1]) s->scratch[u++] = s->scratch[t];
        if (grow((void **)&s->block_col, &s->cap_bc, nbc + u, sizeof(ns_int)) != 0) goto oom;
        for (int t = 0; t < u; t++) s->block_col[nbc++] = s->scratch[t];
        s->row_ptr[a + 1] = nbc;
    }
    return NS_OK;
oom:
    nsm_set_err(s->err, "out of memory while assembling");
    return NS_NO_MEMORY;
}

/* Block (α, β) values into X (m_α × m_β, column-major). */
static void block_values(nsm_sim *s, int ia, int ib, double *X)
{
    nsm_model *m = s->model;
    const nsm_interaction *A = &m->inter[ia], *B = &m->inter[ib];
    const nsm_idata *da = &s->id[ia], *db = &s->id[ib];
    int ma = da->m, mb = db->m;
    int first = A->rel->type == NSM_REL_FIRST_ORDER_LINEAR;
    const double *Ha = first ? A->rel->C : da->H;
    memset(X, 0, (size_t)ma * mb * sizeof *X);
    for (int ka = 0; ka < A->nds; ka++)
        for (int kb = 0; kb < B->nds; kb++) {
            if (A->ds[ka] != B->ds[kb]) continue;
            int n = s->d[A->ds[ka]].n, offa = A->off[ka];
            const double *Wt = db->WHt[kb];
            for (int c = 0; c < mb; c++)
                for (int i = 0; i < n; i++) {
                    double w = Wt[i + (size_t)c * n];
                    if (w == 0.0) continue;
                    const double *Hcol = Ha + (size_t)(offa + i) * ma;
                    for (int r = 0; r < ma; r++) X[r + (size_t)c * ma] += Hcol[r] * w;
                }
        }
    if (first) {
        double hs = s->o.theta_output ? s->h * s->theta : s->h;
        for (size_t t = 0; t < (size_t)ma * mb; t++) X[t] *= hs;
        if (ia == ib && A->rel->D)
            for (size_t t = 0; t < (size_t)ma * ma; t++) X[t] += A->rel->D[t];
    }
}

static ns_matrix *problem_matrix(ns_problem *p)
{
    switch (p->kind) {
    case NS_KIND_LCP: return p->u.lcp->M;
    case NS_KIND_MLCP: return p->u.mlcp->M;
    case NS_KIND_RELAY: return p->u.relay->M;
    case NS_KIND_EQUALITY: return p->u.equality->M;
    case NS_KIND_FC2D: case NS_KIND_FC3D: return p->u.fc->W;
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
    default: return NULL;
    }
}

/* Kind of the problem from the laws of the active set. */
static ns_status choose_kind(nsm_sim *s, ns_kind *kind, int *neq, int *fcdim)
{
    nsm_model *m = s->model;
    int n_eq = 0, n_comp = 0, n_relay = 0, n_fc = 0, dim = 0;
    for (int a = 0; a < s->nact; a++) {
        const nsm_nslaw *L = m->laws[m->inter[s->act[a]].law];
        switch (L->type) {
        case NSM_LAW_EQUALITY: n_eq += L->size; break;
        case NSM_LAW_NEWTON: case NSM_LAW_COMPLEMENTARITY: n_comp += L->size; break;
        case NSM_LAW_RELAY: n_relay += L->size; break;
        case NSM_LAW_NEWTON_COULOMB:
            if (dim && dim != L->size) { nsm_set_err(s->err, "2D and 3D friction laws in one problem"); return NS_UNSUPPORTED; }
            dim = L->size; n_fc++; break;
        }
    }
    *neq = n_eq; *fcdim = dim;
    if (n_fc) {
        if (n_eq || n_comp || n_relay) {
            nsm_set_err(s->err, "friction contact mixed with other laws in one problem is not supported");
            return NS_UNSUPPORTED;
        }
        *kind = dim == 2 ? NS_KIND_FC2D : NS_KIND_FC3D;
    } else if (n_relay) {
        if (n_eq) { nsm_set_err(s->err, "relay mixed with equality laws is not supported"); return NS_UNSUPPORTED; }
        *kind = NS_KIND_RELAY;
    } else if (n_eq && n_comp) *kind = NS_KIND_MLCP;
    else if (n_eq) *kind = NS_KIND_EQUALITY;
    else *kind = NS_KIND_LCP;
    return NS_OK;
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
    else if (kind == NS_KIND_RELAY) {
        double *lb = malloc((size_t)n * sizeof *lb), *ub = malloc((size_t)n * sizeof *ub);
        if (lb && ub) {
            for (int a = 0; a < s->nact; a++) {
                const nsm_nslaw *L = m->laws[m->inter[s->act[a]].law];
                for (int c = 0; c < L->size; c++) {
                    int r = s->row_start[a] + c;
                    lb[r] = L->type == NSM_LAW_RELAY ? L->lb[c] : 0.0;
                    ub[r] = L->type == NSM_LAW_RELAY ? L->ub[c] : INFINITY;
                }
            }
            p = ns_problem_from_relay(ns_relay_new(M, q, lb, ub));
        } else ns_matrix_free(M);
        free(lb); free(ub);
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

/* Unknown vector(s) of the solution as one array of length nrows: copies
 * between the solution and lam (dir 0: lam → sol, 1: sol → lam). */
static void unknowns_copy(nsm_sim *s, int dir)
{
    nsm_model *m = s->model;
    ns_solution *sol = s->sol;
    for (int a = 0; a < s->nact; a++) {
        int ia = s->act[a];
        nsm_idata *d = &s->id[ia];
        double *lam = m->inter[ia].rel->type == NSM_REL_FIRST_ORDER_LINEAR ? d->lam0 : d->lam1;
        for (int c = 0; c < d->m; c++) {
            int r = s->row_start[a] + c;
            double *slot;
            if (s->kind == NS_KIND_MLCP && r >= s->neq) slot = &sol->vec[1][r - s->neq];
            else slot = &sol->vec[0][r];
            if (dir == 0) *slot = lam[c];
            else lam[c] = *slot;
        }
    }
}

static void dump_problem(nsm_sim *s)
{
    if (!s->dump_dir) return;
    long every = s->o.dump_every > 0 ? s->o.dump_every : 1;
    if ((s->stats.solves - 1) % every != 0) return;
    if (s->o.dump_max > 0 && s->dumped >= s->o.dump_max) return;
    char path[4096], err[NS_ERRMSG_LEN] = "";
    snprintf(path, sizeof path, "%s/%s_%08ld.dat", s->dump_dir,
             s->dump_prefix ? s->dump_prefix : "step", s->k);
    if (ns_problem_write(path, s->prob, NS_FORMAT_DAT, err) == NS_OK) s->dumped++;
    else nsm_sim_log(s, 1, "dump failed: %s", err);
}

ns_status nsm_osnsp_assemble_and_solve(nsm_sim *s)
{
    nsm_model *m = s->model;
    s->solved_this_step = 0;
    for (int j = 0; j < s->nd; j++) memset(s->d[j].p, 0, (size_t)s->d[j].n * sizeof(double));
    if (s->nact == 0) return NS_OK;
    /* W Hᵀ products */
    int dirty = 0;
    for (int a = 0; a < s->nact; a++) dirty |= update_WHt(s, s->act[a], &s->id[s->act[a]]);
    int same = s->have_problem && s->nact == s->nact_prev;
    for (int a = 0; same && a < s->nact; a++)
        same = s->act[a] == s->prev_act[a] && s->act_gen[a] == s->prev_gen[a];
    ns_kind kind; int neq, dim;
    ns_status st = choose_kind(s, &kind, &neq, &dim);
    if (st != NS_OK) return st;
    if (same && kind != s->kind) same = 0;
    ns_matrix *M = NULL;
    if (!same) {
        ns_problem_free(s->prob); s->prob = NULL;
        ns_solution_free(s->sol); s->sol = NULL;
        s->have_problem = 0;
        st = build_structure(s);
        if (st != NS_OK) return st;
        char err[NS_ERRMSG_LEN] = "";
        M = ns_matrix_block_new(s->nact, s->nact, s->row_start, s->row_start,
                                s->row_ptr, s->block_col, err);
        if (!M) { nsm_set_err(s->err, "block structure rejected: %s", err); return NS_BAD_INPUT; }
        s->stats.rebuilds++;
        dirty = 1;
    } else {
        M = problem_matrix(s->prob);
        if (dirty) s->stats.refills++; else s->stats.reuses++;
    }
    if (dirty) {
        for (int a = 0; a < s->nact; a++)
            for (ns_int k = M->block.row_ptr[a]; k < M->block.row_ptr[a + 1]; k++)
                block_values(s, s->act[a], s->act[M->block.block_col[k]],
                             M->block.x + M->block.value_ptr[k]);
    }
    /* q */
    st = ensure_work(s, s->nrows + 1);
    if (st != NS_OK) { if (!same) ns_matrix_free(M); return st; }
    for (int a = 0; a < s->nact; a++) {
        int ia = s->act[a];
        const nsm_interaction *I = &m->inter[ia];
        const nsm_relation *r = I->rel;
        nsm_idata *d = &s->id[ia];
        const nsm_nslaw *L = m->laws[I->law];
        double *qa = s->qvec + s->row_start[a];
        if (grow((void **)&s->xbuf, &s->cap_x, 2 * r->ncols + r->m, sizeof(double)) != 0) {
            if (!same) ns_matrix_free(M);
            nsm_set_err(s->err, "out of memory");
            return NS_NO_MEMORY;
        }
        double *Xf = s->xbuf;
        gather(s, I, 2, Xf);
        if (r->type == NSM_REL_FIRST_ORDER_LINEAR) {
            if (s->o.theta_output) {   /* X_{k+θ} without r: θ X_free + (1 − θ) X_k */
                double *Xk = Xf + r->ncols;
                gather(s, I, 3, Xk);
                for (int c = 0; c < r->ncols; c++)
                    Xf[c] = s->theta * Xf[c] + (1.0 - s->theta) * Xk[c];
            }
            matvec(r->m, r->ncols, r->C, Xf, qa);
            if (r->e) for (int c = 0; c < r->m; c++) qa[c] += r->e[c];
        } else {
            matvec(r->m, r->ncols, d->H, Xf, qa);
            if (r->type == NSM_REL_LAGRANGIAN_RHEONOMOUS) {
                int rc = r->dhdt(s->t + s->h, r->ncols, NULL, r->m, Xf, r->user);
                if (rc != 0) { if (!same) ns_matrix_free(M); nsm_set_err(s->err, "interaction %d: dh/dt callback returned %d", ia, rc); return NS_BAD_INPUT; }
                for (int c = 0; c < r->m; c++) qa[c] += Xf[c];
            }
            if (L->type == NSM_LAW_NEWTON) for (int c = 0; c < r->m; c++) qa[c] += restitution(s, L->e, d->y1[c]) * d->y1[c];
            if (L->type == NSM_LAW_NEWTON_COULOMB) qa[0] += restitution(s, L->e, d->y1[0]) * d->y1[0];
        }
    }
    if (!same) {
        st = new_problem(s, M, kind, neq);
        if (st != NS_OK) return st;
        s->neq = neq;
        if (grow((void **)&s->prev_act, &s->cap_prev, s->nact, sizeof(int)) != 0) return NS_NO_MEMORY;
        unsigned *g = realloc(s->prev_gen, (size_t)s->cap_prev * sizeof *g);
        if (!g) return NS_NO_MEMORY;
        s->prev_gen = g;
        memcpy(s->prev_act, s->act, (size_t)s->nact * sizeof(int));
        memcpy(s->prev_gen, s->act_gen, (size_t)s->nact * sizeof(unsigned));
        s->nact_prev = s->nact;
        s->have_problem = 1;
    } else {
        memcpy(problem_q(s->prob), s->qvec, (size_t)s->nrows * sizeof(double));
    }
    /* solve */
    ns_options opt = s->o.solver_options;
    if (s->o.warm_start) {
        unknowns_copy(s, 0);
        opt.warm_start = 1;
    } else {
        for (int v = 0; v < s->sol->nvec; v++) memset(s->sol->vec[v], 0, (size_t)s->sol->len[v] * sizeof(double));
        opt.warm_start = 0;
    }
    s->stats.solves++;
    dump_problem(s);
    ns_result_clear(&s->res);
    ns_result_init(&s->res);
    ns_status rs = ns_solve(s->prob, s->solver_name, &opt, s->sol, &s->res);
    s->stats.solver_seconds += s->res.seconds;
    s->stats.solver_iterations += s->res.iterations;
    if (!ns_status_is_outcome(rs)) {
        nsm_set_err(s->err, "t = %g: the %s solver failed: %s (%s)", s->t,
                    ns_kind_name(s->kind), ns_status_name(rs), s->res.message);
        return rs;
    }
    if (rs != NS_OK) {
        s->stats.nonconverged++;
        nsm_sim_log(s, 1, "t = %g: %s solve did not converge: %s, error %.3g", s->t,
                    ns_kind_name(s->kind), ns_status_name(rs), s->res.error);
        if (s->o.on_nonconvergence) {
            int rc = s->o.on_nonconvergence(s, &s->res, s->o.nonconv_user);
            if (rc < 0) {
                nsm_set_err(s->err, "t = %g: %s solve did not converge (%s, error %.3g); stopped by the hook",
                            s->t, ns_kind_name(s->kind), ns_status_name(rs), s->res.error);
                return NS_DIVERGED;
            }
        }
    }
    unknowns_copy(s, 1);
    s->solved_this_step = 1;
    return NS_OK;
}
