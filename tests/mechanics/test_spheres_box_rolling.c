/* test_spheres_box_rolling.c — spheres_box --rolling MU_R (Newton impact +
 * rolling friction contacts, one RFC3D problem per step).
 *
 * Four spheres dropped into the box with random velocities and spins land
 * on the floor. With rolling resistance (MU_R = 0.05 m, about one radius)
 * every sphere stops sliding and rolling well before t = 2 s: horizontal
 * speeds and the spin components about horizontal axes (times R) are
 * below 1e-6 m/s at the end (vertically the overlap correction leaves
 * motions of order 1e-5 m/s). Without it (MU_R = 0, the same law and kind) a sphere
 * rolling on the floor keeps rolling: at 2 s some sphere still moves at
 * more than 1 cm/s. With --rolling the example also resists pivoting
 * (--pivot, default MU_R: 6-row contacts), so the spins about the
 * vertical stop too (R|ω_z| below 1e-6 m/s at 2 s); MU_R = 0 gives no
 * pivoting resistance either. Tolerance 1e-4: at the example's default 1e-3
 * a sphere rolling on the floor keeps vertical velocity errors of a few
 * mm/s, above the vertical check. The run also reports the free surface's slope
 * (repose.h) and writes repose.svg; bad --rolling and --pivot values are
 * refused.
 *
 * A column of 8 spheres (radii 0.8–1 Rmax) in a box one sphere wide
 * (--scene pile --n 8: a 1 × 1 lattice) with MU_R = 0.01 m: with pivoting
 * resistance it comes to rest (kinetic energy below 1e-6 J at 2 s, the
 * potential energy constant to 1e-5 J over the last second); with
 * --pivot 0 it never does (above 1e-5 J, the potential energy still
 * falling by more than 1e-4 J over the last second): with the spin about
 * each contact normal free, the spheres pivot against each other and the
 * column leans over slowly while sliding and rolling stay stuck. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ns_test.h"

/* Runs spheres_box with 4 spheres and --rolling mur into a fresh dir; the
 * largest horizontal speed and horizontal-axis spin (times R) at the end. */
static void run(const char *mur, double *vmax, double *wmax, double *wzmax, int *repose_line)
{
    char dir[512], cmd[2048], path[1024], line[1024];
    ns_test_tmpname(dir, sizeof dir, "_rolling");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && %s/spheres_box --n 4 --steps 2000 --seed 1 --tol 1e-4 --rolling %s "
             "--out %s > %s/stdout.txt", dir, NS_BIN_DIR, mur, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/final.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    *vmax = *wmax = *wzmax = 0;
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        double v[11];
        int k = 0;
        for (char *p = strtok(line, ","); p && k < 11; p = strtok(NULL, ",")) v[k++] = atof(p);
        assert_int_equal(k, 11);
        assert_true(v[3] > 0 && v[3] < 2 * v[4]);    /* on the floor */
        *vmax = fmax(*vmax, hypot(v[5], v[6]));
        assert_true(fabs(v[7]) < 1e-3);   /* vertically: only the overlap correction's small motions */
        *wmax = fmax(*wmax, v[4] * hypot(v[8], v[9]));
        *wzmax = fmax(*wzmax, v[4] * fabs(v[10]));
        rows++;
    }
    fclose(f);
    assert_int_equal(rows, 4);
    snprintf(path, sizeof path, "%s/stdout.txt", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    *repose_line = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "repose: angle=", 14)) *repose_line = 1;
        if (strstr(line, "RFC3D solves")) assert_non_null(strstr(line, " 0 not converged"));
    }
    fclose(f);
    struct stat sb;
    snprintf(path, sizeof path, "%s/repose.svg", dir);
    assert_int_equal(stat(path, &sb), 0);
    assert_true(sb.st_size > 100);
}

static void test_rolling_stops(void **state)
{
    (void)state;
    double v1, w1, z1, v0, w0, z0;
    int rep1, rep0;
    run("0.05", &v1, &w1, &z1, &rep1);
    run("0", &v0, &w0, &z0, &rep0);
    print_message("rolling 0.05: max speed %.3g m/s, max R|w_xy| %.3g m/s, max R|w_z| %.3g m/s; "
                  "rolling 0: %.3g, %.3g, %.3g\n", v1, w1, z1, v0, w0, z0);
    assert_true(v1 < 1e-6 && w1 < 1e-6 && z1 < 1e-6);
    assert_true(fmax(v0, w0) > 1e-2);
    assert_true(rep1 && rep0);
}

/* Kinetic energy at the end and potential energy drop over the last
 * second of the 8-sphere column (trajectory.csv: t, kinetic, potential). */
static void column(const char *pivot, double *ek, double *dep)
{
    char dir[512], cmd[2048], path[1024], line[1024];
    ns_test_tmpname(dir, sizeof dir, "_column");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && %s/spheres_box --scene pile --n 8 --steps 2000 --seed 1 "
             "--rolling 0.01 %s %s --out %s > %s/stdout.txt", dir, NS_BIN_DIR, pivot ? "--pivot" : "",
             pivot ? pivot : "", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/trajectory.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    double ep1 = NAN, t, k, ep;
    *ek = NAN;
    while (fgets(line, sizeof line, f)) {
        assert_int_equal(sscanf(line, "%lf,%lf,%lf", &t, &k, &ep), 3);
        if (isnan(ep1) && t >= 1.0 - 1e-9) ep1 = ep;
        *ek = k;
    }
    fclose(f);
    assert_false(isnan(ep1));
    *dep = ep1 - ep;
}

static void test_column_comes_to_rest(void **state)
{
    (void)state;
    double ek1, dep1, ek0, dep0;
    column(NULL, &ek1, &dep1);    /* --pivot defaults to MU_R */
    column("0", &ek0, &dep0);
    print_message("column, pivoting 0.01: KE %.3g J, PE drop over [1, 2] s %.3g J; "
                  "pivoting 0: %.3g J, %.3g J\n", ek1, dep1, ek0, dep0);
    assert_true(ek1 < 1e-6 && fabs(dep1) < 1e-5);
    assert_true(ek0 > 1e-5 && dep0 > 1e-4);
}

static void test_bad_rolling(void **state)
{
    (void)state;
    const char *bad[] = { "--rolling -0.1", "--rolling inf", "--rolling nan", "--rolling 0.1 --pivot -1",
                          "--rolling 0.1 --pivot inf", "--pivot 0.1" /* without --rolling */ };
    for (int k = 0; k < 6; k++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "%s/spheres_box --n 4 --steps 2 --quiet %s 2>/dev/null",
                 NS_BIN_DIR, bad[k]);
        int rc = system(cmd);
        assert_true(rc != 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rolling_stops),
        cmocka_unit_test(test_column_comes_to_rest),
        cmocka_unit_test(test_bad_rolling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
