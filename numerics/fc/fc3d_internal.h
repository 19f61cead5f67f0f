/* fc3d_internal.h — friction-contact building blocks shared by the FC3D,
 * FC2D, GFC and GMP solvers (private to libnonsmooth_numerics). Every
 * routine works for d = 2 and d = 3. */
#ifndef NS_FC3D_INTERNAL_H
#define NS_FC3D_INTERNAL_H
#include "nonsmooth/ns_residual.h"
#include "nonsmooth/ns_solver.h"
#include "fc/fc3d_local.h"

/** view ← p with W in BLOCK storage of d×d blocks (p's own W when it is
 *  already so, else a converted copy returned in *owned, which the caller
 *  frees). Checks every diagonal block (present, W_NN > 0, symmetric part
 *  not indefinite): NS_BAD_INPUT naming the contact otherwise. */
ns_status ns_fc_blocked(const ns_fc *p, ns_fc *view, ns_matrix **owned, char *err);
/** ns_fc_blocked without the diagonal blocks' monotonicity check (sizes
 *  and μ still checked): for solvers that do not need it (FC2D's LCP
 *  reformulations). */
ns_status ns_fc_blocked_unchecked(const ns_fc *p, ns_fc *view, ns_matrix **owned, char *err);
/** The first contact of view (BLOCK storage) whose diagonal block is
 *  missing, has W_NN ≤ 0 or an indefinite symmetric part, with the reason
 *  in err; −1 when every block is fine. */
ns_int ns_fc_bad_diagonal(const ns_fc *view, char *err);
/** ns_fc_error for a u = W r + q already at hand (no product with W):
 *  p, r and u unchecked, dim 2 or 3. */
double ns_fc_error_of(const ns_fc *p, const double *r, const double *u, ns_fc_norm norm);


/** x ← P_K(x) contact by contact, nc contacts of dimension d with
 *  coefficients mu; on `threads` OpenMP threads when threads > 1 (each
 *  contact projected by the same code: bit-identical for every count). */
void ns_fc_project_cones(int dim, ns_int nc, const double *mu, double *x, int threads);

/** Non-smooth Gauss–Seidel over the contacts of a blocked problem (from
 *  ns_fc_blocked) with the one-contact solver f (safeguarded by
 *  enumeration). Options used: tol, max_iter, time_limit, omega,
 *  check_every, shuffle, seed, fc_norm. Fills res (iterations, error). */
ns_status ns_fc_nsgs_run(const ns_fc *view, double *r, double *u,
                         const ns_options *o, ns_fc_local_fn f, ns_result *res);

/** What a chain asks of one NSGS run besides ns_options (see
 *  ns_fc_nsgs_run_ctl). */
typedef struct ns_fc_nsgs_ctl {
    /* Stall test, made at each global error check from sweep min_sweeps on
     * (0: no test): the run stops (NS_MAX_ITER, stalled = 1) when the best
     * error of the checks after sweep s/2 is not below factor × the best
     * of the checks of sweeps 1..s/2. A steady but slow (power-law) decay
     * e ~ s^-p passes while 2^-p < factor; cycling and stagnation do not.
     * The start point's own error takes no part (warm starts raise the
     * error before they lower it). */
    int min_sweeps;
    double factor;
    /* best (length dim·nc, or NULL): receives the iterate of the best
     * global check, start included; *best_err its error (in: the start's
     * error, or INFINITY). */
    double *best;
    double best_err;
    int stalled;             /* out: the stall test stopped the run */
    /* in: the start point's error when the caller has just computed it
     * (with u = W r + q), so that the run does not compute it again; NAN:
     * unknown */
    double start_err;
    int anderson_off;        /* out: Anderson's safety net ended the acceleration */
    /* Handover (more == NULL: none), tested with the stall test: at the
     * power-law rate the stall test measures (e ~ s^-p, 2^-p the ratio of
     * the two halves' best errors), reaching tol would take `need` more
     * sweeps; when need exceeds 10 times both the sweeps made so far and
     * more(ctx), the sweeps the caller's other method is predicted to
     * cost, the run stops (NS_MAX_ITER, stalled = slow = 1). more is asked
     * at most once per run (its answer kept). */
    double (*more)(void *ctx);
    void *more_ctx;
    int slow;                /* out: the handover stopped the run */
} ns_fc_nsgs_ctl;

/** ns_fc_nsgs_run with a chain's controls (ctl may be NULL). */
ns_status ns_fc_nsgs_run_ctl(const ns_fc *view, double *r, double *u, const ns_options *o,
                             ns_fc_local_fn f, ns_result *res, ns_fc_nsgs_ctl *ctl);

/** Global semismooth Newton on Φ(r, W r + q) = 0 (phi = ac, fb or nm):
 *  J = blockdiag(A) + blockdiag(B) W, factored by UMFPACK with the symbolic
 *  analysis done once, Armijo line search on ½‖Φ‖². NS_SINGULAR when J
 *  cannot be factored. */
ns_status ns_fc_nsn_run(const ns_fc *view, double *r, double *u,
                        const ns_options *o, ns_fc_phi_fn phi, ns_result *res);

/** The work of the chain's stages counted in model seconds: the time a
 *  stage would take on the reference machine, from counts the solver
 *  makes (blocks of W, contacts, nonzeros and flops of Newton's LU), not
 *  from a clock, so that the chain's choices, and its answer, are the
 *  same from run to run and from a loaded machine to an idle one. The
 *  coefficients were fitted to the single-threaded times of the hard
 *  collections' problems (docs/scale.md, "The chain"); a model within a
 *  factor 2 of the clock is all the race needs. */
#define NS_FC_WORK_BLOCK 2e-9         /* a sweep: per stored block of W */
#define NS_FC_WORK_CONTACT 0.1e-6     /* a sweep: per one-contact solve */
#define NS_FC_WORK_ENTRY 50e-9        /* Newton: per entry of J, filled and factored (sparse) */
#define NS_FC_WORK_DENSE_ENTRY 2e-9   /* Newton: per entry of the dense n×n J */
#define NS_FC_WORK_LU 10e-9           /* Newton: per entry of UMFPACK's L and U */
#define NS_FC_WORK_FLOP_SPARSE 0.3e-9 /* Newton: per flop of UMFPACK's factorization */
#define NS_FC_WORK_FLOP_DENSE 0.1e-9  /* Newton: per flop of LAPACK's dense LU */
#define NS_FC_WORK_PHI 0.5e-6         /* Newton: per contact and evaluation of Φ */

/** Model seconds of one NSGS sweep over the blocked problem `view`. */
double ns_fc_sweep_work(const ns_fc *view);

/** A work budget in model seconds: `limit` (≤ 0: none) ends the run once
 *  `used` reaches it; `used` accumulates over the calls it is given to. */
typedef struct ns_fc_work {
    double limit;
    double used;
} ns_fc_work;

/** What Newton's runs on one problem can share: J's pattern and UMFPACK's
 *  symbolic analysis (J has the block pattern of W whatever the iterate
 *  and the reformulation), made by the first run given the cache and
 *  reused by the next, which pay only numeric factorizations. Owned by
 *  the caller; valid for one blocked problem only. */
typedef struct ns_fc_nsn_cache ns_fc_nsn_cache;
ns_fc_nsn_cache *ns_fc_nsn_cache_new(void);   /* NULL: out of memory */
void ns_fc_nsn_cache_free(ns_fc_nsn_cache *c);
/** on: the runs given this cache take lagged steps (GMRES preconditioned
 *  with an earlier factorization; fc3d_nsn.c). Off by default. */
void ns_fc_nsn_cache_krylov(ns_fc_nsn_cache *c, int on);
/** GMRES iterations, lagged steps taken and GMRES misses of the runs
 *  given this cache (0 for a NULL cache). */
void ns_fc_nsn_cache_counts(const ns_fc_nsn_cache *c, long *its, long *ok, long *miss);

/** ns_fc_nsn_run ended (NS_MAX_ITER) once `stall` > 0 iterations in a row
 *  have not lowered the error below 0.9 × its best value at the start of
 *  that run, or 7 in a row below 0.99 × it: for a caller with a fallback
 *  (prox's inner solves, whose problems W + σI keep W's pattern: one cache
 *  serves them all; cache may be NULL). */
ns_status ns_fc_nsn_run_stall(const ns_fc *view, double *r, double *u,
                              const ns_options *o, ns_fc_phi_fn phi, int stall,
                              ns_fc_nsn_cache *cache, ns_result *res);

/** Predicted model seconds (ns_fc_work) of one Newton iteration on the
 *  blocked problem view, from W's block pattern alone (the fill of J's LU
 *  predicted as the budget rule of ns_fc_nsn_turn does; nothing
 *  factored); -1 when it cannot be predicted (out of memory). */
double ns_fc_nsn_iteration_work(const ns_fc *view);

/** The non-monotone line search's memory: the merits of the last
 *  NSN_HIST iterations. */
enum { NSN_HIST = 10 };

/** A Newton walk resumed turn after turn: what the next turn takes over
 *  from the last (zero-initialised by the caller before the first turn). */
typedef struct ns_fc_nsn_walk {
    int its;                 /* iterations so far (0: the next turn starts afresh) */
    int nh;                  /* merits recorded so far */
    double hist[NSN_HIST];   /* the line search's non-monotone reference */
    double phi0;             /* the first iteration's residual (damping's scale) */
    double reg;              /* the regularization left by a failed step */
} ns_fc_nsn_walk;

/** ns_fc_nsn_run for one turn of a race: the run also ends when w->limit
 *  is reached (w->used grows by the run's work; w may be NULL).
 *  walk (or NULL): a run ended by that budget or by o->time_limit leaves
 *  its last iterate in r, not its best, and in *walk the line search's
 *  history and regularization, so that a walk resumed turn after turn
 *  from that iterate follows the path of one uninterrupted run. cache (or
 *  NULL): shared with the other runs on the same problem. */
ns_status ns_fc_nsn_turn(const ns_fc *view, double *r, double *u, const ns_options *o,
                         ns_fc_phi_fn phi, ns_fc_work *w, ns_fc_nsn_walk *walk,
                         ns_fc_nsn_cache *cache, ns_result *res);

#endif
