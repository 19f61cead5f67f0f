/* equality_kind.c — the equality row of the kind table: solution z alone; w is
 * scratch for the error function and the solvers. */
#include "problems/kind_ops.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>

static ns_status validate(const ns_problem *p, char *err) { return ns_equality_validate(p->u.equality, err); }
static void release(ns_problem *p) { ns_equality_free(p->u.equality); }
static ns_int size(const ns_problem *p) { return p->u.equality->n; }
static void layout(const ns_problem *p, ns_solution *s) { ns_layout_add(s, "z", p->u.equality->n); }

static double error(const ns_problem *p, ns_solution *s)
{
    ns_int n = p->u.equality->n;
    double *w = ns_malloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!w) return INFINITY;
    double e = ns_equality_error(p->u.equality, s->vec[0], w);
    free(w);
    return e;
}

static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    ns_int n = p->u.equality->n;
    double *w = ns_malloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!w) return ns_fail(res->message, NS_NO_MEMORY, "equality: out of memory");
    ns_status st = s->fn.equality(p->u.equality, sol->vec[0], w, o, res);
    free(w);
    return st;
}

const ns_kind_ops ns_equality_kind_ops = { validate, release, size, layout, error, dispatch };
