/* nsbench_csv.c — the result table and its CSV form.
 *
 * Columns: file,kind,size,solver,status,iterations,error,seconds,peak_kb,message
 * One row per run; unknown values are empty fields. Fields holding a comma,
 * a quote or a line break are quoted (RFC 4180). The reader finds columns by
 * header name, so a reference file (e.g. Siconos driver output) may add or
 * reorder columns; file, solver, status and seconds are required.
 */
#define _POSIX_C_SOURCE 200809L
#include "nsbench.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *columns[] = { "file", "kind", "size", "solver", "status", "iterations",
                                 "error", "seconds", "peak_kb", "message" };
enum { C_FILE, C_KIND, C_SIZE, C_SOLVER, C_STATUS, C_ITER, C_ERROR, C_SECONDS, C_PEAK,
       C_MESSAGE, C_COUNT };

nb_row *nb_table_add(nb_table *t)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        nb_row *r = realloc(t->rows, cap * sizeof *r);
        if (!r) return NULL;
        t->rows = r;
        t->cap = cap;
    }
    nb_row *r = &t->rows[t->n++];
    memset(r, 0, sizeof *r);
    r->size = -1;
    r->iterations = -1;
    r->error = NAN;
    r->seconds = NAN;
    r->peak_kb = -1;
    return r;
}

void nb_table_free(nb_table *t)
{
    for (size_t i = 0; i < t->n; i++) free(t->rows[i].file);
    free(t->rows);
    memset(t, 0, sizeof *t);
}

static void field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void nb_csv_write_stream(FILE *f, const nb_table *t)
{
    for (int c = 0; c < C_COUNT; c++) fprintf(f, "%s%s", c ? "," : "", columns[c]);
    fputc('\n', f);
    for (size_t i = 0; i < t->n; i++) {
        const nb_row *r = &t->rows[i];
        field(f, r->file ? r->file : "");
        fprintf(f, ",%s,", r->kind);
        if (r->size >= 0) fprintf(f, "%ld", r->size);
        fputc(',', f);
        field(f, r->solver);
        fprintf(f, ",%s,", r->status);
        if (r->iterations >= 0) fprintf(f, "%ld", r->iterations);
        fputc(',', f);
        if (!isnan(r->error)) fprintf(f, "%.6e", r->error);
        fputc(',', f);
        if (!isnan(r->seconds)) fprintf(f, "%.6e", r->seconds);
        fputc(',', f);
        if (r->peak_kb >= 0) fprintf(f, "%ld", r->peak_kb);
        fputc(',', f);
        field(f, r->message);
        fputc('\n', f);
    }
}

int nb_csv_write(const char *path, const nb_table *t, char *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, NS_ERRMSG_LEN, "%s: %s", path, strerror(errno));
        return -1;
    }
    nb_csv_write_stream(f, t);
    if (fclose(f) != 0) {
        snprintf(err, NS_ERRMSG_LEN, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Splits one CSV record (may span lines when quoted) into fields.
 * Returns the number of fields, 0 at end of file, -1 on OOM. */
static int read_record(FILE *f, char ***fields, size_t *cap_fields)
{
    size_t nf = 0, len = 0, cap = 0;
    char *buf = NULL;
    int c, quoted = 0, any = 0;
    for (;;) {
        c = fgetc(f);
        if (c == EOF && !any) { free(buf); return 0; }
        any = 1;
        int end_field = 0, end_record = 0;
        if (quoted) {
            if (c == EOF) { end_field = end_record = 1; }
            else if (c == '"') {
                int d = fgetc(f);
                if (d == '"') c = '"';
                else { quoted = 0; if (d != EOF) ungetc(d, f); continue; }
            }
        } else if (c == '"') { quoted = 1; continue; }
        else if (c == ',') end_field = 1;
        else if (c == '\n' || c == EOF) end_field = end_record = 1;
        else if (c == '\r') continue;
        if (!end_field) {
            if (len + 2 > cap) {
                cap = cap ? 2 * cap : 64;
                char *b = realloc(buf, cap);
                if (!b) { free(buf); return -1; }
                buf = b;
            }
            buf[len++] = (char)c;
            continue;
        }
        if (nf == *cap_fields) {
            size_t nc = *cap_fields ? 2 * *cap_fields : 16;
            char **p = realloc(*fields, nc * sizeof *p);
            if (!p) { free(buf); return -1; }
            *fields = p;
            *cap_fields = nc;
        }
        char *s = malloc(len + 1);
        if (!s) { free(buf); return -1; }
        if (len) memcpy(s, buf, len);
        s[len] = '\0';
        (*fields)[nf++] = s;
        len = 0;
        if (end_record) break;
    }
    free(buf);
    return (int)nf;
}

static double to_double(const char *s)
{
    if (!*s) return NAN;
    char *end;
    double v = strtod(s, &end);
    return end == s ? NAN : v;
}

static long to_long(const char *s)
{
    if (!*s) return -1;
    char *end;
    double v = strtod(s, &end);
    return end == s || !isfinite(v) ? -1 : (long)v;
}

int nb_csv_read(const char *path, nb_table *t, char *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, NS_ERRMSG_LEN, "%s: %s", path, strerror(errno));
        return -1;
    }
    char **fl = NULL;
    size_t cap = 0;
    int map[C_COUNT];
    for (int c = 0; c < C_COUNT; c++) map[c] = -1;
    int nf = read_record(f, &fl, &cap), rc = 0;
    if (nf <= 0) {
        snprintf(err, NS_ERRMSG_LEN, "%s: empty file (expected a header line)", path);
        rc = -1;
    }
    for (int i = 0; i < nf; i++) {
        for (int c = 0; c < C_COUNT; c++)
            if (!strcmp(fl[i], columns[c])) map[c] = i;
        free(fl[i]);
    }
    int required[] = { C_FILE, C_SOLVER, C_STATUS, C_SECONDS };
    for (size_t k = 0; !rc && k < sizeof required / sizeof *required; k++)
        if (map[required[k]] < 0) {
            snprintf(err, NS_ERRMSG_LEN, "%s: line 1: no '%s' column (need file, solver, "
                     "status, seconds)", path, columns[required[k]]);
            rc = -1;
        }
    long line = 1;
    while (!rc && (nf = read_record(f, &fl, &cap)) != 0) {
        line++;
        if (nf < 0) {
            snprintf(err, NS_ERRMSG_LEN, "%s: out of memory", path);
            rc = -1;
            break;
        }
        if (nf == 1 && !fl[0][0]) { free(fl[0]); continue; }  /* blank line */
        const char *v[C_COUNT];
        for (int c = 0; c < C_COUNT; c++) v[c] = map[c] >= 0 && map[c] < nf ? fl[map[c]] : "";
        nb_row *r = nb_table_add(t);
        if (!r || !(r->file = strdup(v[C_FILE]))) {
            snprintf(err, NS_ERRMSG_LEN, "%s: out of memory", path);
            rc = -1;
        } else {
            snprintf(r->kind, sizeof r->kind, "%s", v[C_KIND][0] ? v[C_KIND] : "none");
            r->size = to_long(v[C_SIZE]);
            snprintf(r->solver, sizeof r->solver, "%s", v[C_SOLVER]);
            snprintf(r->status, sizeof r->status, "%s", v[C_STATUS]);
            r->iterations = to_long(v[C_ITER]);
            r->error = to_double(v[C_ERROR]);
            r->seconds = to_double(v[C_SECONDS]);
            r->peak_kb = to_long(v[C_PEAK]);
            snprintf(r->message, sizeof r->message, "%s", v[C_MESSAGE]);
            if (!r->file[0]) {
                snprintf(err, NS_ERRMSG_LEN, "%s: line %ld: empty 'file' field", path, line);
                rc = -1;
            }
        }
        for (int i = 0; i < nf; i++) free(fl[i]);
    }
    free(fl);
    fclose(f);
    return rc;
}
