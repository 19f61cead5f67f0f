/* cvode_bridge.c — the smooth phases of the event-driven scheme on SUNDIALS
 * CVODE (v6): ẋ = f(t, x) with x = (q, v), f = (v, q̈(t, q, v)) where q̈
 * solves the acceleration LCP over I2, and one root function per contact
 * row (g = y[0] outside I2, g = λ[2] − y[2] inside; direction −1).
 * CVODE is created once; an advance after an event re-initialises it from
 * the jumped state (CVodeReInit), as CVODE's event loop is meant to be used.
 * CVODE's messages go to the simulation's log callback, never to stderr.
 * Contract: event_driven_internal.h. */
#include "simulation/event_driven_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

struct nsm_cvode {
    nsm_ed *s;
    SUNContext ctx;
    void *mem;
    N_Vector y;
    SUNMatrix A;
    SUNLinearSolver LS;
    SUNNonlinearSolver NLS;
    int need_reinit;
    int ng;
    long got_steps, got_g, got_jac, got_li;   /* counters of this run already added */
};

static int rhs(realtype t, N_Vector y, N_Vector ydot, void *user)
{
    nsm_ed *s = user;
    const double *x = N_VGetArrayPointer(y);
    double *f = N_VGetArrayPointer(ydot);
    s->stats.rhs_evals++;
    memcpy(f, x + s->ntot, (size_t)s->ntot * sizeof *f);
    int rc = nsm_ed_accelerations(s, t, x, f + s->ntot);
    for (int r = 0; rc == 0 && r < s->nrows; r++) if (s->in2[r]) { s->stats.rhs_lcps++; break; }
    return rc;
}

static int roots(realtype t, N_Vector y, realtype *g, void *user)
{
    nsm_ed *s = user;
    const double *x = N_VGetArrayPointer(y);
    int any2 = 0;
    for (int r = 0; r < s->nrows; r++) any2 |= s->in2[r];
    int rc;
    if (any2) {
        if ((rc = nsm_ed_accelerations(s, t, x, s->acc)) != 0) return rc < 0 ? rc : -rc;
        s->stats.rhs_lcps++;
    } else if ((rc = nsm_ed_kinematics(s, t, x, 0)) != 0) {
        return rc < 0 ? rc : -rc;
    }
    for (int r = 0; r < s->nrows; r++) g[r] = s->in2[r] ? s->lam2[r] - s->y2[r] : s->y0[r] - s->gshift[r];
    return 0;
}

static void errh(int code, const char *module, const char *function, char *msg, void *user)
{
    nsm_ed *s = user;
    nsm_ed_log(s, code < 0 ? 1 : 2, "%s %s: %s", module, function, msg);
    if (code < 0) {   /* keep the reason a callback gave (e.g. a non-finite force) */
        char why[NS_ERRMSG_LEN];
        snprintf(why, sizeof why, "%s", s->err);
        if (why[0]) nsm_set_err(s->err, "%s (CVODE %s: %s)", why, function, msg);
        else nsm_set_err(s->err, "CVODE %s: %s", function, msg);
    }
}

void nsm_cvode_free(nsm_cvode *c)
{
    if (!c) return;
    if (c->mem) CVodeFree(&c->mem);
    if (c->LS) SUNLinSolFree(c->LS);
    if (c->A) SUNMatDestroy(c->A);
    if (c->NLS) SUNNonlinSolFree(c->NLS);
    if (c->y) N_VDestroy(c->y);
    if (c->ctx) SUNContext_Free(&c->ctx);
    free(c);
}

#define CHECK(call) do { int flag_ = (call); if (flag_ < 0) { \
    nsm_set_err(err, "CVODE setup: %s returned %d", #call, flag_); nsm_cvode_free(c); return NULL; } } while (0)

nsm_cvode *nsm_cvode_new(nsm_ed *s, char *err)
{
    nsm_cvode *c = calloc(1, sizeof *c);
    if (!c) { nsm_set_err(err, "out of memory"); return NULL; }
    c->s = s;
    int N = 2 * s->ntot;
    CHECK(SUNContext_Create(NULL, &c->ctx));
    c->y = N_VNew_Serial(N, c->ctx);
    if (!c->y) { nsm_set_err(err, "out of memory"); nsm_cvode_free(c); return NULL; }
    memcpy(N_VGetArrayPointer(c->y), s->x, (size_t)N * sizeof(double));
    c->mem = CVodeCreate(s->o.method == NSM_ED_BDF ? CV_BDF : CV_ADAMS, c->ctx);
    if (!c->mem) { nsm_set_err(err, "CVodeCreate failed"); nsm_cvode_free(c); return NULL; }
    CHECK(CVodeSetErrHandlerFn(c->mem, errh, s));
    CHECK(CVodeInit(c->mem, rhs, s->t, c->y));
    CHECK(CVodeSStolerances(c->mem, s->o.rtol, s->o.atol));
    CHECK(CVodeSetUserData(c->mem, s));
    if (s->o.fixed_point) {
        c->NLS = SUNNonlinSol_FixedPoint(c->y, 0, c->ctx);
        if (!c->NLS) { nsm_set_err(err, "SUNNonlinSol_FixedPoint failed"); nsm_cvode_free(c); return NULL; }
        CHECK(CVodeSetNonlinearSolver(c->mem, c->NLS));
    } else if (s->o.linear_solver == NSM_ED_LS_KRYLOV) {   /* AUTO resolved by nsm_ed_new */
        /* matrix-free: CVODE forms J·v by difference quotients of the
         * right-hand side; no (2N)² storage (Krylov dimension 20) */
        c->LS = SUNLinSol_SPGMR(c->y, SUN_PREC_NONE, 20, c->ctx);
        if (!c->LS) { nsm_set_err(err, "SUNLinSol_SPGMR failed"); nsm_cvode_free(c); return NULL; }
        CHECK(CVodeSetLinearSolver(c->mem, c->LS, NULL));
    } else {
        c->A = SUNDenseMatrix(N, N, c->ctx);
        c->LS = c->A ? SUNLinSol_Dense(c->y, c->A, c->ctx) : NULL;
        if (!c->LS) { nsm_set_err(err, "dense SUNMatrix/SUNLinSol failed"); nsm_cvode_free(c); return NULL; }
        CHECK(CVodeSetLinearSolver(c->mem, c->LS, c->A));
    }
    CHECK(CVodeSetMaxNumSteps(c->mem, s->o.max_steps));
    if (s->o.hmin > 0) CHECK(CVodeSetMinStep(c->mem, s->o.hmin));
    if (s->o.hmax > 0) CHECK(CVodeSetMaxStep(c->mem, s->o.hmax));
    CHECK(CVodeSetStopTime(c->mem, s->o.T));
    c->ng = s->nrows;
    if (c->ng > 0) {
        CHECK(CVodeRootInit(c->mem, c->ng, roots));
        int *dir = malloc((size_t)c->ng * sizeof *dir);
        if (!dir) { nsm_set_err(err, "out of memory"); nsm_cvode_free(c); return NULL; }
        for (int r = 0; r < c->ng; r++) dir[r] = -1;
        int flag = CVodeSetRootDirection(c->mem, dir);
        free(dir);
        CHECK(flag);
        CHECK(CVodeSetNoInactiveRootWarn(c->mem));
    }
    return c;
}

void nsm_cvode_mark_reinit(nsm_cvode *c) { c->need_reinit = 1; }

void nsm_cvode_collect_stats(nsm_cvode *c)
{
    long v = 0;
    nsm_ed_stats *st = &c->s->stats;
    if (CVodeGetNumSteps(c->mem, &v) == CV_SUCCESS) { st->cvode_steps += v - c->got_steps; c->got_steps = v; }
    if (CVodeGetNumGEvals(c->mem, &v) == CV_SUCCESS) { st->root_evals += v - c->got_g; c->got_g = v; }
    if (c->A && CVodeGetNumJacEvals(c->mem, &v) == CV_SUCCESS) { st->jac_evals += v - c->got_jac; c->got_jac = v; }
    if (c->LS && !c->A && CVodeGetNumLinIters(c->mem, &v) == CV_SUCCESS) { st->lin_iters += v - c->got_li; c->got_li = v; }
}

int nsm_cvode_advance(nsm_cvode *c, double tout)
{
    nsm_ed *s = c->s;
    double *x = N_VGetArrayPointer(c->y);
    if (c->need_reinit) {
        nsm_cvode_collect_stats(c);
        if (nsm_ed_root_shifts(s) != 0) return -1;
        memcpy(x, s->x, (size_t)2 * s->ntot * sizeof *x);
        int flag = CVodeReInit(c->mem, s->t, c->y);
        if (flag < 0) {
            char *name = CVodeGetReturnFlagName(flag);   /* malloc'd by SUNDIALS */
            nsm_set_err(s->err, "CVodeReInit: %s", name ? name : "failed");
            free(name);
            return -1;
        }
        s->stats.reinits++;
        c->need_reinit = 0;
        c->got_steps = c->got_g = c->got_jac = c->got_li = 0;
    }
    double tret = s->t;
    s->err[0] = '\0';
    int flag = CVode(c->mem, tout, c->y, &tret, CV_NORMAL);
    if (flag < 0) {
        char why[NS_ERRMSG_LEN];
        snprintf(why, sizeof why, "%s", s->err);
        char *name = CVodeGetReturnFlagName(flag);   /* malloc'd by SUNDIALS */
        nsm_set_err(s->err, "CVode failed at t = %.17g: %s %s", tret, name ? name : "failed", why);
        free(name);
        return -1;
    }
    s->t = tret;
    memcpy(s->x, x, (size_t)2 * s->ntot * sizeof *x);
    if (flag == CV_ROOT_RETURN) {
        CVodeGetRootInfo(c->mem, s->rootsfound);
        return NSM_ED_ROOT_RETURN;
    }
    s->t = tout;   /* CV_SUCCESS / CV_TSTOP_RETURN: tret == tout */
    return 0;
}
