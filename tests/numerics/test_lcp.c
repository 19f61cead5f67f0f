/* test_lcp.c — LCP solvers on problems with known properties: random
 * positive definite, P-matrix (non-symmetric, triangular) and copositive-plus
 * (PSD + skew) M with a planted solution, Murty's example with its analytic
 * solution, degenerate problems (z_i = w_i = 0 at the solution), a proven
 * infeasible problem, and bad input. Every check recomputes w = M z + q and
 * the complementarity defect with plain loops, independently of the solver's
 * report and of ns_lcp_error. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

/* ‖z − max(0, z − w)‖ / max(‖q‖, 1) with w = M z + q from plain loops. */
static double indep_error(const double *M, const double *q, const double *z, int n)
{
    double s = 0, qn = 0;
    for (int i = 0; i < n; i++) {
        long double w = q[i];
        for (int j = 0; j < n; j++) w += (long double)M[i + (size_t)j * n] * z[j];
        double r = z[i] - fmax(0.0, z[i] - (double)w);
        s += r * r;
        qn += q[i] * q[i];
    }
    return sqrt(s) / fmax(sqrt(qn), 1.0);
}

/* Solves with `solver`, checks status and the independent error. */
static void solve_check(const double *M, const double *q, int n, const char *solver,
                        double tol, double *zout)
{
    ns_matrix *A = ns_matrix_dense_new(n, n);
    memcpy(A->dense, M, sizeof(double) * (size_t)n * n);
    ns_problem *p = ns_problem_from_lcp(ns_lcp_new(A, q));
    assert_non_null(p);
    ns_solution *s = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = tol;
    ns_result r;
    ns_status st = ns_solve(p, solver, &o, s, &r);
    if (st != NS_CONVERGED)
        fail_msg("%s n=%d: %s (%s) error %g", solver, n, ns_status_name(st), r.message, r.error);
    for (int i = 0; i < n; i++)
        if (!(s->vec[0][i] >= -tol)) fail_msg("%s n=%d: z[%d] = %g < 0", solver, n, i, s->vec[0][i]);
    double e = indep_error(M, q, s->vec[0], n);
    if (!(e <= tol)) fail_msg("%s n=%d: independent error %g > %g", solver, n, e, tol);
    if (zout) memcpy(zout, s->vec[0], sizeof(double) * (size_t)n);
    ns_solution_free(s);
    ns_problem_free(p);
}

enum { PD, PMAT, COPOS };

/* Random M of a class and q = w* − M z* with a planted complementary pair
 * (z*, w*); `degenerate` also zeroes both z*_i and w*_i on every 4th row. */
static void make_problem(ns_rng *g, int n, int cls, int degenerate, double *M, double *q)
{
    double *A = malloc(sizeof(double) * (size_t)n * n);
    for (size_t k = 0; k < (size_t)n * n; k++) A[k] = ns_rng_range(g, -1, 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double v = 0;
            if (cls == PMAT) {   /* upper triangular, positive diagonal: P, not PD
                                    (off-diagonal O(4/n) keeps it well conditioned) */
                v = i < j ? 4.0 * A[i + (size_t)j * n] / n
                          : (i == j ? 0.5 + fabs(A[i + (size_t)i * n]) : 0.0);
            } else {
                /* AᵀA/n (PSD) + skew part; PD adds the identity */
                int kmax = cls == COPOS ? n / 2 : n;   /* rank-deficient for COPOS */
                for (int k = 0; k < kmax; k++) v += A[k + (size_t)i * n] * A[k + (size_t)j * n];
                v /= n;
                v += 0.5 * (A[i + (size_t)j * n] - A[j + (size_t)i * n]);
                if (cls == PD && i == j) v += 0.1;
            }
            M[i + (size_t)j * n] = v;
        }
    double *z = malloc(sizeof(double) * n), *w = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) {
        int active = ns_rng_uniform(g) < 0.5;
        z[i] = active ? ns_rng_range(g, 0.1, 2) : 0.0;
        w[i] = active ? 0.0 : ns_rng_range(g, 0.1, 2);
        if (degenerate && i % 4 == 0) z[i] = w[i] = 0.0;
    }
    for (int i = 0; i < n; i++) {
        q[i] = w[i];
        for (int j = 0; j < n; j++) q[i] -= M[i + (size_t)j * n] * z[j];
    }
    free(A); free(z); free(w);
}

static void run_class(const char *solver, int cls, int degenerate, const int *sizes, int ns)
{
    ns_rng g;
    ns_rng_seed(&g, 1234 + (uint64_t)cls * 7 + (uint64_t)degenerate);
    for (int t = 0; t < ns; t++) {
        int n = sizes[t];
        double *M = malloc(sizeof(double) * (size_t)n * n), *q = malloc(sizeof(double) * n);
        make_problem(&g, n, cls, degenerate, M, q);
        solve_check(M, q, n, solver, 1e-10, NULL);
        free(M); free(q);
    }
}

static const int sizes_all[] = { 10, 50, 200, 1000 };
static const int sizes_small[] = { 10, 50, 200 };

static void test_lemke_pd(void **s) { (void)s; run_class("lemke", PD, 0, sizes_all, 4); }
static void test_lemke_pmatrix(void **s) { (void)s; run_class("lemke", PMAT, 0, sizes_all, 4); }
static void test_lemke_copositive(void **s) { (void)s; run_class("lemke", COPOS, 0, sizes_all, 4); }
static void test_lemke_degenerate(void **s) { (void)s; run_class("lemke", PD, 1, sizes_small, 3);
                                              run_class("lemke", COPOS, 1, sizes_small, 3); }
static void test_newton_fb_pd(void **s) { (void)s; run_class("newton-fb", PD, 0, sizes_all, 4); }
static void test_newton_fb_pmatrix(void **s) { (void)s; run_class("newton-fb", PMAT, 0, sizes_all, 4); }
static void test_newton_fb_copositive(void **s) { (void)s; run_class("newton-fb", COPOS, 0, sizes_all, 4); }
static void test_newton_fb_degenerate(void **s) { (void)s; run_class("newton-fb", PD, 1, sizes_small, 3);
                                                  run_class("newton-fb", COPOS, 1, sizes_small, 3); }
static void test_newton_min_pd(void **s) { (void)s; run_class("newton-min", PD, 0, sizes_small, 3); }
static void test_enum_small(void **s)
{
    (void)s;
    static const int n[] = { 3, 8, 12 };
    run_class("enum", PD, 0, n, 3);
    run_class("enum", COPOS, 1, n, 3);
}
static void test_pgs_psor_pd_symmetric(void **s)
{
    (void)s;
    /* symmetric PD: PGS and PSOR converge */
    int n = 60;
    ns_rng g;
    ns_rng_seed(&g, 99);
    double *M = malloc(sizeof(double) * n * n), *q = malloc(sizeof(double) * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++) {
            double v = i == j ? n : ns_rng_range(&g, -1, 1);
            M[i + j * n] = M[j + i * n] = v;
        }
    for (int i = 0; i < n; i++) q[i] = ns_rng_range(&g, -5, 5);
    solve_check(M, q, n, "pgs", 1e-10, NULL);
    solve_check(M, q, n, "psor", 1e-10, NULL);
    free(M); free(q);
}

/* Murty's example: M upper triangular, 1 on the diagonal, 2 above; q = −e.
 * Back substitution gives the unique solution z = e_n, w = (1, …, 1, 0). */
static void test_murty(void **s)
{
    (void)s;
    const char *solvers[] = { "lemke", "newton-fb" };
    for (int n = 8; n <= 16; n++) {
        double *M = calloc((size_t)n * n, sizeof(double)), *q = malloc(sizeof(double) * n);
        double *z = malloc(sizeof(double) * n);
        for (int j = 0; j < n; j++) {
            q[j] = -1;
            for (int i = 0; i <= j; i++) M[i + j * n] = i == j ? 1 : 2;
        }
        for (int k = 0; k < 2; k++) {
            solve_check(M, q, n, solvers[k], 1e-12, z);
            for (int i = 0; i < n; i++)
                if (fabs(z[i] - (i == n - 1 ? 1.0 : 0.0)) > 1e-12)
                    fail_msg("%s murty n=%d: z[%d] = %g", solvers[k], n, i, z[i]);
        }
        free(M); free(q); free(z);
    }
}

/* Infeasible: row 0 of M is ≤ 0 and q_0 < 0, so w_0 < 0 for every z ≥ 0.
 * Lemke must end on a ray with status no_solution, with a Farkas
 * certificate that ns_solve checked; y = e_0 is one, checked here too. */
static void test_lemke_infeasible(void **s)
{
    (void)s;
    double M[9] = { 0, 1, -1, -1, 0, 0, -1, 0, 0 }, q[3] = { -1e-4, -1, 1 };
    for (int j = 0; j < 3; j++) assert_true(M[0 + 3 * j] <= 0);
    assert_true(q[0] < 0);
    ns_matrix *A = ns_matrix_dense_new(3, 3);
    memcpy(A->dense, M, sizeof M);
    ns_problem *p = ns_problem_from_lcp(ns_lcp_new(A, q));
    ns_solution *sol = ns_solution_new(p);
    ns_result r;
    assert_int_equal(ns_solve(p, "lemke", NULL, sol, &r), NS_NO_SOLUTION);
    assert_true(strstr(r.message, "ray") != NULL);
    assert_int_equal(r.cert.kind, NS_CERT_FARKAS);
    assert_int_equal(r.cert.checked, 1);
    ns_result_clear(&r);
    assert_int_equal(ns_solve(p, "enum", NULL, sol, &r), NS_NO_SOLUTION);
    assert_int_equal(r.cert.checked, 1);
    ns_result_clear(&r);
    ns_certificate c;
    memset(&c, 0, sizeof c);
    double y[3] = { 1, 0, 0 };
    c.kind = NS_CERT_FARKAS;
    c.len = 3;
    c.y = y;
    assert_int_equal(ns_certificate_check(p, &c, NULL), NS_OK);
    assert_true(c.checked && c.gap < 0 && c.violation == 0);
    ns_solution_free(sol);
    ns_problem_free(p);
}

/* Zero diagonal given to pgs: unsupported (a valid LCP pgs does not apply to), naming the row; no crash. */
/* Lemke is invariant under q → αq (the solution scales by α): its ratio
 * test's tie tolerance follows the scale of q. A resting contact gives
 * q = (−2.66e-15, 0, 0) (mechanics, test_ed_beads); before, every ratio
 * counted as tied and lemke ended with z = 0, error 1. Checked for
 * α = 1e-15, 1, 1e10 on a degenerate q (zeros): converged, z(α)/α = z(1)
 * to 1e-12, and the error relative to ‖q‖ (own loops) at rounding level. */
static void test_lemke_scale_invariant(void **s)
{
    (void)s;
    const double M[9] = { 2, -1, 0.5, -1, 3, -1, 0.2, -1, 2 };   /* column-major, PD */
    const double q0[3][3] = { { -2.66e-15, 0, 0 }, { -1, 0, 0.5 }, { -1, -0.5, 0 } };
    const double alpha[3] = { 1e-15, 1.0, 1e10 };
    for (int c = 0; c < 3; c++) {
        double zref[3];
        for (int a = 0; a < 3; a++) {
            double q[3], z[3];
            for (int i = 0; i < 3; i++) q[i] = alpha[a] * q0[c][i];
            ns_matrix *A = ns_matrix_dense_new(3, 3);
            memcpy(A->dense, M, sizeof M);
            ns_problem *p = ns_problem_from_lcp(ns_lcp_new(A, q));
            ns_solution *sol = ns_solution_new(p);
            ns_options o;
            ns_options_default(&o);
            o.tol = 1e-12;
            ns_result r;
            ns_status st = ns_solve(p, "lemke", &o, sol, &r);
            if (st != NS_CONVERGED)
                fail_msg("q case %d alpha %g: %s (%s)", c, alpha[a], ns_status_name(st), r.message);
            memcpy(z, sol->vec[0], sizeof z);
            long double e = 0, nq = 0;
            for (int i = 0; i < 3; i++) {
                long double w = q[i];
                for (int j = 0; j < 3; j++) w += (long double)M[i + 3 * j] * z[j];
                long double d = z[i] - fmaxl(0.0L, z[i] - w);
                e += d * d;
                nq += (long double)q[i] * q[i];
            }
            if (!(sqrtl(e) <= 1e-13L * sqrtl(nq)))
                fail_msg("q case %d alpha %g: error %Lg relative to |q|", c, alpha[a], sqrtl(e / nq));
            if (a == 0) for (int i = 0; i < 3; i++) zref[i] = z[i] / alpha[a];
            for (int i = 0; i < 3; i++)
                if (!(fabs(z[i] / alpha[a] - zref[i]) <= 1e-12 * (1 + fabs(zref[i]))))
                    fail_msg("q case %d alpha %g: z[%d]/alpha = %g, at alpha 1e-15 %g", c,
                             alpha[a], i, z[i] / alpha[a], zref[i]);
            ns_solution_free(sol);
            ns_problem_free(p);
        }
    }
}

static void test_pgs_zero_diagonal(void **s)
{
    (void)s;
    double M[4] = { 1, 1, -1, 0 }, q[2] = { -1, 1 };
    ns_matrix *A = ns_matrix_dense_new(2, 2);
    memcpy(A->dense, M, sizeof M);
    ns_problem *p = ns_problem_from_lcp(ns_lcp_new(A, q));
    ns_solution *sol = ns_solution_new(p);
    ns_result r;
    assert_int_equal(ns_solve(p, "pgs", NULL, sol, &r), NS_UNSUPPORTED);
    assert_non_null(strstr(r.message, "M[1][1]"));
    assert_int_equal(ns_solve(p, "psor", NULL, sol, &r), NS_UNSUPPORTED);
    /* lemke takes it: M = [[1,-1],[1,0]] q = (-1, 1) */
    assert_int_equal(ns_solve(p, "lemke", NULL, sol, &r), NS_CONVERGED);
    assert_true(indep_error(M, q, sol->vec[0], 2) <= 1e-12);
    ns_solution_free(sol);
    ns_problem_free(p);
}

/* Every LCP solver on the three storages of the same problem. */
static void test_storages(void **s)
{
    (void)s;
    double M[9] = { 4, 1, 0, 1, 4, 1, 0, 1, 4 }, q[3] = { -1, 2, -3 };
    ns_matrix *D = ns_matrix_dense_new(3, 3);
    memcpy(D->dense, M, sizeof M);
    ns_matrix *forms[3] = { ns_matrix_copy(D), ns_matrix_to_sparse(D),
                            ns_matrix_to_block_uniform(D, 1) };
    ns_matrix_free(D);
    for (int f = 0; f < 3; f++) {
        ns_problem *p = ns_problem_from_lcp(ns_lcp_new(forms[f], q));
        for (size_t k = 0; k < ns_solver_count(); k++) {
            const ns_solver_info *si = ns_solver_at(k);
            if (si->kind != NS_KIND_LCP) continue;
            ns_solution *sol = ns_solution_new(p);
            ns_result r;
            ns_options o;
            ns_options_default(&o);
            o.tol = 1e-12;
            if (ns_solve(p, si->name, &o, sol, &r) != NS_CONVERGED)
                fail_msg("%s storage %d: %s", si->name, f, r.message);
            assert_true(indep_error(M, q, sol->vec[0], 3) <= 1e-12);
            ns_solution_free(sol);
        }
        ns_problem_free(p);
    }
}

/* The project's LCP files (data/lcp, tools/gen_data): newton-fb and lemke
 * reach the independent error bound on each. lcp_pmatrix_n80 is a permuted
 * triangular P-matrix (unique solution, |z| ~ 1e6, so the reachable error is
 * about 1e-11; Siconos 4.4's Lemke and FB stop at 7e-10 and 0.6);
 * lcp_degenerate_n80 has a third of its rows with z_i = w_i = 0 and a
 * singular M (rank n/2): the final least-squares polish must still give an
 * error at rounding level (≤ 1e-15; Siconos: 4e-16 lemke, 6e-16 FB). */
static void check_file(const char *name, const char *solver, double bound)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/data/lcp/%s", NS_SOURCE_DIR, name);
    ns_problem *p;
    char err[NS_ERRMSG_LEN];
    if (ns_problem_read(path, NS_KIND_LCP, &p, err)) fail_msg("%s", err);
    int n = p->u.lcp->n;
    ns_matrix *D = ns_matrix_to_dense(p->u.lcp->M);
    ns_solution *s = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-10;
    ns_result r;
    ns_status st = ns_solve(p, solver, &o, s, &r);
    double e = indep_error(D->dense, p->u.lcp->q, s->vec[0], n);
    printf("  %s %s: %s, %d iterations, independent error %.3g\n", name, solver,
           ns_status_name(st), r.iterations, e);
    if (st != NS_CONVERGED) fail_msg("%s %s: %s (%s)", name, solver, ns_status_name(st), r.message);
    for (int i = 0; i < n; i++)
        if (!(s->vec[0][i] >= 0)) fail_msg("%s %s: z[%d] = %g < 0", name, solver, i, s->vec[0][i]);
    if (!(e <= bound)) fail_msg("%s %s: independent error %g > %g", name, solver, e, bound);
    ns_matrix_free(D);
    ns_solution_free(s);
    ns_problem_free(p);
}

static void test_data_files(void **s)
{
    (void)s;
    const char *solvers[2] = { "newton-fb", "lemke" };
    for (int k = 0; k < 2; k++) {
        check_file("lcp_pd_n80.dat", solvers[k], 1e-15);
        check_file("lcp_degenerate_n80.dat", solvers[k], 1e-15);
        check_file("lcp_pmatrix_n80.dat", solvers[k], 1e-11);
        check_file("lcp_pd-sparse_n1000.dat", solvers[k], 1e-15);
    }
}

/* A P-matrix on which projected Gauss–Seidel diverges: 2×2 blocks
 * [[1, 3], [−3, 1]] (principal minors 1, 1, 10 > 0; the Gauss–Seidel
 * iteration matrix has spectral radius 9). newton-fb starts from PGS sweeps
 * on a cold start: it must still converge (restarting from z = 0 when the
 * sweeps lead it astray), checked by the independent error. */
static void test_newton_fb_pgs_diverges(void **s)
{
    (void)s;
    const int n = 40;
    double *M = calloc((size_t)n * n, sizeof *M), *q = malloc(sizeof *q * n);
    ns_rng g;
    ns_rng_seed(&g, 4321);
    for (int b = 0; b < n; b += 2) {
        M[b + (size_t)b * n] = 1;       M[b + (size_t)(b + 1) * n] = 3;
        M[b + 1 + (size_t)b * n] = -3;  M[b + 1 + (size_t)(b + 1) * n] = 1;
    }
    for (int i = 0; i < n; i++) q[i] = ns_rng_range(&g, -1, 1);
    solve_check(M, q, n, "newton-fb", 1e-10, NULL);
    solve_check(M, q, n, "newton-min", 1e-10, NULL);
    solve_check(M, q, n, "lemke", 1e-10, NULL);
    free(M); free(q);
}

/* newton-fb on SPARSE storage (the UMFPACK path of lcp_newton_sparse.c):
 * M strictly diagonally dominant with positive diagonal (a P-matrix: the
 * solution is unique), non-symmetric, banded plus scattered entries, n = 400,
 * with a planted solution (z*, w*), a quarter of its rows degenerate
 * (z*_i = w*_i = 0). The returned z must be z* (uniqueness) and the
 * independent error ≤ 1e-12. */
static void test_newton_fb_sparse(void **s)
{
    (void)s;
    const int n = 400;
    ns_rng g;
    ns_rng_seed(&g, 777);
    double *M = calloc((size_t)n * n, sizeof *M), *q = malloc(sizeof *q * n);
    double *zs = malloc(sizeof *zs * n), *ws = malloc(sizeof *ws * n);
    for (int i = 0; i < n; i++) {
        if (i > 0) M[i + (size_t)(i - 1) * n] = ns_rng_range(&g, -1, 0);
        if (i + 1 < n) M[i + (size_t)(i + 1) * n] = ns_rng_range(&g, -1, 1);
        int j = (int)(ns_rng_uniform(&g) * n);
        if (j != i) M[i + (size_t)j * n] += ns_rng_range(&g, -0.5, 0.5);
        double off = 0;
        for (int k = 0; k < n; k++) if (k != i) off += fabs(M[i + (size_t)k * n]);
        M[i + (size_t)i * n] = off + ns_rng_range(&g, 0.5, 1.5);
        int cls = i % 4;
        zs[i] = cls == 0 || cls == 1 ? ns_rng_range(&g, 0.1, 2) : 0.0;
        ws[i] = cls == 2 ? ns_rng_range(&g, 0.1, 2) : 0.0;
    }
    for (int i = 0; i < n; i++) {
        q[i] = ws[i];
        for (int j = 0; j < n; j++) q[i] -= M[i + (size_t)j * n] * zs[j];
    }
    ns_matrix *D = ns_matrix_dense_new(n, n);
    memcpy(D->dense, M, sizeof *M * (size_t)n * n);
    ns_matrix *S = ns_matrix_to_sparse(D);
    ns_matrix_free(D);
    assert_int_equal(S->storage, NS_SPARSE);
    ns_problem *p = ns_problem_from_lcp(ns_lcp_new(S, q));
    ns_solution *sol = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-12;
    ns_result r;
    ns_status st = ns_solve(p, "newton-fb", &o, sol, &r);
    if (st != NS_CONVERGED) fail_msg("sparse newton-fb: %s (%s)", ns_status_name(st), r.message);
    double e = indep_error(M, q, sol->vec[0], n), dev = 0;
    for (int i = 0; i < n; i++) dev = fmax(dev, fabs(sol->vec[0][i] - zs[i]));
    printf("  sparse newton-fb n=%d: %d iterations, error %.3g, max|z - z*| %.3g\n", n,
           r.iterations, e, dev);
    if (!(e <= 1e-12 && dev <= 1e-10)) fail_msg("error %g, deviation %g", e, dev);
    ns_solution_free(sol);
    ns_problem_free(p);
    free(M); free(q); free(zs); free(ws);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lemke_pd),
        cmocka_unit_test(test_lemke_pmatrix),
        cmocka_unit_test(test_lemke_copositive),
        cmocka_unit_test(test_lemke_degenerate),
        cmocka_unit_test(test_newton_fb_pd),
        cmocka_unit_test(test_newton_fb_pmatrix),
        cmocka_unit_test(test_newton_fb_copositive),
        cmocka_unit_test(test_newton_fb_degenerate),
        cmocka_unit_test(test_newton_min_pd),
        cmocka_unit_test(test_enum_small),
        cmocka_unit_test(test_pgs_psor_pd_symmetric),
        cmocka_unit_test(test_murty),
        cmocka_unit_test(test_lemke_infeasible),
        cmocka_unit_test(test_lemke_scale_invariant),
        cmocka_unit_test(test_pgs_zero_diagonal),
        cmocka_unit_test(test_storages),
        cmocka_unit_test(test_data_files),
        cmocka_unit_test(test_newton_fb_pgs_diverges),
        cmocka_unit_test(test_newton_fb_sparse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
