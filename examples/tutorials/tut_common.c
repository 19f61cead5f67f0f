/* tut_common.c — the model registry and helpers shared by the tutorial
 * models (tutorials.h). */
#include "tutorials.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tut_params_default(tut_params *p)
{
    memset(p, 0, sizeof *p);
    p->e = NAN;
}

double *tut_row(tut_table *t)
{
    if (t->rows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        double *v = realloc(t->v, cap * (size_t)t->cols * sizeof *v);
        if (!v) return NULL;
        t->v = v;
        t->cap = cap;
    }
    double *r = t->v + t->rows * (size_t)t->cols;
    memset(r, 0, (size_t)t->cols * sizeof *r);
    t->rows++;
    return r;
}

void tut_table_free(tut_table *t)
{
    free(t->v);
    t->v = NULL;
    t->rows = t->cap = 0;
}

void tut_sim_options(nsm_sim_options *o, const tut_params *p, double h,
                     double theta, const char *solver, double tol)
{
    nsm_sim_options_default(o);
    o->h = p->h > 0 ? p->h : h;
    o->theta = p->theta > 0 ? p->theta : theta;
    o->gap_tol = 0.0;                 /* y_k + h/2 ẏ_k ≤ 0 */
    o->separating_restitution = 0;    /* H v_{k+1} + e ẏ_k for every active row */
    o->theta_output = 0;              /* first-order laws on y_{k+1} */
    o->solver = p->solver ? p->solver : solver;
    if (p->tol > 0) o->solver_options.tol = p->tol;
    else if (tol > 0) o->solver_options.tol = tol;
    if (p->dump) { o->dump_dir = p->dump; o->dump_max = 0; }
}

nsm_sim *tut_sim_new(nsm_model *m, const nsm_sim_options *o, char *err)
{
    char e[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, o, e);
    if (!s) tut_fail(err, "%s", e);
    return s;
}

long tut_steps(const tut_params *p, long def) { return p->steps > 0 ? p->steps : def; }

int tut_fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, 256, fmt, ap);
    va_end(ap);
    return -1;
}

static const tut_model *const all[] = {
    &tut_bouncing_ball_ts, &tut_bouncing_ball_gosi, &tut_column_of_beads,
    &tut_double_pendulum, &tut_bouncing_ball_scleronomous,
    &tut_ball_on_moving_plane, &tut_woodpecker,
    &tut_impacting_bar,
    &tut_bouncing_ball_ed, &tut_bouncing_ball_ed_rest, &tut_bouncing_ball_ed_two,
    &tut_friction_oscillator, &tut_pendulum_slider,
    &tut_circuit_rlcd, &tut_diode_bridge, &tut_diode_bridge_cap_filter,
    &tut_bouncing_ball_direct, &tut_bouncing_ball_combined, &tut_slider_crank,
    &tut_nonlinear_switch,
};

const tut_model *const *tut_models(int *n)
{
    *n = (int)(sizeof all / sizeof all[0]);
    return all;
}

const tut_model *tut_find(const char *name)
{
    int n;
    const tut_model *const *m = tut_models(&n);
    for (int i = 0; i < n; i++)
        if (!strcmp(m[i]->name, name)) return m[i];
    return NULL;
}
