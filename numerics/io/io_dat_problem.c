/* io_dat_problem.c — the problem layouts of the .dat files
 * (docs/formats.md §3): LCP, relay, AVI and equality (n, M, q[, lb, ub]),
 * MLCP (M form and/or ABCD form), FC2D/FC3D (d, nc, M, q, mu),
 * GFC2D/GFC3D (d, nc, M, H, q, b, mu), GMP (SBM M, q, types, mu of FC3D
 * and FC2D blocks, lb and ub of relay blocks: docs/formats-extensions.md §5).
 * Readers return a structurally consistent problem or nothing; writers
 * print the same layouts with %.17g values (exact round trip). */
#include "io/io_dat.h"
#include "problems/kind_ops.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

/* n reals (n checked against the data left) into a new array *out. */
ns_status ns_dat_read_vec(ns_lexer *lx, const char *field, ns_int n, double **out)
{
    *out = NULL;
    ns_status st = ns_lex_need(lx, field, (size_t)n, 2);
    if (st) return st;
    double *x = ns_malloc(n > 0 ? (size_t)n : 1, sizeof *x);
    if (!x) { ns_lex_fail(lx, field, "out of memory"); return NS_NO_MEMORY; }
    if ((st = ns_lex_reals(lx, field, (size_t)n, x))) { free(x); return st; }
    *out = x;
    return NS_OK;
}

/* A dense r×c matrix given row by row (MLCP split form) into a new
 * column-major matrix. */
static ns_status read_rowmajor(ns_lexer *lx, const char *field, ns_int r,
                               ns_int c, ns_matrix **out)
{
    double *v = NULL;
    *out = NULL;
    uint64_t n = (uint64_t)r * (uint64_t)c;
    if (n > ((uint64_t)ns_lex_left(lx) + 1) / 2)
        return ns_lex_fail(lx, field, "%d x %d values announced but only %zu bytes "
                           "of data left", r, c, ns_lex_left(lx));
    ns_status st = ns_dat_read_vec(lx, field, (ns_int)n, &v);
    if (st) return st;
    ns_matrix *A = ns_matrix_dense_new(r, c);
    if (!A) { free(v); ns_lex_fail(lx, field, "out of memory"); return NS_NO_MEMORY; }
    for (ns_int i = 0; i < r; i++)
        for (ns_int j = 0; j < c; j++)
            A->dense[(size_t)i + (size_t)j * (size_t)r] = v[(size_t)i * (size_t)c + (size_t)j];
    free(v);
    *out = A;
    return NS_OK;
}

static ns_status oom(ns_lexer *lx, const char *what)
{
    ns_lex_fail(lx, what, "out of memory");
    return NS_NO_MEMORY;
}

/* ---------------------------------------------------------- LCP-like */

/* Relay bounds (formats §3.2), read after the file committed to the relay
 * layout: reals or -inf (lb) / inf (ub) for open sides (read_bound), and
 * lb ≤ ub, the line of ub reported. */
static ns_status check_relay_bounds(ns_lexer *lx, ns_int n, const double *lb,
                                    const double *ub)
{
    for (ns_int i = 0; i < n; i++)
        if (lb[i] > ub[i]) {
            char f[48];
            ns_lex_field(f, sizeof f, "ub", "[", i, "]");
            return ns_lex_fail(lx, f, "lb[%d] = %.17g > ub[%d] = %.17g: the box is "
                               "empty", i, lb[i], i, ub[i]);
        }
    return NS_OK;
}

/* One AVI box bound: a real, or the word inf (ub) / -inf (lb) for an open
 * side (formats-extensions.md §1). NaN, and +inf as a lower or -inf as an
 * upper bound, are refused. */
static ns_status read_bound(ns_lexer *lx, const char *field, int upper, double *x)
{
    const char *tok;
    size_t tlen;
    size_t save = lx->pos;
    int line = lx->line;
    ns_status st = ns_lex_token(lx, field, &tok, &tlen);
    if (st) return st;
    const char *w = tok;
    size_t wl = tlen;
    int neg = 0;
    if (wl > 0 && (w[0] == '+' || w[0] == '-')) { neg = w[0] == '-'; w++; wl--; }
    if (wl == 3 && (memcmp(w, "inf", 3) == 0 || memcmp(w, "Inf", 3) == 0)) {
        if (neg == upper)
            return ns_lex_fail(lx, field, "%s is not allowed as a%s bound", neg ? "-inf"
                               : "inf", upper ? "n upper" : " lower");
        *x = neg ? -INFINITY : INFINITY;
        return NS_OK;
    }
    lx->pos = save;
    lx->line = line;
    return ns_lex_real(lx, field, x);
}

static ns_status read_bounds(ns_lexer *lx, const char *field, int upper, ns_int n,
                             double **out)
{
    *out = NULL;
    ns_status st = ns_lex_need(lx, field, (size_t)n, 2);
    if (st) return st;
    double *x = ns_malloc((size_t)n, sizeof *x);
    if (!x) return oom(lx, field);
    for (ns_int i = 0; i < n; i++) {
        char f[48];
        ns_lex_field(f, sizeof f, field, "[", i, "]");
        if ((st = read_bound(lx, f, upper, &x[i]))) { free(x); return st; }
    }
    *out = x;
    return NS_OK;
}

/* The AVI's set after q (formats-extensions.md §1): "avi-polyhedron" then
 * H (NM, nh×n) and h (nh reals), K = {z : H z ≤ h}; or "avi-box" then lb
 * and ub (n values each, -inf / inf for open sides). *has is 0 when the
 * keyword is absent (Siconos' own layout: no set, K = ℝⁿ). */
static ns_status read_avi_set(ns_lexer *lx, ns_avi *a, int *has)
{
    const char *tok;
    size_t tlen;
    size_t save = lx->pos;
    int line = lx->line;
    *has = 0;
    if (ns_lex_at_end(lx)) return NS_OK;
    ns_lex_token(lx, "set", &tok, &tlen);
    int poly = tlen == 14 && memcmp(tok, "avi-polyhedron", 14) == 0;
    int box = tlen == 7 && memcmp(tok, "avi-box", 7) == 0;
    if (!poly && !box) {   /* trailing content, not a set */
        lx->pos = save;
        lx->line = line;
        return NS_OK;
    }
    *has = 1;
    lx->committed = 1;
    ns_status st;
    if (poly) {
        ns_matrix *H = NULL;
        double *h = NULL;
        if ((st = ns_dat_read_matrix(lx, "H", &H, NULL))) return st;
        if (H->cols != a->n) {
            st = ns_lex_fail(lx, "H", "%d x %d matrix: expected %d columns (n)", H->rows,
                             H->cols, a->n);
            ns_matrix_free(H);
            return st;
        }
        if ((st = ns_dat_read_vec(lx, "h", H->rows, &h))) { ns_matrix_free(H); return st; }
        st = ns_avi_set_polyhedron(a, H, h);
        free(h);
        return st ? oom(lx, "H") : NS_OK;
    }
    double *lb = NULL, *ub = NULL;
    if (!(st = read_bounds(lx, "lb", 0, a->n, &lb)) &&
        !(st = read_bounds(lx, "ub", 1, a->n, &ub))) {
        for (ns_int i = 0; i < a->n && !st; i++)
            if (lb[i] > ub[i]) {
                char f[48];
                ns_lex_field(f, sizeof f, "ub", "[", i, "]");
                st = ns_lex_fail(lx, f, "lb[%d] = %.17g > ub[%d] = %.17g: the box is "
                                 "empty", i, lb[i], i, ub[i]);
            }
        if (!st && ns_avi_set_box(a, lb, ub)) st = oom(lx, "lb");
    }
    free(lb);
    free(ub);
    return st;
}

/* n, M (n×n), q[, lb, ub | AVI set] for LCP, AVI, equality and relay.
 * Commits (for detection) once M's header is n×n; the relay layout only
 * when exactly 2n number-like tokens follow q. */
ns_status ns_dat_read_lcp_like(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    ns_int n;
    ns_matrix *M = NULL;
    double *q = NULL, *lb = NULL, *ub = NULL;
    ns_problem *P = NULL;
    ns_status st;
    if ((st = ns_lex_count(lx, "n", &n))) return st;
    st = ns_dat_read_matrix(lx, "M", &M, NULL);
    if (kind != NS_KIND_RELAY && kind != NS_KIND_AVI && lx->nm_header &&
        lx->nm_rows == n && lx->nm_cols == n)
        lx->committed = 1;
    if (st) return st;
    if (M->rows != n || M->cols != n) {
        st = ns_lex_fail(lx, "M", "%d x %d matrix disagrees with n = %d", M->rows,
                         M->cols, n);
        goto done;
    }
    if ((st = ns_dat_read_vec(lx, "q", M->cols, &q))) goto done;
    if (kind == NS_KIND_RELAY) {
        if (ns_lex_rest_is_reals(lx, 2 * (size_t)n)) lx->committed = 1;
        /* -inf / inf for open sides, as AVI boxes and GMP relay blocks */
        if ((st = read_bounds(lx, "lb", 0, M->cols, &lb))) goto done;
        if ((st = read_bounds(lx, "ub", 1, M->cols, &ub))) goto done;
        if ((st = check_relay_bounds(lx, n, lb, ub))) goto done;
    }
    switch (kind) {
    case NS_KIND_LCP: P = ns_problem_from_lcp(ns_lcp_new(M, q)); break;
    case NS_KIND_AVI: P = ns_problem_from_avi(ns_avi_new(M, q)); break;
    case NS_KIND_EQUALITY: P = ns_problem_from_equality(ns_equality_new(M, q)); break;
    default: P = ns_problem_from_relay(ns_relay_new(M, q, lb, ub)); break;
    }
    M = NULL;   /* taken by the constructor, also on failure */
    if (!P) { st = oom(lx, ns_kind_name(kind)); goto done; }
    if (kind == NS_KIND_AVI) {
        int has;
        if ((st = read_avi_set(lx, P->u.avi, &has))) goto done;
    }
done:
    ns_matrix_free(M);
    free(q); free(lb); free(ub);
    if (!st) *out = P;
    else ns_problem_free(P);
    return st;
}

/* --------------------------------------------------------------- MLCP */

/* 1 when the block description of p can be written as the file's boundary
 * list, which is read until the first value >= n+m: every boundary but the
 * last below n+m, the last equal to it. */
static int blocks_representable(const ns_mlcp *p)
{
    ns_int N = p->n + p->m;
    if (p->nblocks < 0 || !p->block_start || (p->nblocks > 0 && !p->block_kind))
        return 0;
    for (ns_int k = 0; k < p->nblocks; k++)
        if (p->block_start[k] < 0 || p->block_start[k] >= N) return 0;
    return p->block_start[p->nblocks] == N;
}

/* The representable description closest to p's: empty blocks dropped
 * (e.g. the default [0, n, n+m] when n or m is 0). start has room for
 * nblocks+2 values, kind for nblocks+1; returns the number of blocks. */
static ns_int normalized_blocks(const ns_mlcp *p, ns_int *start, int *kind)
{
    ns_int N = p->n + p->m, nb = 0;
    start[0] = 0;
    if (p->block_start && p->block_kind && p->nblocks >= 0 &&
        p->block_start[p->nblocks] == N) {
        for (ns_int k = 0; k < p->nblocks; k++)
            if (p->block_start[k + 1] > start[nb] && p->block_start[k + 1] <= N) {
                kind[nb] = p->block_kind[k];
                start[++nb] = p->block_start[k + 1];
            }
        if (start[nb] == N) return nb;
    }
    nb = 0;   /* no usable description: equalities then complementarities */
    if (p->n > 0) { kind[nb] = 0; start[++nb] = p->n; }
    if (p->m > 0) { kind[nb] = 1; start[++nb] = N; }
    return nb;
}

/* Replaces p's block description by its normalized form. */
static int normalize_blocks(ns_mlcp *p)
{
    ns_int cap = p->nblocks > 2 ? p->nblocks : 2;
    ns_int *start = ns_malloc((size_t)cap + 2, sizeof *start);
    int *kind = ns_malloc((size_t)cap + 1, sizeof *kind);
    if (!start || !kind) { free(start); free(kind); return -1; }
    ns_int nb = normalized_blocks(p, start, kind);
    free(p->block_start);
    free(p->block_kind);
    p->block_start = start;
    p->block_kind = kind;
    p->nblocks = nb;
    return 0;
}

ns_status ns_dat_read_mlcp(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    (void)kind;   /* the layout names its kind itself */
    ns_int hasM, hasABCD, n, m, N, nb = 0, cap = 0;
    ns_int *bstart = NULL;
    int *bkind = NULL;
    ns_matrix *M = NULL, *A = NULL, *B = NULL, *C = NULL, *D = NULL;
    double *q = NULL, *a = NULL, *b = NULL;
    ns_mlcp *p = NULL;
    ns_status st;
    if ((st = ns_lex_int_range(lx, "hasM", 0, 1, &hasM))) return st;
    if ((st = ns_lex_int_range(lx, "hasABCD", 0, 1, &hasABCD))) return st;
    if ((st = ns_lex_count(lx, "n", &n))) return st;
    if ((st = ns_lex_count(lx, "m", &m))) return st;
    if (!hasM && !hasABCD)
        return ns_lex_fail(lx, "hasM, hasABCD", "neither the M form nor the ABCD form "
                           "is present");
    if ((int64_t)n + m > NS_INT_MAX_DIM)
        return ns_lex_fail(lx, "n, m", "n + m = %lld is too large", (long long)n + m);
    N = n + m;
    if (hasM) {
        /* row boundaries, read until a value >= n+m */
        for (;;) {
            char f[48];
            ns_int v;
            ns_lex_field(f, sizeof f, "blockrow", "[", nb, "]");
            if ((st = ns_lex_count(lx, f, &v))) goto done;
            if (nb == cap) {
                cap = cap ? 2 * cap : 8;
                ns_int *t = realloc(bstart, (size_t)cap * sizeof *t);
                if (!t) { st = oom(lx, "blockrow"); goto done; }
                bstart = t;
            }
            bstart[nb++] = v;
            if (v >= N) {
                if (v != N) {
                    st = ns_lex_fail(lx, f, "last boundary %d does not end at n+m = %d",
                                     v, N);
                    goto done;
                }
                break;
            }
        }
        nb--;   /* number of blocks */
        bkind = ns_malloc((size_t)nb, sizeof *bkind);
        if (!bkind) { st = oom(lx, "blockkind"); goto done; }
        for (ns_int k = 0; k < nb; k++) {
            char f[48];
            ns_int v;
            ns_lex_field(f, sizeof f, "blockkind", "[", k, "]");
            if ((st = ns_lex_int_range(lx, f, 0, 1, &v))) goto done;
            bkind[k] = (int)v;
        }
        /* boundaries 0 < ... < n+m and valid kinds: this is an MLCP file */
        int increasing = nb >= 1 && bstart[0] == 0;
        for (ns_int k = 0; increasing && k < nb; k++)
            if (bstart[k + 1] <= bstart[k]) increasing = 0;
        if (increasing) lx->committed = 1;
        if ((st = ns_dat_read_matrix(lx, "M", &M, NULL))) goto done;
        if ((st = ns_dat_read_vec(lx, "q", M->cols, &q))) goto done;
    }
    if (!hasM && N > 0) lx->committed = 1;   /* "0 1 n m": the ABCD form alone */
    if (hasABCD) {
        uint64_t need = (uint64_t)n * n + (uint64_t)m * m + 2 * (uint64_t)n * m + N;
        if (need > (uint64_t)ns_lex_left(lx)) {
            st = ns_lex_fail(lx, "A, B, C, D", "%llu values announced but only %zu "
                             "bytes of data left", (unsigned long long)need,
                             ns_lex_left(lx));
            goto done;
        }
        if ((st = read_rowmajor(lx, "A", n, n, &A)) ||
            (st = read_rowmajor(lx, "B", m, m, &B)) ||
            (st = read_rowmajor(lx, "C", n, m, &C)) ||
            (st = read_rowmajor(lx, "D", m, n, &D)) ||
            (st = ns_dat_read_vec(lx, "a", n, &a)) || (st = ns_dat_read_vec(lx, "b", m, &b)))
            goto done;
    }
    if (hasM) {
        p = ns_mlcp_new(n, m, M, q);
        M = NULL;
        if (!p) { st = oom(lx, "mlcp"); goto done; }
        free(p->block_start);
        free(p->block_kind);
        p->nblocks = nb;
        p->block_start = bstart;
        p->block_kind = bkind;
        bstart = NULL;
        bkind = NULL;
        if (hasABCD) {
            p->A = A; p->B = B; p->C = C; p->D = D;
            p->a = a; p->b = b;
            A = B = C = D = NULL;
            a = b = NULL;
        }
    } else {
        p = ns_mlcp_new_abcd(A, B, C, D, a, b);
        A = B = C = D = NULL;
        if (!p) { st = oom(lx, "mlcp"); goto done; }
        /* the default blocks [0, n, n+m] have an empty block when n or m
         * is 0: keep what a written file can say */
        if (!blocks_representable(p) && normalize_blocks(p)) {
            ns_mlcp_free(p);
            st = oom(lx, "mlcp");
            goto done;
        }
    }
    *out = ns_problem_from_mlcp(p);
    if (!*out) st = oom(lx, "mlcp");
done:
    free(bstart); free(bkind);
    ns_matrix_free(M); ns_matrix_free(A); ns_matrix_free(B);
    ns_matrix_free(C); ns_matrix_free(D);
    free(q); free(a); free(b);
    return st;
}

/* ------------------------------------------------------------ FC, GFC */

ns_status ns_dat_read_fc(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    (void)kind;   /* the layout names its kind itself */
    ns_int d, nc;
    ns_matrix *M = NULL;
    double *q = NULL, *mu = NULL;
    ns_status st;
    if ((st = ns_lex_int_range(lx, "d", 2, 3, &d))) return st;
    if ((st = ns_lex_count(lx, "nc", &nc))) return st;
    st = ns_dat_read_matrix(lx, "M", &M, NULL);
    if (lx->nm_header && nc > 0 && (int64_t)lx->nm_rows == (int64_t)d * nc &&
        lx->nm_cols == lx->nm_rows)
        lx->committed = 1;
    if (st) return st;
    if ((int64_t)M->cols != (int64_t)d * nc || M->rows != M->cols) {
        st = ns_lex_fail(lx, "M", "%d x %d matrix, expected d*nc x d*nc = %lld x %lld",
                         M->rows, M->cols, (long long)d * nc, (long long)d * nc);
        goto done;
    }
    if ((st = ns_dat_read_vec(lx, "q", M->cols, &q)) || (st = ns_dat_read_vec(lx, "mu", nc, &mu)))
        goto done;
    *out = ns_problem_from_fc(ns_fc_new((int)d, nc, M, q, mu));
    M = NULL;
    if (!*out) st = oom(lx, "fc");
done:
    ns_matrix_free(M);
    free(q); free(mu);
    return st;
}

ns_status ns_dat_read_global_head(ns_lexer *lx, int dmin, int dmax, ns_int *d, ns_int *nc,
                                  ns_matrix **M, ns_matrix **H, double **q, double **b)
{
    *M = *H = NULL;
    *q = *b = NULL;
    ns_status st;
    if ((st = ns_lex_int_range(lx, "d", dmin, dmax, d))) return st;
    if ((st = ns_lex_count(lx, "nc", nc))) return st;
    if ((st = ns_dat_read_matrix(lx, "M", M, NULL))) return st;
    if ((*M)->rows != (*M)->cols) {
        st = ns_lex_fail(lx, "M", "%d x %d matrix is not square", (*M)->rows, (*M)->cols);
        goto fail;
    }
    st = ns_dat_read_matrix(lx, "H", H, NULL);
    if (lx->nm_header && lx->nm_rows == (*M)->rows && (int64_t)lx->nm_cols == (int64_t)*d * *nc)
        lx->committed = 1;
    if (st) goto fail;
    if ((*H)->rows != (*M)->rows || (int64_t)(*H)->cols != (int64_t)*d * *nc) {
        st = ns_lex_fail(lx, "H", "%d x %d matrix, expected rows(M) x d*nc = %d x %lld",
                         (*H)->rows, (*H)->cols, (*M)->rows, (long long)*d * *nc);
        goto fail;
    }
    if ((st = ns_dat_read_vec(lx, "q", (*M)->cols, q)) || (st = ns_dat_read_vec(lx, "b", (*H)->cols, b)))
        goto fail;
    return NS_OK;
fail:
    ns_matrix_free(*M); ns_matrix_free(*H);
    free(*q); free(*b);
    *M = *H = NULL;
    *q = *b = NULL;
    return st;
}

ns_status ns_dat_read_gfc(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    (void)kind;   /* the layout names its kind itself */
    ns_int d, nc;
    ns_matrix *M, *H;
    double *q, *b, *mu = NULL;
    ns_status st = ns_dat_read_global_head(lx, 2, 3, &d, &nc, &M, &H, &q, &b);
    if (st) return st;
    if ((st = ns_dat_read_vec(lx, "mu", nc, &mu))) goto done;
    *out = ns_problem_from_gfc(ns_gfc_new((int)d, nc, M, H, q, b, mu));
    M = H = NULL;
    if (!*out) st = oom(lx, "gfc");
done:
    ns_matrix_free(M); ns_matrix_free(H);
    free(q); free(b); free(mu);
    return st;
}

/* ---------------------------------------------------------------- GMP */

ns_status ns_dat_read_gmp(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    (void)kind;   /* the layout names its kind itself */
    ns_matrix *M = NULL;
    double *q = NULL, *mu = NULL, *lb = NULL, *ub = NULL;
    int *type = NULL;
    ns_int nptr;
    ns_status st = ns_dat_read_matrix(lx, "M", &M, &nptr);
    if (st) return st;
    if (M->storage != NS_BLOCK) {
        st = ns_lex_fail(lx, "M", "storage %d: a generic mechanical problem needs a "
                         "sparse-block (1) matrix", (int)M->storage);
        goto done;
    }
    if (M->rows != M->cols) {
        st = ns_lex_fail(lx, "M", "%d x %d matrix is not square", M->rows, M->cols);
        goto done;
    }
    ns_int nbr = M->block.block_rows;
    if (nptr - 1 != nbr) {
        st = ns_lex_fail(lx, "M: nptr", "%d row pointers for %d block rows: every block "
                         "row needs a sub-problem", nptr, nbr);
        goto done;
    }
    lx->committed = 1;   /* a square SBM matrix with one pointer per block row */
    if ((st = ns_dat_read_vec(lx, "q", M->cols, &q))) goto done;
    if ((st = ns_lex_need(lx, "type", (size_t)nbr, 2))) goto done;
    type = ns_malloc((size_t)nbr, sizeof *type);
    mu = ns_malloc((size_t)nbr, sizeof *mu);
    if (!type || !mu) { st = oom(lx, "gmp"); goto done; }
    for (ns_int r = 0; r < nbr; r++) {
        char f[48];
        ns_int t;
        ns_lex_field(f, sizeof f, "type", "[", r, "]");
        if ((st = ns_lex_int_range(lx, f, 0, 9, &t))) goto done;
        type[r] = (int)t;
        mu[r] = NAN;
        if (t == NS_GMP_FC3D || t == NS_GMP_FC2D) {   /* FC2D μ: our extension */
            ns_lex_field(f, sizeof f, "mu", "[", r, "]");
            if ((st = ns_lex_real(lx, f, &mu[r]))) goto done;
        }
        if (t == NS_GMP_RELAY) {   /* the block's lb then ub: our extension */
            if (!lb) {
                lb = ns_malloc((size_t)M->rows + 1, sizeof *lb);
                ub = ns_malloc((size_t)M->rows + 1, sizeof *ub);
                if (!lb || !ub) { st = oom(lx, "gmp"); goto done; }
                for (ns_int i = 0; i < M->rows; i++) { lb[i] = -INFINITY; ub[i] = INFINITY; }
            }
            ns_int r0 = M->block.row_start[r], r1 = M->block.row_start[r + 1];
            for (int upper = 0; upper < 2; upper++)
                for (ns_int i = r0; i < r1; i++) {
                    ns_lex_field(f, sizeof f, upper ? "ub" : "lb", "[", i, "]");
                    if ((st = read_bound(lx, f, upper, upper ? &ub[i] : &lb[i]))) goto done;
                }
            for (ns_int i = r0; i < r1; i++)
                if (lb[i] > ub[i]) {
                    ns_lex_field(f, sizeof f, "ub", "[", i, "]");
                    st = ns_lex_fail(lx, f, "lb[%d] = %.17g > ub[%d] = %.17g: the box is empty",
                                     i, lb[i], i, ub[i]);
                    goto done;
                }
        }
    }
    ns_gmp *g = ns_gmp_new(M, q, type, mu);
    M = NULL;
    if (!g) { st = oom(lx, "gmp"); goto done; }
    g->lb = lb; g->ub = ub;
    lb = ub = NULL;
    *out = ns_problem_from_gmp(g);
    if (!*out) st = oom(lx, "gmp");
done:
    ns_matrix_free(M);
    free(q); free(type); free(mu); free(lb); free(ub);
    return st;
}

ns_status ns_dat_read_problem(ns_lexer *lx, ns_kind kind, ns_problem **out)
{
    *out = NULL;
    const ns_kind_ops *k = ns_kind_ops_of(kind);
    if (!k || !k->read_dat)
        return ns_lex_fail(lx, "kind", "no .dat layout for kind %d", (int)kind);
    ns_status st = k->read_dat(lx, kind, out);
    if (!st && (*out)->kind != kind) {   /* fc/gfc: the file says d = 2 or 3 */
        st = ns_lex_fail(lx, "d", "the file holds a %s problem, %s was asked for",
                         ns_kind_name((*out)->kind), ns_kind_name(kind));
        ns_problem_free(*out);
        *out = NULL;
    }
    return st;
}

/* ------------------------------------------------------------- writers */

/* Checks that x[0..n) exists and is finite (the layouts cannot hold NaN
 * or infinities). */
static ns_status check_vec(const double *x, ns_int n, const char *kind,
                           const char *name, char *err)
{
    if (n > 0 && !x) return ns_fail(err, NS_BAD_INPUT, "%s: %s: missing vector", kind, name);
    long k = n > 0 ? ns_first_nonfinite(x, (size_t)n) : -1;
    if (k >= 0)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s[%ld] = %g is not finite: the .dat "
                       "layout cannot hold it", kind, name, k, x[k]);
    return NS_OK;
}

/* Bounds with inf / -inf for open sides (formats-extensions.md §1; relay
 * bounds are read the same way). */
static void write_bounds(FILE *f, const double *x, ns_int n)
{
    for (ns_int i = 0; i < n; i++) {
        const char *sep = i + 1 < n ? " " : "\n";
        if (isinf(x[i])) fprintf(f, "%s%s", x[i] < 0 ? "-inf" : "inf", sep);
        else fprintf(f, "%.17g%s", x[i], sep);
    }
}

/* Box bounds lb, ub (n each): reals, or -inf (lb) / inf (ub) for an open
 * side, as the readers take them; NaN and +inf below / -inf above are
 * refused. */
static ns_status check_bounds(const double *lb, const double *ub, ns_int n, const char *kind,
                              char *err)
{
    if (n > 0 && (!lb || !ub))
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: missing vector", kind, lb ? "ub" : "lb");
    for (ns_int i = 0; i < n; i++) {
        if (!(lb[i] < INFINITY))   /* NaN or +inf */
            return ns_fail(err, NS_BAD_INPUT, "%s: lb[%ld] = %g: a lower bound is a real "
                           "or -inf", kind, (long)i, lb[i]);
        if (!(ub[i] > -INFINITY))
            return ns_fail(err, NS_BAD_INPUT, "%s: ub[%ld] = %g: an upper bound is a real "
                           "or inf", kind, (long)i, ub[i]);
    }
    return NS_OK;
}

static ns_status check_matrix(const ns_matrix *M, const char *kind,
                              const char *name, char *err)
{
    if (!M) return ns_fail(err, NS_BAD_INPUT, "%s: %s: missing matrix", kind, name);
    char sub[NS_ERRMSG_LEN];
    if (ns_matrix_validate(M, name, sub))
        return ns_fail(err, NS_BAD_INPUT, "%s: %s", kind, sub);
    return NS_OK;
}

static ns_status write_lcp_like(FILE *f, const char *kind, ns_int n,
                                const ns_matrix *M, const double *q,
                                const double *lb, const double *ub, char *err)
{
    ns_status st;
    if ((st = check_matrix(M, kind, "M", err))) return st;
    if (M->rows != n || M->cols != n)
        return ns_fail(err, NS_BAD_INPUT, "%s: M: %d x %d matrix disagrees with n = %d",
                       kind, M->rows, M->cols, n);
    if ((st = check_vec(q, n, kind, "q", err))) return st;
    if (lb && (st = check_bounds(lb, ub, n, kind, err))) return st;
    fprintf(f, "%d\n", n);
    if ((st = ns_dat_write_matrix(f, M, "M", err))) return st;
    ns_dat_write_values(f, q, (size_t)n, " ");
    if (lb) {
        write_bounds(f, lb, n);
        write_bounds(f, ub, n);
    }
    return NS_OK;
}

/* n, M, q, then the set: "avi-polyhedron" H h, or "avi-box" lb ub; an AVI
 * without a set is Siconos' layout (n, M, q). */
static ns_status write_avi(FILE *f, const ns_avi *a, char *err)
{
    char sub[NS_ERRMSG_LEN];
    ns_status st;
    if (ns_avi_validate(a, sub))
        return ns_fail(err, NS_BAD_INPUT, "%s", sub);
    if (a->H) {
        if ((st = check_matrix(a->H, "avi", "H", err)) ||
            (st = check_vec(a->h, a->H->rows, "avi", "h", err)))
            return st;
    } else if (a->lb) {
        for (ns_int i = 0; i < a->n; i++)
            if (isnan(a->lb[i]) || isnan(a->ub[i]) || a->lb[i] == INFINITY ||
                a->ub[i] == -INFINITY)
                return ns_fail(err, NS_BAD_INPUT, "avi: bound %d: NaN, +inf lower or "
                               "-inf upper bound", i);
    }
    if ((st = write_lcp_like(f, "avi", a->n, a->M, a->q, NULL, NULL, err))) return st;
    if (a->H) {
        fputs("avi-polyhedron\n", f);
        if ((st = ns_dat_write_matrix(f, a->H, "H", err))) return st;
        ns_dat_write_values(f, a->h, (size_t)a->H->rows, " ");
    } else if (a->lb) {
        fputs("avi-box\n", f);
        write_bounds(f, a->lb, a->n);
        write_bounds(f, a->ub, a->n);
    }
    return NS_OK;
}

static void write_rowmajor(FILE *f, const ns_matrix *A)
{
    for (ns_int i = 0; i < A->rows; i++)
        for (ns_int j = 0; j < A->cols; j++)
            fprintf(f, "%.17g%s", A->dense[(size_t)i + (size_t)j * (size_t)A->rows],
                    j + 1 < A->cols ? " " : "\n");
}

static ns_status write_mlcp(FILE *f, const ns_mlcp *p, char *err)
{
    ns_status st;
    if ((st = check_matrix(p->M, "mlcp", "M", err))) return st;
    if ((st = check_vec(p->q, p->M->cols, "mlcp", "q", err))) return st;
    int abcd = p->A || p->B || p->C || p->D;
    if (abcd) {
        const ns_matrix *X[4] = { p->A, p->B, p->C, p->D };
        const char *nm[4] = { "A", "B", "C", "D" };
        ns_int r[4] = { p->n, p->m, p->n, p->m }, c[4] = { p->n, p->m, p->m, p->n };
        for (int k = 0; k < 4; k++) {
            if ((st = check_matrix(X[k], "mlcp", nm[k], err))) return st;
            if (X[k]->storage != NS_DENSE || X[k]->rows != r[k] || X[k]->cols != c[k])
                return ns_fail(err, NS_BAD_INPUT, "mlcp: %s: expected a dense %d x %d "
                               "matrix", nm[k], r[k], c[k]);
        }
        if ((st = check_vec(p->a, p->n, "mlcp", "a", err)) ||
            (st = check_vec(p->b, p->m, "mlcp", "b", err)))
            return st;
    }
    if (p->n < 0 || p->m < 0 || (int64_t)p->n + p->m > NS_INT_MAX_DIM)
        return ns_fail(err, NS_BAD_INPUT, "mlcp: n, m: invalid sizes %d, %d", p->n, p->m);
    const ns_int *start = p->block_start;
    const int *kind = p->block_kind;
    ns_int nb = p->nblocks, *nstart = NULL;
    int *nkind = NULL;
    if (!blocks_representable(p)) {
        /* write the normalized description (empty blocks dropped) */
        ns_int cap = p->nblocks > 2 ? p->nblocks : 2;
        nstart = ns_malloc((size_t)cap + 2, sizeof *nstart);
        nkind = ns_malloc((size_t)cap + 1, sizeof *nkind);
        if (!nstart || !nkind) {
            free(nstart); free(nkind);
            return ns_fail(err, NS_NO_MEMORY, "mlcp: out of memory");
        }
        nb = normalized_blocks(p, nstart, nkind);
        start = nstart;
        kind = nkind;
    }
    fprintf(f, "1\n%d\n%d\n%d\n", abcd, p->n, p->m);
    for (ns_int k = 0; k <= nb; k++) fprintf(f, "%d ", start[k]);
    fputc('\n', f);
    for (ns_int k = 0; k < nb; k++) fprintf(f, "%d ", kind[k]);
    fputc('\n', f);
    free(nstart);
    free(nkind);
    if ((st = ns_dat_write_matrix(f, p->M, "M", err))) return st;
    ns_dat_write_values(f, p->q, (size_t)p->M->cols, " ");
    if (abcd) {
        write_rowmajor(f, p->A);
        write_rowmajor(f, p->B);
        write_rowmajor(f, p->C);
        write_rowmajor(f, p->D);
        ns_dat_write_values(f, p->a, (size_t)p->n, " ");
        ns_dat_write_values(f, p->b, (size_t)p->m, " ");
    }
    return NS_OK;
}

static ns_status write_fc(FILE *f, const ns_fc *p, const char *kind, char *err)
{
    ns_status st;
    if ((st = check_matrix(p->W, kind, "W", err))) return st;
    if ((int64_t)p->W->cols != (int64_t)p->dim * p->nc || p->W->rows != p->W->cols)
        return ns_fail(err, NS_BAD_INPUT, "%s: W: %d x %d matrix, expected %d x %d",
                       kind, p->W->rows, p->W->cols, p->dim * p->nc, p->dim * p->nc);
    if ((st = check_vec(p->q, p->W->cols, kind, "q", err)) ||
        (st = check_vec(p->mu, p->nc, kind, "mu", err)))
        return st;
    fprintf(f, "%d\n%d\n", p->dim, p->nc);
    if ((st = ns_dat_write_matrix(f, p->W, "M", err))) return st;
    ns_dat_write_values(f, p->q, (size_t)p->W->cols, " ");
    ns_dat_write_values(f, p->mu, (size_t)p->nc, " ");
    return NS_OK;
}

static ns_status write_gfc(FILE *f, const ns_gfc *p, const char *kind, char *err)
{
    ns_status st;
    if ((st = check_matrix(p->M, kind, "M", err)) || (st = check_matrix(p->H, kind, "H", err)))
        return st;
    if (p->M->rows != p->M->cols || p->H->rows != p->M->rows ||
        (int64_t)p->H->cols != (int64_t)p->dim * p->nc)
        return ns_fail(err, NS_BAD_INPUT, "%s: M (%d x %d) and H (%d x %d) do not fit "
                       "d = %d, nc = %d", kind, p->M->rows, p->M->cols, p->H->rows,
                       p->H->cols, p->dim, p->nc);
    if ((st = check_vec(p->q, p->M->cols, kind, "q", err)) ||
        (st = check_vec(p->b, p->H->cols, kind, "b", err)) ||
        (st = check_vec(p->mu, p->nc, kind, "mu", err)))
        return st;
    fprintf(f, "%d\n%d\n", p->dim, p->nc);
    if ((st = ns_dat_write_matrix(f, p->M, "M", err))) return st;
    if ((st = ns_dat_write_matrix(f, p->H, "H", err))) return st;
    ns_dat_write_values(f, p->q, (size_t)p->M->cols, " ");
    ns_dat_write_values(f, p->b, (size_t)p->H->cols, " ");
    ns_dat_write_values(f, p->mu, (size_t)p->nc, " ");
    return NS_OK;
}

static ns_status write_gmp(FILE *f, const ns_gmp *p, char *err)
{
    ns_status st;
    if ((st = check_matrix(p->M, "gmp", "M", err))) return st;
    if (p->M->storage != NS_BLOCK || p->M->rows != p->M->cols ||
        p->nblocks != p->M->block.block_rows || (p->nblocks > 0 && !p->type))
        return ns_fail(err, NS_BAD_INPUT, "gmp: M: must be a square sparse-block matrix "
                       "with one type per block row");
    if ((st = check_vec(p->q, p->M->cols, "gmp", "q", err))) return st;
    for (ns_int r = 0; r < p->nblocks; r++) {
        if (p->type[r] < 0 || p->type[r] > 9)
            return ns_fail(err, NS_BAD_INPUT, "gmp: type[%d] = %d is not a file code 0..9",
                           r, p->type[r]);
        if ((p->type[r] == NS_GMP_FC3D || p->type[r] == NS_GMP_FC2D) && (!p->mu || !isfinite(p->mu[r])))
            return ns_fail(err, NS_BAD_INPUT, "gmp: mu[%d]: missing or not finite", r);
        if (p->type[r] == NS_GMP_RELAY) {
            if (!p->lb || !p->ub)
                return ns_fail(err, NS_BAD_INPUT, "gmp: block %d: relay block without bounds lb/ub", r);
            for (ns_int i = p->M->block.row_start[r]; i < p->M->block.row_start[r + 1]; i++)
                if (isnan(p->lb[i]) || isnan(p->ub[i]) || p->lb[i] > p->ub[i] ||
                    p->lb[i] == INFINITY || p->ub[i] == -INFINITY)
                    return ns_fail(err, NS_BAD_INPUT, "gmp: bounds of row %d: lb = %g, ub = %g", i,
                                   p->lb[i], p->ub[i]);
        }
    }
    if ((st = ns_dat_write_matrix(f, p->M, "M", err))) return st;
    ns_dat_write_values(f, p->q, (size_t)p->M->cols, "\n");
    fputc('\n', f);
    for (ns_int r = 0; r < p->nblocks; r++) {
        fprintf(f, "%d\n", p->type[r]);
        if (p->type[r] == NS_GMP_FC3D || p->type[r] == NS_GMP_FC2D) fprintf(f, "%.17g\n", p->mu[r]);
        if (p->type[r] == NS_GMP_RELAY) {   /* lb then ub of the block's rows (our extension) */
            ns_int r0 = p->M->block.row_start[r], r1 = p->M->block.row_start[r + 1];
            write_bounds(f, p->lb + r0, r1 - r0);
            write_bounds(f, p->ub + r0, r1 - r0);
        }
    }
    return NS_OK;
}

/* ---- the layouts' writers, one per kind row (kind_ops.h) ---- */

ns_status ns_dat_write_lcp(FILE *f, const ns_problem *p, char *err)
{
    return write_lcp_like(f, "lcp", p->u.lcp->n, p->u.lcp->M, p->u.lcp->q, NULL, NULL, err);
}

ns_status ns_dat_write_equality(FILE *f, const ns_problem *p, char *err)
{
    return write_lcp_like(f, "equality", p->u.equality->n, p->u.equality->M,
                          p->u.equality->q, NULL, NULL, err);
}

ns_status ns_dat_write_relay(FILE *f, const ns_problem *p, char *err)
{
    const ns_relay *r = p->u.relay;
    if (!r->lb || !r->ub) return ns_fail(err, NS_BAD_INPUT, "relay: lb, ub: missing bounds");
    return write_lcp_like(f, "relay", r->n, r->M, r->q, r->lb, r->ub, err);
}

ns_status ns_dat_write_avi(FILE *f, const ns_problem *p, char *err) { return write_avi(f, p->u.avi, err); }
ns_status ns_dat_write_mlcp(FILE *f, const ns_problem *p, char *err) { return write_mlcp(f, p->u.mlcp, err); }
ns_status ns_dat_write_fc(FILE *f, const ns_problem *p, char *err)
{
    return write_fc(f, p->u.fc, ns_kind_name(p->kind), err);
}
ns_status ns_dat_write_gfc(FILE *f, const ns_problem *p, char *err)
{
    return write_gfc(f, p->u.gfc, ns_kind_name(p->kind), err);
}
ns_status ns_dat_write_gmp(FILE *f, const ns_problem *p, char *err) { return write_gmp(f, p->u.gmp, err); }

ns_status ns_dat_write_problem(FILE *f, const ns_problem *p, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "problem: none given");
    const ns_kind_ops *k = ns_kind_ops_of(p->kind);
    if (!k || !k->write_dat)
        return ns_fail(err, NS_BAD_INPUT, "problem: unknown kind %d", (int)p->kind);
    if (!p->u.lcp)   /* any member: the union holds one pointer */
        return ns_fail(err, NS_BAD_INPUT, "%s: empty problem", ns_kind_name(p->kind));
    return k->write_dat(f, p, err);
}
