/* test_siconos_compat.c — the Siconos compatibility switches of the
 * time-stepping scheme against trajectories Siconos 4.4 computed
 * (data/siconos_refs/, written by tools/siconos_refs/make_refs.py with
 * Debian's python3-siconos; Siconos itself is not needed here):
 *
 *  - bowl: a ball (m = 1, radius 0.1) inside a circular bowl of radius 1, a
 *    contact whose Jacobian turns with q (normal −q/|q|), Newton impact
 *    e = 0.5 and Coulomb μ = 0.3 (FC2D), Moreau–Jean θ = ½, h = 1e-3, 500
 *    steps under Siconos' rules (nsm_sim_options_siconos):
 *      * linearisation = NSM_LINEARISE_ITERATE (ours) against Siconos 4.4's
 *        SICONOS_TS_LINEAR, which evaluates the Jacobian at the predictor
 *        q_k + h v_k;
 *      * linearisation = NSM_LINEARISE_STEP_START against the same model
 *        stepped by Siconos with the Jacobian at q_k (the LINEAR option of
 *        later Siconos releases);
 *    each to |ours − ref| ≤ 1e-12 + 1e-12·max|ref column|, and each differs
 *    from the other reference by far more (the switch decides);
 *  - diode bridge: the DiodeBridge tutorial circuit with Euler–Moreau θ = ½,
 *    γ = 0.7 (em_use_gamma), 4999 steps, to 1e-10 + 1e-10·max|ref column|;
 *    without γ it departs from the ref by more than 1e-4.
 * Event-driven: a point mass resting on an inclined plane at t0 has, right
 * after nsm_ed_new (before any advance), the contact force m g cos α, ÿ = 0
 * and q̈ = g sin α down the slope (analytic), and keeps them along a run;
 * nsm_ed_options_siconos sets Siconos' _TOL_ED and no accumulation rule.
 * Also: the preset's fields, and the option checks of the new fields. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nsm.h"

typedef struct table { int rows, cols; double *v; } table;

static table read_ref(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/data/siconos_refs/%s", NS_SOURCE_DIR, name);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    table t = { 0, 0, NULL };
    if (fscanf(f, "%d %d", &t.rows, &t.cols) != 2 || t.rows <= 0 || t.cols <= 0) fail_msg("%s: bad header", path);
    t.v = malloc((size_t)t.rows * t.cols * sizeof(double));
    assert_non_null(t.v);
    for (int i = 0; i < t.rows * t.cols; i++)
        if (fscanf(f, "%lf", &t.v[i]) != 1) fail_msg("%s: short at entry %d", path, i);
    fclose(f);
    return t;
}

/* Largest |ours − ref| / (tol + tol·max|ref column|) over all entries (≤ 1:
 * within tolerance); also the largest absolute difference. */
static double compare(const table *ref, const double *ours, double tol, double *worst_abs, const char *what)
{
    double worst = 0.0;
    *worst_abs = 0.0;
    for (int c = 0; c < ref->cols; c++) {
        double mx = 0.0, wc = 0.0;
        for (int i = 0; i < ref->rows; i++) mx = fmax(mx, fabs(ref->v[(size_t)i * ref->cols + c]));
        for (int i = 0; i < ref->rows; i++) {
            double d = fabs(ours[(size_t)i * ref->cols + c] - ref->v[(size_t)i * ref->cols + c]);
            if (!(d == d)) d = INFINITY;
            wc = fmax(wc, d);
            worst = fmax(worst, d / (tol + tol * mx));
        }
        *worst_abs = fmax(*worst_abs, wc);
        if (what) printf("  %s column %d: worst |ours - ref| = %.2e (max|ref| %.3g)\n", what, c, wc, mx);
    }
    return worst;
}

/* ---- bowl ---- */
#define R_BOWL 1.0
#define R_BALL 0.1

static int bowl_h(double t, int nq, const double *q, int m, double *y, void *u)
{
    (void)t; (void)nq; (void)m; (void)u;
    y[0] = (R_BOWL - R_BALL) - hypot(q[0], q[1]);
    y[1] = 0.0;
    return 0;
}

static int bowl_jac(double t, int nq, const double *q, int m, double *H, void *u)
{
    (void)t; (void)nq; (void)m; (void)u;
    double d = hypot(q[0], q[1]), nx = q[0] / d, ny = q[1] / d;
    H[0] = -nx; H[2] = -ny;     /* normal row: ∇g = −n */
    H[1] = -ny; H[3] = nx;      /* tangent row */
    return 0;
}

/* Runs the bowl with the given linearisation; rows t, x, y, vx, vy, P_N,
 * P_T, gap (malloc'd, 500 × 8). */
static double *run_bowl(nsm_linearisation lin)
{
    double M[4] = { 1, 0, 0, 1 }, q0[2] = { 0.5, -0.7 }, v0[2] = { 1.0, 0.3 }, f[2] = { 0.0, -9.81 };
    double d = hypot(q0[0], q0[1]);
    q0[0] *= (R_BOWL - R_BALL) / d;
    q0[1] *= (R_BOWL - R_BALL) / d;
    nsm_model *m = nsm_model_new();
    nsm_ds *ds = nsm_ds_lagrangian_lti_new(2, M, q0, v0);
    assert_non_null(ds);
    assert_int_equal(nsm_ds_set_fext_constant(ds, f), NS_OK);
    int di = nsm_model_add_ds(m, ds);
    int law = nsm_model_add_law(m, nsm_nslaw_newton_coulomb_new(2, 0.5, 0.3));
    int in = nsm_model_add_interaction(m, nsm_relation_scleronomous_new(2, 2, bowl_h, bowl_jac, NULL), law, di, -1);
    assert_true(di >= 0 && law >= 0 && in >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    nsm_sim_options_siconos(&o);
    o.linearisation = lin;
    o.solver_options.tol = 1e-14;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    double *rows = malloc(500 * 8 * sizeof(double));
    assert_non_null(rows);
    for (int k = 0; k < 500; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        const double *q = nsm_sim_q(s, di), *v = nsm_sim_v(s, di);
        const double *P = nsm_sim_lambda(s, in, 1), *y = nsm_sim_y(s, in, 0);
        double r[8] = { nsm_sim_time(s), q[0], q[1], v[0], v[1], P[0], P[1], y[0] };
        memcpy(rows + 8 * k, r, sizeof r);
    }
    nsm_sim_free(s);
    nsm_model_free(m);
    return rows;
}

static void test_bowl_linearisation(void **state)
{
    (void)state;
    table r44 = read_ref("bowl_ts_linear_44.ref"), rqk = read_ref("bowl_ts_linear_qk.ref");
    assert_int_equal(r44.rows, 500);
    assert_int_equal(r44.cols, 8);
    assert_int_equal(rqk.rows, 500);
    double *pred = run_bowl(NSM_LINEARISE_ITERATE), *start = run_bowl(NSM_LINEARISE_STEP_START);
    double a1, a2, a3, a4;
    printf("bowl, linearisation at the predictor vs Siconos 4.4 SICONOS_TS_LINEAR:\n");
    double e1 = compare(&r44, pred, 1e-12, &a1, "predictor");
    printf("bowl, linearisation at q_k vs Siconos stepped with the Jacobian at q_k:\n");
    double e2 = compare(&rqk, start, 1e-12, &a2, "step start");
    double e3 = compare(&rqk, pred, 1e-12, &a3, NULL);
    double e4 = compare(&r44, start, 1e-12, &a4, NULL);
    printf("bowl: predictor %.2e / step start %.2e (abs); crossed: %.2e, %.2e\n", a1, a2, a3, a4);
    assert_true(e1 <= 1.0);
    assert_true(e2 <= 1.0);
    /* the two rules give different trajectories: each ref needs its switch */
    assert_true(a3 > 1e-6 && e3 > 1e3);
    assert_true(a4 > 1e-6 && e4 > 1e3);
    free(pred); free(start); free(r44.v); free(rqk.v);
}

/* ---- diode bridge, Euler–Moreau (θ, γ) ---- */
static double *run_diode(int use_gamma, double gamma, int *nrows)
{
    const double L = 1e-2, C = 1e-6, R = 1e3;
    double A[4] = { 0, 1.0 / L, -1.0 / C, 0 }, x0[2] = { 10.0, 0.0 };
    double Cm[8] = { 0, 0, -1, 1, 0, 0, 0, 0 };
    double D[16] = { 1 / R, 1 / R, 1, 0, 1 / R, 1 / R, 0, 1, -1, 0, 0, 0, 0, -1, 0, 0 };
    double B[8] = { 0, 0, 0, 0, -1 / C, 0, 1 / C, 0 };
    nsm_model *m = nsm_model_new();
    int di = nsm_model_add_ds(m, nsm_ds_first_order_lti_new(2, A, NULL, NULL, x0));
    int law = nsm_model_add_law(m, nsm_nslaw_complementarity_new(4));
    int in = nsm_model_add_interaction(m, nsm_relation_first_order_linear_new(4, 2, Cm, D, B, NULL), law, di, -1);
    assert_true(di >= 0 && law >= 0 && in >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-6;
    o.theta = 0.5;
    nsm_sim_options_siconos(&o);
    o.em_use_gamma = use_gamma;
    o.em_gamma = gamma;
    o.solver = "lemke";
    o.solver_options.tol = 1e-14;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    double *rows = malloc(999 * 8 * sizeof(double));
    assert_non_null(rows);
    int n = 0;
    for (int k = 1; k < 5000; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        if (k % 5) continue;
        const double *x = nsm_sim_x(s, di), *y = nsm_sim_y(s, in, 0), *l = nsm_sim_lambda(s, in, 0);
        double r[8] = { nsm_sim_time(s), x[0], x[1], y[0], -l[0], -l[1], l[2], y[0] + l[2] };
        memcpy(rows + 8 * n++, r, sizeof r);
    }
    *nrows = n;
    nsm_sim_free(s);
    nsm_model_free(m);
    return rows;
}

static void test_diode_bridge_gamma(void **state)
{
    (void)state;
    table ref = read_ref("diode_bridge_theta05_gamma07.ref");
    int n1 = 0, n2 = 0;
    double *g = run_diode(1, 0.7, &n1), *nog = run_diode(0, 1.0, &n2);
    assert_int_equal(n1, ref.rows);
    assert_int_equal(ref.cols, 8);
    double a1, a2;
    printf("diode bridge, Euler-Moreau theta = 0.5, gamma = 0.7 vs Siconos 4.4 EulerMoreauOSI(0.5, 0.7):\n");
    double e1 = compare(&ref, g, 1e-10, &a1, "gamma");
    (void)compare(&ref, nog, 1e-10, &a2, NULL);
    printf("diode bridge: with gamma %.2e, without %.2e (abs)\n", a1, a2);
    assert_true(e1 <= 1.0);
    assert_true(a2 > 1e-4);
    free(g); free(nog); free(ref.v);
}

/* γ = 1 with the switch is the plain scheme, bit for bit. */
static void test_gamma_one_is_plain(void **state)
{
    (void)state;
    int n1 = 0, n2 = 0;
    double *a = run_diode(1, 1.0, &n1), *b = run_diode(0, 1.0, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, (size_t)n1 * 8 * sizeof(double));
    free(a); free(b);
}

static void test_preset_and_checks(void **state)
{
    (void)state;
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    assert_int_equal(o.linearisation, NSM_LINEARISE_ITERATE);
    assert_int_equal(o.em_use_gamma, 0);
    o.h = 1e-3;
    o.linearisation = NSM_LINEARISE_STEP_START;
    nsm_sim_options_siconos(&o);
    assert_true(o.gap_tol == 0.0);
    assert_int_equal(o.separating_restitution, 0);
    assert_int_equal(o.activation, NSM_ACTIVATION_GAMMA);
    assert_true(o.activation_gamma == 0.5);
    assert_int_equal(o.theta_output, 0);
    assert_int_equal(o.newton_criterion, NSM_NEWTON_ABS_NORM2);
    assert_true(o.newton_tol == 1e-6);
    assert_int_equal(o.newton_max_iter, 50);
    assert_int_equal(o.linearisation, NSM_LINEARISE_STEP_START);   /* left as set */
    assert_true(o.h == 1e-3);
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(nsm_sim_options_validate(&o, err), NS_OK);
    nsm_sim_options_siconos(NULL);   /* no crash */
    o.linearisation = (nsm_linearisation)7;
    assert_int_equal(nsm_sim_options_validate(&o, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "linearisation"));
    o.linearisation = NSM_LINEARISE_ITERATE;
    o.em_gamma = 1.5;
    assert_int_equal(nsm_sim_options_validate(&o, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "em_gamma"));
    o.em_gamma = NAN;
    assert_int_equal(nsm_sim_options_validate(&o, err), NS_BAD_INPUT);
    o.em_gamma = 0.3;
    o.em_use_gamma = 2;
    assert_int_equal(nsm_sim_options_validate(&o, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "em_use_gamma"));
}

#ifdef NSM_HAVE_EVENT_DRIVEN
/* Point mass m on the plane through 0 with normal n = (−sin α, cos α),
 * resting at t0 (y = n·q = 0, ẏ = 0), and a second contact, far away and
 * open: a wall x ≤ 5 (y = 5 − x). */
static void test_ed_consistent_at_t0(void **state)
{
    (void)state;
    const double g = 9.81, m = 2.0, al = 0.3, sa = sin(al), ca = cos(al);
    double M[4] = { m, 0, 0, m }, q0[2] = { 1.0 * ca, 1.0 * sa }, v0[2] = { 0, 0 }, f[2] = { 0, -m * g };
    nsm_model *mod = nsm_model_new();
    nsm_ds *ds = nsm_ds_lagrangian_lti_new(2, M, q0, v0);
    assert_int_equal(nsm_ds_set_fext_constant(ds, f), NS_OK);
    int di = nsm_model_add_ds(mod, ds);
    int law = nsm_model_add_law(mod, nsm_nslaw_newton_new(1, 0.0));
    double Hn[2] = { -sa, ca }, Hw[2] = { -1.0, 0.0 }, bw = 5.0;
    int plane = nsm_model_add_interaction(mod, nsm_relation_lagrangian_linear_new(1, 2, Hn, NULL), law, di, -1);
    int wall = nsm_model_add_interaction(mod, nsm_relation_lagrangian_linear_new(1, 2, Hw, &bw), law, di, -1);
    assert_true(plane >= 0 && wall >= 0);
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = 0.5;
    o.output_step = 0.1;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *s = nsm_ed_new(mod, &o, err);
    if (!s) fail_msg("nsm_ed_new: %s", err);
    const double ax = -g * sa * ca, ay = -g * sa * sa;
    /* before any advance */
    const double *lam = nsm_ed_lambda(s, plane, 2), *y2 = nsm_ed_y(s, plane, 2), *a = nsm_ed_acceleration(s, di);
    assert_non_null(lam); assert_non_null(y2); assert_non_null(a);
    printf("t0: lambda2 = %.17g (m g cos a = %.17g), y2 = %.3g, qdd = (%.17g, %.17g)\n", lam[0], m * g * ca, y2[0], a[0], a[1]);
    assert_true(fabs(lam[0] - m * g * ca) <= 1e-12 * m * g);
    assert_true(fabs(y2[0]) <= 1e-12 * g);
    assert_true(fabs(a[0] - ax) <= 1e-12 * g && fabs(a[1] - ay) <= 1e-12 * g);
    assert_true(nsm_ed_lambda(s, wall, 2)[0] == 0.0);
    assert_true(fabs(nsm_ed_y(s, wall, 2)[0] - (-ax)) <= 1e-12 * g);   /* ÿ = −ẍ of the open wall row */
    assert_null(nsm_ed_acceleration(s, 1));
    assert_null(nsm_ed_acceleration(s, -1));
    /* along the run: the same force and acceleration at every event, and
     * the sliding q(t) = q0 + ½ a t² */
    int events = 0;
    while (nsm_ed_has_next_event(s)) {
        if (nsm_ed_advance_to_event(s) < 0) fail_msg("advance: %s", nsm_ed_error(s));
        assert_int_equal(nsm_ed_process_events(s), NS_OK);
        double t = nsm_ed_time(s);
        a = nsm_ed_acceleration(s, di);
        const double *q = nsm_ed_q(s, di);
        assert_true(fabs(nsm_ed_lambda(s, plane, 2)[0] - m * g * ca) <= 1e-10 * m * g);
        assert_true(fabs(a[0] - ax) <= 1e-10 * g && fabs(a[1] - ay) <= 1e-10 * g);
        assert_true(fabs(q[0] - (q0[0] + 0.5 * ax * t * t)) <= 1e-8);
        assert_true(fabs(q[1] - (q0[1] + 0.5 * ay * t * t)) <= 1e-8);
        events++;
    }
    assert_true(events >= 5);
    nsm_ed_free(s);
    nsm_model_free(mod);
}

static void test_ed_preset(void **state)
{
    (void)state;
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = 1.0;
    nsm_ed_options_siconos(&o);
    const double tol = 1e4 * 2.220446049250313e-16;   /* Siconos' _TOL_ED */
    assert_true(o.gap_tol == tol && o.vel_tol == tol && o.lambda_tol == tol && o.acc_tol == tol);
    assert_true(o.rest_vel == 0.0 && o.rest_gap > 0.0 && o.rest_gap < 1e-300);
    char err[NS_ERRMSG_LEN] = "";
    assert_int_equal(nsm_ed_options_validate(&o, err), NS_OK);
    assert_true(o.T == 1.0);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bowl_linearisation),
        cmocka_unit_test(test_diode_bridge_gamma),
        cmocka_unit_test(test_gamma_one_is_plain),
        cmocka_unit_test(test_preset_and_checks),
#ifdef NSM_HAVE_EVENT_DRIVEN
        cmocka_unit_test(test_ed_consistent_at_t0),
        cmocka_unit_test(test_ed_preset),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
