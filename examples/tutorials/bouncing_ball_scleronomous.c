/* bouncing_ball_scleronomous.c — BouncingBallTS-Scleronomous: the ball of
 * BouncingBallTS (M = diag(m, m, 2/5 m R²)) with g = 10 and h = 0.025,
 * against a contact given as a scleronomous relation y = h(q) = z + α x
 * (α = 0.1, ∇h = (1, α, 0)): the impulse acts along ∇hᵀ and so pushes x as
 * well; Newton e = 0.9, Moreau–Jean θ = 0.5, 400 steps.
 *
 * The ref was made by a 2021 Siconos that activates the contact on the gap
 * at the predictor, y(q_k + h v_k) + (h/2) ẏ_k ≤ 0
 * (nsm_sim_options.activation = NSM_ACTIVATION_PREDICTED).
 *
 * Columns: t, z, x, ż, ẋ, p_z, P. */
#include "tutorials.h"
#include <math.h>

static const double ALPHA = 0.1;

static int hfun(double t, int nq, const double *q, int m, double *y, void *u)
{
    y[0] = q[0] + ALPHA * q[1];
    return 0;
}

static int jach(double t, int nq, const double *q, int m, double *H, void *u)
{
    H[0] = 1.0; H[1] = ALPHA; H[2] = 0.0;
    return 0;
}

static int run(const tut_params *p, tut_table *t, char *err)
{
    const double m = 1.0, R = 0.1, g = 10.0;
    double e = isnan(p->e) ? 0.9 : p->e;
    double M[9] = { m, 0, 0, 0, m, 0, 0, 0, 0.4 * m * R * R };
    double q0[3] = { 1.0, 0, 0 }, v0[3] = { 0, 0, 0 }, fext[3] = { -m * g, 0, 0 };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    nsm_ds *ball = nsm_ds_lagrangian_lti_new(3, M, q0, v0);
    nsm_ds_set_fext_constant(ball, fext);
    int ds = nsm_model_add_ds(model, ball);
    int law = nsm_model_add_law(model, nsm_nslaw_newton_new(1, e));
    int inter = nsm_model_add_interaction(model, nsm_relation_scleronomous_new(1, 3, hfun, jach, NULL), law, ds, -1);
    if (ds < 0 || law < 0 || inter < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 0.025, 0.5, NULL, 0);
    o.activation = NSM_ACTIVATION_PREDICTED;
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 400);
    int rc = 0;
    double *r = tut_row(t);
    if (r) r[1] = q0[0];
    for (long k = 1; k <= N && r; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) break;
        const double *q = nsm_sim_q(s, ds), *v = nsm_sim_v(s, ds);
        r[0] = nsm_sim_time(s);
        r[1] = q[0]; r[2] = q[1]; r[3] = v[0]; r[4] = v[1];
        r[5] = nsm_sim_p(s, ds)[0];
        r[6] = nsm_sim_lambda(s, inter, 1)[0];
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_bouncing_ball_scleronomous = {
    "BouncingBallTS-Scleronomous", "ball against a slanted contact y = z + 0.1 x (scleronomous), predicted activation",
    "mechanics/BouncingBall/BouncingBallTS-Scleronomous.ref", 7, 0, run,
    { "position [m]", "velocity [m/s]", "impulse [N s]" },
    { { { 1, "z" }, { 2, "x" }, { 0, NULL } }, { { 3, "dz/dt" }, { 4, "dx/dt" }, { 0, NULL } },
      { { 6, "P" }, { 0, NULL } } },
    NULL
};
