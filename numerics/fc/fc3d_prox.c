/* fc3d_prox.c — proximal point for FC2D/FC3D:
 *     r_{k+1} solves the FC problem (W + σ_k I, q − σ_k r_k, μ),
 * i.e. u + σ_k (r − r_k) = W r + q with the Coulomb law, whose fixed
 * points r_{k+1} = r_k are the solutions of (W, q, μ). Each regularised
 * problem (better conditioned: W + σI) is solved by the global Newton
 * nsn-ac, then by nsgs-ac (PROX_SWEEPS sweeps) when Newton misses, to the
 * inner tolerance max(0.1·tol, 0.1·e_k) on its own error. Adaptive σ: σ_0 = max_α W_αα,NN;
 * σ ← max(min(σ/10, PROX_FOLLOW·e·σ_0), 1e-14·σ_0) after an inner success,
 * e the FC error of the original problem (ns_fc_error; it need not fall
 * monotonically along the prox path): close to the solution σ follows the
 * error down, as Siconos' proximal point does (σ = α·e), one outer step
 * fewer than σ/10 alone on most small problems of ../shared/data (the
 * Rover files take 4); after an inner failure the step is undone, σ ← 10σ,
 * and σ is then held for 5 successful steps before it is lowered again (lowering it at
 * once made the solve alternate between a failing σ and a working one,
 * every other step wasted: from the same start RockPile_tob1 went from
 * 1e-6 to 9e-7 in 60 s, with the hold to 5e-8; from zero prox now solves
 * it, ~320 steps). The best iterate is returned. max_iter counts the
 * outer steps. The regularised copy of W is made once per solve, and so are
 * the inner Newton's J pattern and UMFPACK analysis (W + σI has W's
 * pattern whatever σ); the inner sweeps allocate their workspace per
 * call. The inner Newton takes its steps by GMRES preconditioned with the
 * last factorization where that converges in a few iterations, and
 * factors J only where it does not (fc3d_nsn.c, "lagged steps"): J moves
 * little from one inner iteration or solve to the next. On the settled
 * 2 393-contact pile (7 179 unknowns), from the same start, 2.2 times
 * faster: 679 of 728 steps lagged, 8 GMRES iterations each. A solve that
 * reaches its time limit inside an inner solve ends there. Registered as
 * "prox". */
#include "fc/fc3d_internal.h"
#include "fc/fc3d_vi.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The inner Newton hands over to nsgs-ac after this many iterations
 * without a 10 % gain: on Capsules-i101-404 it crept from 1.72e-6 to
 * 1.71e-6 in 44 more steps (of 50) at σ = 3.6e-5 before the sweeps took
 * over; 5 cut short inner solves that converge after a slow start
 * (Capsules-i100-889: 7 outer steps became 17). */
enum { PROX_STALL = 10 };

/* The sweeps that take over from a stalled inner Newton get this many:
 * where they succeed on ../shared/data they need 2-194 (fc2d 00727: 194),
 * where they fail they spent all of them (1000 before: two such failures
 * were 10 % of spheres_box_n100_step1800's solve, and a quarter of
 * fc2d_granularflowonwall_07002_00801's). */
enum { PROX_SWEEPS = 300 };

/* ... and are not tried again in a solve where their first PROX_SWEEPS_TRIES
 * tries all missed: on the settled pile's step 1515 (2 393 contacts) they
 * missed all 23 times, 70 ms each; once they have converged the count
 * starts over from -PROX_SWEEPS_TRIES. */
enum { PROX_SWEEPS_TRIES = 3 };

/* How closely σ follows the error (σ = PROX_FOLLOW·e·σ_0 once below σ/10):
 * over the 36 fc2d/fc3d files of ../shared/data, 0.3 takes 405 outer steps
 * in all where 1 took 627 (RockPile_tob1 457 → 249, the granular flow
 * 07002_00801 17 → 8) and 0.1 took 608 (too small a σ makes the inner
 * problems as hard as the original). */
#define PROX_FOLLOW 0.3

static void set_sigma(ns_fc *pv, const ns_fc *view, double sigma)
{
    const int d = view->dim;
    const ns_block *B = &view->W->block;
    ns_block *P = &pv->W->block;
    for (ns_int a = 0; a < view->nc; a++) {
        const double *Wd = B->x + B->value_ptr[B->diag[a]];
        double *Pd = P->x + P->value_ptr[P->diag[a]];
        for (int i = 0; i < d * d; i++) Pd[i] = Wd[i];
        for (int i = 0; i < d; i++) Pd[i + i * d] += sigma;
    }
}

ns_status ns_fc3d_prox(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st) { ns_matrix_free(owned); return st; }
    const size_t m = (size_t)p->dim * (size_t)p->nc;
    ns_fc pv = view;
    pv.W = ns_matrix_copy(view.W);
    double *work = ns_malloc(4 * m + 1, sizeof(double));
    ns_fc_nsn_cache *lu = ns_fc_nsn_cache_new();   /* J's pattern and analysis, once per solve */
    if (!pv.W || !work || !lu) {
        ns_matrix_free(pv.W); free(work); ns_fc_nsn_cache_free(lu); ns_matrix_free(owned);
        return ns_fail(res->message, NS_NO_MEMORY, "prox: out of memory");
    }
    ns_fc_nsn_cache_krylov(lu, 1);   /* W + σI changes little from one inner solve to the next */
    double *qs = work, *rk = work + m, *ui = work + 2 * m, *best = work + 3 * m;
    pv.q = qs;
    const ns_fc_norm nm = (ns_fc_norm)o->fc_norm;
    double qn = 0.0;
    for (size_t i = 0; i < m; i++) qn += p->q[i] * p->q[i];
    qn = sqrt(qn);
    const double sigma0 = 1.0 / ns_fc_vi_rho0(&view);
    double sigma = sigma0;
    /* the clock only once an outer step has done work worth reading it
     * (an outer step's inner Newton solves read their own); before the
     * first reading the inner solves get the whole limit */
    const double step_work = 20.0 * (double)view.W->block.value_ptr[view.W->block.nblocks];
    ns_clock clk;
    ns_clock_start(&clk, o->time_limit, step_work);
    ns_fc_vi_velocity(&view, r, u);
    double err = ns_fc_vi_error(&view, r, u, qn, nm);
    st = err <= o->tol ? NS_CONVERGED : NS_MAX_ITER;
    double best_err = err;
    memcpy(best, r, m * sizeof(double));
    int hold = 0;
    int sweeps_failed = 0;   /* sweeps fallbacks that missed, none having converged */
    for (int it = 1; st == NS_MAX_ITER && it <= o->max_iter; it++) {
        res->iterations = it;
        memcpy(rk, r, m * sizeof(double));
        set_sigma(&pv, &view, sigma);
        for (size_t i = 0; i < m; i++) qs[i] = view.q[i] - sigma * rk[i];
        ns_options io = *o;
        io.tol = fmax(0.1 * o->tol, 0.1 * err);
        io.max_iter = 50;
        io.verbosity = 0;
        if (ns_clock_over(&clk, step_work)) { st = NS_TIME_LIMIT; break; }
        if (clk.limit > 0 && clk.start >= 0) {
            io.time_limit = o->time_limit - (ns_now() - clk.start);
            if (io.time_limit <= 0) { st = NS_TIME_LIMIT; break; }
        }
        ns_result ir;
        ns_result_init(&ir);
        ns_status is = ns_fc_nsn_run_stall(&pv, r, ui, &io, ns_fc_phi_ac, PROX_STALL, lu, &ir);
        int nsn_it = ir.iterations, gs_it = 0;
        double nsn_err = ir.error;
        if (is == NS_NO_MEMORY) { st = ns_fail(res->message, is, "prox: %s", ir.message); break; }
        if (is != NS_CONVERGED && is != NS_INTERRUPTED && is != NS_TIME_LIMIT &&
            sweeps_failed < PROX_SWEEPS_TRIES) {
            io.max_iter = PROX_SWEEPS;
            ns_result_init(&ir);
            is = ns_fc_nsgs_run(&pv, r, ui, &io, ns_fc_local_ac, &ir);
            gs_it = ir.iterations;
            if (is == NS_CONVERGED) sweeps_failed = -PROX_SWEEPS_TRIES;   /* they can win here: kept */
            else if (is != NS_INTERRUPTED) sweeps_failed++;
        }
        if (is == NS_INTERRUPTED) { st = NS_INTERRUPTED; break; }   /* o->cancel said stop */
        if (is == NS_TIME_LIMIT) {   /* the solve's own limit, passed down: the step is undone */
            memcpy(r, rk, m * sizeof(double));
            ns_fc_vi_velocity(&view, r, u);
            st = NS_TIME_LIMIT;
            break;
        }
        ns_fc_vi_velocity(&view, r, u);
        double e = ns_fc_vi_error(&view, r, u, qn, nm);
        if (is != NS_CONVERGED || !isfinite(e)) { /* undo, regularise more */
            memcpy(r, rk, m * sizeof(double));
            ns_fc_vi_velocity(&view, r, u);
            sigma *= 10.0;
            hold = 5;
            if (sigma > 1e12 * sigma0) { ns_fail(res->message, NS_MAX_ITER, "prox: sigma grew past 1e12 max W_NN"); break; }
        } else { /* the FC error need not fall monotonically along the prox path */
            err = e;
            if (hold > 0) hold--;
            else sigma = fmax(fmin(0.1 * sigma, PROX_FOLLOW * err * sigma0), 1e-14 * sigma0);
            if (err < best_err) { best_err = err; memcpy(best, r, m * sizeof(double)); }
        }
        if (o->verbosity >= 2 && o->log) {
            double rn2 = 0, dr2 = 0;
            for (size_t i = 0; i < m; i++) { rn2 += r[i] * r[i]; dr2 += (r[i] - rk[i]) * (r[i] - rk[i]); }
            ns_log(o, 2,
                     "prox iteration %d sigma %.3g error %.3e |r| %.6e |r - r_k| %.3e "
                     "(inner %s: nsn %d it to %.2e, nsgs %d sweeps)",
                     it, sigma, err, sqrt(rn2), sqrt(dr2), ns_status_name(is), nsn_it, nsn_err, gs_it);
        }
        st = ns_fc_vi_iteration_end(&view, r, u, o, -1.0, &err);
        if (ns_iteration(o, res, err) && st == NS_MAX_ITER) st = NS_INTERRUPTED;
    }
    long kits, klag, kmiss;
    ns_fc_nsn_cache_counts(lu, &kits, &klag, &kmiss);
    ns_log(o, 2, "prox: %ld Newton steps by GMRES on the kept factorization (%ld GMRES iterations), "
           "%ld refactored after GMRES missed", klag, kits, kmiss);
    ns_fc_vi_keep_best(&view, st, best, best_err, r, u, &err);
    res->error = err;
    ns_fc_nsn_cache_free(lu);
    ns_matrix_free(pv.W);
    free(work);
    ns_matrix_free(owned);
    return st;
}
