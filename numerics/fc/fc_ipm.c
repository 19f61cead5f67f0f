/* fc_ipm.c — the interior-point core of the "ipm" solvers (fc_ipm.h):
 * Nesterov–Todd scaling per cone, Mehrotra predictor–corrector steps on the
 * scaled second-order cones, the De Saxcé shift s = μ‖u_T‖ updated from
 * the current velocity before every step (the direct nonconvex variant,
 * docs/ipm.md says why), and the semismooth Newton finish once the error
 * is small. Everything problem-specific goes through ns_ipm_ops. */
#include "fc/fc_ipm.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The rate rule: from iteration IPM_RATE_FROM on, a run whose error, at the
 * geometric rate of its last IPM_RATE_SPAN iterations, would need more than
 * IPM_RATE_MARGIN times the iterations it has left stops (a path whose
 * steps stay short: on a settled pile of 2 393 contacts the steps are
 * 0.2-0.5 and the error 1e-3 after 40 iterations, falling 4 % per
 * iteration). The error is not tested while the finish may still take
 * over (below finish_at), where the path speeds up. */
enum { IPM_RATE_FROM = 20, IPM_RATE_SPAN = 10 };
#define IPM_RATE_MARGIN 3.0

/* ---- algebra of one cone L ⊂ ℝ³ (J = diag(1, −1, −1), e = (1, 0, 0)) ---- */

static double jdet(const double *x) { return x[0] * x[0] - x[1] * x[1] - x[2] * x[2]; }
/* margin of x in L: x₀ − ‖x₁‖ (> 0 inside) */
static double margin(const double *x) { return x[0] - hypot(x[1], x[2]); }

int ns_soc_nt(const double *x, const double *z, double *W, double *Wi, double *W2, double *W2i)
{
    if (!(margin(x) > 0) || !(margin(z) > 0)) return 0;
    /* det via (x₀ − ‖x₁‖)(x₀ + ‖x₁‖): no cancellation near the boundary */
    double nx = sqrt(margin(x) * (x[0] + hypot(x[1], x[2])));
    double nz = sqrt(margin(z) * (z[0] + hypot(z[1], z[2])));
    double xb[3], zb[3], w[3], v[3];
    for (int i = 0; i < 3; i++) { xb[i] = x[i] / nx; zb[i] = z[i] / nz; }
    double g = sqrt(0.5 * (1.0 + xb[0] * zb[0] + xb[1] * zb[1] + xb[2] * zb[2]));
    /* scaling point w̄ = (x̄ + J z̄) / 2γ (det w̄ = 1), v = √w̄ normalised */
    w[0] = (xb[0] + zb[0]) / (2 * g);
    w[1] = (xb[1] - zb[1]) / (2 * g);
    w[2] = (xb[2] - zb[2]) / (2 * g);
    double c = 1.0 / sqrt(2.0 * (w[0] + 1.0));
    v[0] = (w[0] + 1.0) * c; v[1] = w[1] * c; v[2] = w[2] * c;
    double beta = sqrt(nx / nz);
    static const double J[3] = { 1, -1, -1 };
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            double jj = i == j ? J[i] : 0.0;
            W[i + 3 * j] = beta * (2 * v[i] * v[j] - jj);
            Wi[i + 3 * j] = (2 * J[i] * v[i] * v[j] * J[j] - jj) / beta;
            W2[i + 3 * j] = beta * beta * (2 * w[i] * w[j] - jj);
            W2i[i + 3 * j] = (2 * J[i] * w[i] * w[j] * J[j] - jj) / (beta * beta);
        }
    return 1;
}

double ns_soc_max_step(const double *x, const double *d)
{
    /* f(α) = det(x + α d) = a α² + 2 b α + c, c > 0: the first positive
     * root, written c / (−b + √(b² − a c)) to avoid cancellation */
    double a = jdet(d), b = x[0] * d[0] - x[1] * d[1] - x[2] * d[2];
    double c = margin(x) * (x[0] + hypot(x[1], x[2]));
    double disc = b * b - a * c;
    double amax = INFINITY;
    if (disc >= 0) {
        double den = -b + sqrt(disc);
        if (den > 0) amax = c / den;
    }
    if (d[0] < 0) amax = fmin(amax, -x[0] / d[0]); /* x₀ + α d₀ ≥ 0 as well */
    return amax;
}

static void mat3v(const double *A, const double *x, double *y)
{
    for (int i = 0; i < 3; i++) y[i] = A[i] * x[0] + A[i + 3] * x[1] + A[i + 6] * x[2];
}
/* Jordan product x ∘ y = (xᵀy, x₀ y₁ + y₀ x₁) */
static void jprod(const double *x, const double *y, double *o)
{
    double o0 = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    o[1] = x[0] * y[1] + y[0] * x[1];
    o[2] = x[0] * y[2] + y[0] * x[2];
    o[0] = o0;
}
/* y with λ ∘ y = d (λ ∈ int L) */
static void jdiv(const double *l, const double *d, double *y)
{
    double det = jdet(l);
    double y0 = (l[0] * d[0] - l[1] * d[1] - l[2] * d[2]) / det;
    y[1] = (d[1] - y0 * l[1]) / l[0];
    y[2] = (d[2] - y0 * l[2]) / l[0];
    y[0] = y0;
}

void ns_ipm_finish_options(const ns_options *o, double tol, int max_iter, double time_limit,
                           ns_options *fo)
{
    ns_options_default(fo);
    fo->tol = tol;
    fo->max_iter = max_iter;
    fo->time_limit = time_limit;
    fo->warm_start = 1;
    fo->fc_norm = o->fc_norm;
    fo->log = o->log;
    fo->log_user = o->log_user;
    fo->cancel = o->cancel;
    fo->cancel_user = o->cancel_user;
    fo->verbosity = o->verbosity >= 3 ? o->verbosity - 1 : 0;
}

/* x ← x + shift·e per cone so that each margin is at least θ */
static void push_inside(double *x, ns_int nc, double theta)
{
    for (ns_int a = 0; a < nc; a++) {
        double m = margin(x + 3 * a);
        if (!(m >= theta)) x[3 * a] += theta - (isfinite(m) ? m : 0.0);
    }
}

/* root-mean-square size of a cone block of x (at least tiny) */
static double cone_scale(const double *x, ns_int nc)
{
    double s = ns_norm2(x, 3 * (size_t)nc) / sqrt((double)(nc > 0 ? nc : 1));
    return s > 1e-300 ? s : 1.0;
}

ns_status ns_ipm_run(const ns_ipm_ops *ops, double *y, double *z, const ns_options *o,
                     int fixed_point, ns_result *res)
{
    const ns_int ny = ops->ny, nc = ops->nc, m = 3 * nc;
    const int max_iter = o->max_iter > 0 ? o->max_iter : 100;
    const double t0 = ns_now();
    ns_status st = NS_MAX_ITER;
    double *buf = ns_malloc(15 * (size_t)m + 4 * (size_t)ny + 36 * (size_t)nc + 8, sizeof(double));
    if (!buf) return ns_fail(res->message, NS_NO_MEMORY, "ipm: out of memory");
    double *x = buf, *s = x + m, *u = s + nc, *rp = u + m, *t = rp + m, *dz = t + m, *dx = dz + m,
           *lam = dx + m, *xi = lam + m, *bz = xi + m, *bx = bz + m, *dza = bx + m, *dxa = dza + m,
           *ds = dxa + m, *sb = ds + m; /* sb: m doubles of scratch */
    double *rd = sb + m, *dy = rd + ny, *by = dy + ny, *dya = by + ny;
    double *W = dya + ny, *Wi = W + 9 * nc, *W2 = Wi + 9 * nc, *W2i = W2 + 9 * nc;
    char ferr[NS_ERRMSG_LEN] = "";
    memset(s, 0, (size_t)nc * sizeof(double));
    int iters = 0, fin_iters = 0;

    /* ---- starting point ---- */
    if (o->warm_start) {
        /* a warm start that already solves the problem is returned as is;
         * otherwise its velocity gives s and x = D(u + s e_N), and both z
         * and x are pushed a little inside their cones */
        double e0 = ops->error(ops->ctx, y, z);
        if (e0 <= o->tol) {
            ops->output(ops->ctx, y, z);
            res->error = e0;
            res->iterations = 0;
            free(buf);
            return NS_CONVERGED;
        }
        memset(x, 0, (size_t)m * sizeof(double));
        ops->residual(ops->ctx, y, z, x, s, rd, rp, u);
        for (ns_int a = 0; a < nc; a++) s[a] = ops->mu[a] * hypot(u[3 * a + 1], u[3 * a + 2]);
        ops->residual(ops->ctx, y, z, x, s, rd, rp, u);
        memcpy(x, rp, (size_t)m * sizeof(double));
        double th = 1e-3 * fmax(cone_scale(x, nc), cone_scale(z, nc));
        push_inside(x, nc, th);
        push_inside(z, nc, th);
    } else {
        /* y from the W = I Newton step from 0 (a regularised least-squares
         * velocity); x = z = c e, c the root-mean-square size per contact
         * of that step's x = −z = D(u + s e_N): perfectly centred cones of
         * the problem's scale (keeping that step's x and z, pushed inside,
         * cycles on LMGC_GlobalFrictionContactProblem00046: docs/ipm.md) */
        for (ns_int a = 0; a < nc; a++) {
            double *A = W2 + 9 * a;
            memset(A, 0, 9 * sizeof(double));
            A[0] = A[4] = A[8] = 1.0;
        }
        memset(y, 0, (size_t)ny * sizeof(double));
        memset(z, 0, (size_t)m * sizeof(double));
        memset(x, 0, (size_t)m * sizeof(double));
        ops->residual(ops->ctx, y, z, x, s, rd, rp, u);
        for (ns_int i = 0; i < m; i++) t[i] = -rp[i];
        ns_status fs = ops->factor(ops->ctx, W2, W2, ferr);
        if (!fs) fs = ops->solve(ops->ctx, rd, t, dy, dz);
        if (fs || !ns_all_finite(dz, (size_t)m) || !ns_all_finite(dy, (size_t)ny)) {
            st = ns_fail(res->message, fs ? fs : NS_SINGULAR, "ipm: starting point: %s",
                         ferr[0] ? ferr : "singular system");
            free(buf);
            return st;
        }
        memcpy(y, dy, (size_t)ny * sizeof(double));
        double c = cone_scale(dz, nc);
        memset(x, 0, (size_t)m * sizeof(double));
        memset(z, 0, (size_t)m * sizeof(double));
        for (ns_int a = 0; a < nc; a++) x[3 * a] = z[3 * a] = c;
    }

    double err = ops->error(ops->ctx, y, z), best = err;
    memcpy(by, y, (size_t)ny * sizeof(double));
    memcpy(bz, z, (size_t)m * sizeof(double));
    memcpy(bx, x, (size_t)m * sizeof(double));
    const double finish_from = 1e-6; /* error below which the finish is tried */
    double finish_at = fmax(o->tol, finish_from), done_err = INFINITY;
    int finished = 0, small_steps = 0, outer = 0, best_it = 0;
    const int stall = 10;   /* iterations without a new best error: stop */
    double ehist[IPM_RATE_SPAN] = { 0 };   /* the errors of the last IPM_RATE_SPAN iterations */
    double rd0 = 1.0, eps_in = 1e-4;
    ns_log(o, 2, "ipm start: error %.3e", err);

    for (int it = 1; it <= max_iter; it++) {
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
        /* De Saxcé shift from the current velocity, then the residuals */
        ops->residual(ops->ctx, y, z, x, s, rd, rp, u);
        if (!fixed_point || it == 1) {
            for (ns_int a = 0; a < nc; a++) s[a] = ops->mu[a] * hypot(u[3 * a + 1], u[3 * a + 2]);
            ops->residual(ops->ctx, y, z, x, s, rd, rp, u);
            if (it == 1) rd0 = fmax(1.0, ns_norm2(rd, (size_t)ny));
        } else {
            /* outer fixed point: s is updated only once the convex problem
             * with this s is solved to eps_in (infeasibilities and
             * relative gap); x and z are then pushed back inside by the
             * relative change of s, so the next solve starts near the
             * central path */
            double xn = ns_norm2(x, (size_t)m), zn = ns_norm2(z, (size_t)m), g = 0.0;
            for (ns_int i = 0; i < m; i++) g += x[i] * z[i];
            double ein = fmax(ns_norm2(rp, (size_t)m) / fmax(1.0, xn),
                              fmax(ns_norm2(rd, (size_t)ny) / rd0, g / fmax(1e-300, xn * zn)));
            if (ein <= eps_in) {
                double d2 = 0.0, s2 = 0.0;
                for (ns_int a = 0; a < nc; a++) {
                    double sn = ops->mu[a] * hypot(u[3 * a + 1], u[3 * a + 2]);
                    d2 += (sn - s[a]) * (sn - s[a]);
                    s2 += sn * sn;
                    s[a] = sn;
                }
                double dsr = sqrt(d2) / fmax(sqrt(s2), 1e-300);
                outer++;
                ops->residual(ops->ctx, y, z, x, s, rd, rp, u);
                double rel = fmin(1e-1, fmax(dsr, 1e-8));
                push_inside(x, nc, rel * cone_scale(x, nc));
                push_inside(z, nc, rel * cone_scale(z, nc));
                ops->residual(ops->ctx, y, z, x, s, rd, rp, u);
                eps_in = fmax(0.1 * o->tol, fmin(eps_in, 0.1 * dsr));
                ns_log(o, 2, "ipm fixed point %d: inner error %.3e, relative change of s %.3e", outer, ein, dsr);
            }
        }

        double gap = 0.0;
        int inside = 1;
        for (ns_int a = 0; a < nc && inside; a++) {
            double *Wa = W + 9 * a, *Wia = Wi + 9 * a;
            inside = ns_soc_nt(x + 3 * a, z + 3 * a, Wa, Wia, W2 + 9 * a, W2i + 9 * a);
            if (!inside) break;
            mat3v(Wa, z + 3 * a, lam + 3 * a);
            gap += x[3 * a] * z[3 * a] + x[3 * a + 1] * z[3 * a + 1] + x[3 * a + 2] * z[3 * a + 2];
        }
        if (!inside) { ns_fail(res->message, NS_MAX_ITER, "ipm: iterate left the cones at iteration %d", it); break; }
        double mug = nc > 0 ? gap / (double)nc : 0.0;
        ns_status fs = ops->factor(ops->ctx, W2, W2i, ferr);
        if (fs) { ns_fail(res->message, NS_MAX_ITER, "ipm: Newton matrix at iteration %d: %s", it, ferr); break; }
        iters = it;

        /* predictor: ξ = −λ */
        for (ns_int i = 0; i < m; i++) xi[i] = -lam[i];
        for (ns_int a = 0; a < nc; a++) {
            mat3v(W + 9 * a, xi + 3 * a, sb + 3 * a);
            for (int k = 0; k < 3; k++) t[3 * a + k] = sb[3 * a + k] - rp[3 * a + k];
        }
        if ((fs = ops->solve(ops->ctx, rd, t, dya, dza))) { ns_fail(res->message, fs, "ipm: solve failed at iteration %d", it); break; }
        double amax = 1.0;
        for (ns_int a = 0; a < nc; a++) {
            double w2dz[3], tmp[3];
            mat3v(W2 + 9 * a, dza + 3 * a, w2dz);
            for (int k = 0; k < 3; k++) { tmp[k] = sb[3 * a + k]; dxa[3 * a + k] = tmp[k] - w2dz[k]; }
            amax = fmin(amax, ns_soc_max_step(x + 3 * a, dxa + 3 * a));
            amax = fmin(amax, ns_soc_max_step(z + 3 * a, dza + 3 * a));
        }
        double gapa = 0.0;
        for (ns_int i = 0; i < m; i++) gapa += (x[i] + amax * dxa[i]) * (z[i] + amax * dza[i]);
        double rho = gap > 0 ? gapa / gap : 0.0;
        rho = fmin(1.0, fmax(0.0, rho));
        double sigma = rho * rho * rho;

        /* corrector: λ ∘ ξ = −λ∘λ − (W⁻¹Δx_a)∘(W Δz_a) + σ μ e */
        for (ns_int a = 0; a < nc; a++) {
            double p1[3], p2[3], c[3], l2[3];
            mat3v(Wi + 9 * a, dxa + 3 * a, p1);
            mat3v(W + 9 * a, dza + 3 * a, p2);
            jprod(p1, p2, c);
            jprod(lam + 3 * a, lam + 3 * a, l2);
            double d[3] = { -l2[0] - c[0] + sigma * mug, -l2[1] - c[1], -l2[2] - c[2] };
            jdiv(lam + 3 * a, d, xi + 3 * a);
            mat3v(W + 9 * a, xi + 3 * a, sb + 3 * a);
            for (int k = 0; k < 3; k++) t[3 * a + k] = sb[3 * a + k] - rp[3 * a + k];
        }
        if ((fs = ops->solve(ops->ctx, rd, t, dy, dz))) { ns_fail(res->message, fs, "ipm: solve failed at iteration %d", it); break; }
        amax = INFINITY;
        for (ns_int a = 0; a < nc; a++) {
            double w2dz[3];
            mat3v(W2 + 9 * a, dz + 3 * a, w2dz);
            for (int k = 0; k < 3; k++) dx[3 * a + k] = sb[3 * a + k] - w2dz[k];
            amax = fmin(amax, ns_soc_max_step(x + 3 * a, dx + 3 * a));
            amax = fmin(amax, ns_soc_max_step(z + 3 * a, dz + 3 * a));
        }
        double alpha = fmin(1.0, 0.99 * amax);
        if (!ns_all_finite(dz, (size_t)m) || !ns_all_finite(dy, (size_t)ny) || !(alpha > 0)) {
            ns_fail(res->message, NS_MAX_ITER, "ipm: no step at iteration %d", it);
            break;
        }
        for (ns_int i = 0; i < ny; i++) y[i] += alpha * dy[i];
        for (ns_int i = 0; i < m; i++) { z[i] += alpha * dz[i]; x[i] += alpha * dx[i]; }
        small_steps = alpha < 1e-8 ? small_steps + 1 : 0;

        err = ops->error(ops->ctx, y, z);
        ns_log(o, 2, "ipm iteration %d: gap/nc %.3e |r_p| %.3e |r_d| %.3e sigma %.2g step %.3g error %.3e",
               it, mug, ns_norm2(rp, (size_t)m), ns_norm2(rd, (size_t)ny), sigma, alpha, err);
        if (err < 0.9 * best) best_it = it;
        if (err < best) {
            best = err;
            memcpy(by, y, (size_t)ny * sizeof(double));
            memcpy(bz, z, (size_t)m * sizeof(double));
            memcpy(bx, x, (size_t)m * sizeof(double));
        }
        if (err <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(err)) { st = NS_DIVERGED; break; }
        if (small_steps >= 5) { ns_fail(res->message, NS_MAX_ITER, "ipm: steps below 1e-8 at iteration %d", it); break; }
        if (it - best_it >= stall) { ns_fail(res->message, NS_MAX_ITER, "ipm: no progress over %d iterations at iteration %d", stall, it); break; }
        /* too slow: at the rate of the last IPM_RATE_SPAN iterations, tol
         * is more than IPM_RATE_MARGIN times the iterations left away */
        const double e_then = ehist[it % IPM_RATE_SPAN];
        ehist[it % IPM_RATE_SPAN] = err;
        if (it >= IPM_RATE_FROM && err > finish_at && e_then > err) {
            const double per_it = log(e_then / err) / IPM_RATE_SPAN;   /* > 0 */
            const double need = log(err / o->tol) / per_it;
            if (need > IPM_RATE_MARGIN * (double)(max_iter - it)) {
                ns_fail(res->message, NS_MAX_ITER,
                        "ipm: at iteration %d the error (%.3e) falls too slowly to reach tol within "
                        "%d iterations", it, err, max_iter);
                break;
            }
        }
        /* the finish: semismooth Newton once the error is small; tried
         * again only after the error has dropped 10-fold */
        if (ops->finish && err <= finish_at && err < 0.1 * done_err) {
            double tl = o->time_limit > 0 ? o->time_limit - (ns_now() - t0) : 0.0;
            if (o->time_limit > 0 && tl <= 0) { st = NS_TIME_LIMIT; break; }
            int fi = 0;
            double fe = ops->finish(ops->ctx, y, z, o->tol, 30, tl, &fi);
            fin_iters += fi;
            done_err = err;
            ns_log(o, 2, "ipm finish (semismooth Newton) from %.3e: %d iterations, error %.3e", err, fi, fe);
            if (fe <= o->tol) { finished = 1; st = NS_CONVERGED; res->error = fe; break; }
        }
    }
    if (!finished && st != NS_CONVERGED && st != NS_INTERRUPTED && ops->finish && best < done_err &&
        !(o->time_limit > 0 && ns_now() - t0 > o->time_limit)) {
        /* last chance from the best point when the loop stopped without
         * one: at most 100 Newton iterations, no more than the interior
         * point's own limit (a caller that caps it caps both), and no
         * more than the interior-point iterations made (at least 30): a
         * run stopped early by the rate rule does not hand a long Newton
         * run a point far from the solution */
        int finish_max = iters < 30 ? 30 : iters > 100 ? 100 : iters;
        if (max_iter < 100) finish_max = max_iter;
        double tl = o->time_limit > 0 ? o->time_limit - (ns_now() - t0) : 0.0;
        int fi = 0;
        double fe = ops->finish(ops->ctx, by, bz, o->tol, finish_max, tl, &fi);
        fin_iters += fi;
        ns_log(o, 2, "ipm final finish from %.3e: %d iterations, error %.3e", best, fi, fe);
        if (fe <= o->tol) { finished = 1; st = NS_CONVERGED; res->error = fe; }
        else if (fe < best) { finished = 1; res->error = fe; }
    }
    if (!finished) {
        if (st != NS_CONVERGED) { memcpy(y, by, (size_t)ny * sizeof(double)); memcpy(z, bz, (size_t)m * sizeof(double)); }
        ops->output(ops->ctx, y, z);
        res->error = st == NS_CONVERGED ? err : best;
    }
    if (st == NS_CONVERGED) res->message[0] = '\0';
    else if (!res->message[0])
        ns_fail(res->message, st, "ipm: error %.3e above tol %.3g after %d iterations", res->error,
                o->tol, iters + fin_iters);
    res->iterations = iters + fin_iters;
    ns_log(o, 1, "ipm: %d interior-point iterations (%d updates of s), %d Newton iterations, error %.3e",
           iters, fixed_point ? outer : iters, fin_iters, res->error);
    free(buf);
    return st;
}
