/* test_gmp.c — gmp-nsgs on generated generic mechanical problems whose
 * answers are checked here, independently of the library: w = M z + q from
 * the dense copy made in this file, the equality rows |w_E| ≤ tol, the
 * complementarity rows min(z, w) = 0 and the contact blocks by this file's
 * own Coulomb-cone projection ‖r − P_K(r − û)‖ (De Saxcé).
 *   - strongly coupled, nearly singular equality part (cond(M_EE) ~ 1e10),
 *     several LCP blocks (sizes 1 and 2) and two 3D contacts: the
 *     equalities are eliminated, Gauss–Seidel runs on the Schur complement;
 *   - redundant joints (two identical equality rows, M_EE singular): the
 *     equality blocks are swept one by one instead, and it still converges;
 *   - no equality block at all (plain block Gauss–Seidel);
 *   - an indefinite Schur block of a contact (M itself indefinite, as in
 *     the collection's GMP5);
 *   - a contact whose normal is held by the joints alone (the Schur
 *     diagonal block has S_NN = 0): the two-level sweep with M's own
 *     diagonal block;
 *   - relay blocks (sizes 2 and 1, own box-projection check) and a 2D
 *     contact (own 2D cone) behind coupled joints. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

#define NMAX 64

/* BLOCK matrix with every block (i, j) stored, values from dense A. */
static ns_gmp *gmp_from_dense(int nb, const ns_int *rs, int n, const double *A,
                              const double *q, const int *type, const double *mu)
{
    ns_int rp[NMAX + 1], bc[NMAX * NMAX];
    for (int i = 0; i <= nb; i++) rp[i] = i * nb;
    for (int k = 0; k < nb * nb; k++) bc[k] = k % nb;
    char err[NS_ERRMSG_LEN] = "";
    ns_matrix *M = ns_matrix_block_new(nb, nb, rs, rs, rp, bc, err);
    if (!M) fail_msg("ns_matrix_block_new: %s", err);
    for (int bi = 0; bi < nb; bi++)
        for (int bj = 0; bj < nb; bj++) {
            double *x = M->block.x + M->block.value_ptr[bi * nb + bj];
            ns_int h = rs[bi + 1] - rs[bi], w = rs[bj + 1] - rs[bj];
            for (ns_int j = 0; j < w; j++)
                for (ns_int i = 0; i < h; i++) x[i + j * h] = A[(rs[bi] + i) + (size_t)(rs[bj] + j) * n];
        }
    ns_gmp *p = ns_gmp_new(M, q, type, mu);
    assert_non_null(p);
    return p;
}

/* Own projection on {‖x_T‖ ≤ μ x_N} (d = 3). */
static void own_cone(double mu, double *x)
{
    double xt = hypot(x[1], x[2]);
    if (xt <= mu * x[0]) return;
    if (mu * xt <= -x[0]) { x[0] = x[1] = x[2] = 0; return; }
    double a = (x[0] + mu * xt) / (1 + mu * mu);
    x[1] = mu * a * x[1] / xt;
    x[2] = mu * a * x[2] / xt;
    x[0] = a;
}

static const double *own_lb, *own_ub;   /* relay bounds of the problem at hand */

/* Largest absolute violation of the block laws at z (w = A z + q here). */
static double own_violation(int nb, const ns_int *rs, int n, const double *A, const double *q,
                            const int *type, const double *mu, const double *z)
{
    double w[NMAX], e = 0;
    for (int i = 0; i < n; i++) {
        w[i] = q[i];
        for (int j = 0; j < n; j++) w[i] += A[i + (size_t)j * n] * z[j];
    }
    for (int b = 0; b < nb; b++) {
        int a = (int)rs[b], s = (int)(rs[b + 1] - rs[b]);
        if (type[b] == NS_GMP_EQUALITY)
            for (int i = 0; i < s; i++) e = fmax(e, fabs(w[a + i]));
        else if (type[b] == NS_GMP_LCP)
            for (int i = 0; i < s; i++) e = fmax(e, fabs(fmin(z[a + i], w[a + i])));
        else if (type[b] == NS_GMP_RELAY)
            for (int i = 0; i < s; i++) {
                double y = fmin(own_ub[a + i], fmax(own_lb[a + i], z[a + i] - w[a + i]));
                e = fmax(e, fabs(z[a + i] - y));
            }
        else if (type[b] == NS_GMP_FC2D) {
            /* 2D cone {|x_T| ≤ μ x_N}: De Saxcé's û = u + μ|u_T| e_N */
            const double *r = z + a, *u = w + a, m = mu[b];
            double x0 = r[0] - (u[0] + m * fabs(u[1])), x1 = r[1] - u[1];
            if (m * fabs(x1) <= -x0) x0 = x1 = 0;
            else if (!(fabs(x1) <= m * x0)) {
                double al = (x0 + m * fabs(x1)) / (1 + m * m);
                x1 = m * al * (x1 > 0 ? 1 : -1);
                x0 = al;
            }
            e = fmax(e, hypot(r[0] - x0, r[1] - x1));
        } else {
            const double *r = z + a, *u = w + a;
            double x[3] = { r[0] - (u[0] + mu[b] * hypot(u[1], u[2])), r[1] - u[1], r[2] - u[2] };
            own_cone(mu[b], x);
            e = fmax(e, sqrt((r[0] - x[0]) * (r[0] - x[0]) + (r[1] - x[1]) * (r[1] - x[1]) +
                             (r[2] - x[2]) * (r[2] - x[2])));
        }
    }
    return e;
}

/* Solves with gmp-nsgs at tol, asserts convergence and the own check.
 * lb, ub: relay bounds (n each) or NULL. */
static void solve_and_check_b(int nb, const ns_int *rs, int n, const double *A, const double *q,
                              const int *type, const double *mu, const double *lb,
                              const double *ub, double tol, double vtol)
{
    ns_gmp *g = gmp_from_dense(nb, rs, n, A, q, type, mu);
    own_lb = lb;
    own_ub = ub;
    if (lb) {
        g->lb = malloc((size_t)n * sizeof(double));
        g->ub = malloc((size_t)n * sizeof(double));
        memcpy(g->lb, lb, (size_t)n * sizeof(double));
        memcpy(g->ub, ub, (size_t)n * sizeof(double));
    }
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(ns_gmp_validate(g, err), NS_OK);
    ns_problem *P = ns_problem_from_gmp(g);
    ns_solution *sol = ns_solution_new(P);
    ns_options o;
    ns_options_default(&o);
    o.tol = tol;
    o.time_limit = 20;
    ns_result res;
    ns_status st = ns_solve(P, "gmp-nsgs", &o, sol, &res);
    if (st != NS_CONVERGED)
        fail_msg("gmp-nsgs: %s after %d sweeps, error %g (%s)", ns_status_name(st),
                 res.iterations, res.error, res.message);
    const double *z = ns_solution_get(sol, "reaction");
    double v = own_violation(nb, rs, n, A, q, type, mu, z);
    if (!(v <= vtol)) fail_msg("own check: violation %g > %g", v, vtol);
    ns_result_clear(&res);
    ns_solution_free(sol);
    ns_problem_free(P);
}

static void solve_and_check(int nb, const ns_int *rs, int n, const double *A, const double *q,
                            const int *type, const double *mu, double tol, double vtol)
{
    solve_and_check_b(nb, rs, n, A, q, type, mu, NULL, NULL, tol, vtol);
}

/* J n×m uniform in [−1, 1] (then A = J Jᵀ by gram_product). */
static void gram(ns_rng *rng, int n, int m, double (*J)[NMAX])
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < m; k++) J[i][k] = ns_rng_range(rng, -1, 1);
}

static void gram_product(int n, int m, double (*J)[NMAX], double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < m; k++) s += J[i][k] * J[j][k];
            A[i + (size_t)j * n] = s;
        }
}

static void test_coupled_equalities(void **state)
{
    (void)state;
    /* 6 equality blocks of 3, LCP 1, 1, 1, LCP 2, FC3D, FC3D: n = 29 */
    enum { NB = 12, N = 29, MCOL = 34 };
    const ns_int rs[NB + 1] = { 0, 3, 6, 9, 12, 15, 18, 19, 20, 21, 23, 26, 29 };
    int type[NB];
    double mu[NB], q[N], A[N * N];
    double (*J)[NMAX] = calloc(NMAX, sizeof *J);
    for (int b = 0; b < NB; b++) {
        type[b] = b < 6 ? NS_GMP_EQUALITY : b < 10 ? NS_GMP_LCP : NS_GMP_FC3D;
        mu[b] = b < 10 ? NAN : 0.3;
    }
    ns_rng rng;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        ns_rng_seed(&rng, seed);
        gram(&rng, N, MCOL, J);
        /* nearly dependent joints: rows 16, 17 ≈ combinations of 3, 4, 9 */
        for (int k = 0; k < MCOL; k++) {
            J[16][k] = J[3][k] - J[9][k] + 1e-5 * ns_rng_range(&rng, -1, 1);
            J[17][k] = 0.5 * J[4][k] + J[9][k] + 1e-5 * ns_rng_range(&rng, -1, 1);
        }
        gram_product(N, MCOL, J, A);
        /* q = J f (a free velocity J v_free, as in a time step): q_E lies
         * in the range of J_E, so z stays of the size of q */
        double f[MCOL];
        for (int k = 0; k < MCOL; k++) f[k] = ns_rng_range(&rng, -1, 1);
        for (int i = 0; i < N; i++) {
            q[i] = 0;
            for (int k = 0; k < MCOL; k++) q[i] += J[i][k] * f[k];
        }
        solve_and_check(NB, rs, N, A, q, type, mu, 1e-9, 1e-8);
    }
    free(J);
}

static void test_redundant_joints(void **state)
{
    (void)state;
    /* EQ 1, EQ 1 (the same row twice, consistent q), LCP 1, FC3D: n = 6 */
    enum { NB = 4, N = 6, MCOL = 8 };
    const ns_int rs[NB + 1] = { 0, 1, 2, 3, 6 };
    const int type[NB] = { NS_GMP_EQUALITY, NS_GMP_EQUALITY, NS_GMP_LCP, NS_GMP_FC3D };
    const double mu[NB] = { NAN, NAN, NAN, 0.5 };
    double q[N], A[N * N];
    double (*J)[NMAX] = calloc(NMAX, sizeof *J);
    ns_rng rng;
    for (uint64_t seed = 11; seed <= 15; seed++) {
        ns_rng_seed(&rng, seed);
        gram(&rng, N, MCOL, J);
        for (int k = 0; k < MCOL; k++) J[1][k] = J[0][k];
        gram_product(N, MCOL, J, A);
        for (int i = 0; i < N; i++) q[i] = ns_rng_range(&rng, -1, 1);
        q[1] = q[0];
        solve_and_check(NB, rs, N, A, q, type, mu, 1e-10, 1e-8);
    }
    free(J);
}

static void test_no_equality(void **state)
{
    (void)state;
    enum { NB = 5, N = 11, MCOL = 14 };
    const ns_int rs[NB + 1] = { 0, 1, 3, 6, 9, 11 };
    const int type[NB] = { NS_GMP_LCP, NS_GMP_LCP, NS_GMP_FC3D, NS_GMP_FC3D, NS_GMP_LCP };
    const double mu[NB] = { NAN, NAN, 0.2, 0.8, NAN };
    double q[N], A[N * N];
    double (*J)[NMAX] = calloc(NMAX, sizeof *J);
    ns_rng rng;
    ns_rng_seed(&rng, 21);
    gram(&rng, N, MCOL, J);
    gram_product(N, MCOL, J, A);
    for (int i = 0; i < N; i++) q[i] = ns_rng_range(&rng, -1, 1);
    solve_and_check(NB, rs, N, A, q, type, mu, 1e-10, 1e-8);
    free(J);
}

static void test_indefinite_schur_block(void **state)
{
    (void)state;
    /* EQ 2 + FC3D; M symmetric with a slightly negative eigenvalue whose
     * direction lies in the contact's tangent plane after elimination */
    enum { NB = 2, N = 5, MCOL = 5 };
    const ns_int rs[NB + 1] = { 0, 2, 5 };
    const int type[NB] = { NS_GMP_EQUALITY, NS_GMP_FC3D };
    const double mu[NB] = { NAN, 0.3 };
    double q[N] = { 0.3, -0.2, -1.0, 0.4, 0.1 }, A[N * N];
    double (*J)[NMAX] = calloc(NMAX, sizeof *J);
    ns_rng rng;
    ns_rng_seed(&rng, 31);
    gram(&rng, N, MCOL, J);
    /* the second tangent nearly along a joint row: its Schur entry is small */
    for (int k = 0; k < MCOL; k++) J[4][k] = 0.95 * J[0][k] + 0.05 * J[4][k];
    gram_product(N, MCOL, J, A);
    /* make S_TT2 negative: subtract from the last diagonal entry its Schur
     * value plus 1e-3 */
    double S44 = A[4 + 4 * N];
    {
        double a = A[0], b = A[0 + 1 * N], d = A[1 + 1 * N], det = a * d - b * b;
        double x0 = A[0 + 4 * N], x1 = A[1 + 4 * N];
        S44 -= (d * x0 * x0 - 2 * b * x0 * x1 + a * x1 * x1) / det;
    }
    A[4 + 4 * N] -= S44 + 1e-3;
    solve_and_check(NB, rs, N, A, q, type, mu, 1e-10, 1e-8);
    free(J);
}

static void test_contact_held_by_joints(void **state)
{
    (void)state;
    /* EQ 3 + LCP 1 + FC3D; the contact's normal row of J is a joint's row,
     * so that its normal Schur entry is 0 (to rounding) */
    enum { NB = 3, N = 7, MCOL = 9 };
    const ns_int rs[NB + 1] = { 0, 3, 4, 7 };
    const int type[NB] = { NS_GMP_EQUALITY, NS_GMP_LCP, NS_GMP_FC3D };
    const double mu[NB] = { NAN, NAN, 0.4 };
    double q[N], A[N * N];
    double (*J)[NMAX] = calloc(NMAX, sizeof *J);
    ns_rng rng;
    ns_rng_seed(&rng, 41);
    gram(&rng, N, MCOL, J);
    for (int k = 0; k < MCOL; k++) J[4][k] = J[1][k];
    gram_product(N, MCOL, J, A);
    for (int i = 0; i < N; i++) q[i] = ns_rng_range(&rng, -1, 1);
    /* consistent: with w_1 = 0 from the joint, the contact's normal velocity
     * is q_4 − q_1 ≥ 0 at r = 0: separated */
    q[4] = q[1] + 0.5;
    solve_and_check(NB, rs, N, A, q, type, mu, 1e-10, 1e-8);
    free(J);
}

static void test_relay_and_fc2d_with_equalities(void **state)
{
    (void)state;
    /* EQ 3, EQ 2, relay 2, FC2D, LCP 1, relay 1: n = 12, coupled joints */
    enum { NB = 6, N = 12, MCOL = 15 };
    const ns_int rs[NB + 1] = { 0, 3, 5, 7, 9, 10, 12 };
    const int type[NB] = { NS_GMP_EQUALITY, NS_GMP_EQUALITY, NS_GMP_RELAY, NS_GMP_FC2D,
                           NS_GMP_LCP, NS_GMP_RELAY };
    const double mu[NB] = { NAN, NAN, NAN, 0.4, NAN, NAN };
    double q[N], A[N * N], lb[N], ub[N];
    double (*J)[NMAX] = calloc(NMAX, sizeof *J);
    for (int i = 0; i < N; i++) { lb[i] = -0.05; ub[i] = 0.1; }
    ns_rng rng;
    for (uint64_t seed = 51; seed <= 55; seed++) {
        ns_rng_seed(&rng, seed);
        gram(&rng, N, MCOL, J);
        for (int k = 0; k < MCOL; k++) J[4][k] = J[1][k] + 1e-4 * J[4][k];
        gram_product(N, MCOL, J, A);
        double f[MCOL];
        for (int k = 0; k < MCOL; k++) f[k] = ns_rng_range(&rng, -1, 1);
        for (int i = 0; i < N; i++) {
            q[i] = 0;
            for (int k = 0; k < MCOL; k++) q[i] += J[i][k] * f[k];
        }
        solve_and_check_b(NB, rs, N, A, q, type, mu, lb, ub, 1e-9, 1e-8);
    }
    free(J);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coupled_equalities),
        cmocka_unit_test(test_redundant_joints),
        cmocka_unit_test(test_no_equality),
        cmocka_unit_test(test_indefinite_schur_block),
        cmocka_unit_test(test_contact_held_by_joints),
        cmocka_unit_test(test_relay_and_fc2d_with_equalities),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
