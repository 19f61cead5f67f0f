/* lagrangian.c — nonlinear Lagrangian system with callbacks
 * M(q) q̈ + f_gyr(q̇, q) + f_int(t, q̇, q) = f_ext(t) + p. */
#include "ds/ds_kind.h"
#include <string.h>

nsm_ds *nsm_ds_lagrangian_new(int n, const nsm_lagrangian_fns *fns,
                              const double *q0, const double *v0)
{
    static const char who[] = "nsm_ds_lagrangian_new";
    if (!fns || !fns->mass) return nsm_ctor_fail("%s: the mass callback is required", who);
    nsm_ds *ds = nsm_ds_alloc(NSM_DS_LAGRANGIAN, n, who);
    if (!ds) return NULL;
    if (nsm_ctor_check(who, "q0", q0, (size_t)n, 0) || nsm_ctor_check(who, "v0", v0, (size_t)n, 0)) { nsm_ds_free(ds); return NULL; }
    ds->lag = *fns;
    ds->q0 = nsm_dup(q0, (size_t)n);
    ds->v0 = nsm_dup(v0, (size_t)n);
    if (!ds->q0 || !ds->v0) { nsm_ds_free(ds); return nsm_ctor_fail("%s: out of memory", who); }
    return ds;
}

static int mass(const nsm_ds *ds, const double *q, double *M)
{
    return ds->lag.mass(ds->n, q, M, ds->lag.user);
}

/* work: w (n) then Jq, Jv (n² each) */
static int forces(const nsm_ds *ds, double t, const double *q, const double *v,
                  double *F, double *Kt, double *Ct, double *work, const char **what)
{
    int n = ds->n;
    size_t nn = (size_t)n * n;
    double *w = work, *Jq = work + n, *Jv = Jq + nn;
    *what = "f_ext";
    int rc = nsm_ds_fext(ds, t, F, w);
    if (rc != 0) return rc;
    if (Kt) memset(Kt, 0, nn * sizeof *Kt);
    if (Ct) memset(Ct, 0, nn * sizeof *Ct);
    nsm_force_fn f[2] = { ds->lag.fint, ds->lag.fgyr };
    nsm_force_jac_fn jf[2] = { ds->lag.jac_fint, ds->lag.jac_fgyr };
    static const char *names[2][2] = { { "f_int", "jac_fint" }, { "f_gyr", "jac_fgyr" } };
    for (int k = 0; k < 2; k++) {
        if (!f[k]) continue;
        *what = names[k][0];
        rc = f[k](t, n, q, v, w, ds->lag.user);
        if (rc != 0) return rc;
        if (!nsm_all_finite(w, (size_t)n)) return NSM_CB_NAN;
        for (int i = 0; i < n; i++) F[i] -= w[i];
        if (!jf[k] || (!Kt && !Ct)) continue;
        *what = names[k][1];
        memset(Jq, 0, nn * sizeof *Jq);
        memset(Jv, 0, nn * sizeof *Jv);
        rc = jf[k](t, n, q, v, Jq, Jv, ds->lag.user);
        if (rc != 0) return rc;
        if (!nsm_all_finite(Jq, nn) || !nsm_all_finite(Jv, nn)) return NSM_CB_NAN;
        if (Kt) for (size_t i = 0; i < nn; i++) Kt[i] += Jq[i];
        if (Ct) for (size_t i = 0; i < nn; i++) Ct[i] += Jv[i];
    }
    *what = "f_ext";
    return 0;
}

const nsm_ds_kind nsm_ds_kind_lagrangian = {
    .type = NSM_DS_LAGRANGIAN, .name = "Lagrangian", .lagrangian = 1,
    .constant = 0, .linear = 0, .mass = mass, .forces = forces,
};
