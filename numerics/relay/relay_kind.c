/* relay_kind.c — the relay row of the kind table: lb ≤ z ≤ ub,
 * −(Mz + q) ∈ N_[lb,ub](z), solution (z, w). */
#include "problems/kind_ops.h"

static ns_status validate(const ns_problem *p, char *err) { return ns_relay_validate(p->u.relay, err); }
static void release(ns_problem *p) { ns_relay_free(p->u.relay); }
static ns_int size(const ns_problem *p) { return p->u.relay->n; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "z", p->u.relay->n);
    ns_layout_add(s, "w", p->u.relay->n);
}
static double error(const ns_problem *p, ns_solution *s) { return ns_relay_error(p->u.relay, s->vec[0], s->vec[1]); }
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.relay(p->u.relay, sol->vec[0], sol->vec[1], o, res);
}

const ns_kind_ops ns_relay_kind_ops = { validate, release, size, layout, error, dispatch };
