/* test_collection_gmp.c — gmp-nsgs on every file of ../shared/data/gmp
 * (absent → skip, exit 77) at tol 1e-8, GMP6
 * included. The error is recomputed here, independently of the library's
 * ns_gmp_error: w = M z + q with this file's own loops over the dense copy of
 * M, then Siconos 4.4's GMP error block by block (equality ‖w‖∞; LCP
 * ‖z − max(0, z − w)‖ / (1 + ‖q_loc‖); FC3D ‖r − P_K(r − û)‖ / (1 + ‖q_loc‖)
 * with this file's cone projection; q_loc = w − M_ρρ z_ρ), the largest over
 * the blocks (the equality part is absolute: |w_E| ≤ 1e-8). */
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

static double own_gmp_error(const ns_gmp *g, const double *z)
{
    const ns_int n = g->n;
    const ns_block *B = &g->M->block;
    ns_matrix *D = ns_matrix_to_dense(g->M);
    double *w = calloc((size_t)n, sizeof(double));
    for (ns_int i = 0; i < n; i++) {
        w[i] = g->q[i];
        for (ns_int j = 0; j < n; j++) w[i] += D->dense[i + (size_t)j * n] * z[j];
    }
    double e = 0;
    for (ns_int b = 0; b < g->nblocks; b++) {
        ns_int a = B->row_start[b], s = B->row_start[b + 1] - a;
        double nql = 0, loc = 0;
        for (ns_int i = 0; i < s; i++) {
            double ql = w[a + i];
            for (ns_int j = 0; j < s; j++) ql -= D->dense[(a + i) + (size_t)(a + j) * n] * z[a + j];
            nql += ql * ql;
        }
        nql = sqrt(nql);
        if (g->type[b] == NS_GMP_EQUALITY) {
            for (ns_int i = 0; i < s; i++) loc = fmax(loc, fabs(w[a + i]));
        } else if (g->type[b] == NS_GMP_LCP) {
            for (ns_int i = 0; i < s; i++) {
                double d = z[a + i] - fmax(0.0, z[a + i] - w[a + i]);
                loc += d * d;
            }
            loc = sqrt(loc) / (1 + nql);
        } else if (g->type[b] == NS_GMP_FC3D) {
            const double *r = z + a, *u = w + a, mu = g->mu[b];
            double x[3] = { r[0] - u[0] - mu * hypot(u[1], u[2]), r[1] - u[1], r[2] - u[2] };
            double xt = hypot(x[1], x[2]);
            if (mu * xt <= -x[0]) { x[0] = x[1] = x[2] = 0; }
            else if (!(xt <= mu * x[0])) {
                double al = (x[0] + mu * xt) / (1 + mu * mu);
                x[1] = mu * al * x[1] / xt;
                x[2] = mu * al * x[2] / xt;
                x[0] = al;
            }
            for (int k = 0; k < 3; k++) loc += (r[k] - x[k]) * (r[k] - x[k]);
            loc = sqrt(loc) / (1 + nql);
        } else {
            fail_msg("block %d: type %d not in the collection's files", (int)b, g->type[b]);
        }
        e = fmax(e, loc);
    }
    free(w);
    ns_matrix_free(D);
    return e;
}

static void test_gmp_collection(void **state)
{
    (void)state;
    char dir[1024], path[2048], err[NS_ERRMSG_LEN];
    ns_test_data_path(dir, sizeof dir, "gmp");
    DIR *dp = opendir(dir);
    if (!dp) skip();
    struct dirent *de;
    int n = 0, has6 = 0;
    while ((de = readdir(dp))) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 4, ".dat")) continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        ns_problem *p = NULL;
        if (ns_problem_read(path, NS_KIND_NONE, &p, err)) fail_msg("%s: %s", path, err);
        assert_int_equal(p->kind, NS_KIND_GMP);
        ns_solution *sol = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-8;
        o.time_limit = 20;
        ns_result res;
        ns_status st = ns_solve(p, "gmp-nsgs", &o, sol, &res);
        if (st != NS_CONVERGED)
            fail_msg("%s: %s after %d sweeps, error %g (%s)", de->d_name, ns_status_name(st),
                     res.iterations, res.error, res.message);
        const double *z = ns_solution_get(sol, "reaction");
        double e = own_gmp_error(p->u.gmp, z);
        if (!(e <= 1e-8)) fail_msg("%s: recomputed error %g > 1e-8", de->d_name, e);
        if (!strcmp(de->d_name, "GMP6.dat")) has6 = 1;
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
        n++;
    }
    closedir(dp);
    assert_true(n >= 8);
    assert_true(has6);
}

int main(void)
{
    if (!ns_test_data_dir()) return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gmp_collection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
