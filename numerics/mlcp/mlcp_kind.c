/* mlcp_kind.c — the MLCP row of the kind table: solution u (n, free),
 * v (m, complementary) and w (n+m). The error function and the solvers
 * work on z = (u, v) in one array: the row copies in and out of it. */
#include "problems/kind_ops.h"
#include "io/io_dat.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static ns_status validate(const ns_problem *p, char *err) { return ns_mlcp_validate(p->u.mlcp, err); }
static void release(ns_problem *p) { ns_mlcp_free(p->u.mlcp); }
static ns_int size(const ns_problem *p) { return p->u.mlcp->n + p->u.mlcp->m; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "u", p->u.mlcp->n);
    ns_layout_add(s, "v", p->u.mlcp->m);
    ns_layout_add(s, "w", p->u.mlcp->n + p->u.mlcp->m);
}

/* z = (u, v), contiguous: in small (32 doubles) when it fits (a sub-µs
 * solve paid a few % in malloc and free), else allocated; NULL on
 * allocation failure. The caller frees z when it is not small. */
static double *join(const ns_mlcp *q, const ns_solution *s, double *small)
{
    double *z = q->n + q->m <= 32 ? small
              : ns_malloc((size_t)(q->n + q->m), sizeof(double));
    if (!z) return NULL;
    if (q->n) memcpy(z, s->vec[0], (size_t)q->n * sizeof(double));
    if (q->m) memcpy(z + q->n, s->vec[1], (size_t)q->m * sizeof(double));
    return z;
}

static double error(const ns_problem *p, ns_solution *s)
{
    const ns_mlcp *q = p->u.mlcp;
    double small[32];
    double *z = join(q, s, small);
    if (!z) return INFINITY;
    double e = ns_mlcp_error(q, z, s->vec[2]);
    if (z != small) free(z);
    return e;
}

static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    const ns_mlcp *m = p->u.mlcp;
    double small[32];
    double *z = join(m, sol, small);
    if (!z) return ns_fail(res->message, NS_NO_MEMORY, "mlcp: out of memory");
    ns_status st = s->fn.mlcp(m, z, sol->vec[2], o, res);
    if (m->n) memcpy(sol->vec[0], z, (size_t)m->n * sizeof(double));
    if (m->m) memcpy(sol->vec[1], z + m->n, (size_t)m->m * sizeof(double));
    if (z != small) free(z);
    return st;
}

const ns_kind_ops ns_mlcp_kind_ops = { validate, release, size, layout, error, dispatch,
                                      ns_dat_read_mlcp, ns_dat_write_mlcp };
