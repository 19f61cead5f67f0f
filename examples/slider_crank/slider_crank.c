/* slider_crank.c — a slider-crank with a clearance joint (Flores, Leine,
 * Glocker, Multibody Syst Dyn 23 (2010) 165; the model and parameters of
 * ../shared/siconos-tutorials/mechanics/SliderCrank, written here in
 * coordinates of the three bodies instead of Siconos' reduced ones):
 *
 *   crank  (system 0, 1 dof: angle θ1 about the fixed pivot at the origin),
 *          length l1, mass m1, inertia J1 about its centre: nonlinear
 *          Lagrangian (gravity torque m1 g (l1/2) cos θ1);
 *   rod    (system 1, q = (x2, y2, θ2): centre and angle), length l2,
 *          mass m2, inertia J2: LTI;
 *   slider (system 2, q = (x3, y3, θ3)), a 2a × 2b block, mass m3, inertia
 *          J3, in a guide of width d = 2(b + c) (clearance c): LTI.
 * Interactions (the one-step problem mixes their classes: a generic
 * mechanical problem each step):
 *   two revolute joints, equality laws on scleronomous relations:
 *     crank tip = rod start:  (x2 − (l2/2)cos θ2 − l1 cos θ1,
 *                              y2 − (l2/2)sin θ2 − l1 sin θ1) = 0,
 *     rod end = slider centre: (x3 − x2 − (l2/2)cos θ2,
 *                              y3 − y2 − (l2/2)sin θ2) = 0;
 *   four corners of the slider against the guide's walls y = ±d/2:
 *     Newton impact (e = 0.4) + 2D Coulomb friction (μ = 0.01), normal gap
 *     d/2 ∓ Y_corner, tangent X_corner.
 * Moreau–Jean θ = ½, h = 1e-4, T = 0.2 (Siconos' example), Newton loop for
 * the crank, direct position projection (joint rows held to 1e-10, corner
 * gaps ≥ −1e-10), every one-step problem a GMP (option gmp = 1) so that
 * --dump writes GMP files nsolve reads.
 *
 * --out DIR: trajectory.csv (t, crank revolutions, θ2, θ3, ω1, ω2, ω3,
 *   corner heights / c, slider x / l1, gaps g1..g4, joint drift),
 *   slider_crank.svg (crank angle and rod angle; slider corner heights
 *   normalised by c, as in Flores et al. Fig. 11; joint drift).
 * --no-projection: the velocity scheme alone (the joints drift). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nonsmooth/nsm.h"
#include "example_util.h"
#include "svgplot.h"

#define PI_ 3.14159265358979323846
#define A_ 0.05
#define B_ 0.025
static const double l1 = 0.1530, l2 = 0.3060, b_ = B_, c_ = 0.001;
static const double m1 = 0.038, m2 = 0.038, m3 = 0.0760;
static const double J1 = 7.4e-5, J2 = 5.9e-4, J3 = 2.7e-6, g_ = 9.81;
#define D_ (2.0 * (b_ + c_))

/* ---- crank: M θ̈1 + m1 g (l1/2) cos θ1 = 0 ---- */
static int crank_mass(int n, const double *q, double *M, void *u)
{ (void)n; (void)q; (void)u; M[0] = J1 + 0.25 * m1 * l1 * l1; return 0; }
static int crank_fint(double t, int n, const double *q, const double *v, double *out, void *u)
{ (void)t; (void)n; (void)v; (void)u; out[0] = 0.5 * m1 * g_ * l1 * cos(q[0]); return 0; }
static int crank_jfint(double t, int n, const double *q, const double *v, double *Jq, double *Jv, void *u)
{ (void)t; (void)n; (void)v; (void)u; Jq[0] = -0.5 * m1 * g_ * l1 * sin(q[0]); Jv[0] = 0; return 0; }

/* ---- joint A: Q = (θ1, x2, y2, θ2) ---- */
static int jointA_h(double t, int nq, const double *Q, int m, double *out, void *u)
{
    (void)t; (void)nq; (void)m; (void)u;
    out[0] = Q[1] - 0.5 * l2 * cos(Q[3]) - l1 * cos(Q[0]);
    out[1] = Q[2] - 0.5 * l2 * sin(Q[3]) - l1 * sin(Q[0]);
    return 0;
}
static int jointA_jac(double t, int nq, const double *Q, int m, double *H, void *u)
{
    (void)t; (void)nq; (void)u;
    H[0 + m * 0] = l1 * sin(Q[0]);  H[1 + m * 0] = -l1 * cos(Q[0]);
    H[0 + m * 1] = 1;               H[1 + m * 1] = 0;
    H[0 + m * 2] = 0;               H[1 + m * 2] = 1;
    H[0 + m * 3] = 0.5 * l2 * sin(Q[3]); H[1 + m * 3] = -0.5 * l2 * cos(Q[3]);
    return 0;
}
/* ---- joint B: Q = (x2, y2, θ2, x3, y3, θ3) ---- */
static int jointB_h(double t, int nq, const double *Q, int m, double *out, void *u)
{
    (void)t; (void)nq; (void)m; (void)u;
    out[0] = Q[3] - Q[0] - 0.5 * l2 * cos(Q[2]);
    out[1] = Q[4] - Q[1] - 0.5 * l2 * sin(Q[2]);
    return 0;
}
static int jointB_jac(double t, int nq, const double *Q, int m, double *H, void *u)
{
    (void)t; (void)nq; (void)u;
    for (int k = 0; k < 2 * 6; k++) H[k] = 0;
    H[0 + m * 0] = -1; H[1 + m * 1] = -1;
    H[0 + m * 2] = 0.5 * l2 * sin(Q[2]); H[1 + m * 2] = -0.5 * l2 * cos(Q[2]);
    H[0 + m * 3] = 1; H[1 + m * 4] = 1;
    return 0;
}

/* ---- corner k of the slider: body coordinates (cx, cy), wall side s
 * (+1: upper wall y = d/2, gap d/2 − Y; −1: lower wall, gap d/2 + Y) ---- */
typedef struct corner { double cx, cy, side; } corner;
static const corner corners[4] = { { -A_, B_, 1 }, { A_, B_, 1 }, { -A_, -B_, -1 }, { A_, -B_, -1 } };

static int corner_h(double t, int nq, const double *Q, int m, double *out, void *u)
{
    (void)t; (void)nq; (void)m;
    const corner *k = u;
    double c = cos(Q[2]), s = sin(Q[2]);
    double X = Q[0] + k->cx * c - k->cy * s, Y = Q[1] + k->cx * s + k->cy * c;
    out[0] = 0.5 * D_ - k->side * Y;
    out[1] = X;
    return 0;
}
static int corner_jac(double t, int nq, const double *Q, int m, double *H, void *u)
{
    (void)t; (void)nq;
    const corner *k = u;
    double c = cos(Q[2]), s = sin(Q[2]);
    H[0 + m * 0] = 0;           H[1 + m * 0] = 1;
    H[0 + m * 1] = -k->side;    H[1 + m * 1] = 0;
    H[0 + m * 2] = -k->side * (k->cx * c - k->cy * s);
    H[1 + m * 2] = -k->cx * s - k->cy * c;
    return 0;
}

typedef struct ctx {
    FILE *traj;
    long save_every;
    int jA, jB, cont[4];
    double drift_max, pen_max;
    nsx_series t, th1, th2, yc[4], drift;
} ctx;

static double joint_drift(nsm_sim *s, const ctx *c)
{
    double w = 0;
    for (int k = 0; k < 2; k++) {
        const double *y = nsm_sim_y(s, k ? c->jB : c->jA, 0);
        for (int i = 0; i < 2; i++) w = fmax(w, fabs(y[i]));
    }
    return w;
}

static int observe(nsm_sim *s, void *user)
{
    ctx *c = user;
    double drift = joint_drift(s, c);
    if (drift > c->drift_max) c->drift_max = drift;
    for (int k = 0; k < 4; k++) c->pen_max = fmax(c->pen_max, -nsm_sim_y(s, c->cont[k], 0)[0]);
    if (!(nsm_sim_step_count(s) % c->save_every == 0)) return 0;
    const double *q0 = nsm_sim_q(s, 0), *q2 = nsm_sim_q(s, 2);
    const double *v0 = nsm_sim_v(s, 0), *v1 = nsm_sim_v(s, 1), *v2 = nsm_sim_v(s, 2), *q1 = nsm_sim_q(s, 1);
    double t = nsm_sim_time(s), yc[4];
    for (int k = 0; k < 4; k++) {
        double cc = cos(q2[2]), ss = sin(q2[2]);
        yc[k] = (q2[1] + corners[k].cx * ss + corners[k].cy * cc - corners[k].side * b_) / c_;
    }
    if (c->traj) {
        fprintf(c->traj, "%.10g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g", t, q0[0] / (2 * PI_), q1[2], q2[2], v0[0], v1[2], v2[2]);
        for (int k = 0; k < 4; k++) fprintf(c->traj, ",%.12g", yc[k]);
        fprintf(c->traj, ",%.12g", (q2[0] - l2) / l1);
        for (int k = 0; k < 4; k++) fprintf(c->traj, ",%.12g", nsm_sim_y(s, c->cont[k], 0)[0]);
        fprintf(c->traj, ",%.6g\n", drift);
    }
    nsx_push(&c->t, t); nsx_push(&c->th1, q0[0] / (2 * PI_)); nsx_push(&c->th2, q1[2]);
    for (int k = 0; k < 4; k++) nsx_push(&c->yc[k], yc[k]);
    nsx_push(&c->drift, drift > 0 ? log10(drift) : -17);
    return 0;
}

int main(int argc, char **argv)
{
    double noproj = 0;
    int k = 1;
    for (int i = 1; i < argc; i++) {   /* --no-projection (flag) */
        if (strcmp(argv[i], "--no-projection") == 0) { noproj = 1; continue; }
        argv[k++] = argv[i];
    }
    argc = k;
    nsx_args a;
    int prc = nsx_parse(argc, argv, &a, "[--no-projection]");
    if (prc != 0) return prc > 0 ? 0 : 2;
    double h = a.h > 0 ? a.h : 1e-4, T = a.T > 0 ? a.T : 0.2;
    if (a.steps > 0) T = a.steps * h;

    nsm_model *m = nsm_model_new();
    nsm_lagrangian_fns fns = { .mass = crank_mass, .fint = crank_fint, .jac_fint = crank_jfint };
    double q0c[1] = { 0 }, v0c[1] = { 150 };
    int crank = nsm_model_add_ds(m, nsm_ds_lagrangian_new(1, &fns, q0c, v0c));
    double M2[9] = { m2, 0, 0, 0, m2, 0, 0, 0, J2 }, q02[3] = { l1 + 0.5 * l2, 0, 0 }, v02[3] = { 0, 150 * l1 - 75 * 0.5 * l2, -75 };
    nsm_ds *rod_ds = nsm_ds_lagrangian_lti_new(3, M2, q02, v02);
    double f2[3] = { 0, -m2 * g_, 0 };
    nsm_ds_set_fext_constant(rod_ds, f2);
    int rod = nsm_model_add_ds(m, rod_ds);
    double M3[9] = { m3, 0, 0, 0, m3, 0, 0, 0, J3 }, q03[3] = { l1 + l2, 0, 0 }, v03[3] = { 0, 150 * l1 - 75 * l2, 0 };
    nsm_ds *sl_ds = nsm_ds_lagrangian_lti_new(3, M3, q03, v03);
    double f3[3] = { 0, -m3 * g_, 0 };
    nsm_ds_set_fext_constant(sl_ds, f3);
    int slider = nsm_model_add_ds(m, sl_ds);
    if (crank < 0 || rod < 0 || slider < 0) { fprintf(stderr, "slider_crank: %s\n", nsm_model_error(m)); return 1; }
    ctx c = { 0 };
    int joint = nsm_model_add_law(m, nsm_nslaw_equality_new(2));
    c.jA = nsm_model_add_interaction(m, nsm_relation_scleronomous_new(2, 4, jointA_h, jointA_jac, NULL), joint, crank, rod);
    c.jB = nsm_model_add_interaction(m, nsm_relation_scleronomous_new(2, 6, jointB_h, jointB_jac, NULL), joint, rod, slider);
    int contact = nsm_model_add_law(m, nsm_nslaw_newton_coulomb_new(2, 0.4, 0.01));
    for (int i = 0; i < 4; i++)
        c.cont[i] = nsm_model_add_interaction(m, nsm_relation_scleronomous_new(2, 3, corner_h, corner_jac, (void *)&corners[i]),
                                              contact, slider, -1);
    if (c.jA < 0 || c.jB < 0 || c.cont[3] < 0) { fprintf(stderr, "slider_crank: %s\n", nsm_model_error(m)); return 1; }

    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    o.gmp = 1;
    o.solver_options.tol = 1e-10;
    o.projection = noproj ? NSM_PROJECTION_NONE : NSM_PROJECTION_DIRECT;
    o.projection_tol = 1e-10;
    o.projection_tol_unilateral = 1e-10;
    nsx_apply(&a, &o);
    if (a.solver) { o.gmp_solver = a.solver; o.solver = NULL; }
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) { fprintf(stderr, "slider_crank: %s\n", err); nsm_model_free(m); return 1; }
    c.save_every = a.save_every > 0 ? a.save_every : 1;
    char path[4096];
    if (a.out) {
        if (nsx_mkdir(a.out) != 0) { fprintf(stderr, "slider_crank: cannot create %s\n", a.out); return 1; }
        c.traj = fopen(nsx_path(path, sizeof path, a.out, "trajectory.csv"), "w");
        if (!c.traj) { fprintf(stderr, "slider_crank: cannot write in %s\n", a.out); return 1; }
        fprintf(c.traj, "t,crank_rev,theta2,theta3,omega1,omega2,omega3,yc1,yc2,yc3,yc4,x_slider,g1,g2,g3,g4,joint_drift\n");
    }
    struct timespec t0, t1;
    timespec_get(&t0, TIME_UTC);
    ns_status st = nsm_sim_run(s, T, observe, &c);
    timespec_get(&t1, TIME_UTC);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (st != NS_OK) fprintf(stderr, "slider_crank: t = %g: %s\n", nsm_sim_time(s), nsm_sim_error(s));
    const nsm_sim_stats *S = nsm_sim_get_stats(s);
    if (!a.quiet)
        printf("slider_crank: %ld steps in %.3f s, %ld GMP solves (%ld not converged), Newton %ld iterations (max %d/step), "
               "projection %ld solves, max joint drift %.3g, max corner penetration %.3g, crank at %.4f rev\n",
               S->steps, secs, S->solves, S->nonconverged, S->newton_iterations, S->newton_max,
               S->projection_iterations, c.drift_max, c.pen_max, nsm_sim_q(s, 0)[0] / (2 * PI_));
    if (c.traj) fclose(c.traj);
    if (a.out) {
        svgplot *p = svgplot_new(3, "Slider-crank with clearance (Flores et al. 2010), GMP per step, direct projection");
        svgplot_labels(p, 0, "t [s]", "angle");
        svgplot_series(p, 0, "crank [rev]", c.t.n, c.t.v, c.th1.v, 0);
        svgplot_series(p, 0, "rod [rad]", c.t.n, c.t.v, c.th2.v, 0);
        svgplot_labels(p, 1, "t [s]", "corner height / c");
        const char *nm[4] = { "corner 1", "corner 2", "corner 3", "corner 4" };
        for (int i = 0; i < 4; i++) svgplot_series(p, 1, nm[i], c.t.n, c.t.v, c.yc[i].v, 0);
        svgplot_labels(p, 2, "t [s]", "log10 joint drift");
        svgplot_series(p, 2, "max |h| of the joints", c.t.n, c.t.v, c.drift.v, 0);
        svgplot_write(p, nsx_path(path, sizeof path, a.out, "slider_crank.svg"));
        svgplot_free(p);
    }
    nsx_series_free(&c.t); nsx_series_free(&c.th1); nsx_series_free(&c.th2); nsx_series_free(&c.drift);
    for (int i = 0; i < 4; i++) nsx_series_free(&c.yc[i]);
    nsm_sim_free(s);
    nsm_model_free(m);
    return st == NS_OK ? 0 : 1;
}
