/* cam_follower.c — reference example 3 of docs/mechanics.md (the seeds'
 * cam–follower). Follower: Lagrangian LTI, μ = 1.221, ζ = 0, κ = 1430.8,
 * μ ü + ζ u̇ + κ u = f_v (f_v = 0). Rheonomous unilateral constraint
 * y = h(u, t) = u − c(t) ≥ 0, ∂h/∂t = −ċ(t), with Newton restitution r = 0.8.
 * Writing û = u − c gives the seeds' translated form μ û'' + ζ û' + κ û = f̂;
 * the seeds' initial state û(0) = 0.4, û'(0) = 0.4 is used (u = û + c).
 * Moreau–Jean θ = 0.5, h = 1e-4, T = 5 (--T), --rpm (default 358).
 *
 * --out DIR: trajectory.csv (t, follower u, cam c, u̇, ċ, impulse),
 *   poincare.csv (stroboscopic section: follower state (û, û') once per cam
 *   revolution, at t = k·60/rpm), cam_follower.svg (u and c over time) and
 *   cam_follower_poincare.svg.
 * --scheme ed: event-driven (CVODE, nsm_event_driven.h; exact ∂²h/∂t² = −c̈
 *   given to the relation); trajectory.csv at the output times k·h (h =
 *   --h), the stroboscopic points as user events; --rtol, --atol (default
 *   1e-10, 1e-12), --hmin (default 1e-12, as the seeds). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "nonsmooth/nsm.h"
#include "example_util.h"
#include "svgplot.h"

#define PI 3.14159265358979323846

/* Cam lift c(t) and its exact time derivatives for a speed of rpm. */
static void cam_state(double t, double rpm, double *c, double *cd, double *cdd)
{
    const double Rb = 0.40, k1 = 0.45, rho1 = 0.85, k2 = 0.40393320723821, rho3 = 0.15,
                 rho2 = 0.55393320723821, beta2 = 1.050328174371336, beta3 = 1.22173047639603;
    double w = 2 * PI * rpm / 60.0;
    double beta = fmod(w * t + PI / 2, 2 * PI);
    if (beta > PI) { beta = 2 * PI - beta; w = -w; }
    double p = Rb, dp = 0, ddp = 0;   /* c and derivatives w.r.t. β */
    if (beta <= PI / 2) {
        p = Rb;
    } else if (beta <= PI / 2 + beta2) {
        double s = k1 * cos(beta) / rho1, sp = -k1 * sin(beta) / rho1;
        double g = sqrt(1 - s * s), u = s * sp, up = sp * sp - s * s;
        p = -k1 * sin(beta) + rho1 * g;
        dp = -k1 * cos(beta) - rho1 * u / g;
        ddp = k1 * sin(beta) - rho1 * (up / g + u * u / (g * g * g));
    } else if (beta <= PI / 2 + beta3) {
        double ph = beta + PI / 9;
        double s = k2 * sin(ph) / rho3, sp = k2 * cos(ph) / rho3;
        double g = sqrt(1 - s * s), u = s * sp, up = sp * sp - s * s;
        p = -k2 * cos(ph) + rho3 * g;
        dp = k2 * sin(ph) - rho3 * u / g;
        ddp = k2 * cos(ph) - rho3 * (up / g + u * u / (g * g * g));
    } else {
        p = rho2;
    }
    *c = p - 0.3;
    *cd = dp * w;
    *cdd = ddp * w * w;
}

static int h_fn(double t, int nq, const double *Q, int m, double *out, void *user)
{
    double c, cd, cdd;
    cam_state(t, *(const double *)user, &c, &cd, &cdd);
    out[0] = Q[0] - c;
    return 0;
}
static int jach_fn(double t, int nq, const double *Q, int m, double *H, void *user)
{
    H[0] = 1.0;
    return 0;
}
static int dhdt_fn(double t, int nq, const double *Q, int m, double *out, void *user)
{
    double c, cd, cdd;
    cam_state(t, *(const double *)user, &c, &cd, &cdd);
    out[0] = -cd;
    return 0;
}

static int d2hdt2_fn(double t, int nq, const double *Q, int m, double *out, void *user)
{
    double c, cd, cdd;
    cam_state(t, *(const double *)user, &c, &cd, &cdd);
    out[0] = -cdd;
    return 0;
}

#ifdef NSM_HAVE_EVENT_DRIVEN
typedef struct edctx {
    FILE *traj, *poin;
    double rpm;
    nsx_series ts, us, cs, pu, pv;
    long nimpacts, nrelease;
} edctx;

static int observe_ed(nsm_ed *s, const nsm_event *ev, void *user)
{
    edctx *x = user;
    double t = ev->t, u = nsm_ed_q(s, 0)[0], du = nsm_ed_v(s, 0)[0], c, cd, cdd;
    cam_state(t, x->rpm, &c, &cd, &cdd);
    if (ev->type == NSM_EVENT_NONSMOOTH) {
        x->nimpacts += ev->impact;
        x->nrelease += ev->released;
        return 0;
    }
    if (ev->type == NSM_EVENT_USER) {
        if (x->poin) fprintf(x->poin, "%.10g,%.12g,%.12g\n", t, u - c, du - cd);
        nsx_push(&x->pu, u - c); nsx_push(&x->pv, du - cd);
        return 0;
    }
    if (x->traj) fprintf(x->traj, "%.10g,%.12g,%.12g,%.12g,%.12g,%.12g\n", t, u, c, du, cd, nsm_ed_lambda(s, 0, 2)[0]);
    nsx_push(&x->ts, t); nsx_push(&x->us, u); nsx_push(&x->cs, c);
    return 0;
}

static int run_ed(nsm_model *model, const nsx_args *a, double rpm, double h, double T,
                  double rtol, double atol, double hmin)
{
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = T; o.output_step = h; o.rtol = rtol; o.atol = atol; o.hmin = hmin;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *ed = nsm_ed_new(model, &o, err);
    if (!ed) { fprintf(stderr, "cam_follower: %s\n", err); return 1; }
    double period = 60.0 / rpm;
    for (long k = 1; k * period <= T; k++) nsm_ed_add_event(ed, k * period);
    edctx x = { 0 };
    x.rpm = rpm;
    char path[4096];
    if (a->out) {
        x.traj = fopen(nsx_path(path, sizeof path, a->out, "trajectory.csv"), "w");
        x.poin = fopen(nsx_path(path, sizeof path, a->out, "poincare.csv"), "w");
        if (!x.traj || !x.poin) { fprintf(stderr, "cam_follower: cannot write in %s\n", a->out); return 1; }
        fprintf(x.traj, "t,u,c,du,dc,impulse\n");
        fprintf(x.poin, "t,uhat,duhat\n");
        double c, cd, cdd;
        cam_state(0.0, rpm, &c, &cd, &cdd);
        fprintf(x.traj, "%.10g,%.12g,%.12g,%.12g,%.12g,%.12g\n", 0.0, nsm_ed_q(ed, 0)[0], c, nsm_ed_v(ed, 0)[0], cd, 0.0);
    }
    struct timespec t0, t1;
    timespec_get(&t0, TIME_UTC);
    ns_status st = nsm_ed_run(ed, observe_ed, &x);
    timespec_get(&t1, TIME_UTC);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (st != NS_OK) fprintf(stderr, "cam_follower: %s\n", nsm_ed_error(ed));
    const nsm_ed_stats *S = nsm_ed_get_stats(ed);
    if (!a->quiet)
        printf("cam_follower (rpm %g, event-driven): t = %g in %.3f s, %ld CVODE steps, %ld f evals, %ld g evals, "
               "%ld nonsmooth events, %ld impacts, %ld rest, %ld releases, final u = %.6f\n",
               rpm, nsm_ed_time(ed), secs, S->cvode_steps, S->rhs_evals, S->root_evals,
               S->events[NSM_EVENT_NONSMOOTH], S->impacts, S->rests, S->releases, nsm_ed_q(ed, 0)[0]);
    if (x.traj) {
        fclose(x.traj);
        fclose(x.poin);
        char title[128];
        snprintf(title, sizeof title, "Cam follower, %g rpm (event-driven, CVODE)", rpm);
        svgplot *p = svgplot_new(1, title);
        svgplot_labels(p, 0, "t [s]", "position");
        svgplot_series(p, 0, "follower u", x.ts.n, x.ts.v, x.us.v, 0);
        svgplot_series(p, 0, "cam c(t)", x.ts.n, x.ts.v, x.cs.v, 0);
        svgplot_write(p, nsx_path(path, sizeof path, a->out, "cam_follower.svg"));
        svgplot_free(p);
    }
    nsx_series_free(&x.ts); nsx_series_free(&x.us); nsx_series_free(&x.cs);
    nsx_series_free(&x.pu); nsx_series_free(&x.pv);
    nsm_ed_free(ed);
    return st == NS_OK ? 0 : 1;
}
#endif

int main(int argc, char **argv)
{
    nsx_args a;
    int scheme = nsx_take_scheme(&argc, argv);
    double rtol = 1e-10, atol = 1e-12, hmin = 1e-12;
    nsx_take_double(&argc, argv, "--rtol", &rtol);
    nsx_take_double(&argc, argv, "--atol", &atol);
    nsx_take_double(&argc, argv, "--hmin", &hmin);
    if (scheme < 0) { fprintf(stderr, "cam_follower: --scheme ts|ed\n"); return 2; }
    int prc = nsx_parse(argc, argv, &a, "[--rpm RPM] [--scheme ts|ed] [--rtol R --atol A --hmin H]");
    if (prc != 0) return prc > 0 ? 0 : 2;
    double rpm = a.rpm > 0 ? a.rpm : 358.0;
    double h = a.h > 0 ? a.h : 1e-4, T = a.T > 0 ? a.T : 5.0;
    if (a.steps > 0) T = a.steps * h;
    const double mu = 1.221, zeta = 0.0, kappa = 1430.8, r = isnan(a.e) ? 0.8 : a.e;
    double c0, cd0, cdd0;
    cam_state(0.0, rpm, &c0, &cd0, &cdd0);
    double M[1] = { mu }, C[1] = { zeta }, K[1] = { kappa };
    double q0[1] = { 0.4 + c0 }, v0[1] = { 0.4 + cd0 };
    nsm_model *model = nsm_model_new();
    nsm_ds *ds = nsm_ds_lagrangian_lti_new(1, M, q0, v0);
    nsm_ds_set_damping(ds, C);
    nsm_ds_set_stiffness(ds, K);
    int d = nsm_model_add_ds(model, ds);
    int law = nsm_model_add_law(model, nsm_nslaw_newton_new(1, r));
    int inter = nsm_model_add_interaction(model, nsm_relation_rheonomous_new(1, 1, h_fn, jach_fn, dhdt_fn, &rpm), law, d, -1);
    if (d < 0 || law < 0 || inter < 0) { fprintf(stderr, "cam_follower: %s\n", nsm_model_error(model)); return 1; }
    if (scheme == 1) {
#ifdef NSM_HAVE_EVENT_DRIVEN
        nsm_relation_set_d2hdt2(nsm_model_relation(model, inter), d2hdt2_fn);
        int rc = run_ed(model, &a, rpm, h, T, rtol, atol, hmin);
        nsm_model_free(model);
        return rc;
#else
        fprintf(stderr, "cam_follower: built without CVODE: no event-driven scheme\n");
        return 1;
#endif
    }
    nsm_sim *sim = nsx_sim_new(model, &a, h, "cam_follower");
    if (!sim) { return 1; }
    FILE *traj = NULL, *poin = NULL;
    char path[4096];
    nsx_series ts = { 0 }, us = { 0 }, cs = { 0 }, pu = { 0 }, pv = { 0 };
    if (a.out) {
        traj = fopen(nsx_path(path, sizeof path, a.out, "trajectory.csv"), "w");
        poin = fopen(nsx_path(path, sizeof path, a.out, "poincare.csv"), "w");
        if (!traj || !poin) { fprintf(stderr, "cam_follower: cannot write in %s\n", a.out); return 1; }
        fprintf(traj, "t,u,c,du,dc,impulse\n");
        fprintf(poin, "t,uhat,duhat\n");
    }
    double period = 60.0 / rpm;
    long next_strobe = 0, nimpacts = 0;
    ns_status st = NS_OK;
    for (long k = 0;; k++) {
        double t = nsm_sim_time(sim), u = nsm_sim_q(sim, d)[0], du = nsm_sim_v(sim, d)[0];
        double c, cd, cdd;
        cam_state(t, rpm, &c, &cd, &cdd);
        double P = nsm_sim_lambda(sim, inter, 1)[0];
        if (P > 0) nimpacts++;
        if (traj && k % a.save_every == 0) {
            fprintf(traj, "%.10g,%.12g,%.12g,%.12g,%.12g,%.12g\n", t, u, c, du, cd, P);
            nsx_push(&ts, t); nsx_push(&us, u); nsx_push(&cs, c);
        }
        if (t >= next_strobe * period - 0.5 * h) {
            if (poin) fprintf(poin, "%.10g,%.12g,%.12g\n", t, u - c, du - cd);
            nsx_push(&pu, u - c); nsx_push(&pv, du - cd);
            next_strobe++;
        }
        if (t >= T - 0.5 * h) break;
        st = nsm_sim_step(sim);
        if (st != NS_OK) { fprintf(stderr, "cam_follower: %s\n", nsm_sim_error(sim)); break; }
    }
    if (!a.quiet)
        printf("cam_follower (rpm %g): %ld steps, %ld steps with contact impulse, %zu stroboscopic points, final u = %.6f\n",
               rpm, nsm_sim_step_count(sim), nimpacts, pu.n, nsm_sim_q(sim, d)[0]);
    if (traj) {
        fclose(traj);
        fclose(poin);
        char title[128];
        snprintf(title, sizeof title, "Cam follower, %g rpm (Moreau-Jean, h = %g)", rpm, h);
        svgplot *p = svgplot_new(1, title);
        svgplot_labels(p, 0, "t [s]", "position");
        svgplot_series(p, 0, "follower u", ts.n, ts.v, us.v, 0);
        svgplot_series(p, 0, "cam c(t)", ts.n, ts.v, cs.v, 0);
        svgplot_write(p, nsx_path(path, sizeof path, a.out, "cam_follower.svg"));
        svgplot_free(p);
        snprintf(title, sizeof title, "Cam follower, %g rpm: stroboscopic Poincare section", rpm);
        p = svgplot_new(1, title);
        svgplot_labels(p, 0, "u - c", "du/dt - dc/dt");
        svgplot_series(p, 0, "once per cam revolution", pu.n, pu.v, pv.v, 1);
        svgplot_write(p, nsx_path(path, sizeof path, a.out, "cam_follower_poincare.svg"));
        svgplot_free(p);
    }
    nsx_series_free(&ts); nsx_series_free(&us); nsx_series_free(&cs);
    nsx_series_free(&pu); nsx_series_free(&pv);
    nsm_sim_free(sim);
    nsm_model_free(model);
    return st == NS_OK ? 0 : 1;
}
