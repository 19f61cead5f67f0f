/* fc3d_nsn.c — global semismooth Newton for FC2D/FC3D on
 *     Φ(r) = (Φ_α(r_α, u_α))_α = 0,   u = W r + q,
 * Φ_α the ac, fb or nm residual of fc3d_phi.c. The generalized Jacobian
 *     J = blockdiag(A_α) + blockdiag(B_α) W
 * has W's block pattern; it is factored by UMFPACK (ns_factor SPARSE_LU),
 * symbolic analysis once, numeric factorization every iteration. Step
 * δ = −J⁻¹Φ, non-monotone Armijo backtracking (Grippo–Lampariello–Lucidi,
 * reference = max of the last 10 values of θ = ½‖Φ‖²; u moves linearly:
 * u + tWδ): θ(r + tδ) ≤ θ_ref − 2σtθ(r), σ = 1e-4.
 * A singular J, or a step the line search rejects, is retried with
 * J + δI, δ = 1e-10·max|W| raised ×100 up to 7 times and lowered again
 * after a success; if that fails too the solve ends with NS_SINGULAR or
 * NS_MAX_ITER and the best iterate. Registered as nsn-ac,
 * nsn-fb, nsn-nm. */
#include "fc3d/fc3d_internal.h"
#include "core/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double merit(const ns_fc *p, const ns_fc_contact *cs, ns_fc_phi_fn phi,
                    const double *r, const double *u, double *F)
{
    const int d = p->dim;
    double s = 0.0;
    for (ns_int a = 0; a < p->nc; a++) {
        phi(&cs[a], r + (size_t)a * d, u + (size_t)a * d, F + (size_t)a * d, NULL, NULL);
        for (int i = 0; i < d; i++) s += F[(size_t)a * d + i] * F[(size_t)a * d + i];
    }
    return 0.5 * s;
}

ns_status ns_fc_nsn_run(const ns_fc *p, double *r, double *u, const ns_options *o,
                        ns_fc_phi_fn phi, ns_result *res)
{
    const int d = p->dim;
    const ns_int nc = p->nc;
    const size_t m = (size_t)d * (size_t)nc;
    const ns_block *WB = &p->W->block;
    ns_status st = NS_MAX_ITER;
    ns_matrix *J = ns_matrix_copy(p->W), *Js = NULL;
    ns_factor *F = NULL;
    ns_fc_contact *cs = ns_malloc((size_t)nc + 1, sizeof *cs);
    double *work = ns_malloc(7 * m + 1, sizeof(double));
    double *AB = ns_malloc(2 * (size_t)d * d * (size_t)nc + 1, sizeof(double));
    if (!J || !cs || !work || !AB) { st = ns_fail(res->message, NS_NO_MEMORY, "nsn: out of memory"); goto done; }
    double *Phi = work, *dl = work + m, *Wd = work + 2 * m, *rt = work + 3 * m,
           *ut = work + 4 * m, *best = work + 5 * m, *Fw = work + 6 * m;
    double reg = 0.0, wscale = ns_matrix_norm_max(p->W);
    int singular = 0;
    char ferr[NS_ERRMSG_LEN] = "";
    for (ns_int a = 0; a < nc; a++)
        ns_fc_contact_init(&cs[a], d, WB->x + WB->value_ptr[WB->diag[a]],
                           p->q + (size_t)a * d, p->mu[a], 0.0, 0);
    double t0 = ns_now();
    double err = ns_fc_error(p, r, u, (ns_fc_norm)o->fc_norm), best_err = err;
    memcpy(best, r, m * sizeof(double));
    res->error = err;
    if (err <= o->tol) { st = NS_CONVERGED; goto done; }
    double hist[10];
    int nh = 0;
    for (int it = 1; it <= o->max_iter; it++) {
        res->iterations = it;
        double th = 0.0;
        for (ns_int a = 0; a < nc; a++) {
            double *A = AB + 2 * (size_t)a * d * d, *B = A + d * d;
            phi(&cs[a], r + (size_t)a * d, u + (size_t)a * d, Phi + (size_t)a * d, A, B);
        }
        for (size_t i = 0; i < m; i++) th += Phi[i] * Phi[i];
        th *= 0.5;
        hist[nh++ % 10] = th;
        double thmax = th; /* non-monotone reference: max of the last 10 */
        for (int i = 0; i < (nh < 10 ? nh : 10); i++) thmax = fmax(thmax, hist[i]);
        /* J_αβ = B_α W_αβ (+ A_α + δI on the diagonal); δ > 0 only after a
         * singular J or a failed line search (Levenberg–Marquardt retry). */
        int ok = 0;
        double t = 1.0;
        for (int attempt = 0; attempt < 8 && !ok; attempt++) {
            if (attempt > 0) reg = reg > 0 ? reg * 100.0 : 1e-10 * wscale;
            for (ns_int a = 0; a < nc; a++) {
                const double *A = AB + 2 * (size_t)a * d * d, *B = A + d * d;
                for (ns_int k = WB->row_ptr[a]; k < WB->row_ptr[a + 1]; k++) {
                    const double *Wk = WB->x + WB->value_ptr[k];
                    double *Jk = J->block.x + J->block.value_ptr[k];
                    int dg = k == WB->diag[a];
                    for (int i = 0; i < d; i++)
                        for (int j = 0; j < d; j++) {
                            double s = dg ? A[i + j * d] + (i == j ? reg : 0.0) : 0.0;
                            for (int l = 0; l < d; l++) s += B[i + l * d] * Wk[l + j * d];
                            Jk[i + j * d] = s;
                        }
                }
            }
            ns_matrix_free(Js);
            Js = ns_matrix_to_sparse(J);
            if (!Js) { st = ns_fail(res->message, NS_NO_MEMORY, "nsn: out of memory"); goto out; }
            ns_status fs = F ? ns_factor_numeric(F, Js, ferr)
                             : ns_factor_new(Js, NS_FACTOR_SPARSE_LU, &F, ferr);
            if (fs == NS_OK) {
                for (size_t i = 0; i < m; i++) dl[i] = -Phi[i];
                fs = ns_factor_solve(F, dl, 1, (ns_int)m);
            }
            if (fs != NS_OK || !ns_all_finite(dl, m)) { singular = 1; continue; }
            singular = 0;
            ns_matrix_gemv(1.0, p->W, dl, 0.0, Wd);
            t = 1.0;
            for (int ls = 0; ls < 40; ls++, t *= 0.5) {
                for (size_t i = 0; i < m; i++) { rt[i] = r[i] + t * dl[i]; ut[i] = u[i] + t * Wd[i]; }
                double tht = merit(p, cs, phi, rt, ut, Fw);
                if (tht <= thmax - 2e-4 * t * 2.0 * th) { ok = 1; break; }
            }
        }
        if (!ok) {
            if (singular)
                st = ns_fail(res->message, NS_SINGULAR, "nsn: Jacobian singular at iteration %d "
                             "even regularised (%s)", it, ferr);
            else
                ns_fail(res->message, NS_MAX_ITER, "nsn: line search failed at iteration %d", it);
            break;
        }
        reg *= 0.01;
        if (reg < 1e-14 * wscale) reg = 0.0;
        memcpy(r, rt, m * sizeof(double));
        err = ns_fc_error(p, r, u, (ns_fc_norm)o->fc_norm);
        if (err < best_err) { best_err = err; memcpy(best, r, m * sizeof(double)); }
        if (o->verbosity >= 2 && o->log) {
            char msg[96];
            snprintf(msg, sizeof msg, "nsn iteration %d step %.3g error %.3e", it, t, err);
            o->log(o->log_user, 2, msg);
        }
        if (err <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(err)) { st = NS_DIVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
    }
out:
    if (st != NS_CONVERGED && best_err < err) {
        memcpy(r, best, m * sizeof(double));
        err = ns_fc_error(p, r, u, (ns_fc_norm)o->fc_norm);
    }
    res->error = err;
done:
    ns_factor_free(F);
    ns_matrix_free(Js);
    ns_matrix_free(J);
    free(cs);
    free(work);
    free(AB);
    return st;
}

static ns_status nsn_with(const ns_fc *p, double *r, double *u, const ns_options *o,
                          ns_fc_phi_fn phi, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st == NS_OK) st = ns_fc_nsn_run(&view, r, u, o, phi, res);
    ns_matrix_free(owned);
    return st;
}

ns_status ns_fc3d_nsn_ac(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsn_with(p, r, u, o, ns_fc_phi_ac, res); }
ns_status ns_fc3d_nsn_fb(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsn_with(p, r, u, o, ns_fc_phi_fb, res); }
ns_status ns_fc3d_nsn_nm(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsn_with(p, r, u, o, ns_fc_phi_nm, res); }
