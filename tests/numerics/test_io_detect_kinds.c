/* test_io_detect_kinds.c — the content detection of .dat files tells the
 * second-order cone LCP and the 2D rolling friction layouts from the
 * others:
 *
 * - SOCLCP (n nc W q starts mu): files our writer wrote (random sizes and
 *   cone dimensions 1 to 4, dense and sparse-block W) and a file in the
 *   layout Siconos' printInFile writes are detected as soclcp and hold
 *   exactly what reading them as soclcp gives; a file whose cone starts do
 *   not end at n, or with a number too many after mu, is not taken for an
 *   SOCLCP; NaN in mu is reported as an SOCLCP error naming mu.
 * - RFC2D (3 nc W q mu mu_r): written files (nc = 1 with μr = 1, a value
 *   that prints as a whole number, and nc = 7) are detected as rfc2d; an
 *   FC3D text followed by nc numbers is rfc2d, by a lone 0 or 1 (the flag
 *   Siconos' FC3D files end with) it stays fc3d, and so does the shared
 *   Rover11035.dat, an FC3D file of one contact ending with such a flag.
 * - Every .dat of ../shared/data's problem directories is still detected
 *   as the kind its directory names. */
#define _POSIX_C_SOURCE 200809L
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
#include <unistd.h>
#include "ns_test.h"
#include "nonsmooth/nonsmooth.h"

static ns_problem *read_buf(const char *text, ns_kind kind, ns_status want, char *err)
{
    ns_problem *p = NULL;
    ns_status st = ns_problem_read_dat_buffer(text, strlen(text), "t.dat", kind, &p, err);
    if (st != want) print_message("status %d, want %d: %s\n", (int)st, (int)want, st ? err : "");
    assert_int_equal(st, want);
    return p;
}

/* Writes p to a file and reads it back, detected. */
static ns_problem *round_trip(const ns_problem *p)
{
    char path[512], err[NS_ERRMSG_LEN];
    ns_test_tmpname(path, sizeof path, ".dat");
    assert_int_equal(ns_problem_write(path, p, NS_FORMAT_DAT, err), NS_OK);
    ns_problem *r = NULL;
    ns_status st = ns_problem_read(path, NS_KIND_NONE, &r, err);
    if (st) print_message("%s\n", err);
    assert_int_equal(st, NS_OK);
    unlink(path);
    return r;
}

static void same_matrix(const ns_matrix *A, const ns_matrix *B)
{
    assert_int_equal(A->rows, B->rows);
    assert_int_equal(A->cols, B->cols);
    for (ns_int i = 0; i < A->rows; i++)
        for (ns_int j = 0; j < A->cols; j++)
            assert_true(ns_matrix_get(A, i, j) == ns_matrix_get(B, i, j));
}

/* ---------------------------------------------------------------- SOCLCP */

static void test_soclcp_written(void **state)
{
    (void)state;
    ns_rng g;
    ns_rng_seed(&g, 7);
    for (int trial = 0; trial < 40; trial++) {
        ns_int nc = 1 + (ns_int)(ns_rng_uniform(&g) * 12), start[16], n = 0;
        double mu[16];
        start[0] = 0;
        for (ns_int c = 0; c < nc; c++) {
            n += 1 + (ns_int)(ns_rng_uniform(&g) * 4);
            start[c + 1] = n;
            mu[c] = trial % 5 == 0 ? 0.0 : ns_rng_range(&g, 0.1, 1.5);
        }
        ns_matrix *W = ns_matrix_dense_new(n, n);
        double *q = malloc((size_t)n * sizeof *q);
        for (ns_int i = 0; i < n; i++) {
            q[i] = ns_rng_range(&g, -2, 2);
            for (ns_int j = 0; j < n; j++)
                W->dense[i + (size_t)j * n] = (i == j ? n : 0) + ns_rng_range(&g, -0.5, 0.5);
        }
        ns_problem *p = ns_problem_from_soclcp(ns_soclcp_new(W, q, nc, start, mu));
        assert_non_null(p);
        ns_problem *r = round_trip(p);
        assert_int_equal(r->kind, NS_KIND_SOCLCP);
        const ns_soclcp *a = p->u.soclcp, *b = r->u.soclcp;
        assert_int_equal(b->n, a->n);
        assert_int_equal(b->nc, a->nc);
        for (ns_int c = 0; c <= nc; c++) assert_int_equal(b->cone_start[c], a->cone_start[c]);
        for (ns_int c = 0; c < nc; c++) assert_true(b->mu[c] == a->mu[c]);
        for (ns_int i = 0; i < n; i++) assert_true(b->q[i] == a->q[i]);
        same_matrix(a->W, b->W);
        ns_problem_free(r);
        ns_problem_free(p);
        free(q);
    }
}

/* Siconos' layout (%32.24e values, starts on one line): n = 5, two cones
 * of 3 and 2, W dense. */
#define SOCLCP_TEXT(STARTS, TAIL)                                                             \
    "5\n2\n0\n5\n5\n5\t5\n"                                                                   \
    "  2.000000000000000000000000e+00   5.000000000000000000000000e-01   0 0 0\n"             \
    "  5.000000000000000000000000e-01   2.000000000000000000000000e+00   0 0 0\n"             \
    "  0 0 2.000000000000000000000000e+00   0 0\n"                                            \
    "  0 0 0 3.000000000000000000000000e+00   1.000000000000000000000000e+00\n"               \
    "  0 0 0 1.000000000000000000000000e+00   3.000000000000000000000000e+00\n"               \
    " -2.500000000000000000000000e+00  -1.5 -0.5 0.5 1.5\n" STARTS "\n" TAIL "\n"

static void test_soclcp_siconos_text(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN];
    const char *good = SOCLCP_TEXT("0 3 5", "  5.000000000000000000000000e-01   7.0e-01");
    ns_problem *a = read_buf(good, NS_KIND_NONE, NS_OK, err);
    ns_problem *b = read_buf(good, NS_KIND_SOCLCP, NS_OK, err);
    assert_int_equal(a->kind, NS_KIND_SOCLCP);
    assert_int_equal(a->u.soclcp->nc, 2);
    assert_int_equal(a->u.soclcp->cone_start[1], 3);
    assert_true(a->u.soclcp->mu[1] == 0.7);
    same_matrix(a->u.soclcp->W, b->u.soclcp->W);
    ns_problem_free(a);
    ns_problem_free(b);

    /* starts that do not end at n, or a number too many: not an SOCLCP */
    static const char *const bad[] = {
        SOCLCP_TEXT("0 3 4", "0.5 0.7"),
        SOCLCP_TEXT("0 3 5", "0.5 0.7 0.9"),
        SOCLCP_TEXT("0 3 5", "0.5"),
    };
    for (int k = 0; k < 3; k++) {
        ns_problem *p = NULL;
        ns_status st = ns_problem_read_dat_buffer(bad[k], strlen(bad[k]), "t.dat", NS_KIND_NONE, &p, err);
        if (st == NS_OK) {
            assert_int_not_equal(p->kind, NS_KIND_SOCLCP);
            ns_problem_free(p);
        } else {
            assert_null(strstr(err, "read as soclcp"));
        }
    }
    /* the layout matched: its own error */
    const char *nan_mu = SOCLCP_TEXT("0 3 5", "0.5 nan");
    read_buf(nan_mu, NS_KIND_NONE, NS_BAD_INPUT, err);
    assert_non_null(strstr(err, "mu"));
    assert_non_null(strstr(err, "read as soclcp"));
    const char *neg_mu = SOCLCP_TEXT("0 3 5", "0.5 -0.7");
    read_buf(neg_mu, NS_KIND_NONE, NS_BAD_INPUT, err);
    assert_non_null(strstr(err, "negative"));
}

/* ----------------------------------------------------------------- RFC2D */

static ns_problem *rfc2d(ns_int nc, double mur, uint64_t seed)
{
    ns_rng g;
    ns_rng_seed(&g, seed);
    ns_int m = 3 * nc;
    ns_matrix *W = ns_matrix_dense_new(m, m);
    double *q = malloc((size_t)m * sizeof *q), *mu = malloc((size_t)nc * sizeof *mu),
           *mr = malloc((size_t)nc * sizeof *mr);
    for (ns_int i = 0; i < m; i++) {
        q[i] = ns_rng_range(&g, -1, 1);
        W->dense[i + (size_t)i * m] = 1 + ns_rng_uniform(&g);
    }
    for (ns_int c = 0; c < nc; c++) { mu[c] = 0.3; mr[c] = nc == 1 ? mur : ns_rng_range(&g, 0.01, 0.1); }
    ns_problem *p = ns_problem_from_rfc(ns_rfc_new(3, nc, W, q, mu, mr));
    free(q); free(mu); free(mr);
    assert_non_null(p);
    return p;
}

static void test_rfc2d_written(void **state)
{
    (void)state;
    const double murs[] = { 1.0, 0.0, 0.05 };
    for (int k = 0; k < 3; k++) {
        ns_problem *p = rfc2d(1, murs[k], 3 + (uint64_t)k);
        ns_problem *r = round_trip(p);
        assert_int_equal(r->kind, NS_KIND_RFC2D);
        assert_true(r->u.rfc->mu_r[0] == murs[k]);
        same_matrix(p->u.rfc->W, r->u.rfc->W);
        ns_problem_free(r);
        ns_problem_free(p);
    }
    ns_problem *p = rfc2d(7, 0, 11);
    ns_problem *r = round_trip(p);
    assert_int_equal(r->kind, NS_KIND_RFC2D);
    for (int c = 0; c < 7; c++) assert_true(r->u.rfc->mu_r[c] == p->u.rfc->mu_r[c]);
    ns_problem_free(r);
    ns_problem_free(p);
}

/* One contact, W = I (dense), q, mu = 0.5, then TAIL. */
#define FC_ONE(TAIL) "3\n1\n0\n3\n3\n3 3\n1 0 0\n0 1 0\n0 0 1\n-1 0.2 0.1\n0.5\n" TAIL
/* Two contacts. */
#define FC_TWO(TAIL) "3\n2\n0\n6\n6\n6 6\n1 0 0 0 0 0\n0 1 0 0 0 0\n0 0 1 0 0 0\n0 0 0 1 0 0\n" \
                     "0 0 0 0 1 0\n0 0 0 0 0 1\n-1 0.2 0.1 -1 0 0\n0.5 0.4\n" TAIL

static void test_rfc2d_or_fc3d(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN];
    static const struct { const char *text; ns_kind kind; double mur; } cases[] = {
        { FC_ONE(""), NS_KIND_FC3D, 0 },
        { FC_ONE("1\n"), NS_KIND_FC3D, 0 },
        { FC_ONE("0\n"), NS_KIND_FC3D, 0 },
        { FC_ONE("-1\n"), NS_KIND_FC3D, 0 },
        { FC_ONE("0.05\n"), NS_KIND_RFC2D, 0.05 },
        { FC_ONE("1.0\n"), NS_KIND_RFC2D, 1.0 },
        { FC_ONE("1e0\n"), NS_KIND_RFC2D, 1.0 },
        { FC_ONE("2\n"), NS_KIND_RFC2D, 2.0 },
        { FC_ONE("0.05 0.06\n"), NS_KIND_FC3D, 0 },
        { FC_ONE("remark\n"), NS_KIND_FC3D, 0 },
        { FC_TWO("1\n"), NS_KIND_FC3D, 0 },
        { FC_TWO("0 1\n"), NS_KIND_RFC2D, 0 },
        { FC_TWO("0.01 0.02\n"), NS_KIND_RFC2D, 0.01 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ns_problem *p = read_buf(cases[k].text, NS_KIND_NONE, NS_OK, err);
        if (p->kind != cases[k].kind) print_message("case %zu: %s\n", k, ns_kind_name(p->kind));
        assert_int_equal(p->kind, cases[k].kind);
        if (p->kind == NS_KIND_RFC2D) assert_true(p->u.rfc->mu_r[0] == cases[k].mur);
        ns_problem_free(p);
    }
    /* the layout matched: a negative mu_r is an RFC2D error */
    read_buf(FC_ONE("-0.5\n"), NS_KIND_NONE, NS_BAD_INPUT, err);
    assert_non_null(strstr(err, "mu_r"));
    assert_non_null(strstr(err, "rfc2d"));
    /* a 2D file asked for as 3D and the reverse: d named */
    read_buf(FC_ONE("0.05\n"), NS_KIND_RFC3D, NS_BAD_INPUT, err);
    assert_non_null(strstr(err, "rfc3d was asked for"));
}

/* --------------------------------------------------- the shared files */

static void test_shared_files(void **state)
{
    (void)state;
    static const char *const dirs[] = { "fc2d", "fc3d", "gfc2d", "gfc3d", "lcp", "mlcp", "relay", "gmp" };
    char path[1024], err[NS_ERRMSG_LEN];
    snprintf(path, sizeof path, "%s/fc3d/Rover11035.dat", NS_SHARED_DATA);
    if (access(path, R_OK) != 0) skip();
    ns_problem *p = NULL;
    assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &p, err), NS_OK);
    assert_int_equal(p->kind, NS_KIND_FC3D);
    ns_problem_free(p);
    int files = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        snprintf(path, sizeof path, "%s/%s", NS_SHARED_DATA, dirs[d]);
        DIR *dir = opendir(path);
        if (!dir) continue;
        struct dirent *e;
        while ((e = readdir(dir))) {
            size_t l = strlen(e->d_name);
            if (l < 5 || strcmp(e->d_name + l - 4, ".dat")) continue;
            snprintf(path, sizeof path, "%s/%s/%s", NS_SHARED_DATA, dirs[d], e->d_name);
            ns_format f;
            ns_kind k;
            ns_status st = ns_problem_detect(path, &f, &k, err);
            /* a rectangular MLCP is read, then refused by validation */
            if (st == NS_OK && strcmp(ns_kind_name(k), dirs[d]))
                fail_msg("%s: detected as %s", path, ns_kind_name(k));
            files++;
        }
        closedir(dir);
    }
    print_message("%d shared .dat files detected as their directory's kind\n", files);
    assert_true(files > 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_soclcp_written),
        cmocka_unit_test(test_soclcp_siconos_text),
        cmocka_unit_test(test_rfc2d_written),
        cmocka_unit_test(test_rfc2d_or_fc3d),
        cmocka_unit_test(test_shared_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
