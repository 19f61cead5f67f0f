/* mcp_map.c — F and ∇F of the callback kinds (ncp, mcp, vi): callback or
 * affine M z + q; Jacobian from the callback, M, or forward differences
 * (column j: (F(z + h e_j) − F(z)) / h, h = √ε · max(1, |z_j|)). */
#include "mcp/mcp_internal.h"
#include "core/ns_internal.h"
#include <math.h>
#include "problems/problem_check.h"
#include <string.h>

int ns_bounds_copy0(ns_int n, double **lb, double **ub)
{
    return ns_bounds_copy(n, NULL, NULL, lb, ub);
}

int ns_cp_eval(const ns_cp_map *f, const double *z, double *Fz)
{
    size_t n = (size_t)f->n;
    if (f->F) {
        if (f->F(f->user, f->n, z, Fz) != 0) return 1;
    } else {
        memcpy(Fz, f->q, n * sizeof(double));
        ns_matrix_gemv(1.0, f->M, z, 1.0, Fz);
    }
    return ns_all_finite(Fz, n) ? 0 : 1;
}

const ns_matrix *ns_cp_jacobian(const ns_cp_map *f, const double *z, const double *Fz,
                                double *work, ns_matrix **owned)
{
    *owned = NULL;
    if (!f->F) return f->M;
    ns_int n = f->n;
    if (f->J) {
        ns_matrix *J = f->J(f->user, n, z);
        if (!J) return NULL;
        if (J->rows != n || J->cols != n || ns_matrix_validate(J, "J", NULL)) {
            ns_matrix_free(J);
            return NULL;
        }
        *owned = J;
        return J;
    }
    ns_matrix *J = ns_matrix_dense_new(n, n);
    if (!J) return NULL;
    double *Ft = work, *zz = work + n;   /* F at the perturbed copy zz of z */
    memcpy(zz, z, (size_t)n * sizeof(double));
    double eps = sqrt(2.220446049250313e-16);
    for (ns_int j = 0; j < n; j++) {
        double zj = zz[j], h = eps * (fabs(zj) > 1.0 ? fabs(zj) : 1.0);
        zz[j] = zj + h;
        h = zz[j] - zj;
        int bad = f->F(f->user, n, zz, Ft) != 0;
        zz[j] = zj;
        if (bad || !ns_all_finite(Ft, (size_t)n)) { ns_matrix_free(J); return NULL; }
        double *col = J->dense + (size_t)j * (size_t)n;
        for (ns_int i = 0; i < n; i++) col[i] = (Ft[i] - Fz[i]) / h;
    }
    *owned = J;
    return J;
}

double ns_box_natural_residual(ns_int n, const double *lb, const double *ub,
                               const double *z, const double *Fz)
{
    double s = 0.0;
    for (ns_int i = 0; i < n; i++) {
        double y = z[i] - Fz[i];
        if (y < lb[i]) y = lb[i];
        else if (y > ub[i]) y = ub[i];
        double d = z[i] - y;
        s += d * d;
    }
    return sqrt(s);
}
