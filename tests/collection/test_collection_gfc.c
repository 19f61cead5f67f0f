/* test_collection_gfc.c — the global semismooth Newton "nsn-ac" for
 * GFC3D/GFC2D on every file of ../shared/data/gfc3d, gfc2d and
 * fclib/global (absent → skip, exit 77), at tol 1e-8 with a 20 s cap per
 * file; the error is recomputed here from (v, r) independently of the
 * solver's own estimate: a fresh solution object gets only v and r, and
 * ns_problem_error recomputes u = Hᵀ v + b, ‖M v − H r − q‖ and the cone
 * conditions. (The reduction path "reduce" is covered by
 * test_collection_fc.) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

static void solve_dir(const char *sub, const char *ext, const char *solver)
{
    char dir[1024], path[2048], err[NS_ERRMSG_LEN];
    ns_test_data_path(dir, sizeof dir, sub);
    DIR *dp = opendir(dir);
    if (!dp) return;
    struct dirent *e;
    int n = 0;
    while ((e = readdir(dp))) {
        size_t l = strlen(e->d_name), le = strlen(ext);
        if (l <= le || strcmp(e->d_name + l - le, ext)) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ns_problem *p = NULL;
        if (ns_problem_read(path, NS_KIND_NONE, &p, err)) fail_msg("%s: %s", path, err);
        ns_solution *sol = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-8;
        o.time_limit = 20;
        ns_result res;
        ns_status st = ns_solve(p, solver, &o, sol, &res);
        if (st != NS_CONVERGED)
            fail_msg("%s with %s: %s error %g (%s)", e->d_name, solver, ns_status_name(st),
                     res.error, res.message);
        /* independent check: a fresh solution holding only v and r */
        ns_solution *chk = ns_solution_new(p);
        memcpy(chk->vec[0], sol->vec[0], (size_t)p->u.gfc->n * sizeof(double));
        size_t m = (size_t)p->u.gfc->dim * (size_t)p->u.gfc->nc;
        if (m) memcpy(chk->vec[2], sol->vec[2], m * sizeof(double));
        double e2 = ns_problem_error(p, chk);
        if (!(e2 <= 1.0001e-8)) fail_msg("%s with %s: recomputed error %g", e->d_name, solver, e2);
        ns_solution_free(chk);
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
        n++;
    }
    closedir(dp);
    assert_true(n > 0);
}

static void test_gfc_nsn(void **state)
{
    (void)state;
    solve_dir("gfc3d", ".dat", "nsn-ac");
    solve_dir("fclib/global", ".hdf5", "nsn-ac");
    solve_dir("gfc2d", ".dat", "nsn-ac");
}

int main(void)
{
    if (!ns_test_data_dir()) return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gfc_nsn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
