/* diode_bridge_cap_filter.c — DiodeBridgeCapFilter: the diode bridge with a
 * filtering capacitor C_f = 300 nF across the load R = 1 kΩ: two first-order
 * systems, the LC tank x₁ = (v_C, i_L) (L = 10 mH, C = 1 µF, x₁(0) =
 * (10 V, 0)) and the filter x₂ = v_f (ẋ₂ = −x₂/(R C_f) + r₂, x₂(0) = 0),
 * coupled by one relation of size 4 over X = (x₁, x₂) (the program's C, D,
 * B); Euler–Moreau θ = 1, h = 1 µs, 4999 steps, one LCP of size 4 per step.
 *
 * Columns: t, v_C, i_L, λ₀, −y₀, −λ₁, λ₂. The ref's columns 4–6 are stale
 * (the Siconos program compares columns 0–3 only). */
#include "tutorials.h"
#include <math.h>

static int run(const tut_params *p, tut_table *t, char *err)
{
    const double L = 1e-2, C = 1e-6, R = 1e3, Cf = 300e-9;
    double A1[4] = { 0, 1.0 / L, -1.0 / C, 0 }, A2[1] = { -1.0 / (R * Cf) };
    double x1[2] = { 10.0, 0.0 }, x2[1] = { 0.0 };
    /* 4×3 C, 4×4 D, 3×4 B, column-major */
    double Cm[12] = { 0, 0, -1, 1,   0, 0, 0, 0,   1, 0, 1, 0 };
    double D[16] = { 0, 1, 0, 0,   -1, 0, -1, 1,   0, 1, 0, 0,   0, -1, 0, 0 };
    double B[12] = { 0, 0, 1 / Cf,   0, 0, 0,   -1 / C, 0, 1 / Cf,   1 / C, 0, 0 };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    int d1 = nsm_model_add_ds(model, nsm_ds_first_order_lti_new(2, A1, NULL, NULL, x1));
    int d2 = nsm_model_add_ds(model, nsm_ds_first_order_lti_new(1, A2, NULL, NULL, x2));
    int law = nsm_model_add_law(model, nsm_nslaw_complementarity_new(4));
    int in = nsm_model_add_interaction(model, nsm_relation_first_order_linear_new(4, 3, Cm, D, B, NULL), law, d1, d2);
    if (d1 < 0 || d2 < 0 || law < 0 || in < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 1e-6, 1.0, NULL, 0);
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 4999);
    int rc = 0;
    double *r = tut_row(t);
    if (r) { r[1] = x1[0]; r[2] = x1[1]; }
    for (long k = 1; k <= N && r; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) break;
        const double *x = nsm_sim_x(s, d1), *y = nsm_sim_y(s, in, 0), *l = nsm_sim_lambda(s, in, 0);
        r[0] = nsm_sim_time(s);
        r[1] = x[0];
        r[2] = x[1];
        r[3] = l[0];
        r[4] = -y[0];
        r[5] = -l[1];
        r[6] = l[2];
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_diode_bridge_cap_filter = {
    "DiodeBridgeCapFilter", "diode bridge with a filtering capacitor: two systems, one relation, theta = 1",
    "electronics/DiodeBridgeCapFilter/DiodeBridgeCapFilter.ref", 7, 0, run,
    { "voltage [V]", "current [A]", "multipliers" },
    { { { 1, "v_C" }, { 4, "-y0" }, { 0, NULL } }, { { 2, "i_L" }, { 0, NULL } },
      { { 3, "lambda0" }, { 5, "-lambda1" }, { 6, "lambda2" }, { 0, NULL } } },
    NULL
};
