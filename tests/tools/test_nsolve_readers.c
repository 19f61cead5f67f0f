/* test_nsolve_readers.c — the hardened readers through nsolve:
 * every bad file gives exit status 2 and one line on stderr that
 * names the file and the line or field, with the reason:
 *  - non-regular files (directory, FIFO, device) refused before being
 *    opened for reading, a FIFO without blocking;
 *  - a file over the size limit refused from its size, at once;
 *  - detection commits to the layout whose header matched: a relay with
 *    inverted / NaN / infinite bounds fails as a relay (it used to be read
 *    as an LCP with trailing numbers), an LCP with NaN in M reports M[0];
 *  - duplicate sparse entries refused, naming the entry and its line;
 *  - tokens longer than 127 characters are read (no length limit). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ns_test.h"

static char out_path[512], err_path[512];

/* Runs nsolve (under timeout 20, so that a blocking read fails the test
 * instead of hanging it); exit status, stdout/stderr in files. */
static int run(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "timeout 20 %s/nsolve %s >%s 2>%s", NS_BIN_DIR, args,
             out_path, err_path);
    int st = system(cmd);
    ns_test_check_json(args, out_path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return strdup("");
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strdup(buf);
}

/* stderr is exactly one line and holds every needle. */
static void expect_one_line(const char *n1, const char *n2, const char *n3)
{
    char *s = slurp(err_path);
    const char *needles[3] = { n1, n2, n3 };
    size_t len = strlen(s);
    int lines = 0;
    for (size_t k = 0; k < len; k++) lines += s[k] == '\n';
    if (lines != 1 || len == 0 || s[len - 1] != '\n') {
        char copy[600];
        snprintf(copy, sizeof copy, "%s", s);
        free(s);
        fail_msg("stderr is not one line: %s", copy);
    }
    for (int k = 0; k < 3; k++)
        if (needles[k] && !strstr(s, needles[k])) {
            char copy[600];
            snprintf(copy, sizeof copy, "%s", s);
            free(s);
            fail_msg("'%s' not found in stderr: %s", needles[k], copy);
        }
    free(s);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Writes text to a new temporary file; returns its path in buf. */
static const char *tmpfile_with(char *buf, size_t cap, const char *suffix, const char *text)
{
    ns_test_tmpname(buf, cap, suffix);
    assert_int_equal(ns_test_write_file(buf, text), 0);
    return buf;
}

static void test_directory_refused(void **state)
{
    (void)state;
    char dir[512], args[1024];
    ns_test_tmpname(dir, sizeof dir, ".d");
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(args, sizeof args, "%s", dir);
    assert_int_equal(run(args), 2);
    expect_one_line(dir, ":0: file: is a directory", NULL);
    snprintf(args, sizeof args, "--check %s", dir);
    assert_int_equal(run(args), 2);
    expect_one_line(dir, "is a directory", NULL);
    rmdir(dir);
}

static void test_fifo_refused_without_blocking(void **state)
{
    (void)state;
    char fifo[512], args[1024];
    ns_test_tmpname(fifo, sizeof fifo, ".fifo");
    if (mkfifo(fifo, 0600) != 0) skip();
    double t0 = now();
    snprintf(args, sizeof args, "%s", fifo);
    assert_int_equal(run(args), 2);   /* a blocking open would hit the timeout (124) */
    assert_true(now() - t0 < 10.0);
    expect_one_line(fifo, "not a regular file (a FIFO)", NULL);
    remove(fifo);
}

static void test_device_refused(void **state)
{
    (void)state;
    assert_int_equal(run("/dev/null"), 2);
    expect_one_line("/dev/null:0: file", "not a regular file (a character device)", NULL);
    assert_int_equal(run("--json /dev/zero"), 2);
    expect_one_line("/dev/zero", "not a regular file", NULL);
}

static void test_oversize_refused_from_its_size(void **state)
{
    (void)state;
    char big[512], args[1024];
    ns_test_tmpname(big, sizeof big, ".dat");
    int fd = open(big, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    assert_true(fd >= 0);
    /* 3 GB, sparse: nothing is written, so reading it would take seconds
     * and 2 GB of memory, refusing it from fstat takes none */
    if (ftruncate(fd, (off_t)3 << 30) != 0) { close(fd); remove(big); skip(); }
    close(fd);
    double t0 = now();
    snprintf(args, sizeof args, "%s", big);
    assert_int_equal(run(args), 2);
    assert_true(now() - t0 < 2.0);
    expect_one_line(big, "3221225472 bytes, larger than the limit", NULL);
    remove(big);
}

/* 2 GiB − 1 of NUL bytes (sparse): under the size limit, but binary and
 * not HDF5 — refused from its first bytes, not read whole first (that took
 * 2.1 GB and 20–33 s before the first token failed). */
static void test_nul_file_refused_unread(void **state)
{
    (void)state;
    char big[512], args[1024];
    ns_test_tmpname(big, sizeof big, ".dat");
    int fd = open(big, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    assert_true(fd >= 0);
    if (ftruncate(fd, ((off_t)2 << 30) - 1) != 0) { close(fd); remove(big); skip(); }
    close(fd);
    double t0 = now();
    snprintf(args, sizeof args, "%s", big);
    assert_int_equal(run(args), 2);
    assert_true(now() - t0 < 2.0);
    expect_one_line(big, "binary content (a NUL byte at offset 0)", NULL);
    remove(big);
}

/* An LCP whose storage code (7) or column count is wrong commits to no
 * layout; the layout read furthest takes it for a GFC, so the message also
 * gives the LCP layout's own reason, with the line and field of the
 * mistake. */
static void test_fallback_names_the_mistake(void **state)
{
    (void)state;
    char f[512];
    tmpfile_with(f, sizeof f, ".dat", "2\n7\n2\n2\n2\t2\n2 0\n1 3\n-1 -2\n");
    assert_int_equal(run(f), 2);
    expect_one_line("as an lcp:", ":2: M: storage: storage code 7", NULL);
    remove(f);
    tmpfile_with(f, sizeof f, ".dat", "2\n0\n2\n3\n2\t2\n2 0\n1 3\n-1 -2\n");
    assert_int_equal(run(f), 2);
    expect_one_line("as an lcp:", ":5: M: cols (second copy): 2 disagrees", NULL);
    remove(f);
}

/* relay n = 2: M = I, q = (-1, 1), then lb and ub. */
static void relay_case(const char *bounds, const char *n1, const char *n2)
{
    char f[512], text[512];
    snprintf(text, sizeof text, "2\n0\n2\n2\n2\t2\n1 0\n0 1\n-1 1\n%s", bounds);
    tmpfile_with(f, sizeof f, ".dat", text);
    assert_int_equal(run(f), 2);
    expect_one_line(n1, n2, "read as relay");
    remove(f);
}

static void test_relay_bounds_fail_as_relay(void **state)
{
    (void)state;
    /* inverted: reported on ub's line (10), not read as an LCP */
    relay_case("-1 -1\n1 -2\n", ":10: ub[1]: lb[1] = -1 > ub[1] = -2", NULL);
    relay_case("nan -1\n1 1\n", ":9: lb[0]: value 'nan' is not finite", NULL);
    /* open sides as in AVI boxes and GMP relay blocks: -inf lower, inf
     * upper; the other way round refused */
    relay_case("-1 -1\n1 -inf\n", ":10: ub[1]: -inf is not allowed as an upper bound", NULL);
    relay_case("inf -1\n1 1\n", ":9: lb[0]: inf is not allowed as a lower bound", NULL);
    {
        char g[512], a2[1024];
        tmpfile_with(g, sizeof g, ".dat", "2\n0\n2\n2\n2\t2\n1 0\n0 1\n-1 1\n-inf -1\n1 inf\n");
        snprintf(a2, sizeof a2, "--json %s", g);
        assert_int_equal(run(a2), 0);   /* z = (1, -1): w = z + q = (0, 0) */
        char *o = slurp(out_path);
        if (!strstr(o, "\"status\": \"converged\"")) fail_msg("not converged: %s", o);
        free(o);
        remove(g);
    }
    /* the same text with well-ordered bounds is a relay problem */
    char f[512];
    tmpfile_with(f, sizeof f, ".dat", "2\n0\n2\n2\n2\t2\n1 0\n0 1\n-1 1\n-1 -1\n1 1\n");
    char args[1024];
    snprintf(args, sizeof args, "--check %s", f);
    assert_int_equal(run(args), 0);
    char *o = slurp(out_path);
    assert_non_null(strstr(o, "relay"));
    free(o);
    remove(f);
}

static void test_lcp_nan_in_m_reports_m(void **state)
{
    (void)state;
    char f[512];
    tmpfile_with(f, sizeof f, ".dat", "2\n0\n2\n2\n2\t2\nnan 0\n1 3\n-1 -2\n");
    assert_int_equal(run(f), 2);
    expect_one_line(":6: M[0]: value 'nan' is not finite", "read as lcp", NULL);
    remove(f);
    /* the same with a 1x1 LCP, whose first tokens also fit an MLCP header */
    tmpfile_with(f, sizeof f, ".dat", "1\n0\n1\n1\n1\t1\ninf\n-1\n");
    assert_int_equal(run(f), 2);
    expect_one_line("M[0]: value 'inf' is not finite", "read as lcp", NULL);
    remove(f);
}

static void test_fc_error_reported_as_fc(void **state)
{
    (void)state;
    char f[512];
    /* one 3D contact with a NaN friction coefficient (line 10) */
    tmpfile_with(f, sizeof f, ".dat", "3\n1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n"
                 "-1 0 0\nnan\n");
    assert_int_equal(run(f), 2);
    expect_one_line(":11: mu[0]: value 'nan' is not finite", "read as fc3d", NULL);
    remove(f);
}

static void test_duplicate_sparse_entries_refused(void **state)
{
    (void)state;
    char f[512];
    /* CSC: row 0 twice in column 0 (entry 1, line 9) */
    tmpfile_with(f, sizeof f, ".dat",
                 "2\n2\n2\n2\n2\nbanner\n2-by-2, nzmax: 3 nnz: 3, 1-norm: 3\n"
                 "    col 0 : locations 0 to 1\n      0 : 1\n      0 : 2\n"
                 "    col 1 : locations 2 to 2\n      1 : 1\n-1 -1\n");
    assert_int_equal(run(f), 2);
    expect_one_line(":10: M: entry 1: duplicate entry (row 0, column 0), already given "
                    "as entry 0", NULL, NULL);
    remove(f);
    /* triplet: (1, 1) given as entries 0 and 2 (line 10) */
    tmpfile_with(f, sizeof f, ".dat",
                 "2\n2\n2\n2\n1\nbanner\ntriplet: 2-by-2, nzmax: 3 nnz: 3\n"
                 "    1 1 : 1\n    0 0 : 1\n    1 1 : 4\n-1 -1\n");
    assert_int_equal(run(f), 2);
    expect_one_line(":10: M: entry 2: duplicate entry (row 1, column 1), already given "
                    "as entry 0", NULL, NULL);
    remove(f);
}

static void test_long_tokens_read(void **state)
{
    (void)state;
    /* q[0] = -1 written with 300 characters: 0.5 then zeros then "e1" ...
     * = -0.1000...0 e1 = -1 */
    char text[1024], f[512], args[1024];
    char tok[400];
    size_t k = 0;
    tok[k++] = '-';
    tok[k++] = '0';
    tok[k++] = '.';
    tok[k++] = '1';
    while (k < 300) tok[k++] = '0';
    tok[k++] = 'e';
    tok[k++] = '1';
    tok[k] = '\0';
    snprintf(text, sizeof text, "1\n0\n1\n1\n1\t1\n2\n%s\n", tok);
    tmpfile_with(f, sizeof f, ".dat", text);
    snprintf(args, sizeof args, "--json --solver lemke --tol 1e-14 %s", f);
    assert_int_equal(run(args), 0);   /* z = 1/2 */
    char *o = slurp(out_path);
    assert_non_null(strstr(o, "\"status\": \"converged\""));
    free(o);
    remove(f);
}

int main(void)
{
    ns_test_tmpname(out_path, sizeof out_path, ".out");
    ns_test_tmpname(err_path, sizeof err_path, ".err");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directory_refused),
        cmocka_unit_test(test_fifo_refused_without_blocking),
        cmocka_unit_test(test_device_refused),
        cmocka_unit_test(test_oversize_refused_from_its_size),
        cmocka_unit_test(test_nul_file_refused_unread),
        cmocka_unit_test(test_fallback_names_the_mistake),
        cmocka_unit_test(test_relay_bounds_fail_as_relay),
        cmocka_unit_test(test_lcp_nan_in_m_reports_m),
        cmocka_unit_test(test_fc_error_reported_as_fc),
        cmocka_unit_test(test_duplicate_sparse_entries_refused),
        cmocka_unit_test(test_long_tokens_read),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    remove(out_path);
    remove(err_path);
    return rc;
}
