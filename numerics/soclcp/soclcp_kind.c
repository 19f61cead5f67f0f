/* soclcp_kind.c — the SOCLCP row of the kind table: solution r and
 * v = W r + q. File form: Siconos' SOCLCP layout (what its
 * secondOrderConeLinearComplementarityProblem_printInFile writes): n, nc,
 * the NumericsMatrix W, q (n values), the nc + 1 cone starts, the nc
 * coefficients. Detected from the content once the cone starts are valid
 * and exactly nc numbers remain (io_detect.c). */
#include "problems/kind_ops.h"
#include "io/io_dat.h"
#include "core/ns_internal.h"
#include <stdlib.h>

static ns_status validate(const ns_problem *p, char *err) { return ns_soclcp_validate(p->u.soclcp, err); }
static void release(ns_problem *p) { ns_soclcp_free(p->u.soclcp); }
static ns_int size(const ns_problem *p) { return p->u.soclcp->n; }
static void layout(const ns_problem *p, ns_solution *s)
{
    ns_layout_add(s, "r", p->u.soclcp->n);
    ns_layout_add(s, "v", p->u.soclcp->n);
}
static double error(const ns_problem *p, ns_solution *s)
{
    return ns_soclcp_error(p->u.soclcp, s->vec[0], s->vec[1]);
}
static ns_status dispatch(const ns_solver_info *s, const ns_problem *p, ns_solution *sol,
                          const ns_options *o, ns_result *res)
{
    return s->fn.soclcp(p->u.soclcp, sol->vec[0], sol->vec[1], o, res);
}
static ns_status read_dat(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    (void)kind;
    ns_int n, nc;
    ns_matrix *W = NULL;
    double *q = NULL, *mu = NULL;
    ns_int *start = NULL;
    ns_status st;
    if ((st = ns_lex_count(lx, "n", &n)) || (st = ns_lex_count(lx, "nc", &nc))) return st;
    if (nc > n) return ns_lex_fail(lx, "nc", "%d cones for n = %d unknowns", nc, n);
    if ((st = ns_dat_read_matrix(lx, "W", &W, NULL))) return st;
    if (W->rows != n || W->cols != n) {
        st = ns_lex_fail(lx, "W", "%d x %d matrix disagrees with n = %d", W->rows, W->cols, n);
        goto done;
    }
    if ((st = ns_lex_need(lx, "q", (size_t)n + 2 * (size_t)nc + 1, 2))) goto done;
    q = ns_malloc((size_t)(n > 0 ? n : 1), sizeof(double));
    start = ns_malloc((size_t)nc + 1, sizeof(ns_int));
    mu = ns_malloc((size_t)(nc > 0 ? nc : 1), sizeof(double));
    if (!q || !start || !mu) { st = ns_lex_fail(lx, "soclcp", "out of memory"); st = NS_NO_MEMORY; goto done; }
    if ((st = ns_lex_reals(lx, "q", (size_t)n, q))) goto done;
    for (ns_int c = 0; c <= nc; c++)
        if ((st = ns_lex_int_range(lx, "coneIndex", c ? start[c - 1] + 1 : 0, c ? n : 0, &start[c])))
            goto done;
    if (start[nc] != n) { st = ns_lex_fail(lx, "coneIndex", "last start %d, expected n = %d", start[nc], n); goto done; }
    /* the content detection takes the file for an SOCLCP from here: an
     * n x n W, n values, valid cone starts and exactly nc numbers left */
    if (ns_lex_rest_is_reals(lx, (size_t)nc)) lx->committed = 1;
    if ((st = ns_lex_reals(lx, "mu", (size_t)nc, mu))) goto done;
    for (ns_int c = 0; c < nc; c++)
        if (mu[c] < 0) { st = ns_lex_fail(lx, "mu", "mu[%d] = %g is negative", c, mu[c]); goto done; }
    *out = ns_problem_from_soclcp(ns_soclcp_new(W, q, nc, start, mu));
    W = NULL;   /* taken, also on failure */
    if (!*out) st = ns_lex_fail(lx, "soclcp", "out of memory");
done:
    ns_matrix_free(W);
    free(q); free(start); free(mu);
    return st;
}

static ns_status write_dat(FILE *f, const ns_problem *p, char *err)
{
    const ns_soclcp *s = p->u.soclcp;
    if (!ns_all_finite(s->q, (size_t)s->n) || !ns_all_finite(s->mu, (size_t)s->nc))
        return ns_fail(err, NS_BAD_INPUT, "soclcp: q or mu: not finite");
    fprintf(f, "%d\n%d\n", s->n, s->nc);
    ns_status st = ns_dat_write_matrix(f, s->W, "W", err);
    if (st) return st;
    ns_dat_write_values(f, s->q, (size_t)s->n, " ");
    for (ns_int c = 0; c <= s->nc; c++) fprintf(f, "%d%s", s->cone_start[c], c < s->nc ? " " : "\n");
    ns_dat_write_values(f, s->mu, (size_t)s->nc, " ");
    return NS_OK;
}

const ns_kind_ops ns_soclcp_kind_ops = { validate, release, size, layout, error, dispatch,
                                         read_dat, write_dat };
