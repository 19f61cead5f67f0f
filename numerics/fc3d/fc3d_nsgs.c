/* fc3d_nsgs.c — non-smooth Gauss–Seidel over contacts (FC2D and FC3D):
 * for each contact α (natural order, or shuffled every sweep),
 *     q̃_α = q_α + Σ_{β≠α} W_αβ r_β,
 *     r_α ← ω · local(W_αα, q̃_α, μ_α; start r_α) + (1 − ω) r_α,
 * local = the chosen one-contact solver (ac, fb, nm, proj) backed by exact
 * enumeration when it misses its tolerance. A sweep reads W once (one block
 * row per contact, BLOCK storage); the global error ns_fc_error is computed
 * every check_every sweeps (one more W·r). No allocation inside sweeps.
 * Registered as nsgs-ac, nsgs-fb, nsgs-nm, nsgs-proj (and nsgs, which takes
 * o->local_solver, default ac). */
#include "fc3d/fc3d_internal.h"
#include "core/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s >> 12; *s ^= *s << 25; *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

ns_status ns_fc_nsgs_run(const ns_fc *view, double *r, double *u,
                         const ns_options *o, ns_fc_local_fn f, ns_result *res)
{
    const int d = view->dim;
    const ns_int nc = view->nc;
    const ns_block *B = &view->W->block;
    const double omega = o->omega > 0 ? o->omega : 1.0;
    const int every = o->check_every > 0 ? o->check_every : 1;
    ns_int *order = ns_malloc((size_t)nc + 1, sizeof(ns_int));
    if (!order) return ns_fail(res->message, NS_NO_MEMORY, "nsgs: out of memory");
    for (ns_int i = 0; i < nc; i++) order[i] = i;
    uint64_t seed = (uint64_t)o->seed * 0x9E3779B97F4A7C15ULL + 1;
    ns_status st = NS_MAX_ITER;
    double t0 = ns_now();
    res->error = ns_fc_error(view, r, u, (ns_fc_norm)o->fc_norm);
    if (res->error <= o->tol) { free(order); return NS_CONVERGED; }
    for (int it = 1; it <= o->max_iter; it++) {
        if (o->shuffle)
            for (ns_int i = nc - 1; i > 0; i--) {
                ns_int j = (ns_int)(next_rand(&seed) % (uint64_t)(i + 1));
                ns_int t = order[i]; order[i] = order[j]; order[j] = t;
            }
        for (ns_int s = 0; s < nc; s++) {
            ns_int a = order[s];
            double *ra = r + (size_t)a * d, qa[3], old[3];
            for (int i = 0; i < d; i++) qa[i] = view->q[(size_t)a * d + i];
            ns_int kd = B->diag[a];
            for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
                if (k == kd) continue;
                const double *Wk = B->x + B->value_ptr[k];
                const double *rb = r + (size_t)B->block_col[k] * d;
                if (d == 3) {
                    qa[0] += Wk[0] * rb[0] + Wk[3] * rb[1] + Wk[6] * rb[2];
                    qa[1] += Wk[1] * rb[0] + Wk[4] * rb[1] + Wk[7] * rb[2];
                    qa[2] += Wk[2] * rb[0] + Wk[5] * rb[1] + Wk[8] * rb[2];
                } else {
                    qa[0] += Wk[0] * rb[0] + Wk[2] * rb[1];
                    qa[1] += Wk[1] * rb[0] + Wk[3] * rb[1];
                }
            }
            const double *Wd = B->x + B->value_ptr[kd];
            double nq = d == 3 ? sqrt(qa[0] * qa[0] + qa[1] * qa[1] + qa[2] * qa[2])
                               : hypot(qa[0], qa[1]);
            double nr = d == 3 ? sqrt(ra[0] * ra[0] + ra[1] * ra[1] + ra[2] * ra[2])
                               : hypot(ra[0], ra[1]);
            ns_fc_contact c;
            ns_fc_contact_init(&c, d, Wd, qa, view->mu[a],
                               fmin(1e-12, 0.1 * o->tol) * fmax(fmax(nq, Wd[0] * nr), DBL_MIN), 20);
            memcpy(old, ra, (size_t)d * sizeof(double));
            ns_fc_local_solve(f, &c, ra);
            if (omega != 1.0)
                for (int i = 0; i < d; i++) ra[i] = omega * ra[i] + (1.0 - omega) * old[i];
        }
        res->iterations = it;
        if (it % every != 0 && it != o->max_iter) continue;
        res->error = ns_fc_error(view, r, u, (ns_fc_norm)o->fc_norm);
        if (o->verbosity >= 2 && o->log) {
            char msg[96];
            snprintf(msg, sizeof msg, "nsgs sweep %d error %.3e", it, res->error);
            o->log(o->log_user, 2, msg);
        }
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
    }
    free(order);
    return st;
}

static ns_status nsgs_with(const ns_fc *p, double *r, double *u, const ns_options *o,
                           ns_fc_local_fn f, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st == NS_OK) st = ns_fc_nsgs_run(&view, r, u, o, f, res);
    ns_matrix_free(owned);
    return st;
}

ns_status ns_fc3d_nsgs(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    ns_fc_local_fn f = ns_fc_local_find(o->local_solver);
    if (!f) return ns_fail(res->message, NS_BAD_INPUT,
                           "nsgs: local_solver '%s' is not one of ac, fb, nm, proj, enum",
                           o->local_solver);
    return nsgs_with(p, r, u, o, f, res);
}
ns_status ns_fc3d_nsgs_ac(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsgs_with(p, r, u, o, ns_fc_local_ac, res); }
ns_status ns_fc3d_nsgs_fb(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsgs_with(p, r, u, o, ns_fc_local_fb, res); }
ns_status ns_fc3d_nsgs_nm(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsgs_with(p, r, u, o, ns_fc_local_nm, res); }
ns_status ns_fc3d_nsgs_proj(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsgs_with(p, r, u, o, ns_fc_local_proj, res); }
