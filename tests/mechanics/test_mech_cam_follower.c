/* test_mech_cam_follower.c — acceptance 4 (smoke level): the cam_follower
 * example at 358 rpm over 5 s writes the trajectory and both plots, and the
 * follower never sinks into the cam by more than 5 mm (rheonomous
 * constraint y = u − c(t) handled at velocity level); 660 rpm runs too. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include "ns_test.h"

static void check(double rpm)
{
    char dir[512], cmd[1024], path[1024];
    ns_test_tmpname(dir, sizeof dir, "_cam");
    snprintf(cmd, sizeof cmd, "%s/cam_follower --quiet --rpm %g --save-every 10 --out %s", NS_BIN_DIR, rpm, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/trajectory.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    assert_non_null(fgets(line, sizeof line, f));
    double t, u, c, du, dc, P, maxpen = 0;
    long rows = 0;
    while (fscanf(f, "%lf,%lf,%lf,%lf,%lf,%lf", &t, &u, &c, &du, &dc, &P) == 6) {
        if (c - u > maxpen) maxpen = c - u;
        rows++;
    }
    fclose(f);
    print_message("rpm %g: %ld rows, largest penetration %.3g\n", rpm, rows, maxpen);
    assert_int_equal(rows, 5001);
    assert_true(maxpen < 5e-3);
    const char *files[2] = { "cam_follower.svg", "cam_follower_poincare.svg" };
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        f = fopen(path, "r");
        assert_non_null(f);
        fclose(f);
    }
}

static void test_cam_follower(void **state)
{
    (void)state;
    check(358);
    check(660);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_cam_follower) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
