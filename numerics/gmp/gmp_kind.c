/* gmp_kind.c — the generic mechanical problem's row of the kind table:
 * solution (reaction, velocity), n each. */
#include "problems/kind_ops.h"

static ns_status validate(const ns_problem *p, char *err) { return ns_gmp_validate(p->u.gmp, err); }
static void release(ns_problem *p) { ns_gmp_free(p->u.gmp); }
static ns_int size(const ns_problem *p) { return p->u.gmp->n; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "reaction", p->u.gmp->n);
    ns_layout_add(s, "velocity", p->u.gmp->n);
}
static double error(const ns_problem *p, ns_solution *s) { return ns_gmp_error(p->u.gmp, s->vec[0], s->vec[1]); }
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.gmp(p->u.gmp, sol->vec[0], sol->vec[1], o, res);
}

const ns_kind_ops ns_gmp_kind_ops = { validate, release, size, layout, error, dispatch };
