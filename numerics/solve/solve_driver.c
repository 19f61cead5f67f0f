/* solve_driver.c — the solve driver (the floor above the kinds; core/ keeps the shared utilities): validate, dispatch, recompute the error
 * with the kind's error function, fill ns_result. */
#include "nonsmooth/ns_solver.h"
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include "problems/kind_ops.h"
#include "solve/certificate.h"
#include "fc/fc3d_internal.h"
#include <stdio.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static ns_status finish(ns_result *res, ns_status st, const char *msg)
{
    res->status = st;
    if (msg) {
        strncpy(res->message, msg, NS_ERRMSG_LEN - 1);
        res->message[NS_ERRMSG_LEN - 1] = '\0';
    }
    return st;
}

static ns_status check_solution(const ns_problem *p, const ns_solution *sol,
                                char *err)
{
    if (!sol) return ns_fail(err, NS_BAD_INPUT, "solve: no solution vectors given");
    if (sol->kind != p->kind)
        return ns_fail(err, NS_BAD_INPUT, "solve: solution is for %s, problem is %s",
                       ns_kind_name(sol->kind), ns_kind_name(p->kind));
    ns_solution ref;
    ns_status st = NS_OK;
    if (!ns_solution_layout(p, &ref) || ref.nvec != sol->nvec) st = NS_BAD_INPUT;
    for (int k = 0; !st && k < ref.nvec; k++)
        if (ref.len[k] != sol->len[k] || !sol->vec[k]) st = NS_BAD_INPUT;
    if (st) return ns_fail(err, st, "solve: solution vectors do not fit the problem "
                           "(use ns_solution_new)");
    return NS_OK;
}

static ns_status dispatch(const ns_solver_info *s, const ns_problem *p,
                          ns_solution *sol, const ns_options *o, ns_result *res)
{
    const ns_kind_ops *k = ns_kind_ops_of(p->kind);
    if (!k) return ns_fail(res->message, NS_BAD_INPUT, "solve: unknown kind");
    return k->dispatch(s, p, sol, o, res);
}

/* Unknowns are the leading vectors: all but the last for every kind with a
 * dependent vector (lcp z | w, fc r | u, ...), gfc: v and r. */
static void zero_unknowns(ns_solution *sol)
{
    for (int k = 0; k < sol->nvec; k++)
        memset(sol->vec[k], 0, (size_t)sol->len[k] * sizeof(double));
}

static int all_finite(const ns_solution *sol)
{
    for (int k = 0; k < sol->nvec; k++)
        if (!ns_all_finite(sol->vec[k], (size_t)sol->len[k])) return 0;
    return 1;
}

/* A friction-contact point within tol whose contacts still approach: the
 * relative error divides by max(‖q‖, ‖r‖, ‖u‖), so when ‖r‖ ≫ ‖u‖ it can
 * reach tol long before û_N ≥ 0 holds to the velocities' scale. The same
 * solver is run again from that point (warm start) with a tol lowered in
 * proportion to the violation, at most four times, within what is left of
 * max_iter and time_limit; a round is kept only if its point stays within
 * the caller's tol and lowers the violation (else the previous point comes
 * back). Returns the violation of the point left in sol (u recomputed). */
static double continue_finer(const ns_solver_info *info, const ns_problem *p, ns_solution *sol,
                             const ns_options *eff, ns_result *res, double t0, double v,
                             ns_int *worst)
{
    const double allowed = NS_FC_VELOCITY_FACTOR * eff->tol;
    const size_t m = (size_t)sol->len[0];
    double *keep = malloc(m * sizeof *keep);
    if (!keep) return v;
    double tol = eff->tol;
    for (int round = 0; round < 4 && v > allowed; round++) {
        ns_options e2 = *eff;
        e2.warm_start = 1;
        e2.record_history = 0;
        e2.verbosity = 0;
        e2.max_iter = eff->max_iter - res->iterations;
        if (e2.max_iter <= 0) break;
        if (eff->time_limit > 0) {
            e2.time_limit = eff->time_limit - (ns_now() - t0);
            if (e2.time_limit <= 0) break;
        }
        double f = allowed / v;   /* the violation falls about as the error does */
        tol *= f < 1e-3 ? 1e-3 : f > 0.1 ? 0.1 : f;
        if (tol < 1e-15) tol = 1e-15;
        e2.tol = tol;
        memcpy(keep, sol->vec[0], m * sizeof *keep);
        ns_result r2;
        ns_result_init(&r2);
        ns_status s2 = dispatch(info, p, sol, &e2, &r2);
        res->iterations += r2.iterations;
        ns_result_clear(&r2);
        double e = ns_status_is_outcome(s2) && all_finite(sol) ? ns_problem_error(p, sol) : INFINITY;
        ns_int c2 = *worst;
        double v2 = e <= eff->tol ? ns_fc_velocity_violation(p->u.fc, sol->vec[1], &c2) : INFINITY;
        if (!(v2 < v)) {   /* no better: the previous point stands */
            memcpy(sol->vec[0], keep, m * sizeof *keep);
            res->error = ns_problem_error(p, sol);
            break;
        }
        v = v2;
        *worst = c2;
        res->error = e;
    }
    free(keep);
    return v;
}

ns_status ns_solve(const ns_problem *p, const char *solver, const ns_options *o,
                   ns_solution *sol, ns_result *res)
{
    ns_result dummy;
    if (!res) res = &dummy;
    ns_result_init(res);
    res->error = INFINITY;
    ns_options def;
    if (!o) { ns_options_default(&def); o = &def; }
    ns_status st;
    if (!p) return finish(res, NS_BAD_INPUT, "solve: no problem given");
    if ((st = ns_options_validate(o, res->message))) return finish(res, st, NULL);
    if ((st = ns_problem_validate(p, res->message))) return finish(res, st, NULL);
    if ((st = check_solution(p, sol, res->message))) return finish(res, st, NULL);

    const ns_solver_info *info = solver ? ns_solver_find(solver, p->kind)
                                        : ns_solver_default(p->kind);
    if (!info) {
        ns_fail(res->message, NS_NOT_FOUND,
                solver ? "solve: no solver '%s' for %s problems"
                       : "solve: %sno default solver for %s problems yet",
                solver ? solver : "", ns_kind_name(p->kind));
        return finish(res, NS_NOT_FOUND, NULL);
    }
    ns_options eff = *o;
    if (eff.max_iter == 0) eff.max_iter = info->default_max_iter;
    if (!eff.warm_start) zero_unknowns(sol);
    else if (!all_finite(sol))
        return finish(res, NS_BAD_INPUT, "solve: warm start holds NaN or Inf");

    size_t unknowns = 0;
    for (int k = 0; k < sol->nvec; k++) unknowns += (size_t)sol->len[k];
    if (unknowns == 0) {   /* an empty problem: solved as it is, no solver called */
        res->error = ns_problem_error(p, sol);
        return finish(res, isfinite(res->error) && res->error <= eff.tol ? NS_CONVERGED : NS_FAILED, NULL);
    }
    if (eff.record_history && res != &dummy &&
        !(res->history = malloc(NS_HISTORY_FIRST * sizeof *res->history)))
        return finish(res, NS_NO_MEMORY, "solve: out of memory for the history");
    double t0 = ns_now();
    st = dispatch(info, p, sol, &eff, res);
    res->seconds = ns_now() - t0;
    if (!res->method[0]) {   /* (a copy: snprintf cost a sub-µs solve as much again) */
        size_t l = strlen(info->name);
        if (l >= sizeof res->method) l = sizeof res->method - 1;
        memcpy(res->method, info->name, l);
        res->method[l] = '\0';
    }
    if (!ns_status_is_outcome(st)) return finish(res, st, NULL);

    /* The error that counts is the kind's, recomputed from the unknowns. */
    res->error = ns_problem_error(p, sol);
    if (!all_finite(sol) || !isfinite(res->error)) {
        zero_unknowns(sol);
        res->error = ns_problem_error(p, sol);
        if (st == NS_CONVERGED || st == NS_MAX_ITER || st == NS_TIME_LIMIT)
            st = NS_DIVERGED;
        return finish(res, st, res->message[0] ? NULL
                      : "iterates became NaN or Inf; solution reset to zero");
    }
    /* no_solution only with a certificate checked here, on the problem's
     * own data: the solver's, else one found by the Farkas search */
    /* a solver that met a singular matrix but returns a point that solves
     * the problem (e.g. a relay whose box is one point) solved it */
    if (st == NS_SINGULAR && res->error <= eff.tol) {
        st = NS_CONVERGED;
        res->message[0] = '\0';
    }
    if (st == NS_NO_SOLUTION && res->error <= eff.tol) {
        st = NS_CONVERGED;
        res->message[0] = '\0';
    }
    if (st == NS_NO_SOLUTION) {
        char why[NS_ERRMSG_LEN] = "", why2[NS_ERRMSG_LEN] = "";
        ns_status cs = NS_FAILED;
        if (res->cert.kind != NS_CERT_NONE) cs = ns_certificate_check(p, &res->cert, why);
        if (cs != NS_OK && (p->kind == NS_KIND_LCP || p->kind == NS_KIND_MLCP ||
                            p->kind == NS_KIND_RELAY)) {
            cs = ns_certificate_search(p, &res->cert, &eff, why2);
            if (cs == NS_OK) ns_log(&eff, 1, "%s: certificate from the Farkas search", info->name);
        }
        if (cs != NS_OK) {
            char reason[160];
            snprintf(reason, sizeof reason, "%.150s", res->message[0] ? res->message : "no reason given");
            if (cs == NS_BAD_INPUT && res->cert.kind != NS_CERT_NONE)
                /* a kind without certificates of its own (AVI): whatever the
                 * solver proved on a reformulation, nothing can be checked
                 * on this problem's data, so the verdict is not given */
                snprintf(res->message, sizeof res->message, "%s: its reformulation has no "
                         "solution (%.150s); %s problems have no certificate the library can "
                         "check on their own data, so the status is failed, not no_solution",
                         info->name, reason, ns_kind_name(p->kind));
            else
                snprintf(res->message, sizeof res->message, "%s reported no solution (%.150s) but no "
                         "certificate checks (%.120s%s%.120s)", info->name, reason,
                         why[0] ? why : "", why[0] && why2[0] ? "; " : "", why2);
            free(res->cert.y);
            memset(&res->cert, 0, sizeof res->cert);
            return finish(res, NS_FAILED, NULL);
        }
    } else if (res->cert.kind != NS_CERT_NONE) {   /* a solution or no verdict */
        free(res->cert.y);
        memset(&res->cert, 0, sizeof res->cert);
    }
    if (st == NS_CONVERGED && res->error > eff.tol) {
        st = NS_MAX_ITER;
        if (!res->message[0])
            ns_fail(res->message, st, "%s stopped on its own criterion but the "
                    "recomputed error %.3g is above tol %.3g", info->name,
                    res->error, eff.tol);
    } else if ((st == NS_MAX_ITER || st == NS_TIME_LIMIT) && res->error <= eff.tol) {
        st = NS_CONVERGED;
    }
    if (st == NS_CONVERGED && (p->kind == NS_KIND_FC2D || p->kind == NS_KIND_FC3D)) {
        ns_int c;
        double v = ns_fc_velocity_violation(p->u.fc, sol->vec[1], &c);
        if (v > NS_FC_VELOCITY_FACTOR * eff.tol) {
            v = continue_finer(info, p, sol, &eff, res, t0, v, &c);
            res->seconds = ns_now() - t0;
        }
        if (v > NS_FC_VELOCITY_FACTOR * eff.tol) {
            st = NS_MAX_ITER;
            ns_fail(res->message, st, "%s: the relative error %.3g is within tol %.3g but contact %ld "
                    "penetrates: its normal velocity is %.3g of the velocities' scale below 0 "
                    "(docs/errors.md, velocity check)", info->name, res->error, eff.tol, (long)c, v);
        }
    }
    return finish(res, st, NULL);
}
