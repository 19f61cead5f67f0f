/* gfc_chain.c — "chain" for GFC2D/GFC3D: a robust solver of the global
 * formulation that never forms W = Hᵀ M⁻¹ H (the time-stepping default
 * under the option global_fc, where the user has asked for the global
 * problem rather than the reduction that "reduce" makes). Stages, each
 * from the best point so far, until ns_gfc_error ≤ tol:
 *   1. nsn-ac from the caller's point, at most NEWTON_PROBE iterations: a
 *      global Newton that converges does so in a few, to round-off;
 *   2. admm (warm: v and r as they are), its iteration limit the caller's
 *      max_iter or its own default: first-order, but its steps do not need
 *      a regular Jacobian, where the global Newton crawls on hyperstatic
 *      steps (the reactions not unique, the Jacobian singular: nsn-ac alone
 *      missed 7 of 100 steps of a 14-sphere pyramid at tol 1e-3);
 *   3. nsn-ac from ADMM's best point, at most NEWTON_FINISH iterations:
 *      ADMM's tail at tight tolerances is slow, Newton's from close by is
 *      not;
 *   4. GFC3D: ipm from a cold start.
 * Newton goes first although ADMM alone is faster on the hyperstatic
 * steps: on a block sliding on the ground, ADMM's answers within tol let
 * it sink one step's fall (g h²) where Newton's keep it on the ground.
 * The best (v, r) is returned with u = Hᵀ v + b; the method of the stage
 * that found it is res->method; a chain that ends above tol names each
 * stage with its error. Iteration limits only: its path does not depend on
 * the machine's load. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NEWTON_PROBE = 10, NEWTON_FINISH = 30 };

typedef ns_status (*gfc_fn)(const ns_gfc *, double *, double *, double *, const ns_options *, ns_result *);

ns_status ns_gfc_chain(const ns_gfc *p, double *v, double *u, double *r, const ns_options *o, ns_result *res)
{
    const size_t n = (size_t)p->n, m = (size_t)p->dim * (size_t)p->nc;
    double *buf = ns_malloc(2 * n + m + 1, sizeof(double));
    if (!buf) return ns_fail(res->message, NS_NO_MEMORY, "chain: out of memory");
    double *bv = buf, *br = buf + n, *work = br + m;
    double best = ns_gfc_error(p, v, r, u, work);
    if (!isfinite(best)) best = INFINITY;
    memcpy(bv, v, n * sizeof *bv);
    memcpy(br, r, m * sizeof *br);
    const char *best_by = "start";
    struct { gfc_fn f; const char *name; int max_iter; int cold; } stages[] = {
        { ns_gfc_nsn_ac, "nsn-ac", NEWTON_PROBE, 0 },
        { ns_gfc_admm, "admm", o->max_iter > 0 ? o->max_iter : 20000, 0 },
        { ns_gfc_nsn_ac, "nsn-ac", NEWTON_FINISH, 0 },
        { ns_gfc_ipm, "ipm", 100, 1 },
    };
    const int nstages = p->dim == 3 ? 4 : 3;
    char trail[256] = "";
    size_t tl = 0;
    int iters = 0;
    const double t0 = ns_now();
    ns_status st = NS_MAX_ITER;
    for (int k = 0; k < nstages && !(best <= o->tol); k++) {
        if (k > 0 && o->on_switch && o->on_switch(o->switch_user, stages[k].name, best, iters) != 0) {
            tl += (size_t)snprintf(trail + tl, sizeof trail - tl, "%sstopped by on_switch", tl ? ", " : "");
            break;
        }
        ns_options so = *o;
        so.max_iter = stages[k].max_iter;
        so.warm_start = !stages[k].cold;
        if (o->time_limit > 0) {
            so.time_limit = o->time_limit - (ns_now() - t0);
            if (so.time_limit <= 0) { st = NS_TIME_LIMIT; break; }
        }
        memcpy(v, bv, n * sizeof *v);
        memcpy(r, br, m * sizeof *r);
        if (stages[k].cold) { memset(v, 0, n * sizeof *v); memset(r, 0, m * sizeof *r); }
        ns_result sr;
        ns_result_init(&sr);
        ns_status s = stages[k].f(p, v, u, r, &so, &sr);
        iters += sr.iterations;
        ns_result_clear(&sr);
        if (s == NS_NO_MEMORY) { st = ns_fail(res->message, NS_NO_MEMORY, "chain: %s: out of memory", stages[k].name); break; }
        double e = ns_gfc_error(p, v, r, u, work);
        if (!isfinite(e)) e = INFINITY;
        ns_log(o, 1, "chain: %s %d iterations, error %.3e", stages[k].name, iters, e);
        if (tl < sizeof trail)
            tl += (size_t)snprintf(trail + tl, sizeof trail - tl, "%s%s %.2e", tl ? ", " : "", stages[k].name, e);
        if (e < best) {
            best = e;
            memcpy(bv, v, n * sizeof *bv);
            memcpy(br, r, m * sizeof *br);
            best_by = stages[k].name;
        }
        if (s == NS_INTERRUPTED) { st = NS_INTERRUPTED; break; }
    }
    memcpy(v, bv, n * sizeof *v);
    memcpy(r, br, m * sizeof *r);
    res->error = ns_gfc_error(p, v, r, u, work);   /* u of the point returned */
    res->iterations = iters;
    snprintf(res->method, sizeof res->method, "%s", best_by);
    free(buf);
    if (res->error <= o->tol) { res->message[0] = '\0'; return NS_CONVERGED; }
    if (st == NS_NO_MEMORY) return st;
    snprintf(res->message, sizeof res->message, "chain: %s after %s (best %.3g)",
             st == NS_TIME_LIMIT ? "time limit" : st == NS_INTERRUPTED ? "interrupted" : "no stage reached tol",
             tl ? trail : "no stage", res->error);
    return st;
}
