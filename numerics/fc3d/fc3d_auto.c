/* fc3d_auto.c — the robust default for FC2D/FC3D: a chain of the solvers
 * of this directory, each warm-started from the best point so far, ending
 * as soon as the error ns_fc_error ≤ tol:
 *   1. nsgs-ac until error ≤ max(100·tol, 1e-4) (at most 2000 sweeps):
 *      gets close cheaply;
 *   2. nsn-ac (≤ 200 iterations): finishes quadratically; if not, nsn-ac
 *      from the caller's start point (≤ 300), Newton's basin may hold it;
 *   3. nsgs-ac again, the remaining sweeps of max_iter (default 100000),
 *      restarted by nsn-ac every 5000 sweeps;
 *   4. nsn-nm, nsn-fb, nsgs-fb, nsgs-proj from the best point (restarts
 *      on other reformulations when the first ones stall).
 * The time limit covers the whole chain. The best iterate is returned. */
#include "fc3d/fc3d_internal.h"
#include "core/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const ns_fc *p;
    double *r, *u, *best, *start, *keep;
    size_t m;
    double best_err, t0;
    const ns_options *o;
    int iters;
} chain;

/* Runs one stage from the best point; returns 1 when tol is reached or
 * time is up. */
static int stage(chain *c, ns_fc_local_fn f, ns_fc_phi_fn phi, int max_iter, double tol,
                 ns_result *res)
{
    ns_options so = *c->o;
    so.max_iter = max_iter;
    so.tol = tol;
    if (c->o->time_limit > 0) {
        double left = c->o->time_limit - (ns_now() - c->t0);
        if (left <= 0) return 1;
        so.time_limit = left;
    }
    memcpy(c->r, c->best, c->m * sizeof(double));
    ns_result sr;
    ns_result_init(&sr);
    ns_status st = phi ? ns_fc_nsn_run(c->p, c->r, c->u, &so, phi, &sr)
                       : ns_fc_nsgs_run(c->p, c->r, c->u, &so, f, &sr);
    c->iters += sr.iterations;
    if (st == NS_NO_MEMORY) return 1;
    double e = ns_fc_error(c->p, c->r, c->u, (ns_fc_norm)c->o->fc_norm);
    if (e < c->best_err) { c->best_err = e; memcpy(c->best, c->r, c->m * sizeof(double)); }
    res->iterations = c->iters;
    return c->best_err <= c->o->tol ||
           (c->o->time_limit > 0 && ns_now() - c->t0 >= c->o->time_limit);
}

ns_status ns_fc3d_auto(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st) { ns_matrix_free(owned); return st; }
    chain c = { &view, r, u, NULL, NULL, NULL, (size_t)p->dim * (size_t)p->nc, INFINITY,
                ns_now(), o, 0 };
    c.best = ns_dup(r, c.m ? c.m : 1);
    c.start = ns_dup(r, c.m ? c.m : 1);
    c.keep = ns_malloc(c.m ? c.m : 1, sizeof(double));
    if (!c.best || !c.start || !c.keep) {
        free(c.best); free(c.start); free(c.keep); ns_matrix_free(owned); return ns_fail(res->message, NS_NO_MEMORY, "auto: out of memory"); }
    c.best_err = ns_fc_error(&view, r, u, (ns_fc_norm)o->fc_norm);
    int sweeps = o->max_iter > 0 ? o->max_iter : 100000;
    int done = c.best_err <= o->tol;
    if (!done) done = stage(&c, ns_fc_local_ac, NULL, sweeps < 2000 ? sweeps : 2000,
                            fmax(100 * o->tol, 1e-4), res);
    if (!done) done = stage(&c, NULL, ns_fc_phi_ac, 200, o->tol, res);
    if (!done) { /* Newton from the caller's start point, not NSGS's */
        memcpy(c.keep, c.best, c.m * sizeof(double));
        memcpy(c.best, c.start, c.m * sizeof(double));
        double keep = c.best_err;
        c.best_err = INFINITY;
        done = stage(&c, NULL, ns_fc_phi_ac, 300, o->tol, res);
        if (!done && c.best_err > keep) { memcpy(c.best, c.keep, c.m * sizeof(double)); c.best_err = keep; }
    }
    for (int left = sweeps - 2000; !done && left > 0; left -= 5000) {
        done = stage(&c, ns_fc_local_ac, NULL, left < 5000 ? left : 5000, o->tol, res);
        if (!done) done = stage(&c, NULL, ns_fc_phi_ac, 100, o->tol, res);
    }
    if (!done) done = stage(&c, NULL, ns_fc_phi_nm, 300, o->tol, res);
    if (!done) done = stage(&c, NULL, ns_fc_phi_fb, 300, o->tol, res);
    if (!done) done = stage(&c, ns_fc_local_fb, NULL, 5000, o->tol, res);
    if (!done) done = stage(&c, ns_fc_local_proj, NULL, 5000, o->tol, res);
    memcpy(r, c.best, c.m * sizeof(double));
    res->error = ns_fc_error(&view, r, u, (ns_fc_norm)o->fc_norm);
    if (res->error <= o->tol) st = NS_CONVERGED;
    else if (o->time_limit > 0 && ns_now() - c.t0 >= o->time_limit) st = NS_TIME_LIMIT;
    else st = NS_MAX_ITER;
    free(c.best);
    free(c.start);
    free(c.keep);
    ns_matrix_free(owned);
    return st;
}
