/* lcp_lemke.c — Lemke's complementary pivoting method for the LCP
 *   w = M z + q,  0 ≤ z ⊥ w ≥ 0,
 * on the augmented system  I w − M z − d z0 = q  (covering vector d = 1).
 * Start: basis {w}, z0 enters and the row of the lexicographically smallest
 * (q_i, e_iᵀ)/d_i leaves, which makes every basic row lexicographically
 * positive. Then the complement of the variable that left enters; the leaving
 * row is chosen by the lexicographic minimum ratio test on the rows
 * (x_i, (B⁻¹)_i) / c_i over c_i > 0, c = B⁻¹ a_entering, so the basis never
 * repeats and the method ends on degenerate problems. It ends with
 *   - z0 leaving the basis: (z, w) solves the LCP (a tie with z0's row is
 *     resolved in favour of z0);
 *   - no c_i > 0: a secondary ray → NS_NO_SOLUTION, with the ray's z part
 *     (ns_lemke_dense_ex): for copositive-plus M it is a Farkas certificate
 *     of infeasibility, which ns_solve checks before it reports no_solution.
 * The basis inverse B⁻¹ is kept explicitly and updated by one rank-1 product
 * per pivot. Column k of B⁻¹ stays the unit vector e_k as long as w_k has
 * never left the basis (it then sits in row k and every update multiplies
 * that column by v_k = (B⁻¹)_{r,k} = 0): such "pristine" columns are neither
 * stored nor updated, so a pivot and c = B⁻¹ a cost O(n·d), d = number of
 * columns that have left the unit form (own loops: no BLAS threading on the
 * small, latency-bound products). The final basic solution is refined once
 * with the tableau's own B⁻¹ (residual q − B x_B in long double); when its
 * error is then ≤ min(tol, 64 eps) that is the answer — one error
 * evaluation, no LU: the cost that matters for the small problems of a
 * time-stepping loop. Otherwise the final basis is
 * solved again directly (LU of M_JJ, J = basic z's, two steps of iterative
 * refinement with the residual in long double) and that solution kept if its
 * error is smaller ("polish"); if that fails (M_JJ singular, z_J < 0), or
 * does not improve an error still above tol, and the error is above 4 eps,
 * a least-squares polish on the active set (ns_active_set_refine), which
 * works when M_JJ is singular. A direct solve that succeeds without
 * improving an answer within tol has found the error measure's rounding
 * floor (a 15-unknown relay as an LCP: 7.8e-12 after the pivots, the LU and
 * both least-squares passes alike, which were 70 % of the solve).
 *
 * With an equality mask (ns_lemke_mixed_dense, the MLCP) the free z_E are
 * first pivoted into the basis in place of w_E and then stay there: excluded
 * from the ratio tests and from the clamping of negative values; the lex
 * rule compares the columns of B⁻¹ of the complementarity rows only (that
 * block is the Schur complement LCP's basis inverse), and the covering
 * vector is 0 on the equality rows. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <lapacke.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (B⁻¹)_{i,k}: e_k when column k is pristine (unit[k]), else stored. */
#define BINV(i, k) (unit[k] ? ((i) == (k) ? 1.0 : 0.0) \
                            : binv[(size_t)(i) + (size_t)(k) * (size_t)n])

/* Lexicographic minimum ratio test over the candidate rows cand[0..nc-1]
 * (all with c_i > 0). Returns the chosen row; prefers the row of z0 (row0)
 * on a tie of the first component. */
static ns_int lex_ratio(ns_int n, const double *x, const double *binv,
                        const unsigned char *unit, const double *c, ns_int *cand, ns_int nc, ns_int row0,
                        const unsigned char *eq, double qs, double *ratio)
{
    /* ratio[t]: the first component, divided once (the divisions were
     * half of a small pivot's time) */
    double best = INFINITY;
    for (ns_int t = 0; t < nc; t++) {
        double r = x[cand[t]] / c[cand[t]];
        ratio[t] = r;
        if (r < best) best = r;
    }
    /* ties of the first component: relative to the data's scale qs =
     * max |q_i| (not 1): LCP(M, αq) pivots as LCP(M, q) does, and a tiny q
     * (1e-15, a resting contact) is not all "tied" */
    double tol = 1e-12 * (qs + fabs(best));
    ns_int m = 0;
    for (ns_int t = 0; t < nc; t++)
        if (ratio[t] <= best + tol) cand[m++] = cand[t];
    if (m == 1) return cand[0];
    for (ns_int t = 0; t < m; t++)
        if (cand[t] == row0) return row0;
    for (ns_int k = 0; k < n && m > 1; k++) {
        if (eq && eq[k]) continue;   /* the reduced LCP's B⁻¹ is the C × C block */
        best = INFINITY;
        double scale = 0.0;
        for (ns_int t = 0; t < m; t++) {
            double r = BINV(cand[t], k) / c[cand[t]];
            if (r < best) best = r;
            if (fabs(r) > scale) scale = fabs(r);
        }
        tol = 1e-12 * (1.0 + scale);
        ns_int m2 = 0;
        for (ns_int t = 0; t < m; t++)
            if (BINV(cand[t], k) / c[cand[t]] <= best + tol) cand[m2++] = cand[t];
        m = m2;
    }
    /* left-over numerical tie: the largest pivot is the most stable */
    ns_int r = cand[0];
    for (ns_int t = 1; t < m; t++)
        if (c[cand[t]] > c[r]) r = cand[t];
    return r;
}

/* Row i of the tableau holds a free z_j (an MLCP's equality unknown): it
 * takes any sign and never leaves the basis. */
#define IS_FREE(i) (eq && basis[i] >= n && basis[i] < 2 * n && eq[basis[i] - n])

/* z from the basis: z_j = x[pos of z_j] if basic, 0 otherwise. */
static void basis_z(ns_int n, const ns_int *basis, const double *x, double *z)
{
    for (ns_int j = 0; j < n; j++) z[j] = 0.0;
    for (ns_int r = 0; r < n; r++)
        if (basis[r] >= n && basis[r] < 2 * n) z[basis[r] - n] = x[r];
}

/* Solves M_JJ z_J = −q_J for J = basic z's; zp gets the full z (0 off J).
 * Returns 0 on success. work: n² doubles, piv: n ints. */
static int polish(ns_int n, const double *M, const double *q,
                  const ns_int *basis, double *zp, double *work, lapack_int *piv,
                  ns_int *J, ns_kernel_error_fn err, const void *ctx,
                  double *zb, double *ws)
{
    ns_int nj = 0;
    for (ns_int r = 0; r < n; r++)
        if (basis[r] >= n && basis[r] < 2 * n) J[nj++] = basis[r] - n;
    for (ns_int j = 0; j < n; j++) zp[j] = 0.0;
    if (nj == 0) return 0;
    double *rhs = work + (size_t)nj * (size_t)nj;
    for (ns_int b = 0; b < nj; b++) {
        rhs[b] = -q[J[b]];
        for (ns_int a = 0; a < nj; a++)
            work[a + (size_t)b * nj] = M[J[a] + (size_t)J[b] * n];
    }
    if (ns_kernel_lu(nj, work, nj, piv) != 0) return 1;
    ns_kernel_lu_solve(nj, work, nj, piv, rhs);
    for (ns_int a = 0; a < nj; a++) zp[J[a]] = rhs[a];
    /* two steps of iterative refinement, the residual −(q_J + M_JJ z_J)
     * accumulated in long double: the LU solve alone leaves an error of
     * cond(M_JJ)·eps, which the refinement brings down to eps. Of the three
     * iterates, the one with the smallest error (as the caller measures it,
     * w recomputed in double) is returned: at the rounding level they
     * differ by an ulp and the measured errors by a few eps. */
    double ebest = INFINITY;
    for (ns_int j = 0; j < n; j++) zb[j] = 0.0;
    for (int ref = 0; ref <= 2; ref++) {
        if (ref > 0) {
            for (ns_int a = 0; a < nj; a++) {
                long double r = q[J[a]];
                for (ns_int b = 0; b < nj; b++)
                    r += (long double)M[J[a] + (size_t)J[b] * n] * zp[J[b]];
                rhs[a] = (double)-r;
            }
            ns_kernel_lu_solve(nj, work, nj, piv, rhs);
            for (ns_int a = 0; a < nj; a++) zp[J[a]] += rhs[a];
        }
        int nonneg = 1;
        for (ns_int a = 0; a < nj && nonneg; a++) nonneg = zp[J[a]] >= 0.0;
        if (!nonneg) continue;
        double e = err(ctx, zp, ws);
        if (e < ebest) {
            ebest = e;
            for (ns_int a = 0; a < nj; a++) zb[J[a]] = zp[J[a]];
        }
    }
    if (!isfinite(ebest)) return 1;
    memcpy(zp, zb, (size_t)n * sizeof(double));
    return 0;
}

/* Iterative refinement of the final basic solution with the pivot
 * tableau's own inverse: B x_B = q, B's column for basic w_i is e_i, for
 * basic z_j −M_{:,j}, for z0 −d; the residual ρ = q − B x_B, accumulated in
 * long double row by row, then x_B += B⁻¹ρ with the B⁻¹ the pivots kept (its
 * error, cond(B)·eps, only slows the refinement down). Two steps. Returns 1
 * when every basic value stays ≥ 0 up to rounding (then clamped to 0), 0
 * otherwise (x is then left as it was). Scratch: rho, dx, xs n doubles, zl n
 * ints. */
#ifndef NS_LEMKE_REFINE_STEPS
#define NS_LEMKE_REFINE_STEPS 1
#endif
static int tableau_refine(ns_int n, const double *M, const double *q, const double *d,
                          const ns_int *basis, const ns_int *pos, double *x,
                          const double *binv, const unsigned char *unit, const ns_int *D,
                          ns_int nd, double *rho, double *dx, double *xs, ns_int *zl,
                          const unsigned char *eq)
{
    memcpy(xs, x, (size_t)n * sizeof(double));
    ns_int nz = 0;   /* basic z's (and z0): their tableau rows */
    for (ns_int r = 0; r < n; r++) if (basis[r] >= n) zl[nz++] = r;
    for (int step = 0; step < NS_LEMKE_REFINE_STEPS; step++) {
        for (ns_int i = 0; i < n; i++) {
            long double acc = q[i];
            if (pos[i] >= 0) acc -= x[pos[i]];
            for (ns_int t = 0; t < nz; t++) {
                ns_int r = zl[t], b = basis[r];
                double a = b < 2 * n ? M[i + (size_t)(b - n) * (size_t)n] : (d ? d[i] : 1.0);
                acc += (long double)a * x[r];
            }
            rho[i] = (double)acc;
            dx[i] = unit[i] ? rho[i] : 0.0;
        }
        for (ns_int t = 0; t < nd; t++) {
            ns_int k = D[t];
            double a = rho[k];
            if (a == 0.0) continue;
            const double *bk = binv + (size_t)k * (size_t)n;
            for (ns_int i = 0; i < n; i++) dx[i] += a * bk[i];
        }
        for (ns_int i = 0; i < n; i++) x[i] += dx[i];
    }
    double xmax = 0.0;
    for (ns_int i = 0; i < n; i++) xmax = fmax(xmax, fabs(x[i]));
    for (ns_int i = 0; i < n; i++) {
        if (x[i] >= 0.0 || IS_FREE(i)) continue;
        if (x[i] < -1e-12 * xmax || x[i] != x[i]) {
            memcpy(x, xs, (size_t)n * sizeof(double));
            return 0;
        }
        x[i] = 0.0;
    }
    return 1;
}

ns_status ns_lemke_dense(ns_int n, const double *M, const double *q,
                         double *z, double *w, const ns_options *o,
                         ns_kernel_error_fn err, const void *ctx,
                         ns_result *res)
{
    return ns_lemke_dense_ex(n, M, q, NULL, z, w, o, err, ctx, res, NULL);
}

static ns_status lemke_core(ns_int n, const double *M, const double *q,
                            const double *d, const unsigned char *eq, double *z, double *w,
                            const ns_options *o, ns_kernel_error_fn err,
                            const void *ctx, ns_result *res, double **ray);

ns_status ns_lemke_dense_ex(ns_int n, const double *M, const double *q,
                            const double *d, double *z, double *w,
                            const ns_options *o, ns_kernel_error_fn err,
                            const void *ctx, ns_result *res, double **ray)
{
    return lemke_core(n, M, q, d, NULL, z, w, o, err, ctx, res, ray);
}

ns_status ns_lemke_mixed_dense(ns_int n, const double *M, const double *q,
                               const unsigned char *eq, double *z, double *w,
                               const ns_options *o, ns_kernel_error_fn err,
                               const void *ctx, ns_result *res)
{
    return lemke_core(n, M, q, NULL, eq, z, w, o, err, ctx, res, NULL);
}

/* The covering vector's entry i: 0 on equality rows */
#define DCOV(i) (eq ? (eq[i] ? 0.0 : 1.0) : (d ? d[i] : 1.0))

/* One pivot of the tableau on (row r, entering column with B⁻¹a = c):
 * B⁻¹ ← B⁻¹ − u vᵀ, u = (c − e_r)/c_r, x likewise; clamp: basic values of
 * sign-constrained rows that rounding left below 0 are set to 0. Written as
 * Gauss–Jordan: every entry i takes y_i − (y_r/c_r) c_i in one loop over
 * the whole vector, entry r then set to y_r/c_r. (Building u first with
 * its entry r stored alone stalled the vectorised loops that read it back
 * at once — no store forwarding into a wider load — which on 2–10
 * unknowns cost more than the arithmetic.) */
static void pivot(ns_int n, ns_int r, ns_int entering, const double *restrict c,
                  double *restrict binv, unsigned char *unit, double *pm, ns_int *D,
                  ns_int *nd, double *restrict x,
                  ns_int *basis, ns_int *pos, const unsigned char *eq, int clamp)
{
    const double cr = c[r], rc = 1.0 / cr;
    for (ns_int t = 0; t < *nd; t++) {
        ns_int k = D[t];
        double *bk = binv + (size_t)k * n;
        const double v = bk[r];
        if (v == 0.0) continue;
        const double f = v * rc;
        for (ns_int i = 0; i < n; i++) bk[i] -= f * c[i];
        bk[r] = f;
    }
    if (unit[r] && basis[r] == r) {   /* w_r leaves: column e_r, now stored */
        double *br = binv + (size_t)r * n;
        for (ns_int i = 0; i < n; i++) br[i] = -rc * c[i];
        br[r] = rc;
        unit[r] = 0;
        pm[r] = 0.0;
        D[(*nd)++] = r;
    }
    const double xr = x[r], f = xr * rc;
    if (clamp && !eq) {   /* branch-free */
        for (ns_int i = 0; i < n; i++) {
            double t = x[i] - f * c[i];
            x[i] = t < 0.0 ? 0.0 : t;
        }
    } else {
        for (ns_int i = 0; i < n; i++) x[i] -= f * c[i];
        if (clamp)
            for (ns_int i = 0; i < n; i++) if (x[i] < 0.0 && i != r && !IS_FREE(i)) x[i] = 0.0;
    }
    x[r] = xr / cr;
    ns_int leaving = basis[r];
    basis[r] = entering;
    pos[entering] = r;
    pos[leaving] = -1;
}

/* c = B⁻¹ a for the entering column: a = −d (z0), −M_{:,j} (z_j) or e_k
 * (w_k, whose B⁻¹ column is stored since w_k left the basis). pm: 1.0 on
 * the pristine columns, 0.0 on the others; dv: the covering vector (the
 * first loop then vectorises as the later ones do, see pivot). */
static void entering_column(ns_int n, const double *M, const double *restrict dv,
                            ns_int entering, const double *restrict binv,
                            const double *restrict pm, const ns_int *D, ns_int nd,
                            double *restrict c)
{
    const ns_int Z0 = 2 * n;
    if (entering == Z0 || entering >= n) {
        /* pristine k give −a_k e_k */
        const double *a = entering == Z0 ? dv : M + (size_t)(entering - n) * n;
        for (ns_int i = 0; i < n; i++) c[i] = -(pm[i] * a[i]);
        for (ns_int t = 0; t < nd; t++) {
            ns_int k = D[t];
            double ak = a[k];
            if (ak == 0.0) continue;
            const double *bk = binv + (size_t)k * n;
            for (ns_int i = 0; i < n; i++) c[i] -= ak * bk[i];
        }
    } else {
        memcpy(c, binv + (size_t)entering * n, (size_t)n * sizeof(double));
    }
}

static ns_status lemke_core(ns_int n, const double *M, const double *q,
                            const double *d, const unsigned char *eq, double *z, double *w,
                            const ns_options *o, ns_kernel_error_fn err,
                            const void *ctx, ns_result *res, double **ray)
{
    if (ray) *ray = NULL;
    ns_status st = NS_MAX_ITER;
    res->iterations = 0;
    if (n == 0) { res->error = err(ctx, z, w); return NS_CONVERGED; }
    size_t nn = (size_t)n * (size_t)n, un = (size_t)n;
    /* three blocks (setup cost matters on small problems): on the stack up
     * to SMALL_N unknowns (three malloc/free pairs were a sixth of a 2-
     * unknown solve), else allocated; the LU polish's n² work array only
     * when it runs (most solves end at the tableau's refinement: half the
     * memory, and on large n half the page faults) */
    enum { SMALL_N = 8 };
    double sdbl[SMALL_N * SMALL_N + 7 * SMALL_N];
    ns_int sints[5 * SMALL_N + 1];
    lapack_int spiv[SMALL_N + SMALL_N / (int)sizeof(lapack_int) + 1];
    const int small = n <= SMALL_N;
    double *dbl = small ? sdbl : ns_malloc(nn + 7 * un, sizeof(double));
    ns_int *ints = small ? sints : ns_malloc(5 * un + 1, sizeof(ns_int));
    lapack_int *piv = small ? spiv : ns_malloc(un, sizeof(lapack_int) + 1);
    if (!dbl || !ints || !piv) {
        if (!small) { free(dbl); free(ints); free(piv); }
        return ns_fail(res->message, NS_NO_MEMORY, "lemke: out of memory");
    }
    double *binv = dbl, *x = dbl + nn, *c = x + un,
           *u = c + un, *zp = u + un, *wp = zp + un, *pm = wp + un, *dv = pm + un;
    ns_int *basis = ints, *pos = ints + un, *cand = pos + 2 * un + 1, *D = cand + un;
    unsigned char *unit = (unsigned char *)(piv + un);
    ns_int nd = 0;
    /* basis {w}: B = I (all columns pristine), x = q */
    for (ns_int i = 0; i < n; i++) {
        unit[i] = 1;
        pm[i] = 1.0;
        dv[i] = DCOV(i);
        x[i] = q[i];
        basis[i] = i;
        pos[i] = i;
        pos[n + i] = -1;
    }
    pos[2 * n] = -1;
    /* phase 0 (MLCP): each free z_j enters the basis in place of an
     * equality row's w_i, the row of largest |c_i| (partial pivoting):
     * afterwards the non-free rows are the Schur complement's LCP (w_E = 0
     * nonbasic for good). No pivot above 1e-13 of the column: M_EE is
     * (numerically) singular, NS_SINGULAR — the caller eliminates otherwise. */
    for (ns_int j = 0; eq && j < n; j++) {
        if (!eq[j]) continue;
        entering_column(n, M, dv, n + j, binv, pm, D, nd, c);
        ns_int r = -1;
        double cmax = 0.0, best = 0.0;
        for (ns_int i = 0; i < n; i++) {
            cmax = fmax(cmax, fabs(c[i]));
            if (basis[i] < n && eq[basis[i]] && fabs(c[i]) > best) { best = fabs(c[i]); r = i; }
        }
        if (r < 0 || !(best > 1e-13 * cmax)) {
            st = ns_fail(res->message, NS_SINGULAR, "lemke: the equality block is singular");
            for (ns_int k = 0; k < n; k++) z[k] = 0.0;
            res->error = INFINITY;
            goto done;
        }
        pivot(n, r, n + j, c, binv, unit, pm, D, &nd, x, basis, pos, eq, 0);
    }
    int solved0 = 1;
    for (ns_int i = 0; i < n && solved0; i++) solved0 = x[i] >= 0.0 || IS_FREE(i);
    if (solved0) {           /* z_C = 0 solves it */
        basis_z(n, basis, x, z);
        res->error = err(ctx, z, w);
        st = NS_CONVERGED;
        if (eq && res->error > 0.0) goto refine;
        goto done;
    }

    const ns_int Z0 = 2 * n;
    ns_int entering = Z0;
    double qs = 0.0;
    for (ns_int i = 0; i < n; i++) qs = fmax(qs, fabs(x[i]));
    /* a pivot's work: c = B⁻¹a and the rank-1 update, each n (nd + 1) */
    ns_clock clk;
    ns_clock_start(&clk, o->time_limit, 2.0 * (double)n * (double)n);
    for (int it = 0;; it++) {
        if (it >= o->max_iter) { st = NS_MAX_ITER; break; }
        if (ns_clock_over(&clk, 2.0 * (double)n * (double)(nd + 1))) { st = NS_TIME_LIMIT; break; }
        if (ns_iteration(o, res, NAN)) { st = NS_INTERRUPTED; break; }
        entering_column(n, M, dv, entering, binv, pm, D, nd, c);
        /* ratio test (first pivot: z0 enters with −c, see the contract) */
        double cmax = 0.0;
        for (ns_int i = 0; i < n; i++) if (fabs(c[i]) > cmax) cmax = fabs(c[i]);
        ns_int nc = 0, r;
        if (it == 0) {
            for (ns_int i = 0; i < n; i++) { c[i] = -c[i]; if (!IS_FREE(i)) cand[nc++] = i; }
            /* ratio x_i / c_i with c = d: lexicographic min of (q_i, e_i) */
            r = lex_ratio(n, x, binv, unit, c, cand, nc, -1, eq, qs, u);
            for (ns_int i = 0; i < n; i++) c[i] = -c[i];
        } else {
            double eps = 1e-12 * cmax;
            if (!eq) { for (ns_int i = 0; i < n; i++) if (c[i] > eps) cand[nc++] = i; }
            else for (ns_int i = 0; i < n; i++) if (c[i] > eps && !IS_FREE(i)) cand[nc++] = i;
            if (nc == 0) {          /* secondary ray */
                if (ray && !eq && (*ray = ns_malloc(un + 1, sizeof(double)))) {
                    /* direction: the entering variable +1, the basic ones −c */
                    double *y = *ray;
                    for (ns_int j = 0; j < n; j++) y[j] = 0.0;
                    if (entering >= n && entering < 2 * n) y[entering - n] = 1.0;
                    for (ns_int i = 0; i < n; i++)
                        if (basis[i] >= n && basis[i] < 2 * n) y[basis[i] - n] = -c[i];
                }
                st = ns_fail(res->message, NS_NO_SOLUTION,
                             "lemke: secondary ray after %d pivots (entering %s%d)", it,
                             entering < n ? "w" : "z", (int)(entering % n));
                break;
            }
            r = lex_ratio(n, x, binv, unit, c, cand, nc, pos[Z0], eq, qs, u);
        }
        ns_int leaving = basis[r];
        pivot(n, r, entering, c, binv, unit, pm, D, &nd, x, basis, pos, eq, 1);
        res->iterations = it + 1;
        if (o->verbosity >= 2)   /* a call per pivot counts on small problems */
            ns_log(o, 2, "lemke: pivot %d row %d, z0 = %g", it + 1, (int)r, pos[Z0] >= 0 ? x[pos[Z0]] : 0.0);
        if (leaving == Z0) { st = NS_CONVERGED; break; }
        entering = leaving < n ? leaving + n : leaving - n;
    }
refine:;
    int lu_ok = 0;
    const double fine = fmin(o->tol, 64.0 * DBL_EPSILON);
    /* the pivots' own basic solution first: on small or well-conditioned
     * problems it is already at the rounding level (often exact), and the
     * refinement below (long double residuals) would cost as much as the
     * pivots; otherwise one error evaluation more */
    if (st == NS_CONVERGED) {
        basis_z(n, basis, x, z);
        res->error = err(ctx, z, w);
        lu_ok = res->error <= fine;
    }
    if (lu_ok) {
        /* done */
    } else if (st == NS_CONVERGED && tableau_refine(n, M, q, d, basis, pos, x, binv, unit, D, nd, u, c, zp, cand, eq)) {
        /* the refined basic solution is already at the rounding level: one
         * error evaluation, no LU (nor LAPACK) on the way */
        basis_z(n, basis, x, z);
        res->error = err(ctx, z, w);
        lu_ok = res->error <= fine;
    } else if (st != NS_CONVERGED) {
        basis_z(n, basis, x, z);
        res->error = err(ctx, z, w);
    }
    /* with equality rows the caller polishes (its active-set solvers know
     * them) */
    if (eq) lu_ok = 1;
    int lu_solved = 0;   /* the final basis solved directly, improving or not */
    if (!lu_ok && ((st == NS_CONVERGED && res->error > 0.0) || res->error > o->tol)) {
        ns_int *J = cand;
        double *work = ns_malloc(nn + un, sizeof(double));
        if (work && polish(n, M, q, basis, zp, work, piv, J, err, ctx, u, c) == 0) {
            double e2 = err(ctx, zp, wp);
            lu_solved = isfinite(e2) && res->error <= o->tol;
            if (e2 < res->error) {
                memcpy(z, zp, (size_t)n * sizeof(double));
                memcpy(w, wp, (size_t)n * sizeof(double));
                res->error = e2;
                lu_ok = 1;
            }
        }
        free(work);
    }
    /* a singular M_JJ (degenerate or non-unique solutions) defeats the LU:
     * then least squares on the final active set, degenerate rows (z_i
     * tiny) first taken at z_i = 0, then kept */
    for (int k = 0; k < 2 && !lu_ok && !lu_solved && (st == NS_CONVERGED || res->error > o->tol) &&
                    res->error > 4.0 * DBL_EPSILON; k++)
        if (ns_active_set_refine(n, M, q, NULL, z, w, zp, 2, k ? 0.0 : 1e-8) == 0) {
            double e2 = err(ctx, zp, wp);
            if (e2 < res->error) {
                memcpy(z, zp, (size_t)n * sizeof(double));
                memcpy(w, wp, (size_t)n * sizeof(double));
                res->error = e2;
            }
        }
    if (st == NS_NO_SOLUTION && res->error <= o->tol) {
        if (ray) { free(*ray); *ray = NULL; }
        /* the ray was reached from a basis that already solves the LCP */
        st = NS_CONVERGED;
        res->message[0] = '\0';
    }
done:
    if (!small) { free(dbl); free(ints); free(piv); }
    return st;
}
