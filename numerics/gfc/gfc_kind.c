/* gfc_kind.c — the GFC2D and GFC3D rows of the kind table (global friction
 * contact: M, H, q, b, μ), solution v (n), u (d·nc), r (d·nc). */
#include "problems/kind_ops.h"
#include "core/ns_internal.h"

static ns_status validate(const ns_problem *p, char *err)
{
    ns_status st = ns_gfc_validate(p->u.gfc, err);
    if (!st && p->u.gfc->dim != (p->kind == NS_KIND_GFC2D ? 2 : 3))
        return ns_fail(err, NS_BAD_INPUT, "%s: dim %d disagrees with the kind",
                       ns_kind_name(p->kind), p->u.gfc->dim);
    return st;
}
static void release(ns_problem *p) { ns_gfc_free(p->u.gfc); }
static ns_int size(const ns_problem *p) { return p->u.gfc->dim * p->u.gfc->nc; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "v", p->u.gfc->n);
    ns_layout_add(s, "u", size(p));
    ns_layout_add(s, "r", size(p));
}
static double error(const ns_problem *p, ns_solution *s)
{
    return ns_gfc_error(p->u.gfc, s->vec[0], s->vec[2], s->vec[1], NULL);
}
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.gfc(p->u.gfc, sol->vec[0], sol->vec[1], sol->vec[2], o, res);
}

const ns_kind_ops ns_gfc_kind_ops = { validate, release, size, layout, error, dispatch };
