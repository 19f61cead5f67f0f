/* test_small_paths.c — the fast paths for small problems
 * give the answers of the general code:
 *  - dense y = αAx + βy and y = αAᵀx + βy below the size where CBLAS is
 *    skipped, against a long-double reference, every α/β case, β = 0
 *    ignoring NaN in y;
 *  - ns_norm2's plain sum of squares and its fallback (entries whose
 *    squares underflow or overflow, NaN, Inf, zeros);
 *  - the LCP and MLCP error functions' one-pass finiteness test (a NaN in w
 *    that fmax would hide, an Inf in z) and their values against the
 *    formula computed here;
 *  - ns_matrix_to_block of a DENSE matrix read in place: the same blocks and
 *    values as through its CSC copy (zero blocks, −0, NaN, uneven blocks);
 *  - fc2d nsgs on a DENSE W (swept as it is) and on the same W in blocks:
 *    the same status, sweep count and r, bit for bit (most of these solves
 *    end on an active-set solve, which fixes r from the contacts' cases:
 *    a rounding-level difference in the sweeps would not show in r here,
 *    only a difference in the cases), and r obeys the Coulomb law;
 *  - fc2d lemke with its explicit B⁻¹ (small bases): solutions checked
 *    against the Coulomb conditions computed here. */
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


/* value equality that also equates NaNs and tells −0 from +0 */
static int same(double a, double b)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return a == b && signbit(a) == signbit(b);
}

static void test_dense_to_block_matches_csc_route(void **state)
{
    (void)state;
    unsigned seed = 11;
    const ns_int rs[] = { 0, 2, 3, 6, 7 }, cs[] = { 0, 1, 4, 6, 7 };   /* uneven blocks */
    for (int t = 0; t < 40; t++) {
        ns_matrix *A = ns_matrix_dense_new(7, 7);
        assert_non_null(A);
        for (int k = 0; k < 49; k++) {
            double v = rnd(&seed);
            A->dense[k] = v < -0.5 ? 0.0 : v < -0.4 ? -0.0 : v;
        }
        /* an all-zero block (rows 3..5, cols 1..3), one of −0 only (row 2, col 0) */
        for (int i = 3; i < 6; i++)
            for (int j = 1; j < 4; j++) A->dense[i + 7 * j] = 0.0;
        A->dense[2] = -0.0;
        if (t % 5 == 4) A->dense[6 + 7 * 6] = NAN;
        ns_matrix *S = ns_matrix_to_sparse(A);
        assert_non_null(S);
        ns_matrix *B1 = ns_matrix_to_block(A, 4, rs, 4, cs);   /* read in place */
        ns_matrix *B2 = ns_matrix_to_block(S, 4, rs, 4, cs);   /* through CSC */
        assert_non_null(B1);
        assert_non_null(B2);
        const ns_block *a = &B1->block, *b = &B2->block;
        assert_int_equal(a->nblocks, b->nblocks);
        for (ns_int r = 0; r <= 4; r++) assert_int_equal(a->row_ptr[r], b->row_ptr[r]);
        for (ns_int r = 0; r < 4; r++) assert_int_equal(a->diag[r], b->diag[r]);
        for (ns_int k = 0; k < a->nblocks; k++) {
            assert_int_equal(a->block_col[k], b->block_col[k]);
            assert_int_equal(a->value_ptr[k + 1], b->value_ptr[k + 1]);
        }
        for (ns_int k = 0; k < a->value_ptr[a->nblocks]; k++) assert_true(same(a->x[k], b->x[k]));
        /* the zero block is not stored, and every stored value is A's */
        assert_null(ns_matrix_block_get(B1, 2, 1));
        ns_matrix_free(A); ns_matrix_free(S); ns_matrix_free(B1); ns_matrix_free(B2);
    }
}

/* A random fc2d problem of nc contacts: W = GᵀG + 0.1 I over 2nc rows, G
 * sparse-ish (each contact coupled to a few others, so W has zero blocks),
 * q with some negative normal entries, μ in [0.1, 0.9]. */
static ns_fc *random_fc2d(ns_int nc, unsigned *seed, ns_storage storage)
{
    const ns_int n = 2 * nc;
    double *G = calloc((size_t)(n * n), sizeof *G), q[64], mu[32];
    ns_matrix *W = ns_matrix_dense_new(n, n);
    if (!G || !W) { free(G); ns_matrix_free(W); return NULL; }
    for (ns_int a = 0; a < nc; a++)
        for (ns_int b = 0; b < nc; b++) {
            if (a != b && (a + 2 * b) % 3 != 0) continue;   /* coupling pattern */
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) G[(2 * a + i) + n * (2 * b + j)] = rnd(seed);
        }
    for (ns_int i = 0; i < n; i++)
        for (ns_int j = 0; j < n; j++) {
            double s = i == j ? 0.1 : 0.0;
            for (ns_int k = 0; k < n; k++) s += G[k + n * i] * G[k + n * j];
            W->dense[i + n * j] = s;
        }
    free(G);
    for (ns_int i = 0; i < n; i++) q[i] = rnd(seed) - (i % 2 == 0 ? 0.3 : 0.0);
    for (ns_int a = 0; a < nc; a++) mu[a] = 0.5 + 0.4 * rnd(seed);
    if (storage == NS_BLOCK) {
        ns_matrix *B = ns_matrix_to_block_uniform(W, 2);
        ns_matrix_free(W);
        if (!B) return NULL;
        W = B;
    }
    return ns_fc_new(2, nc, W, q, mu);
}

/* The 2D Coulomb law at (r, u = W r + q), u recomputed here by hand from the
 * dense W: r ∈ K (r_N ≥ 0, |r_T| ≤ μ r_N), û = (u_N + μ|u_T|, u_T) ∈ K*
 * (u_N ≥ 0), r·û = 0, and a sliding contact's r_T = −μ r_N sign(u_T);
 * tolerances relative to the data. */
static void check_coulomb2d(const ns_fc *P, const double *Wd, const double *r, double tol)
{
    const ns_int n = 2 * P->nc;
    double scale = 0.0, u[64];
    for (ns_int i = 0; i < n; i++) {
        double s = P->q[i];
        for (ns_int j = 0; j < n; j++) s += Wd[i + n * j] * r[j];
        u[i] = s;
        scale = fmax(scale, fmax(fabs(P->q[i]), fabs(s)));
    }
    double rmax = 1e-300;
    for (ns_int i = 0; i < n; i++) rmax = fmax(rmax, fabs(r[i]));
    for (ns_int a = 0; a < P->nc; a++) {
        double rn = r[2 * a], rt = r[2 * a + 1], un = u[2 * a], ut = u[2 * a + 1], m = P->mu[a];
        double uh = un + m * fabs(ut);
        assert_true(rn >= -tol * rmax);                        /* r ∈ K */
        assert_true(fabs(rt) <= m * rn + tol * rmax);
        assert_true(un >= -tol * scale);                       /* û ∈ K* */
        assert_true(fabs(rn * uh + rt * ut) <= tol * rmax * scale);   /* r ⊥ û */
        if (fabs(ut) > tol * scale) {                  /* sliding: r_T = −μ r_N sign(u_T) */
            assert_true(fabs(rt + m * rn * (ut > 0 ? 1.0 : -1.0)) <= tol * rmax * 10);
        }
    }
}

static void test_fc2d_nsgs_dense_equals_blocks(void **state)
{
    (void)state;
    unsigned seed = 5;
    int several = 0, converged = 0;
    for (ns_int nc = 2; nc <= 20; nc += 3) {
        unsigned s1 = seed, s2 = seed;
        ns_fc *Pd = random_fc2d(nc, &s1, NS_DENSE), *Pb = random_fc2d(nc, &s2, NS_BLOCK);
        seed = s1;
        assert_non_null(Pd);
        assert_non_null(Pb);
        ns_problem *pd = ns_problem_from_fc(Pd), *pb = ns_problem_from_fc(Pb);
        ns_solution *sd = ns_solution_new(pd), *sb = ns_solution_new(pb);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-12;
        ns_result rd, rb;
        ns_result_init(&rd);
        ns_result_init(&rb);
        ns_status std_ = ns_solve(pd, "nsgs", &o, sd, &rd);
        ns_status stb = ns_solve(pb, "nsgs", &o, sb, &rb);
        assert_int_equal(std_, stb);
        assert_int_equal(rd.iterations, rb.iterations);
        for (ns_int i = 0; i < 2 * nc; i++) assert_true(same(sd->vec[0][i], sb->vec[0][i]));
        if (std_ == NS_CONVERGED) check_coulomb2d(Pd, Pd->W->dense, sd->vec[0], 1e-8);
        several += rd.iterations > 1;
        converged += std_ == NS_CONVERGED;
        ns_result_clear(&rd); ns_result_clear(&rb);
        ns_solution_free(sd); ns_solution_free(sb);
        ns_problem_free(pd); ns_problem_free(pb);
    }
    assert_true(several >= 2);   /* the sweeps (and active-set tries) ran */
    assert_true(converged >= 5); /* and the law was checked on most */
}

static void test_fc2d_lemke_small_bases(void **state)
{
    (void)state;
    unsigned seed = 9;
    for (ns_int nc = 1; nc <= 12; nc++) {   /* LCP order 4 nc ≤ 48: explicit B⁻¹ */
        ns_fc *P = random_fc2d(nc, &seed, NS_DENSE);
        assert_non_null(P);
        ns_problem *p = ns_problem_from_fc(P);
        ns_solution *sol = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-10;
        ns_result res;
        ns_result_init(&res);
        assert_int_equal(ns_solve(p, "lemke", &o, sol, &res), NS_CONVERGED);
        check_coulomb2d(P, P->W->dense, sol->vec[0], 1e-9);
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dense_gemv_matches_reference),
        cmocka_unit_test(test_norm2_fallbacks),
        cmocka_unit_test(test_lcp_error_values_and_nonfinite),
        cmocka_unit_test(test_mlcp_error_nonfinite),
        cmocka_unit_test(test_dense_to_block_matches_csc_route),
        cmocka_unit_test(test_fc2d_nsgs_dense_equals_blocks),
        cmocka_unit_test(test_fc2d_lemke_small_bases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
