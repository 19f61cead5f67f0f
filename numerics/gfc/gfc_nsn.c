/* gfc_nsn.c — global semismooth Newton for GFC2D/GFC3D on (v, r) ∈ ℝⁿ⁺ᵐ:
 *     F(v, r) = [ M v − H r − q ;  Φ_AC(r, Hᵀ v + b) ] = 0,
 * Φ_AC the Alart–Curnier residual of fc3d_phi.c per contact, with
 * ρ_N,α = 1/w_α, ρ_T,α = 1/w_α, w_α = Σ_j H_{j,αN}² / M_jj (the normal
 * entry of H_αᵀ diag(M)⁻¹ H_α, a cheap estimate of W_αα,NN). Jacobian
 *     J = [ M        −H ]
 *         [ B Hᵀ      A ],   A = blockdiag ∂Φ/∂r, B = blockdiag ∂Φ/∂u,
 * assembled in CSC on a pattern built once (M's pattern, −H, the rows of
 * contact α in column j of BHᵀ whenever H_{j,α·} ≠ 0, the d×d blocks A_α),
 * factored by UMFPACK (symbolic analysis once, numeric every iteration).
 * Step δ = −J⁻¹F, non-monotone Armijo backtracking (Grippo–Lampariello–
 * Lucidi) on θ = ½‖F‖²: t = 1, ½, … until θ(x + tδ) ≤ max of the last 10
 * θ − 2σtθ(x), σ = 1e-4 (the monotone rule stalls with steps of 1e-12 on
 * spheres-in-a-box); a singular J or a failed
 * line search is retried with A + δI, δ = 1e-10·ρ-scale ×100 (up to 6
 * times). Stops when ns_gfc_error ≤ tol. The best iterate is returned.
 * Registered as "nsn-ac" for GFC3D/GFC2D. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "fc/fc3d_local.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const ns_gfc *p;
    const ns_matrix *Ms, *Hs, *Ht;
    ns_fc_contact *cs;
    double *u, *Phi, *Hr;
} gctx;

/* F ← F(v, r); returns ½‖F‖². u ← Hᵀ v + b. */
static double residual(const gctx *g, const double *v, const double *r, double *F, double *A)
{
    const ns_gfc *p = g->p;
    const int d = p->dim;
    const ns_int n = p->n, m = d * p->nc;
    ns_matrix_gemv(1.0, g->Ms, v, 0.0, F);
    for (ns_int i = 0; i < n; i++) F[i] -= p->q[i];
    if (m > 0) ns_matrix_gemv(-1.0, g->Hs, r, 1.0, F);
    if (m > 0) {
        memcpy(g->u, p->b, (size_t)m * sizeof(double));
        ns_matrix_gemv_t(1.0, g->Hs, v, 1.0, g->u);
    }
    for (ns_int a = 0; a < p->nc; a++) {
        double *Aa = A ? A + 2 * (size_t)a * d * d : NULL;
        ns_fc_phi_ac(&g->cs[a], r + (size_t)a * d, g->u + (size_t)a * d, F + n + (size_t)a * d,
                     Aa, Aa ? Aa + d * d : NULL);
    }
    double s = 0.0;
    for (ns_int i = 0; i < n + m; i++) s += F[i] * F[i];
    return 0.5 * s;
}

/* pattern (vals == NULL) or values of J */
static ns_int assemble(const gctx *g, ns_matrix *J, const double *AB, double reg)
{
    const ns_gfc *p = g->p;
    const int d = p->dim;
    const ns_int n = p->n, nc = p->nc;
    const ns_csc *M = &g->Ms->csc, *H = &g->Hs->csc, *T = &g->Ht->csc;
    ns_int *cp = J ? J->csc.p : NULL, *ci = J ? J->csc.i : NULL;
    double *cx = J ? J->csc.x : NULL;
    ns_int k = 0;
    for (ns_int j = 0; j < n; j++) {
        if (cp) cp[j] = k;
        for (ns_int t = M->p[j]; t < M->p[j + 1]; t++, k++)
            if (ci) { ci[k] = M->i[t]; cx[k] = M->x[t]; }
        for (ns_int t = T->p[j]; t < T->p[j + 1];) {
            ns_int a = T->i[t] / d;
            double h[3] = { 0, 0, 0 };
            for (; t < T->p[j + 1] && T->i[t] / d == a; t++) h[T->i[t] - a * d] = T->x[t];
            const double *B = AB ? AB + 2 * (size_t)a * d * d + d * d : NULL;
            for (int i = 0; i < d; i++, k++) {
                if (!ci) continue;
                double s = 0.0;
                for (int l = 0; l < d; l++) s += B[i + l * d] * h[l];
                ci[k] = n + a * d + i;
                cx[k] = s;
            }
        }
    }
    for (ns_int a = 0; a < nc; a++)
        for (int c = 0; c < d; c++) {
            ns_int j = a * d + c;
            if (cp) cp[n + j] = k;
            for (ns_int t = H->p[j]; t < H->p[j + 1]; t++, k++)
                if (ci) { ci[k] = H->i[t]; cx[k] = -H->x[t]; }
            const double *A = AB ? AB + 2 * (size_t)a * d * d : NULL;
            for (int i = 0; i < d; i++, k++)
                if (ci) { ci[k] = n + a * d + i; cx[k] = A[i + c * d] + (i == c ? reg : 0.0); }
        }
    if (cp) cp[n + d * nc] = k;
    return k;
}

ns_status ns_gfc_nsn_ac(const ns_gfc *p, double *v, double *u, double *r,
                        const ns_options *o, ns_result *res)
{
    const int d = p->dim;
    const ns_int n = p->n, nc = p->nc, m = d * nc, N = n + m;
    ns_status st = NS_MAX_ITER;
    ns_matrix *Ms = ns_matrix_to_sparse(p->M), *Hs = ns_matrix_to_sparse(p->H);
    ns_matrix *Ht = Hs ? ns_matrix_transpose(Hs) : NULL, *J = NULL;
    ns_factor *F = NULL;
    ns_fc_contact *cs = ns_malloc((size_t)nc + 1, sizeof *cs);
    double *work = ns_malloc(6 * (size_t)N + (size_t)m + 2 * (size_t)n + 1, sizeof(double));
    double *AB = ns_malloc(2 * (size_t)d * d * (size_t)nc + 1, sizeof(double));
    double *Wd = ns_malloc(9 * (size_t)nc + 1, sizeof(double));
    if (!Ms || !Hs || !Ht || !cs || !work || !AB || !Wd) { st = ns_fail(res->message, NS_NO_MEMORY, "gfc nsn-ac: out of memory"); goto done; }
    if (Ht->storage != NS_SPARSE) { st = ns_fail(res->message, NS_BAD_INPUT, "gfc nsn-ac: H not sparse"); goto done; }
    double *Fv = work, *dl = work + N, *xt = work + 2 * N, *Ft = work + 3 * N,
           *best = work + 4 * N, *x = work + 5 * N, *ut = work + 6 * N, *ew = ut + m,
           *diag = ew + n;
    (void)Ft;
    gctx g = { p, Ms, Hs, Ht, cs, ut, NULL, NULL };
    for (ns_int j = 0; j < n; j++) diag[j] = ns_matrix_get(Ms, j, j);
    double wmax = 0.0;
    for (ns_int a = 0; a < nc; a++) {
        double w = 0.0;
        for (ns_int t = Hs->csc.p[a * d]; t < Hs->csc.p[a * d + 1]; t++) {
            double mj = diag[Hs->csc.i[t]];
            w += Hs->csc.x[t] * Hs->csc.x[t] / (mj > 0 ? mj : 1.0);
        }
        if (!(w > 0)) w = 1.0;
        wmax = fmax(wmax, w);
        double *Wa = Wd + 9 * (size_t)a;
        memset(Wa, 0, 9 * sizeof(double));
        for (int i = 0; i < d; i++) Wa[i + i * d] = w;
        ns_fc_contact_init(&cs[a], d, Wa, p->q, p->mu[a] , 0.0, 0);
    }
    ns_int nnz = assemble(&g, NULL, NULL, 0.0);
    J = ns_matrix_sparse_new(N, N, nnz);
    if (!J) { st = ns_fail(res->message, NS_NO_MEMORY, "gfc nsn-ac: out of memory"); goto done; }
    memcpy(x, v, (size_t)n * sizeof(double));
    if (m) memcpy(x + n, r, (size_t)m * sizeof(double));
    double t0 = ns_now();
    double err = ns_gfc_error(p, v, r, u, ew), best_err = err;
    memcpy(best, x, (size_t)N * sizeof(double));
    res->error = err;
    if (err <= o->tol) { st = NS_CONVERGED; goto done; }
    double reg = 0.0, rscale = wmax > 0 ? 1.0 / wmax : 1.0;
    char ferr[NS_ERRMSG_LEN] = "";
    double hist[10];
    int nh = 0;
    for (int it = 1; it <= o->max_iter; it++) {
        res->iterations = it;
        double th = residual(&g, x, x + n, Fv, AB);
        hist[nh++ % 10] = th;
        double thmax = th; /* non-monotone reference: max of the last 10 */
        for (int i = 0; i < (nh < 10 ? nh : 10); i++) thmax = fmax(thmax, hist[i]);
        int ok = 0, singular = 0;
        double t = 1.0;
        for (int attempt = 0; attempt < 7 && !ok; attempt++) {
            if (attempt > 0) reg = reg > 0 ? reg * 100.0 : 1e-10 * rscale;
            assemble(&g, J, AB, reg);
            ns_status fs = F ? ns_factor_numeric(F, J, ferr) : ns_factor_new(J, NS_FACTOR_SPARSE_LU, &F, ferr);
            if (fs == NS_OK) {
                for (ns_int i = 0; i < N; i++) dl[i] = -Fv[i];
                fs = ns_factor_solve(F, dl, 1, N);
            }
            if (fs != NS_OK || !ns_all_finite(dl, (size_t)N)) { singular = 1; continue; }
            singular = 0;
            t = 1.0;
            for (int ls = 0; ls < 40; ls++, t *= 0.5) {
                for (ns_int i = 0; i < N; i++) xt[i] = x[i] + t * dl[i];
                double tht = residual(&g, xt, xt + n, Ft, NULL);
                if (tht <= thmax - 2e-4 * t * 2.0 * th) { ok = 1; break; }
            }
        }
        if (!ok) {
            if (singular) st = ns_fail(res->message, NS_SINGULAR, "gfc nsn-ac: Jacobian singular at iteration %d (%s)", it, ferr);
            else ns_fail(res->message, NS_MAX_ITER, "gfc nsn-ac: line search failed at iteration %d", it);
            break;
        }
        reg *= 0.01;
        if (reg < 1e-14 * rscale) reg = 0.0;
        memcpy(x, xt, (size_t)N * sizeof(double));
        err = ns_gfc_error(p, x, x + n, u, ew);
        if (err < best_err) { best_err = err; memcpy(best, x, (size_t)N * sizeof(double)); }
        ns_log(o, 2, "gfc nsn-ac iteration %d step %.3g error %.3e", it, t, err);
        int stop = ns_iteration(o, res, err);
        if (err <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(err)) { st = NS_DIVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (stop) { st = NS_INTERRUPTED; break; }
    }
    if (st != NS_CONVERGED && best_err < err) memcpy(x, best, (size_t)N * sizeof(double));
    memcpy(v, x, (size_t)n * sizeof(double));
    if (m) memcpy(r, x + n, (size_t)m * sizeof(double));
    res->error = ns_gfc_error(p, v, r, u, ew);
done:
    ns_factor_free(F);
    ns_matrix_free(J);
    ns_matrix_free(Ms);
    ns_matrix_free(Hs);
    ns_matrix_free(Ht);
    free(cs); free(work); free(AB); free(Wd);
    return st;
}
