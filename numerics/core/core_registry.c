/* core_registry.c — the one table of solvers. nsolve and nsbench look
 * solvers up here by (name, kind); tests walk it so no solver goes untested.
 * Add a row when a solver lands; mark one default per kind. */
#include "nonsmooth/ns_solver.h"
#include "core/solvers.h"
#include <string.h>

static const ns_solver_info registry[] = {
    { "direct", NS_KIND_EQUALITY, { .equality = ns_equality_direct }, 1, 1,
      "direct factorization: CHOLMOD if sparse SPD, UMFPACK if sparse, LAPACKE LU if dense" },
    { "pgs", NS_KIND_LCP, { .lcp = ns_lcp_pgs }, 1, 10000,
      "projected Gauss-Seidel z_i <- max(0, z_i - w_i / M_ii); needs M_ii > 0" },
};

size_t ns_solver_count(void)
{
    return sizeof registry / sizeof registry[0];
}

const ns_solver_info *ns_solver_at(size_t i)
{
    return i < ns_solver_count() ? &registry[i] : NULL;
}

const ns_solver_info *ns_solver_find(const char *name, ns_kind kind)
{
    if (!name) return NULL;
    for (size_t i = 0; i < ns_solver_count(); i++)
        if (registry[i].kind == kind && strcmp(registry[i].name, name) == 0)
            return &registry[i];
    return NULL;
}

const ns_solver_info *ns_solver_default(ns_kind kind)
{
    for (size_t i = 0; i < ns_solver_count(); i++)
        if (registry[i].kind == kind && registry[i].is_default) return &registry[i];
    return NULL;
}
