/* test_collection_fc2d.c — every problem of
 * ../shared/data/fc2d solved by lemke at tol 1e-10 and by nsgs at 1e-8
 * (absent collection → skip, exit 77). The returned r is checked by the FC2D
 * error recomputed here, independently of the library's residual code:
 * u = W r + q from W's compressed columns, De Saxcé's û, the projection on
 * each 2D cone written out, divided by max(‖q‖, ‖r‖, ‖u‖).
 * Lemke on fc2d_granularflowonwall_07002_00801 (LCP of order 28008, tens of
 * thousands of pivots, minutes) runs only with NS_LONG_TESTS=1. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

static double own_fc2d_error(const ns_fc *p, const double *r)
{
    ns_int m = 2 * p->nc;
    ns_matrix *S = ns_matrix_to_sparse(p->W);
    assert_non_null(S);
    double *u = calloc((size_t)m + 1, sizeof(double));
    for (ns_int i = 0; i < m; i++) u[i] = p->q[i];
    for (ns_int j = 0; j < m; j++)
        for (ns_int k = S->csc.p[j]; k < S->csc.p[j + 1]; k++) u[S->csc.i[k]] += S->csc.x[k] * r[j];
    double s = 0, nq = 0, nr = 0, nu = 0;
    for (ns_int i = 0; i < m; i++) { nq += p->q[i] * p->q[i]; nr += r[i] * r[i]; nu += u[i] * u[i]; }
    for (ns_int c = 0; c < p->nc; c++) {
        double mu = p->mu[c];
        double x0 = r[2 * c] - u[2 * c] - mu * fabs(u[2 * c + 1]), x1 = r[2 * c + 1] - u[2 * c + 1];
        double p0 = x0, p1 = x1;
        if (mu * fabs(x1) <= -x0) { p0 = 0; p1 = 0; }
        else if (!(fabs(x1) <= mu * x0)) {
            p0 = (x0 + mu * fabs(x1)) / (1 + mu * mu);
            p1 = mu * p0 * (x1 > 0 ? 1 : -1);
        }
        s += (r[2 * c] - p0) * (r[2 * c] - p0) + (r[2 * c + 1] - p1) * (r[2 * c + 1] - p1);
    }
    free(u);
    ns_matrix_free(S);
    double sc = fmax(sqrt(nq), fmax(sqrt(nr), sqrt(nu)));
    /* as docs/errors.md: no division when the divisor is below DBL_EPSILON */
    return sc > DBL_EPSILON ? sqrt(s) / sc : sqrt(s);
}

static const char *files[] = {
    "fc2d/FC2D_SliderCrankLagrangian00000.dat",
    "fc2d/FrictionContactProblem00031.dat",
    "fc2d/FrictionContactProblem00071.dat",
    "fc2d/FrictionContactProblem00374.dat",
    "fc2d/FrictionContactProblem00394.dat",
    "fc2d/FrictionContactProblem00727.dat",
    "fc2d/fc2d_granularflowonwall_00667_00000.dat",
    "fc2d/fc2d_granularflowonwall_07002_00801.dat",
};
#define BIG "fc2d/fc2d_granularflowonwall_07002_00801.dat"

static void solve_all(const char *solver, double tol, double time_limit)
{
    char path[1024], err[NS_ERRMSG_LEN];
    int long_tests = getenv("NS_LONG_TESTS") && !strcmp(getenv("NS_LONG_TESTS"), "1");
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        if (!strcmp(solver, "lemke") && !strcmp(files[k], BIG) && !long_tests) continue;
        ns_problem *p = NULL;
        ns_test_data_path(path, sizeof path, files[k]);
        if (ns_problem_read(path, NS_KIND_NONE, &p, err)) fail_msg("%s: %s", path, err);
        assert_int_equal(p->kind, NS_KIND_FC2D);
        ns_solution *sol = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = tol;
        o.time_limit = time_limit;
        ns_result res;
        ns_status st = ns_solve(p, solver, &o, sol, &res);
        if (st != NS_CONVERGED)
            fail_msg("%s with %s: %s error %g (%s)", files[k], solver, ns_status_name(st),
                     res.error, res.message);
        double e = own_fc2d_error(p->u.fc, sol->vec[0]);
        if (!(e <= 1.0001 * tol))
            fail_msg("%s with %s: recomputed error %g > tol %g", files[k], solver, e, tol);
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

static void test_lemke(void **state) { (void)state; solve_all("lemke", 1e-10, 3000); }
static void test_nsgs(void **state) { (void)state; solve_all("nsgs", 1e-8, 60); }

int main(void)
{
    if (!ns_test_data_dir()) return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lemke),
        cmocka_unit_test(test_nsgs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
