/* sim_options.c — the one validation of nsm_sim_options: every field
 * finite, in its range and consistent with the others, before a
 * simulation is made from it (nsm_sim_new calls it; callers may too). */
#include "nsm_internal.h"
#include "nonsmooth/nsm_simulation.h"
#include <math.h>

#define FAIL(...) do { nsm_set_err(err, __VA_ARGS__); return NS_BAD_INPUT; } while (0)

/* x finite and x >= lo (lo_open: x > lo) */
static int finite_from(double x, double lo, int lo_open)
{
    return isfinite(x) && (lo_open ? x > lo : x >= lo);
}

static int is01(int v) { return v == 0 || v == 1; }

ns_status nsm_sim_options_validate(const nsm_sim_options *o, char *err)
{
    if (!o) FAIL("nsm_sim_options: none given");
    if (!isfinite(o->t0)) FAIL("nsm_sim_options: t0 = %g must be finite", o->t0);
    if (!finite_from(o->h, 0.0, 1)) FAIL("nsm_sim_options: time step h = %g must be finite and > 0", o->h);
    /* t0 + h must move: a step below the spacing of doubles at t0 never advances */
    if (!(o->t0 + o->h > o->t0))
        FAIL("nsm_sim_options: time step h = %g is below the resolution of doubles at t0 = %g (t0 + h == t0)", o->h, o->t0);
    if (!(o->theta >= 0.0 && o->theta <= 1.0)) FAIL("nsm_sim_options: theta = %g must be in [0, 1]", o->theta);
    if (!is01(o->warm_start)) FAIL("nsm_sim_options: warm_start = %d must be 0 or 1", o->warm_start);
    if (!(o->stabilization >= 0.0 && o->stabilization <= 1.0))
        FAIL("nsm_sim_options: stabilization = %g is not in [0, 1]", o->stabilization);
    if (!finite_from(o->gap_tol, 0.0, 0)) FAIL("nsm_sim_options: gap_tol = %g must be finite and >= 0", o->gap_tol);
    if (!finite_from(o->activation_hold, 0.0, 0))
        FAIL("nsm_sim_options: activation_hold = %g must be finite and >= 0", o->activation_hold);
    if (o->activation != NSM_ACTIVATION_GAMMA && o->activation != NSM_ACTIVATION_PREDICTED)
        FAIL("nsm_sim_options: activation = %d is not a nsm_activation value", (int)o->activation);
    if (!finite_from(o->activation_gamma, 0.0, 0))
        FAIL("nsm_sim_options: activation_gamma = %g must be finite and >= 0", o->activation_gamma);
    if (!is01(o->separating_restitution))
        FAIL("nsm_sim_options: separating_restitution = %d must be 0 or 1", o->separating_restitution);
    if (!is01(o->theta_output)) FAIL("nsm_sim_options: theta_output = %d must be 0 or 1", o->theta_output);
    if (o->linearisation != NSM_LINEARISE_ITERATE && o->linearisation != NSM_LINEARISE_STEP_START)
        FAIL("nsm_sim_options: linearisation = %d is not a nsm_linearisation value", (int)o->linearisation);
    if (!is01(o->em_use_gamma)) FAIL("nsm_sim_options: em_use_gamma = %d must be 0 or 1", o->em_use_gamma);
    if (!(o->em_gamma >= 0.0 && o->em_gamma <= 1.0))
        FAIL("nsm_sim_options: em_gamma = %g must be in [0, 1]", o->em_gamma);
    if (o->newton_criterion != NSM_NEWTON_RELATIVE && o->newton_criterion != NSM_NEWTON_ABS_NORM2)
        FAIL("nsm_sim_options: newton_criterion = %d is not a nsm_newton_criterion value", (int)o->newton_criterion);
    if (!finite_from(o->newton_tol, 0.0, 1)) FAIL("nsm_sim_options: newton_tol = %g must be finite and > 0", o->newton_tol);
    if (o->newton_max_iter < 1) FAIL("nsm_sim_options: newton_max_iter = %d must be >= 1", o->newton_max_iter);
    if (!is01(o->accept_nonconverged))
        FAIL("nsm_sim_options: accept_nonconverged = %d must be 0 or 1", o->accept_nonconverged);
    if (o->dump_every < 0) FAIL("nsm_sim_options: dump_every = %ld must be >= 0 (0 or 1: every step)", o->dump_every);
    if (o->dump_max < 0) FAIL("nsm_sim_options: dump_max = %ld must be >= 0 (0: no limit)", o->dump_max);
    if (o->projection < NSM_PROJECTION_NONE || o->projection > NSM_PROJECTION_COMBINED)
        FAIL("nsm_sim_options: projection = %d must be NSM_PROJECTION_NONE, _DIRECT or _COMBINED (0..2)", o->projection);
    if (!finite_from(o->projection_tol, 0.0, 1))
        FAIL("nsm_sim_options: projection_tol = %g must be finite and > 0", o->projection_tol);
    if (!finite_from(o->projection_tol_unilateral, 0.0, 1))
        FAIL("nsm_sim_options: projection_tol_unilateral = %g must be finite and > 0", o->projection_tol_unilateral);
    if (o->projection_max_iter < 1) FAIL("nsm_sim_options: projection_max_iter = %d must be >= 1", o->projection_max_iter);
    if (!is01(o->projection_metric)) FAIL("nsm_sim_options: projection_metric = %d must be 0 or 1", o->projection_metric);
    if (!is01(o->projection_all)) FAIL("nsm_sim_options: projection_all = %d must be 0 or 1", o->projection_all);
    if (!is01(o->projection_hysteresis))
        FAIL("nsm_sim_options: projection_hysteresis = %d must be 0 or 1", o->projection_hysteresis);
    if (!isfinite(o->projection_activate_pos))
        FAIL("nsm_sim_options: projection_activate_pos = %g must be finite", o->projection_activate_pos);
    if (!isfinite(o->projection_deactivate_pos))
        FAIL("nsm_sim_options: projection_deactivate_pos = %g must be finite", o->projection_deactivate_pos);
    if (!isfinite(o->projection_deactivate_vel))
        FAIL("nsm_sim_options: projection_deactivate_vel = %g must be finite", o->projection_deactivate_vel);
    if (!is01(o->gmp)) FAIL("nsm_sim_options: gmp = %d must be 0 or 1", o->gmp);
    if (!is01(o->global_fc)) FAIL("nsm_sim_options: global_fc = %d must be 0 or 1", o->global_fc);
    if (!is01(o->order_by_system)) FAIL("nsm_sim_options: order_by_system = %d must be 0 or 1", o->order_by_system);
    char e2[NS_ERRMSG_LEN] = "";
    if (ns_options_validate(&o->solver_options, e2) != NS_OK) FAIL("nsm_sim_options: solver_options: %s", e2);
    return NS_OK;
}
