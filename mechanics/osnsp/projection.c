/* projection.c — position projection after the velocity step:
 * Siconos' direct and combined projection schemes (V. Acary,
 * CMAME 256, 2013), written from their description.
 *
 * After the velocity step has given q_{k+1}, the position constraints of
 * the interactions of the step's problem are enforced by a sequence of
 * position-level problems, at most projection_max_iter of them:
 *   y = h(q_{k+1}) at the current positions, H = ∇h(q_{k+1});
 *   stop when every equality row has |y| ≤ projection_tol and every
 *   unilateral row −y ≤ projection_tol_unilateral (combined: |y|);
 *   else solve, for λ (one entry per projected row),
 *       A λ + y = w,  A = H Wp Hᵀ,
 *       equality rows w = 0; unilateral rows 0 ≤ w ⊥ λ ≥ 0 (direct) or
 *       w = 0 (combined: the contact is held on y = 0),
 *   an equality / LCP / MLCP (equality rows first), and move the positions
 *       q_j ← q_j ⊕ Wp_j Σ_α (H_α^j)ᵀ λ_α   (q + dq; a rigid body's
 *       quaternion moves by its rotation and is renormalised),
 *   Wp = I (Siconos' default, projection_metric 0) or the factorised
 *   iteration matrix W_j = (M + hθC + h²θ²K)⁻¹ (projection_metric 1: a
 *   mass-weighted, dimensionally consistent step).
 * Velocities are left as the velocity step gave them, and degrees of
 * freedom with a prescribed velocity are not moved (Wp's rows and columns
 * of those dofs are zero). Rows projected:
 * every row of an equality law; the activation rows (normal rows) of a
 * unilateral law on a Lagrangian relation. Relations with a D term
 * (compliant) and first-order interactions are not projected. λ of the
 * last projection solve is kept as λ[0] of each projected interaction.
 * The set is the step's problem (Siconos' index set 1) or, with
 * projection_all = 1, every live interaction (Siconos' level 0: a contact
 * that closed within the step without being foreseen is projected too)
 * (Siconos' lambda(0)); statistics: nsm_sim_stats.projection_*. */
#include "simulation/sim_internal.h"
#include "nslaw/nslaw_kind.h"
#include "relation/relation_kind.h"
#include "ds/ds_kind.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rows of interaction i taken by the projection: 0 (none), and *eq = 1
 * when they are equality rows of the position problem. */
static int projected_rows(const nsm_sim *s, int i, int *eq)
{
    const nsm_model *m = s->model;
    const nsm_interaction *I = &m->inter[i];
    const nsm_relation_kind *rk = nsm_relation_kind_of(I->rel);
    if (!rk->lagrangian || (rk->D && rk->D(I->rel))) return 0;
    const nsm_nslaw *L = m->laws[I->law];
    const nsm_nslaw_kind *lk = nsm_nslaw_kind_of(L);
    if (lk->rows == NSM_ROWS_EQUALITY) { *eq = 1; return L->size; }
    if (!lk->unilateral) return 0;
    *eq = s->o.projection == NSM_PROJECTION_COMBINED;
    return lk->activation_rows > 0 ? lk->activation_rows : L->size;
}

typedef struct prow { int inter, nrows, eq, start; } prow;

/* Prescribed-velocity dofs (nsm_ds_set_boundary_condition) follow their
 * imposed motion: the projection does not move them (rows of X, n × k). */
static void zero_bc(const nsm_ds *ds, double *X, int k, int n)
{
    for (int b = 0; b < ds->nbc; b++)
        for (int c = 0; c < k; c++) X[ds->bc_dof[b] + (size_t)c * n] = 0.0;
}

/* Largest violation (equality |y|, unilateral −y or |y|) over the set;
 * *run = 1 when some row is above its tolerance. */
static double violation(const nsm_sim *s, const prow *P, int np, int *run)
{
    double vmax = 0.0;
    *run = 0;
    for (int a = 0; a < np; a++) {
        const nsm_idata *d = &s->id[P[a].inter];
        const nsm_nslaw *L = s->model->laws[s->model->inter[P[a].inter].law];
        int bilateral = nsm_nslaw_kind_of(L)->rows == NSM_ROWS_EQUALITY;
        double tol = bilateral ? s->o.projection_tol : s->o.projection_tol_unilateral;
        for (int c = 0; c < P[a].nrows; c++) {
            double v = (bilateral || P[a].eq) ? fabs(d->y0[c]) : fmax(0.0, -d->y0[c]);
            if (v > vmax) vmax = v;
            if (v > tol) *run = 1;
        }
    }
    return vmax;
}

/* Above this many rows the position problem is assembled in CSC storage
 * (its nonzeros are the pairs of rows whose interactions share a system:
 * O(rows) for a contact network, where the dense matrix was O(rows²)
 * memory and its pivoting solve O(rows³)) and solved by projected
 * Gauss–Seidel sweeps from the last projection's multipliers; the outer
 * loop of projections makes up for an inexact sweep solve. */
enum { SPARSE_ROWS = 64 };

typedef struct pwork {
    double *acc;      /* (nr · maxm) column accumulators */
    int *mark;        /* (nr) last column block that touched a row, −1 */
    int *touched;     /* (nr) rows touched by the current column block */
    ns_int *ti;       /* CSC under construction: row indices, */
    double *tx;       /* values, */
    size_t cap, nnz;  /* room and fill */
} pwork;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Adds H_a^j Wp_j (H_b^j)ᵀ over the systems j that interactions a and b
 * share into column block b: dense (A ≠ NULL) or the accumulators of w. */
static void assemble_column(nsm_sim *s, const prow *P, int b, const int *pos, int nr, double *X,
                            ns_matrix *A, pwork *w, int *ntouched)
{
    nsm_model *m = s->model;
    const nsm_interaction *IB = &m->inter[P[b].inter];
    const nsm_idata *db = &s->id[P[b].inter];
    for (int kb = 0; kb < IB->nds; kb++) {
        int j = IB->ds[kb], n = s->d[j].n, offb = IB->off[kb], mb = P[b].nrows;
        for (int c = 0; c < mb; c++)
            for (int i = 0; i < n; i++) X[i + (size_t)c * n] = db->H[c + (size_t)(offb + i) * db->m];
        if (s->o.projection_metric == 1) ns_factor_solve(s->d[j].F_W, X, mb, n);
        zero_bc(m->ds[j], X, mb, n);
        const nsm_intlist *lj = &m->ds_inter[j];
        for (int t = 0; t < lj->n; t++) {
            int a = pos[lj->v[t]];
            if (a < 0) continue;
            const nsm_interaction *IA = &m->inter[P[a].inter];
            const nsm_idata *da = &s->id[P[a].inter];
            for (int ka = 0; ka < IA->nds; ka++) {
                if (IA->ds[ka] != j) continue;
                int offa = IA->off[ka];
                for (int r = 0; r < P[a].nrows; r++) {
                    int row = P[a].start + r;
                    if (w && w->mark[row] != b) {
                        w->mark[row] = b;
                        w->touched[(*ntouched)++] = row;
                        for (int c = 0; c < mb; c++) w->acc[row + (size_t)c * nr] = 0.0;
                    }
                    for (int c = 0; c < mb; c++) {
                        double acc = 0.0;
                        for (int i = 0; i < n; i++)
                            acc += da->H[r + (size_t)(offa + i) * da->m] * X[i + (size_t)c * n];
                        if (A) A->dense[row + (size_t)(P[b].start + c) * nr] += acc;
                        else w->acc[row + (size_t)c * nr] += acc;
                    }
                }
            }
        }
    }
}

/* The position problem's matrix A = Σ_j H^j Wp_j (H^j)ᵀ over the rows P:
 * dense for small sets and sets with equality rows (the MLCP and
 * equality solvers' storage), CSC otherwise above SPARSE_ROWS. */
static ns_matrix *assemble(nsm_sim *s, const prow *P, int np, int nr, const int *pos, double *X,
                           int maxm, int sparse)
{
    if (!sparse) {
        ns_matrix *A = ns_matrix_dense_new(nr, nr);
        if (!A) return NULL;
        for (int b = 0; b < np; b++) assemble_column(s, P, b, pos, nr, X, A, NULL, NULL);
        return A;
    }
    pwork w = { 0 };
    w.acc = malloc((size_t)nr * (size_t)maxm * sizeof *w.acc);
    w.mark = malloc((size_t)nr * sizeof *w.mark);
    w.touched = malloc((size_t)nr * sizeof *w.touched);
    ns_int *colp = malloc(((size_t)nr + 1) * sizeof *colp);
    w.cap = 16 * (size_t)nr;
    w.ti = malloc(w.cap * sizeof *w.ti);
    w.tx = malloc(w.cap * sizeof *w.tx);
    ns_matrix *A = NULL;
    if (!w.acc || !w.mark || !w.touched || !colp || !w.ti || !w.tx) goto done;
    for (int i = 0; i < nr; i++) w.mark[i] = -1;
    colp[0] = 0;
    for (int b = 0; b < np; b++) {
        int nt = 0;
        assemble_column(s, P, b, pos, nr, X, NULL, &w, &nt);
        qsort(w.touched, (size_t)nt, sizeof *w.touched, cmp_int);
        for (int c = 0; c < P[b].nrows; c++) {
            if (w.nnz + (size_t)nt > w.cap) {
                size_t cap = 2 * w.cap + (size_t)nt;
                ns_int *ti = realloc(w.ti, cap * sizeof *ti);
                if (ti) w.ti = ti;
                double *tx = ti ? realloc(w.tx, cap * sizeof *tx) : NULL;
                if (!ti || !tx) goto done;
                w.tx = tx;
                w.cap = cap;
            }
            for (int t = 0; t < nt; t++) {
                w.ti[w.nnz] = w.touched[t];
                w.tx[w.nnz] = w.acc[w.touched[t] + (size_t)c * nr];
                w.nnz++;
            }
            colp[P[b].start + c + 1] = (ns_int)w.nnz;
        }
    }
    A = ns_matrix_sparse_new(nr, nr, (ns_int)w.nnz);
    if (A) {
        memcpy(A->csc.p, colp, ((size_t)nr + 1) * sizeof *colp);
        memcpy(A->csc.i, w.ti, w.nnz * sizeof *w.ti);
        memcpy(A->csc.x, w.tx, w.nnz * sizeof *w.tx);
    }
done:
    free(w.acc); free(w.mark); free(w.touched); free(colp); free(w.ti); free(w.tx);
    return A;
}

/* The position problems of one step over the projected rows P (np
 * interactions, nr rows, the neq equality rows first); pos maps an
 * interaction to its index in P (−1: not projected). */
static ns_status iterate(nsm_sim *s, prow *P, int np, int nr, int neq, const int *pos)
{
    nsm_model *m = s->model;
    double t1 = nsm_sim_t_next(s);
    int maxn = 0;
    for (int j = 0; j < s->nd; j++) if (s->d[j].n > maxn) maxn = s->d[j].n;
    const int sparse = nr > SPARSE_ROWS && neq == 0;
    for (int it = 0; it < s->o.projection_max_iter; it++) {
        int run;
        s->stats.projection_violation = violation(s, P, np, &run);
        if (!run) break;
        s->stats.projection_iterations++;
        /* work: y (nr), column X (maxn · max m) */
        int maxm = 0;
        for (int a = 0; a < np; a++) if (P[a].nrows > maxm) maxm = P[a].nrows;
        if (nsm_sim_work(s, nr + maxn * maxm + 1) != NS_OK) return NS_NO_MEMORY;
        double *y = s->qvec, *X = y + nr;
        for (int a = 0; a < np; a++) {
            const nsm_idata *da = &s->id[P[a].inter];
            for (int c = 0; c < P[a].nrows; c++) y[P[a].start + c] = da->y0[c];
        }
        ns_matrix *A = assemble(s, P, np, nr, pos, X, maxm, sparse);
        if (!A) goto oom;
        ns_problem *pb;
        if (neq == nr) pb = ns_problem_from_equality(ns_equality_new(A, y));
        else if (neq == 0) pb = ns_problem_from_lcp(ns_lcp_new(A, y));
        else pb = ns_problem_from_mlcp(ns_mlcp_new(neq, nr - neq, A, y));
        if (!pb) goto oom;
        ns_solution *sol = ns_solution_new(pb);
        if (!sol) { ns_problem_free(pb); goto oom; }
        ns_options opt;
        ns_options_default(&opt);
        opt.tol = 1e-12;
        const char *solver = NULL;
        if (sparse) {
            /* sweeps, to the accuracy the tolerance needs (the outer loop
             * refines what they leave); the first problem of a step starts
             * from the multipliers of the last step's: a resting contact
             * network drifts by about the same amount every step */
            solver = "pgs";
            double ny = 0.0;
            for (int r = 0; r < nr; r++) ny += y[r] * y[r];
            ny = sqrt(ny);
            opt.tol = ny > 0 ? fmin(1e-4, fmax(1e-12, 0.1 * s->o.projection_tol_unilateral / ny)) : 1e-12;
            opt.max_iter = 1000;
            if (it == 0) {
                opt.warm_start = 1;
                for (int a = 0; a < np; a++) {
                    const nsm_idata *da = &s->id[P[a].inter];
                    for (int c = 0; c < P[a].nrows; c++) sol->vec[0][P[a].start + c] = da->lam0[c];
                }
            }
        }
        ns_result res;
        ns_result_init(&res);
        ns_status rs = ns_solve(pb, solver, &opt, sol, &res);
        if (!ns_status_is_outcome(rs)) {
            nsm_set_err(s->err, "t = %g: the position projection (%s) failed: %s (%s)", t1,
                        ns_kind_name(pb->kind), ns_status_name(rs), res.message);
            ns_result_clear(&res); ns_solution_free(sol); ns_problem_free(pb);
            return rs;
        }
        if (rs != NS_OK) s->stats.projection_nonconverged++;
        ns_result_clear(&res);
        /* λ per row, then q_j += Wp_j Σ (H^j)ᵀ λ */
        for (int a = 0; a < np; a++) {
            nsm_idata *da = &s->id[P[a].inter];
            for (int c = 0; c < P[a].nrows; c++) {
                int r = P[a].start + c;
                da->lam0[c] = (pb->kind == NS_KIND_MLCP && r >= neq) ? sol->vec[1][r - neq] : sol->vec[0][r];
            }
        }
        ns_solution_free(sol);
        ns_problem_free(pb);
        for (int a = 0; a < np; a++) {
            const nsm_interaction *IA = &m->inter[P[a].inter];
            const nsm_idata *da = &s->id[P[a].inter];
            for (int ka = 0; ka < IA->nds; ka++) {
                int j = IA->ds[ka], n = s->d[j].n, off = IA->off[ka];
                double *dq = X;
                for (int i = 0; i < n; i++) {
                    double acc = 0.0;
                    for (int c = 0; c < P[a].nrows; c++) acc += da->H[c + (size_t)(off + i) * da->m] * da->lam0[c];
                    dq[i] = acc;
                }
                if (s->o.projection_metric == 1) ns_factor_solve(s->d[j].F_W, dq, 1, n);
                zero_bc(m->ds[j], dq, 1, n);
                nsm_ds_advance(m->ds[j], s->d[j].q, dq, s->d[j].q);   /* q ⊕ dq */
            }
        }
        ns_status st = nsm_osnsp_refresh_outputs(s, 0, t1);
        if (st != NS_OK) return st;
    }
    int run;
    s->stats.projection_violation = violation(s, P, np, &run);
    if (s->stats.projection_violation > s->stats.projection_violation_max)
        s->stats.projection_violation_max = s->stats.projection_violation;
    return NS_OK;
oom:
    nsm_set_err(s->err, "out of memory in the position projection");
    return NS_NO_MEMORY;
}

ns_status nsm_projection_run(nsm_sim *s)
{
    nsm_model *m = s->model;
    /* the set: the step's problem (Siconos' index set 1), or with
     * projection_all every live interaction (index set 0) */
    int nset = s->o.projection_all ? m->ninter_slots : s->nact;
    if (nsm_grow((void **)&s->proj_rows, &s->cap_proj, nset + 1, sizeof(prow)) != 0) goto oom;
    prow *P = s->proj_rows;
    int np = 0, nr = 0, neq = 0;
    /* equality rows first, then the complementarity rows */
    for (int pass = 0; pass < 2; pass++)
        for (int a = 0; a < nset; a++) {
            int ia = s->o.projection_all ? a : s->act[a];
            if (s->o.projection_all && !nsm_sim_idata(s, ia)) continue;   /* dead slot */
            int eq = 0, k = projected_rows(s, ia, &eq);
            if (k == 0 || eq != (pass == 0)) continue;
            P[np].inter = ia; P[np].nrows = k; P[np].eq = eq; P[np].start = nr;
            np++; nr += k;
            if (eq) neq += k;
        }
    s->stats.projection_violation = 0.0;
    if (np == 0) return NS_OK;
    /* pos[interaction] = its index in P, −1 when not projected */
    int *pos = malloc((size_t)m->ninter_slots * sizeof *pos);
    if (!pos) goto oom;
    for (int i = 0; i < m->ninter_slots; i++) pos[i] = -1;
    for (int a = 0; a < np; a++) pos[P[a].inter] = a;
    /* λ[0] starts at 0, except where the sparse sweeps start from the last
     * step's multipliers (iterate) */
    if (nr <= SPARSE_ROWS || neq > 0)
        for (int a = 0; a < np; a++) memset(s->id[P[a].inter].lam0, 0, (size_t)P[a].nrows * sizeof(double));
    ns_status st = iterate(s, P, np, nr, neq, pos);
    free(pos);
    return st;
oom:
    nsm_set_err(s->err, "out of memory in the position projection");
    return NS_NO_MEMORY;
}
