/* bouncing_ball.c — reference example 1 of docs/mechanics.md.
 * Ball radius R = 0.1, mass m = 1, g = 9.81, centre dropped from z0 = 1 at
 * rest onto the plane z = 0; y = z − R ≥ 0, Newton restitution e = 0.9;
 * Moreau–Jean θ = 0.5, h = 0.005, T = 10. q = (z, x, θ), M = diag(m, m, 3/5 m R²)
 * (as the Siconos example), H = (1 0 0), b = −R.
 *
 * --out DIR: DIR/trajectory.csv (t, z, v, lambda = P/h, energy),
 *            DIR/impacts.csv (time, velocity before, velocity after),
 *            DIR/bouncing_ball.svg (height and velocity over time).
 * --steps N: run N steps (benchmark); --dump DIR: one-step problems.
 *
 * --scheme ed: event-driven (CVODE root finding, nsm_event_driven.h) instead
 * of time-stepping (--scheme ts, the default); same impacts.csv; --rtol,
 * --atol (CVODE, default 1e-14, 1e-16: the flights before t∞ amplify a
 * position error ε into 2ε/v of flight time), --rest-vel (accumulation threshold),
 * --bdf 1 (CV_BDF instead of CV_ADAMS); --h is the output step there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "nonsmooth/nsm.h"
#include "example_util.h"
#include "svgplot.h"

typedef struct ctx {
    FILE *traj, *imp;
    long save_every;
    double m, g, vprev;
    int inter;
    long nimpacts;
    nsx_series t, z, v;
} ctx;

static int observe(nsm_sim *s, void *user)
{
    ctx *c = user;
    double *q = nsm_sim_q(s, 0), *v = nsm_sim_v(s, 0);
    const double *P = nsm_sim_lambda(s, c->inter, 1);
    double t = nsm_sim_time(s), h = nsm_sim_step_size(s);
    if (P[0] > 0.0 && c->vprev < -1e-3 && v[0] > 0.0) {
        c->nimpacts++;
        if (c->imp) fprintf(c->imp, "%.10g,%.10g,%.10g\n", t, c->vprev, v[0]);
    }
    c->vprev = v[0];
    if (c->traj && nsm_sim_step_count(s) % c->save_every == 0) {
        double E = 0.5 * c->m * v[0] * v[0] + c->m * c->g * q[0];
        fprintf(c->traj, "%.10g,%.12g,%.12g,%.12g,%.12g\n", t, q[0], v[0], P[0] / h, E);
        nsx_push(&c->t, t); nsx_push(&c->z, q[0]); nsx_push(&c->v, v[0]);
    }
    return 0;
}

#ifdef NSM_HAVE_EVENT_DRIVEN
typedef struct edctx {
    FILE *traj, *imp;
    double m, g;
    long nimpacts;
    nsx_series t, z, v;
} edctx;

static int observe_ed(nsm_ed *s, const nsm_event *ev, void *user)
{
    edctx *c = user;
    double *q = nsm_ed_q(s, 0), *v = nsm_ed_v(s, 0);
    if (ev->type == NSM_EVENT_NONSMOOTH && ev->impact) {
        c->nimpacts++;
        if (c->imp) fprintf(c->imp, "%.17g,%.17g,%.17g\n", ev->t, ev->y1_before, ev->y1_after);
    }
    if (c->traj) {
        double E = 0.5 * c->m * v[0] * v[0] + c->m * c->g * q[0];
        fprintf(c->traj, "%.17g,%.15g,%.15g,%.15g,%.15g\n", ev->t, q[0], v[0], nsm_ed_lambda(s, 0, 2)[0], E);
        nsx_push(&c->t, ev->t); nsx_push(&c->z, q[0]); nsx_push(&c->v, v[0]);
    }
    return 0;
}

/* The event-driven run of the same model: impacts.csv as time-stepping. */
static int run_ed(nsm_model *model, const nsx_args *a, double T, double h, double m, double g,
                  double z0, double rtol, double atol, double rest_vel, int bdf)
{
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = T;
    o.output_step = h;
    o.rtol = rtol;
    o.atol = atol;
    if (rest_vel >= 0) o.rest_vel = rest_vel;
    o.method = bdf ? NSM_ED_BDF : NSM_ED_ADAMS;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *ed = nsm_ed_new(model, &o, err);
    if (!ed) { fprintf(stderr, "bouncing_ball: %s\n", err); return 1; }
    edctx c = { 0 };
    c.m = m; c.g = g;
    char path[4096];
    if (a->out) {
        c.traj = fopen(nsx_path(path, sizeof path, a->out, "trajectory.csv"), "w");
        c.imp = fopen(nsx_path(path, sizeof path, a->out, "impacts.csv"), "w");
        if (!c.traj || !c.imp) { fprintf(stderr, "bouncing_ball: cannot write in %s\n", a->out); return 1; }
        fprintf(c.traj, "t,z,v,lambda,energy\n");
        fprintf(c.imp, "time,velocity_before,velocity_after\n");
        fprintf(c.traj, "%.17g,%.15g,%.15g,%.15g,%.15g\n", 0.0, z0, 0.0, 0.0, m * g * z0);
    }
    struct timespec t0, t1;
    timespec_get(&t0, TIME_UTC);
    ns_status st = nsm_ed_run(ed, observe_ed, &c);
    timespec_get(&t1, TIME_UTC);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (st != NS_OK) fprintf(stderr, "bouncing_ball: %s\n", nsm_ed_error(ed));
    const nsm_ed_stats *S = nsm_ed_get_stats(ed);
    if (!a->quiet)
        printf("bouncing_ball (event-driven, CVODE %s rtol %g atol %g): t = %g in %.4f s, %ld CVODE steps, "
               "%ld f evals, %ld g evals, %ld reinits, events: %ld time, %ld nonsmooth; %ld impacts, "
               "%ld rest, %ld release; final z = %.12f v = %.3g lambda[2] = %.6f, I2 size %d\n",
               bdf ? "BDF" : "Adams", rtol, atol, nsm_ed_time(ed), secs, S->cvode_steps, S->rhs_evals,
               S->root_evals, S->reinits, S->events[NSM_EVENT_TIME], S->events[NSM_EVENT_NONSMOOTH],
               S->impacts, S->rests, S->releases, nsm_ed_q(ed, 0)[0], nsm_ed_v(ed, 0)[0],
               nsm_ed_lambda(ed, 0, 2)[0], nsm_ed_index_set(ed, 2, NULL, 0));
    if (c.traj) fclose(c.traj);
    if (c.imp) fclose(c.imp);
    if (a->out) {
        svgplot *p = svgplot_new(2, "Bouncing ball (event-driven, CVODE, e = 0.9)");
        svgplot_labels(p, 0, "t [s]", "height z [m]");
        svgplot_series(p, 0, "z (centre)", c.t.n, c.t.v, c.z.v, 0);
        svgplot_labels(p, 1, "t [s]", "velocity [m/s]");
        svgplot_series(p, 1, "dz/dt", c.t.n, c.t.v, c.v.v, 0);
        svgplot_write(p, nsx_path(path, sizeof path, a->out, "bouncing_ball.svg"));
        svgplot_free(p);
    }
    nsx_series_free(&c.t); nsx_series_free(&c.z); nsx_series_free(&c.v);
    nsm_ed_free(ed);
    return st == NS_OK ? 0 : 1;
}
#endif

int main(int argc, char **argv)
{
    nsx_args a;
    int scheme = nsx_take_scheme(&argc, argv);
    double rtol = 1e-14, atol = 1e-16, rest_vel = -1, bdf = 0;
    nsx_take_double(&argc, argv, "--rtol", &rtol);
    nsx_take_double(&argc, argv, "--atol", &atol);
    nsx_take_double(&argc, argv, "--rest-vel", &rest_vel);
    nsx_take_double(&argc, argv, "--bdf", &bdf);
    if (scheme < 0) { fprintf(stderr, "bouncing_ball: --scheme ts|ed\n"); return 2; }
    int prc = nsx_parse(argc, argv, &a, "[--e E] [--scheme ts|ed] [--rtol R --atol A --rest-vel V --bdf 1]");
    if (prc != 0) return prc > 0 ? 0 : 2;
    const double R = 0.1, m = 1.0, g = 9.81, z0 = 1.0;
    double e = isnan(a.e) ? 0.9 : a.e, h = a.h > 0 ? a.h : 0.005, T = a.T > 0 ? a.T : 10.0;
    if (a.steps > 0) T = a.steps * h;

    nsm_model *model = nsm_model_new();
    double M[9] = { m, 0, 0, 0, m, 0, 0, 0, 0.6 * m * R * R };
    double q0[3] = { z0, 0, 0 }, v0[3] = { 0, 0, 0 }, fext[3] = { -m * g, 0, 0 };
    nsm_ds *ball = nsm_ds_lagrangian_lti_new(3, M, q0, v0);
    nsm_ds_set_fext_constant(ball, fext);
    int ds = nsm_model_add_ds(model, ball);
    int law = nsm_model_add_law(model, nsm_nslaw_newton_new(1, e));
    double H[3] = { 1, 0, 0 }, b[1] = { -R };
    int inter = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, 3, H, b), law, ds, -1);
    if (ds < 0 || law < 0 || inter < 0) {
        fprintf(stderr, "bouncing_ball: %s\n", nsm_model_error(model));
        nsm_model_free(model);
        return 1;
    }
    if (scheme == 1) {
#ifdef NSM_HAVE_EVENT_DRIVEN
        int rc = run_ed(model, &a, T, h, m, g, z0, rtol, atol, rest_vel, bdf != 0);
        nsm_model_free(model);
        return rc;
#else
        fprintf(stderr, "bouncing_ball: built without CVODE: no event-driven scheme\n");
        nsm_model_free(model);
        return 1;
#endif
    }
    nsm_sim *sim = nsx_sim_new(model, &a, h, "bouncing_ball");
    if (!sim) { nsm_model_free(model); return 1; }

    ctx c = { 0 };
    c.m = m; c.g = g; c.inter = inter; c.save_every = a.save_every; c.vprev = 0.0;
    char path[4096];
    if (a.out) {
        c.traj = fopen(nsx_path(path, sizeof path, a.out, "trajectory.csv"), "w");
        c.imp = fopen(nsx_path(path, sizeof path, a.out, "impacts.csv"), "w");
        if (!c.traj || !c.imp) { fprintf(stderr, "bouncing_ball: cannot write in %s\n", a.out); return 1; }
        fprintf(c.traj, "t,z,v,lambda,energy\n");
        fprintf(c.imp, "time,velocity_before,velocity_after\n");
        fprintf(c.traj, "%.10g,%.12g,%.12g,%.12g,%.12g\n", 0.0, z0, 0.0, 0.0, m * g * z0);
        nsx_push(&c.t, 0.0); nsx_push(&c.z, z0); nsx_push(&c.v, 0.0);
    }
    struct timespec t0, t1;
    timespec_get(&t0, TIME_UTC);
    ns_status st = nsm_sim_run(sim, T, observe, &c);
    timespec_get(&t1, TIME_UTC);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (st != NS_OK) fprintf(stderr, "bouncing_ball: %s\n", nsm_sim_error(sim));
    const nsm_sim_stats *S = nsm_sim_get_stats(sim);
    if (!a.quiet)
        printf("bouncing_ball: %ld steps h = %g in %.3f s (%.3g us/step), %ld solves, %ld impacts, "
               "final z = %.6f v = %.3g lambda = %.6f\n", S->steps, h, secs, 1e6 * secs / (double)S->steps,
               S->solves, c.nimpacts, nsm_sim_q(sim, 0)[0], nsm_sim_v(sim, 0)[0],
               nsm_sim_lambda(sim, inter, 1)[0] / h);
    if (c.traj) fclose(c.traj);
    if (c.imp) fclose(c.imp);
    if (a.out) {
        svgplot *p = svgplot_new(2, "Bouncing ball (Moreau-Jean, e = 0.9)");
        svgplot_labels(p, 0, "t [s]", "height z [m]");
        svgplot_series(p, 0, "z (centre)", c.t.n, c.t.v, c.z.v, 0);
        svgplot_labels(p, 1, "t [s]", "velocity [m/s]");
        svgplot_series(p, 1, "dz/dt", c.t.n, c.t.v, c.v.v, 0);
        svgplot_write(p, nsx_path(path, sizeof path, a.out, "bouncing_ball.svg"));
        svgplot_free(p);
    }
    nsx_series_free(&c.t); nsx_series_free(&c.z); nsx_series_free(&c.v);
    nsm_sim_free(sim);
    nsm_model_free(model);
    return st == NS_OK ? 0 : 1;
}
