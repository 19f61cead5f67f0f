/* lcp_newton_sparse.c — newton-fb for an LCP whose M is stored SPARSE
 * (CSC): the algorithm of lcp_newton_fb.c (Fischer–Burmeister Φ, reduced
 * Newton system on the rows with D_b,i ≠ 0, Armijo search on ½‖Φ‖², PGS
 * starting sweeps on a cold start, exact active-set tries once the set
 * settles, final active-set polish) with every product and factorization
 * sparse: H_JJ = D_a,J + D_b,J M_JJ and M_AA are assembled in CSC and
 * factored by UMFPACK (ns_factor, SPARSE_LU), so an iteration costs about
 * nnz(L+U) instead of a dense LU of the reduced rows. Safeguard: the
 * gradient step (the dense kernel's Levenberg–Marquardt step would need the
 * dense HᵀH). Returns -1 (not applicable) when M is not SPARSE. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sub-matrix S = diag(da) + diag(db) M restricted to rows/cols of idx
 * (pos[i] = position in idx or −1); da, db NULL: S = M_II. CSC, diagonal
 * always stored. NULL on allocation failure. */
static ns_matrix *sub_csc(const ns_csc *C, const ns_int *idx, ns_int ni,
                          const ns_int *pos, const double *da, const double *db)
{
    ns_int nnz = 0;
    for (ns_int b = 0; b < ni; b++) nnz += C->p[idx[b] + 1] - C->p[idx[b]] + 1;
    ns_matrix *S = ns_matrix_sparse_new(ni, ni, nnz);
    if (!S) return NULL;
    ns_csc *T = &S->csc;
    ns_int k = 0;
    for (ns_int b = 0; b < ni; b++) {
        ns_int j = idx[b];
        T->p[b] = k;
        int diag = 0;
        for (ns_int t = C->p[j]; t < C->p[j + 1]; t++) {
            ns_int a = pos[C->i[t]];
            if (a < 0) continue;
            double v = C->x[t] * (db ? db[C->i[t]] : 1.0);
            if (a == b) { v += da ? da[j] : 0.0; diag = 1; }
            T->i[k] = a;
            T->x[k++] = v;
        }
        if (!diag) { T->i[k] = b; T->x[k++] = da ? da[j] : 0.0; }
    }
    T->p[ni] = k;
    T->nnz = k;
    return S;
}

/* Solves S x = rhs by UMFPACK; 0 on success. */
static int sparse_solve(const ns_matrix *S, double *rhs)
{
    ns_factor *F = NULL;
    char err[NS_ERRMSG_LEN];
    if (ns_factor_new(S, NS_FACTOR_SPARSE_LU, &F, err) != NS_OK) return 1;
    int bad = ns_factor_solve(F, rhs, 1, S->rows > 0 ? S->rows : 1) != NS_OK;
    ns_factor_free(F);
    return bad || !ns_all_finite(rhs, (size_t)S->rows);
}

/* Active set {z_i > w_i} solved exactly: M_AA zp_A = −q_A, one step of
 * refinement with the residual in long double. 0 on success. */
static int active_solve(const ns_lcp *p, const ns_csc *C, const double *z,
                        const double *w, double *zp, ns_int *A, ns_int *pos,
                        double *rhs)
{
    ns_int n = p->n, na = 0;
    for (ns_int i = 0; i < n; i++) {
        pos[i] = -1;
        zp[i] = 0.0;
        if (z[i] > w[i]) { pos[i] = na; A[na++] = i; }
    }
    if (na == 0) return 0;
    ns_matrix *S = sub_csc(C, A, na, pos, NULL, NULL);
    if (!S) return 1;
    ns_factor *F = NULL;
    char err[NS_ERRMSG_LEN];
    int bad = ns_factor_new(S, NS_FACTOR_SPARSE_LU, &F, err) != NS_OK;
    for (int step = 0; step < 2 && !bad; step++) {
        for (ns_int a = 0; a < na; a++) rhs[a] = 0.0;
        if (step == 0) for (ns_int a = 0; a < na; a++) rhs[a] = -p->q[A[a]];
        else {   /* r = q_A + M_AA zp_A in long double */
            long double *acc = malloc(sizeof *acc * (size_t)na);
            if (!acc) { bad = 1; break; }
            for (ns_int a = 0; a < na; a++) acc[a] = p->q[A[a]];
            for (ns_int b = 0; b < na; b++) {
                ns_int j = A[b];
                for (ns_int t = C->p[j]; t < C->p[j + 1]; t++) {
                    ns_int a = pos[C->i[t]];
                    if (a >= 0) acc[a] += (long double)C->x[t] * zp[j];
                }
            }
            for (ns_int a = 0; a < na; a++) rhs[a] = (double)-acc[a];
            free(acc);
        }
        bad = ns_factor_solve(F, rhs, 1, na) != NS_OK || !ns_all_finite(rhs, (size_t)na);
        if (!bad) for (ns_int a = 0; a < na; a++) zp[A[a]] += rhs[a];
    }
    ns_factor_free(F);
    ns_matrix_free(S);
    return bad;
}

int ns_lcp_newton_fb_sparse(const ns_lcp *p, double *z, double *w,
                            const ns_options *o, ns_result *res, ns_status *status)
{
    if (p->M->storage != NS_SPARSE) return -1;
    const ns_csc *C = &p->M->csc;
    ns_int n = p->n;
    ns_status st = NS_MAX_ITER;
    res->iterations = 0;
    double *F = ns_malloc((size_t)n + 1, sizeof(double)), *d = ns_malloc((size_t)n + 1, sizeof(double));
    double *g = ns_malloc((size_t)n + 1, sizeof(double)), *Md = ns_malloc((size_t)n + 1, sizeof(double));
    double *zt = ns_malloc((size_t)n + 1, sizeof(double)), *wt = ns_malloc((size_t)n + 1, sizeof(double));
    double *Da = ns_malloc((size_t)n + 1, sizeof(double)), *Db = ns_malloc((size_t)n + 1, sizeof(double));
    double *rhs = ns_malloc((size_t)n + 1, sizeof(double)), *z0 = ns_dup(z, (size_t)n);
    ns_int *J = ns_malloc((size_t)n + 1, sizeof(ns_int)), *pos = ns_malloc((size_t)n + 1, sizeof(ns_int));
    unsigned char *act = ns_calloc(2 * (size_t)n + 1, 1), *tried = act ? act + n : NULL;
    if (!F || !d || !g || !Md || !zt || !wt || !Da || !Db || !rhs || !z0 || !J || !pos || !act) {
        st = ns_fail(res->message, NS_NO_MEMORY, "newton-fb: out of memory");
        goto done;
    }
    res->error = ns_lcp_error(p, z, w);
    /* PGS starting sweeps on a cold start with a positive diagonal */
    int cold = 1;
    for (ns_int i = 0; i < n && cold; i++) {
        double mii = 0.0;
        for (ns_int t = C->p[i]; t < C->p[i + 1]; t++) if (C->i[t] == i) mii += C->x[t];
        cold = z[i] == 0.0 && mii > 0.0;
        Da[i] = mii;
    }
    if (cold && res->error > o->tol) {
        for (int sw = 0; sw < 10; sw++) {
            double moved = 0.0, size = 0.0;
            for (ns_int i = 0; i < n; i++) {
                double zi = z[i] - w[i] / Da[i];
                if (zi < 0.0) zi = 0.0;
                double dz = zi - z[i];
                if (dz != 0.0) {
                    for (ns_int t = C->p[i]; t < C->p[i + 1]; t++) w[C->i[t]] += dz * C->x[t];
                    z[i] = zi;
                    if (fabs(dz) > moved) moved = fabs(dz);
                }
                if (fabs(zi) > size) size = fabs(zi);
            }
            if (!(moved > 1e-12 * (1.0 + size))) break;
        }
        if (!ns_all_finite(z, (size_t)n)) memcpy(z, z0, (size_t)n * sizeof(double));
        res->error = ns_lcp_error(p, z, w);
    }
    double psi = 0.0;
    for (ns_int i = 0; i < n; i++) { F[i] = hypot(z[i], w[i]) - z[i] - w[i]; psi += F[i] * F[i]; }
    psi *= 0.5;
    int stalled = 0, lu_ok = 0;
    double t0 = ns_now();
    for (int it = 0; it < o->max_iter; it++) {
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
        for (ns_int i = 0; i < n; i++) {
            double r = hypot(z[i], w[i]);
            if (r > 1e-300 && r > 1e-14 * (fabs(z[i]) + fabs(w[i]) + 1e-280)) {
                Da[i] = z[i] / r - 1.0;
                Db[i] = w[i] / r - 1.0;
            } else { Da[i] = -1.0; Db[i] = 0.0; }
        }
        /* g = D_a Φ + Mᵀ (D_b Φ) */
        for (ns_int i = 0; i < n; i++) { d[i] = Db[i] * F[i]; g[i] = Da[i] * F[i]; }
        ns_matrix_gemv_t(1.0, p->M, d, 1.0, g);
        /* reduced Newton system on J = {D_b,i ≠ 0} */
        ns_int nj = 0;
        for (ns_int i = 0; i < n; i++) {
            if (Db[i] == 0.0 && Da[i] != 0.0) { d[i] = -F[i] / Da[i]; pos[i] = -1; }
            else { pos[i] = nj; J[nj++] = i; }
        }
        for (ns_int a = 0; a < nj; a++) rhs[a] = -F[J[a]];
        for (ns_int i = 0; i < n; i++) {   /* − D_b,J M_JI d_I */
            if (pos[i] >= 0 || d[i] == 0.0) continue;
            for (ns_int t = C->p[i]; t < C->p[i + 1]; t++) {
                ns_int a = pos[C->i[t]];
                if (a >= 0) rhs[a] -= Db[C->i[t]] * C->x[t] * d[i];
            }
        }
        int info = 1;
        if (nj > 0) {
            ns_matrix *H = sub_csc(C, J, nj, pos, Da, Db);
            if (H) {
                info = sparse_solve(H, rhs);
                ns_matrix_free(H);
            }
            if (info == 0) for (ns_int a = 0; a < nj; a++) d[J[a]] = rhs[a];
        } else info = 0;
        double gd = cblas_ddot(n, g, 1, d, 1), dn = cblas_dnrm2(n, d, 1);
        int newton = info == 0 && ns_all_finite(d, (size_t)n) && gd <= -1e-8 * pow(dn, 2.1);
        if (!newton) {
            for (ns_int i = 0; i < n; i++) d[i] = -g[i];
            gd = -cblas_ddot(n, g, 1, g, 1);
        }
        for (ns_int i = 0; i < n; i++) Md[i] = 0.0;
        ns_matrix_gemv(1.0, p->M, d, 0.0, Md);
        double t = 1.0, psit = psi;
        int accepted = 0;
        for (int ls = 0; ls < 40; ls++, t *= 0.5) {
            psit = 0.0;
            for (ns_int i = 0; i < n; i++) {
                zt[i] = z[i] + t * d[i];
                wt[i] = w[i] + t * Md[i];
                double f = hypot(zt[i], wt[i]) - zt[i] - wt[i];
                psit += f * f;
            }
            psit *= 0.5;
            if (psit <= psi + 1e-4 * t * gd) { accepted = 1; break; }
        }
        if (!accepted && (++stalled >= 3 || psit > psi)) {
            ns_fail(res->message, NS_MAX_ITER, "newton-fb: line search failed at "
                    "iteration %d (merit %.3g)", it + 1, psi);
            res->iterations = it + 1;
            break;
        }
        if (accepted) stalled = 0;
        memcpy(z, zt, (size_t)n * sizeof(double));
        res->iterations = it + 1;
        double e_prev = res->error;
        res->error = ns_lcp_error(p, z, w);
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        psi = 0.0;
        for (ns_int i = 0; i < n; i++) { F[i] = hypot(z[i], w[i]) - z[i] - w[i]; psi += F[i] * F[i]; }
        psi *= 0.5;
        ns_int changed = 0, untried = 0;
        for (ns_int i = 0; i < n; i++) {
            unsigned char a = z[i] > w[i];
            changed += a != act[i];
            untried += a != tried[i];
            act[i] = a;
        }
        if (newton && t == 1.0 && res->error > o->tol && untried > 0 &&
            (changed <= 1 || res->error <= 0.1 * e_prev)) {
            memcpy(tried, act, (size_t)n);
            if (active_solve(p, C, z, w, zt, J, pos, rhs) == 0) {
                double e2 = ns_lcp_error(p, zt, wt);
                if (e2 <= o->tol) {
                    memcpy(z, zt, (size_t)n * sizeof(double));
                    memcpy(w, wt, (size_t)n * sizeof(double));
                    res->error = e2;
                    lu_ok = 1;
                }
            }
        }
    }
    if (res->error <= o->tol) st = NS_CONVERGED;
    if (!lu_ok && st != NS_DIVERGED && active_solve(p, C, z, w, zt, J, pos, rhs) == 0) {
        double e2 = ns_lcp_error(p, zt, wt);
        if (e2 < res->error) {
            memcpy(z, zt, (size_t)n * sizeof(double));
            memcpy(w, wt, (size_t)n * sizeof(double));
            res->error = e2;
            if (e2 <= o->tol) { st = NS_CONVERGED; res->message[0] = '\0'; }
        }
    }
done:
    free(F); free(d); free(g); free(Md); free(zt); free(wt); free(Da); free(Db);
    free(rhs); free(z0); free(J); free(pos); free(act);
    *status = st;
    return 0;
}
