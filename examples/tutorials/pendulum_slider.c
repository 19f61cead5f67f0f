/* pendulum_slider.c — PendulumSlider (the Siconos program
 * PendulumAttachedToSlider.cpp): a slider (x, y) carrying a pendulum of
 * angle φ, q = (x, y, φ), q(0) = (0.1, 0, 0.1), v(0) = (2, 0, 0); m₁ = m₂ = 1,
 * l = 1, g = 9.81, in the program's non-symmetric form
 *   M(q) = [ m₁+m₂  0  m₂ l cos φ ]      f_gyr = (−m₂ l φ̇² sin φ, 0, 0)
 *          [ 0      1  0          ]      f_int = (0, g y, g sin φ)
 *          [ cos φ  0  l          ]
 * with the Jacobians of the program's plugin (as it writes them: its
 * ∂f_gyr/∂φ and ∂f_gyr/∂φ̇ sit in row 2, column 0). Three frictional
 * contacts (2-D Newton–Coulomb, e_N = 0.5), scleronomous: the slider on
 * its rail, y ≥ 0 with the tangent ẋ (μ = 0.8), and the two walls of a slot
 * d = 0.25 wide around a slider of width a = 0.025: d − x − a/2 ≥ 0 and
 * x − a/2 ≥ 0 (μ = 0, no tangent). Moreau–Jean θ = 0.5 with the γ = 1
 * activation (y_k + h ẏ_k ≤ 0), h = 1e-3, 3000 steps, a Newton loop per
 * step (tolerance 1e-10), FC2D by enumeration.
 *
 * Columns: t, x, y, φ, ẋ, ẏ, φ̇, the three gaps, the Newton iterations of
 * the step, the number of active contacts, then two columns left at zero. */
#include "tutorials.h"
#include <math.h>

static const double M1 = 1.0, M2 = 1.0, L = 1.0, A = 0.025, D = 0.25, G = 9.81;

static int mass(int n, const double *q, double *M, void *u)
{
    double c = cos(q[2]);
    M[0] = M1 + M2; M[1] = 0.0; M[2] = c;
    M[3] = 0.0; M[4] = 1.0; M[5] = 0.0;
    M[6] = M2 * L * c; M[7] = 0.0; M[8] = L;
    return 0;
}

static int fgyr(double t, int n, const double *q, const double *v, double *f, void *u)
{
    f[0] = -M2 * L * v[2] * v[2] * sin(q[2]);
    f[1] = f[2] = 0.0;
    return 0;
}

static int jfgyr(double t, int n, const double *q, const double *v, double *Jq, double *Jv, void *u)
{
    for (int i = 0; i < 9; i++) Jq[i] = Jv[i] = 0.0;
    Jq[2] = -M2 * L * v[2] * v[2] * cos(q[2]);   /* as the program's plugin */
    Jv[2] = -2.0 * M2 * v[2] * sin(q[2]);
    return 0;
}

static int fint(double t, int n, const double *q, const double *v, double *f, void *u)
{
    f[0] = 0.0; f[1] = G * q[1]; f[2] = G * sin(q[2]);
    return 0;
}

static int jfint(double t, int n, const double *q, const double *v, double *Jq, double *Jv, void *u)
{
    for (int i = 0; i < 9; i++) Jq[i] = Jv[i] = 0.0;
    Jq[1] = G;   /* as the program's plugin (∂f_int,1/∂y sits at row 1, column 0) */
    Jq[8] = G * cos(q[2]);
    return 0;
}

/* rail: normal y, tangent x */
static int h1(double t, int nq, const double *q, int m, double *y, void *u) { y[0] = q[1]; y[1] = 0.0; return 0; }
static int g1(double t, int nq, const double *q, int m, double *H, void *u)
{
    H[0] = 0; H[1] = 1; H[2] = 1; H[3] = 0; H[4] = 0; H[5] = 0;
    return 0;
}
/* the slot's walls: normal only (μ = 0, tangent row zero) */
static int h2(double t, int nq, const double *q, int m, double *y, void *u) { y[0] = D - q[0] - 0.5 * A; y[1] = 0; return 0; }
static int g2(double t, int nq, const double *q, int m, double *H, void *u)
{
    H[0] = -1; H[1] = 0; H[2] = 0; H[3] = 0; H[4] = 0; H[5] = 0;
    return 0;
}
static int h3(double t, int nq, const double *q, int m, double *y, void *u) { y[0] = q[0] - 0.5 * A; y[1] = 0; return 0; }
static int g3(double t, int nq, const double *q, int m, double *H, void *u)
{
    H[0] = 1; H[1] = 0; H[2] = 0; H[3] = 0; H[4] = 0; H[5] = 0;
    return 0;
}

static int run(const tut_params *p, tut_table *t, char *err)
{
    double q0[3] = { 0.1, 0.0, 0.1 }, v0[3] = { 2.0, 0.0, 0.0 };
    double eN = isnan(p->e) ? 0.5 : p->e;
    nsm_lagrangian_fns f = { .mass = mass, .fgyr = fgyr, .jac_fgyr = jfgyr, .fint = fint, .jac_fint = jfint };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    int ds = nsm_model_add_ds(model, nsm_ds_lagrangian_new(3, &f, q0, v0));
    int l1 = nsm_model_add_law(model, nsm_nslaw_newton_coulomb_new(2, eN, 0.8));
    int l23 = nsm_model_add_law(model, nsm_nslaw_newton_coulomb_new(2, eN, 0.0));
    int in[3];
    in[0] = nsm_model_add_interaction(model, nsm_relation_scleronomous_new(2, 3, h1, g1, NULL), l1, ds, -1);
    in[1] = nsm_model_add_interaction(model, nsm_relation_scleronomous_new(2, 3, h2, g2, NULL), l23, ds, -1);
    in[2] = nsm_model_add_interaction(model, nsm_relation_scleronomous_new(2, 3, h3, g3, NULL), l23, ds, -1);
    if (ds < 0 || l1 < 0 || l23 < 0 || in[0] < 0 || in[1] < 0 || in[2] < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 1e-3, 0.5, "enum", 1e-8);
    o.activation = NSM_ACTIVATION_GAMMA;
    o.activation_gamma = 1.0;
    o.newton_tol = 1e-10;
    o.newton_max_iter = 200;
    o.newton_criterion = NSM_NEWTON_ABS_NORM2;   /* Siconos: |r|_2 <= tol */
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 3000);
    int rc = 0;
    double *r = tut_row(t);
    if (r) { r[1] = q0[0]; r[2] = q0[1]; r[3] = q0[2]; r[4] = v0[0]; r[5] = v0[1]; r[6] = v0[2]; }
    long iters = 0;
    for (long k = 1; k <= N && r; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) break;
        const double *q = nsm_sim_q(s, ds), *v = nsm_sim_v(s, ds);
        const nsm_sim_stats *st = nsm_sim_get_stats(s);
        r[0] = nsm_sim_time(s);
        for (int i = 0; i < 3; i++) { r[1 + i] = q[i]; r[4 + i] = v[i]; }
        for (int i = 0; i < 3; i++) r[7 + i] = nsm_sim_y(s, in[i], 0)[0];
        r[10] = (double)(st->newton_iterations - iters);
        iters = st->newton_iterations;
        r[11] = nsm_sim_index_set(s, 1, NULL, 0);
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_pendulum_slider = {
    "PendulumSlider", "pendulum on a slider in a slot: nonlinear, non-symmetric M(q), 3 frictional contacts, Newton loop",
    "mechanics/PendulumOnASlider/PendulumSlider.ref", 14, 0, run,
    { "position", "velocity", "gaps [m]" },
    { { { 1, "x" }, { 2, "y" }, { 3, "phi" }, { 0, NULL } }, { { 4, "dx/dt" }, { 5, "dy/dt" }, { 6, "dphi/dt" }, { 0, NULL } },
      { { 7, "rail" }, { 8, "right wall" }, { 9, "left wall" }, { 0, NULL } } },
    NULL
};
