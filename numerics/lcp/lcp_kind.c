/* lcp_kind.c — the LCP row of the kind table: 0 ≤ z ⊥ Mz + q ≥ 0,
 * solution (z, w). */
#include "problems/kind_ops.h"

static ns_status validate(const ns_problem *p, char *err) { return ns_lcp_validate(p->u.lcp, err); }
static void release(ns_problem *p) { ns_lcp_free(p->u.lcp); }
static ns_int size(const ns_problem *p) { return p->u.lcp->n; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "z", p->u.lcp->n);
    ns_layout_add(s, "w", p->u.lcp->n);
}
static double error(const ns_problem *p, ns_solution *s) { return ns_lcp_error(p->u.lcp, s->vec[0], s->vec[1]); }
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.lcp(p->u.lcp, sol->vec[0], sol->vec[1], o, res);
}

const ns_kind_ops ns_lcp_kind_ops = { validate, release, size, layout, error, dispatch };
