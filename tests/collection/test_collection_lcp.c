/* test_collection_lcp.c — every problem of ../shared/data/lcp, mlcp and relay
 * is answered by the default solver of its kind:
 * converged with error ≤ 1e-10, where the error and the complementarity
 * conditions are recomputed here from the returned vectors, in long double,
 * independently of the solver's report; or status no_solution, accepted only
 * with the result's Farkas certificate, re-checked here. Exit 77 without data. */
#define _POSIX_C_SOURCE 200809L
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

#define TOL 1e-10

/* w = M z + q in long double, from the dense copy of M. */
static void residual(const ns_matrix *M, const double *q, const double *z,
                     long double *w)
{
    ns_matrix *D = ns_matrix_to_dense(M);
    assert_non_null(D);
    for (ns_int i = 0; i < M->rows; i++) {
        long double s = q[i];
        for (ns_int j = 0; j < M->cols; j++)
            s += (long double)D->dense[i + (size_t)j * M->rows] * z[j];
        w[i] = s;
    }
    ns_matrix_free(D);
}

static long double norm(const double *x, ns_int n)
{
    long double s = 0;
    for (ns_int i = 0; i < n; i++) s += (long double)x[i] * x[i];
    return sqrtl(s);
}

/* The Farkas certificate of the result, checked here: y ≥ 0, Mᵀy ≤ 0 (to
 * 1e-9 of the size of its terms), qᵀy < 0; then no z ≥ 0 has Mz + q ≥ 0. */
static int lcp_certificate_ok(const ns_lcp *p, const ns_result *r)
{
    if (r->cert.kind != NS_CERT_FARKAS || !r->cert.y || r->cert.len != p->n) return 0;
    const double *y = r->cert.y;
    long double qy = 0;
    for (ns_int i = 0; i < p->n; i++) {
        if (!(y[i] >= 0)) return 0;
        qy += (long double)p->q[i] * y[i];
    }
    for (ns_int j = 0; j < p->n; j++) {
        long double c = 0, s = 0;
        for (ns_int i = 0; i < p->n; i++) {
            long double t = (long double)ns_matrix_get(p->M, i, j) * y[i];
            c += t;
            s += fabsl(t);
        }
        if (c > 1e-9 * s) return 0;
    }
    return qy < 0;
}

static void check_lcp(const ns_lcp *p, ns_solution *s, ns_status st, const ns_result *r,
                      const char *name)
{
    if (st == NS_NO_SOLUTION) {
        if (!lcp_certificate_ok(p, r))
            fail_msg("%s: no_solution without a valid certificate of infeasibility", name);
        printf("  %s: no_solution; Farkas certificate (%s) re-checked\n", name, r->cert.source);
        return;
    }
    if (st != NS_CONVERGED) fail_msg("%s: status %s", name, ns_status_name(st));
    const double *z = s->vec[0];
    long double *w = malloc(sizeof *w * (size_t)(p->n ? p->n : 1));
    residual(p->M, p->q, z, w);
    long double e = 0;
    for (ns_int i = 0; i < p->n; i++) {
        long double d = z[i] - fmaxl(0.0L, z[i] - w[i]);
        e += d * d;
    }
    long double nq = norm(p->q, p->n);
    e = sqrtl(e) / (nq > 0 ? nq : 1);
    free(w);
    printf("  %s: lcp n=%d error %.3Lg\n", name, p->n, e);
    if (!(e <= TOL)) fail_msg("%s: recomputed error %.3Lg > %g", name, e, TOL);
}

static void check_relay(const ns_relay *p, ns_solution *s, ns_status st, const char *name)
{
    if (st != NS_CONVERGED) fail_msg("%s: status %s", name, ns_status_name(st));
    const double *z = s->vec[0];
    long double *w = malloc(sizeof *w * (size_t)(p->n ? p->n : 1));
    residual(p->M, p->q, z, w);
    long double e = 0;
    for (ns_int i = 0; i < p->n; i++) {
        long double x = z[i] - w[i];
        if (x < p->lb[i]) x = p->lb[i];
        if (x > p->ub[i]) x = p->ub[i];
        e += (z[i] - x) * (z[i] - x);
    }
    e = sqrtl(e) / (1 + norm(p->q, p->n));
    free(w);
    printf("  %s: relay n=%d error %.3Lg\n", name, p->n, e);
    if (!(e <= TOL)) fail_msg("%s: recomputed error %.3Lg > %g", name, e, TOL);
}

/* MLCP: the equality rows and the complementarity conditions checked
 * directly (scaled by 1 + ‖q‖), and the kind's error (Siconos' formula,
 * docs/errors.md) recomputed by the library from the returned (u, v). */
static void check_mlcp(const ns_mlcp *p, ns_solution *s, ns_status st, const char *name)
{
    if (st != NS_CONVERGED)
        fail_msg("%s: status %s", name, ns_status_name(st));
    ns_int N = p->n + p->m;
    double *z = malloc(sizeof *z * (size_t)N), *wl = malloc(sizeof *wl * (size_t)N);
    long double *w = malloc(sizeof *w * (size_t)N);
    memcpy(z, s->vec[0], sizeof *z * (size_t)p->n);
    memcpy(z + p->n, s->vec[1], sizeof *z * (size_t)p->m);
    residual(p->M, p->q, z, w);
    long double scale = 1 + norm(p->q, N), eq = 0, cp = 0;
    for (ns_int k = 0; k < p->nblocks; k++)
        for (ns_int i = p->block_start[k]; i < p->block_start[k + 1]; i++) {
            if (p->block_kind[k] == 0) eq = fmaxl(eq, fabsl(w[i]));
            else cp = fmaxl(cp, fabsl(fminl((long double)z[i], w[i])));
        }
    double e = ns_mlcp_error(p, z, wl);
    printf("  %s: mlcp n=%d m=%d error %.3g, max|w_eq|/s %.3Lg, max|min(v,w)|/s %.3Lg\n",
           name, p->n, p->m, e, eq / scale, cp / scale);
    if (!(e <= TOL)) fail_msg("%s: error %.3g > %g", name, e, TOL);
    if (!(eq / scale <= TOL && cp / scale <= TOL))
        fail_msg("%s: equality or complementarity violated", name);
    free(z); free(wl); free(w);
}

static void solve_dir(const char *sub, ns_kind kind, const char *solver)
{
    char dir[1024];
    ns_test_data_path(dir, sizeof dir, sub);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int count = 0;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".dat")) continue;
        char path[2048], err[NS_ERRMSG_LEN];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ns_problem *p = NULL;
        assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &p, err), NS_OK);
        assert_int_equal(p->kind, kind);
        if (ns_problem_validate(p, err) != NS_OK) {
            /* only the rectangular MLCP curiosity may be rejected */
            if (!strstr(err, "rectangular")) fail_msg("%s: %s", e->d_name, err);
            printf("  %s: rejected as expected: %s\n", e->d_name, err);
            ns_problem_free(p);
            continue;
        }
        ns_solution *s = ns_solution_new(p);
        ns_options o;
        ns_options_default(&o);
        o.tol = TOL;
        o.time_limit = 30;
        ns_result r;
        ns_status st = ns_solve(p, solver, &o, s, &r);
        if (kind == NS_KIND_LCP) check_lcp(p->u.lcp, s, st, &r, e->d_name);
        else if (kind == NS_KIND_RELAY) check_relay(p->u.relay, s, st, e->d_name);
        else check_mlcp(p->u.mlcp, s, st, e->d_name);
        ns_result_clear(&r);
        ns_solution_free(s);
        ns_problem_free(p);
        count++;
    }
    closedir(d);
    assert_true(count > 0);
}

static void test_lcp_dir(void **state) { (void)state; solve_dir("lcp", NS_KIND_LCP, NULL); }
static void test_mlcp_dir(void **state) { (void)state; solve_dir("mlcp", NS_KIND_MLCP, NULL); }
/* Lemke alone, no fallback: the singular equality blocks of PD, diodeBridge
 * and diodeBridge20 are completed by complementarity rows (mlcp_schur.c) */
static void test_mlcp_dir_lemke(void **state)
{
    (void)state;
    solve_dir("mlcp", NS_KIND_MLCP, "lemke");
}
static void test_relay_dir(void **state) { (void)state; solve_dir("relay", NS_KIND_RELAY, NULL); }

int main(void)
{
    if (!ns_test_data_dir()) {
        printf("../shared/data not found: collection test skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lcp_dir),
        cmocka_unit_test(test_mlcp_dir),
        cmocka_unit_test(test_mlcp_dir_lemke),
        cmocka_unit_test(test_relay_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
