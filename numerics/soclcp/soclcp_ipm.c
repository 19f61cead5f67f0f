/* soclcp_ipm.c — primal–dual interior point for the SOCLCP
 *   K ∋ r ⊥ v = W r + q ∈ K*,  K_c = {‖r_c,T‖ ≤ μ_c r_c,0}  (docs/kinds.md).
 *
 * Each cone c of dimension d_c is mapped to the Lorentz cone
 * L = {(t, w) : ‖w‖ ≤ t} by D_c = diag(1, μ_c, …, μ_c):
 *     z_c = D_c⁻¹ r_c ∈ L  ⇔  r_c ∈ K_c,    x_c = D_c v_c ∈ L  ⇔  v_c ∈ K_c*,
 * with x_cᵀ z_c = r_cᵀ v_c. The unknown is z and r = D z is the output, so
 * μ_c = 0 (the ray r_T = 0, dual the half-space v_0 ≥ 0) needs no special
 * case: r_T = 0 whatever z_T, and x_T = 0 stays inside L. The problem is
 *     x = Ŵ z + D q,   L ∋ x ⊥ z ∈ L,   Ŵ = D W D,
 * the optimality conditions of a convex cone program when W is positive
 * semidefinite. Mehrotra's predictor–corrector with Nesterov–Todd scaling
 * per cone (the formulas of docs/ipm.md, which hold for any dimension; a
 * one-dimensional cone is the half-line, W = √(x/z)):
 *     (Ŵ + W²) Δz = W ξ − r_p,   Δx = W ξ − W² Δz,   r_p = Ŵ z + D q − x,
 * ξ = −λ (predictor) then λ⁻¹ ∘ (−λ∘λ − (W⁻¹Δx_a)∘(WΔz_a) + σ μ e), with
 * λ = W z, σ = ρ³ and μ = xᵀz / nc. The matrix has W's pattern plus the
 * cones' diagonal blocks, built once and factored through the ipm solvers'
 * system (fc_ipm_system.c: Jacobi scaling, LAPACKE up to 128 unknowns,
 * CHOLMOD (UMFPACK when W is not symmetric) with the analysis reused).
 * The kind's error (ns_soclcp_error) of r = D z is checked after every
 * step. Stops at tol, max_iter (default 100), 10 iterations without a 10 %
 * better error, the time limit or the cancel hook; without convergence the
 * best point seen is returned, after at most 30 iterations of the
 * semismooth Newton newton-fb from it when its error is ≤ max(tol, 1e-4).
 * (The convex problem needs no finish on its way: the interior iterations
 * converge by themselves, and newton-fb's iterations on a singular W cost
 * more than the rest of the solve.) */
#include "fc/fc_ipm.h"
#include "solve/solvers.h"
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- algebra of one cone L ⊂ ℝᵈ (J = diag(1, −1, …), e = (1, 0, …)) ---- */

static double tail_norm(ns_int d, const double *x)
{
    double s = 0.0;
    for (ns_int k = 1; k < d; k++) s += x[k] * x[k];
    return sqrt(s);
}
static double margin(ns_int d, const double *x) { return x[0] - tail_norm(d, x); }

/* NT scaling of (x, z) ∈ int L × int L: W, W⁻¹, W² (d×d, column-major)
 * with W z = W⁻¹ x; w (d) scratch. 0 when x or z is not interior. */
static int nt_scaling(ns_int d, const double *x, const double *z, double *W, double *Wi,
                      double *W2, double *w)
{
    double mx = margin(d, x), mz = margin(d, z);
    if (!(mx > 0) || !(mz > 0)) return 0;
    double nx = sqrt(mx * (x[0] + tail_norm(d, x))), nz = sqrt(mz * (z[0] + tail_norm(d, z)));
    double xz = 0.0;
    for (ns_int k = 0; k < d; k++) xz += x[k] * z[k];
    double g = sqrt(0.5 * (1.0 + xz / (nx * nz)));
    for (ns_int k = 0; k < d; k++) w[k] = (x[k] / nx + (k ? -1.0 : 1.0) * z[k] / nz) / (2 * g);
    double c = 1.0 / sqrt(2.0 * (w[0] + 1.0)), beta = sqrt(nx / nz);
    for (ns_int j = 0; j < d; j++) {
        double vj = (w[j] + (j ? 0.0 : 1.0)) * c, Jj = j ? -1.0 : 1.0;
        for (ns_int i = 0; i < d; i++) {
            double vi = (w[i] + (i ? 0.0 : 1.0)) * c, Ji = i ? -1.0 : 1.0;
            double jj = i == j ? Ji : 0.0;
            W[i + d * j] = beta * (2 * vi * vj - jj);
            Wi[i + d * j] = (2 * Ji * vi * vj * Jj - jj) / beta;
            W2[i + d * j] = beta * beta * (2 * w[i] * w[j] - jj);
        }
    }
    return 1;
}

/* largest α ≥ 0 (+INFINITY if none) with x + α dx ∈ L, x ∈ int L: the
 * first positive root of det(x + α dx), written to avoid cancellation */
static double max_step(ns_int d, const double *x, const double *dx)
{
    double a = dx[0] * dx[0], b = x[0] * dx[0];
    for (ns_int k = 1; k < d; k++) { a -= dx[k] * dx[k]; b -= x[k] * dx[k]; }
    double c = margin(d, x) * (x[0] + tail_norm(d, x));
    double disc = b * b - a * c, amax = INFINITY;
    if (disc >= 0) {
        double den = -b + sqrt(disc);
        if (den > 0) amax = c / den;
    }
    if (dx[0] < 0) amax = fmin(amax, -x[0] / dx[0]);
    return amax;
}

static void matvec(ns_int d, const double *A, const double *x, double *y)
{
    for (ns_int i = 0; i < d; i++) {
        double s = 0.0;
        for (ns_int j = 0; j < d; j++) s += A[i + d * j] * x[j];
        y[i] = s;
    }
}
/* Jordan product x ∘ y = (xᵀy, x₀ y_T + y₀ x_T) (o may not alias) */
static void jprod(ns_int d, const double *x, const double *y, double *o)
{
    double s = 0.0;
    for (ns_int k = 0; k < d; k++) s += x[k] * y[k];
    for (ns_int k = 1; k < d; k++) o[k] = x[0] * y[k] + y[0] * x[k];
    o[0] = s;
}
/* y with l ∘ y = b (l ∈ int L) */
static void jdiv(ns_int d, const double *l, const double *b, double *y)
{
    double det = l[0] * l[0], t = l[0] * b[0];
    for (ns_int k = 1; k < d; k++) { det -= l[k] * l[k]; t -= l[k] * b[k]; }
    double y0 = t / det;
    for (ns_int k = 1; k < d; k++) y[k] = (b[k] - y0 * l[k]) / l[0];
    y[0] = y0;
}

typedef struct sipm {
    const ns_soclcp *p;
    ns_int n, nc;
    const ns_int *cs;        /* cone starts */
    double *dsc;             /* (n) the diagonal of D */
    size_t *boff;            /* (nc + 1) offsets of the cones' d×d blocks */
    ns_matrix *Wsp;          /* W in CSC (owned when W was not) */
    const ns_matrix *Wc;
    ns_ipm_sys sys;
    ns_int *pos;             /* positions in K: W's entries, then the blocks */
} sipm;

/* r ← D z, v ← W r + q; x given: rp ← D v − x */
static void residual(const sipm *S, const double *z, const double *x, double *r, double *v,
                     double *rp)
{
    for (ns_int i = 0; i < S->n; i++) r[i] = S->dsc[i] * z[i];
    memcpy(v, S->p->q, (size_t)S->n * sizeof(double));
    ns_matrix_gemv(1.0, S->p->W, r, 1.0, v);
    if (rp)
        for (ns_int i = 0; i < S->n; i++) rp[i] = S->dsc[i] * v[i] - x[i];
}

/* K ← Ŵ + blockdiag(B) and factor */
static ns_status factor(sipm *S, const double *B, char *err)
{
    double *K = S->sys.K->csc.x;
    memset(K, 0, (size_t)S->sys.K->csc.nnz * sizeof(double));
    const ns_int *P = S->Wc->csc.p, *I = S->Wc->csc.i;
    const double *X = S->Wc->csc.x;
    for (ns_int j = 0; j < S->n; j++)
        for (ns_int t = P[j]; t < P[j + 1]; t++)
            K[S->pos[t]] += S->dsc[I[t]] * X[t] * S->dsc[j];
    const ns_int *bp = S->pos + P[S->n];
    for (size_t e = 0; e < S->boff[S->nc]; e++) K[bp[e]] += B[e];
    return ns_ipm_sys_factor(&S->sys, err);
}

/* the Newton direction for Wξ = wxi: Δz from (Ŵ + W²) Δz = Wξ − r_p,
 * Δx = Wξ − W² Δz, and the largest step keeping x and z in the cones */
static ns_status direction(sipm *S, const double *W2, const double *wxi, const double *rp,
                           const double *x, const double *z, double *dz, double *dx,
                           double *scratch, double *amax)
{
    for (ns_int i = 0; i < S->n; i++) dz[i] = wxi[i] - rp[i];
    ns_status st = ns_ipm_sys_solve(&S->sys, dz);
    if (st) return st;
    double am = INFINITY;
    for (ns_int c = 0; c < S->nc; c++) {
        ns_int a = S->cs[c], d = S->cs[c + 1] - a;
        matvec(d, W2 + S->boff[c], dz + a, scratch);
        for (ns_int k = 0; k < d; k++) dx[a + k] = wxi[a + k] - scratch[k];
        am = fmin(am, max_step(d, x + a, dx + a));
        am = fmin(am, max_step(d, z + a, dz + a));
    }
    *amax = am;
    return NS_OK;
}

static double finish(const sipm *S, double *r, double *v, const ns_options *o, double tol,
                     int max_iter, double time_limit, int *iters)
{
    ns_options fo;
    ns_ipm_finish_options(o, tol, max_iter, time_limit, &fo);
    ns_result fr;
    ns_result_init(&fr);
    ns_soclcp_newton_fb(S->p, r, v, &fo, &fr);
    *iters = fr.iterations;
    ns_result_clear(&fr);
    if (!ns_all_finite(r, (size_t)S->n)) return INFINITY;
    return ns_soclcp_error(S->p, r, v);
}

ns_status ns_soclcp_ipm(const ns_soclcp *p, double *r, double *v, const ns_options *o,
                        ns_result *res)
{
    const ns_int n = p->n, nc = p->nc;
    res->error = INFINITY;
    if (n == 0) { res->error = 0.0; return NS_CONVERGED; }
    const int max_iter = o->max_iter > 0 ? o->max_iter : 100;
    const double t0 = ns_now();
    ns_status st = NS_MAX_ITER;
    sipm S;
    memset(&S, 0, sizeof S);
    S.p = p; S.n = n; S.nc = nc; S.cs = p->cone_start;
    S.boff = ns_malloc((size_t)nc + 1, sizeof(size_t));
    S.dsc = ns_malloc((size_t)n, sizeof(double));
    S.Wsp = p->W->storage == NS_SPARSE ? NULL : ns_matrix_to_sparse(p->W);
    S.Wc = S.Wsp ? S.Wsp : p->W;
    double *buf = NULL;
    ns_int *ri = NULL, *ci = NULL;
    if (!S.boff || !S.dsc || (p->W->storage != NS_SPARSE && !S.Wsp)) goto oom;
    ns_int dmax = 1;
    S.boff[0] = 0;
    for (ns_int c = 0; c < nc; c++) {
        ns_int a = S.cs[c], d = S.cs[c + 1] - a;
        if (d > dmax) dmax = d;
        S.boff[c + 1] = S.boff[c] + (size_t)d * (size_t)d;
        for (ns_int k = 0; k < d; k++) S.dsc[a + k] = k ? p->mu[c] : 1.0;
    }
    const size_t nb = S.boff[nc], nw = (size_t)S.Wc->csc.p[n], npairs = nw + nb;
    ri = ns_malloc(npairs, sizeof(ns_int));
    ci = ns_malloc(npairs, sizeof(ns_int));
    S.pos = ns_malloc(npairs, sizeof(ns_int));
    /* vectors: z x rp t dz dx dza dxa lam xi sb bz br bv (n each), the
     * cones' W, W⁻¹, W² (nb each), two dmax scratch vectors */
    buf = ns_malloc(14 * (size_t)n + 3 * nb + 4 * (size_t)dmax, sizeof(double));
    if (!ri || !ci || !S.pos || !buf) goto oom;
    double *z = buf, *x = z + n, *rp = x + n, *t = rp + n, *dz = t + n, *dx = dz + n,
           *dza = dx + n, *dxa = dza + n, *lam = dxa + n, *xi = lam + n, *sb = xi + n,
           *bz = sb + n, *br = bz + n, *bv = br + n;
    double *Wn = bv + n, *Wi = Wn + nb, *W2 = Wi + nb, *s1 = W2 + nb, *s2 = s1 + dmax,
           *s3 = s2 + dmax, *s4 = s3 + dmax;
    {
        size_t k = 0;
        for (ns_int j = 0; j < n; j++)
            for (ns_int q = S.Wc->csc.p[j]; q < S.Wc->csc.p[j + 1]; q++, k++) {
                ri[k] = S.Wc->csc.i[q];
                ci[k] = j;
            }
        for (ns_int c = 0; c < nc; c++) {
            ns_int a = S.cs[c], d = S.cs[c + 1] - a;
            for (ns_int jj = 0; jj < d; jj++)
                for (ns_int ii = 0; ii < d; ii++, k++) { ri[k] = a + ii; ci[k] = a + jj; }
        }
    }
    int sym = ns_matrix_is_symmetric(p->W, 1e-12);
    if ((st = ns_ipm_sys_init(&S.sys, n, npairs, ri, ci, S.pos, sym, res->message))) goto done;
    st = NS_MAX_ITER;
    char ferr[NS_ERRMSG_LEN] = "";

    /* ---- starting point ---- */
    double err;
    if (o->warm_start && ns_all_finite(r, (size_t)n) &&
        (err = ns_soclcp_error(p, r, v)) <= o->tol) {
        res->error = err;
        res->iterations = 0;
        st = NS_CONVERGED;
        goto done;
    }
    if (o->warm_start && ns_all_finite(r, (size_t)n)) {
        /* z = D⁻¹ r, x = D v from the given point, both pushed inside
         * their cones to a margin of 1e-3 of the root-mean-square size */
        for (ns_int i = 0; i < n; i++) z[i] = S.dsc[i] > 0 ? r[i] / S.dsc[i] : 0.0;
        residual(&S, z, NULL, br, bv, NULL);
        for (ns_int i = 0; i < n; i++) x[i] = S.dsc[i] * bv[i];
        double sc = fmax(ns_norm2(x, (size_t)n), ns_norm2(z, (size_t)n)) / sqrt((double)nc);
        double th = 1e-3 * (sc > 0 ? sc : 1.0);
        for (ns_int c = 0; c < nc; c++) {
            ns_int a = S.cs[c], d = S.cs[c + 1] - a;
            double m = margin(d, x + a);
            if (!(m >= th)) x[a] += th - (isfinite(m) ? m : 0.0);
            m = margin(d, z + a);
            if (!(m >= th)) z[a] += th - (isfinite(m) ? m : 0.0);
        }
    } else {
        /* (Ŵ + I) Δz = −D q from z = x = 0, then centred cones x = z = c e
         * of that step's root-mean-square size per cone */
        for (ns_int c = 0; c < nc; c++) {
            ns_int a = S.cs[c], d = S.cs[c + 1] - a;
            double *B = W2 + S.boff[c];
            memset(B, 0, (size_t)d * (size_t)d * sizeof(double));
            for (ns_int k = 0; k < d; k++) B[k + d * k] = 1.0;
            (void)a;
        }
        ns_status fs = factor(&S, W2, ferr);
        for (ns_int i = 0; i < n; i++) dz[i] = -S.dsc[i] * p->q[i];
        if (!fs) fs = ns_ipm_sys_solve(&S.sys, dz);
        if (fs || !ns_all_finite(dz, (size_t)n)) {
            st = ns_fail(res->message, fs ? fs : NS_SINGULAR, "ipm: starting point: %s",
                         ferr[0] ? ferr : "singular system");
            goto done;
        }
        double c0 = ns_norm2(dz, (size_t)n) / sqrt((double)nc);
        if (!(c0 > 1e-300)) c0 = 1.0;
        memset(x, 0, (size_t)n * sizeof(double));
        memset(z, 0, (size_t)n * sizeof(double));
        for (ns_int c = 0; c < nc; c++) x[S.cs[c]] = z[S.cs[c]] = c0;
    }

    residual(&S, z, x, r, v, rp);
    err = ns_soclcp_error(p, r, v);
    double best = err;
    memcpy(bz, z, (size_t)n * sizeof(double));
    const double finish_at = fmax(o->tol, 1e-4);
    int iters = 0, fin_iters = 0, best_it = 0, small_steps = 0;
    ns_log(o, 2, "ipm start: error %.3e", err);

    for (int it = 1; it <= max_iter; it++) {
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        /* r, v and r_p of the current (z, x): from before the loop, then
         * from the end of the last iteration */
        double gap = 0.0;
        int inside = 1;
        for (ns_int c = 0; c < nc && inside; c++) {
            ns_int a = S.cs[c], d = S.cs[c + 1] - a;
            size_t o2 = S.boff[c];
            inside = nt_scaling(d, x + a, z + a, Wn + o2, Wi + o2, W2 + o2, s1);
            if (inside) matvec(d, Wn + o2, z + a, lam + a);
        }
        if (!inside) { ns_fail(res->message, NS_MAX_ITER, "ipm: iterate left the cones at iteration %d", it); break; }
        for (ns_int i = 0; i < n; i++) gap += x[i] * z[i];
        double mug = gap / (double)nc;
        ns_status fs = factor(&S, W2, ferr);
        if (fs) { ns_fail(res->message, NS_MAX_ITER, "ipm: Newton matrix at iteration %d: %s", it, ferr); break; }
        iters = it;

        /* predictor ξ = −λ: t = W ξ − r_p */
        for (ns_int c = 0; c < nc; c++) {
            ns_int a = S.cs[c], d = S.cs[c + 1] - a;
            for (ns_int k = 0; k < d; k++) s1[k] = -lam[a + k];
            matvec(d, Wn + S.boff[c], s1, sb + a);
        }
        double amax;
        if ((fs = direction(&S, W2, sb, rp, x, z, dza, dxa, s1, &amax))) { ns_fail(res->message, fs, "ipm: solve failed at iteration %d", it); break; }
        amax = fmin(amax, 1.0);
        double gapa = 0.0;
        for (ns_int i = 0; i < n; i++) gapa += (x[i] + amax * dxa[i]) * (z[i] + amax * dza[i]);
        double rho = gap > 0 ? fmin(1.0, fmax(0.0, gapa / gap)) : 0.0;
        double sigma = rho * rho * rho;

        /* corrector: λ ∘ ξ = −λ∘λ − (W⁻¹Δx_a)∘(WΔz_a) + σ μ e */
        for (ns_int c = 0; c < nc; c++) {
            ns_int a = S.cs[c], d = S.cs[c + 1] - a;
            size_t o2 = S.boff[c];
            matvec(d, Wi + o2, dxa + a, s1);
            matvec(d, Wn + o2, dza + a, s2);
            jprod(d, s1, s2, s3);
            jprod(d, lam + a, lam + a, s4);
            for (ns_int k = 0; k < d; k++) s3[k] = -s4[k] - s3[k];
            s3[0] += sigma * mug;
            jdiv(d, lam + a, s3, xi + a);
            matvec(d, Wn + o2, xi + a, sb + a);
        }
        if ((fs = direction(&S, W2, sb, rp, x, z, dz, dx, s1, &amax))) { ns_fail(res->message, fs, "ipm: solve failed at iteration %d", it); break; }
        double alpha = fmin(1.0, 0.99 * amax);
        if (!ns_all_finite(dz, (size_t)n) || !ns_all_finite(dx, (size_t)n) || !(alpha > 0)) {
            ns_fail(res->message, NS_MAX_ITER, "ipm: no step at iteration %d", it);
            break;
        }
        for (ns_int i = 0; i < n; i++) { z[i] += alpha * dz[i]; x[i] += alpha * dx[i]; }
        small_steps = alpha < 1e-8 ? small_steps + 1 : 0;

        const double rpn = ns_norm2(rp, (size_t)n);   /* this iteration's, for the log */
        residual(&S, z, x, r, v, rp);
        err = ns_soclcp_error(p, r, v);
        ns_log(o, 2, "ipm iteration %d: gap/nc %.3e |r_p| %.3e sigma %.2g step %.3g error %.3e",
               it, mug, rpn, sigma, alpha, err);
        int stop = ns_iteration(o, res, err);
        if (err < 0.9 * best) best_it = it;
        if (err < best) { best = err; memcpy(bz, z, (size_t)n * sizeof(double)); }
        if (err <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(err)) { st = NS_DIVERGED; break; }
        if (stop) { st = NS_INTERRUPTED; break; }
        if (small_steps >= 5) { ns_fail(res->message, NS_MAX_ITER, "ipm: steps below 1e-8 at iteration %d", it); break; }
        if (it - best_it >= 10) { ns_fail(res->message, NS_MAX_ITER, "ipm: no progress over 10 iterations at iteration %d", it); break; }
    }
    if (st != NS_CONVERGED && st != NS_INTERRUPTED) {
        /* the best interior point, and from it, when it is close, the
         * semismooth Newton finish */
        memcpy(z, bz, (size_t)n * sizeof(double));
        residual(&S, z, x, r, v, NULL);
        err = ns_soclcp_error(p, r, v);
        double tl = o->time_limit > 0 ? o->time_limit - (ns_now() - t0) : 0.0;
        if (err <= finish_at && !(o->time_limit > 0 && tl <= 0)) {
            memcpy(br, r, (size_t)n * sizeof(double));
            int fi = 0;
            double fe = finish(&S, br, bv, o, o->tol, 30, tl, &fi);
            fin_iters += fi;
            ns_log(o, 2, "ipm finish (newton-fb) from %.3e: %d iterations, error %.3e", err, fi, fe);
            if (fe < err) {
                memcpy(r, br, (size_t)n * sizeof(double));
                err = ns_soclcp_error(p, r, v);
                if (err <= o->tol) { st = NS_CONVERGED; res->message[0] = '\0'; }
            }
        }
    }
    res->error = err;
    res->iterations = iters + fin_iters;
    if (st == NS_CONVERGED) res->message[0] = '\0';
    else if (!res->message[0])
        ns_fail(res->message, st, "ipm: error %.3e above tol %.3g after %d iterations", err, o->tol,
                iters + fin_iters);
    ns_log(o, 1, "ipm: %d interior-point iterations, %d Newton iterations, error %.3e", iters,
           fin_iters, err);
    goto done;
oom:
    st = ns_fail(res->message, NS_NO_MEMORY, "ipm: out of memory");
done:
    ns_ipm_sys_free(&S.sys);
    ns_matrix_free(S.Wsp);
    free(S.boff); free(S.dsc); free(S.pos); free(ri); free(ci); free(buf);
    return st;
}
