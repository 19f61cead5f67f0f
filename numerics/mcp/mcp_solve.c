/* mcp_solve.c — the MCP solvers: the box kernels (mcp_newton.c,
 * mcp_homotopy.c, mcp_auto.c) on the problem's own bounds. */
#include "solve/solvers.h"
#include "mcp/mcp_internal.h"

ns_status ns_mcp_newton_fb(const ns_mcp *p, double *z, double *F, const ns_options *o, ns_result *res)
{
    ns_cp_map f = { p->n, p->F, p->J, p->user, p->M, p->q };
    return ns_box_newton(&f, p->lb, p->ub, NS_CP_FB, 0.0, z, F, o, res);
}

ns_status ns_mcp_newton_min(const ns_mcp *p, double *z, double *F, const ns_options *o, ns_result *res)
{
    ns_cp_map f = { p->n, p->F, p->J, p->user, p->M, p->q };
    return ns_box_newton(&f, p->lb, p->ub, NS_CP_MIN, 0.0, z, F, o, res);
}

ns_status ns_mcp_homotopy(const ns_mcp *p, double *z, double *F, const ns_options *o, ns_result *res)
{
    ns_cp_map f = { p->n, p->F, p->J, p->user, p->M, p->q };
    return ns_box_homotopy(&f, p->lb, p->ub, z, F, o, res);
}

ns_status ns_mcp_auto(const ns_mcp *p, double *z, double *F, const ns_options *o, ns_result *res)
{
    ns_cp_map f = { p->n, p->F, p->J, p->user, p->M, p->q };
    return ns_box_auto(&f, p->lb, p->ub, z, F, o, res);
}
