/* first_order_linear.c — first-order linear system ẋ = A(t) x + b(t) + r. */
#include "ds/ds_kind.h"
#include <string.h>

nsm_ds *nsm_ds_first_order_linear_new(int n, nsm_matrix_fn A, nsm_time_fn b,
                                      void *user, const double *x0)
{
    static const char who[] = "nsm_ds_first_order_linear_new";
    if (!A) return nsm_ctor_fail("%s: the A(t) callback is required", who);
    nsm_ds *ds = nsm_ds_alloc(NSM_DS_FIRST_ORDER_LINEAR, n, who);
    if (!ds) return NULL;
    if (nsm_ctor_check(who, "x0", x0, (size_t)n, 0)) { nsm_ds_free(ds); return NULL; }
    ds->jac = A; ds->b = b; ds->user = user;
    ds->x0 = nsm_dup(x0, (size_t)n);
    if (!ds->x0) { nsm_ds_free(ds); return nsm_ctor_fail("%s: out of memory", who); }
    return ds;
}

/* f = A x + b shared with the LTI type: A given. work: n. */
int nsm_ds_linear_field(const nsm_ds *ds, double t, const double *A,
                        const double *x, double *f, double *work, const char **what)
{
    int n = ds->n;
    for (int i = 0; i < n; i++) f[i] = 0.0;
    for (int c = 0; c < n; c++) {
        double xc = x[c];
        if (xc == 0.0) continue;
        for (int i = 0; i < n; i++) f[i] += A[i + (size_t)c * n] * xc;
    }
    if (ds->b) {
        *what = "b";
        int rc = ds->b(t, n, work, ds->user);
        if (rc != 0) return rc;
        if (!nsm_all_finite(work, (size_t)n)) return NSM_CB_NAN;
        for (int i = 0; i < n; i++) f[i] += work[i];
    }
    return 0;
}

/* work: n + n² (A(t) when J is NULL) */
static int field(const nsm_ds *ds, double t, const double *x, double *f,
                 double *J, double *work, const char **what)
{
    int n = ds->n;
    double *A = J ? J : work + n;
    *what = "A";
    memset(A, 0, (size_t)n * n * sizeof *A);
    int rc = ds->jac(t, n, NULL, A, ds->user);
    if (rc != 0) return rc;
    if (!nsm_all_finite(A, (size_t)n * n)) return NSM_CB_NAN;
    return nsm_ds_linear_field(ds, t, A, x, f, work, what);
}

const nsm_ds_kind nsm_ds_kind_first_order_linear = {
    .type = NSM_DS_FIRST_ORDER_LINEAR, .name = "first-order linear",
    .lagrangian = 0, .constant = 0, .linear = 1, .field = field,
};
