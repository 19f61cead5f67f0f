/* double_pendulum.c — DoublePendulumResult (the Siconos program
 * DoublePendulumTS.cpp): two links (m₁ = m₂ = 1, l₁ = l₂ = 1, g = 10),
 * angles q = (θ₁, θ₂) from the vertical, q(0) = (0.1, 0.2) at rest, in the
 * program's scaled form (the first equation divided by l₁):
 *   M(q) = [ (m₁+m₂) l₁        m₂ l₂ cos(θ₁−θ₂) ]
 *          [ m₂ l₁ cos(θ₁−θ₂)   m₂ l₂           ]
 *   f_gyr = ( m₂ l₂ θ̇₂² sin(θ₁−θ₂), −m₂ l₁ θ̇₁² sin(θ₁−θ₂) ),
 *   f_int = ( (m₁+m₂) g sin θ₁, m₂ g sin θ₂ ),
 * with their Jacobians as the program's plugin gives them (its ∂f_gyr,0/∂θ₁
 * is m₂ l₂ θ̇₁ θ̇₂ cos(θ₁−θ₂); the ref was made with it: it enters only the
 * iteration matrix W). Two scleronomous relations: the horizontal position
 * of the first mass, y₀ = l₁ sin θ₁ (Newton e = 1), and of the second,
 * y₁ = l₁ sin θ₁ + l₂ sin θ₂ (e = 0); neither ever closes in the 5 s run.
 * Moreau–Jean θ = 0.500001, h = 5e-4, 10000 steps, Siconos' single
 * linearised step at the predictor (nsm_sim_options.newton_max_iter = 1).
 *
 * Columns: t, θ₁, θ̇₁, θ₂, θ̇₂, x₁, y₁, x₂, y₂ (Cartesian positions of the
 * masses), ẋ₁, ẋ₂, then one column the program leaves at zero. */
#include "tutorials.h"
#include <math.h>

static const double M1 = 1.0, M2 = 1.0, L1 = 1.0, L2 = 1.0, G = 10.0;

static int mass(int n, const double *q, double *M, void *u)
{
    double c = cos(q[0] - q[1]);
    M[0] = (M1 + M2) * L1; M[1] = M2 * L1 * c; M[2] = M2 * L2 * c; M[3] = M2 * L2;
    return 0;
}

static int fgyr(double t, int n, const double *q, const double *v, double *f, void *u)
{
    double s = sin(q[0] - q[1]);
    f[0] = M2 * L2 * v[1] * v[1] * s;
    f[1] = -M2 * L1 * v[0] * v[0] * s;
    return 0;
}

static int jfgyr(double t, int n, const double *q, const double *v, double *Jq, double *Jv, void *u)
{
    double s = sin(q[0] - q[1]), c = cos(q[0] - q[1]);
    Jq[0] = M2 * L2 * v[1] * v[0] * c;   /* as the program's plugin */
    Jq[1] = -M2 * L1 * v[0] * v[0] * c;
    Jq[2] = -M2 * L2 * v[1] * v[1] * c;
    Jq[3] = M2 * L1 * v[0] * v[0] * c;
    Jv[0] = 0.0;
    Jv[1] = -2.0 * M2 * L1 * v[0] * s;
    Jv[2] = 2.0 * M2 * L2 * v[1] * s;
    Jv[3] = 0.0;
    return 0;
}

static int fint(double t, int n, const double *q, const double *v, double *f, void *u)
{
    f[0] = sin(q[0]) * G * (M1 + M2);
    f[1] = sin(q[1]) * G * M2;
    return 0;
}

static int jfint(double t, int n, const double *q, const double *v, double *Jq, double *Jv, void *u)
{
    Jq[0] = cos(q[0]) * G * (M1 + M2); Jq[1] = 0; Jq[2] = 0; Jq[3] = cos(q[1]) * G * M2;
    Jv[0] = Jv[1] = Jv[2] = Jv[3] = 0.0;
    return 0;
}

static int h0(double t, int nq, const double *q, int m, double *y, void *u) { y[0] = L1 * sin(q[0]); return 0; }
static int g0(double t, int nq, const double *q, int m, double *H, void *u) { H[0] = L1 * cos(q[0]); H[1] = 0; return 0; }
static int h1(double t, int nq, const double *q, int m, double *y, void *u)
{
    y[0] = L1 * sin(q[0]) + L2 * sin(q[1]);
    return 0;
}
static int g1(double t, int nq, const double *q, int m, double *H, void *u)
{
    H[0] = L1 * cos(q[0]);
    H[1] = L2 * cos(q[1]);
    return 0;
}

static void fill(double *r, double t, const double *q, const double *v)
{
    r[0] = t;
    r[1] = q[0]; r[2] = v[0]; r[3] = q[1]; r[4] = v[1];
    r[5] = L1 * sin(q[0]);
    r[6] = -L1 * cos(q[0]);
    r[7] = L1 * sin(q[0]) + L2 * sin(q[1]);
    r[8] = -L1 * cos(q[0]) - L2 * cos(q[1]);
    r[9] = L1 * cos(q[0]) * v[0];
    r[10] = L1 * cos(q[0]) * v[0] + L2 * cos(q[1]) * v[1];
}

static int run(const tut_params *p, tut_table *t, char *err)
{
    double q0[2] = { 0.1, 0.2 }, v0[2] = { 0, 0 };
    nsm_lagrangian_fns f = { .mass = mass, .fgyr = fgyr, .jac_fgyr = jfgyr, .fint = fint, .jac_fint = jfint };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    int ds = nsm_model_add_ds(model, nsm_ds_lagrangian_new(2, &f, q0, v0));
    int l0 = nsm_model_add_law(model, nsm_nslaw_newton_new(1, isnan(p->e) ? 1.0 : p->e));
    int l1 = nsm_model_add_law(model, nsm_nslaw_newton_new(1, 0.0));
    int i0 = nsm_model_add_interaction(model, nsm_relation_scleronomous_new(1, 2, h0, g0, NULL), l0, ds, -1);
    int i1 = nsm_model_add_interaction(model, nsm_relation_scleronomous_new(1, 2, h1, g1, NULL), l1, ds, -1);
    if (ds < 0 || l0 < 0 || l1 < 0 || i0 < 0 || i1 < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 5e-4, 0.500001, NULL, 0);
    o.newton_max_iter = 1;
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    long N = tut_steps(p, 10000);
    int rc = 0;
    double *r = tut_row(t);
    if (r) fill(r, 0.0, q0, v0);
    for (long k = 1; k <= N && r; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) break;
        fill(r, nsm_sim_time(s), nsm_sim_q(s, ds), nsm_sim_v(s, ds));
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_double_pendulum = {
    "DoublePendulumResult", "double pendulum: nonlinear Lagrangian, Moreau-Jean, one linearised step (h = 5e-4)",
    "mechanics/Pendulum/DoublePendulumResult.ref", 12, 0, run,
    { "angle [rad], position [m]", "velocity", "" },
    { { { 1, "theta1" }, { 3, "theta2" }, { 7, "x2" }, { 0, NULL } },
      { { 2, "dtheta1/dt" }, { 4, "dtheta2/dt" }, { 0, NULL } }, { { 0, NULL } } },
    NULL
};
