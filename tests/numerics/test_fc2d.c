/* test_fc2d.c — the FC2D solvers of numerics/fc2d: the exact one-contact
 * solver (white box), the sparse revised Lemke and the FC2D NSGS with its
 * active-set solve. Every answer is checked by properties recomputed here,
 * never by values copied from a run: the 2D Coulomb law contact by contact
 * (r ∈ K, u_N ≥ 0, r_N u_N = 0, sliding opposite to u_T with |r_T| = μ r_N)
 * and the FC error ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖) computed from a
 * dense W with its own projection. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "fc2d/fc2d_internal.h"

/* ---- independent checks ---- */

/* The 2D law at one contact, to tolerance tol (absolute, on scaled values). */
static int law_holds(const double *r, const double *u, double mu, double tol)
{
    if (r[0] < -tol || u[0] < -tol) return 0;
    if (fabs(r[1]) > mu * r[0] + tol) return 0;
    if (fabs(r[0] * u[0]) > tol) return 0;
    if (fabs(u[1]) > tol) {   /* sliding: r_T = −μ r_N sign(u_T) */
        double want = -mu * r[0] * (u[1] > 0 ? 1.0 : -1.0);
        if (fabs(r[1] - want) > tol) return 0;
    }
    return 1;
}

/* Relative FC2D error from a dense column-major W (m = 2 nc). */
static double own_error(ns_int nc, const double *W, const double *q, const double *mu,
                        const double *r)
{
    ns_int m = 2 * nc;
    double s = 0, nq = 0, nr = 0, nu = 0;
    for (ns_int c = 0; c < nc; c++) {
        double u[2];
        for (int k = 0; k < 2; k++) {
            ns_int i = 2 * c + k;
            u[k] = q[i];
            for (ns_int j = 0; j < m; j++) u[k] += W[i + (size_t)j * m] * r[j];
            nq += q[i] * q[i]; nr += r[i] * r[i]; nu += u[k] * u[k];
        }
        double x0 = r[2 * c] - u[0] - mu[c] * fabs(u[1]), x1 = r[2 * c + 1] - u[1];
        double p0 = x0, p1 = x1;
        if (mu[c] * fabs(x1) <= -x0) { p0 = 0; p1 = 0; }
        else if (!(fabs(x1) <= mu[c] * x0)) {
            p0 = (x0 + mu[c] * fabs(x1)) / (1 + mu[c] * mu[c]);
            p1 = mu[c] * p0 * (x1 > 0 ? 1 : -1);
        }
        s += (r[2 * c] - p0) * (r[2 * c] - p0) + (r[2 * c + 1] - p1) * (r[2 * c + 1] - p1);
    }
    double sc = fmax(sqrt(nq), fmax(sqrt(nr), sqrt(nu)));
    /* as docs/errors.md: no division when the divisor is below DBL_EPSILON */
    return sc > DBL_EPSILON ? sqrt(s) / sc : sqrt(s);
}

/* ---- the exact one-contact solver ---- */

typedef struct { const char *name; double W[4], q[2], mu; int cs; } local_case;

static void test_local_exact(void **state)
{
    (void)state;
    /* W column-major (W_NN, W_TN, W_NT, W_TT); cs = the case that must hold */
    static const local_case cases[] = {
        { "separated", { 1, 0, 0, 1 }, { 0.5, 3 }, 0.5, NS_FC2D_SEPARATED },
        { "touching, q_N = 0", { 1, 0, 0, 1 }, { 0.0, -3 }, 0.5, NS_FC2D_SEPARATED },
        { "sticking", { 1, 0, 0, 1 }, { -1, 0.2 }, 0.5, NS_FC2D_STICKING },
        { "sliding +", { 1, 0, 0, 1 }, { -1, 2 }, 0.5, NS_FC2D_SLIDING_POS },
        { "sliding -", { 1, 0, 0, 1 }, { -1, -2 }, 0.5, NS_FC2D_SLIDING_NEG },
        { "mu = 0", { 1, 0, 0, 1 }, { -1, -2 }, 0.0, NS_FC2D_SLIDING_NEG },
        { "huge mu", { 1, 0, 0, 1 }, { -1, 2 }, 1e6, NS_FC2D_STICKING },
        { "coupled W sticking", { 2, 0.5, 0.5, 1 }, { -1, 0.1 }, 0.8, NS_FC2D_STICKING },
        { "coupled W sliding +", { 2, 0.5, 0.5, 1 }, { -1, 3 }, 0.3, NS_FC2D_SLIDING_POS },
        { "coupled W sliding -", { 2, -0.7, -0.7, 1 }, { -2, -4 }, 0.4, NS_FC2D_SLIDING_NEG },
        { "stick/slide boundary", { 1, 0, 0, 1 }, { -1, 0.5 }, 0.5, NS_FC2D_STICKING },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const local_case *c = &cases[k];
        double r[2] = { 7, -7 }, u[2];
        int got = ns_fc2d_local_exact(c->W, c->q, c->mu, r);
        u[0] = c->W[0] * r[0] + c->W[2] * r[1] + c->q[0];
        u[1] = c->W[1] * r[0] + c->W[3] * r[1] + c->q[1];
        if (got != c->cs) fail_msg("%s: case %d, want %d", c->name, got, c->cs);
        if (!law_holds(r, u, c->mu, 1e-12 * (1 + fabs(c->q[0]) + fabs(c->q[1]))))
            fail_msg("%s: r = (%g, %g), u = (%g, %g) break the law", c->name, r[0], r[1], u[0], u[1]);
        assert_true(ns_fc2d_local_residual(c->W, c->q, c->mu, r) <= 1e-12 * (1 + fabs(c->q[0])));
    }
    /* a W whose normal part is negative: no case holds, −1 and finite r */
    double Wb[4] = { -1, 0, 0, 1 }, qb[2] = { -1, 0 }, r[2];
    assert_int_equal(ns_fc2d_local_exact(Wb, qb, 0.5, r), -1);
    assert_true(isfinite(r[0]) && isfinite(r[1]));
}

/* ---- random coupled problems ---- */

static uint64_t rng = 88172645463325252ULL;
static double urand(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* W = H Hᵀ + δI (symmetric positive definite, coupled), q, μ random;
 * sparse = 1 gives W in SPARSE storage, else DENSE. */
static ns_problem *random_fc2d(ns_int nc, double qscale, int zero_qt, int sparse, double **Wd,
                               double **qout, double **muout)
{
    ns_int m = 2 * nc, k = m + 3;
    double *H = calloc((size_t)m * k, sizeof(double));
    double *W = calloc((size_t)m * m, sizeof(double));
    double *q = calloc((size_t)m, sizeof(double)), *mu = calloc((size_t)nc, sizeof(double));
    for (ns_int i = 0; i < m; i++)
        for (ns_int j = 0; j < k; j++)
            if (urand() < 0.3) H[i + (size_t)j * m] = 2 * urand() - 1;
    for (ns_int i = 0; i < m; i++)
        for (ns_int j = 0; j < m; j++) {
            double s = i == j ? 0.1 : 0.0;
            for (ns_int l = 0; l < k; l++) s += H[i + (size_t)l * m] * H[j + (size_t)l * m];
            W[i + (size_t)j * m] = s;
        }
    for (ns_int c = 0; c < nc; c++) {
        q[2 * c] = qscale * (2 * urand() - 1.3);
        q[2 * c + 1] = zero_qt ? 0.0 : qscale * (4 * urand() - 2);
        mu[c] = 0.1 + 0.8 * urand();
    }
    ns_matrix *A;
    if (sparse) {
        ns_matrix *D = ns_matrix_dense_new(m, m);
        memcpy(D->dense, W, sizeof(double) * (size_t)m * m);
        A = ns_matrix_to_sparse(D);
        ns_matrix_free(D);
    } else {
        A = ns_matrix_dense_new(m, m);
        memcpy(A->dense, W, sizeof(double) * (size_t)m * m);
    }
    ns_problem *p = ns_problem_from_fc(ns_fc_new(2, nc, A, q, mu));
    assert_non_null(p);
    free(H);
    *Wd = W; *qout = q; *muout = mu;
    return p;
}

static void check_solution(const char *what, ns_int nc, const double *W, const double *q,
                           const double *mu, const double *r, double tol)
{
    double e = own_error(nc, W, q, mu, r);
    if (!(e <= tol)) fail_msg("%s: recomputed error %g > %g", what, e, tol);
}

static ns_status run(ns_problem *p, const char *solver, double tol, ns_solution **sol,
                     ns_result *res)
{
    *sol = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = tol;
    o.time_limit = 30;
    return ns_solve(p, solver, &o, *sol, res);
}

/* Lemke and NSGS on random coupled problems, dense and sparse W, from 1
 * to 60 contacts: both meet their tolerance by the recomputed error. */
static void test_random_problems(void **state)
{
    (void)state;
    const ns_int sizes[] = { 1, 2, 3, 5, 8, 13, 30, 60 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int sparse = 0; sparse < 2; sparse++) {
            double *W, *q, *mu;
            ns_problem *p = random_fc2d(sizes[s], 1.0, 0, sparse, &W, &q, &mu);
            const char *solvers[2] = { "lemke", "nsgs" };
            const double tols[2] = { 1e-10, 1e-8 };
            for (int k = 0; k < 2; k++) {
                ns_solution *sol;
                ns_result res;
                ns_status st = run(p, solvers[k], tols[k], &sol, &res);
                if (st != NS_CONVERGED)
                    fail_msg("%s on %d contacts: %s (%s)", solvers[k], sizes[s],
                             ns_status_name(st), res.message);
                check_solution(solvers[k], sizes[s], W, q, mu, sol->vec[0], tols[k]);
                ns_result_clear(&res);
                ns_solution_free(sol);
            }
            ns_problem_free(p);
            free(W); free(q); free(mu);
        }
}

/* The LCP is positively homogeneous in q: Lemke's answer for α q is α times
 * its answer for q, down to q ~ 1e-15 (FrictionContactProblem00394's scale,
 * where an absolute tie tolerance sent the old dense Lemke to a ray), and
 * degenerate data (q_T = 0 everywhere: many ratio ties) still ends. */
static void test_lemke_scale_and_degeneracy(void **state)
{
    (void)state;
    for (int zero_qt = 0; zero_qt < 2; zero_qt++) {
        const double scales[] = { 1.0, 1e-15, 1e8 };
        double *r1 = NULL;
        for (int k = 0; k < 3; k++) {
            rng = 1234567u + (uint64_t)zero_qt;
            double *W, *q, *mu;
            ns_problem *p = random_fc2d(12, scales[k], zero_qt, 1, &W, &q, &mu);
            ns_solution *sol;
            ns_result res;
            ns_status st = run(p, "lemke", 1e-10, &sol, &res);
            if (st != NS_CONVERGED)
                fail_msg("lemke, scale %g, zero q_T %d: %s (%s)", scales[k], zero_qt,
                         ns_status_name(st), res.message);
            check_solution("lemke scaled", 12, W, q, mu, sol->vec[0], 1e-10);
            if (k == 0) {
                r1 = malloc(24 * sizeof(double));
                memcpy(r1, sol->vec[0], 24 * sizeof(double));
            } else {
                double nr = 0;
                for (int i = 0; i < 24; i++) nr = fmax(nr, fabs(r1[i]));
                for (int i = 0; i < 24; i++)
                    if (fabs(sol->vec[0][i] / scales[k] - r1[i]) > 1e-9 * nr)
                        fail_msg("scale %g: r[%d] / scale = %.17g, r[%d] at scale 1 = %.17g",
                                 scales[k], i, sol->vec[0][i] / scales[k], i, r1[i]);
            }
            ns_result_clear(&res);
            ns_solution_free(sol);
            ns_problem_free(p);
            free(W); free(q); free(mu);
        }
        free(r1);
    }
}

/* Identical copies of one contact, uncoupled: every ratio test ties, the
 * lexicographic rule must still end, with each copy solved. */
static void test_lemke_ties(void **state)
{
    (void)state;
    enum { NC = 9, M = 2 * NC };
    double W[M * M] = { 0 }, q[M], mu[NC];
    for (int c = 0; c < NC; c++) {
        W[2 * c + M * 2 * c] = 2.0;
        W[2 * c + 1 + M * (2 * c + 1)] = 1.0;
        W[2 * c + M * (2 * c + 1)] = W[2 * c + 1 + M * 2 * c] = 0.3;
        q[2 * c] = -1.0;
        q[2 * c + 1] = c % 3 == 0 ? 0.0 : (c % 3 == 1 ? 2.0 : -2.0);
        mu[c] = 0.5;
    }
    ns_matrix *A = ns_matrix_dense_new(M, M);
    memcpy(A->dense, W, sizeof W);
    ns_problem *p = ns_problem_from_fc(ns_fc_new(2, NC, A, q, mu));
    ns_solution *sol;
    ns_result res;
    assert_int_equal(run(p, "lemke", 1e-12, &sol, &res), NS_CONVERGED);
    check_solution("lemke ties", NC, W, q, mu, sol->vec[0], 1e-12);
    for (int c = 0; c < NC; c++)
        assert_true(law_holds(sol->vec[0] + 2 * c, sol->vec[1] + 2 * c, mu[c], 1e-12));
    ns_result_clear(&res);
    ns_solution_free(sol);
    ns_problem_free(p);
}

/* NSGS: bad diagonal blocks are a clear NS_BAD_INPUT naming the contact;
 * an ill-conditioned W gives a status and finite numbers. */
static void test_nsgs_bad_input(void **state)
{
    (void)state;
    double Z[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }; /* contact 1: W_NN = 0 */
    double q[4] = { -1, 0, -1, 0 }, mu[2] = { 0.5, 0.5 };
    ns_matrix *A = ns_matrix_dense_new(4, 4);
    memcpy(A->dense, Z, sizeof Z);
    ns_problem *p = ns_problem_from_fc(ns_fc_new(2, 2, A, q, mu));
    ns_solution *sol;
    ns_result res;
    assert_int_equal(run(p, "nsgs", 1e-8, &sol, &res), NS_BAD_INPUT);
    assert_non_null(strstr(res.message, "contact 1"));
    ns_result_clear(&res);
    ns_solution_free(sol);
    ns_problem_free(p);

    double Wi[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) Wi[i + 4 * j] = (i % 2 == j % 2) ? 1.0 : 0.0;
    for (int i = 0; i < 4; i++) Wi[i + 4 * i] += 1e-13;
    double q2[4] = { -1, 1, 1, -1 };
    const char *solvers[2] = { "nsgs", "lemke" };
    for (int k = 0; k < 2; k++) {
        A = ns_matrix_dense_new(4, 4);
        memcpy(A->dense, Wi, sizeof Wi);
        p = ns_problem_from_fc(ns_fc_new(2, 2, A, q2, mu));
        sol = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.max_iter = 200;
        ns_status st = ns_solve(p, solvers[k], &o, sol, &res);
        assert_true(ns_status_is_outcome(st));
        for (int i = 0; i < 4; i++) assert_true(isfinite(sol->vec[0][i]) && isfinite(sol->vec[1][i]));
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* enum on a degenerate solution: two contacts of one body on one guide
 * (equal tangent rows, the slider-crank's corners 3 and 4 at step 672 of
 * Siconos' SliderCrank ref, W as the mechanics layer assembled it),
 * separating: r = 0 solves it, and in the LCP reformulation the basis that
 * holds it has λ⁻ = 0 in B, which the solve gives as −3e-20. The principal
 * enumeration refused that set (exact z_B ≥ 0 test): from a warm start
 * r ≠ 0 (the last step's impulses) it found no set and failed. */
static void test_enum_degenerate_basis(void **state)
{
    (void)state;
    const double W[16] = {   /* column-major: n1 t1 n2 t2 */
        936.86144223245844, -462.95212326000882, -914.99040961939352, -462.95212326000882,
        -462.95212097259355, 231.48174087014118, 462.97380495333243, 231.48174087014118,
        -914.99040961939352, 462.97380266591716, 936.86144223245844, 462.97380266591716,
        -462.95212097259355, 231.48174087014118, 462.97380495333243, 231.48174087014118 };
    const double q[4] = { 0.0049100015746646629, 0.062368214709845389,
                          0.0049100015746645197, 0.062368214709845389 };
    const double mu[2] = { 0.01, 0.01 };
    const double warm[3][4] = { { 0, 0, 0, 0 }, { 1e-3, 0, 0, 0 },
                                { 1.3665893191003235e-3, -1.3665893191003235e-5,
                                  1.3803238851214329e-3, -1.3803238851214329e-5 } };
    for (int k = 0; k < 3; k++) {
        ns_matrix *A = ns_matrix_dense_new(4, 4);
        memcpy(A->dense, W, sizeof W);
        ns_problem *p = ns_problem_from_fc(ns_fc_new(2, 2, A, q, mu));
        ns_solution *sol = ns_solution_new(p);
        memcpy(sol->vec[0], warm[k], sizeof warm[k]);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-12;
        o.warm_start = 1;
        ns_result res;
        ns_status st = ns_solve(p, "enum", &o, sol, &res);
        if (st != NS_CONVERGED)
            fail_msg("enum from warm start %d: %s (%s), error %g", k, ns_status_name(st), res.message, res.error);
        check_solution("enum degenerate", 2, W, q, mu, sol->vec[0], 1e-12);
        for (int c = 0; c < 2; c++)
            assert_true(law_holds(sol->vec[0] + 2 * c, sol->vec[1] + 2 * c, mu[c], 1e-12));
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* NSGS on a dense W checks mu and the diagonal blocks itself (in its
 * first sweep, or before judging a warm start): each bad contact is a
 * clear NS_BAD_INPUT naming it, from a zero start and from a warm one that
 * would satisfy the conditions of the good contacts. */
static void test_nsgs_dense_checks(void **state)
{
    (void)state;
    for (int bad = 0; bad < 3; bad++)
        for (int warm = 0; warm < 2; warm++) {
            /* three contacts, W = identity but for contact 2 */
            double W[36] = { 0 }, q[6] = { -1, 0, -1, 0, -1, 0 }, mu[3] = { 0.5, 0.5, 0.5 };
            for (int i = 0; i < 6; i++) W[i + 6 * i] = 1.0;
            const char *want = "mu[2]";
            if (bad == 0) mu[2] = -0.1;
            if (bad == 1) { W[4 + 6 * 4] = -1.0; want = "W_NN"; }
            if (bad == 2) { W[4 + 6 * 5] = 3.0; want = "indefinite"; }   /* sym part [1 1.5; 1.5 1] */
            ns_matrix *A = ns_matrix_dense_new(6, 6);
            memcpy(A->dense, W, sizeof W);
            ns_problem *p = ns_problem_from_fc(ns_fc_new(2, 3, A, q, mu));
            ns_solution *sol = ns_solution_new(p);
            ns_options o;
            ns_options_default(&o);
            o.tol = 1e-10;
            o.warm_start = warm;
            for (int c = 0; c < 3 && warm; c++) sol->vec[0][2 * c] = 1.0;
            ns_result res;
            ns_result_init(&res);
            assert_int_equal(ns_solve(p, "nsgs", &o, sol, &res), NS_BAD_INPUT);
            assert_non_null(strstr(res.message, want));
            if (bad) assert_non_null(strstr(res.message, "contact 2"));
            ns_result_clear(&res);
            ns_solution_free(sol);
            ns_problem_free(p);
        }
}

/* On a DENSE W the sweeps keep u = W r + q up to date instead of
 * recomputing it: the u the solver returns is W r + q recomputed here (to
 * rounding), and with checks far apart (check_every 1000, so the kept u
 * goes a thousand sweeps without being computed anew) a convergence it
 * reports still holds by the error recomputed here. Called directly, as
 * ns_solve would recompute u itself. */
static void test_nsgs_dense_kept_velocity(void **state)
{
    (void)state;
    const ns_int sizes[] = { 3, 12, 30 };
    const int every[] = { 0, 1000 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t e = 0; e < sizeof every / sizeof every[0]; e++) {
            double *W, *q, *mu;
            ns_problem *p = random_fc2d(sizes[s], 1.0, 0, 0, &W, &q, &mu);
            const ns_int m = 2 * sizes[s];
            double *r = calloc((size_t)m, sizeof(double)), *u = calloc((size_t)m, sizeof(double));
            ns_options o;
            ns_options_default(&o);
            o.tol = 1e-12;
            o.max_iter = 20000;
            o.check_every = every[e];
            ns_result res;
            ns_result_init(&res);
            ns_status st = ns_fc2d_nsgs(p->u.fc, r, u, &o, &res);
            if (st == NS_CONVERGED) check_solution("nsgs (kept u)", sizes[s], W, q, mu, r, o.tol);
            double scale = 0.0, dev = 0.0;
            for (ns_int i = 0; i < m; i++) {
                double ui = q[i];
                for (ns_int j = 0; j < m; j++) ui += W[i + (size_t)j * m] * r[j];
                scale = fmax(scale, fmax(fabs(ui), fabs(q[i])));
                dev = fmax(dev, fabs(ui - u[i]));
            }
            if (!(dev <= 1e-12 * scale))
                fail_msg("%d contacts, check_every %d: returned u off W r + q by %g (scale %g)",
                         (int)sizes[s], every[e], dev, scale);
            ns_result_clear(&res);
            free(r); free(u);
            ns_problem_free(p);
            free(W); free(q); free(mu);
        }
}

/* A diagonal block with an indefinite symmetric part (W = [1 3; 0 1],
 * sym = [1 1.5; 1.5 1]): the one-contact problems of the sweeps and of
 * Newton are not defined and those solvers refuse it, but the problem has
 * a solution — sticking, r = W⁻¹(−q) = (1, 0) for q = (−1, 0), inside the
 * cone — which `auto` finds through the LCP reformulation (Lemke); two
 * such contacts coupled, the same. Checked by the law contact by contact
 * and the error recomputed here. */
static void test_auto_indefinite_block(void **state)
{
    (void)state;
    for (int nc = 1; nc <= 2; nc++) {
        int m = 2 * nc;
        double W[16] = { 0 }, q[4], mu[2] = { 0.5, 0.5 };
        for (int c = 0; c < nc; c++) {
            int o = 2 * c;
            W[o + m * o] = 1.0; W[o + m * (o + 1)] = 3.0; W[(o + 1) + m * (o + 1)] = 1.0;
            q[o] = -1.0 - c; q[o + 1] = 0.0;
        }
        if (nc == 2) { W[0 + m * 2] = 0.2; W[2 + m * 0] = 0.2; }   /* normal coupling */
        ns_matrix *A = ns_matrix_dense_new(m, m);
        memcpy(A->dense, W, (size_t)m * m * sizeof(double));
        ns_problem *p = ns_problem_from_fc(ns_fc_new(2, nc, A, q, mu));
        ns_solution *sol;
        ns_result res;
        assert_int_equal(run(p, "nsn-ac", 1e-10, &sol, &res), NS_BAD_INPUT);
        assert_non_null(strstr(res.message, "indefinite"));
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_status st = run(p, "auto", 1e-10, &sol, &res);
        print_message("auto, %d contact(s), indefinite blocks: %s, error %.3g, %s\n", nc, ns_status_name(st),
                      res.error, res.message);
        assert_int_equal(st, NS_OK);
        const double *r = sol->vec[0];
        double u[4];
        for (int i = 0; i < m; i++) {
            u[i] = q[i];
            for (int j = 0; j < m; j++) u[i] += W[i + m * j] * r[j];
        }
        for (int c = 0; c < nc; c++) assert_true(law_holds(r + 2 * c, u + 2 * c, mu[c], 1e-9));
        check_solution("auto, indefinite blocks", nc, W, q, mu, r, 1e-10);
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local_exact),
        cmocka_unit_test(test_random_problems),
        cmocka_unit_test(test_lemke_scale_and_degeneracy),
        cmocka_unit_test(test_lemke_ties),
        cmocka_unit_test(test_nsgs_bad_input),
        cmocka_unit_test(test_nsgs_dense_checks),
        cmocka_unit_test(test_nsgs_dense_kept_velocity),
        cmocka_unit_test(test_enum_degenerate_basis),
        cmocka_unit_test(test_auto_indefinite_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
