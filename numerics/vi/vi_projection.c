/* vi_projection.c — projection methods for the VI  x ∈ X,
 * ⟨F(x), y − x⟩ ≥ 0 ∀y ∈ X, i.e. x = P_X(x − ρF(x)):
 *
 *  fpp  fixed-point projection x⁺ = P(x − ρF(x)); each step first tries
 *       the spectral length ρ = ⟨s, s⟩/⟨s, y⟩ of the last move (s = x − x₋,
 *       y = F(x) − F(x₋); Barzilai–Borwein), kept when the natural
 *       residual falls below (1 − 1e-4) times the largest of the last
 *       SPEC_MEMORY (non-monotone, as spectral projected gradient methods
 *       test their merit): one evaluation of F a step where it is kept,
 *       and on the VI families of benchmarks/ncp half the steps of the
 *       self-adaptive length alone. Otherwise the step ρ is
 *       self-adaptive: a trial x̄ is accepted when
 *       ρ‖F(x̄) − F(x)‖ ≤ ν‖x̄ − x‖ (ν = 0.9; else ρ ← ρ/2 and retry) and ρ
 *       grows by 3/2 after a step whose ratio was below 0.5 (Khobotov's
 *       rule as in He–Liao's projection method); converges for strongly
 *       monotone Lipschitz F.
 *  eg   extragradient: x̄ = P(x − ρF(x)) with the same rule, then
 *       x⁺ = P(x − γα*ρF(x̄)), α* = ⟨x − x̄, d⟩/‖d‖² with
 *       d = (x − x̄) − ρ(F(x) − F(x̄)) and γ = 1.9 (He–Liao's improved
 *       extragradient; Korpelevich's is α* = γ = 1: on the strongly monotone
 *       families of benchmarks/ncp its contraction is about 1 − t + t²
 *       with t = ρL, so 2.5–4 times the iterations); monotone Lipschitz F.
 *       Before the corrector, the second projected step from the predictor
 *       x̂ = P(x̄ − ρF(x̄)) (what Siconos' VI_EG takes as its corrector) is
 *       tried and kept when it lowers the natural residual; a refusal
 *       makes eg skip that try for a number of iterations that doubles
 *       with each refusal (a merely monotone F: the corrector alone).
 *  hp   hyperplane projection (Solodov–Svaiter): y = P(x − F(x)),
 *       r = x − y, Armijo search along r for z = x − t r with
 *       ⟨F(z), r⟩ ≥ σ‖r‖² (σ = 0.3, t halved), then x⁺ = P_{X∩H}(x), H the
 *       half-space {⟨F(z), u − z⟩ ≤ 0} that separates x from the
 *       solutions; P_{X∩H}(x) = P_X(x − λF(z)) with λ ≥ 0 found to 1e-6
 *       by a bracketed secant (Illinois) search, using projections on X
 *       only; the step is relaxed, x⁺ = P_X(x + γ(P_{X∩H}(x) − x)) with
 *       γ = 1.9 (still Fejér monotone: X ∩ H holds every solution);
 *       monotone (even non-Lipschitz) continuous F.
 * Each stops when ‖x − P(x − F(x))‖ ≤ tol. */
#include "vi/vi_internal.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* eg's relaxation of the optimal corrector length, in (0, 2) */
#define EG_GAMMA 1.9
/* hp's relaxation of the projection onto X ∩ H, in (0, 2) */
#define HP_GAMMA 1.9
/* fpp's non-monotone window: a spectral step is kept when the natural
 * residual stays below the largest of this many last iterates' */
#define SPEC_MEMORY 10

int ns_vi_project(const ns_vi_set *X, ns_int n, const double *x, double *px)
{
    if (X->project) {
        if (X->project(X->user, n, x, px) != 0) return 1;
        return ns_all_finite(px, (size_t)n) ? 0 : 1;
    }
    for (ns_int i = 0; i < n; i++) {
        double v = x[i];
        if (v < X->lb[i]) v = X->lb[i];
        if (v > X->ub[i]) v = X->ub[i];
        px[i] = v;
    }
    return 0;
}

double ns_vi_natural_residual(const ns_vi_set *X, ns_int n, const double *x,
                              const double *F, double *work)
{
    double *y = work;
    for (ns_int i = 0; i < n; i++) y[i] = x[i] - F[i];
    if (X->project) {
        /* the callback may not work in place: project into y's second half
         * is not available, so project through a temporary */
        double *t = ns_malloc((size_t)(n > 0 ? n : 1), sizeof(double));
        if (!t) return INFINITY;
        int bad = ns_vi_project(X, n, y, t);
        double s = 0.0;
        for (ns_int i = 0; i < n; i++) { double d = x[i] - t[i]; s += d * d; }
        free(t);
        return bad ? INFINITY : sqrt(s);
    }
    double s = 0.0;
    for (ns_int i = 0; i < n; i++) {
        double v = y[i];
        if (v < X->lb[i]) v = X->lb[i];
        if (v > X->ub[i]) v = X->ub[i];
        double d = x[i] - v;
        s += d * d;
    }
    return sqrt(s);
}

static double dist(ns_int n, const double *a, const double *b)
{
    double s = 0.0;
    for (ns_int i = 0; i < n; i++) { double d = a[i] - b[i]; s += d * d; }
    return sqrt(s);
}

/* The projected step xt = P(base − len·Fbase) with Ft = F(xt) (fpp's
 * spectral trial, eg's second step): its natural residual, or INFINITY
 * when the projection or F failed. w: n of scratch. */
static double trial_step(const ns_cp_map *f, const ns_vi_set *X, const double *base,
                         const double *Fbase, double len, double *xt, double *Ft, double *w)
{
    const ns_int n = f->n;
    for (ns_int i = 0; i < n; i++) w[i] = base[i] - len * Fbase[i];
    if (ns_vi_project(X, n, w, xt) || ns_cp_eval(f, xt, Ft)) return INFINITY;
    return ns_vi_natural_residual(X, n, xt, Ft, w);
}

static const char *name_of(ns_vi_method m)
{
    return m == NS_VI_FPP ? "fpp" : m == NS_VI_EG ? "eg" : "hp";
}

ns_status ns_vi_projection_method(const ns_cp_map *f, const ns_vi_set *X, ns_vi_method m,
                                  double *x, double *F, const ns_options *o, ns_result *res)
{
    ns_int n = f->n;
    const char *nm = name_of(m);
    res->error = INFINITY;
    if (n == 0) { res->error = 0.0; return NS_CONVERGED; }
    size_t sz = (size_t)n;
    double *xb = ns_malloc(sz, sizeof(double)), *Fb = ns_malloc(sz, sizeof(double)),
           *y = ns_malloc(sz, sizeof(double)), *w = ns_malloc(sz, sizeof(double)),
           *best = ns_malloc(sz, sizeof(double)), *bestF = ns_malloc(sz, sizeof(double)),
           *xp = ns_malloc(sz, sizeof(double)), *Fp = ns_malloc(sz, sizeof(double));
    ns_status st = NS_MAX_ITER;
    if (!xb || !Fb || !y || !w || !best || !bestF || !xp || !Fp) {
        st = ns_fail(res->message, NS_NO_MEMORY, "%s: out of memory", nm);
        goto done;
    }
    /* start in X */
    if (ns_vi_project(X, n, x, y)) { st = ns_fail(res->message, NS_FAILED, "%s: projection failed", nm); goto done; }
    memcpy(x, y, sz * sizeof(double));
    if (ns_cp_eval(f, x, F)) { st = ns_fail(res->message, NS_FAILED, "%s: F cannot be evaluated at the start", nm); goto done; }
    double rho = 1.0, ebest = INFINITY, t0 = ns_now();
    double ehist[SPEC_MEMORY], e_next = NAN;
    int nh = 0, have_prev = 0;
    int ds_wait = 0, ds_patience = 1;   /* eg: iterations before the next double step */
    int k;
    for (k = 0; k < o->max_iter; k++) {
        double e = isnan(e_next) ? ns_vi_natural_residual(X, n, x, F, w) : e_next;
        e_next = NAN;
        ehist[nh++ % SPEC_MEMORY] = e;
        if (e < ebest) {
            ebest = e;
            memcpy(best, x, sz * sizeof(double));
            memcpy(bestF, F, sz * sizeof(double));
        }
        if (o->record_history && res->history && k < res->history_len) res->history[k] = e;
        ns_log(o, 2, "%s: iteration %d, residual %.3e, rho %.3e", nm, k, e, rho);
        if (e <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(e)) { st = ns_fail(res->message, NS_FAILED, "%s: projection failed", nm); break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
        if (m == NS_VI_HP) {
            /* y = P(x − F), r = x − y */
            for (ns_int i = 0; i < n; i++) w[i] = x[i] - F[i];
            if (ns_vi_project(X, n, w, y)) { st = ns_fail(res->message, NS_FAILED, "%s: projection failed", nm); break; }
            double r2 = 0.0;
            for (ns_int i = 0; i < n; i++) { double r = x[i] - y[i]; r2 += r * r; }
            double t = 1.0;
            int ok = 0;
            for (int ls = 0; ls < 60; ls++, t *= 0.5) {
                for (ns_int i = 0; i < n; i++) xb[i] = x[i] - t * (x[i] - y[i]);
                if (ns_cp_eval(f, xb, Fb)) continue;
                double s = 0.0;
                for (ns_int i = 0; i < n; i++) s += Fb[i] * (x[i] - y[i]);
                if (s >= 0.3 * r2) { ok = 1; break; }
            }
            if (!ok) { st = ns_fail(res->message, NS_FAILED, "%s: line search failed at iteration %d", nm, k); break; }
            /* x⁺ = P_{X ∩ H}(x), H = {u : ⟨F(z), u − z⟩ ≤ 0}: by duality on
             * the half-space alone, x⁺ = P_X(x − λF(z)) with λ ≥ 0 the root of
             * φ(λ) = ⟨F(z), P_X(x − λF(z)) − z⟩ (non-increasing), bracketed
             * by doubling from the plain hyperplane step, then Illinois */
            double num = 0.0, den = 0.0;
            for (ns_int i = 0; i < n; i++) { num += Fb[i] * (x[i] - xb[i]); den += Fb[i] * Fb[i]; }
            double lo = 0.0, hi = den > 0 ? num / den : 0.0, flo = num, fhi = 0.0;
            int fail = 0, side = 0;
            for (int b = 0; b < 60; b++) {
                for (ns_int i = 0; i < n; i++) w[i] = x[i] - hi * Fb[i];
                if (ns_vi_project(X, n, w, y)) { fail = 1; break; }
                fhi = 0.0;
                for (ns_int i = 0; i < n; i++) fhi += Fb[i] * (y[i] - xb[i]);
                if (fhi <= 0.0) break;
                lo = hi; flo = fhi;
                hi *= 2.0;
            }
            for (int it = 0; !fail && fhi < 0.0 && it < 100; it++) {
                double lam = hi - fhi * (hi - lo) / (fhi - flo);
                if (!(lam > lo && lam < hi)) lam = 0.5 * (lo + hi);
                for (ns_int i = 0; i < n; i++) w[i] = x[i] - lam * Fb[i];
                if (ns_vi_project(X, n, w, y)) { fail = 1; break; }
                double fl = 0.0;
                for (ns_int i = 0; i < n; i++) fl += Fb[i] * (y[i] - xb[i]);
                if (fl > 0.0) { lo = lam; flo = fl; if (side == -1) fhi *= 0.5; side = -1; }
                else { hi = lam; fhi = fl; if (side == 1) flo *= 0.5; side = 1; }
                /* λ to 1e-6: the step is relaxed anyway (the 1e-15 this
                 * search had cost 10–20 projections an iteration) */
                if (fabs(fl) <= 1e-6 * (fabs(num) + 1e-300)) { hi = lam; break; }
                if (hi - lo <= 1e-6 * hi) break;
            }
            /* p = P_X(x − λF(z)) at the feasible end of the bracket (≈
             * P_{X∩H}(x)), then the relaxed step x⁺ = P_X(x + γ(p − x)):
             * for any solution x* (in X ∩ H), ‖x⁺ − x*‖² ≤ ‖x − x*‖² −
             * γ(2 − γ)‖p − x‖², and γ = 1.9 takes half the iterations of
             * γ = 1 on the VI families of benchmarks/ncp */
            for (ns_int i = 0; i < n; i++) w[i] = x[i] - hi * Fb[i];
            if (!fail && ns_vi_project(X, n, w, y)) fail = 1;
            for (ns_int i = 0; i < n; i++) w[i] = x[i] + HP_GAMMA * (y[i] - x[i]);
            if (fail || ns_vi_project(X, n, w, x) || ns_cp_eval(f, x, F)) {
                st = ns_fail(res->message, NS_FAILED, "%s: F or the projection failed at iteration %d", nm, k);
                break;
            }
            continue;
        }
        if (m == NS_VI_FPP && have_prev) {
            /* fpp's spectral trial: ρ = ⟨s, s⟩/⟨s, y⟩ from the last move
             * (s = x − x₋, y = F(x) − F(x₋)), kept when the natural
             * residual stays below the largest of the last SPEC_MEMORY */
            double ss = 0.0, sy = 0.0;
            for (ns_int i = 0; i < n; i++) {
                double si = x[i] - xp[i], yi = F[i] - Fp[i];
                ss += si * si;
                sy += si * yi;
            }
            const double rs = sy > 0.0 ? ss / sy : 0.0;
            if (rs > 0.0 && isfinite(rs)) {
                const double es = trial_step(f, X, x, F, rs, xb, Fb, w);
                double ref = e;
                for (int h = 0; h < (nh < SPEC_MEMORY ? nh : SPEC_MEMORY); h++)
                    if (ehist[h] > ref) ref = ehist[h];
                if (es <= (1.0 - 1e-4) * ref) {
                    memcpy(xp, x, sz * sizeof(double));
                    memcpy(Fp, F, sz * sizeof(double));
                    memcpy(x, xb, sz * sizeof(double));
                    memcpy(F, Fb, sz * sizeof(double));
                    e_next = es;
                    continue;
                }
            }
        }
        /* trial x̄ = P(x − ρF(x)) with the self-adaptive rule */
        int ok = 0;
        double ratio = 0.0;
        for (int ls = 0; ls < 60; ls++) {
            for (ns_int i = 0; i < n; i++) w[i] = x[i] - rho * F[i];
            if (!ns_vi_project(X, n, w, xb) && !ns_cp_eval(f, xb, Fb)) {
                double dx = dist(n, xb, x), dF = dist(n, Fb, F);
                ratio = dx > 0 ? rho * dF / dx : 0.0;
                if (ratio <= 0.9) { ok = 1; break; }
            }
            rho *= 0.5;
        }
        if (!ok) { st = ns_fail(res->message, NS_FAILED, "%s: step search failed at iteration %d", nm, k); break; }
        if (m == NS_VI_FPP) {
            memcpy(xp, x, sz * sizeof(double));
            memcpy(Fp, F, sz * sizeof(double));
            have_prev = 1;
            memcpy(x, xb, sz * sizeof(double));
            memcpy(F, Fb, sz * sizeof(double));
        } else {
            /* first the second projected step from the predictor,
             * x̂ = P(x̄ − ρF(x̄)), kept when it lowers the natural residual
             * below (1 − 1e-4) e: on a strongly monotone F it contracts
             * like two gradient steps (a third to a quarter of the
             * corrector's iterations on the VI families of
             * benchmarks/ncp). A refused one costs an evaluation of F and
             * is not tried again for `patience` iterations, doubled at each
             * refusal, so that on a merely monotone F (where that step can
             * spiral away) the iteration becomes the corrector's alone */
            if (ds_wait > 0) {
                ds_wait--;
            } else {
                const double es = trial_step(f, X, xb, Fb, rho, xp, Fp, w);
                if (es <= (1.0 - 1e-4) * e) {
                    memcpy(x, xp, sz * sizeof(double));
                    memcpy(F, Fp, sz * sizeof(double));
                    e_next = es;
                    if (ratio < 0.5) rho *= 1.5;
                    continue;
                }
                ds_wait = ds_patience;
                ds_patience *= 2;
            }
            /* the corrector's length (He–Liao): along d = (x − x̄) −
             * ρ(F(x) − F(x̄)) the distance to the solutions falls by at
             * least γ(2 − γ)α*⟨x − x̄, d⟩ with α* = ⟨x − x̄, d⟩/‖d‖²;
             * Korpelevich's step is α* = 1, γ = 1 */
            double num = 0.0, den = 0.0, step = rho;
            for (ns_int i = 0; i < n; i++) {
                double dd = (x[i] - xb[i]) - rho * (F[i] - Fb[i]);
                num += (x[i] - xb[i]) * dd;
                den += dd * dd;
            }
            if (den > 0.0 && num > 0.0 && isfinite(num / den)) step = EG_GAMMA * (num / den) * rho;
            for (ns_int i = 0; i < n; i++) w[i] = x[i] - step * Fb[i];
            if (ns_vi_project(X, n, w, x) || ns_cp_eval(f, x, F)) {
                st = ns_fail(res->message, NS_FAILED, "%s: F or the projection failed at iteration %d", nm, k);
                break;
            }
        }
        if (ratio < 0.5) rho *= 1.5;
    }
    res->iterations += k;
    double e = ns_vi_natural_residual(X, n, x, F, w);
    if (!(e <= ebest) && isfinite(ebest)) {
        memcpy(x, best, sz * sizeof(double));
        memcpy(F, bestF, sz * sizeof(double));
        e = ebest;
    }
    res->error = e;
    if (st == NS_MAX_ITER && !res->message[0])
        ns_fail(res->message, st, "%s: %d iterations, residual %.3e", nm, k, e);
done:
    free(xb); free(Fb); free(y); free(w); free(best); free(bestF); free(xp); free(Fp);
    return st;
}
