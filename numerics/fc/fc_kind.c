/* fc_kind.c — the FC2D and FC3D rows of the kind table (local friction
 * contact: W, q, μ), solution (r, u). The dimension in the problem must
 * agree with the kind. */
#include "problems/kind_ops.h"
#include "core/ns_internal.h"

static ns_status validate(const ns_problem *p, char *err)
{
    ns_status st = ns_fc_validate(p->u.fc, err);
    if (!st && p->u.fc->dim != (p->kind == NS_KIND_FC2D ? 2 : 3))
        return ns_fail(err, NS_BAD_INPUT, "%s: dim %d disagrees with the kind",
                       ns_kind_name(p->kind), p->u.fc->dim);
    return st;
}
static void release(ns_problem *p) { ns_fc_free(p->u.fc); }
static ns_int size(const ns_problem *p) { return p->u.fc->dim * p->u.fc->nc; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "r", size(p));
    ns_layout_add(s, "u", size(p));
}
static double error(const ns_problem *p, ns_solution *s)
{
    return ns_fc_error(p->u.fc, s->vec[0], s->vec[1], NS_FC_NORM_SICONOS);
}
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.fc(p->u.fc, sol->vec[0], sol->vec[1], o, res);
}

const ns_kind_ops ns_fc_kind_ops = { validate, release, size, layout, error, dispatch };
