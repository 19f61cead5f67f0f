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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refine_singular_active_set),
        cmocka_unit_test(test_refine_regular),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
