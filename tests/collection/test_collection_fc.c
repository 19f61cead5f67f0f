/* test_collection_fc.c — friction-contact solvers on the shared collection
 * (../shared/data; absent → skip, exit 77): every FC3D/FC2D/GFC/GMP file
 * that solves in seconds, the FC error recomputed here independently of the
 * library (dense u = W r + q, own cone projection, Siconos normalisation);
 * auto on every FC3D file of the collection but one (see bench_only).
 * The full robustness table is benchmarks/fc/run.sh, not ctest. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

/* ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖), computed from a dense copy of W. */
static double own_fc_violation;   /* set by own_fc_error: max(0, −û_N) / velocity scale */

static double own_fc_error(const ns_fc *p, const double *r)
{
    int d = p->dim;
    ns_int m = d * p->nc;
    ns_matrix *D = ns_matrix_to_dense(p->W);
    double *u = calloc((size_t)m + 1, sizeof(double));
    double s = 0, nq = 0, nr = 0, nu = 0;
    for (ns_int i = 0; i < m; i++) {
        u[i] = p->q[i];
        for (ns_int j = 0; j < m; j++) u[i] += D->dense[i + (size_t)j * m] * r[j];
        nq += p->q[i] * p->q[i]; nr += r[i] * r[i]; nu += u[i] * u[i];
    }
    double vs = 0, worst = 0;
    for (ns_int i = 0; i < m; i++) vs = fmax(vs, fmax(fabs(p->q[i]), fmax(fabs(u[i]), fabs(u[i] - p->q[i]))));
    for (ns_int c = 0; c < p->nc; c++) {
        const double *rc = r + c * d, *uc = u + c * d;
        double mu = p->mu[c], x[3] = { 0, 0, 0 };
        double ut = d == 3 ? hypot(uc[1], uc[2]) : fabs(uc[1]);
        worst = fmax(worst, -(uc[0] + mu * ut));
        x[0] = rc[0] - uc[0] - mu * ut;
        for (int k = 1; k < d; k++) x[k] = rc[k] - uc[k];
        double xt = d == 3 ? hypot(x[1], x[2]) : fabs(x[1]);
        if (mu * xt <= -x[0]) { x[0] = x[1] = x[2] = 0; }
        else if (!(xt <= mu * x[0])) {
            double a = (x[0] + mu * xt) / (1 + mu * mu);
            for (int k = 1; k < d; k++) x[k] = mu * a * x[k] / xt;
            x[0] = a;
        }
        for (int k = 0; k < d; k++) s += (rc[k] - x[k]) * (rc[k] - x[k]);
    }
    double sc = fmax(sqrt(nq), fmax(sqrt(nr), sqrt(nu)));
    own_fc_violation = vs > 1e-300 ? worst / vs : worst;
    free(u);
    ns_matrix_free(D);
    return sc > 1e-300 ? sqrt(s) / sc : sqrt(s);
}

typedef struct { const char *file, *solver; double tol; } fc_case;

static const fc_case cases[] = {
    { "fc3d/FrictionContact3D_1c.dat", "nsgs-ac", 1e-10 },
    { "fc3d/FrictionContact3D_RR_1c.dat", "nsn-ac", 1e-10 },
    { "fc3d/Rover1039.dat", "nsgs-ac", 1e-8 },
    { "fc3d/Rover4622.dat", "nsn-ac", 1e-8 },
    { "fc3d/Rover9770.dat", "nsgs-fb", 1e-8 },
    { "fc3d/Rover1040.dat", "nsgs-nm", 1e-8 },
    { "fc3d/Rover1041.dat", "nsgs-proj", 1e-8 },
    { "fc3d/Confeti-ex13-Fc3D-SBM.dat", "nsgs-ac", 1e-8 },
    { "fclib/local/Capsules-i125-1213.hdf5", "nsn-ac", 1e-8 },
    { "fc2d/FC2D_SliderCrankLagrangian00000.dat", "lemke", 1e-10 },
    { "fc2d/FrictionContactProblem00071.dat", "lemke", 1e-10 },
    { "fc2d/FrictionContactProblem00727.dat", "nsgs", 1e-8 },
    { "fc2d/FrictionContactProblem00394.dat", "nsgs", 1e-8 },
};

static void test_fc_files(void **state)
{
    (void)state;
    char path[1024], err[NS_ERRMSG_LEN];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ns_problem *p = NULL;
        ns_test_data_path(path, sizeof path, cases[k].file);
        if (ns_problem_read(path, NS_KIND_NONE, &p, err)) fail_msg("%s: %s", path, err);
        ns_solution *sol = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = cases[k].tol;
        o.time_limit = 20;
        ns_result res;
        ns_status st = ns_solve(p, cases[k].solver, &o, sol, &res);
        if (st != NS_CONVERGED)
            fail_msg("%s with %s: %s error %g (%s)", cases[k].file, cases[k].solver,
                     ns_status_name(st), res.error, res.message);
        double e = own_fc_error(p->u.fc, sol->vec[0]);
        if (!(e <= 1.0001 * cases[k].tol))
            fail_msg("%s with %s: recomputed error %g > tol", cases[k].file, cases[k].solver, e);
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* auto, the robust default, on every FC3D file of the collection
 * (fc3d .dat and fclib/local .hdf5 files): every file is either here or in
 * bench_only with the reason, and a file added to the collection fails this
 * test until it is placed. */
static const char *const auto_files[] = {
    "fc3d/BoxesStack1-i100000-32.hdf5.dat", "fc3d/Capsules-i100-1090.dat",
    "fc3d/Capsules-i100-889.dat", "fc3d/Capsules-i101-404.dat", "fc3d/Capsules-i122-1617.dat",
    "fc3d/Confeti-ex13-4contact-Fc3D-SBM.dat", "fc3d/Confeti-ex13-Fc3D-SBM.dat",
    "fc3d/FC3D_Example1.dat", "fc3d/FC3D_Example1_SBM.dat", "fc3d/FrictionContact3D_1c.dat",
    "fc3d/FrictionContact3D_RR_1c.dat", "fc3d/GFC3D_TwoRods1-condensed.dat",
    "fc3d/KaplasTower-i1061-4.hdf5.dat", "fc3d/NESpheres_10_1.dat",
    "fc3d/OneObject-i100000-316.hdf5.dat", "fc3d/OneObject-i1028-138.hdf5.dat",
    "fc3d/Rover1039.dat", "fc3d/Rover1040.dat", "fc3d/Rover1041.dat", "fc3d/Rover11035.dat",
    "fc3d/Rover3865.dat", "fc3d/Rover4144.dat", "fc3d/Rover4493.dat", "fc3d/Rover4516.dat",
    "fc3d/Rover4609.dat", "fc3d/Rover4622.dat", "fc3d/Rover9770.dat",
    "fclib/local/Capsules-i125-1213.hdf5",
    "fclib/local/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5",
};
/* RockPile_tob1: auto reaches 1e-8 only in its last stage (prox), after
 * 25-60 s depending on the load: too slow and too close to the 60 s limit
 * for ctest; benchmarks/fc/run.sh reports it. */
static const char *const bench_only[] = { "fc3d/RockPile_tob1.dat" };

static int listed(const char *rel)
{
    for (size_t k = 0; k < sizeof auto_files / sizeof auto_files[0]; k++)
        if (!strcmp(rel, auto_files[k])) return 1;
    for (size_t k = 0; k < sizeof bench_only / sizeof bench_only[0]; k++)
        if (!strcmp(rel, bench_only[k])) return 1;
    return 0;
}

static void check_placed(const char *dir, const char *suffix)
{
    char path[1024], rel[512];
    ns_test_data_path(path, sizeof path, dir);
    DIR *d = opendir(path);
    if (!d) fail_msg("cannot open %s", path);
    int seen = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name), k = strlen(suffix);
        if (e->d_name[0] == '.' || n <= k || strcmp(e->d_name + n - k, suffix)) continue;
        snprintf(rel, sizeof rel, "%s/%s", dir, e->d_name);
        if (!listed(rel)) { closedir(d); fail_msg("%s is in neither auto_files nor bench_only", rel); }
        seen++;
    }
    closedir(d);
    assert_true(seen > 0);
}

static void test_fc3d_auto_every_file(void **state)
{
    (void)state;
    check_placed("fc3d", ".dat");
    check_placed("fclib/local", ".hdf5");
    char path[1024], err[NS_ERRMSG_LEN];
    for (size_t k = 0; k < sizeof auto_files / sizeof auto_files[0]; k++) {
        ns_problem *p = NULL;
        ns_test_data_path(path, sizeof path, auto_files[k]);
        if (ns_problem_read(path, NS_KIND_NONE, &p, err)) fail_msg("%s: %s", path, err);
        assert_int_equal(p->kind, NS_KIND_FC3D);
        ns_solution *sol = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.time_limit = 20;
        ns_result res;
        ns_status st = ns_solve(p, "auto", &o, sol, &res);
        /* Here ‖r‖/‖u‖ ≈ 10⁶: a relative error of 1e-8 can leave a contact
         * approaching at 3·10⁻³ of the velocities' scale, which the
         * library's velocity check reports (max_iter, docs/errors.md)
         * instead of "converged" (auto polishes such a point with nsn-ac
         * and converges; were it flagged, the penetration is recomputed
         * here). */
        int flagged = !strcmp(auto_files[k], "fclib/local/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5");
        if (flagged && st == NS_MAX_ITER && strstr(res.message, "penetrates")) {
            double e = own_fc_error(p->u.fc, sol->vec[0]);
            if (!(e <= 1.0001e-8) || !(own_fc_violation > 100 * o.tol))
                fail_msg("%s: velocity check flagged, but recomputed error %g, penetration %g",
                         auto_files[k], e, own_fc_violation);
            ns_result_clear(&res);
            ns_solution_free(sol);
            ns_problem_free(p);
            continue;
        }
        if (st != NS_CONVERGED)
            fail_msg("%s with auto: %s error %g (%s)", auto_files[k], ns_status_name(st),
                     res.error, res.message);
        /* the answer, not the solver's word: the error recomputed from r
         * alone, by our own dense code and by the library's ns_fc_error
         * on a fresh u */
        const ns_fc *f = p->u.fc;
        double e = own_fc_error(f, sol->vec[0]);
        if (!(e <= 1.0001e-8)) fail_msg("%s with auto: recomputed error %g > 1e-8", auto_files[k], e);
        size_t m = (size_t)f->dim * (size_t)f->nc;
        double *u = malloc(m * sizeof *u);
        double e2 = ns_fc_error(f, sol->vec[0], u, NS_FC_NORM_SICONOS);
        if (!(e2 <= 1.0001e-8)) fail_msg("%s with auto: ns_fc_error %g > 1e-8", auto_files[k], e2);
        for (size_t i = 0; i < m; i++) assert_true(isfinite(sol->vec[0][i]) && isfinite(u[i]));
        free(u);
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* A hyperstatic pile in miniature: W = H Hᵀ with H (3·nc × k), k < 3·nc,
 * so W is rank deficient (RockPile_tob1: rank 743 of 1389) and the
 * reactions of sticking contacts are not unique; q = H v (no restitution
 * term, so a solution exists), μ = 1. */
static ns_problem *hyperstatic(int nc, int k, unsigned seed)
{
    int m = 3 * nc;
    double *H = malloc((size_t)m * (size_t)k * sizeof *H), *v = malloc((size_t)k * sizeof *v);
    double q[3 * 64], mu[64];
    uint64_t x = seed * 2654435761u + 1;
    for (int i = 0; i < m * k; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        H[i] = (double)(x >> 11) / 9007199254740992.0 - 0.5;
    }
    for (int j = 0; j < k; j++) v[j] = j % 3 == 0 ? -1.0 : 0.3 * (j % 5) - 0.6;
    ns_matrix *W = ns_matrix_dense_new(m, m);
    for (int i = 0; i < m; i++) {
        q[i] = 0;
        for (int j = 0; j < k; j++) q[i] += H[i + j * m] * v[j];
        for (int l = 0; l < m; l++) {
            double a = 0;
            for (int j = 0; j < k; j++) a += H[i + j * m] * H[l + j * m];
            W->dense[i + (size_t)l * m] = a;
        }
    }
    for (int c = 0; c < nc; c++) mu[c] = 1.0;
    free(H);
    free(v);
    return ns_problem_from_fc(ns_fc_new(3, nc, W, q, mu));
}

/* prox and auto on rank-deficient W: converged, the answer checked
 * independently; prox returns its best iterate, never one worse than its
 * start. */
static void test_fc3d_hyperstatic(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 3; seed++) {
        ns_problem *p = hyperstatic(20, 36, seed);
        assert_non_null(p);
        const char *solvers[] = { "prox", "auto" };
        for (int s = 0; s < 2; s++) {
            ns_solution *sol = ns_solution_new(p);
            ns_options o;
            ns_options_default(&o);
            o.time_limit = 20;
            ns_result res;
            ns_status st = ns_solve(p, solvers[s], &o, sol, &res);
            if (st != NS_CONVERGED)
                fail_msg("seed %u %s: %s error %g", seed, solvers[s], ns_status_name(st), res.error);
            double e = own_fc_error(p->u.fc, sol->vec[0]);
            if (!(e <= 1.0001e-8)) fail_msg("seed %u %s: recomputed error %g", seed, solvers[s], e);
            ns_result_clear(&res);
            ns_solution_free(sol);
        }
        /* three outer steps from a poor warm start: the result is no worse */
        ns_solution *sol = ns_solution_new(p);
        size_t m = 3 * 20;
        for (size_t i = 0; i < m; i++) sol->vec[0][i] = i % 3 == 0 ? 1.0 : 0.7;
        double *u = malloc(m * sizeof *u);
        double e0 = ns_fc_error(p->u.fc, sol->vec[0], u, NS_FC_NORM_SICONOS);
        ns_options o;
        ns_options_default(&o);
        o.warm_start = 1;
        o.max_iter = 3;
        ns_result res;
        ns_solve(p, "prox", &o, sol, &res);
        double e1 = ns_fc_error(p->u.fc, sol->vec[0], u, NS_FC_NORM_SICONOS);
        assert_true(e1 <= e0 * (1 + 1e-12));
        free(u);
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

static void solve_all(const char *dir_files[], size_t n, const char *solver)
{
    char path[1024], err[NS_ERRMSG_LEN];
    for (size_t k = 0; k < n; k++) {
        ns_problem *p = NULL;
        ns_test_data_path(path, sizeof path, dir_files[k]);
        if (ns_problem_read(path, NS_KIND_NONE, &p, err)) fail_msg("%s: %s", path, err);
        ns_solution *sol = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.time_limit = 20;
        ns_result res;
        ns_status st = ns_solve(p, solver, &o, sol, &res);
        if (st != NS_CONVERGED)
            fail_msg("%s with %s: %s error %g (%s)", dir_files[k], solver,
                     ns_status_name(st), res.error, res.message);
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* PerioBox (‖r‖/‖u‖ ≈ 10⁶): sweeps and ADMM reach a relative error of 1e-8
 * while a contact still approaches at ~3·10⁻³ of the velocities' scale;
 * ns_solve then continues the same solver to a finer tol. Each is judged on
 * r alone: error and approach recomputed from a dense W. */
static void test_fc3d_velocity_continued(void **state)
{
    (void)state;
    const char *solvers[] = { "nsgs-ac", "admm", "nsgs-proj" };
    char path[4096];
    ns_test_data_path(path, sizeof path, "fclib/local/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5");
    ns_problem *p = NULL;
    char err[NS_ERRMSG_LEN];
    assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &p, err), NS_OK);
    for (size_t k = 0; k < sizeof solvers / sizeof solvers[0]; k++) {
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-8;
        ns_solution *sol = ns_solution_new(p);
        ns_result res;
        ns_status st = ns_solve(p, solvers[k], &o, sol, &res);
        if (st != NS_CONVERGED)
            fail_msg("PerioBox with %s: %s error %g (%s)", solvers[k], ns_status_name(st),
                     res.error, res.message);
        double e = own_fc_error(p->u.fc, sol->vec[0]);
        if (!(e <= 1.0001e-8) || !(own_fc_violation <= 100 * o.tol))
            fail_msg("PerioBox with %s: converged, but recomputed error %g, approach %g",
                     solvers[k], e, own_fc_violation);
        ns_result_clear(&res);
        ns_solution_free(sol);
    }
    ns_problem_free(p);
}

static void test_gfc_files(void **state)
{
    (void)state;
    const char *f[] = { "gfc3d/GFC3D_Example0.dat", "gfc3d/GFC3D_Example00.dat",
        "gfc3d/GFC3D_Example00_badly_scaled.dat", "gfc3d/GFC3D_Example0_SBM.dat",
        "gfc3d/GFC3D_Example1.dat", "gfc3d/GFC3D_OneContact.dat", "gfc3d/GFC3D_TwoRods1.dat",
        "gfc2d/gfc2d_granularflowonwall_00000_00117.dat",
        "gfc2d/gfc2d_granularflowonwall_00069_00350.dat",
        "fclib/global/Box_Stacks-i0122-82-5.hdf5", "fclib/global/CubeH8.hdf5",
        "fclib/global/LMGC_GlobalFrictionContactProblem00046.hdf5" };
    solve_all(f, sizeof f / sizeof f[0], "reduce");
    solve_all(f, sizeof f / sizeof f[0], "nsn-ac");
}

static void test_gmp_files(void **state)
{
    (void)state;
    /* GMP6 is left out: gmp-nsgs does not reach 1e-8 on it (reported). */
    const char *f[] = { "gmp/Example1_Fc3D_SBM.dat", "gmp/GMP0.dat", "gmp/GMP1.dat",
        "gmp/GMP2.dat", "gmp/GMP3.dat", "gmp/GMP4.dat", "gmp/GMP5.dat" };
    solve_all(f, sizeof f / sizeof f[0], "gmp-nsgs");
}

int main(void)
{
    if (!ns_test_data_dir()) return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fc_files),
        cmocka_unit_test(test_fc3d_auto_every_file),
        cmocka_unit_test(test_fc3d_hyperstatic),
        cmocka_unit_test(test_fc3d_velocity_continued),
        cmocka_unit_test(test_gfc_files),
        cmocka_unit_test(test_gmp_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
