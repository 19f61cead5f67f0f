/* interactions.c — the data of each interaction in a simulation (y, λ, H,
 * G, W G per system) and its outputs, evaluated through the relation's
 * table (relation/relation_kind.h). */
#include "simulation/sim_internal.h"
#include "relation/relation_kind.h"
#include "nslaw/nslaw_kind.h"
#include "ds/ds_kind.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int nsm_grow(void **p, int *cap, int need, size_t elt)
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

ns_status nsm_sim_work(nsm_sim *s, int n)
{
    if (nsm_grow((void **)&s->qvec, &s->cap_q, n, sizeof(double)) != 0) {
        nsm_set_err(s->err, "out of memory");
        return NS_NO_MEMORY;
    }
    return NS_OK;
}

/* The buffers of the nonlinear first-order linearisation (allocated on
 * first use, sized by that interaction). */
static void idata_free_linearisation(nsm_idata *d)
{
    free(d->Dcur); free(d->r0); free(d->Wr0[0]); free(d->Wr0[1]); free(d->lam_prev); free(d->yalpha);
    d->Dcur = d->r0 = d->Wr0[0] = d->Wr0[1] = d->lam_prev = d->yalpha = NULL;
}

static void idata_clear(nsm_idata *d)
{
    idata_free_linearisation(d);
    free(d->mem);
    memset(d, 0, sizeof *d);
}

void nsm_idata_free(nsm_idata *d) { idata_clear(d); }

/* Data of a live interaction, set up when the slot holds a new one. Its
 * arrays live in one block (d->mem) sized by the interaction's real shape:
 * 5 m doubles (y0, y1, λ0, λ1, ẏ_k), H only when the relation does not
 * store it, G only when it is not Hᵀ, W_j G_j for the systems it couples.
 * The block is kept when the model reuses the slot for a new interaction
 * (removed interactions' slots are reused first), so that re-created
 * contacts allocate nothing once their slots have grown to their shape. */
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
    const nsm_relation *rel = I->rel;
    const nsm_relation_kind *k = nsm_relation_kind_of(rel);
    size_t mm = (size_t)rel->m, nc = (size_t)rel->ncols;
    int own_H = !k->stored_H, own_G = !k->lagrangian;
    size_t nsys = 0;
    for (int j = 0; j < I->nds; j++) nsys += (size_t)m->ds[I->ds[j]]->n;
    size_t need = 5 * mm + (own_H ? mm * nc : 0) + (own_G ? mm * nc : 0) + nsys * mm;
    double *mem = d->mem;
    size_t cap = d->cap_mem;
    if (need > cap) {
        free(mem);
        mem = malloc((need ? need : 1) * sizeof *mem);
        cap = mem ? need : 0;
    }
    idata_free_linearisation(d);
    memset(d, 0, sizeof *d);
    d->mem = mem;
    d->cap_mem = cap;
    if (!mem) return NULL;
    memset(mem, 0, need * sizeof *mem);
    double *p = mem;
    d->m = (int)mm;
    d->y0 = p; p += mm;
    d->y1 = p; p += mm;
    d->lam0 = p; p += mm;
    d->lam1 = p; p += mm;
    d->y1_prev = p; p += mm;
    if (own_H) { d->Hbuf = p; p += mm * nc; }
    if (own_G) { d->G = p; p += mm * nc; }
    for (int j = 0; j < I->nds; j++) { d->WHt[j] = p; p += (size_t)m->ds[I->ds[j]]->n * mm; }
    d->H = own_H ? d->Hbuf : k->stored_H(rel);
    d->H_version = 1;
    d->pos = -1;
    d->reldeg = -1;
    d->gen = I->gen;
    return d;
}

/* y (if want_y), H and G of one interaction at the state `which` (0: the
 * iterate, 1: the step start, 2: the θ-point positions, velocities of the
 * iterate). */
/* Equality rows of a theta_point kind with a mean_jacobian: H replaced by
 * the discrete gradient between q_k and q_k ⊕ h v_θ at the iterate's v (the
 * position this iterate's update gives), so that H v_θ = 0 keeps the rows
 * at their value of t_k. Left at the θ-point H when the relation has none. */
static ns_status mean_jacobian(nsm_sim *s, const nsm_interaction *I, double *H)
{
    const nsm_relation *r = I->rel;
    int nq = I->nqcols;
    if (nsm_grow((void **)&s->xbuf, &s->cap_x, 2 * nq + 6, sizeof(double)) != 0) {
        nsm_set_err(s->err, "out of memory");
        return NS_NO_MEMORY;
    }
    double *Qk = s->xbuf, *Q1 = Qk + nq, *dq = Q1 + nq;
    nsm_inter_gather_q(s->model, I, s->vqk, Qk);
    for (int b = 0; b < I->nds; b++) {
        const nsm_dsdata *d = &s->d[I->ds[b]];
        if (d->n > 6) return NS_OK;
        for (int i = 0; i < d->n; i++) dq[i] = s->step.h * (d->theta * d->v[i] + (1.0 - d->theta) * d->vk[i]);
        nsm_ds_advance(s->model->ds[I->ds[b]], d->qk, dq, Q1 + I->qoff[b]);
    }
    nsm_relation_kind_of(r)->mean_jacobian(r, Qk, Q1, H);
    return NS_OK;
}

static ns_status outputs(nsm_sim *s, int inter, nsm_idata *d, int which, double t, int want_y)
{
    const nsm_interaction *I = &s->model->inter[inter];
    const nsm_relation *r = I->rel;
    const nsm_relation_kind *k = nsm_relation_kind_of(r);
    int m = r->m, nc = r->ncols;
    ns_status st = nsm_sim_work(s, I->nqcols + 2 * nc + 3 * m);
    if (st != NS_OK) return st;
    /* Q: positions (nq per system), V: velocities (n per system) */
    double *Q = s->qvec, *V = Q + I->nqcols, *work = V + nc, *y0 = work + nc + m, *y1 = y0 + m;
    nsm_inter_gather_q(s->model, I, which == 2 ? s->vqth : which ? s->vqk : s->vq, Q);
    if (k->lagrangian) nsm_inter_gather(s->model, I, which ? s->vvk : s->vv, V);
    st = nsm_relation_eval(r, inter, t, Q, k->lagrangian ? V : NULL, d->lam0,
                           want_y ? d->y0 : y0, want_y ? d->y1 : y1, s->xbuf_H, work, s->err);
    if (st != NS_OK) return st;
    if (which == 2 && k->mean_jacobian && nsm_nslaw_kind_of(s->model->laws[I->law])->rows == NSM_ROWS_EQUALITY) {
        st = mean_jacobian(s, I, s->xbuf_H);
        if (st != NS_OK) return st;
    }
    const double *D = k->D ? k->D(r) : NULL;
    if (k->lagrangian && D && want_y)   /* ẏ = H v + D λ[1] */
        for (int c = 0; c < m; c++) for (int i = 0; i < m; i++) d->y1[i] += D[i + (size_t)c * m] * d->lam1[c];
    /* H kept (and G, W G rebuilt) only when it changed: a stored H (read
     * in the relation) when the relation's version moved, an evaluated one
     * when its values did */
    if (k->stored_H) {
        if (!d->WHt_valid[0] || d->rel_version != r->version) {
            d->rel_version = r->version;
            d->H_version++;
        }
    } else if (!k->linear || !d->WHt_valid[0] ||
               memcmp(d->Hbuf, s->xbuf_H, (size_t)m * nc * sizeof(double)) != 0) {
        memcpy(d->Hbuf, s->xbuf_H, (size_t)m * nc * sizeof(double));
        if (d->G) k->input(r, d->H, d->G);
        d->H_version++;
    }
    if (k->linearise) {
        if (!d->Dcur) {
            d->Dcur = calloc((size_t)m * m, sizeof(double));
            d->r0 = calloc((size_t)nc, sizeof(double));
            d->lam_prev = calloc((size_t)m, sizeof(double));
            d->yalpha = calloc((size_t)m, sizeof(double));
            for (int j = 0; j < I->nds; j++) d->Wr0[j] = calloc((size_t)s->d[I->ds[j]].n, sizeof(double));
            if (!d->Dcur || !d->r0 || !d->lam_prev || !d->yalpha || !d->Wr0[0] || (I->nds == 2 && !d->Wr0[1])) {
                nsm_set_err(s->err, "out of memory");
                return NS_NO_MEMORY;
            }
        }
        memcpy(d->yalpha, want_y ? d->y0 : y0, (size_t)m * sizeof(double));
        int rc = k->linearise(r, t, Q, d->lam0, d->Dcur, d->G, d->r0, work);
        if (rc != 0) {
            nsm_set_err(s->err, "interaction %d (%s relation): a callback returned %d at t = %.17g", inter, k->name, rc, t);
            return rc < 0 ? NS_DIVERGED : NS_BAD_INPUT;
        }
    }
    return NS_OK;
}

static ns_status h_buffer(nsm_sim *s, const nsm_relation *r)
{
    if (nsm_grow((void **)&s->xbuf_H, &s->cap_H, r->m * r->ncols, sizeof(double)) != 0) {
        nsm_set_err(s->err, "out of memory");
        return NS_NO_MEMORY;
    }
    return NS_OK;
}

/* Relative degree of an interaction (the largest over its rows); its law
 * is enforced at kinematic level max(r − 1, 0): velocity for Lagrangian
 * relations (r = 2), the output itself for first-order ones (r = 0, 1).
 * A first-order row of degree ≥ 2 has no λ in y nor in ẏ: Euler–Moreau's
 * one-step row h C W B would vanish with h, so it is refused. */
/* b ← M⁻¹ b over the coupled state of an interaction: each system with a
 * first-order mass matrix solves its block (dense LU through ns_factor). */
static int minv_apply(const nsm_minv *self, double *b)
{
    const nsm_model *m = self->ctx1;
    const nsm_interaction *I = self->ctx2;
    for (int k = 0; k < I->nds; k++) {
        const nsm_ds *ds = m->ds[I->ds[k]];
        if (!ds->Mx || (k == 1 && I->ds[1] == I->ds[0])) continue;
        int n = ds->n;
        ns_matrix *A = ns_matrix_dense_new(n, n);
        if (!A) return -1;
        memcpy(A->dense, ds->Mx, (size_t)n * n * sizeof(double));
        ns_factor *F = NULL;
        char e2[NS_ERRMSG_LEN];
        int rc = ns_factor_new(A, NS_FACTOR_DENSE_LU, &F, e2) == NS_OK &&
                 ns_factor_solve(F, b + I->off[k], 1, n) == NS_OK ? 0 : -1;
        ns_factor_free(F);
        ns_matrix_free(A);
        if (rc) return rc;
    }
    return 0;
}

static ns_status relative_degree(nsm_sim *s, int inter, nsm_idata *d)
{
    const nsm_relation *r = s->model->inter[inter].rel;
    const nsm_relation_kind *k = nsm_relation_kind_of(r);
    int deg = 0;
    ns_status st = nsm_sim_work(s, s->model->inter[inter].nqcols + 2 * r->ncols + 3 * r->m);
    if (st != NS_OK) return st;
    double *X = s->qvec;   /* the coupled state now (nonlinear relations decide there) */
    nsm_inter_gather_q(s->model, &s->model->inter[inter], s->vq, X);
    const nsm_interaction *I = &s->model->inter[inter];
    nsm_minv minv = { minv_apply, s->model, I };
    int has_mass = 0;
    for (int j = 0; j < I->nds; j++) has_mass |= s->model->ds[I->ds[j]]->Mx != NULL;
    for (int i = 0; i < r->m; i++) {
        int di = k->relative_degree ? k->relative_degree(r, s->t, X, d->lam0, i, has_mass ? &minv : NULL) : 2;
        if (di == -2) {
            nsm_set_err(s->err, "interaction %d (%s relation): a callback failed or a mass matrix is "
                        "singular while computing the relative degree at t = %.17g", inter, k->name, s->t);
            return NS_BAD_INPUT;
        }
        if (di < 0) {
            nsm_set_err(s->err, "interaction %d (%s relation), row %d: relative degree undefined "
                        "(>= 2: D's row and (C M⁻¹ B)'s row are zero, so λ appears neither in y nor in "
                        "its derivative; Euler–Moreau cannot enforce this law)", inter, k->name, i);
            return NS_BAD_INPUT;
        }
        if (di > deg) deg = di;
    }
    d->reldeg = deg;
    return NS_OK;
}

int nsm_sim_relative_degree(const nsm_sim *s, int inter)
{
    if (!s || !nsm_model_inter_alive(s->model, inter) || inter >= s->cap_id) return -1;
    const nsm_idata *d = &s->id[inter];
    return d->gen == s->model->inter[inter].gen ? d->reldeg : -1;
}

ns_status nsm_osnsp_refresh_outputs(nsm_sim *s, int which, double t)
{
    nsm_model *m = s->model;
    for (int i = 0; i < m->ninter_slots; i++) {
        if (!m->inter[i].alive) continue;
        nsm_idata *d = nsm_sim_idata(s, i);
        if (!d) { nsm_set_err(s->err, "out of memory"); return NS_NO_MEMORY; }
        if (d->reldeg < 0) {
            ns_status st = relative_degree(s, i, d);
            if (st != NS_OK) return st;
        }
        ns_status st = h_buffer(s, m->inter[i].rel);
        if (st == NS_OK) st = outputs(s, i, d, which, t, 1);
        if (st != NS_OK) return st;
    }
    return NS_OK;
}

ns_status nsm_osnsp_linearise(nsm_sim *s, double t)
{
    nsm_model *m = s->model;
    for (int a = 0; a < s->nact; a++) {
        int i = s->act[a];
        const nsm_relation_kind *k = nsm_relation_kind_of(m->inter[i].rel);
        if (k->linear) continue;
        ns_status st = h_buffer(s, m->inter[i].rel);
        int which = s->o.linearisation == NSM_LINEARISE_STEP_START ? 1 : k->theta_point ? 2 : 0;
        if (st == NS_OK) st = outputs(s, i, &s->id[i], which, t, 0);
        if (st != NS_OK) return st;
    }
    return NS_OK;
}

double nsm_osnsp_mean_jacobian_change(nsm_sim *s)
{
    nsm_model *m = s->model;
    double worst = 0.0;
    for (int a = 0; a < s->nact; a++) {
        int i = s->act[a];
        const nsm_interaction *I = &m->inter[i];
        const nsm_relation *r = I->rel;
        const nsm_relation_kind *k = nsm_relation_kind_of(r);
        if (!k->mean_jacobian || nsm_nslaw_kind_of(m->laws[I->law])->rows != NSM_ROWS_EQUALITY) continue;
        const nsm_idata *d = &s->id[i];
        if (h_buffer(s, r) != NS_OK || mean_jacobian(s, I, s->xbuf_H) != NS_OK) return -1.0;
        size_t n = (size_t)r->m * r->ncols;
        double dh = 0.0, sz = 0.0;
        for (size_t c = 0; c < n; c++) {
            dh = fmax(dh, fabs(s->xbuf_H[c] - d->H[c]));
            sz = fmax(sz, fabs(d->H[c]));
        }
        if (sz > 0.0 && dh / sz > worst) worst = dh / sz;
    }
    return worst;
}

ns_status nsm_osnsp_output_at_iterate(nsm_sim *s, int inter, const double **y)
{
    ns_status st = h_buffer(s, s->model->inter[inter].rel);
    if (st == NS_OK) st = outputs(s, inter, &s->id[inter], 0, s->step.t0, 0);
    const nsm_relation *r = s->model->inter[inter].rel;
    /* outputs() leaves y in the work buffer after Q, V, work */
    *y = s->qvec + s->model->inter[inter].nqcols + 2 * r->ncols + r->m;
    return st;
}
