/* circuit_rlcd.c — CircuitRLCD: a series circuit of an inductor L = 10 mH,
 * a capacitor C = 1 µF, a resistor R = 1 kΩ and an ideal diode; state
 * x = (v_C, i_L), x(0) = (10 V, 0), ẋ = A x + r with A = [0 −1/C; 1/L 0];
 * the diode and the resistor: 0 ≤ y = −v_C + R λ ⊥ λ ≥ 0, r = (−λ/C, 0)
 * (λ the current through them); Euler–Moreau θ = 0.5 + 1e-13, h = 10 µs, 499 steps, one
 * LCP of size 1 per step.
 *
 * Columns: t, v_C, i_L, −y, λ, r₀ (r₀ is written at t = 0 only, as the
 * program does; it is 0 there). */
#include "tutorials.h"
#include <math.h>

static int run(const tut_params *p, tut_table *t, char *err)
{
    const double L = 1e-2, C = 1e-6, R = 1e3;
    double A[4] = { 0, 1.0 / L, -1.0 / C, 0 };          /* column-major */
    double x0[2] = { 10.0, 0.0 };
    double Cm[2] = { -1.0, 0.0 }, D[1] = { R }, B[2] = { -1.0 / C, 0.0 };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    int ds = nsm_model_add_ds(model, nsm_ds_first_order_lti_new(2, A, NULL, NULL, x0));
    int law = nsm_model_add_law(model, nsm_nslaw_complementarity_new(1));
    int in = nsm_model_add_interaction(model, nsm_relation_first_order_linear_new(1, 2, Cm, D, B, NULL), law, ds, -1);
    if (ds < 0 || law < 0 || in < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 10e-6, 0.5000000000001, NULL, 0);
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 499);
    int rc = 0;
    double *r = tut_row(t);
    if (r) { r[0] = 0; r[1] = x0[0]; r[2] = x0[1]; r[3] = -(Cm[0] * x0[0] + Cm[1] * x0[1]); }
    for (long k = 1; k <= N && r; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) break;
        const double *x = nsm_sim_x(s, ds);
        r[0] = nsm_sim_time(s);
        r[1] = x[0];
        r[2] = x[1];
        r[3] = -nsm_sim_y(s, in, 0)[0];
        r[4] = nsm_sim_lambda(s, in, 0)[0];
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_circuit_rlcd = {
    "CircuitRLCD", "RLC circuit with an ideal diode, Euler-Moreau, LCP (h = 10 us)",
    "electronics/CircuitRLCD/CircuitRLCD.ref", 6, 0, run,
    { "voltage [V]", "current [A]", "diode current [A]" },
    { { { 1, "v_C" }, { 3, "diode voltage -y" }, { 0, NULL } }, { { 2, "i_L" }, { 0, NULL } },
      { { 4, "lambda" }, { 0, NULL } } },
    NULL
};
