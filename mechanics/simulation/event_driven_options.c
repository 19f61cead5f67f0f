/* event_driven_options.c — the one validation of nsm_ed_options: every
 * field finite, in its range and consistent with the others (nsm_ed_new
 * calls it; callers may too). */
#include "nsm_internal.h"
#include "nonsmooth/nsm_event_driven.h"
#include <math.h>

#define FAIL(...) do { nsm_set_err(err, __VA_ARGS__); return NS_BAD_INPUT; } while (0)

/* The most time-discretisation events a run may ask for: their count is a
 * long, and each is an event processed. */
#define NSM_ED_MAX_TIME_EVENTS 1e12
#define NSM_ED_MAX_HISTORY 100000000L

static int nonneg(double x) { return isfinite(x) && x >= 0; }

ns_status nsm_ed_options_validate(const nsm_ed_options *o, char *err)
{
    if (!o) FAIL("nsm_ed_options: none given");
    if (!isfinite(o->t0)) FAIL("nsm_ed_options: t0 = %g must be finite", o->t0);
    if (!isfinite(o->T)) FAIL("nsm_ed_options: final time T = %g must be finite", o->T);
    if (!(o->T > o->t0)) FAIL("nsm_ed_options: final time T = %g must be > t0 = %g", o->T, o->t0);
    if (!isfinite(o->T - o->t0)) FAIL("nsm_ed_options: T - t0 = %g overflows", o->T - o->t0);
    if (!nonneg(o->output_step)) FAIL("nsm_ed_options: output_step = %g must be finite and >= 0 (0: (T - t0)/1000)", o->output_step);
    if (o->output_step > 0) {
        double n = (o->T - o->t0) / o->output_step;
        if (!(n <= NSM_ED_MAX_TIME_EVENTS) || !(o->t0 + o->output_step > o->t0))
            FAIL("nsm_ed_options: output_step = %g makes %g time events over [%g, %g] (at most %g)",
                 o->output_step, n, o->t0, o->T, NSM_ED_MAX_TIME_EVENTS);
    }
    if (o->method != NSM_ED_ADAMS && o->method != NSM_ED_BDF)
        FAIL("nsm_ed_options: method = %d is neither NSM_ED_ADAMS nor NSM_ED_BDF", (int)o->method);
    if (o->fixed_point != 0 && o->fixed_point != 1) FAIL("nsm_ed_options: fixed_point = %d must be 0 or 1", o->fixed_point);
    if (o->linear_solver != NSM_ED_LS_AUTO && o->linear_solver != NSM_ED_LS_DENSE && o->linear_solver != NSM_ED_LS_KRYLOV)
        FAIL("nsm_ed_options: linear_solver = %d is not NSM_ED_LS_AUTO, _DENSE or _KRYLOV", (int)o->linear_solver);
    if (!(isfinite(o->rtol) && o->rtol > 0)) FAIL("nsm_ed_options: rtol = %g must be finite and > 0", o->rtol);
    if (!(isfinite(o->atol) && o->atol > 0)) FAIL("nsm_ed_options: atol = %g must be finite and > 0", o->atol);
    if (!nonneg(o->hmin)) FAIL("nsm_ed_options: hmin = %g must be finite and >= 0 (0: none)", o->hmin);
    if (!nonneg(o->hmax)) FAIL("nsm_ed_options: hmax = %g must be finite and >= 0 (0: none)", o->hmax);
    if (o->hmax > 0 && o->hmin > o->hmax) FAIL("nsm_ed_options: hmin = %g must be <= hmax = %g", o->hmin, o->hmax);
    if (o->hmin > o->T - o->t0) FAIL("nsm_ed_options: hmin = %g must be <= T - t0 = %g", o->hmin, o->T - o->t0);
    if (o->max_steps <= 0) FAIL("nsm_ed_options: max_steps = %ld must be > 0", o->max_steps);
    if (!nonneg(o->gap_tol)) FAIL("nsm_ed_options: gap_tol = %g must be finite and >= 0", o->gap_tol);
    if (!nonneg(o->vel_tol)) FAIL("nsm_ed_options: vel_tol = %g must be finite and >= 0", o->vel_tol);
    if (!nonneg(o->rest_vel)) FAIL("nsm_ed_options: rest_vel = %g must be finite and >= 0", o->rest_vel);
    if (!nonneg(o->rest_gap)) FAIL("nsm_ed_options: rest_gap = %g must be finite and >= 0 (0: 100 atol)", o->rest_gap);
    if (!nonneg(o->lambda_tol)) FAIL("nsm_ed_options: lambda_tol = %g must be finite and >= 0", o->lambda_tol);
    if (!nonneg(o->acc_tol)) FAIL("nsm_ed_options: acc_tol = %g must be finite and >= 0", o->acc_tol);
    if (o->history < 0 || o->history > NSM_ED_MAX_HISTORY)
        FAIL("nsm_ed_options: history = %ld must be in [0, %ld] (0: 4096)", o->history, NSM_ED_MAX_HISTORY);
    if (o->accept_nonconverged != 0 && o->accept_nonconverged != 1)
        FAIL("nsm_ed_options: accept_nonconverged = %d must be 0 or 1", o->accept_nonconverged);
    char e2[NS_ERRMSG_LEN] = "";
    if (ns_options_validate(&o->solver_options, e2) != NS_OK) FAIL("nsm_ed_options: solver_options: %s", e2);
    return NS_OK;
}
