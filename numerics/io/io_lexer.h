/* io_lexer.h — token stream with line numbers over a memory buffer, for the
 * Siconos-style .dat readers (docs/formats.md §1).
 *
 * The buffer need not be NUL-terminated. Tokens are maximal runs of
 * non-whitespace characters (space, tab, LF, CR, VT, FF separate them).
 * Every failure fills err with one line "NAME:LINE: FIELD: reason" and
 * returns NS_BAD_INPUT; the position is then unspecified.
 * The lexer owns nothing: it borrows buf, name and err.
 */
#ifndef NS_IO_LEXER_H
#define NS_IO_LEXER_H
#include <stddef.h>
#include "nonsmooth/ns_status.h"
#include "core/ns_internal.h"

struct ns_matrix;

/* The first matrix block a detection read (io_detect.c): the layouts it
 * tries start alike ("d nc M ..."), so the block at the same position is
 * parsed once and copied into the later attempts. Owned by the detection. */
typedef struct ns_mat_cache {
    struct ns_matrix *m;   /* NULL until a block was read */
    size_t start, end;     /* buffer positions before and after the block */
    int end_line;
    ns_int nptr, storage, rows, cols;
    int quiet;             /* the detection's first pass: no messages */
} ns_mat_cache;

typedef struct ns_lexer {
    const char *buf;   /* (len) the text */
    size_t len;
    size_t pos;        /* next unread byte */
    int line;          /* 1-based line of buf[pos] */
    const char *name;  /* file name used in messages */
    char *err;         /* NS_ERRMSG_LEN bytes or NULL */
    /* Detection (io_detect.c): a layout reader sets committed once the text
     * matched its layout's header, so that its error is the one reported
     * and no other layout is tried. nm_* describe the last NumericsMatrix
     * header read by ns_dat_read_matrix (nm_header = 1 once storage, rows
     * and cols were read and the storage code was valid). */
    int committed;
    int nm_header;
    ns_int nm_storage, nm_rows, nm_cols;
    ns_mat_cache *mcache;   /* NULL, or the detection's cache */
} ns_lexer;

/** Starts reading buf[0..len) at line 1. */
void ns_lex_init(ns_lexer *lx, const char *buf, size_t len, const char *name,
                 char *err);

/** Fills err with "NAME:LINE: FIELD: <fmt>" (LINE = current line) and
 *  returns NS_BAD_INPUT. */
ns_status ns_lex_fail(ns_lexer *lx, const char *field, const char *fmt, ...)
    NS_PRINTF(3, 4);

/** Same with an explicit line (for errors found after a line was read). */
ns_status ns_lex_fail_at(ns_lexer *lx, int line, const char *field,
                         const char *fmt, ...) NS_PRINTF(4, 5);

/** Bytes not yet read. */
size_t ns_lex_left(const ns_lexer *lx);

/** 1 if only whitespace is left. */
int ns_lex_at_end(ns_lexer *lx);

/** n more tokens are required: fails (without reading) when the bytes left
 *  cannot hold them (each token needs at least min_bytes bytes including its
 *  separator). Use before allocating anything sized by the file. */
ns_status ns_lex_need(ns_lexer *lx, const char *field, size_t n,
                      size_t min_bytes);

/** Next token: *tok points into the buffer, *tlen its length (never 0).
 *  Fails with "unexpected end of file" when none is left. */
ns_status ns_lex_token(ns_lexer *lx, const char *field, const char **tok,
                       size_t *tlen);

/** Integer token: optional sign and decimal digits only, within int range. */
ns_status ns_lex_int(ns_lexer *lx, const char *field, ns_int *out);

/** Integer in [lo, hi]; the message says the range. */
ns_status ns_lex_int_range(ns_lexer *lx, const char *field, ns_int lo,
                           ns_int hi, ns_int *out);

/** Count or dimension: integer in [0, NS_INT_MAX_DIM]. */
ns_status ns_lex_count(ns_lexer *lx, const char *field, ns_int *out);

/** Real token with strtod syntax restricted to decimal notation
 *  ([sign] digits [. digits] [e|E [sign] digits]); NaN, Inf and overflow
 *  are rejected as "not finite". */
ns_status ns_lex_real(ns_lexer *lx, const char *field, double *out);

/** n reals into out (caller allocated); field is reported as FIELD[k].
 *  Checks ns_lex_need first. */
ns_status ns_lex_reals(ns_lexer *lx, const char *field, size_t n, double *out);

/** 1 when exactly n tokens are left and each spells a real number (finite
 *  or not: NaN and infinities count, so that a reader can commit to a
 *  layout and then report them). Does not move. */
int ns_lex_rest_is_reals(const ns_lexer *lx, size_t n);

/** Parses a whole string as an integer / finite real with the rules above;
 *  0 on success, -1 otherwise (also for NaN/Inf: *nonfinite set to 1). */
int ns_parse_int(const char *s, size_t len, ns_int *out);
int ns_parse_real(const char *s, size_t len, double *out, int *nonfinite);

/** dst = a b k c (k in decimal), cut to cap − 1 bytes: the name of an
 *  indexed field ("q" "[" 3 "]"), as snprintf "%s%s%ld%s" would write it,
 *  without its cost (readers name every value they read). Returns dst. */
char *ns_lex_field(char *dst, size_t cap, const char *a, const char *b, long k,
                   const char *c);

/* ---- line mode (sparse block, formats §2.4) ---- */

/** The rest of the current line (without its LF), then moves to the next
 *  line. Fails at end of file. */
ns_status ns_lex_line(ns_lexer *lx, const char *field, const char **start,
                      size_t *len);

/** Skips the rest of the current line (whatever it holds). */
void ns_lex_skip_line(ns_lexer *lx);

#endif
