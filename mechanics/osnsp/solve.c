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
            else if (s->kind == NS_KIND_GFC2D || s->kind == NS_KIND_GFC3D) slot = &sol->vec[2][r];   /* v, u, r */
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
    const char *name = s->solver_name;
    if (s->kind == NS_KIND_GMP) name = s->gmp_solver_name;
    else if (s->kind == NS_KIND_GFC2D || s->kind == NS_KIND_GFC3D)   /* global_fc: never the reduction */
        name = s->solver_name && nsm_spec_applies(s->solver_name, s->kind) ? s->solver_name : "chain";
    if (!s->ws) s->ws = ns_workspace_new();   /* NULL: the solver allocates per solve */
    if (!opt.workspace) opt.workspace = s->ws;
    nsm_solve_settings cur = { name, opt };
    nsm_retry R = { "time-stepping", "one-step", s->k, s->t, s->o.solve_hook, s->o.solve_hook_user,
                    s->o.log, s->o.log_user, 0, 0, 0, 0, 0, 0.0, NSM_HOOK_STOP };
    ns_status rs = nsm_solve_retry(s->prob, &cur, s->sol, &s->res, &R, s->err);
    s->stats.solver_seconds += R.seconds;
    s->stats.solver_iterations += R.iterations;
    s->stats.retries += R.retries;
    if (rs != NS_OK) {
        const char *sname = cur.solver ? cur.solver : "default";
        if (R.bad_hook) return rs;   /* the hook's settings: s->err says why */
        if (!ns_status_is_outcome(rs)) {
            nsm_set_err(s->err, "step %ld, t = %.17g: the %s solver '%s' failed: %s (%s)", s->k, s->t,
                        ns_kind_name(s->kind), sname, ns_status_name(rs), s->res.message);
            return rs;
        }
        nsm_hook_action act = R.action;
        if (!R.hooked) {
            if (s->o.on_nonconvergence)
                act = s->o.on_nonconvergence(s, &s->res, s->o.nonconv_user) < 0 ? NSM_HOOK_STOP : NSM_HOOK_ACCEPT;
            else
                act = s->o.accept_nonconverged ? NSM_HOOK_ACCEPT : NSM_HOOK_STOP;
        }
        if (act == NSM_HOOK_STOP) {
            nsm_set_err(s->err, "step %ld, t = %.17g: the %s problem (%d rows) did not converge with solver '%s': "
                        "%s, error %.3g > tol %.3g after %d iterations%s",
                        s->k, s->t, ns_kind_name(s->kind), s->nrows, sname, ns_status_name(rs),
                        s->res.error, cur.options.tol, s->res.iterations,
                        s->o.solve_hook || s->o.on_nonconvergence ? " (stopped by the hook)"
                                                                   : " (accept_nonconverged = 1 accepts such steps)");
            return s->o.on_nonconvergence && !s->o.solve_hook ? NS_DIVERGED : rs;
        }
        s->stats.nonconverged++;
    }
    unknowns_copy(s, 1);
    s->solved_this_step = 1;
    return NS_OK;
}
