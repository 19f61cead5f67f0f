/* grfc_kind.c — the GRFC3D row of the kind table (global rolling friction
 * contact: M, H, q, b, μ, μr), solution v (n), u (5·nc), r (5·nc). */
#include "problems/kind_ops.h"
#include "io/io_dat.h"
#include "core/ns_internal.h"

static ns_status validate(const ns_problem *p, char *err) { return ns_grfc_validate(p->u.grfc, err); }
static void release(ns_problem *p) { ns_grfc_free(p->u.grfc); }
static ns_int size(const ns_problem *p) { return p->u.grfc->dim * p->u.grfc->nc; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "v", p->u.grfc->n);
    ns_layout_add(s, "u", size(p));
    ns_layout_add(s, "r", size(p));
}
static double error(const ns_problem *p, ns_solution *s)
{
    return ns_grfc_error(p->u.grfc, s->vec[0], s->vec[2], s->vec[1], NULL);
}
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.grfc(p->u.grfc, sol->vec[0], sol->vec[1], sol->vec[2], o, res);
}

const ns_kind_ops ns_grfc_kind_ops = { validate, release, size, layout, error, dispatch,
                                       ns_dat_read_grfc, ns_dat_write_grfc };
