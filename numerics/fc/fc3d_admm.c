/* fc3d_admm.c — ADMM for FC2D/FC3D (local problem W, q, μ), registered as
 * "admm". With De Saxcé's term s_α = μ_α‖u_T,α‖ e_N held fixed, the law is
 * the optimality condition of the second-order-cone program
 *     min ½ rᵀW r + (q + s)ᵀ r   s.t.  r ∈ K,
 * split as r = z, z ∈ K (scaled dual ξ, penalty ρ):
 *     (W + ρI) x = −(q + s) + ρ (ẑ − ξ̂)
 *     z = P_K(x + ξ̂)                         (per contact, fc3d_cone.c)
 *     ξ = ξ̂ + x − z
 * At a fixed point −ρξ = û = W z + q + s and û ∈ K* ⊥ z ∈ K: the Coulomb
 * law. De Saxcé's term is updated inside the loop from the multiplier,
 * s_α = μ_α ρ‖ξ_T,α‖ (= μ_α‖u_T,α‖ at a fixed point): the multiplier is an
 * accumulated quantity and moves smoothly, where u = W z + q jumps with
 * z; taken from u, the fixed point on s diverges for the smaller penalties
 * that converge fastest.
 * Acceleration: Nesterov extrapolation of (z, ξ) into (ẑ, ξ̂) with restart
 * when the combined residual ‖z − ẑ‖² + ‖ξ − ξ̂‖² fails to drop by η = 0.999
 * (Goldstein, O'Donoghue, Setzer, Baraniuk, "Fast alternating direction
 * optimization methods", 2014); without it, ẑ = z, ξ̂ = ξ.
 * Penalty: ρ0 = 0.1 × mean of W's diagonal. Residual balancing (He–Yang–
 * Wang; Boyd et al. §3.4.1) in ratio form,
 *     ρ ← ρ · sqrt(‖x − z‖ / (ρ‖z − ẑ‖)),
 * on the absolute residuals — the primal one lives in the space of r, the
 * dual one in that of û, and the FC error weighs both alike — looked at
 * every 50 iterations, and only when the FC error has not dropped below
 * 0.7 × its value at the previous look (early residuals are transient and
 * a good ρ is best left alone), applied when it moves ρ by a factor ≥ 5
 * (acceleration restarted, ξ rescaled by ρ_old/ρ_new). A move is a trial:
 * unless the error goes below its value at the move within 500
 * iterations, without growing tenfold at a look meanwhile, the iterate and
 * ρ of the move come back, and the next move in that direction is limited
 * to the square root of the failed factor. On hyperstatic W (many contacts
 * per body) the residuals ask for a smaller ρ where the error then grows
 * 10–20× and stays up for thousands of iterations. So W + ρI is
 * refactored rarely: CHOLMOD on its CSC (analysis done once, the diagonal
 * updated in place) or LAPACKE Cholesky when W is small and dense. A
 * non-symmetric W is split into its symmetric part, factored, and its
 * antisymmetric part, applied to the last iterate on the right-hand side
 * (see struct shifted); LU (UMFPACK / LAPACKE) on W itself only when the
 * symmetric part + ρI is not positive definite. The FC error (ns_fc_vi_error, from the u already computed) is
 * taken every iteration on z ∈ K and confirmed by ns_fc_error before
 * converging; the best iterate is returned otherwise. Warm start: z = r,
 * ξ = −û(z)/ρ, so that a solution is a fixed point. */
#include "fc/fc3d_internal.h"
#include "fc/fc3d_vi.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include "matrix/matrix_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* W + ρI behind ns_factor. A non-symmetric W is split W = Ws + Wa
 * (symmetric, antisymmetric parts): A holds Ws, factored by Cholesky, and
 * the x-step takes Wa at the last iterate z to the right-hand side,
 *     (Ws + ρI) x = −(q + s + Wa z) + ρ (ẑ − ξ̂),
 * exact at a fixed point (x = z), and UMFPACK's LU solve with its iterative
 * refinement (4× the cost of the triangular solves on RockPile_tob1) is
 * avoided. If Ws + ρI is not positive definite, A becomes W itself, LU. */
typedef struct shifted {
    const ns_matrix *W;    /* the problem's W (borrowed) */
    ns_matrix *A;          /* CSC or dense: W, or Ws when Wa is kept */
    ns_matrix *Wa;         /* antisymmetric part of W, or NULL */
    double *wdiag;         /* (m) A's diagonal */
    ns_int *dpos;          /* (m) index of each diagonal entry in A's values */
    int dense;
    ns_factor *F;
    ns_factor_method method;
    int refactors;
} shifted;

static void shifted_free(shifted *S)
{
    ns_matrix_free(S->A);
    ns_matrix_free(S->Wa);
    ns_factor_free(S->F);
    free(S->wdiag);
    free(S->dpos);
}

/* Ws = (A + Aᵀ)/2 into A, Wa = (A − Aᵀ)/2 returned (A canonical CSC, or
 * dense); NULL when out of memory. */
static ns_matrix *split_antisymmetric(ns_matrix *A)
{
    const ns_int m = A->rows;
    if (A->storage == NS_DENSE) {
        ns_matrix *Wa = ns_matrix_dense_new(m, m);
        if (!Wa) return NULL;
        double *a = A->dense, *w = Wa->dense;
        for (ns_int j = 0; j < m; j++)
            for (ns_int i = 0; i < j; i++) {
                double x = a[i + (size_t)j * m], y = a[j + (size_t)i * m];
                a[i + (size_t)j * m] = a[j + (size_t)i * m] = 0.5 * (x + y);
                w[i + (size_t)j * m] = 0.5 * (x - y);
                w[j + (size_t)i * m] = 0.5 * (y - x);
            }
        return Wa;
    }
    ns_matrix *T0 = ns_matrix_transpose(A), *T = T0 ? ns_matrix_to_sparse(T0) : NULL;
    ns_matrix_free(T0);
    if (!T) return NULL;
    const ns_csc *a = &A->csc, *t = &T->csc;
    ns_matrix *S = ns_matrix_sparse_new(m, m, a->nnz + t->nnz),
              *Wa = ns_matrix_sparse_new(m, m, a->nnz + t->nnz);
    if (!S || !Wa) { ns_matrix_free(T); ns_matrix_free(S); ns_matrix_free(Wa); return NULL; }
    ns_int k = 0;
    for (ns_int j = 0; j < m; j++) {
        S->csc.p[j] = Wa->csc.p[j] = k;
        ns_int p = a->p[j], q = t->p[j];
        while (p < a->p[j + 1] || q < t->p[j + 1]) {
            ns_int ia = p < a->p[j + 1] ? a->i[p] : m, it = q < t->p[j + 1] ? t->i[q] : m;
            ns_int i = ia < it ? ia : it;
            double x = ia == i ? a->x[p++] : 0.0, y = it == i ? t->x[q++] : 0.0;
            S->csc.i[k] = Wa->csc.i[k] = i;
            S->csc.x[k] = 0.5 * (x + y);
            Wa->csc.x[k] = 0.5 * (x - y);
            k++;
        }
    }
    S->csc.p[m] = Wa->csc.p[m] = k;
    S->csc.nnz = Wa->csc.nnz = k;
    ns_matrix_free(T);
    /* A takes S's arrays */
    ns_csc old = A->csc;
    A->csc = S->csc;
    S->csc = old;
    ns_matrix_free(S);
    return Wa;
}

/* positions of A's diagonal and the diagonal itself */
static ns_status shifted_diag(shifted *S, char *err)
{
    const ns_int m = S->A->rows;
    if (S->dense) {
        for (ns_int j = 0; j < m; j++) S->dpos[j] = j + j * m;
    } else {
        const ns_csc *C = &S->A->csc;
        for (ns_int j = 0; j < m; j++) {
            S->dpos[j] = -1;
            for (ns_int t = C->p[j]; t < C->p[j + 1]; t++)
                if (C->i[t] == j) { S->dpos[j] = t; break; }
            /* the diagonal blocks are stored (checked by ns_fc_blocked), so
             * every diagonal entry is, possibly as an explicit zero */
            if (S->dpos[j] < 0) return ns_fail(err, NS_BAD_INPUT, "admm: W has no diagonal entry in row %d", (int)j);
        }
    }
    double *x = ns_matrix_values(S->A);
    for (ns_int j = 0; j < m; j++) S->wdiag[j] = x[S->dpos[j]];
    return NS_OK;
}

static ns_status shifted_init(shifted *S, const ns_matrix *W, char *err)
{
    memset(S, 0, sizeof *S);
    S->W = W;
    const ns_int m = W->rows;
    size_t nnz = ns_matrix_nvalues(W);
    /* small and dense enough: LAPACKE; otherwise CHOLMOD/UMFPACK */
    S->dense = W->storage == NS_DENSE ? m <= 2000
             : (m <= 600 && (double)nnz >= 0.25 * (double)m * (double)m);
    S->A = S->dense ? ns_matrix_to_dense(W) : ns_matrix_to_sparse(W);
    S->wdiag = ns_malloc((size_t)m + 1, sizeof(double));
    S->dpos = ns_malloc((size_t)m + 1, sizeof(ns_int));
    if (!S->A || !S->wdiag || !S->dpos) return ns_fail(err, NS_NO_MEMORY, "admm: out of memory");
    if (!ns_matrix_is_symmetric(S->A, 1e-12)) {
        S->Wa = split_antisymmetric(S->A);
        if (!S->Wa) return ns_fail(err, NS_NO_MEMORY, "admm: out of memory");
    }
    S->method = S->dense ? NS_FACTOR_DENSE_CHOL : NS_FACTOR_SPARSE_CHOL;
    return shifted_diag(S, err);
}

/* Factors A + ρI; a Cholesky breakdown switches to LU on W itself (the
 * antisymmetric part dropped) for the rest of the solve. */
static ns_status shifted_set(shifted *S, double rho, char *err)
{
    double *x = ns_matrix_values(S->A);
    for (ns_int j = 0; j < S->A->rows; j++) x[S->dpos[j]] = S->wdiag[j] + rho;
    S->refactors++;
    ns_status st = S->F ? ns_factor_numeric(S->F, S->A, err) : ns_factor_new(S->A, S->method, &S->F, err);
    if (st == NS_SINGULAR && (S->method == NS_FACTOR_DENSE_CHOL || S->method == NS_FACTOR_SPARSE_CHOL)) {
        ns_factor_free(S->F);
        S->F = NULL;
        S->method = S->dense ? NS_FACTOR_DENSE_LU : NS_FACTOR_SPARSE_LU;
        if (S->Wa) { /* back to W itself */
            ns_matrix_free(S->Wa);
            S->Wa = NULL;
            ns_matrix_free(S->A);
            S->A = S->dense ? ns_matrix_to_dense(S->W) : ns_matrix_to_sparse(S->W);
            if (!S->A) return ns_fail(err, NS_NO_MEMORY, "admm: out of memory");
            if ((st = shifted_diag(S, err))) return st;
            x = ns_matrix_values(S->A);
            for (ns_int j = 0; j < S->A->rows; j++) x[S->dpos[j]] = S->wdiag[j] + rho;
        }
        st = ns_factor_new(S->A, S->method, &S->F, err);
    }
    return st;
}

static double norm2(const double *x, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}

/* s_α ← μ_α ‖y_T,α‖ · scale, one value per contact (y = u, scale 1: the
 * term from the velocity; y = ξ, scale ρ: from the multiplier −ρξ ≈ û) */
static void desaxce_term(const ns_fc *p, const double *y, double scale, double *s)
{
    const int d = p->dim;
    for (ns_int a = 0; a < p->nc; a++) {
        const double *ya = y + (size_t)a * d;
        s[a] = p->mu[a] * scale * (d == 3 ? hypot(ya[1], ya[2]) : fabs(ya[1]));
    }
}

/* The per-contact and row-by-row parts of an iteration on `threads`
 * OpenMP threads (threads ≤ 1, or no OpenMP: the serial loops, without an
 * OpenMP region). Every contact's value is computed by the same code
 * whatever the split, and the only reduction, the error's sum, is made
 * serially in contact order, so the iterates are bit-identical for every
 * thread count. The factor solve is CHOLMOD's and stays serial. */

/* u = W z + q (W in BLOCK storage: a gather, block row by block row) */
static void velocity(const ns_fc *p, const double *z, double *u, int threads)
{
    memcpy(u, p->q, (size_t)p->dim * (size_t)p->nc * sizeof(double));
    ns_matrix_gemv_threads(1.0, p->W, z, 1.0, u, threads);
}

/* ns_fc_vi_error, the contacts' squared errors in parallel into eb (nc
 * doubles) and summed in contact order */
static double vi_error(const ns_fc *p, const double *z, const double *u, double qn, ns_fc_norm nm,
                       int threads, double *eb)
{
#ifdef _OPENMP
    if (threads > 1) {
        const int d = p->dim;
#pragma omp parallel for schedule(static) num_threads(threads)
        for (ns_int a = 0; a < p->nc; a++)
            eb[a] = ns_fc_contact_error_sq(d, p->mu[a], z + (size_t)a * d, u + (size_t)a * d);
        double sum = 0.0;
        for (ns_int a = 0; a < p->nc; a++) sum += eb[a];
        return ns_fc_vi_error_scaled(p, z, u, sum, qn, nm);
    }
#endif
    (void)threads;
    (void)eb;
    return ns_fc_vi_error(p, z, u, qn, nm);
}

enum { ADMM_CHECK_EVERY = 50,
       ADMM_TRIAL = 500 };                  /* a move of rho must pay within this */
static const double ADMM_ETA = 0.999,       /* restart threshold */
                    ADMM_RHO_FACTOR = 5.0,  /* least change of rho applied */
                    ADMM_STALL = 0.7,       /* balancing only if err > 0.7 err_prev */
                    ADMM_RHO0 = 0.1,        /* rho0 = 0.1 mean diag W */
                    ADMM_JUMP = 10.0;       /* ... and not raise the error tenfold */

ns_status ns_fc3d_admm(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st) { ns_matrix_free(owned); return st; }
    const int d = p->dim;
    const size_t m = (size_t)d * (size_t)p->nc;
    if (m == 0) { ns_matrix_free(owned); res->error = 0.0; return NS_CONVERGED; }
    shifted S;
    st = shifted_init(&S, view.W, res->message);
    double *work = st ? NULL : ns_malloc(10 * m + 2 * (size_t)p->nc + 1, sizeof(double));
    if (!st && !work) st = ns_fail(res->message, NS_NO_MEMORY, "admm: out of memory");
    if (st) { shifted_free(&S); ns_matrix_free(owned); return st; }
    double *x = work, *z = work + m, *xi = work + 2 * m, *zh = work + 3 * m,
           *xih = work + 4 * m, *zk = work + 5 * m, *xik = work + 6 * m,
           *best = work + 7 * m, *trial_z = work + 8 * m, *trial_xi = work + 9 * m,
           *s = work + 10 * m, *eb = s + p->nc;
    const int nt = ns_threads_for(o->threads, (double)ns_matrix_nvalues(p->W));
    if (o->threads > 1)
        ns_log(o, 2, "admm: %d thread(s) (W: %zu stored values)", nt, ns_matrix_nvalues(p->W));
    const ns_fc_norm nm = (ns_fc_norm)o->fc_norm;
    const double qn = norm2(p->q, m), t0 = ns_now();
    /* ρ0: a tenth of the mean of W's diagonal (its mean eigenvalue) */
    double rho = 0.0;
    for (size_t i = 0; i < m; i++) rho += S.wdiag[i];
    rho = rho > 0 ? ADMM_RHO0 * rho / (double)m : 1.0;
    const double rho_min = rho * 1e-8, rho_max = rho * 1e8;
    char ferr[NS_ERRMSG_LEN] = "";
    if ((st = shifted_set(&S, rho, ferr))) {
        st = ns_fail(res->message, st, "admm: W + rho I cannot be factored: %s", ferr);
        goto done;
    }
    /* start: z = r (zero unless warm), ξ = −û(z)/ρ */
    memcpy(z, r, m * sizeof(double));
    ns_fc_project_cones(d, p->nc, p->mu, z, 0);
    ns_fc_vi_velocity(&view, z, u);
    desaxce_term(&view, u, 1.0, s);
    for (size_t i = 0; i < m; i++) xi[i] = -u[i] / rho;
    for (ns_int a = 0; a < p->nc; a++) xi[(size_t)a * d] -= s[a] / rho;
    memcpy(zh, z, m * sizeof(double));
    memcpy(zk, z, m * sizeof(double));
    memcpy(xih, xi, m * sizeof(double));
    memcpy(xik, xi, m * sizeof(double));
    double err = ns_fc_vi_error(&view, z, u, qn, nm), best_err = err;
    double tau = 1.0, c_prev = INFINITY;
    memcpy(best, z, m * sizeof(double));
    memcpy(r, z, m * sizeof(double));
    st = NS_MAX_ITER;
    if (err <= o->tol) st = ns_fc_vi_iteration_end(&view, r, u, o, t0, &err);
    double err_look = INFINITY; /* FC error at the previous look at rho */
    int trial_it = 0;
    double max_up = INFINITY, max_down = INFINITY; /* largest move factors allowed */
    double trial_err = INFINITY, trial_rho = rho;
    for (int it = 1; st == NS_MAX_ITER && it <= o->max_iter; it++) {
        /* x-step from the (extrapolated) ẑ, ξ̂ */
        for (size_t i = 0; i < m; i++) x[i] = -p->q[i] + rho * (zh[i] - xih[i]);
        for (ns_int a = 0; a < p->nc; a++) x[(size_t)a * d] -= s[a];
        if (S.Wa) ns_matrix_gemv(-1.0, S.Wa, zk, 1.0, x); /* antisymmetric part, lagged */
        if (ns_factor_solve(S.F, x, 1, (ns_int)m)) {
            st = ns_fail(res->message, NS_SINGULAR, "admm: solve with W + rho I failed at iteration %d", it);
            break;
        }
        for (size_t i = 0; i < m; i++) z[i] = x[i] + xih[i];
        ns_fc_project_cones(p->dim, p->nc, p->mu, z, nt);
        double pr = 0.0, du = 0.0, dxi = 0.0;
        for (size_t i = 0; i < m; i++) {
            xi[i] = xih[i] + x[i] - z[i];
            pr += (x[i] - z[i]) * (x[i] - z[i]);
            du += (z[i] - zh[i]) * (z[i] - zh[i]);
            dxi += (xi[i] - xih[i]) * (xi[i] - xih[i]);
        }
        desaxce_term(&view, xi, rho, s);
        velocity(&view, z, u, nt);
        err = vi_error(&view, z, u, qn, nm, nt, eb);
        res->iterations = it;
        if (!isfinite(err)) { st = ns_fail(res->message, NS_DIVERGED, "admm: iterate not finite at iteration %d", it); break; }
        if (err < best_err) { best_err = err; memcpy(best, z, m * sizeof(double)); }
        /* Nesterov extrapolation, restarted when the combined residual grows */
        double c = du + dxi;
        if (c < ADMM_ETA * c_prev) {
            double tn = 0.5 * (1.0 + sqrt(1.0 + 4.0 * tau * tau)), beta = (tau - 1.0) / tn;
            for (size_t i = 0; i < m; i++) {
                zh[i] = z[i] + beta * (z[i] - zk[i]);
                xih[i] = xi[i] + beta * (xi[i] - xik[i]);
            }
            tau = tn;
            c_prev = c;
        } else { /* restart from the previous iterate */
            tau = 1.0;
            c_prev /= ADMM_ETA;
            memcpy(zh, zk, m * sizeof(double));
            memcpy(xih, xik, m * sizeof(double));
        }
        memcpy(zk, z, m * sizeof(double));
        memcpy(xik, xi, m * sizeof(double));
        if (trial_it > 0 && err < trial_err) trial_it = 0; /* the move pays: kept */
        if (it % ADMM_CHECK_EVERY == 0) {
            int stalled = !(err < ADMM_STALL * err_look);
            err_look = err;
            pr = sqrt(pr);
            du = rho * sqrt(du);
            if (trial_it > 0 && (it - trial_it >= ADMM_TRIAL || err > ADMM_JUMP * trial_err)) {
                /* the move has not brought the error below its value when
                 * it was made (or made it grow tenfold): back to that
                 * iterate and penalty; a later move in that direction is
                 * at most the square root of this one's factor (none after
                 * a factor below 25, the least move being 5) */
                ns_log(o, 2, "admm iteration %d: rho %.3g reverted to %.3g (error %.3e, %.3e at the move)", it, rho, trial_rho, err, trial_err);
                if (rho < trial_rho) max_down = sqrt(trial_rho / rho);
                else max_up = sqrt(rho / trial_rho);
                rho = trial_rho;
                memcpy(z, trial_z, m * sizeof(double));
                memcpy(xi, trial_xi, m * sizeof(double));
                desaxce_term(&view, xi, rho, s);
                ns_fc_vi_velocity(&view, z, u);
                err = ns_fc_vi_error(&view, z, u, qn, nm);
                memcpy(zh, z, m * sizeof(double));
                memcpy(zk, z, m * sizeof(double));
                memcpy(xih, xi, m * sizeof(double));
                memcpy(xik, xi, m * sizeof(double));
                tau = 1.0;
                c_prev = INFINITY;
                trial_it = 0;
                err_look = INFINITY;
                if ((st = shifted_set(&S, rho, ferr))) {
                    st = ns_fail(res->message, st, "admm: W + rho I cannot be factored: %s", ferr);
                    break;
                }
            } else if (trial_it == 0 && stalled && pr > 0 && du > 0) {
                /* residual balancing when the error stalls */
                double nr = rho * sqrt(pr / du);
                nr = fmin(fmin(rho_max, rho * max_up), fmax(fmax(rho_min, rho / max_down), nr));
                if (nr >= ADMM_RHO_FACTOR * rho || nr * ADMM_RHO_FACTOR <= rho) {
                    ns_log(o, 2, "admm iteration %d: rho %.3g -> %.3g on trial (error %.3e)", it, rho, nr, err);
                    trial_it = it;
                    trial_err = err;
                    trial_rho = rho;
                    memcpy(trial_z, z, m * sizeof(double));
                    memcpy(trial_xi, xi, m * sizeof(double));
                    for (size_t i = 0; i < m; i++) xi[i] *= rho / nr;
                    memcpy(xih, xi, m * sizeof(double));
                    memcpy(xik, xi, m * sizeof(double));
                    memcpy(zh, z, m * sizeof(double));
                    tau = 1.0;
                    c_prev = INFINITY;
                    rho = nr;
                    if ((st = shifted_set(&S, rho, ferr))) {
                        st = ns_fail(res->message, st, "admm: W + rho I cannot be factored: %s", ferr);
                        break;
                    }
                }
            }
        }
        ns_log(o, 2, "admm iteration %d rho %.3g error %.3e", it, rho, err);
        memcpy(r, z, m * sizeof(double));
        st = ns_fc_vi_iteration_end(&view, r, u, o, t0, &err);
    }
    ns_fc_vi_keep_best(&view, st, best, best_err, r, u, &err);
    res->error = err;
    ns_log(o, 1, "admm: %s after %d iterations, error %.3e, %d factorizations (%s), rho %.3g",
           ns_status_name(st), res->iterations, err, S.refactors, ns_factor_method_name(S.method), rho);
done:
    free(work);
    shifted_free(&S);
    ns_matrix_free(owned);
    return st;
}
