/* first_order_lti.c — first-order linear time-invariant ẋ = A x + b(t) + r. */
#include "ds/ds_kind.h"
#include <string.h>

int nsm_ds_linear_field(const nsm_ds *ds, double t, const double *A,
                        const double *x, double *f, double *work, const char **what);

nsm_ds *nsm_ds_first_order_lti_new(int n, const double *A, nsm_time_fn b,
                                   void *user, const double *x0)
{
    static const char who[] = "nsm_ds_first_order_lti_new";
    nsm_ds *ds = nsm_ds_alloc(NSM_DS_FIRST_ORDER_LTI, n, who);
    if (!ds) return NULL;
    if (nsm_ctor_check(who, "A", A, (size_t)n * n, 1) || nsm_ctor_check(who, "x0", x0, (size_t)n, 0)) { nsm_ds_free(ds); return NULL; }
    ds->b = b; ds->user = user;
    ds->A = nsm_dup(A, (size_t)n * n);
    ds->x0 = nsm_dup(x0, (size_t)n);
    if (!ds->A || !ds->x0) { nsm_ds_free(ds); return nsm_ctor_fail("%s: out of memory", who); }
    return ds;
}

static int field(const nsm_ds *ds, double t, const double *x, double *f,
                 double *J, double *work, const char **what)
{
    if (J) memcpy(J, ds->A, (size_t)ds->n * ds->n * sizeof *J);
    return nsm_ds_linear_field(ds, t, ds->A, x, f, work, what);
}

const nsm_ds_kind nsm_ds_kind_first_order_lti = {
    .type = NSM_DS_FIRST_ORDER_LTI, .name = "first-order LTI",
    .lagrangian = 0, .constant = 1, .linear = 1, .field = field,
};
