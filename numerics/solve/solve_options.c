/* solve_options.c — the option table of each registered solver: the keys a
 * solver spec (NAME/key=value/..., solve_spec.c) may give it, with type,
 * default, range and meaning, and the ns_options field each key sets.
 * A row per solver of solve_registry.c that reads a solver-specific field
 * of ns_options; solvers without a row take the common keys only. Add the
 * row when a solver starts reading a field (tests/numerics/test_solver_spec.c
 * checks every row names a registered solver). */
#include "nonsmooth/ns_solver.h"
#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#define OFF(field) offsetof(ns_options, field)
#define INT_OPT(key, def, lo, hi, field, meaning) \
    { key, NS_OPT_INT, def, meaning, NULL, lo, hi, 0, NS_KIND_NONE, OFF(field) }

static const ns_solver_option common[] = {
    { "tol", NS_OPT_DOUBLE, "1e-8", "tolerance on the kind's relative error", NULL,
      DBL_MIN, DBL_MAX, 0, NS_KIND_NONE, OFF(tol) },
    INT_OPT("max_iter", "0", 0, INT_MAX, max_iter,
            "iteration limit; 0 = the solver's default (nsolve --list-solvers)"),
    { "time_limit", NS_OPT_DOUBLE, "0", "seconds; 0 = none", NULL,
      0, DBL_MAX, 0, NS_KIND_NONE, OFF(time_limit) },
};

/* Relaxation of the projected Gauss-Seidel family. */
#define OMEGA(def) \
    { "omega", NS_OPT_DOUBLE, def, "relaxation of each update, in (0, 2)", NULL, \
      DBL_MIN, 2.0, 1, NS_KIND_NONE, OFF(omega) }
#define CHECK_EVERY(meaning) INT_OPT("check_every", "0", 0, INT_MAX, check_every, meaning)

static const ns_solver_option lcp_pgs[] = {
    OMEGA("1"),
    CHECK_EVERY("global error every k sweeps (0: every sweep)"),
};
static const ns_solver_option lcp_psor[] = {
    OMEGA("1.2"),
    CHECK_EVERY("global error every k sweeps (0: every sweep)"),
};
static const ns_solver_option box_pgs[] = { OMEGA("1") };

/* The fc3d NSGS family (fc3d_nsgs.c). */
#define NSGS_COMMON                                                              \
    OMEGA("1"),                                                                  \
    INT_OPT("anderson", "0", 0, 16, anderson,                                    \
            "Anderson acceleration of the sweeps with this memory (0 = none)"),  \
    INT_OPT("threads", "0", 0, 4096, threads,                                    \
            "0: serial sweeps in contact order; k: coloured sweeps on k OpenMP threads"), \
    { "sweep", NS_OPT_CHOICE, "forward", "sweep order: forward, or symmetric (forward and " \
      "backward in turn)", "forward,symmetric", 0, 0, 0, NS_KIND_NONE, OFF(sweep) }, \
    INT_OPT("shuffle", "0", 0, 1, shuffle, "1: contact order shuffled each sweep"), \
    INT_OPT("seed", "1", 0, INT_MAX, seed, "seed of the shuffle"),                 \
    CHECK_EVERY("global error every k sweeps (0: when the light error predicts convergence)")

static const ns_solver_option fc3d_nsgs_fixed[] = { NSGS_COMMON };

/* ADMM (fc3d_admm.c, gfc_admm.c): threads for its per-contact loops and
 * gathered products; the iterates do not depend on their number. */
static const ns_solver_option admm_opts[] = {
    INT_OPT("threads", "0", 0, 4096, threads,
            "k > 1: cone projections, error terms and products on k OpenMP threads (same iterates)"),
};
static const ns_solver_option fc3d_nsgs[] = {
    NSGS_COMMON,
    { "local", NS_OPT_CHOICE, "ac", "one-contact solver: Alart-Curnier, Fischer-Burmeister, "
      "natural map, projection, enumeration", "ac,fb,nm,proj,enum", 0, 0, 0, NS_KIND_NONE,
      OFF(local_solver) },
};
static const ns_solver_option fc2d_nsgs[] = {
    OMEGA("1"),
    INT_OPT("shuffle", "0", 0, 1, shuffle, "1: contact order shuffled each sweep"),
    INT_OPT("seed", "1", 0, INT_MAX, seed, "seed of the shuffle"),
    CHECK_EVERY("global error every k sweeps (0: the solver's choice)"),
};
static const ns_solver_option fc_desaxce[] = {
    { "omega", NS_OPT_DOUBLE, "1", "fixed step rho (halved on growth), in (0, 2)", NULL,
      DBL_MIN, 2.0, 1, NS_KIND_NONE, OFF(omega) },
};
static const ns_solver_option fc_auto[] = {
    INT_OPT("seed", "1", 0, INT_MAX, seed, "seed of the shuffled NSGS chunks"),
};
static const ns_solver_option gfc3d_reduce[] = {
    { "local", NS_OPT_SOLVER, "auto", "fc3d solver of the reduced local problem", NULL,
      0, 0, 0, NS_KIND_FC3D, OFF(local_solver) },
};
static const ns_solver_option gfc2d_reduce[] = {
    { "local", NS_OPT_SOLVER, "auto", "fc2d solver of the reduced local problem", NULL,
      0, 0, 0, NS_KIND_FC2D, OFF(local_solver) },
};

static const ns_solver_option soclcp_nsgs[] = {
    { "local", NS_OPT_CHOICE, "proj", "one-cone solver: projection iteration, or semismooth "
      "Newton on the cone's Fischer-Burmeister function (projection where it stops short)",
      "proj,newton", 0, 0, 0, NS_KIND_NONE, OFF(local_solver) },
};

#define ROW(name, kind, table) { name, kind, table, sizeof table / sizeof table[0] }
static const struct row {
    const char *name;
    ns_kind kind;
    const ns_solver_option *opts;
    size_t n;
} rows[] = {
    ROW("pgs", NS_KIND_LCP, lcp_pgs),
    ROW("psor", NS_KIND_LCP, lcp_psor),
    ROW("pgs", NS_KIND_MLCP, box_pgs),
    ROW("pgs", NS_KIND_RELAY, box_pgs),
    ROW("nsgs-ac", NS_KIND_FC3D, fc3d_nsgs_fixed),
    ROW("nsgs-fb", NS_KIND_FC3D, fc3d_nsgs_fixed),
    ROW("nsgs-nm", NS_KIND_FC3D, fc3d_nsgs_fixed),
    ROW("nsgs-proj", NS_KIND_FC3D, fc3d_nsgs_fixed),
    ROW("nsgs", NS_KIND_FC3D, fc3d_nsgs),
    ROW("pgs", NS_KIND_FC2D, fc3d_nsgs_fixed),
    ROW("nsgs", NS_KIND_FC2D, fc2d_nsgs),
    ROW("desaxce", NS_KIND_FC3D, fc_desaxce),
    ROW("desaxce", NS_KIND_FC2D, fc_desaxce),
    ROW("auto", NS_KIND_FC3D, fc_auto),
    ROW("auto", NS_KIND_FC2D, fc_auto),
    ROW("reduce", NS_KIND_GFC3D, gfc3d_reduce),
    ROW("reduce", NS_KIND_GFC2D, gfc2d_reduce),
    ROW("nsgs", NS_KIND_SOCLCP, soclcp_nsgs),
    ROW("admm", NS_KIND_FC3D, admm_opts),
    ROW("admm", NS_KIND_FC2D, admm_opts),
    ROW("admm", NS_KIND_GFC3D, admm_opts),
    ROW("admm", NS_KIND_GFC2D, admm_opts),
};

const ns_solver_option *ns_solver_common_options(size_t *n)
{
    if (n) *n = sizeof common / sizeof common[0];
    return common;
}

const ns_solver_option *ns_solver_options(const ns_solver_info *s, size_t *n)
{
    if (n) *n = 0;
    if (!s) return NULL;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].kind == s->kind && strcmp(rows[i].name, s->name) == 0) {
            if (n) *n = rows[i].n;
            return rows[i].opts;
        }
    return common + sizeof common / sizeof common[0]; /* empty, non-NULL */
}
