/* ncp_kind.c — the NCP row of the kind table: solution z and F = F(z).
 * File form: the LCP layout, read as the affine NCP F(z) = M z + q (and
 * an affine NCP is written in it); a callback F has no file form. */
#include "problems/kind_ops.h"
#include "io/io_dat.h"
#include "core/ns_internal.h"
#include <stdlib.h>

static ns_status validate(const ns_problem *p, char *err) { return ns_ncp_validate(p->u.ncp, err); }
static void release(ns_problem *p) { ns_ncp_free(p->u.ncp); }
static ns_int size(const ns_problem *p) { return p->u.ncp->n; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "z", p->u.ncp->n);
    ns_layout_add(s, "F", p->u.ncp->n);
}
static double error(const ns_problem *p, ns_solution *s) { return ns_ncp_error(p->u.ncp, s->vec[0], s->vec[1]); }
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.ncp(p->u.ncp, sol->vec[0], sol->vec[1], o, res);
}

static ns_status read_dat(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    (void)kind;
    ns_problem *l = NULL;
    ns_status st = ns_dat_read_lcp_like(lx, NS_KIND_LCP, &l);
    if (st) return st;
    ns_lcp *lcp = l->u.lcp;
    ns_ncp *p = ns_ncp_new_affine(lcp->M, lcp->q);
    lcp->M = NULL;   /* taken (freed on failure) */
    ns_problem_free(l);
    *out = ns_problem_from_ncp(p);
    return *out ? NS_OK : ns_lex_fail(lx, "ncp", "out of memory");
}

static ns_status write_dat(FILE *f, const ns_problem *p, char *err)
{
    const ns_ncp *q = p->u.ncp;
    if (!q->M) return ns_fail(err, NS_BAD_INPUT, "ncp: F is a callback: no file form");
    ns_lcp l = { q->n, q->M, q->q };
    ns_problem w = { .kind = NS_KIND_LCP, .u.lcp = &l };
    return ns_dat_write_lcp(f, &w, err);
}

const ns_kind_ops ns_ncp_kind_ops = { validate, release, size, layout, error, dispatch,
                                      read_dat, write_dat };
