/* test_io_fclib.c — FCLIB HDF5 files: bit-identical round trips of local and
 * global problems, the files of the collection (sizes from MANIFEST.tsv), and
 * malformed files (built here with the HDF5 API) rejected with a message
 * naming the dataset, without a crash. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nonsmooth/nonsmooth.h"
#include "io/io_fclib.h"
#include "ns_test.h"

static void expect_msg(ns_status st, ns_status want, const char *err, const char *word)
{
    if (st != want) fail_msg("status %d, expected %d (%s)", (int)st, (int)want, err);
    if (!strstr(err, word)) fail_msg("message '%s' does not name '%s'", err, word);
}

/* CSC matrix from arrays (rows of a column in the given order). */
static ns_matrix *csc(ns_int m, ns_int n, const ns_int *p, const ns_int *i, const double *x)
{
    ns_matrix *A = ns_matrix_sparse_new(m, n, p[n]);
    assert_non_null(A);
    memcpy(A->csc.p, p, sizeof(ns_int) * (size_t)(n + 1));
    memcpy(A->csc.i, i, sizeof(ns_int) * (size_t)p[n]);
    memcpy(A->csc.x, x, sizeof(double) * (size_t)p[n]);
    A->csc.nnz = p[n];
    return A;
}

static void assert_same_csc(const ns_matrix *A, const ns_matrix *B)
{
    assert_int_equal(B->storage, NS_SPARSE);
    assert_int_equal(A->rows, B->rows);
    assert_int_equal(A->cols, B->cols);
    assert_int_equal(A->csc.nnz, B->csc.nnz);
    assert_memory_equal(A->csc.p, B->csc.p, sizeof(ns_int) * (size_t)(A->cols + 1));
    if (A->csc.nnz) {
        assert_memory_equal(A->csc.i, B->csc.i, sizeof(ns_int) * (size_t)A->csc.nnz);
        assert_memory_equal(A->csc.x, B->csc.x, sizeof(double) * (size_t)A->csc.nnz);
    }
}

/* Two 3D contacts, W 6×6 CSC with unsorted rows, an explicit zero and
 * values that need 17 digits. */
static ns_problem *local_problem(void)
{
    const ns_int p[7] = { 0, 3, 4, 6, 7, 9, 10 };
    const ns_int i[10] = { 2, 0, 1, 1, 2, 0, 3, 5, 4, 5 };
    const double x[10] = { 0.1, 4.0 / 3.0, -1e-300, 2.0, 0.0, 0.78539816339744831, 5.5,
                           1.0 / 7.0, 6.25, 1e300 };
    const double q[6] = { -1, 0.2, -0.3, 1.0 / 3.0, 0, -2e-17 };
    const double mu[2] = { 0.5, 0.1 };
    ns_fc *fc = ns_fc_new(3, 2, csc(6, 6, p, i, x), q, mu);
    assert_non_null(fc);
    ns_problem *P = ns_problem_from_fc(fc);
    assert_non_null(P);
    return P;
}

/* B is A to the bit, both problems of local_problem()'s size (two 3D
 * contacts): an FC3D problem with the same W, q and μ. */
static void assert_same_local(const ns_problem *A, const ns_problem *B)
{
    assert_int_equal(B->kind, NS_KIND_FC3D);
    assert_same_csc(A->u.fc->W, B->u.fc->W);
    assert_memory_equal(A->u.fc->q, B->u.fc->q, 6 * sizeof(double));
    assert_memory_equal(A->u.fc->mu, B->u.fc->mu, 2 * sizeof(double));
}

static void test_local_round_trip(void **state)
{
    (void)state;
    char path[512], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(path, sizeof path, ".hdf5");
    ns_problem *P = local_problem();
    assert_int_equal(ns_fclib_write(path, P, err), NS_OK);
    /* writing twice replaces the file (libfclib alone would add to it) */
    assert_int_equal(ns_fclib_write(path, P, err), NS_OK);
    ns_problem *R = NULL;
    ns_status st = ns_fclib_read(path, &R, err);
    if (st) fail_msg("read: %s", err);
    assert_same_local(P, R);
    assert_int_equal(R->u.fc->dim, 3);
    assert_int_equal(R->u.fc->nc, 2);
    assert_int_equal(ns_problem_validate(R, err), NS_OK);
    ns_problem_free(R);
    ns_problem_free(P);
    unlink(path);
}

static void test_local_2d_dense_round_trip(void **state)
{
    (void)state;
    /* a DENSE W is written as its CSC conversion: same matrix back */
    char path[512], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(path, sizeof path, ".hdf5");
    ns_matrix *W = ns_matrix_dense_new(4, 4);
    for (int k = 0; k < 16; k++) W->dense[k] = (k % 3) ? 0.0 : 1.0 / (k + 1);
    const double q[4] = { -1, 0, -2, 0.5 }, mu[2] = { 0.3, 0.7 };
    ns_problem *P = ns_problem_from_fc(ns_fc_new(2, 2, W, q, mu));
    assert_int_equal(ns_fclib_write(path, P, err), NS_OK);
    ns_problem *R = NULL;
    assert_int_equal(ns_fclib_read(path, &R, err), NS_OK);
    assert_int_equal(R->kind, NS_KIND_FC2D);
    assert_true(ns_matrix_max_abs_diff(P->u.fc->W, R->u.fc->W) == 0.0);
    assert_memory_equal(P->u.fc->q, R->u.fc->q, sizeof q);
    ns_problem_free(R);
    ns_problem_free(P);
    unlink(path);
}

/* Two bodies of 3 dofs, one contact, H = [I; −I] (6×3), M diagonal. */
static ns_problem *global_problem(void)
{
    const ns_int mp[7] = { 0, 1, 2, 3, 4, 5, 6 }, mi[6] = { 0, 1, 2, 3, 4, 5 };
    const double mx[6] = { 1, 1, 1, 2, 2, 2.0000000000000004 };
    const ns_int hp[4] = { 0, 2, 4, 6 }, hi[6] = { 3, 0, 1, 4, 2, 5 };
    const double hx[6] = { -1, 1, 1, -1, 1, -1 };
    const double q[6] = { -0.1, 0, 0, 0, 0, 1e-310 }, b[3] = { 0, 0.25, 0 }, mu[1] = { 0.5 };
    ns_gfc *g = ns_gfc_new(3, 1, csc(6, 6, mp, mi, mx), csc(6, 3, hp, hi, hx), q, b, mu);
    assert_non_null(g);
    return ns_problem_from_gfc(g);
}

static void test_global_round_trip(void **state)
{
    (void)state;
    char path[512], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(path, sizeof path, ".hdf5");
    ns_problem *P = global_problem();
    assert_int_equal(ns_problem_validate(P, err), NS_OK);
    assert_int_equal(ns_fclib_write(path, P, err), NS_OK);
    ns_problem *R = NULL;
    ns_status st = ns_fclib_read(path, &R, err);
    if (st) fail_msg("read: %s", err);
    assert_int_equal(R->kind, NS_KIND_GFC3D);
    assert_int_equal(R->u.gfc->n, 6);
    assert_int_equal(R->u.gfc->nc, 1);
    assert_same_csc(P->u.gfc->M, R->u.gfc->M);
    assert_same_csc(P->u.gfc->H, R->u.gfc->H);
    assert_memory_equal(P->u.gfc->q, R->u.gfc->q, 6 * sizeof(double));
    assert_memory_equal(P->u.gfc->b, R->u.gfc->b, 3 * sizeof(double));
    assert_memory_equal(P->u.gfc->mu, R->u.gfc->mu, sizeof(double));
    ns_problem_free(R);
    ns_problem_free(P);
    unlink(path);
}

static void test_write_refuses(void **state)
{
    (void)state;
    char path[512], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(path, sizeof path, ".hdf5");
    double q[1] = { -1 };
    ns_matrix *M = ns_matrix_dense_new(1, 1);
    M->dense[0] = 1;
    ns_problem *P = ns_problem_from_lcp(ns_lcp_new(M, q));
    expect_msg(ns_fclib_write(path, P, err), NS_UNSUPPORTED, err, "lcp");
    ns_problem_free(P);
    /* an invalid problem is refused before anything is written */
    P = local_problem();
    P->u.fc->mu[1] = -1;
    assert_int_equal(ns_fclib_write(path, P, err), NS_BAD_INPUT);
    ns_problem_free(P);
    P = local_problem();
    expect_msg(ns_fclib_write("/nonexistent-dir/x.hdf5", P, err), NS_IO_ERROR, err,
               "nonexistent-dir");
    ns_problem_free(P);
    unlink(path);
}

/* ----------------------------------------------------------- collection */

/* Expected sizes of an FCLIB file from MANIFEST.tsv's size column:
 * "contacts=60 (dim 3, n=180)" or "ndof=450,contacts=82 (dim 3)". */
static int manifest_sizes(const char *root, const char *rel, int *ndof, int *nc, int *dim)
{
    char mpath[1024], line[4096];
    snprintf(mpath, sizeof mpath, "%s/MANIFEST.tsv", root);
    FILE *f = fopen(mpath, "r");
    if (!f) return 0;
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        char *tab = strchr(line, '\t');
        if (!tab || (size_t)(tab - line) != strlen(rel) || strncmp(line, rel, strlen(rel)))
            continue;
        char *size = strchr(tab + 1, '\t');   /* kind \t size */
        if (!size) break;
        size++;
        char *s;
        *ndof = -1;
        if ((s = strstr(size, "ndof="))) *ndof = atoi(s + 5);
        if ((s = strstr(size, "contacts="))) *nc = atoi(s + 9);
        if ((s = strstr(size, "dim "))) *dim = atoi(s + 4);
        found = 1;
        break;
    }
    fclose(f);
    return found;
}

static void test_collection(void **state)
{
    (void)state;
    const char *root = ns_test_data_dir();
    if (!root) {
        print_message("shared data directory absent: collection files skipped\n");
        skip();
    }
    static const char *const files[] = {
        "fclib/local/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5",
        "fclib/local/Capsules-i125-1213.hdf5",
        "fclib/global/Box_Stacks-i0122-82-5.hdf5",
        "fclib/global/CubeH8.hdf5",
        "fclib/global/LMGC_GlobalFrictionContactProblem00046.hdf5",
        "fclib/global/spheres-in-a-box-98-i10000-256-10.hdf5",
        "fclib/global/Spheres-i099-356-679.hdf5",
    };
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        char path[1024], err[NS_ERRMSG_LEN] = "";
        ns_test_data_path(path, sizeof path, files[k]);
        int ndof = -1, nc = -1, dim = -1;
        if (!manifest_sizes(root, files[k], &ndof, &nc, &dim))
            fail_msg("%s not in MANIFEST.tsv", files[k]);
        ns_problem *P = NULL;
        ns_status st = ns_fclib_read(path, &P, err);
        if (st) fail_msg("%s: %s", files[k], err);
        if (ns_problem_validate(P, err)) fail_msg("%s: %s", files[k], err);
        if (strstr(files[k], "/local/")) {
            assert_int_equal(P->kind, dim == 2 ? NS_KIND_FC2D : NS_KIND_FC3D);
            assert_int_equal(P->u.fc->nc, nc);
            assert_int_equal(P->u.fc->W->rows, dim * nc);
            assert_int_equal(P->u.fc->W->storage, NS_SPARSE);
        } else {
            assert_int_equal(P->kind, dim == 2 ? NS_KIND_GFC2D : NS_KIND_GFC3D);
            assert_int_equal(P->u.gfc->nc, nc);
            assert_int_equal(P->u.gfc->n, ndof);
            assert_int_equal(P->u.gfc->H->cols, dim * nc);
        }
        ns_problem_free(P);
    }
}

/* ------------------------------------------------------------- malformed */

/* Writes the local test problem to path, reopens it read-write. */
/* P (taken) written to path, then opened for writing (to forge). */
static hid_t problem_file(const char *path, ns_problem *P)
{
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(ns_fclib_write(path, P, err), NS_OK);
    ns_problem_free(P);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    return f;
}

static hid_t local_file(const char *path) { return problem_file(path, local_problem()); }
static hid_t global_file(const char *path) { return problem_file(path, global_problem()); }

/* Element `index` of dataset dset ← *value, given in memory type `type`. */
static void set_value(hid_t f, const char *dset, int index, hid_t type, const void *value)
{
    hid_t ds = H5Dopen2(f, dset, H5P_DEFAULT);
    assert_true(ds >= 0);
    hid_t sp = H5Dget_space(ds);
    hsize_t start = (hsize_t)index, count = 1;
    assert_true(H5Sselect_hyperslab(sp, H5S_SELECT_SET, &start, NULL, &count, NULL) >= 0);
    hid_t mem = H5Screate_simple(1, &count, NULL);
    assert_true(H5Dwrite(ds, type, mem, sp, H5P_DEFAULT, value) >= 0);
    H5Sclose(mem);
    H5Sclose(sp);
    H5Dclose(ds);
}

/* A new one-element dataset of `type` at dset (its value left unwritten). */
static void one_value_dataset(hid_t f, const char *dset, hid_t type)
{
    hsize_t one = 1;
    hid_t sp = H5Screate_simple(1, &one, NULL);
    hid_t ds = H5Dcreate2(f, dset, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(ds >= 0);
    H5Dclose(ds);
    H5Sclose(sp);
}

static void set_int(hid_t f, const char *dset, int index, int value)
{
    set_value(f, dset, index, H5T_NATIVE_INT, &value);
}

static void set_double(hid_t f, const char *dset, int index, double value)
{
    set_value(f, dset, index, H5T_NATIVE_DOUBLE, &value);
}

static void expect_bad_file(const char *path, ns_status want, const char *word)
{
    char err[NS_ERRMSG_LEN] = "";
    ns_problem *P = (ns_problem *)1;
    expect_msg(ns_fclib_read(path, &P, err), want, err, word);
    assert_null(P);
}

static void test_missing_q(void **state)
{
    (void)state;
    char path[512];
    ns_test_tmpname(path, sizeof path, ".hdf5");
    hid_t f = local_file(path);
    assert_true(H5Ldelete(f, "/fclib_local/vectors/q", H5P_DEFAULT) >= 0);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/vectors/q");
    unlink(path);
}

static void test_missing_group_and_not_hdf5(void **state)
{
    (void)state;
    char path[512];
    ns_test_tmpname(path, sizeof path, ".hdf5");
    /* an HDF5 file with no problem */
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(f >= 0);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local");
    /* a text file */
    assert_int_equal(ns_test_write_file(path, "3\n1\n0\n3\n3\n"), 0);
    expect_bad_file(path, NS_BAD_INPUT, "not an HDF5 file");
    unlink(path);
    expect_bad_file(path, NS_IO_ERROR, path);
}

static void test_spacedim_4(void **state)
{
    (void)state;
    char path[512];
    ns_test_tmpname(path, sizeof path, ".hdf5");
    hid_t f = local_file(path);
    set_int(f, "/fclib_local/spacedim", 0, 4);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/spacedim");
    unlink(path);
}

/* The problem of path, read, is local_problem()'s to the bit: the parts of
 * an FCLIB file the reader does not use cannot change what it reads. */
static void expect_local_problem(const char *path)
{
    char err[NS_ERRMSG_LEN] = "";
    ns_problem *R = NULL, *P = local_problem();
    if (ns_fclib_read(path, &R, err) != NS_OK) fail_msg("read: %s", err);
    assert_same_local(P, R);
    ns_problem_free(R);
    ns_problem_free(P);
}

/* Found by fuzz_fclib: a forged element size is refused. The metadata no
 * problem depends on (the info group, a matrix's conditioning and comment)
 * is not read, so a malformed one neither stops the read nor changes the
 * problem. */
static void test_forged_types_and_info(void **state)
{
    (void)state;
    char path[512];
    ns_test_tmpname(path, sizeof path, ".hdf5");
    /* spacedim stored as a 64-byte integer */
    hid_t f = local_file(path);
    assert_true(H5Ldelete(f, "/fclib_local/spacedim", H5P_DEFAULT) >= 0);
    hid_t big = H5Tcopy(H5T_STD_I32LE);
    assert_true(H5Tset_size(big, 64) >= 0);
    hsize_t one = 1;
    hid_t sp = H5Screate_simple(1, &one, NULL);
    hid_t ds = H5Dcreate2(f, "/fclib_local/spacedim", big, sp, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT);
    assert_true(ds >= 0);
    H5Dclose(ds);
    H5Sclose(sp);
    H5Tclose(big);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/spacedim");

    /* info/title as a 2 x 2 array of strings */
    f = local_file(path);
    hid_t g = H5Gcreate2(f, "/fclib_local/info", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(g >= 0);
    hid_t str = H5Tcopy(H5T_C_S1);
    assert_true(H5Tset_size(str, 8) >= 0);
    hsize_t dims[2] = { 2, 2 };
    sp = H5Screate_simple(2, dims, NULL);
    ds = H5Dcreate2(g, "title", str, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(ds >= 0);
    H5Dclose(ds);
    H5Sclose(sp);
    H5Tclose(str);
    H5Gclose(g);
    H5Fclose(f);
    expect_local_problem(path);

    /* info as a dataset instead of a group; W's conditioning a string and
     * its determinant missing */
    f = local_file(path);
    one_value_dataset(f, "/fclib_local/info", H5T_NATIVE_INT);
    one_value_dataset(f, "/fclib_local/W/conditioning", H5T_C_S1);
    H5Fclose(f);
    expect_local_problem(path);
    unlink(path);
}

/* A NaN or an infinity in a vector or in a matrix's values is refused with
 * the dataset and the index; a vector of the wrong length or class too (the
 * vectors are checked as they are read, the matrix values by the check of
 * their group). */
static void test_non_finite_and_short_vectors(void **state)
{
    (void)state;
    char path[512];
    ns_test_tmpname(path, sizeof path, ".hdf5");
    static const struct { const char *dset; int index; } local[] = {
        { "/fclib_local/vectors/q", 1 }, { "/fclib_local/vectors/mu", 0 }, { "/fclib_local/W/x", 2 } };
    for (int k = 0; k < 3; k++)
        for (int inf = 0; inf < 2; inf++) {
            hid_t f = local_file(path);
            set_double(f, local[k].dset, local[k].index, inf ? -INFINITY : NAN);
            H5Fclose(f);
            char want[80];
            snprintf(want, sizeof want, "%s[%d]", local[k].dset, local[k].index);
            expect_bad_file(path, NS_BAD_INPUT, want);
        }
    static const struct { const char *dset; int index; } global[] = {
        { "/fclib_global/vectors/f", 5 }, { "/fclib_global/vectors/w", 0 },
        { "/fclib_global/vectors/mu", 0 }, { "/fclib_global/M/x", 0 }, { "/fclib_global/H/x", 1 } };
    for (int k = 0; k < 5; k++) {
        hid_t f = global_file(path);
        set_double(f, global[k].dset, global[k].index, INFINITY);
        H5Fclose(f);
        char want[80];
        snprintf(want, sizeof want, "%s[%d]", global[k].dset, global[k].index);
        expect_bad_file(path, NS_BAD_INPUT, want);
    }
    /* q of one value instead of six; mu stored as integers */
    hid_t f = local_file(path);
    assert_true(H5Ldelete(f, "/fclib_local/vectors/q", H5P_DEFAULT) >= 0);
    one_value_dataset(f, "/fclib_local/vectors/q", H5T_NATIVE_DOUBLE);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/vectors/q: 1 values, expected 6");
    f = local_file(path);
    assert_true(H5Ldelete(f, "/fclib_local/vectors/mu", H5P_DEFAULT) >= 0);
    one_value_dataset(f, "/fclib_local/vectors/mu", H5T_NATIVE_INT);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/vectors/mu: floating-point dataset expected");
    unlink(path);
}

static void test_bad_indices(void **state)
{
    (void)state;
    char path[512];
    ns_test_tmpname(path, sizeof path, ".hdf5");
    /* row index out of range */
    hid_t f = local_file(path);
    set_int(f, "/fclib_local/W/i", 3, 1000);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/W/i");
    /* negative index */
    f = local_file(path);
    set_int(f, "/fclib_local/W/i", 0, -1);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/W/i");
    /* decreasing column pointers */
    f = local_file(path);
    set_int(f, "/fclib_local/W/p", 2, 1);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/W/p");
    /* last pointer beyond the arrays */
    f = local_file(path);
    set_int(f, "/fclib_local/W/p", 6, 50);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/W/p");
    /* m no longer matching the vectors: q has 6 values, W claims 9×9 */
    f = local_file(path);
    set_int(f, "/fclib_local/W/m", 0, 9);
    set_int(f, "/fclib_local/W/n", 0, 9);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/W/p");
    /* an unknown storage code */
    f = local_file(path);
    set_int(f, "/fclib_local/W/nz", 0, -3);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/W/nz");
    /* nzmax smaller than the arrays (libfclib would overflow its buffer) */
    f = local_file(path);
    set_int(f, "/fclib_local/W/nzmax", 0, 4);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_local/W");
    unlink(path);
}

static void test_unsupported_parts(void **state)
{
    (void)state;
    char path[512], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(path, sizeof path, ".hdf5");
    hid_t f = local_file(path);
    hid_t g = H5Gcreate2(f, "/fclib_local/V", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(g);
    H5Fclose(f);
    expect_bad_file(path, NS_UNSUPPORTED, "/fclib_local/V");

    ns_problem *P = global_problem();
    assert_int_equal(ns_fclib_write(path, P, err), NS_OK);
    ns_problem_free(P);
    f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    g = H5Gcreate2(f, "/fclib_global/G", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(g);
    H5Fclose(f);
    expect_bad_file(path, NS_UNSUPPORTED, "/fclib_global/G");
    /* global file missing w */
    assert_int_equal(ns_fclib_write(path, P = global_problem(), err), NS_OK);
    ns_problem_free(P);
    f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(H5Ldelete(f, "/fclib_global/vectors/w", H5P_DEFAULT) >= 0);
    H5Fclose(f);
    expect_bad_file(path, NS_BAD_INPUT, "/fclib_global/vectors/w");
    unlink(path);
}

/* Files up to 256 kB are read into memory whole (HDF5's core driver),
 * larger ones in place: a large local problem (3000 contacts, W block
 * diagonal, about 400 kB) comes back bit for bit too, and a dataset missing
 * from it is named as in a small file. */
static void test_large_file_read_in_place(void **state)
{
    (void)state;
    char path[512], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(path, sizeof path, ".hdf5");
    const ns_int nc = 3000, n = 3 * nc;
    ns_matrix *W = ns_matrix_sparse_new(n, n, 3 * n);
    assert_non_null(W);
    double *q = malloc((size_t)n * sizeof *q), *mu = malloc((size_t)nc * sizeof *mu);
    assert_non_null(q);
    assert_non_null(mu);
    ns_int e = 0;
    for (ns_int j = 0; j < n; j++) {
        W->csc.p[j] = e;
        for (ns_int r = 3 * (j / 3); r < 3 * (j / 3) + 3; r++, e++) {
            W->csc.i[e] = r;
            W->csc.x[e] = r == j ? 2.0 + 1.0 / (j + 1) : 1.0 / (3.0 + r + j);
        }
        q[j] = -1.0 / (j + 7);
    }
    W->csc.p[n] = e;
    W->csc.nnz = e;
    for (ns_int a = 0; a < nc; a++) mu[a] = 0.1 + 1.0 / (a + 3);
    ns_problem *P = ns_problem_from_fc(ns_fc_new(3, nc, W, q, mu));
    assert_non_null(P);
    assert_int_equal(ns_fclib_write(path, P, err), NS_OK);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    assert_true(ftell(fp) > 256 * 1024);
    fclose(fp);
    ns_problem *R = NULL;
    ns_status st = ns_fclib_read(path, &R, err);
    if (st) fail_msg("read: %s", err);
    assert_int_equal(R->kind, NS_KIND_FC3D);
    assert_int_equal(R->u.fc->nc, nc);
    assert_same_csc(P->u.fc->W, R->u.fc->W);
    assert_memory_equal(P->u.fc->q, R->u.fc->q, (size_t)n * sizeof(double));
    assert_memory_equal(P->u.fc->mu, R->u.fc->mu, (size_t)nc * sizeof(double));
    ns_problem_free(R);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(H5Ldelete(f, "/fclib_local/vectors/q", H5P_DEFAULT) >= 0);
    H5Fclose(f);
    R = NULL;
    expect_msg(ns_fclib_read(path, &R, err), NS_BAD_INPUT, err,
               "/fclib_local/vectors/q: missing dataset");
    assert_null(R);
    ns_problem_free(P);
    free(q);
    free(mu);
    unlink(path);
}

/* An HDF5 file behind a 512-byte user block is recognised by
 * ns_problem_read from its first 4 KiB (signature at 512) and read as the
 * same problem, bit for bit. */
static void test_user_block_read(void **state)
{
    (void)state;
    char path[512], ub[520], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(path, sizeof path, ".hdf5");
    snprintf(ub, sizeof ub, "%s.ub", path);
    ns_problem *P = local_problem();
    assert_int_equal(ns_fclib_write(path, P, err), NS_OK);
    FILE *in = fopen(path, "rb"), *out = fopen(ub, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char head[512];
    memset(head, ' ', sizeof head);
    memcpy(head, "user block\n", 11);
    assert_int_equal(fwrite(head, 1, sizeof head, out), sizeof head);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    fclose(out);
    ns_problem *A = NULL, *B = NULL;
    assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &A, err), NS_OK);
    ns_status st = ns_problem_read(ub, NS_KIND_NONE, &B, err);
    if (st) fail_msg("user block: %s", err);
    assert_same_local(A, B);
    ns_problem_free(A);
    ns_problem_free(B);
    ns_problem_free(P);
    unlink(path);
    unlink(ub);
}

int main(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local_round_trip),
        cmocka_unit_test(test_local_2d_dense_round_trip),
        cmocka_unit_test(test_global_round_trip),
        cmocka_unit_test(test_write_refuses),
        cmocka_unit_test(test_collection),
        cmocka_unit_test(test_missing_q),
        cmocka_unit_test(test_missing_group_and_not_hdf5),
        cmocka_unit_test(test_spacedim_4),
        cmocka_unit_test(test_bad_indices),
        cmocka_unit_test(test_non_finite_and_short_vectors),
        cmocka_unit_test(test_forged_types_and_info),
        cmocka_unit_test(test_unsupported_parts),
        cmocka_unit_test(test_large_file_read_in_place),
        cmocka_unit_test(test_user_block_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
