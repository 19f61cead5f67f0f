/* test_fc3d_nsn.c — the global semismooth Newton solvers (fc3d_nsn.c) and
 * the residuals they use (fc3d_phi.c):
 *   - the analytic Jacobian of the Fischer–Burmeister residual against
 *     central differences at random points away from its nonsmooth set;
 *   - nsn-ac (non-monotone Armijo) and nsn-ac-gp (Goldstein–Price), nsn-fb
 *     and nsn-nm on random multi-contact problems, the error recomputed by
 *     ns_fc_error;
 *   - collection files nsn-ac used to miss (Capsules-i122-1617, KaplasTower,
 *     RockPile, the LMGC periodic box) solved to 1e-8, error recomputed;
 *   - singular W (two identical contacts, and an infeasible problem): a
 *     clean status, finite results, no crash;
 *   - a Newton walk of the auto chain cut into one-iteration turns takes
 *     the steps of one uninterrupted run, bit for bit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "fc/fc3d_local.h"
#include "fc/fc3d_internal.h"
#include "ns_test.h"

/* Spectral values of (x∘x + y∘y)^{1/2} squared: w0 ∓ ‖w̄‖ (for the test's
 * own "away from the nonsmooth set" check, written independently of
 * fc3d_phi.c). */
static void fb_lambdas(double mu, const double *r, const double *u, double *l1, double *l2)
{
    double nut = hypot(u[1], u[2]), x[3], y[3];
    if (mu <= 1) {
        x[0] = mu * r[0]; x[1] = r[1]; x[2] = r[2];
        y[0] = u[0] + mu * nut; y[1] = mu * u[1]; y[2] = mu * u[2];
    } else {
        x[0] = r[0]; x[1] = r[1] / mu; x[2] = r[2] / mu;
        y[0] = (u[0] + mu * nut) / mu; y[1] = u[1]; y[2] = u[2];
    }
    double w0 = 0, w1, w2;
    for (int i = 0; i < 3; i++) w0 += x[i] * x[i] + y[i] * y[i];
    w1 = 2 * (x[0] * x[1] + y[0] * y[1]);
    w2 = 2 * (x[0] * x[2] + y[0] * y[2]);
    *l1 = w0 - hypot(w1, w2);
    *l2 = w0 + hypot(w1, w2);
}

static void fb_jacobian_matches_differences(void **state)
{
    (void)state;
    ns_rng g;
    ns_rng_seed(&g, 4242);
    const double mus[] = { 0.1, 0.5, 1.0, 2.5 };
    int checked = 0;
    for (int trial = 0; trial < 4000 && checked < 400; trial++) {
        ns_fc_contact c;
        double W[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, q[3] = { 0, 0, 0 };
        ns_fc_contact_init(&c, 3, W, q, mus[trial % 4], 0.0, 0);
        double r[3], u[3];
        for (int i = 0; i < 3; i++) { r[i] = ns_rng_range(&g, -2, 2); u[i] = ns_rng_range(&g, -2, 2); }
        double l1, l2;
        fb_lambdas(c.mu, r, u, &l1, &l2);
        /* away from the kinks: ‖u_T‖ = 0 and the cone boundary of z */
        if (hypot(u[1], u[2]) < 0.1 || l1 < 1e-2 * l2) continue;
        double F[3], A[9], B[9];
        ns_fc_phi_fb(&c, r, u, F, A, B);
        for (int j = 0; j < 3; j++) {
            const double h = 1e-6;
            double rp[3], rm[3], up[3], um[3], Fp[3], Fm[3];
            memcpy(rp, r, sizeof r); memcpy(rm, r, sizeof r);
            rp[j] += h; rm[j] -= h;
            ns_fc_phi_fb(&c, rp, u, Fp, NULL, NULL);
            ns_fc_phi_fb(&c, rm, u, Fm, NULL, NULL);
            for (int i = 0; i < 3; i++)
                assert_true(fabs(A[i + 3 * j] - (Fp[i] - Fm[i]) / (2 * h)) <= 1e-5 * (1 + fabs(A[i + 3 * j])));
            memcpy(up, u, sizeof u); memcpy(um, u, sizeof u);
            up[j] += h; um[j] -= h;
            ns_fc_phi_fb(&c, r, up, Fp, NULL, NULL);
            ns_fc_phi_fb(&c, r, um, Fm, NULL, NULL);
            for (int i = 0; i < 3; i++)
                assert_true(fabs(B[i + 3 * j] - (Fp[i] - Fm[i]) / (2 * h)) <= 1e-5 * (1 + fabs(B[i + 3 * j])));
        }
        checked++;
    }
    assert_true(checked >= 400);
}

/* FB at x = y = 0 (r = u = 0) and on the kink u_T = 0: finite Jacobian. */
static void fb_jacobian_finite_on_kinks(void **state)
{
    (void)state;
    ns_fc_contact c;
    double W[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, q[3] = { 0, 0, 0 };
    ns_fc_contact_init(&c, 3, W, q, 0.5, 0.0, 0);
    const double pts[][6] = { { 0, 0, 0, 0, 0, 0 }, { 1, 0.2, 0, 0, 0, 0 },
                              { 1, 0.5, 0, 0, 0, 0 }, { 0, 0, 0, 1, 0, 0 } };
    for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++) {
        double F[3], A[9], B[9];
        ns_fc_phi_fb(&c, pts[k], pts[k] + 3, F, A, B);
        for (int i = 0; i < 9; i++) assert_true(isfinite(A[i]) && isfinite(B[i]));
        for (int i = 0; i < 3; i++) assert_true(isfinite(F[i]));
    }
}

/* Random problem: W = GᵀG + 0.1 I (dense, SPD, coupling every contact),
 * q with negative normal parts so that contacts close. */
static ns_problem *random_problem(ns_rng *g, int nc, double mu)
{
    const int n = 3 * nc;
    ns_matrix *W = ns_matrix_dense_new(n, n);
    assert_non_null(W);
    double G[60 * 60];
    assert_true(n <= 60);
    for (int i = 0; i < n * n; i++) G[i] = ns_rng_range(g, -1, 1) / sqrt((double)n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = i == j ? 0.1 : 0.0;
            for (int l = 0; l < n; l++) s += G[l + i * n] * G[l + j * n];
            W->dense[i + j * n] = s;
        }
    double q[60], m[20];
    for (int a = 0; a < nc; a++) {
        q[3 * a] = ns_rng_range(g, -1, 0.3);
        q[3 * a + 1] = ns_rng_range(g, -1, 1);
        q[3 * a + 2] = ns_rng_range(g, -1, 1);
        m[a] = mu;
    }
    ns_fc *f = ns_fc_new(3, nc, W, q, m);
    assert_non_null(f);
    ns_problem *p = ns_problem_from_fc(f);
    assert_non_null(p);
    return p;
}

static double solve_and_check_norm(const ns_problem *p, const char *solver, double tol,
                                  ns_fc_norm norm, ns_status *st)
{
    ns_solution *sol = ns_solution_new(p);
    assert_non_null(sol);
    ns_options o;
    ns_options_default(&o);
    o.tol = tol;
    o.max_iter = 1000;
    o.time_limit = 60;
    o.fc_norm = (int)norm;
    ns_result res;
    ns_result_init(&res);
    *st = ns_solve(p, solver, &o, sol, &res);
    const ns_fc *f = p->u.fc;
    const size_t m = (size_t)f->dim * (size_t)f->nc;
    for (size_t i = 0; i < m; i++) assert_true(isfinite(sol->vec[0][i]) && isfinite(sol->vec[1][i]));
    double *uu = malloc(m * sizeof(double));
    assert_non_null(uu);
    double err = ns_fc_error(f, sol->vec[0], uu, norm);
    free(uu);
    ns_solution_free(sol);
    ns_result_clear(&res);
    return err;
}

static double solve_and_check(const ns_problem *p, const char *solver, double tol, ns_status *st)
{
    return solve_and_check_norm(p, solver, tol, NS_FC_NORM_SICONOS, st);
}

static void newton_variants_solve_random_problems(void **state)
{
    (void)state;
    ns_rng g;
    ns_rng_seed(&g, 7);
    const char *solvers[] = { "nsn-ac", "nsn-ac-gp", "nsn-fb", "nsn-nm" };
    for (int k = 0; k < 6; k++) {
        ns_problem *p = random_problem(&g, 4 + 3 * k, k % 2 ? 0.3 : 0.8);
        for (size_t s = 0; s < sizeof solvers / sizeof solvers[0]; s++) {
            ns_status st;
            double err = solve_and_check(p, solvers[s], 1e-10, &st);
            if (st != NS_CONVERGED || !(err <= 1e-10))
                fail_msg("%s on random problem %d: status %d error %.3e", solvers[s], k, (int)st, err);
        }
        ns_problem_free(p);
    }
}

/* Files the nsn-ac of before missed: Capsules-i122-1617 (ρ = 1/W_NN,
 * 1/W_TT stalled at 1.7e-7), KaplasTower, RockPile and the LMGC periodic box
 * (line search steps of 1e-6 for hundreds of iterations without the
 * regularized step). */
static void newton_solves_former_failures(void **state)
{
    (void)state;
    const struct { const char *file, *solver; } runs[] = {
        { "fc3d/Capsules-i122-1617.dat", "nsn-ac" },
        { "fc3d/Capsules-i122-1617.dat", "nsn-ac-gp" },
        { "fc3d/KaplasTower-i1061-4.hdf5.dat", "nsn-ac" },
        { "fc3d/RockPile_tob1.dat", "nsn-ac" },
        { "fclib/local/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", "nsn-ac" },
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        char path[1024];
        ns_test_data_path(path, sizeof path, runs[k].file);
        ns_problem *p = NULL;
        char err[NS_ERRMSG_LEN];
        if (ns_problem_read(path, NS_KIND_NONE, &p, err) != NS_OK) {
            print_message("skipped %s: %s\n", runs[k].file, err);
            continue;
        }
        ns_status st;
        double e = solve_and_check(p, runs[k].solver, 1e-8, &st);
        if (st != NS_CONVERGED || !(e <= 1e-8))
            fail_msg("%s on %s: status %d error %.3e", runs[k].solver, runs[k].file, (int)st, e);
        ns_problem_free(p);
    }
}

/* prox's inner Newton takes most of its steps by GMRES preconditioned with
 * an earlier iteration's factorization (J of W + σI changes little from one
 * inner solve to the next). Those steps are inexact: the answers must still
 * meet the tolerance by the error recomputed from the file's W and q, and
 * the log must show that the path was taken. */
static void count_lagged(void *user, int level, const char *msg)
{
    (void)level;
    long n;
    if (sscanf(msg, "prox: %ld Newton steps by GMRES", &n) == 1) *(long *)user += n;
}

static void prox_lagged_steps_keep_answers(void **state)
{
    (void)state;
    const char *files[] = { "fc3d/Capsules-i101-404.dat", "fc3d/Capsules-i122-1617.dat",
                            "fc3d/Confeti-ex13-Fc3D-SBM.dat" };
    if (!ns_test_data_dir()) skip();
    long lagged = 0;
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[1024], err[NS_ERRMSG_LEN];
        ns_problem *p = NULL;
        if (ns_problem_read(ns_test_data_path(path, sizeof path, files[k]), NS_KIND_NONE, &p, err) != NS_OK)
            fail_msg("%s: %s", files[k], err);
        ns_solution *sol = ns_solution_new(p);
        assert_non_null(sol);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-10;
        o.verbosity = 2;
        o.log = count_lagged;
        o.log_user = &lagged;
        ns_result res;
        ns_result_init(&res);
        ns_status st = ns_solve(p, "prox", &o, sol, &res);
        const ns_fc *f = p->u.fc;
        const size_t m = (size_t)f->dim * (size_t)f->nc;
        double *uu = malloc(m * sizeof(double));
        assert_non_null(uu);
        double e = ns_fc_error(f, sol->vec[0], uu, NS_FC_NORM_SICONOS);
        if (st != NS_CONVERGED || !(e <= 1e-10))
            fail_msg("prox on %s: status %d error %.3e", files[k], (int)st, e);
        free(uu);
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
    if (lagged == 0) fail_msg("prox took no Newton step from a kept factorization");
}

/* The race of the auto chain runs a Newton walk in turns, each ended by
 * its work budget and resumed from its last iterate. With the walk's state
 * carried over (ns_fc_nsn_walk: the non-monotone line search's history,
 * the regularization), turns of one iteration each must take exactly the
 * steps of one run that is never interrupted: the same number of
 * iterations and the same iterate, bit for bit; the answer is checked by
 * the error recomputed from the problem. */
static void walk_turns_follow_one_run(void **state)
{
    (void)state;
    if (!ns_test_data_dir()) skip();
    char path[1024], err[NS_ERRMSG_LEN];
    ns_problem *p = NULL;
    const char *file = "fc3d/BoxesStack1-i100000-32.hdf5.dat";
    if (ns_problem_read(ns_test_data_path(path, sizeof path, file), NS_KIND_NONE, &p, err) != NS_OK)
        fail_msg("%s: %s", file, err);
    ns_fc view;
    ns_matrix *owned = NULL;
    assert_int_equal(ns_fc_blocked(p->u.fc, &view, &owned, err), NS_OK);
    const size_t m = (size_t)view.dim * (size_t)view.nc;
    double *r1 = calloc(m, sizeof(double)), *r2 = calloc(m, sizeof(double));
    double *u = malloc(m * sizeof(double));
    assert_true(r1 && r2 && u);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-12;
    o.max_iter = 1000;
    /* one run: a budget it never reaches */
    ns_fc_work whole = { 1e300, 0.0 };
    ns_result res;
    ns_result_init(&res);
    ns_status st1 = ns_fc_nsn_turn(&view, r1, u, &o, ns_fc_phi_ac, &whole, NULL, NULL, &res);
    const int its1 = res.iterations;
    ns_result_clear(&res);
    assert_int_equal(st1, NS_CONVERGED);
    assert_true(its1 > 3);
    /* turns of one iteration: every budget is spent by the first */
    ns_fc_nsn_walk walk;
    memset(&walk, 0, sizeof walk);
    ns_status st2 = NS_MAX_ITER;
    int its2 = 0, turns = 0;
    while (st2 != NS_CONVERGED && turns < 2 * its1) {
        ns_fc_work w = { 1e-300, 0.0 };
        ns_result_init(&res);
        st2 = ns_fc_nsn_turn(&view, r2, u, &o, ns_fc_phi_ac, &w, &walk, NULL, &res);
        assert_int_equal(res.iterations, 1);
        its2 += res.iterations;
        turns++;
        ns_result_clear(&res);
    }
    assert_int_equal(st2, NS_CONVERGED);
    assert_int_equal(its2, its1);
    assert_memory_equal(r1, r2, m * sizeof(double));
    assert_true(ns_fc_error(p->u.fc, r2, u, NS_FC_NORM_SICONOS) <= 1e-12);
    free(r1); free(r2); free(u);
    ns_matrix_free(owned);
    ns_problem_free(p);
}

/* W = [[I, s I], [s I, I]] with s = ±1: singular, valid diagonal blocks. */
static ns_problem *twin_contacts(double s, const double *q)
{
    ns_matrix *W = ns_matrix_dense_new(6, 6);
    assert_non_null(W);
    for (int i = 0; i < 6; i++) {
        W->dense[i + 6 * i] = 1.0;
        W->dense[i + 6 * ((i + 3) % 6)] = s;
    }
    const double mu[2] = { 0.5, 0.5 };
    ns_fc *f = ns_fc_new(3, 2, W, q, mu);
    assert_non_null(f);
    ns_problem *p = ns_problem_from_fc(f);
    assert_non_null(p);
    return p;
}

static void singular_jacobian_gives_clean_status(void **state)
{
    (void)state;
    const char *solvers[] = { "nsn-ac", "nsn-ac-gp", "nsn-fb", "nsn-nm" };
    /* identical contacts pushed together: solvable (r1 + r2 fixed), J = ρW
     * singular while both stick */
    const double q1[6] = { -1, 0.1, 0, -1, 0.1, 0 };
    /* opposed contacts, u1_N + u2_N = −2 whatever r: no solution; its error
     * is measured relative to ‖q‖ only (with Siconos' max(‖q‖, ‖r‖, ‖u‖),
     * which ns_solve uses, an r running to infinity makes it vanish) */
    const double q2[6] = { -1, 0, 0, -1, 0, 0 };
    for (size_t s = 0; s < sizeof solvers / sizeof solvers[0]; s++) {
        ns_problem *p = twin_contacts(1.0, q1);
        ns_status st;
        double e = solve_and_check(p, solvers[s], 1e-8, &st);
        assert_true(isfinite(e));
        assert_true(st == NS_CONVERGED ? e <= 1e-8
                    : st == NS_SINGULAR || st == NS_MAX_ITER || st == NS_DIVERGED);
        ns_problem_free(p);
        p = twin_contacts(-1.0, q2);
        e = solve_and_check_norm(p, solvers[s], 1e-8, NS_FC_NORM_Q, &st);
        assert_true(isfinite(e));
        assert_true(e > 1e-3); /* no solution exists */
        /* a clean status; "converged" can only come from the Siconos
         * relative error when ‖r‖ has run away (nsn-fb does) */
        assert_true(st == NS_CONVERGED || st == NS_SINGULAR || st == NS_MAX_ITER
                    || st == NS_DIVERGED || st == NS_TIME_LIMIT);
        ns_problem_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fb_jacobian_matches_differences),
        cmocka_unit_test(fb_jacobian_finite_on_kinks),
        cmocka_unit_test(newton_variants_solve_random_problems),
        cmocka_unit_test(newton_solves_former_failures),
        cmocka_unit_test(singular_jacobian_gives_clean_status),
        cmocka_unit_test(prox_lagged_steps_keep_answers),
        cmocka_unit_test(walk_turns_follow_one_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
