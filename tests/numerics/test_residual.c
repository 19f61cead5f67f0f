/* test_residual.c — the error functions of every kind on hand-made problems
 * with exact solutions (error 0 up to rounding) and perturbations that must
 * raise the error; normalisations and zero-norm conventions checked against
 * values computed by hand (docs/errors.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"

#define TINY 1e-14   /* "zero up to rounding" for data of order 1 */

static ns_matrix *dense(ns_int r, ns_int c, const double *colmajor)
{
    ns_matrix *A = ns_matrix_dense_new(r, c);
    assert_non_null(A);
    if (colmajor) memcpy(A->dense, colmajor, sizeof(double) * (size_t)(r * c));
    return A;
}

static ns_matrix *eye(ns_int n, double s)
{
    ns_matrix *A = dense(n, n, NULL);
    for (ns_int i = 0; i < n; i++) A->dense[i + i * n] = s;
    return A;
}

static void assert_close(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.17g, want %.17g (tol %g)", got, want, tol);
}

static void assert_is_inf(double e)
{
    if (!(isinf(e) && e > 0)) fail_msg("expected +INFINITY, got %.17g", e);
}

/* ------------------------------------------------------------------ LCP */

static void test_lcp_1d(void **state)
{
    (void)state;
    double M[1] = { 2 }, q[1] = { -4 };
    ns_lcp *p = ns_lcp_new(dense(1, 1, M), q);
    assert_non_null(p);
    double z[1] = { 2 }, w[1];
    assert_close(ns_lcp_error(p, z, w), 0.0, TINY);
    assert_close(w[0], 0.0, 0.0);
    /* z = 2.1: w = 0.2, z − max(0, z − w) = 0.2, divided by ‖q‖ = 4 */
    z[0] = 2.1;
    assert_close(ns_lcp_error(p, z, w), 0.2 / 4.0, 1e-15);
    z[0] = 0.0;   /* w = −4 < 0 : infeasible */
    assert_close(ns_lcp_error(p, z, w), 4.0 / 4.0, 1e-15);
    ns_lcp_free(p);
}

static void test_lcp_2d(void **state)
{
    (void)state;
    /* M = [[2,1],[1,2]], q = (−5, 1): z = (2.5, 0), w = (0, 3.5) */
    double M[4] = { 2, 1, 1, 2 }, q[2] = { -5, 1 };
    ns_lcp *p = ns_lcp_new(dense(2, 2, M), q);
    double z[2] = { 2.5, 0 }, w[2];
    assert_close(ns_lcp_error(p, z, w), 0.0, TINY);
    assert_close(w[1], 3.5, 0.0);
    /* z = (2.5, 0.1): w = (0.1, 3.7), residual (0.1, 0.1) */
    z[1] = 0.1;
    assert_close(ns_lcp_error(p, z, w), sqrt(0.02) / sqrt(26.0), 1e-15);
    ns_lcp_free(p);
}

static void test_lcp_zero_q_and_nonfinite(void **state)
{
    (void)state;
    double q[2] = { 0, 0 };
    ns_lcp *p = ns_lcp_new(eye(2, 1.0), q);
    double z[2] = { 0, 0 }, w[2];
    assert_close(ns_lcp_error(p, z, w), 0.0, 0.0);
    /* ‖q‖ = 0: the absolute error is returned. z = (1, 0): w = (1, 0),
     * residual (1 − max(0, 0), 0) = (1, 0) */
    z[0] = 1;
    assert_close(ns_lcp_error(p, z, w), 1.0, 0.0);
    z[1] = NAN;
    assert_is_inf(ns_lcp_error(p, z, w));
    z[1] = INFINITY;
    assert_is_inf(ns_lcp_error(p, z, w));
    ns_lcp_free(p);
}

/* ---------------------------------------------------------------- relay */

static void test_relay_active_sets(void **state)
{
    (void)state;
    /* M = I, box [−1, 1]³; component 0 at lb (w = 2 ≥ 0), 1 at ub (w = −2),
     * 2 interior (w = 0). */
    double q[3] = { 3, -3, -0.5 }, lb[3] = { -1, -1, -1 }, ub[3] = { 1, 1, 1 };
    ns_relay *p = ns_relay_new(eye(3, 1.0), q, lb, ub);
    assert_non_null(p);
    double z[3] = { -1, 1, 0.5 }, w[3];
    assert_close(ns_relay_error(p, z, w), 0.0, 0.0);
    assert_close(w[0], 2.0, 0.0);
    assert_close(w[1], -2.0, 0.0);
    const double nq1 = 1.0 + sqrt(18.25);
    /* interior component off its equation: z2 = 0.6 → w2 = 0.1 */
    z[2] = 0.6;
    assert_close(ns_relay_error(p, z, w), 0.1 / nq1, 1e-15);
    /* lower component moved inside: z0 = −0.5 → w0 = 2.5, P(−3) = −1 */
    z[2] = 0.5; z[0] = -0.5;
    assert_close(ns_relay_error(p, z, w), 0.5 / nq1, 1e-15);
    /* upper component moved inside: z1 = 0.5 → w1 = −2.5, P(3) = 1 */
    z[0] = -1; z[1] = 0.5;
    assert_close(ns_relay_error(p, z, w), 0.5 / nq1, 1e-15);
    z[1] = NAN;
    assert_is_inf(ns_relay_error(p, z, w));
    ns_relay_free(p);
}

/* ----------------------------------------------------------------- MLCP */

static void test_mlcp_small(void **state)
{
    (void)state;
    /* n = m = 1, M = [[2,1],[1,2]] */
    double M[4] = { 2, 1, 1, 2 };
    /* q = (−4, 1): u = 2, v = 0, w = (0, 3) */
    double q1[2] = { -4, 1 };
    ns_mlcp *p = ns_mlcp_new(1, 1, dense(2, 2, M), q1);
    assert_non_null(p);
    double z[2] = { 2, 0 }, w[2];
    assert_close(ns_mlcp_error(p, z, w), 0.0, 0.0);
    assert_close(w[1], 3.0, 0.0);
    ns_mlcp_free(p);

    /* q = (−2, −4): u = 0, v = 2, w = (0, 0) */
    double q2[2] = { -2, -4 };
    p = ns_mlcp_new(1, 1, dense(2, 2, M), q2);
    double z2[2] = { 0, 2 };
    assert_close(ns_mlcp_error(p, z2, w), 0.0, 0.0);
    /* v = 2.5: w = (0.5, 1). e_e = 0.5, N_e = 1 + ‖a‖ = 3; e_i = v·w = 2.5,
     * N_i = 1 + ‖w_v‖ = 2; e_i/N_i ≥ e_e/N_e → e = e_i/(1 + N_i) = 2.5/3. */
    z2[1] = 2.5;
    assert_close(ns_mlcp_error(p, z2, w), 2.5 / 3.0, 1e-15);
    /* u = 0.5, v = 2: w = (1, 0.5). e_e = 1, N_e = 3; e_i = 2·0.5 = 1,
     * N_i = 1.5; 1/1.5 ≥ 1/3 → e = 1 / 2.5. */
    z2[0] = 0.5; z2[1] = 2;
    assert_close(ns_mlcp_error(p, z2, w), 1.0 / 2.5, 1e-15);
    /* u = 0.5, v = 1.5: w = (0.5, −0.5). e_e = 0.5, N_e = 3; e_i = 0.5 (w<0),
     * N_i = 1.5; e = 0.5/2.5 */
    z2[1] = 1.5;
    assert_close(ns_mlcp_error(p, z2, w), 0.5 / 2.5, 1e-15);

    /* through ns_problem_error: u, v in, w filled */
    ns_problem *P = ns_problem_from_mlcp(p);
    ns_solution *s = ns_solution_new(P);
    assert_non_null(s);
    ns_solution_get(s, "u")[0] = 0;
    ns_solution_get(s, "v")[0] = 2;
    assert_close(ns_problem_error(P, s), 0.0, 0.0);
    assert_close(ns_solution_get(s, "w")[1], 0.0, 0.0);
    ns_solution_get(s, "v")[0] = NAN;
    assert_is_inf(ns_problem_error(P, s));
    ns_solution_free(s);
    ns_problem_free(P);
}

/* ------------------------------------------------------------- equality */

static void test_equality(void **state)
{
    (void)state;
    double q[2] = { -2, -8 };
    double M[4] = { 2, 0, 0, 4 };
    ns_equality *p = ns_equality_new(dense(2, 2, M), q);
    assert_non_null(p);
    double z[2] = { 1, 2 }, w[2];
    assert_close(ns_equality_error(p, z, w), 0.0, 0.0);
    z[1] = 3;   /* w = (0, 4) */
    assert_close(ns_equality_error(p, z, w), 4.0 / (1.0 + sqrt(68.0)), 1e-15);
    ns_problem *P = ns_problem_from_equality(p);
    ns_solution *s = ns_solution_new(P);
    s->vec[0][0] = 1; s->vec[0][1] = 2;
    assert_close(ns_problem_error(P, s), 0.0, 0.0);
    ns_solution_free(s);
    ns_problem_free(P);
}

/* ------------------------------------------------------------------ AVI */

static void test_avi_box_and_polyhedron(void **state)
{
    (void)state;
    double q[3] = { 3, -3, -0.5 }, lb[3] = { -1, -1, -1 }, ub[3] = { 1, 1, 1 };
    ns_avi *p = ns_avi_new(eye(3, 1.0), q);
    assert_non_null(p);
    assert_int_equal(ns_avi_set_box(p, lb, ub), NS_OK);
    double z[3] = { -1, 1, 0.5 }, w[3];
    assert_close(ns_avi_error(p, z, w), 0.0, 0.0);
    z[2] = 0.6;
    assert_close(ns_avi_error(p, z, w), 0.1 / (1.0 + sqrt(18.25)), 1e-15);
    ns_avi_free(p);

    /* K = { y1 + y2 ≤ 1 }, M = I, q = (−1, −1): z = (½, ½) = P_K(1, 1) */
    double q2[2] = { -1, -1 }, H[2] = { 1, 1 }, h[1] = { 1 };
    p = ns_avi_new(eye(2, 1.0), q2);
    assert_int_equal(ns_avi_set_polyhedron(p, dense(1, 2, H), h), NS_OK);
    double z2[2] = { 0.5, 0.5 }, w2[2];
    assert_close(ns_avi_error(p, z2, w2), 0.0, TINY);
    /* z = (0.6, 0.4): z − w = (1, 1), P = (½, ½), residual (0.1, −0.1) */
    z2[0] = 0.6; z2[1] = 0.4;
    assert_close(ns_avi_error(p, z2, w2), sqrt(0.02) / (1.0 + sqrt(2.0)), 1e-14);
    ns_avi_free(p);
}

/* ----------------------------------------------------------------- FC3D */

/* One-contact FC problem with W = I and q = u − r, so that (r, u) is
 * consistent: u = W r + q. */
static ns_fc *fc_one(int d, double mu, const double *r, const double *u)
{
    double q[3];
    for (int k = 0; k < d; k++) q[k] = u[k] - r[k];
    ns_fc *p = ns_fc_new(d, 1, eye(d, 1.0), q, &mu);
    assert_non_null(p);
    return p;
}

/* (r, u) solves the one-contact problem: error ~0 for both normalisations,
 * and moving r by ±1e-3 along any axis raises it strictly (by far more than
 * rounding: > 1e-10, while the exact error is ≤ 1e-14; with μ = 100 a
 * tangential move along the cone's surface gives only ~5e-8). */
static void check_fc_solution(int d, double mu, const double *r, const double *u)
{
    ns_fc *p = fc_one(d, mu, r, u);
    double uu[3], rr[3];
    assert_close(ns_fc_error(p, r, uu, NS_FC_NORM_SICONOS), 0.0, TINY);
    assert_close(ns_fc_error(p, r, uu, NS_FC_NORM_Q), 0.0, 1e-13);
    double rmax = 0.0;   /* u = W r + (u − r) carries the rounding of r */
    for (int k = 0; k < d; k++) rmax = fmax(rmax, fabs(r[k]));
    for (int k = 0; k < d; k++) assert_close(uu[k], u[k], TINY * (1.0 + rmax));
    double tol_abs = TINY * (1.0 + rmax);
    assert_close(ns_fc_contact_error_sq(d, mu, r, u), 0.0, tol_abs * tol_abs);
    for (int k = 0; k < d; k++)
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            memcpy(rr, r, sizeof(double) * (size_t)d);
            rr[k] += sgn * 1e-3;
            double e = ns_fc_error(p, rr, uu, NS_FC_NORM_SICONOS);
            if (!(e > 1e-10))
                fail_msg("d=%d mu=%g: perturbing r[%d] by %+g gave error %.3g", d, mu,
                         k, sgn * 1e-3, e);
        }
    ns_fc_free(p);
}

/* The velocity check: one contact, W = I. An approach −(u_N + μ‖u_T‖) is
 * divided by max(‖q‖∞, ‖u‖∞, ‖W r‖∞) and the worst contact named; bad
 * arguments give +∞ and contact −1. */
static void test_fc_velocity_violation(void **state)
{
    (void)state;
    const double mu = 0.5;
    double r[3] = { 0, 0, 0 }, u[3] = { -0.2, 0.3, 0.4 };   /* û_N = −0.2 + 0.25 */
    ns_fc *p = fc_one(3, mu, r, u);
    ns_int c = 7;
    assert_close(ns_fc_velocity_violation(p, u, &c), 0.0, TINY);
    assert_int_equal(c, -1);
    double v[3] = { -0.5, 0.3, 0.4 };   /* û_N = −0.25; scale max(|q|, |v|, |v − q|) = 0.5 */
    assert_close(ns_fc_velocity_violation(p, v, &c), 0.25 / 0.5, TINY);
    assert_int_equal(c, 0);
    assert_true(isinf(ns_fc_velocity_violation(NULL, v, &c)));
    assert_int_equal(c, -1);
    assert_true(isinf(ns_fc_velocity_violation(p, NULL, NULL)));
    ns_fc_free(p);
}

static void test_fc3d_separated(void **state)
{
    (void)state;
    double r[3] = { 0, 0, 0 }, u[3] = { 1, 0.3, -0.2 };
    check_fc_solution(3, 0.5, r, u);
    check_fc_solution(3, 0.0, r, u);
    check_fc_solution(3, 100.0, r, u);
}

static void test_fc3d_sticking(void **state)
{
    (void)state;
    double u[3] = { 0, 0, 0 };
    double r1[3] = { 1, 0.1, 0.2 };
    check_fc_solution(3, 0.5, r1, u);
    double r2[3] = { 1, 50, -30 };      /* large μ */
    check_fc_solution(3, 100.0, r2, u);
    double r3[3] = { 2, 0, 0 };         /* μ = 0: frictionless, resting */
    check_fc_solution(3, 0.0, r3, u);
}

static void test_fc3d_sliding(void **state)
{
    (void)state;
    /* r = (r_N, −μ r_N t), u = (0, s t), |t| = 1: r on the cone boundary,
     * opposite to the slip. */
    const double dirs[][2] = { { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 },
                               { 0.6, 0.8 }, { -0.8, 0.6 }, { 0.70710678118654752, -0.70710678118654752 } };
    const double mus[] = { 0.5, 0.1, 1.0, 100.0 };
    for (size_t m = 0; m < sizeof mus / sizeof *mus; m++)
        for (size_t k = 0; k < sizeof dirs / sizeof *dirs; k++) {
            double mu = mus[m], rn = 2.0, s = 1.5;
            double r[3] = { rn, -mu * rn * dirs[k][0], -mu * rn * dirs[k][1] };
            double u[3] = { 0, s * dirs[k][0], s * dirs[k][1] };
            check_fc_solution(3, mu, r, u);
        }
    /* μ = 0: frictionless sliding, r purely normal */
    double r0[3] = { 1, 0, 0 }, u0[3] = { 0, 0.3, 0.4 };
    check_fc_solution(3, 0.0, r0, u0);
}

static void test_fc_norms(void **state)
{
    (void)state;
    /* μ = ½, W = I, q = (1, 0, 0), r = (0, 1, 0): u = (1, 1, 0),
     * û = (1 + ½·1, 1, 0), r − û = (−1.5, 0, 0) is in the polar cone, so
     * P_K = 0 and the absolute error is ‖r‖ = 1.  ‖q‖ = 1, ‖r‖ = 1, ‖u‖ = √2:
     * SICONOS gives 1/√2, Q gives 1/1. */
    double q[3] = { 1, 0, 0 }, mu = 0.5;
    ns_fc *p = ns_fc_new(3, 1, eye(3, 1.0), q, &mu);
    double r[3] = { 0, 1, 0 }, u[3];
    double abs_err = 1.0;
    assert_close(ns_fc_error(p, r, u, NS_FC_NORM_SICONOS), abs_err / sqrt(2.0), 1e-15);
    assert_close(ns_fc_error(p, r, u, NS_FC_NORM_Q), abs_err / 1.0, 1e-15);
    assert_close(ns_fc_contact_error_sq(3, mu, r, u), 1.0, 1e-15);
    ns_fc_free(p);

    /* ‖q‖ = 0 and r = 0: every divisor is 0 → the absolute error (0). With
     * q = 0, r = (0, 1, 0): u = r, û = (½, 1, 0), r − û = (−½, 0, 0) polar,
     * absolute error 1, Q-norm divisor 0 → 1 (not divided). */
    double q0[3] = { 0, 0, 0 };
    p = ns_fc_new(3, 1, eye(3, 1.0), q0, &mu);
    double r0[3] = { 0, 0, 0 };
    assert_close(ns_fc_error(p, r0, u, NS_FC_NORM_SICONOS), 0.0, 0.0);
    assert_close(ns_fc_error(p, r, u, NS_FC_NORM_Q), 1.0, 1e-15);
    assert_close(ns_fc_error(p, r, u, NS_FC_NORM_SICONOS), 1.0, 1e-15);
    r[2] = NAN;
    assert_is_inf(ns_fc_error(p, r, u, NS_FC_NORM_SICONOS));
    assert_is_inf(ns_fc_contact_error_sq(3, mu, r, u));
    ns_fc_free(p);
    assert_is_inf(ns_fc_contact_error_sq(4, mu, r0, r0));
}

static void test_fc3d_two_contacts(void **state)
{
    (void)state;
    /* two independent contacts (W = I₆): errors add in squares */
    double mu[2] = { 0.5, 0.5 };
    double r[6] = { 0, 0, 0, 0, 1, 0 }, q[6] = { 1, 0, 0, 1, 0, 0 };
    ns_fc *p = ns_fc_new(3, 2, eye(6, 1.0), q, mu);
    double u[6];
    /* contact 0 exact (separated), contact 1 as in test_fc_norms (abs 1) */
    double e = ns_fc_error(p, r, u, NS_FC_NORM_Q);
    assert_close(e, 1.0 / sqrt(2.0), 1e-15);
    ns_problem *P = ns_problem_from_fc(p);
    ns_solution *s = ns_solution_new(P);
    memcpy(ns_solution_get(s, "r"), r, sizeof r);
    /* ‖q‖ = √2, ‖r‖ = 1, ‖u‖ = √(1 + 2) */
    assert_close(ns_problem_error(P, s), 1.0 / sqrt(3.0), 1e-15);
    assert_close(ns_solution_get(s, "u")[4], 1.0, 0.0);
    ns_solution_free(s);
    ns_problem_free(P);
}

/* The relative error is homogeneous of degree 0: scaling q and r by α
 * scales u = W r + q, the absolute error and every divisor by α. Data of
 * order 1 take the one-pass sums of squares (up to 64 unknowns), as does
 * α = 1e-6; α = 1e151 puts those sums above 1e300, which takes the
 * finiteness scans and the scaled norms instead — every path must give the
 * same relative error. (Below a divisor of DBL_EPSILON the error is
 * absolute by convention, so α stays above that.) A problem of 22
 * contacts (66 unknowns) always takes the general path: its error must be
 * the one recomputed here by hand. Non-finite data: +INFINITY either way. */
static void test_fc_error_scaling(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        const ns_int nc = 3, m = (ns_int)dim * nc;
        double W[81], q[9], r[9], mu[3] = { 0.3, 1.2, 0.0 };
        for (ns_int j = 0; j < m; j++)
            for (ns_int i = 0; i < m; i++)
                W[i + j * m] = (i == j ? 3.0 : 0.0) + 0.1 * sin(1.0 + (double)(i * m + j)) + 0.1 * sin(1.0 + (double)(j * m + i));
        for (ns_int i = 0; i < m; i++) { q[i] = cos(0.7 * (double)i) - 0.3; r[i] = 0.2 * sin(1.3 * (double)i + 0.5); }
        ns_fc *p = ns_fc_new(dim, nc, dense(m, m, W), q, mu);
        assert_non_null(p);
        double u[9], rs[9];
        for (int norm = 0; norm < 2; norm++) {
            ns_fc_norm nm = norm ? NS_FC_NORM_Q : NS_FC_NORM_SICONOS;
            double e1 = ns_fc_error(p, r, u, nm);
            assert_true(e1 > 1e-3 && isfinite(e1));
            const double alphas[] = { 1e151, 1e-6 };
            for (int a = 0; a < 2; a++) {
                for (ns_int i = 0; i < m; i++) { p->q[i] = alphas[a] * q[i]; rs[i] = alphas[a] * r[i]; }
                assert_close(ns_fc_error(p, rs, u, nm), e1, 1e-13 * e1);
                memcpy(p->q, q, sizeof(double) * (size_t)m);
            }
        }
        double qi = p->q[1];
        p->q[1] = INFINITY;
        assert_is_inf(ns_fc_error(p, r, u, NS_FC_NORM_SICONOS));
        p->q[1] = qi;
        p->mu[0] = NAN;
        assert_is_inf(ns_fc_error(p, r, u, NS_FC_NORM_SICONOS));
        ns_fc_free(p);
    }
    /* 22 independent contacts (W = I, 66 unknowns), every one as in
     * test_fc_norms (absolute error 1 each): ‖q‖ = √22, ‖r‖ = √22,
     * ‖u‖ = √44 → SICONOS √22/√44, Q √22/√22 */
    enum { NC = 22 };
    double q[3 * NC], r[3 * NC], u[3 * NC], mu[NC];
    for (int c = 0; c < NC; c++) {
        q[3 * c] = 1; q[3 * c + 1] = 0; q[3 * c + 2] = 0;
        r[3 * c] = 0; r[3 * c + 1] = 1; r[3 * c + 2] = 0;
        mu[c] = 0.5;
    }
    ns_fc *p = ns_fc_new(3, NC, eye(3 * NC, 1.0), q, mu);
    assert_non_null(p);
    assert_close(ns_fc_error(p, r, u, NS_FC_NORM_SICONOS), sqrt(0.5), 1e-15);
    assert_close(ns_fc_error(p, r, u, NS_FC_NORM_Q), 1.0, 1e-15);
    r[40] = NAN;
    assert_is_inf(ns_fc_error(p, r, u, NS_FC_NORM_Q));
    ns_fc_free(p);
}

/* ----------------------------------------------------------------- FC2D */

static void test_fc2d(void **state)
{
    (void)state;
    double r_sep[2] = { 0, 0 }, u_sep[2] = { 1, -0.5 };
    check_fc_solution(2, 0.5, r_sep, u_sep);
    check_fc_solution(2, 0.0, r_sep, u_sep);
    double u0[2] = { 0, 0 }, r_st[2] = { 1, 0.3 };
    check_fc_solution(2, 0.5, r_st, u0);
    double r_st2[2] = { 1, -80 };
    check_fc_solution(2, 100.0, r_st2, u0);
    const double mus[] = { 0.0, 0.3, 1.0, 100.0 };
    for (size_t m = 0; m < 4; m++)
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            double mu = mus[m];
            double r[2] = { 2, -mu * 2 * sgn }, u[2] = { 0, 1.5 * sgn };
            check_fc_solution(2, mu, r, u);
        }
    /* a hand-computed 2D value: μ = ½, q = (1, 0), r = (0, 1): u = (1, 1),
     * û = (1.5, 1), r − û = (−1.5, 0) polar → absolute error 1 */
    double q[2] = { 1, 0 }, mu = 0.5, r[2] = { 0, 1 }, u[2];
    ns_fc *p = ns_fc_new(2, 1, eye(2, 1.0), q, &mu);
    assert_close(ns_fc_error(p, r, u, NS_FC_NORM_SICONOS), 1.0 / sqrt(2.0), 1e-15);
    assert_close(ns_fc_error(p, r, u, NS_FC_NORM_Q), 1.0, 1e-15);
    ns_fc_free(p);
}

/* ------------------------------------------------------------------ GFC */

static void test_gfc_one_contact(void **state)
{
    (void)state;
    /* n = 3, M = 2I, H = I, one 3D contact, μ = ½.  Sticking: r = (1, 0.2, 0),
     * u = 0.  v = M⁻¹(H r + q) = (½, 0, 0) with q = (0, −0.2, 0);
     * u = Hᵀv + b = 0 with b = (−½, 0, 0). */
    double q[3] = { 0, -0.2, 0 }, b[3] = { -0.5, 0, 0 }, mu = 0.5;
    ns_gfc *p = ns_gfc_new(3, 1, eye(3, 2.0), eye(3, 1.0), q, b, &mu);
    assert_non_null(p);
    double v[3] = { 0.5, 0, 0 }, r[3] = { 1, 0.2, 0 }, u[3], work[3];
    assert_close(ns_gfc_error(p, v, r, u, work), 0.0, TINY);
    assert_close(ns_gfc_error(p, v, r, u, NULL), 0.0, TINY);
    for (int k = 0; k < 3; k++) assert_close(u[k], 0.0, 0.0);
    /* v = (0.6, 0, 0): q + H r − M v = (−0.2, 0, 0); divisor
     * max(‖q‖ = 0.2, ‖Mv‖ = 1.2, ‖Hr‖ = √1.04) = 1.2 → 1/6.
     * u = (0.1, 0, 0), û = u, r − û = (0.9, 0.2, 0) ∈ K → residual (0.1, 0, 0),
     * divisor max(‖u‖, ‖r‖) = √1.04. */
    v[0] = 0.6;
    double want = 0.2 / 1.2 + 0.1 / sqrt(1.04);
    assert_close(ns_gfc_error(p, v, r, u, work), want, 1e-15);
    /* the dispatch: v, u, r vectors */
    ns_problem *P = ns_problem_from_gfc(p);
    ns_solution *s = ns_solution_new(P);
    assert_non_null(s);
    ns_solution_get(s, "v")[0] = 0.5;
    memcpy(ns_solution_get(s, "r"), r, sizeof r);
    assert_close(ns_problem_error(P, s), 0.0, TINY);
    ns_solution_get(s, "v")[0] = 0.6;
    assert_close(ns_problem_error(P, s), want, 1e-15);
    assert_close(ns_solution_get(s, "u")[0], 0.1, 1e-16);
    ns_solution_get(s, "r")[1] = INFINITY;
    assert_is_inf(ns_problem_error(P, s));
    ns_solution_free(s);
    ns_problem_free(P);
}

/* ------------------------------------------------------------------ GMP */

/* M = [[2 | 1 0 0], [1 | I₃] with a column (1, 0, 0)ᵀ], q = (−1, −1, 0, 0),
 * block 0 equality, block 1 FC3D μ = ½.  Exact solution z = (0, 1, 0, 0):
 * w0 = 0 + 1 − 1 = 0, contact sticking with u = 0. */
static ns_gmp *gmp_eq_fc3d(void)
{
    const ns_int rs[3] = { 0, 1, 4 }, rp[3] = { 0, 2, 4 }, bc[4] = { 0, 1, 0, 1 };
    char err[NS_ERRMSG_LEN] = "";
    ns_matrix *M = ns_matrix_block_new(2, 2, rs, rs, rp, bc, err);
    if (!M) fail_msg("ns_matrix_block_new: %s", err);
    double *x = M->block.x;
    const ns_int *vp = M->block.value_ptr;
    x[vp[0]] = 2;                                   /* (0,0): 1×1 */
    x[vp[1] + 0] = 1;                               /* (0,1): 1×3 */
    x[vp[2] + 0] = 1;                               /* (1,0): 3×1 */
    for (int k = 0; k < 3; k++) x[vp[3] + k + 3 * k] = 1;   /* (1,1) = I₃ */
    double q[4] = { -1, -1, 0, 0 }, mu[2] = { NAN, 0.5 };
    int type[2] = { NS_GMP_EQUALITY, NS_GMP_FC3D };
    ns_gmp *p = ns_gmp_new(M, q, type, mu);
    assert_non_null(p);
    return p;
}

static void test_gmp_equality_and_fc3d(void **state)
{
    (void)state;
    ns_gmp *p = gmp_eq_fc3d();
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(ns_gmp_validate(p, err), NS_OK);
    double z[4] = { 0, 1, 0, 0 }, w[4];
    assert_close(ns_gmp_error(p, z, w), 0.0, 0.0);
    for (int k = 0; k < 4; k++) assert_close(w[k], 0.0, 0.0);
    /* z0 = 0.1: equality w0 = 0.2 (absolute);  FC block: q_loc = (−0.9, 0, 0),
     * u = (0.1, 0, 0), residual (0.1, 0, 0) → 0.1/1.9 < 0.2: e = 0.2 */
    z[0] = 0.1;
    assert_close(ns_gmp_error(p, z, w), 0.2, 1e-15);
    /* z = (0, 1, 0.6, 0): w0 = 0; q_loc = (−1, 0, 0), u = (0, 0.6, 0),
     * û = (0.3, 0.6, 0), r − û = (0.7, 0, 0) ∈ K → residual (0.3, 0.6, 0),
     * e = √0.45 / (1 + 1) */
    z[0] = 0; z[2] = 0.6;
    assert_close(ns_gmp_error(p, z, w), sqrt(0.45) / 2.0, 1e-15);
    assert_close(w[2], 0.6, 0.0);
    /* each axis of the contact reaction raises the error */
    for (int k = 1; k < 4; k++) {
        double zz[4] = { 0, 1, 0, 0 };
        zz[k] += 1e-3;
        assert_true(ns_gmp_error(p, zz, w) > 1e-6);
    }
    ns_problem *P = ns_problem_from_gmp(p);
    ns_solution *s = ns_solution_new(P);
    ns_solution_get(s, "reaction")[1] = 1;
    assert_close(ns_problem_error(P, s), 0.0, 0.0);
    ns_solution_get(s, "reaction")[3] = NAN;
    assert_is_inf(ns_problem_error(P, s));
    ns_solution_free(s);
    ns_problem_free(P);
}

static void test_lcp_through_problem(void **state)
{
    (void)state;
    double M[4] = { 2, 1, 1, 2 }, q[2] = { -5, 1 };
    ns_problem *P = ns_problem_from_lcp(ns_lcp_new(dense(2, 2, M), q));
    ns_solution *s = ns_solution_new(P);
    s->vec[0][0] = 2.5;
    assert_close(ns_problem_error(P, s), 0.0, 0.0);
    assert_close(ns_solution_get(s, "w")[1], 3.5, 0.0);
    /* a solution of another kind is refused */
    s->kind = NS_KIND_RELAY;
    assert_is_inf(ns_problem_error(P, s));
    ns_solution_free(s);
    ns_problem_free(P);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lcp_1d),
        cmocka_unit_test(test_lcp_2d),
        cmocka_unit_test(test_lcp_zero_q_and_nonfinite),
        cmocka_unit_test(test_lcp_through_problem),
        cmocka_unit_test(test_relay_active_sets),
        cmocka_unit_test(test_mlcp_small),
        cmocka_unit_test(test_equality),
        cmocka_unit_test(test_avi_box_and_polyhedron),
        cmocka_unit_test(test_fc_velocity_violation),
        cmocka_unit_test(test_fc3d_separated),
        cmocka_unit_test(test_fc3d_sticking),
        cmocka_unit_test(test_fc3d_sliding),
        cmocka_unit_test(test_fc_norms),
        cmocka_unit_test(test_fc3d_two_contacts),
        cmocka_unit_test(test_fc_error_scaling),
        cmocka_unit_test(test_fc2d),
        cmocka_unit_test(test_gfc_one_contact),
        cmocka_unit_test(test_gmp_equality_and_fc3d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
