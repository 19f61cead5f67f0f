/* cqp_kind.c — the convex QP row of the kind table: solution x (n), y (m,
 * multipliers of A x = b) and g = M x + q − Aᵀ y (n). No file form. */
#include "problems/kind_ops.h"
#include "core/ns_internal.h"

static ns_status validate(const ns_problem *p, char *err) { return ns_cqp_validate(p->u.cqp, err); }
static void release(ns_problem *p) { ns_cqp_free(p->u.cqp); }
static ns_int size(const ns_problem *p) { return p->u.cqp->n; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "x", p->u.cqp->n);
    ns_layout_add(s, "y", p->u.cqp->m);
    ns_layout_add(s, "g", p->u.cqp->n);
}
static double error(const ns_problem *p, ns_solution *s)
{
    return ns_cqp_error(p->u.cqp, s->vec[0], s->vec[1], s->vec[2]);
}
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.cqp(p->u.cqp, sol->vec[0], sol->vec[1], sol->vec[2], o, res);
}
static ns_status write_dat(FILE *f, const ns_problem *p, char *err)
{
    (void)f;
    (void)p;
    return ns_fail(err, NS_BAD_INPUT, "cqp: no file form");
}

const ns_kind_ops ns_cqp_kind_ops = { validate, release, size, layout, error, dispatch,
                                      NULL, write_dat };
