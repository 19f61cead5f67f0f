/* ncp_solve.c — the NCP solvers: the box kernels of mcp/ with l = 0,
 * u = +∞ (newton-fb, newton-min, homotopy, auto). */
#include "solve/solvers.h"
#include "mcp/mcp_internal.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>

enum { NEWTON_FB, NEWTON_MIN, HOMOTOPY, AUTO };

static ns_status run(int which, const ns_ncp *p, double *z, double *F,
                     const ns_options *o, ns_result *res)
{
    ns_cp_map f = { p->n, p->F, p->J, p->user, p->M, p->q };
    double *lb, *ub;
    if (ns_bounds_copy0(p->n, &lb, &ub)) return ns_fail(res->message, NS_NO_MEMORY, "ncp: out of memory");
    for (ns_int i = 0; i < p->n; i++) lb[i] = 0.0;
    ns_status st;
    switch (which) {
    case NEWTON_FB: st = ns_box_newton(&f, lb, ub, NS_CP_FB, 0.0, z, F, o, res); break;
    case NEWTON_MIN: st = ns_box_newton(&f, lb, ub, NS_CP_MIN, 0.0, z, F, o, res); break;
    case HOMOTOPY: st = ns_box_homotopy(&f, lb, ub, z, F, o, res); break;
    default: st = ns_box_auto(&f, lb, ub, z, F, o, res); break;
    }
    free(lb);
    free(ub);
    return st;
}

ns_status ns_ncp_newton_fb(const ns_ncp *p, double *z, double *F, const ns_options *o, ns_result *res)
{ return run(NEWTON_FB, p, z, F, o, res); }
ns_status ns_ncp_newton_min(const ns_ncp *p, double *z, double *F, const ns_options *o, ns_result *res)
{ return run(NEWTON_MIN, p, z, F, o, res); }
ns_status ns_ncp_homotopy(const ns_ncp *p, double *z, double *F, const ns_options *o, ns_result *res)
{ return run(HOMOTOPY, p, z, F, o, res); }
ns_status ns_ncp_auto(const ns_ncp *p, double *z, double *F, const ns_options *o, ns_result *res)
{ return run(AUTO, p, z, F, o, res); }
