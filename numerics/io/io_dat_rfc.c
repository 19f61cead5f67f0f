/* io_dat_rfc.c — the .dat layouts of the rolling friction-contact kinds
 * (docs/formats-extensions.md §6), as Siconos 4.4 writes them:
 *   RFC3D / RFC2D:  d  nc  W (NumericsMatrix)  q (d·nc)  mu (nc)  mu_r (nc)
 *   GRFC3D:         d  nc  M (NumericsMatrix)  H (NumericsMatrix)
 *                   q (n)  b (d·nc)  mu (nc)  mu_r (nc)
 * d is the number of unknowns per contact: 5 in 3D, 3 in 2D (the global
 * layout exists in 3D only). Readers validate as they go (sizes against
 * the data left, finite values, μ and μr ≥ 0) and return a consistent
 * problem or nothing; writers print %.17g values (exact round trip). */
#include "io/io_dat.h"
#include "problems/kind_ops.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* μ or μr: n reals ≥ 0 (finiteness checked by the lexer). */
static ns_status read_coefs(ns_lexer *lx, const char *field, ns_int nc, double **out)
{
    ns_status st = ns_dat_read_vec(lx, field, nc, out);
    if (st) return st;
    for (ns_int a = 0; a < nc; a++)
        if ((*out)[a] < 0) {
            char f[48];
            double v = (*out)[a];
            ns_lex_field(f, sizeof f, field, "[", a, "]");
            free(*out);
            *out = NULL;
            return ns_lex_fail(lx, f, "%.17g is negative", v);
        }
    return NS_OK;
}

/* After mu of a "3 nc W q mu" text: 1 when the rest is exactly nc numbers
 * (mu_r) and, for nc = 1, not a lone "0" or "1" (sign allowed), the flag
 * Siconos' FC3D files carry there; a 2D rolling file written by
 * ns_dat_write_rfc always has an exponent in mu_r. */
static int rfc2d_tail_matches(const ns_lexer *lx, ns_int nc)
{
    if (nc < 1 || !ns_lex_rest_is_reals(lx, (size_t)nc)) return 0;
    if (nc > 1) return 1;
    size_t p = lx->pos, e;
    while (p < lx->len && (lx->buf[p] == ' ' || lx->buf[p] == '\t' || lx->buf[p] == '\n' ||
                           lx->buf[p] == '\r' || lx->buf[p] == '\v' || lx->buf[p] == '\f'))
        p++;
    if (p < lx->len && (lx->buf[p] == '+' || lx->buf[p] == '-')) p++;
    for (e = p; e < lx->len && lx->buf[e] >= '0' && lx->buf[e] <= '9'; e++) {}
    int lone = e == p + 1 && (lx->buf[p] == '0' || lx->buf[p] == '1') &&
               (e == lx->len || lx->buf[e] == ' ' || lx->buf[e] == '\t' || lx->buf[e] == '\n' ||
                lx->buf[e] == '\r' || lx->buf[e] == '\v' || lx->buf[e] == '\f');
    return !lone;
}

ns_status ns_dat_read_rfc(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    ns_int d, nc;
    ns_matrix *W = NULL;
    double *q = NULL, *mu = NULL, *mur = NULL;
    ns_status st;
    if ((st = ns_lex_int_range(lx, "d", 3, 5, &d))) return st;
    if (d == 4) return ns_lex_fail(lx, "d", "4 is not 5 (3D) or 3 (2D) unknowns per contact");
    /* a 2D file asked for as 3D or the reverse fails here, uncommitted, so
     * that the detection's retry in the other dimension is the one kept */
    if ((kind == NS_KIND_RFC3D && d != 5) || (kind == NS_KIND_RFC2D && d != 3))
        return ns_lex_fail(lx, "d", "%d unknowns per contact: the file holds an %s problem, "
                           "%s was asked for", d, d == 5 ? "rfc3d" : "rfc2d", ns_kind_name(kind));
    /* d = 3 is also the start of a 3D Coulomb friction file, and Siconos'
     * FC files often end with a lone 0 or 1 after mu: the 2D rolling layout
     * commits only once exactly nc numbers follow mu, and not when that is
     * one such lone integer token (rfc2d_tail_matches) */
    if ((st = ns_lex_count(lx, "nc", &nc))) return st;
    st = ns_dat_read_matrix(lx, "M", &W, NULL);
    if (d == 5 && lx->nm_header && nc > 0 && (int64_t)lx->nm_rows == (int64_t)d * nc &&
        lx->nm_cols == lx->nm_rows)
        lx->committed = 1;
    if (st) return st;
    if ((int64_t)W->cols != (int64_t)d * nc || W->rows != W->cols) {
        st = ns_lex_fail(lx, "M", "%d x %d matrix, expected d*nc x d*nc = %lld x %lld",
                         W->rows, W->cols, (long long)d * nc, (long long)d * nc);
        goto done;
    }
    if ((st = ns_dat_read_vec(lx, "q", W->cols, &q)) || (st = read_coefs(lx, "mu", nc, &mu)))
        goto done;
    if (d == 3 && rfc2d_tail_matches(lx, nc)) lx->committed = 1;
    if ((st = read_coefs(lx, "mu_r", nc, &mur))) goto done;
    *out = ns_problem_from_rfc(ns_rfc_new((int)d, nc, W, q, mu, mur));
    W = NULL;
    if (!*out) { ns_lex_fail(lx, "rfc", "out of memory"); st = NS_NO_MEMORY; }
done:
    ns_matrix_free(W);
    free(q); free(mu); free(mur);
    return st;
}

ns_status ns_dat_read_grfc(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    (void)kind;
    ns_int d, nc;
    ns_matrix *M, *H;
    double *q, *b, *mu = NULL, *mur = NULL;
    ns_status st = ns_dat_read_global_head(lx, 5, 5, &d, &nc, &M, &H, &q, &b);
    if (st) return st;
    if ((st = read_coefs(lx, "mu", nc, &mu)) || (st = read_coefs(lx, "mu_r", nc, &mur)))
        goto done;
    *out = ns_problem_from_grfc(ns_grfc_new((int)d, nc, M, H, q, b, mu, mur));
    M = H = NULL;
    if (!*out) { ns_lex_fail(lx, "grfc3d", "out of memory"); st = NS_NO_MEMORY; }
done:
    ns_matrix_free(M); ns_matrix_free(H);
    free(q); free(b); free(mu); free(mur);
    return st;
}

/* ------------------------------------------------------------- writers */

static ns_status check_vec(const double *x, ns_int n, const char *kind, const char *name,
                           char *err)
{
    if (n > 0 && !x) return ns_fail(err, NS_BAD_INPUT, "%s: %s: missing vector", kind, name);
    for (ns_int i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return ns_fail(err, NS_BAD_INPUT, "%s: %s[%d] is not finite", kind, name, i);
    return NS_OK;
}

static ns_status check_matrix(const ns_matrix *M, const char *kind, const char *name, char *err)
{
    if (!M) return ns_fail(err, NS_BAD_INPUT, "%s: %s: missing matrix", kind, name);
    char sub[NS_ERRMSG_LEN];
    if (ns_matrix_validate(M, name, sub)) return ns_fail(err, NS_BAD_INPUT, "%s: %s", kind, sub);
    return NS_OK;
}

ns_status ns_dat_write_rfc(FILE *f, const ns_problem *p, char *err)
{
    const ns_rfc *r = p->u.rfc;
    const char *kind = ns_kind_name(p->kind);
    ns_status st;
    if ((st = check_matrix(r->W, kind, "W", err))) return st;
    if (r->dim == 6)   /* Siconos' layout has no pivoting part */
        return ns_fail(err, NS_UNSUPPORTED, "%s: dim 6 (pivoting resistance) has no .dat form", kind);
    if ((r->dim != 3 && r->dim != 5) || (int64_t)r->W->cols != (int64_t)r->dim * r->nc ||
        r->W->rows != r->W->cols)
        return ns_fail(err, NS_BAD_INPUT, "%s: W: %d x %d matrix does not fit d = %d, nc = %d",
                       kind, r->W->rows, r->W->cols, r->dim, r->nc);
    if ((st = check_vec(r->q, r->W->cols, kind, "q", err)) ||
        (st = check_vec(r->mu, r->nc, kind, "mu", err)) ||
        (st = check_vec(r->mu_r, r->nc, kind, "mu_r", err)))
        return st;
    fprintf(f, "%d\n%d\n", r->dim, r->nc);
    if ((st = ns_dat_write_matrix(f, r->W, "M", err))) return st;
    ns_dat_write_values(f, r->q, (size_t)r->W->cols, " ");
    ns_dat_write_values(f, r->mu, (size_t)r->nc, " ");
    /* mu_r with an exponent: a 2D file's single mu_r never reads as the
     * lone 0/1 flag of an FC3D file (rfc2d_tail_matches) */
    for (ns_int a = 0; a < r->nc; a++) fprintf(f, "%.17e%s", r->mu_r[a], a + 1 < r->nc ? " " : "\n");
    return NS_OK;
}

ns_status ns_dat_write_grfc(FILE *f, const ns_problem *p, char *err)
{
    const ns_grfc *g = p->u.grfc;
    const char *kind = "grfc3d";
    ns_status st;
    if ((st = check_matrix(g->M, kind, "M", err)) || (st = check_matrix(g->H, kind, "H", err)))
        return st;
    if (g->dim != 5 || g->M->rows != g->M->cols || g->H->rows != g->M->rows ||
        (int64_t)g->H->cols != (int64_t)g->dim * g->nc)
        return ns_fail(err, NS_BAD_INPUT, "%s: M (%d x %d) and H (%d x %d) do not fit "
                       "d = %d, nc = %d", kind, g->M->rows, g->M->cols, g->H->rows,
                       g->H->cols, g->dim, g->nc);
    if ((st = check_vec(g->q, g->M->cols, kind, "q", err)) ||
        (st = check_vec(g->b, g->H->cols, kind, "b", err)) ||
        (st = check_vec(g->mu, g->nc, kind, "mu", err)) ||
        (st = check_vec(g->mu_r, g->nc, kind, "mu_r", err)))
        return st;
    fprintf(f, "%d\n%d\n", g->dim, g->nc);
    if ((st = ns_dat_write_matrix(f, g->M, "M", err))) return st;
    if ((st = ns_dat_write_matrix(f, g->H, "H", err))) return st;
    ns_dat_write_values(f, g->q, (size_t)g->M->cols, " ");
    ns_dat_write_values(f, g->b, (size_t)g->H->cols, " ");
    ns_dat_write_values(f, g->mu, (size_t)g->nc, " ");
    ns_dat_write_values(f, g->mu_r, (size_t)g->nc, " ");
    return NS_OK;
}
