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
 * (--e, --mu). Contact detection: contacts.h (uniform grid, nsx_cells.h).
 *
 * Scenes (--scene): box (the above); pile: the spheres start at rest on a
 * dense lattice (spacing 2.05 Rmax, --layers layers, the box just wide
 * enough) and settle into a pile; chute: the same block at the upper end
 * of a chute three times as long (walls x = ±ax, y = ±ay), gravity tilted
 * by --slope degrees (default 25, above atan μ), so that it flows down.
 * pile and chute keep the pile's height as n grows (the box widens), so
 * that a step's cost per sphere can be compared across n. pyramid and
 * column are hyperstatic stacks of equal spheres (R = Rmax) that settle to
 * rest: pyramid, a square pyramid (base L × L, L layers, each sphere in the
 * hollow of four below; L the largest with L(L+1)(2L+1)/6 ≤ n, which
 * becomes n) in a box whose walls touch the base; column, n spheres stacked
 * on x = y = 0 (walls at ±2 R). Both start with 0.1 mm gaps, at rest.
 *
 * Options (plus the common ones of example_util.h):
 *   --n N          number of spheres (default 100)
 *   --seed S       random seed (default 1)
 *   --mu MU        friction coefficient
 *   --half A       box half-width (default 0.3 m; pile/chute: from n)
 *   --scene S      box (default), pile, chute, pyramid or column
 *   --write-scene FILE  write the initial scene (box, law, h, steps, and per
 *                  sphere x, v, ω, R, m, I) to FILE (scene_file.h), for the
 *                  other engines of benchmarks/peers
 *   --layers L     lattice layers of pile and chute (default 10)
 *   --slope DEG    chute inclination (default 25)
 *   --profile K    print the per-step breakdown (contact detection, free
 *                  state, assembly, solver, update), sweeps per step, peak
 *                  RSS and memory per contact over the steps ≥ K
 *   --omega W      NSGS relaxation (solver option omega)
 *   --anderson M   Anderson memory of the NSGS sweeps (default 3; 0 = plain
 *                  sweeps, the default before: see docs/scale.md)
 *   --threads T    coloured NSGS sweeps on T OpenMP threads (default 0:
 *                  serial order)
 *   --order K      1 (default): contacts ordered by their first sphere
 *                  (nsm_sim_options.order_by_system; the spheres are
 *                  numbered along the lattice, so W's rows follow space);
 *                  0: interaction slot order
 *   --replay LIST  with --profile: each profiled step's one-step problem is
 *                  solved again, from the same warm start, by each variant
 *                  of LIST (fc3d solver specs NAME[/key=value]..., e.g.
 *                  "nsgs-ac/omega=1.2,nsgs-ac/sweep=symmetric/threads=2",
 *                  comma-separated; nsolve --list-solvers --options), timed,
 *                  error recomputed here
 *   --global       each step's friction-contact problem in the global
 *                  form (nsm_sim_options.global_fc): GFC3D (M, H, q, b, μ),
 *                  W = H M⁻¹ Hᵀ never formed, solved by the GFC3D default
 *                  (chain) or --solver's GFC3D solver; --dump writes these
 *                  GFC3D problems. Not with --rolling or --replay (FC3D
 *                  only); --profile's worst_error is then nan (the own
 *                  error check reads W)
 *   --max-iter N   sweeps per step at most (default: the library's, 10⁵)
 *   --budget S     seconds per step's solve at most (solver_options.time_limit;
 *                  default none): the chain returns its best point then
 *   --stabilization B  β of the velocity-level overlap correction
 *                  (nsm_sim_options.stabilization, default 0.2: an
 *                  overlapping contact separates at β·overlap/(θh); 0 = the
 *                  plain Newton law, under which a pile sinks)
 *   --hold H       nsm_sim_options.activation_hold in metres (default
 *                  2.5e-4 Rmin): a contact of the previous step stays in
 *                  the problem while its predicted gap is ≤ H, keeping its
 *                  reaction as warm start (0: contacts leave as soon as
 *                  their predicted gap is positive, the rule before)
 *   --projection P none (default) or direct: after each velocity step, the
 *                  positions are projected so that no contact (every live
 *                  contact interaction, projection_all) overlaps by more
 *                  than --proj-tol (default 1e-6 m), mass-weighted
 *                  (projection_metric 1); velocities are left as the step
 *                  gave them, so a pile held up by the projection keeps a
 *                  downward velocity and does not come to rest
 *                  (docs/scale.md)
 *   --cold         every one-step problem solved from zero reactions, not
 *                  from the previous step's (nsm_sim_options.warm_start = 0;
 *                  to measure what the warm start is worth)
 *   --accept-nonconverged  go on after a step whose problem missed --tol
 *                  (nsm_sim_options.accept_nonconverged; counted in the
 *                  summary's "not converged"); without it the run stops
 *                  there, naming the step. A settling 1000-sphere pile
 *                  can meet such a step (trajectories are path-dependent:
 *                  one default run did near t = 0.97 s; docs/scale.md).
 *   --rolling MU_R Newton impact + rolling friction contacts (rolling
 *                  coefficient MU_R, a length in metres: the rolling torque
 *                  stays below MU_R times the normal force; 0 allowed):
 *                  5-row contacts (contacts.h), one RFC3D problem per step
 *                  (docs/rolling.md); at the end the slope of the heap's
 *                  free surface is measured and printed (repose.h: the
 *                  line "repose: ..."), with --out also plotted in
 *                  DIR/repose.svg
 *   --pivot MU_P   with --rolling: pivoting (drilling) resistance, the
 *                  torque about the contact normal at most MU_P times the
 *                  normal force (a length in metres; default MU_R): 6-row
 *                  contacts (nsm_nslaw_newton_rolling_pivot_new); 0 gives
 *                  the 5-row law, under which a pile keeps spinning
 *                  spheres about their contact normals (docs/rolling.md §8)
 *   --init FILE    start from the state in FILE (a final.csv of an earlier
 *                  run with the same scene, n and seed: x, y, z, v, ω per
 *                  sphere; R must match): benchmarks/scale/vs_siconos.sh
 * Defaults: h = 1e-3, 2000 steps (T = 2 s), the library's FC3D default
 * (auto: Anderson-accelerated NSGS-AC sweeps until they converge or
 * stall, then the rest of the chain, docs/scale.md) at tol 1e-3, overlap
 * stabilisation β = 0.2, contacts held within 2.5e-4 Rmin (10 µm for the
 * default radii). The sweeps alone: --solver nsgs-ac (plain with
 * --anderson 0). Why these, with the figures: docs/scale.md ("Resting
 * contacts" and "Acceptance figures").
 *
 * --out DIR: DIR/trajectory.csv (one row per saved step: t, kinetic and
 *   potential energy, active contacts, contact interactions, max
 *   penetration, solver iterations and error of the step, converged 0/1,
 *   non-converged solves so far, spheres outside the box),
 *   DIR/final.csv (one row per sphere: x, y, z, R, v, ω at the end),
 *   DIR/spheres_box.svg (energy, contacts, penetration over time; with
 *   --rolling the energy as log10, to show a pile coming to rest).
 * Unless --quiet, a last line "peer: ..." (scene_file.h: sbx_peer_line)
 * gives the overlaps between spheres and with the walls at the end, the
 * kinetic energy, the run's wall time and, with --profile K, the wall time
 * per step over the steps >= K, in benchmarks/peers's format. */
#define _GNU_SOURCE   /* clock_gettime, getrusage, dlsym(RTLD_DEFAULT) */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include "nonsmooth/nonsmooth.h"
#include "nonsmooth/nsm.h"
#include "example_util.h"
#include "svgplot.h"
#include "contacts.h"
#include "scene_file.h"
#include "repose.h"

/* default activation hold, relative to the smallest radius */
#define HOLD_PER_RMIN 2.5e-4

typedef struct ctx {
    int n;
    int *ds;
    double *mass, *R;
    double gvec[3], ax, ay, margin_base;
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

/* Per-phase wall time of the profiled steps. */
typedef struct prof {
    long steps, solves, sweeps, max_sweeps, contacts, nonconv;
    double detect, free_state, assembly, solver, update;
    double cpu, detect_cpu;   /* process CPU time of the steps (all threads), thread CPU of detection */
    double worst_error;       /* of the recomputed errors (own_error) */
    double w_bytes, p_bytes;   /* W's block values and the rest of the problem, last step */
    long w_blocks, nc_last;
    long long allocs_sim, allocs_detect;   /* heap allocations (tools/alloccount preloaded) */
} prof;

/* Heap allocation counter of tools/alloccount when it is preloaded
 * (LD_PRELOAD=build/lib/libnsalloc.so), else NULL: the profile line's
 * allocs_step (inside the simulation's calls) and allocs_detect (contact
 * detection, the example's relations included) are then −1. */
static unsigned long long (*alloc_count)(void);
static void (*alloc_region)(int);
static long long allocs_now(void) { return alloc_count ? (long long)alloc_count() : 0; }

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU time (user + system) of the process (all threads) or of this thread:
 * on a shared machine it does not count the time other processes run. */
static double cpu_now(int thread)
{
    struct timespec t;
    clock_gettime(thread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

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
        if (!(fabs(x[0]) <= c->ax && fabs(x[1]) <= c->ay && x[2] >= 0.0)) k++;
    }
    return k;
}

/* Kinetic and potential energy (the potential of the possibly tilted
 * gravity: −m g·x). */
static void energies(nsm_sim *s, const ctx *c, double *ek, double *ep)
{
    *ek = 0.0; *ep = 0.0;
    for (int i = 0; i < c->n; i++) {
        *ek += nsm_sim_kinetic_energy(s, c->ds[i]);
        const double *x = c->pos[i];
        *ep -= c->mass[i] * (c->gvec[0] * x[0] + c->gvec[1] * x[1] + c->gvec[2] * x[2]);
    }
}

static void row(nsm_sim *s, ctx *c, double pen)
{
    const nsm_sim_stats *S = nsm_sim_get_stats(s);
    long iters = S->solver_iterations - c->last_iters;
    c->last_iters = S->solver_iterations;
    int out = outside(c);
    if (out > c->max_outside) c->max_outside = out;
    if (!c->traj || nsm_sim_step_count(s) % c->save_every != 0) return;
    const ns_result *r = nsm_sim_last_result(s);
    int nact = nsm_sim_index_set(s, 1, NULL, 0);
    int solved = S->solves > 0 && nact > 0;
    double ek, ep;
    energies(s, c, &ek, &ep);
    fprintf(c->traj, "%.10g,%.10g,%.10g,%d,%d,%.6g,%ld,%.3g,%d,%ld,%d\n",
            nsm_sim_time(s), ek, ep, nact, nsm_model_ninter(nsm_sim_model(s)), pen,
            iters, solved ? r->error : 0.0, solved ? r->status == NS_OK : 1,
            S->nonconverged, out);
    nsx_push(&c->t, nsm_sim_time(s)); nsx_push(&c->ek, ek);
    nsx_push(&c->nact, nact); nsx_push(&c->pen, pen);
}

static double urand(unsigned long long *st)
{
    *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*st >> 11) / 9007199254740992.0;
}

static double peak_rss_mb(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0) return NAN;
    return (double)u.ru_maxrss / 1024.0;   /* Linux: kB */
}


/* Coulomb-cone projection of x (normal first; μ ≥ 0). */
static void cone_proj(double mu, double *x)
{
    double nt = hypot(x[1], x[2]);
    if (nt <= mu * x[0]) return;
    if (mu * nt <= -x[0]) { x[0] = x[1] = x[2] = 0.0; return; }
    double a = (x[0] + mu * nt) / (1.0 + mu * mu);
    x[0] = a;
    x[1] *= mu * a / nt;
    x[2] *= mu * a / nt;
}

/* The FC3D error of the last step's problem at the multipliers the
 * simulation kept (read back interaction by interaction, not from the
 * solver), computed here from W's blocks: with u = W r + q and
 * û = u + μ‖u_T‖ e_N, ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖). buf: 7 nc. */
static double fc_error_own(const ns_fc *fc, const double *r, double *u)
{
    ns_int nc = fc->nc;
    const ns_block *B = &fc->W->block;
    double q2 = 0, r2 = 0, u2 = 0, e2 = 0;
    for (ns_int a = 0; a < nc; a++) {
        double *ua = u + 3 * a;
        for (int i = 0; i < 3; i++) ua[i] = fc->q[3 * a + i];
        for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
            const double *Wk = B->x + B->value_ptr[k], *rb = r + 3 * B->block_col[k];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) ua[i] += Wk[i + 3 * j] * rb[j];
        }
        const double *ra = r + 3 * a;
        double x[3] = { ra[0] - ua[0] - fc->mu[a] * hypot(ua[1], ua[2]), ra[1] - ua[1], ra[2] - ua[2] };
        cone_proj(fc->mu[a], x);
        for (int i = 0; i < 3; i++) {
            e2 += (ra[i] - x[i]) * (ra[i] - x[i]);
            q2 += fc->q[3 * a + i] * fc->q[3 * a + i];
            r2 += ra[i] * ra[i];
            u2 += ua[i] * ua[i];
        }
    }
    double sc = sqrt(fmax(q2, fmax(r2, u2)));
    return sc > 0 ? sqrt(e2) / sc : sqrt(e2);
}

static double own_error(nsm_sim *sim, const ns_fc *fc, double *buf, int *ids)
{
    ns_int nc = fc->nc;
    double *r = buf, *u = buf + 3 * (size_t)nc;
    int na = nsm_sim_index_set(sim, 1, ids, (int)nc);
    if (na != nc) return INFINITY;
    for (ns_int a = 0; a < nc; a++) memcpy(r + 3 * a, nsm_sim_lambda(sim, ids[a], 1), 3 * sizeof *r);
    return fc_error_own(fc, r, u);
}

/* --replay: every profiled step's one-step problem solved again by each
 * variant from the same warm start as the simulation's solve (the λ the
 * interactions held before the step), timed, the error recomputed by
 * fc_error_own. Variants: fc3d solver specs NAME[/key=value]... (the
 * library's grammar, ns_solver_spec_parse) separated by commas. */
typedef struct variant {
    char label[64], solver[NS_SOLVER_NAME_LEN];
    ns_options o;
    double secs, worst;
    long iters, solves, nonconv;
} variant;

typedef struct replay {
    int nv;
    variant v[16];
    double *lam_prev;   /* 3 per interaction slot, before the step */
    long cap_prev;
    double *r0, *r, *u;
    int *ids;
    long cap_nc, count;
} replay;

static int replay_parse(replay *R, const char *spec, double tol)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *tok = strtok(buf, ","); tok && R->nv < 16; tok = strtok(NULL, ",")) {
        variant *v = &R->v[R->nv];
        memset(v, 0, sizeof *v);
        snprintf(v->label, sizeof v->label, "%s", tok);
        ns_options_default(&v->o);
        v->o.tol = tol;
        char err[NS_ERRMSG_LEN];
        if (ns_solver_spec_parse(tok, NS_KIND_FC3D, v->solver, sizeof v->solver, &v->o, err) != NS_OK) {
            fprintf(stderr, "spheres_box: --replay: %s\n", err);
            return -1;
        }
        R->nv++;
    }
    return R->nv > 0 ? 0 : -1;
}

static int replay_before(replay *R, nsm_sim *sim)
{
    nsm_model *m = nsm_sim_model(sim);
    long cap = nsm_model_inter_capacity(m);
    if (cap > R->cap_prev) {
        free(R->lam_prev);
        R->lam_prev = malloc((size_t)cap * 3 * sizeof *R->lam_prev);
        R->cap_prev = R->lam_prev ? cap : 0;
        if (!R->lam_prev) return -1;
    }
    for (long i = 0; i < cap; i++) {
        const double *l = nsm_model_inter_alive(m, (int)i) ? nsm_sim_lambda(sim, (int)i, 1) : NULL;
        for (int k = 0; k < 3; k++) R->lam_prev[3 * i + k] = l ? l[k] : 0.0;
    }
    return 0;
}

static int replay_after(replay *R, nsm_sim *sim, int failed)
{
    const ns_problem *pb = nsm_sim_problem(sim);
    if (!pb || pb->kind != NS_KIND_FC3D || nsm_sim_index_set(sim, 1, NULL, 0) == 0) return 0;
    const ns_fc *fc = pb->u.fc;
    long nc = fc->nc;
    if (nc > R->cap_nc) {
        free(R->r0); free(R->r); free(R->u); free(R->ids);
        R->r0 = malloc((size_t)nc * 3 * sizeof(double));
        R->r = malloc((size_t)nc * 3 * sizeof(double));
        R->u = malloc((size_t)nc * 3 * sizeof(double));
        R->ids = malloc((size_t)nc * sizeof(int));
        R->cap_nc = R->r0 && R->r && R->u && R->ids ? nc : 0;
        if (!R->cap_nc) return -1;
    }
    if (nsm_sim_index_set(sim, 1, R->ids, (int)nc) != nc) return -1;
    for (long a = 0; a < nc; a++)
        for (int k = 0; k < 3; k++)
            R->r0[3 * a + k] = R->ids[a] < R->cap_prev ? R->lam_prev[3 * (size_t)R->ids[a] + k] : 0.0;
    ns_solution *sol = ns_solution_new(pb);
    if (!sol) return -1;
    const char *dump = getenv("SBX_REPLAY_DUMP");   /* DIR: the problem and its warm start, for fc_variants */
    if (dump) {
        char path[1024], err[NS_ERRMSG_LEN];
        snprintf(path, sizeof path, "%s/replay_%ld.dat", dump, R->count);
        if (ns_problem_write(path, pb, NS_FORMAT_DAT, err) != NS_OK) fprintf(stderr, "spheres_box: %s\n", err);
        memcpy(sol->vec[0], R->r0, (size_t)nc * 3 * sizeof(double));
        snprintf(path, sizeof path, "%s/replay_%ld.guess", dump, R->count);
        if (ns_solution_write(path, sol, err) != NS_OK) fprintf(stderr, "spheres_box: %s\n", err);
        snprintf(path, sizeof path, "%s/replay_%ld.ids", dump, R->count);   /* interaction id of each contact */
        FILE *fi = fopen(path, "w");
        if (fi) {
            for (long a = 0; a < nc; a++) fprintf(fi, "%d\n", R->ids[a]);
            fclose(fi);
        }
    }
    R->count++;
    for (int k = 0; !failed && k < R->nv; k++) {
        variant *v = &R->v[k];
        memcpy(sol->vec[0], R->r0, (size_t)nc * 3 * sizeof(double));
        v->o.warm_start = 1;
        ns_result res;
        ns_result_init(&res);
        ns_status st = ns_solve(pb, v->solver, &v->o, sol, &res);
        v->secs += res.seconds;
        v->iters += res.iterations;
        v->solves++;
        if (st != NS_OK) v->nonconv++;
        double e = fc_error_own(fc, sol->vec[0], R->u);
        if (!(e <= v->worst)) v->worst = e;
        ns_result_clear(&res);
    }
    ns_solution_free(sol);
    return 0;
}

static void replay_free(replay *R)
{
    free(R->lam_prev); free(R->r0); free(R->r); free(R->u); free(R->ids);
}

/* buffers of own_error, grown when the contact count grows */
typedef struct errbuf { double *v; int *ids; long cap; } errbuf;

static double step_error(nsm_sim *sim, errbuf *eb)
{
    const ns_problem *pb = nsm_sim_problem(sim);
    if (!pb || pb->kind != NS_KIND_FC3D || nsm_sim_index_set(sim, 1, NULL, 0) == 0) return 0.0;
    long nc = pb->u.fc->nc;
    if (nc > eb->cap) {
        free(eb->v); free(eb->ids);
        eb->v = malloc((size_t)nc * 6 * sizeof *eb->v);
        eb->ids = malloc((size_t)nc * sizeof *eb->ids);
        eb->cap = eb->v && eb->ids ? nc : 0;
        if (!eb->cap) return INFINITY;
    }
    return own_error(sim, pb->u.fc, eb->v, eb->ids);
}

/* One step with its phases timed into P (when P is not NULL). */
static ns_status timed_step(nsm_sim *sim, ctx *c, sbx_geom *geo, int *rc, prof *P, replay *R)
{
    const nsm_sim_stats *S = nsm_sim_get_stats(sim);
    double c0 = cpu_now(0), cd0, cd1, cr = 0.0;
    long long a0, a1, a2, ar = 0;
    if (P && alloc_region) alloc_region(1);
    a0 = allocs_now();
    double t0 = now();
    ns_status st = nsm_sim_compute_free_state(sim);
    double d_free = now() - t0;
    if (R) {   /* untimed, not counted */
        if (alloc_region) alloc_region(0);
        ar -= allocs_now();
        cr = cpu_now(0); if (st == NS_OK && replay_before(R, sim) != 0) R = NULL; cr -= cpu_now(0);
        ar += allocs_now();
        if (alloc_region) alloc_region(1);
    }
    double sv0 = S->solver_seconds;
    long it0 = S->solver_iterations, so0 = S->solves, nc0 = S->nonconverged;
    t0 = now();
    if (st == NS_OK) st = nsm_sim_solve(sim);
    double d_solve = now() - t0;
    if (R && (st == NS_OK || getenv("SBX_REPLAY_DUMP"))) {   /* untimed, not counted; a failed step's problem is dumped, not replayed */
        if (alloc_region) alloc_region(0);
        ar -= allocs_now();
        cr += cpu_now(0); replay_after(R, sim, st != NS_OK); cr -= cpu_now(0);
        ar += allocs_now();
        if (alloc_region) alloc_region(1);
    }
    t0 = now();
    if (st == NS_OK) st = nsm_sim_update(sim);
    if (st == NS_OK) nsm_sim_next_step(sim);
    double d_update = now() - t0;
    a1 = allocs_now();
    t0 = now();
    cd0 = cpu_now(1);
    if (st == NS_OK) *rc = detect(sim, c, geo);
    cd1 = cpu_now(1);
    double d_detect = now() - t0;
    a2 = allocs_now();
    if (P && alloc_region) alloc_region(0);
    if (!P) return st;
    P->allocs_sim += a1 - a0 - ar;
    P->allocs_detect += a2 - a1;
    P->cpu += cpu_now(0) - c0 + cr;
    P->detect_cpu += cd1 - cd0;
    double sv = S->solver_seconds - sv0;
    long sw = S->solver_iterations - it0;
    P->steps++;
    P->free_state += d_free;
    P->solver += sv;
    P->assembly += d_solve - sv;
    P->update += d_update;
    P->detect += d_detect;
    P->sweeps += sw;
    if (sw > P->max_sweeps) P->max_sweeps = sw;
    P->solves += S->solves - so0;
    P->nonconv += S->nonconverged - nc0;
    const ns_problem *pb = nsm_sim_problem(sim);
    if (S->solves > so0 && pb && pb->kind == NS_KIND_FC3D) {
        const ns_fc *fc = pb->u.fc;
        P->contacts += fc->nc;
        P->nc_last = fc->nc;
        const ns_block *B = &fc->W->block;
        P->w_blocks = B->nblocks;
        P->w_bytes = (double)B->value_ptr[B->nblocks] * sizeof(double);
        P->p_bytes = (double)B->nblocks * (sizeof(ns_int) * 2) + (double)B->block_rows * sizeof(ns_int) * 3
                     + (double)fc->nc * (3 + 1) * sizeof(double);
    } else if (S->solves > so0 && pb && pb->kind == NS_KIND_GFC3D) {   /* --global: no W */
        P->contacts += pb->u.gfc->nc;
        P->nc_last = pb->u.gfc->nc;
    }
    return st;
}

int main(int argc, char **argv)
{
    /* own options, removed before the common parser */
    unsigned long long seed = 1;
    double mu = 0.3, half = NAN, layers = 10, slope = 25, omega = 0, profile_from = -1;
    double anderson = 3, threads = 0, order = 1, max_iter = 0;
    int accept = 0, global = 0, cold = 0;
    const char *scene = "box", *replay_spec = NULL, *init_path = NULL, *projection = "none", *scene_out = NULL;
    double proj_tol = 1e-6;
    char **av = malloc((size_t)(argc + 1) * sizeof *av);
    *(void **)&alloc_count = dlsym(RTLD_DEFAULT, "nsalloc_count");
    *(void **)&alloc_region = dlsym(RTLD_DEFAULT, "nsalloc_region");
    int ac = 0;
    if (!av) return 1;
    for (int i = 0; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--seed")) {
            /* the whole word, digits only: "--seed abc" is refused, not seed 0 */
            const char *v = argv[++i];
            char *end = NULL;
            errno = 0;
            seed = strtoull(v, &end, 10);
            if (!(v[0] >= '0' && v[0] <= '9') || *end || errno) {
                fprintf(stderr, "spheres_box: --seed '%s' is not an integer >= 0\n", v);
                free(av);
                return 2;
            }
            continue;
        }
        if (i + 1 < argc && !strcmp(argv[i], "--scene")) { scene = argv[++i]; continue; }
        if (i + 1 < argc && !strcmp(argv[i], "--replay")) { replay_spec = argv[++i]; continue; }
        if (i + 1 < argc && !strcmp(argv[i], "--init")) { init_path = argv[++i]; continue; }
        if (i + 1 < argc && !strcmp(argv[i], "--projection")) { projection = argv[++i]; continue; }
        if (i + 1 < argc && !strcmp(argv[i], "--write-scene")) { scene_out = argv[++i]; continue; }
        if (!strcmp(argv[i], "--accept-nonconverged")) { accept = 1; continue; }
        if (!strcmp(argv[i], "--cold")) { cold = 1; continue; }
        if (!strcmp(argv[i], "--global")) { global = 1; continue; }
        av[ac++] = argv[i];
    }
    av[ac] = NULL;
    nsx_take_double(&ac, av, "--mu", &mu);
    nsx_take_double(&ac, av, "--half", &half);
    nsx_take_double(&ac, av, "--layers", &layers);
    nsx_take_double(&ac, av, "--slope", &slope);
    nsx_take_double(&ac, av, "--omega", &omega);
    nsx_take_double(&ac, av, "--profile", &profile_from);
    nsx_take_double(&ac, av, "--anderson", &anderson);
    nsx_take_double(&ac, av, "--threads", &threads);
    nsx_take_double(&ac, av, "--order", &order);
    nsx_take_double(&ac, av, "--max-iter", &max_iter);
    nsx_take_double(&ac, av, "--proj-tol", &proj_tol);
    double budget = 0, stab = 0.2, hold = 0, rolling = NAN, pivot = NAN;
    nsx_take_double(&ac, av, "--rolling", &rolling);
    nsx_take_double(&ac, av, "--pivot", &pivot);
    nsx_take_double(&ac, av, "--budget", &budget);
    nsx_take_double(&ac, av, "--stabilization", &stab);
    int hold_given = nsx_take_double(&ac, av, "--hold", &hold);
    if (!(budget >= 0) || isinf(budget) || !(proj_tol > 0) || isinf(proj_tol) || !(stab >= 0 && stab <= 1) ||
        !(hold >= 0)) {
        fprintf(stderr, "spheres_box: --budget must be >= 0 seconds, --proj-tol > 0 metres, "
                        "--stabilization in [0, 1], --hold >= 0 metres\n");
        free(av);
        return 2;
    }
    if (strcmp(projection, "none") && strcmp(projection, "direct") && strcmp(projection, "combined")) {
        fprintf(stderr, "spheres_box: --projection '%s' is not none, direct or combined\n", projection);
        free(av);
        return 2;
    }
    nsx_args a;
    int prc = nsx_parse_described(ac, av, &a, "[--n N] [--seed S] [--e E] [--mu MU] [--half A] [--scene box|pile|chute|pyramid|column] "
                                    "[--layers L] [--slope DEG] [--profile K] [--omega W] "
                                    "[--max-iter N] [--budget S] [--stabilization B] [--hold H] [--projection none|direct|combined] [--proj-tol T] "
                                    "[--accept-nonconverged] [--cold] [--global] [--write-scene FILE] [--rolling MU_R] [--pivot MU_P]",
        "  --scene S          box (default: 100 spheres thrown into a box), pile (a\n"
        "                     lattice settling into a pile), chute, pyramid, column\n"
        "  --n N              number of spheres (default 100)\n"
        "  --seed S           random seed of radii, jitter and velocities (default 1)\n"
        "  --e E, --mu MU     restitution (default 0.5) and friction (default 0.3)\n"
        "  --half A           box half-width in metres (default 0.3; pile, chute: from n)\n"
        "  --layers L         lattice layers of pile and chute (default 10)\n"
        "  --slope DEG        chute inclination (default 25)\n"
        "  --anderson M       Anderson memory of the sweeps (default 3; 0: plain sweeps)\n"
        "  --omega W          sweeps' relaxation (default 1)\n"
        "  --threads T        coloured sweeps on T threads (default 0: serial order)\n"
        "  --order K          1: contacts ordered by sphere (default); 0: slot order\n"
        "  --max-iter N       sweeps per step at most (default: the library's, 1e5)\n"
        "  --budget S         seconds per step's solve at most (default: none)\n"
        "  --accept-nonconverged  go on after a step that missed --tol (counted)\n"
        "  --cold             solve every step from zero reactions (no warm start)\n"
        "  --global           the global form GFC3D (M, H), W never formed\n"
        "  --stabilization B  overlap correction beta in [0, 1] (default 0.2)\n"
        "  --hold H           keep a contact while its predicted gap <= H metres\n"
        "                     (default 2.5e-4 Rmin)\n"
        "  --projection P     none (default), direct or combined position projection\n"
        "  --proj-tol T       the projection's overlap tolerance (default 1e-6 m)\n"
        "  --rolling MU_R     rolling friction (a length in metres): RFC3D contacts,\n"
        "                     angle of repose printed\n"
        "  --pivot MU_P       with --rolling: pivoting resistance (default MU_R)\n"
        "  --profile K        per-step breakdown (detection, assembly, solve, update)\n"
        "                     over the steps >= K\n"
        "  --replay LIST      with --profile: each profiled step solved again by the\n"
        "                     comma-separated solver specs of LIST, timed\n"
        "  --init FILE        start from a final.csv of an earlier run (same scene,\n"
        "                     n and seed)\n"
        "  --write-scene FILE write the initial scene for benchmarks/peers\n"
        "  (details and figures: the comment at the top of spheres_box.c,\n"
        "  docs/scale.md)\n");
    if (prc != 0) { free(av); return prc > 0 ? 0 : 2; }
    free(av);
    int kind = !strcmp(scene, "box") ? 0 : !strcmp(scene, "pile") ? 1 : !strcmp(scene, "chute") ? 2
             : !strcmp(scene, "pyramid") ? 3 : !strcmp(scene, "column") ? 4 : -1;
    if (kind < 0) {
        fprintf(stderr, "spheres_box: --scene '%s' is not box, pile, chute, pyramid or column\n", scene);
        return 2;
    }
    int n = a.n > 0 ? a.n : 100;
    int pyr_L = 0;   /* pyramid: base side */
    if (kind == 3) {
        while ((long)(pyr_L + 1) * (pyr_L + 2) * (2 * pyr_L + 3) / 6 <= n) pyr_L++;
        n = (int)((long)pyr_L * (pyr_L + 1) * (2 * pyr_L + 1) / 6);
    }
    double h = a.h > 0 ? a.h : 1e-3;
    long steps = a.steps > 0 ? a.steps : (a.T > 0 ? (long)ceil(a.T / h - 1e-9) : 2000);
    double e = isnan(a.e) ? 0.5 : a.e;
    const double Rmax = 0.05, rho = 1000.0, g = 9.81;
    if (!(mu >= 0.0) || !(e >= 0.0 && e <= 1.0)) { fprintf(stderr, "spheres_box: bad --mu or --e\n"); return 2; }
    if (!isnan(rolling) && !(rolling >= 0.0 && isfinite(rolling))) {
        fprintf(stderr, "spheres_box: --rolling MU_R must be a finite length >= 0 (metres)\n");
        return 2;
    }
    if (!isnan(pivot) && (isnan(rolling) || !(pivot >= 0.0 && isfinite(pivot)))) {
        fprintf(stderr, "spheres_box: --pivot MU_P needs --rolling and must be a finite length >= 0 (metres)\n");
        return 2;
    }
    if (!isnan(rolling) && isnan(pivot)) pivot = rolling;
    if (global && (!isnan(rolling) || replay_spec)) {
        fprintf(stderr, "spheres_box: --global (the GFC3D form) goes with Coulomb contacts only: "
                        "not with --rolling nor --replay\n");
        return 2;
    }
    if (!(layers >= 1 && layers <= 1000 && layers == floor(layers)) || !(slope >= 0 && slope < 90) ||
        !(omega >= 0 && omega < 2) || !(anderson >= 0 && anderson <= 16 && anderson == floor(anderson)) ||
        !(threads >= 0 && threads <= 4096 && threads == floor(threads)) || !(order == 0 || order == 1) ||
        !(max_iter >= 0 && max_iter <= 1e9 && max_iter == floor(max_iter))) {
        fprintf(stderr, "spheres_box: --layers a whole number in [1, 1000], --slope in [0, 90), --omega in "
                        "[0, 2), --anderson a whole number in [0, 16], --threads a whole number in [0, 4096], "
                        "--order 0 or 1, --max-iter a whole number in [0, 1e9]\n");
        return 2;
    }

    /* lattice: k × k per layer (box), or kx × ky for pile and chute */
    double sp = kind == 0 ? 2.2 * Rmax : 2.05 * Rmax;
    int kx, ky;
    double ax, ay, xshift = 0.0;
    if (kind >= 3) {   /* stacks of equal spheres: gaps of 0.002 R = 0.1 mm */
        sp = 2.002 * Rmax;
        kx = ky = kind == 3 ? pyr_L : 1;
        ax = ay = kind == 3 ? 0.5 * sp * (kx - 1) + 1.002 * Rmax : 2.0 * Rmax;
    } else if (kind == 0) {
        if (isnan(half)) half = 0.3;
        if (!(half > 0.05)) { fprintf(stderr, "spheres_box: --half must exceed Rmax = 0.05\n"); return 2; }
        kx = ky = (int)floor((2.0 * (half - Rmax)) / sp) + 1;
        ax = ay = half;
    } else {
        int per_layer = (int)ceil((double)n / floor(layers));
        kx = ky = (int)ceil(sqrt((double)per_layer));
        if (!isnan(half)) {
            if (!(half > 0.05)) { fprintf(stderr, "spheres_box: --half must exceed Rmax = 0.05\n"); return 2; }
            kx = ky = (int)floor((2.0 * (half - Rmax)) / sp) + 1;
        }
        ax = ay = 0.5 * sp * (kx - 1) + 1.02 * Rmax;
        if (kind == 2) { xshift = -2.0 * ax; ax *= 3.0; }   /* the block at the upper end */
    }
    if (kx < 1) kx = ky = 1;
    double gvec[3] = { 0, 0, -g };
    if (kind == 2) {
        double th = slope * 3.14159265358979323846 / 180.0;
        gvec[0] = g * sin(th); gvec[2] = -g * cos(th);
    }

    ctx c = { 0 };
    c.n = n; c.ax = ax; c.ay = ay; c.save_every = a.save_every;
    memcpy(c.gvec, gvec, sizeof gvec);
    c.ds = malloc((size_t)n * sizeof *c.ds);
    c.mass = malloc((size_t)n * sizeof *c.mass);
    c.R = malloc((size_t)n * sizeof *c.R);
    c.pos = malloc((size_t)n * sizeof *c.pos);
    if (!c.ds || !c.mass || !c.R || !c.pos) { fprintf(stderr, "spheres_box: out of memory\n"); return 1; }

    nsm_model *model = nsm_model_new();
    int law = nsm_model_add_law(model, isnan(rolling) ? nsm_nslaw_newton_coulomb_new(3, e, mu)
                                       : pivot > 0.0 ? nsm_nslaw_newton_rolling_pivot_new(e, mu, rolling, pivot)
                                                     : nsm_nslaw_newton_rolling_new(5, e, mu, rolling));
    double x0 = -0.5 * sp * (kx - 1), y0 = -0.5 * sp * (ky - 1);
    double Rmin = Rmax;
    FILE *init = NULL;
    sbx_scene sc = { .n = n, .ax = ax, .ay = ay, .g = { gvec[0], gvec[1], gvec[2] }, .mu = mu, .e = e,
                     .h = h, .steps = steps };
    if (scene_out) {
        sc.x = malloc((size_t)n * 3 * sizeof *sc.x); sc.v = malloc((size_t)n * 3 * sizeof *sc.v);
        sc.w = malloc((size_t)n * 3 * sizeof *sc.w); sc.R = malloc((size_t)n * sizeof *sc.R);
        sc.m = malloc((size_t)n * sizeof *sc.m); sc.I = malloc((size_t)n * sizeof *sc.I);
        if (!sc.x || !sc.v || !sc.w || !sc.R || !sc.m || !sc.I) { fprintf(stderr, "spheres_box: out of memory\n"); return 1; }
    }
    if (init_path) {
        char head[256];
        init = fopen(init_path, "r");
        if (!init || !fgets(head, sizeof head, init)) {
            fprintf(stderr, "spheres_box: --init %s: cannot read\n", init_path);
            return 2;
        }
    }
    for (int i = 0; i < n; i++) {
        int layer = i / (kx * ky), ix = (i % (kx * ky)) % kx, iy = (i % (kx * ky)) / kx;
        double R = Rmax * (0.8 + 0.2 * urand(&seed));
        if (kind >= 3) R = Rmax;
        double m = rho * 4.0 / 3.0 * 3.14159265358979323846 * R * R * R, I = 0.4 * m * R * R;
        double q0[6], v0[6] = { 0 };
        if (kind == 0) {
            q0[0] = x0 + sp * ix + 0.1 * Rmax * (urand(&seed) - 0.5);
            q0[1] = y0 + sp * iy + 0.1 * Rmax * (urand(&seed) - 0.5);
            q0[2] = 1.2 * Rmax + 2.5 * Rmax * layer;
            for (int t = 0; t < 3; t++) v0[t] = 0.5 / sqrt(3.0) * (2.0 * urand(&seed) - 1.0);
            for (int t = 3; t < 6; t++) v0[t] = 5.0 / sqrt(3.0) * (2.0 * urand(&seed) - 1.0);
        } else if (kind == 3) {   /* layer l: (L − l)² spheres over the hollows of layer l − 1 */
            int l = 0, k = i, side = pyr_L;
            while (k >= side * side) { k -= side * side; side--; l++; }
            double dz = sqrt(4.0 * R * R - 0.5 * sp * sp) + 0.002 * R;
            q0[0] = x0 + 0.5 * sp * l + sp * (k % side);
            q0[1] = y0 + 0.5 * sp * l + sp * (k / side);
            q0[2] = 1.002 * R + dz * l;
        } else if (kind == 4) {
            q0[0] = q0[1] = 0.0;
            q0[2] = 1.002 * R + sp * i;
        } else {   /* at rest on the dense lattice, jittered by ±0.02 Rmax */
            q0[0] = xshift + x0 + sp * ix + 0.04 * Rmax * (urand(&seed) - 0.5);
            q0[1] = y0 + sp * iy + 0.04 * Rmax * (urand(&seed) - 0.5);
            q0[2] = 1.02 * Rmax + sp * layer;
        }
        q0[3] = q0[4] = q0[5] = 0.0;
        if (init) {   /* the row of sphere i: i, x, y, z, R, v (3), ω (3) */
            double row[11];
            char line[1024];
            int ok = fgets(line, sizeof line, init) != NULL;
            char *p = line;
            for (int t = 0; ok && t < 11; t++) {
                char *end;
                row[t] = strtod(p, &end);
                ok = end != p && isfinite(row[t]) && (*end == ',' || t == 10);
                p = end + 1;
            }
            if (!ok || (int)row[0] != i || fabs(row[4] - R) > 1e-8 * R) {
                fprintf(stderr, "spheres_box: --init %s: line %d: expected sphere %d with R = %.10g "
                        "(same scene, n and seed)\n", init_path, i + 2, i, R);
                return 2;
            }
            memcpy(q0, row + 1, 3 * sizeof *q0);
            memcpy(v0, row + 5, 6 * sizeof *v0);
        }
        double M[36] = { 0 }, f[6] = { m * gvec[0], m * gvec[1], m * gvec[2], 0, 0, 0 };
        for (int t = 0; t < 6; t++) M[t * 7] = t < 3 ? m : I;
        nsm_ds *ds = nsm_ds_lagrangian_lti_new(6, M, q0, v0);
        if (ds) nsm_ds_set_fext_constant(ds, f);
        c.ds[i] = nsm_model_add_ds(model, ds);
        if (c.ds[i] < 0) { fprintf(stderr, "spheres_box: %s\n", nsm_model_error(model)); return 1; }
        c.mass[i] = m; c.R[i] = R;
        if (scene_out) {
            memcpy(sc.x + 3 * i, q0, 3 * sizeof *q0); memcpy(sc.v + 3 * i, v0, 3 * sizeof *v0);
            memcpy(sc.w + 3 * i, v0 + 3, 3 * sizeof *v0);
            sc.R[i] = R; sc.m[i] = m; sc.I[i] = I;
        }
        if (R < Rmin) Rmin = R;
    }
    if (init) fclose(init);
    if (scene_out) {
        char serr[512];
        int bad = sbx_scene_write(scene_out, &sc, serr, sizeof serr);
        free(sc.x); free(sc.v); free(sc.w); free(sc.R); free(sc.m); free(sc.I);
        if (bad) { fprintf(stderr, "spheres_box: --write-scene: %s\n", serr); return 1; }
    }
    if (law < 0) { fprintf(stderr, "spheres_box: %s\n", nsm_model_error(model)); return 1; }
    c.margin_base = 0.1 * Rmin;

    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    o.theta = 0.5;
    o.dump_prefix = "spheres_box";
    o.solver = NULL;   /* the library's FC3D default: the auto chain */
    o.solver_options.tol = 1e-3;
    if (!strcmp(projection, "direct") || !strcmp(projection, "combined")) {
        o.projection = !strcmp(projection, "direct") ? NSM_PROJECTION_DIRECT : NSM_PROJECTION_COMBINED;
        o.projection_metric = 1;
        o.projection_tol_unilateral = proj_tol;
        o.projection_all = 1;   /* also contacts that closed within the step */
        o.gap_tol = proj_tol;   /* a contact the projection left within tol is closed */
    }   /* any other --projection was refused with the options */
    o.solver_options.omega = omega;
    o.solver_options.anderson = (int)anderson;
    o.solver_options.threads = (int)threads;
    if (max_iter > 0) o.solver_options.max_iter = (int)max_iter;
    o.solver_options.time_limit = budget;
    o.stabilization = stab;
    o.activation_hold = hold_given ? hold : HOLD_PER_RMIN * Rmin;
    o.accept_nonconverged = accept;
    if (cold) o.warm_start = 0;
    o.global_fc = global;
    o.order_by_system = order != 0;
    nsx_apply(&a, &o);
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *sim = nsm_sim_new(model, &o, err);
    if (!sim) { fprintf(stderr, "spheres_box: %s\n", err); nsm_model_free(model); return 1; }
    for (int i = 0; i < n; i++) c.pos[i] = nsm_sim_q(sim, c.ds[i]);
    c.contacts = sbx_contacts_new(n, c.R, c.ds, ax, ay, law);
    if (!c.contacts) { fprintf(stderr, "spheres_box: out of memory\n"); return 1; }
    if (!isnan(rolling)) sbx_contacts_set_rolling(c.contacts, pivot > 0.0 ? 2 : 1);

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
    prof P = { 0 };
    errbuf eb = { 0 };
    replay R = { 0 };
    if (replay_spec && replay_parse(&R, replay_spec, o.solver_options.tol) != 0) {
        fprintf(stderr, "spheres_box: --replay: bad list '%s'\n", replay_spec);
        return 2;
    }
    double rss_before = 0.0;
    double t0 = now();
    for (long s = 0; rc == 0 && s < steps; s++) {
        int profiled = profile_from >= 0 && s >= (long)profile_from;
        if (profiled && P.steps == 0) rss_before = peak_rss_mb();
        st = timed_step(sim, &c, &geo, &rc, profiled ? &P : NULL, profiled && R.nv ? &R : NULL);
        if (st != NS_OK) break;
        if (profiled) {   /* outside the timed phases */
            double er = step_error(sim, &eb);
            if (!(er <= P.worst_error)) P.worst_error = er;
        }
        if (geo.max_penetration > c.max_pen_run) c.max_pen_run = geo.max_penetration;
        row(sim, &c, geo.max_penetration);
        if (profile_from >= 0 && (s + 1) % 100 == 0)
            fprintf(stderr, "spheres_box: n = %d, step %ld/%ld, %.1f s\n", n, s + 1, steps, now() - t0);
    }
    double secs = now() - t0;
    if (global) P.worst_error = NAN;   /* the own check reads W, which the GFC3D form has not */
    free(eb.v); free(eb.ids);
    for (int k = 0; k < R.nv; k++) {
        const variant *v = &R.v[k];
        printf("replay: variant=%s solves=%ld solve_ms=%.4g sweeps=%.4g nonconverged=%ld worst_error=%.3g\n",
               v->label, v->solves, 1e3 * v->secs / (double)(v->solves ? v->solves : 1),
               (double)v->iters / (double)(v->solves ? v->solves : 1), v->nonconv, v->worst);
    }
    replay_free(&R);
    if (rc != 0) fprintf(stderr, "spheres_box: contacts: %s\n", c.err);
    if (st != NS_OK) {
        fprintf(stderr, "spheres_box: %s\n", nsm_sim_error(sim));
        if (st == NS_MAX_ITER || st == NS_TIME_LIMIT)
            fprintf(stderr, "spheres_box: --accept-nonconverged goes on past such steps (--tol, --max-iter)\n");
    }
    const nsm_sim_stats *S = nsm_sim_get_stats(sim);
    double ek, ep;
    energies(sim, &c, &ek, &ep);
    if (!a.quiet)
        printf("spheres_box: %d spheres, %ld steps h = %g in %.3f s (%.3g ms/step; solver %.3f s), "
               "%ld %s solves, %ld not converged, %.0f contacts added / %.0f removed, "
               "final: %d active contacts, kinetic energy %.3g J, max penetration %.3g m (%.2f%% of Rmin), "
               "%ld outside the box\n",
               n, S->steps, h, secs, 1e3 * secs / (double)(S->steps ? S->steps : 1), S->solver_seconds,
               S->solves, !isnan(rolling) ? "RFC3D" : global ? "GFC3D" : "FC3D", S->nonconverged, c.add_rm[0], c.add_rm[1], nsm_sim_index_set(sim, 1, NULL, 0),
               ek, c.max_pen_run, 100.0 * c.max_pen_run / Rmin, c.max_outside);
    if (P.steps > 0) {
        double k = 1e3 / (double)P.steps;
        double tot = P.detect + P.free_state + P.assembly + P.solver + P.update;
        double nc = (double)P.contacts / (double)(P.solves ? P.solves : 1);
        /* key=value pairs, one line, for benchmarks/scale */
        printf("profile: scene=%s n=%d steps=%ld contacts=%.0f interactions=%d step_ms=%.4g detect_ms=%.4g "
               "free_ms=%.4g assembly_ms=%.4g solve_ms=%.4g update_ms=%.4g us_per_sphere=%.4g "
               "sweeps=%.4g max_sweeps=%ld nonconverged=%ld worst_error=%.3g rss_mb=%.1f rss_start_mb=%.1f "
               "w_bytes_per_contact=%.0f problem_bytes_per_contact=%.0f detection_bytes_per_sphere=%.0f "
               "cpu_ms=%.4g detect_cpu_ms=%.4g cpu_us_per_sphere=%.4g ax=%.17g ay=%.17g "
               "allocs_step=%.4g allocs_detect=%.4g\n",
               scene, n, P.steps, nc, nsm_model_ninter(model), tot * k, P.detect * k, P.free_state * k,
               P.assembly * k, P.solver * k, P.update * k, 1e6 * tot / (double)P.steps / n,
               (double)P.sweeps / (double)(P.solves ? P.solves : 1), P.max_sweeps, P.nonconv, P.worst_error,
               peak_rss_mb(), rss_before,
               P.nc_last ? P.w_bytes / (double)P.nc_last : 0.0, P.nc_last ? P.p_bytes / (double)P.nc_last : 0.0,
               (double)sbx_contacts_bytes(c.contacts) / n, P.cpu * k, P.detect_cpu * k,
               1e6 * P.cpu / (double)P.steps / n, c.ax, c.ay,
               alloc_count ? (double)P.allocs_sim / (double)P.steps : -1.0,
               alloc_count ? (double)P.allocs_detect / (double)P.steps : -1.0);
    }
    if (!a.quiet) {   /* overlaps at the end, in benchmarks/peers's format */
        double *xf = malloc((size_t)n * 3 * sizeof *xf);
        sbx_overlap ov;
        for (int i = 0; xf && i < n; i++) memcpy(xf + 3 * i, nsm_sim_q(sim, c.ds[i]), 3 * sizeof *xf);
        if (xf && sbx_overlaps(n, xf, c.R, c.ax, c.ay, &ov) == 0) {
            char set[64];
            snprintf(set, sizeof set, "%s/tol=%g", o.solver ? o.solver : global ? "chain" : "auto", o.solver_options.tol);
            sbx_peer_line(stdout, "nonsmooth", set, n, S->steps,
                          P.steps > 0 ? 1e3 * (P.detect + P.free_state + P.assembly + P.solver + P.update) /
                                        (double)P.steps : NAN,
                          P.steps > 0 ? 1e3 * P.cpu / (double)P.steps : NAN, secs, &ov, ek);
        }
        free(xf);
    }
    if (!isnan(rolling)) {   /* the heap's free surface and its slope */
        double *xf = malloc((size_t)n * 3 * sizeof *xf);
        sbx_repose rp = { 0 };
        for (int i = 0; xf && i < n; i++) memcpy(xf + 3 * i, nsm_sim_q(sim, c.ds[i]), 3 * sizeof *xf);
        if (xf && sbx_repose_measure(n, xf, c.R, &rp) == 0) {
            if (!a.quiet) sbx_repose_print(stdout, &rp);
            if (a.out) sbx_repose_plot(&rp, nsx_path(path, sizeof path, a.out, "repose.svg"));
        }
        sbx_repose_clear(&rp);
        free(xf);
    }
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
        svgplot *p = svgplot_new(3, isnan(rolling) ? "Spheres in a box (Moreau-Jean, FC3D)"
                                                   : "Spheres in a box (Moreau-Jean, RFC3D: rolling friction)");
        if (isnan(rolling)) {
            svgplot_labels(p, 0, "t [s]", "kinetic energy [J]");
            svgplot_series(p, 0, "kinetic energy", c.t.n, c.t.v, c.ek.v, 0);
        } else {   /* settling to rest: the decades matter (floored at 1e-16 J) */
            for (size_t k = 0; k < c.ek.n; k++) c.ek.v[k] = log10(fmax(c.ek.v[k], 1e-16));
            svgplot_labels(p, 0, "t [s]", "log10 kinetic energy [J]");
            svgplot_series(p, 0, "log10 kinetic energy", c.t.n, c.t.v, c.ek.v, 0);
        }
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
