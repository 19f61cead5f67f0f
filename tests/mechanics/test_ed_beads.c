/* test_ed_beads.c — event-driven acceptance 3: a column of touching beads
 * (radius R, mass 1) dropped from 0.5 above the floor. The floor impact is
 * simultaneous with the touching contacts: one impact LCP over every
 * contact (I1 = floor + the touching pairs). Checks: that LCP had all
 * contacts active (λ[1] > 0 on each row); the post-impact velocities equal
 * the Newton solution e·√(2 g 0.5) for every bead (inner contacts closed
 * with zero relative velocity stay closed); and the event-driven state
 * agrees with Moreau–Jean time-stepping at small h (h = 1e-5) shortly after
 * the impact (positions O(h), velocities O(h)). Also a mixed-mass column. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include "nonsmooth/nsm.h"

#define G 9.81
#define RAD 0.1
#define NB 4

static nsm_model *column(const double *mass, double e)
{
    nsm_model *m = nsm_model_new();
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, e));
    for (int i = 0; i < NB; i++) {
        double M[1] = { mass[i] }, q0[1] = { 0.5 + RAD + 2 * RAD * i }, v0[1] = { 0 }, f[1] = { -G * mass[i] };
        nsm_ds *d = nsm_ds_lagrangian_lti_new(1, M, q0, v0);
        nsm_ds_set_fext_constant(d, f);
        nsm_model_add_ds(m, d);
    }
    double H[1] = { 1 }, b[1] = { -RAD };
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, H, b), law, 0, -1) >= 0);
    for (int i = 0; i + 1 < NB; i++) {
        double H2[2] = { -1, 1 }, b2[1] = { -2 * RAD };
        assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 2, H2, b2), law, i, i + 1) >= 0);
    }
    return m;
}

typedef struct first { int seen, active; double t, v[NB]; } first;

static int obs(nsm_ed *s, const nsm_event *ev, void *user)
{
    first *f = user;
    if (ev->type != NSM_EVENT_NONSMOOTH || !ev->impact || f->seen) return 0;
    f->seen = 1;
    f->t = ev->t;
    for (int r = 0; r < nsm_ed_nrows(s); r++) {
        int in, c;
        nsm_ed_row(s, r, &in, &c);
        if (nsm_ed_lambda(s, in, 1)[c] > 0) f->active++;
    }
    for (int i = 0; i < NB; i++) f->v[i] = nsm_ed_v(s, i)[0];
    return 0;
}

static void compare(const double *mass, double e, int exact_together)
{
    double T = 0.4;   /* impact at √(2·0.5/g) ≈ 0.319; next one after 0.4 */
    nsm_model *m = column(mass, e);
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = T; o.output_step = 0.1;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *ed = nsm_ed_new(m, &o, err);
    assert_non_null(ed);
    first f = { 0 };
    assert_int_equal(nsm_ed_run(ed, obs, &f), NS_OK);
    assert_int_equal(f.seen, 1);
    assert_true(fabs(f.t - sqrt(2 * 0.5 / G)) < 1e-9);
    assert_int_equal(f.active, NB);   /* floor + NB − 1 touching contacts */
    double v0 = sqrt(2 * G * 0.5);
    if (exact_together)
        for (int i = 0; i < NB; i++) assert_true(fabs(f.v[i] - e * v0) < 1e-9);
    nsm_sim_options so;
    nsm_sim_options_default(&so);
    so.h = 1e-5;
    nsm_sim *ts = nsm_sim_new(m, &so, err);
    assert_non_null(ts);
    assert_int_equal(nsm_sim_run(ts, T, NULL, NULL), NS_OK);
    double dq = 0, dv = 0;
    for (int i = 0; i < NB; i++) {
        dq = fmax(dq, fabs(nsm_ed_q(ed, i)[0] - nsm_sim_q(ts, i)[0]));
        dv = fmax(dv, fabs(nsm_ed_v(ed, i)[0] - nsm_sim_v(ts, i)[0]));
    }
    printf("beads (e = %g): ED vs TS (h = 1e-5) at t = %g: max |dq| = %.2e, max |dv| = %.2e\n", e, T, dq, dv);
    assert_true(dq < 1e-4);
    assert_true(dv < 1e-3);
    nsm_sim_free(ts);
    nsm_ed_free(ed);
    nsm_model_free(m);
}

static void test_uniform_column(void **state)
{
    (void)state;
    double mass[NB] = { 1, 1, 1, 1 };
    compare(mass, 0.8, 1);
}

static void test_mixed_masses(void **state)
{
    (void)state;
    double mass[NB] = { 2, 1, 0.5, 1 };
    compare(mass, 0.5, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_column),
        cmocka_unit_test(test_mixed_masses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
