/* test_ed_cam_follower.c — event-driven cam follower (docs/mechanics.md,
 * example 3, rheonomous constraint y = u − c(t)) at 358 rpm over 0.5 s:
 * every impact obeys Newton's law on the relative velocity
 * (ẏ⁺ = −r ẏ⁻, ẏ = u̇ − ċ: the ċ term of the rheonomous relation), the gap
 * is never negative at the output times, and Moreau–Jean time-stepping
 * converges to the event-driven trajectory (the largest position
 * difference shrinks as h goes from 1e-4 to 2.5e-5). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include "nonsmooth/nsm.h"

#define PI 3.14159265358979323846
#define RPM 358.0
#define TEND 0.5
#define NOUT 5000   /* outputs every 1e-4 */

static void cam_state(double t, double rpm, double *c, double *cd, double *cdd)
{
    const double Rb = 0.40, k1 = 0.45, rho1 = 0.85, k2 = 0.40393320723821, rho3 = 0.15,
                 rho2 = 0.55393320723821, beta2 = 1.050328174371336, beta3 = 1.22173047639603;
    double w = 2 * PI * rpm / 60.0;
    double beta = fmod(w * t + PI / 2, 2 * PI);
    if (beta > PI) { beta = 2 * PI - beta; w = -w; }
    double p = Rb, dp = 0, ddp = 0;
    if (beta <= PI / 2) {
        p = Rb;
    } else if (beta <= PI / 2 + beta2) {
        double s = k1 * cos(beta) / rho1, sp = -k1 * sin(beta) / rho1;
        double g = sqrt(1 - s * s), u = s * sp, up = sp * sp - s * s;
        p = -k1 * sin(beta) + rho1 * g;
        dp = -k1 * cos(beta) - rho1 * u / g;
        ddp = k1 * sin(beta) - rho1 * (up / g + u * u / (g * g * g));
    } else if (beta <= PI / 2 + beta3) {
        double ph = beta + PI / 9;
        double s = k2 * sin(ph) / rho3, sp = k2 * cos(ph) / rho3;
        double g = sqrt(1 - s * s), u = s * sp, up = sp * sp - s * s;
        p = -k2 * cos(ph) + rho3 * g;
        dp = k2 * sin(ph) - rho3 * u / g;
        ddp = k2 * cos(ph) - rho3 * (up / g + u * u / (g * g * g));
    } else {
        p = rho2;
    }
    *c = p - 0.3; *cd = dp * w; *cdd = ddp * w * w;
}

static double rpm_value = RPM;
static int h_fn(double t, int nq, const double *Q, int m, double *out, void *user)
{ double c, cd, cdd; (void)nq; (void)m; cam_state(t, *(double *)user, &c, &cd, &cdd); out[0] = Q[0] - c; return 0; }
static int jach_fn(double t, int nq, const double *Q, int m, double *H, void *user)
{ (void)t; (void)nq; (void)Q; (void)m; (void)user; H[0] = 1; return 0; }
static int dhdt_fn(double t, int nq, const double *Q, int m, double *out, void *user)
{ double c, cd, cdd; (void)nq; (void)Q; (void)m; cam_state(t, *(double *)user, &c, &cd, &cdd); out[0] = -cd; return 0; }
static int d2_fn(double t, int nq, const double *Q, int m, double *out, void *user)
{ double c, cd, cdd; (void)nq; (void)Q; (void)m; cam_state(t, *(double *)user, &c, &cd, &cdd); out[0] = -cdd; return 0; }

static nsm_model *follower(void)
{
    double c0, cd0, cdd0;
    cam_state(0, RPM, &c0, &cd0, &cdd0);
    double M[1] = { 1.221 }, K[1] = { 1430.8 }, q0[1] = { 0.4 + c0 }, v0[1] = { 0.4 + cd0 };
    nsm_model *m = nsm_model_new();
    nsm_ds *d = nsm_ds_lagrangian_lti_new(1, M, q0, v0);
    nsm_ds_set_stiffness(d, K);
    nsm_model_add_ds(m, d);
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.8));
    nsm_relation *r = nsm_relation_rheonomous_new(1, 1, h_fn, jach_fn, dhdt_fn, &rpm_value);
    assert_int_equal(nsm_relation_set_d2hdt2(r, d2_fn), NS_OK);
    assert_true(nsm_model_add_interaction(m, r, law, 0, -1) >= 0);
    return m;
}

typedef struct trace { double u[NOUT + 1]; int nimp; double worst_law, min_gap; } trace;

static int obs(nsm_ed *s, const nsm_event *ev, void *user)
{
    trace *tr = user;
    if (ev->type == NSM_EVENT_NONSMOOTH && ev->impact) {
        tr->nimp++;
        tr->worst_law = fmax(tr->worst_law, fabs(ev->y1_after + 0.8 * ev->y1_before));
    }
    if (ev->type == NSM_EVENT_TIME) {
        long k = lround(ev->t / 1e-4);
        if (k >= 0 && k <= NOUT) tr->u[k] = nsm_ed_q(s, 0)[0];
        tr->min_gap = fmin(tr->min_gap, nsm_ed_y(s, 0, 0)[0]);
    }
    return 0;
}

static double ts_diff(nsm_model *m, const trace *tr, double h)
{
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *ts = nsm_sim_new(m, &o, err);
    assert_non_null(ts);
    int every = (int)lround(1e-4 / h);
    double worst = 0;
    for (long k = 1; k * h <= TEND + 1e-12; k++) {
        assert_int_equal(nsm_sim_step(ts), NS_OK);
        if (k % every == 0) worst = fmax(worst, fabs(nsm_sim_q(ts, 0)[0] - tr->u[k / every]));
    }
    nsm_sim_free(ts);
    return worst;
}

static void test_cam_358(void **state)
{
    (void)state;
    nsm_model *m = follower();
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = TEND; o.output_step = 1e-4; o.hmin = 1e-12;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *ed = nsm_ed_new(m, &o, err);
    assert_non_null(ed);
    static trace tr;
    tr.nimp = 0; tr.worst_law = 0; tr.min_gap = INFINITY;
    assert_int_equal(nsm_ed_run(ed, obs, &tr), NS_OK);
    assert_true(tr.nimp >= 3);
    assert_true(tr.worst_law < 1e-10);
    assert_true(tr.min_gap > -1e-8);
    double d1 = ts_diff(m, &tr, 1e-4), d2 = ts_diff(m, &tr, 2.5e-5);
    printf("cam 358 rpm, %d impacts: max |u_ts - u_ed| = %.3e (h = 1e-4), %.3e (h = 2.5e-5)\n", tr.nimp, d1, d2);
    assert_true(d1 < 3e-2);
    assert_true(d2 < 0.6 * d1);
    nsm_ed_free(ed);
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_cam_358) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
