/* test_mech_slider_crank.c — mixed laws in one step: the
 * slider-crank example (two revolute joints as equality rows, four slider
 * corners with Newton impact + 2D Coulomb friction) assembles a generic
 * mechanical problem each step.
 *  - its dumped one-step problems are GMP files that nsolve reads and
 *    solves at 1e-8 (the residual recomputed by nsolve), and some of them
 *    mix equality and FC2D blocks;
 *  - with the direct projection the joints stay within 1e-8 (joint drift,
 *    the largest |h| of the joint rows, from the trajectory file); without
 *    it they drift beyond that (the check can fail);
 *  - bad command lines exit 2. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "ns_test.h"

/* Largest joint drift (last column) and number of rows of trajectory.csv. */
static double max_drift(const char *dir, long *rows)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/trajectory.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char line[8192];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "joint_drift"));
    double w = 0;
    *rows = 0;
    while (fgets(line, sizeof line, f)) {
        char *last = strrchr(line, ',');
        assert_non_null(last);
        double d = atof(last + 1);
        assert_true(isfinite(d));
        if (d > w) w = d;
        (*rows)++;
    }
    fclose(f);
    return w;
}

static void test_projection_drift(void **state)
{
    (void)state;
    char dir[512], cmd[2048];
    ns_test_tmpname(dir, sizeof dir, "_slider");
    snprintf(cmd, sizeof cmd, "%s/slider_crank --quiet --T 0.2 --out %s", NS_BIN_DIR, dir);
    assert_int_equal(system(cmd), 0);
    long rows;
    double w = max_drift(dir, &rows);
    print_message("slider-crank, direct projection, 2000 steps: max joint drift %.3g\n", w);
    assert_int_equal(rows, 2000);
    assert_true(w <= 1e-8);
    snprintf(cmd, sizeof cmd, "%s/slider_crank --quiet --T 0.05 --no-projection --out %s", NS_BIN_DIR, dir);
    assert_int_equal(system(cmd), 0);
    double w0 = max_drift(dir, &rows);
    print_message("slider-crank without projection: max joint drift %.3g\n", w0);
    assert_true(w0 > 1e-8);
}

static void test_dumps_solve(void **state)
{
    (void)state;
    char dir[512], cmd[4096], path[1024];
    ns_test_tmpname(dir, sizeof dir, "_slider_dump");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && %s/slider_crank --quiet --T 0.03 --dump %s --dump-max 300", dir, NS_BIN_DIR, dir);
    assert_int_equal(system(cmd), 0);
    DIR *D = opendir(dir);
    assert_non_null(D);
    struct dirent *e;
    long files = 0, mixed = 0;
    double worst = 0;
    while ((e = readdir(D))) {
        if (!strstr(e->d_name, ".dat")) continue;
        files++;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(cmd, sizeof cmd, "%s/nsolve --json --tol 1e-8 %s", NS_BIN_DIR, path);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        static char out[8192];
        size_t k = fread(out, 1, sizeof out - 1, p);
        out[k] = 0;
        int rc = pclose(p);
        if (rc != 0) fail_msg("nsolve %s: exit %d: %s", path, rc, out);
        assert_non_null(strstr(out, "\"kind\": \"gmp\""));
        assert_non_null(strstr(out, "\"status\": \"converged\""));
        char *fc = strstr(out, "\"fc2d\": "), *eq = strstr(out, "\"equality\": ");
        assert_non_null(fc); assert_non_null(eq);
        if (atoi(fc + 8) > 0 && atoi(eq + 12) > 0) mixed++;
        char *er = strstr(out, "\"error\": ");
        assert_non_null(er);
        double e1 = atof(er + 9);
        assert_true(e1 <= 1e-8);
        if (e1 > worst) worst = e1;
    }
    closedir(D);
    print_message("slider-crank: %ld GMP dumps solved by nsolve at 1e-8 (worst error %.3g), %ld mixing equality and fc2d blocks\n",
                  files, worst, mixed);
    assert_int_equal(files, 300);
    assert_true(mixed > 0);
}

static void test_bad_args(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/slider_crank --h abc >/dev/null 2>&1", NS_BIN_DIR);
    int rc = system(cmd);
    assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
    snprintf(cmd, sizeof cmd, "%s/slider_crank --help | grep -q 'usage:'", NS_BIN_DIR);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_projection_drift),
        cmocka_unit_test(test_dumps_solve),
        cmocka_unit_test(test_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
