/* test_ipm.c — the interior-point solvers "ipm" (GFC3D, FC3D) and the
 * outer-fixed-point variant "ipm-fp":
 *  - the cone algebra of the core: Nesterov–Todd scaling (W z = W⁻¹ x,
 *    W W⁻¹ = I, W² = W W) and the largest step to the cone's boundary;
 *  - one contact with known answers (take-off, stick, slide) for GFC3D (a
 *    particle on a plane, contact frame rotated so that H is full) and FC3D
 *    (W not a multiple of I), μ = 0 and large μ;
 *  - a hyperstatic box on 4 contacts (W = Hᵀ M⁻¹ H of rank 6 out of 12,
 *    reactions not unique): at rest, sticking, sliding, taking off. The
 *    velocities are checked against the analytic ones and Coulomb's law
 *    per contact (not the split of the reactions), for GFC3D and for the
 *    FC3D problem condensed here;
 *  - the files of ../shared/data (gfc3d, fclib/global; fc3d, fclib/local),
 *    the error recomputed here with this file's own loops;
 *  - options: warm start (a solution is returned as is; a perturbed one
 *    converges), max_iter, time_limit, log and verbosity, bad values. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "fc/fc_ipm.h"
#include "ns_test.h"

/* ---------- independent checks ---------- */

static double nrm(const double *x, ns_int n)
{
    double s = 0;
    for (ns_int i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}

/* y += A x and y += Aᵀ x for any storage, through a dense copy */
static void mv(const ns_matrix *A, const double *x, double *y, int trans)
{
    ns_matrix *D = ns_matrix_to_dense(A);
    assert_non_null(D);
    for (ns_int j = 0; j < A->cols; j++)
        for (ns_int i = 0; i < A->rows; i++) {
            double a = D->dense[i + (size_t)j * A->rows];
            if (trans) y[j] += a * x[i]; else y[i] += a * x[j];
        }
    ns_matrix_free(D);
}

/* ‖r − P_K(r − û)‖² for one 3D contact */
static double contact_sq(double mu, const double *r, const double *u)
{
    double ut = hypot(u[1], u[2]);
    double x[3] = { r[0] - u[0] - mu * ut, r[1] - u[1], r[2] - u[2] };
    double xt = hypot(x[1], x[2]);
    if (mu * xt <= -x[0]) {
        x[0] = x[1] = x[2] = 0;
    } else if (!(xt <= mu * x[0])) {
        double a = (x[0] + mu * xt) / (1 + mu * mu);
        x[1] = mu * a * x[1] / xt;
        x[2] = mu * a * x[2] / xt;
        x[0] = a;
    }
    return (r[0] - x[0]) * (r[0] - x[0]) + (r[1] - x[1]) * (r[1] - x[1]) + (r[2] - x[2]) * (r[2] - x[2]);
}

/* Siconos' FC3D error: u = W r + q, divided by max(‖q‖, ‖r‖, ‖u‖) */
static double own_fc_error(const ns_fc *p, const double *r)
{
    ns_int m = 3 * p->nc;
    double *u = malloc(sizeof(double) * (size_t)(m + 1));
    memcpy(u, p->q, sizeof(double) * (size_t)m);
    mv(p->W, r, u, 0);
    double s = 0;
    for (ns_int a = 0; a < p->nc; a++) s += contact_sq(p->mu[a], r + 3 * a, u + 3 * a);
    double e = sqrt(s), d = fmax(nrm(p->q, m), fmax(nrm(r, m), nrm(u, m)));
    free(u);
    return d > DBL_EPSILON ? e / d : e;
}

/* Siconos' GFC3D error from (v, r) alone (docs/errors.md) */
static double own_gfc_error(const ns_gfc *p, const double *v, const double *r)
{
    const ns_int n = p->n, m = 3 * p->nc;
    const double small = sqrt(DBL_EPSILON);
    double *Mv = calloc((size_t)n + 1, sizeof(double)), *Hr = calloc((size_t)n + 1, sizeof(double));
    double *u = calloc((size_t)m + 1, sizeof(double)), *res = calloc((size_t)n + 1, sizeof(double));
    mv(p->M, v, Mv, 0);
    mv(p->H, r, Hr, 0);
    for (ns_int i = 0; i < n; i++) res[i] = p->q[i] + Hr[i] - Mv[i];
    memcpy(u, p->b, sizeof(double) * (size_t)m);
    mv(p->H, v, u, 1);
    double s_eq = fmax(nrm(p->q, n), fmax(nrm(Mv, n), nrm(Hr, n)));
    double e_eq = nrm(res, n);
    if (s_eq > small) e_eq /= s_eq;
    double sc = 0;
    for (ns_int a = 0; a < p->nc; a++) sc += contact_sq(p->mu[a], r + 3 * a, u + 3 * a);
    double e_c = sqrt(sc), s_c = fmax(nrm(u, m), nrm(r, m));
    if (s_c > small) e_c /= s_c;
    free(Mv); free(Hr); free(u); free(res);
    return e_eq + e_c;
}

/* Coulomb's law on one contact, to tol (absolute): r ∈ K, u_N + μ‖u_T‖ ≥ 0,
 * r·û = 0, and r_T = −μ r_N u_T/‖u_T‖ when sliding. */
static void check_law(double mu, const double *r, const double *u, double tol, const char *what)
{
    double ut = hypot(u[1], u[2]), uh = u[0] + mu * ut;
    if (!(r[0] >= -tol && hypot(r[1], r[2]) <= mu * r[0] + tol))
        fail_msg("%s: r = (%g, %g, %g) outside the cone (mu %g)", what, r[0], r[1], r[2], mu);
    if (!(u[0] >= -tol)) fail_msg("%s: u_N = %g < 0", what, u[0]);
    if (!(fabs(r[0] * uh + r[1] * u[1] + r[2] * u[2]) <= tol))
        fail_msg("%s: r.u^ = %g", what, r[0] * uh + r[1] * u[1] + r[2] * u[2]);
    if (ut > 1e3 * tol && r[0] > tol)
        for (int k = 1; k < 3; k++)
            if (!(fabs(r[k] + mu * r[0] * u[k] / ut) <= tol * (1 + mu)))
                fail_msg("%s: sliding but r_T[%d] = %g, want %g", what, k, r[k], -mu * r[0] * u[k] / ut);
}

static ns_status solve(ns_problem *p, const char *solver, double tol, ns_solution **out,
                       ns_result *res)
{
    *out = ns_solution_new(p);
    assert_non_null(*out);
    ns_options o;
    ns_options_default(&o);
    o.tol = tol;
    return ns_solve(p, solver, &o, *out, res);
}

/* ---------- the cone algebra ---------- */

static void test_soc_algebra(void **state)
{
    (void)state;
    ns_rng g;
    ns_rng_seed(&g, 7);
    for (int k = 0; k < 200; k++) {
        double x[3], z[3], W[9], Wi[9], W2[9], W2i[9];
        for (int i = 1; i < 3; i++) { x[i] = ns_rng_range(&g, -1, 1); z[i] = ns_rng_range(&g, -1, 1); }
        /* from deep inside to 1e-8 of the boundary */
        double e = pow(10.0, -8.0 * ns_rng_uniform(&g));
        x[0] = hypot(x[1], x[2]) + e;
        z[0] = hypot(z[1], z[2]) + ns_rng_uniform(&g);
        assert_int_equal(ns_soc_nt(x, z, W, Wi, W2, W2i), 1);
        double sc = 1 + fabs(x[0]) + fabs(z[0]);
        for (int i = 0; i < 3; i++) {
            double wz = 0, wix = 0;
            for (int j = 0; j < 3; j++) { wz += W[i + 3 * j] * z[j]; wix += Wi[i + 3 * j] * x[j]; }
            assert_true(fabs(wz - wix) <= 1e-9 * sc);
            for (int j = 0; j < 3; j++) {
                double p = 0, q = 0, s = 0;
                for (int l = 0; l < 3; l++) {
                    p += W[i + 3 * l] * Wi[l + 3 * j];
                    q += W[i + 3 * l] * W[l + 3 * j];
                    s += Wi[i + 3 * l] * Wi[l + 3 * j];
                }
                assert_true(fabs(p - (i == j)) <= 1e-8);
                assert_true(fabs(q - W2[i + 3 * j]) <= 1e-9 * (1 + fabs(W2[i + 3 * j])));
                assert_true(fabs(s - W2i[i + 3 * j]) <= 1e-9 * (1 + fabs(W2i[i + 3 * j])));
            }
        }
        /* the step: x + α d on the boundary, inside just before */
        double d[3] = { ns_rng_range(&g, -2, 1), ns_rng_range(&g, -2, 2), ns_rng_range(&g, -2, 2) };
        x[0] += 0.5;
        double a = ns_soc_max_step(x, d);
        if (isfinite(a)) {
            double y[3] = { x[0] + a * d[0], x[1] + a * d[1], x[2] + a * d[2] };
            assert_true(fabs(y[0] - hypot(y[1], y[2])) <= 1e-9 * (1 + fabs(y[0])));
            double b = 0.999 * a;
            double w[3] = { x[0] + b * d[0], x[1] + b * d[1], x[2] + b * d[2] };
            assert_true(w[0] > hypot(w[1], w[2]));
        } else {
            double y[3] = { x[0] + 1e6 * d[0], x[1] + 1e6 * d[1], x[2] + 1e6 * d[2] };
            assert_true(y[0] >= hypot(y[1], y[2]));
        }
    }
    double out[3] = { 0.5, 1, 0 }, in[3] = { 1, 0, 0 }, t[9];
    assert_int_equal(ns_soc_nt(out, in, t, t, t, t), 0);
}

/* ---------- one contact ---------- */

typedef struct {
    const char *name;
    double q[3], mu, r[3], u[3]; /* answer in the contact frame, W = diag(2, 4, 4) */
} one_case;

/* FC3D with W = diag(2, 4, 4): u = W r + q. */
static const one_case cases[] = {
    { "take-off", { 1, .3, -.2 }, .5, { 0, 0, 0 }, { 1, .3, -.2 } },
    { "stick", { -2, .4, .8 }, .5, { 1, -.1, -.2 }, { 0, 0, 0 } },
    { "slide +x", { -2, 8, 0 }, .5, { 1, -.5, 0 }, { 0, 6, 0 } },
    { "slide 60deg", { -4, 3, 5.196152422706632 }, .3, { 2, -.3, -.5196152422706632 },
      { 0, 1.8, 3.1176914536239795 } },
    { "mu = 0", { -2, 2, 3 }, 0, { 1, 0, 0 }, { 0, 2, 3 } },
    { "mu = 50 stick", { -2, 8, 0 }, 50, { 1, -2, 0 }, { 0, 0, 0 } },
};

static void test_one_contact_fc3d(void **state)
{
    (void)state;
    const char *solvers[] = { "ipm", "ipm-fp" };
    for (size_t s = 0; s < 2; s++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            const one_case *c = &cases[k];
            ns_matrix *W = ns_matrix_dense_new(3, 3);
            W->dense[0] = 2; W->dense[4] = 4; W->dense[8] = 4;
            ns_problem *p = ns_problem_from_fc(ns_fc_new(3, 1, W, c->q, &c->mu));
            assert_non_null(p);
            ns_solution *sol;
            ns_result res;
            ns_status st = solve(p, solvers[s], 1e-12, &sol, &res);
            if (st != NS_CONVERGED) fail_msg("%s %s: %s (%s)", solvers[s], c->name, ns_status_name(st), res.message);
            for (int i = 0; i < 3; i++)
                if (fabs(sol->vec[0][i] - c->r[i]) > 1e-9 || fabs(sol->vec[1][i] - c->u[i]) > 1e-9)
                    fail_msg("%s %s: r[%d] = %.17g (want %g), u[%d] = %.17g (want %g)", solvers[s],
                             c->name, i, sol->vec[0][i], c->r[i], i, sol->vec[1][i], c->u[i]);
            assert_true(own_fc_error(p->u.fc, sol->vec[0]) <= 1e-12);
            ns_result_clear(&res);
            ns_solution_free(sol);
            ns_problem_free(p);
        }
}

/* A particle of mass 2 on a plane, the contact frame (normal, t1, t2) the
 * columns of a rotation R, H = R, b = 0: u = Rᵀ v, and with q = R q_c,
 * u = (r + q_c)/2 in the contact frame (W = I/2, q̃ = q_c/2); v = R u. */
static void test_one_contact_gfc3d(void **state)
{
    (void)state;
    const double c1 = cos(0.7), s1 = sin(0.7), c2 = cos(-0.4), s2 = sin(-0.4);
    /* R = Rz(0.7) Ry(-0.4): an orthonormal frame */
    double R[9] = { c1 * c2, s1 * c2, -s2, -s1, c1, 0, c1 * s2, s1 * s2, c2 }; /* column-major */
    /* contact frame: normal = R e_1, t1 = R e_2, t2 = R e_3 → H = R (n × 3) */
    struct { const char *name; double qc[3], mu, r[3], uc[3]; } gc[] = {
        /* m = 2, u = (r + qc)/2 in the contact frame */
        { "take-off", { 2, .6, -.4 }, .5, { 0, 0, 0 }, { 1, .3, -.2 } },
        { "stick", { -2, .4, .8 }, .5, { 2, -.4, -.8 }, { 0, 0, 0 } },
        { "slide", { -2, 4, 0 }, .5, { 2, -1, 0 }, { 0, 1.5, 0 } },
        { "mu = 0", { -2, 2, 3 }, 0, { 2, 0, 0 }, { 0, 1, 1.5 } },
        { "mu = 10 stick", { -2, 4, 0 }, 10, { 2, -4, 0 }, { 0, 0, 0 } },
    };
    const char *solvers[] = { "ipm", "ipm-fp" };
    for (size_t s = 0; s < 2; s++)
        for (size_t k = 0; k < sizeof gc / sizeof gc[0]; k++) {
            ns_matrix *M = ns_matrix_dense_new(3, 3), *H = ns_matrix_dense_new(3, 3);
            M->dense[0] = M->dense[4] = M->dense[8] = 2;
            memcpy(H->dense, R, sizeof R);
            double q[3] = { 0, 0, 0 }, b[3] = { 0, 0, 0 };
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) q[i] += R[i + 3 * j] * gc[k].qc[j];
            ns_problem *p = ns_problem_from_gfc(ns_gfc_new(3, 1, M, H, q, b, &gc[k].mu));
            assert_non_null(p);
            ns_solution *sol;
            ns_result res;
            ns_status st = solve(p, solvers[s], 1e-12, &sol, &res);
            if (st != NS_CONVERGED) fail_msg("%s %s: %s (%s)", solvers[s], gc[k].name, ns_status_name(st), res.message);
            double *v = sol->vec[0], *u = sol->vec[1], *r = sol->vec[2];
            for (int i = 0; i < 3; i++) {
                double vi = 0;
                for (int j = 0; j < 3; j++) vi += R[i + 3 * j] * gc[k].uc[j];
                if (fabs(r[i] - gc[k].r[i]) > 1e-9 || fabs(u[i] - gc[k].uc[i]) > 1e-9 || fabs(v[i] - vi) > 1e-9)
                    fail_msg("%s %s: component %d: r %.17g (want %g) u %.17g (want %g) v %.17g (want %g)",
                             solvers[s], gc[k].name, i, r[i], gc[k].r[i], u[i], gc[k].uc[i], v[i], vi);
            }
            assert_true(own_gfc_error(p->u.gfc, v, r) <= 1e-12);
            ns_result_clear(&res);
            ns_solution_free(sol);
            ns_problem_free(p);
        }
}

/* ---------- hyperstatic box on 4 contacts ---------- */

enum { BOX_N = 6, BOX_NC = 4, BOX_M = 12 };
static const double box_m = 2, box_h[3] = { 1, .5, .5 }, box_hg = 0.1; /* h·g */

/* M (6×6), H (6×12) of a box of half sizes box_h on 4 bottom corners;
 * dofs (V, ω), contact frame (e_z, e_x, e_y) */
static void box_mats(double *M, double *H)
{
    memset(M, 0, sizeof(double) * 36);
    memset(H, 0, sizeof(double) * 72);
    double a = box_h[0], b = box_h[1], c = box_h[2];
    M[0] = M[7] = M[14] = box_m;
    M[21] = box_m / 3 * (b * b + c * c);
    M[28] = box_m / 3 * (a * a + c * c);
    M[35] = box_m / 3 * (a * a + b * b);
    int k = 0;
    for (int sx = -1; sx <= 1; sx += 2)
        for (int sy = -1; sy <= 1; sy += 2, k++) {
            double px = sx * a, py = sy * b, pz = -c;
            double *N = H + 6 * (3 * k), *T1 = N + 6, *T2 = T1 + 6;
            /* u_N = V_z + ω_x p_y − ω_y p_x */
            N[2] = 1; N[3] = py; N[4] = -px;
            /* u_T1 = V_x + ω_y p_z − ω_z p_y */
            T1[0] = 1; T1[4] = pz; T1[5] = -py;
            /* u_T2 = V_y + ω_z p_x − ω_x p_z */
            T2[1] = 1; T2[5] = px; T2[3] = -pz;
        }
}

typedef struct { const char *name; double v0[6], mu, v[6]; } box_case;
static const box_case box_cases[] = {
    { "rest", { 0, 0, 0, 0, 0, 0 }, .3, { 0, 0, 0, 0, 0, 0 } },
    { "stick", { .02, -.01, 0, 0, 0, 0 }, .3, { 0, 0, 0, 0, 0, 0 } },
    { "slide", { 1, 0, 0, 0, 0, 0 }, .3, { 1 - .3 * 0.1, 0, 0, 0, 0, 0 } },
    { "slide diagonal", { .6, .8, 0, 0, 0, 0 }, .5, { .6 * .95, .8 * .95, 0, 0, 0, 0 } },
    { "take-off", { .5, 0, 1, 0, 0, 0 }, .3, { .5, 0, .9, 0, 0, 0 } },
};

static void test_box_gfc3d(void **state)
{
    (void)state;
    double Md[36], Hd[72];
    box_mats(Md, Hd);
    const char *solvers[] = { "ipm", "ipm-fp" };
    for (size_t s = 0; s < 2; s++)
        for (size_t k = 0; k < sizeof box_cases / sizeof box_cases[0]; k++) {
            const box_case *c = &box_cases[k];
            ns_matrix *M = ns_matrix_dense_new(6, 6), *H = ns_matrix_dense_new(6, 12);
            memcpy(M->dense, Md, sizeof Md);
            memcpy(H->dense, Hd, sizeof Hd);
            double q[6] = { 0 }, b[12] = { 0 }, mu[4] = { c->mu, c->mu, c->mu, c->mu };
            for (int i = 0; i < 6; i++) q[i] = Md[i + 6 * i] * c->v0[i];
            q[2] -= box_m * box_hg;
            ns_problem *p = ns_problem_from_gfc(ns_gfc_new(3, 4, M, H, q, b, mu));
            assert_non_null(p);
            ns_solution *sol;
            ns_result res;
            ns_status st = solve(p, solvers[s], 1e-10, &sol, &res);
            if (st != NS_CONVERGED) fail_msg("%s box %s: %s (%s)", solvers[s], c->name, ns_status_name(st), res.message);
            double *v = sol->vec[0], *r = sol->vec[2];
            for (int i = 0; i < 6; i++)
                if (fabs(v[i] - c->v[i]) > 1e-7) fail_msg("%s box %s: v[%d] = %.12g, want %g", solvers[s], c->name, i, v[i], c->v[i]);
            double u[12] = { 0 };
            mv(p->u.gfc->H, v, u, 1);
            for (int a = 0; a < 4; a++) check_law(c->mu, r + 3 * a, u + 3 * a, 1e-7, c->name);
            assert_true(own_gfc_error(p->u.gfc, v, r) <= 1e-10);
            /* the total normal impulse carries the weight over the step */
            double rn = r[0] + r[3] + r[6] + r[9];
            assert_true(fabs(rn - box_m * (box_hg + c->v[2] - c->v0[2])) <= 1e-7);
            ns_result_clear(&res);
            ns_solution_free(sol);
            ns_problem_free(p);
        }
}

/* The same box condensed: W = Hᵀ M⁻¹ H (12×12, rank 6), q̃ = Hᵀ M⁻¹ q. */
static void test_box_fc3d(void **state)
{
    (void)state;
    double Md[36], Hd[72];
    box_mats(Md, Hd);
    const char *solvers[] = { "ipm", "ipm-fp" };
    for (size_t s = 0; s < 2; s++)
        for (size_t k = 0; k < sizeof box_cases / sizeof box_cases[0]; k++) {
            const box_case *c = &box_cases[k];
            ns_matrix *W = ns_matrix_dense_new(12, 12);
            for (int i = 0; i < 12; i++)
                for (int j = 0; j < 12; j++) {
                    double w = 0;
                    for (int l = 0; l < 6; l++) w += Hd[l + 6 * i] * Hd[l + 6 * j] / Md[l + 6 * l];
                    W->dense[i + 12 * j] = w;
                }
            double q[12] = { 0 }, mu[4] = { c->mu, c->mu, c->mu, c->mu }, vf[6];
            for (int l = 0; l < 6; l++) vf[l] = c->v0[l];
            vf[2] -= box_hg; /* M⁻¹ q: the free velocity */
            for (int i = 0; i < 12; i++)
                for (int l = 0; l < 6; l++) q[i] += Hd[l + 6 * i] * vf[l];
            ns_problem *p = ns_problem_from_fc(ns_fc_new(3, 4, W, q, mu));
            assert_non_null(p);
            ns_solution *sol;
            ns_result res;
            ns_status st = solve(p, solvers[s], 1e-10, &sol, &res);
            if (st != NS_CONVERGED) fail_msg("%s box %s: %s (%s)", solvers[s], c->name, ns_status_name(st), res.message);
            double *r = sol->vec[0], u[12];
            memcpy(u, q, sizeof q);
            mv(p->u.fc->W, r, u, 0);
            for (int a = 0; a < 4; a++) {
                check_law(c->mu, r + 3 * a, u + 3 * a, 1e-7, c->name);
                /* u at each corner from the analytic body velocity */
                for (int i = 0; i < 3; i++) {
                    double ue = 0;
                    for (int l = 0; l < 6; l++) ue += Hd[l + 6 * (3 * a + i)] * c->v[l];
                    if (fabs(u[3 * a + i] - ue) > 1e-7)
                        fail_msg("%s box %s: u[%d] = %.12g, want %g", solvers[s], c->name, 3 * a + i, u[3 * a + i], ue);
                }
            }
            assert_true(own_fc_error(p->u.fc, r) <= 1e-10);
            ns_result_clear(&res);
            ns_solution_free(sol);
            ns_problem_free(p);
        }
}

/* ---------- files ---------- */

static void solve_file(const char *rel, const char *solver)
{
    char path[2048], err[NS_ERRMSG_LEN];
    ns_test_data_path(path, sizeof path, rel);
    ns_problem *p = NULL;
    if (ns_problem_read(path, NS_KIND_NONE, &p, err)) fail_msg("%s: %s", path, err);
    ns_solution *sol = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-8;
    o.time_limit = 30;
    ns_result res;
    ns_status st = ns_solve(p, solver, &o, sol, &res);
    if (st != NS_CONVERGED)
        fail_msg("%s with %s: %s error %g (%s)", rel, solver, ns_status_name(st), res.error, res.message);
    double e = p->kind == NS_KIND_GFC3D ? own_gfc_error(p->u.gfc, sol->vec[0], sol->vec[2])
                                        : own_fc_error(p->u.fc, sol->vec[0]);
    if (!(e <= 1.001e-8)) fail_msg("%s with %s: recomputed error %g", rel, solver, e);
    /* the check has teeth: every unknown (v for GFC3D, r for FC3D) moved
     * by 1e-3 of the largest fails it */
    double *x = sol->vec[0];
    ns_int nx = sol->len[0];
    double xmax = 1e-3;
    for (ns_int i = 0; i < nx; i++) xmax = fmax(xmax, fabs(x[i]));
    for (ns_int i = 0; i < nx; i++) x[i] += 1e-3 * xmax;
    double e2 = p->kind == NS_KIND_GFC3D ? own_gfc_error(p->u.gfc, sol->vec[0], sol->vec[2])
                                         : own_fc_error(p->u.fc, sol->vec[0]);
    if (!(e2 > 1e-7)) fail_msg("%s: perturbed unknowns still score %g", rel, e2);
    ns_result_clear(&res);
    ns_solution_free(sol);
    ns_problem_free(p);
}

static void test_files_gfc3d(void **state)
{
    (void)state;
    const char *f[] = { "gfc3d/GFC3D_Example0.dat", "gfc3d/GFC3D_Example00.dat",
        "gfc3d/GFC3D_Example00_badly_scaled.dat", "gfc3d/GFC3D_Example0_SBM.dat",
        "gfc3d/GFC3D_Example1.dat", "gfc3d/GFC3D_OneContact.dat", "gfc3d/GFC3D_TwoRods1.dat",
        "fclib/global/Box_Stacks-i0122-82-5.hdf5", "fclib/global/CubeH8.hdf5",
        "fclib/global/LMGC_GlobalFrictionContactProblem00046.hdf5",
        "fclib/global/Spheres-i099-356-679.hdf5",
        "fclib/global/spheres-in-a-box-98-i10000-256-10.hdf5" };
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) solve_file(f[k], "ipm");
    for (size_t k = 0; k < 7; k++) solve_file(f[k], "ipm-fp");
}

static void test_files_fc3d(void **state)
{
    (void)state;
    /* RockPile_tob1 is not solved by ipm (docs/ipm.md); the Capsules files
     * and the rovers are represented by one each */
    const char *f[] = { "fc3d/BoxesStack1-i100000-32.hdf5.dat", "fc3d/Capsules-i101-404.dat",
        "fc3d/Confeti-ex13-Fc3D-SBM.dat", "fc3d/FC3D_Example1.dat",
        "fc3d/FrictionContact3D_RR_1c.dat", "fc3d/GFC3D_TwoRods1-condensed.dat",
        "fc3d/KaplasTower-i1061-4.hdf5.dat", "fc3d/NESpheres_10_1.dat",
        "fc3d/OneObject-i100000-316.hdf5.dat", "fc3d/Rover4493.dat",
        "fclib/local/Capsules-i125-1213.hdf5",
        "fclib/local/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5" };
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) solve_file(f[k], "ipm");
}

/* ---------- options ---------- */

typedef struct { int n, max_level; } log_count;
static void count_log(void *user, int level, const char *msg)
{
    (void)msg;
    log_count *c = user;
    c->n++;
    if (level > c->max_level) c->max_level = level;
}

static ns_problem *read_rel(const char *rel)
{
    char path[2048], err[NS_ERRMSG_LEN];
    ns_test_data_path(path, sizeof path, rel);
    ns_problem *p = NULL;
    if (ns_problem_read(path, NS_KIND_NONE, &p, err)) fail_msg("%s: %s", path, err);
    return p;
}

static void test_options(void **state)
{
    (void)state;
    const char *rels[] = { "fclib/global/Box_Stacks-i0122-82-5.hdf5", "fc3d/Capsules-i101-404.dat" };
    for (int f = 0; f < 2; f++) {
        ns_problem *p = read_rel(rels[f]);
        int rv = p->kind == NS_KIND_GFC3D ? 2 : 0; /* index of r in the solution */
        ns_solution *sol = ns_solution_new(p);
        ns_options o;
        ns_result res;
        /* cold, with a log at verbosity 2 */
        ns_options_default(&o);
        log_count lc = { 0, 0 };
        o.log = count_log;
        o.log_user = &lc;
        o.verbosity = 2;
        assert_int_equal(ns_solve(p, "ipm", &o, sol, &res), NS_CONVERGED);
        int cold = res.iterations;
        assert_true(lc.n > 2 && lc.max_level == 2);
        ns_result_clear(&res);
        /* verbosity 0 with a log: silent */
        lc.n = 0;
        o.verbosity = 0;
        assert_int_equal(ns_solve(p, "ipm", &o, sol, &res), NS_CONVERGED);
        assert_int_equal(lc.n, 0);
        ns_result_clear(&res);
        /* warm start from the solution: returned as is */
        o.log = NULL;
        o.warm_start = 1;
        assert_int_equal(ns_solve(p, "ipm", &o, sol, &res), NS_CONVERGED);
        assert_int_equal(res.iterations, 0);
        ns_result_clear(&res);
        /* warm start from perturbed reactions: converges, no slower than cold */
        for (ns_int i = 0; i < sol->len[rv]; i++) sol->vec[rv][i] *= 1.05;
        assert_int_equal(ns_solve(p, "ipm", &o, sol, &res), NS_CONVERGED);
        double ew = p->kind == NS_KIND_GFC3D ? own_gfc_error(p->u.gfc, sol->vec[0], sol->vec[2])
                                             : own_fc_error(p->u.fc, sol->vec[0]);
        assert_true(ew <= 1.001e-8);
        if (res.iterations > cold)
            fail_msg("%s: warm start took %d iterations, cold %d", rels[f], res.iterations, cold);
        ns_result_clear(&res);
        /* max_iter 1: an outcome, finite unknowns, the error as recomputed */
        o.warm_start = 0;
        o.max_iter = 1;
        ns_status st = ns_solve(p, "ipm", &o, sol, &res);
        assert_true(st == NS_MAX_ITER || st == NS_CONVERGED);
        for (int k = 0; k < sol->nvec; k++)
            for (ns_int i = 0; i < sol->len[k]; i++) assert_true(isfinite(sol->vec[k][i]));
        double e = p->kind == NS_KIND_GFC3D ? own_gfc_error(p->u.gfc, sol->vec[0], sol->vec[2])
                                            : own_fc_error(p->u.fc, sol->vec[0]);
        assert_true(fabs(e - res.error) <= 1e-6 * (e + 1e-300) + 1e-15);
        ns_result_clear(&res);
        /* a time limit already spent */
        o.max_iter = 0;
        o.time_limit = 1e-9;
        assert_int_equal(ns_solve(p, "ipm", &o, sol, &res), NS_TIME_LIMIT);
        for (ns_int i = 0; i < sol->len[rv]; i++) assert_true(isfinite(sol->vec[rv][i]));
        ns_result_clear(&res);
        /* bad options are refused, naming the field */
        ns_options_default(&o);
        o.tol = 0;
        assert_int_equal(ns_solve(p, "ipm", &o, sol, &res), NS_BAD_INPUT);
        assert_non_null(strstr(res.message, "tol"));
        ns_result_clear(&res);
        ns_options_default(&o);
        o.tol = NAN;
        assert_int_equal(ns_solve(p, "ipm", &o, sol, &res), NS_BAD_INPUT);
        ns_result_clear(&res);
        ns_options_default(&o);
        o.max_iter = -3;
        assert_int_equal(ns_solve(p, "ipm", &o, sol, &res), NS_BAD_INPUT);
        assert_non_null(strstr(res.message, "max_iter"));
        ns_result_clear(&res);
        ns_options_default(&o);
        o.time_limit = -1;
        assert_int_equal(ns_solve(p, "ipm", &o, sol, &res), NS_BAD_INPUT);
        ns_result_clear(&res);
        /* a warm start holding NaN */
        ns_options_default(&o);
        o.warm_start = 1;
        sol->vec[rv][0] = NAN;
        assert_int_equal(ns_solve(p, "ipm", &o, sol, &res), NS_BAD_INPUT);
        ns_result_clear(&res);
        ns_solution_free(sol);
        ns_problem_free(p);
    }
}

/* 2D problems have no ipm; a GFC3D problem without contacts is M v = q;
 * a row of M v = H r + q that reads 0 = 1 (M_11 = 0, no contact on dof 1)
 * has no solution: not converged, a reason, no crash. */
static void test_edges(void **state)
{
    (void)state;
    ns_matrix *W = ns_matrix_dense_new(2, 2);
    W->dense[0] = W->dense[3] = 1;
    double q2[2] = { -1, .5 }, mu = .5;
    ns_problem *p = ns_problem_from_fc(ns_fc_new(2, 1, W, q2, &mu));
    ns_solution *sol;
    ns_result res;
    assert_int_equal(solve(p, "ipm", 1e-8, &sol, &res), NS_NOT_FOUND);
    ns_result_clear(&res);
    ns_solution_free(sol);
    ns_problem_free(p);

    ns_matrix *M = ns_matrix_dense_new(2, 2), *H = ns_matrix_dense_new(2, 0);
    M->dense[0] = 2; M->dense[3] = 4;
    double q[2] = { 2, -4 };
    p = ns_problem_from_gfc(ns_gfc_new(3, 0, M, H, q, NULL, NULL));
    assert_non_null(p);
    assert_int_equal(solve(p, "ipm", 1e-12, &sol, &res), NS_CONVERGED);
    assert_true(fabs(sol->vec[0][0] - 1) <= 1e-14 && fabs(sol->vec[0][1] + 1) <= 1e-14);
    ns_result_clear(&res);
    ns_solution_free(sol);
    ns_problem_free(p);

    /* M = diag(1, 0, 1) with the middle dof outside every contact */
    M = ns_matrix_dense_new(3, 3);
    H = ns_matrix_dense_new(3, 3);
    M->dense[0] = M->dense[8] = 1;
    H->dense[0 + 3 * 0] = 1; /* u_N = v_0 */
    H->dense[2 + 3 * 1] = 1; /* u_T1 = v_2, u_T2 = 0; v_1: M_11 = 0, q_1 = 1 */
    double q3[3] = { -1, 1, 0 }, b3[3] = { 0, 0, 0 };
    p = ns_problem_from_gfc(ns_gfc_new(3, 1, M, H, q3, b3, &mu));
    assert_non_null(p);
    ns_status st = solve(p, "ipm", 1e-8, &sol, &res);
    assert_true(st != NS_CONVERGED);
    assert_true(strlen(res.message) > 0);
    ns_result_clear(&res);
    ns_solution_free(sol);
    ns_problem_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_soc_algebra),
        cmocka_unit_test(test_one_contact_fc3d),
        cmocka_unit_test(test_one_contact_gfc3d),
        cmocka_unit_test(test_box_gfc3d),
        cmocka_unit_test(test_box_fc3d),
        cmocka_unit_test(test_files_gfc3d),
        cmocka_unit_test(test_files_fc3d),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_edges),
    };
    if (!ns_test_data_dir()) {
        /* without the shared data only the self-contained tests run */
        const struct CMUnitTest own[] = {
            cmocka_unit_test(test_soc_algebra),
            cmocka_unit_test(test_one_contact_fc3d),
            cmocka_unit_test(test_one_contact_gfc3d),
            cmocka_unit_test(test_box_gfc3d),
            cmocka_unit_test(test_box_fc3d),
            cmocka_unit_test(test_edges),
        };
        return cmocka_run_group_tests(own, NULL, NULL);
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
