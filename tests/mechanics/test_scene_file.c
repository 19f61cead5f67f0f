/* test_scene_file.c — the spheres_box scene file (examples/spheres_box/
 * scene_file.h) and the stack scenes: spheres_box --write-scene writes the
 * pile, pyramid and column it simulates, read back field by field against
 * the scene's definition (radii in [0.8, 1] Rmax, m = ρ 4/3 π R³,
 * I = 2/5 m R², the pyramid's spheres each 0.1 mm above the four below,
 * the column's on x = y = 0); the overlap measure on configurations with
 * known overlaps; the reader refuses malformed files naming line and
 * field; and, when they were built, each peer engine keeps a 3-sphere
 * column standing on the floor (gravity, planes and units imported
 * right). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "ns_test.h"
#include "scene_file.h"

static const double PI = 3.14159265358979323846, RMAX = 0.05;

static sbx_scene *write_and_read(const char *args, char *path, size_t len)
{
    char cmd[2048], err[512] = "";
    ns_test_tmpname(path, len, "_scene.txt");
    snprintf(cmd, sizeof cmd, "%s/spheres_box --quiet %s --steps 3 --write-scene %s", NS_BIN_DIR, args, path);
    assert_int_equal(system(cmd), 0);
    sbx_scene *s = sbx_scene_read(path, err, sizeof err);
    if (!s) fail_msg("%s", err);
    return s;
}

static void check_bodies(const sbx_scene *s, int equal)
{
    for (int i = 0; i < s->n; i++) {
        double R = s->R[i], m = 1000.0 * 4.0 / 3.0 * PI * R * R * R;
        if (equal) assert_true(fabs(R - RMAX) < 1e-15);
        else assert_true(R >= 0.8 * RMAX - 1e-15 && R <= RMAX + 1e-15);
        assert_true(fabs(s->m[i] - m) <= 1e-12 * m);
        assert_true(fabs(s->I[i] - 0.4 * m * R * R) <= 1e-12 * s->I[i]);
        const double *x = s->x + 3 * i;
        assert_true(x[2] >= R && fabs(x[0]) <= s->ax - R && fabs(x[1]) <= s->ay - R);
    }
}

static void test_pile_scene(void **state)
{
    (void)state;
    char path[512];
    sbx_scene *s = write_and_read("--scene pile --n 200", path, sizeof path);
    assert_int_equal(s->n, 200);
    assert_true(s->mu == 0.3 && s->e == 0.5 && s->h == 1e-3 && s->steps == 3);
    assert_true(s->g[0] == 0 && s->g[1] == 0 && s->g[2] == -9.81);
    check_bodies(s, 0);
    for (int i = 0; i < 3 * s->n; i++) assert_true(s->v[i] == 0.0 && s->w[i] == 0.0);   /* at rest */
    sbx_overlap o;
    assert_int_equal(sbx_overlaps(s->n, s->x, s->R, s->ax, s->ay, &o), 0);
    assert_int_equal(o.pairs, 0);   /* lattice spacing 2.05 Rmax */
    assert_int_equal(o.walls, 0);
    sbx_scene_free(s);
    unlink(path);
    /* the box scene starts with velocities and spins; chute: tilted gravity */
    s = write_and_read("--scene box --n 30", path, sizeof path);
    double vmax = 0;
    for (int i = 0; i < 3 * s->n; i++) vmax = fmax(vmax, fabs(s->v[i]));
    assert_true(vmax > 0.05 && vmax <= 0.5);
    sbx_scene_free(s);
    unlink(path);
    s = write_and_read("--scene chute --n 30 --slope 30", path, sizeof path);
    assert_true(fabs(s->g[0] - 9.81 * 0.5) < 1e-12 && fabs(s->g[2] + 9.81 * sqrt(0.75)) < 1e-12);
    sbx_scene_free(s);
    unlink(path);
}

static void test_pyramid_and_column(void **state)
{
    (void)state;
    char path[512];
    sbx_scene *s = write_and_read("--scene pyramid --n 40", path, sizeof path);
    assert_int_equal(s->n, 30);   /* L = 4: 16 + 9 + 4 + 1 */
    check_bodies(s, 1);
    /* every sphere above the base rests 0.1 mm (0.002 R) above four below */
    int above = 0;
    for (int i = 16; i < s->n; i++) {
        int below = 0;
        for (int j = 0; j < s->n; j++) {
            const double *a = s->x + 3 * i, *b = s->x + 3 * j;
            double d = sqrt(pow(a[0] - b[0], 2) + pow(a[1] - b[1], 2) + pow(a[2] - b[2], 2));
            if (b[2] < a[2] - 0.01 && d < 2.01 * RMAX) {
                assert_true(fabs(d - 2 * RMAX - 0.002 * RMAX) < 0.001 * RMAX);
                below++;
            }
        }
        assert_int_equal(below, 4);
        above++;
    }
    assert_int_equal(above, 14);
    const double *top = s->x + 3 * (s->n - 1);
    assert_true(fabs(top[0]) < 1e-12 && fabs(top[1]) < 1e-12);   /* apex over the centre */
    sbx_scene_free(s);
    unlink(path);

    s = write_and_read("--scene column --n 7", path, sizeof path);
    assert_int_equal(s->n, 7);
    check_bodies(s, 1);
    for (int i = 0; i < s->n; i++) {
        assert_true(s->x[3 * i] == 0.0 && s->x[3 * i + 1] == 0.0);
        assert_true(fabs(s->x[3 * i + 2] - (1.002 + 2.002 * i) * RMAX) < 1e-12);
    }
    sbx_scene_free(s);
    unlink(path);
}

static void test_overlaps(void **state)
{
    (void)state;
    /* box ±0.234 × ±0.3. Sphere 0 crosses the floor by 0.01; 0-1 overlap by
     * 0.1 − √(0.09² + 0.01²); 1-2 by 0.004; sphere 2 crosses the wall
     * x = 0.234 by 0.002; sphere 3 touches nothing. */
    double x[12] = { 0, 0, 0.04,   0.09, 0, 0.05,   0.186, 0, 0.05,   -0.1, 0.1, 0.2 };
    double R[4] = { 0.05, 0.05, 0.05, 0.05 };
    double ov01 = 0.1 - sqrt(0.09 * 0.09 + 0.01 * 0.01);
    sbx_overlap o;
    assert_int_equal(sbx_overlaps(4, x, R, 0.234, 0.3, &o), 0);
    assert_int_equal(o.pairs, 2);
    assert_true(fabs(o.pair_max - ov01) < 1e-12);
    assert_true(fabs(o.pair_mean - 0.5 * (ov01 + 0.004)) < 1e-12);
    assert_int_equal(o.walls, 2);
    assert_true(fabs(o.wall_max - 0.01) < 1e-12);
    assert_true(fabs(o.wall_mean - 0.006) < 1e-12);
    /* the same spheres in reverse order */
    double xr[12], Rr[4];
    for (int i = 0; i < 4; i++) { memcpy(xr + 3 * i, x + 3 * (3 - i), 3 * sizeof *x); Rr[i] = R[3 - i]; }
    sbx_overlap o2;
    assert_int_equal(sbx_overlaps(4, xr, Rr, 0.234, 0.3, &o2), 0);
    assert_int_equal(o2.pairs, 2);
    assert_true(fabs(o2.pair_mean - o.pair_mean) < 1e-15 && fabs(o2.wall_mean - o.wall_mean) < 1e-15);
    assert_int_equal(sbx_overlaps(0, NULL, NULL, 1, 1, &o2), 0);
    assert_int_equal(o2.pairs + o2.walls, 0);
}

static void expect_refused(const char *text, const char *needle)
{
    char path[512], err[512] = "";
    ns_test_tmpname(path, sizeof path, "_bad_scene.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    sbx_scene *s = sbx_scene_read(path, err, sizeof err);
    unlink(path);
    if (s) { sbx_scene_free(s); fail_msg("accepted: %s", text); }
    if (!strstr(err, needle)) fail_msg("'%s' not in '%s'", needle, err);
}

static void test_reader_refuses(void **state)
{
    (void)state;
    const char *head = "nonsmooth-spheres-scene 1\nn 2\nbox 1 1\ngravity 0 0 -9.81\nmu 0.3\ne 0.5\nh 0.001\nsteps 10\n";
    const char *ok1 = "0 0 0.05 0 0 0 0 0 0 0.05 0.5 0.0005\n";
    char buf[2048];
    snprintf(buf, sizeof buf, "%s%s%s", head, ok1, ok1);
    char path[512], err[512] = "";
    ns_test_tmpname(path, sizeof path, "_good_scene.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(buf, f);
    fclose(f);
    sbx_scene *s = sbx_scene_read(path, err, sizeof err);
    unlink(path);
    assert_non_null(s);   /* the well-formed file is read */
    assert_int_equal(s->n, 2);
    sbx_scene_free(s);

    expect_refused("hello\n", "not a spheres scene");
    expect_refused("nonsmooth-spheres-scene 1\nn 2\nbox 1\n", "'box' needs 2 finite numbers");
    expect_refused("nonsmooth-spheres-scene 1\nn 0\nbox 1 1\ngravity 0 0 -9.81\nmu 0.3\ne 0.5\nh 0.001\nsteps 10\n",
                   "n: a whole number");
    expect_refused("nonsmooth-spheres-scene 1\nn 2\nbox 1 1\ngravity 0 0 -9.81\nmu -1\ne 0.5\nh 0.001\nsteps 10\n",
                   "mu must be >= 0");
    expect_refused("nonsmooth-spheres-scene 1\nn 2\nbox 1 1\ngravity 0 0 nan\n", "'gravity' needs 3 finite numbers");
    expect_refused("nonsmooth-spheres-scene 1\nn 2\nbox 1 1\nmu 0.3\n", "line 4: expected 'gravity'");
    snprintf(buf, sizeof buf, "%s%s", head, ok1);
    expect_refused(buf, "end of file after 1 of 2 spheres");
    snprintf(buf, sizeof buf, "%s%s%s%s", head, ok1, ok1, ok1);
    expect_refused(buf, "line 11: more than n = 2 spheres");
    snprintf(buf, sizeof buf, "%s%s0 0 0.05 0 0 0 0 0 0 -0.05 0.5 0.0005\n", head, ok1);
    expect_refused(buf, "line 10: sphere 1: R, m and I must be > 0");
    snprintf(buf, sizeof buf, "%s%s0 0 0.05 0 0 0 0 0 0.05 0.5\n", head, ok1);
    expect_refused(buf, "line 10: sphere 1 needs 12 finite numbers");
    assert_null(sbx_scene_read("/nonexistent/scene.txt", err, sizeof err));
    assert_non_null(strstr(err, "cannot read"));
    assert_null(sbx_scene_read(NULL, err, sizeof err));
    assert_non_null(strstr(err, "path is NULL"));
    assert_int_equal(sbx_scene_write(NULL, NULL, err, sizeof err), -1);
}

/* The value of key=... on a peer: line */
static double peer_value(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    assert_non_null(p);
    return atof(p + strlen(pat));
}

/* A 3-sphere column stood 0.3 s in each peer engine that was built: it
 * stays up (the spheres' overlaps with each other and the floor below
 * 1 mm, 2% of R; kinetic energy ~0 against m g h ~ 0.5 J of a fall). */
static void test_peers_column(void **state)
{
    (void)state;
    const char *progs[3] = { "peer_bullet", "peer_ode", "peer_mujoco" };
    char scene[512];
    sbx_scene *s = write_and_read("--scene column --n 3", scene, sizeof scene);
    sbx_scene_free(s);
    int ran = 0;
    for (int k = 0; k < 3; k++) {
        char exe[1024], cmd[2048], line[2048] = "";
        snprintf(exe, sizeof exe, "%s/%s", NS_BIN_DIR, progs[k]);
        if (access(exe, X_OK) != 0) { print_message("%s not built: skipped\n", progs[k]); continue; }
        snprintf(cmd, sizeof cmd, "%s %s --steps 300 --settled-from 200", exe, scene);
        FILE *f = popen(cmd, "r");
        assert_non_null(f);
        char buf[2048];
        while (fgets(buf, sizeof buf, f)) if (!strncmp(buf, "peer:", 5)) snprintf(line, sizeof line, "%s", buf);
        assert_int_equal(pclose(f), 0);
        print_message("%s", line);
        assert_true(line[0] != '\0');
        assert_true(peer_value(line, "n") == 3 && peer_value(line, "steps") == 300);
        assert_true(peer_value(line, "max_overlap_um") < 1000 && peer_value(line, "wall_max_overlap_um") < 1000);
        assert_true(peer_value(line, "overlapping_walls") <= 1);   /* the floor under the bottom sphere */
        assert_true(peer_value(line, "kinetic_energy") < 1e-3);
        assert_true(peer_value(line, "settled_ms") > 0);
        ran++;
    }
    unlink(scene);
    if (!ran) skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pile_scene),
        cmocka_unit_test(test_pyramid_and_column),
        cmocka_unit_test(test_overlaps),
        cmocka_unit_test(test_reader_refuses),
        cmocka_unit_test(test_peers_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
