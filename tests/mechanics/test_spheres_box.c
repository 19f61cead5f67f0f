/* test_spheres_box.c — the spheres_box example (100 rigid spheres with
 * Newton impacts and 3D Coulomb friction falling into a box, one FC3D
 * problem per step): the spheres come to rest inside the box with small
 * penetrations and every one-step problem converges; a dumped FC3D problem,
 * read back and solved, satisfies Coulomb's law checked here contact by
 * contact from u = W r + q recomputed with a dense copy of W, and
 * ns_fc_error agrees; contacts ordered by sphere (order_by_system) keep
 * the recomputed error within tol; a sweep limit too small for the
 * pile stops the run (exit 1) unless --accept-nonconverged, which goes on
 * and counts the steps. */
#define _POSIX_C_SOURCE 200809L   /* popen */
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
#include "nonsmooth/nonsmooth.h"
#include "nonsmooth/nsm.h"

static char g_dir[512];
static int g_ran;

/* One run shared by the tests: 100 spheres, box half-width 0.45 (two
 * layers), h = 1e-3, 2 s; dumps every 200th problem. */
static void run_once(void)
{
    if (g_ran) return;
    char cmd[2048];
    ns_test_tmpname(g_dir, sizeof g_dir, "_spheres");
    snprintf(cmd, sizeof cmd, "%s/spheres_box --quiet --n 100 --half 0.45 --h 1e-3 --steps 2000 "
             "--seed 3 --out %s --dump %s --dump-every 200 --dump-max 20", NS_BIN_DIR, g_dir, g_dir);
    assert_int_equal(system(cmd), 0);
    g_ran = 1;
}

static void test_rest_inside_box(void **state)
{
    (void)state;
    run_once();
    char path[1024];
    snprintf(path, sizeof path, "%s/trajectory.csv", g_dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "kinetic_energy"));
    double ekmax = 0, ek = 0, penmax = 0, pen = 0;
    long rows = 0, nonconv = 0, out_rows = 0, unconv_rows = 0;
    int nact = 0;
    while (fgets(line, sizeof line, f)) {
        double v[11];
        int k = 0;
        for (char *p = strtok(line, ","); p && k < 11; p = strtok(NULL, ",")) v[k++] = atof(p);
        assert_int_equal(k, 11);
        ek = v[1];
        if (ek > ekmax) ekmax = ek;
        nact = (int)v[3];
        pen = v[5];
        if (pen > penmax) penmax = pen;
        if (v[8] == 0.0) unconv_rows++;
        nonconv = (long)v[9];
        if (v[10] != 0.0) out_rows++;
        rows++;
    }
    fclose(f);
    print_message("rows %ld, kinetic energy max %.4g J -> final %.4g J, %d active contacts, "
                  "max penetration %.3g m (final %.3g), non-converged %ld\n",
                  rows, ekmax, ek, nact, penmax, pen, nonconv);
    assert_int_equal(rows, 2001);
    assert_int_equal(out_rows, 0);                /* no sphere ever leaves the box */
    assert_true(ekmax > 1.0);                     /* they did fall */
    /* and come (nearly) to rest: without rolling resistance a sphere rolling
     * on the floor keeps its energy until it meets another one, so the
     * bound is 2% of the peak after 2 s rather than zero (the motion is
     * chaotic: the contact order of the broad phase changes which sphere
     * rolls last; with the grid's order ek is 0.7% of the peak at 1.8 s and
     * 1.3% at 2 s after a late rearrangement) */
    assert_true(ek < 2e-2 * ekmax);
    assert_true(nact >= 100);                     /* resting on each other and the floor */
    assert_true(penmax < 0.02 * 0.05);            /* < 2% of Rmax during the impacts */
    assert_true(pen < 0.01 * 0.04);               /* < 1% of Rmin at rest */
    assert_int_equal(nonconv, 0);                 /* every FC3D problem solved */
    assert_int_equal(unconv_rows, 0);

    /* final positions: inside the box, above the floor */
    snprintf(path, sizeof path, "%s/final.csv", g_dir);
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        int i; double x, y, z, R;
        assert_int_equal(sscanf(line, "%d,%lf,%lf,%lf,%lf", &i, &x, &y, &z, &R), 5);
        assert_true(fabs(x) <= 0.45 - R + 0.01 * R);
        assert_true(fabs(y) <= 0.45 - R + 0.01 * R);
        assert_true(z >= R - 0.01 * R);
        assert_true(z < 0.5);
        n++;
    }
    fclose(f);
    assert_int_equal(n, 100);
}

/* Coulomb's law on contact a of (W, q, mu) at r, with u = W r + q computed
 * here from a dense copy: r ∈ K, u_N ≥ 0, r_N u_N = 0, and sliding
 * (u_T ≠ 0) only on the cone's boundary with r_T opposite to u_T. */
static void check_coulomb(const ns_fc *p, const double *r, double tol)
{
    ns_matrix *D = ns_matrix_to_dense(p->W);
    assert_non_null(D);
    ns_int m = 3 * p->nc;
    double *u = malloc((size_t)m * sizeof *u);
    double scale = 0.0;
    for (ns_int i = 0; i < m; i++) {
        double s = p->q[i];
        for (ns_int j = 0; j < m; j++) s += D->dense[i + (size_t)j * m] * r[j];
        u[i] = s;
        if (fabs(p->q[i]) > scale) scale = fabs(p->q[i]);
    }
    double rmax = 0.0;
    for (ns_int i = 0; i < m; i++) if (fabs(r[i]) > rmax) rmax = fabs(r[i]);
    long sticking = 0, sliding = 0, open = 0;
    for (ns_int a = 0; a < p->nc; a++) {
        const double *ra = r + 3 * a, *ua = u + 3 * a;
        double mu = p->mu[a];
        double rt = hypot(ra[1], ra[2]), ut = hypot(ua[1], ua[2]);
        assert_true(ra[0] >= -tol * rmax);
        assert_true(rt <= mu * ra[0] + tol * rmax);
        /* De Saxcé: û_N = u_N + μ‖u_T‖ ≥ 0 and r ⊥ û */
        double uhat = ua[0] + mu * ut;
        assert_true(uhat >= -tol * scale);
        assert_true(fabs(ra[0] * uhat + ra[1] * ua[1] + ra[2] * ua[2]) <= tol * scale * rmax);
        if (ra[0] <= tol * rmax) { open++; continue; }
        assert_true(fabs(ua[0]) <= tol * scale * 10);  /* closed contact: u_N = 0 */
        if (ut > tol * scale * 10) {                    /* sliding: r_T = −μ r_N u_T/‖u_T‖ */
            sliding++;
            assert_true(fabs(rt - mu * ra[0]) <= 10 * tol * rmax);
            assert_true(ra[1] * ua[1] + ra[2] * ua[2] <= 0.0);
        } else sticking++;
    }
    print_message("%ld contacts: %ld sticking, %ld sliding, %ld open\n", (long)p->nc, sticking, sliding, open);
    assert_true(sticking + sliding > 0);
    free(u);
    ns_matrix_free(D);
}

static void test_dumped_problem_coulomb(void **state)
{
    (void)state;
    run_once();
    DIR *d = opendir(g_dir);
    assert_non_null(d);
    char best[1024] = "";
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "spheres_box_", 12) || !strstr(e->d_name, ".dat")) continue;
        char cand[1024];
        snprintf(cand, sizeof cand, "%s/%s", g_dir, e->d_name);
        if (strcmp(cand, best) > 0) snprintf(best, sizeof best, "%s", cand);   /* the latest step */
    }
    closedir(d);
    assert_true(best[0] != '\0');
    ns_problem *p = NULL;
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(ns_problem_read(best, NS_KIND_NONE, &p, err), NS_OK);
    assert_int_equal(p->kind, NS_KIND_FC3D);
    assert_int_equal(ns_problem_validate(p, err), NS_OK);
    ns_fc *fc = p->u.fc;
    print_message("%s: %ld contacts\n", best, (long)fc->nc);
    assert_true(fc->nc >= 50);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-10;
    ns_solution *sol = ns_solution_new(p);
    ns_result res;
    ns_result_init(&res);
    ns_status st = ns_solve(p, "nsn-ac", &o, sol, &res);
    print_message("nsn-ac: %s, %ld iterations, error %.3g\n", ns_status_name(st), (long)res.iterations, res.error);
    assert_int_equal(st, NS_OK);
    double *u = malloc((size_t)3 * fc->nc * sizeof *u);
    double er = ns_fc_error(fc, sol->vec[0], u, NS_FC_NORM_SICONOS);
    assert_true(er <= 1e-10);
    check_coulomb(fc, sol->vec[0], 1e-7);
    free(u);
    ns_result_clear(&res);
    ns_solution_free(sol);
    ns_problem_free(p);
}

/* The value of key=... on spheres_box's profile: line */
static double profile_value(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    assert_non_null(p);
    return atof(p + strlen(pat));
}

/* nsm_sim_options.order_by_system (--order 1): the step's contacts are
 * reordered by their first sphere. The example recomputes each profiled
 * step's FC3D error itself from W's blocks and the multipliers the
 * simulation keeps for the ids nsm_sim_index_set lists, so a row order,
 * a pos map or a listed order that disagree show as a large error; the
 * same pile in slot order gives the reference. */
static void test_order_by_system(void **state)
{
    (void)state;
    double err[2], nc[2];
    for (int o = 0; o < 2; o++) {
        char cmd[1024], line[4096] = "";
        snprintf(cmd, sizeof cmd, "%s/spheres_box --quiet --scene pile --n 200 --steps 220 --profile 190 --tol 1e-4 --order %d",
                 NS_BIN_DIR, o);
        FILE *f = popen(cmd, "r");
        assert_non_null(f);
        char buf[4096];
        while (fgets(buf, sizeof buf, f))
            if (!strncmp(buf, "profile:", 8)) snprintf(line, sizeof line, "%s", buf);
        assert_int_equal(pclose(f), 0);
        assert_true(line[0] != '\0');
        err[o] = profile_value(line, "worst_error");
        nc[o] = profile_value(line, "contacts");
        assert_true(profile_value(line, "nonconverged") == 0);
        print_message("order %d: %.0f contacts, worst recomputed error %.3g\n", o, nc[o], err[o]);
    }
    assert_true(nc[1] > 100);
    assert_true(err[0] <= 1.0001e-4);
    assert_true(err[1] <= 1.0001e-4);
}

/* Sweeps alone (--solver nsgs-ac) limited to 3 cannot reach tol 1e-4 once
 * the 200-sphere pile forms: without --accept-nonconverged the run stops
 * early with status 1, with it all 300 steps run and the summary counts
 * the unconverged solves. */
static void test_accept_nonconverged(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/spheres_box --scene pile --n 200 --steps 300 --solver nsgs-ac --max-iter 3 "
             "--tol 1e-4 >/dev/null 2>&1", NS_BIN_DIR);
    int st = system(cmd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    snprintf(cmd, sizeof cmd, "%s/spheres_box --scene pile --n 200 --steps 300 --solver nsgs-ac --max-iter 3 "
             "--tol 1e-4 --accept-nonconverged", NS_BIN_DIR);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char buf[4096];
    long steps = -1, nonconv = -1;
    while (fgets(buf, sizeof buf, f)) {
        const char *p = strstr(buf, " steps h = ");
        const char *q = strstr(buf, " FC3D solves, ");
        if (p && q) {
            const char *s = p;
            while (s > buf && s[-1] != ' ') s--;
            steps = strtol(s, NULL, 10);
            nonconv = strtol(q + strlen(" FC3D solves, "), NULL, 10);
        }
    }
    assert_int_equal(pclose(f), 0);
    print_message("accepted: %ld steps, %ld solves not converged\n", steps, nonconv);
    assert_int_equal(steps, 300);
    assert_true(nonconv > 0);
    /* a --max-iter that is not a whole number in [0, 1e9] is bad usage (exit 2) */
    const char *bad[3] = { "1.5", "-3", "x" };
    for (int k = 0; k < 3; k++) {
        snprintf(cmd, sizeof cmd, "%s/spheres_box --steps 1 --max-iter %s >/dev/null 2>&1", NS_BIN_DIR, bad[k]);
        st = system(cmd);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
    }
    /* so are the step options out of their ranges */
    const char *badopt[] = { "--hold -1e-6", "--hold inf", "--hold x", "--budget -1", "--budget inf",
                             "--stabilization 1.5", "--stabilization -0.1", "--proj-tol 0",
                             "--proj-tol -1", "--projection sideways" };
    for (size_t k = 0; k < sizeof badopt / sizeof badopt[0]; k++) {
        snprintf(cmd, sizeof cmd, "%s/spheres_box --steps 1 %s >/dev/null 2>&1", NS_BIN_DIR, badopt[k]);
        st = system(cmd);
        if (!(WIFEXITED(st) && WEXITSTATUS(st) == 2)) fail_msg("'%s' was not refused with exit 2", badopt[k]);
    }
}

/* The example as a new user first runs it, with no option but the length:
 * the default box scene (100 spheres, seed 1) through step 1000, past the
 * step (880) where warm-started sweeps cycle without converging. Every
 * step's problem is solved to the default tol (the step policy goes on to
 * another method when the sweeps stall), and the default overlap
 * stabilisation with held resting contacts keeps every overlap at rest,
 * measured here from the final positions (sphere pairs and the floor),
 * below 2.5 µm (0.5 µm measured; with --hold 0 about 5 µm, without the
 * stabilisation up to ~400 µm). */
static void test_default_box_1000(void **state)
{
    (void)state;
    char dir[512], cmd[1024], path[1024], line[4096];
    ns_test_tmpname(dir, sizeof dir, "_spheres_default");
    snprintf(cmd, sizeof cmd, "%s/spheres_box --quiet --steps 1000 --out %s", NS_BIN_DIR, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/trajectory.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    long rows = 0, nonconv = -1;
    double maxerr = 0.0;
    while (fgets(line, sizeof line, f)) {
        double v[11];
        int k = 0;
        for (char *p = strtok(line, ","); p && k < 11; p = strtok(NULL, ",")) v[k++] = atof(p);
        assert_int_equal(k, 11);
        if (v[7] > maxerr) maxerr = v[7];
        nonconv = (long)v[9];
        rows++;
    }
    fclose(f);
    assert_int_equal(rows, 1001);
    assert_int_equal(nonconv, 0);
    assert_true(maxerr <= 1e-3);   /* the example's default tol */
    snprintf(path, sizeof path, "%s/final.csv", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    double X[100][4];
    int n = 0;
    while (n < 100 && fgets(line, sizeof line, f)) {
        int i;
        assert_int_equal(sscanf(line, "%d,%lf,%lf,%lf,%lf", &i, &X[n][0], &X[n][1], &X[n][2], &X[n][3]), 5);
        n++;
    }
    fclose(f);
    assert_int_equal(n, 100);
    double worst = 0.0;
    int touching = 0;
    for (int i = 0; i < n; i++) {
        worst = fmax(worst, X[i][3] - X[i][2]);                  /* into the floor */
        for (int j = i + 1; j < n; j++) {
            double d = sqrt((X[i][0] - X[j][0]) * (X[i][0] - X[j][0]) + (X[i][1] - X[j][1]) * (X[i][1] - X[j][1]) +
                            (X[i][2] - X[j][2]) * (X[i][2] - X[j][2]));
            double gap = d - X[i][3] - X[j][3];
            if (gap < 1e-5) touching++;
            worst = fmax(worst, -gap);
        }
    }
    print_message("1000 steps, worst error %.3g, %d touching pairs, largest overlap %.3g m\n", maxerr, touching, worst);
    assert_true(touching > 50);        /* a pile, not a gas */
    assert_true(worst <= 2.5e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rest_inside_box),
        cmocka_unit_test(test_dumped_problem_coulomb),
        cmocka_unit_test(test_order_by_system),
        cmocka_unit_test(test_accept_nonconverged),
        cmocka_unit_test(test_default_box_1000),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
