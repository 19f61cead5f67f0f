/* lcp_newton_fb.c — semismooth Newton method for the LCP (and, through the
 * kernel, the MLCP and relay), on the reformulation
 *   Φ(z) = 0,  Φ_i = φ(z_i, w_i),  w = M z + q,
 *   φ(a, b) = √(a² + b²) − a − b   (Fischer–Burmeister: φ = 0 ⇔ 0 ≤ a ⊥ b ≥ 0)
 *   or φ(a, b) = min(a, b)        (min-map variant, lcp_newton_min.c),
 * and Φ_i = w_i on equality rows. Each step solves H d = −Φ with an element
 * H = D_a + D_b M of the generalised Jacobian (D_a, D_b diagonal; at the
 * kink a = b = 0 first De Luca–Facchinei–Kanzow's element, then, when that H
 * is singular or its step no descent direction, the FB element of the
 * direction (0, 1), D_a = −1, D_b = 0, an element of the
 * B-subdifferential). Rows with D_b,i = 0 are D_a,i e_iᵀ and
 * are eliminated exactly, so the LU (ns_kernel_lu) is of the other rows only
 * (at an LCP's solution about half of them). Then Armijo backtracking
 * (σ = 1e-4) on the merit Ψ = ½‖Φ‖². Safeguards: when H is singular or d is
 * not a descent direction (∇Ψᵀd > −ρ‖d‖^2.1, ρ = 1e-8), a Levenberg–
 * Marquardt direction (HᵀH + ‖Φ‖ I) d = −∇Ψ (Cholesky), and if that fails
 * too the steepest descent −∇Ψ = −HᵀΦ; the same direction replaces a full
 * Newton step that multiplied Ψ by more than SINGULAR_BLOWUP (a nearly
 * singular H) when it divides Ψ by ten. The circuit MLCPs deltasigma* need
 * the LM step: their H is nearly singular from the start (Newton steps of
 * norm 1e9, gradient steps of 1e-11).
 * Cold starts (z = 0, positive diagonal) begin with a few PGS sweeps
 * (pgs_start); if Newton then fails, it is run again from z = 0. After a
 * full step whose active set {eq} ∪ {z_i > w_i} has settled, that set is
 * solved exactly (ns_active_set_solve) and accepted if its error is ≤ tol.
 * Stops when the caller's error is ≤ tol; the last iterate is then polished
 * on its active set (LU with refinement, then least squares for singular
 * sets, ns_active_set_refine), each kept only if its error is smaller. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <cblas.h>
#include <lapacke.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* √(a² + b²): the plain formula where neither square can overflow nor
 * both underflow, libm's hypot (a sixth of a 10-unknown solve: it scales
 * with care on every call) only outside that range */
static inline double norm2d(double a, double b)
{
    const double m = fmax(fabs(a), fabs(b));
    if (m < 1e150 && m > 1e-150) return sqrt(a * a + b * b);
    return hypot(a, b);
}

static double phi(int minmap, double a, double b)
{
    if (minmap) return a < b ? a : b;
    return norm2d(a, b) - a - b;
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

/* Row i in the active set eq ∪ {z_i > w_i, z_i > zsmall} (zsmall = −∞:
 * the plain set {z_i > w_i}). */
static int in_active(const unsigned char *eq, const double *z, const double *w, ns_int i,
                     double zsmall)
{
    return (eq && eq[i]) || (z[i] > w[i] && z[i] > zsmall);
}

/* Solves the equations of the active set A (in_active) exactly:
 * M_AA z_A = −q_A, z = 0 off A (LU, then two steps of iterative refinement
 * with the residual accumulated in long double). Returns 0 on success. */
static int active_solve(ns_int n, const double *M, const double *q,
                        const unsigned char *eq, const double *z, const double *w,
                        double zsmall, double *zp, double *work, lapack_int *piv,
                        ns_int *A, ns_kernel_error_fn err, const void *ctx,
                        double *zb, double *ws)
{
    ns_int na = 0;
    for (ns_int i = 0; i < n; i++)
        if (in_active(eq, z, w, i, zsmall)) A[na++] = i;
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
    /* two steps of iterative refinement, residual in long double; with err
     * given, the iterate (of the three) with the smallest measured error is
     * returned — they differ by ulps, their errors by a few eps */
    double ebest = INFINITY;
    if (err) {
        ebest = err(ctx, zp, ws);
        memcpy(zb, zp, (size_t)n * sizeof(double));
    }
    for (int ref = 0; ref < 2; ref++) {
        for (ns_int a = 0; a < na; a++) {
            long double r = q[A[a]];
            for (ns_int b = 0; b < na; b++)
                r += (long double)M[A[a] + (size_t)A[b] * n] * zp[A[b]];
            rhs[a] = (double)-r;
        }
        ns_kernel_lu_solve(na, work, na, piv, rhs);
        for (ns_int a = 0; a < na; a++) zp[A[a]] += rhs[a];
        if (err) {
            double e = err(ctx, zp, ws);
            if (e < ebest) { ebest = e; memcpy(zb, zp, (size_t)n * sizeof(double)); }
        }
    }
    if (err && isfinite(ebest)) memcpy(zp, zb, (size_t)n * sizeof(double));
    return 0;
}

int ns_active_set_solve(ns_int n, const double *M, const double *q,
                        const unsigned char *eq, const double *z, const double *w,
                        double *zp, double *work, lapack_int *piv, ns_int *A)
{
    return active_solve(n, M, q, eq, z, w, -INFINITY, zp, work, piv, A, NULL, NULL, NULL, NULL);
}


/* y ← y + a x (AVX2 clone chosen at load time; OpenBLAS may not know the
 * CPU and fall back to its SSE3 kernels) */
NS_SIMD_CLONES static void axpy(ns_int n, double a, const double *x, double *y)
{
    for (ns_int k = 0; k < n; k++) y[k] += a * x[k];
}

/* Starting point for a cold start (z = 0 on entry, every diagonal entry of
 * M positive): up to PGS_SWEEPS projected Gauss–Seidel sweeps (equality rows
 * solved exactly, the others projected on z_i ≥ 0), kept when finite (see
 * the note at the end). A sweep costs n² multiply-adds, a Newton
 * iteration one LU (about n³/3): the sweeps are cheap and put the
 * iterate close to the final active set, which cuts the Newton iterations
 * (lcp_pd_n80: 3 → 1, lcp_degenerate_n80: 9 → 7, lcp_pmatrix_n80: no
 * convergence in 100 → 1 with the active-set solve). Returns 1 when z was
 * replaced (res->error updated), 0 when not applicable. */
#define PGS_SWEEPS 10

/* A full Newton step that multiplies the merit by more than this is the
 * sign of a nearly singular H (see the line search): on lcp_psd-range_n10
 * and lcp_degenerate_n10 the factors are 4e4-2.5e6 and the
 * Levenberg-Marquardt steps solve them in 4 and 2 iterations instead of 9
 * and 8; the circuit MLCPs' damped steps (factors 4-520) are left to the
 * backtracking, where Levenberg-Marquardt steps would slow them down
 * (PD_mlcp 4 -> 7 iterations, deltasigma past 100). */
#define SINGULAR_BLOWUP 1e4
static int pgs_start(ns_int n, const double *M, const unsigned char *eq,
                     double *z, double *w, double *zs, double *ws,
                     ns_kernel_error_fn err, const void *ctx, ns_result *res)
{
    for (ns_int i = 0; i < n; i++)
        if (z[i] != 0.0 || !(M[i + (size_t)i * n] > 0.0)) return 0;
    memcpy(zs, z, (size_t)n * sizeof(double));
    memcpy(ws, w, (size_t)n * sizeof(double));
    for (int sw = 0; sw < PGS_SWEEPS; sw++) {
        double moved = 0.0, size = 0.0;
        for (ns_int i = 0; i < n; i++) {
            const double *Mi = M + (size_t)i * n;   /* column i */
            double zi = zs[i] - ws[i] / Mi[i];
            if (!(eq && eq[i]) && zi < 0.0) zi = 0.0;
            double dz = zi - zs[i];
            if (dz != 0.0) {
                axpy(n, dz, Mi, ws);
                zs[i] = zi;
                if (fabs(dz) > moved) moved = fabs(dz);
            }
            if (fabs(zi) > size) size = fabs(zi);
        }
        if (!(moved > 1e-12 * (1.0 + size))) break;   /* converged or NaN */
    }
    if (!ns_all_finite(zs, (size_t)n)) return 0;
    /* kept even when the error grew: on ill-conditioned problems (the
     * triangular P-matrix of data/lcp/lcp_pmatrix_n80, |z| ~ 1e6) a few sweeps
     * leave a large error but the right active set; ns_newton_dense restarts
     * from the caller's z if Newton fails from here */
    memcpy(z, zs, (size_t)n * sizeof(double));
    res->error = err(ctx, z, w);                        /* exact w = M z + q */
    return 1;
}

/* Up to LM_SMALL unknowns the Levenberg–Marquardt step forms HᵀH and
 * solves with the factor without BLAS-3 calls, whose set-up outweighs the
 * arithmetic at these sizes. */
enum { LM_SMALL = 32 };

/* xᵀy for short vectors, in two-lane partial sums where available. */
static inline double dot_small(ns_int n, const double *x, const double *y)
{
    ns_int k = 0;
    double sum = 0.0;
#if defined(__GNUC__)
    ns_v2d s2 = { 0.0, 0.0 };
    for (; k + 2 <= n; k += 2) s2 += ns_v2d_load(x + k) * ns_v2d_load(y + k);
    sum = s2[0] + s2[1];
#endif
    for (; k < n; k++) sum += x[k] * y[k];
    return sum;
}

/* Levenberg–Marquardt direction (HᵀH + μI) d = −∇Ψ, μ = ‖Φ‖ = √(2Ψ), with
 * H = D_a + D_b M: a descent direction that stays meaningful when H is
 * (nearly) singular, where the Newton step is huge and the gradient step
 * tiny. HH: 2n² doubles of workspace. Returns 1 with d and gd = ∇Ψᵀd when
 * it is a finite descent direction, 0 otherwise (d then undefined). */
static int lm_direction(ns_int n, const double *M, const double *Da, const double *Db,
                        double psi, const double *g, double *HH, double *d, double *gd)
{
    const size_t nn = (size_t)n * (size_t)n;
    double *Hf = HH, *N = HH + nn;
    for (ns_int j = 0; j < n; j++) {
        const double *Mj = M + (size_t)j * n;
        double *Hj = Hf + (size_t)j * n;
        for (ns_int i = 0; i < n; i++) Hj[i] = Db[i] * Mj[i];
        Hj[j] += Da[j];
    }
    /* N = HᵀH (upper triangle): the column dot products by hand up to
     * LM_SMALL unknowns, where dsyrk's call costs more than the product
     * (n = 10: ~4 000 instructions against ~1 200) */
    if (n <= LM_SMALL) {
        for (ns_int j = 0; j < n; j++) {
            const double *Hj = Hf + (size_t)j * n;
            for (ns_int i = 0; i <= j; i++)
                N[i + (size_t)j * n] = dot_small(n, Hf + (size_t)i * n, Hj);
        }
    } else {
        cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, n, n, 1.0, Hf, n, 0.0, N, n);
    }
    const double mu = sqrt(2.0 * psi);
    for (ns_int i = 0; i < n; i++) N[i + (size_t)i * n] += mu;
    for (ns_int i = 0; i < n; i++) d[i] = -g[i];
    if (LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', n, N, n) != 0) return 0;
    if (n <= LM_SMALL) {
        /* N = UᵀU: two triangular solves (dpotrs goes through dtrsm, whose
         * set-up is most of a one-column solve at these sizes) */
        cblas_dtrsv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, n, N, n, d, 1);
        cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, n, N, n, d, 1);
    } else {
        LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'U', n, 1, N, n, d, n);
    }
    if (!ns_all_finite(d, (size_t)n)) return 0;
    *gd = cblas_ddot(n, g, 1, d, 1);
    return *gd < 0.0;
}

/* The Levenberg–Marquardt step taken whole from (z, w), kept when it
 * divides Ψ by ten or more (and meets Armijo's condition): then zt, wt, F
 * hold the new point and its Φ, *psit its merit, and 1 is returned. *HH is
 * the workspace (2n² + 2n, allocated on first use). */
static int lm_try(ns_int n, const double *M, const unsigned char *eq, int minmap,
                  const double *Da, const double *Db, double psi, const double *g,
                  const double *z, const double *w, size_t nn, size_t un, double **HH,
                  double *zt, double *wt, double *F, double *psit)
{
    if (!*HH) *HH = ns_malloc(2 * nn + 2 * un, sizeof(double));
    if (!*HH) return 0;
    double *d2 = *HH + 2 * nn, *Md2 = d2 + un, gd2 = 0.0;
    if (!lm_direction(n, M, Da, Db, psi, g, *HH, d2, &gd2)) return 0;
    cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, 1.0, M, n, d2, 1, 0.0, Md2, 1);
    for (ns_int i = 0; i < n; i++) { zt[i] = z[i] + d2[i]; wt[i] = w[i] + Md2[i]; }
    const double p2 = merit(n, eq, minmap, zt, wt, F);
    if (!(p2 <= 0.1 * psi && p2 <= psi + 1e-4 * gd2)) return 0;
    *psit = p2;
    return 1;
}

/* 1 when (a, b), with r = √(a² + b²), is at the kink of the
 * Fischer–Burmeister function (r zero, or lost in the rounding of a, b). */
static int fb_kink(double r, double a, double b)
{
    return !(r > 1e-300 && r > 1e-14 * (fabs(a) + fabs(b) + 1e-280));
}

static int at_kink(double a, double b) { return fb_kink(norm2d(a, b), a, b); }

/* The element of the generalized Jacobian on the kink rows (z_i = w_i = 0,
 * not equalities): De Luca–Facchinei–Kanzow's along ζ = 1 on those rows
 * (dfk), (a_i, b_i) = (1, (Mζ)_i)/‖(1, (Mζ)_i)‖ − 1, or the element of the
 * direction (0, 1), (−1, 0). Mζ is summed column by column into work (n). */
static void kink_element(ns_int n, const double *M, const unsigned char *eq, const double *z,
                         const double *w, int dfk, double *Da, double *Db, double *work)
{
    if (dfk) {
        memset(work, 0, (size_t)n * sizeof *work);
        for (ns_int j = 0; j < n; j++)
            if (!(eq && eq[j]) && at_kink(z[j], w[j])) axpy(n, 1.0, M + (size_t)j * n, work);
    }
    for (ns_int i = 0; i < n; i++) {
        if ((eq && eq[i]) || !at_kink(z[i], w[i])) continue;
        if (!dfk) { Da[i] = -1.0; Db[i] = 0.0; continue; }
        const double r = sqrt(1.0 + work[i] * work[i]);
        Da[i] = 1.0 / r - 1.0;
        Db[i] = work[i] / r - 1.0;
    }
}

static ns_status newton_run(ns_int n, const double *M, const double *q,
                            const unsigned char *eq, int minmap, int warm,
                            double *z, double *w, const ns_options *o,
                            ns_kernel_error_fn err, const void *ctx,
                            ns_result *res, int *warmed)
{
    const char *name = minmap ? "newton-min" : "newton-fb";
    ns_status st = NS_MAX_ITER;
    res->iterations = 0;
    if (n == 0) { res->error = err(ctx, z, w); return NS_CONVERGED; }
    size_t nn = (size_t)n * (size_t)n, un = (size_t)n;
    double *HH = NULL;   /* 2n² for the LM fallback, allocated on first use */
    /* the work arrays in one block (fourteen allocations were a fifth of a
     * 2-unknown solve): LU (n² + n), F, d, g, Md, zt, wt, Da, Db (n each),
     * then piv, A, J, act/tried */
    const size_t ndbl = nn + 9 * un;
    char *blk = ns_malloc(ndbl * sizeof(double) + un * sizeof(lapack_int) +
                          2 * un * sizeof(ns_int) + 2 * un + 8, 1);
    double *LU = NULL, *F = NULL, *d = NULL, *g = NULL, *Md = NULL, *zt = NULL, *wt = NULL,
           *Da = NULL, *Db = NULL;
    lapack_int *piv = NULL;
    ns_int *A = NULL, *J = NULL;
    unsigned char *act = NULL, *tried = NULL;
    if (!blk) {
        st = ns_fail(res->message, NS_NO_MEMORY, "%s: out of memory", name);
        goto done;
    }
    LU = (double *)(void *)blk;
    F = LU + nn + un; d = F + un; g = d + un; Md = g + un; zt = Md + un; wt = zt + un;
    Da = wt + un; Db = Da + un;
    piv = (lapack_int *)(void *)(Db + un);
    A = (ns_int *)(void *)(piv + un + (un & 1));   /* (8-byte aligned either way) */
    J = A + un;
    act = (unsigned char *)(J + un);
    tried = act + un;
    memset(act, 0, 2 * un);
    res->error = err(ctx, z, w);
    *warmed = warm && res->error > o->tol && pgs_start(n, M, eq, z, w, zt, wt, err, ctx, res);
    double psi = merit(n, eq, minmap, z, w, F);
    /* an iteration's work: the LU (up to n³/3) and the products */
    const double it_work = (double)n * (double)n * ((double)n / 3.0 + 4.0);
    ns_clock clk;
    ns_clock_start(&clk, o->time_limit, it_work);
    int stalled = 0, lu_ok = 0, lm_streak = 0;
    for (int it = 0; it < o->max_iter; it++) {
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (ns_clock_over(&clk, it_work)) { st = NS_TIME_LIMIT; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
        /* H = D_a + D_b M */
        ns_int nkink = 0;
        for (ns_int i = 0; i < n; i++) {
            if (eq && eq[i]) { Da[i] = 0.0; Db[i] = 1.0; continue; }
            if (minmap) {
                if (z[i] <= w[i]) { Da[i] = 1.0; Db[i] = 0.0; }
                else { Da[i] = 0.0; Db[i] = 1.0; }
                continue;
            }
            double r = norm2d(z[i], w[i]);
            if (!fb_kink(r, z[i], w[i])) {
                Da[i] = z[i] / r - 1.0;
                Db[i] = w[i] / r - 1.0;
            } else {
                Da[i] = -1.0; Db[i] = 0.0;
                nkink++;
            }
        }
        /* g = ∇Ψ = Hᵀ Φ = D_a Φ + Mᵀ (D_b Φ) */
        for (ns_int i = 0; i < n; i++) { d[i] = Db[i] * F[i]; g[i] = Da[i] * F[i]; }
        cblas_dgemv(CblasColMajor, CblasTrans, n, n, 1.0, M, n, d, 1, 1.0, g, 1);
        /* after a Levenberg–Marquardt step taken for a nearly singular H
         * (see the line search) the next step is that one first: H stays
         * nearly singular along the same directions */
        int newton = 0, lm = 0, accepted = 0;
        double gd = 0.0, t = 1.0, psit = psi;
        if (lm_streak && lm_try(n, M, eq, minmap, Da, Db, psi, g, z, w, nn, un, &HH, zt, wt, F, &psit)) {
            accepted = 1;
            lm = 1;
        } else {
            lm_streak = 0;
            /* Newton d = −H⁻¹ Φ. Rows with D_b,i = 0 (FB: z_i = 0 < w_i; min-map:
             * z_i ≤ w_i) are D_a,i e_iᵀ: d_i = −Φ_i / D_a,i exactly, and only the
             * other rows J need a factorization: H_JJ d_J = −Φ_J − D_b,J M_JI d_I.
             * The inactive rows of an LCP are about half of them, so the LU is
             * about 8× cheaper than on the whole H. */
            /* At a kink (z_i = w_i = 0) the first try takes De Luca,
             * Facchinei and Kanzow's element, along ζ = 1 on the kink rows:
             * (a_i, b_i) = (1, (Mζ)_i)/‖(1, (Mζ)_i)‖ − 1, which moves z_i off
             * 0 where the problem asks it; when that H is singular or its
             * step no descent direction, the second try takes the element
             * of the direction (0, 1), (−1, 0), which keeps z_i = 0 and is
             * always regular on those rows. */
            for (int pass = nkink > 0 ? 0 : 1; pass < 2; pass++) {
                if (nkink > 0) kink_element(n, M, eq, z, w, pass == 0, Da, Db, Md);
                ns_int nj = 0;
                int dI_nonzero = 0;
                for (ns_int i = 0; i < n; i++) {
                    if (Db[i] == 0.0 && Da[i] != 0.0) {
                        d[i] = -F[i] / Da[i];
                        if (d[i] != 0.0) dI_nonzero = 1;
                        A[i] = -1;
                    } else {
                        A[i] = nj;
                        J[nj++] = i;
                    }
                }
                for (ns_int b = 0; b < nj; b++) {
                    const double *Mj = M + (size_t)J[b] * n;
                    double *Hj = LU + (size_t)b * nj;
                    for (ns_int a = 0; a < nj; a++) Hj[a] = Db[J[a]] * Mj[J[a]];
                    Hj[b] += Da[J[b]];
                }
                double *rj = LU + (size_t)nj * nj;
                for (ns_int a = 0; a < nj; a++) rj[a] = -F[J[a]];
                if (dI_nonzero)
                    for (ns_int i = 0; i < n; i++) {
                        if (A[i] >= 0 || d[i] == 0.0) continue;
                        const double *Mi = M + (size_t)i * n;
                        for (ns_int a = 0; a < nj; a++) rj[a] -= Db[J[a]] * Mi[J[a]] * d[i];
                    }
                int info = ns_kernel_lu(nj, LU, nj, piv);
                if (info == 0) {
                    ns_kernel_lu_solve(nj, LU, nj, piv, rj);
                    for (ns_int a = 0; a < nj; a++) d[J[a]] = rj[a];
                }
                gd = cblas_ddot(n, g, 1, d, 1);
                double dn = cblas_dnrm2(n, d, 1);
                newton = info == 0 && ns_all_finite(d, (size_t)n) && gd <= -1e-8 * pow(dn, 2.1);
                if (newton) break;
            }
            if (!newton && !HH) HH = ns_malloc(2 * nn + 2 * un, sizeof(double));   /* may fail: gradient */
            if (!newton && HH) lm = lm_direction(n, M, Da, Db, psi, g, HH, d, &gd);
            if (!newton && !lm) {
                for (ns_int i = 0; i < n; i++) d[i] = -g[i];
                gd = -cblas_ddot(n, g, 1, g, 1);
            }
            /* Armijo backtracking on Ψ; the min-map Ψ is not smooth, so its
             * sufficient decrease uses the Newton model ∇Ψᵀd = −2Ψ */
            if (minmap && newton) gd = -2.0 * psi;
            cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, 1.0, M, n, d, 1, 0.0, Md, 1);
            for (int ls = 0; ls < 40; ls++, t *= 0.5) {
                for (ns_int i = 0; i < n; i++) { zt[i] = z[i] + t * d[i]; wt[i] = w[i] + t * Md[i]; }
                psit = merit(n, eq, minmap, zt, wt, F);
                if (psit <= psi + 1e-4 * t * gd) { accepted = 1; break; }
                if (ls == 0 && newton && psit > SINGULAR_BLOWUP * psi) {
                    /* the full Newton step multiplied Ψ by more than
                     * SINGULAR_BLOWUP where its model predicted 0: H is nearly
                     * singular along d (a solution set that is not a point, as
                     * a PSD M's). The Levenberg–Marquardt step, whose
                     * regularisation ‖Φ‖ keeps it short along the near-null
                     * directions, is taken instead when it alone divides Ψ by
                     * ten or more; otherwise the backtracking goes on. */
                    if (lm_try(n, M, eq, minmap, Da, Db, psi, g, z, w, nn, un, &HH, zt, wt, F, &psit)) {
                        accepted = 1;
                        lm = 1;
                        newton = 0;
                        lm_streak = 1;
                        break;
                    }
                }
            }
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
        double e_prev = res->error;
        res->error = err(ctx, z, w);       /* refreshes w = M z + q exactly */
        psi = merit(n, eq, minmap, z, w, F);
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        /* Full Newton step: try the active set {eq} ∪ {z_i > w_i} exactly.
         * A try costs about one Newton iteration (one LU of the same size),
         * so only when it is likely to be the final set: the set moved by at
         * most one index since the last iterate, or the error fell tenfold
         * (the superlinear phase) — and never a set already tried. */
        ns_int changed = 0, untried = 0;
        for (ns_int i = 0; i < n; i++) {
            unsigned char a = (unsigned char)in_active(eq, z, w, i, -INFINITY);
            changed += a != act[i];
            untried += a != tried[i];
            act[i] = a;
        }
        if (newton && t == 1.0 && res->error > o->tol && untried > 0 &&
            (changed <= 1 || res->error <= 0.1 * e_prev)) {
            memcpy(tried, act, (size_t)n);
            if (active_solve(n, M, q, eq, z, w, -INFINITY, zt, LU, piv, A, err, ctx, d, Md) == 0) {
                double e2 = err(ctx, zt, wt);
                if (e2 <= o->tol) {
                    memcpy(z, zt, (size_t)n * sizeof(double));
                    memcpy(w, wt, (size_t)n * sizeof(double));
                    res->error = e2;
                    lu_ok = 1;
                }
            }
        }
        ns_log(o, 2, "%s: iteration %d, step %g (%s), error %.3e", name, it + 1, t, newton ? "newton" : lm ? "levenberg-marquardt" : "gradient", res->error);
    }
    if (res->error <= o->tol) st = NS_CONVERGED;
    /* polish on the active set (unless that very set was just tried):
     * first with the degenerate rows (z_i ≤ 1e-8 max|z|, at a degenerate
     * solution z_i = w_i = 0) left out, where the LU of the full set is
     * singular or ill-conditioned (lcp_degenerate_n80: the full set's LU
     * polish kept 1.3e-13, the reduced one reaches 1.6e-16, no least
     * squares needed), then the full set */
    double zmax = 0.0;
    for (ns_int i = 0; i < n; i++) zmax = fmax(zmax, fabs(z[i]));
    int has_small = 0;
    for (ns_int i = 0; i < n; i++)
        has_small |= in_active(eq, z, w, i, -INFINITY) != in_active(eq, z, w, i, 1e-8 * zmax);
    for (int k = has_small ? 0 : 1; k < 2 && st != NS_DIVERGED && !lu_ok; k++) {
        double zsmall = k ? -INFINITY : 1e-8 * zmax;
        int same = 1;
        for (ns_int i = 0; i < n && same; i++)
            same = tried[i] == (unsigned char)in_active(eq, z, w, i, zsmall);
        if (same) continue;
        if (active_solve(n, M, q, eq, z, w, zsmall, zt, LU, piv, A, err, ctx, d, Md) != 0)
            continue;
        double e2 = err(ctx, zt, wt);
        if (e2 < res->error) {
            memcpy(z, zt, (size_t)n * sizeof(double));
            memcpy(w, wt, (size_t)n * sizeof(double));
            res->error = e2;
            lu_ok = 1;
            if (e2 <= o->tol) { st = NS_CONVERGED; res->message[0] = '\0'; }
        }
    }
    /* a singular active-set matrix (degenerate or non-unique solutions)
     * defeats the LU polish: when neither it nor an exact try gave the
     * iterate and it is not yet within tol, least squares on the same set
     * instead, first with the degenerate rows (z_i tiny) taken at z_i = 0,
     * then all. (A converged iterate is not polished so: two pivoted QRs
     * cost more than the whole Newton solve of a 30-unknown LCP) */
    for (int k = 0; k < 2 && !lu_ok && st != NS_DIVERGED &&
                    res->error > o->tol && res->error > 4.0 * DBL_EPSILON; k++)
        if (ns_active_set_refine(n, M, q, eq, z, w, zt, 2, k ? 0.0 : 1e-8) == 0) {
            double e2 = err(ctx, zt, wt);
            if (e2 < res->error) {
                memcpy(z, zt, (size_t)n * sizeof(double));
                memcpy(w, wt, (size_t)n * sizeof(double));
                res->error = e2;
                if (e2 <= o->tol) { st = NS_CONVERGED; res->message[0] = '\0'; }
            }
        }
done:
    free(HH);
    free(blk);
    return st;
}

ns_status ns_newton_dense(ns_int n, const double *M, const double *q,
                          const unsigned char *eq, int minmap,
                          double *z, double *w, const ns_options *o,
                          ns_kernel_error_fn err, const void *ctx,
                          ns_result *res)
{
    double *z0 = ns_dup(z, (size_t)n > 0 ? (size_t)n : 1);
    if (!z0) return ns_fail(res->message, NS_NO_MEMORY, "%s: out of memory",
                            minmap ? "newton-min" : "newton-fb");
    int warmed = 0;
    ns_status st = newton_run(n, M, q, eq, minmap, 1, z, w, o, err, ctx, res, &warmed);
    if (warmed && (st == NS_MAX_ITER || st == NS_DIVERGED)) {
        /* the PGS starting point did not help: start again from the caller's */
        double *zb = ns_dup(z, (size_t)n);
        ns_result r1 = *res;
        if (zb) {
            memcpy(z, z0, (size_t)n * sizeof(double));
            ns_status st2 = newton_run(n, M, q, eq, minmap, 0, z, w, o, err, ctx, res, &warmed);
            res->iterations += r1.iterations;
            if (st2 != NS_CONVERGED && !(res->error < r1.error)) {
                int its = res->iterations;
                memcpy(z, zb, (size_t)n * sizeof(double));
                *res = r1;
                res->iterations = its;
                res->error = err(ctx, z, w);
            } else st = st2;
            free(zb);
        }
    }
    free(z0);
    return st;
}

static double lcp_err(const void *ctx, const double *z, double *w)
{
    return ns_lcp_error((const ns_lcp *)ctx, z, w);
}

ns_status ns_lcp_newton_fb(const ns_lcp *p, double *z, double *w,
                           const ns_options *o, ns_result *res)
{
    /* SPARSE M of some size: the sparse variant first (lcp_newton_sparse.c);
     * if it does not converge, the dense kernel from the caller's z */
    if (p->M->storage == NS_SPARSE && p->n >= 100) {
        double *z0 = ns_dup(z, (size_t)p->n);
        ns_status st;
        if (z0 && ns_lcp_newton_fb_sparse(p, z, w, o, res, &st) == 0 &&
            (st == NS_CONVERGED || st == NS_NO_MEMORY || st == NS_TIME_LIMIT)) {
            free(z0);
            return st;
        }
        int its = res->iterations;
        if (z0) memcpy(z, z0, (size_t)p->n * sizeof(double));
        free(z0);
        double *Md = ns_dense_copy(p->M);
        if (!Md) return ns_fail(res->message, NS_NO_MEMORY, "newton-fb: out of memory");
        res->message[0] = '\0';
        st = ns_newton_dense(p->n, Md, p->q, NULL, 0, z, w, o, lcp_err, p, res);
        res->iterations += its;
        free(Md);
        return st;
    }
    /* a dense M is read in place (the kernel does not write it) */
    double *Mc = p->M->storage == NS_DENSE ? NULL : ns_dense_copy(p->M);
    if (!Mc && p->M->storage != NS_DENSE)
        return ns_fail(res->message, NS_NO_MEMORY, "newton-fb: out of memory");
    ns_status st = ns_newton_dense(p->n, Mc ? Mc : p->M->dense, p->q, NULL, 0, z, w, o, lcp_err, p, res);
    free(Mc);
    return st;
}
