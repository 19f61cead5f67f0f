/* test_mech_bouncing_ball.c — acceptance 1: the bouncing_ball example
 * (build/bin/bouncing_ball) against the exact answer of docs/mechanics.md:
 * impact times and post-impact velocities within O(h) for h = 0.005 and
 * h = 0.0025 (the error shrinks with h), the ball at rest at the end with
 * λ = m g, the energy never increasing (and increasing with Siconos'
 * restitution rule for separating contacts, which the default replaces). */
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

#define G 9.81
#define RAD 0.1
#define Z0 1.0
#define E 0.9
#define NCHECK 5

/* Runs the example into a fresh directory; returns the impacts' worst
 * time and velocity errors over the first NCHECK impacts. */
static void run(double h, double theta, const char *extra, double *terr, double *verr,
                char *outdir, size_t len)
{
    ns_test_tmpname(outdir, len, "_bb");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/bouncing_ball --quiet --h %.17g --theta %g --T 10 %s --out %s",
             NS_BIN_DIR, h, theta, extra, outdir);
    assert_int_equal(system(cmd), 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/impacts.csv", outdir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "time"));
    double v1 = sqrt(2 * G * (Z0 - RAD)), tk = sqrt(2 * (Z0 - RAD) / G), vk = v1;
    *terr = *verr = 0;
    for (int k = 0; k < NCHECK; k++) {
        double t, vb, va;
        assert_int_equal(fscanf(f, "%lf,%lf,%lf", &t, &vb, &va), 3);
        double vafter = E * vk;
        *terr = fmax(*terr, fabs(t - tk));
        *verr = fmax(*verr, fabs(va - vafter));
        assert_true(va > 0 && vb < 0);
        tk += 2 * vafter / G;
        vk = vafter;
    }
    fclose(f);
}

/* Energy check of a run: returns the number of steps where E grew by more
 * than tol, and checks the rest state after t∞. */
static long energy_and_rest(const char *d, long nrows, double tol, double *maxinc)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/trajectory.csv", d);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "energy"));
    double t, z, v, lam, en, eprev = INFINITY;
    long rows = 0, increases = 0;
    double tinf = sqrt(2 * (Z0 - RAD) / G) + 2 * E * sqrt(2 * G * (Z0 - RAD)) / (G * (1 - E));
    double maxv_after = 0, minlam_after = INFINITY, maxlam_after = 0;
    *maxinc = 0;
    while (fscanf(f, "%lf,%lf,%lf,%lf,%lf", &t, &z, &v, &lam, &en) == 5) {
        if (en - eprev > *maxinc) *maxinc = en - eprev;
        if (en > eprev + tol) increases++;
        eprev = en;
        rows++;
        if (t > tinf + 1.0) {
            maxv_after = fmax(maxv_after, fabs(v));
            minlam_after = fmin(minlam_after, lam);
            maxlam_after = fmax(maxlam_after, lam);
            assert_true(fabs(z - RAD) < 1e-3);
        }
    }
    fclose(f);
    assert_int_equal(rows, nrows);
    print_message("after t_inf + 1: |v| <= %.3g, lambda in [%.9g, %.9g]; at T: v = %.3g, lambda = %.12g\n",
                  maxv_after, minlam_after, maxlam_after, v, lam);
    assert_true(maxv_after < 1e-6);
    assert_true(fabs(minlam_after - G) < 1e-4 && fabs(maxlam_after - G) < 1e-4);
    /* At rest the contact alternates between U_k < 0 (restitution e) and
     * U_k > 0 (restitution 1 under the default law): |v| falls by e every
     * two steps, ~1e-11 m/s at T = 10 with h = 0.005 (Siconos' law: e² every
     * two steps). */
    assert_true(fabs(v) < 1e-9 && fabs(lam - G) < 1e-6);
    return increases;
}

static void test_impacts_converge(void **state)
{
    (void)state;
    char d1[512], d2[512];
    double te1, ve1, te2, ve2;
    run(0.005, 0.5, "", &te1, &ve1, d1, sizeof d1);
    run(0.0025, 0.5, "", &te2, &ve2, d2, sizeof d2);
    print_message("h = 0.005: time error %.3g, velocity error %.3g\n", te1, ve1);
    print_message("h = 0.0025: time error %.3g, velocity error %.3g\n", te2, ve2);
    /* O(h): each impact time is off by at most about one step, and the
     * errors add up over the NCHECK flights: bound 2·NCHECK·h; velocities
     * within g·h per impact. */
    assert_true(te1 <= 2 * NCHECK * 0.005 && ve1 <= NCHECK * G * 0.005);
    assert_true(te2 <= 2 * NCHECK * 0.0025 && ve2 <= NCHECK * G * 0.0025);
    assert_true(te2 < te1);
    assert_true(ve2 < ve1);

    /* Rest with λ = m g after t∞, and the energy never increases. With
     * θ = 1/2 the scheme conserves the energy of free flights exactly, and a
     * step with an active contact changes it by ½ (U_k + U_{k+1}) P =
     * ½ (1 − e) U_k P under the Newton law: ≤ 0 at impacts (U_k < 0). The
     * default law uses restitution 1 for active rows that already separate
     * (U_k > 0), so those steps do no work either; the only growth left is
     * the trajectory file's 12 printed digits (tolerance 1e-11 E0). */
    double E0 = G * Z0, maxinc;
    long inc = energy_and_rest(d1, 2001, 1e-11 * E0, &maxinc);
    print_message("h = 0.005: largest energy increase in a step %.3g J\n", maxinc);
    assert_int_equal(inc, 0);
    inc = energy_and_rest(d2, 4001, 1e-11 * E0, &maxinc);
    print_message("h = 0.0025: largest energy increase in a step %.3g J\n", maxinc);
    assert_int_equal(inc, 0);
    /* Siconos' law (e also for separating rows) does push energy in near
     * t∞, where the ball, a few µm inside the plane, moves up with the
     * contact still active: the option is what makes the difference. */
    char d3[512];
    double te3, ve3;
    run(0.005, 0.5, "--siconos-law", &te3, &ve3, d3, sizeof d3);
    inc = energy_and_rest(d3, 2001, 1e-11 * E0, &maxinc);
    print_message("h = 0.005, --siconos-law: %ld steps gain energy, largest %.3g J\n", inc, maxinc);
    assert_true(inc > 0 && maxinc > 1e-7 * E0);
    char path[1024];
    /* the plot exists */
    snprintf(path, sizeof path, "%s/bouncing_ball.svg", d1);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_impacts_converge) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
