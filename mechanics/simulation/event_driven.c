/* event_driven.c — event-driven simulation: creation (checks that the model
 * is Lagrangian with Newton laws), the step (advance to the next event,
 * process it), the nonsmooth-event treatment (index sets, impact LCP,
 * acceleration LCP with the double-condition update), accessors.
 * Contract: include/nonsmooth/nsm_event_driven.h. */
#include "simulation/event_driven_internal.h"
#include "ds/ds_kind.h"
#include "nslaw/nslaw_kind.h"
#include "relation/relation_kind.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void nsm_ed_options_default(nsm_ed_options *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->method = NSM_ED_ADAMS;
    o->rtol = 1e-10;
    o->atol = 1e-12;
    o->max_steps = 100000;
    o->gap_tol = 1e-9;
    o->vel_tol = 1e-9;
    o->rest_vel = 1e-5;
    o->lambda_tol = 1e-10;
    o->acc_tol = 1e-10;
    o->history = 4096;
    ns_options_default(&o->solver_options);
    o->solver_options.tol = 1e-12;
}

void nsm_ed_options_siconos(nsm_ed_options *o)
{
    if (!o) return;
    /* Siconos' EventDriven::_TOL_ED = 1000 · DEFAULT_TOLERANCE = 10⁴ ε */
    const double tol = 1e4 * DBL_EPSILON;
    o->gap_tol = o->vel_tol = o->lambda_tol = o->acc_tol = tol;
    o->rest_vel = 0.0;            /* no accumulation rule */
    o->rest_gap = DBL_MIN;        /* (0 would mean the default, 100 atol) */
}


void nsm_ed_free(nsm_ed *s)
{
    if (!s) return;
    nsm_cvode_free(s->cv);
    nsm_events_free(&s->ev);
    ns_solution_free(s->lcp_sol);
    ns_problem_free(s->lcp_p);
    for (int i = 0; i < s->ninter_slots && s->in; i++) {
        free(s->in[i].H); free(s->in[i].Q); free(s->in[i].V); free(s->in[i].work);
    }
    free(s->in); free(s->rows);
    for (int j = 0; j < s->nd; j++) {
        if (s->Mmat) ns_matrix_free(s->Mmat[j]);
        if (s->MF) ns_factor_free(s->MF[j]);
        if (s->dswork) free(s->dswork[j]);
    }
    free(s->Mmat); free(s->MF); free(s->dswork); free(s->vq); free(s->vv);
    free(s->qoff); free(s->x); free(s->acc); free(s->qdd); free(s->force); free(s->mconst);
    free(s->y0); free(s->y1); free(s->y2); free(s->lam1); free(s->lam2); free(s->gamma);
    free(s->in1); free(s->in2); free(s->releasing); free(s->gshift); free(s->MinvHt);
    free(s->W); free(s->qv); free(s->z); free(s->w); free(s->sel); free(s->rootsfound);
    free(s->solver_name);
    free(s);
}

/* The model is one the scheme handles: Lagrangian systems, Newton laws on
 * Lagrangian relations. */
static int check_model(const nsm_model *m, char *err)
{
    if (m->nds == 0) { nsm_set_err(err, "nsm_ed_new: the model has no dynamical system"); return -1; }
    for (int j = 0; j < m->nds; j++) {
        const nsm_ds *ds = m->ds[j];
        if (ds->nbc) {
            nsm_set_err(err, "nsm_ed_new: system %d has prescribed velocities (boundary conditions); "
                        "the event-driven scheme does not handle them (use nsm_sim)", j);
            return -1;
        }
        if (!nsm_ds_is_lagrangian(ds)) {
            nsm_set_err(err, "nsm_ed_new: system %d is first order; the event-driven scheme handles "
                        "Lagrangian systems only (use the time-stepping scheme, nsm_sim)", j);
            return -1;
        }
        if (ds->nq != ds->n) {
            nsm_set_err(err, "nsm_ed_new: system %d is a rigid body (%d position coordinates, %d velocities); "
                        "the event-driven scheme handles q̇ = v systems only (use nsm_sim)", j, ds->nq, ds->n);
            return -1;
        }
    }
    for (int i = 0; i < m->ninter_slots; i++) {
        const nsm_interaction *I = &m->inter[i];
        if (!I->alive) continue;
        const nsm_nslaw *l = m->laws[I->law];
        /* by the law's table row, not its type: unilateral complementarity
         * rows, each with a Newton restitution (today: the Newton law) */
        const nsm_nslaw_kind *lk = nsm_nslaw_kind_of(l);
        if (lk->rows != NSM_ROWS_COMPLEMENTARITY || !lk->unilateral || lk->impact_rows != -1) {
            nsm_set_err(err, "nsm_ed_new: interaction %d has a %s law; the event-driven scheme handles "
                        "perfect unilateral constraints with Newton impact laws only (friction and "
                        "other laws: use the time-stepping scheme, nsm_sim)", i, lk->name);
            return -1;
        }
        if (nsm_relation_kind_of(I->rel)->D && nsm_relation_kind_of(I->rel)->D(I->rel)) {
            nsm_set_err(err, "nsm_ed_new: interaction %d has a compliant relation (D); the event-driven "
                        "scheme handles perfect constraints only", i);
            return -1;
        }
        if (!nsm_relation_kind_of(I->rel)->lagrangian) {
            nsm_set_err(err, "nsm_ed_new: interaction %d has a first-order relation", i);
            return -1;
        }
    }
    return 0;
}

#define ALLOC(p, n) do { (p) = calloc((size_t)(n) > 0 ? (size_t)(n) : 1, sizeof *(p)); if (!(p)) goto nomem; } while (0)

nsm_ed *nsm_ed_new(nsm_model *model, const nsm_ed_options *o, char *err)
{
    if (!model || !o) { nsm_set_err(err, "nsm_ed_new: NULL model or options"); return NULL; }
    char e2[NS_ERRMSG_LEN] = "";
    if (nsm_ed_options_validate(o, e2) != NS_OK) { nsm_set_err(err, "nsm_ed_new: %s", e2); return NULL; }
    if (check_model(model, err) != 0) return NULL;
    if (o->solver && !nsm_spec_applies(o->solver, NS_KIND_LCP)) {
        char sname[NS_SOLVER_NAME_LEN];
        ns_options scratch;
        ns_options_default(&scratch);
        if (ns_solver_spec_parse(o->solver, NS_KIND_LCP, sname, sizeof sname, &scratch, e2) == NS_BAD_INPUT)
            nsm_set_err(err, "nsm_ed_new: solver: %s", e2);
        else
            nsm_set_err(err, "nsm_ed_new: '%s' is not an LCP solver (the impact and acceleration problems are LCPs)", o->solver);
        return NULL;
    }

    nsm_ed *s = calloc(1, sizeof *s);
    if (!s) { nsm_set_err(err, "out of memory"); return NULL; }
    s->model = model;
    s->o = *o;
    if (s->o.output_step == 0) s->o.output_step = (o->T - o->t0) / 1000.0;
    if (s->o.history == 0) s->o.history = 4096;
    if (s->o.rest_gap <= 0) s->o.rest_gap = 100.0 * s->o.atol;
    const char *sv = o->solver ? o->solver : "lemke";
    s->solver_name = malloc(strlen(sv) + 1);
    if (!s->solver_name) goto nomem;
    strcpy(s->solver_name, sv);
    s->o.solver = s->solver_name;
    s->t = o->t0;
    s->nd = model->nds;
    ALLOC(s->qoff, s->nd); ALLOC(s->mconst, s->nd);
    ALLOC(s->Mmat, s->nd); ALLOC(s->MF, s->nd); ALLOC(s->dswork, s->nd);
    ALLOC(s->vq, s->nd); ALLOC(s->vv, s->nd);
    for (int j = 0; j < s->nd; j++) {
        int n = model->ds[j]->n;
        s->qoff[j] = s->ntot;
        s->ntot += n;
        const nsm_ds_kind *kd = nsm_ds_kind_of(model->ds[j]);
        s->mconst[j] = kd->constant;
        if (kd->sparse) {   /* M stays CSC (factorised from ds->Ms); forces need no n×n buffer */
            if (s->o.linear_solver == NSM_ED_LS_AUTO) s->o.linear_solver = NSM_ED_LS_KRYLOV;
            ALLOC(s->dswork[j], 3 * (size_t)n);
            continue;
        }
        s->Mmat[j] = ns_matrix_dense_new(n, n);
        if (!s->Mmat[j]) goto nomem;
        ALLOC(s->dswork[j], 3 * (size_t)n + 2 * (size_t)n * n);
    }
    if (s->o.linear_solver == NSM_ED_LS_AUTO) s->o.linear_solver = NSM_ED_LS_DENSE;   /* no sparse system */
    ALLOC(s->x, 2 * s->ntot); ALLOC(s->acc, s->ntot); ALLOC(s->qdd, s->ntot); ALLOC(s->force, s->ntot);
    for (int j = 0; j < s->nd; j++) {
        const nsm_ds *ds = model->ds[j];
        memcpy(s->x + s->qoff[j], ds->q0, (size_t)ds->n * sizeof(double));
        memcpy(s->x + s->ntot + s->qoff[j], ds->v0, (size_t)ds->n * sizeof(double));
        if (nsm_ds_check_mass(ds, j, err) != NS_OK) { nsm_ed_free(s); return NULL; }
        if (nsm_ed_factor_mass(s, j, ds->q0) != 0) { nsm_set_err(err, "nsm_ed_new: %s", s->err); nsm_ed_free(s); return NULL; }
    }
    /* contact rows: one per component of every live interaction */
    s->ninter_slots = model->ninter_slots;
    ALLOC(s->in, s->ninter_slots);
    for (int i = 0; i < s->ninter_slots; i++)
        if (model->inter[i].alive) s->nrows += model->inter[i].rel->m;
    int R = s->nrows;
    ALLOC(s->rows, R);
    ALLOC(s->y0, R); ALLOC(s->y1, R); ALLOC(s->y2, R); ALLOC(s->lam1, R); ALLOC(s->lam2, R);
    ALLOC(s->gamma, R); ALLOC(s->in1, R); ALLOC(s->in2, R); ALLOC(s->releasing, R); ALLOC(s->gshift, R);
    ALLOC(s->MinvHt, (size_t)R * s->ntot);
    ALLOC(s->W, (size_t)R * R); ALLOC(s->qv, R); ALLOC(s->z, R); ALLOC(s->w, R);
    ALLOC(s->sel, R); ALLOC(s->rootsfound, R);
    int r = 0;
    for (int i = 0; i < s->ninter_slots; i++) {
        const nsm_interaction *I = &model->inter[i];
        if (!I->alive) continue;
        nsm_ed_inter *in = &s->in[i];
        in->m = I->rel->m; in->ncols = I->rel->ncols; in->first_row = r;
        ALLOC(in->H, (size_t)in->m * in->ncols); ALLOC(in->Q, in->ncols); ALLOC(in->V, in->ncols);
        ALLOC(in->work, 4 * (size_t)in->m + 2 * (size_t)in->ncols + (size_t)in->m * in->ncols);
        in->y0 = s->y0 + r; in->y1 = s->y1 + r; in->y2 = s->y2 + r;
        in->lam1 = s->lam1 + r; in->lam2 = s->lam2 + r;
        double e = nsm_nslaw_restitution(model->laws[I->law]);
        for (int c = 0; c < in->m; c++, r++) { s->rows[r].inter = i; s->rows[r].comp = c; s->rows[r].e = e; }
    }
    if (nsm_events_init(&s->ev, o->t0, o->T, s->o.output_step, s->o.history) != 0) goto nomem;
    if (nsm_ed_kinematics(s, s->t, s->x, 1) != 0) { nsm_set_err(err, "nsm_ed_new: %s", s->err); nsm_ed_free(s); return NULL; }
    /* initial index sets: rows touching with zero relative velocity rest */
    for (r = 0; r < R; r++)
        if (s->y0[r] <= s->o.gap_tol && fabs(s->y1[r]) <= s->o.vel_tol) s->in1[r] = s->in2[r] = 1;
    if (nsm_ed_root_shifts(s) != 0) { nsm_set_err(err, "nsm_ed_new: %s", s->err); nsm_ed_free(s); return NULL; }
    /* λ[2], ÿ and q̈ of the contacts closed at t0, before any advance. A
     * failure here (an acceleration LCP the solver or a hook does not
     * solve, a force callback that fails) is not fatal: the run's first
     * right-hand side meets it again and reports it as it would without
     * this call; q̈, λ[2], ÿ then stay 0 until the first processed event. */
    if (nsm_ed_consistent_accelerations(s) != 0) {
        s->lcp_status = NS_OK;
        s->err[0] = '\0';
        memset(s->qdd, 0, (size_t)s->ntot * sizeof(double));
        for (r = 0; r < R; r++) s->lam2[r] = s->y2[r] = 0.0;
    }
    s->cv = nsm_cvode_new(s, err);
    if (!s->cv) { nsm_ed_free(s); return NULL; }
    return s;
nomem:
    nsm_set_err(err, "out of memory");
    nsm_ed_free(s);
    return NULL;
}

int nsm_ed_root_shifts(nsm_ed *s)
{
    int rc = nsm_ed_kinematics(s, s->t, s->x, 1);
    if (rc != 0) return rc;
    for (int r = 0; r < s->nrows; r++) {
        if (s->in2[r]) s->gshift[r] = 0.0;
        else if (s->y0[r] <= s->o.gap_tol && fabs(s->y1[r]) <= s->o.vel_tol) s->gshift[r] = -s->o.gap_tol;
        else s->gshift[r] = 0.0;
    }
    return 0;
}

/* q̈, λ[2] (rows of I2) and ÿ (all rows) at the current time and state,
 * with the index sets as they are; q̈ kept for nsm_ed_acceleration. */
int nsm_ed_consistent_accelerations(nsm_ed *s)
{
    int rc = nsm_ed_kinematics(s, s->t, s->x, 1);
    if (rc == 0) rc = nsm_ed_accelerations(s, s->t, s->x, s->acc);
    if (rc == 0) rc = nsm_ed_relative_accelerations(s);
    if (rc == 0) memcpy(s->qdd, s->acc, (size_t)s->ntot * sizeof(double));
    return rc;
}

/* A restart from a state given from outside (another scheme, or q, v
 * edited by the user): y, ẏ and the index sets from that state, CVODE
 * re-initialised. */
static int restart(nsm_ed *s)
{
    nsm_cvode_mark_reinit(s->cv);
    if (nsm_ed_kinematics(s, s->t, s->x, 1) != 0) return -1;
    for (int r = 0; r < s->nrows; r++) {
        s->in1[r] = s->y0[r] <= s->o.gap_tol && s->y1[r] <= s->o.vel_tol;
        s->in2[r] = s->in1[r] && fabs(s->y1[r]) <= s->o.vel_tol;
    }
    return nsm_ed_consistent_accelerations(s) == 0 ? 0 : -1;
}

ns_status nsm_ed_set_state_from_sim(nsm_ed *s, nsm_sim *sim)
{
    if (!s) return NS_BAD_INPUT;
    if (!sim || nsm_sim_model(sim) != s->model) {
        nsm_set_err(s->err, "set_state_from_sim: %s", sim ? "the simulation has another model" : "no simulation");
        return NS_BAD_INPUT;
    }
    for (int j = 0; j < s->nd; j++) {
        int n = s->model->ds[j]->n;
        memcpy(s->x + s->qoff[j], nsm_sim_q(sim, j), (size_t)n * sizeof(double));
        memcpy(s->x + s->ntot + s->qoff[j], nsm_sim_v(sim, j), (size_t)n * sizeof(double));
    }
    double t = nsm_sim_time(sim);
    if (!(t < s->o.T)) {
        nsm_set_err(s->err, "set_state_from_sim: the simulation's time %.17g is not before T = %.17g", t, s->o.T);
        return NS_BAD_INPUT;
    }
    s->t = t;
    /* skip the time events already behind */
    while (s->ev.k_td <= s->ev.n_td && s->ev.t0 + (double)s->ev.k_td * s->ev.dt <= t) s->ev.k_td++;
    return restart(s) == 0 ? NS_OK : NS_BAD_INPUT;   /* restart leaves its reason */
}

ns_status nsm_ed_copy_state_to_sim(const nsm_ed *s, nsm_sim *sim)
{
    if (!s || !sim || nsm_sim_model(sim) != s->model) return NS_BAD_INPUT;
    for (int j = 0; j < s->nd; j++) {
        int n = s->model->ds[j]->n;
        memcpy(nsm_sim_q(sim, j), s->x + s->qoff[j], (size_t)n * sizeof(double));
        memcpy(nsm_sim_v(sim, j), s->x + s->ntot + s->qoff[j], (size_t)n * sizeof(double));
    }
    return NS_OK;
}

void nsm_ed_reinit(nsm_ed *s) { if (s) (void)restart(s); }

/* ---- events manager ---- */
ns_status nsm_ed_add_event(nsm_ed *s, double t)
{
    if (!s) return NS_BAD_INPUT;
    if (!(t > s->t) || !(t <= s->o.T)) {
        nsm_set_err(s->err, "add_event: t = %.17g must be in (%.17g, %.17g]", t, s->t, s->o.T);
        return NS_BAD_INPUT;
    }
    nsm_event ev;
    memset(&ev, 0, sizeof ev);
    ev.t = t; ev.type = NSM_EVENT_USER; ev.inter = ev.comp = -1;
    return nsm_events_schedule(&s->ev, &ev) == 0 ? NS_OK : NS_NO_MEMORY;
}

int nsm_ed_has_next_event(const nsm_ed *s)
{
    if (!s) return 0;
    nsm_event ev;
    return nsm_events_peek(&s->ev, &ev);
}

double nsm_ed_starting_time(const nsm_ed *s) { return !s ? NAN : s->ev.have_current ? s->ev.current.t : s->o.t0; }

double nsm_ed_next_time(const nsm_ed *s)
{
    if (!s) return NAN;
    nsm_event ev;
    return nsm_events_peek(&s->ev, &ev) ? ev.t : INFINITY;
}

const nsm_event *nsm_ed_current_event(const nsm_ed *s) { return s && s->ev.have_current ? &s->ev.current : NULL; }
int nsm_ed_next_event(const nsm_ed *s, nsm_event *ev) { return s && ev ? nsm_events_peek(&s->ev, ev) : 0; }

int nsm_ed_past_events(const nsm_ed *s, nsm_event *out, int max)
{
    if (!s) return 0;
    long n = s->ev.npast < s->ev.cap_past ? s->ev.npast : s->ev.cap_past;
    long first = s->ev.npast - n;
    int k = 0;
    for (long i = first; out && i < s->ev.npast && k < max; i++) out[k++] = s->ev.past[i % s->ev.cap_past];
    return (int)n;
}

/* ---- stepping ---- */
int nsm_ed_advance_to_event(nsm_ed *s)
{
    if (!s) return -1;
    s->lcp_status = NS_OK;
    nsm_event next;
    if (!nsm_events_peek(&s->ev, &next)) { nsm_set_err(s->err, "no event left"); return -1; }
    s->stats.advances++;
    if (next.t <= s->t) return 0;        /* an event at the current time */
    int rc = nsm_cvode_advance(s->cv, next.t);
    if (rc < 0) return -1;
    if (rc == NSM_ED_ROOT_RETURN) {
        nsm_event ev;
        memset(&ev, 0, sizeof ev);
        ev.t = s->t; ev.type = NSM_EVENT_NONSMOOTH; ev.inter = ev.comp = -1;
        for (int r = 0; r < s->nrows; r++) {
            s->releasing[r] = 0;
            if (s->rootsfound[r] == 0) continue;
            if (s->in2[r]) s->releasing[r] = 1;
            if (ev.nroots++ == 0) {
                ev.inter = s->rows[r].inter; ev.comp = s->rows[r].comp;
                ev.direction = s->rootsfound[r];
                ev.root = s->in2[r] ? NSM_ROOT_RELEASE : NSM_ROOT_CLOSE;
            }
        }
        if (nsm_events_schedule(&s->ev, &ev) != 0) { nsm_set_err(s->err, "out of memory"); return -1; }
        return NSM_ED_ROOT_RETURN;
    }
    return 0;
}

/* Status of a failed kinematics evaluation: a callback's non-finite value
 * (or negative code) is NS_DIVERGED, as in time-stepping; a positive code
 * is NS_BAD_INPUT. */
static ns_status kin_status(int rc)
{
    return rc < 0 ? NS_DIVERGED : NS_BAD_INPUT;
}

/* The nonsmooth-event treatment at s->t (docs/mechanics.md). */
static ns_status nonsmooth(nsm_ed *s, nsm_event *ev)
{
    const nsm_ed_options *o = &s->o;
    int krc;
    if ((krc = nsm_ed_kinematics(s, s->t, s->x, 1)) != 0) return kin_status(krc);
    int named = -1;
    if (ev->inter >= 0) named = s->in[ev->inter].first_row + ev->comp;
    /* I1: in contact (gap closed, not separating) or already resting */
    int impacting = 0;
    for (int r = 0; r < s->nrows; r++) {
        if (s->in2[r]) { s->in1[r] = 1; continue; }
        s->in1[r] = s->y0[r] <= o->gap_tol && s->y1[r] <= o->vel_tol;
        if (s->in1[r] && s->y1[r] < -o->vel_tol) impacting++;
    }
    if (named >= 0) ev->y1_before = ev->y1_after = s->y1[named];
    if (impacting > 0) {
        int nrest = 0;
        /* y[2] before the impact (the free relative accelerations of the
         * impacting rows) for the hop test of nsm_ed_impact */
        if (nsm_ed_accelerations(s, s->t, s->x, s->acc) != 0) return NS_NO_SOLUTION;
        if (nsm_ed_relative_accelerations(s) != 0) return NS_BAD_INPUT;
        if (nsm_ed_impact(s, &nrest) != 0) return NS_NO_SOLUTION;
        s->stats.impacts++;
        s->stats.impact_rows += impacting;
        ev->impact = 1;
        if ((krc = nsm_ed_kinematics(s, s->t, s->x, 1)) != 0) return kin_status(krc);
        if (named >= 0) ev->y1_after = s->y1[named];
        if (nrest) nsm_ed_log(s, 2, "t = %.17g: %d contact(s) closing at rest (accumulation)", s->t, nrest);
    } else {
        for (int r = 0; r < s->nrows; r++) s->lam1[r] = 0.0;
    }
    /* I2: rows of I1 with zero relative velocity; others leave I1. A row
     * touching (y[0] ≤ gap_tol) and separating so slowly that its hop
     * y[1]²/(2|y[2]|) would stay below rest_gap (e.g. a bead of a resting
     * column nudged by an impact below it) is closed at rest too, its
     * relative velocity projected to 0 (below the integrator's resolution,
     * such a hop would otherwise be invisible to the root finding). */
    if (nsm_ed_accelerations(s, s->t, s->x, s->acc) != 0) return NS_NO_SOLUTION;
    if (nsm_ed_relative_accelerations(s) != 0) return NS_BAD_INPUT;
    int nproj = 0;
    for (int r = 0; r < s->nrows; r++) {
        s->releasing[r] = 0;
        int slow = s->y0[r] <= o->gap_tol && s->y1[r] > 0 && s->y2[r] < 0 &&
                   s->y1[r] * s->y1[r] < 2.0 * -s->y2[r] * o->rest_gap;
        if (!s->in1[r] && !slow) { s->in2[r] = 0; continue; }
        if (fabs(s->y1[r]) <= o->vel_tol || slow) {
            s->in1[r] = 1;
            if (!s->in2[r]) { s->in2[r] = 1; ev->rested++; s->stats.rests++; }
            if (s->y1[r] != 0.0) { s->releasing[r] = 1; nproj++; }
        } else {
            s->in1[r] = s->in2[r] = 0;
        }
    }
    if (nproj > 0) {
        if (nsm_ed_project_velocities(s, s->releasing) == 0 && (krc = nsm_ed_kinematics(s, s->t, s->x, 1)) != 0)
            return kin_status(krc);
        for (int r = 0; r < s->nrows; r++) s->releasing[r] = 0;
    }
    /* acceleration LCP and the double condition */
    int any2 = 0;
    for (int r = 0; r < s->nrows; r++) any2 |= s->in2[r];
    if (any2) {
        int rc = nsm_ed_accelerations(s, s->t, s->x, s->acc);
        s->stats.accel_lcps++;
        if (rc != 0) return NS_NO_SOLUTION;
        for (int r = 0; r < s->nrows; r++) {
            if (!s->in2[r]) continue;
            /* no contact force: separating (y[2] > 0) or undetermined
             * (y[2] = 0, e.g. touching bodies in free fall): the row leaves
             * I2 and is watched by g = y[0] + gap_tol */
            int off = s->lam2[r] <= o->lambda_tol;
            if (off) {
                s->in2[r] = s->in1[r] = 0;
                ev->released++;
                s->stats.releases++;
            }
        }
    }
    for (int r = 0; r < s->nrows; r++) s->releasing[r] = 0;
    nsm_cvode_mark_reinit(s->cv);   /* index sets as just updated */
    /* q̈, λ[2], ÿ with the index sets as they leave the event */
    if ((krc = nsm_ed_consistent_accelerations(s)) != 0)
        return s->lcp_status != NS_OK ? s->lcp_status : krc > 0 ? NS_NO_SOLUTION : kin_status(krc);
    return NS_OK;
}

ns_status nsm_ed_process_events(nsm_ed *s)
{
    if (!s) return NS_BAD_INPUT;
    nsm_event ev;
    if (!nsm_events_pop(&s->ev, &ev)) { nsm_set_err(s->err, "no event to process"); return NS_BAD_INPUT; }
    s->stats.events[ev.type]++;
    if (ev.type == NSM_EVENT_NONSMOOTH) {
        ns_status st = nonsmooth(s, &ev);
        nsm_events_set_current(&s->ev, &ev);
        return st;
    }
    /* time / user event: outputs, q̈, λ[2] and ÿ at t (CVODE's last
     * right-hand side was evaluated at another time) */
    int krc;
    if ((krc = nsm_ed_kinematics(s, s->t, s->x, 1)) != 0) return kin_status(krc);
    if ((krc = nsm_ed_consistent_accelerations(s)) != 0)
        return s->lcp_status != NS_OK ? s->lcp_status : krc > 0 ? NS_NO_SOLUTION : kin_status(krc);
    return NS_OK;
}

ns_status nsm_ed_run(nsm_ed *s, nsm_ed_observer_fn obs, void *user)
{
    if (!s) return NS_BAD_INPUT;
    while (nsm_ed_has_next_event(s)) {
        if (nsm_ed_advance_to_event(s) < 0) {
            nsm_cvode_collect_stats(s->cv);
            /* an acceleration LCP the solver did not solve (CVODE gave up
             * after retrying smaller steps) says so, as time-stepping does;
             * any other failure of the integration is a divergence */
            return s->lcp_status != NS_OK ? s->lcp_status : NS_DIVERGED;
        }
        ns_status st = nsm_ed_process_events(s);
        if (st != NS_OK) return st;
        if (obs && obs(s, &s->ev.current, user) < 0) break;
    }
    nsm_cvode_collect_stats(s->cv);
    return NS_OK;
}

int nsm_ed_root_info(const nsm_ed *s, int *rows, int max)
{
    if (!s) return 0;
    for (int r = 0; rows && r < s->nrows && r < max; r++) rows[r] = s->rootsfound[r];
    return s->nrows;
}
int nsm_ed_nrows(const nsm_ed *s) { return s ? s->nrows : 0; }
void nsm_ed_row(const nsm_ed *s, int r, int *inter, int *comp)
{
    int ok = s && r >= 0 && r < s->nrows;
    if (inter) *inter = ok ? s->rows[r].inter : -1;
    if (comp) *comp = ok ? s->rows[r].comp : -1;
}

/* ---- data ---- */
double nsm_ed_time(const nsm_ed *s) { return s ? s->t : NAN; }
double *nsm_ed_q(nsm_ed *s, int j) { return s && j >= 0 && j < s->nd ? s->x + s->qoff[j] : NULL; }
const double *nsm_ed_acceleration(const nsm_ed *s, int j) { return s && j >= 0 && j < s->nd ? s->qdd + s->qoff[j] : NULL; }
double *nsm_ed_v(nsm_ed *s, int j) { return s && j >= 0 && j < s->nd ? s->x + s->ntot + s->qoff[j] : NULL; }

static const nsm_ed_inter *inter_of(const nsm_ed *s, int i)
{
    return s && i >= 0 && i < s->ninter_slots && s->in[i].m > 0 ? &s->in[i] : NULL;
}

const double *nsm_ed_y(const nsm_ed *s, int i, int level)
{
    const nsm_ed_inter *in = inter_of(s, i);
    if (!in) return NULL;
    return level == 0 ? in->y0 : level == 1 ? in->y1 : level == 2 ? in->y2 : NULL;
}

const double *nsm_ed_lambda(const nsm_ed *s, int i, int level)
{
    const nsm_ed_inter *in = inter_of(s, i);
    if (!in) return NULL;
    return level == 1 ? in->lam1 : level == 2 ? in->lam2 : NULL;
}

int nsm_ed_index_set(const nsm_ed *s, int level, int *ids, int max)
{
    if (!s) return 0;
    int count = 0;
    for (int i = 0; i < s->ninter_slots; i++) {
        const nsm_ed_inter *in = inter_of(s, i);
        if (!in) continue;
        int member = level == 0;
        for (int c = 0; c < in->m && !member && level > 0 && level <= 2; c++)
            member = level == 1 ? s->in1[in->first_row + c] : s->in2[in->first_row + c];
        if (!member) continue;
        if (ids && count < max) ids[count] = i;
        count++;
    }
    return count;
}

const nsm_ed_stats *nsm_ed_get_stats(const nsm_ed *s) { return s ? &s->stats : NULL; }
const char *nsm_ed_error(const nsm_ed *s) { return s ? s->err : "no simulation"; }
