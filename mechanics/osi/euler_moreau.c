/* euler_moreau.c — Euler–Moreau (θ) one-step integrator, first-order systems.
 *
 *   M (x_{k+1} − x_k) = h [θ f(t_{k+1}, x_{k+1}) + (1−θ) f(t_k, x_k)] + h r_{k+1}
 * (M = I unless the system has a mass matrix); with the option em_use_gamma
 * the input term is h [γ r_{k+1} + (1−γ) r_k] (γ = st->gamma, 1 otherwise):
 * x_free then carries h (1−γ) W r_k and the input enters as γ h W r. Newton on x from x⁰ = x_k,
 * J = ∂f/∂x at (t_{k+1}, x^α) (J = A for linear systems, exact then):
 *   W = (M − hθ J)⁻¹,
 *   x_free = x^α + W [h (θ f(t_{k+1}, x^α) + (1−θ) f(t_k, x_k)) − M (x^α − x_k)],
 *   x^{α+1} = x_free + h W r^{α+1}.
 * For an LTI system W is factorised once (ns_factor, dense LU). */
#include "osi/osi.h"
#include "ds/ds_kind.h"
#include <float.h>
#include <math.h>
#include <string.h>

static double input_scale(const nsm_step *st) { return st->gamma * st->h; }

/* W⁻¹ = M − hθ J at (t, x^α) (J evaluated here unless constant). */
static ns_status build_W(const nsm_ds *ds, int j, nsm_dsdata *d, double h, double t, char *err)
{
    int n = ds->n;
    size_t nn = (size_t)n * n;
    double *W = d->Wmat->dense;
    const double *J = ds->A;
    if (!nsm_ds_kind_of(ds)->constant) {
        ns_status s = nsm_ds_eval_field(ds, j, t, d->q, d->w3, d->J1, d->J2, err);
        if (s != NS_OK) return s;
        J = d->J1;
    }
    for (size_t i = 0; i < nn; i++) W[i] = -h * d->theta * J[i];
    if (ds->Mx) for (size_t i = 0; i < nn; i++) W[i] += ds->Mx[i];
    else for (int i = 0; i < n; i++) W[i + (size_t)i * n] += 1.0;
    ns_status st = nsm_ds_factor(j, d->Wmat, &d->F_W, ds->Mx ? "M − hθA" : "I − hθA", err);
    if (st != NS_OK) return st;
    d->W_ready = 1;
    d->W_version++;
    return NS_OK;
}

static void begin(const nsm_ds *ds, nsm_dsdata *d, const nsm_step *st)
{
    (void)st;
    memcpy(d->qk, d->q, (size_t)ds->n * sizeof(double));
    memcpy(d->pk, d->p, (size_t)ds->n * sizeof(double));
}

static ns_status free_state(const nsm_ds *ds, int j, nsm_dsdata *d, const nsm_step *st, char *err)
{
    int n = ds->n;
    double h = st->h, th = d->theta;
    if (!d->W_const) {
        ns_status s = build_W(ds, j, d, h, st->t1, err);
        if (s != NS_OK) return s;
    }
    double *rhs = d->free;
    ns_status s = nsm_ds_eval_field(ds, j, st->t1, d->q, rhs, NULL, d->J2, err);
    if (s == NS_OK && st->iter == 0) s = nsm_ds_eval_field(ds, j, st->t0, d->qk, d->Fk, NULL, d->J2, err);
    if (s != NS_OK) return s;
    for (int i = 0; i < n; i++) rhs[i] = h * (th * rhs[i] + (1.0 - th) * d->Fk[i]);
    if (st->gamma != 1.0)
        for (int i = 0; i < n; i++) rhs[i] += h * (1.0 - st->gamma) * d->pk[i];
    if (st->iter > 0)
        for (int c = 0; c < n; c++) {
            double dx = d->q[c] - d->qk[c];
            if (dx == 0.0) continue;
            if (ds->Mx) for (int i = 0; i < n; i++) rhs[i] -= ds->Mx[i + (size_t)c * n] * dx;
            else rhs[c] -= dx;
        }
    s = ns_factor_solve(d->F_W, rhs, 1, n);
    if (s != NS_OK) { nsm_set_err(err, "system %d: solve with W failed", j); return s; }
    for (int i = 0; i < n; i++) rhs[i] += d->q[i];
    return NS_OK;
}

static void update(const nsm_ds *ds, nsm_dsdata *d, const nsm_step *st)
{
    (void)ds; (void)d; (void)st;   /* x = x_free + h W r is the whole update */
}

/* R = M (x − x_k) − h (θ f(t_{k+1}, x) + (1−θ) f_k) − h r, relative. */
static double residual(const nsm_ds *ds, int j, nsm_dsdata *d, const nsm_step *st, double *abs2, char *err)
{
    *abs2 = 0.0;
    if (nsm_ds_kind_of(ds)->linear) return 0.0;
    int n = ds->n;
    double h = st->h, th = d->theta;
    if (nsm_ds_eval_field(ds, j, st->t1, d->q, d->F, NULL, d->J2, err) != NS_OK) return -1.0;
    double rmax = 0.0, scale = 0.0, r2 = 0.0;
    int above_roundoff = 0;
    for (int i = 0; i < n; i++) {
        double mx = 0.0, mabs = 0.0;
        if (ds->Mx) for (int c = 0; c < n; c++) {
            double Mic = ds->Mx[i + (size_t)c * n];
            mx += Mic * (d->q[c] - d->qk[c]);
            mabs += fabs(Mic) * (fabs(d->q[c]) + fabs(d->qk[c]));
        } else { mx = d->q[i] - d->qk[i]; mabs = fabs(d->q[i]) + fabs(d->qk[i]); }
        double f = h * (th * d->F[i] + (1.0 - th) * d->Fk[i]);
        double hr = h * (st->gamma * d->p[i] + (1.0 - st->gamma) * d->pk[i]);
        double r = mx - f - hr;
        r2 += r * r;
        rmax = fmax(rmax, fabs(r));
        scale = fmax(scale, fmax(fabs(mx), fmax(fabs(f), fabs(hr))));
        /* below the rounding of x − x_k: zero in this arithmetic */
        if (fabs(r) > 4.0 * DBL_EPSILON * (mabs + fabs(f) + fabs(hr))) above_roundoff = 1;
    }
    *abs2 = sqrt(r2);
    if (!above_roundoff) return 0.0;
    return scale > 0.0 ? rmax / scale : 0.0;
}

const nsm_osi nsm_osi_euler_moreau = {
    .name = "Euler–Moreau", .corrects_velocity = 0, .input_scale = input_scale,
    .build_W = build_W, .begin = begin, .free_state = free_state, .update = update,
    .residual = residual,
};
