/* event_driven_internal.h — data of the event-driven simulation (nsm_ed)
 * shared by simulation/event_driven*.c, events.c and cvode_bridge.c.
 * Private to the mechanics library. */
#ifndef NSM_EVENT_DRIVEN_INTERNAL_H
#define NSM_EVENT_DRIVEN_INTERNAL_H
#include "nsm_internal.h"
#include "nonsmooth/nsm_event_driven.h"

/* ---- events manager (events.c) ---- */
typedef struct nsm_events {
    double t0, T, dt;
    long k_td;                 /* index of the next time-discretisation event */
    long n_td;                 /* number of them (the last at T) */
    nsm_event *pend; int npend, cap_pend;  /* user + nonsmooth, sorted by t */
    nsm_event current; int have_current;
    nsm_event *past; long cap_past, npast; /* ring of the last cap_past */
} nsm_events;

int nsm_events_init(nsm_events *e, double t0, double T, double dt, long history);
void nsm_events_free(nsm_events *e);
/** Peek the next event (time events and pending ones merged); 0 if none. */
int nsm_events_peek(const nsm_events *e, nsm_event *ev);
/** Schedule an event (user or nonsmooth). 0 ok, −1 no memory. */
int nsm_events_schedule(nsm_events *e, const nsm_event *ev);
/** Pop the next event: the current one moves to the past, the popped one
 *  becomes current (returned in *ev). 0 if none. */
int nsm_events_pop(nsm_events *e, nsm_event *ev);
/** Replace the current event's content (after processing filled it). */
void nsm_events_set_current(nsm_events *e, const nsm_event *ev);

/* ---- CVODE bridge (cvode_bridge.c) ---- */
typedef struct nsm_cvode nsm_cvode;
nsm_cvode *nsm_cvode_new(nsm_ed *s, char *err);
void nsm_cvode_free(nsm_cvode *c);
/** Integrates from the current (t, x) towards tout. Returns 0 (reached
 *  tout), NSM_ED_ROOT_RETURN (stopped at a root: t, x there, rootsfound
 *  filled) or −1 (message in s->err). */
int nsm_cvode_advance(nsm_cvode *c, double tout);
/** Next advance starts afresh from s->t, s->x. */
void nsm_cvode_mark_reinit(nsm_cvode *c);
/** Adds CVODE's counters of the current run to the statistics. */
void nsm_cvode_collect_stats(nsm_cvode *c);

/* ---- the simulation ---- */
typedef struct nsm_ed_crow {
    int inter, comp;
    double e;
} nsm_ed_crow;

typedef struct nsm_ed_inter {
    int m, ncols, first_row;
    double *H;          /* (m × ncols) ∇h at the last kinematics */
    double *Q, *V;      /* (ncols) gathered coordinates / velocities */
    double *work;       /* (4 m + ncols) evaluation work, then (m ncols + ncols) for γ's differences */
    double *y0, *y1, *y2, *lam1, *lam2; /* (m) views into the row arrays */
} nsm_ed_inter;

struct nsm_ed {
    nsm_model *model;          /* borrowed */
    nsm_ed_options o;
    char *solver_name;
    double t;
    int nd, ntot;              /* systems; Σ n_j */
    int *qoff;                 /* (nd) offset of system j in q (and v) */
    double *x;                 /* (2 ntot): q then v */
    double *acc;               /* (ntot) q̈ of the last acceleration solve */
    double *qdd;               /* (ntot) q̈ at the current event (nsm_ed_acceleration) */
    double *force;             /* (ntot) work */
    ns_matrix **Mmat;          /* (nd) M_j (dense n_j × n_j); NULL for a
                                  system with sparse matrices (ds->Ms) */
    ns_factor **MF;            /* (nd) its factorisation (ns_factor) */
    double **dswork;           /* (nd) evaluation work of system j */
    const double **vq, **vv;   /* (nd) views into x for gathering */
    int *mconst;               /* (nd) 1: LTI, factorised once */
    int ninter_slots;
    nsm_ed_inter *in;          /* (ninter_slots); m = 0 for dead slots */
    int nrows;
    nsm_ed_crow *rows;
    double *y0, *y1, *y2, *lam1, *lam2, *gamma; /* (nrows) */
    unsigned char *in1, *in2;  /* (nrows) index sets per row */
    unsigned char *releasing;  /* (nrows) the release root fired */
    double *gshift;            /* (nrows) g = y[0] − gshift outside I2, set at
                                  each (re)start: −gap_tol for a row touching
                                  with zero relative velocity (a penetration
                                  beyond gap_tol is caught although y[0] may
                                  start ≤ 0), 0 otherwise */
    double *MinvHt;            /* (nrows × ntot) M⁻¹ ∇h_rowᵀ over all q */
    /* dense LCP work (nrows × nrows) */
    double *W, *qv, *z, *w;
    int *sel;
    int *rootsfound;           /* (nrows) */
    nsm_events ev;
    nsm_cvode *cv;
    nsm_ed_stats stats;
    ns_status lcp_status;      /* the last LCP refused since the advance began (NS_OK:
                                  none; read only when the advance fails) */
    ns_problem *lcp_p;         /* the LCP of the last size solved (kept while the size holds) */
    ns_solution *lcp_sol;
    char err[NS_ERRMSG_LEN];
};

/* event_driven_kin.c: kinematics and the two LCPs */
/** y[0], y[1] (and ∇h) of every row at (t, x); with level 2 also γ. */
int nsm_ed_kinematics(nsm_ed *s, double t, const double *x, int level);
/** q̈ into acc from (t, x): free accelerations plus the acceleration LCP
 *  over I2 (fills y2, lam2 of every row). 0 ok, >0 recoverable, <0 stop. */
int nsm_ed_accelerations(nsm_ed *s, double t, const double *x, double *acc);
int nsm_ed_consistent_accelerations(nsm_ed *s);
/** Impact LCP over the rows with in1 set; e_eff per row from rest_vel.
 *  Velocities in x updated; lam1 filled. Returns 0 or −1. */
int nsm_ed_impact(nsm_ed *s, int *nrest);
/** y[2] = ∇h q̈ + γ of the rows outside I2 from s->acc at (s->t, s->x). */
int nsm_ed_relative_accelerations(nsm_ed *s);
/** Velocity projection: v += M⁻¹ ∇h_Pᵀ μ with W_PP μ = −y[1]_P over the
 *  marked rows P (contacts closed at rest with a relative velocity below
 *  the integrator's resolution). 0, or −1 (W_PP singular: nothing done). */
int nsm_ed_project_velocities(nsm_ed *s, const unsigned char *mark);
/** gshift of every row from the state at s->t (before a CVODE restart). */
int nsm_ed_root_shifts(nsm_ed *s);
/** Factorisation of M_j(q) (0, or nonzero with s->err set). */
int nsm_ed_factor_mass(nsm_ed *s, int j, const double *q);
void nsm_ed_log(nsm_ed *s, int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
