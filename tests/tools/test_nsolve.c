/* test_nsolve.c — the nsolve command line: exit codes, messages, JSON and
 * the solution file, checked on small problems with known answers. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "ns_test.h"

static char out_path[512], err_path[512];

/* Runs nsolve with args; returns its exit status; stdout/stderr in files. */
static int run(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s/nsolve %s >%s 2>%s", NS_BIN_DIR, args, out_path, err_path);
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

static void expect_in(const char *path, const char *needle)
{
    char *s = slurp(path);
    if (!strstr(s, needle)) {
        char copy[600];
        snprintf(copy, sizeof copy, "%s", s);
        free(s);
        fail_msg("'%s' not found in %s: %s", needle, path, copy);
    }
    free(s);
}

/* The 2×2 LCP M = [[2, 1], [0, 3]], q = (−1, −2): z = (1/6, 2/3), w = 0. */
static const char *lcp_text = "2\n0\n2\n2\n2\t2\n2 0\n1 3\n-1 -2\n";

static void test_help_and_usage(void **state)
{
    (void)state;
    assert_int_equal(run("--help"), 0);
    expect_in(out_path, "Usage: nsolve");
    expect_in(out_path, "--list-solvers");
    assert_int_equal(run("--version"), 0);
    expect_in(out_path, "nsolve (nonsmooth)");
    assert_int_equal(run(""), 2);
    expect_in(err_path, "no problem file");
    assert_int_equal(run("--frobnicate x.dat"), 2);
    expect_in(err_path, "unknown option '--frobnicate'");
    assert_int_equal(run("--tol -1 x.dat"), 2);
    expect_in(err_path, "--tol");
    assert_int_equal(run("--kind blob x.dat"), 2);
    expect_in(err_path, "unknown kind 'blob'");
    assert_int_equal(run("--list-solvers"), 0);
    expect_in(out_path, "pgs");
}

static void test_solve_lcp_json_and_solution(void **state)
{
    (void)state;
    char f[512], sol[512], args[2048];
    ns_test_tmpname(f, sizeof f, ".dat");
    ns_test_tmpname(sol, sizeof sol, ".sol");
    assert_int_equal(ns_test_write_file(f, lcp_text), 0);
    snprintf(args, sizeof args, "--json --solver pgs --tol 1e-12 --output %s %s", sol, f);
    assert_int_equal(run(args), 0);
    expect_in(out_path, "\"kind\": \"lcp\"");
    expect_in(out_path, "\"size\": {\"n\": 2}");
    expect_in(out_path, "\"status\": \"converged\"");
    expect_in(out_path, "\"read_seconds\"");
    /* the solution file holds z then w, each "# NAME LENGTH" then values */
    FILE *s = fopen(sol, "r");
    assert_non_null(s);
    char name[16];
    int len;
    double z[2], w[2];
    assert_int_equal(fscanf(s, " # %15s %d", name, &len), 2);
    assert_string_equal(name, "z");
    assert_int_equal(len, 2);
    assert_int_equal(fscanf(s, "%lf %lf", &z[0], &z[1]), 2);
    assert_int_equal(fscanf(s, " # %15s %d", name, &len), 2);
    assert_string_equal(name, "w");
    assert_int_equal(fscanf(s, "%lf %lf", &w[0], &w[1]), 2);
    fclose(s);
    assert_true(fabs(z[0] - 1.0 / 6) < 1e-10 && fabs(z[1] - 2.0 / 3) < 1e-10);
    /* w recomputed here from the file's data, not read from the tool */
    double w0 = 2 * z[0] + 1 * z[1] - 1, w1 = 3 * z[1] - 2;
    assert_true(fabs(w0) < 1e-10 && fabs(w1) < 1e-10);
    assert_true(fabs(w[0] - w0) < 1e-12 && fabs(w[1] - w1) < 1e-12);
    remove(sol);

    /* not converged: exit 1, status max_iter, last iterate still written */
    snprintf(args, sizeof args, "--json --solver pgs --max-iter 1 --tol 1e-15 --output %s %s",
             sol, f);
    assert_int_equal(run(args), 1);
    expect_in(out_path, "\"status\": \"max_iter\"");
    expect_in(sol, "# z 2");

    /* human-readable report */
    snprintf(args, sizeof args, "%s", f);
    assert_int_equal(run(args), 0);
    expect_in(out_path, "status      converged");
    remove(sol);
    remove(f);
}

/* The same LCP file as an NCP (F(z) = Mz + q): z = (1/6, 2/3), F(z) = 0,
 * checked from the solution file; as a box VI from a relay file; and a
 * kind whose layout the file does not have. */
static void test_callback_kinds(void **state)
{
    (void)state;
    char f[512], sol[512], args[2048];
    ns_test_tmpname(f, sizeof f, ".dat");
    ns_test_tmpname(sol, sizeof sol, ".sol");
    assert_int_equal(ns_test_write_file(f, lcp_text), 0);
    snprintf(args, sizeof args, "--json --kind ncp --solver newton-min --output %s %s", sol, f);
    assert_int_equal(run(args), 0);
    expect_in(out_path, "\"kind\": \"ncp\"");
    expect_in(out_path, "\"solver\": \"newton-min\"");
    expect_in(out_path, "\"status\": \"converged\"");
    FILE *s = fopen(sol, "r");
    assert_non_null(s);
    char name[16];
    int len;
    double z[2], F[2];
    assert_int_equal(fscanf(s, " # %15s %d", name, &len), 2);
    assert_string_equal(name, "z");
    assert_int_equal(fscanf(s, "%lf %lf", &z[0], &z[1]), 2);
    assert_int_equal(fscanf(s, " # %15s %d", name, &len), 2);
    assert_string_equal(name, "F");
    assert_int_equal(fscanf(s, "%lf %lf", &F[0], &F[1]), 2);
    fclose(s);
    assert_true(fabs(z[0] - 1.0 / 6) < 1e-9 && fabs(z[1] - 2.0 / 3) < 1e-9);
    assert_true(fabs(2 * z[0] + z[1] - 1) < 1e-9 && fabs(3 * z[1] - 2) < 1e-9);
    remove(sol);
    /* the file has no SOCLCP layout: exit 2, the field named */
    snprintf(args, sizeof args, "--kind soclcp %s", f);
    assert_int_equal(run(args), 2);
    expect_in(err_path, f);
    remove(f);
    /* relay M = I, q = (−3, 0.5), [−1, 1]²: x = (1, −0.5) */
    assert_int_equal(ns_test_write_file(f, "2\n0\n2\n2\n2\t2\n1 0\n0 1\n-3 0.5\n-1 -1\n1 1\n"), 0);
    snprintf(args, sizeof args, "--kind vi --output %s %s", sol, f);
    assert_int_equal(run(args), 0);
    expect_in(out_path, "kind        vi (n = 2)");
    s = fopen(sol, "r");
    assert_non_null(s);
    assert_int_equal(fscanf(s, " # %15s %d", name, &len), 2);
    assert_string_equal(name, "x");
    assert_int_equal(fscanf(s, "%lf %lf", &z[0], &z[1]), 2);
    fclose(s);
    /* residual ≤ tol = 1e-8 with F' = I: |x − x*| ≤ 1e-8 */
    assert_true(fabs(z[0] - 1) <= 1e-8 && fabs(z[1] + 0.5) <= 1e-8);
    remove(sol);
    remove(f);
}

/* An infeasible LCP without a trivially infeasible row: M = [[-1, 1], [1, -1]],
 * q = (-1, 0.5) needs z1 - z0 >= 1 and z1 - z0 <= 0.5; y = (1, 1) is a
 * Farkas certificate (M'y = 0, q'y = -0.5). --json names the certificate,
 * --output appends it; the vector written is checked here. */
static void test_no_solution_certificate(void **state)
{
    (void)state;
    char f[512], sol[512], args[2048];
    ns_test_tmpname(f, sizeof f, ".dat");
    ns_test_tmpname(sol, sizeof sol, ".sol");
    assert_int_equal(ns_test_write_file(f, "2\n0\n2\n2\n2\t2\n-1 1\n1 -1\n-1 0.5\n"), 0);
    snprintf(args, sizeof args, "--json --output %s %s", sol, f);
    assert_int_equal(run(args), 1);
    expect_in(out_path, "\"status\": \"no_solution\"");
    expect_in(out_path, "\"certificate\": {\"kind\": \"farkas\", \"checked\": true");
    expect_in(sol, "# certificate_farkas 2\n");
    char *t = slurp(sol);
    char *c = strstr(t, "# certificate_farkas 2\n");
    assert_non_null(c);
    double y0 = 0, y1 = 0;
    assert_int_equal(sscanf(c + strlen("# certificate_farkas 2\n"), "%lf %lf", &y0, &y1), 2);
    free(t);
    /* y >= 0, M'y <= 0, q'y < 0 (own arithmetic) */
    assert_true(y0 >= 0 && y1 >= 0);
    assert_true(-y0 + y1 <= 1e-12 * (y0 + y1) && y0 - y1 <= 1e-12 * (y0 + y1));
    assert_true(-y0 + 0.5 * y1 < 0);
    /* the text report names it too */
    snprintf(args, sizeof args, "%s", f);
    assert_int_equal(run(args), 1);
    expect_in(out_path, "certificate farkas");
    remove(f);
    remove(sol);
}

static void test_check_and_bad_input(void **state)
{
    (void)state;
    char f[512], args[2048];
    ns_test_tmpname(f, sizeof f, ".dat");
    /* one 3D contact (formats.md §3.5 example) */
    assert_int_equal(ns_test_write_file(f, "3\n1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n"
                                           "-1 0 0\n0.3\n"), 0);
    snprintf(args, sizeof args, "--check --json %s", f);
    assert_int_equal(run(args), 0);
    expect_in(out_path, "\"kind\": \"fc3d\"");
    expect_in(out_path, "\"contacts\": 1");
    snprintf(args, sizeof args, "--solver no-such-solver %s", f);
    assert_int_equal(run(args), 2);
    expect_in(err_path, "no solver 'no-such-solver'");

    /* negative friction coefficient: validation names the field */
    assert_int_equal(ns_test_write_file(f, "3\n1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n"
                                           "-1 0 0\n-0.3\n"), 0);
    snprintf(args, sizeof args, "--check %s", f);
    assert_int_equal(run(args), 2);
    expect_in(err_path, "mu[0]");
    expect_in(err_path, f);

    /* missing file */
    assert_int_equal(run("/nonexistent/problem.dat"), 2);
    expect_in(err_path, "/nonexistent/problem.dat");

    /* a non-numeric token: the message names the file */
    assert_int_equal(ns_test_write_file(f, "2\n0\n2\n2\n2\t2\n2 0\n1 x\n-1 -2\n"), 0);
    snprintf(args, sizeof args, "--json %s", f);
    assert_int_equal(run(args), 2);
    expect_in(err_path, f);
    expect_in(out_path, "\"status\": \"error\"");

    /* zero diagonal given to pgs: a clear message, no crash */
    assert_int_equal(ns_test_write_file(f, "2\n0\n2\n2\n2\t2\n0 1\n1 3\n-1 -2\n"), 0);
    snprintf(args, sizeof args, "--solver pgs %s", f);
    assert_int_equal(run(args), 2);
    expect_in(err_path, "diagonal");
    remove(f);
}

/* --check asks the solver too: an FC3D with W_NN < 0 reads and validates,
 * but every FC3D solver refuses it, so the check fails as solving would;
 * an FC2D one passes with lemke, which takes it, and fails with nsgs. */
static void test_check_asks_the_solver(void **state)
{
    (void)state;
    char f[512], args[1200];
    ns_test_tmpname(f, sizeof f, ".dat");
    assert_int_equal(ns_test_write_file(f, "3\n1\n0\n3\n3\n3\t3\n-1 0 0\n0 1 0\n0 0 1\n-1 0 0\n0.5\n"), 0);
    snprintf(args, sizeof args, "--check %s", f);
    assert_int_equal(run(args), 2);
    expect_in(err_path, "W_NN = -1");
    snprintf(args, sizeof args, "%s", f);
    assert_int_equal(run(args), 2);   /* and solving refuses it the same way */
    assert_int_equal(ns_test_write_file(f, "2\n1\n0\n2\n2\n2\t2\n-1 0\n0 1\n-1 0\n0.5\n"), 0);
    snprintf(args, sizeof args, "--check --solver lemke %s", f);
    assert_int_equal(run(args), 0);
    snprintf(args, sizeof args, "--check --json --solver nsgs %s", f);
    assert_int_equal(run(args), 2);
    expect_in(out_path, "\"status\": \"error\"");
    remove(f);
}

/* A file name that is not UTF-8 (bytes 0xff 0xfe) and a message quoting
 * it: --json stays valid JSON (run() checks it), the bytes as U+FFFD. */
static void test_json_not_utf8_name(void **state)
{
    (void)state;
    char dir[512], f[700], args[1600];
    ns_test_tmpname(dir, sizeof dir, "_utf8");
    snprintf(f, sizeof f, "%s\xff\xfe.dat", dir);
    assert_int_equal(ns_test_write_file(f, lcp_text), 0);
    snprintf(args, sizeof args, "--json '%s'", f);
    assert_int_equal(run(args), 0);
    expect_in(out_path, "\\ufffd\\ufffd.dat");
    assert_int_equal(ns_test_write_file(f, "2\n0\n2\n2\n2\t2\n2 0\n1 x\n-1 -2\n"), 0);
    assert_int_equal(run(args), 2);   /* the error object too */
    expect_in(out_path, "\"status\": \"error\"");
    remove(f);
}

static int setup(void **state)
{
    (void)state;
    ns_test_tmpname(out_path, sizeof out_path, ".out");
    ns_test_tmpname(err_path, sizeof err_path, ".err");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    remove(out_path);
    remove(err_path);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_usage),
        cmocka_unit_test(test_solve_lcp_json_and_solution),
        cmocka_unit_test(test_callback_kinds),
        cmocka_unit_test(test_check_and_bad_input),
        cmocka_unit_test(test_no_solution_certificate),
        cmocka_unit_test(test_json_not_utf8_name),
        cmocka_unit_test(test_check_asks_the_solver),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
