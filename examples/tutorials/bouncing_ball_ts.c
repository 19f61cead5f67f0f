/* bouncing_ball_ts.c — BouncingBallTS and BouncingBallTS-MoreauJeanGOSI:
 * a ball (q = (z, x, θ), M = diag(m, m, 2/5 m R²), m = 1, R = 0.1) dropped
 * from z = 1 at rest under gravity g = 9.81 onto the plane z = 0 (the
 * contact is on the centre: y = z), Newton restitution e = 0.9; Moreau–Jean
 * θ = 0.5, h = 0.005, 2000 steps.
 *
 * BouncingBallTS solves an LCP per step; the GOSI twin models the same
 * contact as a 3-D frictional one (H = I₃, Newton–Coulomb e = 0.9, μ = 0.6;
 * the ball never slides, so the trajectory is the LCP's).
 *
 * Columns: t, z, ż, p_z (= Hᵀ P), P (the normal impulse of the step). */
#include "tutorials.h"
#include <math.h>

static int run(const tut_params *p, tut_table *t, char *err, int friction)
{
    const double m = 1.0, R = 0.1, g = 9.81;
    double e = isnan(p->e) ? 0.9 : p->e;
    double M[9] = { m, 0, 0, 0, m, 0, 0, 0, 0.4 * m * R * R };
    double q0[3] = { 1.0, 0, 0 }, v0[3] = { 0, 0, 0 }, fext[3] = { -m * g, 0, 0 };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    nsm_ds *ball = nsm_ds_lagrangian_lti_new(3, M, q0, v0);
    nsm_ds_set_fext_constant(ball, fext);
    int ds = nsm_model_add_ds(model, ball), law, inter;
    if (friction) {
        double H[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
        law = nsm_model_add_law(model, nsm_nslaw_newton_coulomb_new(3, e, 0.6));
        inter = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(3, 3, H, NULL), law, ds, -1);
    } else {
        double H[3] = { 1, 0, 0 };
        law = nsm_model_add_law(model, nsm_nslaw_newton_new(1, e));
        inter = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, 3, H, NULL), law, ds, -1);
    }
    if (ds < 0 || law < 0 || inter < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 0.005, 0.5, NULL, friction ? 1e-12 : 0);
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 2000);
    int rc = 0;
    double *r = tut_row(t);
    if (r) { r[0] = 0.0; r[1] = q0[0]; }
    for (long k = 0; k < N && r; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k + 1, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) break;
        r[0] = nsm_sim_time(s);
        r[1] = nsm_sim_q(s, ds)[0];
        r[2] = nsm_sim_v(s, ds)[0];
        r[3] = nsm_sim_p(s, ds)[0];
        r[4] = nsm_sim_lambda(s, inter, 1)[0];
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

static int run_lcp(const tut_params *p, tut_table *t, char *err) { return run(p, t, err, 0); }
static int run_gosi(const tut_params *p, tut_table *t, char *err) { return run(p, t, err, 1); }

#define BB_PLOT { "height z [m]", "velocity [m/s]", "impulse [N s]" }, \
    { { { 1, "z" }, { 0, NULL } }, { { 2, "dz/dt" }, { 0, NULL } }, { { 4, "P (normal impulse)" }, { 0, NULL } } }

const tut_model tut_bouncing_ball_ts = {
    "BouncingBallTS", "bouncing ball, Moreau-Jean, LCP (e = 0.9, h = 0.005)",
    "mechanics/BouncingBall/BouncingBallTS.ref", 5, 0, run_lcp, BB_PLOT,
    NULL
};

const tut_model tut_bouncing_ball_gosi = {
    "BouncingBallTS-MoreauJeanGOSI", "the same ball as a 3-D frictional contact (mu = 0.6), FC3D",
    "mechanics/BouncingBall/BouncingBallTS-MoreauJeanGOSI.ref", 5, 0, run_gosi, BB_PLOT,
    NULL
};
