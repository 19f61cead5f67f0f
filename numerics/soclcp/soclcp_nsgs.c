/* soclcp_nsgs.c — block Gauss–Seidel over the cones of an SOCLCP. For
 * cone c, with the other blocks fixed, the local problem is the SOCLCP
 *   K_c ∋ r_c ⊥ W_cc r_c + b_c ∈ K_c*,  b_c = v_c − W_cc r_c,
 * solved by the local projection iteration r_c ← P_K(r_c − ρ(W_cc r_c +
 * b_c)) with ρ = 1/λ_max(W_cc) (λ_max by 30 power iterations on W_ccᵀW_cc,
 * bounded by ‖W_cc‖_F; a contraction when W_cc is symmetric positive
 * definite), at most 200 steps or a local change ≤ t (1 + ‖r_c‖), t the
 * larger of 1e-3·tol and a tenth of the last global error (the local
 * problems need be no more exact than the sweep is);
 * then v ← v + W_{:,c} Δr_c (columns of a dense or CSC W). With
 * local_solver "newton" each local problem is first solved by the
 * semismooth Newton method on the cone's Fischer–Burmeister function
 * (local_newton below), the projection iteration finishing what it leaves.
 * The global
 * error (ns_soclcp_error, which also refreshes v = W r + q) is checked
 * after every sweep. */
#include "solve/solvers.h"
#include "soclcp/soclcp_internal.h"
#include "nonsmooth/ns_residual.h"
#include "core/ns_internal.h"
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One cone by the semismooth Newton method on the cone's Fischer–Burmeister
 * function (soclcp_newton.c): Φ(r_c, W_cc r_c + b) = 0, H = A_r + A_v W_cc,
 * H δ = −Φ by LAPACK, Armijo on ½‖Φ‖². rc holds the start and gets the
 * result; returns 1 when ‖Φ‖ ≤ ltol (1 + ‖r_c‖) was reached (else the
 * caller's projection iteration takes over from rc). w: 6 d² + 5 d doubles. */
static int local_newton(ns_int d, double mu, const double *Wc, const double *b, double *rc,
                        double ltol, double *w)
{
    const size_t dd = (size_t)d * (size_t)d;
    double *Ar = w, *Av = Ar + dd, *H = Av + dd, *vl = H + dd, *phi = vl + d, *dl = phi + d,
           *rt = dl + d, *ph2 = rt + d;
    lapack_int piv[64];
    for (int it = 0; it < 50; it++) {
        for (ns_int i = 0; i < d; i++) {
            double s = b[i];
            for (ns_int j = 0; j < d; j++) s += Wc[i + (size_t)j * d] * rc[j];
            vl[i] = s;
        }
        ns_soclcp_cone_phi(d, mu, rc, vl, phi, Ar, Av);
        double th = 0.0, nr = 0.0;
        for (ns_int i = 0; i < d; i++) { th += phi[i] * phi[i]; nr += rc[i] * rc[i]; }
        if (!isfinite(th)) return 0;
        if (sqrt(th) <= ltol * (1.0 + sqrt(nr))) return 1;
        for (ns_int j = 0; j < d; j++)
            for (ns_int i = 0; i < d; i++) {
                double s = Ar[i + (size_t)j * d];
                for (ns_int k = 0; k < d; k++) s += Av[i + (size_t)k * d] * Wc[k + (size_t)j * d];
                H[i + (size_t)j * d] = s;
            }
        for (ns_int i = 0; i < d; i++) dl[i] = -phi[i];
        if (LAPACKE_dgesv_work(LAPACK_COL_MAJOR, d, 1, H, d, piv, dl, d) != 0) return 0;
        int ok = 0;
        for (double t = 1.0; t > 1e-10 && !ok; t *= 0.5) {
            for (ns_int i = 0; i < d; i++) rt[i] = rc[i] + t * dl[i];
            for (ns_int i = 0; i < d; i++) {
                double s = b[i];
                for (ns_int j = 0; j < d; j++) s += Wc[i + (size_t)j * d] * rt[j];
                vl[i] = s;
            }
            ns_soclcp_cone_phi(d, mu, rt, vl, ph2, NULL, NULL);
            double tt = 0.0;
            for (ns_int i = 0; i < d; i++) tt += ph2[i] * ph2[i];
            if (tt <= (1.0 - 2e-4 * t) * th) ok = 1;
        }
        if (!ok) return 0;
        memcpy(rc, rt, (size_t)d * sizeof(double));
    }
    return 0;
}

ns_status ns_soclcp_nsgs(const ns_soclcp *p, double *r, double *v,
                         const ns_options *o, ns_result *res)
{
    ns_int n = p->n, nc = p->nc;
    res->error = INFINITY;
    int newton = 0;
    if (o->local_solver && strcmp(o->local_solver, "newton") == 0) newton = 1;
    else if (o->local_solver && strcmp(o->local_solver, "proj") != 0)
        return ns_fail(res->message, NS_BAD_INPUT, "nsgs: local solver '%s' (proj or newton)", o->local_solver);
    if (n == 0) { res->error = 0.0; return NS_CONVERGED; }
    ns_matrix *S = p->W->storage == NS_DENSE ? NULL : ns_matrix_to_sparse(p->W);
    const ns_matrix *W = S ? S : p->W;
    ns_int dmax = 0;
    size_t diag_len = 0;
    for (ns_int c = 0; c < nc; c++) {
        ns_int d = p->cone_start[c + 1] - p->cone_start[c];
        if (d > dmax) dmax = d;
        diag_len += (size_t)d * (size_t)d;
    }
    double *Wd = ns_malloc(diag_len > 0 ? diag_len : 1, sizeof(double));
    double *rho = ns_malloc((size_t)(nc > 0 ? nc : 1), sizeof(double));
    double *b = ns_malloc((size_t)dmax, sizeof(double)), *x = ns_malloc((size_t)dmax, sizeof(double)),
           *ro = ns_malloc((size_t)dmax, sizeof(double)), *wl = ns_malloc((size_t)dmax, sizeof(double));
    double *nw = newton ? ns_malloc(6 * (size_t)dmax * (size_t)dmax + 5 * (size_t)dmax, sizeof(double)) : NULL;
    ns_status st = NS_MAX_ITER;
    if ((p->W->storage != NS_DENSE && !S) || !Wd || !rho || !b || !x || !ro || !wl || (newton && !nw)) {
        st = ns_fail(res->message, NS_NO_MEMORY, "nsgs: out of memory");
        goto done;
    }
    size_t off = 0;
    for (ns_int c = 0; c < nc; c++) {
        ns_int a = p->cone_start[c], d = p->cone_start[c + 1] - a;
        double f = 0.0;
        for (ns_int j = 0; j < d; j++)
            for (ns_int i = 0; i < d; i++) {
                double w = ns_matrix_get(W, a + i, a + j);
                Wd[off + i + (size_t)j * d] = w;
                f += w * w;
            }
        if (!(f > 0)) {
            st = ns_fail(res->message, NS_BAD_INPUT, "nsgs: W: diagonal block of cone %d is zero", c);
            goto done;
        }
        /* ‖W_cc‖₂ by power iteration on W_ccᵀW_cc from (1, …, 1) (x and b as
         * scratch); never above ‖W_cc‖_F */
        double lam = 0.0;
        for (ns_int i = 0; i < d; i++) x[i] = 1.0;
        for (int it = 0; it < 30; it++) {
            for (ns_int i = 0; i < d; i++) {
                double t = 0.0;
                for (ns_int j = 0; j < d; j++) t += Wd[off + i + (size_t)j * d] * x[j];
                b[i] = t;
            }
            double nb = 0.0;
            for (ns_int j = 0; j < d; j++) {
                double t = 0.0;
                for (ns_int i = 0; i < d; i++) t += Wd[off + i + (size_t)j * d] * b[i];
                x[j] = t;
                nb += t * t;
            }
            nb = sqrt(nb);
            if (!(nb > 0)) break;
            for (ns_int j = 0; j < d; j++) x[j] /= nb;
            lam = sqrt(nb);
        }
        if (!(lam > 0) || lam > sqrt(f)) lam = sqrt(f);
        rho[c] = 1.0 / lam;
        off += (size_t)d * (size_t)d;
    }
    double t0 = ns_now(), ltol;
    res->error = ns_soclcp_error(p, r, v);
    int k;
    for (k = 0; k < o->max_iter; k++) {
        ltol = 0.1 * res->error > 1e-3 * o->tol ? 0.1 * res->error : 1e-3 * o->tol;
        off = 0;
        for (ns_int c = 0; c < nc; c++) {
            ns_int a = p->cone_start[c], d = p->cone_start[c + 1] - a;
            const double *Wc = Wd + off;
            off += (size_t)d * (size_t)d;
            memcpy(ro, r + a, (size_t)d * sizeof(double));
            /* b = v_c − W_cc r_c */
            for (ns_int i = 0; i < d; i++) {
                double s = v[a + i];
                for (ns_int j = 0; j < d; j++) s -= Wc[i + (size_t)j * d] * r[a + j];
                b[i] = s;
            }
            double *rc = r + a;
            /* the local Newton (cones of at most 64 components), the
             * projection iteration where it does not reach ltol */
            int solved = newton && d <= 64 && local_newton(d, p->mu[c], Wc, b, rc, ltol, nw);
            for (int it = 0; it < 200 && !solved; it++) {
                double ch = 0.0, nr = 0.0;
                for (ns_int i = 0; i < d; i++) {
                    double s = b[i];
                    for (ns_int j = 0; j < d; j++) s += Wc[i + (size_t)j * d] * rc[j];
                    wl[i] = s;
                }
                for (ns_int i = 0; i < d; i++) x[i] = rc[i] - rho[c] * wl[i];
                ns_soc_project(d, p->mu[c], x, x);
                for (ns_int i = 0; i < d; i++) {
                    double e = x[i] - rc[i];
                    ch += e * e;
                    nr += x[i] * x[i];
                    rc[i] = x[i];
                }
                if (sqrt(ch) <= ltol * (1.0 + sqrt(nr))) break;
            }
            /* v += W_{:,c} (r_c − ro) */
            for (ns_int j = 0; j < d; j++) {
                double dj = rc[j] - ro[j];
                if (dj == 0.0) continue;
                ns_int col = a + j;
                if (W->storage == NS_DENSE) {
                    const double *wc = W->dense + (size_t)col * (size_t)n;
                    for (ns_int i = 0; i < n; i++) v[i] += wc[i] * dj;
                } else {
                    for (ns_int t = W->csc.p[col]; t < W->csc.p[col + 1]; t++)
                        v[W->csc.i[t]] += W->csc.x[t] * dj;
                }
            }
        }
        res->error = ns_soclcp_error(p, r, v);
        ns_log(o, 2, "nsgs: sweep %d, error %.3e", k + 1, res->error);
        if (res->error <= o->tol) { st = NS_CONVERGED; k++; break; }
        if (!isfinite(res->error)) { st = ns_fail(res->message, NS_DIVERGED, "nsgs: iterates not finite"); k++; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; k++; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; k++; break; }
    }
    res->iterations += k;
    if (st == NS_MAX_ITER) ns_fail(res->message, st, "nsgs: %d sweeps, error %.3e", k, res->error);
done:
    ns_matrix_free(S);
    free(Wd); free(rho); free(b); free(x); free(ro); free(wl); free(nw);
    return st;
}
