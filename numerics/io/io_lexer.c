/* io_lexer.c — whitespace-separated tokens with line numbers over a memory
 * buffer; strict integers and reals (docs/formats.md §1). */
#include "io/io_lexer.h"
#include "io/io_real.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

void ns_lex_init(ns_lexer *lx, const char *buf, size_t len, const char *name,
                 char *err)
{
    lx->buf = buf;
    lx->len = buf ? len : 0;
    lx->pos = 0;
    lx->line = 1;
    lx->name = name ? name : "(buffer)";
    lx->err = err;
    lx->committed = 0;
    lx->nm_header = 0;
    lx->nm_storage = lx->nm_rows = lx->nm_cols = -1;
    lx->mcache = NULL;
}

/* Line to report: the current one, but never past the last line of text
 * (a final LF does not open a new line). */
static int report_line(const ns_lexer *lx)
{
    if (lx->pos >= lx->len && lx->len > 0 && lx->buf[lx->len - 1] == '\n' &&
        lx->line > 1)
        return lx->line - 1;
    return lx->line;
}

static ns_status vfail(ns_lexer *lx, int line, const char *field,
                       const char *fmt, va_list ap)
{
    if (lx->err) {
        char reason[NS_ERRMSG_LEN / 2];
        vsnprintf(reason, sizeof reason, fmt, ap);
        /* one line: cut the reason at any line break it may carry */
        reason[strcspn(reason, "\r\n")] = '\0';
        snprintf(lx->err, NS_ERRMSG_LEN, "%s:%d: %s: %s", lx->name, line,
                 field, reason);
    }
    return NS_BAD_INPUT;
}

ns_status ns_lex_fail(ns_lexer *lx, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ns_status st = vfail(lx, report_line(lx), field, fmt, ap);
    va_end(ap);
    return st;
}

ns_status ns_lex_fail_at(ns_lexer *lx, int line, const char *field,
                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ns_status st = vfail(lx, line, field, fmt, ap);
    va_end(ap);
    return st;
}

size_t ns_lex_left(const ns_lexer *lx)
{
    return lx->len - lx->pos;
}

/* Moves past whitespace, counting line feeds. */
static void skip_space(ns_lexer *lx)
{
    while (lx->pos < lx->len && is_space(lx->buf[lx->pos])) {
        if (lx->buf[lx->pos] == '\n') lx->line++;
        lx->pos++;
    }
}

int ns_lex_at_end(ns_lexer *lx)
{
    skip_space(lx);
    return lx->pos >= lx->len;
}

ns_status ns_lex_need(ns_lexer *lx, const char *field, size_t n,
                      size_t min_bytes)
{
    if (n == 0) return NS_OK;
    /* n tokens of min_bytes each, the last one without separator */
    size_t left = ns_lex_left(lx);
    if (min_bytes == 0) min_bytes = 1;
    if (n > (left + 1) / min_bytes)
        return ns_lex_fail(lx, field,
                           "%zu values announced but only %zu bytes of data left",
                           n, left);
    return NS_OK;
}

ns_status ns_lex_token(ns_lexer *lx, const char *field, const char **tok,
                       size_t *tlen)
{
    skip_space(lx);
    if (lx->pos >= lx->len)
        return ns_lex_fail(lx, field, "unexpected end of file");
    size_t start = lx->pos;
    while (lx->pos < lx->len && !is_space(lx->buf[lx->pos])) lx->pos++;
    *tok = lx->buf + start;
    *tlen = lx->pos - start;
    return NS_OK;
}

/* Short printable excerpt of a token for messages. */
static void excerpt(char *dst, size_t cap, const char *tok, size_t tlen)
{
    size_t n = tlen < cap - 4 ? tlen : cap - 4;
    size_t k;
    for (k = 0; k < n; k++) {
        unsigned char c = (unsigned char)tok[k];
        dst[k] = (c >= 32 && c < 127) ? (char)c : '?';
    }
    if (n < tlen) { dst[k++] = '.'; dst[k++] = '.'; dst[k++] = '.'; }
    dst[k] = '\0';
}

int ns_parse_int(const char *s, size_t len, ns_int *out)
{
    size_t k = 0;
    int neg = 0;
    if (k < len && (s[k] == '+' || s[k] == '-')) { neg = s[k] == '-'; k++; }
    if (k == len) return -1;
    long long v = 0;
    for (; k < len; k++) {
        if (s[k] < '0' || s[k] > '9') return -1;
        v = v * 10 + (s[k] - '0');
        if (v > (long long)INT_MAX + 1) return -1;
    }
    if (neg) v = -v;
    if (v > INT_MAX || v < INT_MIN) return -1;
    *out = (ns_int)v;
    return 0;
}

static int ci_equal(const char *s, size_t len, const char *word)
{
    size_t n = strlen(word);
    if (len != n) return 0;
    for (size_t k = 0; k < n; k++) {
        char c = s[k];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != word[k]) return 0;
    }
    return 1;
}

/* 1 when s spells NaN or an infinity as strtod would accept it. */
static int spells_nonfinite(const char *s, size_t len)
{
    if (len > 0 && (s[0] == '+' || s[0] == '-')) { s++; len--; }
    if (len >= 3 && ci_equal(s, 3, "nan")) return 1;
    return ci_equal(s, len, "inf") || ci_equal(s, len, "infinity");
}

int ns_parse_real(const char *s, size_t len, double *out, int *nonfinite)
{
    *nonfinite = 0;
    size_t a = len > 0 && (s[0] == '+' || s[0] == '-');
    if (a < len && (s[a] < '0' || s[a] > '9') && s[a] != '.' && spells_nonfinite(s, len)) {
        *nonfinite = 1;
        return -1;
    }
    size_t k = 0, digits = 0;
    if (k < len && (s[k] == '+' || s[k] == '-')) k++;
    while (k < len && s[k] >= '0' && s[k] <= '9') { k++; digits++; }
    if (k < len && s[k] == '.') {
        k++;
        while (k < len && s[k] >= '0' && s[k] <= '9') { k++; digits++; }
    }
    if (digits == 0) return -1;
    if (k < len && (s[k] == 'e' || s[k] == 'E')) {
        k++;
        if (k < len && (s[k] == '+' || s[k] == '-')) k++;
        size_t ed = 0;
        while (k < len && s[k] >= '0' && s[k] <= '9') { k++; ed++; }
        if (ed == 0) return -1;
    }
    if (k != len) return -1;
    double v;
    if (ns_real_decimal(s, len, &v)) return -1;
    if (!isfinite(v)) { *nonfinite = 1; return -1; }
    *out = v;   /* underflow keeps strtod's value (0 or subnormal) */
    return 0;
}

ns_status ns_lex_int(ns_lexer *lx, const char *field, ns_int *out)
{
    const char *tok;
    size_t tlen;
    ns_status st = ns_lex_token(lx, field, &tok, &tlen);
    if (st) return st;
    if (ns_parse_int(tok, tlen, out)) {
        char ex[40];
        excerpt(ex, sizeof ex, tok, tlen);
        return ns_lex_fail(lx, field, "integer expected, found '%s'", ex);
    }
    return NS_OK;
}

ns_status ns_lex_int_range(ns_lexer *lx, const char *field, ns_int lo,
                           ns_int hi, ns_int *out)
{
    ns_status st = ns_lex_int(lx, field, out);
    if (st) return st;
    if (*out < lo || *out > hi)
        return ns_lex_fail(lx, field, "%d is out of range [%d, %d]", *out, lo, hi);
    return NS_OK;
}

ns_status ns_lex_count(ns_lexer *lx, const char *field, ns_int *out)
{
    const char *tok;
    size_t tlen;
    ns_status st = ns_lex_token(lx, field, &tok, &tlen);
    if (st) return st;
    if (ns_parse_int(tok, tlen, out)) {
        /* tell an absurd size from a malformed token */
        size_t k = tok[0] == '+' ? 1 : 0, d = 0;
        while (k + d < tlen && tok[k + d] >= '0' && tok[k + d] <= '9') d++;
        if (d > 0 && k + d == tlen)
            return ns_lex_fail(lx, field, "size %.*s is too large (limit %d)",
                               (int)(tlen < 40 ? tlen : 40), tok, NS_INT_MAX_DIM);
        char ex[40];
        excerpt(ex, sizeof ex, tok, tlen);
        return ns_lex_fail(lx, field, "non-negative integer expected, found '%s'", ex);
    }
    if (*out < 0) return ns_lex_fail(lx, field, "negative size %d", *out);
    if (*out > NS_INT_MAX_DIM)
        return ns_lex_fail(lx, field, "size %d is too large (limit %d)", *out,
                           NS_INT_MAX_DIM);
    return NS_OK;
}

ns_status ns_lex_real(ns_lexer *lx, const char *field, double *out)
{
    const char *tok;
    size_t tlen;
    ns_status st = ns_lex_token(lx, field, &tok, &tlen);
    if (st) return st;
    int nonfinite = 0;
    if (ns_parse_real(tok, tlen, out, &nonfinite)) {
        char ex[40];
        excerpt(ex, sizeof ex, tok, tlen);
        if (nonfinite)
            return ns_lex_fail(lx, field, "value '%s' is not finite", ex);
        return ns_lex_fail(lx, field, "real number expected, found '%s'", ex);
    }
    return NS_OK;
}

ns_status ns_lex_reals(ns_lexer *lx, const char *field, size_t n, double *out)
{
    ns_status st = ns_lex_need(lx, field, n, 2);
    if (st) return st;
    for (size_t k = 0; k < n; k++) {
        const char *tok;
        size_t tlen, used;
        char name[96];
        skip_space(lx);
        /* the usual case in one pass: a number ending at a separator */
        if (lx->pos < lx->len && ns_real_scan(lx->buf + lx->pos, lx->len - lx->pos, &out[k], &used) == 0 &&
            (lx->pos + used == lx->len || is_space(lx->buf[lx->pos + used])) && isfinite(out[k])) {
            lx->pos += used;
            continue;
        }
        if (lx->pos >= lx->len) {
            ns_lex_field(name, sizeof name, field, "[", (long)k, "]");
            return ns_lex_fail(lx, name, "unexpected end of file");
        }
        ns_lex_token(lx, field, &tok, &tlen);
        int nonfinite = 0;
        if (ns_parse_real(tok, tlen, &out[k], &nonfinite)) {
            char ex[40];
            excerpt(ex, sizeof ex, tok, tlen);
            ns_lex_field(name, sizeof name, field, "[", (long)k, "]");
            if (nonfinite)
                return ns_lex_fail(lx, name, "value '%s' is not finite", ex);
            return ns_lex_fail(lx, name, "real number expected, found '%s'", ex);
        }
    }
    return NS_OK;
}

int ns_lex_rest_is_reals(const ns_lexer *lx, size_t n)
{
    size_t pos = lx->pos, count = 0;
    for (;;) {
        while (pos < lx->len && is_space(lx->buf[pos])) pos++;
        if (pos >= lx->len) break;
        size_t start = pos;
        while (pos < lx->len && !is_space(lx->buf[pos])) pos++;
        if (++count > n) return 0;
        double x;
        int nonfinite = 0;
        if (ns_parse_real(lx->buf + start, pos - start, &x, &nonfinite) && !nonfinite)
            return 0;
    }
    return count == n;
}

ns_status ns_lex_line(ns_lexer *lx, const char *field, const char **start,
                      size_t *len)
{
    if (lx->pos >= lx->len)
        return ns_lex_fail(lx, field, "unexpected end of file");
    size_t s = lx->pos;
    while (lx->pos < lx->len && lx->buf[lx->pos] != '\n') lx->pos++;
    *start = lx->buf + s;
    *len = lx->pos - s;
    if (lx->pos < lx->len) { lx->pos++; lx->line++; }
    return NS_OK;
}

void ns_lex_skip_line(ns_lexer *lx)
{
    while (lx->pos < lx->len && lx->buf[lx->pos] != '\n') lx->pos++;
    if (lx->pos < lx->len) { lx->pos++; lx->line++; }
}

static size_t put(char *dst, size_t at, size_t cap, const char *s)
{
    while (*s && at + 1 < cap) dst[at++] = *s++;
    return at;
}

char *ns_lex_field(char *dst, size_t cap, const char *a, const char *b, long k,
                   const char *c)
{
    if (cap == 0) return dst;
    char num[24];
    int n = 0;
    unsigned long u = k < 0 ? 0UL - (unsigned long)k : (unsigned long)k;
    do { num[n++] = (char)('0' + u % 10); u /= 10; } while (u);
    if (k < 0) num[n++] = '-';
    char rev[24];
    for (int i = 0; i < n; i++) rev[i] = num[n - 1 - i];
    rev[n] = '\0';
    size_t at = put(dst, 0, cap, a);
    at = put(dst, at, cap, b);
    at = put(dst, at, cap, rev);
    at = put(dst, at, cap, c);
    dst[at] = '\0';
    return dst;
}
