/* moreau_jean.c — Moreau–Jean (θ) one-step integrator, Lagrangian systems.
 *
 * On [t_k, t_{k+1}]:  M (v_{k+1} − v_k) = h F_{k+θ} + p_{k+1},
 *                     q_{k+1} = q_k + h (θ v_{k+1} + (1−θ) v_k),
 * F = f_ext − f_gyr − f_int linearised at (q_k, v_k) with the tangent
 * matrices K_t = ∂(f_int+f_gyr)/∂q and C_t = ∂(f_int+f_gyr)/∂v:
 *     W⁻¹ = M + hθ C_t + h²θ² K_t,
 *     v_free = v_k + W [ h (f_ext,θ − f_int,k − f_gyr,k) − h²θ K_t v_k ],
 *     v_{k+1} = v_free + W p_{k+1}.
 * For LTI systems (f_int = C v + K q) this is exact, W is constant and
 * factorised once: v_free = v_k + W h (f_ext,θ − C v_k − K (q_k + hθ v_k)).
 * W⁻¹ is factorised through ns_factor (dense LU); a singular W⁻¹ (e.g. a
 * singular mass matrix) is reported as NS_SINGULAR. */
#include "simulation/sim_internal.h"
#include <string.h>

static int fext_at(const nsm_ds *ds, double t, double *out, double *tmp)
{
    int n = ds->n;
    if (ds->fext_const) memcpy(out, ds->fext_const, (size_t)n * sizeof *out);
    else memset(out, 0, (size_t)n * sizeof *out);
    if (ds->lag.fext) {
        int rc = ds->lag.fext(t, n, tmp, ds->lag.user);
        if (rc != 0) return rc;
        for (int i = 0; i < n; i++) out[i] += tmp[i];
    }
    return 0;
}

/* Jq += ∂f/∂q, Jv += ∂f/∂v of the nonlinear forces; fsum += f_int + f_gyr. */
static int nonlinear_forces(const nsm_ds *ds, double t, const double *q,
                            const double *v, double *fsum, double *Kt,
                            double *Ct, double *w, double *Jq, double *Jv)
{
    int n = ds->n;
    size_t nn = (size_t)n * n;
    memset(fsum, 0, (size_t)n * sizeof *fsum);
    memset(Kt, 0, nn * sizeof *Kt);
    memset(Ct, 0, nn * sizeof *Ct);
    nsm_force_fn f[2] = { ds->lag.fint, ds->lag.fgyr };
    nsm_force_jac_fn jf[2] = { ds->lag.jac_fint, ds->lag.jac_fgyr };
    for (int k = 0; k < 2; k++) {
        if (!f[k]) continue;
        int rc = f[k](t, n, q, v, w, ds->lag.user);
        if (rc != 0) return rc;
        for (int i = 0; i < n; i++) fsum[i] += w[i];
        if (!jf[k]) continue;
        memset(Jq, 0, nn * sizeof *Jq);
        memset(Jv, 0, nn * sizeof *Jv);
        rc = jf[k](t, n, q, v, Jq, Jv, ds->lag.user);
        if (rc != 0) return rc;
        for (size_t i = 0; i < nn; i++) { Kt[i] += Jq[i]; Ct[i] += Jv[i]; }
    }
    return 0;
}

static ns_status factor(nsm_sim *s, int j, const char *what)
{
    nsm_dsdata *d = &s->d[j];
    char err[NS_ERRMSG_LEN] = "";
    ns_status st;
    if (!d->F) st = ns_factor_new(d->Wmat, NS_FACTOR_DENSE_LU, &d->F, err);
    else st = ns_factor_numeric(d->F, d->Wmat, err);
    if (st != NS_OK) {
        nsm_set_err(s->err, "system %d: the iteration matrix %s is %s (%s)", j, what,
                    st == NS_SINGULAR ? "singular — check the mass matrix" : "invalid", err);
        return st == NS_SINGULAR ? NS_SINGULAR : NS_BAD_INPUT;
    }
    d->W_ready = 1;
    d->W_version++;
    return NS_OK;
}

ns_status nsm_mj_build_W(nsm_sim *s, int j, double t)
{
    nsm_dsdata *d = &s->d[j];
    const nsm_ds *ds = s->model->ds[j];
    int n = ds->n;
    size_t nn = (size_t)n * n;
    double h = s->h, th = s->theta;
    double *W = d->Wmat->dense;
    if (ds->type == NSM_DS_LAGRANGIAN_LTI) {
        for (size_t i = 0; i < nn; i++)
            W[i] = ds->M[i] + (ds->C ? h * th * ds->C[i] : 0.0)
                 + (ds->K ? h * h * th * th * ds->K[i] : 0.0);
        return factor(s, j, "M + hθC + h²θ²K");
    }
    memset(W, 0, nn * sizeof *W);
    int rc = ds->lag.mass(n, d->qk, W, ds->lag.user);
    if (rc != 0) { nsm_set_err(s->err, "system %d: mass callback returned %d", j, rc); return rc < 0 ? NS_DIVERGED : NS_BAD_INPUT; }
    /* J1 = K_t, J2 = C_t (kept for the free state) */
    double *fs = d->w3;
    double *Jq = d->J1 + nn, *Jv = d->J2 + nn;   /* second halves: scratch */
    rc = nonlinear_forces(ds, t, d->qk, d->vk, fs, d->J1, d->J2, d->w2, Jq, Jv);
    if (rc != 0) { nsm_set_err(s->err, "system %d: force callback returned %d", j, rc); return rc < 0 ? NS_DIVERGED : NS_BAD_INPUT; }
    for (size_t i = 0; i < nn; i++) W[i] += h * th * d->J2[i] + h * h * th * th * d->J1[i];
    return factor(s, j, "M(q) + hθC_t + h²θ²K_t");
}

ns_status nsm_mj_free_state(nsm_sim *s, int j)
{
    nsm_dsdata *d = &s->d[j];
    const nsm_ds *ds = s->model->ds[j];
    int n = ds->n;
    double h = s->h, th = s->theta, t0 = s->t, t1 = s->t + s->h;
    ns_status st;
    if (!d->W_const) {
        st = nsm_mj_build_W(s, j, t0);   /* also leaves f_int+f_gyr in w3, K_t in J1 */
        if (st != NS_OK) return st;
    }
    double *rhs = d->free, *f0 = d->w1, *tmp = d->w2;
    int rc = fext_at(ds, t1, rhs, tmp);
    if (rc == 0) rc = fext_at(ds, t0, f0, tmp);
    if (rc != 0) { nsm_set_err(s->err, "system %d: f_ext callback returned %d", j, rc); return rc < 0 ? NS_DIVERGED : NS_BAD_INPUT; }
    for (int i = 0; i < n; i++) rhs[i] = th * rhs[i] + (1.0 - th) * f0[i];
    if (ds->type == NSM_DS_LAGRANGIAN_LTI) {
        /* rhs -= C v_k + K (q_k + hθ v_k) */
        for (int c = 0; c < n; c++) {
            double vc = d->vk[c], qc = d->qk[c] + h * th * vc;
            const double *Cc = ds->C ? ds->C + (size_t)c * n : NULL;
            const double *Kc = ds->K ? ds->K + (size_t)c * n : NULL;
            if (Cc && vc != 0.0) for (int i = 0; i < n; i++) rhs[i] -= Cc[i] * vc;
            if (Kc && qc != 0.0) for (int i = 0; i < n; i++) rhs[i] -= Kc[i] * qc;
        }
        for (int i = 0; i < n; i++) rhs[i] *= h;
    } else {
        for (int i = 0; i < n; i++) rhs[i] = h * (rhs[i] - d->w3[i]);
        for (int c = 0; c < n; c++) {
            double vc = d->vk[c];
            if (vc == 0.0) continue;
            const double *Kc = d->J1 + (size_t)c * n;
            for (int i = 0; i < n; i++) rhs[i] -= h * h * th * Kc[i] * vc;
        }
    }
    st = ns_factor_solve(d->F, rhs, 1, n);
    if (st != NS_OK) { nsm_set_err(s->err, "system %d: solve with W failed", j); return st; }
    for (int i = 0; i < n; i++) rhs[i] += d->vk[i];
    return NS_OK;
}
