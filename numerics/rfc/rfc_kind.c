/* rfc_kind.c — the RFC3D and RFC2D rows of the kind table (local rolling
 * friction contact: W, q, μ, μr), solution (r, u). The dimension in the
 * problem (5 or 6 with pivoting for RFC3D, 3 for RFC2D) must agree with
 * the kind. */
#include "problems/kind_ops.h"
#include "io/io_dat.h"
#include "core/ns_internal.h"

static ns_status validate(const ns_problem *p, char *err)
{
    ns_status st = ns_rfc_validate(p->u.rfc, err);
    int d = p->u.rfc->dim;
    if (!st && (p->kind == NS_KIND_RFC2D ? d != 3 : d != 5 && d != 6))
        return ns_fail(err, NS_BAD_INPUT, "%s: dim %d disagrees with the kind",
                       ns_kind_name(p->kind), p->u.rfc->dim);
    return st;
}
static void release(ns_problem *p) { ns_rfc_free(p->u.rfc); }
static ns_int size(const ns_problem *p) { return p->u.rfc->dim * p->u.rfc->nc; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "r", size(p));
    ns_layout_add(s, "u", size(p));
}
static double error(const ns_problem *p, ns_solution *s)
{
    return ns_rfc_error(p->u.rfc, s->vec[0], s->vec[1], NS_FC_NORM_SICONOS);
}
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.rfc(p->u.rfc, sol->vec[0], sol->vec[1], o, res);
}

const ns_kind_ops ns_rfc_kind_ops = { validate, release, size, layout, error, dispatch,
                                      ns_dat_read_rfc, ns_dat_write_rfc };
