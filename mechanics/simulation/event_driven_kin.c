/* event_driven_kin.c — kinematics and the two LCPs of the event-driven
 * scheme (docs/mechanics.md, "Event-driven scheme").
 *
 *   y[0] = h(Q, t),  y[1] = ∇h Q̇ + ∂h/∂t,
 *   γ = d/dt y[1] at q̈ = 0 = (∂y[1]/∂Q) Q̇ + ∂y[1]/∂t  (0 for linear relations;
 *       a central difference along (Q̇, 1), or along Q̇ plus the exact
 *       ∂²h/∂t² when the relation has one)
 *   acceleration LCP over I2:  y[2] = W λ[2] + ∇h a_free + γ,
 *       0 ≤ y[2] ⊥ λ[2] ≥ 0,   W = ∇h M⁻¹ ∇hᵀ,  q̈ = a_free + M⁻¹ ∇hᵀ λ[2]
 *   impact LCP over I1:  y[1]⁺ + e y[1]⁻ = W λ[1] + (1 + e) y[1]⁻,
 *       0 ≤ y[1]⁺ + e y[1]⁻ ⊥ λ[1] ≥ 0,   v⁺ = v⁻ + M⁻¹ ∇hᵀ λ[1].
 * Contract: event_driven_internal.h. */
#include "simulation/event_driven_internal.h"
#include "ds/ds_kind.h"
#include "relation/relation_kind.h"
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nsm_ed_log(nsm_ed *s, int level, const char *fmt, ...)
{
    if (!s->o.log) return;
    char msg[NS_ERRMSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    s->o.log(s->o.log_user, level, msg);
}

/* Q, V of interaction i gathered from x (Q moved by delta·dq when dq). */
static void gather(nsm_ed *s, int i, const double *x, const double *dq, double delta)
{
    const nsm_interaction *I = &s->model->inter[i];
    nsm_ed_inter *in = &s->in[i];
    for (int j = 0; j < s->nd; j++) {
        s->vq[j] = x + s->qoff[j];
        s->vv[j] = x + s->ntot + s->qoff[j];
    }
    nsm_inter_gather(s->model, I, s->vq, in->Q);
    nsm_inter_gather(s->model, I, s->vv, in->V);
    if (dq) for (int c = 0; c < in->ncols; c++) in->Q[c] += delta * dq[c];
}

/* y0 (m), y1 = ∇h V + ∂h/∂t (m, if non-NULL) and H at (t, in->Q, in->V),
 * through the relation's table (the layer time-stepping uses too). */
static int eval(nsm_ed *s, int i, double t, double *y0, double *y1, double *H)
{
    const nsm_relation *r = s->model->inter[i].rel;
    nsm_ed_inter *in = &s->in[i];
    ns_status st = nsm_relation_eval(r, i, t, in->Q, y1 ? in->V : NULL, NULL, y0, y1, H,
                                     in->work + 3 * in->m, s->err);
    return st == NS_OK ? 0 : (st == NS_DIVERGED ? -1 : 1);
}

int nsm_ed_kinematics(nsm_ed *s, double t, const double *x, int level)
{
    const nsm_model *m = s->model;
    for (int i = 0; i < s->ninter_slots; i++) {
        nsm_ed_inter *in = &s->in[i];
        if (in->m == 0) continue;
        const nsm_relation *r = m->inter[i].rel;
        const nsm_relation_kind *k = nsm_relation_kind_of(r);
        int mm = in->m, nc = in->ncols;
        gather(s, i, x, NULL, 0.0);
        int rc = eval(s, i, t, in->y0, level >= 1 ? in->y1 : NULL, in->H);
        if (rc != 0) {
            nsm_set_err(s->err, "relation of interaction %d failed (%d) at t = %.17g: %s", i, rc, t, s->err);
            return rc;
        }
        if (level < 2) continue;
        if (k->linear) {
            for (int a = 0; a < mm; a++) s->gamma[in->first_row + a] = 0.0;
            continue;
        }
        /* γ by central differences of y[1] along (V, 1) or (V, 0) + ∂²h/∂t² */
        double vn = 1.0;
        for (int c = 0; c < nc; c++) vn = fmax(vn, fabs(in->V[c]));
        double delta = cbrt(DBL_EPSILON) / vn;
        int exact_tt = k->dhdt && r->d2hdt2;
        double dt = (k->dhdt && !exact_tt) ? delta : 0.0;
        double *yp = in->work, *ym = in->work + mm, *y0t = in->work + 2 * mm;
        double *Hw = in->work + 4 * (size_t)mm + nc, *V0 = Hw + (size_t)mm * nc;   /* no allocation per RHS call */
        memcpy(V0, in->V, (size_t)nc * sizeof *V0);
        gather(s, i, x, V0, delta);
        rc = eval(s, i, t + dt, y0t, yp, Hw);
        gather(s, i, x, V0, -delta);
        if (rc == 0) rc = eval(s, i, t - dt, y0t, ym, Hw);
        gather(s, i, x, NULL, 0.0);
        for (int a = 0; rc == 0 && a < mm; a++) s->gamma[in->first_row + a] = (yp[a] - ym[a]) / (2 * delta);
        if (rc == 0 && exact_tt) {
            rc = r->d2hdt2(t, nc, in->Q, mm, yp, r->user);
            for (int a = 0; rc == 0 && a < mm; a++) s->gamma[in->first_row + a] += yp[a];
        }
        if (rc != 0) {
            nsm_set_err(s->err, "relation of interaction %d failed (%d) at t = %.17g", i, rc, t);
            return rc;
        }
    }
    return 0;
}

/* Solves M_j z = b in place with the factor of system j. */
static void mass_solve(nsm_ed *s, int j, double *b)
{
    ns_factor_solve(s->MF[j], b, 1, s->model->ds[j]->n);
}

/* Factorises M_j(q) through ns_factor (nonlinear systems at each call;
 * LTI once at creation): dense LU, or for a system with sparse matrices
 * its CSC M by CHOLMOD (UMFPACK when M is not symmetric). */
int nsm_ed_factor_mass(nsm_ed *s, int j, const double *q)
{
    const nsm_ds *ds = s->model->ds[j];
    ns_matrix *A = s->Mmat[j];
    ns_status st = NS_OK;
    if (A) st = nsm_ds_eval_lagrangian(ds, j, s->t, q, NULL, A->dense, NULL, NULL, NULL, NULL, s->err);
    else A = ds->Ms;   /* sparse kind: constant, CSC */
    if (st != NS_OK) return st == NS_DIVERGED ? -1 : 1;
    char e2[NS_ERRMSG_LEN] = "";
    st = s->MF[j] ? ns_factor_numeric(s->MF[j], A, e2)
                  : ns_factor_new(A, A->storage == NS_DENSE ? NS_FACTOR_DENSE_LU : NS_FACTOR_AUTO, &s->MF[j], e2);
    if (st != NS_OK) {
        nsm_set_err(s->err, "the mass matrix of system %d is singular (%s)", j, e2);
        return -1;
    }
    return 0;
}

/* force_j ← f_ext(t) − f_int − f_gyr (C v + K q for LTI) by the system's table. */
static int forces(nsm_ed *s, int j, double t, const double *q, const double *v, double *f)
{
    const nsm_ds *ds = s->model->ds[j];
    ns_status st = nsm_ds_eval_lagrangian(ds, j, t, q, v, NULL, f, NULL, NULL, s->dswork[j], s->err);
    return st == NS_OK ? 0 : (st == NS_DIVERGED ? -1 : 1);
}

/* MinvHt row r ← M⁻¹ ∇h_rᵀ over all of q (zeros outside the row's systems). */
static void minv_ht(nsm_ed *s, int r)
{
    const nsm_ed_crow *R = &s->rows[r];
    const nsm_interaction *I = &s->model->inter[R->inter];
    const nsm_ed_inter *in = &s->in[R->inter];
    double *out = s->MinvHt + (size_t)r * s->ntot;
    memset(out, 0, (size_t)s->ntot * sizeof *out);
    for (int k = 0; k < I->nds; k++) {
        int j = I->ds[k], n = s->model->ds[j]->n, off = I->off[k];
        double *b = out + s->qoff[j];
        for (int a = 0; a < n; a++) b[a] += in->H[R->comp + (size_t)(off + a) * in->m];
    }
    for (int k = 0; k < I->nds; k++) {
        int j = I->ds[k];
        if (k == 1 && j == I->ds[0]) break;
        mass_solve(s, j, out + s->qoff[j]);
    }
}

/* ∇h_r · u for a vector u over all q. */
static double h_dot(const nsm_ed *s, int r, const double *u)
{
    const nsm_ed_crow *R = &s->rows[r];
    const nsm_interaction *I = &s->model->inter[R->inter];
    const nsm_ed_inter *in = &s->in[R->inter];
    double acc = 0.0;
    for (int k = 0; k < I->nds; k++) {
        int j = I->ds[k], n = s->model->ds[j]->n, off = I->off[k];
        for (int a = 0; a < n; a++) acc += in->H[R->comp + (size_t)(off + a) * in->m] * u[s->qoff[j] + a];
    }
    return acc;
}

/* 0 ≤ z ⊥ w = W z + q ≥ 0 of size k (W, q, z, w in s). 0 ok, −1 failure. */
static int lcp(nsm_ed *s, int k, const char *what)
{
    if (k == 1) {
        if (s->qv[0] >= 0.0) { s->z[0] = 0.0; s->w[0] = s->qv[0]; return 0; }
        if (!(s->W[0] > 0.0)) return -1;
        s->z[0] = -s->qv[0] / s->W[0]; s->w[0] = 0.0;
        return 0;
    }
    /* one problem and solution per size k, kept for the next solves of
     * that size (a resting configuration keeps k through many
     * right-hand-side evaluations): no allocation per evaluation */
    if (!s->lcp_p || s->lcp_p->u.lcp->n != k) {
        ns_solution_free(s->lcp_sol); s->lcp_sol = NULL;
        ns_problem_free(s->lcp_p);
        ns_matrix *M = ns_matrix_dense_new(k, k);
        s->lcp_p = M ? ns_problem_from_lcp(ns_lcp_new(M, s->qv)) : NULL;
        s->lcp_sol = s->lcp_p ? ns_solution_new(s->lcp_p) : NULL;
        if (!s->lcp_sol) {
            ns_problem_free(s->lcp_p); s->lcp_p = NULL;
            nsm_set_err(s->err, "out of memory");
            return -1;
        }
    }
    ns_problem *p = s->lcp_p;
    ns_solution *sol = s->lcp_sol;
    memcpy(p->u.lcp->M->dense, s->W, (size_t)k * k * sizeof(double));
    memcpy(p->u.lcp->q, s->qv, (size_t)k * sizeof(double));
    for (int v = 0; v < sol->nvec; v++) memset(sol->vec[v], 0, (size_t)sol->len[v] * sizeof(double));
    ns_result res; ns_result_init(&res);
    int rc = -1;
    nsm_solve_settings cur = { s->solver_name, s->o.solver_options };
    nsm_retry R = { "event-driven", what, -1, s->t, s->o.solve_hook, s->o.solve_hook_user,
                    s->o.log, s->o.log_user, 0, 0, 0, 0, 0, 0.0, NSM_HOOK_STOP };
    ns_status st = sol ? nsm_solve_retry(p, &cur, sol, &res, &R, s->err) : NS_NO_MEMORY;
    s->stats.lcp_retries += R.retries;
    double *z = sol ? ns_solution_get(sol, "z") : NULL, *w = sol ? ns_solution_get(sol, "w") : NULL;
    int converged = z && w && st == NS_OK;
    int accept = converged;
    if (!accept && z && w && ns_status_is_outcome(st))
        accept = R.hooked ? R.action == NSM_HOOK_ACCEPT : s->o.accept_nonconverged != 0;
    if (accept) {
        if (!converged) s->stats.lcp_nonconverged++;
        memcpy(s->z, z, (size_t)k * sizeof(double));
        memcpy(s->w, w, (size_t)k * sizeof(double));
        rc = 0;
    } else if (!R.bad_hook) {
        s->lcp_status = st != NS_OK ? st : NS_NO_MEMORY;
        nsm_set_err(s->err, "t = %.17g: %s LCP (%d rows) not solved by '%s': %s, error %g (tol %g)%s%s%s", s->t,
                    what, k, cur.solver ? cur.solver : "default", ns_status_name(st), res.error,
                    cur.options.tol, res.message[0] ? " " : "", res.message,
                    s->o.solve_hook || !ns_status_is_outcome(st) ? ""
                                                                 : " (accept_nonconverged = 1 accepts it)");
    }
    ns_result_clear(&res);
    if (rc != 0) s->stats.lcp_failures++;
    return rc;
}

/* W (k×k) over the selected rows sel[0..k-1]: ∇h_a M⁻¹ ∇h_bᵀ. */
static void build_W(nsm_ed *s, int k)
{
    for (int b = 0; b < k; b++) minv_ht(s, s->sel[b]);
    for (int b = 0; b < k; b++)
        for (int a = 0; a < k; a++)
            s->W[a + (size_t)b * k] = h_dot(s, s->sel[a], s->MinvHt + (size_t)s->sel[b] * s->ntot);
}

int nsm_ed_accelerations(nsm_ed *s, double t, const double *x, double *acc)
{
    int rc;
    for (int j = 0; j < s->nd; j++) {
        int n = s->model->ds[j]->n;
        const double *q = x + s->qoff[j], *v = x + s->ntot + s->qoff[j];
        if (!s->mconst[j] && (rc = nsm_ed_factor_mass(s, j, q)) != 0) return rc;
        double *f = s->force + s->qoff[j];
        if ((rc = forces(s, j, t, q, v, f)) != 0) return rc;
        memcpy(acc + s->qoff[j], f, (size_t)n * sizeof *acc);
        mass_solve(s, j, acc + s->qoff[j]);
    }
    int k = 0;
    for (int r = 0; r < s->nrows; r++) if (s->in2[r]) s->sel[k++] = r;
    for (int r = 0; r < s->nrows; r++) s->lam2[r] = 0.0;
    if (k == 0) return 0;
    if ((rc = nsm_ed_kinematics(s, t, x, 2)) != 0) return rc;
    build_W(s, k);
    for (int a = 0; a < k; a++) s->qv[a] = h_dot(s, s->sel[a], acc) + s->gamma[s->sel[a]];
    if (lcp(s, k, "acceleration") != 0) {
        if (!s->err[0]) nsm_set_err(s->err, "acceleration LCP failed at t = %.17g", t);
        return 1;   /* recoverable: CVODE retries with a smaller step */
    }
    for (int b = 0; b < k; b++) {
        double l = s->z[b];
        s->lam2[s->sel[b]] = l;
        if (l == 0.0) continue;
        const double *u = s->MinvHt + (size_t)s->sel[b] * s->ntot;
        for (int a = 0; a < s->ntot; a++) acc[a] += u[a] * l;
    }
    for (int r = 0; r < s->nrows; r++) s->y2[r] = h_dot(s, r, acc) + s->gamma[r];
    for (int a = 0; a < k; a++) s->y2[s->sel[a]] = s->w[a];
    return 0;
}

int nsm_ed_impact(nsm_ed *s, int *nrest)
{
    int k = 0;
    *nrest = 0;
    for (int r = 0; r < s->nrows; r++) if (s->in1[r]) s->sel[k++] = r;
    for (int r = 0; r < s->nrows; r++) s->lam1[r] = 0.0;
    if (k == 0) return 0;
    build_W(s, k);
    for (int a = 0; a < k; a++) {
        int r = s->sel[a];
        double y1 = s->y1[r], e = s->rows[r].e;
        double hop = s->y2[r] < 0 ? (e * y1) * (e * y1) / (-2.0 * s->y2[r]) : INFINITY;
        if (!s->in2[r] && y1 < -s->o.vel_tol && (-y1 < s->o.rest_vel || hop < s->o.rest_gap)) { e = 0.0; (*nrest)++; }
        s->qv[a] = (1.0 + e) * y1;
    }
    if (lcp(s, k, "impact") != 0) {
        if (!s->err[0]) nsm_set_err(s->err, "impact LCP failed at t = %.17g", s->t);
        return -1;
    }
    double *v = s->x + s->ntot;
    for (int b = 0; b < k; b++) {
        double l = s->z[b];
        s->lam1[s->sel[b]] = l;
        if (l == 0.0) continue;
        const double *u = s->MinvHt + (size_t)s->sel[b] * s->ntot;
        for (int a = 0; a < s->ntot; a++) v[a] += u[a] * l;
    }
    return 0;
}

int nsm_ed_relative_accelerations(nsm_ed *s)
{
    int rc = nsm_ed_kinematics(s, s->t, s->x, 2);
    if (rc != 0) return rc;
    for (int r = 0; r < s->nrows; r++) if (!s->in2[r]) s->y2[r] = h_dot(s, r, s->acc) + s->gamma[r];
    return 0;
}

int nsm_ed_project_velocities(nsm_ed *s, const unsigned char *mark)
{
    int k = 0;
    for (int r = 0; r < s->nrows; r++) if (mark[r]) s->sel[k++] = r;
    if (k == 0) return 0;
    build_W(s, k);
    for (int a = 0; a < k; a++) s->z[a] = -s->y1[s->sel[a]];
    ns_matrix *Wm = ns_matrix_dense_new(k, k);
    if (!Wm) return -1;
    memcpy(Wm->dense, s->W, (size_t)k * k * sizeof(double));
    ns_factor *F = NULL;
    char e2[NS_ERRMSG_LEN] = "";
    int rc = ns_factor_new(Wm, NS_FACTOR_DENSE_LU, &F, e2) == NS_OK ? 0 : -1;
    if (rc == 0 && ns_factor_solve(F, s->z, 1, k) != NS_OK) rc = -1;
    if (rc == 0) {
        double *v = s->x + s->ntot;
        for (int b = 0; b < k; b++) {
            const double *u = s->MinvHt + (size_t)s->sel[b] * s->ntot;
            for (int a = 0; a < s->ntot; a++) v[a] += u[a] * s->z[b];
        }
    }
    ns_factor_free(F);
    ns_matrix_free(Wm);
    return rc;
}
