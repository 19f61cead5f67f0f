/* test_gen_hard_fc.c — tools/gen_hard_fc.sh --quick: the hard collections'
 * small subset (a settled pile, a pyramid, a column, a chute, the box
 * scene) is generated with its index; every listed file is an FC3D problem
 * that nsolve reads and solves (its default solver, tol 1e-9: NSGS alone
 * does not reach it on the pyramid in 10^5 sweeps), with the contact count
 * the index gives;
 * nsolve's solution (its --output file) satisfies the FC3D conditions
 * recomputed here from a dense copy of W; the stacks of equal spheres have
 * mu = 0.3 on every contact; the steps lie in each collection's window; bad
 * command lines exit 2. With --global, the GFC3D subset: nsolve's (v, r)
 * checked here against M v = H r + q and Coulomb's law at u = Hᵀ v + b. */
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
#include "nonsmooth/nonsmooth.h"

static char g_dir[512];

static int run(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* ‖r − P_K(r − û)‖² of one contact, û = u + μ‖u_T‖ e_N, K the cone of μ */
static double nat_sq(const double *r, const double *u, double mu)
{
    double x[3] = { r[0] - u[0] - mu * hypot(u[1], u[2]), r[1] - u[1], r[2] - u[2] };
    double nt = hypot(x[1], x[2]);
    if (nt > mu * x[0]) {
        if (mu * nt <= -x[0]) x[0] = x[1] = x[2] = 0.0;
        else {
            double t = (x[0] + mu * nt) / (1.0 + mu * mu);
            x[0] = t; x[1] *= mu * t / nt; x[2] *= mu * t / nt;
        }
    }
    double e2 = 0.0;
    for (int i = 0; i < 3; i++) e2 += (r[i] - x[i]) * (r[i] - x[i]);
    return e2;
}

/* The FC3D error (De Saxcé's û, projection on each cone), relative to
 * max(‖q‖, ‖r‖, ‖u‖), computed here from a dense W. */
static double own_fc_error(const ns_fc *p, const double *r)
{
    ns_matrix *D = ns_matrix_to_dense(p->W);
    assert_non_null(D);
    ns_int m = 3 * p->nc;
    double e2 = 0, q2 = 0, r2 = 0, u2 = 0;
    for (ns_int a = 0; a < p->nc; a++) {
        double u[3];
        for (int i = 0; i < 3; i++) {
            ns_int row = 3 * a + i;
            double s = p->q[row];
            for (ns_int j = 0; j < m; j++) s += D->dense[row + (size_t)j * m] * r[j];
            u[i] = s;
        }
        const double *ra = r + 3 * a;
        double mu = p->mu[a];
        e2 += nat_sq(ra, u, mu);
        for (int i = 0; i < 3; i++) {
            q2 += p->q[3 * a + i] * p->q[3 * a + i];
            r2 += ra[i] * ra[i];
            u2 += u[i] * u[i];
        }
    }
    ns_matrix_free(D);
    double sc = sqrt(fmax(q2, fmax(r2, u2)));
    return sc > 0 ? sqrt(e2) / sc : sqrt(e2);
}

static void check_file(const char *coll, const char *file, long step, long contacts)
{
    static const struct { const char *name; long from, to; int equal_spheres; } win[] = {
        { "pile_n60", 100, 150, 0 }, { "pyramid_L3", 50, 100, 1 }, { "column_n5", 50, 100, 1 },
        { "chute_n60", 0, 100, 0 }, { "box_n20", 250, 300, 0 },
    };
    int w = -1;
    for (int i = 0; i < 5; i++) if (!strcmp(coll, win[i].name)) w = i;
    assert_true(w >= 0);
    assert_true(step >= win[w].from && step <= win[w].to);
    char path[1024], sol_path[1024], json_path[1024], cmd[4096];
    snprintf(path, sizeof path, "%s/%s", g_dir, file);
    snprintf(sol_path, sizeof sol_path, "%s/sol.txt", g_dir);
    snprintf(json_path, sizeof json_path, "%s/nsolve.json", g_dir);
    snprintf(cmd, sizeof cmd, "%s/nsolve --json --tol 1e-9 -o %s %s > %s", NS_BIN_DIR, sol_path,
             path, json_path);
    assert_int_equal(run(cmd), 0);
    FILE *f = fopen(json_path, "r");
    assert_non_null(f);
    char js[4096] = "";
    assert_non_null(fgets(js, sizeof js, f));
    fclose(f);
    assert_non_null(strstr(js, "\"kind\": \"fc3d\""));
    const char *c = strstr(js, "\"contacts\": ");
    assert_non_null(c);
    assert_int_equal(atol(c + 12), contacts);

    ns_problem *p = NULL;
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &p, err), NS_OK);
    assert_int_equal(p->kind, NS_KIND_FC3D);
    ns_fc *fc = p->u.fc;
    assert_int_equal(fc->nc, contacts);
    ns_solution *sol = ns_solution_new(p);
    assert_non_null(sol);
    assert_int_equal(ns_solution_read(sol_path, sol, err), NS_OK);
    double e = own_fc_error(fc, sol->vec[0]);
    int at_rest = 0;   /* contacts pressing (r_N > 0) */
    for (ns_int a = 0; a < fc->nc; a++) {
        if (win[w].equal_spheres) assert_true(fabs(fc->mu[a] - 0.3) < 1e-12);
        if (sol->vec[0][3 * a] > 0) at_rest++;
    }
    print_message("%s: %ld contacts (%d pressing), nsolve's solution: error %.3g recomputed here\n", file,
                  (long)fc->nc, at_rest, e);
    assert_true(e <= 1e-8);
    assert_true(at_rest > 0);
    ns_solution_free(sol);
    ns_problem_free(p);
}

static void test_quick_collections(void **state)
{
    (void)state;
    char cmd[2048];
    ns_test_tmpname(g_dir, sizeof g_dir, "_hardfc");
    snprintf(cmd, sizeof cmd, "%s/tools/gen_hard_fc.sh --quick %s/.. %s 2>/dev/null", NS_SOURCE_DIR, NS_BIN_DIR, g_dir);
    assert_int_equal(run(cmd), 0);
    char path[1024], line[1024];
    snprintf(path, sizeof path, "%s/index.csv", g_dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "collection,file,scene,n,step,contacts\n");
    int seen[5] = { 0 }, rows = 0;
    const char *names[5] = { "pile_n60", "pyramid_L3", "column_n5", "chute_n60", "box_n20" };
    while (fgets(line, sizeof line, f)) {
        char coll[64], file[256], scene[32];
        long n, step, contacts;
        assert_int_equal(sscanf(line, "%63[^,],%255[^,],%31[^,],%ld,%ld,%ld", coll, file, scene, &n, &step, &contacts), 6);
        for (int i = 0; i < 5; i++) if (!strcmp(coll, names[i])) seen[i]++;
        if (!strcmp(scene, "column")) assert_int_equal(contacts, n);   /* n − 1 pairs and the floor */
        check_file(coll, file, step, contacts);
        rows++;
    }
    fclose(f);
    for (int i = 0; i < 5; i++) assert_true(seen[i] >= 1);
    print_message("%d problems in 5 collections\n", rows);
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    (void)run(cmd);
}

/* --quick --global: the global collections' small subset (the box scene,
 * a pyramid, a column, simulated with --global). Every listed file is a
 * GFC3D problem (M, H, q, b, μ) with the index's contact count; nsolve's
 * default (tol 1e-9) solves it, and its (v, r) is checked here: M v = H r + q
 * to 1e-9 of ‖q‖ and the FC3D error of (u = Hᵀ v + b, r), De Saxcé's û and
 * the projection on each cone, ≤ 1e-8 relative to max(‖b‖, ‖r‖, ‖u‖). */
static void test_quick_global(void **state)
{
    (void)state;
    char dir[512], cmd[4096], line[1024];
    ns_test_tmpname(dir, sizeof dir, "_hardgfc");
    snprintf(cmd, sizeof cmd, "%s/tools/gen_hard_fc.sh --quick --global %s/.. %s 2>/dev/null", NS_SOURCE_DIR, NS_BIN_DIR, dir);
    assert_int_equal(run(cmd), 0);
    snprintf(line, sizeof line, "%s/index.csv", dir);
    FILE *f = fopen(line, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    const char *names[3] = { "gfc_box_n20", "gfc_pyramid_L3", "gfc_column_n5" };
    int seen[3] = { 0 }, rows = 0;
    while (fgets(line, sizeof line, f)) {
        char coll[64], file[256], scene[32], path[1024], sol_path[1024];
        long n, step, contacts;
        assert_int_equal(sscanf(line, "%63[^,],%255[^,],%31[^,],%ld,%ld,%ld", coll, file, scene, &n, &step, &contacts), 6);
        for (int i = 0; i < 3; i++) if (!strcmp(coll, names[i])) seen[i]++;
        snprintf(path, sizeof path, "%s/%s", dir, file);
        snprintf(sol_path, sizeof sol_path, "%s/sol.txt", dir);
        snprintf(cmd, sizeof cmd, "%s/nsolve --tol 1e-9 -o %s %s >/dev/null", NS_BIN_DIR, sol_path, path);
        assert_int_equal(run(cmd), 0);
        ns_problem *p = NULL;
        char err[NS_ERRMSG_LEN] = "";
        assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &p, err), NS_OK);
        assert_int_equal(p->kind, NS_KIND_GFC3D);
        const ns_gfc *G = p->u.gfc;
        assert_int_equal(G->nc, contacts);
        ns_solution *sol = ns_solution_new(p);
        assert_non_null(sol);
        assert_int_equal(ns_solution_read(sol_path, sol, err), NS_OK);
        const double *v = sol->vec[0], *r = sol->vec[2];   /* v, u, r */
        assert_int_equal(sol->len[0], G->n);
        assert_int_equal(sol->len[2], 3 * G->nc);
        ns_matrix *M = ns_matrix_to_dense(G->M), *H = ns_matrix_to_dense(G->H);
        assert_true(M && H);
        ns_int nd = G->n, m = 3 * G->nc;
        double res = 0, qn = 0;
        for (ns_int i = 0; i < nd; i++) {
            double t = -G->q[i];
            for (ns_int k = 0; k < nd; k++) t += M->dense[i + (size_t)k * nd] * v[k];
            for (ns_int k = 0; k < m; k++) t -= H->dense[i + (size_t)k * nd] * r[k];
            res += t * t; qn += G->q[i] * G->q[i];
        }
        assert_true(sqrt(res) <= 1e-9 * sqrt(qn));
        double e2 = 0, b2 = 0, r2 = 0, u2 = 0;
        int pressing = 0;
        for (ns_int a = 0; a < G->nc; a++) {
            double u[3];
            for (int i = 0; i < 3; i++) {
                ns_int row = 3 * a + i;
                u[i] = G->b[row];
                for (ns_int k = 0; k < nd; k++) u[i] += H->dense[k + (size_t)row * nd] * v[k];
            }
            const double *ra = r + 3 * a;
            double mu = G->mu[a];
            e2 += nat_sq(ra, u, mu);
            for (int i = 0; i < 3; i++) {
                b2 += G->b[3 * a + i] * G->b[3 * a + i];
                r2 += ra[i] * ra[i];
                u2 += u[i] * u[i];
            }
            if (ra[0] > 0) pressing++;
        }
        double e = sqrt(e2) / sqrt(fmax(b2, fmax(r2, u2)));
        print_message("%s: %ld contacts (%d pressing), %ld dof: |Mv - Hr - q| / |q| %.2g, FC error %.3g recomputed here\n",
                      file, (long)G->nc, pressing, (long)nd, sqrt(res / qn), e);
        assert_true(e <= 1e-8);
        assert_true(pressing > 0);
        ns_matrix_free(M); ns_matrix_free(H);
        ns_solution_free(sol);
        ns_problem_free(p);
        rows++;
    }
    fclose(f);
    for (int i = 0; i < 3; i++) assert_true(seen[i] >= 1);
    print_message("%d GFC3D problems in 3 collections\n", rows);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    (void)run(cmd);
}

static void test_bad_command_lines(void **state)
{
    (void)state;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/tools/gen_hard_fc.sh --quick 2>/dev/null", NS_SOURCE_DIR);
    assert_int_equal(run(cmd), 2);
    snprintf(cmd, sizeof cmd, "%s/tools/gen_hard_fc.sh --bogus a b 2>/dev/null", NS_SOURCE_DIR);
    assert_int_equal(run(cmd), 2);
    snprintf(cmd, sizeof cmd, "%s/tools/gen_hard_fc.sh --quick /nonexistent /tmp/x 2>/dev/null", NS_SOURCE_DIR);
    assert_int_equal(run(cmd), 2);
    /* a --collect spec with too few words, or a count that is not a positive integer */
    char dir[512];
    ns_test_tmpname(dir, sizeof dir, "_hardfc_bad");
    snprintf(cmd, sizeof cmd, "%s/tools/gen_hard_fc.sh --collect 'x pile 10' %s/.. %s 2>/dev/null",
             NS_SOURCE_DIR, NS_BIN_DIR, dir);
    assert_int_equal(run(cmd), 2);
    snprintf(cmd, sizeof cmd, "%s/tools/gen_hard_fc.sh --collect 'x pile ten 10 1 0 10' %s/.. %s 2>/dev/null",
             NS_SOURCE_DIR, NS_BIN_DIR, dir);
    assert_int_equal(run(cmd), 2);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(run(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quick_collections),
        cmocka_unit_test(test_quick_global),
        cmocka_unit_test(test_bad_command_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
