/* friction_oscillator.c — FrictionOscillator: a mass–spring oscillator (m = 1,
 * k = 1, x = (position, velocity), x(0) = (12, 6)) with Coulomb friction of
 * unit threshold as a relay on the velocity: ẋ = A x + B λ, A = [0 1; −1 0],
 * B = (0, 1)ᵀ, y = (0 1) x, −y ∈ N_[−1,1](λ); Euler–Moreau θ = 0.5,
 * h = 0.01, 9999 steps, one relay problem per step (Lemke).
 *
 * Columns: t, x₀, x₁, λ, y, 0, 0, ẋ₀, ẋ₁ (the right-hand side A x + r after
 * the step; its first row repeats the second, as the program does), 0. */
#include "tutorials.h"
#include <math.h>

static int run(const tut_params *p, tut_table *t, char *err)
{
    double A[4] = { 0, -1, 1, 0 }, x0[2] = { 12.0, 6.0 };
    double Cm[2] = { 0, 1 }, B[2] = { 0, 1 }, lb[1] = { -1 }, ub[1] = { 1 };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    int ds = nsm_model_add_ds(model, nsm_ds_first_order_lti_new(2, A, NULL, NULL, x0));
    int law = nsm_model_add_law(model, nsm_nslaw_relay_new(1, lb, ub));
    int in = nsm_model_add_interaction(model, nsm_relation_first_order_linear_new(1, 2, Cm, NULL, B, NULL), law, ds, -1);
    if (ds < 0 || law < 0 || in < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 1e-2, 0.5, "lemke", 1e-8);
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 9999);
    int rc = 0;
    double *r = tut_row(t);
    if (r) { r[1] = x0[0]; r[2] = x0[1]; }
    for (long k = 1; k <= N && r; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) break;
        const double *x = nsm_sim_x(s, ds), *rr = nsm_sim_p(s, ds);
        r[0] = nsm_sim_time(s);
        r[1] = x[0];
        r[2] = x[1];
        r[3] = nsm_sim_lambda(s, in, 0)[0];
        r[4] = nsm_sim_y(s, in, 0)[0];
        r[7] = A[0] * x[0] + A[2] * x[1] + rr[0];
        r[8] = A[1] * x[0] + A[3] * x[1] + rr[1];
        if (k == 1) { t->v[7] = r[7]; t->v[8] = r[8]; }
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_friction_oscillator = {
    "FrictionOscillator", "oscillator with Coulomb friction as a relay, Euler-Moreau, relay problem (h = 0.01)",
    "mechanics/FrictionOscillator/FrictionOscillator.ref", 10, 0, run,
    { "position", "velocity", "friction force" },
    { { { 1, "x" }, { 0, NULL } }, { { 2, "dx/dt" }, { 0, NULL } }, { { 3, "lambda" }, { 0, NULL } } },
    NULL
};
