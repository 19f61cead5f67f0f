/* rfc_auto.c — the default solver of RFC3D and RFC2D: NSGS (local Newton)
 * down to max(tol, 1e-4) within 200 sweeps, then the global semismooth
 * Newton to tol from there; if Newton stops short, NSGS again from the
 * best point with the remaining iteration budget. Each stage reports its
 * own error, the driver recomputes the final one. */
#include "rfc/rfc_internal.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <string.h>

ns_status ns_rfc_auto(const ns_rfc *p, double *r, double *u, const ns_options *o,
                      ns_result *res)
{
    const double t0 = ns_now();
    ns_options so = *o;
    ns_result sr;
    int total = 0;
    ns_result_init(&sr);
    so.tol = fmax(o->tol, 1e-4);
    so.max_iter = 200;
    ns_status st = ns_rfc_nsgs(p, r, u, &so, &sr);
    total += sr.iterations;
    if (!ns_status_is_outcome(st)) { memcpy(res->message, sr.message, NS_ERRMSG_LEN); return st; }
    if (sr.error > o->tol) {
        so = *o;
        so.warm_start = 1;
        so.max_iter = 200;
        if (o->time_limit > 0) so.time_limit = fmax(1e-3, o->time_limit - (ns_now() - t0));
        ns_result_init(&sr);
        st = ns_rfc_nsn(p, r, u, &so, &sr);
        total += sr.iterations;
        if (st == NS_NO_MEMORY) { memcpy(res->message, sr.message, NS_ERRMSG_LEN); return st; }
        if (sr.error > o->tol) {
            so = *o;
            so.warm_start = 1;
            so.max_iter = o->max_iter > 0 ? o->max_iter : 100000;
            if (o->time_limit > 0) so.time_limit = fmax(1e-3, o->time_limit - (ns_now() - t0));
            ns_result_init(&sr);
            st = ns_rfc_nsgs(p, r, u, &so, &sr);
            total += sr.iterations;
        }
    }
    res->iterations = total;
    res->error = ns_rfc_error(p, r, u, (ns_fc_norm)o->fc_norm);
    return res->error <= o->tol ? NS_CONVERGED : st == NS_CONVERGED ? NS_MAX_ITER : st;
}
