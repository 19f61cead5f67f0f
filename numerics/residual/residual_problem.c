/* residual_problem.c — ns_problem_error: the kind's error on a solution's
 * vectors (ns_problem.h lists them per kind). */
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include "problems/kind_ops.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Fills the dependent vectors of s from its unknowns and returns the kind's
 * error (FC: NS_FC_NORM_SICONOS). +INFINITY when s does not match p's
 * solution layout (count, lengths, vectors present) or on allocation
 * failure. The kind's own computation is its row of the kind table. */
double ns_problem_error(const ns_problem *p, ns_solution *s)
{
    if (!p || !s || s->kind != p->kind) return INFINITY;
    const ns_kind_ops *k = ns_kind_ops_of(p->kind);
    if (!k) return INFINITY;
    ns_solution ref;
    ref.nvec = 0;
    k->layout(p, &ref);
    if (s->nvec < ref.nvec) return INFINITY;
    for (int i = 0; i < ref.nvec; i++)
        if (s->len[i] != ref.len[i] || (ref.len[i] > 0 && !s->vec[i])) return INFINITY;
    return k->error(p, s);
}
