/* ds.c — dynamical systems: constructors and accessors.
 * Contract: see include/nonsmooth/nsm_ds.h. Every constructor copies its
 * arrays; the returned system is owned by the caller until a model takes it. */
#include "nsm_internal.h"
#include <stdlib.h>
#include <string.h>

static double *dup_or_zero(const double *src, size_t len)
{
    double *d = calloc(len ? len : 1, sizeof *d);
    if (d && src) memcpy(d, src, len * sizeof *d);
    return d;
}

static nsm_ds *ds_alloc(nsm_ds_type type, int n)
{
    if (n <= 0 || n > 1000000) return NULL;
    nsm_ds *ds = calloc(1, sizeof *ds);
    if (!ds) return NULL;
    ds->type = type;
    ds->n = n;
    return ds;
}

nsm_ds *nsm_ds_lagrangian_lti_new(int n, const double *M, const double *q0,
                                  const double *v0)
{
    if (!M) return NULL;
    nsm_ds *ds = ds_alloc(NSM_DS_LAGRANGIAN_LTI, n);
    if (!ds) return NULL;
    ds->M = dup_or_zero(M, (size_t)n * n);
    ds->q0 = dup_or_zero(q0, (size_t)n);
    ds->v0 = dup_or_zero(v0, (size_t)n);
    if (!ds->M || !ds->q0 || !ds->v0) { nsm_ds_free(ds); return NULL; }
    return ds;
}

static ns_status set_matrix(nsm_ds *ds, double **dst, const double *src)
{
    if (!ds || ds->type != NSM_DS_LAGRANGIAN_LTI) return NS_BAD_INPUT;
    free(*dst);
    *dst = NULL;
    if (!src) return NS_OK;
    *dst = dup_or_zero(src, (size_t)ds->n * ds->n);
    return *dst ? NS_OK : NS_NO_MEMORY;
}

ns_status nsm_ds_set_damping(nsm_ds *ds, const double *C) { return set_matrix(ds, ds ? &ds->C : NULL, C); }
ns_status nsm_ds_set_stiffness(nsm_ds *ds, const double *K) { return set_matrix(ds, ds ? &ds->K : NULL, K); }

ns_status nsm_ds_set_fext(nsm_ds *ds, nsm_time_fn fext, void *user)
{
    if (!ds || !nsm_ds_is_lagrangian(ds)) return NS_BAD_INPUT;
    ds->lag.fext = fext;
    if (ds->type == NSM_DS_LAGRANGIAN_LTI) ds->lag.user = user;
    else if (user) ds->lag.user = user;
    return NS_OK;
}

ns_status nsm_ds_set_fext_constant(nsm_ds *ds, const double *fext)
{
    if (!ds || !nsm_ds_is_lagrangian(ds)) return NS_BAD_INPUT;
    free(ds->fext_const);
    ds->fext_const = fext ? dup_or_zero(fext, (size_t)ds->n) : NULL;
    return (fext && !ds->fext_const) ? NS_NO_MEMORY : NS_OK;
}

nsm_ds *nsm_ds_lagrangian_new(int n, const nsm_lagrangian_fns *fns,
                              const double *q0, const double *v0)
{
    if (!fns || !fns->mass) return NULL;
    nsm_ds *ds = ds_alloc(NSM_DS_LAGRANGIAN, n);
    if (!ds) return NULL;
    ds->lag = *fns;
    ds->q0 = dup_or_zero(q0, (size_t)n);
    ds->v0 = dup_or_zero(v0, (size_t)n);
    if (!ds->q0 || !ds->v0) { nsm_ds_free(ds); return NULL; }
    return ds;
}

nsm_ds *nsm_ds_first_order_new(int n, nsm_vector_field_fn f, nsm_matrix_fn jac,
                               void *user, const double *x0)
{
    if (!f || !jac) return NULL;
    nsm_ds *ds = ds_alloc(NSM_DS_FIRST_ORDER, n);
    if (!ds) return NULL;
    ds->f = f; ds->jac = jac; ds->user = user;
    ds->x0 = dup_or_zero(x0, (size_t)n);
    if (!ds->x0) { nsm_ds_free(ds); return NULL; }
    return ds;
}

nsm_ds *nsm_ds_first_order_linear_new(int n, nsm_matrix_fn A, nsm_time_fn b,
                                      void *user, const double *x0)
{
    if (!A) return NULL;
    nsm_ds *ds = ds_alloc(NSM_DS_FIRST_ORDER_LINEAR, n);
    if (!ds) return NULL;
    ds->jac = A; ds->b = b; ds->user = user;
    ds->x0 = dup_or_zero(x0, (size_t)n);
    if (!ds->x0) { nsm_ds_free(ds); return NULL; }
    return ds;
}

nsm_ds *nsm_ds_first_order_lti_new(int n, const double *A, nsm_time_fn b,
                                   void *user, const double *x0)
{
    if (!A) return NULL;
    nsm_ds *ds = ds_alloc(NSM_DS_FIRST_ORDER_LTI, n);
    if (!ds) return NULL;
    ds->b = b; ds->user = user;
    ds->A = dup_or_zero(A, (size_t)n * n);
    ds->x0 = dup_or_zero(x0, (size_t)n);
    if (!ds->A || !ds->x0) { nsm_ds_free(ds); return NULL; }
    return ds;
}

nsm_ds_type nsm_ds_get_type(const nsm_ds *ds) { return ds->type; }
int nsm_ds_size(const nsm_ds *ds) { return ds ? ds->n : 0; }
int nsm_ds_is_lagrangian(const nsm_ds *ds)
{
    return ds && (ds->type == NSM_DS_LAGRANGIAN || ds->type == NSM_DS_LAGRANGIAN_LTI);
}

void nsm_ds_free(nsm_ds *ds)
{
    if (!ds) return;
    free(ds->q0); free(ds->v0); free(ds->x0);
    free(ds->M); free(ds->C); free(ds->K); free(ds->A);
    free(ds->fext_const);
    free(ds);
}
