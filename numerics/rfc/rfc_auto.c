/* rfc_auto.c — the default solver of RFC3D and RFC2D: 20 NSGS sweeps
 * towards tol, 30 more if the error is then below 10⁻⁴ (small problems
 * end there), then NSGS and the global
 * semismooth Newton (natural map) in turn. NSGS sweeps until the error
 * reaches a target (10⁻⁴ first, then ten times lower at each round, never
 * below tol) or 200 sweeps; Newton then starts from there with at most 50
 * iterations (it stops early when it stalls: rfc_nsn.c); the better point
 * is kept and the next round starts from it. Newton converges fast once
 * NSGS has found the contacts' states; NSGS keeps making progress where
 * Newton's line search stalls. The rounds end at tol, at the iteration
 * budget (max_iter sweeps and Newton iterations together) or at the time
 * limit; the driver recomputes the final error. */
#include "rfc/rfc_internal.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_rfc_auto(const ns_rfc *p, double *r, double *u, const ns_options *o,
                      ns_result *res)
{
    const double t0 = ns_now();
    const size_t m = (size_t)p->dim * (size_t)p->nc;
    const int budget = o->max_iter > 0 ? o->max_iter : 100000;
    double *save = ns_malloc(m + 1, sizeof *save);
    if (!save) return ns_fail(res->message, NS_NO_MEMORY, "rfc auto: out of memory");
    int total = 0, first = 1;
    double target = fmax(o->tol, 1e-4);
    ns_status st = NS_MAX_ITER;
    res->error = ns_rfc_error(p, r, u, (ns_fc_norm)o->fc_norm);
    /* 20 sweeps straight to tol, 30 more when they got below 10⁻⁴: small
     * problems end here */
    for (int stage = 0; stage < 2 && res->error > o->tol && total < budget; stage++) {
        if (stage == 1 && res->error > 1e-4) break;
        ns_options so = *o;
        ns_result sr;
        int k = stage ? 30 : 20;
        so.warm_start = stage ? 1 : o->warm_start;
        so.max_iter = budget - total < k ? budget - total : k;
        ns_result_init(&sr);
        st = ns_rfc_nsgs(p, r, u, &so, &sr);
        total += sr.iterations;
        first = 0;
        if (!ns_status_is_outcome(st)) {
            free(save);
            memcpy(res->message, sr.message, NS_ERRMSG_LEN);
            return st;
        }
        res->error = sr.error;
    }
    while (res->error > o->tol && total < budget) {
        ns_options so = *o;
        ns_result sr;
        if (o->time_limit > 0) {
            so.time_limit = o->time_limit - (ns_now() - t0);
            if (so.time_limit <= 0) { st = NS_TIME_LIMIT; break; }
        }
        /* NSGS to the target */
        so.warm_start = !first || o->warm_start;
        so.tol = target;
        so.max_iter = budget - total < 200 ? budget - total : 200;
        ns_result_init(&sr);
        st = ns_rfc_nsgs(p, r, u, &so, &sr);
        first = 0;
        total += sr.iterations;
        if (!ns_status_is_outcome(st)) { memcpy(res->message, sr.message, NS_ERRMSG_LEN); break; }
        res->error = sr.error;
        if (res->error <= o->tol || total >= budget) continue;
        /* Newton from there, kept only if it improves */
        memcpy(save, r, m * sizeof *r);
        double before = res->error;
        so.warm_start = 1;
        so.tol = o->tol;
        so.max_iter = budget - total < 50 ? budget - total : 50;
        if (o->time_limit > 0) so.time_limit = fmax(1e-3, o->time_limit - (ns_now() - t0));
        ns_result_init(&sr);
        ns_status sn = ns_rfc_nsn(p, r, u, &so, &sr);
        total += sr.iterations;
        if (sn == NS_NO_MEMORY) { st = sn; memcpy(res->message, sr.message, NS_ERRMSG_LEN); break; }
        if (!(sr.error < before)) {
            memcpy(r, save, m * sizeof *r);
            res->error = ns_rfc_error(p, r, u, (ns_fc_norm)o->fc_norm);
        } else {
            res->error = sr.error;
        }
        target = fmax(o->tol, fmin(target, res->error) * 0.1);
        ns_log(o, 2, "rfc auto: %d iterations, error %.3e, next target %.1e", total, res->error,
               target);
    }
    free(save);
    res->iterations = total;
    res->error = ns_rfc_error(p, r, u, (ns_fc_norm)o->fc_norm);
    if (res->error <= o->tol) return NS_CONVERGED;
    return ns_status_is_outcome(st) && st != NS_CONVERGED ? st : NS_MAX_ITER;
}
