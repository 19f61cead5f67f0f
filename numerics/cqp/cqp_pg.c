/* cqp_pg.c — projected gradient with Barzilai–Borwein steps for the
 * convex QP without equality constraints (the spectral projected gradient
 * of Birgin–Martínez–Raydan): d = P_C(x − α g) − x, g = M x + q; along d
 * the objective is the quadratic f + λ gᵀd + ½ λ² dᵀMd, so the step λ = 1
 * is taken when it passes the nonmonotone Armijo test (σ = 1e-4 against
 * the largest f of the last 10 iterates), otherwise the exact minimiser
 * min(1, −gᵀd / dᵀMd); then α = sᵀs / sᵀ(M s) (BB1), in [1e-12, 1e12].
 * Stops when (‖x − P_C(x − g)‖) / (1 + ‖q‖) ≤ tol. */
#include "solve/solvers.h"
#include "cqp/cqp_internal.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_cqp_pg_bb(const ns_cqp *p, double *x, double *y, double *g,
                       const ns_options *o, ns_result *res)
{
    (void)y;
    if (p->m > 0)
        return ns_fail(res->message, NS_BAD_INPUT,
                       "cqp: pg-bb handles no equality constraints (m = %d): use admm", p->m);
    ns_int n = p->n;
    res->error = INFINITY;
    if (n == 0) { res->error = 0.0; return NS_CONVERGED; }
    size_t sz = (size_t)n;
    double *d = ns_malloc(sz, sizeof(double)), *Md = ns_malloc(sz, sizeof(double)),
           *t = ns_malloc(sz, sizeof(double));
    ns_status st = NS_MAX_ITER;
    if (!d || !Md || !t) { st = ns_fail(res->message, NS_NO_MEMORY, "pg-bb: out of memory"); goto done; }
    double scale = 1.0 + ns_norm2(p->q, sz);
    if (ns_cqp_project(p, x, t)) { st = ns_fail(res->message, NS_FAILED, "pg-bb: projection failed"); goto done; }
    memcpy(x, t, sz * sizeof(double));
    memcpy(g, p->q, sz * sizeof(double));
    ns_matrix_gemv(1.0, p->M, x, 1.0, g);
    double fx = 0.0;
    for (ns_int i = 0; i < n; i++) fx += x[i] * (0.5 * (g[i] - p->q[i]) + p->q[i]);
    enum { MEM = 10 };
    double hist[MEM];
    int nh = 0, k;
    double gn = ns_norm2(g, sz);
    double alpha = gn > 0 ? 1.0 / gn : 1.0, t0 = ns_now();
    for (k = 0; k < o->max_iter; k++) {
        for (ns_int i = 0; i < n; i++) d[i] = x[i] - g[i];
        if (ns_cqp_project(p, d, t)) { st = ns_fail(res->message, NS_FAILED, "pg-bb: projection failed"); break; }
        double s2 = 0.0;
        for (ns_int i = 0; i < n; i++) { double r = x[i] - t[i]; s2 += r * r; }
        res->error = sqrt(s2) / scale;
        ns_log(o, 2, "pg-bb: iteration %d, error %.3e, alpha %.3e", k, res->error, alpha);
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
        for (ns_int i = 0; i < n; i++) d[i] = x[i] - alpha * g[i];
        if (ns_cqp_project(p, d, t)) { st = ns_fail(res->message, NS_FAILED, "pg-bb: projection failed"); break; }
        double gd = 0.0;
        for (ns_int i = 0; i < n; i++) { d[i] = t[i] - x[i]; gd += g[i] * d[i]; }
        ns_matrix_gemv(1.0, p->M, d, 0.0, Md);
        double dMd = 0.0, dd = 0.0;
        for (ns_int i = 0; i < n; i++) { dMd += d[i] * Md[i]; dd += d[i] * d[i]; }
        if (gd >= 0.0 || dd == 0.0) { alpha = alpha * 0.1 > 1e-12 ? alpha * 0.1 : 1e-12; continue; }
        hist[nh % MEM] = fx;
        nh++;
        double ref = fx;
        for (int h = 0; h < (nh < MEM ? nh : MEM); h++) if (hist[h] > ref) ref = hist[h];
        double lam = 1.0;
        if (fx + gd + 0.5 * dMd > ref + 1e-4 * gd) lam = dMd > 0 ? -gd / dMd : 1.0;
        if (lam > 1.0) lam = 1.0;
        for (ns_int i = 0; i < n; i++) { x[i] += lam * d[i]; g[i] += lam * Md[i]; }
        fx += lam * gd + 0.5 * lam * lam * dMd;
        /* s = λd, Ms = λMd: α = sᵀs / sᵀMs = dd / dMd */
        alpha = dMd > 0 ? dd / dMd : 1e12;
        if (alpha < 1e-12) alpha = 1e-12;
        if (alpha > 1e12) alpha = 1e12;
    }
    res->iterations += k;
    if (st == NS_MAX_ITER) ns_fail(res->message, st, "pg-bb: %d iterations, error %.3e", k, res->error);
done:
    free(d); free(Md); free(t);
    return st;
}
