/* mcp_newton.c — semismooth Newton for the box-constrained complementarity
 * problem z ∈ [l, u], z = P_[l,u](z − F(z)) (MCP; NCP with l = 0, u = +∞;
 * box VI), on one of two reformulations Φ(z) = 0:
 *
 *  Fischer–Burmeister, φ(a, b) = a + b − √(a² + b² + 2μ²) (μ = 0: the FB
 *  function, zero iff a ≥ 0, b ≥ 0, ab = 0; μ > 0: its smoothing), per row
 *    l, u infinite:  Φ_i = F_i
 *    l finite only:  Φ_i = φ(z_i − l_i, F_i)
 *    u finite only:  Φ_i = φ(u_i − z_i, −F_i)
 *    both finite:    Φ_i = φ(z_i − l_i, −φ(u_i − z_i, −F_i))   (Billups)
 *  min map: Φ_i = z_i − mid(l_i, u_i, z_i − F_i).
 *
 * The merit function is always the FB one, Ψ = ½‖Φ_FB‖² (also for the
 * min map, whose own merit is not differentiable: its Newton direction is
 * tried first and kept when it is a descent direction of Ψ, the FB
 * Newton direction otherwise, as Siconos' min-FB line-search method).
 * Each row's derivative is dΦ_i = a_i dz_i + b_i dF_i, so an element of the
 * generalised Jacobian is H = D_a + D_b ∇F (at a kink of φ, where
 * a = b = 0, the limit along (1, 1): ∂φ/∂a = ∂φ/∂b = 1 − 1/√2). Newton
 * solves H d = −Φ (dense LU through LAPACKE when ∇F is dense, UMFPACK
 * through ns_factor when it is sparse). The step is accepted by a
 * nonmonotone Armijo rule on Ψ = ½‖Φ‖² (σ = 1e-4, reference the largest
 * Ψ of the last 5 iterates, Grippo–Lampariello–Lucidi); when H is
 * singular or d is not a descent direction (∇Ψᵀd > −1e-8 ‖d‖^2.1) the
 * Levenberg–Marquardt direction (HᵀH + ‖Φ‖ I) d = −∇Ψ replaces it (dense
 * ∇F), and the steepest descent −∇Ψ = −HᵀΦ if that fails too. Stops when
 * the natural residual ‖z − P(z − F)‖ ≤ tol; the iterate with the smallest
 * residual seen is returned. */
#include "mcp/mcp_internal.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_factor.h"
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KINK (1.0 - 0.70710678118654752440)

/* φ_μ(a, b) and its partial derivatives. */
static double phi(double a, double b, double mu2, double *pa, double *pb)
{
    double r = sqrt(a * a + b * b + 2.0 * mu2);
    if (r == 0.0) { *pa = *pb = KINK; return 0.0; }
    *pa = 1.0 - a / r;
    *pb = 1.0 - b / r;
    return a + b - r;
}

/* Φ and the row coefficients (da, db) at (z, F); returns ½‖Φ‖². */
static double reform_eval(ns_int n, const double *lb, const double *ub, ns_cp_reform rf,
                          double mu, const double *z, const double *F, double *Phi,
                          double *da, double *db)
{
    double s = 0.0, mu2 = mu * mu;
    for (ns_int i = 0; i < n; i++) {
        int hl = isfinite(lb[i]), hu = isfinite(ub[i]);
        double a = 0.0, b = 1.0, v;
        if (!hl && !hu) {
            v = F[i];
        } else if (rf == NS_CP_MIN) {
            double y = z[i] - F[i];
            if (hl && y < lb[i]) { v = z[i] - lb[i]; a = 1.0; b = 0.0; }
            else if (hu && y > ub[i]) { v = z[i] - ub[i]; a = 1.0; b = 0.0; }
            else v = F[i];
        } else if (hl && !hu) {
            v = phi(z[i] - lb[i], F[i], mu2, &a, &b);
        } else if (!hl) {
            double pa, pb;
            v = phi(ub[i] - z[i], -F[i], mu2, &pa, &pb);
            a = -pa;
            b = -pb;
        } else {
            double ga, gb, pa, pb;
            double g = phi(ub[i] - z[i], -F[i], mu2, &ga, &gb);
            v = phi(z[i] - lb[i], -g, mu2, &pa, &pb);
            /* dΦ = pa dz + pb (−dg), dg = −ga dz − gb dF */
            a = pa + pb * ga;
            b = pb * gb;
        }
        Phi[i] = v;
        if (da) { da[i] = a; db[i] = b; }
        s += v * v;
    }
    return 0.5 * s;
}

/* Workspace of one Newton run. */
typedef struct nt {
    ns_int n;
    double *Phi, *da, *db, *d, *g, *zt, *Ft, *Pt, *best, *bestF, *work, *tmp;
    double *Pm, *ma, *mb;   /* min map Φ and its row coefficients */
    double *H;           /* dense n×n (dense path / LM), or NULL */
    lapack_int *piv;
} nt;

static void nt_free(nt *w)
{
    free(w->Phi); free(w->da); free(w->db); free(w->d); free(w->g); free(w->zt);
    free(w->Ft); free(w->Pt); free(w->best); free(w->bestF); free(w->work);
    free(w->tmp); free(w->H); free(w->piv); free(w->Pm); free(w->ma); free(w->mb);
}

static int nt_alloc(nt *w, ns_int n)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    size_t m = (size_t)(n > 0 ? n : 1);
    double **v[] = { &w->Phi, &w->da, &w->db, &w->d, &w->g, &w->zt, &w->Ft, &w->Pt,
                     &w->best, &w->bestF, &w->tmp, &w->Pm, &w->ma, &w->mb };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        if (!(*v[k] = ns_malloc(m, sizeof(double)))) return 1;
    if (!(w->work = ns_malloc(2 * m, sizeof(double)))) return 1;
    if (!(w->piv = ns_malloc(m, sizeof(lapack_int)))) return 1;
    return 0;
}

/* Dense H = D_a + D_b J into w->H (allocated on first use). */
static int dense_H(nt *w, const ns_matrix *J, const double *da, const double *db)
{
    ns_int n = w->n;
    size_t nn = (size_t)n * (size_t)n;
    if (!w->H && !(w->H = ns_malloc(nn > 0 ? nn : 1, sizeof(double)))) return 1;
    if (J->storage == NS_DENSE) {
        for (ns_int j = 0; j < n; j++)
            for (ns_int i = 0; i < n; i++)
                w->H[i + (size_t)j * n] = db[i] * J->dense[i + (size_t)j * n];
    } else {
        ns_matrix *D = ns_matrix_to_dense(J);
        if (!D) return 1;
        for (size_t k = 0; k < nn; k++) w->H[k] = D->dense[k];
        ns_matrix_free(D);
        for (ns_int j = 0; j < n; j++)
            for (ns_int i = 0; i < n; i++) w->H[i + (size_t)j * n] *= db[i];
    }
    for (ns_int i = 0; i < n; i++) w->H[i + (size_t)i * n] += da[i];
    return 0;
}

/* Sparse H = D_a + D_b J (CSC, diagonal always stored), solved by UMFPACK:
 * d ← −H⁻¹Φ. 0 on success. */
static int sparse_solve(nt *w, const ns_matrix *J, const double *da, const double *db,
                        const double *Phi)
{
    ns_int n = w->n;
    ns_matrix *S = J->storage == NS_SPARSE ? NULL : ns_matrix_to_sparse(J);
    const ns_matrix *A = S ? S : J;
    if (!A) return 1;
    ns_matrix *H = ns_matrix_sparse_new(n, n, A->csc.nnz + n);
    if (!H) { ns_matrix_free(S); return 1; }
    ns_int k = 0;
    for (ns_int j = 0; j < n; j++) {
        H->csc.p[j] = k;
        int diag = 0;
        for (ns_int t = A->csc.p[j]; t < A->csc.p[j + 1]; t++) {
            ns_int i = A->csc.i[t];
            double v = db[i] * A->csc.x[t];
            if (i == j) {
                if (diag) { /* duplicate diagonal entry: fold into the first */
                    for (ns_int s = H->csc.p[j]; s < k; s++)
                        if (H->csc.i[s] == j) { H->csc.x[s] += v; break; }
                    continue;
                }
                v += da[j];
                diag = 1;
            }
            H->csc.i[k] = i;
            H->csc.x[k++] = v;
        }
        if (!diag) { H->csc.i[k] = j; H->csc.x[k++] = da[j]; }
    }
    H->csc.p[n] = k;
    H->csc.nnz = k;
    ns_matrix_free(S);
    ns_factor *Fa = NULL;
    ns_status st = ns_factor_new(H, NS_FACTOR_SPARSE_LU, &Fa, NULL);
    ns_matrix_free(H);
    if (st) { ns_factor_free(Fa); return 1; }
    for (ns_int i = 0; i < n; i++) w->d[i] = -Phi[i];
    st = ns_factor_solve(Fa, w->d, 1, n);
    ns_factor_free(Fa);
    return st != NS_OK || !ns_all_finite(w->d, (size_t)n);
}

/* d ← −H⁻¹Φ with the dense H. Rows with b_i = 0 are a_i e_iᵀ (the min
 * map's rows at a bound, FB rows with a = 0 < b): d_i = −Φ_i/a_i is
 * substituted and the LU is of the other rows only (at a solution of an
 * NCP typically half of them: 1/8 of the flops). */
static int dense_solve(nt *w, const double *Phi, const double *da, const double *db)
{
    ns_int n = w->n, nr = 0;
    ns_int *map = ns_malloc((size_t)n, sizeof(ns_int));
    if (!map) return 1;
    for (ns_int i = 0; i < n; i++) {
        if (db[i] == 0.0) {
            if (da[i] == 0.0) { free(map); return 1; }
            w->d[i] = -Phi[i] / da[i];
            map[i] = -1;
        } else map[i] = nr++;
    }
    double *Hc = ns_malloc((size_t)nr * (size_t)nr > 0 ? (size_t)nr * (size_t)nr : 1, sizeof(double));
    double *rhs = w->tmp;
    if (!Hc) { free(map); return 1; }
    for (ns_int i = 0; i < n; i++) if (map[i] >= 0) rhs[map[i]] = -Phi[i];
    for (ns_int j = 0; j < n; j++) {
        const double *col = w->H + (size_t)j * n;
        if (map[j] >= 0) {
            double *hc = Hc + (size_t)map[j] * nr;
            for (ns_int i = 0; i < n; i++) if (map[i] >= 0) hc[map[i]] = col[i];
        } else {
            double dj = w->d[j];
            for (ns_int i = 0; i < n; i++) if (map[i] >= 0) rhs[map[i]] -= col[i] * dj;
        }
    }
    lapack_int info = nr > 0 ? LAPACKE_dgesv(LAPACK_COL_MAJOR, nr, 1, Hc, nr, w->piv, rhs, nr) : 0;
    if (info == 0)
        for (ns_int i = 0; i < n; i++) if (map[i] >= 0) w->d[i] = rhs[map[i]];
    free(Hc);
    free(map);
    return info != 0 || !ns_all_finite(w->d, (size_t)n);
}

/* 1 when the dense matrix J (n > 200) has at most 5% nonzeros: it is then
 * factorised as a sparse one (UMFPACK) rather than by a dense LU. */
static int mostly_zero(const ns_matrix *J)
{
    size_t nn = (size_t)J->rows * (size_t)J->cols, nz = 0, lim = nn / 20;
    for (size_t k = 0; k < nn; k++)
        if (J->dense[k] != 0.0 && ++nz > lim) return 0;
    return 1;
}

/* Levenberg–Marquardt: (HᵀH + ν I) d = −g with the dense H. */
static int lm_solve(nt *w, double nu)
{
    ns_int n = w->n;
    size_t nn = (size_t)n * (size_t)n;
    double *A = ns_calloc(nn > 0 ? nn : 1, sizeof(double));
    if (!A) return 1;
    for (ns_int j = 0; j < n; j++)
        for (ns_int i = 0; i <= j; i++) {
            double s = 0.0;
            const double *hi = w->H + (size_t)i * n, *hj = w->H + (size_t)j * n;
            for (ns_int k = 0; k < n; k++) s += hi[k] * hj[k];
            A[i + (size_t)j * n] = s + (i == j ? nu : 0.0);
        }
    for (ns_int i = 0; i < n; i++) w->d[i] = -w->g[i];
    lapack_int info = LAPACKE_dposv(LAPACK_COL_MAJOR, 'U', n, 1, A, n, w->d, n);
    free(A);
    return info != 0 || !ns_all_finite(w->d, (size_t)n);
}

static double dot(ns_int n, const double *a, const double *b)
{
    double s = 0.0;
    for (ns_int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

ns_status ns_box_newton(const ns_cp_map *f, const double *lb, const double *ub,
                        ns_cp_reform rf, double mu, double *z, double *Fz,
                        const ns_options *o, ns_result *res)
{
    ns_int n = f->n;
    double t0 = ns_now();
    res->error = INFINITY;
    if (n == 0) { res->error = 0.0; return NS_CONVERGED; }
    nt w;
    if (nt_alloc(&w, n)) { nt_free(&w); return ns_fail(res->message, NS_NO_MEMORY, "newton: out of memory"); }
    /* start inside the box where a bound is finite (FB needs nothing of the
     * kind, but F may be undefined far outside) */
    for (ns_int i = 0; i < n; i++) {
        if (z[i] < lb[i]) z[i] = lb[i];
        if (z[i] > ub[i]) z[i] = ub[i];
    }
    ns_status st = NS_MAX_ITER;
    if (ns_cp_eval(f, z, Fz)) {
        nt_free(&w);
        return ns_fail(res->message, NS_FAILED, "newton: F cannot be evaluated at the start");
    }
    enum { MEM = 5 };
    double hist[MEM];
    int nh = 0;
    double psi = reform_eval(n, lb, ub, NS_CP_FB, mu, z, Fz, w.Phi, w.da, w.db);
    double ebest = INFINITY;
    int k;
    for (k = 0; k < o->max_iter; k++) {
        double e = ns_box_natural_residual(n, lb, ub, z, Fz);
        if (e < ebest) {
            ebest = e;
            memcpy(w.best, z, (size_t)n * sizeof(double));
            memcpy(w.bestF, Fz, (size_t)n * sizeof(double));
        }
        ns_log(o, 2, "newton-%s: iteration %d, residual %.3e, merit %.3e", rf == NS_CP_MIN ? "min" : "fb",
               k, e, psi);
        if (mu > 0 ? sqrt(2.0 * psi) <= (o->tol > mu ? o->tol : mu) : e <= o->tol) {
            st = NS_CONVERGED;
            break;
        }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
        hist[nh % MEM] = psi;
        nh++;
        double ref = psi;
        for (int h = 0; h < (nh < MEM ? nh : MEM); h++) if (hist[h] > ref) ref = hist[h];

        ns_matrix *Jown = NULL;
        const ns_matrix *J = ns_cp_jacobian(f, z, Fz, w.work, &Jown);
        if (!J) { st = ns_fail(res->message, NS_FAILED, "newton: the Jacobian cannot be evaluated at iteration %d", k); break; }
        /* ∇Ψ = HᵀΦ = D_aΦ + ∇Fᵀ(D_bΦ) */
        for (ns_int i = 0; i < n; i++) w.tmp[i] = w.db[i] * w.Phi[i];
        ns_matrix_gemv_t(1.0, J, w.tmp, 0.0, w.g);
        for (ns_int i = 0; i < n; i++) w.g[i] += w.da[i] * w.Phi[i];
        int dense = n <= 200 || (J->storage == NS_DENSE && !mostly_zero(J));
        int bad = 1;
        double gd = 0.0, nd = 0.0;
        if (rf == NS_CP_MIN) {
            /* the min map's Newton direction, if it descends on Ψ */
            reform_eval(n, lb, ub, NS_CP_MIN, 0.0, z, Fz, w.Pm, w.ma, w.mb);
            if (dense) { if (!dense_H(&w, J, w.ma, w.mb)) bad = dense_solve(&w, w.Pm, w.ma, w.mb); }
            else bad = sparse_solve(&w, J, w.ma, w.mb, w.Pm);
            gd = bad ? 0.0 : dot(n, w.g, w.d);
            nd = bad ? 0.0 : sqrt(dot(n, w.d, w.d));
            if (!bad && gd > -1e-8 * pow(nd, 2.1)) bad = 1;
        }
        if (bad) {
            if (dense) { if (!dense_H(&w, J, w.da, w.db)) bad = dense_solve(&w, w.Phi, w.da, w.db); }
            else bad = sparse_solve(&w, J, w.da, w.db, w.Phi);
            gd = bad ? 0.0 : dot(n, w.g, w.d);
            nd = bad ? 0.0 : sqrt(dot(n, w.d, w.d));
        }
        if (bad || gd > -1e-8 * pow(nd, 2.1)) {
            bad = 1;
            if (dense && !dense_H(&w, J, w.da, w.db)) bad = lm_solve(&w, sqrt(2.0 * psi));
            gd = bad ? 0.0 : dot(n, w.g, w.d);
            if (bad || gd >= 0.0) {
                for (ns_int i = 0; i < n; i++) w.d[i] = -w.g[i];
                gd = -dot(n, w.g, w.g);
            }
        }
        ns_matrix_free(Jown);
        if (gd == 0.0) { st = ns_fail(res->message, NS_FAILED, "newton: stationary point of the merit function, residual %.3e", e); break; }
        /* nonmonotone Armijo backtracking */
        double t = 1.0, psit = INFINITY;
        int ok = 0;
        for (int ls = 0; ls < 60; ls++) {
            for (ns_int i = 0; i < n; i++) w.zt[i] = z[i] + t * w.d[i];
            if (!ns_cp_eval(f, w.zt, w.Ft)) {
                psit = reform_eval(n, lb, ub, NS_CP_FB, mu, w.zt, w.Ft, w.Pt, NULL, NULL);
                if (psit <= ref + 1e-4 * t * gd) { ok = 1; break; }
            }
            t *= 0.5;
        }
        if (!ok) { st = ns_fail(res->message, NS_FAILED, "newton: line search failed at iteration %d, residual %.3e", k, e); break; }
        memcpy(z, w.zt, (size_t)n * sizeof(double));
        memcpy(Fz, w.Ft, (size_t)n * sizeof(double));
        psi = reform_eval(n, lb, ub, NS_CP_FB, mu, z, Fz, w.Phi, w.da, w.db);
    }
    res->iterations += k;
    double e = ns_box_natural_residual(n, lb, ub, z, Fz);
    if (e > ebest) {
        memcpy(z, w.best, (size_t)n * sizeof(double));
        memcpy(Fz, w.bestF, (size_t)n * sizeof(double));
        e = ebest;
    }
    res->error = e;
    nt_free(&w);
    if (st == NS_MAX_ITER && !res->message[0])
        ns_fail(res->message, st, "newton: %d iterations, residual %.3e", k, e);
    return st;
}
