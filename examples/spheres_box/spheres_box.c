/* spheres_box.c — n rigid spheres (6 dof) falling into an open box under
 * gravity, with Newton impacts and 3D Coulomb friction between spheres and
 * with the floor and the four side walls. One FC3D problem per step
 * (Moreau–Jean, θ = 0.5), assembled by the mechanics layer in BLOCK storage.
 *
 * Spheres: radius R uniform in [0.8, 1] Rmax (Rmax = 0.05 m), density
 * 1000 kg/m³, M = diag(m, m, m, I, I, I) with I = 2/5 m R², started on a
 * jittered lattice above the floor with random velocities (|v| ≤ 0.5 m/s)
 * and spins (|ω| ≤ 5 rad/s). Box: floor z = 0, walls x = ±a, y = ±a with
 * a = 0.3 m (enough for ~35 spheres per layer). Contacts: e = 0.5, μ = 0.3
 * (--e, --mu). Contact detection: contacts.h (sort and sweep).
 *
 * Options (plus the common ones of example_util.h):
 *   --n N          number of spheres (default 100)
 *   --seed S       random seed (default 1)
 *   --mu MU        friction coefficient
 *   --half A       box half-width (default 0.3 m)
 *   --dump-every K dump every K-th one-step problem (with --dump)
 * Defaults: h = 1e-3, 2000 steps (T = 2 s), solver nsgs-ac with tol 1e-4
 * (--solver, --tol: the FC3D default "auto" at tol 1e-8 spends up to 10⁵
 * iterations on some stacked configurations).
 *
 * --out DIR: DIR/trajectory.csv (one row per saved step: t, kinetic and
 *   potential energy, active contacts, contact interactions, max
 *   penetration, solver iterations and error of the step, converged 0/1,
 *   non-converged solves so far, spheres outside the box),
 *   DIR/final.csv (one row per sphere: x, y, z, R, v, ω at the end),
 *   DIR/spheres_box.svg (energy, contacts, penetration over time). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nonsmooth/nsm.h"
#include "example_util.h"
#include "svgplot.h"
#include "contacts.h"

typedef struct ctx {
    int n;
    int *ds;
    double *mass, *R;
    double g, a, margin_base;
    sbx_contacts *contacts;
    const double **pos;
    FILE *traj;
    long save_every;
    long last_iters, last_nonconv;
    double max_pen_run;
    long max_outside;
    double add_rm[2];
    char err[NS_ERRMSG_LEN];
    nsx_series t, ek, nact, pen;
} ctx;

static double max_speed(nsm_sim *s, const ctx *c)
{
    double vmax = 0.0;
    for (int i = 0; i < c->n; i++) {
        const double *v = nsm_sim_v(s, c->ds[i]);
        double sp = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + c->R[i] *
                    sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
        if (sp > vmax) vmax = sp;
    }
    return vmax;
}

/* Contacts for the next step: a contact exists while its gap is below
 * margin = 0.1 Rmin + 4 h vmax (a predicted gap y + h/2 ẏ ≤ 0 needs
 * y ≤ h vmax for relative speeds ≤ 2 vmax, so every contact that can become
 * active in the next step is in the model). */
static int detect(nsm_sim *s, ctx *c, sbx_geom *g)
{
    double margin = c->margin_base + 4.0 * nsm_sim_step_size(s) * max_speed(s, c);
    if (sbx_contacts_update(c->contacts, nsm_sim_model(s), c->pos, margin, g, c->err) != 0) return -1;
    c->add_rm[0] += g->added; c->add_rm[1] += g->removed;
    return 0;
}

static int outside(const ctx *c)
{
    int k = 0;
    for (int i = 0; i < c->n; i++) {
        const double *x = c->pos[i];
        if (!(fabs(x[0]) <= c->a && fabs(x[1]) <= c->a && x[2] >= 0.0)) k++;
    }
    return k;
}

static void energies(nsm_sim *s, const ctx *c, double *ek, double *ep)
{
    *ek = 0.0; *ep = 0.0;
    for (int i = 0; i < c->n; i++) {
        *ek += nsm_sim_kinetic_energy(s, c->ds[i]);
        *ep += c->mass[i] * c->g * c->pos[i][2];
    }
}

static void row(nsm_sim *s, ctx *c, double pen)
{
    const nsm_sim_stats *S = nsm_sim_get_stats(s);
    const ns_result *r = nsm_sim_last_result(s);
    int nact = nsm_sim_index_set(s, 1, NULL, 0);
    long iters = S->solver_iterations - c->last_iters;
    int solved = S->solves > 0 && nact > 0;
    double ek, ep;
    energies(s, c, &ek, &ep);
    int out = outside(c);
    if (out > c->max_outside) c->max_outside = out;
    if (c->traj && nsm_sim_step_count(s) % c->save_every == 0) {
        fprintf(c->traj, "%.10g,%.10g,%.10g,%d,%d,%.6g,%ld,%.3g,%d,%ld,%d\n",
                nsm_sim_time(s), ek, ep, nact, nsm_model_ninter(nsm_sim_model(s)), pen,
                iters, solved ? r->error : 0.0, solved ? r->status == NS_OK : 1,
                S->nonconverged, out);
        nsx_push(&c->t, nsm_sim_time(s)); nsx_push(&c->ek, ek);
        nsx_push(&c->nact, nact); nsx_push(&c->pen, pen);
    }
    c->last_iters = S->solver_iterations;
}

static double urand(unsigned long long *st)
{
    *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*st >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
    /* own options, removed before the common parser */
    unsigned long long seed = 1;
    double mu = 0.3, half = 0.3;
    long dump_every = 1;
    char **av = malloc((size_t)(argc + 1) * sizeof *av);
    int ac = 0;
    if (!av) return 1;
    for (int i = 0; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--seed")) { seed = strtoull(argv[++i], NULL, 10); continue; }
        if (i + 1 < argc && !strcmp(argv[i], "--mu")) { mu = atof(argv[++i]); continue; }
        if (i + 1 < argc && !strcmp(argv[i], "--half")) { half = atof(argv[++i]); continue; }
        if (i + 1 < argc && !strcmp(argv[i], "--dump-every")) { dump_every = atol(argv[++i]); continue; }
        av[ac++] = argv[i];
    }
    av[ac] = NULL;
    nsx_args a;
    int prc = nsx_parse(ac, av, &a, "[--n N] [--seed S] [--e E] [--mu MU] [--half A] [--dump-every K]");
    if (prc != 0) { free(av); return prc > 0 ? 0 : 2; }
    free(av);
    int n = a.n > 0 ? a.n : 100;
    double h = a.h > 0 ? a.h : 1e-3;
    long steps = a.steps > 0 ? a.steps : (a.T > 0 ? (long)ceil(a.T / h - 1e-9) : 2000);
    double e = isnan(a.e) ? 0.5 : a.e;
    const double Rmax = 0.05, rho = 1000.0, g = 9.81;
    if (!(half > 0.05)) { fprintf(stderr, "spheres_box: --half must exceed Rmax = 0.05\n"); return 2; }
    if (!(mu >= 0.0) || !(e >= 0.0 && e <= 1.0)) { fprintf(stderr, "spheres_box: bad --mu or --e\n"); return 2; }

    ctx c = { 0 };
    c.n = n; c.g = g; c.a = half; c.save_every = a.save_every;
    c.ds = malloc((size_t)n * sizeof *c.ds);
    c.mass = malloc((size_t)n * sizeof *c.mass);
    c.R = malloc((size_t)n * sizeof *c.R);
    c.pos = malloc((size_t)n * sizeof *c.pos);
    if (!c.ds || !c.mass || !c.R || !c.pos) { fprintf(stderr, "spheres_box: out of memory\n"); return 1; }

    nsm_model *model = nsm_model_new();
    int law = nsm_model_add_law(model, nsm_nslaw_newton_coulomb_new(3, e, mu));
    /* lattice: k × k per layer, spacing 2.2 Rmax, first layer just above the floor */
    double sp = 2.2 * Rmax;
    int k = (int)floor((2.0 * (half - Rmax)) / sp) + 1;
    if (k < 1) k = 1;
    double x0 = -0.5 * sp * (k - 1);
    double Rmin = Rmax;
    for (int i = 0; i < n; i++) {
        int layer = i / (k * k), ix = (i % (k * k)) % k, iy = (i % (k * k)) / k;
        double R = Rmax * (0.8 + 0.2 * urand(&seed));
        double m = rho * 4.0 / 3.0 * 3.14159265358979323846 * R * R * R, I = 0.4 * m * R * R;
        double q0[6], v0[6];
        q0[0] = x0 + sp * ix + 0.1 * Rmax * (urand(&seed) - 0.5);
        q0[1] = x0 + sp * iy + 0.1 * Rmax * (urand(&seed) - 0.5);
        q0[2] = 1.2 * Rmax + 2.5 * Rmax * layer;
        q0[3] = q0[4] = q0[5] = 0.0;
        for (int t = 0; t < 3; t++) v0[t] = 0.5 / sqrt(3.0) * (2.0 * urand(&seed) - 1.0);
        for (int t = 3; t < 6; t++) v0[t] = 5.0 / sqrt(3.0) * (2.0 * urand(&seed) - 1.0);
        double M[36] = { 0 }, f[6] = { 0, 0, -m * g, 0, 0, 0 };
        for (int t = 0; t < 6; t++) M[t * 7] = t < 3 ? m : I;
        nsm_ds *ds = nsm_ds_lagrangian_lti_new(6, M, q0, v0);
        if (ds) nsm_ds_set_fext_constant(ds, f);
        c.ds[i] = nsm_model_add_ds(model, ds);
        if (c.ds[i] < 0) { fprintf(stderr, "spheres_box: %s\n", nsm_model_error(model)); return 1; }
        c.mass[i] = m; c.R[i] = R;
        if (R < Rmin) Rmin = R;
    }
    if (law < 0) { fprintf(stderr, "spheres_box: %s\n", nsm_model_error(model)); return 1; }
    c.margin_base = 0.1 * Rmin;

    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    o.theta = 0.5;
    o.dump_prefix = "spheres_box";
    o.solver = "nsgs-ac";
    o.solver_options.tol = 1e-4;
    nsx_apply(&a, &o);
    o.dump_every = dump_every > 0 ? dump_every : 1;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *sim = nsm_sim_new(model, &o, err);
    if (!sim) { fprintf(stderr, "spheres_box: %s\n", err); nsm_model_free(model); return 1; }
    for (int i = 0; i < n; i++) c.pos[i] = nsm_sim_q(sim, c.ds[i]);
    c.contacts = sbx_contacts_new(n, c.R, c.ds, half, law);
    if (!c.contacts) { fprintf(stderr, "spheres_box: out of memory\n"); return 1; }

    char path[4096];
    if (a.out) {
        c.traj = fopen(nsx_path(path, sizeof path, a.out, "trajectory.csv"), "w");
        if (!c.traj) { fprintf(stderr, "spheres_box: cannot write in %s\n", a.out); return 1; }
        fprintf(c.traj, "t,kinetic_energy,potential_energy,active_contacts,interactions,"
                        "max_penetration,solver_iterations,solver_error,converged,nonconverged_total,outside\n");
    }
    sbx_geom geo;
    ns_status st = NS_OK;
    int rc = detect(sim, &c, &geo);
    row(sim, &c, geo.max_penetration);
    c.max_pen_run = geo.max_penetration;
    struct timespec t0, t1;
    timespec_get(&t0, TIME_UTC);
    for (long s = 0; rc == 0 && s < steps; s++) {
        st = nsm_sim_step(sim);
        if (st != NS_OK) break;
        rc = detect(sim, &c, &geo);
        if (geo.max_penetration > c.max_pen_run) c.max_pen_run = geo.max_penetration;
        row(sim, &c, geo.max_penetration);
    }
    timespec_get(&t1, TIME_UTC);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (rc != 0) fprintf(stderr, "spheres_box: contacts: %s\n", c.err);
    if (st != NS_OK) fprintf(stderr, "spheres_box: %s\n", nsm_sim_error(sim));
    const nsm_sim_stats *S = nsm_sim_get_stats(sim);
    double ek, ep;
    energies(sim, &c, &ek, &ep);
    if (!a.quiet)
        printf("spheres_box: %d spheres, %ld steps h = %g in %.3f s (%.3g ms/step; solver %.3f s), "
               "%ld FC3D solves, %ld not converged, %.0f contacts added / %.0f removed, "
               "final: %d active contacts, kinetic energy %.3g J, max penetration %.3g m (%.2f%% of Rmin), "
               "%ld outside the box\n",
               n, S->steps, h, secs, 1e3 * secs / (double)(S->steps ? S->steps : 1), S->solver_seconds,
               S->solves, S->nonconverged, c.add_rm[0], c.add_rm[1], nsm_sim_index_set(sim, 1, NULL, 0),
               ek, c.max_pen_run, 100.0 * c.max_pen_run / Rmin, c.max_outside);
    if (c.traj) fclose(c.traj);
    if (a.out) {
        FILE *f = fopen(nsx_path(path, sizeof path, a.out, "final.csv"), "w");
        if (f) {
            fprintf(f, "i,x,y,z,R,vx,vy,vz,wx,wy,wz\n");
            for (int i = 0; i < n; i++) {
                const double *q = nsm_sim_q(sim, c.ds[i]), *v = nsm_sim_v(sim, c.ds[i]);
                fprintf(f, "%d,%.10g,%.10g,%.10g,%.10g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", i, q[0], q[1], q[2],
                        c.R[i], v[0], v[1], v[2], v[3], v[4], v[5]);
            }
            fclose(f);
        }
        svgplot *p = svgplot_new(3, "Spheres in a box (Moreau-Jean, FC3D)");
        svgplot_labels(p, 0, "t [s]", "kinetic energy [J]");
        svgplot_series(p, 0, "kinetic energy", c.t.n, c.t.v, c.ek.v, 0);
        svgplot_labels(p, 1, "t [s]", "active contacts");
        svgplot_series(p, 1, "active contacts", c.t.n, c.t.v, c.nact.v, 0);
        svgplot_labels(p, 2, "t [s]", "max penetration [m]");
        svgplot_series(p, 2, "max penetration", c.t.n, c.t.v, c.pen.v, 0);
        svgplot_write(p, nsx_path(path, sizeof path, a.out, "spheres_box.svg"));
        svgplot_free(p);
    }
    nsx_series_free(&c.t); nsx_series_free(&c.ek); nsx_series_free(&c.nact); nsx_series_free(&c.pen);
    sbx_contacts_free(c.contacts);
    nsm_sim_free(sim);
    nsm_model_free(model);
    free(c.ds); free(c.mass); free(c.R); free(c.pos);
    return st == NS_OK && rc == 0 ? 0 : 1;
}
