/* solve_retry.c — the solve-and-retry loop shared by the time-stepping's
 * one-step problem (osnsp/solve.c) and the event-driven scheme's impact
 * and acceleration LCPs (simulation/event_driven_kin.c): one ns_solve, and
 * when it ends without converging, the user's solve hook decides —
 * accept, stop, or retry with other settings (checked here, so that both
 * schemes refuse the same bad settings with the same message). What the
 * caller does with an accepted or stopped solve (counters, messages,
 * accept_nonconverged when there is no hook) stays with the caller. */
#include "nsm_internal.h"
#include <stdio.h>

enum { MAX_SOLVES = 16 };

/* "step k, t = …" (time-stepping) or "t = …, impact LCP" (event-driven) */
static void where(const nsm_retry *R, const ns_problem *p, char *buf, size_t len)
{
    if (R->step >= 0) snprintf(buf, len, "step %ld, t = %.17g", R->step, R->t);
    else snprintf(buf, len, "t = %.17g, %s %s problem", R->t, R->what, ns_kind_name(p->kind));
}

ns_status nsm_solve_retry(const ns_problem *p, nsm_solve_settings *cur, ns_solution *sol,
                          ns_result *res, nsm_retry *R, char *err)
{
    R->attempts = R->retries = R->hooked = R->bad_hook = 0;
    R->iterations = 0;
    R->seconds = 0.0;
    R->action = NSM_HOOK_STOP;
    ns_workspace *ws = cur->options.workspace;   /* kept for the retries (a hook may reset the options) */
    for (;;) {
        ns_result_clear(res);
        ns_result_init(res);
        /* cur->solver is a solver spec NAME[/key=value]...: its keys are
         * applied over cur->options for this solve */
        ns_options so = cur->options;
        char sname[NS_SOLVER_NAME_LEN];
        const char *name = cur->solver;
        if (name && ns_solver_spec_parse(name, p->kind, sname, sizeof sname, &so, NULL) == NS_OK)
            name = sname;
        else so = cur->options;   /* not this kind's: ns_solve says so (not_found) */
        ns_status st = ns_solve(p, name, &so, sol, res);
        R->attempts++;
        R->seconds += res->seconds;
        R->iterations += res->iterations;
        if (st == NS_OK || !ns_status_is_outcome(st)) return st;
        char at[96];
        where(R, p, at, sizeof at);
        if (R->log) {
            char msg[NS_ERRMSG_LEN];
            snprintf(msg, sizeof msg, "%s: %s solve (%s) did not converge: %s, error %.3g", at,
                     ns_kind_name(p->kind), cur->solver ? cur->solver : "default", ns_status_name(st), res->error);
            R->log(R->log_user, 1, msg);
        }
        if (!R->hook) return st;
        nsm_solve_info info = { R->scheme, R->what, R->step, R->t, p, res, cur->solver, R->attempts - 1 };
        nsm_solve_settings next = *cur;
        nsm_hook_action act = R->hook(&info, &next, R->hook_user);
        R->hooked = 1;
        if (act != NSM_HOOK_RETRY) {
            R->action = act == NSM_HOOK_ACCEPT ? NSM_HOOK_ACCEPT : NSM_HOOK_STOP;
            return st;
        }
        if (R->attempts >= MAX_SOLVES) {   /* too many attempts: stop */
            R->action = NSM_HOOK_STOP;
            return st;
        }
        char e2[NS_ERRMSG_LEN] = "";
        if (ns_options_validate(&next.options, e2) != NS_OK) {
            nsm_set_err(err, "%s: the solve hook gave bad options: %s", at, e2);
            R->bad_hook = 1;
            return NS_BAD_INPUT;
        }
        ns_options scratch = next.options;
        char sname2[NS_SOLVER_NAME_LEN];
        if (next.solver && ns_solver_spec_parse(next.solver, p->kind, sname2, sizeof sname2,
                                                &scratch, NULL) != NS_OK) {
            nsm_set_err(err, "%s: the solve hook asked for '%s', not a %s solver", at, next.solver,
                        ns_kind_name(p->kind));
            R->bad_hook = 1;
            return NS_BAD_INPUT;
        }
        *cur = next;
        if (!cur->options.workspace) cur->options.workspace = ws;
        R->retries++;
    }
}
