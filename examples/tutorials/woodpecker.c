/* woodpecker.c — Woodpecker (Glocker and Pfeiffer's woodpecker toy, the
 * Siconos program WoodPecker.cpp): a sleeve sliding on a pole and a
 * woodpecker body hinged to it by a torsion spring c_φ; q = (y, φ_M, φ_S)
 * (sleeve height, sleeve angle, body angle), constant M (coupled through the
 * body's offsets l_M, l_G), K from the spring, gravity; three contacts, each
 * a 2-D Newton–Coulomb law (normal first, then tangent): the beak on the
 * pole (e = 0.5) and the two sleeve edges on the pole (e = 0), μ = 0.3;
 * Moreau–Jean θ = 0.5, h = 2e-5, 14999 steps, one FC2D problem per step.
 *
 * Columns: t, then y, ẏ, φ_M, φ̇_M, φ_S, φ̇_S. */
#include "tutorials.h"
#include <math.h>

/* geometry [m], inertia [kg, kg m²], spring [N m/rad], as WoodPeckerConsts.h */
static const double r_O = 0.0025, r_M = 0.0031, h_M = 0.0058, l_M = 0.010,
                    l_G = 0.015, h_S = 0.02, l_S = 0.0201;
static const double m_M = 0.0003, m_S = 0.0045, J_M = 5.0e-9, J_S = 7.0e-7;
static const double c_phi = 0.0056, g = 9.81;

static int run(const tut_params *p, tut_table *t, char *err)
{
    double e1 = isnan(p->e) ? 0.5 : p->e;
    const double mu = 0.3, e23 = 0.0;
    double M[9] = { m_S + m_M, m_S * l_M, m_S * l_G,
                    m_S * l_M, J_M + m_S * l_M * l_M, m_S * l_M * l_G,
                    m_S * l_G, m_S * l_M * l_G, J_S + m_S * l_G * l_G }; /* symmetric */
    double K[9] = { 0, 0, 0, 0, c_phi, -c_phi, 0, -c_phi, c_phi };
    double q0[3] = { 0.0, -0.1036, -0.2788 }, v0[3] = { -0.3411, 4.8572e-15, -7.4583 };
    double fext[3] = { -(m_S + m_M) * g, -m_S * l_M * g, -m_S * l_G * g };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    nsm_ds *w = nsm_ds_lagrangian_lti_new(3, M, q0, v0);
    nsm_ds_set_stiffness(w, K);
    nsm_ds_set_fext_constant(w, fext);
    int ds = nsm_model_add_ds(model, w);
    int law1 = nsm_model_add_law(model, nsm_nslaw_newton_coulomb_new(2, e1, mu));
    int law23 = nsm_model_add_law(model, nsm_nslaw_newton_coulomb_new(2, e23, mu));
    /* H (2×3, column-major): row 0 the normal gap, row 1 the tangent */
    double H1[6] = { 0, 1, 0, l_M, -h_S, l_G - l_S }, b1[2] = { l_M + l_G - l_S - r_O, 0 };
    double H2[6] = { 0, 1, h_M, r_M, 0, 0 }, H3[6] = { 0, 1, -h_M, r_M, 0, 0 }, b23[2] = { r_M - r_O, 0 };
    int i1 = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(2, 3, H1, b1), law1, ds, -1);
    int i2 = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(2, 3, H2, b23), law23, ds, -1);
    int i3 = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(2, 3, H3, b23), law23, ds, -1);
    if (ds < 0 || law1 < 0 || law23 < 0 || i1 < 0 || i2 < 0 || i3 < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 2e-5, 0.5, "nsgs", 1e-12);
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 14999);
    int rc = 0;
    double *r = tut_row(t);
    for (long k = 0; k <= N && r; k++) {
        if (k > 0) {
            if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
            if (!(r = tut_row(t))) break;
        }
        r[0] = nsm_sim_time(s);
        const double *q = nsm_sim_q(s, ds), *v = nsm_sim_v(s, ds);
        for (int i = 0; i < 3; i++) { r[1 + 2 * i] = q[i]; r[2 + 2 * i] = v[i]; }
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_woodpecker = {
    "Woodpecker", "woodpecker toy: 3 frictional contacts, Moreau-Jean, FC2D (h = 2e-5)",
    "mechanics/Woodpecker/Woodpecker.ref", 7, 0, run,
    { "position", "velocity", "" },
    { { { 1, "y (sleeve) [m]" }, { 3, "phi_M [rad]" }, { 5, "phi_S [rad]" }, { 0, NULL } },
      { { 2, "dy/dt [m/s]" }, { 4, "dphi_M/dt [rad/s]" }, { 6, "dphi_S/dt [rad/s]" }, { 0, NULL } },
      { { 0, NULL } } },
    NULL
};
