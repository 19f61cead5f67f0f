/* avi_kind.c — the avi row of the kind table: solution z alone; w is
 * scratch for the error function and the solvers. */
#include "problems/kind_ops.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>

static ns_status validate(const ns_problem *p, char *err) { return ns_avi_validate(p->u.avi, err); }
static void release(ns_problem *p) { ns_avi_free(p->u.avi); }
static ns_int size(const ns_problem *p) { return p->u.avi->n; }
static void layout(const ns_problem *p, ns_solution *s) { ns_layout_add(s, "z", p->u.avi->n); }

static double error(const ns_problem *p, ns_solution *s)
{
    ns_int n = p->u.avi->n;
    double *w = ns_malloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!w) return INFINITY;
    double e = ns_avi_error(p->u.avi, s->vec[0], w);
    free(w);
    return e;
}

static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    ns_int n = p->u.avi->n;
    double *w = ns_malloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!w) return ns_fail(res->message, NS_NO_MEMORY, "avi: out of memory");
    ns_status st = s->fn.avi(p->u.avi, sol->vec[0], w, o, res);
    free(w);
    return st;
}

const ns_kind_ops ns_avi_kind_ops = { validate, release, size, layout, error, dispatch };
