/* test_lcp_families.c — the default
 * solver (auto) on every instance of the hard LCP families
 * (tools/gen_data/gen_families.c, in memory, sizes up to 200×200 games and
 * n = 300), on every file of data/lcp and on every LCP, MLCP and relay file
 * of ../shared/data returns either
 *   converged, with the error recomputed here (long double, own code) ≤ 1e-10,
 *   or no_solution with a Farkas certificate that this test checks with its
 *   own arithmetic (signs of y, Mᵀy against the sizes of its terms, qᵀy < 0);
 * never an uncertified no_solution, never anything else. Instances built
 * infeasible must come back no_solution, every other one converged. Prints
 * the table per family (solved, certified infeasible, failed, time).
 * Also: ppm alone on the P-matrix families; lemke alone on a game is failed
 * (its ray is no certificate), not no_solution. */
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
#include <time.h>
#include "nonsmooth/nonsmooth.h"
#include "gen_families.h"
#include "ns_test.h"

#define TOL 1e-10
#define CERT_TOL 1e-9   /* looser than the library's 1e-10: an independent check */

typedef struct tally { const char *name; int solved, infeasible, failed, count; double secs; } tally;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double *dense(const ns_matrix *M)
{
    ns_matrix *D = ns_matrix_to_dense(M);
    assert_non_null(D);
    double *A = malloc(sizeof *A * (size_t)M->rows * (size_t)M->cols + 1);
    memcpy(A, D->dense, sizeof *A * (size_t)M->rows * (size_t)M->cols);
    ns_matrix_free(D);
    return A;
}

/* The mixed form of every kind: z_j ∈ [lo_j, hi_j]; row sign t_i: 1 w ≥ 0,
 * -1 w ≤ 0, 2 w = 0, 0 unrestricted (relay box). Solutions: z in the box and
 * complementarity; certificates: see ns_solver.h. */
typedef struct mixed { int n; double *M; const double *q; double *lo, *hi; int *t; } mixed;

static mixed to_mixed(const ns_problem *p)
{
    mixed x;
    memset(&x, 0, sizeof x);
    const ns_matrix *M = NULL;
    if (p->kind == NS_KIND_LCP) { x.n = p->u.lcp->n; M = p->u.lcp->M; x.q = p->u.lcp->q; }
    else if (p->kind == NS_KIND_MLCP) { x.n = p->u.mlcp->n + p->u.mlcp->m; M = p->u.mlcp->M; x.q = p->u.mlcp->q; }
    else { x.n = p->u.relay->n; M = p->u.relay->M; x.q = p->u.relay->q; }
    x.M = dense(M);
    x.lo = malloc(sizeof(double) * (size_t)x.n + 1);
    x.hi = malloc(sizeof(double) * (size_t)x.n + 1);
    x.t = malloc(sizeof(int) * (size_t)x.n + 1);
    for (int i = 0; i < x.n; i++) { x.lo[i] = 0; x.hi[i] = INFINITY; x.t[i] = 1; }
    if (p->kind == NS_KIND_MLCP) {
        const ns_mlcp *m = p->u.mlcp;
        for (ns_int k = 0; k < m->nblocks; k++)
            for (ns_int i = m->block_start[k]; i < m->block_start[k + 1]; i++)
                if (m->block_kind[k] == 0) { x.lo[i] = -INFINITY; x.t[i] = 2; }
    } else if (p->kind == NS_KIND_RELAY) {
        for (int i = 0; i < x.n; i++) {
            x.lo[i] = p->u.relay->lb[i]; x.hi[i] = p->u.relay->ub[i];
            int fl = isfinite(x.lo[i]), fu = isfinite(x.hi[i]);
            x.t[i] = fl && fu ? 0 : fl ? 1 : fu ? -1 : 2;
        }
    }
    return x;
}

static void mixed_free(mixed *x) { free(x->M); free(x->lo); free(x->hi); free(x->t); }

/* natural-map residual ‖z − P(z − w)‖ / (1 + ‖q‖), P the box projection;
 * equality rows: |w_i| (free z_i) */
static long double mixed_error(const mixed *x, const double *z)
{
    long double e = 0, nq = 0;
    for (int i = 0; i < x->n; i++) {
        long double w = x->q[i];
        for (int j = 0; j < x->n; j++) w += (long double)x->M[i + (size_t)j * x->n] * z[j];
        long double v = z[i] - w;
        if (v < x->lo[i]) v = x->lo[i];
        if (v > x->hi[i]) v = x->hi[i];
        e += (z[i] - v) * (z[i] - v);
        nq += (long double)x->q[i] * x->q[i];
    }
    return sqrtl(e) / (1 + sqrtl(nq));
}

/* Farkas check, own arithmetic: returns 1 when valid */
static int mixed_cert(const mixed *x, const double *y, int len, char *why)
{
    if (!y || len != x->n) { sprintf(why, "no vector"); return 0; }
    long double h = 0, hs = 0;
    int nz = 0;
    for (int i = 0; i < x->n; i++) {
        if (!isfinite(y[i])) { sprintf(why, "y[%d] not finite", i); return 0; }
        if ((x->t[i] == 1 && y[i] < 0) || (x->t[i] == -1 && y[i] > 0) || (x->t[i] == 0 && y[i] != 0)) {
            sprintf(why, "y[%d] = %g wrong sign", i, y[i]);
            return 0;
        }
        nz |= y[i] != 0;
        h += (long double)y[i] * x->q[i];
        hs += fabsl((long double)y[i] * x->q[i]);
    }
    if (!nz) { sprintf(why, "y = 0"); return 0; }
    for (int j = 0; j < x->n; j++) {
        long double c = 0, s = 0;
        for (int i = 0; i < x->n; i++) {
            long double t = (long double)x->M[i + (size_t)j * x->n] * y[i];
            c += t; s += fabsl(t);
        }
        if (c > 0 && !isfinite(x->hi[j])) {
            if (c > CERT_TOL * s) { sprintf(why, "(M'y)[%d] = %Lg > 0", j, c); return 0; }
            continue;
        }
        if (c < 0 && !isfinite(x->lo[j])) {
            if (-c > CERT_TOL * s) { sprintf(why, "(M'y)[%d] = %Lg < 0", j, c); return 0; }
            continue;
        }
        long double sup = c > 0 ? c * x->hi[j] : c < 0 ? c * x->lo[j] : 0;
        h += sup; hs += fabsl(sup);
    }
    if (!(h < -CERT_TOL * hs)) { sprintf(why, "bound %Lg not negative", h); return 0; }
    return 1;
}

/* Solves with the default solver and checks. expect: 1 solvable, 0
 * infeasible, -1 unknown. Returns 0 solved, 1 certified, 2 failed. */
static int run_one(const ns_problem *p, const char *solver, int expect, const char *name,
                   double *secs, int verbose)
{
    ns_solution *s = ns_solution_new(p);
    assert_non_null(s);
    ns_options o;
    ns_options_default(&o);
    o.time_limit = 60;
    ns_result r;
    double t0 = now();
    ns_status st = ns_solve(p, solver, &o, s, &r);
    *secs += now() - t0;
    mixed x = to_mixed(p);
    int outcome = 2;
    char why[256] = "";
    if (st == NS_CONVERGED) {
        double *z = malloc(sizeof *z * (size_t)x.n + 1);
        if (p->kind == NS_KIND_MLCP) {
            memcpy(z, s->vec[0], sizeof *z * (size_t)p->u.mlcp->n);
            memcpy(z + p->u.mlcp->n, s->vec[1], sizeof *z * (size_t)p->u.mlcp->m);
        } else {
            memcpy(z, s->vec[0], sizeof *z * (size_t)x.n);
        }
        long double e = mixed_error(&x, z);
        /* the MLCP's own (Siconos) error too, as the library reports it */
        if (e <= TOL && (p->kind != NS_KIND_MLCP || r.error <= TOL)) outcome = 0;
        else sprintf(why, "recomputed error %.3Lg", e);
        free(z);
    } else if (st == NS_NO_SOLUTION) {
        if (r.cert.kind == NS_CERT_FARKAS && r.cert.checked && mixed_cert(&x, r.cert.y, r.cert.len, why))
            outcome = 1;
        else
            fail_msg("%s: no_solution without a valid certificate (%s)", name, why);
    } else {
        sprintf(why, "status %s: %.200s", ns_status_name(st), r.message);
    }
    if (verbose || outcome == 2 || now() - t0 > 0.3)
        printf("  %-36s %-12s %.3g s %s\n", name, outcome == 0 ? "solved" : outcome == 1
               ? "infeasible" : "FAILED", now() - t0, why);
    if (expect == 1 && outcome != 0) fail_msg("%s: solvable but %s", name, why);
    if (expect == 0 && outcome != 1) fail_msg("%s: infeasible but %s", name, why);
    mixed_free(&x);
    ns_result_clear(&r);
    ns_solution_free(s);
    return outcome;
}

static void print_table(const tally *t, int nt)
{
    printf("\n  %-14s %6s %7s %11s %7s %10s\n", "family", "count", "solved", "infeasible",
           "failed", "time (ms)");
    int total = 0;
    for (int k = 0; k < nt; k++) {
        printf("  %-14s %6d %7d %11d %7d %10.2f\n", t[k].name, t[k].count, t[k].solved,
               t[k].infeasible, t[k].failed, 1e3 * t[k].secs);
        total += t[k].count;
    }
    printf("  %-14s %6d\n\n", "total", total);
}

static void add(tally *t, int outcome)
{
    t->count++;
    if (outcome == 0) t->solved++; else if (outcome == 1) t->infeasible++; else t->failed++;
}

static void test_generated_families(void **state)
{
    (void)state;
    static const struct { const char *fam; int sizes[8]; int seeds; } plan[] = {
        { "bimatrix",     { 2, 5, 10, 30, 100, 200, 0 }, 2 },
        { "bimatrix-deg", { 2, 5, 10, 30, 100, 200, 0 }, 2 },
        { "pscaled",      { 5, 10, 30, 100, 300, 0 }, 2 },
        { "psd-range",    { 5, 10, 30, 100, 200, 0 }, 2 },
        { "copos-deg",    { 5, 10, 30, 100, 200, 0 }, 2 },
        { "murty",        { 4, 8, 12, 16, 0 }, 1 },
        { "infeasible",   { 3, 5, 10, 30, 100, 0 }, 2 },
    };
    enum { NF = sizeof plan / sizeof plan[0] };
    tally t[NF];
    memset(t, 0, sizeof t);
    int total = 0;
    for (int f = 0; f < NF; f++) {
        t[f].name = plan[f].fam;
        for (int k = 0; plan[f].sizes[k]; k++)
            for (int s = 0; s < plan[f].seeds; s++) {
                int sz = plan[f].sizes[k];
                uint64_t seed = 1000u * (unsigned)(f + 1) + 10u * (unsigned)k + (unsigned)s;
                ns_lcp *l = ns_gen_lcp(plan[f].fam, sz, seed);
                assert_non_null(l);
                ns_problem *p = ns_problem_from_lcp(l);
                char name[96];
                snprintf(name, sizeof name, "%s size %d seed %llu", plan[f].fam, sz,
                         (unsigned long long)seed);
                int expect = ns_gen_family_infeasible(plan[f].fam) ? 0 : 1;
                add(&t[f], run_one(p, NULL, expect, name, &t[f].secs, 0));
                ns_problem_free(p);
                total++;
            }
    }
    print_table(t, NF);
    assert_true(total >= 60);
}

/* every .dat under dir (kind read from the file) */
static void run_dir(const char *dir, tally *t, int expect_from_name)
{
    DIR *d = opendir(dir);
    if (!d) { printf("  %s: not found, skipped\n", dir); return; }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".dat")) continue;
        char path[2048], err[NS_ERRMSG_LEN];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ns_problem *p = NULL;
        assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &p, err), NS_OK);
        if (ns_problem_validate(p, err) != NS_OK) {   /* Rectangular_mlcp */
            printf("  %s: not a valid problem (%s), skipped\n", e->d_name, err);
            ns_problem_free(p);
            continue;
        }
        if (p->kind == NS_KIND_LCP || p->kind == NS_KIND_MLCP || p->kind == NS_KIND_RELAY) {
            int expect = -1;
            if (expect_from_name) expect = strstr(e->d_name, "infeasible") ? 0 : 1;
            add(t, run_one(p, NULL, expect, e->d_name, &t->secs, 0));
        }
        ns_problem_free(p);
    }
    closedir(d);
}

static void test_files(void **state)
{
    (void)state;
    tally t[4];
    memset(t, 0, sizeof t);
    t[0].name = "data/lcp";
    t[1].name = "shared lcp";
    t[2].name = "shared mlcp";
    t[3].name = "shared relay";
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/data/lcp", NS_SOURCE_DIR);
    run_dir(dir, &t[0], 1);
    if (ns_test_data_dir()) {
        run_dir(ns_test_data_path(dir, sizeof dir, "lcp"), &t[1], 0);
        run_dir(ns_test_data_path(dir, sizeof dir, "mlcp"), &t[2], 0);
        run_dir(ns_test_data_path(dir, sizeof dir, "relay"), &t[3], 0);
    }
    print_table(t, 4);
    for (int k = 0; k < 4; k++) assert_int_equal(t[k].failed, 0);
    assert_true(t[0].count > 0);
}

/* ppm alone solves the P-matrix families (unique solutions) */
static void test_ppm_alone(void **state)
{
    (void)state;
    static const char *fams[] = { "pscaled", "murty" };
    static const int sizes[] = { 5, 16, 60, 200 };
    double secs = 0;
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < 4; k++) {
            if (f == 1 && sizes[k] > 16) continue;
            ns_lcp *l = ns_gen_lcp(fams[f], sizes[k], 77 + (uint64_t)k);
            ns_problem *p = ns_problem_from_lcp(l);
            char name[64];
            snprintf(name, sizeof name, "ppm %s n=%d", fams[f], sizes[k]);
            run_one(p, "ppm", 1, name, &secs, 1);
            ns_problem_free(p);
        }
}

/* lemke alone on a game ends on a ray that is no certificate: failed */
static void test_lemke_ray_not_a_certificate(void **state)
{
    (void)state;
    ns_lcp *l = ns_gen_lcp("bimatrix", 10, 5);
    ns_problem *p = ns_problem_from_lcp(l);
    ns_solution *s = ns_solution_new(p);
    ns_result r;
    ns_status st = ns_solve(p, "lemke", NULL, s, &r);
    assert_int_equal(st, NS_FAILED);
    assert_int_equal(r.cert.kind, NS_CERT_NONE);
    assert_non_null(strstr(r.message, "no certificate"));
    ns_result_clear(&r);
    /* and a forged certificate is refused by the check */
    ns_certificate c;
    memset(&c, 0, sizeof c);
    c.kind = NS_CERT_FARKAS;
    c.len = p->u.lcp->n;
    double *y = calloc((size_t)c.len, sizeof *y);
    y[0] = 1.0;
    c.y = y;
    assert_int_equal(ns_certificate_check(p, &c, NULL), NS_FAILED);
    assert_int_equal(c.checked, 0);
    free(y);
    ns_solution_free(s);
    ns_problem_free(p);
}

static ns_matrix *dense2(double a, double b, double c, double d)   /* [[a, b], [c, d]] */
{
    ns_matrix *M = ns_matrix_dense_new(2, 2);
    M->dense[0] = a; M->dense[1] = c; M->dense[2] = b; M->dense[3] = d;
    return M;
}

/* relay and MLCP infeasible by construction: no_solution with a certificate
 * this test re-checks (own arithmetic); with the solvers that have no ray
 * (enum) the certificate comes from the driver's Farkas search */
static void test_relay_mlcp_certificates(void **state)
{
    (void)state;
    double secs = 0;
    const char *solvers[] = { NULL, "lemke", "enum" };
    /* relay, z >= 0 (no upper bound): the LCP z1 - z0 >= 1, z1 - z0 <= 0.5 */
    double q[2] = { -1, 0.5 }, lb[2] = { 0, 0 }, ub[2] = { INFINITY, INFINITY };
    /* relay with z <= 0 only: the same after z -> -z, M -> M, q -> -q */
    double q2[2] = { 1, -0.5 }, lb2[2] = { -INFINITY, -INFINITY }, ub2[2] = { 0, 0 };
    /* relay with one boxed variable: w0 = -z0 - z1 - 1 with z0 in [0, 1]
     * and z1 >= 0 gives w0 < 0, so z0 = ub0 = 1 ... and w1 = z0 - 1 + ... :
     * M = [[-1, -1], [0, -1]], q = (-1, -1): w1 = -z1 - 1 < 0 with z1 >= 0
     * (lower bound only) is infeasible */
    double q3[2] = { -1, -1 }, lb3[2] = { 0, 0 }, ub3[2] = { 1, INFINITY };
    for (int k = 0; k < 3; k++) {
        ns_relay *r1 = ns_relay_new(dense2(-1, 1, 1, -1), q, lb, ub);
        ns_relay *r2 = ns_relay_new(dense2(-1, 1, 1, -1), q2, lb2, ub2);
        ns_relay *r3 = ns_relay_new(dense2(-1, -1, 0, -1), q3, lb3, ub3);
        ns_problem *p1 = ns_problem_from_relay(r1), *p2 = ns_problem_from_relay(r2);
        ns_problem *p3 = ns_problem_from_relay(r3);
        char name[64];
        snprintf(name, sizeof name, "relay lb %s", solvers[k] ? solvers[k] : "auto");
        run_one(p1, solvers[k], 0, name, &secs, 1);
        snprintf(name, sizeof name, "relay ub %s", solvers[k] ? solvers[k] : "auto");
        run_one(p2, solvers[k], 0, name, &secs, 1);
        snprintf(name, sizeof name, "relay box %s", solvers[k] ? solvers[k] : "auto");
        run_one(p3, solvers[k], 0, name, &secs, 1);
        ns_problem_free(p1); ns_problem_free(p2); ns_problem_free(p3);
        /* MLCP: w_E = z_C + 1 = 0 forces z_C = -1 < 0 */
        double qm[2] = { 1, 0 };
        ns_mlcp *m = ns_mlcp_new(1, 1, dense2(0, 1, 1, 0), qm);
        ns_problem *pm = ns_problem_from_mlcp(m);
        snprintf(name, sizeof name, "mlcp %s", solvers[k] ? solvers[k] : "auto");
        run_one(pm, solvers[k], 0, name, &secs, 1);
        ns_problem_free(pm);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_families),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_ppm_alone),
        cmocka_unit_test(test_lemke_ray_not_a_certificate),
        cmocka_unit_test(test_relay_mlcp_certificates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
