/* nsm_internal.h — private structures of libnonsmooth_mechanics.
 * Included by mechanics/ sources only.
 *
 * Layout:
 *   ds/        one file per system type + ds_kind.h (its table: mass,
 *              forces and their Jacobians, vector field) + iteration.c
 *              (the iteration matrix of a system, factorised by ns_factor)
 *   relation/  one file per relation type + relation_kind.h (outputs, ∇h,
 *              ∂h/∂t, the input matrix G: p = Gλ with G = Hᵀ, or r = Bλ)
 *   nslaw/     one file per law type + nslaw_kind.h (which problem rows a
 *              law maps onto, restitution, bounds, μ, its name)
 *   osi/       Moreau–Jean and Euler–Moreau: free state, Newton residual,
 *              update, per system (osi.h)
 *   osnsp/     interactions.c (y, H per interaction), index_set.c (I1),
 *              assembly.c (blocks, q, problem kind and build), solve.c
 *   simulation/ time-stepping driver, event-driven scheme, output
 * Adding a system, relation or law type = one file in its folder plus one
 * row in the table of ds.c / relation.c / nslaw.c. */
#ifndef NSM_INTERNAL_H
#define NSM_INTERNAL_H
#include <stddef.h>
#include "nonsmooth/nsm.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_problem.h"
#include "nonsmooth/ns_solver.h"
#include "nonsmooth/ns_io.h"

struct nsm_ds {
    nsm_ds_type type;
    int n;
    int nq;                   /* position coordinates (q0, q): n, or 7 for a
                                 rigid body (position + unit quaternion) */
    double *q0, *v0;          /* Lagrangian initial state (n) */
    double *x0;               /* first-order initial state (n) */
    double *M, *C, *K;        /* LTI (n×n); C, K NULL = zero */
    ns_matrix *Ms, *Cs, *Ks;  /* sparse LTI: SPARSE (CSC) n×n; Cs, Ks NULL = zero */
    double *A;                /* first-order LTI (n×n) */
    double *fext_const;       /* (n) or NULL */
    nsm_lagrangian_fns lag;   /* nonlinear Lagrangian; lag.fext also LTI */
    nsm_vector_field_fn f;    /* first-order nonlinear */
    nsm_matrix_fn jac;        /* first-order nonlinear Jacobian / A(t) */
    nsm_time_fn b;            /* first-order b(t) */
    void *user;               /* first-order callbacks' user pointer */
    double *Mx;               /* first order: constant mass matrix (n×n) or NULL = I */
    double theta;             /* θ of this system; NAN = the simulation's */
    int *bc_dof; double *bc_v0; nsm_time_fn bc_fn; void *bc_user; int nbc; /* prescribed velocities */
    double body_mass, inertia[9]; /* Newton–Euler: mass, body-frame inertia (3×3) */
    nsm_body_fns body;        /* Newton–Euler: force/torque callbacks */
    const nsm_model *owner;   /* the model that took it (NULL: the caller's) */
    unsigned config;          /* bumped by the setters a simulation reads at creation
                                 (boundary conditions, θ, first-order mass) */
};

struct nsm_relation {
    nsm_relation_type type;
    int m, ncols;
    double *H;                /* Lagrangian linear (m×ncols) */
    double *b;                /* (m) or NULL */
    nsm_h_fn h, dhdt;
    nsm_h_fn d2hdt2;          /* optional exact ∂²h/∂t² (rheonomous; event-driven γ) */
    nsm_jach_fn jach;
    void *user;
    double *C, *D, *B, *e;    /* first-order linear; D, e may be NULL; D also compliant Lagrangian */
    nsm_time_fn e_fn; void *e_user; /* optional time-varying offset e(t) (first-order linear) */
    nsm_fo_output_fn fo_h; nsm_fo_input_fn fo_g; /* first-order nonlinear */
    unsigned version;         /* bumped when H/b change */
    struct nsm_rigid_rows *rigid; /* rigid-body relations (contacts, joints) */
    const nsm_model *owner;   /* the model that took it (NULL: the caller's) */
};

struct nsm_nslaw {
    nsm_nslaw_type type;
    int size;
    double e, mu;
    double *lb, *ub;
    double mu_r;   /* rolling friction laws */
    double mu_p;   /* pivoting resistance (rolling law of size 6) */
    const nsm_model *owner;   /* the model that took it (NULL: the caller's) */
};

typedef struct nsm_interaction {
    int alive;
    unsigned gen;
    nsm_relation *rel;
    int law;
    int nds;
    int ds[2];
    int off[2];               /* column offset of each system in V (and in H) */
    int qoff[2];              /* offset of each system in Q (positions) */
    int nqcols;               /* length of Q: the systems' nq summed */
} nsm_interaction;

typedef struct nsm_intlist { int *v; int n, cap; } nsm_intlist;

struct nsm_model {
    nsm_ds **ds; int nds, cap_ds;
    nsm_nslaw **laws; int nlaws, cap_laws;
    nsm_interaction *inter; int ninter_slots, cap_inter, nlive;
    nsm_intlist free_slots;
    nsm_intlist *ds_inter;    /* (cap_ds) interactions attached to each system */
    unsigned gen_counter;
    char err[NS_ERRMSG_LEN];
};

int nsm_intlist_push(nsm_intlist *l, int x);
void nsm_intlist_remove(nsm_intlist *l, int x);
/** 1 if the solver spec NAME[/key=value]... names a solver of kind k with
 *  keys of that solver (ns_solver_spec_parse; osnsp/solver_spec.c). */
int nsm_spec_applies(const char *spec, ns_kind k);
void nsm_set_err(char *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** Constructors: record why they fail (nsm_constructor_error) and return
 *  NULL; nsm_ctor_ok clears the reason on success. */
void *nsm_ctor_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void nsm_ctor_ok(void);

/** Q (or V, X) of an interaction: the concatenation of vec[j] over its
 *  systems j (vec indexed by system id). Shared by both schemes. */
void nsm_inter_gather(const nsm_model *m, const nsm_interaction *I,
                      const double *const *vec, double *out);
/** The same for positions (q, q_k: nq values per system, at I->qoff). */
void nsm_inter_gather_q(const nsm_model *m, const nsm_interaction *I,
                        const double *const *vec, double *out);

/** The solve-and-retry loop of both schemes (osnsp/solve_retry.c): solve
 *  p with *cur; while the last solve ends without converging (an outcome
 *  status) and the hook asks for a retry with valid settings, solve again
 *  with them (at most 16 solves). In: scheme, what, step, t (what the hook
 *  sees), hook, hook_user, log, log_user. Out: the counters, and for an
 *  unconverged last solve `hooked` (the hook was called) and `action` (its
 *  answer: NSM_HOOK_ACCEPT or NSM_HOOK_STOP; a retry refused after 16
 *  solves is STOP). Returns the last solve's status, or NS_BAD_INPUT with
 *  err set and bad_hook = 1 when the hook gave settings that are not valid
 *  for p's kind.
 *  *cur ends with the settings of the last solve. */
typedef struct nsm_retry {
    const char *scheme, *what;
    long step;
    double t;
    nsm_solve_hook_fn hook; void *hook_user;
    ns_log_fn log; void *log_user;
    int attempts, retries, hooked, bad_hook;
    long iterations;
    double seconds;
    nsm_hook_action action;
} nsm_retry;

ns_status nsm_solve_retry(const ns_problem *p, nsm_solve_settings *cur, ns_solution *sol,
                          ns_result *res, nsm_retry *R, char *err);

/* ---- simulation data ---- */
typedef struct nsm_dsdata {
    int n;
    int nq;                   /* length of q, q_k (n, or 7 for a rigid body) */
    unsigned config;          /* the system's config when the simulation read it */
    int lagrangian;
    double theta;             /* θ of this system */
    double *q, *v;            /* Lagrangian state; x uses q */
    double *qk, *vk;          /* state at t_k */
    double *free;             /* v_free or x_free */
    double *p;                /* p or r of the last step */
    double *pk;               /* r_k: r of the previous step (first order, kept
                                 by the step start for em_use_gamma) */
    double *dv;               /* W p (or W r) of the last solve */
    double *Fk;               /* F(t_k, q_k, v_k) or f(t_k, x_k) */
    double *F;                /* F or f at the current linearisation point */
    double *Mq;               /* M(q) at the current linearisation point (n×n) */
    double *Winv;             /* n×n iteration matrix W⁻¹ (dense) */
    ns_matrix *Wmat;          /* dense wrapper given to ns_factor */
    ns_factor *F_W;
    int W_const;              /* 1: factorised once */
    int W_ready;
    unsigned W_version;       /* bumped at each factorisation */
    double *Wfull;            /* boundary conditions: W⁻¹ before the prescribed
                                 rows/columns were replaced by identity (n×n) */
    double *rhs0, *base;      /* boundary conditions: free-state rhs and base */
    double *bcr;              /* boundary conditions: reaction impulse (n) */
    double *w1, *w2, *w3;     /* (n) work */
    double *qth;              /* (nq) the θ-point position (forces_at_theta kinds) */
    double *J1, *J2;          /* (n×n) work, 2 n² each */
} nsm_dsdata;

typedef struct nsm_idata {
    unsigned gen;             /* model generation this data belongs to; 0 = none */
    int m;
    double *y0, *y1, *lam0, *lam1;
    const double *H;          /* current H (m×ncols) or C for first order: the
                                 relation's own when its kind stores it
                                 (stored_H: linear relations), else Hbuf */
    double *Hbuf;             /* H as evaluated (m×ncols), NULL when stored */
    double *G;                /* input matrix B (ncols×m) of first-order
                                 relations; NULL for Lagrangian ones, whose G
                                 is Hᵀ (read through nsm_idata_G) */
    unsigned H_version;       /* version of H held */
    unsigned rel_version;     /* the relation's version H was taken at (stored_H) */
    double *mem; size_t cap_mem; /* one grow-only block (doubles) holding y0, y1,
                                 lam0, lam1, y1_prev, Hbuf, G, WHt: kept when the
                                 slot is reused by a new interaction */
    double *WHt[2];           /* W_j G_j (n_j × m), only for the systems that exist */
    unsigned WHt_Wver[2], WHt_Hver[2];
    int WHt_valid[2];
    int pos;                  /* block row in the current problem, −1 if not */
    int row;                  /* first scalar row */
    int active;
    int held;                 /* active at this step and the previous one */
    double *y1_prev;          /* ẏ_k kept for Newton laws (m) */
    int proj_in;              /* projection: in this step's unilateral set (combined, hysteresis) */
    int reldeg;               /* relative degree (0, 1, 2); −1 not computed */
    double *Dcur;             /* nonlinear first order: ∂h/∂λ at the iterate (m×m) */
    double *r0;               /* nonlinear first order: g(λ^α) − B λ^α (ncols) */
    double *Wr0[2];           /* W_j r0_j (n_j) */
    double *lam_prev;         /* λ before the last solve (m) */
    double *yalpha;           /* h(X^α, λ^α) at the iterate (m) */
} nsm_idata;

/** G_ic, the input matrix (ncols × m) of an interaction's data: B, or
 *  H_ci when G = Hᵀ is not stored. */
static inline double nsm_idata_G(const nsm_idata *d, int ncols, int i, int c)
{
    return d->G ? d->G[i + (size_t)c * ncols] : d->H[c + (size_t)i * d->m];
}

struct nsm_output {
    FILE *f;
    int nds;
    int ninter;
    int *inter; unsigned *gen;
    int *ncol;                /* columns of each interaction at the header */
    const nsm_sim *sim;       /* the simulation the header was written for */
};

#endif
