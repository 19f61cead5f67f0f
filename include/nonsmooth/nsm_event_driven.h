/* nsm_event_driven.h — event-driven simulation of Lagrangian systems with
 * perfect unilateral constraints and Newton impact laws (docs/mechanics.md,
 * "Event-driven scheme"; seeds 000).
 *
 * Between events, the bilateral smooth dynamics, integrated by SUNDIALS CVODE:
 *     M(q) q̈ + F_int(t, q, q̇) = F_ext(t) + Σ_α ∇h_αᵀ λ[2]_α
 *     y[2]_α = ∇h_α q̈ + γ_α,   γ_α = (d∇h_α/dt) q̇ + ∂²h_α/∂t² (rheonomous)
 *     λ[2]_α = 0 for α ∉ I2;  0 ≤ y[2]_α ⊥ λ[2]_α ≥ 0 for α ∈ I2
 * (the LCP at acceleration level, solved inside f(x, t)), with the root
 * functions (one per contact row, direction −1: decreasing only)
 *     g_α = y[0]_α (+ gap_tol)    for α ∉ I2   (a contact closes; + gap_tol
 *                                 only for a row that was touching with zero
 *                                 relative velocity at the last restart)
 *     g_α = λ[2]_α − y[2]_α       for α ∈ I2   (a contact releases: it is
 *                                 λ[2]_α while the contact is loaded and
 *                                 −y[2]_α once the LCP lets it separate).
 * A "contact row" is one component of a Newton law of an interaction.
 *
 * At a nonsmooth event (a root): y[0], y[1] and the index sets are updated
 * (I1: y[0] ≤ gap_tol and y[1] ≤ vel_tol, or already in I2); if I1 − I2
 * holds an impacting row (y[1] < −vel_tol), the impact LCP over I1
 *     y[1]⁺ = ∇h M⁻¹ ∇hᵀ λ[1] + y[1]⁻,  0 ≤ y[1]⁺ + e y[1]⁻ ⊥ λ[1] ≥ 0
 * is solved (e taken as 0 for a row whose |y[1]⁻| < rest_vel or whose next
 * hop would rise less than rest_gap: accumulation of impacts, the contact
 * closes and rests), velocities get M⁻¹ ∇hᵀ λ[1];
 * I2 ← rows of I1 with y[1]⁺ ≤ vel_tol; then the LCP at acceleration level
 * over I2 and the double-condition update: a row with λ[2] ≤ lambda_tol
 * (separating, y[2] > 0, or undetermined, y[2] = 0) leaves I2 and I1; it is
 * then watched by g = y[0] + gap_tol. CVODE is then re-initialised.
 *
 * Events manager: unprocessed events (time-discretisation events at
 * t0 + k·output_step up to T, events the user adds, nonsmooth events the
 * root finding schedules) and a bounded history of past events. A step:
 * nsm_ed_advance_to_event (integrates up to the next event; returns
 * NSM_ED_ROOT_RETURN when a root was found, which becomes the next event),
 * then nsm_ed_process_events (processes the next event, which becomes the
 * current one). nsm_ed_has_next_event drives the loop; nsm_ed_run does it
 * all.
 *
 * The model is borrowed and must not change during the simulation. Only
 * Lagrangian systems (LTI or nonlinear) and Newton laws on Lagrangian
 * relations are accepted: anything else (first-order systems, friction,
 * relay, equality, complementarity laws) is refused by nsm_ed_new with a
 * message. Time-stepping (nsm_sim) and event-driven simulations may share
 * one model; nsm_ed_set_state_from_sim / nsm_ed_copy_state_to_sim switch a
 * run from one scheme to the other.
 */
#ifndef NSM_EVENT_DRIVEN_H
#define NSM_EVENT_DRIVEN_H
#include "nsm_model.h"
#include "nsm_simulation.h"
#include "ns_solver.h"
#include "ns_config.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The event-driven scheme exists only in builds with SUNDIALS CVODE
 * (ns_config.h: NSM_HAVE_EVENT_DRIVEN); without it nothing below but
 * nsm_relation_set_d2hdt2 is declared. */
#ifdef NSM_HAVE_EVENT_DRIVEN

typedef struct nsm_ed nsm_ed;

typedef enum nsm_event_type {
    NSM_EVENT_TIME = 0,      /* time discretisation: outputs computed, state saved */
    NSM_EVENT_NONSMOOTH,     /* a root: impact / closing / release treatment */
    NSM_EVENT_USER,          /* added by the user: treated as a time event */
    NSM_EVENT_NTYPES
} nsm_event_type;

/** What a root was: a contact closing (y[0] reached 0) or releasing. */
typedef enum nsm_root_kind { NSM_ROOT_NONE = 0, NSM_ROOT_CLOSE, NSM_ROOT_RELEASE } nsm_root_kind;

typedef struct nsm_event {
    double t;
    nsm_event_type type;
    /* nonsmooth events: the first row found by the root finding */
    int inter, comp;         /* interaction id and component (−1 otherwise) */
    int direction;           /* CVODE's root direction (−1: g decreasing) */
    nsm_root_kind root;
    int nroots;              /* rows whose root fired together */
    /* filled when processed (nonsmooth): impact LCP solved, and y[1] of
     * the named row before / after it */
    int impact;
    int rested;              /* rows that entered I2 (closing at rest) */
    int released;            /* rows that left I2 */
    double y1_before, y1_after;
} nsm_event;

typedef enum nsm_ed_method { NSM_ED_ADAMS = 0, NSM_ED_BDF } nsm_ed_method;

/** The linear solver of CVODE's Newton iteration (fixed_point = 0). */
typedef enum nsm_ed_linsol {
    NSM_ED_LS_AUTO = 0,   /* dense, unless a system keeps its matrices sparse
                             (nsm_ds_lagrangian_lti_sparse_new): Krylov */
    NSM_ED_LS_DENSE,      /* dense (2N)×(2N) SUNMatrix, N = Σ n_j, Jacobian by
                             difference quotients: small N only */
    NSM_ED_LS_KRYLOV      /* matrix-free GMRES (SUNLinSol_SPGMR, Jacobian–
                             vector products by difference quotients): no
                             N² storage, for large (finite-element) systems */
} nsm_ed_linsol;

typedef struct nsm_ed_options {
    double t0;               /* initial time (default 0) */
    double T;                /* final time (required > t0) */
    double output_step;      /* time-discretisation events every output_step
                                (default (T − t0)/1000; the last one at T) */
    nsm_ed_method method;    /* CVODE's CV_ADAMS (default) or CV_BDF */
    int fixed_point;         /* 1: functional iteration; 0 (default): Newton
                                with the linear solver below */
    nsm_ed_linsol linear_solver; /* NSM_ED_LS_AUTO (default), _DENSE or _KRYLOV.
                                A system with sparse matrices is also kept
                                sparse by the scheme itself: its mass matrix
                                is factorised by CHOLMOD (UMFPACK when not
                                symmetric) and no n×n buffer is allocated */
    double rtol, atol;       /* CVODE tolerances (default 1e-10, 1e-12) */
    double hmin;             /* CVODE minimum step (default 0 = none) */
    double hmax;             /* CVODE maximum step (default 0 = none) */
    long max_steps;          /* CVODE steps per advance (default 100000) */
    double gap_tol;          /* y[0] ≤ gap_tol: in contact (default 1e-9) */
    double vel_tol;          /* |y[1]| ≤ vel_tol: zero relative velocity (1e-9) */
    double rest_vel;         /* |y[1]⁻| < rest_vel at an impact: accumulation,
                                the contact closes with e = 0 and rests
                                (default 1e-5; 0 disables) */
    double rest_gap;         /* an impact whose next hop would rise less than
                                (e y[1]⁻)² / (2 |y[2]|) < rest_gap is an
                                accumulation too: the hop would be below the
                                integrator's resolution (default 100 atol) */
    double lambda_tol;       /* λ[2] ≤ lambda_tol: no contact force (1e-10) */
    double acc_tol;          /* y[2] > acc_tol: separating (default 1e-10) */
    const char *solver;      /* LCP solver spec for ≥ 2 rows, NAME[/key=value]...
                                (ns_solver_spec_parse; NULL = "lemke") */
    ns_options solver_options;
    long history;            /* past events kept (default 4096, also for 0;
                                older dropped; negative refused) */
    int accept_nonconverged; /* an impact or acceleration LCP that does not
                                converge: 0 (default) fails it — the run
                                stops with a message naming the time, the
                                problem, the solver and its error (an
                                acceleration LCP first lets CVODE retry with
                                a smaller step); 1 accepts it, counted in
                                stats.lcp_nonconverged. As
                                nsm_sim_options.accept_nonconverged; a hook
                                decides first. */
    nsm_solve_hook_fn solve_hook; void *solve_hook_user; /* called when an
                                impact or acceleration LCP does not converge
                                (as nsm_sim_options.solve_hook): retry with
                                other settings, accept or stop */
    ns_log_fn log; void *log_user; /* messages (NULL = silent) */
} nsm_ed_options;

void nsm_ed_options_default(nsm_ed_options *o);

/** Siconos' rules (Siconos 4.4 EventDriven), set on top of o: every
 *  tolerance of the index sets (gap_tol, vel_tol, lambda_tol, acc_tol) =
 *  Siconos' _TOL_ED = 10⁴ ε ≈ 2.2e-12, and no accumulation rule (rest_vel =
 *  0, rest_gap = DBL_MIN): a contact bouncing ever lower keeps bouncing.
 *  Does nothing on NULL. docs/siconos-compat.md */
void nsm_ed_options_siconos(nsm_ed_options *o);

/** The one check of every field (nsm_ed_new calls it): t0, T finite with
 *  T > t0; output_step finite, ≥ 0, and making at most 10¹² time events;
 *  rtol, atol finite and > 0; hmin, hmax finite, ≥ 0, hmin ≤ hmax when
 *  hmax > 0, hmin ≤ T − t0; every other tolerance finite and ≥ 0; history in [0, 10⁸]
 *  (0: 4096); flags 0 or 1, enums one of their values; solver_options by
 *  ns_options_validate. NS_OK, or NS_BAD_INPUT with the field, its value
 *  and the rule in err (size NS_ERRMSG_LEN, may be NULL). */
ns_status nsm_ed_options_validate(const nsm_ed_options *o, char *err);

/** New event-driven simulation of model (borrowed); initial states from the
 *  systems. NULL with the reason in err (size NS_ERRMSG_LEN) on bad options,
 *  a model the scheme does not handle, a singular mass matrix or a CVODE
 *  failure. */
nsm_ed *nsm_ed_new(nsm_model *model, const nsm_ed_options *o, char *err);
void nsm_ed_free(nsm_ed *s);

/** Switching schemes on one model: copy the states (q, v of every system)
 *  and time of a time-stepping simulation into s (index sets are recomputed
 *  at the next event; CVODE is re-initialised), or s's states into sim. */
ns_status nsm_ed_set_state_from_sim(nsm_ed *s, nsm_sim *sim);
ns_status nsm_ed_copy_state_to_sim(const nsm_ed *s, nsm_sim *sim);

/* ---- events manager ---- */
/** Schedules a user event at t (t0 < t ≤ T); NS_BAD_INPUT otherwise. */
ns_status nsm_ed_add_event(nsm_ed *s, double t);
/** 1 while an unprocessed event remains (the last one is at T). */
int nsm_ed_has_next_event(const nsm_ed *s);
/** Time of the current event (the start of the next integration). */
double nsm_ed_starting_time(const nsm_ed *s);
/** Time of the next unprocessed event (INFINITY if none). */
double nsm_ed_next_time(const nsm_ed *s);
/** The current (last processed) event; NULL before the first. */
const nsm_event *nsm_ed_current_event(const nsm_ed *s);
/** The next unprocessed event (filled into *ev); 0 if none, 1 otherwise. */
int nsm_ed_next_event(const nsm_ed *s, nsm_event *ev);
/** The last past events, oldest first: fills up to max, returns the number
 *  kept (≤ history). */
int nsm_ed_past_events(const nsm_ed *s, nsm_event *out, int max);

/* ---- stepping ---- */
#define NSM_ED_ROOT_RETURN 2   /* advance stopped at a root (CVODE's shape) */
/** Integrates the smooth dynamics from the current time to the next event.
 *  Returns 0 (reached it), NSM_ED_ROOT_RETURN (a root was found: a
 *  nonsmooth event is scheduled and is now the next event) or −1 (failure,
 *  message in nsm_ed_error). */
int nsm_ed_advance_to_event(nsm_ed *s);
/** Processes the next event (which becomes the current one): outputs for a
 *  time/user event, the impact / acceleration treatment for a nonsmooth one. */
ns_status nsm_ed_process_events(nsm_ed *s);
/** Root info of the last NSM_ED_ROOT_RETURN: rows[k] = −1 (g_k decreasing
 *  through 0) or 0, over the nsm_ed_nrows contact rows; returns the number. */
int nsm_ed_root_info(const nsm_ed *s, int *rows, int max);
/** Contact rows: row r is component comp of interaction inter. */
int nsm_ed_nrows(const nsm_ed *s);
void nsm_ed_row(const nsm_ed *s, int r, int *inter, int *comp);

/** Called after each processed event by nsm_ed_run: 0 go on, < 0 stop. */
typedef int (*nsm_ed_observer_fn)(nsm_ed *s, const nsm_event *ev, void *user);
/** advance / process while has_next_event. NS_OK at T or when obs stops
 *  the run; on failure (message in nsm_ed_error): the LCP solver's status
 *  (NS_MAX_ITER, …) when the integration stopped on an acceleration LCP
 *  the solver did not solve, NS_DIVERGED for any other failure of the
 *  integration, NS_NO_SOLUTION / NS_BAD_INPUT from an event's treatment. */
ns_status nsm_ed_run(nsm_ed *s, nsm_ed_observer_fn obs, void *user);

/* ---- data ---- */
double nsm_ed_time(const nsm_ed *s);
/** q, v of system ds (borrowed; writable between events, then call
 *  nsm_ed_reinit). */
double *nsm_ed_q(nsm_ed *s, int ds);
double *nsm_ed_v(nsm_ed *s, int ds);
/** q̈ of system ds (borrowed, length n) at the current event, with the
 *  contact forces λ[2] of the rows resting in I2: computed by nsm_ed_new at
 *  t0 (contacts closed at t0 included), by each nsm_ed_process_events at
 *  the processed event, and by nsm_ed_reinit / nsm_ed_set_state_from_sim.
 *  Between an advance and the processing of its event it still holds the
 *  previous event's value. If the acceleration problem at t0 cannot be
 *  solved there (a solver or hook that fails it) nsm_ed_new still
 *  succeeds, with q̈, λ[2], ÿ at 0: the run reports that failure. NULL for
 *  a bad id. */
const double *nsm_ed_acceleration(const nsm_ed *s, int ds);
/** Restart the integration from the current q, v (after editing them):
 *  y, ẏ and the index sets are recomputed from them (as
 *  nsm_ed_set_state_from_sim; a kinematics failure is reported by the next
 *  advance), CVODE is re-initialised. */
void nsm_ed_reinit(nsm_ed *s);
/** y[level] (0, 1, 2) and λ[level] (1: impulse of the last impact at this
 *  interaction's current event, 2: contact force) of an interaction, as
 *  last computed: at the current event once nsm_ed_process_events has
 *  treated it, and at t0 from nsm_ed_new on (λ[2], y[2] of contacts
 *  closed at t0 included); between an advance and the processing of its
 *  event, y[2] and λ[2] are the integrator's last trial evaluation.
 *  Borrowed, length m; NULL for a bad id / level. */
const double *nsm_ed_y(const nsm_ed *s, int inter, int level);
const double *nsm_ed_lambda(const nsm_ed *s, int inter, int level);
/** Index set I_level (0, 1, 2) over interactions (an interaction is in I1/I2
 *  when one of its rows is). Fills up to max ids, returns the count. */
int nsm_ed_index_set(const nsm_ed *s, int level, int *ids, int max);

typedef struct nsm_ed_stats {
    long cvode_steps;        /* summed over re-initialisations */
    long rhs_evals;          /* f(x, t) calls (including difference quotients) */
    long root_evals;         /* g(x, t) calls */
    long jac_evals;          /* dense Jacobians formed (linear_solver dense) */
    long lin_iters;          /* GMRES iterations (linear_solver Krylov) */
    long reinits;
    long advances;
    long events[NSM_EVENT_NTYPES]; /* processed events of each type */
    long impacts;            /* impact LCPs solved */
    long impact_rows;        /* rows with an impact */
    long rests;              /* rows that closed at rest (entered I2) */
    long releases;           /* rows that left I2 */
    long accel_lcps;         /* acceleration LCPs at events */
    long rhs_lcps;           /* acceleration LCPs inside f and g */
    long lcp_failures;
    long lcp_retries;        /* LCP solves repeated at the hook's request */
    long lcp_nonconverged;   /* LCPs accepted without reaching tol (by the
                                hook, or without one within 1e3·tol) */
} nsm_ed_stats;
const nsm_ed_stats *nsm_ed_get_stats(const nsm_ed *s);

const char *nsm_ed_error(const nsm_ed *s);
#endif /* NSM_HAVE_EVENT_DRIVEN */

/** Optional exact ∂²h/∂t² of a rheonomous relation (out: m values), used in
 *  γ of the acceleration level; without it the event-driven scheme takes a
 *  central difference of ∂h/∂t. NS_BAD_INPUT for other relation types. */
ns_status nsm_relation_set_d2hdt2(nsm_relation *r, nsm_h_fn d2hdt2);

#ifdef __cplusplus
}
#endif
#endif
