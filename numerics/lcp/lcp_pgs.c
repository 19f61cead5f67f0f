/* lcp_pgs.c — projected Gauss–Seidel (and over-relaxed, PSOR) for the LCP
 *   z_i ← max(0, z_i − ω (M z + q)_i / M_ii),  i = 0 … n−1,
 * swept until the LCP error (ns_lcp_error, every check_every sweeps) is
 * ≤ tol. ω = o->omega, default 1 for pgs and 1.2 for psor. Needs M_ii > 0
 * (checked: NS_BAD_INPUT naming the row otherwise).
 * Rows of M are read from a CSC copy of Mᵀ, built once from any storage
 * (DENSE, SPARSE, BLOCK), so one sweep costs O(nnz). */
#include "core/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdlib.h>

static ns_status pgs_sweeps(const ns_lcp *p, double *z, double *w,
                            const ns_options *o, double omega, ns_result *res)
{
    ns_int n = p->n;
    ns_status st = NS_MAX_ITER;
    ns_matrix *Mt = NULL, *T = ns_matrix_transpose(p->M);
    if (T) Mt = ns_matrix_to_sparse(T);
    ns_matrix_free(T);
    double *diag = ns_malloc((size_t)n, sizeof(double));
    if (!Mt || !diag) { st = ns_fail(res->message, NS_NO_MEMORY, "pgs: out of memory"); goto done; }
    const ns_csc *R = &Mt->csc; /* column i of Mᵀ = row i of M */
    for (ns_int i = 0; i < n; i++) {
        diag[i] = 0.0;
        for (ns_int k = R->p[i]; k < R->p[i + 1]; k++)
            if (R->i[k] == i) diag[i] += R->x[k];
        if (!(diag[i] > 0)) {
            st = ns_fail(res->message, NS_BAD_INPUT,
                         "pgs: M[%d][%d] = %g; projected Gauss-Seidel needs a positive "
                         "diagonal (try lemke)", i, i, diag[i]);
            goto done;
        }
    }
    int every = o->check_every > 0 ? o->check_every : 1;
    double t0 = ns_now();
    for (int it = 1; it <= o->max_iter; it++) {
        for (ns_int i = 0; i < n; i++) {
            double wi = p->q[i];
            for (ns_int k = R->p[i]; k < R->p[i + 1]; k++) wi += R->x[k] * z[R->i[k]];
            double zi = z[i] - omega * wi / diag[i];
            z[i] = zi > 0 ? zi : 0.0;
        }
        res->iterations = it;
        if (it % every != 0 && it != o->max_iter) continue;
        res->error = ns_lcp_error(p, z, w);
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
    }
done:
    ns_matrix_free(Mt);
    free(diag);
    return st;
}

ns_status ns_lcp_pgs(const ns_lcp *p, double *z, double *w,
                     const ns_options *o, ns_result *res)
{
    return pgs_sweeps(p, z, w, o, o->omega > 0 ? o->omega : 1.0, res);
}

ns_status ns_lcp_psor(const ns_lcp *p, double *z, double *w,
                      const ns_options *o, ns_result *res)
{
    return pgs_sweeps(p, z, w, o, o->omega > 0 ? o->omega : 1.2, res);
}
