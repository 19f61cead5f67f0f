/* sim_internal.h — the simulation data (nsm_sim) shared by osi/, osnsp/
 * and simulation/. Private to the mechanics library. */
#ifndef NSM_SIM_INTERNAL_H
#define NSM_SIM_INTERNAL_H
#include "nsm_internal.h"

struct nsm_sim {
    nsm_model *model;                  /* borrowed */
    nsm_sim_options o;
    char *solver_name, *dump_dir, *dump_prefix;  /* owned copies */
    double t, h, theta;
    long k;
    nsm_dsdata *d; int nd;
    nsm_idata *id; int cap_id;
    /* one-step problem */
    int *act; unsigned *act_gen; int nact, cap_act;
    int nact_prev;                     /* length of the previous active list */
    int *prev_act; unsigned *prev_gen; int cap_prev;
    int have_problem;                  /* prob built for prev_act */
    ns_problem *prob;
    ns_solution *sol;
    ns_kind kind;
    int neq;                           /* MLCP: equality rows first */
    int nrows;
    ns_int *row_start, *row_ptr, *block_col; int cap_rs, cap_bc;
    int *scratch; int cap_scratch;
    double *qvec; int cap_q;
    double *xbuf; int cap_x;
    int solved_this_step;
    ns_result res;
    nsm_sim_stats stats;
    long dumped;
    char err[NS_ERRMSG_LEN];
};

/* osi/moreau_jean.c */
ns_status nsm_mj_build_W(nsm_sim *s, int j, double t);
ns_status nsm_mj_free_state(nsm_sim *s, int j);
/* osi/euler_moreau.c */
ns_status nsm_em_build_W(nsm_sim *s, int j, double t);
ns_status nsm_em_free_state(nsm_sim *s, int j);
/* osnsp/osnsp.c */
ns_status nsm_osnsp_prepare_interactions(nsm_sim *s);
ns_status nsm_osnsp_assemble_and_solve(nsm_sim *s);
ns_status nsm_osnsp_refresh_outputs(nsm_sim *s);
nsm_idata *nsm_sim_idata(nsm_sim *s, int inter);
void nsm_sim_log(nsm_sim *s, int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
