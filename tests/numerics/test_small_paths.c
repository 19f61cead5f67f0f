/* test_small_paths.c — the fast paths for small problems
 * give the answers of the general code:
 *  - dense y = αAx + βy and y = αAᵀx + βy below the size where CBLAS is
 *    skipped, against a long-double reference, every α/β case, β = 0
 *    ignoring NaN in y;
 *  - ns_norm2's plain sum of squares and its fallback (entries whose
 *    squares underflow or overflow, NaN, Inf, zeros);
 *  - the LCP and MLCP error functions' one-pass finiteness test (a NaN in w
 *    that fmax would hide, an Inf in z) and their values against the
 *    formula computed here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "core/ns_internal.h"
#include "ns_test.h"

static double rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffff) / 32768.0 - 1.0;
}

static void test_dense_gemv_matches_reference(void **state)
{
    (void)state;
    unsigned seed = 7;
    const int sizes[][2] = { { 1, 1 }, { 3, 3 }, { 4, 7 }, { 10, 10 }, { 16, 16 }, { 7, 3 },
                             { 17, 16 }, { 30, 20 } };   /* the last two: CBLAS path */
    const double ab[][2] = { { 1, 1 }, { 1, 0 }, { -2.5, 0.5 }, { 0.5, -1 } };
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int r = sizes[s][0], c = sizes[s][1];
        ns_matrix *A = ns_matrix_dense_new(r, c);
        assert_non_null(A);
        double x[64], xt[64], y[64], yt[64], y0[64], yt0[64];
        for (int k = 0; k < r * c; k++) A->dense[k] = rnd(&seed);
        for (int k = 0; k < 64; k++) { x[k] = rnd(&seed); xt[k] = rnd(&seed); y0[k] = rnd(&seed); yt0[k] = rnd(&seed); }
        for (size_t t = 0; t < sizeof ab / sizeof *ab; t++) {
            double a = ab[t][0], b = ab[t][1];
            memcpy(y, y0, sizeof y);
            memcpy(yt, yt0, sizeof yt);
            if (b == 0.0) { y[0] = NAN; yt[0] = NAN; }   /* must be ignored */
            ns_matrix_gemv(a, A, x, b, y);
            ns_matrix_gemv_t(a, A, xt, b, yt);
            for (int i = 0; i < r; i++) {
                long double ref = b == 0.0 ? 0.0L : (long double)b * y0[i];
                for (int j = 0; j < c; j++) ref += (long double)a * A->dense[i + j * r] * x[j];
                assert_true(fabsl(y[i] - ref) <= 1e-14L * (1 + fabsl(ref)) * c);
            }
            for (int j = 0; j < c; j++) {
                long double ref = b == 0.0 ? 0.0L : (long double)b * yt0[j];
                for (int i = 0; i < r; i++) ref += (long double)a * A->dense[i + j * r] * xt[i];
                assert_true(fabsl(yt[j] - ref) <= 1e-14L * (1 + fabsl(ref)) * r);
            }
        }
        ns_matrix_free(A);
    }
}

static void test_norm2_fallbacks(void **state)
{
    (void)state;
    double x[4] = { 3, 4, 0, 0 };
    assert_true(ns_norm2(x, 2) == 5.0);
    double z[3] = { 0, 0, 0 };
    assert_true(ns_norm2(z, 3) == 0.0);
    double tiny[2] = { 3e-200, 4e-200 };   /* squares underflow to 0 */
    assert_true(fabs(ns_norm2(tiny, 2) - 5e-200) <= 1e-214);
    double sub[2] = { 3e-160, 4e-160 };    /* squares ~1e-319: subnormal */
    assert_true(fabs(ns_norm2(sub, 2) - 5e-160) <= 1e-174);
    double huge[2] = { 3e200, 4e200 };     /* squares overflow */
    assert_true(fabs(ns_norm2(huge, 2) - 5e200) <= 1e186);
    double nan[3] = { 1, NAN, 2 }, inf[2] = { 1, INFINITY };
    assert_true(isnan(ns_norm2(nan, 3)));
    assert_true(isinf(ns_norm2(inf, 2)));
    double big[100];
    for (int k = 0; k < 100; k++) big[k] = 1.0;   /* the CBLAS path */
    assert_true(fabs(ns_norm2(big, 100) - 10.0) <= 1e-14);
}

static ns_lcp *lcp2(void)
{
    ns_matrix *M = ns_matrix_dense_new(2, 2);
    M->dense[0] = 2; M->dense[1] = 0; M->dense[2] = 1; M->dense[3] = 3;
    const double q[2] = { -1, -2 };
    return ns_lcp_new(M, q);
}

static void test_lcp_error_values_and_nonfinite(void **state)
{
    (void)state;
    ns_lcp *p = lcp2();
    double z[2] = { 0.5, 0.25 }, w[2];
    /* w = M z + q = (0.25, -1.25); e = ‖z − max(0, z − w)‖ / ‖q‖ */
    double e = ns_lcp_error(p, z, w);
    double d0 = 0.5 - fmax(0, 0.5 - 0.25), d1 = 0.25 - fmax(0, 0.25 + 1.25);
    assert_true(w[0] == 0.25 && w[1] == -1.25);
    assert_true(fabs(e - sqrt(d0 * d0 + d1 * d1) / sqrt(5.0)) <= 1e-15);
    /* z huge enough that w overflows to -inf in one row: fmax(0, z - w)
     * would give a finite defect; the error must be +inf */
    double zi[2] = { 0.0, -1e308 }, wi[2];
    assert_true(isinf(ns_lcp_error(p, zi, wi)));
    double zn[2] = { NAN, 0 }, wn[2];
    assert_true(isinf(ns_lcp_error(p, zn, wn)));
    /* q NaN: w NaN, error +inf */
    p->q[1] = NAN;
    assert_true(isinf(ns_lcp_error(p, z, w)));
    ns_lcp_free(p);
}

static void test_mlcp_error_nonfinite(void **state)
{
    (void)state;
    ns_matrix *M = ns_matrix_dense_new(3, 3);
    const double Mc[9] = { 2, 1, 0, -1, 3, 0, 5, 1, 4 }, q[3] = { 1, -1, -2 };
    memcpy(M->dense, Mc, sizeof Mc);
    ns_mlcp *p = ns_mlcp_new(1, 2, M, q);
    double z[3] = { 0, 0, 0 }, w[3];
    double e = ns_mlcp_error(p, z, w);
    assert_true(isfinite(e) && e > 0);
    z[2] = INFINITY;
    assert_true(isinf(ns_mlcp_error(p, z, w)));
    z[2] = 0;
    p->q[0] = NAN;
    assert_true(isinf(ns_mlcp_error(p, z, w)));
    ns_mlcp_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dense_gemv_matches_reference),
        cmocka_unit_test(test_norm2_fallbacks),
        cmocka_unit_test(test_lcp_error_values_and_nonfinite),
        cmocka_unit_test(test_mlcp_error_nonfinite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
