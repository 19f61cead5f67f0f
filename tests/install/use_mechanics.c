/* A ball (mass m, one coordinate z) dropped from z = 1 onto the floor z ≥ 0
 * with restitution 0, simulated through an installed libnonsmooth_mechanics
 * (Moreau–Jean, θ = ½, h = 1 ms). Checks three analytic facts:
 *  - free fall: with θ = ½ the scheme integrates a constant force exactly,
 *    so z(0.2) = 1 − g·0.2²/2 to round-off;
 *  - after the plastic impact the ball rests: v = 0 and the floor's impulse
 *    per step is m g h;
 *  - the resting position is within one step's travel of the floor.
 * Also checks that ns_config.h agrees with the linked library's version.
 * Exit 0 when all hold. */
#include <nonsmooth/nonsmooth.h>
#include <nonsmooth/nsm.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    char ver[32];
    snprintf(ver, sizeof ver, "%d.%d.%d", NS_VERSION_NUMBER / 10000,
             NS_VERSION_NUMBER / 100 % 100, NS_VERSION_NUMBER % 100);
    if (strcmp(ver, ns_version()) != 0) {
        fprintf(stderr, "ns_config.h says %s, library %s\n", ver, ns_version());
        return 1;
    }
    const double m = 2.0, g = 9.81, h = 1e-3;
    const double M[1] = { m }, q0[1] = { 1.0 }, v0[1] = { 0.0 }, f[1] = { -m * g };
    const double H[1] = { 1.0 };
    char err[NS_ERRMSG_LEN];
    nsm_model *model = nsm_model_new();
    if (!model) return 1;
    nsm_ds *ball = nsm_ds_lagrangian_lti_new(1, M, q0, v0);
    if (!ball || nsm_ds_set_fext_constant(ball, f) != NS_OK) return 1;
    int ds = nsm_model_add_ds(model, ball);
    int law = nsm_model_add_law(model, nsm_nslaw_newton_new(1, 0.0));
    int in = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, 1, H, NULL),
                                       law, ds, -1);
    if (ds < 0 || law < 0 || in < 0) {
        fprintf(stderr, "model: %s\n", nsm_model_error(model));
        nsm_model_free(model);
        return 1;
    }
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    nsm_sim *s = nsm_sim_new(model, &o, err);
    if (!s) { fprintf(stderr, "sim: %s\n", err); nsm_model_free(model); return 1; }
    int ok = 1;
    double z02 = NAN;
    for (long k = 1; k <= 1000 && ok; k++) {
        if (nsm_sim_step(s) != NS_OK) { fprintf(stderr, "step %ld: %s\n", k, nsm_sim_error(s)); ok = 0; }
        if (k == 200) z02 = nsm_sim_q(s, ds)[0];
    }
    double z = nsm_sim_q(s, ds)[0], v = nsm_sim_v(s, ds)[0];
    double P = nsm_sim_lambda(s, in, 1)[0];
    double zfree = 1.0 - g * 0.2 * 0.2 / 2;
    ok = ok && fabs(z02 - zfree) < 1e-12 && fabs(v) < 1e-12 &&
         fabs(P - m * g * h) < 1e-9 * m * g * h && z > -sqrt(2 * g) * h && z < sqrt(2 * g) * h;
    printf("%s: z(0.2) = %.15g (exact %.15g), at t = 1: z = %.3g, v = %.3g, impulse %.12g (m g h = %.12g)\n",
           ok ? "ok" : "FAILED", z02, zfree, z, v, P, m * g * h);
#ifdef NSM_HAVE_EVENT_DRIVEN
    nsm_ed_options eo;
    nsm_ed_options_default(&eo);   /* declared: this build has the event-driven scheme */
#endif
    nsm_sim_free(s);
    nsm_model_free(model);
    return ok ? 0 : 1;
}
