/* test_mech_diode_bridge.c — acceptance 5: the diode_bridge example: the
 * load voltage is never negative, follows |v_LC| while the bridge conducts,
 * and the tank energy decreases (per step it may grow by round-off-sized
 * amounts only where the bridge switches sides: bounded by 1e-7 relative). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ns_test.h"

static void test_diode_bridge(void **state)
{
    (void)state;
    char dir[512], cmd[1024], path[1024];
    ns_test_tmpname(dir, sizeof dir, "_diode");
    snprintf(cmd, sizeof cmd, "%s/diode_bridge --quiet --out %s", NS_BIN_DIR, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/trajectory.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "energy"));
    double t, v, iL, vR, iR, E, Eprev = INFINITY, E0 = NAN, minvR = INFINITY, maxrel = 0, maxdev = 0;
    long rows = 0;
    while (fscanf(f, "%lf,%lf,%lf,%lf,%lf,%lf", &t, &v, &iL, &vR, &iR, &E) == 6) {
        if (rows == 0) E0 = E;
        else {
            minvR = fmin(minvR, vR);
            if ((E - Eprev) / Eprev > maxrel) maxrel = (E - Eprev) / Eprev;
            if (vR > 0.01) maxdev = fmax(maxdev, fabs(vR - fabs(v)));
        }
        Eprev = E;
        rows++;
    }
    fclose(f);
    print_message("%ld rows, min load voltage %.3g V, largest relative energy growth in a step %.3g, "
                  "max |vR - |v|| while conducting %.3g V, energy %.3g -> %.3g J\n",
                  rows, minvR, maxrel, maxdev, E0, E);
    assert_int_equal(rows, 5001);
    assert_true(minvR >= -1e-12);
    assert_true(maxrel < 1e-7);
    assert_true(E < 0.01 * E0);
    assert_true(maxdev < 1e-6);
    snprintf(path, sizeof path, "%s/diode_bridge.svg", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_diode_bridge) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
