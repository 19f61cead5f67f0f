/* soclcp_newton.c — semismooth Newton on the Fischer–Burmeister function of
 * the second-order cone for the SOCLCP  K ∋ r ⊥ v = W r + q ∈ K*.
 *
 * Each cone K_μ = {‖r_T‖ ≤ μ r_0} (μ > 0) is mapped to the Lorentz cone
 * L = {‖x_T‖ ≤ x_0} by x = D_r r, D_r = diag(μ, 1, …, 1), and its dual
 * K_μ* = {μ‖v_T‖ ≤ v_0} by y = D_v v, D_v = diag(1/μ, 1, …, 1), with
 * xᵀy = rᵀv: the cone's complementarity is L ∋ x ⊥ y ∈ L, i.e.
 *   φ(x, y) = x + y − (x∘x + y∘y)^{1/2} = 0
 * in the Jordan algebra of L (x∘y = (xᵀy, x_0 y_T + y_0 x_T); the square
 * root by the spectral decomposition w = λ_1 u_1 + λ_2 u_2, λ = w_0 ∓ ‖w_T‖,
 * Fukushima–Luo–Tseng). Where z = (x∘x + y∘y)^{1/2} is in the interior,
 * φ is differentiable with ∂φ/∂x = I − L_z⁻¹L_x, ∂φ/∂y = I − L_z⁻¹L_y
 * (L_a the arrow matrix [a_0, a_Tᵀ; a_T, a_0 I]); on the boundary the
 * eigenvalues of w are floored at 1e-30·(1 + ‖w‖) before the square root,
 * an element near the B-subdifferential. Cones with μ = 0 (the ray
 * {r_T = 0, r_0 ≥ 0}, dual {v_0 ≥ 0}) use the scalar FB function on
 * (r_0, v_0) and Φ_T = r_T. One-dimensional cones are the scalar case.
 *
 * Newton: H = blockdiag(A_x D_r) + blockdiag(A_y D_v) W, H d = −Φ by LAPACK
 * (n ≤ 100) or UMFPACK; Armijo on ½‖Φ‖² (σ = 1e-4, nonmonotone over 5),
 * the gradient −HᵀΦ when d does not descend. Cold starts begin with 10
 * nsgs sweeps. Stops on the kind's error (ns_soclcp_error) ≤ tol. */
#include "solve/solvers.h"
#include "soclcp/soclcp_internal.h"
#include "nonsmooth/ns_residual.h"
#include "nonsmooth/ns_factor.h"
#include "core/ns_internal.h"
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SQRT1_2 0.70710678118654752440

/* Φ of one cone (size d) and, when Ax/Ay given, the d×d blocks
 * ∂Φ/∂r = A_x D_r and ∂Φ/∂v = A_y D_v (column-major). */
void ns_soclcp_cone_phi(ns_int d, double mu, const double *r, const double *v, double *phi,
                        double *Ar, double *Av)
{
    if (d == 1 || mu == 0.0) {
        double a = r[0], b = v[0], h = hypot(a, b);
        phi[0] = a + b - h;
        if (Ar) {
            memset(Ar, 0, (size_t)d * (size_t)d * sizeof(double));
            memset(Av, 0, (size_t)d * (size_t)d * sizeof(double));
            Ar[0] = h > 0 ? 1.0 - a / h : 1.0 - SQRT1_2;
            Av[0] = h > 0 ? 1.0 - b / h : 1.0 - SQRT1_2;
            for (ns_int k = 1; k < d; k++) Ar[k + (size_t)k * d] = 1.0;
        }
        for (ns_int k = 1; k < d; k++) phi[k] = r[k];
        return;
    }
    double x[64], y[64], w[64], z[64];
    if (d > 64) return;   /* caller checks */
    x[0] = mu * r[0];
    y[0] = v[0] / mu;
    for (ns_int k = 1; k < d; k++) { x[k] = r[k]; y[k] = v[k]; }
    /* w = x∘x + y∘y */
    double xx = 0, yy = 0;
    for (ns_int k = 0; k < d; k++) { xx += x[k] * x[k]; yy += y[k] * y[k]; }
    w[0] = xx + yy;
    double nt = 0;
    for (ns_int k = 1; k < d; k++) { w[k] = 2 * (x[0] * x[k] + y[0] * y[k]); nt += w[k] * w[k]; }
    nt = sqrt(nt);
    double floor = 1e-30 * (1.0 + w[0]);
    double l1 = w[0] - nt, l2 = w[0] + nt;
    if (l1 < floor) l1 = floor;
    if (l2 < floor) l2 = floor;
    double s1 = sqrt(l1), s2 = sqrt(l2);
    z[0] = 0.5 * (s1 + s2);
    for (ns_int k = 1; k < d; k++) z[k] = nt > 0 ? 0.5 * (s2 - s1) * w[k] / nt : 0.0;
    for (ns_int k = 0; k < d; k++) phi[k] = x[k] + y[k] - z[k];
    if (!Ar) return;
    /* A_x = I − L_z⁻¹ L_x, A_y = I − L_z⁻¹ L_y: solve L_z [A B] = [L_x L_y] */
    size_t dd = (size_t)d * (size_t)d;
    double Lz[64 * 64], R[2 * 64 * 64];
    lapack_int piv[64];
    memset(Lz, 0, dd * sizeof(double));
    memset(R, 0, 2 * dd * sizeof(double));
    for (ns_int k = 0; k < d; k++) {
        Lz[k + (size_t)k * d] = z[0];
        R[k + (size_t)k * d] = x[0];
        R[dd + k + (size_t)k * d] = y[0];
    }
    for (ns_int k = 1; k < d; k++) {
        Lz[0 + (size_t)k * d] = z[k];
        Lz[k] = z[k];
        R[0 + (size_t)k * d] = x[k];
        R[k] = x[k];
        R[dd + 0 + (size_t)k * d] = y[k];
        R[dd + k] = y[k];
    }
    if (LAPACKE_dgesv(LAPACK_COL_MAJOR, d, 2 * d, Lz, d, piv, R, d) != 0) {
        /* z singular in spite of the floor: the element of x = y = 0 */
        memset(R, 0, 2 * dd * sizeof(double));
        for (ns_int k = 0; k < d; k++) R[k + (size_t)k * d] = R[dd + k + (size_t)k * d] = SQRT1_2;
    }
    for (ns_int j = 0; j < d; j++) {
        double cr = j == 0 ? mu : 1.0, cv = j == 0 ? 1.0 / mu : 1.0;
        for (ns_int i = 0; i < d; i++) {
            double ax = (i == j ? 1.0 : 0.0) - R[i + (size_t)j * d];
            double ay = (i == j ? 1.0 : 0.0) - R[dd + i + (size_t)j * d];
            Ar[i + (size_t)j * d] = ax * cr;
            Av[i + (size_t)j * d] = ay * cv;
        }
    }
}

/* Φ(r) with v = W r + q into phi (and v); returns ½‖Φ‖². With blocks,
 * fills the per-cone Ar, Av (offsets cone_off). */
static double eval(const ns_soclcp *p, const double *r, double *v, double *phi,
                   double *Ar, double *Av, const size_t *off)
{
    memcpy(v, p->q, (size_t)p->n * sizeof(double));
    ns_matrix_gemv(1.0, p->W, r, 1.0, v);
    double s = 0;
    for (ns_int c = 0; c < p->nc; c++) {
        ns_int a = p->cone_start[c], d = p->cone_start[c + 1] - a;
        ns_soclcp_cone_phi(d, p->mu[c], r + a, v + a, phi + a, Ar ? Ar + off[c] : NULL, Av ? Av + off[c] : NULL);
    }
    for (ns_int i = 0; i < p->n; i++) s += phi[i] * phi[i];
    return 0.5 * s;
}

ns_status ns_soclcp_newton_fb(const ns_soclcp *p, double *r, double *v,
                              const ns_options *o, ns_result *res)
{
    ns_int n = p->n, nc = p->nc;
    res->error = INFINITY;
    if (n == 0) { res->error = 0.0; return NS_CONVERGED; }
    for (ns_int c = 0; c < nc; c++)
        if (p->cone_start[c + 1] - p->cone_start[c] > 64)
            return ns_fail(res->message, NS_UNSUPPORTED, "newton-fb: cone %d has more than 64 components", c);
    size_t *off = ns_malloc((size_t)nc + 1, sizeof(size_t));
    if (!off) return ns_fail(res->message, NS_NO_MEMORY, "newton-fb: out of memory");
    off[0] = 0;
    for (ns_int c = 0; c < nc; c++) {
        size_t d = (size_t)(p->cone_start[c + 1] - p->cone_start[c]);
        off[c + 1] = off[c] + d * d;
    }
    size_t sz = (size_t)n;
    int dense = n <= 100;
    double *Ar = ns_malloc(off[nc] > 0 ? off[nc] : 1, sizeof(double)),
           *Av = ns_malloc(off[nc] > 0 ? off[nc] : 1, sizeof(double)),
           *phi = ns_malloc(sz, sizeof(double)), *d = ns_malloc(sz, sizeof(double)),
           *g = ns_malloc(sz, sizeof(double)), *rt = ns_malloc(sz, sizeof(double)),
           *vt = ns_malloc(sz, sizeof(double)), *pt = ns_malloc(sz, sizeof(double)),
           *tmp = ns_malloc(sz, sizeof(double)), *best = ns_malloc(sz, sizeof(double));
    double *H = dense ? ns_malloc(sz * sz, sizeof(double)) : NULL;
    double *Wd = NULL;
    lapack_int *piv = ns_malloc(sz, sizeof(lapack_int));
    ns_matrix *Ws = NULL;
    ns_status st = NS_MAX_ITER;
    if (!Ar || !Av || !phi || !d || !g || !rt || !vt || !pt || !tmp || !best || !piv || (dense && !H)) {
        st = ns_fail(res->message, NS_NO_MEMORY, "newton-fb: out of memory");
        goto done;
    }
    if (dense) {
        ns_matrix *D = ns_matrix_to_dense(p->W);
        if (!D) { st = ns_fail(res->message, NS_NO_MEMORY, "newton-fb: out of memory"); goto done; }
        Wd = D->dense;
        D->dense = NULL;
        ns_matrix_free(D);
    } else if (!(Ws = ns_matrix_to_sparse(p->W))) {
        st = ns_fail(res->message, NS_NO_MEMORY, "newton-fb: out of memory");
        goto done;
    }
    /* cold start: a few block Gauss–Seidel sweeps */
    int cold = 1;
    for (ns_int i = 0; i < n; i++) if (r[i] != 0.0) { cold = 0; break; }
    if (cold) {
        ns_options so = *o;
        so.max_iter = 10;
        ns_result r2;
        ns_result_init(&r2);
        ns_status s2 = ns_soclcp_nsgs(p, r, v, &so, &r2);
        if (s2 == NS_CONVERGED || s2 == NS_INTERRUPTED) {
            res->iterations += r2.iterations;
            res->error = r2.error;
            st = s2;
            goto done;
        }
        res->iterations += r2.iterations;
    }
    enum { MEM = 5 };
    double hist[MEM], ebest = INFINITY, t0 = ns_now();
    int nh = 0, k;
    double psi = eval(p, r, v, phi, Ar, Av, off);
    for (k = 0; k < o->max_iter; k++) {
        double e = ns_soclcp_error(p, r, tmp);
        if (e < ebest) { ebest = e; memcpy(best, r, sz * sizeof(double)); }
        ns_log(o, 2, "newton-fb: iteration %d, error %.3e, merit %.3e", k, e, psi);
        if (e <= o->tol) { st = NS_CONVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
        hist[nh % MEM] = psi;
        nh++;
        double ref = psi;
        for (int h = 0; h < (nh < MEM ? nh : MEM); h++) if (hist[h] > ref) ref = hist[h];
        /* g = HᵀΦ = blockdiag(Ar)ᵀΦ + Wᵀ blockdiag(Av)ᵀΦ */
        for (ns_int c = 0; c < nc; c++) {
            ns_int a = p->cone_start[c], dc = p->cone_start[c + 1] - a;
            for (ns_int j = 0; j < dc; j++) {
                double sr = 0, sv = 0;
                for (ns_int i = 0; i < dc; i++) {
                    sr += Ar[off[c] + i + (size_t)j * dc] * phi[a + i];
                    sv += Av[off[c] + i + (size_t)j * dc] * phi[a + i];
                }
                g[a + j] = sr;
                tmp[a + j] = sv;
            }
        }
        ns_matrix_gemv_t(1.0, p->W, tmp, 1.0, g);
        int bad = 1;
        for (ns_int i = 0; i < n; i++) d[i] = -phi[i];
        if (dense) {
            /* H = blockdiag(Ar) + blockdiag(Av) W, by row blocks */
            memset(H, 0, sz * sz * sizeof(double));
            for (ns_int c = 0; c < nc; c++) {
                ns_int a = p->cone_start[c], dc = p->cone_start[c + 1] - a;
                for (ns_int j = 0; j < n; j++)
                    for (ns_int i = 0; i < dc; i++) {
                        double s = 0;
                        for (ns_int t = 0; t < dc; t++)
                            s += Av[off[c] + i + (size_t)t * dc] * Wd[(a + t) + (size_t)j * sz];
                        H[(a + i) + (size_t)j * sz] = s;
                    }
                for (ns_int j = 0; j < dc; j++)
                    for (ns_int i = 0; i < dc; i++)
                        H[(a + i) + (size_t)(a + j) * sz] += Ar[off[c] + i + (size_t)j * dc];
            }
            bad = LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, H, n, piv, d, n) != 0;
        } else {
            /* the same in CSC: each column of W, block by block */
            ns_int *cone_of = (ns_int *)piv;
            for (ns_int c = 0; c < nc; c++)
                for (ns_int i = p->cone_start[c]; i < p->cone_start[c + 1]; i++) cone_of[i] = c;
            size_t cap = (size_t)Ws->csc.nnz * 4 + off[nc] + sz;
            ns_matrix *Hs = ns_matrix_sparse_new(n, n, (ns_int)cap);
            unsigned char *mark = ns_calloc((size_t)nc, 1);
            ns_int *list = ns_malloc((size_t)nc + 1, sizeof(ns_int));
            double *col = ns_calloc(sz, sizeof(double));
            if (!Hs || !mark || !list || !col) {
                ns_matrix_free(Hs); free(mark); free(list); free(col);
                st = ns_fail(res->message, NS_NO_MEMORY, "newton-fb: out of memory");
                break;
            }
            ns_int kk = 0;
            int over = 0;
            for (ns_int j = 0; j < n && !over; j++) {
                Hs->csc.p[j] = kk;
                ns_int nl = 0;
                for (ns_int t = Ws->csc.p[j]; t < Ws->csc.p[j + 1]; t++) {
                    ns_int i = Ws->csc.i[t], c = cone_of[i];
                    col[i] += Ws->csc.x[t];
                    if (!mark[c]) { mark[c] = 1; list[nl++] = c; }
                }
                ns_int cj = cone_of[j];
                if (!mark[cj]) { mark[cj] = 1; list[nl++] = cj; }
                for (ns_int l = 0; l < nl; l++) {
                    ns_int c = list[l], a = p->cone_start[c], dc = p->cone_start[c + 1] - a;
                    if ((size_t)kk + (size_t)dc > cap) { over = 1; break; }
                    for (ns_int i = 0; i < dc; i++) {
                        double s = 0;
                        for (ns_int t = 0; t < dc; t++) s += Av[off[c] + i + (size_t)t * dc] * col[a + t];
                        if (c == cj) s += Ar[off[c] + i + (size_t)(j - a) * dc];
                        Hs->csc.i[kk] = a + i;
                        Hs->csc.x[kk++] = s;
                    }
                    for (ns_int t = 0; t < dc; t++) col[a + t] = 0.0;
                    mark[c] = 0;
                }
            }
            Hs->csc.p[n] = kk;
            Hs->csc.nnz = kk;
            free(mark); free(list); free(col);
            ns_factor *Fa = NULL;
            if (!over && ns_factor_new(Hs, NS_FACTOR_SPARSE_LU, &Fa, NULL) == NS_OK)
                bad = ns_factor_solve(Fa, d, 1, n) != NS_OK;
            ns_factor_free(Fa);
            ns_matrix_free(Hs);
        }
        double gd = 0, nd = 0;
        if (!bad && ns_all_finite(d, sz)) {
            for (ns_int i = 0; i < n; i++) { gd += g[i] * d[i]; nd += d[i] * d[i]; }
            if (gd > -1e-8 * pow(sqrt(nd), 2.1)) bad = 1;
        } else bad = 1;
        if (bad) {
            gd = 0;
            for (ns_int i = 0; i < n; i++) { d[i] = -g[i]; gd -= g[i] * g[i]; }
        }
        if (gd == 0.0) { st = ns_fail(res->message, NS_FAILED, "newton-fb: stationary point of the merit, error %.3e", e); break; }
        double t = 1.0;
        int ok = 0;
        for (int ls = 0; ls < 60; ls++, t *= 0.5) {
            for (ns_int i = 0; i < n; i++) rt[i] = r[i] + t * d[i];
            double pst = eval(p, rt, vt, pt, NULL, NULL, off);
            if (pst <= ref + 1e-4 * t * gd) { ok = 1; break; }
        }
        if (!ok) { st = ns_fail(res->message, NS_FAILED, "newton-fb: line search failed at iteration %d, error %.3e", k, e); break; }
        memcpy(r, rt, sz * sizeof(double));
        psi = eval(p, r, v, phi, Ar, Av, off);
    }
    res->iterations += k;
    {
        double e = ns_soclcp_error(p, r, v);
        if (!(e <= ebest) && isfinite(ebest)) {
            memcpy(r, best, sz * sizeof(double));
            e = ns_soclcp_error(p, r, v);
        }
        res->error = e;
    }
    if (st == NS_MAX_ITER && !res->message[0]) ns_fail(res->message, st, "newton-fb: %d iterations, error %.3e", k, res->error);
done:
    free(off); free(Ar); free(Av); free(phi); free(d); free(g); free(rt); free(vt); free(pt);
    free(tmp); free(best); free(H); free(Wd); free(piv);
    ns_matrix_free(Ws);
    return st;
}
