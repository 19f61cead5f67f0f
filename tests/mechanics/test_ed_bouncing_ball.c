/* test_ed_bouncing_ball.c — event-driven acceptance 1 on the bouncing ball
 * of docs/mechanics.md (R = 0.1, m = 1, g = 9.81, z0 = 1, e = 0.9): every
 * impact up to 1e-3 s before the accumulation time t∞ within 1e-9 s of the
 * exact time t1 + Σ 2 eᵏ v1 / g, post-impact velocities e·v⁻; the ball at
 * rest after t∞ (z = R, v = 0, in I2 with λ[2] = m g) and the run reaching
 * T = 10; the events manager's bookkeeping (time events at the output
 * step, nonsmooth events = impacts + closing). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "nonsmooth/nsm.h"

#define G 9.81
#define RAD 0.1
#define Z0 1.0
#define E 0.9

typedef struct rec { int n; double t[400], vb[400], va[400]; long ntime; } rec;

static int obs(nsm_ed *s, const nsm_event *ev, void *user)
{
    rec *r = user;
    (void)s;
    if (ev->type == NSM_EVENT_TIME) r->ntime++;
    if (ev->type == NSM_EVENT_NONSMOOTH && ev->impact && r->n < 400) {
        r->t[r->n] = ev->t; r->vb[r->n] = ev->y1_before; r->va[r->n] = ev->y1_after; r->n++;
    }
    return 0;
}

static nsm_model *ball(int *inter)
{
    nsm_model *m = nsm_model_new();
    double M[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 0.6 * RAD * RAD }, q0[3] = { Z0, 0, 0 }, v0[3] = { 0 };
    double f[3] = { -G, 0, 0 }, H[3] = { 1, 0, 0 }, b[1] = { -RAD };
    nsm_ds *d = nsm_ds_lagrangian_lti_new(3, M, q0, v0);
    nsm_ds_set_fext_constant(d, f);
    int ds = nsm_model_add_ds(m, d);
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, E));
    *inter = nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 3, H, b), law, ds, -1);
    assert_true(*inter >= 0);
    return m;
}

static void test_exact_impacts_and_rest(void **state)
{
    (void)state;
    int inter;
    nsm_model *m = ball(&inter);
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = 10.0; o.output_step = 0.01; o.rtol = 1e-14; o.atol = 1e-16;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *s = nsm_ed_new(m, &o, err);
    assert_non_null(s);
    static rec r;
    r.n = 0; r.ntime = 0;
    assert_int_equal(nsm_ed_run(s, obs, &r), NS_OK);
    double v1 = sqrt(2 * G * (Z0 - RAD)), t1 = sqrt(2 * (Z0 - RAD) / G);
    double tinf = t1 + 2 * E * v1 / (G * (1 - E));
    double tk = t1, vk = v1, terr = 0, verr = 0;
    int k = 0;
    for (; k < r.n && tk <= tinf - 1e-3; k++) {
        terr = fmax(terr, fabs(r.t[k] - tk));
        verr = fmax(verr, fabs(r.va[k] - E * vk));
        assert_true(r.vb[k] < 0 && r.va[k] > 0);
        tk += 2 * E * vk / G;
        vk *= E;
    }
    printf("ED ball: %d impacts checked (of %d), max |t - t_exact| = %.3e s, max |v+ - e v-| = %.3e\n",
           k, r.n, terr, verr);
    assert_true(k >= 80);             /* every impact before t∞ − 1e-3 seen */
    assert_true(terr <= 1e-9);
    assert_true(verr <= 1e-8);
    /* no impact after t∞, the last ones just before it */
    assert_true(r.t[r.n - 1] < tinf + 1e-9);
    assert_true(r.t[r.n - 1] > tinf - 1e-3);
    /* at rest at T = 10 */
    assert_true(fabs(nsm_ed_time(s) - 10.0) < 1e-12);
    assert_true(fabs(nsm_ed_q(s, 0)[0] - RAD) < 1e-9);
    assert_true(fabs(nsm_ed_v(s, 0)[0]) < 1e-9);
    assert_true(fabs(nsm_ed_lambda(s, inter, 2)[0] - G) < 1e-9);
    int ids[2];
    assert_int_equal(nsm_ed_index_set(s, 2, ids, 2), 1);
    assert_int_equal(ids[0], inter);
    const nsm_ed_stats *S = nsm_ed_get_stats(s);
    assert_int_equal(S->events[NSM_EVENT_TIME], 1000);
    assert_int_equal(r.ntime, 1000);
    assert_int_equal(S->impacts, r.n);
    assert_true(S->rests >= 1);
    assert_true(S->cvode_steps > 0 && S->root_evals > 0);
    assert_false(nsm_ed_has_next_event(s));
    nsm_ed_free(s);
    nsm_model_free(m);
}

/* The step API by hand: advance returns NSM_ED_ROOT_RETURN at the first
 * impact with the root info naming the contact row; process_events makes it
 * the current event; a user event is processed at its time. */
static void test_step_api(void **state)
{
    (void)state;
    int inter;
    nsm_model *m = ball(&inter);
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = 1.0; o.output_step = 0.25; o.rtol = 1e-12; o.atol = 1e-14;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *s = nsm_ed_new(m, &o, err);
    assert_non_null(s);
    assert_int_equal(nsm_ed_add_event(s, 0.3), NS_OK);
    assert_int_equal(nsm_ed_add_event(s, 2.0), NS_BAD_INPUT);   /* beyond T */
    assert_null(nsm_ed_current_event(s));
    double t1 = sqrt(2 * (Z0 - RAD) / G);
    int seen_root = 0, seen_user = 0;
    while (nsm_ed_has_next_event(s)) {
        int rc = nsm_ed_advance_to_event(s);
        assert_true(rc >= 0);
        if (rc == NSM_ED_ROOT_RETURN) {
            int rows[1];
            assert_int_equal(nsm_ed_root_info(s, rows, 1), 1);
            assert_int_equal(rows[0], -1);
            int in, comp;
            nsm_ed_row(s, 0, &in, &comp);
            assert_int_equal(in, inter);
            assert_true(fabs(nsm_ed_time(s) - t1) < 1e-10);
            assert_true(fabs(nsm_ed_next_time(s) - t1) < 1e-10);
            seen_root++;
        }
        assert_int_equal(nsm_ed_process_events(s), NS_OK);
        const nsm_event *ev = nsm_ed_current_event(s);
        assert_non_null(ev);
        if (ev->type == NSM_EVENT_USER) { seen_user++; assert_true(ev->t == 0.3); }
        if (ev->type == NSM_EVENT_NONSMOOTH) assert_int_equal(ev->root, NSM_ROOT_CLOSE);
    }
    assert_int_equal(seen_user, 1);
    assert_int_equal(seen_root, 1);   /* t1 ≈ 0.428; the second impact (≈ 1.199) is after T */
    nsm_event past[16];
    int np = nsm_ed_past_events(s, past, 16);
    assert_true(np >= 5);
    for (int i = 1; i < np && i < 16; i++) assert_true(past[i].t >= past[i - 1].t);
    nsm_ed_free(s);
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_impacts_and_rest),
        cmocka_unit_test(test_step_api),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
