/* fc3d_auto.c — the robust default for FC2D/FC3D: a chain of the solvers
 * of this directory, ending as soon as the error ns_fc_error ≤ tol:
 *   1. nsgs-ac with Anderson acceleration (memory o->anderson, or 3) in one
 *      run from the caller's point, until it converges or its stall test
 *      fires (ns_fc_nsgs_ctl: the best error of the second half of the run
 *      not 25 % below the first half's, from sweep 2000 on: before that,
 *      the rise of a warm start's error and Anderson's plateaus look like
 *      stalls on a settling pile's problems; warm-started
 *      sweeps can cycle for ever, e.g. 2-4e-4 for 10⁵ sweeps on a box of
 *      spheres, tests/numerics/data), or it hands over: at the rate the
 *      stall test measures, tol is more than ten times both the sweeps
 *      made and a Newton probe (NEWTON_PROBE iterations of the work model,
 *      predicted from W's pattern) away — a stack or a wall of rigid
 *      bodies at 1e-8, whose sweeps crawl for 10⁴-10⁵ sweeps where Newton
 *      takes a few dozen iterations;
 *   2. a race between the sweeps and two nsn-ac walks (A from the
 *      caller's point, resumed from its last iterate turn after turn with
 *      its line search's history, so that its turns take the steps of one
 *      uninterrupted run; B from the best point), round k's unit T·2^k, T
 *      the work of stage 1:
 *      Newton first, its walks sharing NEWTON_SHARE of the unit in round
 *      0, NEWTON_GROWTH times more each round up to the whole unit (a
 *      walk's turn is repeated while it cuts its error threefold), then the
 *      sweeps for twice the unit, from their own iterate. A problem the
 *      sweeps finish soon after a plateau (a stall test cannot tell a slow
 *      power-law decay from cycling) pays little for Newton's chance, one
 *      where they cycle a bounded multiple of Newton's work. Once Newton
 *      has won more races in the caller's workspace (a simulation's
 *      earlier steps) it gets the whole unit from round 0; after a
 *      handover each walk gets at least half a Newton probe, when the
 *      probe costs no more than the unit. The sweeps take
 *      Newton's point when it has at most half their error; they go
 *      shuffled once a natural-order turn fails to lower the best error by
 *      10 % (Gauss–Seidel cycling: RockPile_tob1 sits at 4e-4 in natural
 *      order, ~1e-6 shuffled);
 *   3. FC3D: the interior point (ipm, ≤ 100 iterations and its Newton
 *      finish) from a cold start: hyperstatic stacks whose sweeps and
 *      Newton stall near 1e-8 (four contacts per face of a box, W
 *      singular) it solves in a few dozen iterations; a problem the race
 *      solves never pays for it;
 *      then nsn-nm, nsn-fb (the Newtons in chunks of 25 iterations, stopped
 *      when a chunk does not halve the error) from the best point;
 *   4. prox (proximal point, Newton inner solver) from the best point, in
 *      chunks of 1000 outer steps, another while a chunk halves the best
 *      error: the regularised problems W + σI are well posed where W is
 *      rank deficient (hyperstatic piles), which stalls the others;
 *   5. nsgs-fb, nsgs-proj from the best point (other local solvers).
 * A point within tol whose contacts still approach by more than the
 * velocity test allows (docs/errors.md) is polished by nsn-ac to 1e-3·tol.
 * o->on_switch hears of every change of method and may stop the chain; a
 * chain that ends above tol names every method it ran with its error.
 * The race's budgets are work counted in model seconds (ns_fc_work: the
 * sweeps' by their count, Newton's by the entries and flops of its LU), not
 * clock time, so that the chain's path and answer do not depend on the
 * machine's speed or load. The time limit (clock time) covers the whole
 * chain. The best iterate is returned;
 * iterations counts sweeps plus Newton iterations of every stage.
 * FC2D with a diagonal block that is not monotone (W_NN ≤ 0 or an
 * indefinite symmetric part: e.g. a large step of a nonlinear system whose
 * tangent stiffness makes W⁻¹ indefinite): the one-contact problems of the
 * sweeps and Newton's are not well defined, the LCP reformulation is —
 * Lemke, then principal enumeration for up to 4 contacts; FC3D then is
 * refused as before (no method here takes it). */
#include "fc/fc3d_internal.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stage 1's settings: Anderson memory when the caller asks for none, and
 * the stall test of its sweeps (ns_fc_nsgs_ctl). */
enum { AUTO_ANDERSON = 3, STALL_MIN_SWEEPS = 2000, RACE_ROUNDS = 16 };
#define STALL_FACTOR 0.75
/* Newton's share of the race's unit in round 0 (both walks) and its growth
 * per round, while Newton has not won more races than the sweeps: a cap on
 * the race's cost where plain sweeps would win soon after their stall */
#define NEWTON_SHARE 0.1
#define NEWTON_GROWTH 2.5
/* Stage 1 hands over to the race when, at its rate, the sweeps would
 * still need more than the work of NEWTON_PROBE Newton iterations (the
 * Newton walks from a sweeps' point take 10-40 on the rigid stacks and
 * walls) */
enum { NEWTON_PROBE = 30 };
/* The interior point after the race (FC3D): its iteration limit */
enum { IPM_MAX_ITERS = 100 };
/* At most this many chunks of prox (1000 outer steps each) in a chain:
 * each must halve the best error, so only a chain without a time limit
 * and a tol far below the error's floor could use them all. */
enum { PROX_CHUNKS = 10 };

typedef struct {
    const ns_fc *p;
    double *r, *u, *best, *start, *keep;
    size_t m;
    double best_err, last_err, t0;
    double sweep_work;  /* model seconds of one sweep (ns_fc_sweep_work) */
    double work;        /* model seconds of the last stage */
    ns_fc_nsn_cache *lu;/* J's pattern and analysis, shared by the Newton stages (or NULL) */
    ns_fc_nsn_walk walk_a;/* the race's walk A between its turns */
    double probe;       /* model seconds of NEWTON_PROBE Newton iterations (0: not predicted yet) */
    const ns_options *o;
    int iters;
    char trail[320];    /* "method error, ..." of the stages run, for the message */
    size_t trail_len;
    size_t last_entry_at;
    int last_entry;
    const char *current;/* the method of the running (or last) stage */
    int stopped;        /* the caller's on_switch stopped the chain */
    int interrupted;    /* a stage was stopped by o->cancel: no more stages */
    const char *best_by;/* the stage that found the best point (ns_result.method) */
    int plain;          /* stage 1's Anderson was ended by its safety net */
    int slow;           /* stage 1 handed over: its sweeps were predicted slower than Newton */
} chain;

/* The trail of methods tried ("name best-error, ..."; a method run in
 * several chunks in a row appears once, with its last error): the message
 * of a chain that ends above tol names them all. */
static void note_stage(chain *c, const char *name, double err)
{
    size_t len = strlen(name);
    if (c->last_entry && !strncmp(c->trail + c->last_entry_at, name, len) &&
        c->trail[c->last_entry_at + len] == ' ')
        c->trail_len = c->last_entry_at + len;       /* same method again: new error */
    else {
        if (c->trail_len + len + 16 >= sizeof c->trail) return;
        if (c->trail_len) c->trail_len += (size_t)snprintf(c->trail + c->trail_len, 3, ", ");
        c->last_entry_at = c->trail_len;
        c->last_entry = 1;
        c->trail_len += (size_t)snprintf(c->trail + c->trail_len, sizeof c->trail - c->trail_len, "%s", name);
    }
    c->trail_len += (size_t)snprintf(c->trail + c->trail_len, sizeof c->trail - c->trail_len, " %.2e", err);
}

/* A stage of method `name` starts: when the chain moves to another method
 * than the last stage's, the caller's on_switch hears of it and may stop
 * the chain (returns 1 then). */
static int begin_stage(chain *c, const char *name)
{
    if (c->current && strcmp(c->current, name) && c->o->on_switch &&
        c->o->on_switch(c->o->switch_user, name, c->best_err, c->iters) != 0)
        c->stopped = 1;
    c->current = name;
    return c->stopped;
}

typedef struct {
    ns_fc_local_fn f;   /* NSGS with this one-contact solver, or */
    ns_fc_phi_fn phi;   /* global Newton on this reformulation */
    int max_iter;
    double tol;
    int shuffle;        /* NSGS contact order shuffled each sweep */
    unsigned seed;
    int from_best;      /* 0: continue from c->r (the last stage's iterate),
                           1: from the best point, 2: from c->start (the
                           caller's point, in the race Newton's iterate),
                           3: from c->keep (the race's sweeps' iterate) */
    const char *name;   /* the method, for the trail and on_switch */
    double work;        /* Newton: its budget in model seconds (0: none) */
    int anderson;       /* NSGS: Anderson memory (0: the caller's option, < 0: none) */
    ns_fc_nsgs_ctl *ctl;/* NSGS: the stall test and best-point tracking (or NULL) */
    int walk;           /* Newton: walk A, resumed turn after turn (its last iterate, not
                           the best, left at the end of its budget; c->walk_a) */
} stage_spec;

static int time_up(const chain *c)
{
    return c->stopped || c->interrupted ||
           (c->o->time_limit > 0 && ns_now() - c->t0 >= c->o->time_limit);
}

/* Runs one stage; returns 1 when tol is reached or time is up. The stage's
 * final error is c->last_err; c->best keeps the best point so far. */
static int stage(chain *c, const stage_spec *s, ns_result *res)
{
    ns_options so = *c->o;
    so.max_iter = s->max_iter;
    so.tol = s->tol;
    so.shuffle = s->shuffle;
    so.seed = s->seed;
    so.omega = 0;
    if (s->anderson != 0) so.anderson = s->anderson > 0 ? s->anderson : 0;
    so.time_limit = 0;
    if (c->o->time_limit > 0) {
        double left = c->o->time_limit - (ns_now() - c->t0);
        if (left <= 0) return 1;
        so.time_limit = left;
    }
    if (begin_stage(c, s->name)) return 1;
    if (s->from_best)
        memcpy(c->r, s->from_best == 3 ? c->keep : s->from_best == 2 ? c->start : c->best,
               c->m * sizeof(double));
    ns_result sr;
    ns_result_init(&sr);
    const double t_stage = ns_now();
    ns_fc_work w = { s->work, 0.0 };
    if (s->phi && !c->lu) c->lu = ns_fc_nsn_cache_new();   /* still NULL: each run makes its own */
    ns_status st = s->phi ? ns_fc_nsn_turn(c->p, c->r, c->u, &so, s->phi, &w,
                                           s->walk ? &c->walk_a : NULL, c->lu, &sr)
                          : ns_fc_nsgs_run_ctl(c->p, c->r, c->u, &so, s->f, &sr, s->ctl);
    c->work = s->phi ? w.used : sr.iterations * c->sweep_work;
    if (s->ctl && s->ctl->best_err < c->best_err) {   /* it kept its best check in c->best */
        c->best_err = s->ctl->best_err;
        c->best_by = s->name;
    }
    c->iters += sr.iterations;
    res->iterations = c->iters;
    /* sweeps that converged end on a global check of the point they
     * return, which left its error in sr.error and u = W r + q */
    double e = !s->phi && st == NS_CONVERGED && sr.error >= 0 ? sr.error
                                                              : ns_fc_error(c->p, c->r, c->u, (ns_fc_norm)c->o->fc_norm);
    ns_result_clear(&sr);
    if (st == NS_NO_MEMORY) return 1;
    if (st == NS_INTERRUPTED) c->interrupted = 1;
    c->last_err = isfinite(e) ? e : INFINITY;
    if (!c->interrupted && ns_iteration(c->o, res, e)) c->interrupted = 1;   /* history: one entry per stage */
    ns_log(c->o, 1, "auto: %s%s %d it, error %.3e, best %.3e, %.2f s (this stage: %.3g model s, %.3g s)",
           s->phi ? "nsn" : "nsgs", s->shuffle ? " (shuffled)" : "", sr.iterations, e, fmin(e, c->best_err),
           ns_now() - c->t0, c->work, ns_now() - t_stage);
    if (e < c->best_err) {
        c->best_err = e;
        memcpy(c->best, c->r, c->m * sizeof(double));
        c->best_by = s->name;
    }
    note_stage(c, s->name, e);
    return c->best_err <= c->o->tol || time_up(c);
}

/* The work of a Newton probe (NEWTON_PROBE iterations, model seconds),
 * predicted once; < 0 when it cannot be */
static double probe_work(chain *c)
{
    if (c->probe == 0.0) {
        const double w = ns_fc_nsn_iteration_work(c->p);
        c->probe = w > 0 ? NEWTON_PROBE * w : -1.0;
    }
    return c->probe;
}

/* Stage 1's ns_fc_nsgs_ctl.more: a Newton probe in sweeps; < 0 unknown */
static double newton_sweeps(void *ctx)
{
    chain *c = ctx;
    const double w = probe_work(c);
    return w < 0 || !(c->sweep_work > 0) ? -1.0 : w / c->sweep_work;
}

/* Stage 1: accelerated NSGS-AC in one run (the Anderson history kept
 * throughout), stopped by the sweeps' own stall test, by its handover
 * (newton_sweeps: at their rate the sweeps would cost more than
 * HANDOVER_MARGIN Newton probes) or when, below the handover error, the
 * rate of the last half of the run says tol is out of reach within the
 * stage's budget. */
static int nsgs_first(chain *c, int budget, ns_result *res)
{
    /* the start point is the caller's, whose error (and u) the chain has */
    ns_fc_nsgs_ctl ctl = { STALL_MIN_SWEEPS, STALL_FACTOR, c->best, c->best_err, 0, c->best_err, 0,
                           newton_sweeps, c, 0 };
    stage_spec s = { ns_fc_local_ac, NULL, budget, c->o->tol, 0, 0, 1, "nsgs-ac", 0,
                     c->o->anderson > 0 ? c->o->anderson : AUTO_ANDERSON, &ctl, 0 };
    int done = stage(c, &s, res);
    if (ctl.slow) ns_log(c->o, 1, "auto: the sweeps are slower than Newton is predicted to be");
    else if (ctl.stalled) ns_log(c->o, 1, "auto: the sweeps stalled");
    c->plain = ctl.anderson_off;
    c->slow = ctl.slow;
    return done;
}

/* A stage run by a whole solver of this directory (fn: ns_fc3d_ipm,
 * ns_fc3d_prox) with at most max_iter iterations, from the best point
 * (from_best) or, for the interior point, from a cold start (its central
 * path does not start from a complementary point); its point becomes the
 * best when it is. Returns 1 when tol is reached or time is up. */
typedef ns_status (*fc_solver_fn)(const ns_fc *, double *, double *, const ns_options *, ns_result *);

static int solver_stage(chain *c, const char *name, fc_solver_fn fn, int max_iter, int from_best,
                        ns_result *res)
{
    if (begin_stage(c, name)) return 1;
    ns_options so = *c->o;
    so.max_iter = max_iter;
    if (from_best) memcpy(c->r, c->best, c->m * sizeof(double));
    else so.warm_start = 0;
    if (c->o->time_limit > 0) so.time_limit = fmax(c->o->time_limit - (ns_now() - c->t0), 1e-3);
    const double t = ns_now();
    ns_result sr;
    ns_result_init(&sr);
    ns_status st = fn(c->p, c->r, c->u, &so, &sr);
    const int its = sr.iterations;
    c->iters += its;
    res->iterations = c->iters;
    ns_result_clear(&sr);
    if (st == NS_NO_MEMORY) return 0;   /* the chain goes on without it */
    double e = ns_fc_error(c->p, c->r, c->u, (ns_fc_norm)c->o->fc_norm);
    if (!isfinite(e)) e = INFINITY;
    c->last_err = e;
    if (!c->interrupted && ns_iteration(c->o, res, e)) c->interrupted = 1;
    ns_log(c->o, 1, "auto: %s %d it, error %.3e, best %.3e, %.2f s (this stage: %.3g s)", name, its, e,
           fmin(e, c->best_err), ns_now() - c->t0, ns_now() - t);
    if (e < c->best_err) {
        c->best_err = e;
        memcpy(c->best, c->r, c->m * sizeof(double));
        c->best_by = name;
    }
    note_stage(c, name, e);
    return c->best_err <= c->o->tol || time_up(c);
}

/* Global Newton from the best point in chunks of 25 iterations, each
 * continuing the last, while a chunk at least halves the error (a Newton
 * that converges does so in a few iterations; one that crawls is stopped
 * early instead of eating the time of the sweeps). */
static int newton_chunked(chain *c, ns_fc_phi_fn phi, const char *name, int max_iter, int chunk,
                          ns_result *res)
{
    double prev = c->best_err;
    for (int used = 0, from_best = 1; used < max_iter; used += chunk, from_best = 0) {
        stage_spec s = { NULL, phi, max_iter - used < chunk ? max_iter - used : chunk,
                         c->o->tol, 0, 0, from_best, name, 0, 0, NULL, 0 };
        if (stage(c, &s, res)) return 1;
        if (!(c->last_err <= 0.5 * prev)) return 0;
        prev = c->last_err;
    }
    return 0;
}

static int newton(chain *c, ns_fc_phi_fn phi, const char *name, int max_iter, ns_result *res)
{
    return newton_chunked(c, phi, name, max_iter, 25, res);
}

/* FC2D, a diagonal block not monotone (res->message says which): Lemke on
 * the LCP reformulation, then enumeration (≤ 4 contacts) from the start. */
static ns_status fc2d_lcp_route(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    char why[NS_ERRMSG_LEN];
    snprintf(why, sizeof why, "%s", res->message);
    ns_log(o, 1, "auto: %s: Lemke on the LCP reformulation", why);
    const size_t m = (size_t)p->dim * (size_t)p->nc;
    double *r0 = malloc((m ? m : 1) * sizeof *r0);
    if (!r0) return ns_fail(res->message, NS_NO_MEMORY, "auto: out of memory");
    memcpy(r0, r, m * sizeof *r0);
    res->message[0] = '\0';
    ns_status st = ns_fc2d_lemke(p, r, u, o, res);
    const char *by = "lemke";
    if (st != NS_OK && p->nc <= 4) {   /* 2^(4 nc) active sets */
        ns_result e;
        ns_result_init(&e);
        double *r1 = malloc((m ? m : 1) * sizeof *r1);
        if (r1) {
            memcpy(r1, r0, m * sizeof *r1);
            ns_status se = ns_fc2d_enum(p, r1, u, o, &e);
            if (se == NS_OK || e.error < res->error) {
                memcpy(r, r1, m * sizeof *r);
                res->error = e.error;
                res->iterations += e.iterations;
                snprintf(res->message, sizeof res->message, "%s", e.message);
                st = se;
                by = "enum";
            }
            free(r1);
        }
        ns_result_clear(&e);
    }
    free(r0);
    res->error = ns_fc_error(p, r, u, (ns_fc_norm)o->fc_norm);   /* of the r returned */
    if (st == NS_OK && !(res->error <= o->tol)) st = NS_MAX_ITER;
    ns_log(o, 1, "auto: LCP reformulation (%s): %s, error %.3g", by, ns_status_name(st), res->error);
    snprintf(res->method, sizeof res->method, "%s", by);
    if (st == NS_OK) { res->message[0] = '\0'; return st; }   /* message: a failure's reason only */
    char note[NS_ERRMSG_LEN];
    snprintf(note, sizeof note, "auto: %.120s: LCP reformulation (%s)%s%.200s", why, by,
             res->message[0] ? ": " : "", res->message);
    snprintf(res->message, sizeof res->message, "%s", note);
    return st;
}

ns_status ns_fc3d_auto(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked_unchecked(p, &view, &owned, res->message);
    if (st == NS_OK && ns_fc_bad_diagonal(&view, res->message) >= 0) {
        ns_matrix_free(owned);
        if (p->dim == 2) return fc2d_lcp_route(p, r, u, o, res);
        return NS_BAD_INPUT;
    }
    if (st) { ns_matrix_free(owned); return st; }
    chain c = { .p = &view, .r = r, .u = u, .m = (size_t)p->dim * (size_t)p->nc,
                .best_err = INFINITY, .last_err = INFINITY, .t0 = ns_now(), .o = o,
                .sweep_work = ns_fc_sweep_work(&view) };
    /* best, start, keep: one buffer of the caller's workspace (slot 3) or our own */
    double *buf = ns_ws_take(o->workspace, 3, 3 * (c.m ? c.m : 1), sizeof(double));
    if (!buf) {
        ns_matrix_free(owned);
        return ns_fail(res->message, NS_NO_MEMORY, "auto: out of memory");
    }
    c.best = buf;
    c.start = buf + (c.m ? c.m : 1);
    c.keep = c.start + (c.m ? c.m : 1);
    memcpy(c.best, r, c.m * sizeof(double));
    memcpy(c.start, r, c.m * sizeof(double));
    c.best_err = ns_fc_error(&view, r, u, (ns_fc_norm)o->fc_norm);
    if (!isfinite(c.best_err)) c.best_err = INFINITY;
    const double tol = o->tol;
    int sweeps = o->max_iter > 0 ? o->max_iter : 100000;
    const double start_err = c.best_err;
    int done = c.best_err <= tol;
    if (!done) done = nsgs_first(&c, sweeps, res);
    /* The sweeps stalled (or their budget ran out): the race (stage 2 of
     * the header). c.keep holds the sweeps' iterate, c.start walk A's
     * (first the caller's point); walk B starts from the best point each
     * turn. The first method to reach tol ends the race mid-turn. The
     * sweeps' turns are plain when stage 1's safety net ended Anderson,
     * accelerated when they start from Newton's point. */
    double unit = fmax(c.iters * c.sweep_work, 1e-4);   /* model seconds */
    memcpy(c.keep, c.r, c.m * sizeof(double));
    double keep_err = c.last_err;   /* the error of the sweeps' iterate */
    double walk_a_err = start_err;  /* the error of walk A's iterate */
    int shuffle = 0;
    int *won = ns_ws_race(o->workspace);
    const int newton_favoured = won && won[1] < won[0];
    double share = NEWTON_SHARE;   /* Newton's share of the unit, grown every round */
    double credit[2] = { 0, 0 };   /* walks A and B: work granted and not yet spent */
    for (int k = 0; !done && k < RACE_ROUNDS; k++, unit *= 2, share *= NEWTON_GROWTH) {
        /* Newton's turn: walks A and B, half each. Each walk spends from its
         * credit, so that a turn that overran its budget (a Newton iteration
         * and the set-up outlast a small share) is paid back by skipped
         * turns; a turn in which the walk's error fell threefold is repeated
         * beyond the credit: a Newton that converges does so fast. */
        double half = 0.5 * unit * (newton_favoured ? 1.0 : fmin(1.0, share));
        /* after a handover (stage 1 predicted the sweeps to cost more than
         * HANDOVER_MARGIN Newton probes) a probe is granted whole */
        if (c.slow && c.probe > 0 && c.probe <= unit) half = fmax(half, 0.5 * c.probe);
        for (int w = 0; !done && w < 2; w++) {
            credit[w] += half;
            for (int more = credit[w] > 0; !done && more; ) {
                double before = w == 0 ? walk_a_err : c.best_err;
                stage_spec n = { NULL, ns_fc_phi_ac, 1000, tol, 0, 0, w == 0 ? 2 : 1,
                                 w == 0 ? "nsn-ac from start" : "nsn-ac",
                                 fmax(credit[w], half), 0, NULL, w == 0 };
                done = stage(&c, &n, res);
                credit[w] -= c.work;
                if (won && c.best_err <= tol) won[0]++;
                if (done) break;
                if (w == 0) {
                    memcpy(c.start, c.r, c.m * sizeof(double));
                    walk_a_err = c.last_err;
                }
                more = c.last_err <= 0.3 * before;
            }
        }
        if (done) break;
        /* the sweeps' turn: from their own iterate, or from Newton's when it
         * is the best point and at most half the error of theirs */
        int left = sweeps - c.iters;
        if (left <= 0) break;
        double before = c.best_err;
        int from = c.best_by && !strncmp(c.best_by, "nsn", 3) && c.best_err <= 0.5 * keep_err ? 1 : 3;
        if (from == 1) shuffle = 0;   /* a new start: natural order has its chance again */
        double turn = ceil(2 * unit / c.sweep_work);   /* sweeps of twice the unit */
        stage_spec sw = { ns_fc_local_ac, NULL, turn < left ? (int)turn : left, tol, shuffle,
                          o->seed + (unsigned)k, from, shuffle ? "nsgs-ac shuffled" : "nsgs-ac", 0,
                          shuffle ? 0 : c.plain && from == 3 ? -1
                          : o->anderson > 0 ? o->anderson : AUTO_ANDERSON,
                          NULL, 0 };
        done = stage(&c, &sw, res);
        if (won && c.best_err <= tol) won[1]++;
        if (done) break;
        memcpy(c.keep, c.r, c.m * sizeof(double));
        keep_err = c.last_err;
        if (!shuffle && !(c.best_err <= 0.9 * before)) shuffle = 1;
    }
    const stage_spec last[] = {
        { ns_fc_local_fb, NULL, 5000, tol, 0, 0, 1, "nsgs-fb", 0, 0, NULL, 0 },
        { ns_fc_local_proj, NULL, 5000, tol, 0, 0, 1, "nsgs-proj", 0, 0, NULL, 0 },
    };
    if (!done && p->dim == 3) done = solver_stage(&c, "ipm", ns_fc3d_ipm, IPM_MAX_ITERS, 0, res);
    if (!done) done = newton(&c, ns_fc_phi_nm, "nsn-nm", 300, res);
    if (!done) done = newton(&c, ns_fc_phi_fb, "nsn-fb", 300, res);
    /* prox in chunks of 1000 outer steps: a chunk that halved the best
     * error earns another (the proximal path of a hyperstatic pile walks
     * a self-stress for hundreds of steps before its error falls) */
    for (int chunk = 0; !done && chunk < PROX_CHUNKS; chunk++) {
        const double before = c.best_err;
        done = solver_stage(&c, "prox", ns_fc3d_prox, 1000, 1, res);
        if (!(isfinite(before) && c.best_err <= 0.5 * before)) break;
    }
    for (size_t k = 0; !done && k < sizeof last / sizeof last[0]; k++) done = stage(&c, &last[k], res);
    /* a point within tol whose contacts still approach (the velocity test
     * of "converged", docs/errors.md) is polished by nsn-ac to a finer tol */
    ns_int worst;
    double final_err = NAN;   /* the error of c.best with u = W c.best + q, once computed */
    if (c.best_err <= tol && !c.stopped && !c.interrupted) {
        final_err = ns_fc_error(&view, c.best, c.u, (ns_fc_norm)o->fc_norm);
        if (ns_fc_velocity_violation(&view, c.u, &worst) > NS_FC_VELOCITY_FACTOR * tol) {
            stage_spec n = { NULL, ns_fc_phi_ac, 100, 1e-3 * tol, 0, 0, 1, "nsn-ac", 0, 0, NULL, 0 };
            double keep = c.best_err;
            const char *keep_by = c.best_by;
            memcpy(c.keep, c.best, c.m * sizeof(double));
            c.best_err = INFINITY;
            stage(&c, &n, res);
            ns_fc_error(&view, c.best, c.u, (ns_fc_norm)o->fc_norm);
            if (!(c.best_err <= tol) ||
                ns_fc_velocity_violation(&view, c.u, &worst) > NS_FC_VELOCITY_FACTOR * tol) {
                memcpy(c.best, c.keep, c.m * sizeof(double));   /* the polish did not help */
                c.best_err = keep;
                c.best_by = keep_by;
            }
            final_err = NAN;
        }
    }
    memcpy(r, c.best, c.m * sizeof(double));
    /* the method of the point returned: the registry name (first word of the stage's) */
    const char *by = c.best_by ? c.best_by : "start";
    snprintf(res->method, sizeof res->method, "%.*s", (int)strcspn(by, " "), by);
    res->error = final_err >= 0 ? final_err : ns_fc_error(&view, r, u, (ns_fc_norm)o->fc_norm);
    if (res->error <= tol) st = NS_CONVERGED;
    else if (c.interrupted) st = NS_INTERRUPTED;
    else if (c.stopped) st = NS_MAX_ITER;
    else if (time_up(&c)) st = NS_TIME_LIMIT;
    else st = NS_MAX_ITER;
    if (st != NS_CONVERGED)   /* the methods tried, each with its error */
        snprintf(res->message, sizeof res->message, "auto: %s after %s (best %.3g)",
                 c.stopped ? "stopped by on_switch" : st == NS_TIME_LIMIT ? "time limit"
                 : st == NS_INTERRUPTED ? "interrupted" : "no method reached tol",
                 c.trail, c.best_err);
    ns_fc_nsn_cache_free(c.lu);
    ns_ws_give(o->workspace, 3, buf);
    ns_matrix_free(owned);
    return st;
}
