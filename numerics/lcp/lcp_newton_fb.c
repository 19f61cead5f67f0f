/* lcp_newton_fb.c — semismooth Newton method for the LCP (and, through the
 * kernel, the MLCP and relay), on the reformulation
 *   Φ(z) = 0,  Φ_i = φ(z_i, w_i),  w = M z + q,
 *   φ(a, b) = √(a² + b²) − a − b   (Fischer–Burmeister: φ = 0 ⇔ 0 ≤ a ⊥ b ≥ 0)
 *   or φ(a, b) = min(a, b)        (min-map variant, lcp_newton_min.c),
 * and Φ_i = w_i on equality rows. Each step solves H d = −Φ with an element
 * H = D_a + D_b M of the generalised Jacobian (D_a, D_b diagonal; at the kink
 * a = b = 0 the FB element uses the direction (1, 1)/√2), by LU
 * (ns_kernel_lu), then
 * backtracks (Armijo, σ = 1e-4) on the merit Ψ = ½‖Φ‖². Safeguard: when H is
 * singular or d is not a descent direction (∇Ψᵀd > −ρ‖d‖^2.1, ρ = 1e-8), the
 * step is the steepest descent −∇Ψ = −HᵀΦ. Stops when the caller's error is
 * ≤ tol; the last iterate's active set {eq} ∪ {i : z_i > w_i} is then solved
 * exactly and kept if its error is smaller. */
#include "core/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double phi(int minmap, double a, double b)
{
    if (minmap) return a < b ? a : b;
    return hypot(a, b) - a - b;
}

/* Φ and ½‖Φ‖² at (z, w). */
static double merit(ns_int n, const unsigned char *eq, int minmap,
                    const double *z, const double *w, double *F)
{
    double s = 0.0;
    for (ns_int i = 0; i < n; i++) {
        F[i] = (eq && eq[i]) ? w[i] : phi(minmap, z[i], w[i]);
        s += F[i] * F[i];
    }
    return 0.5 * s;
}

/* Solves the equations of the active set A = eq ∪ {z_i > w_i} exactly:
 * M_AA z_A = −q_A, z = 0 off A (LU, then two steps of iterative refinement
 * with the residual accumulated in long double). Returns 0 on success. */
int ns_active_set_solve(ns_int n, const double *M, const double *q,
                        const unsigned char *eq, const double *z, const double *w,
                        double *zp, double *work, lapack_int *piv, ns_int *A)
{
    ns_int na = 0;
    for (ns_int i = 0; i < n; i++)
        if ((eq && eq[i]) || z[i] > w[i]) A[na++] = i;
    for (ns_int i = 0; i < n; i++) zp[i] = 0.0;
    if (na == 0) return 0;
    double *rhs = work + (size_t)na * (size_t)na;
    for (ns_int b = 0; b < na; b++) {
        rhs[b] = -q[A[b]];
        for (ns_int a = 0; a < na; a++)
            work[a + (size_t)b * na] = M[A[a] + (size_t)A[b] * n];
    }
    if (ns_kernel_lu(na, work, na, piv) != 0) return 1;
    ns_kernel_lu_solve(na, work, na, piv, rhs);
    for (ns_int a = 0; a < na; a++) zp[A[a]] = rhs[a];
    /* two steps of iterative refinement, residual in long double */
    for (int ref = 0; ref < 2; ref++) {
        for (ns_int a = 0; a < na; a++) {
            long double r = q[A[a]];
            for (ns_int b = 0; b < na; b++)
                r += (long double)M[A[a] + (size_t)A[b] * n] * zp[A[b]];
            rhs[a] = (double)-r;
        }
        ns_kernel_lu_solve(na, work, na, piv, rhs);
        for (ns_int a = 0; a < na; a++) zp[A[a]] += rhs[a];
    }
    return 0;
}

ns_status ns_newton_dense(ns_int n, const double *M, const double *q,
                          const unsigned char *eq, int minmap,
                          double *z, double *w, const ns_options *o,
                          ns_kernel_error_fn err, const void *ctx,
                          ns_result *res)
{
    const char *name = minmap ? "newton-min" : "newton-fb";
    ns_status st = NS_MAX_ITER;
    res->iterations = 0;
    if (n == 0) { res->error = err(ctx, z, w); return NS_CONVERGED; }
    size_t nn = (size_t)n * (size_t)n;
    double *H = ns_malloc(nn, sizeof(double));
    double *LU = ns_malloc(nn + (size_t)n, sizeof(double));
    double *F = ns_malloc((size_t)n, sizeof(double));
    double *d = ns_malloc((size_t)n, sizeof(double));
    double *g = ns_malloc((size_t)n, sizeof(double));
    double *Md = ns_malloc((size_t)n, sizeof(double));
    double *zt = ns_malloc((size_t)n, sizeof(double));
    double *wt = ns_malloc((size_t)n, sizeof(double));
    double *Da = ns_malloc((size_t)n, sizeof(double));
    double *Db = ns_malloc((size_t)n, sizeof(double));
    lapack_int *piv = ns_malloc((size_t)n, sizeof(lapack_int));
    ns_int *A = ns_malloc((size_t)n, sizeof(ns_int));
    if (!H || !LU || !F || !d || !g || !Md || !zt || !wt || !Da || !Db || !piv || !A) {
        st = ns_fail(res->message, NS_NO_MEMORY, "%s: out of memory", name);
        goto done;
    }
    res->error = err(ctx, z, w);
    double psi = merit(n, eq, minmap, z, w, F);
    double t0 = ns_now();
    int stalled = 0;
    for (int it = 0; it < o->max_iter; it++) {
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        /* H = D_a + D_b M */
        for (ns_int i = 0; i < n; i++) {
            if (eq && eq[i]) { Da[i] = 0.0; Db[i] = 1.0; continue; }
            if (minmap) {
                if (z[i] <= w[i]) { Da[i] = 1.0; Db[i] = 0.0; }
                else { Da[i] = 0.0; Db[i] = 1.0; }
                continue;
            }
            double r = hypot(z[i], w[i]);
            if (r > 1e-300 && r > 1e-14 * (fabs(z[i]) + fabs(w[i]) + 1e-280)) {
                Da[i] = z[i] / r - 1.0;
                Db[i] = w[i] / r - 1.0;
            } else {
                Da[i] = Db[i] = 0.70710678118654752440 - 1.0;
            }
        }
        for (ns_int j = 0; j < n; j++) {
            const double *Mj = M + (size_t)j * n;
            double *Hj = H + (size_t)j * n;
            for (ns_int i = 0; i < n; i++) Hj[i] = Db[i] * Mj[i];
            Hj[j] += Da[j];
        }
        /* g = ∇Ψ = Hᵀ Φ;  Newton d = −H⁻¹ Φ */
        cblas_dgemv(CblasColMajor, CblasTrans, n, n, 1.0, H, n, F, 1, 0.0, g, 1);
        memcpy(LU, H, nn * sizeof(double));
        for (ns_int i = 0; i < n; i++) d[i] = -F[i];
        int info = ns_kernel_lu(n, LU, n, piv);
        if (info == 0) ns_kernel_lu_solve(n, LU, n, piv, d);
        double gd = cblas_ddot(n, g, 1, d, 1);
        double dn = cblas_dnrm2(n, d, 1);
        int newton = info == 0 && ns_all_finite(d, (size_t)n) &&
                     gd <= -1e-8 * pow(dn, 2.1);
        if (!newton) {
            for (ns_int i = 0; i < n; i++) d[i] = -g[i];
            gd = -cblas_ddot(n, g, 1, g, 1);
        }
        /* Armijo backtracking on Ψ; the min-map Ψ is not smooth, so its
         * sufficient decrease uses the Newton model ∇Ψᵀd = −2Ψ */
        if (minmap && newton) gd = -2.0 * psi;
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, 1.0, M, n, d, 1, 0.0, Md, 1);
        double t = 1.0, psit = psi;
        int accepted = 0;
        for (int ls = 0; ls < 40; ls++, t *= 0.5) {
            for (ns_int i = 0; i < n; i++) { zt[i] = z[i] + t * d[i]; wt[i] = w[i] + t * Md[i]; }
            psit = merit(n, eq, minmap, zt, wt, F);
            if (psit <= psi + 1e-4 * t * gd) { accepted = 1; break; }
        }
        if (!accepted) {
            if (++stalled >= 3 || psit > psi) {
                merit(n, eq, minmap, z, w, F);
                st = NS_MAX_ITER;
                ns_fail(res->message, NS_MAX_ITER, "%s: line search failed at "
                        "iteration %d (merit %.3g)", name, it + 1, psi);
                res->iterations = it + 1;
                break;
            }
        } else stalled = 0;
        memcpy(z, zt, (size_t)n * sizeof(double));
        psi = psit;
        res->iterations = it + 1;
        res->error = err(ctx, z, w);       /* refreshes w = M z + q exactly */
        psi = merit(n, eq, minmap, z, w, F);
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        /* full Newton step: the active set is likely right, try it exactly */
        if (newton && t == 1.0 && res->error > o->tol &&
            ns_active_set_solve(n, M, q, eq, z, w, zt, LU, piv, A) == 0) {
            double e2 = err(ctx, zt, wt);
            if (e2 <= o->tol) {
                memcpy(z, zt, (size_t)n * sizeof(double));
                memcpy(w, wt, (size_t)n * sizeof(double));
                res->error = e2;
            }
        }
        if (o->verbosity >= 2 && o->log) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s: iteration %d, step %g (%s), error %.3e",
                     name, it + 1, t, newton ? "newton" : "gradient", res->error);
            o->log(o->log_user, 2, msg);
        }
    }
    if (res->error <= o->tol) st = NS_CONVERGED;
    /* polish on the active set */
    if (st != NS_DIVERGED &&
        ns_active_set_solve(n, M, q, eq, z, w, zt, LU, piv, A) == 0) {
        double e2 = err(ctx, zt, wt);
        if (e2 < res->error) {
            memcpy(z, zt, (size_t)n * sizeof(double));
            memcpy(w, wt, (size_t)n * sizeof(double));
            res->error = e2;
            if (e2 <= o->tol) { st = NS_CONVERGED; res->message[0] = '\0'; }
        }
    }
done:
    free(H); free(LU); free(F); free(d); free(g); free(Md); free(zt); free(wt);
    free(Da); free(Db); free(piv); free(A);
    return st;
}

static double lcp_err(const void *ctx, const double *z, double *w)
{
    return ns_lcp_error((const ns_lcp *)ctx, z, w);
}

ns_status ns_lcp_newton_fb(const ns_lcp *p, double *z, double *w,
                           const ns_options *o, ns_result *res)
{
    double *M = ns_dense_copy(p->M);
    if (!M) return ns_fail(res->message, NS_NO_MEMORY, "newton-fb: out of memory");
    ns_status st = ns_newton_dense(p->n, M, p->q, NULL, 0, z, w, o, lcp_err, p, res);
    free(M);
    return st;
}
