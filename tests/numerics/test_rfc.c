/* test_rfc.c — rolling friction contact (RFC3D, RFC2D, GRFC3D): the cone
 * projection, the solvers on analytic one-contact cases, on generated
 * problems and on every file of ../shared/rolling-data, the .dat and HDF5
 * readers and writers, and bad input for every new reader and entry point.
 *
 * Every answer is checked by properties computed here, independently of the
 * library: the rolling law contact by contact (r ∈ K, û ∈ K*, r·û = 0, with
 * K* = {y : y_N ≥ μ‖y_T‖ + μr‖y_R‖}), and the natural-map error
 * ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖) with a projection computed here by
 * bisection on the one-dimensional normal problem (the library uses the
 * closed form on the right piece). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nonsmooth/nonsmooth.h"
#include "nonsmooth/ns_rfc.h"
#include "rfc/rfc_internal.h"
#include "ns_test.h"
#include <hdf5.h>

/* ------------------------------------------------ independent checks */

static double nrm(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}

/* Projection on K by bisection: n* minimises ½(n − a)² + ½(t − μn)₊² +
 * ½(m − μr n)₊² over n ≥ 0 (derivative increasing); parts clipped. */
static void own_project(int d, double mu, double mur, const double *x, double *p)
{
    const int h = (d - 1) / 2;
    double t = nrm(x + 1, h), m = nrm(x + 1 + h, h), a = x[0];
#define G(n) ((n) - a - mu * fmax(t - mu * (n), 0) - mur * fmax(m - mur * (n), 0))
    double n;
    if (G(0.0) >= 0) n = 0;
    else {
        double lo = 0, hi = fabs(a) + t / fmax(mu, 1e-300) + m / fmax(mur, 1e-300) + 1;
        hi = fmin(hi, fabs(a) + mu * t + mur * m + 1);   /* g(hi) ≥ 0 there */
        while (G(hi) < 0) hi *= 2;
        for (int k = 0; k < 200; k++) {
            double mid = 0.5 * (lo + hi);
            if (G(mid) < 0) lo = mid; else hi = mid;
        }
        n = 0.5 * (lo + hi);
    }
#undef G
    p[0] = n;
    double cT = t > 0 ? fmin(1, mu * n / t) : 0, cR = m > 0 ? fmin(1, mur * n / m) : 0;
    for (int k = 0; k < h; k++) { p[1 + k] = cT * x[1 + k]; p[1 + h + k] = cR * x[1 + h + k]; }
}

/* u = W r + q with W dense column-major (m × m). */
static void own_velocity(int m, const double *W, const double *q, const double *r, double *u)
{
    for (int i = 0; i < m; i++) {
        double s = q[i];
        for (int j = 0; j < m; j++) s += W[i + (size_t)j * m] * r[j];
        u[i] = s;
    }
}

/* Natural-map error of a local problem, computed here. */
static double own_error(int d, int nc, const double *W, const double *q, const double *mu,
                        const double *mur, const double *r)
{
    int m = d * nc;
    double *u = malloc((size_t)m * sizeof *u), s = 0;
    own_velocity(m, W, q, r, u);
    for (int c = 0; c < nc; c++) {
        const double *ra = r + c * d, *ua = u + c * d;
        const int h = (d - 1) / 2;
        double x[5], p[5];
        for (int k = 0; k < d; k++) x[k] = ra[k] - ua[k];
        x[0] -= mu[c] * nrm(ua + 1, h) + mur[c] * nrm(ua + 1 + h, h);
        own_project(d, mu[c], mur[c], x, p);
        for (int k = 0; k < d; k++) s += (ra[k] - p[k]) * (ra[k] - p[k]);
    }
    double sc = fmax(nrm(q, m), fmax(nrm(r, m), nrm(u, m)));
    free(u);
    return sc > DBL_EPSILON ? sqrt(s) / sc : sqrt(s);
}

/* The rolling law at each contact, violations relative to scale. */
static double law_violation(int d, int nc, const double *r, const double *u, const double *mu,
                            const double *mur)
{
    const int h = (d - 1) / 2;
    double worst = 0;
    for (int c = 0; c < nc; c++) {
        const double *ra = r + c * d, *ua = u + c * d;
        double uh0 = ua[0] + mu[c] * nrm(ua + 1, h) + mur[c] * nrm(ua + 1 + h, h);
        worst = fmax(worst, nrm(ra + 1, h) - mu[c] * ra[0]);        /* sliding cone */
        worst = fmax(worst, nrm(ra + 1 + h, h) - mur[c] * ra[0]);   /* rolling cone */
        worst = fmax(worst, -ra[0]);
        worst = fmax(worst, -ua[0]);                                /* û ∈ K* ⟺ u_N ≥ 0 */
        double dot = ra[0] * uh0;
        for (int k = 1; k < d; k++) dot += ra[k] * ua[k];
        worst = fmax(worst, fabs(dot) / fmax(1e-300, nrm(ra, d) + nrm(ua, d)));
    }
    return worst;
}

static ns_matrix *dense_from(int m, const double *W)
{
    ns_matrix *A = ns_matrix_dense_new(m, m);
    memcpy(A->dense, W, (size_t)m * m * sizeof *W);
    return A;
}

/* Solves p by `solver`, returns the status; r, u copied out. */
static ns_status solve_rfc(ns_problem *P, const char *solver, double tol, double *r, double *u,
                           ns_result *res)
{
    ns_options o;
    ns_options_default(&o);
    o.tol = tol;
    ns_solution *s = ns_solution_new(P);
    assert_non_null(s);
    ns_result_init(res);
    ns_status st = ns_solve(P, solver, &o, s, res);
    ns_int m = ns_problem_size(P);
    const double *rr = ns_solution_get(s, "r"), *uu = ns_solution_get(s, "u");
    if (r) memcpy(r, rr, (size_t)m * sizeof *r);
    if (u) memcpy(u, uu, (size_t)m * sizeof *u);
    ns_solution_free(s);
    return st;
}

/* -------------------------------------------------------- projection */

static void test_projection_properties(void **state)
{
    (void)state;
    ns_rng g;
    ns_rng_seed(&g, 7);
    for (int trial = 0; trial < 4000; trial++) {
        int d = trial % 2 ? 5 : 3, h = (d - 1) / 2;
        double mu = trial % 7 == 0 ? 0.0 : ns_rng_range(&g, 0, 2);
        double mur = trial % 11 == 0 ? 0.0 : ns_rng_range(&g, 0, 0.5);
        double x[5], p[5], q[5];
        for (int k = 0; k < d; k++) x[k] = ns_rng_range(&g, -3, 3);
        memcpy(p, x, sizeof x);
        ns_rfc_project(d, mu, mur, p);
        own_project(d, mu, mur, x, q);
        for (int k = 0; k < d; k++) assert_true(fabs(p[k] - q[k]) <= 1e-9 * (1 + nrm(x, d)));
        /* Moreau: p ∈ K, x − p in the polar cone, (x − p)·p = 0 */
        double y[5];
        for (int k = 0; k < d; k++) y[k] = x[k] - p[k];
        double tol = 1e-12 * (1 + nrm(x, d));
        assert_true(nrm(p + 1, h) <= mu * p[0] + tol);
        assert_true(nrm(p + 1 + h, h) <= mur * p[0] + tol);
        assert_true(y[0] + mu * nrm(y + 1, h) + mur * nrm(y + 1 + h, h) <= tol);
        double dot = 0;
        for (int k = 0; k < d; k++) dot += y[k] * p[k];
        assert_true(fabs(dot) <= 1e-10 * (1 + nrm(x, d) * nrm(x, d)));
    }
}

/* The Jacobian of the projection against central differences, away from
 * the kinks (points where a one-sided difference would differ). */
static void test_projection_jacobian(void **state)
{
    (void)state;
    ns_rng g;
    ns_rng_seed(&g, 11);
    int checked = 0;
    for (int trial = 0; trial < 3000; trial++) {
        int d = trial % 3 == 0 ? 3 : trial % 3 == 1 ? 5 : 6;
        double mu = ns_rng_range(&g, 0.1, 1.5), mur = ns_rng_range(&g, 0.05, 0.5);
        double mup = ns_rng_range(&g, 0.02, 0.4);
        double x[6], J[36];
        for (int k = 0; k < d; k++) x[k] = ns_rng_range(&g, -2, 2);
        ns_rfc_project_jacobian(d, mu, mur, mup, x, J);
        const double e = 1e-6;
        int smooth = 1;
        double Jn[36];
        for (int c = 0; c < d && smooth; c++) {
            double xp[6], xm[6], pp[6], pm[6], p0[6];
            memcpy(xp, x, sizeof x); memcpy(xm, x, sizeof x); memcpy(p0, x, sizeof x);
            xp[c] += e; xm[c] -= e;
            memcpy(pp, xp, sizeof pp); memcpy(pm, xm, sizeof pm);
            int s0 = ns_rfc_project_pivot(d, mu, mur, mup, p0), s1 = ns_rfc_project_pivot(d, mu, mur, mup, pp),
                s2 = ns_rfc_project_pivot(d, mu, mur, mup, pm);
            if (s0 != s1 || s0 != s2) smooth = 0;
            for (int i = 0; i < d; i++) {
                Jn[i + c * d] = (pp[i] - pm[i]) / (2 * e);
                /* a part switching between clipped and free between ±e */
                double one_sided = (pp[i] - p0[i]) / e, other = (p0[i] - pm[i]) / e;
                if (fabs(one_sided - other) > 1e-4) smooth = 0;
            }
        }
        if (!smooth) continue;
        checked++;
        for (int k = 0; k < d * d; k++) assert_true(fabs(J[k] - Jn[k]) <= 1e-5);
    }
    assert_true(checked > 1000);
}

/* A = ∂Φ/∂r and B = ∂Φ/∂u of both contact residuals against central
 * differences at random points (kinks are met with probability 0). */
static void test_residual_jacobians(void **state)
{
    (void)state;
    ns_rng g;
    ns_rng_seed(&g, 5);
    ns_rfc_phi_fn fns[2] = { ns_rfc_nm, ns_rfc_ac };
    int bad = 0, total = 0;
    for (int t = 0; t < 2000; t++) {
        int d = t % 3 == 0 ? 3 : t % 3 == 1 ? 5 : 6;
        double mu = ns_rng_range(&g, 0.1, 1), mur = ns_rng_range(&g, 0.05, 0.3), rho = 0.7;
        double mup = ns_rng_range(&g, 0.02, 0.3);
        double r[6], u[6], F[6], A[36], B[36];
        for (int i = 0; i < d; i++) { r[i] = ns_rng_range(&g, -1, 1); u[i] = ns_rng_range(&g, -1, 1); }
        ns_rfc_phi_fn f = fns[(t / 3) % 2];
        f(d, mu, mur, mup, rho, r, u, F, A, B);
        const double e = 1e-7;
        for (int c = 0; c < d; c++)
            for (int which = 0; which < 2; which++) {
                double xp[6], xm[6], Fp[6], Fm[6];
                const double *x = which ? u : r;
                memcpy(xp, x, sizeof xp); memcpy(xm, x, sizeof xm);
                xp[c] += e; xm[c] -= e;
                if (which) { f(d, mu, mur, mup, rho, r, xp, Fp, NULL, NULL); f(d, mu, mur, mup, rho, r, xm, Fm, NULL, NULL); }
                else { f(d, mu, mur, mup, rho, xp, u, Fp, NULL, NULL); f(d, mu, mur, mup, rho, xm, u, Fm, NULL, NULL); }
                for (int i = 0; i < d; i++) {
                    double fd = (Fp[i] - Fm[i]) / (2 * e), an = (which ? B : A)[i + c * d];
                    total++;
                    bad += fabs(fd - an) > 1e-5;
                }
            }
    }
    /* a difference straddling a kink may disagree: allow a handful */
    assert_true(bad <= total / 1000);
}

/* ------------------------------------------- analytic one-contact cases */

/* The sphere block of RFC3D_sphere_1.dat (coupled sliding/rolling). */
static const double Wsphere[25] = {
    1, 0, 0, 0, 0,
    0, 1.01, 0, 0, -0.1,
    0, 0, 1.01, 0.0774, 0,
    0, 0, 0.0774, 1, 0,
    0, -0.1, 0, 0, 1 };

/* One contact with W = Wsphere and q = u* − W r*, r*, u* a solution by
 * construction; every solver must find a point satisfying the law, and
 * (the one-contact problem with a definite W and these small coefficients
 * has one solution) r*. */
static void check_constructed(const double *rstar, const double *ustar, double mu, double mur)
{
    double q[5];
    for (int i = 0; i < 5; i++) {
        q[i] = ustar[i];
        for (int j = 0; j < 5; j++) q[i] -= Wsphere[i + 5 * j] * rstar[j];
    }
    /* r*, u* satisfy the law (the construction itself) */
    assert_true(law_violation(5, 1, rstar, ustar, &mu, &mur) < 1e-14);
    static const char *solvers[] = { "auto", "nsgs", "nsgs-proj", "nsn", "nsn-ac" };
    for (size_t k = 0; k < sizeof solvers / sizeof *solvers; k++) {
        ns_problem *P = ns_problem_from_rfc(ns_rfc_new(5, 1, dense_from(5, Wsphere), q, &mu, &mur));
        assert_non_null(P);
        double r[5], u[5];
        ns_result res;
        ns_status st = solve_rfc(P, solvers[k], 1e-10, r, u, &res);
        assert_int_equal(st, NS_CONVERGED);
        assert_true(own_error(5, 1, Wsphere, q, &mu, &mur, r) <= 1e-9);
        assert_true(law_violation(5, 1, r, u, &mu, &mur) <= 1e-8);
        for (int i = 0; i < 5; i++) assert_true(fabs(r[i] - rstar[i]) <= 1e-6);
        ns_problem_free(P);
    }
}

static void test_one_contact_sticking(void **state)
{
    (void)state;
    /* rolling torque below μr r_N and friction below μ r_N: u = 0 */
    const double mu = 0.5, mur = 0.1;
    const double r[5] = { 2.0, 0.3, -0.2, 0.08, 0.1 }, u[5] = { 0 };
    assert_true(hypot(r[3], r[4]) < mur * r[0]);
    check_constructed(r, u, mu, mur);
}

static void test_one_contact_rolling(void **state)
{
    (void)state;
    /* sticking in sliding, rolling at the bound: r_R = −μr r_N s, u_R = λ s */
    const double mu = 0.5, mur = 0.1, rn = 1.5, lam = 0.7;
    const double s[2] = { 0.6, -0.8 };
    double r[5] = { rn, 0.2, 0.1, -mur * rn * s[0], -mur * rn * s[1] };
    double u[5] = { 0, 0, 0, lam * s[0], lam * s[1] };
    check_constructed(r, u, mu, mur);
    /* sliding and rolling both */
    const double st[2] = { -1, 0 };
    double r2[5] = { rn, -mu * rn * st[0], -mu * rn * st[1], -mur * rn * s[0], -mur * rn * s[1] };
    double u2[5] = { 0, 0.4 * st[0], 0.4 * st[1], lam * s[0], lam * s[1] };
    check_constructed(r2, u2, mu, mur);
    /* taking off: q_N > 0, r = 0 */
    double r3[5] = { 0 }, u3[5] = { 0.5, 0.3, -0.1, 0.2, 0.0 };
    check_constructed(r3, u3, mu, mur);
}

/* A sphere of radius R on a plane, free velocities given: W of the
 * contact frame from the sphere's mass m and inertia I = 2/5 m R² (u_T =
 * v + ω × R n, u_R = ω_T R ... as a 5×5 block), then the sticking test:
 * the rolling torque stays below μr r_N exactly when the free rolling
 * velocity is small enough — the solver's r_R is checked against the
 * interior/boundary prediction from the decoupled 1D rolling problem. */
static void test_one_contact_decoupled_threshold(void **state)
{
    (void)state;
    /* W = diag(1, 1, 1, w, w): the rolling part is a 2D problem of its own
     * once r_N = −q_N: r_R = −q_R/w if ‖q_R‖ ≤ w μr r_N, else
     * −μr r_N q_R/‖q_R‖ */
    const double w = 4.0, mu = 0.3, mur = 0.05;
    for (int k = 0; k < 40; k++) {
        double qR = 0.01 * k;   /* threshold w μr r_N = 4·0.05·1 = 0.2 */
        double W[25] = { 0 };
        W[0] = W[6] = W[12] = 1; W[18] = W[24] = w;
        double q[5] = { -1, 0, 0, qR, 0 };
        ns_problem *P = ns_problem_from_rfc(ns_rfc_new(5, 1, dense_from(5, W), q, &mu, &mur));
        double r[5], u[5];
        ns_result res;
        assert_int_equal(solve_rfc(P, NULL, 1e-12, r, u, &res), NS_CONVERGED);
        double want = qR <= w * mur * 1.0 ? -qR / w : -mur * 1.0;
        assert_true(fabs(r[0] - 1.0) < 1e-9);
        assert_true(fabs(r[3] - want) < 1e-9);
        if (qR < 0.2 - 1e-9) assert_true(fabs(u[3]) < 1e-9);             /* no rolling */
        if (qR > 0.2 + 1e-9) assert_true(u[3] > 0);                       /* rolls on */
        ns_problem_free(P);
    }
}

/* ------------------------------------------- pivoting resistance (d = 6) */

/* Contact vectors (N, T1, T2, R1, R2, P): cone ‖x_T‖ ≤ μ x_N, ‖x_R‖ ≤ μr
 * x_N, |x_P| ≤ μp x_N. Projection by bisection on the normal problem
 * ½(n − a)² + Σ_p ½(ℓ_p − c_p n)₊², the parts clipped. */
static void own_project6(const double c[3], const double *x, double *p)
{
    const double len[3] = { hypot(x[1], x[2]), hypot(x[3], x[4]), fabs(x[5]) }, a = x[0];
#define G6(n) ((n) - a - c[0] * fmax(len[0] - c[0] * (n), 0) - c[1] * fmax(len[1] - c[1] * (n), 0) \
               - c[2] * fmax(len[2] - c[2] * (n), 0))
    double n = 0;
    if (G6(0.0) < 0) {
        double lo = 0, hi = fabs(a) + c[0] * len[0] + c[1] * len[1] + c[2] * len[2] + 1;
        while (G6(hi) < 0) hi *= 2;
        for (int k = 0; k < 200; k++) {
            double mid = 0.5 * (lo + hi);
            if (G6(mid) < 0) lo = mid; else hi = mid;
        }
        n = 0.5 * (lo + hi);
    }
#undef G6
    p[0] = n;
    static const int off[3] = { 1, 3, 5 }, sz[3] = { 2, 2, 1 };
    for (int q = 0; q < 3; q++) {
        double f = len[q] > 0 ? fmin(1, c[q] * n / len[q]) : 0;
        for (int k = 0; k < sz[q]; k++) p[off[q] + k] = f * x[off[q] + k];
    }
}

/* The law with pivoting at every contact (r ∈ K, u_N ≥ 0, r·û = 0),
 * violations relative to scale. */
static double law_violation6(int nc, const double *r, const double *u, const double *mu,
                             const double *mur, const double *mup)
{
    double worst = 0;
    for (int c = 0; c < nc; c++) {
        const double *ra = r + 6 * c, *ua = u + 6 * c;
        double uh0 = ua[0] + mu[c] * hypot(ua[1], ua[2]) + mur[c] * hypot(ua[3], ua[4]) + mup[c] * fabs(ua[5]);
        worst = fmax(worst, hypot(ra[1], ra[2]) - mu[c] * ra[0]);
        worst = fmax(worst, hypot(ra[3], ra[4]) - mur[c] * ra[0]);
        worst = fmax(worst, fabs(ra[5]) - mup[c] * ra[0]);
        worst = fmax(worst, fmax(-ra[0], -ua[0]));
        double dot = ra[0] * uh0;
        for (int k = 1; k < 6; k++) dot += ra[k] * ua[k];
        worst = fmax(worst, fabs(dot) / fmax(1e-300, nrm(ra, 6) + nrm(ua, 6)));
    }
    return worst;
}

static void test_pivot_projection(void **state)
{
    (void)state;
    ns_rng g;
    ns_rng_seed(&g, 21);
    for (int trial = 0; trial < 4000; trial++) {
        double c[3] = { trial % 7 == 0 ? 0.0 : ns_rng_range(&g, 0, 2), trial % 11 == 0 ? 0.0 : ns_rng_range(&g, 0, 0.5),
                        trial % 5 == 0 ? 0.0 : ns_rng_range(&g, 0, 0.5) };
        double x[6], p[6], q[6], y[6];
        for (int k = 0; k < 6; k++) x[k] = ns_rng_range(&g, -3, 3);
        memcpy(p, x, sizeof x);
        ns_rfc_project_pivot(6, c[0], c[1], c[2], p);
        own_project6(c, x, q);
        for (int k = 0; k < 6; k++) assert_true(fabs(p[k] - q[k]) <= 1e-9 * (1 + nrm(x, 6)));
        /* Moreau: p ∈ K, x − p in the polar cone, (x − p)·p = 0 */
        for (int k = 0; k < 6; k++) y[k] = x[k] - p[k];
        double tol = 1e-12 * (1 + nrm(x, 6)), dot = 0;
        assert_true(hypot(p[1], p[2]) <= c[0] * p[0] + tol);
        assert_true(hypot(p[3], p[4]) <= c[1] * p[0] + tol);
        assert_true(fabs(p[5]) <= c[2] * p[0] + tol);
        assert_true(y[0] + c[0] * hypot(y[1], y[2]) + c[1] * hypot(y[3], y[4]) + c[2] * fabs(y[5]) <= tol);
        for (int k = 0; k < 6; k++) dot += y[k] * p[k];
        assert_true(fabs(dot) <= 1e-10 * (1 + nrm(x, 6) * nrm(x, 6)));
        /* x_P = 0: the 5-unknown projection of the first five entries */
        double x5[5];
        memcpy(x5, x, sizeof x5);
        memcpy(y, x, sizeof y);
        y[5] = 0;
        ns_rfc_project(5, c[0], c[1], x5);
        ns_rfc_project_pivot(6, c[0], c[1], c[2], y);
        for (int k = 0; k < 5; k++) assert_true(fabs(x5[k] - y[k]) <= 1e-12 * (1 + nrm(x, 6)));
        assert_true(y[5] == 0);
    }
}

/* Generated RFC3D problems with 6 unknowns per contact (W = A Aᵀ + δI,
 * chain-coupled): every solver's answer satisfies the law with pivoting,
 * checked here; a sphere-on-plane block whose spin about the normal is
 * below the pivoting threshold sticks, above it turns at the bound. */
static void test_pivot_solvers(void **state)
{
    (void)state;
    static const char *solvers[] = { "auto", "nsgs", "nsgs-proj", "nsn", "nsn-ac" };
    int solved[5] = { 0 }, total = 0;
    for (int nc = 1; nc <= 27; nc += 13)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            ns_rng g;
            ns_rng_seed(&g, 1000 + seed * 31 + (uint64_t)nc);
            const int d = 6, m = d * nc;
            double *A = calloc((size_t)m * m, sizeof *A), *W = calloc((size_t)m * m, sizeof *W);
            for (int c = 0; c < nc; c++)
                for (int i = 0; i < d; i++)
                    for (int j = c * d; j < (c + 2) * d && j < m; j++)
                        A[(size_t)(c * d + i) + (size_t)j * m] = ns_rng_range(&g, -1, 1);
            for (int i = 0; i < m; i++)
                for (int j = 0; j < m; j++) {
                    double sum = i == j ? 0.2 : 0;
                    for (int k = 0; k < m; k++) sum += A[i + (size_t)k * m] * A[j + (size_t)k * m];
                    W[i + (size_t)j * m] = sum;
                }
            double *q = malloc((size_t)m * sizeof *q), mu[27], mur[27], mup[27];
            for (int i = 0; i < m; i++) q[i] = ns_rng_range(&g, -1, 1);
            for (int c = 0; c < nc; c++) {
                q[c * d] = ns_rng_range(&g, -1, 0.3);
                mu[c] = ns_rng_range(&g, 0.1, 0.8);
                mur[c] = ns_rng_range(&g, 0.01, 0.2);
                mup[c] = ns_rng_range(&g, 0.01, 0.2);
            }
            total++;
            for (int k = 0; k < 5; k++) {
                ns_matrix *Wm = dense_from(m, W);
                ns_rfc *rp = ns_rfc_new(d, nc, k % 2 ? ns_matrix_to_block_uniform(Wm, d) : ns_matrix_copy(Wm), q, mu, mur);
                ns_matrix_free(Wm);
                assert_non_null(rp);
                memcpy(rp->mu_p, mup, (size_t)nc * sizeof *mup);
                ns_problem *P = ns_problem_from_rfc(rp);
                assert_non_null(P);
                assert_int_equal(P->kind, NS_KIND_RFC3D);
                double *r = malloc((size_t)m * sizeof *r), *u = malloc((size_t)m * sizeof *u);
                ns_result res;
                ns_status st = solve_rfc(P, solvers[k], 1e-9, r, u, &res);
                if (st == NS_CONVERGED) {
                    solved[k]++;
                    own_velocity(m, W, q, r, u);
                    double sc = fmax(nrm(q, m), fmax(nrm(r, m), nrm(u, m)));
                    assert_true(law_violation6(nc, r, u, mu, mur, mup) < 1e-6 * fmax(1, sc));
                    /* natural-map error computed here */
                    double e2 = 0;
                    for (int c = 0; c < nc; c++) {
                        const double *ra = r + d * c, *ua = u + d * c, cc[3] = { mu[c], mur[c], mup[c] };
                        double x[6], pp[6];
                        for (int i = 0; i < d; i++) x[i] = ra[i] - ua[i];
                        x[0] -= mu[c] * hypot(ua[1], ua[2]) + mur[c] * hypot(ua[3], ua[4]) + mup[c] * fabs(ua[5]);
                        own_project6(cc, x, pp);
                        for (int i = 0; i < d; i++) e2 += (ra[i] - pp[i]) * (ra[i] - pp[i]);
                    }
                    assert_true(sqrt(e2) / sc <= 1e-9 * (1 + 1e-6));
                }
                free(r); free(u);
                ns_problem_free(P);
            }
            free(A); free(W); free(q);
        }
    assert_int_equal(solved[0], total);   /* auto solves them all */
    assert_true(solved[1] >= total / 2 && solved[3] >= total / 2);
    /* a decoupled one-contact block: W = diag(1, 1, 1, 1, 1, w), r_N = 1;
     * the pivot torque −q_P/w while that is within μp, else −μp sign(q_P) */
    const double w = 4.0, mu1 = 0.3, mur1 = 0.05, mup1 = 0.02;
    for (int k = 0; k < 40; k++) {
        double qP = 0.004 * k;   /* threshold w μp r_N = 0.08 */
        double Wd[36] = { 0 };
        for (int i = 0; i < 5; i++) Wd[i * 7] = 1;
        Wd[35] = w;
        double q6[6] = { -1, 0, 0, 0, 0, qP }, r[6], u[6];
        ns_rfc *rp = ns_rfc_new(6, 1, dense_from(6, Wd), q6, &mu1, &mur1);
        rp->mu_p[0] = mup1;
        ns_problem *P = ns_problem_from_rfc(rp);
        ns_result res;
        assert_int_equal(solve_rfc(P, NULL, 1e-12, r, u, &res), NS_CONVERGED);
        double want = qP <= w * mup1 ? -qP / w : -mup1;
        assert_true(fabs(r[0] - 1.0) < 1e-9);
        assert_true(fabs(r[5] - want) < 1e-9);
        if (qP < 0.08 - 1e-9) assert_true(fabs(u[5]) < 1e-9);   /* sticks */
        if (qP > 0.08 + 1e-9) assert_true(u[5] > 0);             /* turns on */
        ns_problem_free(P);
    }
}

static void test_pivot_bad_input(void **state)
{
    (void)state;
    double q6[6] = { 0 }, mu = 0.3, mur = 0.1;
    char err[NS_ERRMSG_LEN];
    ns_rfc *p = ns_rfc_new(6, 1, ns_matrix_dense_new(6, 6), q6, &mu, &mur);
    assert_non_null(p);
    assert_true(p->mu_p[0] == 0.0);
    assert_int_equal(ns_rfc_validate(p, err), NS_OK);
    p->mu_p[0] = -0.1;
    assert_int_equal(ns_rfc_validate(p, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "mu_p"));
    p->mu_p[0] = NAN;
    assert_int_equal(ns_rfc_validate(p, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "mu_p"));
    p->mu_p[0] = 0.05;
    ns_problem *P = ns_problem_from_rfc(p);
    assert_non_null(P);
    /* no .dat form: the writer refuses, naming the reason */
    char path[512];
    ns_test_tmpname(path, sizeof path, "_pivot.dat");
    assert_int_not_equal(ns_problem_write(path, P, NS_FORMAT_DAT, err), NS_OK);
    assert_non_null(strstr(err, "pivoting"));
    ns_problem_free(P);
    /* RFC2D stays at 3 unknowns; 7 is no dimension */
    assert_null(ns_rfc_new(7, 1, ns_matrix_dense_new(7, 7), NULL, &mu, &mur));
    assert_true(isinf(ns_rfc_contact_error_sq_pivot(6, 0.1, 0.1, NAN, q6, q6)));
    assert_true(isinf(ns_rfc_contact_error_sq_pivot(7, 0.1, 0.1, 0.1, q6, q6)));
}

/* ------------------------------------------------ generated problems */

/* W = A Aᵀ/k + δI with contacts coupled in a chain (a random "granular"
 * W), q with mixed signs; RFC3D (d = 5) and RFC2D (d = 3). */
static ns_problem *generated(int d, int nc, uint64_t seed, double **Wd)
{
    ns_rng g;
    ns_rng_seed(&g, seed);
    int m = d * nc;
    double *A = calloc((size_t)m * m, sizeof *A), *W = calloc((size_t)m * m, sizeof *W);
    for (int c = 0; c < nc; c++)   /* block-banded A: contact c sees bodies c and c+1 */
        for (int i = 0; i < d; i++)
            for (int j = c * d; j < (c + 2) * d && j < m; j++)
                A[(size_t)(c * d + i) + (size_t)j * m] = ns_rng_range(&g, -1, 1);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            double s = i == j ? 0.2 : 0;
            for (int k = 0; k < m; k++) s += A[i + (size_t)k * m] * A[j + (size_t)k * m];
            W[i + (size_t)j * m] = s;
        }
    double *q = malloc((size_t)m * sizeof *q), *mu = malloc((size_t)nc * sizeof *mu),
           *mur = malloc((size_t)nc * sizeof *mur);
    for (int i = 0; i < m; i++) q[i] = ns_rng_range(&g, -1, 1);
    for (int c = 0; c < nc; c++) {
        q[c * d] = ns_rng_range(&g, -1, 0.3);
        mu[c] = ns_rng_range(&g, 0.1, 0.8);
        mur[c] = ns_rng_range(&g, 0.01, 0.2);
    }
    ns_matrix *Wm = dense_from(m, W);
    ns_matrix *Wb = ns_matrix_to_block_uniform(Wm, d);
    ns_matrix_free(Wm);
    ns_problem *P = ns_problem_from_rfc(ns_rfc_new(d, nc, Wb, q, mu, mur));
    free(A); free(q); free(mu); free(mur);
    *Wd = W;
    return P;
}

static void test_generated(void **state)
{
    (void)state;
    static const char *solvers[] = { "auto", "nsgs", "nsn" };
    int solved[3] = { 0 }, total = 0;
    for (int d = 3; d <= 5; d += 2)
        for (int nc = 1; nc <= 40; nc += 13)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                total++;
                for (int k = 0; k < 3; k++) {
                    double *W;
                    ns_problem *P = generated(d, nc, seed * 100 + (uint64_t)nc, &W);
                    assert_non_null(P);
                    assert_int_equal(P->kind, d == 5 ? NS_KIND_RFC3D : NS_KIND_RFC2D);
                    int m = d * nc;
                    double *r = malloc((size_t)m * sizeof *r), *u = malloc((size_t)m * sizeof *u);
                    ns_result res;
                    ns_status st = solve_rfc(P, solvers[k], 1e-9, r, u, &res);
                    double e = own_error(d, nc, W, P->u.rfc->q, P->u.rfc->mu, P->u.rfc->mu_r, r);
                    /* the reported error is the kind's, recomputed: it agrees with ours */
                    assert_true(fabs(e - res.error) <= 1e-8 * fmax(e, 1e-6) + 1e-14);
                    if (st == NS_CONVERGED) {
                        solved[k]++;
                        assert_true(e <= 1e-9 * (1 + 1e-6));
                        double *uu = malloc((size_t)m * sizeof *uu);
                        own_velocity(m, W, P->u.rfc->q, r, uu);
                        assert_true(law_violation(d, nc, r, uu, P->u.rfc->mu, P->u.rfc->mu_r) < 1e-6);
                        free(uu);
                    }
                    free(r); free(u); free(W);
                    ns_problem_free(P);
                }
            }
    /* auto must solve them all; the single methods most of them */
    assert_int_equal(solved[0], total);
    assert_true(solved[1] >= total * 3 / 4);
    assert_true(solved[2] >= total / 2);
}

/* --------------------------------------------------- the shared files */

static int rolling_path(char *buf, size_t len, const char *rel)
{
    const char *d = ns_test_data_dir();
    if (!d) return 0;
    snprintf(buf, len, "%s/../rolling-data/%s", d, rel);
    return access(buf, R_OK) == 0;
}

static const char *const rfc3d_files[] = {
    "rfc3d/RFC3D_sphere_1.dat", "rfc3d/RFC3D_sphere_2.dat", "rfc3d/RFC3D_cube_1.dat",
    "rfc3d/rfc3d_sphere_from_grfc3d.dat", "rfc3d/rfc3d_sphere_from_grfc3d_dense.dat" };

static void test_files_local(void **state)
{
    (void)state;
    char path[4096];
    int seen = 0;
    for (size_t f = 0; f < sizeof rfc3d_files / sizeof *rfc3d_files; f++) {
        if (!rolling_path(path, sizeof path, rfc3d_files[f])) continue;
        seen++;
        ns_problem *P = NULL;
        char err[NS_ERRMSG_LEN];
        assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &P, err), NS_OK);
        assert_int_equal(P->kind, NS_KIND_RFC3D);
        const ns_rfc *p = P->u.rfc;
        int m = 5 * p->nc;
        ns_matrix *Wd = ns_matrix_to_dense(p->W);
        static const char *solvers[] = { "auto", "nsgs", "nsn" };
        for (int k = 0; k < 3; k++) {
            double *r = malloc((size_t)m * sizeof *r), *u = malloc((size_t)m * sizeof *u);
            ns_result res;
            assert_int_equal(solve_rfc(P, solvers[k], 1e-8, r, u, &res), NS_CONVERGED);
            double e = own_error(5, p->nc, Wd->dense, p->q, p->mu, p->mu_r, r);
            assert_true(e <= 1e-8);
            free(r); free(u);
        }
        ns_matrix_free(Wd);
        ns_problem_free(P);
    }
    if (!seen) skip();
}

/* The chute: solved by every GRFC3D solver; checked here on M, H directly:
 * ‖M v − H r − q‖ small, u = Hᵀ v + b, the law per contact. The .dat and
 * the HDF5 file hold the same problem; the HDF5 file's /solution satisfies
 * the law too (to the precision Siconos stored it with). */
static void test_files_global(void **state)
{
    (void)state;
    char path[4096], path5[4096];
    if (!rolling_path(path, sizeof path, "grfc3d/GRFC3D_Chute-ndof-768-nc-4-3.dat")) skip();
    ns_problem *P = NULL, *P5 = NULL;
    char err[NS_ERRMSG_LEN];
    assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &P, err), NS_OK);
    assert_int_equal(P->kind, NS_KIND_GRFC3D);
    const ns_grfc *g = P->u.grfc;
    assert_int_equal(g->n, 768);
    assert_int_equal(g->nc, 4);
    if (rolling_path(path5, sizeof path5, "grfc3d/Chute-ndof-768-nc-4-3.hdf5")) {
        assert_int_equal(ns_problem_read(path5, NS_KIND_NONE, &P5, err), NS_OK);
        assert_int_equal(P5->kind, NS_KIND_GRFC3D);
        const ns_grfc *h = P5->u.grfc;
        assert_int_equal(h->n, g->n);
        assert_int_equal(h->nc, g->nc);
        /* the text form has 6 significant digits in M, H; %.24e in vectors */
        double mm = ns_matrix_norm_max(g->M), hm = ns_matrix_norm_max(g->H);
        assert_true(ns_matrix_max_abs_diff(g->M, h->M) <= 1e-5 * mm);
        assert_true(ns_matrix_max_abs_diff(g->H, h->H) <= 1e-5 * hm);
        for (ns_int i = 0; i < g->n; i++) assert_true(fabs(g->q[i] - h->q[i]) <= 1e-12 * (1 + fabs(g->q[i])));
        for (ns_int a = 0; a < g->nc; a++) {
            assert_true(g->mu[a] == h->mu[a]);
            assert_true(g->mu_r[a] == h->mu_r[a]);
        }
    }
    static const char *solvers[] = { "auto", "reduce", "nsgs", "nsn" };
    for (int k = 0; k < 4; k++) {
        ns_options o;
        ns_options_default(&o);
        ns_solution *s = ns_solution_new(P);
        ns_result res;
        ns_result_init(&res);
        assert_int_equal(ns_solve(P, solvers[k], &o, s, &res), NS_CONVERGED);
        const double *v = ns_solution_get(s, "v"), *r = ns_solution_get(s, "r");
        int m = 5 * g->nc;
        /* independent: Mv − Hr − q and u = Hᵀ v + b from dense copies */
        ns_matrix *Md = ns_matrix_to_dense(g->M), *Hd = ns_matrix_to_dense(g->H);
        double res_eq = 0, nq = nrm(g->q, g->n), *u = calloc((size_t)m, sizeof *u);
        for (ns_int i = 0; i < g->n; i++) {
            double t = -g->q[i];
            for (ns_int j = 0; j < g->n; j++) t += Md->dense[i + (size_t)j * g->n] * v[j];
            for (int j = 0; j < m; j++) t -= Hd->dense[i + (size_t)j * g->n] * r[j];
            res_eq += t * t;
        }
        for (int j = 0; j < m; j++) {
            u[j] = g->b[j];
            for (ns_int i = 0; i < g->n; i++) u[j] += Hd->dense[i + (size_t)j * g->n] * v[i];
        }
        assert_true(sqrt(res_eq) <= 1e-8 * nq);
        double sc = fmax(nrm(u, m), nrm(r, m));
        assert_true(law_violation(5, g->nc, r, u, g->mu, g->mu_r) <= 1e-7 * sc);
        free(u);
        ns_matrix_free(Md); ns_matrix_free(Hd);
        ns_solution_free(s);
        ns_result_clear(&res);
    }
    ns_problem_free(P);
    ns_problem_free(P5);
}

/* ---------------------------------------------------------- round trips */

/* Writes P, reads it back with the kind detected from the content. */
static ns_problem *write_read(const ns_problem *P, ns_kind expect)
{
    char tmp[4096], err[NS_ERRMSG_LEN];
    ns_test_tmpname(tmp, sizeof tmp, ".dat");
    assert_int_equal(ns_problem_write(tmp, P, NS_FORMAT_DAT, err), NS_OK);
    ns_problem *Q = NULL;
    ns_status st = ns_problem_read(tmp, NS_KIND_NONE, &Q, err);
    if (st) print_message("%s\n", err);
    assert_int_equal(st, NS_OK);
    assert_int_equal(Q->kind, expect);
    unlink(tmp);
    return Q;
}

static void test_round_trip(void **state)
{
    (void)state;
    /* generated RFC3D and RFC2D */
    for (int d = 3; d <= 5; d += 2) {
        double *W;
        ns_problem *P = generated(d, 7, 5, &W);
        ns_problem *Q = write_read(P, d == 5 ? NS_KIND_RFC3D : NS_KIND_RFC2D);
        ns_problem *R = write_read(Q, Q->kind);
        const ns_rfc *a = P->u.rfc, *b = R->u.rfc;
        assert_int_equal(a->nc, b->nc);
        assert_true(ns_matrix_max_abs_diff(a->W, b->W) == 0.0);
        assert_memory_equal(a->q, b->q, (size_t)d * a->nc * sizeof(double));
        assert_memory_equal(a->mu, b->mu, (size_t)a->nc * sizeof(double));
        assert_memory_equal(a->mu_r, b->mu_r, (size_t)a->nc * sizeof(double));
        free(W);
        ns_problem_free(P); ns_problem_free(Q); ns_problem_free(R);
    }
    /* the shared files, read – write – read */
    char path[4096], err[NS_ERRMSG_LEN];
    const char *files[] = { "rfc3d/RFC3D_cube_1.dat", "rfc3d/rfc3d_sphere_from_grfc3d.dat",
                            "grfc3d/GRFC3D_Chute-ndof-768-nc-4-3.dat" };
    for (int f = 0; f < 3; f++) {
        if (!rolling_path(path, sizeof path, files[f])) continue;
        ns_problem *P = NULL;
        assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &P, err), NS_OK);
        ns_problem *Q = write_read(P, P->kind);
        if (P->kind == NS_KIND_GRFC3D) {
            const ns_grfc *a = P->u.grfc, *b = Q->u.grfc;
            assert_true(ns_matrix_max_abs_diff(a->M, b->M) == 0.0);
            assert_true(ns_matrix_max_abs_diff(a->H, b->H) == 0.0);
            assert_memory_equal(a->q, b->q, (size_t)a->n * sizeof(double));
            assert_memory_equal(a->b, b->b, (size_t)5 * a->nc * sizeof(double));
            assert_memory_equal(a->mu_r, b->mu_r, (size_t)a->nc * sizeof(double));
        } else {
            const ns_rfc *a = P->u.rfc, *b = Q->u.rfc;
            assert_true(ns_matrix_max_abs_diff(a->W, b->W) == 0.0);
            assert_memory_equal(a->q, b->q, (size_t)5 * a->nc * sizeof(double));
            assert_memory_equal(a->mu_r, b->mu_r, (size_t)a->nc * sizeof(double));
        }
        ns_problem_free(P); ns_problem_free(Q);
    }
}

/* ------------------------------------------------------------ bad input */

/* Reads text; expects failure with a message containing `want`. */
static void expect_read_fails(const char *text, ns_kind kind, const char *want)
{
    char tmp[4096], err[NS_ERRMSG_LEN] = "";
    ns_test_tmpname(tmp, sizeof tmp, ".dat");
    assert_int_equal(ns_test_write_file(tmp, text), 0);
    ns_problem *P = NULL;
    ns_status st = ns_problem_read(tmp, kind, &P, err);
    unlink(tmp);
    if (st == NS_OK || !strstr(err, want))
        fail_msg("'%s' read as %s: status %d, message '%s', '%s' expected", text,
                 ns_kind_name(kind), (int)st, err, want);
    assert_null(P);
}

static void test_bad_dat(void **state)
{
    (void)state;
    /* one contact of RFC3D: d nc, dense 5×5, q, mu, mu_r */
    const char *W5 = "0\n5\n5\n5 5\n1 0 0 0 0\n0 1 0 0 0\n0 0 1 0 0\n0 0 0 1 0\n0 0 0 0 1\n";
    char buf[1024];
    snprintf(buf, sizeof buf, "5\n1\n%s-1 0 0 0 0\n0.5\n0.1\n", W5);
    {   /* the good one reads */
        char tmp[4096], err[NS_ERRMSG_LEN];
        ns_test_tmpname(tmp, sizeof tmp, ".dat");
        ns_test_write_file(tmp, buf);
        ns_problem *P = NULL;
        assert_int_equal(ns_problem_read(tmp, NS_KIND_NONE, &P, err), NS_OK);
        assert_int_equal(P->kind, NS_KIND_RFC3D);
        ns_problem_free(P);
        assert_int_equal(ns_problem_read(tmp, NS_KIND_RFC2D, &P, err), NS_BAD_INPUT);
        assert_non_null(strstr(err, "rfc3d"));
        unlink(tmp);
    }
    snprintf(buf, sizeof buf, "5\n1\n%s-1 0 0 0 0\n0.5\n-0.1\n", W5);
    expect_read_fails(buf, NS_KIND_NONE, "mu_r[0]");
    expect_read_fails(buf, NS_KIND_RFC3D, "negative");
    snprintf(buf, sizeof buf, "5\n1\n%s-1 0 0 0 0\n-0.5\n0.1\n", W5);
    expect_read_fails(buf, NS_KIND_RFC3D, "mu[0]");
    snprintf(buf, sizeof buf, "5\n1\n%s-1 0 0 0 0\n0.5\n", W5);
    expect_read_fails(buf, NS_KIND_RFC3D, "mu_r");
    snprintf(buf, sizeof buf, "5\n1\n%s-1 nan 0 0 0\n0.5\n0.1\n", W5);
    expect_read_fails(buf, NS_KIND_RFC3D, "q");
    snprintf(buf, sizeof buf, "5\n2\n%s-1 0 0 0 0\n0.5\n0.1\n", W5);
    expect_read_fails(buf, NS_KIND_RFC3D, "M");
    snprintf(buf, sizeof buf, "4\n1\n%s-1 0 0 0 0\n0.5\n0.1\n", W5);
    expect_read_fails(buf, NS_KIND_RFC3D, "d");
    expect_read_fails("5\n", NS_KIND_RFC3D, "nc");
    expect_read_fails("5\n-1\n", NS_KIND_RFC3D, "nc");
    expect_read_fails("", NS_KIND_GRFC3D, "d");
    expect_read_fails("3\n1\n", NS_KIND_GRFC3D, "d");
    /* GRFC3D: n = 2, one contact: H must be 2 × 5 */
    const char *M2 = "0\n2\n2\n2 2\n1 0\n0 1\n";
    snprintf(buf, sizeof buf, "5\n1\n%s0\n2\n4\n2 4\n1 0 0 0\n0 1 0 0\n0 0\n0 0 0 0\n0.5\n0.1\n", M2);
    expect_read_fails(buf, NS_KIND_GRFC3D, "H");
    snprintf(buf, sizeof buf, "5\n1\n%s0\n2\n5\n2 5\n1 0 0 0 0\n0 1 0 0 0\n0 0\n0 0 0 0 0\n0.5\n-1\n", M2);
    expect_read_fails(buf, NS_KIND_GRFC3D, "mu_r[0]");
    snprintf(buf, sizeof buf, "5\n1\n%s0\n2\n5\n2 5\n1 0 0 0 0\n0 1 0 0 0\n0 0\n0 0 0 0 0\n0.5\n", M2);
    expect_read_fails(buf, NS_KIND_GRFC3D, "mu_r");
    snprintf(buf, sizeof buf, "5\n1\n0\n2\n3\n2 3\n1 0 0\n0 1 0\n%s", "");
    expect_read_fails(buf, NS_KIND_GRFC3D, "M");
}

static void test_bad_entry_points(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN];
    double q5[5] = { -1, 0, 0, 0, 0 }, mu = 0.5, mur = 0.1, bad = -0.1, nan_ = NAN;
    /* constructors */
    assert_null(ns_rfc_new(5, 1, NULL, q5, &mu, &mur));
    assert_null(ns_rfc_new(4, 1, ns_matrix_dense_new(4, 4), q5, &mu, &mur));   /* freed */
    assert_null(ns_rfc_new(5, -1, ns_matrix_dense_new(5, 5), q5, &mu, &mur));
    assert_null(ns_grfc_new(3, 1, ns_matrix_dense_new(2, 2), ns_matrix_dense_new(2, 3), NULL,
                            NULL, NULL, NULL));
    assert_null(ns_grfc_new(5, 1, NULL, ns_matrix_dense_new(2, 5), NULL, NULL, NULL, NULL));
    assert_null(ns_problem_from_rfc(NULL));
    assert_null(ns_problem_from_grfc(NULL));
    /* validators */
    assert_int_equal(ns_rfc_validate(NULL, err), NS_BAD_INPUT);
    assert_int_equal(ns_grfc_validate(NULL, err), NS_BAD_INPUT);
    ns_rfc *p = ns_rfc_new(5, 1, ns_matrix_dense_new(5, 5), q5, &bad, &mur);
    assert_int_equal(ns_rfc_validate(p, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "mu[0]"));
    p->mu[0] = 0.5;
    p->mu_r[0] = -1;
    assert_int_equal(ns_rfc_validate(p, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "mu_r[0]"));
    p->mu_r[0] = nan_;
    assert_int_equal(ns_rfc_validate(p, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "mu_r[0]"));
    p->mu_r[0] = 0.1;
    p->q[2] = INFINITY;
    assert_int_equal(ns_rfc_validate(p, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "q[2]"));
    p->q[2] = 0;
    p->dim = 3;
    assert_int_equal(ns_rfc_validate(p, err), NS_BAD_INPUT);
    p->dim = 5;
    assert_int_equal(ns_rfc_validate(p, err), NS_OK);
    /* ns_solve refuses an invalid problem with the field named */
    ns_problem *P = ns_problem_from_rfc(p);
    ns_solution *s = ns_solution_new(P);
    ns_options o;
    ns_options_default(&o);
    ns_result res;
    ns_result_init(&res);
    P->u.rfc->mu_r[0] = -2;
    assert_int_equal(ns_solve(P, NULL, &o, s, &res), NS_BAD_INPUT);
    assert_non_null(strstr(res.message, "mu_r[0]"));
    P->u.rfc->mu_r[0] = 0.1;
    assert_int_equal(ns_solve(P, "no-such-solver", &o, s, &res), NS_NOT_FOUND);
    /* a kind/dim mismatch is refused by the kind's validator */
    P->kind = NS_KIND_RFC2D;
    assert_int_equal(ns_problem_validate(P, err), NS_BAD_INPUT);
    P->kind = NS_KIND_RFC3D;
    /* the error functions refuse NULL and non-finite input */
    double r[5] = { 0 }, u[5];
    assert_true(isinf(ns_rfc_error(NULL, r, u, NS_FC_NORM_SICONOS)));
    assert_true(isinf(ns_rfc_error(P->u.rfc, NULL, u, NS_FC_NORM_SICONOS)));
    r[1] = NAN;
    assert_true(isinf(ns_rfc_error(P->u.rfc, r, u, NS_FC_NORM_SICONOS)));
    assert_true(isinf(ns_grfc_error(NULL, r, r, u, NULL)));
    assert_true(isinf(ns_rfc_contact_error_sq(4, 0.1, 0.1, r, u)));
    /* the writer refuses non-finite data */
    char tmp[4096];
    ns_test_tmpname(tmp, sizeof tmp, ".dat");
    P->u.rfc->mu_r[0] = NAN;
    assert_int_equal(ns_problem_write(tmp, P, NS_FORMAT_DAT, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "mu_r"));
    unlink(tmp);
    ns_solution_free(s);
    ns_problem_free(P);
    /* GRFC3D validator */
    ns_grfc *g = ns_grfc_new(5, 1, ns_matrix_dense_new(2, 2), ns_matrix_dense_new(2, 5), NULL,
                             NULL, &mu, &mur);
    assert_non_null(g);
    g->mu_r[0] = -1;
    assert_int_equal(ns_grfc_validate(g, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "mu_r[0]"));
    g->mu_r[0] = 0.1;
    g->b[4] = NAN;
    assert_int_equal(ns_grfc_validate(g, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "b[4]"));
    ns_grfc_free(g);
}

/* Bad HDF5: small /fclib_global_rolling files built here with the HDF5
 * API, each with one defect; the reader refuses them naming the dataset. */
static void h5_ints(hid_t f, const char *path, const int *v, hsize_t n)
{
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t ds = H5Dcreate2(f, path, H5T_NATIVE_INT, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(ds);
    H5Sclose(sp);
}
static void h5_reals(hid_t f, const char *path, const double *v, hsize_t n)
{
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t ds = H5Dcreate2(f, path, H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(ds);
    H5Sclose(sp);
}
/* A triplet matrix group m × n with entries (i[k], j[k]) = x[k]. */
static void h5_matrix(hid_t f, const char *grp, int m, int n, int nz, const int *i, const int *j,
                      const double *x)
{
    char p[256];
    H5Gclose(H5Gcreate2(f, grp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    snprintf(p, sizeof p, "%s/m", grp); h5_ints(f, p, &m, 1);
    snprintf(p, sizeof p, "%s/n", grp); h5_ints(f, p, &n, 1);
    snprintf(p, sizeof p, "%s/nz", grp); h5_ints(f, p, &nz, 1);
    snprintf(p, sizeof p, "%s/nzmax", grp); h5_ints(f, p, &nz, 1);
    snprintf(p, sizeof p, "%s/p", grp); h5_ints(f, p, j, (hsize_t)nz);
    snprintf(p, sizeof p, "%s/i", grp); h5_ints(f, p, i, (hsize_t)nz);
    snprintf(p, sizeof p, "%s/x", grp); h5_reals(f, p, x, (hsize_t)nz);
}

/* defect: 0 none, 1 spacedim 3, 2 mu_r missing, 3 mu_r negative, 4 H with
 * 4 columns, 5 NaN in f */
static void write_rolling_h5(const char *path, int defect)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(H5Gcreate2(f, "/fclib_global_rolling", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Gclose(H5Gcreate2(f, "/fclib_global_rolling/vectors", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    int sd = defect == 1 ? 3 : 5;
    h5_ints(f, "/fclib_global_rolling/spacedim", &sd, 1);
    const int mi[6] = { 0, 1, 2, 3, 4, 5 };
    const double mx[6] = { 1, 1, 1, 0.1, 0.1, 0.1 };
    h5_matrix(f, "/fclib_global_rolling/M", 6, 6, 6, mi, mi, mx);
    /* H: 6 × 5, the contact frame of a sphere of radius 1 on a plane */
    const int hi[7] = { 2, 0, 1, 4, 3, 0, 1 }, hj[7] = { 0, 1, 2, 1, 2, 3, 4 };
    const double hx[7] = { 1, 1, 1, -1, 1, 0, 0 };
    h5_matrix(f, "/fclib_global_rolling/H", 6, defect == 4 ? 4 : 5, defect == 4 ? 3 : 5, hi, hj, hx);
    double q[6] = { 0, 0, -1, 0, 0, 0 }, b[5] = { 0 }, mu = 0.5, mur = defect == 3 ? -0.1 : 0.1;
    if (defect == 5) q[3] = NAN;
    h5_reals(f, "/fclib_global_rolling/vectors/f", q, 6);
    h5_reals(f, "/fclib_global_rolling/vectors/w", b, 5);
    h5_reals(f, "/fclib_global_rolling/vectors/mu", &mu, 1);
    if (defect != 2) h5_reals(f, "/fclib_global_rolling/vectors/mu_r", &mur, 1);
    H5Fclose(f);
}

static void test_bad_hdf5(void **state)
{
    (void)state;
    char tmp[4096], err[NS_ERRMSG_LEN];
    static const char *const want[] = { NULL, "spacedim", "mu_r", "mu_r", "H", "vectors/f" };
    for (int defect = 0; defect <= 5; defect++) {
        ns_test_tmpname(tmp, sizeof tmp, ".hdf5");
        write_rolling_h5(tmp, defect);
        ns_problem *P = NULL;
        ns_status st = ns_problem_read(tmp, NS_KIND_NONE, &P, err);
        unlink(tmp);
        if (defect == 0) {   /* the sound file reads and solves: r_N = 1 (weight) */
            assert_int_equal(st, NS_OK);
            assert_int_equal(P->kind, NS_KIND_GRFC3D);
            ns_options o;
            ns_options_default(&o);
            ns_solution *s = ns_solution_new(P);
            ns_result res;
            ns_result_init(&res);
            assert_int_equal(ns_solve(P, NULL, &o, s, &res), NS_CONVERGED);
            assert_true(fabs(ns_solution_get(s, "r")[0] - 1.0) < 1e-8);
            ns_solution_free(s);
            ns_problem_free(P);
            continue;
        }
        if (st == NS_OK || !strstr(err, want[defect]))
            fail_msg("defect %d: status %d, message '%s', '%s' expected", defect, (int)st, err,
                     want[defect]);
        assert_null(P);
    }
    /* not an HDF5 file although named so: refused */
    ns_test_tmpname(tmp, sizeof tmp, ".hdf5");
    ns_test_write_file(tmp, "garbage\n");
    ns_problem *P = NULL;
    assert_int_not_equal(ns_problem_read(tmp, NS_KIND_GRFC3D, &P, err), NS_OK);
    assert_null(P);
    unlink(tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_projection_properties),
        cmocka_unit_test(test_projection_jacobian),
        cmocka_unit_test(test_residual_jacobians),
        cmocka_unit_test(test_one_contact_sticking),
        cmocka_unit_test(test_one_contact_rolling),
        cmocka_unit_test(test_one_contact_decoupled_threshold),
        cmocka_unit_test(test_generated),
        cmocka_unit_test(test_pivot_projection),
        cmocka_unit_test(test_pivot_solvers),
        cmocka_unit_test(test_pivot_bad_input),
        cmocka_unit_test(test_files_local),
        cmocka_unit_test(test_files_global),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_bad_dat),
        cmocka_unit_test(test_bad_entry_points),
        cmocka_unit_test(test_bad_hdf5),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
