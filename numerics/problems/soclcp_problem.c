/* soclcp_problem.c — SOCLCP construction, validation, free, and the
 * projection onto one second-order cone. */
#include "nonsmooth/ns_soclcp.h"
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

ns_soclcp *ns_soclcp_new(ns_matrix *W, const double *q, ns_int nc,
                         const ns_int *cone_start, const double *mu)
{
    if (!W) return NULL;
    if (nc < 0 || (nc > 0 && (!cone_start || !mu))) { ns_matrix_free(W); return NULL; }
    ns_soclcp *p = ns_calloc(1, sizeof *p);
    if (!p) { ns_matrix_free(W); return NULL; }
    p->W = W;
    p->n = W->cols;
    p->nc = nc;
    p->q = ns_calloc((size_t)(p->n > 0 ? p->n : 1), sizeof(double));
    p->cone_start = ns_malloc((size_t)nc + 1, sizeof(ns_int));
    p->mu = ns_malloc((size_t)(nc > 0 ? nc : 1), sizeof(double));
    if (!p->q || !p->cone_start || !p->mu) { ns_soclcp_free(p); return NULL; }
    if (q) memcpy(p->q, q, (size_t)p->n * sizeof(double));
    if (nc > 0) {
        memcpy(p->cone_start, cone_start, ((size_t)nc + 1) * sizeof(ns_int));
        memcpy(p->mu, mu, (size_t)nc * sizeof(double));
    } else p->cone_start[0] = 0;
    return p;
}

ns_status ns_soclcp_validate(const ns_soclcp *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "soclcp: no problem");
    ns_status st = ns_check_square(p->W, p->n, "soclcp", "W", err);
    if (st) return st;
    if ((st = ns_check_vector(p->q, p->n, "soclcp", "q", err))) return st;
    if (p->nc < 0) return ns_fail(err, NS_BAD_INPUT, "soclcp: nc = %d is negative", p->nc);
    if (!p->cone_start || (p->nc > 0 && !p->mu))
        return ns_fail(err, NS_BAD_INPUT, "soclcp: %s: missing", p->cone_start ? "mu" : "cone_start");
    if (p->cone_start[0] != 0 || p->cone_start[p->nc] != p->n)
        return ns_fail(err, NS_BAD_INPUT, "soclcp: cone_start: must run from 0 to n = %d", p->n);
    for (ns_int c = 0; c < p->nc; c++) {
        if (p->cone_start[c + 1] <= p->cone_start[c])
            return ns_fail(err, NS_BAD_INPUT, "soclcp: cone_start[%d]: cone %d is empty", c + 1, c);
        if (!isfinite(p->mu[c]) || p->mu[c] < 0)
            return ns_fail(err, NS_BAD_INPUT, "soclcp: mu[%d] = %g: must be finite and >= 0",
                           c, p->mu[c]);
    }
    return NS_OK;
}

void ns_soclcp_free(ns_soclcp *p)
{
    if (!p) return;
    ns_matrix_free(p->W);
    free(p->q);
    free(p->cone_start);
    free(p->mu);
    free(p);
}

/* Projection onto K = {‖x_T‖ ≤ mu x_0}: inside → x; in the polar cone
 * (mu ‖x_T‖ ≤ −x_0) → 0; otherwise onto the boundary ray through
 * (1, mu x_T/‖x_T‖): t = (x_0 + mu ‖x_T‖)/(1 + mu²), p = (t, mu t x_T/‖x_T‖).
 * d = 1: the half-line x_0 ≥ 0. */
void ns_soc_project(ns_int d, double mu, const double *x, double *px)
{
    double x0 = x[0], nt = 0.0;
    for (ns_int k = 1; k < d; k++) nt += x[k] * x[k];
    nt = sqrt(nt);
    if (nt <= mu * x0) {
        if (px != x) memcpy(px, x, (size_t)d * sizeof(double));
        return;
    }
    if (mu * nt <= -x0 || (mu == 0.0 && x0 <= 0.0)) {
        for (ns_int k = 0; k < d; k++) px[k] = 0.0;
        return;
    }
    double t = (x0 + mu * nt) / (1.0 + mu * mu);
    px[0] = t;
    double s = nt > 0 ? mu * t / nt : 0.0;
    for (ns_int k = 1; k < d; k++) px[k] = s * x[k];
}
