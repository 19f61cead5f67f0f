/* read_speed.c — how fast the readers turn problem files into problems.
 *
 *   read_speed [--min-time S] [--kind KIND] [--csv] PATH...
 *
 * Every regular file under the PATHs (directories are walked; .dat, .hdf5,
 * .h5 files) is read with ns_problem_read (kind detected from the content, or
 * KIND)
 * again and again until S seconds of the thread's CPU time (default 0.2) have been spent
 * on it, warm (the file stays in the page cache); the time per read counts
 * opening, reading the bytes, detection, parsing and building the problem,
 * and freeing it. One line per file: bytes, reads, µs per read, MB/s
 * (10^6 bytes per second of CPU time), and for comparison the µs of only
 * opening the file, reading its bytes into memory and closing it (the
 * floor of any reader); then the totals: all bytes over all per-read
 * times, the slowest file, and the files below 200 MB/s.
 * Files the readers refuse are listed and skipped. --csv prints instead
 * one row per file read, file,kind,bytes,reads,us_per_read,us_bytes (the
 * kind read or detected; benchmarks/siconos/read-compare.sh joins it with
 * Siconos' readers' times). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "nonsmooth/nonsmooth.h"
#include "blas_threads.h"
#include "malloc_policy.h"

/* CPU time of the calling thread: the readers run in it alone, and the
 * process's clock would also count (and, being a sum over threads, cost
 * more to read with) the idle thread pools the linked BLAS starts. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct list { char **v; int n, cap; } list;

static int wanted(const char *name)
{
    const char *d = strrchr(name, '.');
    return d && (!strcmp(d, ".dat") || !strcmp(d, ".hdf5") || !strcmp(d, ".h5"));
}

static int push(list *l, const char *s)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        char **v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        l->v = v; l->cap = cap;
    }
    return (l->v[l->n++] = strdup(s)) ? 0 : -1;
}

static int walk(const char *path, list *l)
{
    struct stat sb;
    if (stat(path, &sb) != 0) { fprintf(stderr, "read_speed: cannot stat %s\n", path); return -1; }
    if (S_ISREG(sb.st_mode)) return push(l, path);
    if (!S_ISDIR(sb.st_mode)) return 0;
    DIR *d = opendir(path);
    if (!d) return -1;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (stat(sub, &sb) != 0) continue;
        if (S_ISDIR(sb.st_mode)) rc = walk(sub, l);
        else if (S_ISREG(sb.st_mode) && wanted(e->d_name)) rc = push(l, sub);
    }
    closedir(d);
    return rc;
}

/* Opens f, reads its bytes into buf, closes it: the bytes read, or -1. */
static long read_bytes(const char *f, char *buf, size_t cap)
{
    int fd = open(f, O_RDONLY);
    if (fd < 0) return -1;
    long got = 0;
    ssize_t k;
    while ((size_t)got < cap && (k = read(fd, buf + got, cap - (size_t)got)) > 0) got += k;
    close(fd);
    return got;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    ns_tool_malloc_policy();   /* the heap nsolve and nsbench read with */
    ns_tool_blas_single_thread();
    double min_time = 0.2;
    ns_kind kind = NS_KIND_NONE;
    int csv = 0;
    list files = { 0 };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--min-time") && i + 1 < argc) {
            char *end;
            min_time = strtod(argv[++i], &end);
            if (*end || !(min_time >= 0 && min_time < 1e3)) {
                fprintf(stderr, "read_speed: --min-time wants seconds in [0, 1000)\n");
                return 2;
            }
            continue;
        }
        if (!strcmp(argv[i], "--kind") && i + 1 < argc) {
            kind = ns_kind_from_name(argv[++i]);
            if (kind == NS_KIND_NONE) { fprintf(stderr, "read_speed: unknown kind '%s'\n", argv[i]); return 2; }
            continue;
        }
        if (!strcmp(argv[i], "--csv")) { csv = 1; continue; }
        if (walk(argv[i], &files) != 0) return 1;
    }
    if (files.n == 0) {
        fprintf(stderr, "usage: read_speed [--min-time S] [--kind KIND] [--csv] PATH...\n");
        return 2;
    }
    qsort(files.v, (size_t)files.n, sizeof *files.v, cmp);
    double bytes_all = 0, secs_all = 0, worst = 1e300;
    int slow = 0, refused = 0, nread = 0;
    const char *worst_file = "";
    if (csv) printf("file,kind,bytes,reads,us_per_read,us_bytes\n");
    else printf("%-60s %10s %6s %10s %8s %10s\n", "file", "bytes", "reads", "us/read", "MB/s", "us/bytes");
    for (int k = 0; k < files.n; k++) {
        const char *f = files.v[k];
        struct stat sb;
        if (stat(f, &sb) != 0) continue;
        char err[NS_ERRMSG_LEN];
        ns_problem *p = NULL;
        if (ns_problem_read(f, kind, &p, err) != NS_OK) {   /* also warms the cache */
            if (!csv) printf("%-60s refused: %s\n", f, err);
            refused++;
            continue;
        }
        const char *kname = ns_kind_name(p->kind);
        ns_problem_free(p);
        long reads = 0;
        double t0 = cpu_now(), t;
        do {
            p = NULL;
            ns_problem_read(f, kind, &p, err);
            ns_problem_free(p);
            reads++;
            t = cpu_now() - t0;
        } while (t < min_time);
        double per = t / (double)reads, mbs = (double)sb.st_size / per / 1e6;
        /* the floor: the same bytes read by read(2) */
        char *raw = malloc((size_t)sb.st_size + 1);
        long rreads = 0;
        double tr = 0;
        if (raw) {
            double r0 = cpu_now();
            do {
                if (read_bytes(f, raw, (size_t)sb.st_size + 1) < 0) break;
                rreads++;
                tr = cpu_now() - r0;
            } while (tr < min_time / 4);
            free(raw);
        }
        double rper = rreads ? tr / (double)rreads : NAN;
        const char *shown = strlen(f) > 60 ? f + strlen(f) - 60 : f;
        if (csv)
            printf("%s,%s,%lld,%ld,%.3f,%.3f\n", f, kname, (long long)sb.st_size, reads, 1e6 * per,
                   1e6 * rper);
        else
            printf("%-60s %10lld %6ld %10.1f %8.1f %10.1f%s\n", shown, (long long)sb.st_size, reads,
                   1e6 * per, mbs, 1e6 * rper, mbs < 200 ? "  < 200" : "");
        bytes_all += (double)sb.st_size;
        secs_all += per;
        nread++;
        if (mbs < 200) slow++;
        if (mbs < worst) { worst = mbs; worst_file = f; }
    }
    if (!csv)
        printf("total: %d files read (%d refused), %.0f bytes in %.4g s per pass: %.1f MB/s; "
           "slowest %.1f MB/s (%s); %d below 200 MB/s\n",
           nread, refused, bytes_all, secs_all, secs_all > 0 ? bytes_all / secs_all / 1e6 : 0.0,
           nread ? worst : 0.0, worst_file, slow);
    for (int k = 0; k < files.n; k++) free(files.v[k]);
    free(files.v);
    return 0;
}
