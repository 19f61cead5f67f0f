/* nsbench_csv.c — the result table and its CSV form.
 *
 * Columns: file,kind,size,solver,status,iterations,error,seconds,solves,
 * peak_kb,message
 * One row per run; unknown values are empty fields. seconds is the time per
 * solve, over `solves` solves (sub-millisecond runs are repeated). Fields holding a comma,
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
#include <sys/stat.h>
#include <unistd.h>

static const char *columns[] = { "file", "kind", "size", "solver", "status", "iterations",
                                 "error", "seconds", "solves", "peak_kb", "message" };
enum { C_FILE, C_KIND, C_SIZE, C_SOLVER, C_STATUS, C_ITER, C_ERROR, C_SECONDS, C_SOLVES,
       C_PEAK, C_MESSAGE, C_COUNT };

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
    r->solves = -1;
    r->peak_kb = -1;
    return r;
}

int nb_table_put(nb_table *t, const char *file, const nb_row *src)
{
    nb_row *r = nb_table_add(t);
    if (!r) return -1;
    *r = *src;
    if (!(r->file = strdup(file))) {
        t->n--;
        return -1;
    }
    return 0;
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

void nb_csv_header(FILE *f)
{
    for (int c = 0; c < C_COUNT; c++) fprintf(f, "%s%s", c ? "," : "", columns[c]);
    fputc('\n', f);
}

void nb_csv_row(FILE *f, const nb_row *r)
{
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
    if (r->solves >= 0) fprintf(f, "%ld", r->solves);
    fputc(',', f);
    if (r->peak_kb >= 0) fprintf(f, "%ld", r->peak_kb);
    fputc(',', f);
    field(f, r->message);
    fputc('\n', f);
}

void nb_csv_write_stream(FILE *f, const nb_table *t)
{
    nb_csv_header(f);
    for (size_t i = 0; i < t->n; i++) nb_csv_row(f, &t->rows[i]);
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

int nb_csv_write_atomic(const char *path, const nb_table *t, char *err)
{
    /* only a regular file (or a new one) is replaced by a rename: renamed
     * over /dev/null, a FIFO or a symbolic link, the temporary file would
     * take the device's, the pipe's or the link's place */
    struct stat sb;
    if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) return nb_csv_write(path, t, err);
    size_t len = strlen(path) + 16;
    char *tmp = malloc(len);
    if (!tmp) {
        snprintf(err, NS_ERRMSG_LEN, "%s: out of memory", path);
        return -1;
    }
    snprintf(tmp, len, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    int rc = 0;
    if (!f) rc = -1;
    else {
        nb_csv_write_stream(f, t);
        if (fflush(f) != 0 || fsync(fileno(f)) != 0) rc = -1;
        if (fclose(f) != 0) rc = -1;
        if (!rc && rename(tmp, path) != 0) rc = -1;
    }
    if (rc) {
        snprintf(err, NS_ERRMSG_LEN, "%s: %s", rc && f ? path : tmp, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return rc;
}

int nb_sink_open(nb_sink *s, const char *path, int keep, char *err)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->f = fopen(path, keep ? "a" : "w");
    if (!s->f) {
        snprintf(err, NS_ERRMSG_LEN, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (!keep) nb_csv_header(s->f);
    fflush(s->f);
    s->last_sync = nb_now();
    return 0;
}

void nb_sink_put(nb_sink *s, const char *file, const nb_row *r)
{
    if (!s->f) return;
    nb_row copy = *r;
    copy.file = (char *)file;
    nb_csv_row(s->f, &copy);
    /* flushed at once: a killed nsbench loses no finished row; synced to
     * disk at most once a second, for a node that goes down */
    int bad = fflush(s->f) != 0;
    double t = nb_now();
    if (!bad && t - s->last_sync >= 1.0) {
        fdatasync(fileno(s->f));
        s->last_sync = t;
    }
    if (bad && !s->failed) {
        fprintf(stderr, "nsbench: %s: %s (rows kept for the final write)\n", s->path,
                strerror(errno));
        s->failed = 1;
    }
}

void nb_sink_close(nb_sink *s)
{
    if (s->f) fclose(s->f);
    s->f = NULL;
}

/* Splits one CSV record (may span lines when quoted) into fields.
 * Returns the number of fields, 0 at end of file, -1 on OOM. */
static int read_record(FILE *f, char ***fields, size_t *cap_fields, int *cut)
{
    size_t nf = 0, len = 0, cap = 0;
    *cut = 0;
    char *buf = NULL;
    int c, quoted = 0, any = 0;
    for (;;) {
        c = fgetc(f);
        if (c == EOF && !any) { free(buf); return 0; }
        any = 1;
        int end_field = 0, end_record = 0;
        if (c == EOF) *cut = 1;  /* no line break at the end */
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

/* The statuses nsbench writes: a row with another one is not nsbench's. */
static int known_status(const char *s)
{
    static const char *const known[] = { "converged", "max_iter", "no_solution", "singular",
                                         "time_limit", "diverged", "failed", "bad_input",
                                         "no_memory", "io_error", "unsupported", "not_found",
                                         "crash", "timeout", "memory", "interrupted",
                                         "no_solver", "matrix", "ok", NULL };
    for (int i = 0; known[i]; i++)
        if (!strcmp(s, known[i])) return 1;
    return 0;
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
    int cut = 0;
    int nf = read_record(f, &fl, &cap, &cut), rc = 0;
    if (nf <= 0) {
        snprintf(err, NS_ERRMSG_LEN, "%s: empty file (expected a header line)", path);
        rc = -1;
    }
    int nheader = nf;
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
    while (!rc && (nf = read_record(f, &fl, &cap, &cut)) != 0) {
        line++;
        if (nf < 0) {
            snprintf(err, NS_ERRMSG_LEN, "%s: out of memory", path);
            rc = -1;
            break;
        }
        /* blank line, or a last row cut short (its writer was killed) */
        if ((nf == 1 && !fl[0][0]) || (cut && nf < nheader)) {
            for (int i = 0; i < nf; i++) free(fl[i]);
            continue;
        }
        const char *v[C_COUNT];
        for (int c = 0; c < C_COUNT; c++) v[c] = map[c] >= 0 && map[c] < nf ? fl[map[c]] : "";
        if (nf != nheader || !known_status(v[C_STATUS])) {   /* left out, counted */
            if (!t->malformed++) t->first_malformed = line;
            for (int i = 0; i < nf; i++) free(fl[i]);
            continue;
        }
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
            r->solves = to_long(v[C_SOLVES]);
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
