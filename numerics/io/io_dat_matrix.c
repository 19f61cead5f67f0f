/* io_dat_matrix.c — the NumericsMatrix block of the .dat files
 * (docs/formats.md §2): dense (column-major, dimensions written twice),
 * sparse block SBM → BLOCK, CSC and triplet → SPARSE (CSC); raw SBM payloads;
 * and the writer (dense, SBM, SPARSE as CSC with origin code 2).
 *
 * Readers check every count against the bytes left before allocating, and
 * return either a complete matrix or nothing. */
#include "io/io_dat.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

/* New zeroed matrix shell; arrays are filled by the readers. */
static ns_matrix *shell(ns_storage storage, ns_int rows, ns_int cols)
{
    ns_matrix *A = ns_calloc(1, sizeof *A);
    if (!A) return NULL;
    A->storage = storage;
    A->rows = rows;
    A->cols = cols;
    return A;
}

static ns_status no_memory(ns_lexer *lx, const char *field)
{
    ns_lex_fail(lx, field, "out of memory");
    return NS_NO_MEMORY;
}

/* "M: what" into buf (cut to cap − 1 bytes), the name a message gives the
 * field. A lexer without a message buffer (the detection's quiet pass, which
 * tries every layout) writes no message: buf is then the empty name. */
static const char *fld(const ns_lexer *lx, char *buf, size_t cap, const char *field,
                       const char *what)
{
    if (!lx->err) {
        buf[0] = '\0';
        return buf;
    }
    size_t n = 0;
    for (const char *parts[3] = { field, ": ", what }, **p = parts; p < parts + 3; p++) {
        size_t k = strlen(*p);
        if (k > cap - 1 - n) k = cap - 1 - n;
        memcpy(buf + n, *p, k);
        n += k;
    }
    buf[n] = '\0';
    return buf;
}

/* n counts (integers in [lo, hi]) into out[0..n); field reported as f[k]. */
static ns_status read_ints(ns_lexer *lx, const char *f, ns_int n, ns_int lo,
                           ns_int hi, ns_int *out)
{
    ns_status st = ns_lex_need(lx, f, (size_t)n, 2);
    if (st) return st;
    for (ns_int k = 0; k < n; k++) {
        char name[128];
        ns_lex_field(name, sizeof name, f, "[", k, "]");
        if ((st = ns_lex_int_range(lx, name, lo, hi, &out[k]))) return st;
    }
    return NS_OK;
}

/* ------------------------------------------------------------- dense */

/* Dense payload after the header: "rows cols" again, then rows·cols
 * values column-major. */
static ns_status read_dense(ns_lexer *lx, const char *field, ns_int rows,
                            ns_int cols, ns_matrix **out)
{
    char f[128];
    ns_int r2, c2;
    ns_status st;
    if ((st = ns_lex_count(lx, fld(lx, f, sizeof f, field, "rows (second copy)"), &r2)))
        return st;
    if (r2 != rows)
        return ns_lex_fail(lx, f, "%d disagrees with the header's %d rows", r2, rows);
    if ((st = ns_lex_count(lx, fld(lx, f, sizeof f, field, "cols (second copy)"), &c2)))
        return st;
    if (c2 != cols)
        return ns_lex_fail(lx, f, "%d disagrees with the header's %d columns", c2, cols);
    uint64_t n = (uint64_t)rows * (uint64_t)cols;
    fld(lx, f, sizeof f, field, "values");
    if (n > (uint64_t)ns_lex_left(lx))
        return ns_lex_fail(lx, f, "%d x %d matrix needs %llu values but only %zu "
                           "bytes of data are left", rows, cols,
                           (unsigned long long)n, ns_lex_left(lx));
    if ((st = ns_lex_need(lx, f, (size_t)n, 2))) return st;
    ns_matrix *A = shell(NS_DENSE, rows, cols);
    if (A) A->dense = ns_malloc((size_t)n, sizeof(double));
    if (!A || !A->dense) { ns_matrix_free(A); return no_memory(lx, field); }
    if ((st = ns_lex_reals(lx, field, (size_t)n, A->dense))) {
        ns_matrix_free(A);
        return st;
    }
    *out = A;
    return NS_OK;
}

/* ---------------------------------------------------------------- SBM */

/* SBM payload from nbblocks on (formats §2.3). rows/cols: the header's
 * size, or -1 for a raw payload (size taken from the boundaries). */
static ns_status read_sbm(ns_lexer *lx, const char *field, ns_int rows,
                          ns_int cols, ns_matrix **out, ns_int *nptr_out)
{
    char f[128];
    ns_status st;
    ns_int nb, br, bc, nptr, nidx;
    ns_matrix *A = NULL;
    ns_int *rowend = NULL, *colend = NULL;
    *out = NULL;

    if ((st = ns_lex_count(lx, fld(lx, f, sizeof f, field, "SBM: nbblocks"), &nb))) return st;
    if (nb == 0) {
        /* empty matrix: the block ends here; keep the header's size as one
         * block row and column without stored blocks */
        if (rows < 0) rows = 0;
        if (cols < 0) cols = 0;
        A = shell(NS_BLOCK, rows, cols);
        if (!A) return no_memory(lx, field);
        ns_block *B = &A->block;
        B->block_rows = rows > 0;
        B->block_cols = cols > 0;
        B->row_start = ns_calloc(2, sizeof(ns_int));
        B->col_start = ns_calloc(2, sizeof(ns_int));
        B->row_ptr = ns_calloc(2, sizeof(ns_int));
        B->block_col = ns_calloc(1, sizeof(ns_int));
        B->value_ptr = ns_calloc(1, sizeof(ns_int));
        B->diag = ns_malloc(1, sizeof(ns_int));
        B->x = ns_calloc(1, sizeof(double));
        if (!B->row_start || !B->col_start || !B->row_ptr || !B->block_col ||
            !B->value_ptr || !B->diag || !B->x) {
            ns_matrix_free(A);
            return no_memory(lx, field);
        }
        B->row_start[1] = rows;
        B->col_start[1] = cols;
        B->diag[0] = -1;
        if (nptr_out) *nptr_out = 1;
        *out = A;
        return NS_OK;
    }
    if ((st = ns_lex_count(lx, fld(lx, f, sizeof f, field, "SBM: blockrows"), &br))) return st;
    if ((st = ns_lex_count(lx, fld(lx, f, sizeof f, field, "SBM: blockcols"), &bc))) return st;
    if (br == 0 || bc == 0)
        return ns_lex_fail(lx, f, "%d blocks in a %d x %d block grid", nb, br, bc);
    if ((st = ns_lex_need(lx, fld(lx, f, sizeof f, field, "SBM: boundaries"),
                          (size_t)br + (size_t)bc, 2)))
        return st;
    A = shell(NS_BLOCK, 0, 0);
    if (!A) return no_memory(lx, field);
    ns_block *B = &A->block;
    B->block_rows = br;
    B->block_cols = bc;
    B->row_start = ns_calloc((size_t)br + 1, sizeof(ns_int));
    B->col_start = ns_calloc((size_t)bc + 1, sizeof(ns_int));
    B->row_ptr = ns_calloc((size_t)br + 1, sizeof(ns_int));
    if (!B->row_start || !B->col_start || !B->row_ptr) goto nomem;
    rowend = B->row_start + 1;
    colend = B->col_start + 1;
    if ((st = read_ints(lx, fld(lx, f, sizeof f, field, "SBM: rowend"), br, 1,
                        NS_INT_MAX_DIM, rowend)))
        goto fail;
    for (ns_int r = 1; r < br; r++)
        if (rowend[r] <= rowend[r - 1]) {
            st = ns_lex_fail(lx, f, "row boundaries not strictly increasing "
                             "(rowend[%d] = %d after %d)", r, rowend[r], rowend[r - 1]);
            goto fail;
        }
    if ((st = read_ints(lx, fld(lx, f, sizeof f, field, "SBM: colend"), bc, 1,
                        NS_INT_MAX_DIM, colend)))
        goto fail;
    for (ns_int c = 1; c < bc; c++)
        if (colend[c] <= colend[c - 1]) {
            st = ns_lex_fail(lx, f, "column boundaries not strictly increasing "
                             "(colend[%d] = %d after %d)", c, colend[c], colend[c - 1]);
            goto fail;
        }
    A->rows = rowend[br - 1];
    A->cols = colend[bc - 1];
    if (rows >= 0 && (A->rows != rows || A->cols != cols)) {
        st = ns_lex_fail(lx, fld(lx, f, sizeof f, field, "SBM: size"),
                         "block boundaries give %d x %d, the header says %d x %d",
                         A->rows, A->cols, rows, cols);
        goto fail;
    }
    if ((st = ns_lex_int_range(lx, fld(lx, f, sizeof f, field, "SBM: nptr"), 1,
                               br + 1, &nptr)))
        goto fail;
    if ((st = ns_lex_int(lx, fld(lx, f, sizeof f, field, "SBM: nidx"), &nidx))) goto fail;
    if (nidx != nb) {
        st = ns_lex_fail(lx, f, "%d column indices for %d blocks", nidx, nb);
        goto fail;
    }
    if ((st = ns_lex_need(lx, fld(lx, f, sizeof f, field, "SBM: blocks"),
                          (size_t)nptr + (size_t)nb * 3, 2)))
        goto fail;
    if ((st = read_ints(lx, fld(lx, f, sizeof f, field, "SBM: rowptr"), nptr, 0, nb,
                        B->row_ptr)))
        goto fail;
    if (B->row_ptr[0] != 0) {
        st = ns_lex_fail(lx, f, "first row pointer is %d, expected 0", B->row_ptr[0]);
        goto fail;
    }
    for (ns_int r = 1; r < nptr; r++)
        if (B->row_ptr[r] < B->row_ptr[r - 1]) {
            st = ns_lex_fail(lx, f, "row pointers decrease (rowptr[%d] = %d after %d)",
                             r, B->row_ptr[r], B->row_ptr[r - 1]);
            goto fail;
        }
    if (B->row_ptr[nptr - 1] != nb) {
        st = ns_lex_fail(lx, f, "last row pointer is %d, expected nbblocks = %d",
                         B->row_ptr[nptr - 1], nb);
        goto fail;
    }
    for (ns_int r = nptr; r <= br; r++) B->row_ptr[r] = nb;   /* empty tail rows */
    B->nblocks = nb;
    B->block_col = ns_malloc((size_t)nb, sizeof(ns_int));
    B->value_ptr = ns_malloc((size_t)nb + 1, sizeof(ns_int));
    B->diag = ns_malloc((size_t)br, sizeof(ns_int));
    if (!B->block_col || !B->value_ptr || !B->diag) goto nomem;
    if ((st = read_ints(lx, fld(lx, f, sizeof f, field, "SBM: blockcol"), nb, 0, bc - 1,
                        B->block_col)))
        goto fail;
    /* block sizes, diagonal blocks, column order inside each block row */
    uint64_t total = 0;
    B->value_ptr[0] = 0;
    for (ns_int r = 0; r < br; r++) {
        ns_int h = B->row_start[r + 1] - B->row_start[r];
        B->diag[r] = -1;
        for (ns_int k = B->row_ptr[r]; k < B->row_ptr[r + 1]; k++) {
            ns_int c = B->block_col[k];
            if (k > B->row_ptr[r] && c <= B->block_col[k - 1]) {
                st = ns_lex_fail(lx, f, "block columns of block row %d not strictly "
                                 "increasing (blockcol[%d] = %d after %d)", r, k, c,
                                 B->block_col[k - 1]);
                goto fail;
            }
            if (c == r) B->diag[r] = k;
            total += (uint64_t)h * (uint64_t)(B->col_start[c + 1] - B->col_start[c]);
            if (total > (uint64_t)ns_lex_left(lx) || total > (uint64_t)NS_INT_MAX_DIM) {
                st = ns_lex_fail(lx, fld(lx, f, sizeof f, field, "SBM: blocks"),
                                 "blocks need more values than the %zu bytes left",
                                 ns_lex_left(lx));
                goto fail;
            }
            B->value_ptr[k + 1] = (ns_int)total;
        }
    }
    if ((st = ns_lex_need(lx, fld(lx, f, sizeof f, field, "SBM: blocks"),
                          (size_t)total + (size_t)nb, 2)))
        goto fail;
    B->x = ns_malloc((size_t)total, sizeof(double));
    if (!B->x) goto nomem;
    for (ns_int k = 0; k < nb; k++) {
        char name[160];
        ns_int label;
        ns_lex_field(name, sizeof name, field, ": SBM: label of block ", k, "");
        if ((st = ns_lex_int(lx, name, &label))) goto fail;
        if (label != k) {
            st = ns_lex_fail(lx, name, "block labelled %d, expected %d", label, k);
            goto fail;
        }
        ns_lex_field(name, sizeof name, field, ": block ", k, "");
        if ((st = ns_lex_reals(lx, name, (size_t)(B->value_ptr[k + 1] - B->value_ptr[k]),
                               B->x + B->value_ptr[k])))
            goto fail;
    }
    if (nptr_out) *nptr_out = nptr;
    *out = A;
    return NS_OK;
nomem:
    st = no_memory(lx, field);
fail:
    ns_matrix_free(A);
    return st;
}

/* ------------------------------------------------------------ sparse */

/* Splits a line on spaces (and a trailing CR) into at most cap words;
 * returns the number of words, cap + 1 when there are more. */
static int split_words(const char *s, size_t len, const char **w, size_t *wl,
                       int cap)
{
    int n = 0;
    size_t k = 0;
    while (k < len) {
        while (k < len && (s[k] == ' ' || s[k] == '\r')) k++;
        if (k >= len) break;
        size_t b = k;
        while (k < len && s[k] != ' ' && s[k] != '\r') k++;
        if (n == cap) return cap + 1;
        w[n] = s + b;
        wl[n] = k - b;
        n++;
    }
    return n;
}

static int word_is(const char *w, size_t wl, const char *lit)
{
    return wl == strlen(lit) && memcmp(w, lit, wl) == 0;
}

/* Cursor helpers for the header line "[triplet: ]m-by-n, nzmax: z nnz: k". */
static int expect_lit(const char **s, const char *end, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(end - *s) < n || memcmp(*s, lit, n) != 0) return -1;
    *s += n;
    return 0;
}

static int expect_uint(const char **s, const char *end, ns_int *out)
{
    while (*s < end && **s == ' ') (*s)++;
    const char *b = *s;
    while (*s < end && **s >= '0' && **s <= '9') (*s)++;
    if (*s == b || ns_parse_int(b, (size_t)(*s - b), out)) return -1;
    return 0;
}

static ns_status parse_sparse_header(ns_lexer *lx, const char *f, int line,
                                     const char *s, size_t len, int triplet,
                                     ns_int *m, ns_int *n, ns_int *nzmax,
                                     ns_int *nnz)
{
    const char *end = s + len, *p = s;
    while (p < end && *p == ' ') p++;
    if ((triplet && expect_lit(&p, end, "triplet:")) ||
        expect_uint(&p, end, m) || expect_lit(&p, end, "-by-") ||
        expect_uint(&p, end, n) || expect_lit(&p, end, ",") ||
        (p < end && *p == ' ' ? (p++, 0) : 0) || expect_lit(&p, end, "nzmax:") ||
        expect_uint(&p, end, nzmax) || expect_lit(&p, end, " nnz:") ||
        expect_uint(&p, end, nnz))
        return ns_lex_fail_at(lx, line, f, "unparsable header line, expected '%s"
                              "<m>-by-<n>, nzmax: <nzmax> nnz: <nnz>%s'",
                              triplet ? "triplet: " : "", triplet ? "" : ", 1-norm: <x>");
    if (!triplet && (p >= end || *p != ','))
        return ns_lex_fail_at(lx, line, f, "unparsable header line: ', 1-norm: ...' "
                              "expected after nnz");
    return NS_OK;
}

/* Sparse entries for the duplicate check: row, column, entry number in
 * the file and its line. */
typedef struct sp_entry {
    ns_int i, j, k;
    int line;
} sp_entry;

/* Moves past blanks so that lx->line is the line of the next token. */
static void skip_blank(ns_lexer *lx)
{
    while (lx->pos < lx->len && (lx->buf[lx->pos] == ' ' || lx->buf[lx->pos] == '\t' ||
                                 lx->buf[lx->pos] == '\r' || lx->buf[lx->pos] == '\v' ||
                                 lx->buf[lx->pos] == '\f' || lx->buf[lx->pos] == '\n')) {
        if (lx->buf[lx->pos] == '\n') lx->line++;
        lx->pos++;
    }
}

static int sp_entry_cmp(const void *pa, const void *pb)
{
    const sp_entry *a = pa, *b = pb;
    if (a->j != b->j) return a->j < b->j ? -1 : 1;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

/* Duplicate (row, column) pairs are refused (formats-extensions.md §3):
 * Siconos would sum them when converting to CSC, which hides a writer's
 * bug; the first entry (in file order) that repeats an earlier one is
 * named with its line. Sorts e. */
static ns_status refuse_duplicates(ns_lexer *lx, const char *field, sp_entry *e,
                                   size_t n)
{
    if (n < 2) return NS_OK;
    qsort(e, n, sizeof *e, sp_entry_cmp);
    size_t bad = n;
    for (size_t t = 1; t < n; t++)
        if (e[t].i == e[t - 1].i && e[t].j == e[t - 1].j &&
            (bad == n || e[t].k < e[bad].k))
            bad = t;
    if (bad == n) return NS_OK;
    size_t first = bad;
    while (first > 0 && e[first - 1].i == e[bad].i && e[first - 1].j == e[bad].j) first--;
    char f[128];
    ns_lex_field(f, sizeof f, field, ": entry ", e[bad].k, "");
    return ns_lex_fail_at(lx, e[bad].line, f, "duplicate entry (row %d, column %d), "
                          "already given as entry %d: sparse entries must be unique",
                          e[bad].i, e[bad].j, e[first].k);
}

/* CSC entries (line-oriented): for each column "col j : locations a to b"
 * then b - a + 1 lines "i : x". Duplicate rows within a column are
 * refused as refuse_duplicates does (the first entry in file order that
 * repeats an earlier one, named with the earlier one), from seen[i] = the
 * column + 1 where row i was last given and seen[rows + i] = that entry. */
static ns_status read_csc_lines(ns_lexer *lx, const char *field, ns_matrix *A,
                                ns_int *seen)
{
    char f[128];
    ns_csc *C = &A->csc;
    ns_int next = 0;
    C->p[0] = 0;
    for (ns_int j = 0; j < A->cols; j++) {
        const char *s, *w[8];
        size_t len, wl[8];
        ns_int jj, a, b;
        int line = lx->line;
        ns_lex_field(f, sizeof f, field, ": column ", j, "");
        ns_status st = ns_lex_line(lx, f, &s, &len);
        if (st) return st;
        int nw = split_words(s, len, w, wl, 7);
        if (nw != 7 || !word_is(w[0], wl[0], "col") || !word_is(w[2], wl[2], ":") ||
            !word_is(w[3], wl[3], "locations") || !word_is(w[5], wl[5], "to") ||
            ns_parse_int(w[1], wl[1], &jj) || ns_parse_int(w[4], wl[4], &a) ||
            ns_parse_int(w[6], wl[6], &b))
            return ns_lex_fail_at(lx, line, f, "expected 'col %d : locations <a> to <b>'", j);
        if (jj != j)
            return ns_lex_fail_at(lx, line, f, "column %d found where column %d was "
                                  "expected", jj, j);
        if (a != next)
            return ns_lex_fail_at(lx, line, f, "locations not contiguous: starts at %d, "
                                  "expected %d", a, next);
        if (b < a - 1 || b >= C->nnz)
            return ns_lex_fail_at(lx, line, f, "locations %d to %d out of range "
                                  "(nnz = %d)", a, b, C->nnz);
        for (ns_int k = a; k <= b; k++) {
            line = lx->line;
            ns_lex_field(f, sizeof f, field, ": entry ", k, "");   /* cheap: no printf */
            if ((st = ns_lex_line(lx, f, &s, &len))) return st;
            nw = split_words(s, len, w, wl, 3);
            ns_int i;
            double x;
            int nonfinite = 0;
            if (nw != 3 || !word_is(w[1], wl[1], ":") || ns_parse_int(w[0], wl[0], &i))
                return ns_lex_fail_at(lx, line, f, "expected '<row> : <value>' "
                                      "(%d entries announced for column %d)", b - a + 1, j);
            if (i < 0 || i >= A->rows)
                return ns_lex_fail_at(lx, line, f, "row index %d out of range [0, %d)",
                                      i, A->rows);
            if (ns_parse_real(w[2], wl[2], &x, &nonfinite))
                return ns_lex_fail_at(lx, line, f, nonfinite ? "value is not finite"
                                      : "real number expected");
            if (seen[i] == j + 1)
                return ns_lex_fail_at(lx, line, f, "duplicate entry (row %d, column %d), "
                                      "already given as entry %d: sparse entries must be unique",
                                      i, j, seen[A->rows + i]);
            seen[i] = j + 1;
            seen[A->rows + i] = k;
            C->i[k] = i;
            C->x[k] = x;
        }
        next = b + 1;
        C->p[j + 1] = next;
    }
    if (next != C->nnz)
        return ns_lex_fail(lx, fld(lx, f, sizeof f, field, "locations"),
                           "columns hold %d entries, the header says nnz = %d",
                           next, C->nnz);
    return NS_OK;
}

static ns_status read_csc_entries(ns_lexer *lx, const char *field, ns_matrix *A)
{
    ns_int *seen = ns_calloc(2 * (size_t)A->rows + 1, sizeof *seen);
    if (!seen) return no_memory(lx, field);
    ns_status st = read_csc_lines(lx, field, A, seen);
    free(seen);
    return st;
}

/* Triplet entries (token stream): nnz times "i j : x", converted to CSC
 * stably (entries of a column keep the order of the file). */
static ns_status read_triplet_entries(ns_lexer *lx, const char *field, ns_matrix *A)
{
    char f[128];
    ns_status st = NS_OK;
    ns_int nnz = A->csc.nnz;
    ns_int *ti = ns_malloc((size_t)nnz, sizeof(ns_int));
    ns_int *tj = ns_malloc((size_t)nnz, sizeof(ns_int));
    double *tx = ns_malloc((size_t)nnz, sizeof(double));
    sp_entry *e = ns_malloc((size_t)nnz, sizeof *e);
    if (!ti || !tj || !tx || !e) { st = no_memory(lx, field); goto done; }
    for (ns_int k = 0; k < nnz; k++) {
        const char *tok;
        size_t tlen;
        skip_blank(lx);
        e[k].line = lx->line;
        ns_lex_field(f, sizeof f, field, ": entry ", k, ": row");
        if ((st = ns_lex_int_range(lx, f, 0, A->rows - 1, &ti[k]))) goto done;
        ns_lex_field(f, sizeof f, field, ": entry ", k, ": column");
        if ((st = ns_lex_int_range(lx, f, 0, A->cols - 1, &tj[k]))) goto done;
        ns_lex_field(f, sizeof f, field, ": entry ", k, "");
        if ((st = ns_lex_token(lx, f, &tok, &tlen))) goto done;
        if (!word_is(tok, tlen, ":")) {
            st = ns_lex_fail(lx, f, "':' expected between the indices and the value");
            goto done;
        }
        ns_lex_field(f, sizeof f, field, ": entry ", k, ": value");
        if ((st = ns_lex_real(lx, f, &tx[k]))) goto done;
        e[k].i = ti[k];
        e[k].j = tj[k];
        e[k].k = k;
    }
    if ((st = refuse_duplicates(lx, field, e, (size_t)nnz))) goto done;
    ns_int *p = A->csc.p;
    for (ns_int k = 0; k < nnz; k++) p[tj[k] + 1]++;
    for (ns_int j = 0; j < A->cols; j++) p[j + 1] += p[j];
    for (ns_int k = 0; k < nnz; k++) {
        ns_int dst = p[tj[k]]++;
        A->csc.i[dst] = ti[k];
        A->csc.x[dst] = tx[k];
    }
    for (ns_int j = A->cols; j > 0; j--) p[j] = p[j - 1];
    p[0] = 0;
done:
    free(ti);
    free(tj);
    free(tx);
    free(e);
    return st;
}

/* Sparse payload (formats §2.4) after the header. */
static ns_status read_sparse(ns_lexer *lx, const char *field, ns_int rows,
                             ns_int cols, ns_matrix **out)
{
    char f[128];
    ns_status st;
    ns_int origin, m, n, nzmax, nnz;
    const char *s;
    size_t len;
    fld(lx, f, sizeof f, field, "origin");
    if ((st = ns_lex_int(lx, f, &origin))) return st;
    if (origin == 3)
        return ns_lex_fail(lx, f, "CSR (origin code 3) is not supported");
    if (origin != 1 && origin != 2)
        return ns_lex_fail(lx, f, "origin code %d is not 1 (triplet) or 2 (CSC)", origin);
    ns_lex_skip_line(lx);
    if ((st = ns_lex_line(lx, fld(lx, f, sizeof f, field, "banner"), &s, &len))) return st;
    int line = lx->line;
    if ((st = ns_lex_line(lx, fld(lx, f, sizeof f, field, "sparse header"), &s, &len)))
        return st;
    if ((st = parse_sparse_header(lx, f, line, s, len, origin == 1, &m, &n, &nzmax,
                                  &nnz)))
        return st;
    if (m != rows || n != cols)
        return ns_lex_fail_at(lx, line, f, "%d-by-%d disagrees with the header's %d x %d",
                              m, n, rows, cols);
    if (nnz > nzmax)
        return ns_lex_fail_at(lx, line, f, "nnz %d exceeds nzmax %d", nnz, nzmax);
    if (nnz > NS_INT_MAX_DIM)
        return ns_lex_fail_at(lx, line, f, "nnz %d is too large", nnz);
    size_t left = ns_lex_left(lx);
    if (origin == 2) {
        /* each column line ≥ 16 bytes, each entry line ≥ 6 bytes */
        if ((uint64_t)cols * 16 + (uint64_t)nnz * 6 > (uint64_t)left + 1)
            return ns_lex_fail_at(lx, line, f, "%d columns and %d entries announced "
                                  "but only %zu bytes of data left", cols, nnz, left);
    } else {
        /* each entry ≥ 8 bytes; empty columns are not backed by data: bound
         * them by the input size so that a forged size cannot allocate */
        if ((uint64_t)nnz * 8 > (uint64_t)left + 1)
            return ns_lex_fail_at(lx, line, f, "%d entries announced but only %zu "
                                  "bytes of data left", nnz, left);
        if ((uint64_t)cols > 16 * ((uint64_t)left + 64))
            return ns_lex_fail_at(lx, line, f, "%d columns for %zu bytes of data: "
                                  "size not backed by the file", cols, left);
    }
    ns_matrix *A = shell(NS_SPARSE, rows, cols);
    if (!A) return no_memory(lx, field);
    A->csc.nnz = nnz;
    A->csc.p = ns_calloc((size_t)cols + 1, sizeof(ns_int));
    A->csc.i = ns_malloc((size_t)nnz, sizeof(ns_int));
    A->csc.x = ns_malloc((size_t)nnz, sizeof(double));
    if (!A->csc.p || !A->csc.i || !A->csc.x) {
        ns_matrix_free(A);
        return no_memory(lx, field);
    }
    st = origin == 2 ? read_csc_entries(lx, field, A) : read_triplet_entries(lx, field, A);
    if (st) { ns_matrix_free(A); return st; }
    *out = A;
    return NS_OK;
}

/* ------------------------------------------------------------ entries */

static ns_status read_matrix(ns_lexer *lx, const char *field, ns_matrix **out,
                             ns_int *nptr)
{
    char f[128];
    ns_int storage, rows, cols;
    ns_status st;
    *out = NULL;
    if (nptr) *nptr = -1;
    lx->nm_header = 0;
    if ((st = ns_lex_int(lx, fld(lx, f, sizeof f, field, "storage"), &storage))) return st;
    if (storage < 0 || storage > 2)
        return ns_lex_fail(lx, f, "storage code %d is not 0 (dense), 1 (sparse block) "
                           "or 2 (sparse)", storage);
    if ((st = ns_lex_count(lx, fld(lx, f, sizeof f, field, "rows"), &rows))) return st;
    if ((st = ns_lex_count(lx, fld(lx, f, sizeof f, field, "cols"), &cols))) return st;
    lx->nm_header = 1;
    lx->nm_storage = storage;
    lx->nm_rows = rows;
    lx->nm_cols = cols;
    switch (storage) {
    case 0: return read_dense(lx, field, rows, cols, out);
    case 1: return read_sbm(lx, field, rows, cols, out, nptr);
    default: return read_sparse(lx, field, rows, cols, out);
    }
}

ns_status ns_dat_read_matrix(ns_lexer *lx, const char *field, ns_matrix **out,
                             ns_int *nptr)
{
    ns_mat_cache *c = lx->mcache;
    if (c && c->m && c->start == lx->pos) {   /* read by an earlier attempt */
        *out = ns_matrix_copy(c->m);
        if (nptr) *nptr = c->nptr;
        if (!*out) return no_memory(lx, field);
        lx->pos = c->end;
        lx->line = c->end_line;
        lx->nm_header = 1;
        lx->nm_storage = c->storage;
        lx->nm_rows = c->rows;
        lx->nm_cols = c->cols;
        return NS_OK;
    }
    size_t start = lx->pos;
    ns_int np = -1;
    ns_status st = read_matrix(lx, field, out, &np);
    if (nptr) *nptr = np;
    if (st == NS_OK && c && !c->m && (c->m = ns_matrix_copy(*out))) {
        c->start = start;
        c->end = lx->pos;
        c->end_line = lx->line;
        c->nptr = np;
        c->storage = lx->nm_storage;
        c->rows = lx->nm_rows;
        c->cols = lx->nm_cols;
    }
    return st;
}

ns_status ns_dat_read_sbm_raw(ns_lexer *lx, const char *field, ns_matrix **out)
{
    return read_sbm(lx, field, -1, -1, out, NULL);
}

/* ------------------------------------------------------------- writer */

void ns_dat_write_values(FILE *f, const double *x, size_t n, const char *sep)
{
    for (size_t k = 0; k < n; k++)
        fprintf(f, "%.17g%s", x[k], k + 1 < n ? sep : "\n");
}

static void write_ints_tab(FILE *f, const ns_int *v, ns_int n)
{
    for (ns_int k = 0; k < n; k++) fprintf(f, "%d\t", v[k]);
    fputc('\n', f);
}

ns_status ns_dat_write_matrix(FILE *f, const ns_matrix *A, const char *field,
                              char *err)
{
    if (!A) return ns_fail(err, NS_BAD_INPUT, "%s: no matrix", field);
    const double *x = ns_matrix_values_const(A);
    size_t nv = ns_matrix_nvalues(A);
    long bad = x ? ns_first_nonfinite(x, nv) : -1;
    if (bad >= 0)
        return ns_fail(err, NS_BAD_INPUT, "%s: value %ld is not finite and cannot be "
                       "written", field, bad);
    fprintf(f, "%d\n%d\n%d\n", (int)A->storage, A->rows, A->cols);
    switch (A->storage) {
    case NS_DENSE: {
        fprintf(f, "%d\t%d\n", A->rows, A->cols);
        size_t n = (size_t)A->rows * (size_t)A->cols;
        for (size_t k = 0; k < n; k++)
            fprintf(f, "%.17g%s", A->dense[k],
                    (k + 1) % (size_t)A->cols == 0 ? "\n" : " ");
        break;
    }
    case NS_BLOCK: {
        const ns_block *B = &A->block;
        fprintf(f, "%d\n", B->nblocks);
        if (B->nblocks == 0) break;
        fprintf(f, "%d\n%d\n", B->block_rows, B->block_cols);
        write_ints_tab(f, B->row_start + 1, B->block_rows);
        write_ints_tab(f, B->col_start + 1, B->block_cols);
        fprintf(f, "%d\n%d\n", B->block_rows + 1, B->nblocks);
        write_ints_tab(f, B->row_ptr, B->block_rows + 1);
        write_ints_tab(f, B->block_col, B->nblocks);
        for (ns_int k = 0; k < B->nblocks; k++) {
            fprintf(f, "%d\n", k);
            for (ns_int v = B->value_ptr[k]; v < B->value_ptr[k + 1]; v++)
                fprintf(f, "%.17g\n", B->x[v]);
        }
        break;
    }
    case NS_SPARSE: {
        const ns_csc *C = &A->csc;
        double norm1 = 0;
        for (ns_int j = 0; j < A->cols; j++) {
            double s = 0;
            for (ns_int k = C->p[j]; k < C->p[j + 1]; k++) s += fabs(C->x[k]);
            if (s > norm1) norm1 = s;
        }
        fprintf(f, "2\nnonsmooth: compressed sparse column matrix (CSparse text form)\n");
        fprintf(f, "%d-by-%d, nzmax: %d nnz: %d, 1-norm: %g\n", A->rows, A->cols,
                C->nnz, C->nnz, norm1);
        for (ns_int j = 0; j < A->cols; j++) {
            fprintf(f, "    col %d : locations %d to %d\n", j, C->p[j], C->p[j + 1] - 1);
            for (ns_int k = C->p[j]; k < C->p[j + 1]; k++)
                fprintf(f, "      %d : %.17g\n", C->i[k], C->x[k]);
        }
        break;
    }
    default:
        return ns_fail(err, NS_BAD_INPUT, "%s: unknown storage %d", field, (int)A->storage);
    }
    return NS_OK;
}
