/* kind_ops.h — the per-kind descriptor: what the library does with a
 * problem of one kind, behind one table (problems/kind_table.c).
 *
 * A new problem kind is a folder (its struct, validator, error function,
 * solvers and a <kind>_kind.c that fills one ns_kind_ops) plus one row in
 * kind_table.c. ns_problem_validate / _size / _free, the solution layout,
 * ns_problem_error, the solve driver's dispatch and the .dat reader and
 * writer all go through the table instead of switching on the kind. Private to libnonsmooth_numerics. */
#ifndef NS_KIND_OPS_H
#define NS_KIND_OPS_H
#include "nonsmooth/ns_problem.h"
#include "nonsmooth/ns_solver.h"
#include "nonsmooth/ns_residual.h"
#include <stdio.h>

struct ns_solver_info;
struct ns_lexer;

typedef struct ns_kind_ops {
    /** Checks sizes and values; message naming the field in err. */
    ns_status (*validate)(const ns_problem *p, char *err);
    /** Frees the kind-specific problem (not p itself). */
    void (*release)(ns_problem *p);
    /** Number of unknowns of the main vector (ns_problem_size). */
    ns_int (*size)(const ns_problem *p);
    /** Names and lengths of the solution vectors, by ns_layout_add. */
    void (*layout)(const ns_problem *p, ns_solution *s);
    /** The kind's error on s (dependent vectors filled from the unknowns);
     *  s's shape is already checked against layout. +INFINITY on failure. */
    double (*error)(const ns_problem *p, ns_solution *s);
    /** Calls solver s on p with the solution's vectors. */
    ns_status (*dispatch)(const struct ns_solver_info *s, const ns_problem *p,
                          ns_solution *sol, const ns_options *o, ns_result *res);
    /** Reads the kind's Siconos-style .dat layout at the lexer (io/io_dat.h;
     *  FC/GFC readers may return the other dimension's kind, which the
     *  caller checks); NULL if the kind has no text layout. */
    ns_status (*read_dat)(struct ns_lexer *lx, ns_kind kind, ns_problem **out);
    /** Writes p in that layout (p's kind pointer is non-NULL). */
    ns_status (*write_dat)(FILE *f, const ns_problem *p, char *err);
} ns_kind_ops;

/** The descriptor of kind k, NULL for NS_KIND_NONE or an unknown value. */
const ns_kind_ops *ns_kind_ops_of(ns_kind k);

/** Appends a vector (name, len) to a layout being built. */
void ns_layout_add(ns_solution *s, const char *name, ns_int len);

/* One descriptor per kind folder (FC2D and FC3D share one, as do GFC2D/3D). */
extern const ns_kind_ops ns_lcp_kind_ops, ns_mlcp_kind_ops, ns_relay_kind_ops,
    ns_avi_kind_ops, ns_equality_kind_ops, ns_fc_kind_ops, ns_gfc_kind_ops,
    ns_gmp_kind_ops, ns_ncp_kind_ops, ns_mcp_kind_ops, ns_vi_kind_ops,
    ns_cqp_kind_ops, ns_soclcp_kind_ops;
extern const ns_kind_ops ns_rfc_kind_ops, ns_grfc_kind_ops;   /* RFC3D/RFC2D, GRFC3D */
#endif
