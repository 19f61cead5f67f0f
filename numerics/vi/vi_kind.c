/* vi_kind.c — the VI row of the kind table: solution x and F = F(x).
 * File form: the relay layout (M, q, lb, ub), read as the affine box VI
 * F(x) = M x + q over [lb, ub]; affine box VIs are written in it. */
#include "problems/kind_ops.h"
#include "io/io_dat.h"
#include "core/ns_internal.h"
#include <stdlib.h>

static ns_status validate(const ns_problem *p, char *err) { return ns_vi_validate(p->u.vi, err); }
static void release(ns_problem *p) { ns_vi_free(p->u.vi); }
static ns_int size(const ns_problem *p) { return p->u.vi->n; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "x", p->u.vi->n);
    ns_layout_add(s, "F", p->u.vi->n);
}
static double error(const ns_problem *p, ns_solution *s) { return ns_vi_error(p->u.vi, s->vec[0], s->vec[1]); }
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.vi(p->u.vi, sol->vec[0], sol->vec[1], o, res);
}

static ns_status read_dat(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    (void)kind;
    ns_problem *l = NULL;
    ns_status st = ns_dat_read_lcp_like(lx, NS_KIND_RELAY, &l);
    if (st) return st;
    ns_relay *r = l->u.relay;
    ns_vi *p = ns_vi_new_affine_box(r->M, r->q, r->lb, r->ub);
    r->M = NULL;   /* taken (freed on failure) */
    ns_problem_free(l);
    *out = ns_problem_from_vi(p);
    return *out ? NS_OK : ns_lex_fail(lx, "vi", "out of memory");
}

static ns_status write_dat(FILE *f, const ns_problem *p, char *err)
{
    const ns_vi *v = p->u.vi;
    if (!v->M || v->project)
        return ns_fail(err, NS_BAD_INPUT, "vi: only an affine VI over a box has a file form");
    ns_relay r = { 0 };
    r.n = v->n;
    r.M = v->M;
    r.q = v->q;
    r.lb = v->lb;
    r.ub = v->ub;
    ns_problem w = { .kind = NS_KIND_RELAY, .u.relay = &r };
    return ns_dat_write_relay(f, &w, err);
}

const ns_kind_ops ns_vi_kind_ops = { validate, release, size, layout, error, dispatch,
                                     read_dat, write_dat };
