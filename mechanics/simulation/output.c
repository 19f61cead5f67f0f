/* output.c — one CSV row per step: t, states, y and λ of the interactions
 * live when the header was written. Contract: nsm_simulation.h. */
#include "simulation/sim_internal.h"
#include "relation/relation_kind.h"
#include <stdlib.h>
#include <string.h>

nsm_output *nsm_output_open(const char *path, nsm_sim *s, char *err)
{
    if (!path || !s) { nsm_set_err(err, "nsm_output_open: NULL %s", path ? "simulation" : "path"); return NULL; }
    FILE *f = fopen(path, "w");
    if (!f) { nsm_set_err(err, "%s: cannot open for writing", path); return NULL; }
    nsm_output *o = calloc(1, sizeof *o);
    nsm_model *m = s->model;
    if (!o) { fclose(f); nsm_set_err(err, "out of memory"); return NULL; }
    o->f = f;
    o->nds = m->nds;
    int ni = nsm_model_ninter(m);
    o->inter = calloc((size_t)ni + 1, sizeof(int));
    o->gen = calloc((size_t)ni + 1, sizeof(unsigned));
    o->ncol = calloc((size_t)ni + 1, sizeof(int));
    o->sim = s;
    if (!o->inter || !o->gen || !o->ncol) { nsm_output_close(o); nsm_set_err(err, "out of memory"); return NULL; }
    fprintf(f, "t");
    for (int j = 0; j < m->nds; j++) {
        int n = m->ds[j]->n;
        if (nsm_ds_is_lagrangian(m->ds[j])) {
            for (int i = 0; i < m->ds[j]->nq; i++) fprintf(f, ",q%d_%d", j, i);
            for (int i = 0; i < n; i++) fprintf(f, ",v%d_%d", j, i);
        } else {
            for (int i = 0; i < n; i++) fprintf(f, ",x%d_%d", j, i);
        }
    }
    for (int i = 0; i < m->ninter_slots; i++) {
        if (!m->inter[i].alive) continue;
        int first = !nsm_relation_kind_of(m->inter[i].rel)->lagrangian;
        o->inter[o->ninter] = i;
        o->ncol[o->ninter] = m->inter[i].rel->m * (first ? 2 : 3);
        o->gen[o->ninter++] = m->inter[i].gen;
        for (int c = 0; c < m->inter[i].rel->m; c++) {
            fprintf(f, ",y0_%d_%d", i, c);
            if (!first) fprintf(f, ",y1_%d_%d", i, c);
            fprintf(f, first ? ",lambda0_%d_%d" : ",lambda1_%d_%d", i, c);
        }
    }
    fprintf(f, "\n");
    return o;
}

ns_status nsm_output_row(nsm_output *o, nsm_sim *s)
{
    if (!o || !s) return NS_BAD_INPUT;
    if (s != o->sim) return NS_BAD_INPUT;   /* the columns are those of o->sim */
    FILE *f = o->f;
    fprintf(f, "%.10g", nsm_sim_time(s));
    for (int j = 0; j < o->nds; j++) {
        nsm_dsdata *d = &s->d[j];
        for (int i = 0; i < d->nq; i++) fprintf(f, ",%.10g", d->q[i]);
        if (d->lagrangian) for (int i = 0; i < d->n; i++) fprintf(f, ",%.10g", d->v[i]);
    }
    for (int k = 0; k < o->ninter; k++) {
        int i = o->inter[k];
        const nsm_relation *r = NULL;
        int alive = nsm_model_inter_alive(s->model, i) && s->model->inter[i].gen == o->gen[k];
        const double *y0 = alive ? nsm_sim_y(s, i, 0) : NULL;
        const double *y1 = alive ? nsm_sim_y(s, i, 1) : NULL;
        r = alive ? s->model->inter[i].rel : NULL;
        int first = r && !nsm_relation_kind_of(r)->lagrangian;
        const double *l = alive ? nsm_sim_lambda(s, i, first ? 0 : 1) : NULL;
        if (!alive) {   /* removed since the header: its columns stay, empty */
            for (int c = 0; c < o->ncol[k]; c++) fputc(',', f);
            continue;
        }
        int mm = r->m;
        for (int c = 0; c < mm; c++) {
            fprintf(f, ",%.10g", y0 ? y0[c] : 0.0);
            if (!first) fprintf(f, ",%.10g", y1 ? y1[c] : 0.0);
            fprintf(f, ",%.10g", l ? l[c] : 0.0);
        }
    }
    fprintf(f, "\n");
    return ferror(f) ? NS_IO_ERROR : NS_OK;
}

void nsm_output_close(nsm_output *o)
{
    if (!o) return;
    if (o->f) fclose(o->f);
    free(o->inter); free(o->gen); free(o->ncol);
    free(o);
}
