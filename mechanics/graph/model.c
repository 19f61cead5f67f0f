/* model.c — the nonsmooth dynamical system as a graph: systems (nodes),
 * interactions (edges between one or two systems), laws, and the
 * linked-interaction map (interactions sharing a system), kept as one
 * adjacency list per system so that it stays exact when interactions are
 * added or removed between steps. Contract: include/nonsmooth/nsm_model.h. */
#include "nsm_internal.h"
#include "nslaw/nslaw_kind.h"
#include "relation/relation_kind.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nsm_set_err(char *err, const char *fmt, ...)
{
    if (!err) return;
    /* formatted apart, then copied: an argument may be err itself (a
     * message that wraps the previous one), and vsnprintf's buffers must
     * not overlap */
    char buf[NS_ERRMSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    memcpy(err, buf, strlen(buf) + 1);
}

/* The reason the calling thread's last constructor returned NULL: one
 * buffer per thread (like errno), so two threads never meet. */
static _Thread_local char ctor_err[NS_ERRMSG_LEN];

void *nsm_ctor_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctor_err, sizeof ctor_err, fmt, ap);
    va_end(ap);
    return NULL;
}

void nsm_ctor_ok(void) { ctor_err[0] = 0; }

const char *nsm_constructor_error(void) { return ctor_err; }

int nsm_intlist_push(nsm_intlist *l, int x)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 4;
        int *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        l->v = v; l->cap = cap;
    }
    l->v[l->n++] = x;
    return 0;
}

void nsm_intlist_remove(nsm_intlist *l, int x)
{
    for (int i = 0; i < l->n; i++)
        if (l->v[i] == x) { l->v[i] = l->v[--l->n]; return; }
}

nsm_model *nsm_model_new(void)
{
    return calloc(1, sizeof(nsm_model));
}

void nsm_model_free(nsm_model *m)
{
    if (!m) return;
    for (int i = 0; i < m->nds; i++) { m->ds[i]->owner = NULL; nsm_ds_free(m->ds[i]); free(m->ds_inter[i].v); }
    for (int i = 0; i < m->nlaws; i++) { m->laws[i]->owner = NULL; nsm_nslaw_free(m->laws[i]); }
    for (int i = 0; i < m->ninter_slots; i++)
        if (m->inter[i].alive) { m->inter[i].rel->owner = NULL; nsm_relation_free(m->inter[i].rel); }
    free(m->ds); free(m->ds_inter); free(m->laws); free(m->inter);
    free(m->free_slots.v);
    free(m);
}

int nsm_model_add_ds(nsm_model *m, nsm_ds *ds)
{
    if (!m) { nsm_ds_free(ds); return -1; }
    if (!ds) { nsm_set_err(m->err, "add_ds: NULL system (the constructor failed: %s)", ctor_err[0] ? ctor_err : "bad size or arguments"); return -1; }
    if (ds->owner) {   /* refused, and left to the model that owns it */
        nsm_set_err(m->err, "add_ds: this system already belongs to %s (an object is added to one model, once)",
                    ds->owner == m ? "this model" : "another model");
        return -1;
    }
    if (m->nds == m->cap_ds) {
        int cap = m->cap_ds ? 2 * m->cap_ds : 8;
        nsm_ds **d = realloc(m->ds, (size_t)cap * sizeof *d);
        if (!d) { nsm_ds_free(ds); return -1; }
        m->ds = d;
        nsm_intlist *a = realloc(m->ds_inter, (size_t)cap * sizeof *a);
        if (!a) { nsm_ds_free(ds); return -1; }
        m->ds_inter = a;
        m->cap_ds = cap;
    }
    m->ds[m->nds] = ds;
    ds->owner = m;
    memset(&m->ds_inter[m->nds], 0, sizeof m->ds_inter[0]);
    return m->nds++;
}

int nsm_model_add_law(nsm_model *m, nsm_nslaw *law)
{
    if (!m) { nsm_nslaw_free(law); return -1; }
    if (!law) { nsm_set_err(m->err, "add_law: NULL law (the constructor failed: %s)", ctor_err[0] ? ctor_err : "bad size, e or mu"); return -1; }
    if (law->owner) {
        nsm_set_err(m->err, "add_law: this law already belongs to %s (an object is added to one model, once)",
                    law->owner == m ? "this model" : "another model");
        return -1;
    }
    if (m->nlaws == m->cap_laws) {
        int cap = m->cap_laws ? 2 * m->cap_laws : 4;
        nsm_nslaw **l = realloc(m->laws, (size_t)cap * sizeof *l);
        if (!l) { nsm_nslaw_free(law); return -1; }
        m->laws = l; m->cap_laws = cap;
    }
    m->laws[m->nlaws] = law;
    law->owner = m;
    return m->nlaws++;
}

int nsm_model_add_interaction(nsm_model *m, nsm_relation *rel, int law,
                              int ds1, int ds2)
{
    if (!m) { nsm_relation_free(rel); return -1; }
    if (!rel) { nsm_set_err(m->err, "add_interaction: NULL relation (the constructor failed: %s)", ctor_err[0] ? ctor_err : "bad arguments"); return -1; }
    if (rel->owner) {   /* refused, and left to the model that owns it */
        nsm_set_err(m->err, "add_interaction: this relation already belongs to an interaction of %s (one relation per interaction; detach it first)",
                    rel->owner == m ? "this model" : "another model");
        return -1;
    }
    int ids[2] = { ds1, ds2 };
    int nds = ds2 < 0 ? 1 : 2;
    int sum = 0;
    int lagr_rel = nsm_relation_kind_of(rel)->lagrangian;
    for (int k = 0; k < nds; k++) {
        if (ids[k] < 0 || ids[k] >= m->nds) {
            nsm_set_err(m->err, "add_interaction: system id %d does not exist (%d systems)", ids[k], m->nds);
            goto fail;
        }
        if (nsm_ds_is_lagrangian(m->ds[ids[k]]) != lagr_rel) {
            nsm_set_err(m->err, "add_interaction: a %s relation cannot couple the %s system %d",
                        lagr_rel ? "Lagrangian" : "first-order",
                        lagr_rel ? "first-order" : "Lagrangian", ids[k]);
            goto fail;
        }
        sum += m->ds[ids[k]]->n;
        if (m->ds[ids[k]]->nq != m->ds[ids[k]]->n && !nsm_relation_kind_of(rel)->velocity_jacobian) {
            nsm_set_err(m->err, "add_interaction: system %d is a rigid body (q has %d coordinates, v %d); "
                        "a %s relation cannot couple it: use a rigid-body relation (contact, joint)",
                        ids[k], m->ds[ids[k]]->nq, m->ds[ids[k]]->n, nsm_relation_kind_of(rel)->name);
            goto fail;
        }
        int qs = nsm_relation_kind_of(rel)->qsize;
        if (qs > 0 && m->ds[ids[k]]->nq != qs) {
            nsm_set_err(m->err, "add_interaction: a %s relation couples rigid bodies (%d position coordinates); "
                        "system %d has %d", nsm_relation_kind_of(rel)->name, qs, ids[k], m->ds[ids[k]]->nq);
            goto fail;
        }
    }
    if (nds == 2 && ds1 == ds2) {
        nsm_set_err(m->err, "add_interaction: system %d given twice", ds1);
        goto fail;
    }
    if (rel->ncols != sum) {
        nsm_set_err(m->err, "add_interaction: relation has %d columns but its systems have %d coordinates in all",
                    rel->ncols, sum);
        goto fail;
    }
    if (law < 0 || law >= m->nlaws) {
        nsm_set_err(m->err, "add_interaction: law id %d does not exist (%d laws)", law, m->nlaws);
        goto fail;
    }
    const nsm_nslaw *L = m->laws[law];
    if (L->size != rel->m) {
        nsm_set_err(m->err, "add_interaction: %s law of size %d does not fit a relation of size %d",
                    nsm_nslaw_kind_of(L)->name, L->size, rel->m);
        goto fail;
    }
    if (nsm_nslaw_kind_of(L)->lagrangian_only && !lagr_rel) {
        nsm_set_err(m->err, "add_interaction: a %s law needs a Lagrangian relation", nsm_nslaw_kind_of(L)->name);
        goto fail;
    }
    if (nsm_nslaw_kind_of(L)->first_order_only && lagr_rel) {
        nsm_set_err(m->err, "add_interaction: a %s law needs a first-order relation", nsm_nslaw_kind_of(L)->name);
        goto fail;
    }
    int slot;
    if (m->free_slots.n > 0) {
        slot = m->free_slots.v[--m->free_slots.n];
    } else {
        if (m->ninter_slots == m->cap_inter) {
            int cap = m->cap_inter ? 2 * m->cap_inter : 8;
            nsm_interaction *v = realloc(m->inter, (size_t)cap * sizeof *v);
            if (!v) { nsm_set_err(m->err, "add_interaction: out of memory"); goto fail; }
            m->inter = v; m->cap_inter = cap;
        }
        slot = m->ninter_slots++;
    }
    nsm_interaction *I = &m->inter[slot];
    memset(I, 0, sizeof *I);
    I->alive = 1;
    I->gen = ++m->gen_counter;
    I->rel = rel;
    rel->owner = m;
    I->law = law;
    I->nds = nds;
    I->ds[0] = ds1; I->ds[1] = nds == 2 ? ds2 : -1;
    I->off[0] = 0; I->off[1] = m->ds[ds1]->n;
    I->qoff[0] = 0; I->qoff[1] = m->ds[ds1]->nq;
    I->nqcols = m->ds[ds1]->nq + (nds == 2 ? m->ds[ds2]->nq : 0);
    for (int k = 0; k < nds; k++)
        if (nsm_intlist_push(&m->ds_inter[ids[k]], slot) != 0) {
            nsm_set_err(m->err, "add_interaction: out of memory");
            if (k == 1) nsm_intlist_remove(&m->ds_inter[ids[0]], slot);
            I->alive = 0;
            nsm_intlist_push(&m->free_slots, slot);
            goto fail;
        }
    m->nlive++;
    return slot;
fail:
    nsm_relation_free(rel);
    return -1;
}

/* Takes interaction inter out of the model; its relation goes to *rel
 * (the caller's) or is freed when rel is NULL. */
static ns_status take_out(nsm_model *m, int inter, nsm_relation **rel, const char *who)
{
    if (!nsm_model_inter_alive(m, inter)) {
        if (m) nsm_set_err(m->err, "%s: %d is not a live interaction", who, inter);
        return NS_BAD_INPUT;
    }
    nsm_interaction *I = &m->inter[inter];
    for (int k = 0; k < I->nds; k++) nsm_intlist_remove(&m->ds_inter[I->ds[k]], inter);
    I->rel->owner = NULL;
    if (rel) *rel = I->rel;
    else nsm_relation_free(I->rel);
    I->rel = NULL;
    I->alive = 0;
    m->nlive--;
    if (nsm_intlist_push(&m->free_slots, inter) != 0) return NS_NO_MEMORY;
    return NS_OK;
}

ns_status nsm_model_remove_interaction(nsm_model *m, int inter)
{
    return take_out(m, inter, NULL, "remove_interaction");
}

nsm_relation *nsm_model_detach_interaction(nsm_model *m, int inter)
{
    nsm_relation *rel = NULL;
    take_out(m, inter, &rel, "detach_interaction");   /* out of memory: removed all the same */
    return rel;
}

void nsm_inter_gather(const nsm_model *m, const nsm_interaction *I,
                      const double *const *vec, double *out)
{
    for (int k = 0; k < I->nds; k++) {
        int j = I->ds[k];
        memcpy(out + I->off[k], vec[j], (size_t)m->ds[j]->n * sizeof *out);
    }
}

void nsm_inter_gather_q(const nsm_model *m, const nsm_interaction *I,
                        const double *const *vec, double *out)
{
    for (int k = 0; k < I->nds; k++) {
        int j = I->ds[k];
        memcpy(out + I->qoff[k], vec[j], (size_t)m->ds[j]->nq * sizeof *out);
    }
}

int nsm_model_nds(const nsm_model *m) { return m ? m->nds : 0; }
int nsm_model_inter_capacity(const nsm_model *m) { return m ? m->ninter_slots : 0; }
int nsm_model_ninter(const nsm_model *m) { return m ? m->nlive : 0; }
int nsm_model_inter_alive(const nsm_model *m, int i)
{
    return m && i >= 0 && i < m->ninter_slots && m->inter[i].alive;
}
unsigned nsm_model_inter_generation(const nsm_model *m, int i)
{
    return nsm_model_inter_alive(m, i) ? m->inter[i].gen : 0u;
}
nsm_ds *nsm_model_ds(nsm_model *m, int id) { return m && id >= 0 && id < m->nds ? m->ds[id] : NULL; }
const nsm_ds *nsm_model_ds_const(const nsm_model *m, int id) { return m && id >= 0 && id < m->nds ? m->ds[id] : NULL; }
nsm_relation *nsm_model_relation(nsm_model *m, int i) { return nsm_model_inter_alive(m, i) ? m->inter[i].rel : NULL; }
const nsm_nslaw *nsm_model_law(const nsm_model *m, int l) { return m && l >= 0 && l < m->nlaws ? m->laws[l] : NULL; }
int nsm_model_inter_law(const nsm_model *m, int i) { return nsm_model_inter_alive(m, i) ? m->inter[i].law : -1; }
int nsm_model_inter_size(const nsm_model *m, int i) { return nsm_model_inter_alive(m, i) ? m->inter[i].rel->m : 0; }

int nsm_model_inter_ds(const nsm_model *m, int i, int ds[2])
{
    if (!nsm_model_inter_alive(m, i) || !ds) return 0;
    ds[0] = m->inter[i].ds[0];
    ds[1] = m->inter[i].ds[1];
    return m->inter[i].nds;
}

int nsm_model_linked(const nsm_model *m, int inter, int *linked, int *common_ds, int max)
{
    if (!nsm_model_inter_alive(m, inter)) return 0;
    const nsm_interaction *I = &m->inter[inter];
    int count = 0;
    for (int k = 0; k < I->nds; k++) {
        const nsm_intlist *l = &m->ds_inter[I->ds[k]];
        for (int t = 0; t < l->n; t++) {
            if (l->v[t] == inter) continue;
            if (count < max) {
                if (linked) linked[count] = l->v[t];
                if (common_ds) common_ds[count] = I->ds[k];
            }
            count++;
        }
    }
    return count;
}

int nsm_model_ds_interactions(const nsm_model *m, int ds, int *inter, int max)
{
    if (!m || ds < 0 || ds >= m->nds) return 0;
    const nsm_intlist *l = &m->ds_inter[ds];
    for (int t = 0; inter && t < l->n && t < max; t++) inter[t] = l->v[t];
    return l->n;
}

const char *nsm_model_error(const nsm_model *m) { return m ? m->err : "no model"; }
