/* ds.c — dynamical systems: the type table, shared helpers and accessors.
 * Contract: see include/nonsmooth/nsm_ds.h. Every constructor (one file per
 * type) copies its arrays; the returned system is owned by the caller until
 * a model takes it. */
#include "ds/ds_kind.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One row per nsm_ds_type, in the enum's order. */
static const nsm_ds_kind *const kinds[] = {
    [NSM_DS_LAGRANGIAN] = &nsm_ds_kind_lagrangian,
    [NSM_DS_LAGRANGIAN_LTI] = &nsm_ds_kind_lagrangian_lti,
    [NSM_DS_FIRST_ORDER] = &nsm_ds_kind_first_order,
    [NSM_DS_FIRST_ORDER_LINEAR] = &nsm_ds_kind_first_order_linear,
    [NSM_DS_FIRST_ORDER_LTI] = &nsm_ds_kind_first_order_lti,
    [NSM_DS_LAGRANGIAN_LTI_SPARSE] = &nsm_ds_kind_lagrangian_lti_sparse,
    [NSM_DS_NEWTON_EULER] = &nsm_ds_kind_newton_euler,
};

const nsm_ds_kind *nsm_ds_kind_of(const nsm_ds *ds) { return kinds[ds->type]; }

double *nsm_dup(const double *src, size_t len)
{
    double *d = calloc(len ? len : 1, sizeof *d);
    if (d && src) memcpy(d, src, len * sizeof *d);
    return d;
}

nsm_ds *nsm_ds_alloc(nsm_ds_type type, int n, const char *who)
{
    if (n <= 0 || n > 1000000) return nsm_ctor_fail("%s: n = %d must be in 1..1000000", who, n);
    nsm_ds *ds = calloc(1, sizeof *ds);
    if (!ds) return nsm_ctor_fail("%s: out of memory", who);
    nsm_ctor_ok();
    ds->type = type;
    ds->n = n;
    ds->nq = n;
    ds->theta = NAN;
    return ds;
}

int nsm_ctor_check(const char *who, const char *what, const double *v, size_t len, int required)
{
    if (!v) {
        if (!required) return 0;
        nsm_ctor_fail("%s: %s is NULL", who, what);
        return -1;
    }
    if (!nsm_all_finite(v, len)) { nsm_ctor_fail("%s: %s has a non-finite entry", who, what); return -1; }
    return 0;
}

int nsm_all_finite(const double *v, size_t len)
{
    double s = 0.0;
    for (size_t i = 0; i < len; i++) s += v[i] * 0.0;
    return s == 0.0;
}

int nsm_ds_fext(const nsm_ds *ds, double t, double *out, double *tmp)
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

ns_status nsm_ds_set_fext(nsm_ds *ds, nsm_time_fn fext, void *user)
{
    if (!ds || !nsm_ds_is_lagrangian(ds)) return NS_BAD_INPUT;
    ds->lag.fext = fext;
    if (nsm_ds_kind_of(ds)->constant) ds->lag.user = user;
    else if (user) ds->lag.user = user;
    return NS_OK;
}

ns_status nsm_ds_set_fext_constant(nsm_ds *ds, const double *fext)
{
    if (!ds || !nsm_ds_is_lagrangian(ds)) return NS_BAD_INPUT;
    if (fext && !nsm_all_finite(fext, (size_t)ds->n)) return NS_BAD_INPUT;
    free(ds->fext_const);
    ds->fext_const = fext ? nsm_dup(fext, (size_t)ds->n) : NULL;
    return (fext && !ds->fext_const) ? NS_NO_MEMORY : NS_OK;
}

ns_status nsm_ds_set_boundary_condition(nsm_ds *ds, int ndof, const int *dof,
                                        const double *v, nsm_time_fn fn, void *user)
{
    /* sparse systems: not supported (the imposed rows need the dense W⁻¹) */
    if (!ds || !nsm_ds_is_lagrangian(ds) || nsm_ds_kind_of(ds)->sparse || ndof < 0 || ndof > ds->n || (ndof > 0 && !dof) ||
        (ndof > 0 && !v && !fn))
        return NS_BAD_INPUT;
    for (int b = 0; b < ndof; b++) {
        if (dof[b] < 0 || dof[b] >= ds->n) return NS_BAD_INPUT;
        for (int c = 0; c < b; c++) if (dof[c] == dof[b]) return NS_BAD_INPUT;
        if (v && !isfinite(v[b])) return NS_BAD_INPUT;
    }
    int *d = ndof ? malloc((size_t)ndof * sizeof *d) : NULL;
    double *vv = ndof && v ? malloc((size_t)ndof * sizeof *vv) : NULL;
    if (ndof && (!d || (v && !vv))) { free(d); free(vv); return NS_NO_MEMORY; }
    if (ndof) memcpy(d, dof, (size_t)ndof * sizeof *d);
    if (vv) memcpy(vv, v, (size_t)ndof * sizeof *vv);
    free(ds->bc_dof); free(ds->bc_v0);
    ds->bc_dof = d; ds->bc_v0 = vv; ds->nbc = ndof;
    ds->bc_fn = fn; ds->bc_user = user;
    ds->config++;
    return NS_OK;
}

ns_status nsm_ds_set_theta(nsm_ds *ds, double theta)
{
    if (!ds || !(theta >= 0.0 && theta <= 1.0)) return NS_BAD_INPUT;
    ds->theta = theta;
    ds->config++;
    return NS_OK;
}

ns_status nsm_ds_set_mass(nsm_ds *ds, const double *M)
{
    if (!ds || nsm_ds_is_lagrangian(ds)) return NS_BAD_INPUT;
    if (M && !nsm_all_finite(M, (size_t)ds->n * ds->n)) return NS_BAD_INPUT;
    free(ds->Mx);
    ds->Mx = M ? nsm_dup(M, (size_t)ds->n * ds->n) : NULL;
    ds->config++;
    return M && !ds->Mx ? NS_NO_MEMORY : NS_OK;
}

void nsm_ds_advance(const nsm_ds *ds, const double *q, const double *dv, double *out)
{
    const nsm_ds_kind *k = nsm_ds_kind_of(ds);
    if (k->advance) { k->advance(ds, q, dv, out); return; }
    for (int i = 0; i < ds->n; i++) out[i] = q[i] + dv[i];
}

nsm_ds_type nsm_ds_get_type(const nsm_ds *ds) { return ds ? ds->type : (nsm_ds_type)-1; }
int nsm_ds_size(const nsm_ds *ds) { return ds ? ds->n : 0; }
int nsm_ds_position_size(const nsm_ds *ds) { return ds ? ds->nq : 0; }
int nsm_ds_is_lagrangian(const nsm_ds *ds) { return ds && nsm_ds_kind_of(ds)->lagrangian; }

void nsm_ds_free(nsm_ds *ds)
{
    if (!ds || ds->owner) return;   /* a model's system: the model frees it */
    free(ds->q0); free(ds->v0); free(ds->x0);
    free(ds->M); free(ds->C); free(ds->K); free(ds->A);
    ns_matrix_free(ds->Ms); ns_matrix_free(ds->Cs); ns_matrix_free(ds->Ks);
    free(ds->fext_const); free(ds->Mx);
    free(ds->bc_dof); free(ds->bc_v0);
    free(ds);
}
