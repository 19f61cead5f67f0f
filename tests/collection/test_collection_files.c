/* test_collection_files.c — every file of ../shared/data (MANIFEST.tsv):
 * it loads, its detected kind is the manifest's kind (fclib-local → fc2d /
 * fc3d, fclib-global → gfc2d / gfc3d), its sizes are the manifest's size
 * column, and write-then-read gives bit-identical data.
 * One cmocka test per manifest row. FCLIB rows are skipped while the FCLIB
 * reader answers NS_UNSUPPORTED. Exit 77 (skipped) without the data. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

typedef struct row {
    char path[256];
    char kind[32];
    char size[128];
    char name[300];
} row;

/* ---------------------------------------------------- comparisons */

static void same_vec(const double *a, const double *b, ns_int n, const char *what)
{
    if (n <= 0) return;
    if (!a || !b) fail_msg("%s: missing vector", what);
    if (memcmp(a, b, sizeof(double) * (size_t)n) != 0)
        fail_msg("%s: values differ after write-then-read", what);
}

static void same_ints(const ns_int *a, const ns_int *b, ns_int n, const char *what)
{
    if (n <= 0) return;
    if (!a || !b) fail_msg("%s: missing array", what);
    if (memcmp(a, b, sizeof(ns_int) * (size_t)n) != 0)
        fail_msg("%s: indices differ after write-then-read", what);
}

/* Same storage, sizes, structure and bit-identical values. */
static void same_matrix(const ns_matrix *A, const ns_matrix *B, const char *what)
{
    if (!A && !B) return;
    if (!A || !B) fail_msg("%s: matrix missing on one side", what);
    if (A->storage != B->storage || A->rows != B->rows || A->cols != B->cols)
        fail_msg("%s: storage/size %d %dx%d became %d %dx%d", what, (int)A->storage,
                 A->rows, A->cols, (int)B->storage, B->rows, B->cols);
    switch (A->storage) {
    case NS_DENSE:
        same_vec(A->dense, B->dense, A->rows * A->cols, what);
        break;
    case NS_SPARSE:
        assert_int_equal(A->csc.nnz, B->csc.nnz);
        same_ints(A->csc.p, B->csc.p, A->cols + 1, what);
        same_ints(A->csc.i, B->csc.i, A->csc.nnz, what);
        same_vec(A->csc.x, B->csc.x, A->csc.nnz, what);
        break;
    case NS_BLOCK: {
        const ns_block *a = &A->block, *b = &B->block;
        assert_int_equal(a->block_rows, b->block_rows);
        assert_int_equal(a->block_cols, b->block_cols);
        assert_int_equal(a->nblocks, b->nblocks);
        same_ints(a->row_start, b->row_start, a->block_rows + 1, what);
        same_ints(a->col_start, b->col_start, a->block_cols + 1, what);
        same_ints(a->row_ptr, b->row_ptr, a->block_rows + 1, what);
        same_ints(a->block_col, b->block_col, a->nblocks, what);
        same_ints(a->value_ptr, b->value_ptr, a->nblocks + 1, what);
        same_ints(a->diag, b->diag, a->block_rows, what);
        same_vec(a->x, b->x, a->value_ptr[a->nblocks], what);
        break;
    }
    default:
        fail_msg("%s: unknown storage", what);
    }
}

static void same_problem(const ns_problem *P, const ns_problem *Q)
{
    assert_int_equal(P->kind, Q->kind);
    switch (P->kind) {
    case NS_KIND_LCP: {
        const ns_lcp *a = P->u.lcp, *b = Q->u.lcp;
        assert_int_equal(a->n, b->n);
        same_matrix(a->M, b->M, "M");
        same_vec(a->q, b->q, a->M->cols, "q");
        break;
    }
    case NS_KIND_RELAY: {
        const ns_relay *a = P->u.relay, *b = Q->u.relay;
        assert_int_equal(a->n, b->n);
        same_matrix(a->M, b->M, "M");
        same_vec(a->q, b->q, a->M->cols, "q");
        same_vec(a->lb, b->lb, a->M->cols, "lb");
        same_vec(a->ub, b->ub, a->M->cols, "ub");
        break;
    }
    case NS_KIND_MLCP: {
        const ns_mlcp *a = P->u.mlcp, *b = Q->u.mlcp;
        assert_int_equal(a->n, b->n);
        assert_int_equal(a->m, b->m);
        same_matrix(a->M, b->M, "M");
        same_vec(a->q, b->q, a->M->cols, "q");
        same_matrix(a->A, b->A, "A");
        same_matrix(a->B, b->B, "B");
        same_matrix(a->C, b->C, "C");
        same_matrix(a->D, b->D, "D");
        same_vec(a->a, b->a, a->A ? a->n : 0, "a");
        same_vec(a->b, b->b, a->B ? a->m : 0, "b");
        assert_int_equal(a->nblocks, b->nblocks);
        same_ints(a->block_start, b->block_start, a->nblocks + 1, "block_start");
        if (a->nblocks > 0 &&
            memcmp(a->block_kind, b->block_kind, sizeof(int) * (size_t)a->nblocks))
            fail_msg("block_kind differs");
        break;
    }
    case NS_KIND_FC2D: case NS_KIND_FC3D: {
        const ns_fc *a = P->u.fc, *b = Q->u.fc;
        assert_int_equal(a->dim, b->dim);
        assert_int_equal(a->nc, b->nc);
        same_matrix(a->W, b->W, "W");
        same_vec(a->q, b->q, a->W->cols, "q");
        same_vec(a->mu, b->mu, a->nc, "mu");
        break;
    }
    case NS_KIND_GFC2D: case NS_KIND_GFC3D: {
        const ns_gfc *a = P->u.gfc, *b = Q->u.gfc;
        assert_int_equal(a->dim, b->dim);
        assert_int_equal(a->n, b->n);
        assert_int_equal(a->nc, b->nc);
        same_matrix(a->M, b->M, "M");
        same_matrix(a->H, b->H, "H");
        same_vec(a->q, b->q, a->M->cols, "q");
        same_vec(a->b, b->b, a->H->cols, "b");
        same_vec(a->mu, b->mu, a->nc, "mu");
        break;
    }
    case NS_KIND_GMP: {
        const ns_gmp *a = P->u.gmp, *b = Q->u.gmp;
        assert_int_equal(a->n, b->n);
        assert_int_equal(a->nblocks, b->nblocks);
        same_matrix(a->M, b->M, "M");
        same_vec(a->q, b->q, a->M->cols, "q");
        for (ns_int r = 0; r < a->nblocks; r++) {
            assert_int_equal(a->type[r], b->type[r]);
            if (a->type[r] == NS_GMP_FC3D)
                assert_memory_equal(&a->mu[r], &b->mu[r], sizeof(double));
        }
        break;
    }
    default:
        fail_msg("unexpected kind %s", ns_kind_name(P->kind));
    }
}

/* ------------------------------------------------------ size column */

/* Integer after "key=" in s, or -1 when absent. */
static long field_of(const char *s, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, "%s=", key);
    const char *p = s;
    while ((p = strstr(p, pat)) != NULL) {
        if (p == s || p[-1] == ',' || p[-1] == ' ' || p[-1] == '(') return strtol(p + strlen(pat), NULL, 10);
        p++;
    }
    return -1;
}

static long dim_of(const char *s)
{
    const char *p = strstr(s, "dim ");
    return p ? strtol(p + 4, NULL, 10) : -1;
}

/* Count of "TYPE:k" inside the parentheses of a GMP size, 0 if absent. */
static long gmp_count(const char *s, const char *type)
{
    char pat[32];
    snprintf(pat, sizeof pat, "%s:", type);
    const char *p = strstr(s, pat);
    return p ? strtol(p + strlen(pat), NULL, 10) : 0;
}

static void check_sizes(const row *r, const ns_problem *P)
{
    const char *s = r->size;
    switch (P->kind) {
    case NS_KIND_LCP:
        assert_int_equal(P->u.lcp->n, field_of(s, "n"));
        assert_int_equal(P->u.lcp->M->rows, field_of(s, "n"));
        break;
    case NS_KIND_RELAY:
        assert_int_equal(P->u.relay->n, field_of(s, "n"));
        assert_int_equal(P->u.relay->M->rows, field_of(s, "n"));
        break;
    case NS_KIND_MLCP: {
        const ns_mlcp *p = P->u.mlcp;
        assert_int_equal(p->n, field_of(s, "n"));
        assert_int_equal(p->m, field_of(s, "m"));
        const char *mm = strstr(s, "M=");
        if (mm) {   /* rectangular: "M=3x2" */
            long mr = strtol(mm + 2, NULL, 10);
            const char *x = strchr(mm, 'x');
            assert_non_null(x);
            assert_int_equal(p->M->rows, mr);
            assert_int_equal(p->M->cols, strtol(x + 1, NULL, 10));
        } else {
            assert_int_equal(p->M->rows, p->n + p->m);
            assert_int_equal(p->M->cols, p->n + p->m);
        }
        break;
    }
    case NS_KIND_FC2D: case NS_KIND_FC3D: {
        const ns_fc *p = P->u.fc;
        assert_int_equal(p->nc, field_of(s, "contacts"));
        assert_int_equal(p->dim, dim_of(s));
        assert_int_equal(p->W->rows, field_of(s, "n"));
        assert_int_equal(p->W->cols, field_of(s, "n"));
        break;
    }
    case NS_KIND_GFC2D: case NS_KIND_GFC3D: {
        const ns_gfc *p = P->u.gfc;
        assert_int_equal(p->n, field_of(s, "ndof"));
        assert_int_equal(p->M->rows, field_of(s, "ndof"));
        assert_int_equal(p->nc, field_of(s, "contacts"));
        assert_int_equal(p->dim, dim_of(s));
        assert_int_equal(p->H->cols, p->dim * p->nc);
        break;
    }
    case NS_KIND_GMP: {
        const ns_gmp *p = P->u.gmp;
        assert_int_equal(p->n, field_of(s, "n"));
        assert_int_equal(p->nblocks, field_of(s, "blocks"));
        assert_int_equal(ns_gmp_count(p, NS_GMP_EQUALITY), gmp_count(s, "EQ"));
        assert_int_equal(ns_gmp_count(p, NS_GMP_LCP), gmp_count(s, "LCP"));
        assert_int_equal(ns_gmp_count(p, NS_GMP_FC3D), gmp_count(s, "FC3D"));
        break;
    }
    default:
        fail_msg("unexpected kind %s", ns_kind_name(P->kind));
    }
}

/* Manifest kind → expected ns_kind (fclib rows: by the dimension). */
static ns_kind expected_kind(const row *r)
{
    if (strcmp(r->kind, "fclib-local") == 0)
        return dim_of(r->size) == 2 ? NS_KIND_FC2D : NS_KIND_FC3D;
    if (strcmp(r->kind, "fclib-global") == 0)
        return dim_of(r->size) == 2 ? NS_KIND_GFC2D : NS_KIND_GFC3D;
    return ns_kind_from_name(r->kind);
}

/* ------------------------------------------------------------ cases */

static void test_matrix_row(const row *r, const char *path)
{
    char err[NS_ERRMSG_LEN] = "", tmp[4096];
    ns_matrix *A = NULL, *B = NULL;
    ns_status st = ns_matrix_read(path, &A, err);
    if (st) fail_msg("%s: %s", ns_status_name(st), err);
    long rows = strtol(r->size, NULL, 10);
    const char *x = strchr(r->size, 'x');
    assert_non_null(x);
    assert_int_equal(A->rows, rows);
    assert_int_equal(A->cols, strtol(x + 1, NULL, 10));
    ns_test_tmpname(tmp, sizeof tmp, ".dat");
    st = ns_matrix_write(tmp, A, err);
    if (st) fail_msg("write: %s", err);
    st = ns_matrix_read(tmp, &B, err);
    remove(tmp);
    if (st) fail_msg("re-read: %s", err);
    same_matrix(A, B, "matrix");
    ns_matrix_free(A);
    ns_matrix_free(B);
}

static void test_row(void **state)
{
    const row *r = *state;
    char path[4096], err[NS_ERRMSG_LEN] = "", tmp[4096];
    ns_test_data_path(path, sizeof path, r->path);
    if (strcmp(r->kind, "matrix") == 0) { test_matrix_row(r, path); return; }

    int fclib = strncmp(r->kind, "fclib", 5) == 0;
    ns_problem *P = NULL, *Q = NULL;
    ns_status st = ns_problem_read(path, NS_KIND_NONE, &P, err);
    if (fclib && st == NS_UNSUPPORTED) {
        print_message("skipped (FCLIB reader not available): %s\n", err);
        skip();
    }
    if (st) fail_msg("%s: %s", ns_status_name(st), err);
    ns_kind want = expected_kind(r);
    if (P->kind != want)
        fail_msg("detected %s, manifest says %s", ns_kind_name(P->kind), r->kind);

    ns_format fmt;
    ns_kind k;
    st = ns_problem_detect(path, &fmt, &k, err);
    if (st) fail_msg("detect: %s", err);
    assert_int_equal(k, want);
    assert_int_equal(fmt, fclib ? NS_FORMAT_FCLIB : NS_FORMAT_DAT);

    check_sizes(r, P);

    ns_test_tmpname(tmp, sizeof tmp, fclib ? ".hdf5" : ".dat");
    st = ns_problem_write(tmp, P, NS_FORMAT_AUTO, err);
    if (st) { remove(tmp); fail_msg("write: %s: %s", ns_status_name(st), err); }
    st = ns_problem_read(tmp, NS_KIND_NONE, &Q, err);
    remove(tmp);
    if (st) fail_msg("re-read: %s", err);
    same_problem(P, Q);
    ns_problem_free(P);
    ns_problem_free(Q);
}

/* ------------------------------------------------------------- main */

static int load_manifest(const char *dir, row **rows)
{
    char path[4096], line[4096];
    snprintf(path, sizeof path, "%s/MANIFEST.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int n = 0, cap = 0;
    *rows = NULL;
    int header = 1;
    while (fgets(line, sizeof line, f)) {
        if (header) { header = 0; continue; }
        char *cols[4] = { 0 };
        char *p = line;
        for (int c = 0; c < 4 && p; c++) {
            cols[c] = p;
            p = strchr(p, '\t');
            if (p) *p++ = '\0';
        }
        if (!cols[0] || !*cols[0] || !cols[2]) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 128;
            row *t = realloc(*rows, sizeof(row) * (size_t)cap);
            if (!t) { fclose(f); return -1; }
            *rows = t;
        }
        row *r = &(*rows)[n++];
        snprintf(r->path, sizeof r->path, "%.*s", (int)sizeof r->path - 1, cols[0]);
        snprintf(r->kind, sizeof r->kind, "%.*s", (int)sizeof r->kind - 1, cols[1]);
        snprintf(r->size, sizeof r->size, "%.*s", (int)sizeof r->size - 1, cols[2]);
        snprintf(r->name, sizeof r->name, "%.*s", (int)sizeof r->name - 1, cols[0]);
    }
    fclose(f);
    return n;
}

int main(void)
{
    const char *dir = ns_test_data_dir();
    if (!dir) {
        fprintf(stderr, "shared data not found (%s): skipped\n", NS_SHARED_DATA);
        return 77;
    }
    row *rows = NULL;
    int n = load_manifest(dir, &rows);
    if (n <= 0) {
        fprintf(stderr, "%s/MANIFEST.tsv unreadable: skipped\n", dir);
        return 77;
    }
    struct CMUnitTest *tests = calloc((size_t)n, sizeof *tests);
    if (!tests) return 1;
    for (int k = 0; k < n; k++) {
        tests[k].name = rows[k].name;
        tests[k].test_func = test_row;
        tests[k].initial_state = &rows[k];
    }
    int failed = _cmocka_run_group_tests("collection_files", tests, (size_t)n, NULL, NULL);
    free(tests);
    free(rows);
    return failed;
}
