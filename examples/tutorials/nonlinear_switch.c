/* nonlinear_switch.c — NonLinearSwitch (Siconos' electronics/IdealSwitch
 * with CLSC_CIRCUIT, a circuit of P. Maffezzoni): an inductor L = 200 µH
 * whose current x is the state, ẋ = r, x(0) = 0, driven through a switch and
 * a diode by a sawtooth source s(t) = 7.5 − 10 (t/T − ⌊t/T⌋) V of period
 * T = 20 µs; R = 1 Ω, R1s = R1d = 1 mΩ (on resistances), R2 = 1 kΩ,
 * comparator gain A = 100. Euler–Moreau θ = 0.5, h = 0.1 µs, 2000 steps.
 *
 * The relation, 9 rows in λ = (λ0 … λ8), is the program's: y = h(x, λ, t),
 * r = (λ2 − λ3)/L, with
 *   y0 = λ4 − s(t)             y5 = R2 − λ6 − R1s
 *   y1 = x − λ3/R              y6 = A (λ4 − λ3) + λ5
 *   y2 = λ2 − 20 + λ0(λ6 + R1s) y7 = R2 − λ8 − R1d
 *   y3 = λ2 + λ1(λ8 + R1d)      y8 = λ7 − λ2
 *   y4 = x − λ0 − λ1
 * and its law MixedComplementarityConditionNSL(4, 5) makes the first five
 * rows equalities (λ0 … λ4 free; the ref has λ4 = s(t) < 0 at times) and
 * the last four complementarity rows 0 ≤ y_i ⊥ λ_i ≥ 0 (λ6, λ8: the switch
 * and diode resistances, between 0 and R2 − R1).
 *
 * The mechanics API has one law kind per interaction, so the five equality
 * rows are written as complementarity pairs: λ_i = λ_i⁺ − λ_i⁻ with
 * 0 ≤ y_i ⊥ λ_i⁺ ≥ 0 and 0 ≤ −y_i ⊥ λ_i⁻ ≥ 0 (both together: y_i = 0, λ_i
 * free), the usual reduction of an MLCP to an LCP: 14 rows, unknowns
 * μ = (λ⁺0..4, λ⁻0..4, λ5..8). The step's problem is the LCP of the
 * linearisation at the Newton iterate (newton_tol 1e-11, 20 iterations as
 * the program), solved by the LCP "auto" driver (Lemke alone fails on
 * the split's degenerate bases at step 308).
 *
 * Columns (the ref has no header): step, x, λ0 … λ5. */
#include "tutorials.h"
#include <math.h>
#include <string.h>

static const double sR = 1.0, sR1s = 0.001, sR1d = 0.001, sR2 = 1000.0, sL = 200e-6, sT = 20e-6;
static const double sEp = 7.5, sEm = -2.5, sA = 100.0;

static double source(double t)
{
    double k = floor(t / sT);
    return sEp - ((sEp - sEm) / sT) * t + (sEp - sEm) * k;
}

/* λ (9) from μ (14) */
static void unsplit(const double *mu, double *l)
{
    for (int i = 0; i < 5; i++) l[i] = mu[i] - mu[5 + i];
    for (int j = 0; j < 4; j++) l[5 + j] = mu[10 + j];
}

/* the program's h and its Jacobians in λ (9×9 column-major) and x (9) */
static void h9(double t, double x, const double *l, double *y, double *Cx, double *Dl)
{
    y[0] = l[4] - source(t);
    y[1] = x - l[3] / sR;
    y[2] = l[2] - 20.0 + l[0] * (l[6] + sR1s);
    y[3] = l[2] + l[1] * (l[8] + sR1d);
    y[4] = x - l[0] - l[1];
    y[5] = sR2 - l[6] - sR1s;
    y[6] = sA * (l[4] - l[3]) + l[5];
    y[7] = sR2 - l[8] - sR1d;
    y[8] = -l[2] + l[7];
    if (Cx) {
        memset(Cx, 0, 9 * sizeof *Cx);
        Cx[1] = 1.0;
        Cx[4] = 1.0;
    }
    if (Dl) {
#define DD(i, j) Dl[(i) + 9 * (j)]
        memset(Dl, 0, 81 * sizeof *Dl);
        DD(0, 4) = 1.0;
        DD(1, 3) = -1.0 / sR;
        DD(2, 0) = l[6] + sR1s; DD(2, 2) = 1.0; DD(2, 6) = l[0];
        DD(3, 1) = l[8] + sR1d; DD(3, 2) = 1.0; DD(3, 8) = l[1];
        DD(4, 0) = -1.0; DD(4, 1) = -1.0;
        DD(5, 6) = -1.0;
        DD(6, 3) = -sA; DD(6, 4) = sA; DD(6, 5) = 1.0;
        DD(7, 8) = -1.0;
        DD(8, 2) = -1.0; DD(8, 7) = 1.0;
#undef DD
    }
}

/* row ρ of the split relation: the original row and its sign */
static void row_of(int rho, int *orig, double *sign)
{
    if (rho < 5) { *orig = rho; *sign = 1.0; }
    else if (rho < 10) { *orig = rho - 5; *sign = -1.0; }
    else { *orig = rho - 5; *sign = 1.0; }
}

/* column c of μ: the λ it moves and with which sign */
static void col_of(int c, int *lam, double *sign)
{
    if (c < 5) { *lam = c; *sign = 1.0; }
    else if (c < 10) { *lam = c - 5; *sign = -1.0; }
    else { *lam = c - 5; *sign = 1.0; }
}

static int h_fn(double t, int nx, const double *X, int m, const double *mu, double *y, double *C, double *D,
                void *user)
{
    (void)nx; (void)m;
    /* the source at the grid time t = t0 + k h, as the library computes
     * it (and Siconos' time discretisation): at the sawtooth's jumps
     * (t = jT) k·h falls just below jT in floating point (e.g. 400 · 1e-7
     * = 3.9999999999999996e-05), so the ref takes the value before the
     * jump, −2.5 V */
    (void)user;
    double l[9], y9[9], C9[9], D9[81];
    unsplit(mu, l);
    h9(t, X[0], l, y9, C9, D9);
    for (int r = 0; r < 14; r++) {
        int o;
        double sg;
        row_of(r, &o, &sg);
        y[r] = sg * y9[o];
        if (C) C[r] = sg * C9[o];
        if (D)
            for (int c = 0; c < 14; c++) {
                int lj;
                double sc;
                col_of(c, &lj, &sc);
                D[r + 14 * c] = sg * sc * D9[o + 9 * lj];
            }
    }
    return 0;
}

static int g_fn(double t, int nx, int m, const double *mu, double *r, double *B, void *user)
{
    (void)t; (void)nx; (void)m; (void)user;
    double l[9];
    unsplit(mu, l);
    r[0] = (l[2] - l[3]) / sL;
    if (B)
        for (int c = 0; c < 14; c++) {
            int lj;
            double sc;
            col_of(c, &lj, &sc);
            B[c] = lj == 2 ? sc / sL : lj == 3 ? -sc / sL : 0.0;
        }
    return 0;
}

static int run(const tut_params *p, tut_table *t, char *err)
{
    double A[1] = { 0.0 }, x0[1] = { 0.0 };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    int ds = nsm_model_add_ds(model, nsm_ds_first_order_lti_new(1, A, NULL, NULL, x0));
    int law = nsm_model_add_law(model, nsm_nslaw_complementarity_new(14));
    int in = nsm_model_add_interaction(model, nsm_relation_first_order_nonlinear_new(14, 1, h_fn, g_fn, NULL),
                                       law, ds, -1);
    if (ds < 0 || law < 0 || in < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 0.1e-6, 0.5, "auto", 0);
    o.newton_tol = 1e-11;
    o.newton_max_iter = 20;
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 2000);
    int rc = 0;
    for (long k = 1; k <= N; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        double *r = tut_row(t);
        if (!r) { rc = tut_fail(err, "out of memory"); break; }
        double l[9];
        unsplit(nsm_sim_lambda(s, in, 0), l);
        r[0] = (double)k;
        r[1] = nsm_sim_x(s, ds)[0];
        for (int i = 0; i < 6; i++) r[2 + i] = l[i];
    }
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_nonlinear_switch = {
    "NonLinearSwitch", "switched circuit, nonlinear first-order relation y = h(x, lambda, t), MLCP as LCP (h = 0.1 us)",
    "electronics/IdealSwitch/NonLinearSwitch.ref", 8, 0, run,
    { "current [A]", "voltage [V]", "multipliers" },
    { { { 1, "x (inductor current)" }, { 0, NULL } }, { { 4, "lambda2" }, { 6, "lambda4 = s(t)" }, { 0, NULL } },
      { { 2, "lambda0" }, { 3, "lambda1" }, { 7, "lambda5" }, { 0, NULL } } },
    "step (h = 0.1 us)"
};
