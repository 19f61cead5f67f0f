/* test_rfc_ipm.c — the interior-point solver "ipm" of the rolling kinds
 * (RFC3D d = 5 and 6, RFC2D d = 3, GRFC3D): analytic one-contact cases
 * with their exact answer, every file of ../shared/rolling-data/rfc3d and
 * grfc3d, generated multi-contact problems, a warm start that is already a
 * solution, bad input.
 *
 * Answers are checked here, independently of the library: u = W r + q from
 * a dense copy of W, and per contact r ∈ K (‖r_T‖ ≤ μ r_N, ‖r_R‖ ≤ μr r_N,
 * |r_P| ≤ μp r_N), û ∈ K* (û_N ≥ μ‖û_T‖ + μr‖û_R‖ + μp|û_P|) and r·û = 0,
 * with û = u + (μ‖u_T‖ + μr‖u_R‖ + μp|u_P|) e_N, every violation divided
 * by max(‖q‖, ‖r‖, ‖u‖). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nonsmooth/nonsmooth.h"
#include "nonsmooth/ns_rfc.h"
#include "rfc/rfc_internal.h"
#include "ns_test.h"

static double nrm(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}

/* the parts of a d-vector, written out here: (offset, length) */
static int parts(int d, int off[3], int len[3])
{
    if (d == 3) { off[0] = 1; off[1] = 2; len[0] = len[1] = 1; return 2; }
    off[0] = 1; off[1] = 3; len[0] = len[1] = 2;
    if (d == 6) { off[2] = 5; len[2] = 1; return 3; }
    return 2;
}

/* worst violation of the rolling law, relative to max(‖q‖, ‖r‖, ‖u‖);
 * u = W r + q computed here from the dense W (column-major, m × m) */
static double law_violation(int d, int nc, const double *W, const double *q, const double *mu,
                            const double *mur, const double *mup, const double *r, double *u)
{
    const int m = d * nc;
    for (int i = 0; i < m; i++) {
        double s = q[i];
        for (int j = 0; j < m; j++) s += W[i + (size_t)j * m] * r[j];
        u[i] = s;
    }
    double scale = fmax(nrm(q, m), fmax(nrm(r, m), nrm(u, m)));
    if (scale < 1e-300) scale = 1.0;
    int off[3], len[3];
    const int np = parts(d, off, len);
    double worst = 0;
    for (int a = 0; a < nc; a++) {
        const double *ra = r + a * d, *ua = u + a * d;
        double c[3] = { mu[a], mur[a], d == 6 ? mup[a] : 0.0 }, uh[6];
        memcpy(uh, ua, (size_t)d * sizeof *uh);
        for (int p = 0; p < np; p++) uh[0] += c[p] * nrm(ua + off[p], len[p]);
        double dual = uh[0];
        worst = fmax(worst, -ra[0]);
        for (int p = 0; p < np; p++) {
            worst = fmax(worst, nrm(ra + off[p], len[p]) - c[p] * ra[0]);   /* r ∈ K */
            dual -= c[p] * nrm(uh + off[p], len[p]);
        }
        worst = fmax(worst, -dual);                                         /* û ∈ K* */
        double dot = 0;
        for (int k = 0; k < d; k++) dot += ra[k] * uh[k];
        worst = fmax(worst, fabs(dot) / scale);                            /* r·û = 0 */
    }
    return worst / scale;
}

static ns_matrix *dense_from(int m, const double *W)
{
    ns_matrix *A = ns_matrix_dense_new(m, m);
    memcpy(A->dense, W, (size_t)m * m * sizeof *W);
    return A;
}

static ns_status solve_ipm(const ns_problem *P, const ns_options *o, double *r, double *u,
                           ns_result *res)
{
    ns_solution *s = ns_solution_new(P);
    assert_non_null(s);
    ns_int m = ns_problem_size(P);
    if (o->warm_start) memcpy(ns_solution_get(s, "r"), r, (size_t)m * sizeof *r);
    ns_result_init(res);
    ns_status st = ns_solve(P, "ipm", o, s, res);
    memcpy(r, ns_solution_get(s, "r"), (size_t)m * sizeof *r);
    memcpy(u, ns_solution_get(s, "u"), (size_t)m * sizeof *u);
    ns_solution_free(s);
    return st;
}

/* ------------------------------------------------ one contact, exact */

/* a symmetric positive definite d×d W: B Bᵀ + I from a fixed B */
static void spd(int d, double *W)
{
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++) {
            double s = i == j ? 1.0 : 0.0;
            for (int k = 0; k < d; k++) s += 0.3 * sin(1.0 + i + 2.0 * k) * 0.3 * sin(1.0 + j + 2.0 * k);
            W[i + d * j] = s;
        }
}

/* q = u* − W r* for (r*, u*) satisfying the law: with W definite the
 * one-contact problem with small coefficients has r* as its only
 * solution; ipm must find it */
static void check_constructed(int d, const double *rstar, const double *ustar, double mu,
                              double mur, double mup)
{
    double W[36], q[6], u[6], r[6];
    spd(d, W);
    for (int i = 0; i < d; i++) {
        q[i] = ustar[i];
        for (int j = 0; j < d; j++) q[i] -= W[i + d * j] * rstar[j];
    }
    assert_true(law_violation(d, 1, W, q, &mu, &mur, &mup, rstar, u) < 1e-14);
    ns_rfc *p = ns_rfc_new(d, 1, dense_from(d, W), q, &mu, &mur);
    assert_non_null(p);
    if (d == 6) p->mu_p[0] = mup;
    ns_problem *P = ns_problem_from_rfc(p);
    assert_non_null(P);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-10;
    ns_result res;
    assert_int_equal(solve_ipm(P, &o, r, u, &res), NS_CONVERGED);
    assert_true(res.error <= 1e-10);
    double uo[6];
    assert_true(law_violation(d, 1, W, q, &mu, &mur, &mup, r, uo) <= 1e-8);
    for (int i = 0; i < d; i++) assert_true(fabs(r[i] - rstar[i]) <= 1e-6);
    ns_problem_free(P);
}

static void test_sticking(void **state)
{
    (void)state;
    const double r[5] = { 2.0, 0.3, -0.2, 0.08, 0.1 }, u[5] = { 0 };
    check_constructed(5, r, u, 0.5, 0.1, 0.0);
}

static void test_sliding(void **state)
{
    (void)state;
    /* sliding at the bound along t, rolling stuck */
    const double mu = 0.5, mur = 0.1, rn = 1.5, t[2] = { 0.6, -0.8 };
    double r[5] = { rn, -mu * rn * t[0], -mu * rn * t[1], 0.05, -0.02 };
    double u[5] = { 0, 0.4 * t[0], 0.4 * t[1], 0, 0 };
    check_constructed(5, r, u, mu, mur, 0.0);
}

static void test_rolling_saturation(void **state)
{
    (void)state;
    /* stuck in sliding, rolling at the bound; then both saturated */
    const double mu = 0.5, mur = 0.1, rn = 1.5, lam = 0.7, s[2] = { 0.6, -0.8 };
    double r[5] = { rn, 0.2, 0.1, -mur * rn * s[0], -mur * rn * s[1] };
    double u[5] = { 0, 0, 0, lam * s[0], lam * s[1] };
    check_constructed(5, r, u, mu, mur, 0.0);
    double r2[5] = { rn, mu * rn, 0, -mur * rn * s[0], -mur * rn * s[1] };
    double u2[5] = { 0, -0.4, 0, lam * s[0], lam * s[1] };
    check_constructed(5, r2, u2, mu, mur, 0.0);
}

static void test_take_off(void **state)
{
    (void)state;
    double r[5] = { 0 }, u[5] = { 0.5, 0.3, -0.1, 0.2, 0.0 };
    check_constructed(5, r, u, 0.5, 0.1, 0.0);
    double r6[6] = { 0 }, u6[6] = { 0.5, 0.3, -0.1, 0.2, 0.0, -0.3 };
    check_constructed(6, r6, u6, 0.5, 0.1, 0.05);
    double r3[3] = { 0 }, u3[3] = { 0.2, -0.1, 0.4 };
    check_constructed(3, r3, u3, 0.4, 0.05, 0.0);
}

static void test_pivot_and_2d(void **state)
{
    (void)state;
    /* d = 6: pivoting at its bound, the rest stuck */
    const double mu = 0.5, mur = 0.1, mup = 0.05, rn = 2.0;
    double r6[6] = { rn, 0.1, 0.2, 0.05, -0.03, -mup * rn };
    double u6[6] = { 0, 0, 0, 0, 0, 0.3 };
    check_constructed(6, r6, u6, mu, mur, mup);
    /* d = 6: everything saturated */
    double r6b[6] = { rn, -mu * rn, 0, 0, mur * rn, mup * rn };
    double u6b[6] = { 0, 0.2, 0, 0, -0.1, -0.4 };
    check_constructed(6, r6b, u6b, mu, mur, mup);
    /* d = 3: sliding and rolling in the plane */
    double r3[3] = { 1.0, 0.4, -0.05 }, u3[3] = { 0, -0.2, 0.3 };
    check_constructed(3, r3, u3, 0.4, 0.05, 0.0);
    double r3b[3] = { 1.0, 0.1, 0.02 }, u3b[3] = { 0, 0, 0 };
    check_constructed(3, r3b, u3b, 0.4, 0.05, 0.0);
}

/* W = diag(1, 1, 1, w, w), q = (−1, 0, 0, q_R, 0): r_N = 1 and the rolling
 * part is a problem of its own, r_R = −q_R/w below the threshold w μr,
 * −μr at and above it */
static void test_rolling_threshold(void **state)
{
    (void)state;
    const double w = 4.0, mu = 0.3, mur = 0.05;
    for (int k = 0; k < 30; k++) {
        double qR = 0.013 * k, W[25] = { 0 }, q[5] = { -1, 0, 0, qR, 0 }, r[5], u[5];
        W[0] = W[6] = W[12] = 1; W[18] = W[24] = w;
        ns_problem *P = ns_problem_from_rfc(ns_rfc_new(5, 1, dense_from(5, W), q, &mu, &mur));
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-12;
        ns_result res;
        assert_int_equal(solve_ipm(P, &o, r, u, &res), NS_CONVERGED);
        double want = qR <= w * mur ? -qR / w : -mur;
        assert_true(fabs(r[0] - 1.0) < 1e-8);
        assert_true(fabs(r[3] - want) < 1e-8);
        assert_true(fabs(r[1]) < 1e-8 && fabs(r[2]) < 1e-8 && fabs(r[4]) < 1e-8);
        ns_problem_free(P);
    }
}

/* a coefficient 0: that part's reaction is 0 whatever the velocity */
static void test_zero_coefficient(void **state)
{
    (void)state;
    double W[25], q[5] = { -1, 0.3, -0.2, 0.4, 0.1 }, r[5], u[5], uo[5];
    spd(5, W);
    const double mu = 0.4, mur = 0.0, mup = 0.0;
    ns_problem *P = ns_problem_from_rfc(ns_rfc_new(5, 1, dense_from(5, W), q, &mu, &mur));
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-10;
    ns_result res;
    assert_int_equal(solve_ipm(P, &o, r, u, &res), NS_CONVERGED);
    assert_true(r[3] == 0.0 && r[4] == 0.0);
    assert_true(law_violation(5, 1, W, q, &mu, &mur, &mup, r, uo) <= 1e-8);
    ns_problem_free(P);
}

/* ---------------------------------------------- generated, the files */

static void check_problem(const ns_problem *P, double tol, const char *name)
{
    const ns_rfc *p = P->u.rfc;
    const int d = p->dim, m = d * (int)p->nc;
    ns_matrix *Wd = ns_matrix_to_dense(p->W);
    assert_non_null(Wd);
    double *r = calloc((size_t)m + 1, sizeof *r), *u = calloc((size_t)m + 1, sizeof *u),
           *uo = calloc((size_t)m + 1, sizeof *uo);
    ns_options o;
    ns_options_default(&o);
    o.tol = tol;
    ns_result res;
    ns_status st = solve_ipm(P, &o, r, u, &res);
    double v = law_violation(d, (int)p->nc, Wd->dense, p->q, p->mu, p->mu_r, p->mu_p, r, uo);
    if (st != NS_CONVERGED || v > 1e-6)
        print_message("%s: status %d error %.3e law violation %.3e\n", name, (int)st, res.error, v);
    assert_int_equal(st, NS_CONVERGED);
    assert_true(res.error <= tol);
    assert_true(v <= 1e-6);
    /* the warm start from that solution returns at once */
    o.warm_start = 1;
    double *r2 = malloc(((size_t)m + 1) * sizeof *r2);
    memcpy(r2, r, (size_t)m * sizeof *r);
    ns_result res2;
    assert_int_equal(solve_ipm(P, &o, r2, uo, &res2), NS_CONVERGED);
    assert_int_equal(res2.iterations, 0);
    assert_memory_equal(r2, r, (size_t)m * sizeof *r);
    free(r); free(u); free(uo); free(r2);
    ns_matrix_free(Wd);
}

static void test_generated(void **state)
{
    (void)state;
    ns_rng g;
    ns_rng_seed(&g, 7);
    const int dims[3] = { 3, 5, 6 };
    for (int t = 0; t < 12; t++) {
        int d = dims[t % 3], nc = 2 + t, m = d * nc, n = m / 2 + 3;
        /* W = H Hᵀ + 1e-3 I with H (m × n): contacts coupled, W semidefinite-ish */
        double *H = malloc((size_t)m * n * sizeof *H), *W = calloc((size_t)m * m, sizeof *W);
        double *q = malloc((size_t)m * sizeof *q), mu[16], mur[16];
        for (int i = 0; i < m * n; i++) H[i] = ns_rng_uniform(&g) - 0.5;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) {
                double s = i == j ? 1e-3 : 0.0;
                for (int k = 0; k < n; k++) s += H[i + m * k] * H[j + m * k];
                W[i + m * j] = s;
            }
        for (int i = 0; i < m; i++) q[i] = ns_rng_uniform(&g) - (i % d == 0 ? 0.8 : 0.5);
        for (int a = 0; a < nc; a++) { mu[a] = 0.1 + 0.8 * ns_rng_uniform(&g); mur[a] = 0.3 * ns_rng_uniform(&g); }
        ns_matrix *Wm = dense_from(m, W);
        if (t % 2) {   /* BLOCK storage every other time */
            ns_matrix *Wb = ns_matrix_to_block_uniform(Wm, d);
            ns_matrix_free(Wm);
            Wm = Wb;
        }
        ns_rfc *p = ns_rfc_new(d, nc, Wm, q, mu, mur);
        assert_non_null(p);
        if (d == 6)
            for (int a = 0; a < nc; a++) p->mu_p[a] = 0.2 * ns_rng_uniform(&g);
        ns_problem *P = ns_problem_from_rfc(p);
        char name[32];
        snprintf(name, sizeof name, "generated %d", t);
        check_problem(P, 1e-8, name);
        ns_problem_free(P);
        free(H); free(W); free(q);
    }
}

/* Every file of ../shared/rolling-data/SUB (read in place) is of kind
 * `kind` and passes `check`; returns how many there were (skips the test
 * when the shared data are not there). */
static int each_file(const char *sub, ns_kind kind, void (*check)(ns_problem *, const char *))
{
    const char *data = ns_test_data_dir();
    char dir[1024];
    if (!data) skip();
    snprintf(dir, sizeof dir, "%s/../rolling-data/%s", data, sub);
    DIR *D = opendir(dir);
    if (!D) skip();
    struct dirent *e;
    int n = 0;
    while ((e = readdir(D))) {
        if (e->d_name[0] == '.') continue;
        char path[2048], err[NS_ERRMSG_LEN];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ns_problem *P = NULL;
        assert_int_equal(ns_problem_read(path, NS_KIND_NONE, &P, err), NS_OK);
        assert_int_equal(P->kind, kind);
        check(P, e->d_name);
        ns_problem_free(P);
        n++;
    }
    closedir(D);
    return n;
}

static void check_local_file(ns_problem *P, const char *name) { check_problem(P, 1e-8, name); }

static void test_files(void **state)
{
    (void)state;
    assert_true(each_file("rfc3d", NS_KIND_RFC3D, check_local_file) >= 5);
}

/* ------------------------------------------------------------ refused */

static void test_bad_input(void **state)
{
    (void)state;
    double W[25], q[5] = { -1, 0, 0, 0, 0 }, r[5], u[5];
    const double mu = 0.3, mur = 0.1;
    spd(5, W);
    ns_options o;
    ns_options_default(&o);
    ns_result res;
    ns_result_init(&res);
    assert_int_equal(ns_rfc_ipm(NULL, r, u, &o, &res), NS_BAD_INPUT);
    ns_rfc *p = ns_rfc_new(5, 1, dense_from(5, W), q, &mu, &mur);
    assert_int_equal(ns_rfc_ipm(p, NULL, u, &o, &res), NS_BAD_INPUT);
    assert_int_equal(ns_rfc_ipm(p, r, NULL, &o, &res), NS_BAD_INPUT);
    assert_int_equal(ns_rfc_ipm(p, r, u, NULL, &res), NS_BAD_INPUT);
    /* a negative coefficient, a non-finite q */
    p->mu_r[0] = -0.1;
    assert_int_equal(ns_rfc_ipm(p, r, u, &o, &res), NS_BAD_INPUT);
    p->mu_r[0] = 0.1;
    p->q[2] = NAN;
    assert_int_equal(ns_rfc_ipm(p, r, u, &o, &res), NS_BAD_INPUT);
    p->q[2] = 0.0;
    /* a d = 5 problem posed as RFC2D is refused by the kind */
    ns_problem *P = ns_problem_from_rfc(p);
    assert_non_null(P);
    P->kind = NS_KIND_RFC2D;
    ns_solution *s = ns_solution_new(P);
    ns_result_init(&res);
    ns_status st = ns_solve(P, "ipm", &o, s, &res);
    assert_int_equal(st, NS_BAD_INPUT);
    ns_solution_free(s);
    P->kind = NS_KIND_RFC3D;
    ns_problem_free(P);
}

/* ------------------------------------------------------------- GRFC3D */

/* GRFC3D (M, H, q, b): M v = H r + q checked and the law checked on
 * (r, u = Hᵀ v + b), both computed here from dense copies */
static void check_global(const ns_problem *P, double tol, const char *name, double *rout)
{
    const ns_grfc *p = P->u.grfc;
    const int n = (int)p->n, nc = (int)p->nc, m = 5 * nc;
    ns_matrix *Md = ns_matrix_to_dense(p->M), *Hd = ns_matrix_to_dense(p->H);
    assert_non_null(Md);
    assert_non_null(Hd);
    ns_options o;
    ns_options_default(&o);
    o.tol = tol;
    ns_solution *s = ns_solution_new(P);
    ns_result res;
    ns_result_init(&res);
    ns_status st = ns_solve(P, "ipm", &o, s, &res);
    const double *v = ns_solution_get(s, "v"), *r = ns_solution_get(s, "r");
    double *u = calloc((size_t)m + 1, sizeof *u), *eq = calloc((size_t)n + 1, sizeof *eq);
    double *W = calloc((size_t)m * m + 1, sizeof *W), *q0 = calloc((size_t)m + 1, sizeof *q0);
    double *uo = calloc((size_t)m + 1, sizeof *uo);
    for (int j = 0; j < m; j++) {
        u[j] = p->b[j];
        for (int i = 0; i < n; i++) u[j] += Hd->dense[i + (size_t)n * j] * v[i];
    }
    double en = 0, sc = 1e-300;
    for (int i = 0; i < n; i++) {
        double t = -p->q[i];
        for (int j = 0; j < n; j++) t += Md->dense[i + (size_t)n * j] * v[j];
        for (int j = 0; j < m; j++) t -= Hd->dense[i + (size_t)n * j] * r[j];
        en += t * t;
        sc = fmax(sc, fabs(p->q[i]));
    }
    /* the law on (r, u): W = 0, q = u makes law_violation use u itself */
    double v_law = law_violation(5, nc, W, u, p->mu, p->mu_r, NULL, r, uo);
    if (st != NS_CONVERGED || v_law > 1e-6 || sqrt(en) > 1e-6 * fmax(1.0, sc))
        print_message("%s: status %d error %.3e law %.3e equation %.3e\n", name, (int)st, res.error, v_law, sqrt(en));
    assert_int_equal(st, NS_CONVERGED);
    assert_true(res.error <= tol);
    assert_true(v_law <= 1e-6);
    assert_true(sqrt(en) <= 1e-6 * fmax(1.0, sc));
    if (rout) memcpy(rout, r, (size_t)m * sizeof *r);
    /* a warm start from the answer returns at once */
    o.warm_start = 1;
    ns_result_init(&res);
    assert_int_equal(ns_solve(P, "ipm", &o, s, &res), NS_CONVERGED);
    assert_int_equal(res.iterations, 0);
    ns_solution_free(s);
    free(u); free(eq); free(W); free(q0); free(uo);
    ns_matrix_free(Md);
    ns_matrix_free(Hd);
}

/* M = diag(1, 1, 1, 1/w, 1/w), H = I, q = 0, b = (−1, 0, 0, q_R, 0): the
 * reduced problem is the rolling threshold case (W = diag(1, 1, 1, w, w)) */
static void test_global_threshold(void **state)
{
    (void)state;
    const double w = 4.0, mu = 0.3, mur = 0.05;
    for (int k = 0; k < 12; k++) {
        double qR = 0.037 * k, q[5] = { 0 }, b[5] = { -1, 0, 0, qR, 0 }, r[5];
        ns_matrix *M = ns_matrix_dense_new(5, 5), *H = ns_matrix_dense_new(5, 5);
        for (int i = 0; i < 5; i++) { M->dense[6 * i] = i < 3 ? 1.0 : 1.0 / w; H->dense[6 * i] = 1.0; }
        ns_problem *P = ns_problem_from_grfc(ns_grfc_new(5, 1, M, H, q, b, &mu, &mur));
        assert_non_null(P);
        check_global(P, 1e-10, "threshold", r);
        double want = qR <= w * mur ? -qR / w : -mur;
        assert_true(fabs(r[0] - 1.0) < 1e-8);
        assert_true(fabs(r[3] - want) < 1e-8);
        ns_problem_free(P);
    }
}

static void check_global_file(ns_problem *P, const char *name) { check_global(P, 1e-8, name, NULL); }

static void test_global_files(void **state)
{
    (void)state;
    assert_true(each_file("grfc3d", NS_KIND_GRFC3D, check_global_file) >= 2);
}

static void test_global_bad_input(void **state)
{
    (void)state;
    double q[5] = { 0 }, b[5] = { -1, 0, 0, 0, 0 }, v[5], u[5], r[5];
    const double mu = 0.3, mur = 0.1;
    ns_matrix *M = ns_matrix_dense_new(5, 5), *H = ns_matrix_dense_new(5, 5);
    for (int i = 0; i < 5; i++) { M->dense[6 * i] = 1.0; H->dense[6 * i] = 1.0; }
    ns_grfc *p = ns_grfc_new(5, 1, M, H, q, b, &mu, &mur);
    ns_options o;
    ns_options_default(&o);
    ns_result res;
    ns_result_init(&res);
    assert_int_equal(ns_grfc_ipm(NULL, v, u, r, &o, &res), NS_BAD_INPUT);
    assert_int_equal(ns_grfc_ipm(p, NULL, u, r, &o, &res), NS_BAD_INPUT);
    assert_int_equal(ns_grfc_ipm(p, v, u, NULL, &o, &res), NS_BAD_INPUT);
    p->mu[0] = NAN;
    assert_int_equal(ns_grfc_ipm(p, v, u, r, &o, &res), NS_BAD_INPUT);
    ns_grfc_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sticking),
        cmocka_unit_test(test_sliding),
        cmocka_unit_test(test_rolling_saturation),
        cmocka_unit_test(test_take_off),
        cmocka_unit_test(test_pivot_and_2d),
        cmocka_unit_test(test_rolling_threshold),
        cmocka_unit_test(test_zero_coefficient),
        cmocka_unit_test(test_generated),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_global_threshold),
        cmocka_unit_test(test_global_files),
        cmocka_unit_test(test_global_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
