/* bouncing_ball_projection.c — BouncingBallTS-MoreauJeanDirectProjectionOSI
 * and BouncingBallTS-MoreauJeanCombinedProjectionOSI: the ball of
 * BouncingBallTS (y = z, e = 0.9, h = 0.005, 2000 steps) with a position
 * projection after each velocity step, which keeps z ≥ 0 at the end of the
 * step (the plain scheme lets the ball sink by O(h) at impacts):
 *
 *  direct: the contacts of the step's problem are projected as
 *     complementarity rows (z + λ ≥ 0 ⊥ λ ≥ 0), at most 20 position problems,
 *     unilateral tolerance 1e-8;
 *  combined: each step starts with no contact active and is redone with
 *     the contacts whose gap closed, held on y = 0 (at most 4 position
 *     problems, tolerances 1e-10).
 *
 * Columns: t, z, ż, p_z (velocity level), P, p_z (position level, Hᵀ λ₀),
 * λ₀ (the multiplier of the last position problem). */
#include "tutorials.h"
#include <math.h>

static int run(const tut_params *p, tut_table *t, char *err, int combined)
{
    const double m = 1.0, R = 0.1, g = 9.81;
    double e = isnan(p->e) ? 0.9 : p->e;
    double M[9] = { m, 0, 0, 0, m, 0, 0, 0, 0.4 * m * R * R };
    double q0[3] = { 1.0, 0, 0 }, v0[3] = { 0, 0, 0 }, fext[3] = { -m * g, 0, 0 }, H[3] = { 1, 0, 0 };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    nsm_ds *ball = nsm_ds_lagrangian_lti_new(3, M, q0, v0);
    nsm_ds_set_fext_constant(ball, fext);
    int ds = nsm_model_add_ds(model, ball);
    int law = nsm_model_add_law(model, nsm_nslaw_newton_new(1, e));
    int inter = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, 3, H, NULL), law, ds, -1);
    if (ds < 0 || law < 0 || inter < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 0.005, 0.5, NULL, 0);
    if (combined) {
        o.projection = NSM_PROJECTION_COMBINED;
        o.projection_max_iter = 4;
        o.projection_tol = o.projection_tol_unilateral = 1e-10;
    } else {
        o.projection = NSM_PROJECTION_DIRECT;
        o.projection_max_iter = 20;
        o.projection_tol = 1e-4;
        o.projection_tol_unilateral = 1e-8;
    }
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 2000);
    int rc = 0;
    double *r = tut_row(t);
    if (r) r[1] = q0[0];
    for (long k = 1; k <= N && r; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) break;
        const double *l0 = nsm_sim_lambda(s, inter, 0);
        r[0] = nsm_sim_time(s);
        r[1] = nsm_sim_q(s, ds)[0];
        r[2] = nsm_sim_v(s, ds)[0];
        r[3] = nsm_sim_p(s, ds)[0];
        r[4] = nsm_sim_lambda(s, inter, 1)[0];
        r[5] = l0 ? H[0] * l0[0] : 0.0;
        r[6] = l0 ? l0[0] : 0.0;
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

static int run_direct(const tut_params *p, tut_table *t, char *err) { return run(p, t, err, 0); }
static int run_combined(const tut_params *p, tut_table *t, char *err) { return run(p, t, err, 1); }

#define BBP_PLOT { "height z [m]", "velocity [m/s]", "multipliers" }, \
    { { { 1, "z" }, { 0, NULL } }, { { 2, "dz/dt" }, { 0, NULL } }, \
      { { 4, "P (velocity)" }, { 6, "lambda0 (position)" }, { 0, NULL } } }

const tut_model tut_bouncing_ball_direct = {
    "BouncingBallTS-MoreauJeanDirectProjectionOSI", "bouncing ball with direct position projection",
    "mechanics/BouncingBall/BouncingBallTS-MoreauJeanDirectProjectionOSI.ref", 7, 0, run_direct, BBP_PLOT,
    NULL
};

const tut_model tut_bouncing_ball_combined = {
    "BouncingBallTS-MoreauJeanCombinedProjectionOSI", "bouncing ball with combined position projection",
    "mechanics/BouncingBall/BouncingBallTS-MoreauJeanCombinedProjectionOSI.ref", 7, 0, run_combined, BBP_PLOT,
    NULL
};
