/* sim_internal.h — the simulation data (nsm_sim) shared by osnsp/ and
 * simulation/. Private to the mechanics library. The integrators (osi/)
 * never see it: they get a system and its data (osi/osi.h). */
#ifndef NSM_SIM_INTERNAL_H
#define NSM_SIM_INTERNAL_H
#include "nsm_internal.h"
#include "osi/osi.h"

struct nsm_sim {
    nsm_model *model;                  /* borrowed */
    nsm_sim_options o;
    char *solver_name, *dump_dir, *dump_prefix, *gmp_solver_name;  /* owned copies */
    double t, h, theta;
    long k;
    nsm_dsdata *d; int nd;
    const double **vq, **vv, **vfree, **vqk, **vvk; /* (nd) per-system views for gathering */
    const double **vqth;               /* (nd) θ-point positions (d->qth; d->q for kinds
                                          without forces_at_theta) */
    nsm_step step;                     /* the step in progress */
    int newton;                        /* some system is nonlinear: iterate */
    nsm_idata *id; int cap_id;
    /* one-step problem */
    int *act; unsigned *act_gen; int nact, cap_act;
    int *ord_tmp; size_t cap_ord;   /* order_by_system: counts + copies */
    int nact_prev;                     /* length of the previous active list */
    int *prev_act; unsigned *prev_gen; int cap_prev;
    int have_problem;                  /* prob built for prev_act */
    ns_problem *prob;
    ns_solution *sol;
    ns_kind kind;
    int neq;                           /* MLCP: equality rows first */
    int nrows;
    ns_int *row_start, *row_ptr, *block_col; int cap_rs, cap_rp, cap_bc;
    int *scratch; int cap_scratch;
    double *qvec; int cap_q;           /* evaluation work */
    double *qbuf; int cap_qb;          /* q of the one-step problem */
    double *xbuf; int cap_x;
    double *xbuf_H; int cap_H;         /* H as evaluated, before it is kept */
    int solved_this_step;
    int step_begun;           /* qk (vk) hold the states of t_k of this step */
    ns_result res;
    ns_workspace *ws;                  /* the solver's reusable buffers, given to every
                                          one-step solve (unless the user's options
                                          carry a workspace of their own) */
    nsm_sim_stats stats;
    long dumped;
    void *proj_rows; int cap_proj;     /* position projection rows (projection.c) */
    int global;                        /* the step's problem is a GFC (gfc.c) */
    int *gfc_off;                      /* (nd) offset of each system in the GFC's v, −1 if absent */
    char err[NS_ERRMSG_LEN];
};

/** t_(k+1) = t0 + (k + 1) h, as t_k = t0 + k h (nsm_sim_next_step): not
 *  t_k + h, which can differ by an ulp and put a time-sampled input on the
 *  other side of a discontinuity at a grid time. */
static inline double nsm_sim_t_next(const nsm_sim *s)
{
    return s->o.t0 + (double)(s->k + 1) * s->h;
}

/* osnsp/interactions.c */
nsm_idata *nsm_sim_idata(nsm_sim *s, int inter);
void nsm_idata_free(nsm_idata *d);
/** y (and H, G) of every live interaction at the state `which` (0: the
 *  current iterate q, v / x; 1: the step start q_k, v_k / x_k) at time t. */
ns_status nsm_osnsp_refresh_outputs(nsm_sim *s, int which, double t);
/** H and G of the active interactions with a nonlinear relation at the
 *  current iterate (Newton linearisation point), time t. */
ns_status nsm_osnsp_linearise(nsm_sim *s, double t);
/* Largest relative change of the discrete-gradient H (relation_kind.h
 * mean_jacobian) of the active equality rows between the iterate it was
 * taken at and the current one (0: none); −1: out of memory. */
double nsm_osnsp_mean_jacobian_change(nsm_sim *s);
/** y of interaction inter at the current iterate (borrowed, valid until
 *  the next evaluation). H, G are refreshed there too. */
ns_status nsm_osnsp_output_at_iterate(nsm_sim *s, int inter, const double **y);
int nsm_grow(void **p, int *cap, int need, size_t elt);
ns_status nsm_sim_work(nsm_sim *s, int n);
/* osnsp/index_set.c */
ns_status nsm_osnsp_prepare_interactions(nsm_sim *s);
/* osnsp/assembly.c */
ns_status nsm_osnsp_assemble(nsm_sim *s);
/* osnsp/projection.c: position projection after the velocity step, on
 * the interactions of the step's problem (options projection_*) */
ns_status nsm_projection_run(nsm_sim *s);
/* osnsp/gmp.c: the generic mechanical problem of the active set (takes M) */
ns_problem *nsm_gmp_problem(nsm_sim *s, ns_matrix *M, const double *q);
/* osnsp/assembly.c: q_α of one active interaction */
ns_status nsm_osnsp_q_block(nsm_sim *s, int ia, double *qa);
/* osnsp/gfc.c: the global friction-contact problem of the active set
 * (option global_fc); sets s->prob, s->sol, s->kind, s->global */
ns_status nsm_gfc_assemble(nsm_sim *s, ns_kind fckind);
/* osnsp/solve.c */
ns_status nsm_osnsp_solve(nsm_sim *s);
void nsm_sim_log(nsm_sim *s, int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
