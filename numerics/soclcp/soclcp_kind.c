/* soclcp_kind.c — the SOCLCP row of the kind table: solution r and
 * v = W r + q. No file form. */
#include "problems/kind_ops.h"
#include "core/ns_internal.h"

static ns_status validate(const ns_problem *p, char *err) { return ns_soclcp_validate(p->u.soclcp, err); }
static void release(ns_problem *p) { ns_soclcp_free(p->u.soclcp); }
static ns_int size(const ns_problem *p) { return p->u.soclcp->n; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "r", p->u.soclcp->n);
    ns_layout_add(s, "v", p->u.soclcp->n);
}
static double error(const ns_problem *p, ns_solution *s)
{
    return ns_soclcp_error(p->u.soclcp, s->vec[0], s->vec[1]);
}
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.soclcp(p->u.soclcp, sol->vec[0], sol->vec[1], o, res);
}
static ns_status write_dat(FILE *f, const ns_problem *p, char *err)
{
    (void)f;
    (void)p;
    return ns_fail(err, NS_BAD_INPUT, "soclcp: no file form");
}

const ns_kind_ops ns_soclcp_kind_ops = { validate, release, size, layout, error, dispatch,
                                         NULL, write_dat };
