/* cqp_admm.c — ADMM for the convex QP with a set C and equalities A x = b:
 * split x (quadratic and equalities) from z ∈ C with x = z, scaled dual u:
 *   x ← argmin ½xᵀMx + qᵀx + ρ/2 ‖x − z + u‖² s.t. A x = b, i.e. the KKT
 *       system [M + ρI  Aᵀ; A  0] [x; ν] = [ρ(z − u) − q; b] (UMFPACK,
 *       refactored only when ρ changes),
 *   z ← P_C(x + u),  u ← u + x − z.
 * At a fixed point x = z, M x + q + Aᵀν = −ρu with u ∈ N_C(z): y = −ν are
 * the multipliers of A x = b and the returned point z is in C. ρ starts at
 * 1 (scaled by the diagonal of M) and is doubled or halved every 10
 * iterations when the primal residual ‖x − z‖ and the dual residual
 * ρ‖z − z_prev‖ differ by more than 10 (residual balancing, Boyd et al.).
 * Stops when the kind's error (ns_cqp_error) at (z, y) is ≤ tol. */
#include "solve/solvers.h"
#include "cqp/cqp_internal.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* K = [M + ρI, Aᵀ; A, 0] in CSC. */
static ns_matrix *kkt(const ns_cqp *p, const ns_matrix *Ms, const ns_matrix *As, double rho)
{
    ns_int n = p->n, m = p->m, N = n + m;
    ns_int nnzA = As ? As->csc.nnz : 0;
    ns_matrix *K = ns_matrix_sparse_new(N, N, Ms->csc.nnz + n + 2 * nnzA);
    if (!K) return NULL;
    /* count per column: M's column j plus (j, j) plus A's column j (rows n..);
     * columns n + r: row r of A, transposed */
    ns_int k = 0;
    for (ns_int j = 0; j < n; j++) {
        K->csc.p[j] = k;
        int diag = 0;
        for (ns_int t = Ms->csc.p[j]; t < Ms->csc.p[j + 1]; t++) {
            ns_int i = Ms->csc.i[t];
            double v = Ms->csc.x[t];
            if (i == j) {
                if (diag) {
                    for (ns_int s = K->csc.p[j]; s < k; s++)
                        if (K->csc.i[s] == j) { K->csc.x[s] += v; break; }
                    continue;
                }
                v += rho;
                diag = 1;
            }
            K->csc.i[k] = i;
            K->csc.x[k++] = v;
        }
        if (!diag) { K->csc.i[k] = j; K->csc.x[k++] = rho; }
        if (As)
            for (ns_int t = As->csc.p[j]; t < As->csc.p[j + 1]; t++) {
                K->csc.i[k] = n + As->csc.i[t];
                K->csc.x[k++] = As->csc.x[t];
            }
    }
    if (m > 0) {
        /* Aᵀ blocks: column n + r holds row r of A */
        ns_int *cnt = ns_calloc((size_t)m + 1, sizeof(ns_int));
        if (!cnt) { ns_matrix_free(K); return NULL; }
        for (ns_int t = 0; t < nnzA; t++) cnt[As->csc.i[t] + 1]++;
        for (ns_int r = 0; r < m; r++) cnt[r + 1] += cnt[r];
        for (ns_int r = 0; r <= m; r++) K->csc.p[n + r] = k + cnt[r];
        for (ns_int j = 0; j < n; j++)
            for (ns_int t = As->csc.p[j]; t < As->csc.p[j + 1]; t++) {
                ns_int r = As->csc.i[t];
                ns_int pos = k + cnt[r]++;
                K->csc.i[pos] = j;
                K->csc.x[pos] = As->csc.x[t];
            }
        free(cnt);
        k += nnzA;
    }
    K->csc.p[N] = k;
    K->csc.nnz = k;
    return K;
}

ns_status ns_cqp_admm(const ns_cqp *p, double *x, double *y, double *g,
                      const ns_options *o, ns_result *res)
{
    ns_int n = p->n, m = p->m, N = n + m;
    res->error = INFINITY;
    if (n == 0 && m == 0) { res->error = 0.0; return NS_CONVERGED; }
    size_t sz = (size_t)(N > 0 ? N : 1);
    ns_matrix *Ms = ns_matrix_to_sparse(p->M);
    ns_matrix *As = m > 0 ? ns_matrix_to_sparse(p->A) : NULL;
    double *rhs = ns_malloc(sz, sizeof(double)), *z = ns_malloc(sz, sizeof(double)),
           *u = ns_calloc(sz, sizeof(double)), *zo = ns_malloc(sz, sizeof(double)),
           *t = ns_malloc(sz, sizeof(double)), *yb = ns_calloc(sz, sizeof(double)),
           *zb = ns_malloc(sz, sizeof(double));
    ns_factor *Fa = NULL;
    ns_status st = NS_MAX_ITER;
    if (!Ms || (m > 0 && !As) || !rhs || !z || !u || !zo || !t || !yb || !zb) {
        st = ns_fail(res->message, NS_NO_MEMORY, "admm: out of memory");
        goto done;
    }
    double dmax = 0.0;
    for (ns_int i = 0; i < n; i++) { double v = fabs(ns_matrix_get(p->M, i, i)); if (v > dmax) dmax = v; }
    double rho = dmax > 0 ? dmax : 1.0, ebest = INFINITY, t0 = ns_now();
    if (ns_cqp_project(p, x, z)) { st = ns_fail(res->message, NS_FAILED, "admm: projection failed"); goto done; }
    int refactor = 1, k;
    for (k = 0; k < o->max_iter; k++) {
        if (refactor) {
            ns_factor_free(Fa);
            Fa = NULL;
            ns_matrix *K = kkt(p, Ms, As, rho);
            if (!K) { st = ns_fail(res->message, NS_NO_MEMORY, "admm: out of memory"); break; }
            char why[NS_ERRMSG_LEN];
            ns_status fs = ns_factor_new(K, NS_FACTOR_SPARSE_LU, &Fa, why);
            ns_matrix_free(K);
            if (fs) {
                st = ns_fail(res->message, NS_SINGULAR, "admm: KKT matrix [M + rho I, A'; A, 0] "
                             "cannot be factorised (A without full row rank?): %.120s", why);
                break;
            }
            refactor = 0;
        }
        for (ns_int i = 0; i < n; i++) rhs[i] = rho * (z[i] - u[i]) - p->q[i];
        for (ns_int r = 0; r < m; r++) rhs[n + r] = p->b[r];
        if (ns_factor_solve(Fa, rhs, 1, N) || !ns_all_finite(rhs, (size_t)N)) {
            st = ns_fail(res->message, NS_SINGULAR, "admm: KKT solve failed");
            break;
        }
        memcpy(zo, z, (size_t)n * sizeof(double));
        for (ns_int i = 0; i < n; i++) t[i] = rhs[i] + u[i];
        if (ns_cqp_project(p, t, z)) { st = ns_fail(res->message, NS_FAILED, "admm: projection failed"); break; }
        double rp = 0.0, rd = 0.0;
        for (ns_int i = 0; i < n; i++) {
            double a = rhs[i] - z[i], b = z[i] - zo[i];
            u[i] += a;
            rp += a * a;
            rd += b * b;
        }
        rp = sqrt(rp);
        rd = rho * sqrt(rd);
        for (ns_int r = 0; r < m; r++) y[r] = -rhs[n + r];
        double e = ns_cqp_error(p, z, y, g);
        if (e < ebest) {
            ebest = e;
            memcpy(zb, z, (size_t)n * sizeof(double));
            if (m) memcpy(yb, y, (size_t)m * sizeof(double));
        }
        ns_log(o, 2, "admm: iteration %d, error %.3e, primal %.3e, dual %.3e, rho %.3e", k, e, rp, rd, rho);
        if (e <= o->tol) { st = NS_CONVERGED; k++; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; k++; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; k++; break; }
        if (k % 10 == 9) {
            if (rp > 10.0 * rd) { rho *= 2.0; for (ns_int i = 0; i < n; i++) u[i] *= 0.5; refactor = 1; }
            else if (rd > 10.0 * rp) { rho *= 0.5; for (ns_int i = 0; i < n; i++) u[i] *= 2.0; refactor = 1; }
        }
    }
    res->iterations += k;
    if (isfinite(ebest)) {
        memcpy(x, zb, (size_t)n * sizeof(double));
        if (m) memcpy(y, yb, (size_t)m * sizeof(double));
        res->error = ebest;
    }
    if (st == NS_MAX_ITER) ns_fail(res->message, st, "admm: %d iterations, error %.3e", k, res->error);
done:
    ns_factor_free(Fa);
    ns_matrix_free(Ms); ns_matrix_free(As);
    free(rhs); free(z); free(u); free(zo); free(t); free(yb); free(zb);
    return st;
}

ns_status ns_cqp_auto(const ns_cqp *p, double *x, double *y, double *g,
                      const ns_options *o, ns_result *res)
{
    if (p->m > 0) return ns_cqp_admm(p, x, y, g, o, res);
    double *x0 = ns_dup(x, (size_t)p->n);
    if (!x0 && p->n > 0) return ns_fail(res->message, NS_NO_MEMORY, "cqp: out of memory");
    ns_status st = ns_cqp_pg_bb(p, x, y, g, o, res);
    if (st != NS_CONVERGED && st != NS_NO_MEMORY && st != NS_INTERRUPTED) {
        memcpy(x, x0, (size_t)p->n * sizeof(double));
        res->message[0] = '\0';
        st = ns_cqp_admm(p, x, y, g, o, res);
    }
    free(x0);
    return st;
}
