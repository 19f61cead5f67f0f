/* fc3d_nsgs.c — non-smooth Gauss–Seidel over contacts (FC2D and FC3D):
 * for each contact α (natural order, or shuffled every sweep),
 *     q̃_α = q_α + Σ_{β≠α} W_αβ r_β,
 *     r_α ← ω · local(W_αα, q̃_α, μ_α; start r_α) + (1 − ω) r_α,
 * local = the chosen one-contact solver (ac, fb, nm, proj) backed by exact
 * enumeration (then an AC polish) when it misses its tolerance
 * 1e-12·max(‖q̃_α‖, ‖r_α‖, W_NN‖r_α‖) by more than rounding. A sweep reads W once (one block
 * row per contact, BLOCK storage); the global error ns_fc_error (one more
 * W·r) is computed every check_every sweeps, or with check_every = 0 when
 * the sweep's relative increment predicts convergence (see below); it
 * alone decides convergence. No allocation inside sweeps.
 * Registered as nsgs-ac, nsgs-fb, nsgs-nm, nsgs-proj (and nsgs, which takes
 * o->local_solver, default ac). */
#include "fc/fc3d_internal.h"
#include "solve/solvers.h"
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

/* q̃_α = q_α + Σ_{β≠α} W_αβ r_β over block row α. */
static void row_rhs(const ns_block *B, const double *q, const double *r, int d, ns_int a,
                    double *qa)
{
    const ns_int kd = B->diag[a];
    if (d == 3) { /* the blocks before the diagonal one, then those after it */
        double q0 = q[3 * (size_t)a], q1 = q[3 * (size_t)a + 1], q2 = q[3 * (size_t)a + 2];
        const ns_int *col = B->block_col;
        const ns_int *vp = B->value_ptr;
        for (int part = 0; part < 2; part++) {
            ns_int k0 = part ? kd + 1 : B->row_ptr[a], k1 = part ? B->row_ptr[a + 1] : kd;
            for (ns_int k = k0; k < k1; k++) {
                const double *Wk = B->x + vp[k];
                const double *rb = r + 3 * (size_t)col[k];
                q0 += Wk[0] * rb[0] + Wk[3] * rb[1] + Wk[6] * rb[2];
                q1 += Wk[1] * rb[0] + Wk[4] * rb[1] + Wk[7] * rb[2];
                q2 += Wk[2] * rb[0] + Wk[5] * rb[1] + Wk[8] * rb[2];
            }
        }
        qa[0] = q0; qa[1] = q1; qa[2] = q2;
        return;
    }
    qa[0] = q[2 * (size_t)a]; qa[1] = q[2 * (size_t)a + 1];
    for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
        if (k == kd) continue;
        const double *Wk = B->x + B->value_ptr[k];
        const double *rb = r + 2 * (size_t)B->block_col[k];
        qa[0] += Wk[0] * rb[0] + Wk[2] * rb[1];
        qa[1] += Wk[1] * rb[0] + Wk[3] * rb[1];
    }
}

/* A local solve that missed its tolerance is kept without the exact
 * enumeration when its contact error is at the rounding level of the
 * contact's own numbers (‖r‖, ‖u‖, ‖q̃‖ ~ 1e6 with W ~ 1e-5 cannot meet
 * 1e-12·‖q̃‖): the enumeration would cost ~100 Newton solves to find the
 * same point. */
static int at_rounding_level(const ns_fc_contact *c, const double *r, double nq2)
{
    double u[3];
    double e = ns_fc_contact_residual(c, r, u);
    double n2 = nq2;
    double nr2 = 0.0, nu2 = 0.0;
    for (int i = 0; i < c->dim; i++) { nr2 += r[i] * r[i]; nu2 += u[i] * u[i]; }
    n2 = fmax(n2, fmax(nr2, nu2));
    return e <= 1e3 * DBL_EPSILON * sqrt(n2);
}

/* When to pay for the global error (one W·r and a pass over the contacts).
 * check_every = k > 0: every k sweeps. check_every = 0: when the sweep's
 * light error ℓ = ‖r_new − r_old‖ / ‖r_new‖ (summed over the sweep, free)
 * predicts it: the last full check gave the ratio κ = error/ℓ, and the next
 * one comes when κ ℓ ≤ tol — or, to calibrate κ, at sweeps 1, 2, 4, …, 32
 * and then every CHECK_GAP sweeps without one. Only the global error
 * decides convergence. */
enum { CHECK_GAP = 50 };

ns_status ns_fc_nsgs_run(const ns_fc *view, double *r, double *u,
                         const ns_options *o, ns_fc_local_fn f, ns_result *res)
{
    const int d = view->dim;
    const ns_int nc = view->nc;
    const ns_block *B = &view->W->block;
    const double omega = o->omega > 0 ? o->omega : 1.0;
    const int every = o->check_every;
    const double ltol = fmin(1e-12, 0.1 * o->tol);
    ns_int *order = ns_malloc((size_t)nc + 1, sizeof(ns_int));
    if (!order) return ns_fail(res->message, NS_NO_MEMORY, "nsgs: out of memory");
    for (ns_int i = 0; i < nc; i++) order[i] = i;
    uint64_t seed = (uint64_t)o->seed * 0x9E3779B97F4A7C15ULL + 1;
    ns_status st = NS_MAX_ITER;
    double t0 = ns_now();
    res->error = ns_fc_error(view, r, u, (ns_fc_norm)o->fc_norm);
    if (res->error <= o->tol) { free(order); return NS_CONVERGED; }
    double kappa = 1.0;
    int last_check = 0;
    for (int it = 1; it <= o->max_iter; it++) {
        if (o->shuffle)
            for (ns_int i = nc - 1; i > 0; i--) {
                ns_int j = (ns_int)(next_rand(&seed) % (uint64_t)(i + 1));
                ns_int t = order[i]; order[i] = order[j]; order[j] = t;
            }
        double dr2 = 0.0, r2 = 0.0;
        for (ns_int s = 0; s < nc; s++) {
            ns_int a = order[s];
            double *ra = r + (size_t)a * d, qa[3], old[3];
            row_rhs(B, view->q, r, d, a, qa);
            const double *Wd = B->x + B->value_ptr[B->diag[a]];
            double nq2 = qa[0] * qa[0] + qa[1] * qa[1] + (d == 3 ? qa[2] * qa[2] : 0.0);
            double nr2 = ra[0] * ra[0] + ra[1] * ra[1] + (d == 3 ? ra[2] * ra[2] : 0.0);
            ns_fc_contact c;
            double scale2 = fmax(fmax(nq2, nr2), Wd[0] * Wd[0] * nr2);
            ns_fc_contact_init(&c, d, Wd, qa, view->mu[a], ltol * fmax(sqrt(scale2), DBL_MIN), 20);
            old[0] = ra[0]; old[1] = ra[1]; old[2] = d == 3 ? ra[2] : 0.0;
            if (f(&c, ra) != 0 && !at_rounding_level(&c, ra, nq2))
                if (ns_fc_local_enum(&c, ra) != 0) ns_fc_local_ac(&c, ra);
            if (omega != 1.0)
                for (int i = 0; i < d; i++) ra[i] = omega * ra[i] + (1.0 - omega) * old[i];
            for (int i = 0; i < d; i++) {
                double e = ra[i] - old[i];
                dr2 += e * e;
                r2 += ra[i] * ra[i];
            }
        }
        res->iterations = it;
        double light = r2 > 0 ? sqrt(dr2 / r2) : sqrt(dr2);
        int check = it == o->max_iter || !isfinite(light);
        if (every > 0) check |= it % every == 0;
        else check |= kappa * light <= o->tol
                    || it - last_check >= (last_check < CHECK_GAP ? (last_check > 1 ? last_check : 1) : CHECK_GAP);
        int late = o->time_limit > 0 && ns_now() - t0 > o->time_limit;
        if (!check && !late) continue;
        res->error = ns_fc_error(view, r, u, (ns_fc_norm)o->fc_norm);
        last_check = it;
        if (light > 0 && isfinite(res->error)) kappa = res->error / light;
        ns_log(o, 2, "nsgs sweep %d error %.3e (light %.3e)", it, res->error, light);
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        if (late) { st = NS_TIME_LIMIT; break; }
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
