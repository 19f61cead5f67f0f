/* test_collection_gfc.c — both global paths on every file of
 * ../shared/data/gfc3d, fclib/global (the five FCLIB global files, the
 * 12000-dof Spheres-i099-356-679 included) and gfc2d (absent → skip, exit
 * 77), at tol 1e-8 with a 20 s cap per run:
 * "reduce" (the default: W = Hᵀ M⁻¹ H, local solver, v recovered) and the
 * global semismooth Newton "nsn-ac".
 * The error is recomputed here from the returned (v, r) alone, with this
 * file's own loops (Siconos 4.4's gfc3d_compute_error, docs/errors.md):
 *   u = Hᵀ v + b,
 *   e = ‖q + H r − M v‖ / max(‖q‖, ‖M v‖, ‖H r‖)
 *     + sqrt(Σ_α ‖r_α − P_K(r_α − û_α)‖²) / max(‖u‖, ‖r‖),
 * û = u + μ‖u_T‖e_N, P_K this file's projection on the Coulomb cone
 * (d = 2 or 3), each division skipped below √ε. M and H are read through
 * CSC copies; no library residual function is called. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

/* y += A x (CSC) */
static void csc_mv(const ns_matrix *A, const double *x, double *y)
{
    for (ns_int j = 0; j < A->cols; j++)
        for (ns_int t = A->csc.p[j]; t < A->csc.p[j + 1]; t++) y[A->csc.i[t]] += A->csc.x[t] * x[j];
}

/* y += Aᵀ x (CSC) */
static void csc_mtv(const ns_matrix *A, const double *x, double *y)
{
    for (ns_int j = 0; j < A->cols; j++)
        for (ns_int t = A->csc.p[j]; t < A->csc.p[j + 1]; t++) y[j] += A->csc.x[t] * x[A->csc.i[t]];
}

static double nrm(const double *x, ns_int n)
{
    double s = 0;
    for (ns_int i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}

/* ‖r − P_K(r − û)‖² for one contact of dimension d. */
static double contact_sq(int d, double mu, const double *r, const double *u)
{
    double ut = d == 3 ? hypot(u[1], u[2]) : fabs(u[1]);
    double x[3] = { r[0] - u[0] - mu * ut, r[1] - u[1], d == 3 ? r[2] - u[2] : 0 };
    double xt = d == 3 ? hypot(x[1], x[2]) : fabs(x[1]);
    if (mu * xt <= -x[0]) {
        x[0] = x[1] = x[2] = 0;
    } else if (!(xt <= mu * x[0])) {
        double a = (x[0] + mu * xt) / (1 + mu * mu);
        for (int k = 1; k < d; k++) x[k] = mu * a * x[k] / xt;
        x[0] = a;
    }
    double s = 0;
    for (int k = 0; k < d; k++) s += (r[k] - x[k]) * (r[k] - x[k]);
    return s;
}

static double own_gfc_error(const ns_gfc *p, const double *v, const double *r)
{
    const int d = p->dim;
    const ns_int n = p->n, m = d * p->nc;
    const double small = sqrt(DBL_EPSILON);
    ns_matrix *M = ns_matrix_to_sparse(p->M), *H = ns_matrix_to_sparse(p->H);
    assert_non_null(M);
    assert_non_null(H);
    double *Mv = calloc((size_t)n + 1, sizeof(double)), *Hr = calloc((size_t)n + 1, sizeof(double));
    double *u = calloc((size_t)m + 1, sizeof(double)), *res = calloc((size_t)n + 1, sizeof(double));
    csc_mv(M, v, Mv);
    if (m) csc_mv(H, r, Hr);
    for (ns_int i = 0; i < n; i++) res[i] = p->q[i] + Hr[i] - Mv[i];
    for (ns_int i = 0; i < m; i++) u[i] = p->b[i];
    if (m) csc_mtv(H, v, u);
    double s_eq = fmax(nrm(p->q, n), fmax(nrm(Mv, n), nrm(Hr, n)));
    double e_eq = nrm(res, n);
    if (s_eq > small) e_eq /= s_eq;
    double sc = 0;
    for (ns_int a = 0; a < p->nc; a++) sc += contact_sq(d, p->mu[a], r + a * d, u + a * d);
    double e_c = sqrt(sc), s_c = fmax(nrm(u, m), nrm(r, m));
    if (s_c > small) e_c /= s_c;
    free(Mv); free(Hr); free(u); free(res);
    ns_matrix_free(M);
    ns_matrix_free(H);
    return e_eq + e_c;
}

static int solve_dir(const char *sub, const char *ext, const char *solver)
{
    char dir[1024], path[2048], err[NS_ERRMSG_LEN];
    ns_test_data_path(dir, sizeof dir, sub);
    DIR *dp = opendir(dir);
    if (!dp) return 0;
    struct dirent *e;
    int n = 0;
    while ((e = readdir(dp))) {
        size_t l = strlen(e->d_name), le = strlen(ext);
        if (l <= le || strcmp(e->d_name + l - le, ext)) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ns_problem *p = NULL;
        if (ns_problem_read(path, NS_KIND_NONE, &p, err)) fail_msg("%s: %s", path, err);
        assert_true(p->kind == NS_KIND_GFC3D || p->kind == NS_KIND_GFC2D);
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
        /* from v and r alone (the solution's u is not used) */
        double e2 = own_gfc_error(p->u.gfc, sol->vec[0], sol->vec[2]);
        if (!(e2 <= 1.001e-8)) fail_msg("%s with %s: recomputed error %g", e->d_name, solver, e2);
        /* the check has teeth: every velocity moved by 1e-3 of the largest */
        ns_int nv = p->u.gfc->n;
        double vmax = 1e-3;
        for (ns_int i = 0; i < nv; i++) vmax = fmax(vmax, fabs(sol->vec[0][i]));
        for (ns_int i = 0; i < nv; i++) sol->vec[0][i] += 1e-3 * vmax;
        double e3 = own_gfc_error(p->u.gfc, sol->vec[0], sol->vec[2]);
        if (!(e3 > 1e-7)) fail_msg("%s: perturbed v still scores %g", e->d_name, e3);
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
        n++;
    }
    closedir(dp);
    return n;
}

static void run_all(const char *solver)
{
    int n3 = solve_dir("gfc3d", ".dat", solver);
    int nf = solve_dir("fclib/global", ".hdf5", solver);
    int n2 = solve_dir("gfc2d", ".dat", solver);
    assert_true(n3 + nf + n2 > 0);
}

static void test_gfc_reduce(void **state) { (void)state; run_all("reduce"); }
static void test_gfc_nsn(void **state) { (void)state; run_all("nsn-ac"); }

int main(void)
{
    if (!ns_test_data_dir()) return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gfc_reduce),
        cmocka_unit_test(test_gfc_nsn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
