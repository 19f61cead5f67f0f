/* lagrangian_lti_sparse.c — Lagrangian linear time-invariant system with
 * its matrices in SPARSE storage:
 *     M q̈ + C q̇ + K q = f_ext(t) + p,   M, C, K constant, CSC.
 * Made for large finite-element models: nothing here (nor in the
 * integrator, moreau_jean.c, for a kind with .sparse set) allocates or
 * forms an n×n dense matrix. The dense table entries (mass, Jacobians)
 * scatter the sparse matrices into the caller's dense n×n buffer; they
 * serve callers that work densely anyway (event-driven, small n). */
#include "ds/ds_kind.h"
#include <stdlib.h>
#include <string.h>

/* CSC copy of A (n×n, any storage) with finite entries; NULL otherwise. */
static ns_matrix *sparse_copy(const char *who, const char *what, const ns_matrix *A, int n)
{
    if (!A) return NULL;
    if (A->rows != n || A->cols != n) return nsm_ctor_fail("%s: %s is %d x %d, expected %d x %d", who, what, (int)A->rows, (int)A->cols, n, n);
    char err[NS_ERRMSG_LEN] = "";
    if (ns_matrix_validate(A, what, err) != NS_OK) return nsm_ctor_fail("%s: %s", who, err);
    ns_matrix *S = ns_matrix_to_sparse(A);
    if (!S) return nsm_ctor_fail("%s: %s: out of memory", who, what);
    return S;
}

nsm_ds *nsm_ds_lagrangian_lti_sparse_new(int n, const ns_matrix *M, const ns_matrix *C,
                                         const ns_matrix *K, const double *q0, const double *v0)
{
    static const char who[] = "nsm_ds_lagrangian_lti_sparse_new";
    if (!M) return nsm_ctor_fail("%s: M is NULL (required)", who);
    nsm_ds *ds = nsm_ds_alloc(NSM_DS_LAGRANGIAN_LTI_SPARSE, n, who);
    if (!ds) return NULL;
    /* M's size first: it tells whether q0, v0 can hold n values */
    ds->Ms = sparse_copy(who, "M", M, n);
    if (!ds->Ms) { nsm_ds_free(ds); return NULL; }
    if (nsm_ctor_check(who, "q0", q0, (size_t)n, 0) || nsm_ctor_check(who, "v0", v0, (size_t)n, 0)) {
        nsm_ds_free(ds);
        return NULL;
    }
    if (C && !(ds->Cs = sparse_copy(who, "C", C, n))) { nsm_ds_free(ds); return NULL; }
    if (K && !(ds->Ks = sparse_copy(who, "K", K, n))) { nsm_ds_free(ds); return NULL; }
    ds->q0 = nsm_dup(q0, (size_t)n);
    ds->v0 = nsm_dup(v0, (size_t)n);
    if (!ds->q0 || !ds->v0) { nsm_ds_free(ds); return nsm_ctor_fail("%s: out of memory", who); }
    nsm_ctor_ok();
    return ds;
}

/* D (n×n dense, zeroed by the caller) += A (CSC). */
static void scatter(const ns_matrix *A, int n, double *D)
{
    if (!A) return;
    for (ns_int c = 0; c < A->cols; c++)
        for (ns_int k = A->csc.p[c]; k < A->csc.p[c + 1]; k++)
            D[A->csc.i[k] + (size_t)c * n] += A->csc.x[k];
}

static int mass(const nsm_ds *ds, const double *q, double *M)
{
    (void)q;
    scatter(ds->Ms, ds->n, M);
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
    if (ds->Cs) ns_matrix_gemv(-1.0, ds->Cs, v, 1.0, F);
    if (ds->Ks) ns_matrix_gemv(-1.0, ds->Ks, q, 1.0, F);
    if (Kt) { memset(Kt, 0, nn * sizeof *Kt); scatter(ds->Ks, n, Kt); }
    if (Ct) { memset(Ct, 0, nn * sizeof *Ct); scatter(ds->Cs, n, Ct); }
    return 0;
}

const nsm_ds_kind nsm_ds_kind_lagrangian_lti_sparse = {
    .type = NSM_DS_LAGRANGIAN_LTI_SPARSE, .name = "Lagrangian LTI (sparse)", .lagrangian = 1,
    .constant = 1, .linear = 1, .sparse = 1, .mass = mass, .forces = forces,
};

ns_matrix *nsm_ds_sparse_combination(const nsm_ds *ds, double a, double b)
{
    int n = ds->n;
    const ns_matrix *T[3] = { ds->Ms, ds->Cs, ds->Ks };
    double w[3] = { 1.0, a, b };
    ns_int cap = 0;
    for (int k = 0; k < 3; k++) if (T[k] && w[k] != 0.0) cap += T[k]->csc.nnz;
    ns_matrix *W = ns_matrix_sparse_new(n, n, cap);
    ns_int *mark = malloc((size_t)n * sizeof *mark);
    if (!W || !mark) { ns_matrix_free(W); free(mark); return NULL; }
    for (int i = 0; i < n; i++) mark[i] = -1;
    ns_int nz = 0;
    for (int c = 0; c < n; c++) {
        ns_int start = nz;
        W->csc.p[c] = nz;
        for (int k = 0; k < 3; k++) {
            if (!T[k] || w[k] == 0.0) continue;
            for (ns_int e = T[k]->csc.p[c]; e < T[k]->csc.p[c + 1]; e++) {
                ns_int r = T[k]->csc.i[e];
                if (mark[r] < start) { mark[r] = nz; W->csc.i[nz] = r; W->csc.x[nz] = 0.0; nz++; }
                W->csc.x[mark[r]] += w[k] * T[k]->csc.x[e];
            }
        }
    }
    W->csc.p[n] = nz;
    W->csc.nnz = nz;
    free(mark);
    return W;
}
