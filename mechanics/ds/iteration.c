/* iteration.c — the evaluation layer of a system shared by time-stepping
 * and event-driven: mass, forces and Jacobians through the type's table
 * (errors name the system and the callback, non-finite values included),
 * and the factorisation of an iteration matrix through ns_factor. */
#include "ds/ds_kind.h"
#include <math.h>
#include <string.h>

static ns_status cb_error(const nsm_ds *ds, int j, const char *what, int rc, double t, char *err)
{
    if (rc == NSM_CB_NAN) {
        nsm_set_err(err, "system %d (%s): the %s callback returned a non-finite value at t = %.17g",
                    j, nsm_ds_kind_of(ds)->name, what, t);
        return NS_DIVERGED;   /* not recoverable by a smaller step (event-driven) */
    }
    nsm_set_err(err, "system %d (%s): the %s callback returned %d at t = %.17g",
                j, nsm_ds_kind_of(ds)->name, what, rc, t);
    return rc < 0 ? NS_DIVERGED : NS_BAD_INPUT;
}

ns_status nsm_ds_eval_lagrangian(const nsm_ds *ds, int j, double t,
                                 const double *q, const double *v, double *M,
                                 double *F, double *Kt, double *Ct,
                                 double *work, char *err)
{
    const nsm_ds_kind *k = nsm_ds_kind_of(ds);
    int n = ds->n;
    if (M) {
        memset(M, 0, (size_t)n * n * sizeof *M);
        int rc = k->mass(ds, q, M);
        if (rc == 0 && !nsm_all_finite(M, (size_t)n * n)) rc = NSM_CB_NAN;
        if (rc != 0) return cb_error(ds, j, "mass", rc, t, err);
    }
    if (F) {
        const char *what = "f_ext";
        int rc = k->forces(ds, t, q, v, F, Kt, Ct, work, &what);
        if (rc == 0 && !nsm_all_finite(F, (size_t)n)) { rc = NSM_CB_NAN; what = "f_ext"; }
        if (rc != 0) return cb_error(ds, j, what, rc, t, err);
    }
    return NS_OK;
}

ns_status nsm_ds_eval_field(const nsm_ds *ds, int j, double t, const double *x,
                            double *f, double *J, double *work, char *err)
{
    const char *what = "f";
    int rc = nsm_ds_kind_of(ds)->field(ds, t, x, f, J, work, &what);
    if (rc != 0) return cb_error(ds, j, what, rc, t, err);
    return NS_OK;
}

ns_status nsm_ds_factor(int j, ns_matrix *Wmat, ns_factor **F, const char *what, char *err)
{
    char e2[NS_ERRMSG_LEN] = "";
    ns_status st;
    /* dense: LU; sparse: CHOLMOD when symmetric, else UMFPACK (AUTO) */
    if (!*F) st = ns_factor_new(Wmat, Wmat->storage == NS_DENSE ? NS_FACTOR_DENSE_LU : NS_FACTOR_AUTO, F, e2);
    else st = ns_factor_numeric(*F, Wmat, e2);
    if (st != NS_OK) {
        nsm_set_err(err, "system %d: the iteration matrix %s is %s (%s)", j, what,
                    st == NS_SINGULAR ? "singular — check the mass matrix" : "invalid", e2);
        return st == NS_SINGULAR ? NS_SINGULAR : NS_BAD_INPUT;
    }
    return NS_OK;
}

/* A constant mass matrix (Lagrangian LTI M, first-order M) must be
 * symmetric (within 1e-12·max|M|) and positive definite (Cholesky through
 * ns_factor). A callback M(q) is not checked: it may be non-symmetric where
 * the model says so. */
ns_status nsm_ds_check_mass(const nsm_ds *ds, int j, char *err)
{
    if (nsm_ds_kind_of(ds)->sparse) {   /* sparse: the same checks without a dense copy */
        if (!ns_matrix_is_symmetric(ds->Ms, 1e-12)) {
            nsm_set_err(err, "system %d: the constant (sparse) mass matrix is not symmetric", j);
            return NS_BAD_INPUT;
        }
        ns_factor *F = NULL;
        char e2[NS_ERRMSG_LEN] = "";
        ns_status st = ns_factor_new(ds->Ms, NS_FACTOR_SPARSE_CHOL, &F, e2);
        ns_factor_free(F);
        if (st != NS_OK) {
            nsm_set_err(err, "system %d: the constant (sparse) mass matrix is not positive definite (%s)", j, e2);
            return st == NS_NO_MEMORY ? st : NS_SINGULAR;
        }
        return NS_OK;
    }
    const double *M = nsm_ds_is_lagrangian(ds) && nsm_ds_kind_of(ds)->constant ? ds->M : NULL;
    if (!M) return NS_OK;
    int n = ds->n;
    double mx = 0.0;
    for (size_t i = 0; i < (size_t)n * n; i++) mx = fmax(mx, fabs(M[i]));
    for (int c = 0; c < n; c++)
        for (int r = c + 1; r < n; r++)
            if (fabs(M[r + (size_t)c * n] - M[c + (size_t)r * n]) > 1e-12 * mx) {
                nsm_set_err(err, "system %d: the constant mass matrix is not symmetric (M[%d][%d] = %g, M[%d][%d] = %g)",
                            j, r, c, M[r + (size_t)c * n], c, r, M[c + (size_t)r * n]);
                return NS_BAD_INPUT;
            }
    ns_matrix *A = ns_matrix_dense_new(n, n);
    if (!A) { nsm_set_err(err, "out of memory"); return NS_NO_MEMORY; }
    memcpy(A->dense, M, (size_t)n * n * sizeof(double));
    ns_factor *F = NULL;
    char e2[NS_ERRMSG_LEN] = "";
    ns_status st = ns_factor_new(A, NS_FACTOR_DENSE_CHOL, &F, e2);
    ns_factor_free(F);
    ns_matrix_free(A);
    if (st != NS_OK) {
        nsm_set_err(err, "system %d: the constant mass matrix is not positive definite (singular or indefinite: %s)", j, e2);
        return st == NS_NO_MEMORY ? st : NS_SINGULAR;
    }
    return NS_OK;
}
