/* test_nsbench_cluster.c — nsbench campaigns that outlive their process and
 * spread over machines:
 *   - kill -9 of nsbench in the middle of a run: the run's process dies too
 *     (checked by pid), the CSV holds every run that finished (the runs
 *     themselves write a trace, NSBENCH_TEST_TRACE), and --resume completes
 *     the campaign without doing any finished run again;
 *   - --shard K/N for N = 3, joined by nsbench merge: the (file, solver,
 *     status) rows of a single --jobs 1 run, in the same order;
 *   - mpirun -np 3 nsbench (when built with MPI): the same rows again.
 * The collection part uses ../shared/data/lcp and relay (skipped without). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ns_test.h"

static char dir[512], out_path[600], err_path[600];

static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char full[9600];
    snprintf(full, sizeof full, "%s >%s 2>%s", cmd, out_path, err_path);
    int st = system(full);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return strdup("");
    size_t cap = 1 << 16, n = 0, k;
    char *buf = malloc(cap);
    while ((k = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 == cap) buf = realloc(buf, cap *= 2);
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* (file, solver, status) of each CSV row, as "file|solver|status" lines. */
typedef struct keys { char (*k)[1024]; int n; } keys;

static keys csv_keys(const char *path)
{
    keys K = { calloc(4096, sizeof *K.k), 0 };
    FILE *f = fopen(path, "r");
    if (!f) return K;
    char line[8192];
    int first = 1;
    while (fgets(line, sizeof line, f)) {
        if (first) { first = 0; continue; }
        char *fld[5], *p = line;
        int nf = 0;
        while (nf < 5 && p) {
            fld[nf++] = p;
            p = strchr(p, ',');
            if (p) *p++ = '\0';
        }
        if (nf < 5 || K.n >= 4096) continue;
        snprintf(K.k[K.n++], sizeof K.k[0], "%s|%s|%s", fld[0], fld[3], fld[4]);
    }
    fclose(f);
    return K;
}

static void assert_same_keys(const char *a, const char *b)
{
    keys x = csv_keys(a), y = csv_keys(b);
    assert_true(x.n > 0);
    if (x.n != y.n) fail_msg("%s has %d rows, %s has %d", a, x.n, b, y.n);
    for (int i = 0; i < x.n; i++)
        if (strcmp(x.k[i], y.k[i])) fail_msg("row %d: %s vs %s", i + 1, x.k[i], y.k[i]);
    free(x.k);
    free(y.k);
}

static int count_lines(const char *path)
{
    char *s = slurp(path);
    int n = 0;
    for (char *p = s; *p; p++) n += *p == '\n';
    free(s);
    return n;
}

/* Children of pid, from /proc (state and parent of every process). */
static int children_of(pid_t pid, pid_t *out, int max)
{
    DIR *d = opendir("/proc");
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < max) {
        char *end;
        long p = strtol(e->d_name, &end, 10);
        if (*end || p <= 0) continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", p);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t k = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[k] = '\0';
        char *rp = strrchr(buf, ')');  /* after "pid (comm)": state ppid */
        char state;
        long ppid;
        if (rp && sscanf(rp + 1, " %c %ld", &state, &ppid) == 2 && ppid == pid && state != 'Z')
            out[n++] = (pid_t)p;
    }
    if (d) closedir(d);
    return n;
}

/* 1 while pid is a live process (not gone, not a zombie). */
static int alive(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t k = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[k] = '\0';
    char *rp = strrchr(buf, ')');
    return rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}

static const char *lcp_a = "2\n0\n2\n2\n2\t2\n2 0\n1 3\n-1 -2\n";

static void test_kill9_then_resume(void **state)
{
    (void)state;
    ns_test_tmpname(dir, sizeof dir, "_kill");
    assert_int_equal(mkdir(dir, 0700), 0);
    char p[700], csv[700], trace[700];
    for (int i = 0; i < 5; i++) {
        snprintf(p, sizeof p, "%s/p%d.dat", dir, i);
        assert_int_equal(ns_test_write_file(p, lcp_a), 0);
    }
    snprintf(csv, sizeof csv, "%s/out.csv", dir);
    snprintf(trace, sizeof trace, "%s/trace.txt", dir);
    char bin[600];
    snprintf(bin, sizeof bin, "%s/nsbench", NS_BIN_DIR);

    /* a campaign of 5 runs of 0.25 s each, killed after two have finished */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 1);
        dup2(fd, 2);
        setenv("NSBENCH_TEST_FAULTS", "1", 1);
        setenv("NSBENCH_TEST_TRACE", trace, 1);
        execl(bin, bin, "--quiet", "--solvers", "test-slow", "--out", csv, dir, (char *)NULL);
        _exit(127);
    }
    double waited = 0;
    while (count_lines(csv) < 3 && waited < 20000) {  /* header + 2 rows */
        sleep_ms(5);
        waited += 5;
    }
    assert_true(waited < 20000);
    pid_t kids[16];
    int nk = 0;
    for (int i = 0; i < 1000 && nk == 0; i++) {  /* the third run is starting */
        nk = children_of(pid, kids, 16);
        if (!nk) sleep_ms(2);
    }
    assert_int_equal(nk, 1);
    assert_int_equal(kill(pid, SIGKILL), 0);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    /* the run in flight died with nsbench */
    for (int i = 0; i < 200 && alive(kids[0]); i++) sleep_ms(5);
    assert_false(alive(kids[0]));

    /* the CSV holds every run that finished: the trace's lines, converged */
    keys rows = csv_keys(csv);
    int ntrace = count_lines(trace);
    assert_true(ntrace >= 2 && ntrace <= 3);
    assert_int_equal(rows.n, ntrace);
    char *tr = slurp(trace);
    for (int i = 0; i < rows.n; i++) {
        char want[1100];
        snprintf(want, sizeof want, "%s", rows.k[i]);
        char *bar = strrchr(want, '|');
        assert_string_equal(bar + 1, "converged");
        *bar = '\0';
        bar = strchr(want, '|');
        *bar = ',';
        assert_non_null(strstr(tr, want));
    }
    free(tr);
    free(rows.k);

    /* --resume: the missing runs only, each run of the campaign done once */
    int done_before = ntrace;
    assert_int_equal(sh("NSBENCH_TEST_FAULTS=1 NSBENCH_TEST_TRACE='%s' %s --quiet --solvers "
                        "test-slow --out '%s' --resume '%s'", trace, bin, csv, dir), 0);
    char *out = slurp(out_path);
    char want[128];
    snprintf(want, sizeof want, "runs: %d finished (%d converged, 0 not), 0 interrupted; "
             "%d rows kept", 5 - done_before, 5 - done_before, done_before);
    if (!strstr(out, want)) fail_msg("'%s' not in: %s", want, out);
    free(out);
    rows = csv_keys(csv);
    assert_int_equal(rows.n, 5);
    for (int i = 0; i < 5; i++) {
        char f[700];
        snprintf(f, sizeof f, "%s/p%d.dat|test-slow|converged", dir, i);
        assert_string_equal(rows.k[i], f);  /* in file order after the rewrite */
    }
    free(rows.k);
    assert_int_equal(count_lines(trace), 5);  /* 5 runs in all: none twice */
    tr = slurp(trace);
    for (int i = 0; i < 5; i++) {
        snprintf(p, sizeof p, "%s/p%d.dat,test-slow\n", dir, i);
        char *a = strstr(tr, p);
        assert_non_null(a);
        assert_null(strstr(a + 1, p));
    }
    free(tr);
    /* resuming a complete campaign runs nothing */
    assert_int_equal(sh("NSBENCH_TEST_FAULTS=1 NSBENCH_TEST_TRACE='%s' %s --quiet --solvers "
                        "test-slow --out '%s' --resume '%s'", trace, bin, csv, dir), 0);
    assert_int_equal(count_lines(trace), 5);
    rows = csv_keys(csv);
    assert_int_equal(rows.n, 5);
    free(rows.k);
    assert_int_equal(sh("%s --resume '%s'", bin, dir), 2);  /* --resume needs --out */
    sh("rm -rf '%s'", dir);
}

/* The reference: one process, one job, over a subset of the collection. */
static char ref_csv[700], coll[2][600];

static int have_collection(void)
{
    if (!ns_test_data_dir()) return 0;
    ns_test_data_path(coll[0], sizeof coll[0], "lcp");
    ns_test_data_path(coll[1], sizeof coll[1], "relay");
    if (!ref_csv[0]) {
        ns_test_tmpname(ref_csv, sizeof ref_csv, "_ref.csv");
        if (sh("%s/nsbench --quiet --min-time 0 --jobs 1 --solvers lemke,pgs --out '%s' '%s' "
               "'%s'", NS_BIN_DIR, ref_csv, coll[0], coll[1]) != 0) return -1;
    }
    return 1;
}

static void test_shards_merged(void **state)
{
    (void)state;
    int h = have_collection();
    if (!h) skip();
    assert_int_equal(h, 1);
    char part[3][700], all[700];
    for (int k = 0; k < 3; k++) {
        ns_test_tmpname(part[k], sizeof part[k], "_shard.csv");
        assert_int_equal(sh("%s/nsbench --quiet --min-time 0 --shard %d/3 --solvers lemke,pgs "
                            "--out '%s' '%s' '%s'", NS_BIN_DIR, k + 1, part[k], coll[0],
                            coll[1]), 0);
    }
    /* shards are disjoint and not empty */
    keys a = csv_keys(part[0]), b = csv_keys(part[1]);
    assert_true(a.n > 0 && b.n > 0);
    for (int i = 0; i < a.n; i++)
        for (int j = 0; j < b.n; j++) assert_string_not_equal(a.k[i], b.k[j]);
    free(a.k);
    free(b.k);
    ns_test_tmpname(all, sizeof all, "_merged.csv");
    /* given in any order */
    assert_int_equal(sh("%s/nsbench merge --out '%s' '%s' '%s' '%s'", NS_BIN_DIR, all, part[2],
                        part[0], part[1]), 0);
    assert_same_keys(ref_csv, all);
    char *out = slurp(out_path);
    assert_non_null(strstr(out, "lcp: 16 problems"));
    free(out);
    assert_int_equal(sh("%s/nsbench --shard 4/3 .", NS_BIN_DIR), 2);
    assert_int_equal(sh("%s/nsbench merge", NS_BIN_DIR), 2);
    for (int k = 0; k < 3; k++) remove(part[k]);
    remove(all);
}

static void test_mpi_same_rows(void **state)
{
    (void)state;
#ifndef NS_MPIEXEC
    skip();
#else
    int h = have_collection();
    if (!h) skip();
    assert_int_equal(h, 1);
    char csv[700];
    ns_test_tmpname(csv, sizeof csv, "_mpi.csv");
    /* CI runs as root; vader's single-copy (CMA) needs ptrace rights that
     * containers often lack; under ASan, OpenMPI's own allocations at exit
     * are not ours to report */
    assert_int_equal(sh("ASAN_OPTIONS=\"$ASAN_OPTIONS:detect_leaks=0\" %s --allow-run-as-root --oversubscribe --mca "
                        "btl_vader_single_copy_mechanism none -np 3 %s/nsbench --min-time 0 "
                        "--solvers lemke,pgs --out '%s' '%s' '%s'", NS_MPIEXEC, NS_BIN_DIR, csv,
                        coll[0], coll[1]), 0);
    assert_same_keys(ref_csv, csv);
    char *out = slurp(out_path);
    assert_non_null(strstr(out, "3 MPI ranks"));
    assert_non_null(strstr(out, "lcp: 16 problems"));
    free(out);
    remove(csv);
#endif
}

int main(void)
{
    ns_test_tmpname(out_path, sizeof out_path, ".out");
    ns_test_tmpname(err_path, sizeof err_path, ".err");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kill9_then_resume),
        cmocka_unit_test(test_shards_merged),
        cmocka_unit_test(test_mpi_same_rows),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (ref_csv[0]) remove(ref_csv);
    remove(out_path);
    remove(err_path);
    return rc;
}
