/* diode_bridge.c — DiodeBridge: an LC tank (L = 10 mH, C = 1 µF, x =
 * (v_C, i_L), x(0) = (10 V, 0)) feeding a resistor R = 1 kΩ through a
 * bridge of four ideal diodes; ẋ = A x + r, A = [0 −1/C; 1/L 0]; the
 * relation y = C x + D λ, r = B λ of size 4 (λ = (v_DR1, v_DF2, i_DF1,
 * i_DR2), the program's C, D, B), complementarity 0 ≤ y ⊥ λ ≥ 0;
 * Euler–Moreau θ = 0.5, h = 1 µs, 4999 steps, one LCP of size 4 per step.
 *
 * Columns: t, v_C, i_L, y₀, −λ₀, −λ₁, λ₂, y₀ + λ₂ (the program leaves y at
 * zero in the first row: it never computes the output at t = 0). */
#include "tutorials.h"
#include <math.h>

static int run(const tut_params *p, tut_table *t, char *err)
{
    const double L = 1e-2, C = 1e-6, R = 1e3;
    double A[4] = { 0, 1.0 / L, -1.0 / C, 0 };
    double x0[2] = { 10.0, 0.0 };
    /* 4×2 C, 4×4 D, 2×4 B, column-major */
    double Cm[8] = { 0, 0, -1, 1, 0, 0, 0, 0 };
    double D[16] = { 1 / R, 1 / R, 1, 0,   1 / R, 1 / R, 0, 1,   -1, 0, 0, 0,   0, -1, 0, 0 };
    double B[8] = { 0, 0, 0, 0, -1 / C, 0, 1 / C, 0 };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    int ds = nsm_model_add_ds(model, nsm_ds_first_order_lti_new(2, A, NULL, NULL, x0));
    int law = nsm_model_add_law(model, nsm_nslaw_complementarity_new(4));
    int in = nsm_model_add_interaction(model, nsm_relation_first_order_linear_new(4, 2, Cm, D, B, NULL), law, ds, -1);
    if (ds < 0 || law < 0 || in < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 1e-6, 0.5, NULL, 0);
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 4999);
    int rc = 0;
    double *r = tut_row(t);
    if (r) { r[1] = x0[0]; r[2] = x0[1]; }
    for (long k = 1; k <= N && r; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) break;
        const double *x = nsm_sim_x(s, ds), *y = nsm_sim_y(s, in, 0), *l = nsm_sim_lambda(s, in, 0);
        r[0] = nsm_sim_time(s);
        r[1] = x[0];
        r[2] = x[1];
        r[3] = y[0];
        r[4] = -l[0];
        r[5] = -l[1];
        r[6] = l[2];
        r[7] = y[0] + l[2];
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_diode_bridge = {
    "DiodeBridge", "LC tank and load through a 4-diode bridge, Euler-Moreau, LCP (h = 1 us)",
    "electronics/DiodeBridge/DiodeBridge.ref", 8, 0, run,
    { "voltage [V]", "current [A]", "diode currents [A]" },
    { { { 1, "v_C" }, { 3, "y0" }, { 0, NULL } }, { { 2, "i_L" }, { 0, NULL } },
      { { 6, "lambda2 (i_DF1)" }, { 0, NULL } } },
    NULL
};
