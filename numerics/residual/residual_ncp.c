/* residual_ncp.c — errors of the NCP and the MCP (docs/kinds.md): the
 * natural-map residual ‖z − P_[l,u](z − F(z))‖₂, absolute, as Siconos'
 * ncp_compute_error (l = 0, u = +∞ for the NCP). +INFINITY when F cannot
 * be evaluated or z is not finite. */
#include "nonsmooth/ns_residual.h"
#include "mcp/mcp_internal.h"
#include "core/ns_internal.h"
#include <math.h>

double ns_ncp_error(const ns_ncp *p, const double *z, double *F)
{
    if (!p || !z || !F || p->n < 0) return INFINITY;
    if (!ns_all_finite(z, (size_t)p->n)) return INFINITY;
    ns_cp_map f = { p->n, p->F, p->J, p->user, p->M, p->q };
    if ((p->F == NULL) == (p->M == NULL)) return INFINITY;
    if (ns_cp_eval(&f, z, F)) return INFINITY;
    double s = 0.0;
    for (ns_int i = 0; i < p->n; i++) {
        double y = z[i] - F[i];
        double d = z[i] - (y > 0.0 ? y : 0.0);
        s += d * d;
    }
    return sqrt(s);
}

double ns_mcp_error(const ns_mcp *p, const double *z, double *F)
{
    if (!p || !z || !F || p->n < 0 || !p->lb || !p->ub) return INFINITY;
    if (!ns_all_finite(z, (size_t)p->n)) return INFINITY;
    if ((p->F == NULL) == (p->M == NULL)) return INFINITY;
    ns_cp_map f = { p->n, p->F, p->J, p->user, p->M, p->q };
    if (ns_cp_eval(&f, z, F)) return INFINITY;
    double e = ns_box_natural_residual(p->n, p->lb, p->ub, z, F);
    return isfinite(e) ? e : INFINITY;
}
