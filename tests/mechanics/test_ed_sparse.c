/* test_ed_sparse.c — the event-driven scheme on a system with sparse
 * matrices (nsm_ds_lagrangian_lti_sparse_new): its mass matrix is
 * factorised sparse (CHOLMOD) and CVODE's Newton iteration uses
 * matrix-free GMRES, so nothing of size n² is allocated.
 *
 * The model: a free elastic bar of NB nodes (linear finite elements,
 * consistent mass ρS l/6 [4 1; 1 4 ...], stiffness ES/l [2 −1; ...], ends
 * halved), moving rigidly at V0 towards a wall that node 0 meets when its
 * displacement reaches −GAP (y = q₀ + GAP ≥ 0, Newton law e = 0.5).
 *
 * 1. Analytic: with no external force the bar translates undeformed
 *    (K 1 = 0) until node 0 touches: the first impact at t = GAP / |V0|
 *    exactly (to 1e-9 s) in every run below.
 * 2. Same model, sparse matrices (CHOLMOD + GMRES, the default 'auto')
 *    against dense matrices (dense LU + dense Newton matrix), and the
 *    dense model with GMRES forced: the same impacts (count, times to
 *    1e-7 s) and the same state at every output time and at T (1e-6
 *    relative to the largest |q|, 1e-5 to the largest |v|, after 13
 *    impacts): the linear solver changes how CVODE's Newton iterations
 *    converge, not the solution, beyond the integration tolerance.
 * 3. Conservation, e = 1, sparse path: between events 1ᵀM v is constant
 *    (1ᵀK = 0), so at T it equals its initial value plus the impact
 *    impulses (λ[1] of each impact event; the run has no resting phase,
 *    checked); the energy ½vᵀMv + ½qᵀKq is conserved by elastic impacts.
 *    Both recomputed with the test's own sparse products.
 * 4. Size: 10 000 nodes (a dense path would allocate a (2n)² Newton
 *    matrix of 3.2 GB) run through the first impacts with the sparse path;
 *    the process's peak RSS grows by less than 150 MB.
 * 5. Bad option: linear_solver out of range is refused with a reason. */
#include <sys/resource.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nsm.h"
#include "ns_test.h"

#define GAP 0.01
#define V0 1.0

typedef struct bar {
    int n, ds, in;
    ns_matrix *M, *K;
    nsm_model *m;
} bar;

/* The bar of length 1, ρS = 1, ES = es. sparse: CSC system; else dense. */
static bar make_bar(int n, int sparse, double es, double e)
{
    bar b = { .n = n };
    double l = 1.0 / (n - 1);
    b.M = ns_test_tridiag(n, 4.0, 2.0, 1.0, l / 6.0);   /* consistent mass, ρS = 1 */
    b.K = ns_test_tridiag(n, 2.0, 1.0, -1.0, es / l);
    assert_true(b.M && b.K);
    double *q0 = calloc((size_t)n, sizeof *q0), *v0 = malloc((size_t)n * sizeof *v0);
    double *H = calloc((size_t)n, sizeof *H);
    assert_true(q0 && v0 && H);
    for (int i = 0; i < n; i++) v0[i] = -V0;
    H[0] = 1.0;
    nsm_ds *ds;
    if (sparse) ds = nsm_ds_lagrangian_lti_sparse_new(n, b.M, NULL, b.K, q0, v0);
    else {
        ns_matrix *Md = ns_matrix_to_dense(b.M), *Kd = ns_matrix_to_dense(b.K);
        ds = nsm_ds_lagrangian_lti_new(n, Md->dense, q0, v0);
        assert_non_null(ds);
        assert_int_equal(nsm_ds_set_stiffness(ds, Kd->dense), NS_OK);
        ns_matrix_free(Md); ns_matrix_free(Kd);
    }
    if (!ds) fail_msg("constructor: %s", nsm_constructor_error());
    b.m = nsm_model_new();
    b.ds = nsm_model_add_ds(b.m, ds);
    int law = nsm_model_add_law(b.m, nsm_nslaw_newton_new(1, e));
    double gap = GAP;
    b.in = nsm_model_add_interaction(b.m, nsm_relation_lagrangian_linear_new(1, n, H, &gap), law, b.ds, -1);
    assert_true(b.in >= 0);
    free(q0); free(v0); free(H);
    return b;
}

static void free_bar(bar *b)
{
    nsm_model_free(b->m);
    ns_matrix_free(b->M);
    ns_matrix_free(b->K);
}

/* xᵀ A y by our own CSC product. */
static double form(const ns_matrix *A, const double *x, const double *y)
{
    double s = 0.0;
    for (ns_int c = 0; c < A->cols; c++)
        for (ns_int k = A->csc.p[c]; k < A->csc.p[c + 1]; k++) s += x[A->csc.i[k]] * A->csc.x[k] * y[c];
    return s;
}

/* 1ᵀ M v by our own CSC product. */
static double momentum(const ns_matrix *M, const double *v)
{
    double p = 0.0;
    for (ns_int c = 0; c < M->cols; c++)
        for (ns_int k = M->csc.p[c]; k < M->csc.p[c + 1]; k++) p += M->csc.x[k] * v[c];
    return p;
}

#define MAXEV 64
#define MAXOUT 256
typedef struct rec {
    const bar *b;
    int nimp, nout, rests;
    double timp[MAXEV], pimp[MAXEV];   /* impact times and impulses λ[1] */
    double tout[MAXOUT];
    double *qout, *vout;               /* MAXOUT × n */
} rec;

static int obs(nsm_ed *s, const nsm_event *ev, void *user)
{
    rec *r = user;
    if (ev->type == NSM_EVENT_NONSMOOTH && ev->impact && r->nimp < MAXEV) {
        r->timp[r->nimp] = ev->t;
        r->pimp[r->nimp] = nsm_ed_lambda(s, r->b->in, 1)[0];
        r->nimp++;
    }
    if (ev->type == NSM_EVENT_NONSMOOTH) r->rests += ev->rested;
    if (ev->type == NSM_EVENT_TIME && r->qout && r->nout < MAXOUT) {
        int n = r->b->n;
        r->tout[r->nout] = ev->t;
        memcpy(r->qout + (size_t)r->nout * n, nsm_ed_q(s, r->b->ds), (size_t)n * sizeof(double));
        memcpy(r->vout + (size_t)r->nout * n, nsm_ed_v(s, r->b->ds), (size_t)n * sizeof(double));
        r->nout++;
    }
    return 0;
}

static nsm_ed *make_ed(bar *b, double T, double out, nsm_ed_linsol ls)
{
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = T; o.output_step = out;
    o.method = NSM_ED_BDF;        /* a stiff bar */
    o.rtol = 1e-9; o.atol = 1e-12;
    o.linear_solver = ls;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *s = nsm_ed_new(b->m, &o, err);
    if (!s) fail_msg("nsm_ed_new: %s", err);
    return s;
}

static void run_rec(bar *b, nsm_ed_linsol ls, double T, rec *r)
{
    memset(r, 0, sizeof *r);
    r->b = b;
    r->qout = calloc((size_t)MAXOUT * b->n, sizeof(double));
    r->vout = calloc((size_t)MAXOUT * b->n, sizeof(double));
    assert_true(r->qout && r->vout);
    nsm_ed *s = make_ed(b, T, T / 50, ls);
    assert_int_equal(nsm_ed_run(s, obs, r), NS_OK);
    const nsm_ed_stats *st = nsm_ed_get_stats(s);
    printf("  n = %d, linear solver %d: %ld CVODE steps, %ld rhs, %ld dense Jacobians, %ld GMRES "
           "iterations, %d impacts, %d rests\n", b->n, (int)ls, st->cvode_steps, st->rhs_evals,
           st->jac_evals, st->lin_iters, r->nimp, r->rests);
    if (ls == NSM_ED_LS_DENSE) assert_true(st->jac_evals > 0 && st->lin_iters == 0);
    else assert_true(st->jac_evals == 0 && st->lin_iters > 0);
    nsm_ed_free(s);
}

static void free_rec(rec *r) { free(r->qout); free(r->vout); }

static void compare(const rec *a, const rec *b, int n)
{
    assert_int_equal(a->nimp, b->nimp);
    assert_int_equal(a->nout, b->nout);
    double dt = 0;
    for (int k = 0; k < a->nimp; k++) dt = fmax(dt, fabs(a->timp[k] - b->timp[k]));
    double sq = 0, sv = 0, dq = 0, dv = 0;
    for (size_t k = 0; k < (size_t)a->nout * n; k++) {
        sq = fmax(sq, fabs(b->qout[k])); sv = fmax(sv, fabs(b->vout[k]));
        dq = fmax(dq, fabs(a->qout[k] - b->qout[k])); dv = fmax(dv, fabs(a->vout[k] - b->vout[k]));
    }
    printf("  max |Δt_impact| = %.2e s, max |Δq| / max|q| = %.2e, max |Δv| / max|v| = %.2e over %d outputs\n",
           dt, dq / sq, dv / sv, a->nout);
    assert_true(dt <= 1e-7);
    assert_true(dq <= 1e-6 * sq);
    assert_true(dv <= 1e-5 * sv);
}

/* 1 and 2: sparse (auto) against dense, and dense with GMRES forced. */
static void test_sparse_vs_dense(void **state)
{
    (void)state;
    const int n = 30;
    const double T = 0.06;
    bar bs = make_bar(n, 1, 10.0, 0.5), bd = make_bar(n, 0, 10.0, 0.5);
    static rec rs, rd, rk;
    run_rec(&bs, NSM_ED_LS_AUTO, T, &rs);
    run_rec(&bd, NSM_ED_LS_DENSE, T, &rd);
    run_rec(&bd, NSM_ED_LS_KRYLOV, T, &rk);
    assert_true(rd.nimp >= 1);
    double t1 = GAP / V0;
    printf("  first impact: sparse %.12f, dense %.12f, dense+GMRES %.12f (exact %.12f)\n",
           rs.timp[0], rd.timp[0], rk.timp[0], t1);
    assert_true(fabs(rs.timp[0] - t1) <= 1e-9);
    assert_true(fabs(rd.timp[0] - t1) <= 1e-9);
    assert_true(fabs(rk.timp[0] - t1) <= 1e-9);
    compare(&rs, &rd, n);
    compare(&rk, &rd, n);
    free_rec(&rs); free_rec(&rd); free_rec(&rk);
    free_bar(&bs); free_bar(&bd);
}

/* 3: momentum balance through the impacts, sparse path. */
static void test_momentum(void **state)
{
    (void)state;
    const int n = 30;
    bar b = make_bar(n, 1, 10.0, 1.0);
    static rec r;
    run_rec(&b, NSM_ED_LS_AUTO, 0.03, &r);
    assert_true(r.nimp >= 1);
    assert_int_equal(r.rests, 0);   /* no resting phase: the impulses are all impacts */
    double *ones = malloc((size_t)n * sizeof *ones);
    for (int i = 0; i < n; i++) ones[i] = -V0;
    double pinit = momentum(b.M, ones), pimp = 0.0;
    for (int k = 0; k < r.nimp; k++) pimp += r.pimp[k];
    const double *vT = r.vout + (size_t)(r.nout - 1) * n;
    double pend = momentum(b.M, vT);
    printf("  momentum: initial %.15f, impulses %.15f, final %.15f (last output t = %g)\n", pinit, pimp, pend,
           r.tout[r.nout - 1]);
    assert_true(fabs(pend - (pinit + pimp)) <= 1e-8 * fabs(pinit));
    assert_true(pimp > 0);
    const double *qT = r.qout + (size_t)(r.nout - 1) * n;
    double e0 = 0.5 * form(b.M, ones, ones), eT = 0.5 * form(b.M, vT, vT) + 0.5 * form(b.K, qT, qT);
    printf("  energy: initial %.15f, final %.15f\n", e0, eT);
    assert_true(fabs(eT - e0) <= 1e-6 * e0);
    free(ones);
    free_rec(&r);
    free_bar(&b);
}

static long peak_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

/* 4: 10 000 nodes through the first impact. */
static void test_large(void **state)
{
    (void)state;
    const int n = 10000;
    long before = peak_kb();
    bar b = make_bar(n, 1, 10.0, 0.5);
    nsm_ed *s = make_ed(&b, 1.01 * GAP / V0, 0.25 * GAP / V0, NSM_ED_LS_AUTO);
    static rec r;
    memset(&r, 0, sizeof r);
    r.b = &b;
    assert_int_equal(nsm_ed_run(s, obs, &r), NS_OK);
    long grown = peak_kb() - before;
    const nsm_ed_stats *st = nsm_ed_get_stats(s);
    printf("  n = %d: %ld CVODE steps, %ld GMRES iterations, %d impacts (first at %.12f), peak RSS +%ld kB\n",
           n, st->cvode_steps, st->lin_iters, r.nimp, r.nimp ? r.timp[0] : -1.0, grown);
    assert_true(r.nimp >= 1);
    assert_true(fabs(r.timp[0] - GAP / V0) <= 1e-9);
    assert_true(st->jac_evals == 0);
    assert_true(grown < 150 * 1024);
    nsm_ed_free(s);
    free_bar(&b);
}

/* 5. */
static void test_bad_linear_solver(void **state)
{
    (void)state;
    bar b = make_bar(5, 1, 10.0, 0.5);
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = 1.0;
    o.linear_solver = (nsm_ed_linsol)7;
    char err[NS_ERRMSG_LEN] = "";
    assert_null(nsm_ed_new(b.m, &o, err));
    assert_non_null(strstr(err, "linear_solver"));
    free_bar(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_vs_dense),
        cmocka_unit_test(test_momentum),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_bad_linear_solver),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
