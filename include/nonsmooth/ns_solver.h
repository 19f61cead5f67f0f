/* ns_solver.h — options, results, the solver registry and the solve driver.
 *
 * ns_options is input only; ns_result is output only. Solvers are looked up
 * by (name, kind) in one table (numerics/solve/solve_registry.c); ns_solve
 * validates the problem, runs the solver, then recomputes the error with the
 * kind's error function (ns_residual.h) and fills ns_result.
 */
#ifndef NS_SOLVER_H
#define NS_SOLVER_H
#include <stddef.h>
#include "ns_problem.h"
#ifdef __cplusplus
extern "C" {
#endif

/** Log callback: level 1 = summary, 2 = per iteration, 3 = debug. */
typedef void (*ns_log_fn)(void *user, int level, const char *message);

/** Reusable solver workspace (opaque): grow-only buffers kept between
 *  solves, so that a caller solving one problem per time step allocates
 *  nothing in the solver once its problems stop growing. Created and freed
 *  by the caller, who owns it; passed through ns_options.workspace (NULL:
 *  each solve allocates and frees its own buffers, as always). The solvers
 *  that use it (nsgs-* for their sweep buffers, auto for its iterates and
 *  its NSGS stages) hold its buffers for the duration of one solve; the
 *  others ignore it. Thread rule: one workspace per concurrent solve — two
 *  solves running at the same time on different threads need two
 *  workspaces (a solve nested in another on the same thread finds the
 *  buffers it needs held and allocates its own). Results do not depend on
 *  whether a workspace is given. Its memory is kept until
 *  ns_workspace_free. */
typedef struct ns_workspace ns_workspace;
/** A new empty workspace; NULL when out of memory. */
ns_workspace *ns_workspace_new(void);
/** Frees w and its buffers (NULL: nothing). */
void ns_workspace_free(ns_workspace *w);
/** Bytes held by w's buffers. */
size_t ns_workspace_bytes(const ns_workspace *w);

/** Told by a chain of methods (the friction-contact `auto`) that one of
 *  its methods ended above tol and the chain goes on to the next: method
 *  (e.g. "nsgs-ac", "nsn-ac"), the best error so far and the iterations of
 *  the whole chain so far. Return 0 to go on, nonzero to stop the chain
 *  there (the solve returns its best iterate with status max_iter and a
 *  message saying so). */
typedef int (*ns_switch_fn)(void *user, const char *method, double best_error, int iterations);

typedef struct ns_options {
    double tol;              /* on the kind's relative error (default 1e-8) */
    int max_iter;            /* iterations/sweeps; 0 = the solver's default */
    double time_limit;       /* seconds; 0 = none. Solvers read the clock
                                between iterations, some only every ~65 k
                                flops of work (docs/solver-specs.md): a
                                solve may overrun it by that much, or by
                                one iteration; the sparse Newton solvers
                                (nsn-*) do not start an iteration their
                                last one (or the fill prediction) says
                                would end past it */
    int verbosity;           /* 0 = silent; messages go to log */
    ns_log_fn log;           /* NULL = no messages whatever the verbosity */
    void *log_user;
    int warm_start;          /* 1: start from the solution's current content */
    int fc_norm;             /* ns_fc_norm of the friction-contact error */
    double omega;            /* relaxation (psor, nsgs); 0 = solver default */
    int check_every;         /* global error computed every k sweeps; 0 = solver's choice
                                (pgs: every sweep; nsgs: when its light error predicts
                                convergence, at least every 50 sweeps) */
    int shuffle;             /* contact order: 0 natural, 1 shuffled each sweep */
    int sweep;               /* nsgs: 0 forward sweeps (default), 1 symmetric
                                (forward and backward in turn) */
    int anderson;            /* nsgs: Anderson acceleration of the sweeps with
                                this memory (0 = none, at most 16) */
    int threads;             /* nsgs: 0 (default) serial sweeps in contact order;
                                k >= 1: contacts swept colour by colour (no two
                                contacts of a colour share a body) by k OpenMP
                                threads, same iterates for every k (1 without
                                OpenMP); admm: at most k threads, used when W
                                (local) or H (global) holds 131 072 stored
                                values or more, serial below (same iterates
                                either way) */
    unsigned seed;           /* for shuffle */
    const char *local_solver;/* one-block solver name, NULL = default */
    int record_history;      /* 1: ns_result.history gets one entry per iteration of
                                the solver's main loop: the error it computed there
                                (NaN for the sweeps or pivots where it computed none;
                                the auto chains: one entry per stage) */
    ns_workspace *workspace; /* borrowed reusable buffers (see above); NULL = none */
    ns_switch_fn on_switch;  /* chains (auto of fc2d/fc3d/gfc): told of every
                                switch of method; NULL = none */
    void *switch_user;
    int (*cancel)(void *user);/* asked between iterations of the iterative solvers'
                                main loops (and between the stages of auto): a
                                non-zero return stops the solve with status
                                NS_INTERRUPTED; NULL = never */
    void *cancel_user;       /* passed to cancel */
} ns_options;

/** Defaults: tol 1e-8, max_iter 0, no time limit, silent. */
void ns_options_default(ns_options *o);

/** The one check of every field: tol > 0 and finite, max_iter ≥ 0,
 *  time_limit finite and ≥ 0, omega in [0, 2), check_every ≥ 0,
 *  verbosity ≥ 0, warm_start, shuffle, record_history, fc_norm and sweep
 *  0 or 1, anderson in [0, 16], threads in [0, 4096]. NS_OK or
 *  NS_BAD_INPUT with the field named in err. */
ns_status ns_options_validate(const ns_options *o, char *err);

/** Kinds of certificate that a problem has no solution. */
typedef enum ns_certificate_kind {
    NS_CERT_NONE = 0,
    /* Farkas: y with, for the problem's feasibility system,
     *   LCP   y ≥ 0, Mᵀy ≤ 0, qᵀy < 0   (no z ≥ 0 with Mz + q ≥ 0);
     *   MLCP  y_C ≥ 0 (y_E free), (Mᵀy)_E = 0, (Mᵀy)_C ≤ 0, qᵀy < 0
     *         (E: equality rows/free unknowns, C: complementarity rows);
     *   relay y_i = 0 if both bounds of z_i are finite, y_i ≥ 0 if only lb_i,
     *         y_i ≤ 0 if only ub_i (free if none); c = Mᵀy with c_j ≤ 0 where
     *         ub_j = +∞ and c_j ≥ 0 where lb_j = −∞, and
     *         yᵀq + Σ_j max over [lb_j, ub_j] of c_j z_j < 0.
     * docs/certificates.md gives the proofs and the tolerances. */
    NS_CERT_FARKAS = 1
} ns_certificate_kind;

/** A certificate of no solution, filled by the solver (kind, y, source)
 *  and checked by ns_solve with ns_certificate_check (checked, violation,
 *  gap, radius). y is owned by the result (freed by ns_result_clear). */
typedef struct ns_certificate {
    ns_certificate_kind kind;
    int len;                 /* length of y: the problem's number of unknowns */
    double *y;               /* (len), owned */
    int checked;             /* 1: ns_certificate_check accepted it */
    double violation;        /* largest relative violation of the sign conditions */
    double gap;              /* relative value of qᵀy (or of the relay bound): < 0 */
    double radius;           /* no feasible z with ‖z‖∞ ≤ radius (+inf: none at all) */
    char source[64];         /* who produced it, e.g. "lemke secondary ray" */
} ns_certificate;

/** Lower-case name of a certificate kind ("none", "farkas"). */
const char *ns_certificate_kind_name(ns_certificate_kind k);

typedef struct ns_result {
    ns_status status;        /* converged, max_iter, ... or a failure */
    int iterations;
    double error;            /* recomputed by the kind's error function */
    double seconds;          /* wall time of the solve alone */
    char message[NS_ERRMSG_LEN]; /* reason of a failure, "" otherwise */
    double *history;         /* (history_len) owned when record_history */
    int history_len;
    ns_certificate cert;     /* with status no_solution: the checked certificate */
    char method[48];         /* the method whose iterate is returned: the solver's
                                name, or for the auto chains the stage's
                                ("nsn-ac", "lemke", "newton-fb", ...) */
} ns_result;

/** Zeroes r (no allocation). */
void ns_result_init(ns_result *r);
/** Frees the history and the certificate's vector. */
void ns_result_clear(ns_result *r);

/* ---- solver entry points, one signature per kind ----
 * Each receives a validated problem, the solution vectors (unknowns hold the
 * starting point: zero, or the caller's when warm_start) and fills status,
 * iterations and (its own estimate of) error. */
typedef ns_status (*ns_lcp_solver)(const ns_lcp *p, double *z, double *w,
                                   const ns_options *o, ns_result *res);
typedef ns_status (*ns_mlcp_solver)(const ns_mlcp *p, double *z, double *w,
                                    const ns_options *o, ns_result *res);
typedef ns_status (*ns_relay_solver)(const ns_relay *p, double *z, double *w,
                                     const ns_options *o, ns_result *res);
typedef ns_status (*ns_avi_solver)(const ns_avi *p, double *z, double *w,
                                   const ns_options *o, ns_result *res);
typedef ns_status (*ns_equality_solver)(const ns_equality *p, double *z,
                                        double *w, const ns_options *o,
                                        ns_result *res);
typedef ns_status (*ns_fc_solver)(const ns_fc *p, double *r, double *u,
                                  const ns_options *o, ns_result *res);
typedef ns_status (*ns_gfc_solver)(const ns_gfc *p, double *v, double *u,
                                   double *r, const ns_options *o,
                                   ns_result *res);
typedef ns_status (*ns_gmp_solver)(const ns_gmp *p, double *reaction,
                                   double *velocity, const ns_options *o,
                                   ns_result *res);

typedef ns_status (*ns_rfc_solver)(const ns_rfc *p, double *r, double *u,
                                   const ns_options *o, ns_result *res);
typedef ns_status (*ns_grfc_solver)(const ns_grfc *p, double *v, double *u,
                                    double *r, const ns_options *o,
                                    ns_result *res);
typedef ns_status (*ns_ncp_solver)(const ns_ncp *p, double *z, double *F,
                                   const ns_options *o, ns_result *res);
typedef ns_status (*ns_mcp_solver)(const ns_mcp *p, double *z, double *F,
                                   const ns_options *o, ns_result *res);
typedef ns_status (*ns_vi_solver)(const ns_vi *p, double *x, double *F,
                                  const ns_options *o, ns_result *res);
typedef ns_status (*ns_cqp_solver)(const ns_cqp *p, double *x, double *y,
                                   double *g, const ns_options *o, ns_result *res);
typedef ns_status (*ns_soclcp_solver)(const ns_soclcp *p, double *r, double *v,
                                      const ns_options *o, ns_result *res);

typedef struct ns_solver_info {
    const char *name;        /* lower-case, e.g. "lemke", "nsgs-ac" */
    ns_kind kind;            /* NS_KIND_FC3D entries also serve... only fc3d */
    union {
        ns_lcp_solver lcp;
        ns_mlcp_solver mlcp;
        ns_relay_solver relay;
        ns_avi_solver avi;
        ns_equality_solver equality;
        ns_fc_solver fc;
        ns_gfc_solver gfc;
        ns_gmp_solver gmp;
        ns_rfc_solver rfc;
        ns_grfc_solver grfc;
        ns_ncp_solver ncp;
        ns_mcp_solver mcp;
        ns_vi_solver vi;
        ns_cqp_solver cqp;
        ns_soclcp_solver soclcp;
    } fn;
    int is_default;          /* the default solver of its kind */
    int default_max_iter;    /* used when options.max_iter is 0 */
    const char *description; /* one line */
} ns_solver_info;

/** Number of registered solvers and the i-th (0 ≤ i < count). */
size_t ns_solver_count(void);
const ns_solver_info *ns_solver_at(size_t i);

/** Solver by name and kind; NULL if none. "auto" is the kind's default
 *  solver where the kind has no solver of that name. */
const ns_solver_info *ns_solver_find(const char *name, ns_kind kind);

/** Default solver of a kind; NULL if the kind has none yet. */
const ns_solver_info *ns_solver_default(ns_kind kind);

/* ---- solver specs: NAME[/key=value]... ----
 * One grammar for naming a solver and its options everywhere (nsolve
 * --solver, nsbench --solvers, Python solve(), nsm_sim_options.solver),
 * e.g. "nsgs/anderson=3/omega=1.2/threads=2/local=ac" or "pgs/max_iter=50".
 * Every solver accepts the common keys (tol, max_iter, time_limit) and the
 * keys of its own option table; anything else is an error that lists the
 * solver's valid keys. */

/** Type of a solver option's value. */
typedef enum ns_option_type {
    NS_OPT_INT = 0,          /* decimal integer within [min, max] */
    NS_OPT_DOUBLE,           /* finite number within [min, max] (max excluded
                                when max_open) */
    NS_OPT_CHOICE,           /* one of the comma-separated words of choices:
                                an int field gets its index, a string field
                                (local_solver) a static copy of the word */
    NS_OPT_SOLVER            /* the name of a solver of kind solver_kind */
} ns_option_type;

/** One option a solver reads from ns_options, as a spec key. Static data
 *  owned by the library. */
typedef struct ns_solver_option {
    const char *key;         /* spec key, e.g. "anderson" */
    ns_option_type type;
    const char *default_value; /* the default, as text ("0", "1.2", "ac") */
    const char *meaning;     /* one line */
    const char *choices;     /* NS_OPT_CHOICE: "forward,symmetric"; else NULL */
    double min, max;         /* NS_OPT_INT / NS_OPT_DOUBLE: allowed range */
    int max_open;            /* 1: max itself is excluded */
    ns_kind solver_kind;     /* NS_OPT_SOLVER: kind of the named solver */
    size_t offset;           /* offsetof the ns_options field it sets */
} ns_solver_option;

/** The keys every solver accepts (tol, max_iter, time_limit); *n gets
 *  their number (n may be NULL). Static, owned by the library. */
const ns_solver_option *ns_solver_common_options(size_t *n);

/** The options solver s declares beyond the common ones; *n gets their
 *  number (0 and a non-NULL pointer for none; NULL s: NULL). Static. */
const ns_solver_option *ns_solver_options(const ns_solver_info *s, size_t *n);

/** Longest solver name, with its terminating NUL, that
 *  ns_solver_spec_parse writes. */
#define NS_SOLVER_NAME_LEN 64

/** Parses spec "NAME[/key=value]..." for problems of the given kind: checks
 *  that NAME is a solver of that kind (an empty NAME, or a NULL spec, means
 *  the kind's default), that every key is one of its options (common or
 *  declared) and every value has the option's type and range, then writes
 *  the solver's name into name_out (len bytes, at least
 *  NS_SOLVER_NAME_LEN) and sets the named fields of o (other fields are
 *  left as they are: call ns_options_default first). A key given twice:
 *  the last value wins. kind NS_KIND_NONE accepts NAME if some kind has it
 *  and checks each key against every solver of that name (valid if one of
 *  them declares it). NS_OK; NS_NOT_FOUND for an unknown solver;
 *  NS_BAD_INPUT for anything else wrong, with err (NS_ERRMSG_LEN, may be
 *  NULL) naming the spec, the solver, the key and the valid keys. On
 *  failure o may hold some of the values already parsed. */
ns_status ns_solver_spec_parse(const char *spec, ns_kind kind, char *name_out,
                               size_t len, ns_options *o, char *err);

/** Solves p with the named solver (NULL = the kind's default). sol must come
 *  from ns_solution_new(p). res is filled in every case: res->status is also
 *  the return value. res->error is recomputed by the kind's error function
 *  from the returned unknowns; "converged" is reported only when it is
 *  ≤ o->tol. Bad problem/options → NS_BAD_INPUT with the reason in
 *  res->message; unknown solver → NS_NOT_FOUND. A problem without unknowns
 *  (n = 0) is solved as it is: converged, 0 iterations, error 0, the
 *  solver not called. */
ns_status ns_solve(const ns_problem *p, const char *solver,
                   const ns_options *o, ns_solution *sol, ns_result *res);

/** Checks a certificate of no solution against the problem's own data,
 *  independently of any solver (sums in long double): for NS_CERT_FARKAS the
 *  sign conditions above, each allowed a violation of at most
 *  NS_CERT_TOL × (the sum of the magnitudes of its terms), and the gap
 *  required below −NS_CERT_TOL × (the sum of the magnitudes of its terms).
 *  Fills c->checked, c->violation, c->gap, c->radius. NS_OK when it proves
 *  the problem infeasible (to that relative backward error), NS_FAILED with
 *  the reason in err otherwise (err may be NULL), NS_BAD_INPUT on a kind
 *  without certificates or a wrong length. */
#define NS_CERT_TOL 1e-10
ns_status ns_certificate_check(const ns_problem *p, ns_certificate *c, char *err);

#ifdef __cplusplus
}
#endif
#endif
