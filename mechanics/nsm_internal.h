/* nsm_internal.h — private structures of libnonsmooth_mechanics.
 * Included by mechanics/ sources only. */
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
    double *q0, *v0;          /* Lagrangian initial state (n) */
    double *x0;               /* first-order initial state (n) */
    double *M, *C, *K;        /* LTI (n×n); C, K NULL = zero */
    double *A;                /* first-order LTI (n×n) */
    double *fext_const;       /* (n) or NULL */
    nsm_lagrangian_fns lag;   /* nonlinear Lagrangian; lag.fext also LTI */
    nsm_vector_field_fn f;    /* first-order nonlinear */
    nsm_matrix_fn jac;        /* first-order nonlinear Jacobian / A(t) */
    nsm_time_fn b;            /* first-order b(t) */
    void *user;               /* first-order callbacks' user pointer */
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
    double *C, *D, *B, *e;    /* first-order linear; D, e may be NULL */
    unsigned version;         /* bumped when H/b change */
};

struct nsm_nslaw {
    nsm_nslaw_type type;
    int size;
    double e, mu;
    double *lb, *ub;
};

typedef struct nsm_interaction {
    int alive;
    unsigned gen;
    nsm_relation *rel;
    int law;
    int nds;
    int ds[2];
    int off[2];               /* column offset of each system in Q */
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
void nsm_set_err(char *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- simulation data ---- */
typedef struct nsm_dsdata {
    int n;
    int lagrangian;
    double *q, *v;            /* Lagrangian state; x uses q */
    double *qk, *vk;          /* state at t_k */
    double *free;             /* v_free or x_free */
    double *p;                /* p or r of the last step */
    double *Winv;             /* n×n iteration matrix W⁻¹ (dense) */
    ns_matrix *Wmat;          /* dense wrapper given to ns_factor */
    ns_factor *F;
    int W_const;              /* 1: factorised once */
    int W_ready;
    unsigned W_version;       /* bumped at each factorisation */
    double *w1, *w2, *w3;     /* (n) work */
    double *J1, *J2;          /* (n×n) work */
} nsm_dsdata;

typedef struct nsm_idata {
    unsigned gen;             /* model generation this data belongs to; 0 = none */
    int m;
    double *y0, *y1, *lam0, *lam1;
    double *H;                /* current H (m×ncols) or C for first order */
    unsigned H_version;       /* version of H held */
    double *WHt[2];           /* W_j H_jᵀ (n_j × m) or W_j B_j (first order) */
    unsigned WHt_Wver[2], WHt_Hver[2];
    int WHt_valid[2];
    int pos;                  /* block row in the current problem, −1 if not */
    int row;                  /* first scalar row */
    int active;
    double *y1_prev;          /* ẏ_k kept for Newton laws (m) */
} nsm_idata;

struct nsm_output {
    FILE *f;
    int nds;
    int ninter;
    int *inter; unsigned *gen;
};

#endif
