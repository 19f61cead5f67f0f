/* test_mech_diode_bridge.c — acceptance 5: the diode_bridge example: the
 * load voltage is never negative, follows |v_LC| while the bridge conducts,
 * and the tank energy never increases.
 *
 * The default scheme enforces the diode laws on the outputs at t_{k+θ}
 * (nsm_sim_options.theta_output), where Euler–Moreau applies r = Bλ: λ, and
 * so the load voltage vR = λ0 + λ1, belong to v_{k+1/2} = (v_k + v_{k+1})/2,
 * and the tank energy cannot rise (passive circuit, θ = ½): checked to the
 * 12 printed digits. With --siconos-law (the laws on y_{k+1}, Siconos'
 * EulerMoreauOSI) vR follows v_{k+1}, and the energy does rise at steps
 * where v changes sign (the work h v_k i_{k+1}/2 of the old voltage with the
 * new current): checked too, so the difference is real. */
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
#include "ns_test.h"

typedef struct {
    long rows;
    double minvR, maxrel, maxdev_mid, maxdev_end, E0, E;
} run_stats;

static void run(const char *extra, run_stats *r)
{
    char dir[512], cmd[1024], path[1024];
    ns_test_tmpname(dir, sizeof dir, "_diode");
    snprintf(cmd, sizeof cmd, "%s/diode_bridge --quiet %s --out %s", NS_BIN_DIR, extra, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/trajectory.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "energy"));
    double t, v, iL, vR, iR, E, Eprev = INFINITY, vprev = NAN;
    memset(r, 0, sizeof *r);
    r->minvR = INFINITY;
    while (fscanf(f, "%lf,%lf,%lf,%lf,%lf,%lf", &t, &v, &iL, &vR, &iR, &E) == 6) {
        if (r->rows == 0) r->E0 = E;
        else {
            r->minvR = fmin(r->minvR, vR);
            if ((E - Eprev) / Eprev > r->maxrel) r->maxrel = (E - Eprev) / Eprev;
            if (vR > 0.01) {
                r->maxdev_mid = fmax(r->maxdev_mid, fabs(vR - fabs(0.5 * (v + vprev))));
                r->maxdev_end = fmax(r->maxdev_end, fabs(vR - fabs(v)));
            }
        }
        Eprev = E;
        vprev = v;
        r->rows++;
    }
    r->E = E;
    fclose(f);
    print_message("%s: %ld rows, min load voltage %.3g V, largest relative energy growth in a "
                  "step %.3g, max |vR - |v_mid|| %.3g V, max |vR - |v_end|| %.3g V while "
                  "conducting, energy %.3g -> %.3g J\n", extra[0] ? extra : "default",
                  r->rows, r->minvR, r->maxrel, r->maxdev_mid, r->maxdev_end, r->E0, r->E);
    snprintf(path, sizeof path, "%s/diode_bridge.svg", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    fclose(f);
}

static void test_diode_bridge(void **state)
{
    (void)state;
    run_stats d, s;
    run("", &d);
    assert_int_equal(d.rows, 5001);
    assert_true(d.minvR >= -1e-12);
    assert_true(d.maxrel <= 1e-11);        /* no rise beyond the 12 printed digits */
    assert_true(d.E < 0.01 * d.E0);
    assert_true(d.maxdev_mid < 1e-6);      /* vR = |v| at t_{k+1/2} */
    run("--siconos-law", &s);
    assert_int_equal(s.rows, 5001);
    assert_true(s.minvR >= -1e-12);
    assert_true(s.maxdev_end < 1e-6);      /* vR = |v| at t_{k+1} */
    assert_true(s.maxrel > 1e-9);          /* energy enters at sign changes */
    assert_true(s.E < 0.01 * s.E0);
}

/* The examples' command line (examples/common): --help exits 0 with the
 * usage, a malformed or out-of-range number exits 2 without running. */
static void test_command_line(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/diode_bridge --help | grep -q 'usage:'", NS_BIN_DIR);
    assert_int_equal(system(cmd), 0);
    const char *bad[] = { "--h abc", "--h -1", "--steps 1.5", "--theta 2", "--tol 0",
                          "--T 1e400", "--nonsense 1", "--out", "--dump-every 0", "--dump-every x" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(cmd, sizeof cmd, "%s/diode_bridge --quiet %s 2>/dev/null", NS_BIN_DIR, bad[k]);
        int rc = system(cmd);
        assert_true(WIFEXITED(rc));
        if (WEXITSTATUS(rc) != 2) fail_msg("diode_bridge %s: exit %d, want 2", bad[k], WEXITSTATUS(rc));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_diode_bridge),
                                        cmocka_unit_test(test_command_line) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
