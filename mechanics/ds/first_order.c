/* first_order.c — first-order nonlinear system ẋ = f(t, x) + r, or
 * M ẋ = f(t, x) + r with a constant mass matrix (nsm_ds_set_mass). */
#include "ds/ds_kind.h"
#include <string.h>

nsm_ds *nsm_ds_first_order_new(int n, nsm_vector_field_fn f, nsm_matrix_fn jac,
                               void *user, const double *x0)
{
    static const char who[] = "nsm_ds_first_order_new";
    if (!f || !jac) return nsm_ctor_fail("%s: f and its Jacobian are required", who);
    nsm_ds *ds = nsm_ds_alloc(NSM_DS_FIRST_ORDER, n, who);
    if (!ds) return NULL;
    if (nsm_ctor_check(who, "x0", x0, (size_t)n, 0)) { nsm_ds_free(ds); return NULL; }
    ds->f = f; ds->jac = jac; ds->user = user;
    ds->x0 = nsm_dup(x0, (size_t)n);
    if (!ds->x0) { nsm_ds_free(ds); return nsm_ctor_fail("%s: out of memory", who); }
    return ds;
}

static int field(const nsm_ds *ds, double t, const double *x, double *f,
                 double *J, double *work, const char **what)
{
    (void)work;
    int n = ds->n;
    *what = "f";
    int rc = ds->f(t, n, x, f, ds->user);
    if (rc != 0) return rc;
    if (!nsm_all_finite(f, (size_t)n)) return NSM_CB_NAN;
    if (!J) return 0;
    *what = "jacobian";
    memset(J, 0, (size_t)n * n * sizeof *J);
    rc = ds->jac(t, n, x, J, ds->user);
    if (rc != 0) return rc;
    if (!nsm_all_finite(J, (size_t)n * n)) return NSM_CB_NAN;
    return 0;
}

const nsm_ds_kind nsm_ds_kind_first_order = {
    .type = NSM_DS_FIRST_ORDER, .name = "first-order", .lagrangian = 0,
    .constant = 0, .linear = 0, .field = field,
};
