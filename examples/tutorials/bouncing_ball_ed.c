/* bouncing_ball_ed.c — the event-driven bouncing balls (Siconos' LsodarOSI
 * programs; here CVODE with root finding, nsm_event_driven.h):
 *
 *  BouncingBallED                      the ball of BouncingBallTS (y = z,
 *      M = diag(m, m, 3/5 m R²)), e = 0.9, outputs every 5 ms up to 8.5 s;
 *  BouncingBallED-withRestingContact   the same with e = 0: one impact, then
 *      the ball rests on the plane (contact force m g);
 *  BouncingBallED-TwoContacts          between a floor y₁ = z and a ceiling
 *      y₂ = 1.5 − z, z(0) = 1, ż(0) = 10, g = 10, e = 0.8, outputs every
 *      10 ms up to 10 s.
 *
 * Rows, as the programs write them: one per processed event (the output
 * grid and the nonsmooth events); before the row of a nonsmooth event, a
 * row with the state just before it (t, z⁻, ż⁻, and for BouncingBallED the
 * impulse and force after it). Columns:
 *   BouncingBallED:  t, z, ż, p (= Hᵀ P of the event), f (= Hᵀ λ[2]), P, λ[2]
 *   withRestingContact: t, z, ż, p, f
 *   TwoContacts: t, z, ż, p, 0, y₁, y₂, z̈, f (first row: the initial state)
 * (the impulse is that of the current event: 0 at output-grid rows). */
#include "tutorials.h"
#include <math.h>
#include <string.h>

enum { ED_BASIC, ED_REST, ED_TWO };

#ifdef NSM_HAVE_EVENT_DRIVEN
static int run(const tut_params *p, tut_table *t, char *err, int variant)
{
    const double m = 1.0, R = 0.1;
    double g = variant == ED_TWO ? 10.0 : 9.81;
    double e = !isnan(p->e) ? p->e : variant == ED_BASIC ? 0.9 : variant == ED_REST ? 0.0 : 0.8;
    double T = variant == ED_TWO ? 10.0 : 8.5, h = p->h > 0 ? p->h : variant == ED_TWO ? 0.01 : 0.005;
    double M[9] = { m, 0, 0, 0, m, 0, 0, 0, 0.6 * m * R * R };
    double q0[3] = { 1.0, 0, 0 }, v0[3] = { variant == ED_TWO ? 10.0 : 0.0, 0, 0 }, fext[3] = { -m * g, 0, 0 };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    nsm_ds *ball = nsm_ds_lagrangian_lti_new(3, M, q0, v0);
    nsm_ds_set_fext_constant(ball, fext);
    int ds = nsm_model_add_ds(model, ball);
    int law = nsm_model_add_law(model, nsm_nslaw_newton_new(1, e));
    double H1[3] = { 1, 0, 0 }, H2[3] = { -1, 0, 0 }, b2[1] = { 1.5 };
    int i1 = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, 3, H1, NULL), law, ds, -1);
    int i2 = variant == ED_TWO
                 ? nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, 3, H2, b2), law, ds, -1)
                 : -1;
    if (ds < 0 || law < 0 || i1 < 0 || (variant == ED_TWO && i2 < 0)) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = T;
    o.output_step = h;
    o.rtol = 1e-13;
    o.atol = 1e-15;
    if (p->solver) o.solver = p->solver;
    if (p->tol > 0) o.solver_options.tol = p->tol;
    char e2[NS_ERRMSG_LEN] = "";
    nsm_ed *s = nsm_ed_new(model, &o, e2);
    if (!s) {
        tut_fail(err, "%s", e2);
        nsm_model_free(model);
        return -1;
    }
    int rc = 0;
    double *r = NULL;
    if (variant == ED_TWO) {
        if ((r = tut_row(t))) {
            r[1] = q0[0]; r[2] = v0[0]; r[5] = q0[0]; r[6] = b2[0] - q0[0]; r[7] = -g;
        }
    }
    long maxev = p->steps > 0 ? p->steps : -1;
    for (long k = 0; nsm_ed_has_next_event(s) && k != maxev; k++) {
        if (nsm_ed_advance_to_event(s) < 0) { rc = tut_fail(err, "%s", nsm_ed_error(s)); break; }
        double zm = nsm_ed_q(s, ds)[0], vm = nsm_ed_v(s, ds)[0];
        if (nsm_ed_process_events(s) != NS_OK) { rc = tut_fail(err, "%s", nsm_ed_error(s)); break; }
        const nsm_event *ev = nsm_ed_current_event(s);
        int ns = ev->type == NSM_EVENT_NONSMOOTH;
        /* impulse and force along z: Hᵀ λ summed over the contacts */
        double P1 = ns && ev->impact ? nsm_ed_lambda(s, i1, 1)[0] : 0.0, P2 = 0.0;
        double F1 = nsm_ed_lambda(s, i1, 2)[0], F2 = 0.0;
        if (i2 >= 0) {
            P2 = ns && ev->impact ? nsm_ed_lambda(s, i2, 1)[0] : 0.0;
            F2 = nsm_ed_lambda(s, i2, 2)[0];
        }
        double pz = P1 - P2, fz = F1 - F2;
        if (ns) {
            if (!(r = tut_row(t))) break;
            r[0] = ev->t; r[1] = zm; r[2] = vm;
            if (variant == ED_BASIC) { r[3] = pz; r[4] = fz; }
        }
        if (!(r = tut_row(t))) break;
        r[0] = ev->t;
        r[1] = nsm_ed_q(s, ds)[0];
        r[2] = nsm_ed_v(s, ds)[0];
        r[3] = pz;
        if (variant == ED_TWO) {
            r[5] = nsm_ed_y(s, i1, 0)[0];
            r[6] = nsm_ed_y(s, i2, 0)[0];
            r[7] = (fext[0] + fz) / m;
            r[8] = fz;
        } else {
            r[4] = fz;
            if (variant == ED_BASIC) { r[5] = P1; r[6] = F1; }
        }
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_ed_free(s);
    nsm_model_free(model);
    return rc;
}
#else
static int run(const tut_params *p, tut_table *t, char *err, int variant)
{
    (void)p; (void)t; (void)variant;
    return tut_fail(err, "built without CVODE: no event-driven scheme");
}
#endif

static int run_basic(const tut_params *p, tut_table *t, char *err) { return run(p, t, err, ED_BASIC); }
static int run_rest(const tut_params *p, tut_table *t, char *err) { return run(p, t, err, ED_REST); }
static int run_two(const tut_params *p, tut_table *t, char *err) { return run(p, t, err, ED_TWO); }

const tut_model tut_bouncing_ball_ed = {
    "BouncingBallED", "bouncing ball, event-driven (CVODE root finding), e = 0.9",
    "mechanics/BouncingBallEventDriven/BouncingBallED.ref", 7, 1, run_basic,
    { "height z [m]", "velocity [m/s]", "impulse [N s], force [N]" },
    { { { 1, "z" }, { 0, NULL } }, { { 2, "dz/dt" }, { 0, NULL } },
      { { 5, "impulse P" }, { 6, "contact force lambda[2]" }, { 0, NULL } } },
    NULL
};

const tut_model tut_bouncing_ball_ed_rest = {
    "BouncingBallED-withRestingContact", "bouncing ball, event-driven, e = 0: impact, then rest",
    "mechanics/BouncingBallEventDriven/BouncingBallED-withRestingContact.ref", 5, 1, run_rest,
    { "height z [m]", "velocity [m/s]", "impulse [N s], force [N]" },
    { { { 1, "z" }, { 0, NULL } }, { { 2, "dz/dt" }, { 0, NULL } },
      { { 3, "impulse p" }, { 4, "contact force f" }, { 0, NULL } } },
    NULL
};

const tut_model tut_bouncing_ball_ed_two = {
    "BouncingBallED-TwoContacts", "ball between a floor and a ceiling, event-driven, e = 0.8",
    "mechanics/BouncingBallEventDriven/BouncingBallED-TwoContacts.ref", 9, 1, run_two,
    { "height z, gaps [m]", "velocity [m/s]", "impulse [N s], force [N]" },
    { { { 1, "z" }, { 6, "gap to the ceiling" }, { 0, NULL } }, { { 2, "dz/dt" }, { 0, NULL } },
      { { 3, "impulse p" }, { 8, "contact force f" }, { 0, NULL } } },
    NULL
};
