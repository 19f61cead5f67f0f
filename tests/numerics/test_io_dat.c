/* test_io_dat.c — the Siconos-style .dat readers and writers: the examples
 * of docs/formats.md §2–§3 with hand-checked values, write-then-read, and
 * one test per failure class (each failure is NS_BAD_INPUT or NS_IO_ERROR
 * with a message "FILE:LINE: FIELD: reason"). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

/* ------------------------------------------------------------ texts */

static const char DENSE[] = "0\n2\n2\n2\t2\n2 0\n1 3\n";

static const char SBM[] =
    "1\n4\n4\n3\n2\n2\n2\t4\n2\t4\n3\n3\n0\t2\t3\n0\t1\t1\n"
    "0\n4\n1\n1\n5\n1\n0\n3\n2\n0\n2\n6\n1\n1\n7\n";

static const char CSC[] =
    "2\n3\n3\n2\nCSparse banner (ignored)\n3-by-3, nzmax: 5 nnz: 5, 1-norm: 32\n"
    "    col 0 : locations 0 to 1\n      0 : 10\n      2 : 1\n"
    "    col 1 : locations 2 to 2\n      1 : 20\n"
    "    col 2 : locations 3 to 4\n      0 : 2\n      2 : 30\n";

static const char TRIPLET[] =
    "2\n3\n3\n1\nCSparse banner (ignored)\ntriplet: 3-by-3, nzmax: 5 nnz: 5\n"
    "    0 0 : 10\n    2 0 : 1\n    1 1 : 20\n    0 2 : 2\n    2 2 : 30\n";

static const char LCP[] = "2\n0\n2\n2\n2\t2\n2 0\n1 3\n-1 -2\n";

static const char RELAY[] = "2\n0\n2\n2\n2\t2\n2 0\n1 3\n-1 -2\n-1 0\n1 2\n";

static const char MLCP[] =
    "1\n1\n1\n2\n0 1 3\n0 1\n0\n3\n3\n3\t3\n2 1 0\n-1 3 0\n5 1 4\n1 -1 -2\n"
    "2\n3 1\n0 4\n-1 5\n1\n0\n1\n-1 -2\n";

static const char FC3D[] = "3\n1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n-1 0 0\n0.3\n";

static const char GFC3D[] =
    "3\n1\n0\n6\n6\n6\t6\n"
    "1 0 0 0 0 0\n0 1 0 0 0 0\n0 0 1 0 0 0\n0 0 0 2 0 0\n0 0 0 0 2 0\n0 0 0 0 0 2\n"
    "0\n6\n3\n6\t3\n1 0 0\n-1 0 0\n0 1 0\n0 -1 0\n0 0 1\n0 0 -1\n"
    "-0.1 0 0 0 0 0\n0 0 0\n0.5\n";

static const char GMP[] =
    "1\n4\n4\n4\n2\n2\n1\t4\n1\t4\n3\n4\n0\t2\t4\n0\t1\t0\t1\n"
    "0\n2\n1\n1 0 0\n2\n1 0 0\n3\n1 0 0 0 1 0 0 0 1\n-1 -1 0 0\n2\n4\n0.5\n";

/* ------------------------------------------------------------ helpers */

/* Entry (i, j) computed from the raw arrays (independent of the matrix
 * module). */
static double entry(const ns_matrix *A, ns_int i, ns_int j)
{
    switch (A->storage) {
    case NS_DENSE: return A->dense[i + j * A->rows];
    case NS_SPARSE: {
        double s = 0;
        for (ns_int k = A->csc.p[j]; k < A->csc.p[j + 1]; k++)
            if (A->csc.i[k] == i) s += A->csc.x[k];
        return s;
    }
    case NS_BLOCK: {
        const ns_block *B = &A->block;
        for (ns_int r = 0; r < B->block_rows; r++) {
            if (i < B->row_start[r] || i >= B->row_start[r + 1]) continue;
            for (ns_int k = B->row_ptr[r]; k < B->row_ptr[r + 1]; k++) {
                ns_int c = B->block_col[k];
                if (j < B->col_start[c] || j >= B->col_start[c + 1]) continue;
                ns_int h = B->row_start[r + 1] - B->row_start[r];
                return B->x[B->value_ptr[k] + (i - B->row_start[r]) +
                            (j - B->col_start[c]) * h];
            }
        }
        return 0;
    }
    }
    return NAN;
}

static ns_matrix *read_matrix_text(const char *text)
{
    char err[NS_ERRMSG_LEN] = "";
    ns_matrix *A = NULL;
    ns_status st = ns_matrix_read_buffer(text, strlen(text), "t.dat", &A, err);
    if (st) fail_msg("%s: %s", ns_status_name(st), err);
    return A;
}

static ns_problem *read_text(const char *text, ns_kind kind)
{
    char err[NS_ERRMSG_LEN] = "";
    ns_problem *p = NULL;
    ns_status st = ns_problem_read_dat_buffer(text, strlen(text), "t.dat", kind, &p, err);
    if (st) fail_msg("%s: %s", ns_status_name(st), err);
    assert_non_null(p);
    return p;
}

/* Asserts a failure with status st and a message holding every fragment. */
static void expect_msg(ns_status got, ns_status want, const char *err,
                       const char *frag1, const char *frag2)
{
    if (got != want)
        fail_msg("status %s, expected %s (message '%s')", ns_status_name(got),
                 ns_status_name(want), err);
    if (strchr(err, '\n')) fail_msg("message spans lines: '%s'", err);
    if (frag1 && !strstr(err, frag1)) fail_msg("message '%s' lacks '%s'", err, frag1);
    if (frag2 && !strstr(err, frag2)) fail_msg("message '%s' lacks '%s'", err, frag2);
}

static void expect_problem_fail(const char *text, ns_kind kind, const char *frag1,
                                const char *frag2)
{
    char err[NS_ERRMSG_LEN] = "";
    ns_problem *p = (ns_problem *)1;
    ns_status st = ns_problem_read_dat_buffer(text, strlen(text), "t.dat", kind, &p, err);
    if (st == NS_OK) {
        ns_problem_free(p);
        fail_msg("read succeeded: '%.60s...'", text);
    }
    assert_null(p);
    expect_msg(st, NS_BAD_INPUT, err, frag1, frag2);
}

static void expect_matrix_fail(const char *text, const char *frag1, const char *frag2)
{
    char err[NS_ERRMSG_LEN] = "";
    ns_matrix *A = (ns_matrix *)1;
    ns_status st = ns_matrix_read_buffer(text, strlen(text), "t.dat", &A, err);
    if (st == NS_OK) {
        ns_matrix_free(A);
        fail_msg("read succeeded: '%.60s...'", text);
    }
    assert_null(A);
    expect_msg(st, NS_BAD_INPUT, err, frag1, frag2);
}

static void replace_once(char *buf, size_t cap, const char *text, const char *from, const char *to);

/* Writes p to a temporary file and reads it back. */
static ns_problem *round_trip(const ns_problem *p, ns_kind kind)
{
    char tmp[4096], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(tmp, sizeof tmp, ".dat");
    ns_status st = ns_problem_write(tmp, p, NS_FORMAT_AUTO, err);
    if (st) { remove(tmp); fail_msg("write: %s", err); }
    ns_problem *q = NULL;
    st = ns_problem_read(tmp, kind, &q, err);
    remove(tmp);
    if (st) fail_msg("re-read: %s", err);
    return q;
}

/* ------------------------------------------------------- the examples */

static void test_dense_example(void **state)
{
    (void)state;
    ns_matrix *A = read_matrix_text(DENSE);
    assert_int_equal(A->storage, NS_DENSE);
    assert_int_equal(A->rows, 2);
    assert_int_equal(A->cols, 2);
    /* [[2, 1], [0, 3]] */
    assert_true(entry(A, 0, 0) == 2 && entry(A, 0, 1) == 1);
    assert_true(entry(A, 1, 0) == 0 && entry(A, 1, 1) == 3);
    ns_matrix_free(A);
}

static void test_sbm_example(void **state)
{
    (void)state;
    ns_matrix *A = read_matrix_text(SBM);
    assert_int_equal(A->storage, NS_BLOCK);
    assert_int_equal(A->rows, 4);
    assert_int_equal(A->cols, 4);
    assert_int_equal(A->block.nblocks, 3);
    assert_int_equal(A->block.diag[0], 0);
    assert_int_equal(A->block.diag[1], 2);
    static const double want[4][4] = {
        { 4, 1, 0, 2 }, { 1, 5, 3, 0 }, { 0, 0, 6, 1 }, { 0, 0, 1, 7 } };
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (entry(A, i, j) != want[i][j])
                fail_msg("(%d,%d) = %g, expected %g", i, j, entry(A, i, j), want[i][j]);
    ns_matrix_free(A);
}

static void check_csc_example(const ns_matrix *A)
{
    static const ns_int p[4] = { 0, 2, 3, 5 }, i[5] = { 0, 2, 1, 0, 2 };
    static const double x[5] = { 10, 1, 20, 2, 30 };
    assert_int_equal(A->storage, NS_SPARSE);
    assert_int_equal(A->rows, 3);
    assert_int_equal(A->cols, 3);
    assert_int_equal(A->csc.nnz, 5);
    assert_memory_equal(A->csc.p, p, sizeof p);
    assert_memory_equal(A->csc.i, i, sizeof i);
    assert_memory_equal(A->csc.x, x, sizeof x);
}

static void test_csc_and_triplet_examples(void **state)
{
    (void)state;
    ns_matrix *A = read_matrix_text(CSC);
    check_csc_example(A);
    ns_matrix_free(A);
    A = read_matrix_text(TRIPLET);
    check_csc_example(A);
    ns_matrix_free(A);
}

static void test_unsorted_csc_column_kept(void **state)
{
    (void)state;
    /* column 0 lists row 2 before row 0: the order is kept as read */
    const char *t = "2\n3\n1\n2\nbanner\n3-by-1, nzmax: 2 nnz: 2, 1-norm: 3\n"
                    "    col 0 : locations 0 to 1\n      2 : 1\n      0 : 2\n";
    ns_matrix *A = read_matrix_text(t);
    assert_int_equal(A->csc.i[0], 2);
    assert_int_equal(A->csc.i[1], 0);
    ns_matrix_free(A);
}

static void test_lcp_example(void **state)
{
    (void)state;
    ns_problem *p = read_text(LCP, NS_KIND_NONE);
    assert_int_equal(p->kind, NS_KIND_LCP);
    assert_int_equal(p->u.lcp->n, 2);
    assert_true(entry(p->u.lcp->M, 0, 1) == 1);
    assert_true(p->u.lcp->q[0] == -1 && p->u.lcp->q[1] == -2);
    ns_problem *q = round_trip(p, NS_KIND_NONE);
    assert_int_equal(q->kind, NS_KIND_LCP);
    assert_memory_equal(q->u.lcp->M->dense, p->u.lcp->M->dense, 4 * sizeof(double));
    ns_problem_free(q);
    ns_problem_free(p);
    /* the same layout read as AVI and as equality when asked */
    p = read_text(LCP, NS_KIND_AVI);
    assert_int_equal(p->kind, NS_KIND_AVI);
    assert_true(p->u.avi->q[1] == -2);
    ns_problem_free(p);
    p = read_text(LCP, NS_KIND_EQUALITY);
    assert_int_equal(p->kind, NS_KIND_EQUALITY);
    ns_problem_free(p);
}

static void test_lcp_trailing_tokens(void **state)
{
    (void)state;
    char t[256];
    snprintf(t, sizeof t, "%s\nRemark 4.1.14 CPS 2009\n1 2 3\n", LCP);
    ns_problem *p = read_text(t, NS_KIND_NONE);
    assert_int_equal(p->kind, NS_KIND_LCP);
    ns_problem_free(p);
}

static void test_relay_example(void **state)
{
    (void)state;
    ns_problem *p = read_text(RELAY, NS_KIND_NONE);
    assert_int_equal(p->kind, NS_KIND_RELAY);
    assert_true(p->u.relay->lb[0] == -1 && p->u.relay->ub[1] == 2);
    ns_problem *q = round_trip(p, NS_KIND_RELAY);
    assert_memory_equal(q->u.relay->ub, p->u.relay->ub, 2 * sizeof(double));
    ns_problem_free(q);
    ns_problem_free(p);
}

static void test_mlcp_example(void **state)
{
    (void)state;
    ns_problem *p = read_text(MLCP, NS_KIND_NONE);
    assert_int_equal(p->kind, NS_KIND_MLCP);
    const ns_mlcp *m = p->u.mlcp;
    assert_int_equal(m->n, 1);
    assert_int_equal(m->m, 2);
    /* M = [[2, -1, 5], [1, 3, 1], [0, 0, 4]] (column-major in the file) */
    static const double M[3][3] = { { 2, -1, 5 }, { 1, 3, 1 }, { 0, 0, 4 } };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) assert_true(entry(m->M, i, j) == M[i][j]);
    /* split form row-major: B = [[3, 1], [0, 4]], C = [[-1, 5]], D = [[1], [0]] */
    assert_non_null(m->A);
    assert_true(entry(m->A, 0, 0) == 2);
    assert_true(entry(m->B, 0, 1) == 1 && entry(m->B, 1, 0) == 0);
    assert_true(entry(m->C, 0, 0) == -1 && entry(m->C, 0, 1) == 5);
    assert_true(entry(m->D, 0, 0) == 1 && entry(m->D, 1, 0) == 0);
    assert_true(m->a[0] == 1 && m->b[0] == -1 && m->b[1] == -2);
    assert_int_equal(m->nblocks, 2);
    assert_int_equal(m->block_start[1], 1);
    assert_int_equal(m->block_kind[1], 1);
    ns_problem *q = round_trip(p, NS_KIND_NONE);
    assert_int_equal(q->kind, NS_KIND_MLCP);
    assert_non_null(q->u.mlcp->D);
    assert_memory_equal(q->u.mlcp->D->dense, m->D->dense, 2 * sizeof(double));
    ns_problem_free(q);
    ns_problem_free(p);
}

static void test_mlcp_single_forms(void **state)
{
    (void)state;
    /* ABCD only: M is built from the blocks */
    const char *abcd = "0\n1\n1\n2\n2\n3 1\n0 4\n-1 5\n1\n0\n1\n-1 -2\n";
    ns_problem *p = read_text(abcd, NS_KIND_MLCP);
    assert_true(entry(p->u.mlcp->M, 0, 2) == 5);
    assert_true(p->u.mlcp->q[2] == -2);
    ns_problem_free(p);
    /* M only */
    const char *monly = "1\n0\n1\n1\n0 1 2\n0 1\n0\n2\n2\n2\t2\n1 0\n0 1\n3 4\n";
    p = read_text(monly, NS_KIND_MLCP);
    assert_null(p->u.mlcp->A);
    assert_true(p->u.mlcp->q[1] == 4);
    ns_problem_free(p);
}

static void test_mlcp_empty_blocks_round_trip(void **state)
{
    (void)state;
    /* ABCD form with m = 0 or n + m = 0: the default blocks [0, n, n+m]
     * have empty blocks; what is written must read back the same (found by
     * fuzz_dat_problem) */
    const char *texts[3] = { "0\n1\n0\n0\n", "0\n1\n1\n0\n2\n-1\n",
                             "0\n1\n0\n1\n3\n4\n" };
    ns_int nb[3] = { 0, 1, 2 };   /* [0], [0, 1], [0, 0, 1] */
    for (int k = 0; k < 3; k++) {
        ns_problem *p = read_text(texts[k], NS_KIND_MLCP);
        assert_int_equal(p->u.mlcp->nblocks, nb[k]);
        ns_problem *q = round_trip(p, NS_KIND_MLCP);
        assert_int_equal(q->u.mlcp->nblocks, nb[k]);
        assert_memory_equal(q->u.mlcp->block_start, p->u.mlcp->block_start,
                            sizeof(ns_int) * (size_t)(nb[k] + 1));
        assert_int_equal(q->u.mlcp->M->rows, p->u.mlcp->M->rows);
        ns_problem_free(q);
        ns_problem_free(p);
    }
}

static void test_rectangular_mlcp(void **state)
{
    (void)state;
    const char *t = "1\n1\n1\n1\n0 1 2\n0 1\n0\n3\n2\n3\t2\n1 -1 1\n-1 -1 1\n0 1\n"
                    "1\n1\n-1\n1\n0\n-1\n";
    ns_problem *p = read_text(t, NS_KIND_NONE);
    assert_int_equal(p->kind, NS_KIND_MLCP);
    assert_int_equal(p->u.mlcp->M->rows, 3);
    assert_int_equal(p->u.mlcp->M->cols, 2);
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(ns_problem_validate(p, err), NS_BAD_INPUT);
    ns_problem *q = round_trip(p, NS_KIND_MLCP);
    assert_int_equal(q->u.mlcp->M->rows, 3);
    assert_memory_equal(q->u.mlcp->M->dense, p->u.mlcp->M->dense, 6 * sizeof(double));
    ns_problem_free(q);
    ns_problem_free(p);
}

static void test_fc3d_example(void **state)
{
    (void)state;
    ns_problem *p = read_text(FC3D, NS_KIND_NONE);
    assert_int_equal(p->kind, NS_KIND_FC3D);
    assert_int_equal(p->u.fc->nc, 1);
    assert_true(p->u.fc->mu[0] == 0.3 && p->u.fc->q[0] == -1);
    ns_problem_free(p);
    /* asking for 2D is refused */
    expect_problem_fail(FC3D, NS_KIND_FC2D, "t.dat:", "fc3d");
}

static void test_gfc3d_example(void **state)
{
    (void)state;
    ns_problem *p = read_text(GFC3D, NS_KIND_NONE);
    assert_int_equal(p->kind, NS_KIND_GFC3D);
    const ns_gfc *g = p->u.gfc;
    assert_int_equal(g->n, 6);
    assert_int_equal(g->nc, 1);
    assert_int_equal(g->H->rows, 6);
    assert_int_equal(g->H->cols, 3);
    /* H = [I3; -I3] */
    assert_true(entry(g->H, 0, 0) == 1 && entry(g->H, 3, 0) == -1);
    assert_true(entry(g->H, 4, 1) == -1 && entry(g->H, 5, 2) == -1);
    assert_true(entry(g->H, 1, 0) == 0);
    assert_true(entry(g->M, 3, 3) == 2 && g->q[0] == -0.1 && g->mu[0] == 0.5);
    ns_problem *q = round_trip(p, NS_KIND_GFC3D);
    assert_memory_equal(q->u.gfc->H->dense, g->H->dense, 18 * sizeof(double));
    ns_problem_free(q);
    ns_problem_free(p);
}

static void test_gmp_example(void **state)
{
    (void)state;
    ns_problem *p = read_text(GMP, NS_KIND_NONE);
    assert_int_equal(p->kind, NS_KIND_GMP);
    const ns_gmp *g = p->u.gmp;
    assert_int_equal(g->n, 4);
    assert_int_equal(g->nblocks, 2);
    assert_int_equal(g->type[0], NS_GMP_EQUALITY);
    assert_int_equal(g->type[1], NS_GMP_FC3D);
    assert_true(isnan(g->mu[0]) && g->mu[1] == 0.5);
    assert_true(entry(g->M, 0, 1) == 1 && entry(g->M, 1, 0) == 1);
    assert_true(entry(g->M, 2, 2) == 1 && entry(g->M, 1, 1) == 1);
    assert_true(g->q[0] == -1 && g->q[3] == 0);
    ns_problem *q = round_trip(p, NS_KIND_GMP);
    assert_memory_equal(q->u.gmp->M->block.x, g->M->block.x, 14 * sizeof(double));
    ns_problem_free(q);
    ns_problem_free(p);
}

/* Our GMP extensions (formats-extensions.md §5): μ of an FC2D block and the
 * bounds of a relay block are written and read back exactly; a relay block
 * without bounds is refused by the writer; inverted bounds by the reader. */
static void test_gmp_relay_and_fc2d_round_trip(void **state)
{
    (void)state;
    /* blocks: equality (row 0), relay (rows 1-2), FC2D (rows 3-4) */
    double D[25] = { 0 };
    for (int i = 0; i < 5; i++) D[i + 5 * i] = 2.0 + i;
    D[0 + 5 * 1] = D[1 + 5 * 0] = 0.5;
    D[3 + 5 * 1] = D[1 + 5 * 3] = -0.25;
    ns_matrix *A = ns_matrix_dense_new(5, 5);
    assert_non_null(A);
    memcpy(A->dense, D, sizeof D);
    ns_int rs[4] = { 0, 1, 3, 5 };
    ns_matrix *B = ns_matrix_to_block(A, 3, rs, 3, rs);
    ns_matrix_free(A);
    assert_non_null(B);
    double q[5] = { -1, 0.5, -3, -1, 0.2 }, mu[3] = { NAN, NAN, 0.3 };
    int type[3] = { NS_GMP_EQUALITY, NS_GMP_RELAY, NS_GMP_FC2D };
    ns_gmp *g = ns_gmp_new(B, q, type, mu);
    assert_non_null(g);
    ns_problem *p = ns_problem_from_gmp(g);
    assert_non_null(p);
    char tmp[4096], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(tmp, sizeof tmp, ".dat");
    /* no bounds yet: refused with a reason */
    expect_msg(ns_problem_write(tmp, p, NS_FORMAT_DAT, err), NS_BAD_INPUT, err, "relay", "bounds");
    g->lb = malloc(5 * sizeof *g->lb);
    g->ub = malloc(5 * sizeof *g->ub);
    assert_true(g->lb && g->ub);
    for (int i = 0; i < 5; i++) { g->lb[i] = -INFINITY; g->ub[i] = INFINITY; }
    g->lb[1] = -1.0 / 3.0; g->ub[1] = INFINITY;   /* open above */
    g->lb[2] = -2.0;       g->ub[2] = 0.1;
    ns_problem *r = round_trip(p, NS_KIND_GMP);
    const ns_gmp *h = r->u.gmp;
    assert_int_equal(h->nblocks, 3);
    for (int b = 0; b < 3; b++) assert_int_equal(h->type[b], type[b]);
    assert_true(h->mu[2] == 0.3);
    assert_non_null(h->lb);
    assert_non_null(h->ub);
    assert_true(h->lb[1] == -1.0 / 3.0 && h->ub[1] == INFINITY);
    assert_true(h->lb[2] == -2.0 && h->ub[2] == 0.1);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) assert_true(entry(h->M, i, j) == entry(g->M, i, j));
    /* the file text: the relay block's bounds follow its type line */
    assert_int_equal(ns_problem_write(tmp, p, NS_FORMAT_DAT, err), NS_OK);
    FILE *f = fopen(tmp, "r");
    assert_non_null(f);
    static char text[8192];
    size_t k = fread(text, 1, sizeof text - 1, f);
    text[k] = 0;
    fclose(f);
    remove(tmp);
    assert_non_null(strstr(text, "\n2\n9\n-0.33333333333333331 -2\ninf 0.10000000000000001\n3\n0.29999999999999999\n"));
    /* inverted bounds in a file: the reader names the field */
    char bad[8192];
    replace_once(bad, sizeof bad, text, "inf 0.10000000000000001", "inf -5");
    expect_problem_fail(bad, NS_KIND_GMP, "ub[2]", "empty");
    ns_problem_free(r);
    ns_problem_free(p);
}

static void test_matrix_write_round_trip(void **state)
{
    (void)state;
    const char *texts[3] = { SBM, CSC, TRIPLET };
    for (int k = 0; k < 3; k++) {
        char tmp[4096], err[NS_ERRMSG_LEN] = "";
        ns_matrix *A = read_matrix_text(texts[k]), *B = NULL;
        ns_test_tmpname(tmp, sizeof tmp, ".dat");
        assert_int_equal(ns_matrix_write(tmp, A, err), NS_OK);
        assert_int_equal(ns_matrix_read(tmp, &B, err), NS_OK);
        remove(tmp);
        assert_int_equal(B->storage, A->storage);
        size_t n = ns_matrix_nvalues(A);
        assert_int_equal(ns_matrix_nvalues(B), n);
        assert_memory_equal(ns_matrix_values_const(A), ns_matrix_values_const(B),
                            n * sizeof(double));
        ns_matrix_free(A);
        ns_matrix_free(B);
    }
}

static void test_exact_round_trip_of_awkward_values(void **state)
{
    (void)state;
    ns_problem *p = read_text(LCP, NS_KIND_LCP);
    double *x = p->u.lcp->M->dense;
    x[0] = 0.1;
    x[1] = -0.0;
    x[2] = 4.9406564584124654e-324;   /* smallest subnormal */
    x[3] = 1.7976931348623157e308;
    p->u.lcp->q[0] = 1.0 / 3.0;
    ns_problem *q = round_trip(p, NS_KIND_LCP);
    assert_memory_equal(q->u.lcp->M->dense, x, 4 * sizeof(double));
    assert_memory_equal(q->u.lcp->q, p->u.lcp->q, 2 * sizeof(double));
    ns_problem_free(q);
    ns_problem_free(p);
}

/* The writer refuses what the layouts cannot hold (NaN in q, +inf as a
 * lower bound), leaving no partial file, and writes what the reader takes:
 * a relay's open sides (-inf below, inf above) read back as they were. */
static void test_writer_refuses_nonfinite(void **state)
{
    (void)state;
    char tmp[4096], err[NS_ERRMSG_LEN] = "";
    ns_problem *p = read_text(RELAY, NS_KIND_RELAY);
    p->u.relay->lb[0] = INFINITY;
    ns_test_tmpname(tmp, sizeof tmp, ".dat");
    expect_msg(ns_problem_write(tmp, p, NS_FORMAT_DAT, err), NS_BAD_INPUT, err, "lb[0]", NULL);
    FILE *f = fopen(tmp, "r");
    assert_null(f);   /* no partial file left behind */
    p->u.relay->lb[0] = -1.0;
    p->u.relay->q[1] = NAN;
    expect_msg(ns_problem_write(tmp, p, NS_FORMAT_DAT, err), NS_BAD_INPUT, err, "q[1]", NULL);
    p->u.relay->q[1] = 0.5;
    p->u.relay->lb[1] = -INFINITY;
    p->u.relay->ub[0] = INFINITY;
    ns_problem *q = round_trip(p, NS_KIND_RELAY);
    assert_true(q->u.relay->lb[1] == -INFINITY && q->u.relay->ub[0] == INFINITY);
    assert_memory_equal(q->u.relay->lb, p->u.relay->lb, 2 * sizeof(double));
    assert_memory_equal(q->u.relay->ub, p->u.relay->ub, 2 * sizeof(double));
    ns_problem_free(q);
    ns_problem_free(p);
}

static void test_solution_write(void **state)
{
    (void)state;
    char tmp[4096], err[NS_ERRMSG_LEN] = "", line[128];
    ns_problem *p = read_text(LCP, NS_KIND_LCP);
    ns_solution *s = ns_solution_new(p);
    s->vec[0][0] = 0.1;
    ns_test_tmpname(tmp, sizeof tmp, ".txt");
    assert_int_equal(ns_solution_write(tmp, s, err), NS_OK);
    FILE *f = fopen(tmp, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "# z 2\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_true(strtod(line, NULL) == 0.1);
    fclose(f);
    remove(tmp);
    ns_solution_free(s);
    ns_problem_free(p);
}

/* -------------------------------------------------------- failures */

static void test_missing_file(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN] = "";
    ns_problem *p = NULL;
    ns_matrix *A = NULL;
    expect_msg(ns_problem_read("/nonexistent/dir/x.dat", NS_KIND_NONE, &p, err),
               NS_IO_ERROR, err, "/nonexistent/dir/x.dat:", "cannot open");
    assert_null(p);
    expect_msg(ns_matrix_read("/nonexistent/dir/m.dat", &A, err), NS_IO_ERROR, err,
               "/nonexistent/dir/m.dat:", "cannot open");
    ns_format fmt;
    ns_kind k;
    expect_msg(ns_problem_detect("/nonexistent/dir/x.dat", &fmt, &k, err), NS_IO_ERROR,
               err, "x.dat", NULL);
}

/* A failed write removes its partial output, but only a regular file:
 * /dev/full refuses every write, and removing it (as root) would delete
 * the device. */
static void test_write_error_leaves_a_device(void **state)
{
    (void)state;
    struct stat sb;
    if (stat("/dev/full", &sb) != 0 || !S_ISCHR(sb.st_mode)) skip();
    static const char TEXT[] = "2\n0\n2\n2\n2 2\n2 1\n1 2\n-1 -1\n";
    char err[NS_ERRMSG_LEN] = "";
    ns_problem *p = NULL;
    assert_int_equal(ns_problem_read_dat_buffer(TEXT, sizeof TEXT - 1, "t.dat", NS_KIND_LCP, &p, err), NS_OK);
    expect_msg(ns_problem_write("/dev/full", p, NS_FORMAT_DAT, err), NS_IO_ERROR, err,
               "/dev/full", "write error");
    assert_int_equal(stat("/dev/full", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    ns_problem_free(p);
}

static void test_empty_file(void **state)
{
    (void)state;
    char tmp[4096], err[NS_ERRMSG_LEN] = "";
    ns_problem *p = NULL;
    ns_test_tmpname(tmp, sizeof tmp, ".dat");
    assert_int_equal(ns_test_write_file(tmp, ""), 0);
    expect_msg(ns_problem_read(tmp, NS_KIND_NONE, &p, err), NS_BAD_INPUT, err, tmp, ":1: ");
    assert_null(p);
    remove(tmp);
    expect_problem_fail("  \n\n", NS_KIND_LCP, "t.dat:1:", "empty");
    expect_matrix_fail("", "t.dat:1:", "empty");
}

static void test_truncated_file(void **state)
{
    (void)state;
    /* q lacks its last value */
    expect_problem_fail("2\n0\n2\n2\n2\t2\n2 0\n1 3\n-1\n", NS_KIND_LCP, "t.dat:8:",
                        "q[1]: unexpected end of file");
    /* dense values stop early */
    expect_matrix_fail("0\n2\n2\n2\t2\n2 0\n1\n", "t.dat:", "end of file");
    /* the SBM example cut inside its last block */
    expect_matrix_fail("1\n4\n4\n3\n2\n2\n2\t4\n2\t4\n3\n3\n0\t2\t3\n0\t1\t1\n"
                       "0\n4\n1\n1\n5\n1\n0\n3\n2\n0\n2\n6\n1\n", "t.dat:12:",
                       "SBM: blocks: 15 values announced");
    /* the SBM example without its very last value */
    expect_matrix_fail("1\n4\n4\n3\n2\n2\n2\t4\n2\t4\n3\n3\n0\t2\t3\n0\t1\t1\n"
                       "0\n4\n1\n1\n5\n1\n0\n3\n2\n0\n2\n6\n1\n1\n", "t.dat:",
                       "end of file");
    /* the CSC example without its last entry line */
    expect_matrix_fail("2\n3\n3\n2\nbanner\n3-by-3, nzmax: 5 nnz: 5, 1-norm: 32\n"
                       "    col 0 : locations 0 to 1\n      0 : 10\n      2 : 1\n"
                       "    col 1 : locations 2 to 2\n      1 : 20\n"
                       "    col 2 : locations 3 to 4\n      0 : 2\n",
                       "t.dat:", "end of file");
    /* FC file without mu, detected: the furthest layout reports it */
    expect_problem_fail("3\n1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n-1 0 0\n",
                        NS_KIND_NONE, "t.dat:10:", "mu");
}

static void test_wrong_storage_code(void **state)
{
    (void)state;
    expect_problem_fail("2\n7\n2\n2\n2\t2\n2 0\n1 3\n-1 -2\n", NS_KIND_LCP, "t.dat:2:",
                        "M: storage: storage code 7");
    expect_matrix_fail("7\n2\n2\n2\t2\n2 0\n1 3\n", "t.dat:1:", "storage code 7");
    /* sparse origin code */
    expect_matrix_fail("2\n3\n3\n5\nbanner\n", "t.dat:4:", "origin code 5");
    expect_matrix_fail("2\n3\n3\n3\nbanner\n", "t.dat:4:", "CSR");
}

static void test_dimensions_disagree(void **state)
{
    (void)state;
    /* dense dimensions written twice must agree */
    expect_matrix_fail("0\n2\n2\n2\t3\n2 0\n1 3\n", "t.dat:4:", "disagrees");
    /* LCP n against M */
    expect_problem_fail("3\n0\n2\n2\n2\t2\n2 0\n1 3\n-1 -2\n", NS_KIND_LCP, "t.dat:",
                        "n = 3");
    /* FC: cols(M) != d*nc */
    expect_problem_fail("3\n2\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n-1 0 0\n0.3 0.3\n",
                        NS_KIND_FC3D, "t.dat:", "d*nc");
    /* GFC: rows(H) != rows(M) */
    expect_problem_fail("3\n1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n"
                        "0\n2\n3\n2\t3\n1 0\n0 1\n0 0\n0 0 0\n0 0 0\n0.5\n",
                        NS_KIND_GFC3D, "t.dat:", "H");
    /* SBM size against its header */
    expect_matrix_fail("1\n4\n5\n3\n2\n2\n2\t4\n2\t4\n3\n3\n", "t.dat:8:", "header says 4 x 5");
    /* sparse header line against the NumericsMatrix header */
    expect_matrix_fail("2\n3\n4\n2\nbanner\n3-by-3, nzmax: 5 nnz: 5, 1-norm: 32\n",
                       "t.dat:6:", "3-by-3");
    /* nnz above nzmax */
    expect_matrix_fail("2\n3\n3\n2\nbanner\n3-by-3, nzmax: 4 nnz: 5, 1-norm: 32\n",
                       "t.dat:6:", "nzmax");
    /* MLCP boundaries must end at n+m */
    expect_problem_fail("1\n0\n1\n2\n0 1 4\n", NS_KIND_MLCP, "t.dat:5:", "n+m");
    /* GMP needs an SBM matrix */
    expect_problem_fail(DENSE, NS_KIND_GMP, "t.dat:", "sparse-block");
}

static void test_non_numeric_tokens(void **state)
{
    (void)state;
    expect_problem_fail("2\n0\n2\n2\n2\t2\n2 0\n1 x3\n-1 -2\n", NS_KIND_LCP, "t.dat:7:",
                        "real number expected, found 'x3'");
    expect_problem_fail("two\n", NS_KIND_LCP, "t.dat:1: n:", "integer expected");
    expect_problem_fail("2.0\n0\n2\n", NS_KIND_LCP, "t.dat:1: n:", "'2.0'");
    expect_matrix_fail("0\n2\n2\n2\t2\n2 0x1\n1 3\n", "t.dat:5:", "0x1");
    expect_matrix_fail("0\n2\n2\n2\t2\n2 0\n1 1e\n", "t.dat:6:", "'1e'");
    /* a CSC header line that cannot be parsed */
    expect_matrix_fail("2\n3\n3\n2\nbanner\n3 by 3, nzmax: 5 nnz: 5\n", "t.dat:6:",
                       "unparsable header");
    /* a CSC entry line that is not "i : x" */
    expect_matrix_fail("2\n1\n1\n2\nbanner\n1-by-1, nzmax: 1 nnz: 1, 1-norm: 1\n"
                       "    col 0 : locations 0 to 0\n      0 = 1\n", "t.dat:8:", "entry 0");
}

static void test_nan_inf(void **state)
{
    (void)state;
    expect_problem_fail("2\n0\n2\n2\n2\t2\n2 0\n1 3\n-1 nan\n", NS_KIND_LCP, "t.dat:8:",
                        "q[1]: value 'nan' is not finite");
    expect_problem_fail("2\n0\n2\n2\n2\t2\n2 0\n-inf 3\n-1 -2\n", NS_KIND_LCP, "t.dat:7:",
                        "M[2]");
    expect_problem_fail("2\n0\n2\n2\n2\t2\n2 0\n1 3\n-1 1e999\n", NS_KIND_LCP, "t.dat:8:",
                        "not finite");
    expect_problem_fail("3\n1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n-1 0 0\nInfinity\n",
                        NS_KIND_FC3D, "t.dat:11: mu[0]", "not finite");
    expect_matrix_fail("2\n1\n1\n2\nbanner\n1-by-1, nzmax: 1 nnz: 1, 1-norm: 1\n"
                       "    col 0 : locations 0 to 0\n      0 : NaN\n", "t.dat:8:",
                       "not finite");
    expect_matrix_fail("2\n1\n1\n1\nbanner\ntriplet: 1-by-1, nzmax: 1 nnz: 1\n"
                       "    0 0 : inf\n", "t.dat:7:", "not finite");
}

static void test_absurd_sizes(void **state)
{
    (void)state;
    expect_matrix_fail("0\n1000000000000\n2\n", "t.dat:2:", "too large");
    expect_problem_fail("1000000000000\n", NS_KIND_LCP, "t.dat:1: n:", "too large");
    /* within the int range but not backed by the data: fails before allocating */
    expect_matrix_fail("0\n1000000000\n1000000000\n1000000000\t1000000000\n1 2 3\n",
                       "t.dat:", "bytes of data");
    expect_matrix_fail("1\n1000000\n1000000\n1000000000\n1000000000\n1000000000\n",
                       "t.dat:", "bytes of data");
    expect_matrix_fail("2\n1000000000\n1000000000\n1\nbanner\n"
                       "triplet: 1000000000-by-1000000000, nzmax: 1 nnz: 1\n 0 0 : 1\n",
                       "t.dat:6:", "not backed");
    expect_matrix_fail("2\n1000\n1000\n2\nbanner\n1000-by-1000, nzmax: 1000000000 nnz: "
                       "1000000000, 1-norm: 1\n", "t.dat:6:", "bytes of data");
    expect_problem_fail("3\n1000000000\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n", NS_KIND_FC3D,
                        "t.dat:", "d*nc");
    expect_problem_fail("1\n1\n1000000000\n1000000000\n", NS_KIND_MLCP, "t.dat:", NULL);
    expect_problem_fail("0\n1\n100000\n100000\n1 2\n", NS_KIND_MLCP, "t.dat:4:",
                        "bytes of data");
}

static void test_sbm_wrong_block_label(void **state)
{
    (void)state;
    /* label of block 1 written as 5 (line 19) */
    expect_matrix_fail("1\n4\n4\n3\n2\n2\n2\t4\n2\t4\n3\n3\n0\t2\t3\n0\t1\t1\n"
                       "0\n4\n1\n1\n5\n5\n0\n3\n2\n0\n2\n6\n1\n1\n7\n",
                       "t.dat:18:", "block labelled 5, expected 1");
}

static void test_sbm_structure_errors(void **state)
{
    (void)state;
    /* nidx != nbblocks */
    expect_matrix_fail("1\n4\n4\n3\n2\n2\n2\t4\n2\t4\n3\n2\n", "t.dat:10:", "nidx");
    /* boundaries not increasing */
    expect_matrix_fail("1\n4\n4\n3\n2\n2\n4\t4\n2\t4\n3\n3\n0\t2\t3\n0\t1\t1\n",
                       "t.dat:7:", "strictly increasing");
    /* row pointers not ending at nbblocks */
    expect_matrix_fail("1\n4\n4\n3\n2\n2\n2\t4\n2\t4\n3\n3\n0\t2\t2\n0\t1\t1\n"
                       "0\n4\n1\n1\n5\n1\n0\n3\n2\n0\n2\n6\n1\n1\n7\n", "t.dat:11:",
                       "last row pointer");
    /* block column out of range */
    expect_matrix_fail("1\n4\n4\n3\n2\n2\n2\t4\n2\t4\n3\n3\n0\t2\t3\n0\t1\t2\n"
                       "0\n4\n1\n1\n5\n1\n0\n3\n2\n0\n2\n6\n1\n1\n7\n",
                       "t.dat:12:", "blockcol[2]");
}

static void test_csc_non_contiguous_locations(void **state)
{
    (void)state;
    expect_matrix_fail("2\n3\n3\n2\nbanner\n3-by-3, nzmax: 5 nnz: 5, 1-norm: 32\n"
                       "    col 0 : locations 0 to 1\n      0 : 10\n      2 : 1\n"
                       "    col 1 : locations 3 to 3\n      1 : 20\n",
                       "t.dat:10:", "not contiguous");
    /* entries fewer than nnz */
    expect_matrix_fail("2\n2\n1\n2\nbanner\n2-by-1, nzmax: 2 nnz: 2, 1-norm: 1\n"
                       "    col 0 : locations 0 to 0\n      0 : 1\n", "t.dat:", "nnz = 2");
}

static void test_index_out_of_range(void **state)
{
    (void)state;
    expect_matrix_fail("2\n3\n3\n2\nbanner\n3-by-3, nzmax: 5 nnz: 5, 1-norm: 32\n"
                       "    col 0 : locations 0 to 1\n      0 : 10\n      3 : 1\n"
                       "    col 1 : locations 2 to 2\n      1 : 20\n"
                       "    col 2 : locations 3 to 4\n      0 : 2\n      2 : 30\n",
                       "t.dat:9:", "row index 3 out of range");
    expect_matrix_fail("2\n3\n3\n1\nbanner\ntriplet: 3-by-3, nzmax: 1 nnz: 1\n"
                       "    0 3 : 10\n", "t.dat:7:", "column");
    expect_matrix_fail("2\n3\n3\n1\nbanner\ntriplet: 3-by-3, nzmax: 1 nnz: 1\n"
                       "    -1 0 : 10\n", "t.dat:7:", "row");
    /* GMP sub-problem type outside the file codes */
    expect_problem_fail("1\n1\n1\n1\n1\n1\n1\t\n1\t\n2\n1\n0\t1\t\n0\t\n0\n2\n3\n12\n",
                        NS_KIND_GMP, "t.dat:16:", "type[0]");
}

static void test_detection_failure_names_file_and_line(void **state)
{
    (void)state;
    expect_problem_fail("hello world\n", NS_KIND_NONE, "t.dat:1:", "no .dat layout");
}

/* Detection commits to the layout whose header matched (formats-extensions
 * §2): a NaN in each kind's data is reported by that kind, with its line,
 * not as the error of whichever layout read furthest. */
static void replace_once(char *buf, size_t cap, const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    assert_non_null(at);
    snprintf(buf, cap, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

static void test_detection_commits_to_matching_layout(void **state)
{
    (void)state;
    char t[1024];
    /* MLCP: M's first value (line 11) */
    replace_once(t, sizeof t, MLCP, "2 1 0\n", "nan 1 0\n");
    expect_problem_fail(t, NS_KIND_NONE, "t.dat:11: M[0]: value 'nan' is not finite", "read as mlcp");
    /* GFC: H's second value (line 17) */
    replace_once(t, sizeof t, GFC3D, "1 0 0\n-1 0 0\n", "1 nan 0\n-1 0 0\n");
    expect_problem_fail(t, NS_KIND_NONE, "t.dat:17: H[1]: value 'nan' is not finite", "read as gfc3d");
    /* GMP: q (line 25) */
    replace_once(t, sizeof t, GMP, "-1 -1 0 0\n", "-1 inf 0 0\n");
    expect_problem_fail(t, NS_KIND_NONE, "q[1]: value 'inf' is not finite", "read as gmp");
    /* relay: exactly 2n numbers after q, one of them NaN */
    replace_once(t, sizeof t, RELAY, "-1 0\n1 2\n", "-1 0\n1 nan\n");
    expect_problem_fail(t, NS_KIND_NONE, "ub[1]: value 'nan' is not finite", "read as relay");
    /* LCP: a malformed value in M */
    replace_once(t, sizeof t, LCP, "1 3\n", "1 x3\n");
    expect_problem_fail(t, NS_KIND_NONE, "t.dat:7: M[3]: real number expected, found 'x3'", "read as lcp");
}

/* The AVI layout with its set (docs/formats-extensions.md §1): the
 * polyhedron example read by detection with hand-checked values, a box
 * with open sides written and read back bit for bit, and the errors. */
static const char AVI_POLY[] =
    "2\n0\n2\n2\n2\t2\n1 0\n0 0\n0 -1\navi-polyhedron\n0\n1\n2\n1\t2\n1 1\n1\n";

static void test_avi_layout(void **state)
{
    (void)state;
    ns_problem *p = read_text(AVI_POLY, NS_KIND_NONE);
    assert_int_equal(p->kind, NS_KIND_AVI);
    const ns_avi *a = p->u.avi;
    assert_int_equal(a->n, 2);
    assert_non_null(a->H);
    assert_int_equal(a->H->rows, 1);
    assert_true(a->H->dense[0] == 1.0 && a->H->dense[1] == 1.0 && a->h[0] == 1.0);
    assert_true(a->q[0] == 0.0 && a->q[1] == -1.0 && a->M->dense[0] == 1.0);
    ns_problem *b = round_trip(p, NS_KIND_NONE);
    assert_int_equal(b->kind, NS_KIND_AVI);
    assert_memory_equal(b->u.avi->H->dense, a->H->dense, 2 * sizeof(double));
    ns_problem_free(b);
    ns_problem_free(p);
    /* explicit kind without a set: Siconos' own layout, K = R^n */
    p = read_text(LCP, NS_KIND_AVI);
    assert_null(p->u.avi->H);
    assert_null(p->u.avi->lb);
    ns_problem_free(p);

    /* box with open sides: -inf / inf written as words, read back exactly */
    ns_matrix *M = ns_matrix_dense_new(3, 3);
    for (int i = 0; i < 3; i++) M->dense[i * 4] = 1.0 + i;
    double q[3] = { -1, 0.1, 1e-300 }, lb[3] = { -INFINITY, -1, 0.3 }, ub[3] = { 2, INFINITY, 0.7 };
    ns_avi *av = ns_avi_new(M, q);
    assert_int_equal(ns_avi_set_box(av, lb, ub), NS_OK);
    p = ns_problem_from_avi(av);
    b = round_trip(p, NS_KIND_NONE);
    assert_int_equal(b->kind, NS_KIND_AVI);
    assert_null(b->u.avi->H);
    assert_memory_equal(b->u.avi->lb, lb, sizeof lb);
    assert_memory_equal(b->u.avi->ub, ub, sizeof ub);
    assert_memory_equal(b->u.avi->q, q, sizeof q);
    ns_problem_free(b);
    ns_problem_free(p);

    /* errors, reported as avi once the keyword matched */
    const char *head = "2\n0\n2\n2\n2\t2\n1 0\n0 1\n-1 1\n";
    char t[512];
    snprintf(t, sizeof t, "%savi-box\n0 0\n1 -1\n", head);
    expect_problem_fail(t, NS_KIND_NONE, "t.dat:11: ub[1]: lb[1] = 0 > ub[1] = -1", "read as avi");
    snprintf(t, sizeof t, "%savi-box\ninf 0\n1 1\n", head);
    expect_problem_fail(t, NS_KIND_NONE, "t.dat:10: lb[0]: inf is not allowed as a lower bound", NULL);
    snprintf(t, sizeof t, "%savi-box\n0 0\n1 -inf\n", head);
    expect_problem_fail(t, NS_KIND_NONE, "ub[1]: -inf is not allowed as an upper bound", NULL);
    snprintf(t, sizeof t, "%savi-box\nnan 0\n1 1\n", head);
    expect_problem_fail(t, NS_KIND_NONE, "lb[0]: value 'nan' is not finite", "read as avi");
    snprintf(t, sizeof t, "%savi-polyhedron\n0\n1\n3\n1\t3\n1 1 1\n1\n", head);
    expect_problem_fail(t, NS_KIND_NONE, "H: 1 x 3 matrix: expected 2 columns", "read as avi");
    snprintf(t, sizeof t, "%savi-polyhedron\n0\n1\n2\n1\t2\n1 1\n", head);
    expect_problem_fail(t, NS_KIND_NONE, "h[0]: unexpected end of file", "read as avi");
    /* an unknown word after q is trailing content of an LCP */
    snprintf(t, sizeof t, "%savi-sphere\n1\n", head);
    p = read_text(t, NS_KIND_NONE);
    assert_int_equal(p->kind, NS_KIND_LCP);
    ns_problem_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dense_example),
        cmocka_unit_test(test_sbm_example),
        cmocka_unit_test(test_csc_and_triplet_examples),
        cmocka_unit_test(test_unsorted_csc_column_kept),
        cmocka_unit_test(test_lcp_example),
        cmocka_unit_test(test_lcp_trailing_tokens),
        cmocka_unit_test(test_relay_example),
        cmocka_unit_test(test_mlcp_example),
        cmocka_unit_test(test_mlcp_single_forms),
        cmocka_unit_test(test_mlcp_empty_blocks_round_trip),
        cmocka_unit_test(test_rectangular_mlcp),
        cmocka_unit_test(test_fc3d_example),
        cmocka_unit_test(test_gfc3d_example),
        cmocka_unit_test(test_gmp_example),
        cmocka_unit_test(test_gmp_relay_and_fc2d_round_trip),
        cmocka_unit_test(test_matrix_write_round_trip),
        cmocka_unit_test(test_exact_round_trip_of_awkward_values),
        cmocka_unit_test(test_writer_refuses_nonfinite),
        cmocka_unit_test(test_solution_write),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_write_error_leaves_a_device),
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_truncated_file),
        cmocka_unit_test(test_wrong_storage_code),
        cmocka_unit_test(test_dimensions_disagree),
        cmocka_unit_test(test_non_numeric_tokens),
        cmocka_unit_test(test_nan_inf),
        cmocka_unit_test(test_absurd_sizes),
        cmocka_unit_test(test_sbm_wrong_block_label),
        cmocka_unit_test(test_sbm_structure_errors),
        cmocka_unit_test(test_csc_non_contiguous_locations),
        cmocka_unit_test(test_index_out_of_range),
        cmocka_unit_test(test_detection_failure_names_file_and_line),
        cmocka_unit_test(test_avi_layout),
        cmocka_unit_test(test_detection_commits_to_matching_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
