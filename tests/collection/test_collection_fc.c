/* test_collection_fc.c — friction-contact solvers on the shared collection
 * (../shared/data; absent → skip, exit 77): every FC3D/FC2D/GFC/GMP file
 * that solves in seconds, the FC error recomputed here independently of the
 * library (dense u = W r + q, own cone projection, Siconos normalisation).
 * The full robustness table is benchmarks/fc/run.sh, not ctest. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

/* ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖), computed from a dense copy of W. */
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
    for (ns_int c = 0; c < p->nc; c++) {
        const double *rc = r + c * d, *uc = u + c * d;
        double mu = p->mu[c], x[3] = { 0, 0, 0 };
        double ut = d == 3 ? hypot(uc[1], uc[2]) : fabs(uc[1]);
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
    free(u);
    ns_matrix_free(D);
    return sc > 1e-300 ? sqrt(s) / sc : sqrt(s);
}

typedef struct { const char *file, *solver; double tol; } fc_case;

static const fc_case cases[] = {
    { "fc3d/FC3D_Example1.dat", "auto", 1e-8 },
    { "fc3d/FrictionContact3D_1c.dat", "nsgs-ac", 1e-10 },
    { "fc3d/FrictionContact3D_RR_1c.dat", "nsn-ac", 1e-10 },
    { "fc3d/Rover1039.dat", "nsgs-ac", 1e-8 },
    { "fc3d/Rover4622.dat", "nsn-ac", 1e-8 },
    { "fc3d/Rover9770.dat", "nsgs-fb", 1e-8 },
    { "fc3d/Rover1040.dat", "nsgs-nm", 1e-8 },
    { "fc3d/Rover1041.dat", "nsgs-proj", 1e-8 },
    { "fc3d/NESpheres_10_1.dat", "auto", 1e-8 },
    { "fc3d/GFC3D_TwoRods1-condensed.dat", "auto", 1e-8 },
    { "fc3d/OneObject-i1028-138.hdf5.dat", "auto", 1e-8 },
    { "fc3d/OneObject-i100000-316.hdf5.dat", "auto", 1e-8 },
    { "fc3d/Confeti-ex13-Fc3D-SBM.dat", "nsgs-ac", 1e-8 },
    { "fc3d/Capsules-i100-889.dat", "auto", 1e-8 },
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
        cmocka_unit_test(test_gfc_files),
        cmocka_unit_test(test_gmp_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
