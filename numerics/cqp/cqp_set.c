/* cqp_set.c — the projection onto a convex QP's set C: clamp on a box,
 * ns_soc_project per cone block, the user's callback, or the identity. */
#include "cqp/cqp_internal.h"
#include "nonsmooth/ns_soclcp.h"
#include "core/ns_internal.h"
#include <string.h>

int ns_cqp_project(const ns_cqp *p, const double *x, double *px)
{
    ns_int n = p->n;
    if (p->project) {
        if (p->project(p->user, n, x, px) != 0) return 1;
        return ns_all_finite(px, (size_t)n) ? 0 : 1;
    }
    if (p->lb) {
        for (ns_int i = 0; i < n; i++) {
            double v = x[i];
            if (v < p->lb[i]) v = p->lb[i];
            if (v > p->ub[i]) v = p->ub[i];
            px[i] = v;
        }
        return 0;
    }
    if (p->cone_start) {
        for (ns_int c = 0; c < p->ncones; c++) {
            ns_int s = p->cone_start[c];
            ns_soc_project(p->cone_start[c + 1] - s, p->cone_mu[c], x + s, px + s);
        }
        return 0;
    }
    if (px != x) memcpy(px, x, (size_t)n * sizeof(double));
    return 0;
}
