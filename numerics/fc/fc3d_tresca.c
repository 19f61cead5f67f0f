/* fc3d_tresca.c — FC2D/FC3D as a sequence of Tresca problems (fixed point
 * on the friction thresholds):
 *     s_α^k = μ_α r_N,α^k,
 *     r^{k+1} solves  u = W r + q,  0 ≤ r_N ⊥ u_N ≥ 0,
 *                     ‖r_T‖ ≤ s_α,  −u_T ∈ N_{B(0, s_α)}(r_T)   (Tresca),
 * stopped when ns_fc_error(r^{k+1}) ≤ tol (a fixed point s = μ r_N of the
 * map is a Coulomb solution). Each Tresca problem is solved by NSGS over
 * the contacts, warm-started, until a sweep moves r by less than
 * max(0.01·e_k, 0.1·tol)·‖r‖ (e_k the current FC error) or 500 sweeps; the
 * one-contact Tresca problem by semismooth Newton on the Alart–Curnier
 * residual with the fixed radius s:
 *     Φ_N = r_N − max(0, r_N − ρ_N u_N),   Φ_T = r_T − P_B(0,s)(r_T − ρ_T u_T),
 * Armijo line search on ½‖Φ‖², falling back to 200 projected Gauss–Seidel
 * passes over (r_N, r_T) when Newton stalls. Workspace allocated once.
 * Registered as "tresca-fp"; max_iter counts the Tresca problems. */
#include "fc/fc3d_internal.h"
#include "fc/fc3d_vi.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void phi_tresca(const ns_fc_contact *c, double s, const double *r, const double *u,
                       double *F, double *J)
{
    const int d = c->dim;
    const double rn = c->rho_n, rt = c->rho_t;
    double A[9] = { 0 }, B[9] = { 0 };
    if (r[0] - rn * u[0] > 0) { F[0] = rn * u[0]; B[0] = rn; }
    else { F[0] = r[0]; A[0] = 1.0; }
    double y[2] = { r[1] - rt * u[1], d == 3 ? r[2] - rt * u[2] : 0.0 };
    double ny = d == 3 ? hypot(y[0], y[1]) : fabs(y[0]);
    if (ny <= s) {
        for (int i = 1; i < d; i++) { F[i] = rt * u[i]; B[i + i * d] = rt; }
    } else {
        double yh[2] = { y[0] / ny, y[1] / ny }, f = s / ny;
        for (int i = 1; i < d; i++) {
            F[i] = r[i] - s * yh[i - 1];
            for (int j = 1; j < d; j++) {
                double Pij = (i == j ? 1.0 : 0.0) - yh[i - 1] * yh[j - 1];
                A[i + j * d] = (i == j ? 1.0 : 0.0) - f * Pij;
                B[i + j * d] = rt * f * Pij;
            }
        }
    }
    if (!J) return;
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++) {
            double v = A[i + j * d];
            for (int k = 0; k < d; k++) v += B[i + k * d] * c->W[k + j * d];
            J[i + j * d] = v;
        }
}

static void contact_u(const ns_fc_contact *c, const double *r, double *u)
{
    for (int i = 0; i < c->dim; i++) {
        double v = c->q[i];
        for (int j = 0; j < c->dim; j++) v += c->W[i + j * c->dim] * r[j];
        u[i] = v;
    }
}

static double norm_sq(int d, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < d; i++) s += x[i] * x[i];
    return s;
}

/* One contact, threshold s ≥ 0: r improved in place. */
static void local_tresca(const ns_fc_contact *c, double s, double *r)
{
    const int d = c->dim;
    double u[3], F[3], J[9], mF[3], dl[3], rt[3], ut[3], Ft[3];
    for (int it = 0; it < 30; it++) {
        contact_u(c, r, u);
        phi_tresca(c, s, r, u, F, J);
        double th = norm_sq(d, F);
        if (th <= c->tol * c->tol) return;
        for (int i = 0; i < d; i++) mF[i] = -F[i];
        if (ns_small_solve(d, J, mF, dl)) break;
        double t = 1.0;
        int ok = 0;
        for (int ls = 0; ls < 30 && !ok; ls++, t *= 0.5) {
            for (int i = 0; i < d; i++) rt[i] = r[i] + t * dl[i];
            contact_u(c, rt, ut);
            phi_tresca(c, s, rt, ut, Ft, NULL);
            if (norm_sq(d, Ft) <= (1.0 - 2e-4 * t) * th) ok = 1;
        }
        if (!ok) break;
        memcpy(r, rt, (size_t)d * sizeof(double));
    }
    /* fallback: projected Gauss–Seidel on (r_N, r_T) */
    const double *W = c->W;
    for (int pass = 0; pass < 200; pass++) {
        contact_u(c, r, u);
        r[0] = fmax(0.0, r[0] - u[0] / W[0]);
        contact_u(c, r, u);
        double wt = d == 3 ? fmax(W[4], W[8]) : W[3];
        for (int i = 1; i < d; i++) r[i] -= u[i] / wt;
        double nt = d == 3 ? hypot(r[1], r[2]) : fabs(r[1]);
        if (nt > s) for (int i = 1; i < d; i++) r[i] *= s / nt;
    }
}

ns_status ns_fc3d_tresca_fp(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st) { ns_matrix_free(owned); return st; }
    const int d = p->dim;
    const ns_int nc = p->nc;
    const size_t m = (size_t)d * (size_t)nc;
    double *work = ns_malloc(2 * m + (size_t)nc + 1, sizeof(double));
    if (!work) { ns_matrix_free(owned); return ns_fail(res->message, NS_NO_MEMORY, "tresca-fp: out of memory"); }
    double *thr = work, *best = work + nc, *old = work + nc + m;
    const ns_block *B = &view.W->block;
    const ns_fc_norm nm = (ns_fc_norm)o->fc_norm;
    double qn = 0.0;
    for (size_t i = 0; i < m; i++) qn += p->q[i] * p->q[i];
    qn = sqrt(qn);
    double t0 = ns_now();
    ns_fc_vi_velocity(&view, r, u);
    double err = ns_fc_vi_error(&view, r, u, qn, nm), best_err = err;
    memcpy(best, r, m * sizeof(double));
    st = err <= o->tol ? NS_CONVERGED : NS_MAX_ITER;
    for (int it = 1; st == NS_MAX_ITER && it <= o->max_iter; it++) {
        for (ns_int a = 0; a < nc; a++) thr[a] = p->mu[a] * fmax(0.0, r[(size_t)a * d]);
        double move_tol = fmax(0.01 * err, 0.1 * o->tol);
        for (int sweep = 0; sweep < 500; sweep++) {
            memcpy(old, r, m * sizeof(double));
            for (ns_int a = 0; a < nc; a++) {
                double *ra = r + (size_t)a * d, qa[3];
                for (int i = 0; i < d; i++) qa[i] = view.q[(size_t)a * d + i];
                ns_int kd = B->diag[a];
                for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
                    if (k == kd) continue;
                    const double *Wk = B->x + B->value_ptr[k];
                    const double *rb = r + (size_t)B->block_col[k] * d;
                    for (int i = 0; i < d; i++)
                        for (int j = 0; j < d; j++) qa[i] += Wk[i + j * d] * rb[j];
                }
                const double *Wd = B->x + B->value_ptr[kd];
                ns_fc_contact c;
                double nq = sqrt(norm_sq(d, qa)), nr = sqrt(norm_sq(d, ra));
                ns_fc_contact_init(&c, d, Wd, qa, p->mu[a],
                                   1e-14 * fmax(fmax(nq, Wd[0] * nr), DBL_MIN), 30);
                local_tresca(&c, thr[a], ra);
            }
            double nr = 0.0;
            for (size_t i = 0; i < m; i++) nr += r[i] * r[i];
            if (ns_fc_vi_dist(m, r, old) <= move_tol * fmax(sqrt(nr), DBL_MIN)) break;
            if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) break;
        }
        ns_fc_vi_velocity(&view, r, u);
        err = ns_fc_vi_error(&view, r, u, qn, nm);
        res->iterations = it;
        if (!isfinite(err)) { st = NS_DIVERGED; break; }
        if (err < best_err) { best_err = err; memcpy(best, r, m * sizeof(double)); }
        ns_log(o, 2, "tresca-fp iteration %d error %.3e", it, err);
        st = ns_fc_vi_iteration_end(&view, r, u, o, t0, &err);
    }
    ns_fc_vi_keep_best(&view, st, best, best_err, r, u, &err);
    res->error = err;
    free(work);
    ns_matrix_free(owned);
    return st;
}
