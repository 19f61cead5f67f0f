/* test_collection_avi.c — every AVI file of data/ (MANIFEST.tsv rows of
 * kind avi, the layout of docs/formats-extensions.md §1) is detected as an
 * AVI with its set, written back bit for bit, and solved by the default
 * AVI solver; the answer is checked here with the test's own arithmetic,
 * not the library's error function:
 *  - box K = [lb, ub]: z ∈ K and, with F = M z + q, F_i = 0 where
 *    lb_i < z_i < ub_i, F_i ≥ 0 at lb_i, F_i ≤ 0 at ub_i;
 *  - polyhedron K = {z : H z ≤ h}: z ∈ K and multipliers λ ≥ 0 on the
 *    active rows with F + H_Aᵀ λ = 0 (the KKT conditions, sufficient for
 *    the VI on a polyhedron), λ from the normal equations of the active
 *    rows (generic data: at most n active rows, independent).
 * nsbench runs the same files (detected as avi) and solves them all. */
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
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

#define TOL 1e-10

static double at(const ns_matrix *D, ns_int i, ns_int j)
{
    return D->dense[i + (size_t)j * (size_t)D->rows];
}

/* Solves the k×k system A x = b (row-major, overwritten) by Gaussian
 * elimination with partial pivoting; 0 if singular. */
static int gauss(int k, double *A, double *b, double *x)
{
    for (int c = 0; c < k; c++) {
        int p = c;
        for (int r = c + 1; r < k; r++) if (fabs(A[r * k + c]) > fabs(A[p * k + c])) p = r;
        if (fabs(A[p * k + c]) < 1e-14) return 0;
        for (int j = 0; j < k; j++) { double t = A[c * k + j]; A[c * k + j] = A[p * k + j]; A[p * k + j] = t; }
        double t = b[c]; b[c] = b[p]; b[p] = t;
        for (int r = c + 1; r < k; r++) {
            double f = A[r * k + c] / A[c * k + c];
            for (int j = c; j < k; j++) A[r * k + j] -= f * A[c * k + j];
            b[r] -= f * b[c];
        }
    }
    for (int c = k - 1; c >= 0; c--) {
        double s = b[c];
        for (int j = c + 1; j < k; j++) s -= A[c * k + j] * x[j];
        x[c] = s / A[c * k + c];
    }
    return 1;
}

static char why[512];
#define BAD(...) do { snprintf(why, sizeof why, __VA_ARGS__); ok = 0; goto out; } while (0)

/* The VI conditions at z (see the file comment): 1 if they hold, else 0
 * with the reason in why. */
static int vi_holds(const char *name, const ns_avi *a, const double *z)
{
    int ok = 1;
    ns_matrix *H = NULL;
    int *act = NULL;
    double *A = NULL, *b = NULL, *lam = NULL;
    ns_int n = a->n;
    ns_matrix *M = ns_matrix_to_dense(a->M);
    assert_non_null(M);
    double *F = malloc((size_t)n * sizeof *F), scale = 1.0;
    assert_non_null(F);
    for (ns_int i = 0; i < n; i++) {
        long double s = a->q[i];
        for (ns_int j = 0; j < n; j++) s += (long double)at(M, i, j) * z[j];
        F[i] = (double)s;
        scale = fmax(scale, fabs(a->q[i]));
    }
    ns_matrix_free(M);
    if (!a->H) {
        if (!a->lb) BAD("%s: no set", name);
        for (ns_int i = 0; i < n; i++) {
            double lo = a->lb[i], hi = a->ub[i];
            if (z[i] < lo - TOL * (1 + fabs(lo)) || z[i] > hi + TOL * (1 + fabs(hi)))
                BAD("%s: z[%d] = %g outside [%g, %g]", name, i, z[i], lo, hi);
            int at_lo = fabs(z[i] - lo) <= TOL * (1 + fabs(lo));
            int at_hi = fabs(z[i] - hi) <= TOL * (1 + fabs(hi));
            if ((!at_lo && !at_hi && fabs(F[i]) > TOL * scale) ||
                (at_lo && !at_hi && F[i] < -TOL * scale) ||
                (at_hi && !at_lo && F[i] > TOL * scale))
                BAD("%s: F[%d] = %g at z = %g in [%g, %g]", name, i, F[i], z[i], lo, hi);
        }
        goto out;
    }
    H = ns_matrix_to_dense(a->H);
    assert_non_null(H);
    ns_int nh = H->rows;
    act = malloc((size_t)nh * sizeof *act);
    int na = 0;
    assert_non_null(act);
    for (ns_int r = 0; r < nh; r++) {
        long double s = 0;
        double hs = fabs(a->h[r]);
        for (ns_int j = 0; j < n; j++) {
            s += (long double)at(H, r, j) * z[j];
            hs = fmax(hs, fabs(at(H, r, j) * z[j]));
        }
        double slack = a->h[r] - (double)s;
        if (slack < -TOL * (1 + hs)) BAD("%s: row %d of H z <= h violated by %g", name, r, -slack);
        if (slack <= 1e-9 * (1 + hs)) act[na++] = (int)r;
    }
    if (na > n) BAD("%s: %d active rows for n = %d (degenerate; not checked)", name, na, n);
    /* normal equations (H_A H_Aᵀ) λ = −H_A F */
    A = calloc((size_t)(na ? na * na : 1), sizeof *A);
    b = calloc((size_t)(na ? na : 1), sizeof *b);
    lam = calloc((size_t)(na ? na : 1), sizeof *lam);
    assert_true(A && b && lam);
    for (int r = 0; r < na; r++) {
        for (int c = 0; c < na; c++)
            for (ns_int j = 0; j < n; j++) A[r * na + c] += at(H, act[r], j) * at(H, act[c], j);
        for (ns_int j = 0; j < n; j++) b[r] -= at(H, act[r], j) * F[j];
    }
    if (na > 0 && !gauss(na, A, b, lam)) BAD("%s: active rows dependent", name);
    for (int r = 0; r < na; r++)
        if (lam[r] < -1e-9 * scale) BAD("%s: multiplier of row %d is %g < 0", name, act[r], lam[r]);
    for (ns_int j = 0; j < n; j++) {
        long double s = F[j];
        for (int r = 0; r < na; r++) s += (long double)at(H, act[r], j) * lam[r];
        if (fabsl(s) > 1e-9 * scale)
            BAD("%s: stationarity F + H_A' lambda = %Lg at %d", name, s, j);
    }
out:
    free(A); free(b); free(lam); free(act); free(F);
    ns_matrix_free(H);
    return ok;
}

static void solve_one(const char *rel)
{
    char path[1024], err[NS_ERRMSG_LEN], tmp[512];
    snprintf(path, sizeof path, "%s/data/%s", NS_SOURCE_DIR, rel);
    ns_problem *p = NULL;
    if (ns_problem_read(path, NS_KIND_NONE, &p, err) != NS_OK) fail_msg("%s", err);
    assert_int_equal(p->kind, NS_KIND_AVI);
    const ns_avi *a = p->u.avi;
    assert_true(a->H || a->lb);   /* the set came with the file */
    /* written back and read again: the same bytes */
    ns_test_tmpname(tmp, sizeof tmp, ".dat");
    assert_int_equal(ns_problem_write(tmp, p, NS_FORMAT_DAT, err), NS_OK);
    ns_problem *p2 = NULL;
    if (ns_problem_read(tmp, NS_KIND_NONE, &p2, err) != NS_OK) fail_msg("%s", err);
    assert_int_equal(p2->kind, NS_KIND_AVI);
    assert_memory_equal(p2->u.avi->q, a->q, (size_t)a->n * sizeof(double));
    if (a->H) assert_memory_equal(p2->u.avi->h, a->h, (size_t)a->H->rows * sizeof(double));
    else {
        assert_memory_equal(p2->u.avi->lb, a->lb, (size_t)a->n * sizeof(double));
        assert_memory_equal(p2->u.avi->ub, a->ub, (size_t)a->n * sizeof(double));
    }
    ns_problem_free(p2);
    remove(tmp);

    ns_solution *s = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = TOL;
    ns_result res;
    ns_status st = ns_solve(p, NULL, &o, s, &res);
    if (st != NS_CONVERGED) fail_msg("%s: %s (%s)", rel, ns_status_name(st), res.message);
    if (!vi_holds(rel, a, s->vec[0])) fail_msg("%s", why);
    if (strstr(rel, "lineality")) {   /* z = (-1, 2) by hand */
        assert_true(fabs(s->vec[0][0] + 1.0) <= 1e-12 && fabs(s->vec[0][1] - 2.0) <= 1e-12);
    }
    ns_result_clear(&res);
    ns_solution_free(s);
    ns_problem_free(p);
}

static void test_avi_collection(void **state)
{
    (void)state;
    char path[1024], line[4096];
    snprintf(path, sizeof path, "%s/data/MANIFEST.tsv", NS_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        char rel[512], kind[64];
        if (sscanf(line, "%511[^\t]\t%63[^\t]", rel, kind) != 2 || strcmp(kind, "avi")) continue;
        solve_one(rel);
        count++;
    }
    fclose(f);
    assert_true(count >= 5);
}

/* The check accepts the hand solution of the lineality case and rejects
 * wrong answers: inside K (F ≠ 0), on the boundary with a negative
 * multiplier, outside K; and for a box, a point at the wrong bound. */
static void test_check_can_fail(void **state)
{
    (void)state;
    ns_matrix *M = ns_matrix_dense_new(2, 2), *H = ns_matrix_dense_new(1, 2);
    M->dense[0] = 1.0;
    H->dense[0] = H->dense[1] = 1.0;
    double q[2] = { 0, -1 }, h[1] = { 1 };
    ns_avi *a = ns_avi_new(M, q);
    assert_int_equal(ns_avi_set_polyhedron(a, H, h), NS_OK);
    double right[2] = { -1, 2 }, inside[2] = { 0, 0 }, wrongside[2] = { 1, 0 }, out[2] = { 1, 1 };
    assert_true(vi_holds("right", a, right));
    assert_false(vi_holds("inside", a, inside));
    assert_false(vi_holds("wrongside", a, wrongside));
    assert_false(vi_holds("out", a, out));
    ns_avi_free(a);
    /* box [0, 1]^2, M = I, q = (-2, 0.5): z = (1, 0) */
    ns_matrix *I = ns_matrix_dense_new(2, 2);
    I->dense[0] = I->dense[3] = 1.0;
    double qb[2] = { -2, 0.5 }, lb[2] = { 0, 0 }, ub[2] = { 1, 1 };
    a = ns_avi_new(I, qb);
    assert_int_equal(ns_avi_set_box(a, lb, ub), NS_OK);
    double zb[2] = { 1, 0 }, zbad[2] = { 0, 0 }, zmid[2] = { 1, 0.5 };
    assert_true(vi_holds("box", a, zb));
    assert_false(vi_holds("box at lb", a, zbad));
    assert_false(vi_holds("box inside", a, zmid));
    ns_avi_free(a);
}

/* nsbench runs the AVI collection like every other kind: one converged
 * row per file, kind detected as avi. */
static void test_nsbench_runs_avi_files(void **state)
{
    (void)state;
    char csv[512], cmd[4096], line[1024];
    ns_test_tmpname(csv, sizeof csv, ".csv");
    snprintf(cmd, sizeof cmd, "%s/nsbench --kind avi --out %s %s/data > /dev/null 2>&1",
             NS_BIN_DIR, csv, NS_SOURCE_DIR);
    int st = system(cmd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    FILE *f = fopen(csv, "r");
    assert_non_null(f);
    int rows = 0, converged = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strstr(line, "/avi/")) continue;
        rows++;
        if (strstr(line, ",avi,") && strstr(line, ",converged,")) converged++;
    }
    fclose(f);
    remove(csv);
    assert_true(rows >= 5);
    assert_int_equal(converged, rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_can_fail),
        cmocka_unit_test(test_avi_collection),
        cmocka_unit_test(test_nsbench_runs_avi_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
