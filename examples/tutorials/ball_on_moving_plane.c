/* ball_on_moving_plane.c — BallOnMovingPlane: the ball of BouncingBallTS
 * (q = (z, x, θ), M = diag(m, m, 2/5 m R²), m = 1, R = 0.1, g = 9.81, dropped
 * from z = 1 at rest) above a plane that is a second system of the same mass
 * matrix and weight, starting at 0 at rest, whose height has a prescribed
 * velocity v̄(t) = 2 + cos(πt/2) (a boundary condition on its dof 0:
 * nsm_ds_set_boundary_condition). The contact gap is y = z_ball − z_plane
 * (H = (1 0 0 −1 0 0), Newton e = 0.9); Moreau–Jean θ = 0.5, h = 0.005,
 * 2000 steps.
 *
 * Columns: t, z, ż, p_z, P, x, ẋ (the program writes z, ż in the first row
 * there), z_plane, ż_plane, x_plane, ẋ_plane, and Siconos' "reaction to
 * the boundary conditions" as the program reads it: −(W v̄)₀ + p_plane,0
 * (W = M here; the physical impulse of the imposition is
 * nsm_sim_bc_reaction). */
#include "tutorials.h"
#include <math.h>

static int vbar(double t, int n, double *out, void *user)
{
    out[0] = 2.0 + 1.0 * cos(0.5 * 3.14159265358979323846 * t);
    return 0;
}

static int run(const tut_params *p, tut_table *t, char *err)
{
    const double m = 1.0, R = 0.1, g = 9.81;
    double e = isnan(p->e) ? 0.9 : p->e;
    double M[9] = { m, 0, 0, 0, m, 0, 0, 0, 0.4 * m * R * R };
    double q0[3] = { 1.0, 0, 0 }, v0[3] = { 0, 0, 0 }, qp[3] = { 0, 0, 0 }, fext[3] = { -m * g, 0, 0 };
    double H[6] = { 1, 0, 0, -1, 0, 0 };
    int dof[1] = { 0 };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    nsm_ds *ball = nsm_ds_lagrangian_lti_new(3, M, q0, v0), *plane = nsm_ds_lagrangian_lti_new(3, M, qp, v0);
    nsm_ds_set_fext_constant(ball, fext);
    nsm_ds_set_fext_constant(plane, fext);
    nsm_ds_set_boundary_condition(plane, 1, dof, NULL, vbar, NULL);
    int db = nsm_model_add_ds(model, ball), dp = nsm_model_add_ds(model, plane);
    int law = nsm_model_add_law(model, nsm_nslaw_newton_new(1, e));
    int in = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, 6, H, NULL), law, db, dp);
    if (db < 0 || dp < 0 || law < 0 || in < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 0.005, 0.5, NULL, 0);
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 2000);
    int rc = 0;
    double *r = tut_row(t);
    if (r) { r[1] = q0[0]; r[5] = q0[0]; }
    for (long k = 1; k <= N && r; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) break;
        const double *q = nsm_sim_q(s, db), *v = nsm_sim_v(s, db), *qq = nsm_sim_q(s, dp), *vv = nsm_sim_v(s, dp);
        double vb;
        vbar(nsm_sim_time(s), 1, &vb, NULL);
        r[0] = nsm_sim_time(s);
        r[1] = q[0]; r[2] = v[0];
        r[3] = nsm_sim_p(s, db)[0];
        r[4] = nsm_sim_lambda(s, in, 1)[0];
        r[5] = q[1]; r[6] = v[1];
        r[7] = qq[0]; r[8] = vv[0]; r[9] = qq[1]; r[10] = vv[1];
        r[11] = -M[0] * vb + nsm_sim_p(s, dp)[0];
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_ball_on_moving_plane = {
    "BallOnMovingPlane", "ball bouncing on a plane with a prescribed velocity (boundary condition)",
    "mechanics/BallOnMovingPlane/BallOnMovingPlane.ref", 12, 0, run,
    { "height [m]", "velocity [m/s]", "impulse [N s]" },
    { { { 1, "ball z" }, { 7, "plane z" }, { 0, NULL } }, { { 2, "ball dz/dt" }, { 8, "plane dz/dt" }, { 0, NULL } },
      { { 4, "P" }, { 11, "reaction (Siconos' column)" }, { 0, NULL } } },
    NULL
};
