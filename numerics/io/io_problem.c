/* io_problem.c — the public file API of ns_io.h: read (with detection),
 * detect, write problems, matrices and solutions. .dat texts are read into
 * memory whole; HDF5 files (signature "\x89HDF\r\n\x1a\n") go to FCLIB. */
#define _POSIX_C_SOURCE 200809L
#include "nonsmooth/ns_io.h"
#include "io/io_dat.h"
#include "io/io_fclib.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define NS_IO_MAX_FILE ((size_t)1 << 31)   /* larger files are refused (stat) */

static const char hdf5_sig[8] = { '\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n' };

/* Refuses what is not a regular file, before any open for reading (a FIFO
 * would block in open, a directory fails late with no reason). */
static ns_status check_regular(const char *path, const struct stat *sb, char *err)
{
    if (S_ISDIR(sb->st_mode))
        return ns_fail(err, NS_BAD_INPUT, "%s:0: file: is a directory", path);
    if (!S_ISREG(sb->st_mode))
        return ns_fail(err, NS_BAD_INPUT, "%s:0: file: not a regular file (%s)", path,
                       S_ISFIFO(sb->st_mode) ? "a FIFO" : S_ISCHR(sb->st_mode)
                       ? "a character device" : S_ISBLK(sb->st_mode) ? "a block device"
                       : S_ISSOCK(sb->st_mode) ? "a socket" : "special file");
    if ((uint64_t)sb->st_size > NS_IO_MAX_FILE)
        return ns_fail(err, NS_BAD_INPUT, "%s:0: file: %lld bytes, larger than the "
                       "limit of %zu bytes", path, (long long)sb->st_size,
                       (size_t)NS_IO_MAX_FILE);
    return NS_OK;
}

/* Checks path (stat: a regular file within the size limit) and opens it;
 * *fd and *size on success. Special files are refused before any open (a
 * device can act on being opened). The descriptor is opened without
 * blocking, so that a path swapped for a FIFO after the stat cannot hang
 * the open or the reads (they then fail or find no bytes), and it is not
 * checked again: whatever it reads is bounded by the size the stat gave
 * and by NS_IO_MAX_FILE. O_NONBLOCK changes nothing for regular files. */
static ns_status open_in(const char *path, int *fd, off_t *size, char *err)
{
    struct stat sb;
    *fd = -1;
    if (!path) return ns_fail(err, NS_BAD_INPUT, "(null):0: file: no path given");
    if (stat(path, &sb) != 0)
        return ns_fail(err, NS_IO_ERROR, "%s:0: file: cannot open: %s", path,
                       strerror(errno));
    ns_status st = check_regular(path, &sb, err);
    if (st) return st;
    int d = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (d < 0)
        return ns_fail(err, NS_IO_ERROR, "%s:0: file: cannot open: %s", path,
                       strerror(errno));
    *fd = d;
    *size = sb.st_size;
    return NS_OK;
}

/* Up to want bytes at the descriptor's position into b, retrying after a
 * signal: the count read (0 at the end), or -1 with errno. */
static ssize_t read_some(int fd, char *b, size_t want)
{
    for (;;) {
        ssize_t k = read(fd, b, want);
        if (k >= 0 || errno != EINTR) return k;
    }
}

/* HDF5 signature at offset 0 or at a user-block offset (512, 1024, ...) of
 * a file of size bytes whose first n bytes are in head. */
static int hdf5_signature(int fd, const char *head, size_t n, off_t size)
{
    for (off_t off = 0; off + 8 <= size; off = off ? off * 2 : 512) {
        char sig[8];
        const char *at = sig;
        if ((size_t)off + 8 <= n) at = head + off;
        else if (pread(fd, sig, 8, off) != 8) continue;
        if (memcmp(at, hdf5_sig, 8) == 0) return 1;
    }
    return 0;
}

/* Whole file into a new buffer *buf (caller frees), *len bytes. The size
 * is known from open_in's stat; a file that grows while read is still cut
 * at the limit. The first read takes at most 4 KiB: a binary file that is not
 * HDF5 (a NUL byte in its first 4 KiB, no HDF5 signature at 0, 512, 1024,
 * ...) is refused from them, before it is read whole (a large file of zeros
 * would otherwise be loaded, GBs, only for its first token to fail). With
 * hdf5 non-NULL, a binary file with an HDF5 signature is not read further:
 * *hdf5 = 1 and *buf = NULL (HDF5 reads it itself); otherwise *hdf5 = 0.
 * A small text file costs stat, open, one read, close. */
static ns_status read_all_or_hdf5(const char *path, char **buf, size_t *len, int *hdf5,
                                  char *err)
{
    *buf = NULL;
    *len = 0;
    if (hdf5) *hdf5 = 0;
    int fd;
    off_t size = 0;
    ns_status st = open_in(path, &fd, &size, err);
    if (st) return st;
    /* the first 4 KiB decide before the whole file's buffer is allocated
     * (a 2 GiB file of NUL bytes: refused without a 2 GiB allocation,
     * which costs seconds under AddressSanitizer) */
    char head[4096];
    ssize_t k = read_some(fd, head, sizeof head);
    if (k > 0) {
        const char *nul = memchr(head, '\0', (size_t)k);
        if (nul) {
            if (!hdf5_signature(fd, head, (size_t)k, size)) {
                close(fd);
                return ns_fail(err, NS_BAD_INPUT, "%s:1: file: binary content (a NUL byte at "
                               "offset %ld): neither a .dat text file nor HDF5", path,
                               (long)(nul - head));
            } else if (hdf5) {
                *hdf5 = 1;
                close(fd);
                return NS_OK;
            }
        }
    }
    size_t cap = (size_t)size + 1, n = 0;
    if (cap < sizeof head) cap = sizeof head;
    char *b = malloc(cap);
    if (!b) { close(fd); return ns_fail(err, NS_NO_MEMORY, "%s:0: file: out of memory", path); }
    if (k > 0) {
        memcpy(b, head, (size_t)k);
        n = (size_t)k;
    }
    /* a file of known size read whole is done: no read that only finds the
     * end (files of size 0, as /proc's, are read to the end) */
    while (!st && k > 0 && !(size > 0 && n == (size_t)size)) {
        if (n == cap) {
            if (cap >= NS_IO_MAX_FILE) {
                st = ns_fail(err, NS_BAD_INPUT, "%s:0: file: larger than %zu bytes", path,
                             (size_t)NS_IO_MAX_FILE);
                break;
            }
            char *t = realloc(b, cap * 2);
            if (!t) { st = ns_fail(err, NS_NO_MEMORY, "%s:0: file: out of memory", path); break; }
            b = t;
            cap *= 2;
        }
        k = read_some(fd, b + n, cap - n);
        if (k > 0) n += (size_t)k;
    }
    if (!st && k < 0)
        st = ns_fail(err, NS_IO_ERROR, "%s:0: file: read error: %s", path, strerror(errno));
    close(fd);
    if (st) { free(b); return st; }
    *buf = b;
    *len = n;
    return NS_OK;
}

static ns_status read_all(const char *path, char **buf, size_t *len, char *err)
{
    return read_all_or_hdf5(path, buf, len, NULL, err);
}

/* HDF5 signature at offset 0 or at a user-block offset (512, 1024, ...). */
static int is_hdf5(const char *buf, size_t len)
{
    for (size_t off = 0; off + 8 <= len; off = off ? off * 2 : 512)
        if (memcmp(buf + off, hdf5_sig, 8) == 0) return 1;
    return 0;
}

static int is_blank(const char *buf, size_t len)
{
    for (size_t k = 0; k < len; k++)
        if (!strchr(" \t\n\r\v\f", buf[k]) || buf[k] == '\0') return 0;
    return 1;
}

static ns_status read_fclib(const char *path, ns_kind kind, ns_problem **out,
                            char *err)
{
    ns_problem *p = NULL;
    ns_status st = ns_fclib_read(path, &p, err);
    if (st) { ns_problem_free(p); return st; }
    if (!p) return ns_fail(err, NS_BAD_INPUT, "%s:0: fclib: no problem read", path);
    if (kind != NS_KIND_NONE && p->kind != kind) {
        st = ns_fail(err, NS_BAD_INPUT, "%s:0: kind: the file holds a %s problem, %s "
                     "was asked for", path, ns_kind_name(p->kind), ns_kind_name(kind));
        ns_problem_free(p);
        return st;
    }
    *out = p;
    return NS_OK;
}

ns_status ns_problem_read_dat_buffer(const char *buf, size_t len,
                                     const char *name, ns_kind kind,
                                     ns_problem **out, char *err)
{
    if (!out) return ns_fail(err, NS_BAD_INPUT, "%s:0: out: NULL", name ? name : "(buffer)");
    *out = NULL;
    if (!name) name = "(buffer)";
    if (!buf || is_blank(buf, len))
        return ns_fail(err, NS_BAD_INPUT, "%s:1: file: empty file", name);
    if (kind == NS_KIND_NONE) return ns_dat_detect(buf, len, name, NULL, out, err);
    if (kind < 0 || kind >= NS_KIND_COUNT)
        return ns_fail(err, NS_BAD_INPUT, "%s:0: kind: unknown kind %d", name, (int)kind);
    ns_lexer lx;
    ns_lex_init(&lx, buf, len, name, err);
    return ns_dat_read_problem(&lx, kind, out);
}

ns_status ns_problem_read(const char *path, ns_kind kind, ns_problem **out,
                          char *err)
{
    char *buf;
    size_t len;
    if (!out) return ns_fail(err, NS_BAD_INPUT, "%s:0: out: NULL", path ? path : "(null)");
    *out = NULL;
    int hdf5;
    ns_status st = read_all_or_hdf5(path, &buf, &len, &hdf5, err);
    if (st) return st;
    if (hdf5 || is_hdf5(buf, len)) {
        free(buf);
        return read_fclib(path, kind, out, err);
    }
    st = ns_problem_read_dat_buffer(buf, len, path, kind, out, err);
    free(buf);
    return st;
}

ns_status ns_problem_detect(const char *path, ns_format *format, ns_kind *kind,
                            char *err)
{
    char *buf;
    size_t len;
    ns_problem *p = NULL;
    if (format) *format = NS_FORMAT_AUTO;
    if (kind) *kind = NS_KIND_NONE;
    int hdf5;
    ns_status st = read_all_or_hdf5(path, &buf, &len, &hdf5, err);
    if (st) return st;
    if (hdf5 || is_hdf5(buf, len)) {
        free(buf);
        if ((st = read_fclib(path, NS_KIND_NONE, &p, err))) return st;
        if (format) *format = NS_FORMAT_FCLIB;
    } else {
        if (is_blank(buf, len))
            st = ns_fail(err, NS_BAD_INPUT, "%s:1: file: empty file", path);
        else
            st = ns_dat_detect(buf, len, path, NULL, &p, err);
        free(buf);
        if (st) return st;
        if (format) *format = NS_FORMAT_DAT;
    }
    if (kind) *kind = p->kind;
    ns_problem_free(p);
    return NS_OK;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Opens path for writing; NS_IO_ERROR with a message on failure. */
static ns_status open_out(const char *path, FILE **f, char *err)
{
    if (!path) return ns_fail(err, NS_BAD_INPUT, "(null):0: file: no path given");
    *f = fopen(path, "w");
    if (!*f)
        return ns_fail(err, NS_IO_ERROR, "%s:0: file: cannot create: %s", path,
                       strerror(errno));
    return NS_OK;
}

void ns_io_remove_partial(const char *path)
{
    struct stat sb;
    if (lstat(path, &sb) == 0 && S_ISREG(sb.st_mode)) remove(path);
}

/* Closes f; on failure (st or a write error) removes the partial file (a
 * regular file only: writing to /dev/full fails, and removing it, as root,
 * would delete the device). */
static ns_status close_out(const char *path, FILE *f, ns_status st, char *err)
{
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (!st && bad)
        st = ns_fail(err, NS_IO_ERROR, "%s:0: file: write error: %s", path, strerror(errno));
    if (st) ns_io_remove_partial(path);
    return st;
}

ns_status ns_problem_write(const char *path, const ns_problem *p,
                           ns_format format, char *err)
{
    if (!p) return ns_fail(err, NS_BAD_INPUT, "%s:0: problem: none given", path ? path : "(null)");
    if (format == NS_FORMAT_AUTO)
        format = path && (ends_with(path, ".hdf5") || ends_with(path, ".h5"))
                     ? NS_FORMAT_FCLIB : NS_FORMAT_DAT;
    if (format == NS_FORMAT_FCLIB) {
        if (p->kind != NS_KIND_FC2D && p->kind != NS_KIND_FC3D &&
            p->kind != NS_KIND_GFC2D && p->kind != NS_KIND_GFC3D)
            return ns_fail(err, NS_BAD_INPUT, "%s:0: format: FCLIB holds friction-contact "
                           "problems only, not %s", path ? path : "(null)",
                           ns_kind_name(p->kind));
        return ns_fclib_write(path, p, err);
    }
    if (format != NS_FORMAT_DAT)
        return ns_fail(err, NS_BAD_INPUT, "%s:0: format: unknown format %d",
                       path ? path : "(null)", (int)format);
    FILE *f;
    ns_status st = open_out(path, &f, err);
    if (st) return st;
    return close_out(path, f, ns_dat_write_problem(f, p, err), err);
}

ns_status ns_matrix_read_buffer(const char *buf, size_t len, const char *name,
                                ns_matrix **out, char *err)
{
    if (!name) name = "(buffer)";
    if (!out) return ns_fail(err, NS_BAD_INPUT, "%s:0: out: NULL", name);
    *out = NULL;
    if (!buf || is_blank(buf, len))
        return ns_fail(err, NS_BAD_INPUT, "%s:1: file: empty file", name);
    /* a NumericsMatrix block first, then a raw SBM payload (formats §2.5) */
    char e1[NS_ERRMSG_LEN] = "", e2[NS_ERRMSG_LEN] = "";
    ns_lexer lx;
    ns_lex_init(&lx, buf, len, name, e1);
    ns_status st = ns_dat_read_matrix(&lx, "matrix", out, NULL);
    if (st == NS_OK || st == NS_NO_MEMORY) {
        if (st && err) memcpy(err, e1, sizeof e1);
        return st;
    }
    size_t pos1 = lx.pos;
    /* did the text start like a NumericsMatrix header (storage 0, 1, 2)? */
    ns_int storage = -1;
    ns_lex_init(&lx, buf, len, name, NULL);
    int nm_header = ns_lex_int(&lx, "storage", &storage) == NS_OK &&
                    storage >= 0 && storage <= 2;
    ns_lex_init(&lx, buf, len, name, e2);
    ns_status st2 = ns_dat_read_sbm_raw(&lx, "matrix", out);
    if (st2 == NS_OK) {
        /* a raw payload counts when it has blocks and, if the text also
         * looked like a NumericsMatrix header, it read further than that */
        if ((*out)->block.nblocks > 0 && (!nm_header || lx.pos > pos1)) return NS_OK;
        ns_matrix_free(*out);
        *out = NULL;
        if (err) memcpy(err, e1, sizeof e1);
        return st;
    }
    if (st2 == NS_NO_MEMORY) {
        if (err) memcpy(err, e2, sizeof e2);
        return st2;
    }
    if (err) {
        if (nm_header) memcpy(err, e1, sizeof e1);
        else ns_fail(err, st, "%s; nor a raw SBM payload: %s", e1, e2);
    }
    return st;
}

ns_status ns_matrix_read(const char *path, ns_matrix **out, char *err)
{
    char *buf;
    size_t len;
    if (!out) return ns_fail(err, NS_BAD_INPUT, "%s:0: out: NULL", path ? path : "(null)");
    *out = NULL;
    ns_status st = read_all(path, &buf, &len, err);
    if (st) return st;
    st = ns_matrix_read_buffer(buf, len, path, out, err);
    free(buf);
    return st;
}

ns_status ns_matrix_write(const char *path, const ns_matrix *A, char *err)
{
    if (!A) return ns_fail(err, NS_BAD_INPUT, "%s:0: matrix: none given", path ? path : "(null)");
    char sub[NS_ERRMSG_LEN];
    if (ns_matrix_validate(A, "matrix", sub))
        return ns_fail(err, NS_BAD_INPUT, "%s:0: %s", path ? path : "(null)", sub);
    FILE *f;
    ns_status st = open_out(path, &f, err);
    if (st) return st;
    return close_out(path, f, ns_dat_write_matrix(f, A, "matrix", err), err);
}

ns_status ns_solution_write(const char *path, const ns_solution *s, char *err)
{
    if (!s) return ns_fail(err, NS_BAD_INPUT, "%s:0: solution: none given", path ? path : "(null)");
    for (int k = 0; k < s->nvec; k++)
        if (s->len[k] > 0 && !s->vec[k])
            return ns_fail(err, NS_BAD_INPUT, "%s:0: solution: vector %s missing",
                           path ? path : "(null)", s->name[k] ? s->name[k] : "?");
    FILE *f;
    ns_status st = open_out(path, &f, err);
    if (st) return st;
    for (int k = 0; k < s->nvec; k++) {
        fprintf(f, "# %s %d\n", s->name[k] ? s->name[k] : "x", s->len[k]);
        for (ns_int i = 0; i < s->len[k]; i++) fprintf(f, "%.17g\n", s->vec[k][i]);
    }
    return close_out(path, f, NS_OK, err);
}

/* '# NAME LENGTH' then LENGTH reals, for each vector of sol in order. */
static ns_status read_solution_text(const char *path, const char *buf, size_t len,
                                    ns_solution *sol, char *err)
{
    ns_lexer lx;
    ns_lex_init(&lx, buf, len, path, err);
    double *tmp[NS_SOLUTION_MAXVEC] = { NULL };
    ns_status st = NS_OK;
    for (int k = 0; !st && k < sol->nvec; k++) {
        const char *tok;
        size_t tlen;
        ns_int n;
        char f[64];
        snprintf(f, sizeof f, "vector %d header", k);
        if ((st = ns_lex_token(&lx, f, &tok, &tlen))) break;
        if (tlen != 1 || tok[0] != '#') {
            st = ns_lex_fail(&lx, f, "'# %s %d' expected", sol->name[k], sol->len[k]);
            break;
        }
        if ((st = ns_lex_token(&lx, f, &tok, &tlen))) break;
        if (strlen(sol->name[k]) != tlen || memcmp(tok, sol->name[k], tlen) != 0) {
            st = ns_lex_fail(&lx, f, "vector '%.*s' found where '%s' was expected",
                             (int)(tlen < 40 ? tlen : 40), tok, sol->name[k]);
            break;
        }
        snprintf(f, sizeof f, "%s: length", sol->name[k]);
        if ((st = ns_lex_count(&lx, f, &n))) break;
        if (n != sol->len[k]) {
            st = ns_lex_fail(&lx, f, "%d values, the problem needs %d", n, sol->len[k]);
            break;
        }
        tmp[k] = ns_malloc((size_t)(n > 0 ? n : 1), sizeof(double));
        if (!tmp[k]) { st = ns_fail(err, NS_NO_MEMORY, "%s:0: out of memory", path); break; }
        st = ns_lex_reals(&lx, sol->name[k], (size_t)n, tmp[k]);
    }
    /* further '# NAME LENGTH' sections (e.g. a certificate written with a
     * no_solution status) are not part of the solution: ignored */
    if (!st && !ns_lex_at_end(&lx)) {
        const char *tok;
        size_t tlen;
        ns_lex_token(&lx, "end", &tok, &tlen);
        if (tlen != 1 || tok[0] != '#')
            st = ns_lex_fail(&lx, "end", "unexpected content after the last vector");
    }
    for (int k = 0; k < sol->nvec; k++) {
        if (!st && sol->len[k] > 0)
            memcpy(sol->vec[k], tmp[k], (size_t)sol->len[k] * sizeof(double));
        free(tmp[k]);
    }
    return st;
}

ns_status ns_solution_read(const char *path, ns_solution *sol, char *err)
{
    if (!sol) return ns_fail(err, NS_BAD_INPUT, "%s:0: solution: none given",
                             path ? path : "(null)");
    for (int k = 0; k < sol->nvec; k++)
        if (!sol->name[k] || (sol->len[k] > 0 && !sol->vec[k]))
            return ns_fail(err, NS_BAD_INPUT, "%s:0: solution: vector %d missing",
                           path ? path : "(null)", k);
    char *buf;
    size_t len;
    int hdf5;
    ns_status st = read_all_or_hdf5(path, &buf, &len, &hdf5, err);
    if (st) return st;
    if (hdf5 || is_hdf5(buf, len)) {
        free(buf);
        int count = 0;
        if ((st = ns_fclib_guess_count(path, &count, err))) return st;
        return ns_fclib_read_solution(path, count > 0 ? 1 : 0, sol, err);
    }
    st = read_solution_text(path, buf, len, sol, err);
    free(buf);
    return st;
}
