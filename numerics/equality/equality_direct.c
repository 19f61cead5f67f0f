/* equality_direct.c — M z + q = 0 by one factorization:
 *   z = −M⁻¹ q with CHOLMOD when M is sparse (SPARSE/BLOCK) and symmetric
 *   positive definite, UMFPACK when sparse otherwise, LAPACKE LU when dense.
 * A sparse symmetric matrix that is not positive definite falls back to LU. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include <stdlib.h>
#include <string.h>

ns_status ns_equality_direct(const ns_equality *p, double *z, double *w,
                             const ns_options *o, ns_result *res)
{
    ns_factor *F = NULL;
    ns_factor_method method;
    if (p->M->storage == NS_DENSE) method = NS_FACTOR_DENSE_LU;
    else if (ns_matrix_is_symmetric(p->M, 1e-14)) method = NS_FACTOR_SPARSE_CHOL;
    else method = NS_FACTOR_SPARSE_LU;

    ns_status st = ns_factor_new(p->M, method, &F, res->message);
    if (st == NS_SINGULAR && method == NS_FACTOR_SPARSE_CHOL) {
        ns_factor_free(F);
        F = NULL;
        res->message[0] = '\0';
        st = ns_factor_new(p->M, NS_FACTOR_SPARSE_LU, &F, res->message);
    }
    if (st) {
        ns_factor_free(F);
        if (st == NS_SINGULAR && !res->message[0])
            ns_fail(res->message, st, "equality: M is singular");
        return st;
    }
    for (ns_int i = 0; i < p->n; i++) z[i] = -p->q[i];
    st = ns_factor_solve(F, z, 1, p->n > 0 ? p->n : 1);
    ns_factor_free(F);
    if (st) return ns_fail(res->message, st, "equality: solve failed");
    res->iterations = 1;
    res->error = ns_equality_error(p, z, w);
    if (res->error > o->tol)
        return ns_fail(res->message, NS_SINGULAR,
                       "equality: M is numerically singular (residual %.3g after the solve)",
                       res->error);
    return NS_CONVERGED;
}
