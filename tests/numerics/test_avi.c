/* test_avi.c — AVI over a polyhedron K = {z : H z ≤ h} by the AVI lemke
 * solver, including M singular (linear programs, rank-deficient M, K with a
 * lineality space), where the free unknowns must be pivoted in against
 * constraint rows (Cao–Ferris) instead of eliminated through M.
 *
 * Every answer is checked by the test's own arithmetic, not the library's
 * error function: for a bounded K the VI holds iff z ∈ K and
 * (M z + q)ᵀ(v − z) ≥ 0 at every vertex v of K (the left side is affine in
 * v, and K is the hull of its vertices); the vertices are enumerated here by
 * brute force over the n-subsets of the rows of H. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

#define MAXV 4096

/* Solves the 3×3 (or 2×2) system of rows idx of H; 0 if singular. */
static int solve_rows(int n, int nh, const double *H, const double *h, const int *idx,
                      double *v)
{
    double A[9], b[3];
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) A[r * n + c] = H[idx[r] * n + c];   /* H row-major */
        b[r] = h[idx[r]];
    }
    (void)nh;
    /* Gaussian elimination with partial pivoting, n ≤ 3 */
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int r = k + 1; r < n; r++) if (fabs(A[r * n + k]) > fabs(A[p * n + k])) p = r;
        if (fabs(A[p * n + k]) < 1e-12) return 0;
        for (int c = 0; c < n; c++) { double t = A[k * n + c]; A[k * n + c] = A[p * n + c]; A[p * n + c] = t; }
        double t = b[k]; b[k] = b[p]; b[p] = t;
        for (int r = k + 1; r < n; r++) {
            double f = A[r * n + k] / A[k * n + k];
            for (int c = k; c < n; c++) A[r * n + c] -= f * A[k * n + c];
            b[r] -= f * b[k];
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        double s = b[k];
        for (int c = k + 1; c < n; c++) s -= A[k * n + c] * v[c];
        v[k] = s / A[k * n + k];
    }
    return 1;
}

static int feasible(int n, int nh, const double *H, const double *h, const double *z,
                    double tol)
{
    for (int i = 0; i < nh; i++) {
        double s = 0.0;
        for (int c = 0; c < n; c++) s += H[i * n + c] * z[c];
        if (s > h[i] + tol) return 0;
    }
    return 1;
}

/* Vertices of {H z ≤ h} in R^n (n = 2 or 3): returns their number. */
static int vertices(int n, int nh, const double *H, const double *h, double *V)
{
    int nv = 0, idx[3];
    for (idx[0] = 0; idx[0] < nh; idx[0]++)
        for (idx[1] = idx[0] + 1; idx[1] < nh; idx[1]++)
            for (idx[2] = n == 3 ? idx[1] + 1 : nh; idx[2] < (n == 3 ? nh : nh + 1); idx[2]++) {
                double v[3];
                if (!solve_rows(n, nh, H, h, idx, v)) continue;
                if (!feasible(n, nh, H, h, v, 1e-9)) continue;
                if (nv < MAXV) { memcpy(V + (size_t)nv * n, v, (size_t)n * sizeof(double)); nv++; }
            }
    return nv;
}

/* Builds the AVI (M, q dense row-major; H row-major nh × n) and solves it
 * with `solver`; z receives the answer. Returns the status. */
static ns_status solve_avi(int n, const double *M, const double *q, int nh,
                           const double *H, const double *h, const char *solver,
                           double *z, ns_result *res)
{
    ns_matrix *Mm = ns_matrix_dense_new(n, n), *Hm = ns_matrix_dense_new(nh, n);
    assert_non_null(Mm);
    assert_non_null(Hm);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) Mm->dense[i + (size_t)j * n] = M[i * n + j];
    for (int i = 0; i < nh; i++)
        for (int j = 0; j < n; j++) Hm->dense[i + (size_t)j * nh] = H[i * n + j];
    ns_avi *a = ns_avi_new(Mm, q);
    assert_non_null(a);
    assert_int_equal(ns_avi_set_polyhedron(a, Hm, h), NS_OK);
    ns_problem *p = ns_problem_from_avi(a);
    assert_non_null(p);
    ns_solution *s = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-10;
    ns_status st = ns_solve(p, solver, &o, s, res);
    memcpy(z, s->vec[0], (size_t)n * sizeof(double));
    ns_solution_free(s);
    ns_problem_free(p);
    return st;
}

/* 1 when z ∈ K and the VI holds at every vertex, relative to the data's
 * scale; 0 otherwise (msg says where). */
static int vi_holds(int n, const double *M, const double *q, int nh, const double *H,
                    const double *h, const double *z)
{
    static double V[MAXV * 3];
    double F[3], scale = 1.0;
    int nv = vertices(n, nh, H, h, V);
    if (nv == 0) return 0;
    for (int i = 0; i < n; i++) {
        F[i] = q[i];
        for (int j = 0; j < n; j++) F[i] += M[i * n + j] * z[j];
        scale = fmax(scale, fabs(F[i]));
    }
    if (!feasible(n, nh, H, h, z, 1e-9)) return 0;
    for (int k = 0; k < nv; k++) {
        double s = 0.0, d = 0.0;
        for (int i = 0; i < n; i++) {
            s += F[i] * (V[k * n + i] - z[i]);
            d = fmax(d, fabs(V[k * n + i] - z[i]));
        }
        if (s < -1e-9 * scale * fmax(1.0, d)) return 0;
    }
    return 1;
}
#define assert_vi(n, M, q, nh, H, h, z) assert_true(vi_holds(n, M, q, nh, H, h, z))

/* A bounded polytope in R^3: the box [-1, 2]^3 cut by `ncut` random planes
 * through points near the centre (so it stays non-empty). */
static int polytope(ns_rng *r, int ncut, double *H, double *h)
{
    int nh = 0;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) { H[nh * 3 + j] = i == j; H[(nh + 1) * 3 + j] = -(i == j); }
        h[nh] = 2.0; h[nh + 1] = 1.0;
        nh += 2;
    }
    for (int c = 0; c < ncut; c++) {
        double a[3], off = 0.0;
        for (int j = 0; j < 3; j++) { a[j] = ns_rng_range(r, -1, 1); off += a[j] * 0.5; }
        for (int j = 0; j < 3; j++) H[nh * 3 + j] = a[j];
        h[nh++] = off + ns_rng_range(r, 0.2, 1.0);
    }
    return nh;
}

/* M = 0: the AVI is the optimality condition of the LP min qᵀz over K; its
 * solution is the best vertex (unique for a generic q). */
static void test_linear_program(void **st)
{
    (void)st;
    ns_rng r;
    ns_rng_seed(&r, 11);
    for (int trial = 0; trial < 20; trial++) {
        double H[30 * 3], h[30], M[9] = { 0 }, q[3], z[3], V[MAXV * 3];
        int nh = polytope(&r, 6 + trial % 5, H, h);
        for (int j = 0; j < 3; j++) q[j] = ns_rng_range(&r, -1, 1);
        ns_result res;
        ns_status s = solve_avi(3, M, q, nh, H, h, "lemke", z, &res);
        assert_int_equal(s, NS_CONVERGED);
        int nv = vertices(3, nh, H, h, V);
        double best = INFINITY, got = q[0] * z[0] + q[1] * z[1] + q[2] * z[2];
        for (int k = 0; k < nv; k++)
            best = fmin(best, q[0] * V[3 * k] + q[1] * V[3 * k + 1] + q[2] * V[3 * k + 2]);
        assert_true(feasible(3, nh, H, h, z, 1e-9));
        assert_true(fabs(got - best) <= 1e-9 * (1.0 + fabs(best)));
        assert_vi(3, M, q, nh, H, h, z);
        ns_result_clear(&res);
    }
}

/* M = u uᵀ + skew part (rank-deficient symmetric part, singular M) and
 * M = u uᵀ alone: the VI checked at every vertex. */
static void test_singular_m(void **st)
{
    (void)st;
    ns_rng r;
    ns_rng_seed(&r, 12);
    for (int trial = 0; trial < 30; trial++) {
        double H[30 * 3], h[30], M[9], q[3], z[3], u[3];
        int nh = polytope(&r, 4 + trial % 7, H, h);
        for (int j = 0; j < 3; j++) { u[j] = ns_rng_range(&r, -1, 1); q[j] = ns_rng_range(&r, -2, 2); }
        double w = trial % 2 ? ns_rng_range(&r, -1, 1) : 0.0;  /* skew part along e3 */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) M[i * 3 + j] = u[i] * u[j];
        M[0 * 3 + 1] += w;
        M[1 * 3 + 0] -= w;
        ns_result res;
        ns_status s = solve_avi(3, M, q, nh, H, h, "lemke", z, &res);
        if (s != NS_CONVERGED) fail_msg("trial %d: %s (%s)", trial, ns_status_name(s), res.message);
        assert_vi(3, M, q, nh, H, h, z);
        ns_result_clear(&res);
    }
}

/* K = {z1 + z2 ≤ 1} has the lineality direction (1, −1); M = diag(1, 0)
 * is singular but positive on it. The AVI is the KKT system of
 * min ½ z1² − z2 over K: z = (−1, 2), multiplier 1 (by hand). */
static void test_lineality(void **st)
{
    (void)st;
    double M[4] = { 1, 0, 0, 0 }, q[2] = { 0, -1 }, H[2] = { 1, 1 }, h[1] = { 1 }, z[2];
    ns_result res;
    assert_int_equal(solve_avi(2, M, q, 1, H, h, "lemke", z, &res), NS_CONVERGED);
    assert_true(fabs(z[0] + 1.0) <= 1e-12);
    assert_true(fabs(z[1] - 2.0) <= 1e-12);
    ns_result_clear(&res);
}

/* The same KKT system given as an MLCP (u = z free, v = λ): mlcp lemke
 * must pivot z in against the constraint row, M_EE being singular. */
static void test_mlcp_lemke_singular_block(void **st)
{
    (void)st;
    /* [[M, Hᵀ], [−H, 0]] (z1, z2, λ) + (q, h) */
    double K[9] = { 1, 0, -1,   0, 0, -1,   1, 1, 0 };   /* column-major */
    double q[3] = { 0, -1, 1 };
    ns_matrix *A = ns_matrix_dense_new(3, 3);
    memcpy(A->dense, K, sizeof K);
    ns_mlcp *m = ns_mlcp_new(2, 1, A, q);
    assert_non_null(m);
    ns_problem *p = ns_problem_from_mlcp(m);
    ns_solution *s = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-12;
    ns_result res;
    assert_int_equal(ns_solve(p, "lemke", &o, s, &res), NS_CONVERGED);
    assert_true(fabs(s->vec[0][0] + 1.0) <= 1e-12);
    assert_true(fabs(s->vec[0][1] - 2.0) <= 1e-12);
    assert_true(fabs(s->vec[1][0] - 1.0) <= 1e-12);
    ns_result_clear(&res);
    ns_solution_free(s);
    ns_problem_free(p);
}

/* Positive definite M (the elimination through M applies): same check. */
static void test_regular_m(void **st)
{
    (void)st;
    ns_rng r;
    ns_rng_seed(&r, 13);
    for (int trial = 0; trial < 20; trial++) {
        double H[30 * 3], h[30], M[9], q[3], z[3], B[9];
        int nh = polytope(&r, 5, H, h);
        for (int k = 0; k < 9; k++) B[k] = ns_rng_range(&r, -1, 1);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                M[i * 3 + j] = (i == j) * 0.1 + B[i * 3 + j] - B[j * 3 + i];
                for (int k = 0; k < 3; k++) M[i * 3 + j] += B[k * 3 + i] * B[k * 3 + j];
            }
        for (int j = 0; j < 3; j++) q[j] = ns_rng_range(&r, -3, 3);
        ns_result res;
        assert_int_equal(solve_avi(3, M, q, nh, H, h, "lemke", z, &res), NS_CONVERGED);
        assert_vi(3, M, q, nh, H, h, z);
        ns_result_clear(&res);
    }
}

/* The check itself rejects wrong answers: on the square [-1, 1]² with
 * M = 0, q = (1, 1) only the vertex (−1, −1) solves the VI. */
static void test_check_can_fail(void **st)
{
    (void)st;
    double H[8] = { 1, 0, -1, 0, 0, 1, 0, -1 }, h[4] = { 1, 1, 1, 1 };
    double V[MAXV * 3], M[4] = { 0 }, q[2] = { 1, 1 };
    double good[2] = { -1, -1 }, vertex[2] = { 1, -1 }, inside[2] = { 0, 0 }, out[2] = { -2, 0 };
    assert_int_equal(vertices(2, 4, H, h, V), 4);
    assert_true(vi_holds(2, M, q, 4, H, h, good));
    assert_false(vi_holds(2, M, q, 4, H, h, vertex));
    assert_false(vi_holds(2, M, q, 4, H, h, inside));
    assert_false(vi_holds(2, M, q, 4, H, h, out));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_can_fail),
        cmocka_unit_test(test_linear_program),
        cmocka_unit_test(test_singular_m),
        cmocka_unit_test(test_lineality),
        cmocka_unit_test(test_mlcp_lemke_singular_block),
        cmocka_unit_test(test_regular_m),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
