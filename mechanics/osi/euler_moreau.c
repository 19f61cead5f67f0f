/* euler_moreau.c — Euler–Moreau (θ) one-step integrator, first-order systems.
 *
 *   x_{k+1} − x_k = h [θ f(t_{k+1}, x_{k+1}) + (1−θ) f(t_k, x_k)] + h r_{k+1},
 * with f linearised at x_k (J = ∂f/∂x at (t_{k+1}, x_k); J = A for linear
 * systems, exact then):
 *   W = (I − hθ J)⁻¹,
 *   x_free = x_k + W h [θ f(t_{k+1}, x_k) + (1−θ) f(t_k, x_k)],
 *   x_{k+1} = x_free + h W r_{k+1}.
 * For an LTI system W is factorised once (ns_factor, dense LU). */
#include "simulation/sim_internal.h"
#include <string.h>

static int eval_f(const nsm_ds *ds, double t, const double *x, double *out,
                  double *J, double *tmp)
{
    int n = ds->n;
    int rc;
    if (ds->type == NSM_DS_FIRST_ORDER) return ds->f(t, n, x, out, ds->user);
    const double *A = ds->A;
    if (ds->type == NSM_DS_FIRST_ORDER_LINEAR) {
        memset(J, 0, (size_t)n * n * sizeof *J);
        rc = ds->jac(t, n, NULL, J, ds->user);
        if (rc != 0) return rc;
        A = J;
    }
    for (int i = 0; i < n; i++) out[i] = 0.0;
    for (int c = 0; c < n; c++) {
        double xc = x[c];
        if (xc == 0.0) continue;
        for (int i = 0; i < n; i++) out[i] += A[i + (size_t)c * n] * xc;
    }
    if (ds->b) {
        rc = ds->b(t, n, tmp, ds->user);
        if (rc != 0) return rc;
        for (int i = 0; i < n; i++) out[i] += tmp[i];
    }
    return 0;
}

ns_status nsm_em_build_W(nsm_sim *s, int j, double t)
{
    nsm_dsdata *d = &s->d[j];
    const nsm_ds *ds = s->model->ds[j];
    int n = ds->n;
    size_t nn = (size_t)n * n;
    double *W = d->Wmat->dense;
    const double *J = ds->A;
    if (ds->type != NSM_DS_FIRST_ORDER_LTI) {
        memset(d->J1, 0, nn * sizeof *d->J1);
        int rc = ds->jac(t, n, ds->type == NSM_DS_FIRST_ORDER ? d->qk : NULL, d->J1, ds->user);
        if (rc != 0) { nsm_set_err(s->err, "system %d: Jacobian callback returned %d", j, rc); return rc < 0 ? NS_DIVERGED : NS_BAD_INPUT; }
        J = d->J1;
    }
    for (size_t i = 0; i < nn; i++) W[i] = -s->h * s->theta * J[i];
    for (int i = 0; i < n; i++) W[i + (size_t)i * n] += 1.0;
    char err[NS_ERRMSG_LEN] = "";
    ns_status st = d->F ? ns_factor_numeric(d->F, d->Wmat, err)
                        : ns_factor_new(d->Wmat, NS_FACTOR_DENSE_LU, &d->F, err);
    if (st != NS_OK) {
        nsm_set_err(s->err, "system %d: the iteration matrix I − hθA is singular (%s)", j, err);
        return st;
    }
    d->W_ready = 1;
    d->W_version++;
    return NS_OK;
}

ns_status nsm_em_free_state(nsm_sim *s, int j)
{
    nsm_dsdata *d = &s->d[j];
    const nsm_ds *ds = s->model->ds[j];
    int n = ds->n;
    double h = s->h, th = s->theta, t0 = s->t, t1 = s->t + s->h;
    if (!d->W_const) {
        ns_status st = nsm_em_build_W(s, j, t1);
        if (st != NS_OK) return st;
    }
    double *rhs = d->free;
    int rc = eval_f(ds, t1, d->qk, rhs, d->J2, d->w2);
    if (rc == 0) rc = eval_f(ds, t0, d->qk, d->w1, d->J2, d->w2);
    if (rc != 0) { nsm_set_err(s->err, "system %d: vector field callback returned %d", j, rc); return rc < 0 ? NS_DIVERGED : NS_BAD_INPUT; }
    for (int i = 0; i < n; i++) rhs[i] = h * (th * rhs[i] + (1.0 - th) * d->w1[i]);
    ns_status st = ns_factor_solve(d->F, rhs, 1, n);
    if (st != NS_OK) { nsm_set_err(s->err, "system %d: solve with W failed", j); return st; }
    for (int i = 0; i < n; i++) rhs[i] += d->qk[i];
    return NS_OK;
}
