#define _POSIX_C_SOURCE 200809L
/* test_tutorials_cli.c — the `tutorials` program's command line:
 * --list gives only names of the reference list (the refs' file names),
 * --out writes the ref's layout ('rows cols' then rows of that width, the
 * first row the model's initial state), --steps N gives N + 1 rows, --svg
 * writes the plot, --dump writes the one-step problems as files nsolve
 * solves, --help exits 0, bad input exits 2 with a message. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <dirent.h>
#include "ns_test.h"

static const char *const issue_names[] = {
    "BouncingBallTS", "BouncingBallTS-MoreauJeanGOSI", "ColumnOfBeadsTS", "DoublePendulumResult",
    "BouncingBallTS-Scleronomous", "BallOnMovingPlane", "Woodpecker", "ImpactingBar", "BouncingBallED",
    "BouncingBallED-withRestingContact", "BouncingBallED-TwoContacts", "FrictionOscillator", "PendulumSlider",
    "CircuitRLCD", "DiodeBridge", "DiodeBridgeCapFilter", "BouncingBallTS-MoreauJeanDirectProjectionOSI",
    "BouncingBallTS-MoreauJeanCombinedProjectionOSI", "SliderCrankMoreauJeanDirectProjectionOSI", "NonLinearSwitch",
};

static int run(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/tutorials %s >/dev/null 2>&1", NS_BIN_DIR, args);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void test_list(void **state)
{
    char cmd[1024], line[256];
    snprintf(cmd, sizeof cmd, "%s/tutorials --list", NS_BIN_DIR);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    enum { NN = sizeof issue_names / sizeof issue_names[0] };
    int n = 0, seen[NN] = { 0 };
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        int known = 0;
        for (size_t i = 0; i < NN; i++)
            if (!strcmp(line, issue_names[i])) { known = 1; seen[i]++; }
        if (!known) fail_msg("--list gives '%s', not a name of the reference list", line);
        n++;
    }
    assert_int_equal(pclose(f), 0);
    /* every name of the issue exactly once (NonLinearSwitch, the stretch, included) */
    for (size_t i = 0; i < NN; i++) {
        if (seen[i] > 1) fail_msg("--list gives %s %d times", issue_names[i], seen[i]);
        if (!seen[i]) fail_msg("--list lacks %s", issue_names[i]);
    }
    assert_int_equal(n, NN);
}

static void test_out_layout(void **state)
{
    char path[512], args[1024];
    ns_test_tmpname(path, sizeof path, "_tut.dat");
    snprintf(args, sizeof args, "BouncingBallTS --steps 10 --quiet --out %s", path);
    assert_int_equal(run(args), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    long rows, cols;
    assert_int_equal(fscanf(f, "%ld %ld", &rows, &cols), 2);
    assert_int_equal(rows, 11);
    assert_int_equal(cols, 5);
    double v[5];
    for (int j = 0; j < 5; j++) assert_int_equal(fscanf(f, "%lf", &v[j]), 1);
    assert_true(v[0] == 0.0 && v[1] == 1.0 && v[2] == 0.0);  /* t0, z0, v0 */
    long n = 0;
    double x;
    while (fscanf(f, "%lf", &x) == 1) n++;
    assert_int_equal(n, 10 * 5);   /* the 10 rows after the first */
    fclose(f);
    remove(path);
}

/* --nodes: the bar of 10^4 nodes runs (sparse M, K: a dense W would be
 * 800 MB) and keeps the ref's layout with finite entries */
static void test_nodes(void **state)
{
    (void)state;
    char path[512], args[1024];
    ns_test_tmpname(path, sizeof path, "_tutbar.dat");
    snprintf(args, sizeof args, "ImpactingBar --nodes 10000 --steps 2 --quiet --out %s", path);
    assert_int_equal(run(args), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    long rows, cols;
    assert_int_equal(fscanf(f, "%ld %ld", &rows, &cols), 2);
    assert_int_equal(rows, 3);
    assert_int_equal(cols, 12);
    long n = 0;
    double x;
    while (fscanf(f, "%lf", &x) == 1) { assert_true(isfinite(x)); n++; }
    assert_int_equal(n, 3 * 12);
    fclose(f);
    remove(path);
}

static void test_svg(void **state)
{
    char dir[512], args[1024], path[1024];
    ns_test_tmpname(dir, sizeof dir, "_tutsvg");
    snprintf(args, sizeof args, "FrictionOscillator --steps 50 --quiet --svg %s", dir);
    assert_int_equal(run(args), 0);
    snprintf(path, sizeof path, "%s/FrictionOscillator.svg", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char head[64] = "";
    assert_non_null(fgets(head, sizeof head, f));
    assert_non_null(strstr(head, "<svg") ? head : strstr(head, "<?xml"));
    fclose(f);
}

static void test_bad_input(void **state)
{
    assert_int_equal(run("--help"), 0);
    assert_int_equal(run(""), 2);
    assert_int_equal(run("NoSuchModel"), 2);
    assert_int_equal(run("BouncingBallTS --steps 0"), 2);
    assert_int_equal(run("BouncingBallTS --steps 1x"), 2);
    assert_int_equal(run("BouncingBallTS --h -1"), 2);
    assert_int_equal(run("BouncingBallTS --e 2"), 2);
    assert_int_equal(run("ImpactingBar --nodes 1"), 2);
    assert_int_equal(run("BouncingBallTS --frobnicate 3"), 2);
    assert_int_equal(run("BouncingBallTS --out"), 2);
    assert_int_equal(run("BouncingBallTS --out /nonexistent/dir/x.dat --quiet"), 1);
}

static void test_dump(void **state)
{
    (void)state;
    char dir[512], args[1024], first[256] = "";
    ns_test_tmpname(dir, sizeof dir, "_tutdump");
    snprintf(args, sizeof args, "ColumnOfBeadsTS --steps 1500 --quiet --dump %s", dir);
    assert_int_equal(run(args), 0);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (!strncmp(e->d_name, "step_", 5)) {
            files++;
            if (!first[0] || strcmp(e->d_name, first) < 0) snprintf(first, sizeof first, "%s", e->d_name);
        }
    closedir(d);
    print_message("%d problems dumped, first %s\n", files, first);
    assert_true(files > 0);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/nsolve %s/%s --tol 1e-10 >/dev/null 2>&1", NS_BIN_DIR, dir, first);
    int rc = system(cmd);
    assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);   /* read, and solved to 1e-10 */
    assert_int_equal(run("BouncingBallTS --steps 5 --quiet --dump /nonexistent/dir/sub"), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_out_layout),
        cmocka_unit_test(test_nodes),
        cmocka_unit_test(test_svg),
        cmocka_unit_test(test_dump),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
