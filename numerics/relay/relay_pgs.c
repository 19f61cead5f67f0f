/* relay_pgs.c — projected Gauss–Seidel for the relay problem
 *   z_i ← P_[lb_i, ub_i](z_i − ω (M z + q)_i / M_ii),  i = 0 … n−1,
 * swept until the relay error (ns_relay_error) is ≤ tol. Needs M_ii > 0
 * (NS_BAD_INPUT naming the row otherwise). Rows of M are read from a dense
 * transposed copy. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <cblas.h>
#include <math.h>
#include <stdlib.h>

ns_status ns_relay_pgs(const ns_relay *p, double *z, double *w,
                       const ns_options *o, ns_result *res)
{
    ns_int n = p->n;
    ns_status st = NS_MAX_ITER;
    double *M = ns_dense_copy(p->M);
    double *Mt = ns_malloc((size_t)n * n, sizeof(double));
    if (!M || !Mt) { st = ns_fail(res->message, NS_NO_MEMORY, "relay pgs: out of memory"); goto done; }
    for (ns_int j = 0; j < n; j++)
        for (ns_int i = 0; i < n; i++) Mt[j + (size_t)i * n] = M[i + (size_t)j * n];
    for (ns_int i = 0; i < n; i++)
        if (!(Mt[i + (size_t)i * n] > 0)) {
            st = ns_fail(res->message, NS_BAD_INPUT, "relay pgs: M[%d][%d] = %g; projected "
                         "Gauss-Seidel needs a positive diagonal (try lemke)", (int)i,
                         (int)i, Mt[i + (size_t)i * n]);
            goto done;
        }
    double omega = o->omega > 0 ? o->omega : 1.0;
    double t0 = ns_now();
    for (int it = 1; it <= o->max_iter; it++) {
        for (ns_int i = 0; i < n; i++) {
            const double *row = Mt + (size_t)i * n;
            double wi = p->q[i] + cblas_ddot(n, row, 1, z, 1);
            double zi = z[i] - omega * wi / row[i];
            if (zi < p->lb[i]) zi = p->lb[i];
            if (zi > p->ub[i]) zi = p->ub[i];
            z[i] = zi;
        }
        res->iterations = it;
        res->error = ns_relay_error(p, z, w);
        int stop = ns_iteration(o, res, res->error);
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (stop) { st = NS_INTERRUPTED; break; }
    }
done:
    free(M); free(Mt);
    return st;
}
