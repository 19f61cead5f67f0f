/* nsm_simulation.h — time-stepping simulation: the data side of a model
 * (states, y[i], λ[i], index sets, the one-step problem) and its driver.
 *
 * One step on [t_k, t_k + h]:
 *   nsm_sim_compute_free_state  W_j, free velocities / states of every system
 *   nsm_sim_solve               index set I1 (by default predicted gap y + h/2 ẏ ≤ gap_tol for
 *                               Lagrangian unilateral interactions; every
 *                               first-order / equality interaction), assembly
 *                               of the one-step problem in BLOCK storage over
 *                               the linked-interaction map, numerics solve
 *   nsm_sim_update              states from the multipliers, y, λ
 *   nsm_sim_next_step           t ← t + h
 * nsm_sim_step does the four; nsm_sim_run steps up to a final time.
 *
 * Integrators: Moreau–Jean (θ) for Lagrangian systems, Euler–Moreau (θ) for
 * first-order systems; one linearised step is exact for linear systems,
 * nonlinear ones iterate (Newton, newton_tol / newton_max_iter) in
 * nsm_sim_step and nsm_sim_run, the first linearisation at the predictor
 * q_k + h v_k, v_k (x_k). Called one by one, compute_free_state / solve /
 * update do the first iteration only.
 *
 * Problem kind from the laws of the active interactions: Newton /
 * complementarity → LCP; with equalities → MLCP; relay (with
 * complementarity) → relay; equality only → equality; Newton–Coulomb → FC2D or
 * FC3D (not mixable with other laws).
 *
 * The simulation borrows the model: it must outlive the simulation, and may
 * be changed (interactions added/removed) between steps only.
 * Functions return 0 (NS_OK) or a status; the reason is in nsm_sim_error().
 */
#ifndef NSM_SIMULATION_H
#define NSM_SIMULATION_H
#include <stdio.h>
#include "nsm_model.h"
#include "ns_solver.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct nsm_sim nsm_sim;

/** Called when the one-step solver does not converge (res->status). Return
 *  0 to accept the solution and go on, > 0 to accept and count it, < 0 to
 *  stop (the step fails with NS_DIVERGED). Kept for compatibility: the
 *  solve hook below can also retry. */
typedef int (*nsm_nonconv_fn)(nsm_sim *sim, const ns_result *res, void *user);

/** What a solve hook sees: the problem just solved and its result. */
typedef struct nsm_solve_info {
    const char *scheme;        /* "time-stepping" or "event-driven" */
    const char *what;          /* "one-step", "impact" or "acceleration" */
    long step;                 /* time-stepping: step index k; event-driven: −1 */
    double t;                  /* time of the problem (t_k, or the event) */
    const ns_problem *problem; /* borrowed, valid during the call */
    const ns_result *result;   /* status, error, iterations of this solve */
    const char *solver;        /* the solver used (NULL = the kind's default) */
    int attempt;               /* 0 for the first solve of this problem */
} nsm_solve_info;

/** The settings of the next attempt, filled with those of the last one;
 *  the hook may change them (they apply to the retry only). */
typedef struct nsm_solve_settings {
    const char *solver;        /* a registered name of the problem's kind, or
                                  NULL for the kind's default; must stay valid
                                  until the retry returns */
    ns_options options;        /* tol, max_iter, local options, ... */
} nsm_solve_settings;

typedef enum nsm_hook_action {
    NSM_HOOK_STOP = -1,        /* stop: the step / event fails */
    NSM_HOOK_ACCEPT = 0,       /* accept the solution (counted as non-converged) */
    NSM_HOOK_RETRY = 1         /* solve the same problem again with *next */
} nsm_hook_action;

/** Called after a solve that did not converge (Siconos' check-solver
 *  function, and more): it may accept, stop, or change solver, tolerance or
 *  iteration limit in *next and retry (at most 16 attempts per problem). */
typedef nsm_hook_action (*nsm_solve_hook_fn)(const nsm_solve_info *info,
                                             nsm_solve_settings *next,
                                             void *user);
/** Called after each step by nsm_sim_run: 0 go on, < 0 stop (not an error). */
typedef int (*nsm_observer_fn)(nsm_sim *sim, void *user);

/** How a unilateral row of a Lagrangian interaction is activated (enters
 *  the step's problem): its predicted gap ≤ gap_tol, the prediction being
 *    NSM_ACTIVATION_GAMMA:     y_k + γ h ẏ_k (γ = activation_gamma; ½, the
 *                              default, is the standard y_k + (h/2) ẏ_k;
 *                              γ = 0 and γ = 1 are other Siconos variants);
 *    NSM_ACTIVATION_PREDICTED: y(q_k + h v_k) + γ h ẏ_k (the output at the
 *                              predictor; Siconos 2021's rule). */
typedef enum nsm_activation {
    NSM_ACTIVATION_GAMMA = 0,
    NSM_ACTIVATION_PREDICTED
} nsm_activation;

/** Stopping test of the Newton loop, on the residual r of each nonlinear
 *  system (see newton_tol):
 *    NSM_NEWTON_RELATIVE (default): max|r_i| / (largest term of r) ≤ tol;
 *    NSM_NEWTON_ABS_NORM2: ‖r‖₂ ≤ tol (Siconos' test). */
typedef enum nsm_newton_criterion {
    NSM_NEWTON_RELATIVE = 0,
    NSM_NEWTON_ABS_NORM2
} nsm_newton_criterion;

/** Where the Jacobians (H, G) of nonlinear relations are evaluated in a
 *  time step:
 *    NSM_LINEARISE_ITERATE (default): at each Newton iterate, the first one
 *                          the predictor q_k + h v_k (x_k);
 *    NSM_LINEARISE_STEP_START: at the step's start q_k (x_k) for every
 *                          iterate: the relation is frozen over the step,
 *                          as Siconos' TimeStepping with SICONOS_TS_LINEAR
 *                          on a system with linear dynamics. */
typedef enum nsm_linearisation {
    NSM_LINEARISE_ITERATE = 0,
    NSM_LINEARISE_STEP_START
} nsm_linearisation;

typedef struct nsm_sim_options {
    double t0;              /* initial time (default 0) */
    double h;               /* time step (required > 0) */
    double theta;           /* θ of Moreau–Jean / Euler–Moreau (default 0.5) */
    const char *solver;     /* numerics solver spec NAME[/key=value]... (ns_solver_spec_parse,
                               e.g. "nsgs-ac/anderson=3/threads=2"); its keys override
                               solver_options; NULL = the kind's default */
    ns_options solver_options; /* numerics options (defaults: tol 1e-8,
                               anderson 3: Anderson-accelerated NSGS sweeps,
                               docs/scale.md; 0 = plain sweeps) */
    int warm_start;         /* 1 (default): start from the previous λ */
    double stabilization;   /* β in [0, 1] (default 0): an active impact row
                               that overlaps at the step's start (y < 0) is
                               asked to separate at β|y|/(θh), removing a
                               fraction β of the overlap within the step
                               through the velocities (Baumgarte); 0 = the
                               plain Newton law */
    double gap_tol;         /* a unilateral interaction is active when its
                               predicted gap y + (h/2) ẏ ≤ gap_tol (default
                               1e-12, in units of y: absorbs round-off of
                               exactly touching bodies; 0 = Siconos' rule) */
    double activation_hold; /* a unilateral interaction active at the previous
                               step stays active while its predicted gap is
                               ≤ activation_hold (default 0: no hold; units
                               of y). A resting contact then keeps its place
                               in the problem and its reaction as warm start
                               instead of leaving and re-entering with the
                               round-off of y ≈ 0; it can only hold the
                               bodies apart by up to this distance (and with
                               stabilization β > 0 the gap closes by a
                               fraction β per step) */
    nsm_activation activation; /* default NSM_ACTIVATION_GAMMA */
    double activation_gamma;   /* γ of the prediction (default 0.5) */
    int separating_restitution; /* Newton impact law of an active contact that
                               is already separating (ẏ_k > 0): 1 (default)
                               uses the restitution max(e, (1 − θ)/θ) there,
                               so that the impulse does no positive work in
                               the θ-scheme's energy balance (with θ = ½ the
                               energy can then never increase); 0 uses e as
                               for approaching contacts (Siconos' rule, which
                               lets a grazing contact push energy in). */
    int theta_output;       /* first-order relations: 0 (default) solves the
                               laws on y_{k+1} = C x_{k+1} + Dλ + e, the
                               assembly of docs/mechanics.md and Siconos'
                               EulerMoreauOSI, which lets energy into a
                               passive circuit when an output changes sign
                               within a step; 1 solves them on y_{k+θ} =
                               C x_{k+θ} + Dλ + e, x_{k+θ} = θ x_{k+1} +
                               (1 − θ) x_k (matrix D + hθ C W B), where the
                               scheme's energy balance puts r = Bλ, so that a
                               passive circuit (PB = Cᵀ, D ⪰ 0, e = 0) never
                               gains energy at θ = ½; λ then belongs to
                               t_{k+θ}. */
    nsm_linearisation linearisation; /* default NSM_LINEARISE_ITERATE */
    int em_use_gamma;       /* Euler–Moreau input weighting: 0 (default) puts
                               h r_{k+1} in the step, M (x_{k+1} − x_k) =
                               h (θ f_{k+1} + (1 − θ) f_k) + h r_{k+1}; 1 puts
                               h (γ r_{k+1} + (1 − γ) r_k) with γ = em_gamma,
                               independent of θ (Siconos' EulerMoreauOSI(θ, γ));
                               the one-step matrix becomes D + hγ C W B */
    double em_gamma;        /* γ in [0, 1] (default 1) */
    double newton_tol;      /* Newton loop of nonlinear systems (Lagrangian
                               with callbacks, first-order nonlinear): stop
                               when the residual of every such system,
                               relative to its largest term, is ≤ newton_tol
                               (default 1e-10) */
    nsm_newton_criterion newton_criterion; /* default NSM_NEWTON_RELATIVE */
    int newton_max_iter;    /* at most this many linearised solves per step
                               (default 20; 1 = Siconos' single linearised
                               step at the predictor q_k + h v_k). A step
                               that reaches it is accepted and counted in
                               nsm_sim_stats.newton_nonconverged */
    int accept_nonconverged;   /* a one-step problem that does not converge:
                               0 (default) stops the step with the solver's
                               status and a message naming step, time, kind,
                               solver and error; 1 accepts it (counted in
                               stats.nonconverged). A hook decides first. */
    nsm_solve_hook_fn solve_hook; void *solve_hook_user;
    nsm_nonconv_fn on_nonconvergence; void *nonconv_user;
    ns_log_fn log; void *log_user; /* messages (NULL = silent) */
    const char *dump_dir;   /* if set, every solved problem is written there */
    const char *dump_prefix;/* file name prefix (default "step") */
    long dump_every;        /* dump every k-th solved step (default 1) */
    long dump_max;          /* stop dumping after this many files (0 = no limit) */
    /* ---- position projection ----
     * After the velocity step, position-level problems A λ + y = w with
     * A = H Wp Hᵀ move q by Wp Hᵀ λ until every equality row of the step's
     * problem has |y| ≤ projection_tol and every unilateral (normal) row
     * −y ≤ projection_tol_unilateral, at most projection_max_iter times.
     *   NONE (default): no projection;
     *   DIRECT: Siconos' direct projection (MoreauJeanDirectProjectionOSI):
     *     unilateral rows 0 ≤ w ⊥ λ ≥ 0, equality rows w = 0;
     *   COMBINED: Siconos' combined projection: each step starts with no
     *     unilateral row active, and is redone (from q_k, v_k) with every
     *     unilateral interaction whose gap y(q_{k+1}) ≤ 0 added, until that
     *     set is stable (at most 50 passes); its rows are projected as
     *     equalities (held on y = 0). */
    int projection;         /* nsm_projection: NSM_PROJECTION_NONE / DIRECT / COMBINED */
    double projection_tol;  /* equality rows (default 1e-10) */
    double projection_tol_unilateral; /* unilateral rows (default 1e-10) */
    int projection_max_iter;/* position problems per step (default 10) */
    int projection_metric;  /* 0 (default, Siconos): Wp = I; 1: Wp = W, the
                               factorised iteration matrix (mass-weighted) */
    int projection_all;     /* 1: project every live interaction (Siconos'
                               projection level 0: also contacts that closed
                               within the step unforeseen); 0 (default): the
                               interactions of the step's problem (level 1) */
    int projection_hysteresis; /* DIRECT only: 1 = Siconos' index set of
                               MoreauJeanDirectProjectionOSI, kept from step
                               to step: a unilateral interaction enters when
                               y + γhẏ ≤ projection_activate_pos (γ =
                               activation_gamma, row 0) and leaves when
                               y + γhẏ > projection_deactivate_pos and
                               ẏ ≥ projection_deactivate_vel, unless it
                               passes the entry test in the same update
                               (only when deactivate_pos < activate_pos);
                               0 (default):
                               the activation rule of every step */
    double projection_activate_pos;   /* default 0 */
    double projection_deactivate_pos; /* default 1e-4 */
    double projection_deactivate_vel; /* default 0 */
    /* ---- mixed laws ----
     * Active rows that mix friction with equality, complementarity or relay
     * rows (or relay with equality rows) make a generic mechanical problem
     * (NS_KIND_GMP, one sub-problem per interaction); gmp = 1 makes every
     * one-step problem a GMP. gmp_solver names its solver (NULL: the
     * kind's default, gmp-nsgs); `solver` serves the other kinds. */
    int gmp;                /* 0 (default): only for mixes; 1: always */
    int global_fc;          /* 1: a friction-only step is solved in the
                               global formulation (NS_KIND_GFC2D/3D:
                               M v = H r + q, u = Hᵀ v + b) with M the
                               block-diagonal iteration matrices W⁻¹ of the
                               systems in contact (sparse ones kept sparse),
                               H their Gᵀ blocks, q = W⁻¹ v_free, b the
                               restitution / ∂h/∂t terms; W = H M⁻¹ Hᵀ is
                               never formed. Solver: `solver` if it names a
                               GFC solver, else "chain" (nsn-ac, admm,
                               nsn-ac again; 3D: ipm). 0 (default): local FC */
    const char *gmp_solver; /* copied */
    int order_by_system;    /* 1: the step's unilateral/friction rows are
                               ordered by their interactions' first system id
                               (stable counting sort, O(n)) instead of by
                               interaction slot: with systems numbered along
                               space, W's rows and the sweeps' accesses stay
                               local in memory;
                               0 (default): slot order */
} nsm_sim_options;

enum nsm_projection { NSM_PROJECTION_NONE = 0, NSM_PROJECTION_DIRECT, NSM_PROJECTION_COMBINED };

/** Defaults as documented above (h = 0: the caller must set it). */
void nsm_sim_options_default(nsm_sim_options *o);

/** Siconos' rules (Siconos 4.4 TimeStepping with MoreauJeanOSI /
 *  EulerMoreauOSI), set on top of whatever o holds: gap_tol = 0,
 *  separating_restitution = 0 (e on every active row), activation
 *  NSM_ACTIVATION_GAMMA with γ = ½ (y_k + (h/2) ẏ_k ≤ 0), theta_output = 0
 *  (laws on y_{k+1}), newton_criterion NSM_NEWTON_ABS_NORM2 with tol 1e-6
 *  and at most 50 iterations (Siconos' defaults). The linearisation point
 *  (linearisation) and γ of Euler–Moreau (em_use_gamma) stay as they are:
 *  they follow the Siconos program's choices (SICONOS_TS_LINEAR,
 *  EulerMoreauOSI(θ, γ)). Does nothing on NULL. docs/siconos-compat.md */
void nsm_sim_options_siconos(nsm_sim_options *o);

/** The one check of every field (nsm_sim_new calls it): t0 finite; h
 *  finite, > 0 and large enough that t0 + h > t0; theta in [0, 1]; every
 *  tolerance finite and ≥ 0 (> 0 where a zero would never stop); the
 *  projection thresholds finite; every flag 0 or 1 and every enum one of
 *  its values; counts in range; solver_options by ns_options_validate.
 *  NS_OK, or NS_BAD_INPUT with the field, its value and the rule in err
 *  (size NS_ERRMSG_LEN, may be NULL). */
ns_status nsm_sim_options_validate(const nsm_sim_options *o, char *err);

/** New simulation of model (borrowed). Initial states from the systems.
 *  Checks the options (a solver name must solve one of the problem kinds
 *  the model's laws make), refuses a constant mass matrix that is not
 *  symmetric positive definite (a callback M(q) is not checked) and
 *  factorises every constant iteration matrix: a singular one fails here
 *  (NULL, message in err if non-NULL, of size NS_ERRMSG_LEN). The options'
 *  strings are copied. Every nsm_sim_* function takes a NULL handle:
 *  NS_BAD_INPUT, NaN, −1, 0 or NULL, never a crash. */
nsm_sim *nsm_sim_new(nsm_model *model, const nsm_sim_options *o, char *err);
void nsm_sim_free(nsm_sim *s);

ns_status nsm_sim_compute_free_state(nsm_sim *s);
ns_status nsm_sim_solve(nsm_sim *s);
ns_status nsm_sim_update(nsm_sim *s);
void nsm_sim_next_step(nsm_sim *s);
/** The four above. A step that fails (status ≠ NS_OK, reason in
 *  nsm_sim_error) leaves the states (q, v or x) as they were at t_k and
 *  the time unchanged. */
ns_status nsm_sim_step(nsm_sim *s);
/** Steps while t < T (within h/2); observer (may be NULL) after each step.
 *  T not finite or not after the current time: NS_BAD_INPUT (message in
 *  nsm_sim_error). */
ns_status nsm_sim_run(nsm_sim *s, double T, nsm_observer_fn obs, void *user);

double nsm_sim_time(const nsm_sim *s);
double nsm_sim_step_size(const nsm_sim *s);
long nsm_sim_step_count(const nsm_sim *s);
nsm_model *nsm_sim_model(nsm_sim *s);

/** State of system ds (borrowed, length nsm_ds_size). q and v for Lagrangian
 *  systems, x for first-order ones (NULL when not applicable). Writable
 *  between steps (e.g. to set a state). */
double *nsm_sim_q(nsm_sim *s, int ds);
double *nsm_sim_v(nsm_sim *s, int ds);
double *nsm_sim_x(nsm_sim *s, int ds);
/** Generalised force / impulse put on ds by the last step (p or r). */
const double *nsm_sim_p(const nsm_sim *s, int ds);
/** Impulse of the last step on the prescribed-velocity dofs of ds (the
 *  reaction of nsm_ds_set_boundary_condition; 0 on the other dofs). */
const double *nsm_sim_bc_reaction(const nsm_sim *s, int ds);

/** y[level] and λ[level] of an interaction (borrowed, length m; NULL for a
 *  bad id or level). Lagrangian: y[0] = y, y[1] = ẏ, λ[1] = the impulse P of
 *  the last step (force ≈ P/h); first order: level 0 only. */
const double *nsm_sim_y(const nsm_sim *s, int inter, int level);
const double *nsm_sim_lambda(const nsm_sim *s, int inter, int level);

/** Relative degree of an interaction (its largest over its rows): 2 for a
 *  Lagrangian relation (the law is enforced at velocity level), 1 or 0 for
 *  a first-order one (0 when D's row is nonzero, 1 when C M⁻¹ B's row is, M the first-order mass matrix or I);
 *  −1 for a bad id. A first-order row of relative degree ≥ 2 is refused
 *  (nsm_sim_new or the step that meets it: NS_BAD_INPUT with the row). */
int nsm_sim_relative_degree(const nsm_sim *s, int inter);

/** Index set I_level (0: all live, 1: active in the last step's problem, 2:
 *  those of I1 with |ẏ| ≤ tol after the step). Fills up to max ids, returns
 *  the count. Level 1 lists them in the order of the problem's rows
 *  (equality rows first; see order_by_system), the others by id. */
int nsm_sim_index_set(const nsm_sim *s, int level, int *ids, int max);

/** The last one-step problem solved (borrowed; NULL if none) and the result
 *  of its solve. */
const ns_problem *nsm_sim_problem(const nsm_sim *s);
const ns_result *nsm_sim_last_result(const nsm_sim *s);

typedef struct nsm_sim_stats {
    long steps;             /* steps taken */
    long solves;            /* one-step problems solved */
    long nonconverged;      /* solves that did not reach tol (accepted) */
    long retries;           /* solves repeated at a hook's request */
    long rebuilds;          /* assemblies with a new block structure */
    long refills;           /* assemblies reusing the structure, new values */
    long reuses;            /* assemblies reusing structure and values */
    double solver_seconds;  /* time inside ns_solve */
    long solver_iterations;
    long newton_iterations; /* linearised solves of nonlinear systems, summed */
    int newton_max;         /* the most in one step */
    long newton_nonconverged; /* steps that stopped at newton_max_iter */
    long projection_iterations; /* position problems solved, summed */
    long projection_nonconverged; /* of those, solves that did not reach 1e-12 */
    long projection_passes; /* combined projection: velocity passes, summed */
    double projection_violation;     /* largest violation after the last step */
    double projection_violation_max; /* its largest value over the run */
} nsm_sim_stats;
const nsm_sim_stats *nsm_sim_get_stats(const nsm_sim *s);

/** Kinetic energy ½ vᵀ M v of a Lagrangian system (NAN otherwise). */
double nsm_sim_kinetic_energy(nsm_sim *s, int ds);

/** How the iteration matrix of system ds is factorised (ns_factor method
 *  name: "dense-lu"; sparse systems "sparse-chol" (CHOLMOD, symmetric
 *  positive definite) or "sparse-lu" (UMFPACK, otherwise)); NULL for a bad
 *  handle or id, or while no factorisation exists (a system whose matrix
 *  changes gets it at its first step). Borrowed, static. */
const char *nsm_sim_factor_name(const nsm_sim *s, int ds);

/** Last error message ("" if none). */
const char *nsm_sim_error(const nsm_sim *s);

/* ---- output: one CSV row per call ----
 * Columns: t, then for every system q and v (or x), then for every live
 * interaction at the time of the header y0, y1 and λ1 (λ0 for first order).
 * The column set is fixed at the header: an interaction removed since (or
 * whose slot was reused) keeps its columns, left empty, so that every row
 * has the header's number of fields. A row is written for the simulation
 * the output was opened with only (another: NS_BAD_INPUT). */
typedef struct nsm_output nsm_output;
/** Opens path and writes the header. NULL (err filled) on failure. */
nsm_output *nsm_output_open(const char *path, nsm_sim *s, char *err);
ns_status nsm_output_row(nsm_output *out, nsm_sim *s);
/** Closes the file; NULL allowed. */
void nsm_output_close(nsm_output *out);

#ifdef __cplusplus
}
#endif
#endif
