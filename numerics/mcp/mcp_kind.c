/* mcp_kind.c — the MCP row of the kind table: solution z and F = F(z).
 * File form: the MLCP layout, read as the affine MCP F(z) = M z + q with
 * z free on the equality rows and 0 ≤ z ⊥ F ≥ 0 on the complementarity
 * rows; a callback F or other bounds have no file form. */
#include "problems/kind_ops.h"
#include "io/io_dat.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>

static ns_status validate(const ns_problem *p, char *err) { return ns_mcp_validate(p->u.mcp, err); }
static void release(ns_problem *p) { ns_mcp_free(p->u.mcp); }
static ns_int size(const ns_problem *p) { return p->u.mcp->n; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "z", p->u.mcp->n);
    ns_layout_add(s, "F", p->u.mcp->n);
}
static double error(const ns_problem *p, ns_solution *s) { return ns_mcp_error(p->u.mcp, s->vec[0], s->vec[1]); }
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.mcp(p->u.mcp, sol->vec[0], sol->vec[1], o, res);
}

static ns_status read_dat(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    (void)kind;
    ns_problem *l = NULL;
    ns_status st = ns_dat_read_mlcp(lx, NS_KIND_MLCP, &l);
    if (st) return st;
    ns_mlcp *m = l->u.mlcp;
    if (m->M->rows != m->M->cols) {
        ns_problem_free(l);
        return ns_lex_fail(lx, "M", "rectangular M: not an MCP");
    }
    ns_int n = m->M->cols;
    double *lb = ns_malloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!lb) { ns_problem_free(l); return ns_lex_fail(lx, "mcp", "out of memory"); }
    for (ns_int i = 0; i < n; i++) lb[i] = i < m->n ? -INFINITY : 0.0;
    for (ns_int b = 0; b < m->nblocks; b++)
        for (ns_int i = m->block_start[b]; i < m->block_start[b + 1] && i < n; i++)
            lb[i] = m->block_kind[b] == 0 ? -INFINITY : 0.0;
    ns_mcp *p = ns_mcp_new_affine(m->M, m->q, lb, NULL);
    m->M = NULL;
    free(lb);
    ns_problem_free(l);
    *out = ns_problem_from_mcp(p);
    return *out ? NS_OK : ns_lex_fail(lx, "mcp", "out of memory");
}

static ns_status write_dat(FILE *f, const ns_problem *p, char *err)
{
    (void)f;
    (void)p;
    return ns_fail(err, NS_BAD_INPUT, "mcp: no file form to write (MLCP files are read as MCPs)");
}

const ns_kind_ops ns_mcp_kind_ops = { validate, release, size, layout, error, dispatch,
                                      read_dat, write_dat };
