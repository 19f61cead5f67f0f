/* mcp_homotopy.c — smoothing homotopy (path following in the smoothing
 * parameter) for the box complementarity problem: the smoothed FB system
 * Φ_μ(z) = 0, φ_μ(a, b) = a + b − √(a² + b² + 2μ²), is smooth for μ > 0
 * and its solutions z(μ) form a path that ends at a solution when μ → 0
 * (Chen–Harker–Kanzow–Smale). Each stage is solved by the Newton kernel
 * from the previous stage's point, μ is divided by 10 between stages, from
 * μ₀ = max(1, ‖Φ₀(z₀)‖)/10 until μ < tol; then a plain FB Newton finishes.
 * Smoothing keeps the Newton matrices nonsingular along the path where the
 * plain method meets singular elements at degenerate kinks. */
#include "mcp/mcp_internal.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_box_homotopy(const ns_cp_map *f, const double *lb, const double *ub,
                          double *z, double *Fz, const ns_options *o, ns_result *res)
{
    ns_int n = f->n;
    if (n == 0) { res->error = 0.0; return NS_CONVERGED; }
    for (ns_int i = 0; i < n; i++) {
        if (z[i] < lb[i]) z[i] = lb[i];
        if (z[i] > ub[i]) z[i] = ub[i];
    }
    if (ns_cp_eval(f, z, Fz))
        return ns_fail(res->message, NS_FAILED, "homotopy: F cannot be evaluated at the start");
    double e0 = ns_box_natural_residual(n, lb, ub, z, Fz);
    double mu = 0.1 * (e0 > 1.0 ? e0 : 1.0);
    ns_options inner = *o;
    inner.max_iter = o->max_iter > 20 ? 20 : o->max_iter;
    double t0 = ns_now();
    int stages = 0, it0 = res->iterations;
    while (mu >= o->tol && res->iterations - it0 < o->max_iter) {
        if (ns_cancelled(o)) return NS_INTERRUPTED;
        if (o->time_limit > 0) {
            inner.time_limit = o->time_limit - (ns_now() - t0);
            if (inner.time_limit <= 0) return NS_TIME_LIMIT;
        }
        res->message[0] = '\0';
        ns_status st = ns_box_newton(f, lb, ub, NS_CP_FB, mu, z, Fz, &inner, res);
        if (st == NS_NO_MEMORY || st == NS_INTERRUPTED) return st;
        ns_log(o, 2, "homotopy: stage %d, mu %.1e, %s, residual %.3e", stages, mu,
               ns_status_name(st), res->error);
        mu *= 0.1;
        stages++;
    }
    ns_options last = *o;
    last.max_iter = o->max_iter - (res->iterations - it0);
    if (last.max_iter < 1) last.max_iter = 1;
    if (o->time_limit > 0) {
        last.time_limit = o->time_limit - (ns_now() - t0);
        if (last.time_limit <= 0) return NS_TIME_LIMIT;
    }
    res->message[0] = '\0';
    return ns_box_newton(f, lb, ub, NS_CP_FB, 0.0, z, Fz, &last, res);
}
