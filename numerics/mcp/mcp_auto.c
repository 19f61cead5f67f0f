/* mcp_auto.c — the default chain for the box complementarity kinds (ncp,
 * mcp, box vi): semismooth Newton on FB from the given start; if it does
 * not reach tol, Newton on the min map from the same start, then the
 * smoothing homotopy; the iterate with the smallest natural residual is
 * kept. */
#include "mcp/mcp_internal.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

ns_status ns_box_auto(const ns_cp_map *f, const double *lb, const double *ub,
                      double *z, double *Fz, const ns_options *o, ns_result *res)
{
    ns_int n = f->n;
    size_t m = (size_t)(n > 0 ? n : 1);
    double *z0 = ns_malloc(m, sizeof(double)), *zb = ns_malloc(m, sizeof(double)),
           *Fb = ns_malloc(m, sizeof(double));
    if (!z0 || !zb || !Fb) {
        free(z0); free(zb); free(Fb);
        return ns_fail(res->message, NS_NO_MEMORY, "auto: out of memory");
    }
    memcpy(z0, z, (size_t)n * sizeof(double));
    double ebest = INFINITY, t0 = ns_now();
    ns_status st = NS_FAILED, stbest = NS_FAILED;
    char msg[NS_ERRMSG_LEN] = "";
    for (int stage = 0; stage < 3; stage++) {
        ns_options so = *o;
        if (o->time_limit > 0) {
            so.time_limit = o->time_limit - (ns_now() - t0);
            if (so.time_limit <= 0) { stbest = NS_TIME_LIMIT; break; }
        }
        memcpy(z, z0, (size_t)n * sizeof(double));
        res->message[0] = '\0';
        res->error = INFINITY;
        if (stage == 0) st = ns_box_newton(f, lb, ub, NS_CP_FB, 0.0, z, Fz, &so, res);
        else if (stage == 1) st = ns_box_newton(f, lb, ub, NS_CP_MIN, 0.0, z, Fz, &so, res);
        else st = ns_box_homotopy(f, lb, ub, z, Fz, &so, res);
        ns_log(o, 1, "auto: %s: %s, residual %.3e", stage == 0 ? "newton-fb" : stage == 1 ?
               "newton-min" : "homotopy", ns_status_name(st), res->error);
        if (st == NS_NO_MEMORY) { stbest = st; snprintf(msg, sizeof msg, "%s", res->message); break; }
        if (res->error < ebest || (stage == 0 && !isfinite(ebest))) {
            ebest = res->error;
            stbest = st;
            snprintf(msg, sizeof msg, "%s", res->message);
            memcpy(zb, z, (size_t)n * sizeof(double));
            memcpy(Fb, Fz, (size_t)n * sizeof(double));
        }
        if (st == NS_CONVERGED) break;
        if (st == NS_INTERRUPTED || ns_cancelled(o)) { stbest = NS_INTERRUPTED; break; }
    }
    if (isfinite(ebest)) {
        memcpy(z, zb, (size_t)n * sizeof(double));
        memcpy(Fz, Fb, (size_t)n * sizeof(double));
    }
    res->error = ebest;
    snprintf(res->message, sizeof res->message, "%s", msg);
    free(z0); free(zb); free(Fb);
    return stbest;
}
