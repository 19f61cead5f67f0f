/* index_set.c — the index set I1 of a time step: which interactions enter
 * the one-step problem, in problem order (equality rows first).
 *
 * A Lagrangian interaction whose law is unilateral (nslaw table) is active
 * when one of its activation rows has a predicted gap ≤ gap_tol:
 *   NSM_ACTIVATION_GAMMA (default, γ = ½):  y_k + γ h ẏ_k;
 *   NSM_ACTIVATION_PREDICTED:               y(q_k + h v_k) + γ h ẏ_k
 * (q_k + h v_k is the first Newton iterate set by Moreau–Jean's begin);
 * first-order interactions and bilateral laws are always active. */
#include "simulation/sim_internal.h"
#include "nslaw/nslaw_kind.h"
#include "relation/relation_kind.h"
#include <stdlib.h>
#include <string.h>

ns_status nsm_osnsp_prepare_interactions(nsm_sim *s)
{
    nsm_model *m = s->model;
    ns_status st = nsm_osnsp_refresh_outputs(s, 1, s->t);
    if (st != NS_OK) return st;
    s->nact = 0;
    int neq = 0;
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
            const nsm_nslaw *L = m->laws[I->law];
            const nsm_nslaw_kind *lk = nsm_nslaw_kind_of(L);
            int is_eq = lk->rows == NSM_ROWS_EQUALITY;
            if ((pass == 0) != is_eq) continue;
            int active = 1;
            if (nsm_relation_kind_of(I->rel)->lagrangian && lk->unilateral) {
                active = 0;
                int ncheck = lk->activation_rows > 0 ? lk->activation_rows : d->m;
                const double *y = d->y0;
                if (s->o.activation == NSM_ACTIVATION_PREDICTED) {
                    st = nsm_osnsp_output_at_iterate(s, i, &y);
                    if (st != NS_OK) return st;
                }
                double gh = s->o.activation_gamma * s->h;
                double in_at = d->active && s->o.activation_hold > s->o.gap_tol
                             ? s->o.activation_hold : s->o.gap_tol;
                for (int c = 0; c < ncheck; c++)
                    if (y[c] + gh * d->y1[c] <= in_at) active = 1;
                /* combined projection: the pass's set (projection.c) */
                if (s->o.projection == NSM_PROJECTION_COMBINED) active = d->proj_in;
                /* direct projection with Siconos' hysteresis: the set persists;
                 * a row enters when y + γhẏ ≤ activate_pos, leaves when
                 * y + γhẏ > deactivate_pos and ẏ ≥ deactivate_vel (row 0),
                 * unless it passes the entry test in the same update (only
                 * possible with deactivate_pos < activate_pos): Siconos'
                 * SliderCrank ref keeps such a row, where removing it and
                 * re-admitting it one step later would flip it every step */
                else if (s->o.projection == NSM_PROJECTION_DIRECT && s->o.projection_hysteresis) {
                    double yp = y[0] + gh * d->y1[0];
                    int enter = yp <= s->o.projection_activate_pos;
                    if (d->proj_in)
                        active = enter || !(yp > s->o.projection_deactivate_pos &&
                                            d->y1[0] >= s->o.projection_deactivate_vel);
                    else active = enter;
                    d->proj_in = active;
                }
            }
            d->held = active && d->active;
            d->active = active;
            if (!active) continue;
            d->pos = s->nact;
            s->act[s->nact] = i;
            s->act_gen[s->nact] = I->gen;
            s->nact++;
        }
        if (pass == 0) neq = s->nact;
    }
    if (s->o.order_by_system && s->nact - neq > 1) {
        /* stable counting sort of the non-equality rows by first system */
        int nd = m->nds, k = s->nact - neq;
        size_t need = (size_t)nd + 1 + 2 * (size_t)k;
        if (need > s->cap_ord) {
            int *t = realloc(s->ord_tmp, need * sizeof *t);
            if (!t) { nsm_set_err(s->err, "out of memory"); return NS_NO_MEMORY; }
            s->ord_tmp = t; s->cap_ord = need;
        }
        int *cnt = s->ord_tmp, *a = cnt + nd + 1, *g = a + k;
        memset(cnt, 0, ((size_t)nd + 1) * sizeof *cnt);
        for (int j = neq; j < s->nact; j++) cnt[m->inter[s->act[j]].ds[0] + 1]++;
        for (int d = 0; d < nd; d++) cnt[d + 1] += cnt[d];
        for (int j = neq; j < s->nact; j++) {
            int p = cnt[m->inter[s->act[j]].ds[0]]++;
            a[p] = s->act[j]; g[p] = (int)s->act_gen[j];
        }
        for (int p = 0; p < k; p++) {
            s->act[neq + p] = a[p];
            s->act_gen[neq + p] = (unsigned)g[p];
            s->id[a[p]].pos = neq + p;
        }
    }
    return NS_OK;
}
