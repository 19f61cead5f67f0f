/* solve.c — the solve of the assembled one-step problem: warm start from
 * the previous multipliers, ns_solve with the user's solver and options,
 * the non-convergence hook, optional dump of every problem, and the
 * multipliers copied back to the interactions. */
#include "simulation/sim_internal.h"
#include "relation/relation_kind.h"
#include <stdio.h>
#include <string.h>

/* Unknown vector(s) of the solution as one array of length nrows: copies
 * between the solution and λ (dir 0: λ → sol, 1: sol → λ). */
static void unknowns_copy(nsm_sim *s, int dir)
{
    nsm_model *m = s->model;
    ns_solution *sol = s->sol;
    for (int a = 0; a < s->nact; a++) {
        int ia = s->act[a];
        nsm_idata *d = &s->id[ia];
        double *lam = nsm_relation_kind_of(m->inter[ia].rel)->lagrangian ? d->lam1 : d->lam0;
        for (int c = 0; c < d->m; c++) {
            int r = s->row_start[a] + c;
            double *slot;
            if (s->kind == NS_KIND_MLCP && r >= s->neq) slot = &sol->vec[1][r - s->neq];
            else slot = &sol->vec[0][r];
            if (dir == 0) *slot = lam[c];
            else lam[c] = *slot;
        }
    }
}

static void dump_problem(nsm_sim *s)
{
    if (!s->dump_dir) return;
    long every = s->o.dump_every > 0 ? s->o.dump_every : 1;
    if ((s->stats.solves - 1) % every != 0) return;
    if (s->o.dump_max > 0 && s->dumped >= s->o.dump_max) return;
    char path[4096], err[NS_ERRMSG_LEN] = "";
    snprintf(path, sizeof path, "%s/%s_%08ld.dat", s->dump_dir,
             s->dump_prefix ? s->dump_prefix : "step", s->k);
    if (ns_problem_write(path, s->prob, NS_FORMAT_DAT, err) == NS_OK) s->dumped++;
    else nsm_sim_log(s, 1, "dump failed: %s", err);
}

ns_status nsm_osnsp_solve(nsm_sim *s)
{
    ns_options opt = s->o.solver_options;
    if (s->o.warm_start) {
        unknowns_copy(s, 0);
        opt.warm_start = 1;
    } else {
        for (int v = 0; v < s->sol->nvec; v++) memset(s->sol->vec[v], 0, (size_t)s->sol->len[v] * sizeof(double));
        opt.warm_start = 0;
    }
    s->stats.solves++;
    dump_problem(s);
    ns_result_clear(&s->res);
    ns_result_init(&s->res);
    ns_status rs = ns_solve(s->prob, s->kind == NS_KIND_GMP ? s->gmp_solver_name : s->solver_name,
                            &opt, s->sol, &s->res);
    s->stats.solver_seconds += s->res.seconds;
    s->stats.solver_iterations += s->res.iterations;
    if (!ns_status_is_outcome(rs)) {
        nsm_set_err(s->err, "t = %g: the %s solver failed: %s (%s)", s->t,
                    ns_kind_name(s->kind), ns_status_name(rs), s->res.message);
        return rs;
    }
    if (rs != NS_OK) {
        s->stats.nonconverged++;
        nsm_sim_log(s, 1, "t = %g: %s solve did not converge: %s, error %.3g", s->t,
                    ns_kind_name(s->kind), ns_status_name(rs), s->res.error);
        if (s->o.on_nonconvergence) {
            int rc = s->o.on_nonconvergence(s, &s->res, s->o.nonconv_user);
            if (rc < 0) {
                nsm_set_err(s->err, "t = %g: %s solve did not converge (%s, error %.3g); stopped by the hook",
                            s->t, ns_kind_name(s->kind), ns_status_name(rs), s->res.error);
                return NS_DIVERGED;
            }
        }
    }
    unknowns_copy(s, 1);
    s->solved_this_step = 1;
    return NS_OK;
}
