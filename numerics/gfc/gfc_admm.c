/* gfc_admm.c — ADMM for GFC2D/GFC3D on (M, H) without forming
 * W = Hᵀ M⁻¹ H; registered as "admm". With De Saxcé's term s_α =
 * μ_α‖u_T,α‖ e_N held fixed, the law is the optimality condition of
 *     min ½ vᵀM v − qᵀv   s.t.  w = Hᵀ v + b + s ∈ K*,
 * whose multiplier is r ∈ K (M v = H r + q, K* ∋ w ⊥ r ∈ K). Splitting
 * w = z, z ∈ K*, with the multiplier r and penalty ρ:
 *     (M + ρ H Hᵀ) v = q + H (r̂ + ρ (ẑ − b − s))
 *     u = Hᵀ v + b,  w = u + s
 *     r = P_K(r̂ − ρ w),   z = w + (r − r̂)/ρ       (= P_K*(w − r̂/ρ), Moreau)
 *     s_α ← μ_α ‖u_T,α‖                          (inside the loop)
 * so only the Coulomb cone's projection (fc3d_cone.c) is needed.
 * Acceleration: Nesterov extrapolation of (z, r) into (ẑ, r̂), restarted
 * when the combined residual ρ‖z − ẑ‖² + ‖r − r̂‖²/ρ fails to drop by
 * η = 0.999 (Goldstein, O'Donoghue, Setzer, Baraniuk 2014).
 * Penalty: ρ0 = 1/mean_i Σ_j H_ji²/M_jj (the inverse of a cheap scale of
 * W's diagonal). Residual balancing in ratio form on the absolute
 * residuals, ρ ← ρ · sqrt(‖w − z‖ / (ρ‖z − ẑ‖)), looked at every 50
 * iterations and only when the error has not dropped below 0.7 × its
 * value at the previous look, applied when it moves ρ by a factor ≥ 5 (as
 * in fc3d_admm.c). So M + ρHHᵀ is refactored rarely: HHᵀ and M + ρHHᵀ are
 * formed by CHOLMOD (cholmod_aat, cholmod_add) and factored through
 * ns_factor (CHOLMOD Cholesky, analysis reused; UMFPACK when M is not
 * symmetric or the Cholesky breaks down). Every iteration the library's
 * ns_gfc_error is taken on (v, r), r ∈ K; the best iterate is returned
 * when not converged. Warm start: v and r as given (r projected on K),
 * z = P_K*(û(v)). */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "fc/fc3d_local.h"
#include "fc/fc3d_internal.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include "matrix/matrix_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cholmod.h>

typedef struct gsys {
    cholmod_common c;
    int started;
    cholmod_sparse *HHt;   /* H Hᵀ (n × n, both triangles) */
    ns_matrix *Ms, *Hs;    /* canonical CSC copies of M and H */
    ns_matrix *Ht;         /* Hᵀ (CSC), for H t as a gather on threads; or NULL */
    ns_matrix *S;          /* M + ρ H Hᵀ */
    ns_factor *F;
    ns_factor_method method;
    int refactors;
} gsys;

static cholmod_sparse view(const ns_matrix *A)
{
    cholmod_sparse V;
    memset(&V, 0, sizeof V);
    V.nrow = (size_t)A->rows;
    V.ncol = (size_t)A->cols;
    V.nzmax = (size_t)(A->csc.nnz > 0 ? A->csc.nnz : 1);
    V.p = A->csc.p;
    V.i = A->csc.i;
    V.x = A->csc.x;
    V.stype = 0;
    V.itype = CHOLMOD_INT;
    V.xtype = CHOLMOD_REAL;
    V.dtype = CHOLMOD_DOUBLE;
    V.sorted = 1;
    V.packed = 1;
    return V;
}

static void gsys_free(gsys *g)
{
    if (g->started) {
        cholmod_free_sparse(&g->HHt, &g->c);
        cholmod_finish(&g->c);
    }
    ns_matrix_free(g->Ms);
    ns_matrix_free(g->Hs);
    ns_matrix_free(g->Ht);
    ns_matrix_free(g->S);
    ns_factor_free(g->F);
}

/* S ← M + ρ H Hᵀ (CHOLMOD's add), then factored. */
static ns_status gsys_set(gsys *g, double rho, char *err)
{
    cholmod_sparse Mv = view(g->Ms);
    double one[2] = { 1.0, 0.0 }, rr[2] = { rho, 0.0 };
    cholmod_sparse *C = cholmod_add(&Mv, g->HHt, one, rr, 1, 1, &g->c);
    if (!C) return ns_fail(err, NS_NO_MEMORY, "M + rho H H' (CHOLMOD add) failed");
    const int *cp = C->p, *ci = C->i;
    const double *cx = C->x;
    ns_int n = (ns_int)C->ncol, nnz = cp[n];
    if (!g->S || g->S->csc.nnz != nnz) {
        ns_matrix_free(g->S);
        g->S = ns_matrix_sparse_new(n, n, nnz);
        if (!g->S) { cholmod_free_sparse(&C, &g->c); return ns_fail(err, NS_NO_MEMORY, "out of memory"); }
    }
    memcpy(g->S->csc.p, cp, ((size_t)n + 1) * sizeof(ns_int));
    memcpy(g->S->csc.i, ci, (size_t)nnz * sizeof(ns_int));
    memcpy(g->S->csc.x, cx, (size_t)nnz * sizeof(double));
    cholmod_free_sparse(&C, &g->c);
    g->refactors++;
    ns_status st = g->F ? ns_factor_numeric(g->F, g->S, err) : ns_factor_new(g->S, g->method, &g->F, err);
    if (st == NS_SINGULAR && g->method == NS_FACTOR_SPARSE_CHOL) {
        ns_factor_free(g->F);
        g->F = NULL;
        g->method = NS_FACTOR_SPARSE_LU;
        st = ns_factor_new(g->S, g->method, &g->F, err);
    }
    return st;
}

static ns_status gsys_init(gsys *g, const ns_gfc *p, char *err)
{
    memset(g, 0, sizeof *g);
    g->Ms = ns_matrix_to_sparse(p->M);
    g->Hs = ns_matrix_to_sparse(p->H);
    if (!g->Ms || !g->Hs) return ns_fail(err, NS_NO_MEMORY, "admm: out of memory");
    if (!cholmod_start(&g->c)) return ns_fail(err, NS_NO_MEMORY, "admm: cholmod_start failed");
    g->started = 1;
    g->c.print = 0;
    g->c.error_handler = NULL;
    cholmod_sparse Hv = view(g->Hs);
    g->HHt = cholmod_aat(&Hv, NULL, 0, 1, &g->c);
    if (!g->HHt) return ns_fail(err, NS_NO_MEMORY, "admm: H H' (CHOLMOD aat) failed");
    g->method = ns_matrix_is_symmetric(g->Ms, 1e-12) ? NS_FACTOR_SPARSE_CHOL : NS_FACTOR_SPARSE_LU;
    return NS_OK;
}

/* s_α ← μ_α ‖u_T,α‖ */
static void desaxce_term(const ns_gfc *p, const double *u, double *s)
{
    const int d = p->dim;
    for (ns_int a = 0; a < p->nc; a++) {
        const double *ua = u + (size_t)a * d;
        s[a] = p->mu[a] * (d == 3 ? hypot(ua[1], ua[2]) : fabs(ua[1]));
    }
}

/* P_K*(x) = x + P_K(−x) per contact (Moreau, K* polar to −K) */
static void project_dual(const ns_gfc *p, double *x)
{
    const int d = p->dim;
    for (ns_int a = 0; a < p->nc; a++) {
        double *xa = x + (size_t)a * d, y[3];
        for (int i = 0; i < d; i++) y[i] = -xa[i];
        ns_fc_project_cone(d, p->mu[a], y, NULL);
        for (int i = 0; i < d; i++) xa[i] += y[i];
    }
}

/* Threads (ns_options.threads > 1; the serial loops otherwise, without an
 * OpenMP region): the cone projections contact by contact, Hᵀv column by
 * column of H (a gather), and H t row by row of H, as a gather on Hᵀ made
 * once per solve. Each entry is summed in the same order as the serial
 * scatter's (v_i first, then the terms in column order: Hᵀ's row indices
 * are sorted), so the iterates are bit-identical for every thread count.
 * The factor solve is CHOLMOD's and stays serial. */

/* v += H t: the scatter over H's columns, or the gather over Hᵀ's */
static void h_times(const gsys *g, const double *t, double *v, int threads)
{
#ifdef _OPENMP
    if (threads > 1 && g->Ht) {
        const ns_csc *c = &g->Ht->csc;
#pragma omp parallel for schedule(static) num_threads(threads)
        for (ns_int i = 0; i < g->Ht->cols; i++) {
            double acc = v[i];
            for (ns_int k = c->p[i]; k < c->p[i + 1]; k++) acc += c->x[k] * t[c->i[k]];
            v[i] = acc;
        }
        return;
    }
#endif
    (void)threads;
    ns_matrix_gemv(1.0, g->Hs, t, 1.0, v);
}

enum { ADMM_CHECK_EVERY = 50 };
static const double ADMM_ETA = 0.999,       /* restart threshold */
                    ADMM_RHO_FACTOR = 5.0,  /* least change of rho applied */
                    ADMM_STALL = 0.7;       /* balancing only if err > 0.7 err_prev */

ns_status ns_gfc_admm(const ns_gfc *p, double *v, double *u, double *r,
                      const ns_options *o, ns_result *res)
{
    const int d = p->dim;
    const ns_int n = p->n, nc = p->nc;
    const size_t m = (size_t)d * (size_t)nc, nn = (size_t)n;
    gsys g;
    ns_status st = gsys_init(&g, p, res->message);
    double *work = NULL, *best_v = NULL;
    char ferr[NS_ERRMSG_LEN] = "";
    if (st) goto done;
#ifdef _OPENMP
    const int nt = ns_threads_for(o->threads, (double)ns_matrix_nvalues(g.Hs));
    if (o->threads > 1)
        ns_log(o, 2, "admm: %d thread(s) (H: %zu stored values)", nt, ns_matrix_nvalues(g.Hs));
    if (nt > 1 && !(g.Ht = ns_csc_transpose(g.Hs))) { st = ns_fail(res->message, NS_NO_MEMORY, "admm: out of memory"); goto done; }
#else
    const int nt = 0;
#endif
    work = ns_malloc(8 * m + 2 * nn + (size_t)nc + 1, sizeof(double));
    if (!work) { st = ns_fail(res->message, NS_NO_MEMORY, "admm: out of memory"); goto done; }
    double *z = work, *zh = work + m, *zk = work + 2 * m, *rh = work + 3 * m,
           *rk = work + 4 * m, *t = work + 5 * m, *w = work + 6 * m, *ue = work + 7 * m,
           *hw = work + 8 * m, *ew = hw + nn, *s = ew + nn;
    /* ρ0 = 1 / mean_i Σ_j H_ji² / M_jj */
    double wsum = 0.0;
    for (ns_int j = 0; j < (ns_int)m; j++)
        for (ns_int k = g.Hs->csc.p[j]; k < g.Hs->csc.p[j + 1]; k++) {
            double mj = ns_matrix_get(g.Ms, g.Hs->csc.i[k], g.Hs->csc.i[k]);
            wsum += g.Hs->csc.x[k] * g.Hs->csc.x[k] / (mj > 0 ? mj : 1.0);
        }
    double rho = m > 0 && wsum > 0 ? (double)m / wsum : 1.0;
    const double rho_min = rho * 1e-8, rho_max = rho * 1e8, t0 = ns_now();
    if ((st = gsys_set(&g, rho, ferr))) {
        st = ns_fail(res->message, st, "admm: M + rho H H' cannot be factored: %s", ferr);
        goto done;
    }
    if (m == 0) { /* no contact: M v = q */
        memcpy(v, p->q, nn * sizeof(double));
        if (ns_factor_solve(g.F, v, 1, n)) { st = ns_fail(res->message, NS_SINGULAR, "admm: solve with M failed"); goto done; }
        res->error = ns_gfc_error(p, v, r, u, ew);
        st = res->error <= o->tol ? NS_CONVERGED : NS_MAX_ITER;
        goto done;
    }
    /* start: r ∈ K, z = P_K*(û(v)) */
    ns_fc_project_cones(d, nc, p->mu, r, 0);
    memcpy(u, p->b, m * sizeof(double));
    ns_matrix_gemv_t(1.0, g.Hs, v, 1.0, u);
    desaxce_term(p, u, s);
    memcpy(z, u, m * sizeof(double));
    for (ns_int a = 0; a < nc; a++) z[(size_t)a * d] += s[a];
    project_dual(p, z);
    memcpy(zh, z, m * sizeof(double));
    memcpy(zk, z, m * sizeof(double));
    memcpy(rh, r, m * sizeof(double));
    memcpy(rk, r, m * sizeof(double));
    double err = ns_gfc_error(p, v, r, ue, ew), best_err = err, err_look = INFINITY;
    double tau = 1.0, c_prev = INFINITY;
    best_v = ns_malloc(nn + m + 1, sizeof(double));
    if (!best_v) { st = ns_fail(res->message, NS_NO_MEMORY, "admm: out of memory"); goto done; }
    double *best_r = best_v + nn;
    memcpy(best_v, v, nn * sizeof(double));
    memcpy(best_r, r, m * sizeof(double));
    st = err <= o->tol ? NS_CONVERGED : NS_MAX_ITER;
    for (int it = 1; st == NS_MAX_ITER && it <= o->max_iter; it++) {
        /* v-step from the (extrapolated) ẑ, r̂ */
        for (size_t i = 0; i < m; i++) t[i] = rh[i] + rho * (zh[i] - p->b[i]);
        for (ns_int a = 0; a < nc; a++) t[(size_t)a * d] -= rho * s[a];
        memcpy(v, p->q, nn * sizeof(double));
        h_times(&g, t, v, nt);
        if (ns_factor_solve(g.F, v, 1, n)) {
            st = ns_fail(res->message, NS_SINGULAR, "admm: solve with M + rho H H' failed at iteration %d", it);
            break;
        }
        memcpy(u, p->b, m * sizeof(double));
        ns_matrix_gemv_t_threads(1.0, g.Hs, v, 1.0, u, nt);
        /* w = u + s; r = P_K(r̂ − ρ w); z = w + (r − r̂)/ρ */
        memcpy(w, u, m * sizeof(double));
        for (ns_int a = 0; a < nc; a++) w[(size_t)a * d] += s[a];
        for (size_t i = 0; i < m; i++) r[i] = rh[i] - rho * w[i];
        ns_fc_project_cones(p->dim, p->nc, p->mu, r, nt);
        double pr = 0.0, cz = 0.0, cr = 0.0;
        for (size_t i = 0; i < m; i++) {
            z[i] = w[i] + (r[i] - rh[i]) / rho;
            pr += (w[i] - z[i]) * (w[i] - z[i]);
            cz += (z[i] - zh[i]) * (z[i] - zh[i]);
            cr += (r[i] - rh[i]) * (r[i] - rh[i]);
        }
        desaxce_term(p, u, s);
        err = ns_gfc_error(p, v, r, ue, ew);
        res->iterations = it;
        if (!isfinite(err)) { st = ns_fail(res->message, NS_DIVERGED, "admm: iterate not finite at iteration %d", it); break; }
        if (err < best_err) {
            best_err = err;
            memcpy(best_v, v, nn * sizeof(double));
            memcpy(best_r, r, m * sizeof(double));
        }
        ns_log(o, 2, "admm iteration %d rho %.3g error %.3e", it, rho, err);
        if (err <= o->tol) { st = NS_CONVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
        /* Nesterov extrapolation, restarted when the combined residual grows */
        double c = rho * cz + cr / rho;
        if (c < ADMM_ETA * c_prev) {
            double tn = 0.5 * (1.0 + sqrt(1.0 + 4.0 * tau * tau)), beta = (tau - 1.0) / tn;
            for (size_t i = 0; i < m; i++) {
                zh[i] = z[i] + beta * (z[i] - zk[i]);
                rh[i] = r[i] + beta * (r[i] - rk[i]);
            }
            tau = tn;
            c_prev = c;
        } else { /* restart from the previous iterate */
            tau = 1.0;
            c_prev /= ADMM_ETA;
            memcpy(zh, zk, m * sizeof(double));
            memcpy(rh, rk, m * sizeof(double));
        }
        memcpy(zk, z, m * sizeof(double));
        memcpy(rk, r, m * sizeof(double));
        if (it % ADMM_CHECK_EVERY == 0) {
            /* residual balancing when the error stalls */
            int stalled = !(err < ADMM_STALL * err_look);
            err_look = err;
            pr = sqrt(pr);
            double du = rho * sqrt(cz);
            if (stalled && pr > 0 && du > 0) {
                double nr = fmin(rho_max, fmax(rho_min, rho * sqrt(pr / du)));
                if (nr > ADMM_RHO_FACTOR * rho || nr * ADMM_RHO_FACTOR < rho) {
                    rho = nr;
                    memcpy(zh, z, m * sizeof(double));
                    memcpy(rh, r, m * sizeof(double));
                    tau = 1.0;
                    c_prev = INFINITY;
                    ns_status fs = gsys_set(&g, rho, ferr);
                    if (fs) {
                        st = ns_fail(res->message, fs, "admm: M + rho H H' cannot be factored: %s", ferr);
                        break;
                    }
                }
            }
        }
    }
    /* not converged: the best iterate (always after a failed solve, whose
     * v is not to be trusted) */
    if (st != NS_CONVERGED && (!ns_status_is_outcome(st) || best_err < err)) {
        memcpy(v, best_v, nn * sizeof(double));
        memcpy(r, best_r, m * sizeof(double));
        err = best_err;
    }
    res->error = ns_gfc_error(p, v, r, u, ew);
    ns_log(o, 1, "admm: %s after %d iterations, error %.3e, %d factorizations (%s), rho %.3g",
           ns_status_name(st), res->iterations, res->error, g.refactors,
           ns_factor_method_name(g.method), rho);
done:
    free(work);
    free(best_v);
    gsys_free(&g);
    return st;
}
