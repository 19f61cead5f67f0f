/* vi_solve.c — the VI solvers: fpp, eg, hp (vi_projection.c) on any X;
 * newton-fb / newton-min (the box MCP kernels: a box VI is the MCP on
 * that box) on a box X; auto: at most 100 fpp steps (enough for a
 * well-conditioned strongly monotone F), then from the start the box chain
 * (ns_box_auto) on a box, eg then hp otherwise; the best iterate is kept. */
#include "solve/solvers.h"
#include "vi/vi_internal.h"
#include "core/ns_internal.h"
#include <math.h>
#include <string.h>
#include <stdlib.h>

static ns_cp_map map_of(const ns_vi *p)
{
    ns_cp_map f = { p->n, p->F, p->J, p->user, p->M, p->q };
    return f;
}
static ns_vi_set set_of(const ns_vi *p)
{
    ns_vi_set X = { p->project, p->user, p->lb, p->ub };
    return X;
}

ns_status ns_vi_fpp(const ns_vi *p, double *x, double *F, const ns_options *o, ns_result *res)
{
    ns_cp_map f = map_of(p);
    ns_vi_set X = set_of(p);
    return ns_vi_projection_method(&f, &X, NS_VI_FPP, x, F, o, res);
}

ns_status ns_vi_eg(const ns_vi *p, double *x, double *F, const ns_options *o, ns_result *res)
{
    ns_cp_map f = map_of(p);
    ns_vi_set X = set_of(p);
    return ns_vi_projection_method(&f, &X, NS_VI_EG, x, F, o, res);
}

ns_status ns_vi_hp(const ns_vi *p, double *x, double *F, const ns_options *o, ns_result *res)
{
    ns_cp_map f = map_of(p);
    ns_vi_set X = set_of(p);
    return ns_vi_projection_method(&f, &X, NS_VI_HP, x, F, o, res);
}

static ns_status box_only(const ns_vi *p, ns_cp_reform rf, double *x, double *F,
                          const ns_options *o, ns_result *res)
{
    if (p->project)
        return ns_fail(res->message, NS_BAD_INPUT,
                       "vi: newton-%s needs a box X (this X is a projection callback: use eg, fpp, hp)",
                       rf == NS_CP_MIN ? "min" : "fb");
    ns_cp_map f = map_of(p);
    return ns_box_newton(&f, p->lb, p->ub, rf, 0.0, x, F, o, res);
}

ns_status ns_vi_newton_fb(const ns_vi *p, double *x, double *F, const ns_options *o, ns_result *res)
{ return box_only(p, NS_CP_FB, x, F, o, res); }
ns_status ns_vi_newton_min(const ns_vi *p, double *x, double *F, const ns_options *o, ns_result *res)
{ return box_only(p, NS_CP_MIN, x, F, o, res); }

ns_status ns_vi_auto(const ns_vi *p, double *x, double *F, const ns_options *o, ns_result *res)
{
    ns_cp_map f = map_of(p);
    ns_vi_set X = set_of(p);
    size_t n = (size_t)p->n;
    double *x0 = ns_malloc(n > 0 ? n : 1, sizeof(double)), *xa = ns_malloc(n > 0 ? n : 1, sizeof(double)),
           *Fa = ns_malloc(n > 0 ? n : 1, sizeof(double));
    if (!x0 || !xa || !Fa) {
        free(x0); free(xa); free(Fa);
        return ns_fail(res->message, NS_NO_MEMORY, "vi: out of memory");
    }
    memcpy(x0, x, n * sizeof(double));
    /* 1. a short fpp: a few cheap steps solve the well-conditioned strongly
     * monotone problems outright */
    ns_options so = *o;
    so.max_iter = o->max_iter < 100 ? o->max_iter : 100;
    ns_status st = ns_vi_projection_method(&f, &X, NS_VI_FPP, x, F, &so, res);
    double ea = res->error;
    char ma[NS_ERRMSG_LEN];
    memcpy(ma, res->message, sizeof ma);
    memcpy(xa, x, n * sizeof(double));
    memcpy(Fa, F, n * sizeof(double));
    /* 2. then, from the start: the box Newton chain (box X) or eg, then hp */
    for (int stage = 0; stage < 2 && st != NS_CONVERGED && st != NS_NO_MEMORY && st != NS_INTERRUPTED; stage++) {
        if (stage == 1 && !p->project) break;
        memcpy(x, x0, n * sizeof(double));
        res->message[0] = '\0';
        ns_status s2 = !p->project ? ns_box_auto(&f, p->lb, p->ub, x, F, o, res)
                     : ns_vi_projection_method(&f, &X, stage == 0 ? NS_VI_EG : NS_VI_HP, x, F, o, res);
        if (s2 == NS_CONVERGED || !(res->error >= ea)) {
            st = s2;
            ea = res->error;
            memcpy(ma, res->message, sizeof ma);
            memcpy(xa, x, n * sizeof(double));
            memcpy(Fa, F, n * sizeof(double));
        } else if (s2 == NS_NO_MEMORY || s2 == NS_INTERRUPTED) st = s2;
    }
    memcpy(x, xa, n * sizeof(double));
    memcpy(F, Fa, n * sizeof(double));
    res->error = ea;
    memcpy(res->message, ma, sizeof ma);
    free(x0); free(xa); free(Fa);
    return st;
}
