/* simulation.c — time-stepping simulation: data of a model (states, y, λ,
 * index sets), the step driver (with the Newton loop of nonlinear systems)
 * and accessors. The integrators (osi/) and the one-step problem (osnsp/)
 * do the work. Contract: include/nonsmooth/nsm_simulation.h. */
#include "simulation/sim_internal.h"
#include "nslaw/nslaw_kind.h"
#include "relation/relation_kind.h"
#include "ds/ds_kind.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nsm_sim_log(nsm_sim *s, int level, const char *fmt, ...)
{
    if (!s->o.log) return;
    char msg[NS_ERRMSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    s->o.log(s->o.log_user, level, msg);
}

void nsm_sim_options_default(nsm_sim_options *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->theta = 0.5;
    ns_options_default(&o->solver_options);
    /* time-stepping's one-step FC problems (piles: NSGS's slow case) are
     * solved with Anderson-accelerated sweeps, the winner of the
     * measurements (docs/scale.md); one-shot numerics solves keep 0 */
    o->solver_options.anderson = 3;
    o->warm_start = 1;
    o->gap_tol = 1e-12;
    o->activation = NSM_ACTIVATION_GAMMA;
    o->activation_gamma = 0.5;
    o->separating_restitution = 1;
    o->theta_output = 0;
    o->linearisation = NSM_LINEARISE_ITERATE;
    o->em_use_gamma = 0;
    o->em_gamma = 1.0;
    o->newton_tol = 1e-10;
    o->newton_max_iter = 20;
    o->dump_every = 1;
    o->projection = NSM_PROJECTION_NONE;
    o->projection_tol = 1e-10;
    o->projection_tol_unilateral = 1e-10;
    o->projection_max_iter = 10;
    o->projection_activate_pos = 0.0;
    o->projection_deactivate_pos = 1e-4;
    o->projection_deactivate_vel = 0.0;
}

void nsm_sim_options_siconos(nsm_sim_options *o)
{
    if (!o) return;
    o->gap_tol = 0.0;
    o->separating_restitution = 0;
    o->activation = NSM_ACTIVATION_GAMMA;
    o->activation_gamma = 0.5;
    o->theta_output = 0;
    o->newton_criterion = NSM_NEWTON_ABS_NORM2;
    o->newton_tol = 1e-6;
    o->newton_max_iter = 50;
}

static char *dupstr(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static void dsdata_free(nsm_dsdata *d)
{
    free(d->qth); free(d->q); free(d->v); free(d->qk); free(d->vk); free(d->free); free(d->p); free(d->pk);
    free(d->dv); free(d->Fk); free(d->F); free(d->Mq);
    free(d->Wfull); free(d->rhs0); free(d->base); free(d->bcr);
    free(d->w1); free(d->w2); free(d->w3); free(d->J1); free(d->J2);
    ns_matrix_free(d->Wmat);
    ns_factor_free(d->F_W);
}

void nsm_sim_free(nsm_sim *s)
{
    if (!s) return;
    for (int j = 0; j < s->nd; j++) dsdata_free(&s->d[j]);
    free(s->d);
    free(s->vq); free(s->vv); free(s->vfree); free(s->vqk); free(s->vvk); free(s->vqth);
    for (int i = 0; i < s->cap_id; i++) nsm_idata_free(&s->id[i]);
    free(s->id);
    free(s->ord_tmp);
    free(s->act); free(s->act_gen); free(s->prev_act); free(s->prev_gen);
    free(s->proj_rows); free(s->gfc_off);
    ns_problem_free(s->prob);
    ns_solution_free(s->sol);
    free(s->row_start); free(s->row_ptr); free(s->block_col); free(s->scratch);
    free(s->qvec); free(s->qbuf); free(s->xbuf); free(s->xbuf_H);
    ns_result_clear(&s->res);
    ns_workspace_free(s->ws);
    free(s->solver_name); free(s->dump_dir); free(s->dump_prefix); free(s->gmp_solver_name);
    free(s);
}

static ns_status dsdata_init(nsm_sim *s, int j)
{
    const nsm_ds *ds = s->model->ds[j];
    nsm_dsdata *d = &s->d[j];
    int n = ds->n, nq = ds->nq;
    size_t nn = (size_t)n * n, sz = sizeof(double);
    d->n = n;
    d->nq = nq;
    d->config = ds->config;
    d->lagrangian = nsm_ds_is_lagrangian(ds);
    d->theta = isnan(ds->theta) ? s->theta : ds->theta;
    d->q = calloc((size_t)nq, sz); d->v = calloc((size_t)n, sz);
    d->qk = calloc((size_t)nq, sz); d->vk = calloc((size_t)n, sz);
    d->qth = calloc((size_t)nq, sz);
    d->free = calloc((size_t)n, sz); d->p = calloc((size_t)n, sz); d->pk = calloc((size_t)n, sz);
    d->dv = calloc((size_t)n, sz); d->Fk = calloc((size_t)n, sz); d->F = calloc((size_t)n, sz);
    /* a sparse system never gets an n×n dense buffer (its W is built sparse) */
    int sparse = nsm_ds_kind_of(ds)->sparse;
    size_t nnd = sparse ? 1 : nn;
    d->Mq = calloc(nnd, sz);
    d->w1 = calloc((size_t)n, sz); d->w2 = calloc((size_t)n, sz);
    d->w3 = calloc(3 * (size_t)n + 2 * nnd, sz);
    d->J1 = calloc(2 * nnd, sz); d->J2 = calloc(2 * nnd, sz);
    d->Wmat = sparse ? ns_matrix_sparse_new(n, n, 0) : ns_matrix_dense_new(n, n);
    d->bcr = calloc((size_t)n, sz);
    if (ds->nbc) {
        if (sparse) { nsm_set_err(s->err, "system %d: prescribed velocities on a sparse system are not supported", j); return NS_UNSUPPORTED; }
        d->Wfull = calloc(nn, sz); d->rhs0 = calloc((size_t)n, sz); d->base = calloc((size_t)n, sz);
        if (!d->Wfull || !d->rhs0 || !d->base) { nsm_set_err(s->err, "out of memory"); return NS_NO_MEMORY; }
    }
    if (!d->bcr || !d->qth || !d->q || !d->v || !d->qk || !d->vk || !d->free || !d->p || !d->pk || !d->dv || !d->Fk ||
        !d->F || !d->Mq || !d->w1 || !d->w2 || !d->w3 || !d->J1 || !d->J2 || !d->Wmat) {
        nsm_set_err(s->err, "out of memory");
        return NS_NO_MEMORY;
    }
    if (d->lagrangian) {
        memcpy(d->q, ds->q0, (size_t)nq * sz);
        memcpy(d->v, ds->v0, (size_t)n * sz);
    } else {
        memcpy(d->q, ds->x0, (size_t)n * sz);
    }
    memcpy(d->qk, d->q, (size_t)nq * sz);
    memcpy(d->vk, d->v, (size_t)n * sz);
    s->vq[j] = d->q; s->vv[j] = d->v; s->vfree[j] = d->free; s->vqk[j] = d->qk; s->vvk[j] = d->vk;
    s->vqth[j] = nsm_ds_kind_of(ds)->forces_at_theta ? d->qth : d->q;
    const nsm_ds_kind *k = nsm_ds_kind_of(ds);
    d->W_const = k->constant;
    if (!k->constant && d->lagrangian) {
        /* M(q0) etc. for the first factorisation (a singular mass fails here) */
        ns_status st = nsm_ds_eval_lagrangian(ds, j, s->t, d->q, d->v, d->Mq, d->F, d->J1, d->J2, d->w3, s->err);
        if (st != NS_OK) return st;
    }
    if (!k->linear) s->newton = 1;
    /* factorise now: a singular mass / iteration matrix fails here */
    return nsm_osi_of(d)->build_W(ds, j, d, s->h, d->lagrangian ? s->t : nsm_sim_t_next(s), s->err);
}

/* The solver name (if any) must solve at least one kind of problem the
 * model's laws can make (the kind of each step depends on its active set,
 * so a name that fits one of them is accepted). */
static ns_status check_solver(const nsm_model *m, const char *name, int global_fc, char *err)
{
    if (!name) return NS_OK;
    int rows[NSM_ROWS_NCLASSES] = { 0 }, dims = 0;
    for (int l = 0; l < m->nlaws; l++) {
        nsm_row_class c = nsm_nslaw_kind_of(m->laws[l])->rows;
        rows[c] = 1;
        if (c == NSM_ROWS_FRICTION) dims |= m->laws[l]->size == 2 ? 1 : 2;
        if (c == NSM_ROWS_ROLLING) dims |= m->laws[l]->size == 3 ? 4 : 8;
    }
    ns_kind cand[8]; int nc = 0;
    if (rows[NSM_ROWS_COMPLEMENTARITY]) cand[nc++] = NS_KIND_LCP;
    if (rows[NSM_ROWS_EQUALITY]) { cand[nc++] = NS_KIND_EQUALITY; if (rows[NSM_ROWS_COMPLEMENTARITY]) cand[nc++] = NS_KIND_MLCP; }
    if (rows[NSM_ROWS_RELAY]) cand[nc++] = NS_KIND_RELAY;
    if (dims & 1) cand[nc++] = NS_KIND_FC2D;
    if (dims & 2) cand[nc++] = NS_KIND_FC3D;
    if (dims & 4) cand[nc++] = NS_KIND_RFC2D;
    if (dims & 8) cand[nc++] = NS_KIND_RFC3D;
    if (global_fc && (dims & 1)) cand[nc++] = NS_KIND_GFC2D;   /* `solver` may name a GFC solver */
    if (global_fc && (dims & 2)) cand[nc++] = NS_KIND_GFC3D;
    /* name is a solver spec NAME[/key=value]... (ns_solver_spec_parse) */
    for (int k = 0; k < nc; k++) if (nsm_spec_applies(name, cand[k])) return NS_OK;
    char e2[NS_ERRMSG_LEN] = "";
    char sname[NS_SOLVER_NAME_LEN];
    ns_options scratch;
    ns_options_default(&scratch);
    ns_status st = ns_solver_spec_parse(name, NS_KIND_NONE, sname, sizeof sname, &scratch, e2);
    if (nc == 0) {   /* no law yet: the name must exist at all */
        if (st == NS_OK) return NS_OK;
        nsm_set_err(err, "nsm_sim_new: solver: %s (see nsolve --list-solvers --options)", e2);
        return NS_BAD_INPUT;
    }
    if (st == NS_BAD_INPUT) {   /* a known name with a bad key or value */
        nsm_set_err(err, "nsm_sim_new: solver: %s", e2);
        return NS_BAD_INPUT;
    }
    char kinds[256] = "";
    for (int k = 0; k < nc; k++) {
        strncat(kinds, k ? ", " : "", sizeof kinds - strlen(kinds) - 1);
        strncat(kinds, ns_kind_name(cand[k]), sizeof kinds - strlen(kinds) - 1);
    }
    nsm_set_err(err, "nsm_sim_new: solver '%s' solves none of this model's problem kinds (%s)", name, kinds);
    return NS_BAD_INPUT;
}

nsm_sim *nsm_sim_new(nsm_model *model, const nsm_sim_options *o, char *err)
{
    if (!model || !o) { nsm_set_err(err, "nsm_sim_new: NULL model or options"); return NULL; }
    char e2[NS_ERRMSG_LEN] = "";
    if (nsm_sim_options_validate(o, e2) != NS_OK) { nsm_set_err(err, "nsm_sim_new: %s", e2); return NULL; }
    if (model->nds == 0) { nsm_set_err(err, "nsm_sim_new: the model has no dynamical system"); return NULL; }
    if (check_solver(model, o->solver, o->global_fc, err) != NS_OK) return NULL;
    if (o->gmp_solver && !ns_solver_find(o->gmp_solver, NS_KIND_GMP)) {
        nsm_set_err(err, "nsm_sim_new: gmp_solver '%s' is not a solver of the generic mechanical problem (see nsolve --list-solvers --kind gmp)", o->gmp_solver);
        return NULL;
    }
    nsm_sim *s = calloc(1, sizeof *s);
    if (!s) { nsm_set_err(err, "out of memory"); return NULL; }
    s->model = model;
    s->o = *o;
    s->solver_name = dupstr(o->solver);
    s->dump_dir = dupstr(o->dump_dir);
    s->dump_prefix = dupstr(o->dump_prefix);
    s->gmp_solver_name = dupstr(o->gmp_solver);
    s->o.gmp_solver = s->gmp_solver_name;
    s->o.solver = s->solver_name;
    s->o.dump_dir = s->dump_dir;
    s->o.dump_prefix = s->dump_prefix;
    s->t = o->t0;
    s->h = o->h;
    s->theta = o->theta;
    ns_result_init(&s->res);
    s->nd = model->nds;
    s->d = calloc((size_t)s->nd, sizeof *s->d);
    s->vq = calloc((size_t)s->nd, sizeof *s->vq); s->vv = calloc((size_t)s->nd, sizeof *s->vv);
    s->vfree = calloc((size_t)s->nd, sizeof *s->vfree);
    s->vqk = calloc((size_t)s->nd, sizeof *s->vqk); s->vvk = calloc((size_t)s->nd, sizeof *s->vvk);
    s->vqth = calloc((size_t)s->nd, sizeof *s->vqth);
    if (!s->d || !s->vq || !s->vv || !s->vfree || !s->vqk || !s->vvk || !s->vqth) { nsm_set_err(err, "out of memory"); nsm_sim_free(s); return NULL; }
    for (int j = 0; j < s->nd; j++) {
        if (nsm_ds_check_mass(model->ds[j], j, err) != NS_OK) { nsm_sim_free(s); return NULL; }
        if (dsdata_init(s, j) != NS_OK) { nsm_set_err(err, "%s", s->err); nsm_sim_free(s); return NULL; }
    }
    ns_status st = nsm_osnsp_refresh_outputs(s, 0, s->t);
    if (st != NS_OK) { nsm_set_err(err, "%s", s->err); nsm_sim_free(s); return NULL; }
    return s;
}

static void set_step(nsm_sim *s, int iter)
{
    s->step.t0 = s->t;
    s->step.t1 = nsm_sim_t_next(s);
    s->step.h = s->h;
    s->step.iter = iter;
    s->step.gamma = s->o.em_use_gamma ? s->o.em_gamma : 1.0;
}

static ns_status free_states(nsm_sim *s)
{
    for (int j = 0; j < s->nd; j++) {
        ns_status st = nsm_osi_of(&s->d[j])->free_state(s->model->ds[j], j, &s->d[j], &s->step, s->err);
        if (st != NS_OK) return st;
    }
    return NS_OK;
}

ns_status nsm_sim_compute_free_state(nsm_sim *s)
{
    if (!s) return NS_BAD_INPUT;
    if (s->model->nds != s->nd) {
        nsm_set_err(s->err, "systems were added to the model after the simulation was created");
        return NS_BAD_INPUT;
    }
    for (int j = 0; j < s->nd; j++)
        if (s->model->ds[j]->config != s->d[j].config) {
            nsm_set_err(s->err, "system %d: its boundary conditions, theta or mass changed after "
                        "the simulation was created, which read them (make a new simulation to "
                        "use them)", j);
            return NS_BAD_INPUT;
        }
    set_step(s, 0);
    for (int j = 0; j < s->nd; j++) nsm_osi_of(&s->d[j])->begin(s->model->ds[j], &s->d[j], &s->step);
    s->step_begun = 1;
    return free_states(s);
}

/* Linearisation of the relations at the iterate, assembly and solve. */
static ns_status solve_iteration(nsm_sim *s)
{
    s->solved_this_step = 0;
    for (int j = 0; j < s->nd; j++) memset(s->d[j].p, 0, (size_t)s->d[j].n * sizeof(double));
    if (s->nact == 0) return NS_OK;
    for (int a = 0; a < s->nact; a++) {   /* λ^α of nonlinear first-order relations */
        nsm_idata *d = &s->id[s->act[a]];
        if (d->lam_prev) memcpy(d->lam_prev, d->lam0, (size_t)d->m * sizeof(double));
    }
    ns_status st = nsm_osnsp_linearise(s, s->step.t1);
    if (st == NS_OK) st = nsm_osnsp_assemble(s);
    if (st == NS_OK) st = nsm_osnsp_solve(s);
    return st;
}

ns_status nsm_sim_solve(nsm_sim *s)
{
    if (!s) return NS_BAD_INPUT;
    ns_status st = nsm_osnsp_prepare_interactions(s);
    if (st != NS_OK) return st;
    return solve_iteration(s);
}

/* v = v_free + Σ W G λ (x = x_free + h Σ W G λ), p = Σ G λ, then the
 * integrator's update (q by the θ rule). */
static void apply_input(nsm_sim *s)
{
    nsm_model *m = s->model;
    for (int j = 0; j < s->nd; j++) {
        nsm_dsdata *d = &s->d[j];
        memset(d->p, 0, (size_t)d->n * sizeof(double));
        memcpy(d->lagrangian ? d->v : d->q, d->free, (size_t)d->n * sizeof(double));
    }
    for (int a = 0; s->solved_this_step && a < s->nact; a++) {
        int ia = s->act[a];
        const nsm_interaction *I = &m->inter[ia];
        const nsm_relation *r = I->rel;
        nsm_idata *id = &s->id[ia];
        int lag = nsm_relation_kind_of(r)->lagrangian;
        const double *lam = lag ? id->lam1 : id->lam0;
        for (int k = 0; k < I->nds; k++) {
            nsm_dsdata *d = &s->d[I->ds[k]];
            const nsm_osi *osi = nsm_osi_of(d);
            int n = d->n, off = I->off[k];
            double *target = osi->corrects_velocity ? d->v : d->q;
            double scale = osi->input_scale(&s->step);
            const double *WG = id->WHt[k];
            if (id->Dcur) {   /* nonlinear first order: r = r0 + B λ */
                for (int i = 0; i < n; i++) {
                    target[i] += scale * id->Wr0[k][i];
                    d->p[i] += id->r0[off + i];
                }
            }
            /* entry by entry, the multipliers innermost: each target[i]
             * and p[i] gets the same additions in the same order as
             * column by column, without reloading what was just stored */
            for (int i = 0; i < n; i++) {
                double ti = target[i], pi = d->p[i];
                for (int c = 0; c < id->m; c++) {
                    double l = lam[c];
                    if (l == 0.0) continue;
                    if (!s->global) ti += scale * WG[i + (size_t)c * n] * l;
                    pi += nsm_idata_G(id, r->ncols, off + i, c) * l;
                }
                target[i] = ti;
                d->p[i] = pi;
            }
        }
    }
    /* global_fc: the GFC's v is the new velocity of the systems in contact */
    if (s->global && s->solved_this_step)
        for (int j = 0; j < s->nd; j++)
            if (s->gfc_off[j] >= 0) memcpy(s->d[j].v, s->sol->vec[0] + s->gfc_off[j], (size_t)s->d[j].n * sizeof(double));
    for (int j = 0; j < s->nd; j++) nsm_osi_of(&s->d[j])->update(s->model->ds[j], &s->d[j], &s->step);
}

/* After the last iteration: inactive interactions carry no multiplier,
 * outputs at t_{k+1}. */
static ns_status finish_step(nsm_sim *s)
{
    nsm_model *m = s->model;
    for (int i = 0; i < m->ninter_slots; i++) {
        if (!m->inter[i].alive || i >= s->cap_id || s->id[i].gen != m->inter[i].gen) continue;
        if (s->id[i].pos < 0 || !s->solved_this_step) {
            memset(s->id[i].lam1, 0, (size_t)s->id[i].m * sizeof(double));
            if (nsm_relation_kind_of(m->inter[i].rel)->lagrangian)
                memset(s->id[i].lam0, 0, (size_t)s->id[i].m * sizeof(double));
        }
    }
    return nsm_osnsp_refresh_outputs(s, 0, nsm_sim_t_next(s));
}

ns_status nsm_sim_update(nsm_sim *s)
{
    if (!s) return NS_BAD_INPUT;
    apply_input(s);
    ns_status st = finish_step(s);
    if (st == NS_OK && s->o.projection) st = nsm_projection_run(s);
    return st;
}

void nsm_sim_next_step(nsm_sim *s)
{
    if (!s) return;
    s->k++;
    s->t = s->o.t0 + (double)s->k * s->h;
    s->stats.steps++;
}

/* Largest Newton residual over the nonlinear systems, relative or the
 * absolute 2-norm per system (newton_criterion); −1: error. */
static double newton_residual(nsm_sim *s)
{
    double r = 0.0;
    for (int j = 0; j < s->nd; j++) {
        double a2;
        double rj = nsm_osi_of(&s->d[j])->residual(s->model->ds[j], j, &s->d[j], &s->step, &a2, s->err);
        if (rj < 0) return -1.0;
        if (s->o.newton_criterion == NSM_NEWTON_ABS_NORM2) rj = a2;
        if (rj > r) r = rj;
    }
    /* nonlinear first-order relations: the change of λ in the last solve,
     * relative to its size */
    for (int a = 0; s->solved_this_step && a < s->nact; a++) {
        const nsm_idata *d = &s->id[s->act[a]];
        if (!d->lam_prev || !nsm_relation_kind_of(s->model->inter[s->act[a]].rel)->linearise) continue;
        double dl = 0.0, sz = 0.0;
        for (int c = 0; c < d->m; c++) {
            dl = fmax(dl, fabs(d->lam0[c] - d->lam_prev[c]));
            sz = fmax(sz, fmax(fabs(d->lam0[c]), fabs(d->lam_prev[c])));
        }
        double rl = sz > 0.0 ? dl / sz : 0.0;
        if (rl > r) r = rl;
    }
    /* equality rows on the discrete gradient between q_k and q_{k+1}: the
     * change of that H since the iterate it was taken at */
    if (s->solved_this_step) {
        double rh = nsm_osnsp_mean_jacobian_change(s);
        if (rh < 0) { nsm_set_err(s->err, "out of memory"); return -1.0; }
        if (rh > r) r = rh;
    }
    return r;
}

/* Some active interaction has a nonlinear first-order relation. */
static int nonlinear_relations(const nsm_sim *s)
{
    for (int a = 0; a < s->nact; a++)
        if (nsm_relation_kind_of(s->model->inter[s->act[a]].rel)->linearise) return 1;
    return 0;
}

/* The velocity step: free state, one-step problem, Newton iterations,
 * outputs at t_{k+1}. */
static ns_status velocity_step(nsm_sim *s)
{
    if (!s) return NS_BAD_INPUT;
    ns_status st = nsm_sim_compute_free_state(s);
    if (st == NS_OK) st = nsm_sim_solve(s);
    if (st != NS_OK) return st;
    apply_input(s);
    int iter = 1;
    if (s->newton || nonlinear_relations(s)) {
        for (;;) {
            if (iter >= s->o.newton_max_iter) {
                if (s->o.newton_max_iter > 1) s->stats.newton_nonconverged++;
                break;
            }
            double r = newton_residual(s);
            if (r < 0) return NS_BAD_INPUT;
            if (r <= s->o.newton_tol) break;
            set_step(s, iter);
            st = free_states(s);
            if (st == NS_OK) st = solve_iteration(s);
            if (st != NS_OK) return st;
            apply_input(s);
            iter++;
        }
        s->stats.newton_iterations += iter;
        if (iter > s->stats.newton_max) s->stats.newton_max = iter;
    }
    return finish_step(s);
}

/* Combined projection: passes of velocity step + projection from (q_k,
 * v_k), the unilateral set growing by the interactions whose gap closed,
 * until it is stable. */
static ns_status combined_step(nsm_sim *s)
{
    nsm_model *m = s->model;
    for (int i = 0; i < m->ninter_slots; i++)
        if (m->inter[i].alive && nsm_sim_idata(s, i)) s->id[i].proj_in = 0;
    for (int pass = 0; pass < 50; pass++) {
        if (pass > 0)
            for (int j = 0; j < s->nd; j++) {
                memcpy(s->d[j].q, s->d[j].qk, (size_t)s->d[j].nq * sizeof(double));
                memcpy(s->d[j].v, s->d[j].vk, (size_t)s->d[j].n * sizeof(double));
            }
        s->stats.projection_passes++;
        ns_status st = velocity_step(s);
        if (st == NS_OK) st = nsm_projection_run(s);
        if (st != NS_OK) return st;
        int grew = 0;
        for (int i = 0; i < m->ninter_slots; i++) {
            const nsm_interaction *I = &m->inter[i];
            if (!I->alive || i >= s->cap_id || s->id[i].gen != I->gen || s->id[i].proj_in) continue;
            const nsm_nslaw_kind *lk = nsm_nslaw_kind_of(m->laws[I->law]);
            if (!lk->unilateral || !nsm_relation_kind_of(I->rel)->lagrangian) continue;
            int nc = lk->activation_rows > 0 ? lk->activation_rows : s->id[i].m;
            for (int c = 0; c < nc; c++)
                if (s->id[i].y0[c] <= 0.0) { s->id[i].proj_in = 1; grew = 1; break; }
        }
        if (!grew) return NS_OK;
    }
    nsm_set_err(s->err, "t = %g: combined projection: the active set did not settle in 50 passes", s->t);
    return NS_DIVERGED;
}

ns_status nsm_sim_step(nsm_sim *s)
{
    if (!s) return NS_BAD_INPUT;
    s->step_begun = 0;
    ns_status st;
    if (s->o.projection == NSM_PROJECTION_COMBINED) st = combined_step(s);
    else {
        st = velocity_step(s);
        if (st == NS_OK && s->o.projection == NSM_PROJECTION_DIRECT) st = nsm_projection_run(s);
    }
    if (st == NS_OK) nsm_sim_next_step(s);
    else if (s->step_begun) {   /* a failed step leaves the states of t_k */
        for (int j = 0; j < s->nd; j++) {
            nsm_dsdata *d = &s->d[j];
            memcpy(d->q, d->qk, (size_t)d->n * sizeof(double));
            if (d->lagrangian) memcpy(d->v, d->vk, (size_t)d->n * sizeof(double));
        }
    }
    s->step_begun = 0;
    return st;
}

ns_status nsm_sim_run(nsm_sim *s, double T, nsm_observer_fn obs, void *user)
{
    if (!s) return NS_BAD_INPUT;
    if (!isfinite(T) || !(T > s->t)) {
        nsm_set_err(s->err, "nsm_sim_run: final time T = %g must be finite and after the current time t = %g", T, s->t);
        return NS_BAD_INPUT;
    }
    while (s->t < T - 0.5 * s->h) {
        ns_status st = nsm_sim_step(s);
        if (st != NS_OK) return st;
        if (obs && obs(s, user) < 0) break;
    }
    return NS_OK;
}

double nsm_sim_time(const nsm_sim *s) { return s ? s->t : NAN; }
double nsm_sim_step_size(const nsm_sim *s) { return s ? s->h : NAN; }
long nsm_sim_step_count(const nsm_sim *s) { return s ? s->k : -1; }
nsm_model *nsm_sim_model(nsm_sim *s) { return s ? s->model : NULL; }

double *nsm_sim_q(nsm_sim *s, int j) { return s && j >= 0 && j < s->nd && s->d[j].lagrangian ? s->d[j].q : NULL; }
double *nsm_sim_v(nsm_sim *s, int j) { return s && j >= 0 && j < s->nd && s->d[j].lagrangian ? s->d[j].v : NULL; }
double *nsm_sim_x(nsm_sim *s, int j) { return s && j >= 0 && j < s->nd && !s->d[j].lagrangian ? s->d[j].q : NULL; }
const double *nsm_sim_p(const nsm_sim *s, int j) { return s && j >= 0 && j < s->nd ? s->d[j].p : NULL; }
const double *nsm_sim_bc_reaction(const nsm_sim *s, int j) { return s && j >= 0 && j < s->nd ? s->d[j].bcr : NULL; }

static const nsm_idata *idata_const(const nsm_sim *s, int i)
{
    if (!s || !nsm_model_inter_alive(s->model, i) || i >= s->cap_id) return NULL;
    const nsm_idata *d = &s->id[i];
    return d->gen == s->model->inter[i].gen ? d : NULL;
}

const double *nsm_sim_y(const nsm_sim *s, int i, int level)
{
    const nsm_idata *d = idata_const(s, i);
    if (!d) return NULL;
    return level == 0 ? d->y0 : level == 1 ? d->y1 : NULL;
}

const double *nsm_sim_lambda(const nsm_sim *s, int i, int level)
{
    const nsm_idata *d = idata_const(s, i);
    if (!d) return NULL;
    return level == 0 ? d->lam0 : level == 1 ? d->lam1 : NULL;
}

int nsm_sim_index_set(const nsm_sim *s, int level, int *ids, int max)
{
    if (!s) return 0;
    const nsm_model *m = s->model;
    int count = 0;
    if (level == 1) {   /* the problem's order (its rows' blocks) */
        for (int j = 0; j < s->nact; j++) {
            int i = s->act[j];
            const nsm_idata *d = idata_const(s, i);
            if (!d || d->pos != j) continue;
            if (count < max && ids) ids[count] = i;
            count++;
        }
        return count;
    }
    for (int i = 0; i < m->ninter_slots; i++) {
        const nsm_idata *d = idata_const(s, i);
        if (!d) continue;
        int in = level == 0 || (d->pos >= 0 && (level == 1 || (level == 2 && fabs(d->y1[0]) <= 1e-6)));
        if (level > 2) in = 0;
        if (!in) continue;
        if (count < max && ids) ids[count] = i;
        count++;
    }
    return count;
}

const ns_problem *nsm_sim_problem(const nsm_sim *s) { return s ? s->prob : NULL; }
const ns_result *nsm_sim_last_result(const nsm_sim *s) { return s ? &s->res : NULL; }
const nsm_sim_stats *nsm_sim_get_stats(const nsm_sim *s) { return s ? &s->stats : NULL; }
const char *nsm_sim_error(const nsm_sim *s) { return s ? s->err : "no simulation"; }

double nsm_sim_kinetic_energy(nsm_sim *s, int j)
{
    if (!s || j < 0 || j >= s->nd || !s->d[j].lagrangian) return NAN;
    const nsm_ds *ds = s->model->ds[j];
    nsm_dsdata *d = &s->d[j];
    int n = d->n;
    const double *M = ds->M;
    if (nsm_ds_kind_of(ds)->sparse) {   /* ½ vᵀ M v with the sparse M */
        ns_matrix_gemv(1.0, ds->Ms, d->v, 0.0, d->w2);
        double e = 0.0;
        for (int i = 0; i < n; i++) e += d->v[i] * d->w2[i];
        return 0.5 * e;
    }
    if (!nsm_ds_kind_of(ds)->constant) {
        memset(d->J2, 0, (size_t)n * n * sizeof(double));
        if (nsm_ds_kind_of(ds)->mass(ds, d->q, d->J2) != 0) return NAN;
        M = d->J2;
    }
    double e = 0.0;
    for (int c = 0; c < n; c++)
        for (int i = 0; i < n; i++) e += d->v[i] * M[i + (size_t)c * n] * d->v[c];
    return 0.5 * e;
}

const char *nsm_sim_factor_name(const nsm_sim *s, int j)
{
    if (!s || j < 0 || j >= s->nd || !s->d[j].F_W) return NULL;
    return ns_factor_method_name(ns_factor_get_method(s->d[j].F_W));
}
