/* test_io_fclib_solution.c — FCLIB /solution and /guesses:
 *  - a solution written by ns_fclib_write_solution (and by nsolve --output
 *    FILE.hdf5) is read back by libfclib's own fclib_read_solution with the
 *    same vectors bit for bit, and libfclib reads the problem too;
 *  - guesses written by libfclib's fclib_write_guesses are read by
 *    ns_fclib_read_solution / ns_solution_read bit for bit;
 *  - nsolve --guess warm-starts from an FCLIB guess and from its own
 *    --output text file (the exact solution as a start: 0 iterations);
 *  - bad files and bad requests are refused with a message naming the
 *    dataset (lengths, NaN, guess out of range, non-friction kinds). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <hdf5.h>
#include <fclib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

static void expect_msg(ns_status st, ns_status want, const char *err, const char *word)
{
    if (st != want) fail_msg("status %d, expected %d (%s)", (int)st, (int)want, err);
    if (!strstr(err, word)) fail_msg("message '%s' does not name '%s'", err, word);
}

/* Two 3D contacts: W = 2 I + a coupling, q pushing both into contact. */
static ns_problem *local_problem(void)
{
    ns_matrix *W = ns_matrix_dense_new(6, 6);
    assert_non_null(W);
    for (int i = 0; i < 6; i++) W->dense[i * 7] = 2.0 + 0.1 * i;
    W->dense[0 + 3 * 6] = W->dense[3 + 0 * 6] = 0.5;   /* the two normals coupled */
    const double q[6] = { -1, 0.3, -0.2, -0.5, 0.1, 0.05 }, mu[2] = { 0.5, 0.3 };
    ns_fc *fc = ns_fc_new(3, 2, W, q, mu);
    assert_non_null(fc);
    ns_problem *p = ns_problem_from_fc(fc);
    assert_non_null(p);
    return p;
}

/* Two bodies of 3 dofs (masses 1 and 2), one contact between them (the
 * example of formats §3.6). */
static ns_problem *global_problem(void)
{
    ns_matrix *M = ns_matrix_dense_new(6, 6), *H = ns_matrix_dense_new(6, 3);
    assert_true(M && H);
    for (int i = 0; i < 6; i++) M->dense[i * 7] = i < 3 ? 1.0 : 2.0;
    for (int j = 0; j < 3; j++) {
        H->dense[j + j * 6] = 1.0;
        H->dense[3 + j + j * 6] = -1.0;
    }
    const double q[6] = { -0.1, 0.02, 0, 0, 0, 0 }, b[3] = { 0, 0, 0 }, mu[1] = { 0.5 };
    ns_gfc *g = ns_gfc_new(3, 1, M, H, q, b, mu);
    assert_non_null(g);
    ns_problem *p = ns_problem_from_gfc(g);
    assert_non_null(p);
    return p;
}

static ns_solution *solved(const ns_problem *p)
{
    ns_solution *s = ns_solution_new(p);
    assert_non_null(s);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-12;
    ns_result res;
    ns_status st = ns_solve(p, NULL, &o, s, &res);
    if (st != NS_CONVERGED) fail_msg("%s: %s", ns_status_name(st), res.message);
    ns_result_clear(&res);
    return s;
}

static void same(const double *a, const double *b, ns_int n, const char *what)
{
    if (n > 0 && (!a || !b)) fail_msg("%s: missing", what);
    if (n > 0 && memcmp(a, b, (size_t)n * sizeof(double)) != 0) fail_msg("%s differs", what);
}

static void test_solution_read_by_libfclib(void **state)
{
    (void)state;
    for (int global = 0; global < 2; global++) {
        ns_problem *p = global ? global_problem() : local_problem();
        ns_solution *s = solved(p);
        char path[512], err[NS_ERRMSG_LEN] = "";
        ns_test_tmpname(path, sizeof path, ".hdf5");
        if (ns_fclib_write_solution(path, p, s, err)) fail_msg("%s", err);
        struct fclib_solution *f = fclib_read_solution(path);
        assert_non_null(f);
        same(f->u, ns_solution_get(s, "u"), s->len[1], "u");
        same(f->r, ns_solution_get(s, "r"), s->len[global ? 2 : 0], "r");
        if (global) same(f->v, ns_solution_get(s, "v"), s->len[0], "v");
        else assert_null(f->v);
        assert_null(f->l);
        fclib_delete_solutions(f, 1);
        /* libfclib reads the problem of that file, and so do we */
        if (global) {
            struct fclib_global *G = fclib_read_global(path);
            assert_non_null(G);
            assert_int_equal(G->H->n, 3);
            fclib_delete_global(G);
            free(G);
        } else {
            struct fclib_local *L = fclib_read_local(path);
            assert_non_null(L);
            assert_int_equal(L->W->m, 6);
            fclib_delete_local(L);
            free(L);
        }
        ns_problem *p2 = NULL;
        if (ns_problem_read(path, NS_KIND_NONE, &p2, err)) fail_msg("%s", err);
        assert_int_equal(p2->kind, p->kind);
        /* and our reader gives the same solution back */
        ns_solution *s2 = ns_solution_new(p2);
        int count = -1;
        assert_int_equal(ns_fclib_guess_count(path, &count, err), NS_OK);
        assert_int_equal(count, 0);
        if (ns_solution_read(path, s2, err)) fail_msg("%s", err);
        for (int k = 0; k < s->nvec; k++) same(s2->vec[k], s->vec[k], s->len[k], s->name[k]);
        ns_solution_free(s2);
        ns_problem_free(p2);
        remove(path);
        ns_solution_free(s);
        ns_problem_free(p);
    }
}

static void test_guesses_written_by_libfclib(void **state)
{
    (void)state;
    ns_problem *p = global_problem();
    char path[512], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(path, sizeof path, ".hdf5");
    assert_int_equal(ns_problem_write(path, p, NS_FORMAT_FCLIB, err), NS_OK);
    /* two guesses with values that need all 17 digits */
    double v[2][6], u[2][3], r[2][3];
    for (int g = 0; g < 2; g++) {
        for (int i = 0; i < 6; i++) v[g][i] = (g + 1) / 3.0 + i * 1e-17 - 1e-300 * i;
        for (int i = 0; i < 3; i++) { u[g][i] = -(g + 1) * 3.14159265358979312 / (i + 7); r[g][i] = 0.1 * (g + i); }
    }
    struct fclib_solution gs[2];
    memset(gs, 0, sizeof gs);
    for (int g = 0; g < 2; g++) { gs[g].v = v[g]; gs[g].u = u[g]; gs[g].r = r[g]; }
    assert_int_equal(fclib_write_guesses(2, gs, path), 1);
    int count = 0;
    assert_int_equal(ns_fclib_guess_count(path, &count, err), NS_OK);
    assert_int_equal(count, 2);
    ns_solution *s = ns_solution_new(p);
    for (int g = 1; g <= 2; g++) {
        if (ns_fclib_read_solution(path, g, s, err)) fail_msg("%s", err);
        same(ns_solution_get(s, "v"), v[g - 1], 6, "v");
        same(ns_solution_get(s, "u"), u[g - 1], 3, "u");
        same(ns_solution_get(s, "r"), r[g - 1], 3, "r");
    }
    /* ns_solution_read takes the first guess */
    memset(s->vec[0], 0, 6 * sizeof(double));
    if (ns_solution_read(path, s, err)) fail_msg("%s", err);
    same(ns_solution_get(s, "v"), v[0], 6, "v");
    /* guess 3 does not exist, and the file has no /solution */
    expect_msg(ns_fclib_read_solution(path, 3, s, err), NS_BAD_INPUT, err, "guess 3");
    expect_msg(ns_fclib_read_solution(path, 0, s, err), NS_BAD_INPUT, err, "/solution");
    same(ns_solution_get(s, "v"), v[0], 6, "v unchanged on failure");
    ns_solution_free(s);

    /* a solution of another size (the local problem) is refused by name */
    ns_problem *pl = local_problem();
    ns_solution *sl = ns_solution_new(pl);
    expect_msg(ns_fclib_read_solution(path, 1, sl, err), NS_BAD_INPUT, err, "/guesses/1/r");
    ns_solution_free(sl);
    ns_problem_free(pl);
    remove(path);
    ns_problem_free(p);
}

static void test_bad_solutions_refused(void **state)
{
    (void)state;
    ns_problem *p = local_problem();
    ns_solution *s = solved(p);
    char path[512], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(path, sizeof path, ".hdf5");
    /* NaN in a stored r: refused naming the dataset and index */
    assert_int_equal(ns_fclib_write_solution(path, p, s, err), NS_OK);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t ds = H5Dopen2(f, "/solution/r", H5P_DEFAULT);
    double bad[6];
    memcpy(bad, s->vec[0], sizeof bad);
    bad[4] = NAN;
    assert_true(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, bad) >= 0);
    H5Dclose(ds);
    H5Fclose(f);
    ns_solution *s2 = ns_solution_new(p);
    expect_msg(ns_solution_read(path, s2, err), NS_BAD_INPUT, err, "/solution/r[4]");
    /* writing a NaN solution, or a solution of a non-friction kind */
    s->vec[1][2] = INFINITY;
    expect_msg(ns_fclib_write_solution(path, p, s, err), NS_BAD_INPUT, err, "u[2]");
    ns_matrix *M = ns_matrix_dense_new(1, 1);
    M->dense[0] = 1;
    double q[1] = { -1 };
    ns_problem *lcp = ns_problem_from_lcp(ns_lcp_new(M, q));
    ns_solution *sz = ns_solution_new(lcp);
    expect_msg(ns_fclib_write_solution(path, lcp, sz, err), NS_UNSUPPORTED, err,
               "friction-contact");
    expect_msg(ns_fclib_read_solution(path, 0, sz, err), NS_UNSUPPORTED, err, "lcp");
    /* a text solution file with a wrong vector */
    char txt[512];
    ns_test_tmpname(txt, sizeof txt, ".sol");
    assert_int_equal(ns_test_write_file(txt, "# z 1\n0.5\n# q 1\n0\n"), 0);
    expect_msg(ns_solution_read(txt, sz, err), NS_BAD_INPUT, err, ":3: vector 1 header");
    assert_int_equal(ns_test_write_file(txt, "# z 2\n0.5\n1\n# w 1\n0\n"), 0);
    expect_msg(ns_solution_read(txt, sz, err), NS_BAD_INPUT, err, "2 values, the problem needs 1");
    assert_int_equal(ns_test_write_file(txt, "# z 1\nnan\n# w 1\n0\n"), 0);
    expect_msg(ns_solution_read(txt, sz, err), NS_BAD_INPUT, err, "z[0]: value 'nan'");
    assert_int_equal(ns_test_write_file(txt, "# z 1\n0.25\n# w 1\n-0.75\n"), 0);
    assert_int_equal(ns_solution_read(txt, sz, err), NS_OK);
    assert_true(sz->vec[0][0] == 0.25 && sz->vec[1][0] == -0.75);
    /* later sections (a certificate) are ignored, other content is not */
    assert_int_equal(ns_test_write_file(txt, "# z 1\n0.5\n# w 1\n-0.5\n# certificate 1\n1\n"), 0);
    assert_int_equal(ns_solution_read(txt, sz, err), NS_OK);
    assert_true(sz->vec[0][0] == 0.5 && sz->vec[1][0] == -0.5);
    assert_int_equal(ns_test_write_file(txt, "# z 1\n0.5\n# w 1\n-0.5\n7\n"), 0);
    expect_msg(ns_solution_read(txt, sz, err), NS_BAD_INPUT, err, "unexpected content");
    remove(txt);
    ns_solution_free(sz);
    ns_problem_free(lcp);
    ns_solution_free(s2);
    ns_solution_free(s);
    ns_problem_free(p);
    remove(path);
}

/* The collection's FCLIB files: whatever /solution and /guesses they hold
 * is read by us exactly as libfclib reads it (on a copy: libfclib opens a
 * file read-write to read its guesses). */
static void test_collection_files_agree_with_libfclib(void **state)
{
    (void)state;
    const char *files[] = { "fclib/local/Capsules-i125-1213.hdf5",
                            "fclib/local/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5",
                            "fclib/global/Box_Stacks-i0122-82-5.hdf5",
                            "fclib/global/CubeH8.hdf5",
                            "fclib/global/Spheres-i099-356-679.hdf5",
                            "fclib/global/LMGC_GlobalFrictionContactProblem00046.hdf5",
                            "fclib/global/spheres-in-a-box-98-i10000-256-10.hdf5" };
    int compared = 0;
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        char src[1024], copy[512], cmd[4096], err[NS_ERRMSG_LEN] = "";
        ns_test_data_path(src, sizeof src, files[k]);
        FILE *t = fopen(src, "rb");
        if (!t) continue;   /* no shared data here */
        fclose(t);
        ns_test_tmpname(copy, sizeof copy, ".hdf5");
        snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod u+w '%s'", src, copy, copy);
        assert_int_equal(system(cmd), 0);
        ns_problem *p = NULL;
        if (ns_problem_read(copy, NS_KIND_NONE, &p, err)) fail_msg("%s", err);
        ns_solution *s = ns_solution_new(p);
        hid_t f = H5Fopen(copy, H5F_ACC_RDONLY, H5P_DEFAULT);
        int has_sol = H5Lexists(f, "/solution", H5P_DEFAULT) > 0;
        H5Fclose(f);
        int ng = 0;
        assert_int_equal(ns_fclib_guess_count(copy, &ng, err), NS_OK);
        if (has_sol) {
            struct fclib_solution *fs = fclib_read_solution(copy);
            assert_non_null(fs);
            if (ns_fclib_read_solution(copy, 0, s, err)) fail_msg("%s", err);
            same(ns_solution_get(s, "u"), fs->u, s->len[1], "u");
            same(ns_solution_get(s, "r"), fs->r, s->nvec == 3 ? s->len[2] : s->len[0], "r");
            if (s->nvec == 3) same(ns_solution_get(s, "v"), fs->v, s->len[0], "v");
            fclib_delete_solutions(fs, 1);
            compared++;
        }
        if (ng > 0) {
            int n2 = 0;
            struct fclib_solution *gs = fclib_read_guesses(copy, &n2);
            assert_non_null(gs);
            assert_int_equal(n2, ng);
            for (int g = 1; g <= ng; g++) {
                if (ns_fclib_read_solution(copy, g, s, err)) fail_msg("%s", err);
                same(ns_solution_get(s, "u"), gs[g - 1].u, s->len[1], "guess u");
                if (s->nvec == 3) same(ns_solution_get(s, "v"), gs[g - 1].v, s->len[0], "guess v");
            }
            fclib_delete_solutions(gs, n2);
            compared++;
        }
        ns_solution_free(s);
        ns_problem_free(p);
        remove(copy);
    }
    if (compared == 0) skip();
}

/* ---------------------------------------------------------------- nsolve */

static char out_path[512], err_path[512];

static int run(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s/nsolve %s >%s 2>%s", NS_BIN_DIR, args, out_path, err_path);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int file_has(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strstr(buf, needle) != NULL;
}

static void test_nsolve_output_and_guess(void **state)
{
    (void)state;
    ns_problem *p = local_problem();
    char dat[512], h5[512], txt[512], args[2048], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(dat, sizeof dat, ".dat");
    ns_test_tmpname(h5, sizeof h5, ".hdf5");
    ns_test_tmpname(txt, sizeof txt, ".sol");
    assert_int_equal(ns_problem_write(dat, p, NS_FORMAT_DAT, err), NS_OK);
    /* --output FILE.hdf5 and --output text, same run settings */
    snprintf(args, sizeof args, "--tol 1e-12 --output %s %s", h5, dat);
    assert_int_equal(run(args), 0);
    snprintf(args, sizeof args, "--tol 1e-12 --output %s %s", txt, dat);
    assert_int_equal(run(args), 0);
    struct fclib_solution *f = fclib_read_solution(h5);
    assert_non_null(f);
    ns_solution *s = ns_solution_new(p);
    if (ns_solution_read(txt, s, err)) fail_msg("%s", err);   /* %.17g: exact */
    same(f->r, ns_solution_get(s, "r"), 6, "r (nsolve hdf5 vs text)");
    same(f->u, ns_solution_get(s, "u"), 6, "u (nsolve hdf5 vs text)");
    fclib_delete_solutions(f, 1);
    ns_solution_free(s);
    /* warm starts from the solution: nothing left to do */
    snprintf(args, sizeof args, "--json --tol 1e-12 --guess %s %s", h5, dat);
    assert_int_equal(run(args), 0);
    assert_true(file_has(out_path, "\"iterations\": 0"));
    snprintf(args, sizeof args, "--json --tol 1e-12 --guess %s %s", txt, dat);
    assert_int_equal(run(args), 0);
    assert_true(file_has(out_path, "\"iterations\": 0"));
    /* the hdf5 written is itself a problem file nsolve reads */
    snprintf(args, sizeof args, "--check %s", h5);
    assert_int_equal(run(args), 0);
    /* a guess for another problem: exit 2, one line naming the guess file */
    ns_problem *g = global_problem();
    char other[512];
    ns_test_tmpname(other, sizeof other, ".hdf5");
    ns_solution *sg = solved(g);
    assert_int_equal(ns_fclib_write_solution(other, g, sg, err), NS_OK);
    snprintf(args, sizeof args, "--guess %s %s", other, dat);
    assert_int_equal(run(args), 2);
    assert_true(file_has(err_path, "--guess: "));
    assert_true(file_has(err_path, other));
    /* FCLIB output for an LCP: refused, exit 2 */
    const char *lcp = "2\n0\n2\n2\n2\t2\n2 0\n1 3\n-1 -2\n";
    char lcpf[512];
    ns_test_tmpname(lcpf, sizeof lcpf, ".dat");
    assert_int_equal(ns_test_write_file(lcpf, lcp), 0);
    snprintf(args, sizeof args, "--output %s %s", other, lcpf);
    assert_int_equal(run(args), 2);
    assert_true(file_has(err_path, "friction-contact"));
    ns_solution_free(sg);
    ns_problem_free(g);
    remove(other); remove(lcpf); remove(dat); remove(h5); remove(txt);
    ns_problem_free(p);
}

int main(void)
{
    ns_test_tmpname(out_path, sizeof out_path, ".out");
    ns_test_tmpname(err_path, sizeof err_path, ".err");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solution_read_by_libfclib),
        cmocka_unit_test(test_guesses_written_by_libfclib),
        cmocka_unit_test(test_bad_solutions_refused),
        cmocka_unit_test(test_collection_files_agree_with_libfclib),
        cmocka_unit_test(test_nsolve_output_and_guess),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    remove(out_path);
    remove(err_path);
    return rc;
}
