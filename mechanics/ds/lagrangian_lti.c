/* lagrangian_lti.c — Lagrangian linear time-invariant system
 * M q̈ + C q̇ + K q = f_ext(t) + p (M, C, K constant). */
#include "ds/ds_kind.h"
#include <stdlib.h>
#include <string.h>

nsm_ds *nsm_ds_lagrangian_lti_new(int n, const double *M, const double *q0,
                                  const double *v0)
{
    static const char who[] = "nsm_ds_lagrangian_lti_new";
    nsm_ds *ds = nsm_ds_alloc(NSM_DS_LAGRANGIAN_LTI, n, who);
    if (!ds) return NULL;
    size_t nn = (size_t)n * n;
    if (nsm_ctor_check(who, "M", M, nn, 1) || nsm_ctor_check(who, "q0", q0, (size_t)n, 0) ||
        nsm_ctor_check(who, "v0", v0, (size_t)n, 0)) { nsm_ds_free(ds); return NULL; }
    ds->M = nsm_dup(M, (size_t)n * n);
    ds->q0 = nsm_dup(q0, (size_t)n);
    ds->v0 = nsm_dup(v0, (size_t)n);
    if (!ds->M || !ds->q0 || !ds->v0) { nsm_ds_free(ds); return nsm_ctor_fail("%s: out of memory", who); }
    return ds;
}

static ns_status set_matrix(nsm_ds *ds, double **dst, const double *src)
{
    if (!ds || ds->type != NSM_DS_LAGRANGIAN_LTI) return NS_BAD_INPUT;
    if (src && !nsm_all_finite(src, (size_t)ds->n * ds->n)) return NS_BAD_INPUT;
    free(*dst);
    *dst = NULL;
    if (!src) return NS_OK;
    *dst = nsm_dup(src, (size_t)ds->n * ds->n);
    return *dst ? NS_OK : NS_NO_MEMORY;
}

ns_status nsm_ds_set_damping(nsm_ds *ds, const double *C) { return set_matrix(ds, ds ? &ds->C : NULL, C); }
ns_status nsm_ds_set_stiffness(nsm_ds *ds, const double *K) { return set_matrix(ds, ds ? &ds->K : NULL, K); }

static int mass(const nsm_ds *ds, const double *q, double *M)
{
    (void)q;
    memcpy(M, ds->M, (size_t)ds->n * ds->n * sizeof *M);
    return 0;
}

static int forces(const nsm_ds *ds, double t, const double *q, const double *v,
                  double *F, double *Kt, double *Ct, double *work, const char **what)
{
    int n = ds->n;
    size_t nn = (size_t)n * n;
    *what = "f_ext";
    int rc = nsm_ds_fext(ds, t, F, work);
    if (rc != 0) return rc;
    for (int c = 0; c < n; c++) {
        const double *Cc = ds->C ? ds->C + (size_t)c * n : NULL;
        const double *Kc = ds->K ? ds->K + (size_t)c * n : NULL;
        if (Cc && v[c] != 0.0) for (int i = 0; i < n; i++) F[i] -= Cc[i] * v[c];
        if (Kc && q[c] != 0.0) for (int i = 0; i < n; i++) F[i] -= Kc[i] * q[c];
    }
    if (Kt) { if (ds->K) memcpy(Kt, ds->K, nn * sizeof *Kt); else memset(Kt, 0, nn * sizeof *Kt); }
    if (Ct) { if (ds->C) memcpy(Ct, ds->C, nn * sizeof *Ct); else memset(Ct, 0, nn * sizeof *Ct); }
    return 0;
}

const nsm_ds_kind nsm_ds_kind_lagrangian_lti = {
    .type = NSM_DS_LAGRANGIAN_LTI, .name = "Lagrangian LTI", .lagrangian = 1,
    .constant = 1, .linear = 1, .mass = mass, .forces = forces,
};
