/* test_mlcp.c — MLCP-family kernels on problems with known properties:
 * the least-squares active-set polish (ns_active_set_refine) on a problem
 * whose solutions form a segment (singular active-set matrix), and the
 * MLCP solvers on small problems with analytic solutions. Every check
 * recomputes w = M z + q with plain loops in long double, independently of
 * the solver's report and of the library's error functions. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "lcp/lcp_kernels.h"
#include "ns_test.h"

/* max_i |min(z_i, w_i)| over complementarity rows and |w_i| over equality
 * rows, w = M z + q in long double. */
static double indep_defect(int n, const double *M, const double *q,
                           const unsigned char *eq, const double *z)
{
    double d = 0;
    for (int i = 0; i < n; i++) {
        long double w = q[i];
        for (int j = 0; j < n; j++) w += (long double)M[i + (size_t)j * n] * z[j];
        double r = (eq && eq[i]) ? fabs((double)w) : fabs(fmin(z[i], (double)w));
        if (r > d) d = r;
    }
    return d;
}

/* M = [[1,1,0],[1,1,0],[0,0,1]], q = (−2, −2, 1): the solutions are
 * z1 + z2 = 2, z1, z2 ≥ 0, z3 = 0 (w = (0, 0, 1)), a segment; the active
 * set {1, 2} has a singular matrix. From a point δ off the segment the
 * polish must land on the segment, moving by O(δ), not along it. */
static void test_refine_singular_active_set(void **s)
{
    (void)s;
    const double M[9] = { 1, 1, 0, 1, 1, 0, 0, 0, 1 }, q[3] = { -2, -2, 1 };
    const double delta = 1e-9;
    double z[3] = { 1.3 + delta, 0.7, 0 }, w[3], zp[3];
    for (int i = 0; i < 3; i++) {
        w[i] = q[i];
        for (int j = 0; j < 3; j++) w[i] += M[i + 3 * j] * z[j];
    }
    assert_true(indep_defect(3, M, q, NULL, z) >= delta / 2);
    /* the exact LU solve of the active set cannot do it (singular block) */
    assert_int_equal(ns_active_set_refine(3, M, q, NULL, z, w, zp, 3, 0.0), 0);
    double e = indep_defect(3, M, q, NULL, zp);
    if (!(e <= 1e-15)) fail_msg("defect after refine %g", e);
    double move = 0;
    for (int i = 0; i < 3; i++) move = fmax(move, fabs(zp[i] - z[i]));
    if (!(move <= 2 * delta)) fail_msg("refine moved by %g (delta %g)", move, delta);
    assert_true(zp[0] >= 0 && zp[1] >= 0 && zp[2] == 0.0);
}

/* Regular active set: refinement gives the exact solution of M_AA z = −q_A
 * (here z = (1, 2), z3 = 0, M_AA = [[4,1],[1,3]], checked analytically). */
static void test_refine_regular(void **s)
{
    (void)s;
    const double M[9] = { 4, 1, 1, 1, 3, 1, 1, 1, 5 };
    const double zs[2] = { 1, 2 };
    double q[3] = { -(4 * zs[0] + 1 * zs[1]), -(1 * zs[0] + 3 * zs[1]), 7 };
    double z[3] = { 0.9, 2.2, 0 }, w[3], zp[3];
    for (int i = 0; i < 3; i++) {
        w[i] = q[i];
        for (int j = 0; j < 3; j++) w[i] += M[i + 3 * j] * z[j];
    }
    assert_int_equal(ns_active_set_refine(3, M, q, NULL, z, w, zp, 3, 0.0), 0);
    assert_true(fabs(zp[0] - 1) <= 1e-15 && fabs(zp[1] - 2) <= 1e-15 && zp[2] == 0.0);
}

/* newton-fb alone on the deltasigma circuit MLCPs (n = 65 equalities,
 * m = 156 complementarity rows; Siconos 4.4's FB needs 2818 iterations on
 * deltasigma): converged, with the equality rows and the complementarity
 * conditions recomputed here and the kind's error ≤ 1e-10. */
static void check_mlcp_file(const char *name, const char *solver)
{
    char rel[256], path[1024];
    snprintf(rel, sizeof rel, "mlcp/%s", name);
    if (!ns_test_data_dir()) skip();
    ns_test_data_path(path, sizeof path, rel);
    ns_problem *p;
    char err[NS_ERRMSG_LEN];
    if (ns_problem_read(path, NS_KIND_NONE, &p, err)) fail_msg("%s", err);
    const ns_mlcp *m = p->u.mlcp;
    int N = (int)(m->n + m->m);
    ns_solution *s = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-10;
    ns_result r;
    ns_status st = ns_solve(p, solver, &o, s, &r);
    double *z = malloc(sizeof *z * (size_t)N), *w = malloc(sizeof *w * (size_t)N);
    memcpy(z, s->vec[0], sizeof *z * (size_t)m->n);
    memcpy(z + m->n, s->vec[1], sizeof *z * (size_t)m->m);
    ns_matrix *D = ns_matrix_to_dense(m->M);
    unsigned char *eq = calloc((size_t)N, 1);
    for (ns_int k = 0; k < m->nblocks; k++)
        if (m->block_kind[k] == 0)
            for (ns_int i = m->block_start[k]; i < m->block_start[k + 1]; i++) eq[i] = 1;
    double qn = 0;
    for (int i = 0; i < N; i++) qn += m->q[i] * m->q[i];
    double d = indep_defect(N, D->dense, m->q, eq, z) / (1 + sqrt(qn));
    double e = ns_mlcp_error(m, z, w);
    printf("  %s %s: %s, %d iterations, defect %.3g, error %.3g\n", name, solver,
           ns_status_name(st), r.iterations, d, e);
    if (st != NS_CONVERGED) fail_msg("%s %s: %s (%s)", name, solver, ns_status_name(st), r.message);
    if (!(d <= 1e-10 && e <= 1e-10)) fail_msg("%s %s: defect %g, error %g", name, solver, d, e);
    free(z); free(w); free(eq);
    ns_matrix_free(D);
    ns_solution_free(s);
    ns_problem_free(p);
}

static void test_newton_fb_deltasigma(void **s)
{
    (void)s;
    check_mlcp_file("deltasigma_mlcp.dat", "newton-fb");
    check_mlcp_file("deltasigma2_mlcp.dat", "newton-fb");
}

/* enum on every collection MLCP small enough to enumerate (m ≤ 30):
 * converged, checked independently. */
static void test_enum_files(void **s)
{
    (void)s;
    static const char *const files[] = {
        "BuckConverter_mlcp.dat", "BuckFirstStep_mlcp.dat", "PDSym_mlcp.dat",
        "PD_mlcp.dat", "RCD_mlcp.dat", "deudeu_mlcp.dat", "diodeBridge20_mlcp.dat",
        "diodeBridge_mlcp.dat", "m2n1_mlcp.dat", "relay2_mlcp.dat", "relay3_mlcp.dat" };
    for (size_t k = 0; k < sizeof files / sizeof *files; k++)
        check_mlcp_file(files[k], "enum");
}

/* An MLCP whose equality block M_EE = [[1,1],[1,1]] is singular (so enum
 * cannot eliminate u and enumerates on the full M):
 *   u1 + u2 + v1 − 3 = 0,  u1 + u2 + v2 − 3 = 0,
 *   0 ≤ v1 ⊥ −u1 + v1 + 1 ≥ 0,  0 ≤ v2 ⊥ −u2 + v2 + 1 ≥ 0.
 * v = 0 is infeasible (u1, u2 ≤ 1 but u1 + u2 = 3); v1 > 0 = v2 gives
 * u1 = v1 + 1, u2 = 2 − v1 and then v1 = 0, a contradiction (and likewise
 * v2 > 0 = v1); so both v > 0: u_i = v_i + 1, 2v1 + v2 = 1 = v1 + 2v2,
 * the unique solution u = (4/3, 4/3), v = (1/3, 1/3). */
static void test_enum_singular_equality_block(void **s)
{
    (void)s;
    const double Mr[4][4] = { { 1, 1, 1, 0 }, { 1, 1, 0, 1 }, { -1, 0, 1, 0 }, { 0, -1, 0, 1 } };
    const double q[4] = { -3, -3, 1, 1 };
    const char *solvers[3] = { "enum", "newton-fb", NULL };
    for (int k = 0; k < 3; k++) {
        ns_matrix *A = ns_matrix_dense_new(4, 4);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) A->dense[i + 4 * j] = Mr[i][j];
        ns_problem *p = ns_problem_from_mlcp(ns_mlcp_new(2, 2, A, q));
        assert_non_null(p);
        ns_solution *sol = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-12;
        ns_result r;
        ns_status st = ns_solve(p, solvers[k], &o, sol, &r);
        if (st != NS_CONVERGED)
            fail_msg("%s: %s (%s)", solvers[k] ? solvers[k] : "default", ns_status_name(st), r.message);
        const double *u = sol->vec[0], *v = sol->vec[1];
        double dev = fmax(fmax(fabs(u[0] - 4.0 / 3), fabs(u[1] - 4.0 / 3)),
                          fmax(fabs(v[0] - 1.0 / 3), fabs(v[1] - 1.0 / 3)));
        if (!(dev <= 1e-12)) fail_msg("%s: off the analytic solution by %g",
                                      solvers[k] ? solvers[k] : "default", dev);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* MLCP lemke works in one tableau (the free unknowns pivoted in first,
 * lcp_lemke.c ns_lemke_mixed_dense) and falls back to the explicit Schur
 * complement when the equality block is singular. (a) the singular-M_EE
 * problem above, through the fallback, to its analytic solution; (b) 40
 * random monotone MLCPs (M = B Bᵀ + C − Cᵀ + 0.01 I, so solvable), n = 1..6
 * equality rows, m = 2..12 complementarity rows, q built from a point with
 * a third of the pairs degenerate (z_i = w_i = 0): converged, and the
 * defect recomputed here in long double ≤ 1e-12 (1 + max |q|). */
static unsigned long long lcg = 12345;
static double urand(double a, double b)
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return a + (b - a) * (double)(lcg >> 11) / 9007199254740992.0;
}

static void test_lemke_one_tableau(void **s)
{
    (void)s;
    {   /* (a) */
        const double Mr[4][4] = { { 1, 1, 1, 0 }, { 1, 1, 0, 1 }, { -1, 0, 1, 0 }, { 0, -1, 0, 1 } };
        const double q[4] = { -3, -3, 1, 1 };
        ns_matrix *A = ns_matrix_dense_new(4, 4);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) A->dense[i + 4 * j] = Mr[i][j];
        ns_problem *p = ns_problem_from_mlcp(ns_mlcp_new(2, 2, A, q));
        ns_solution *sol = ns_solution_new(p);
        ns_result r;
        ns_status st = ns_solve(p, "lemke", NULL, sol, &r);
        if (st != NS_CONVERGED) fail_msg("lemke, singular M_EE: %s (%s)", ns_status_name(st), r.message);
        const double *u = sol->vec[0], *v = sol->vec[1];
        double dev = fmax(fmax(fabs(u[0] - 4.0 / 3), fabs(u[1] - 4.0 / 3)),
                          fmax(fabs(v[0] - 1.0 / 3), fabs(v[1] - 1.0 / 3)));
        if (!(dev <= 1e-12)) fail_msg("lemke, singular M_EE: off the analytic solution by %g", dev);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
    for (int t = 0; t < 40; t++) {   /* (b) */
        int ne = 1 + t % 6, nc = 2 + (t * 7) % 11, N = ne + nc;
        double *M = calloc((size_t)N * N, sizeof *M), *q = calloc((size_t)N, sizeof *q);
        double *B = calloc((size_t)N * N, sizeof *B), *zs = calloc((size_t)N, sizeof *zs);
        unsigned char *eq = calloc((size_t)N, 1);
        int k = N / 2 + 1;
        for (int i = 0; i < N * k; i++) B[i] = urand(-1, 1);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double g = 0;
                for (int c = 0; c < k; c++) g += B[i + c * N] * B[j + c * N];
                M[i + (size_t)j * N] = g + (i == j ? 0.01 : 0.0);
            }
        for (int i = 0; i < N; i++)
            for (int j = i + 1; j < N; j++) {
                double c = urand(-1, 1);
                M[i + (size_t)j * N] += c;
                M[j + (size_t)i * N] -= c;
            }
        for (int i = 0; i < ne; i++) { eq[i] = 1; zs[i] = urand(-2, 2); }
        double ws[64] = { 0 };
        for (int i = ne; i < N; i++) {
            int cls = i % 3;
            if (cls == 0) zs[i] = urand(0.5, 1.5);
            else if (cls == 1) ws[i] = urand(0.5, 1.5);   /* cls 2: both 0 */
        }
        double qmax = 0;
        for (int i = 0; i < N; i++) {
            double a = 0;
            for (int j = 0; j < N; j++) a += M[i + (size_t)j * N] * zs[j];
            q[i] = ws[i] - a;
            qmax = fmax(qmax, fabs(q[i]));
        }
        ns_matrix *A = ns_matrix_dense_new(N, N);
        memcpy(A->dense, M, sizeof *M * (size_t)N * N);
        ns_problem *p = ns_problem_from_mlcp(ns_mlcp_new(ne, nc, A, q));
        ns_solution *sol = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-12;
        ns_result r;
        ns_status st = ns_solve(p, "lemke", &o, sol, &r);
        if (st != NS_CONVERGED)
            fail_msg("random MLCP %d (ne %d, nc %d): %s (%s)", t, ne, nc, ns_status_name(st), r.message);
        double z[64];
        memcpy(z, sol->vec[0], sizeof *z * (size_t)ne);
        memcpy(z + ne, sol->vec[1], sizeof *z * (size_t)nc);
        double d = indep_defect(N, M, q, eq, z);
        if (!(d <= 1e-12 * (1 + qmax))) fail_msg("random MLCP %d: defect %g", t, d);
        ns_solution_free(sol);
        ns_problem_free(p);
        free(M); free(q); free(B); free(zs); free(eq);
    }
}

/* The enumeration by Hamming distance visits every set once: on an
 * infeasible LCP (row 0: q_0 < 0, M_0j ≤ 0) of n = 6 it tries the warm set
 * and then all 2^6 sets before reporting no_solution. */
static void test_enum_exhaustive(void **s)
{
    (void)s;
    const int n = 6;
    ns_matrix *A = ns_matrix_dense_new(n, n);
    double q[6];
    for (int i = 0; i < n; i++) {
        q[i] = i == 0 ? -1 : (i % 2 ? -0.5 : 0.5);
        for (int j = 0; j < n; j++)
            A->dense[i + n * j] = i == 0 ? (j == 0 ? 0.0 : -1.0) : (i == j ? 2.0 : 0.1);
    }
    ns_problem *p = ns_problem_from_lcp(ns_lcp_new(A, q));
    ns_solution *sol = ns_solution_new(p);
    ns_result r;
    assert_int_equal(ns_solve(p, "enum", NULL, sol, &r), NS_NO_SOLUTION);
    assert_int_equal(r.iterations, 1 + (1 << n));
    assert_int_equal(r.cert.checked, 1);   /* enum has none: the driver's Farkas search */
    ns_result_clear(&r);
    ns_solution_free(sol);
    ns_problem_free(p);
}

/* ns_kernel_lu / ns_kernel_lu_solve at sizes 1 to 100
 * (LAPACK dgetrf/dgetrs): for random A and x, the solve of
 * A y = A x returns x to rounding; an exactly singular A (a zero column)
 * is reported. */
static void test_kernel_lu(void **s)
{
    (void)s;
    ns_rng g;
    ns_rng_seed(&g, 99);
    const int sizes[] = { 1, 2, 7, 31, 64, 65, 100 };
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        int n = sizes[t], lda = n + 3;
        double *A = malloc(sizeof *A * (size_t)lda * n), *F = malloc(sizeof *F * (size_t)lda * n);
        double *x = malloc(sizeof *x * n), *b = malloc(sizeof *b * n);
        lapack_int *piv = malloc(sizeof *piv * n);
        for (int k = 0; k < lda * n; k++) A[k] = ns_rng_range(&g, -1, 1);
        for (int i = 0; i < n; i++) x[i] = ns_rng_range(&g, -1, 1);
        for (int i = 0; i < n; i++) {
            long double r = 0;
            for (int j = 0; j < n; j++) r += (long double)A[i + (size_t)j * lda] * x[j];
            b[i] = (double)r;
        }
        memcpy(F, A, sizeof *F * (size_t)lda * n);
        assert_int_equal(ns_kernel_lu(n, F, lda, piv), 0);
        ns_kernel_lu_solve(n, F, lda, piv, b);
        double dev = 0;
        for (int i = 0; i < n; i++) dev = fmax(dev, fabs(b[i] - x[i]));
        if (!(dev <= 1e-9)) fail_msg("n=%d: solve off by %g", n, dev);
        for (int i = 0; i < n; i++) A[i + (size_t)(n / 2) * lda] = 0.0;   /* zero column */
        memcpy(F, A, sizeof *F * (size_t)lda * n);
        assert_int_equal(ns_kernel_lu(n, F, lda, piv), 1);
        free(A); free(F); free(x); free(b); free(piv);
    }
}

/* mlcp pgs on deltasigma: the sweeps grow z about 19-fold each (the
 * problem is not one PGS converges on); reported as diverged within a few
 * sweeps, not after the overflow (241 sweeps), returning its best iterate. */
static void test_pgs_divergence(void **s)
{
    (void)s;
    if (!ns_test_data_dir()) skip();
    char path[1024], err[NS_ERRMSG_LEN];
    ns_test_data_path(path, sizeof path, "mlcp/deltasigma_mlcp.dat");
    ns_problem *p;
    if (ns_problem_read(path, NS_KIND_NONE, &p, err)) fail_msg("%s", err);
    ns_solution *sol = ns_solution_new(p);
    ns_result r;
    assert_int_equal(ns_solve(p, "pgs", NULL, sol, &r), NS_DIVERGED);
    assert_true(r.iterations < 50);
    assert_non_null(strstr(r.message, "diverged"));
    /* the best iterate is returned: no worse than the start z = 0, whose
     * error (‖z − max(0, z − w)‖-like terms vanish, only w = q counts) is
     * recomputed here from a zero vector */
    ns_solution *zero = ns_solution_new(p);
    double e0 = ns_problem_error(p, zero), e = ns_problem_error(p, sol);
    if (!(e <= e0)) fail_msg("returned error %g > error at z = 0 %g", e, e0);
    ns_solution_free(zero);
    ns_solution_free(sol);
    ns_problem_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_lu),
        cmocka_unit_test(test_refine_singular_active_set),
        cmocka_unit_test(test_refine_regular),
        cmocka_unit_test(test_newton_fb_deltasigma),
        cmocka_unit_test(test_enum_files),
        cmocka_unit_test(test_enum_singular_equality_block),
        cmocka_unit_test(test_lemke_one_tableau),
        cmocka_unit_test(test_enum_exhaustive),
        cmocka_unit_test(test_pgs_divergence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
