/* fc2d_lemke.c — FC2D by Lemke's method on its LCP reformulation, revised
 * (basis-factorized) and sparse, so that no n×n tableau is ever stored;
 * up to SMALL_NC contacts the LCP is built dense and handed to the dense
 * Lemke kernel instead (see fc2d_lemke_small: faster there, and the
 * explicit-B⁻¹ branch below, DENSE_MAX, is then reached only by bases of
 * order ≤ 48 of larger problems — none, as n = 4 nc > 128).
 *
 * Reformulation (as in fc2d_lcp.c). Per contact α, z_α = (r_N, λ⁺, λ⁻, γ)
 * ≥ 0 with r_T = λ⁺ − λ⁻, u = W r + q, and
 *     w_α = ( u_N,  u_T + γ,  −u_T + γ,  μ r_N − λ⁺ − λ⁻ ) ≥ 0,  z ⊥ w.
 * The LCP matrix M (order n = 4nc) is built in CSC from W's nonzeros: W's
 * pattern times a 3×3 sign pattern, plus the 2 + 3 unit/μ entries of γ.
 *
 * Lemke on  I w − M z − d z0 = q  (covering vector d = 1). The basis B
 * (n×n: e_i for a basic w_i, −M_{:,j} for a basic z_j, −d for z0) is
 * held as an explicit B⁻¹ up to order DENSE_MAX (see there), else
 * factorized by UMFPACK (sparse LU; UMFPACK is called directly because the
 * lexicographic test needs solves with Bᵀ, which ns_factor does not offer)
 * and updated in product form between factorizations: a pivot on row r with
 * c = B⁻¹a appends the eta E⁻¹ = I − (c − e_r)e_rᵀ / c_r (c is dense on
 * the collection's problems: the z0 column couples every row, so etas are
 * stored dense then). Every K = sqrt(250 (L+U)/n) pivots (16 ≤ K ≤ 200: the
 * K at which k etas per solve cost what a factorization costs, measured on
 * the 7002-contact file) B is factorized again and the basic values
 * recomputed, x = B⁻¹ q̂, which removes the drift of the updates. q̂ = q / ‖q‖∞: the LCP is positively homogeneous in q, so the
 * ratio-test tolerances are relative to the data whatever its scale
 * (FrictionContactProblem00394 has ‖q‖ ~ 1e-15).
 *
 * Ratio test: lexicographic. Rows with c_i > 0 whose ratio x_i/c_i ties the
 * minimum (relative 1e-11) are separated by the rows (B⁻¹)_{i,:}/c_i,
 * compared lexicographically column by column (a column of a basic w is a
 * unit vector and costs nothing, any other one solve; past as many solves
 * as ties, whole rows by transposed solves, UMFPACK_At after the etas in
 * reverse). A tie with z0's row goes to z0 (the method
 * ends). The lexicographic rule keeps every basic row lexicographically
 * positive, so no basis repeats and degenerate problems end.
 *
 * Ends with z0 leaving (a complementary basis: its x is recomputed from a
 * fresh factorization with the unscaled q and returned), or a secondary ray
 * (NS_NO_SOLUTION: no c_i > 0), or the pivot / time limit. The reported error
 * is ns_fc_error of r read back from z. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "fc2d/fc2d_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <umfpack.h>
#include <lapacke.h>

enum { REFACTOR_EVERY = 200 };   /* at most this many etas */
/* Bases of order up to DENSE_MAX keep B⁻¹ explicitly (n×n, column-major)
 * instead of UMFPACK factors and etas: a pivot applies its eta to B⁻¹ in
 * place (n² flops), ftran and btran are products with it, and a
 * refactorization computes it afresh by LAPACK (dgetrf, then dgetrs on I).
 * The first basis is I, so a problem solved in fewer than refactor_every
 * pivots never factorizes. On the 2- to 11-contact files UMFPACK's symbolic
 * analysis, numeric factorization and their allocations were 60 % of a
 * solve. */
enum { DENSE_MAX = 48 };

/* ---- the sparse LCP ---- */

typedef struct slcp {
    ns_int n;
    ns_int *p, *i;      /* CSC, row indices sorted within each column */
    double *x;
    double *q;
} slcp;

static void slcp_free(slcp *L)
{
    free(L->p); free(L->i); free(L->x); free(L->q);
    memset(L, 0, sizeof *L);
}

/* Sorts the entries of one column by row (insertion sort: columns are short). */
static void sort_column(ns_int *ri, double *rx, ns_int len)
{
    for (ns_int a = 1; a < len; a++) {
        ns_int ki = ri[a];
        double kx = rx[a];
        ns_int b = a - 1;
        while (b >= 0 && ri[b] > ki) { ri[b + 1] = ri[b]; rx[b + 1] = rx[b]; b--; }
        ri[b + 1] = ki;
        rx[b + 1] = kx;
    }
}

static ns_status build_lcp(const ns_fc *P, slcp *L, char *err)
{
    const ns_int nc = P->nc, n = 4 * nc;
    ns_matrix *S = P->W->storage == NS_SPARSE ? NULL : ns_matrix_to_sparse(P->W);
    if (P->W->storage != NS_SPARSE && !S) return ns_fail(err, NS_NO_MEMORY, "fc2d lemke: out of memory");
    const ns_csc *W = S ? &S->csc : &P->W->csc;
    memset(L, 0, sizeof *L);
    L->n = n;
    L->p = ns_malloc((size_t)n + 1, sizeof(ns_int));
    L->q = ns_calloc((size_t)n + 1, sizeof(double));
    size_t nz = 0;
    if (L->p) {
        L->p[0] = 0;
        for (ns_int b = 0; b < nc; b++)
            for (int t = 0; t < 4; t++) {
                size_t cnt = 0;
                if (t < 3) {
                    ns_int j = 2 * b + (t > 0);
                    for (ns_int k = W->p[j]; k < W->p[j + 1]; k++) cnt += (W->i[k] % 2 == 0) ? 1 : 2;
                    cnt += 1;               /* the γ row of contact b */
                } else {
                    cnt = 2;
                }
                nz += cnt;
                L->p[4 * b + t + 1] = (ns_int)nz;
            }
    }
    L->i = ns_malloc(nz + 1, sizeof(ns_int));
    L->x = ns_malloc(nz + 1, sizeof(double));
    if (!L->p || !L->q || !L->i || !L->x) {
        ns_matrix_free(S);
        slcp_free(L);
        return ns_fail(err, NS_NO_MEMORY, "fc2d lemke: out of memory");
    }
    for (ns_int b = 0; b < nc; b++) {
        for (int t = 0; t < 4; t++) {
            ns_int col = 4 * b + t, k0 = L->p[col], m = k0;
            if (t < 3) {
                ns_int j = 2 * b + (t > 0);
                double sg = t == 2 ? -1.0 : 1.0;
                for (ns_int k = W->p[j]; k < W->p[j + 1]; k++) {
                    ns_int i = W->i[k], a = i / 2;
                    double v = sg * W->x[k];
                    if (i % 2 == 0) { L->i[m] = 4 * a; L->x[m++] = v; }
                    else {
                        L->i[m] = 4 * a + 1; L->x[m++] = v;
                        L->i[m] = 4 * a + 2; L->x[m++] = -v;
                    }
                }
                L->i[m] = 4 * b + 3;
                L->x[m++] = t == 0 ? P->mu[b] : -1.0;
            } else {
                L->i[m] = 4 * b + 1; L->x[m++] = 1.0;
                L->i[m] = 4 * b + 2; L->x[m++] = 1.0;
            }
            sort_column(L->i + k0, L->x + k0, m - k0);
        }
        L->q[4 * b] = P->q[2 * b];
        L->q[4 * b + 1] = P->q[2 * b + 1];
        L->q[4 * b + 2] = -P->q[2 * b + 1];
        L->q[4 * b + 3] = 0.0;
    }
    /* a W with duplicate entries in a column: sum them */
    ns_int w = 0;
    for (ns_int c = 0; c < n; c++) {
        ns_int k0 = L->p[c], k1 = L->p[c + 1];
        L->p[c] = w;
        for (ns_int k = k0; k < k1; k++) {
            if (w > L->p[c] && L->i[w - 1] == L->i[k]) L->x[w - 1] += L->x[k];
            else { L->i[w] = L->i[k]; L->x[w++] = L->x[k]; }
        }
    }
    L->p[n] = w;
    ns_matrix_free(S);
    return NS_OK;
}

/* ---- the revised Lemke ---- */

typedef struct lemke {
    ns_int n;
    const slcp *L;
    const double *d;        /* covering vector */
    ns_int *basis;          /* slot → variable: i < n w_i, n + j z_j, 2n z0 */
    ns_int *pos;            /* variable → slot, −1 if nonbasic (2n + 1) */
    ns_int *Bp, *Bi;        /* B in CSC */
    double *Bx;
    void *sym, *num;
    void *block;            /* the arrays below but the etas' */
    double *Binv;           /* explicit B⁻¹ (n ≤ DENSE_MAX), else NULL */
    double *LU;             /* its factorization work space (n²) */
    lapack_int *ipiv;
    double ctrl[UMFPACK_CONTROL], info[UMFPACK_INFO];
    ns_int *wi;
    double *wd, *rhs;
    /* etas: row er[k], pivot ec[k], entries ei/ev[es[k] .. es[k+1]) */
    ns_int neta, eta_cap;
    ns_int *er;
    double *ec;
    size_t *es;
    ns_int *ei;             /* (unused by dense etas) */
    double *ev;
    unsigned char *ed;      /* 1: eta e is stored dense, n values from es[e] */
    size_t enz, enz_cap;
    double lunz;            /* nonzeros of L + U of the current factorization */
    ns_int refactor_every;  /* etas allowed before the next factorization */
    /* statistics */
    long factorizations, btrans, ties, small_pivots;
    double t_factor, t_solve, eta_total, worst_neg;
} lemke;

static void lemke_free(lemke *S)
{
    if (S->num) umfpack_di_free_numeric(&S->num);
    if (S->sym) umfpack_di_free_symbolic(&S->sym);
    free(S->block);
    free(S->er); free(S->ec); free(S->es); free(S->ei); free(S->ev); free(S->ed);
}

/* Factorizes the current basis; drops the etas. */
static ns_status factorize(lemke *S, char *err)
{
    const ns_int n = S->n;
    const slcp *L = S->L;
    /* the statistics' clock only where it is not most of the cost (the
     * explicit B⁻¹ of a small basis, usually the identity, is not timed) */
    double t0 = S->Binv ? 0.0 : ns_now();
    ns_int nz = 0;
    for (ns_int s = 0; s < n; s++) {
        S->Bp[s] = nz;
        ns_int v = S->basis[s];
        if (v < n) { S->Bi[nz] = v; S->Bx[nz++] = 1.0; }
        else if (v < 2 * n) {
            ns_int j = v - n;
            for (ns_int k = L->p[j]; k < L->p[j + 1]; k++) { S->Bi[nz] = L->i[k]; S->Bx[nz++] = -L->x[k]; }
        } else {
            for (ns_int i = 0; i < n; i++)
                if (S->d[i] != 0.0) { S->Bi[nz] = i; S->Bx[nz++] = -S->d[i]; }
        }
    }
    S->Bp[n] = nz;
    if (S->Binv) {
        const size_t nn = (size_t)n * (size_t)n;
        int identity = 1;
        for (ns_int s = 0; s < n && identity; s++) identity = S->basis[s] == s;
        memset(S->Binv, 0, nn * sizeof(double));
        for (ns_int i = 0; i < n; i++) S->Binv[(size_t)i * (size_t)n + (size_t)i] = 1.0;
        S->neta = 0;
        if (!identity) {
            memset(S->LU, 0, nn * sizeof(double));
            for (ns_int s = 0; s < n; s++)
                for (ns_int k = S->Bp[s]; k < S->Bp[s + 1]; k++)
                    S->LU[(size_t)s * (size_t)n + (size_t)S->Bi[k]] = S->Bx[k];
            lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)n,
                                                  S->LU, (lapack_int)n, S->ipiv);
            S->factorizations++;
            if (info > 0) return ns_fail(err, NS_SINGULAR, "fc2d lemke: the basis matrix is singular");
            if (info < 0)
                return ns_fail(err, NS_BAD_INPUT, "fc2d lemke: LAPACK dgetrf failed (info %d)", (int)info);
            LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', (lapack_int)n, (lapack_int)n, S->LU,
                                (lapack_int)n, S->ipiv, S->Binv, (lapack_int)n);
        }
        /* the balance below with L + U = n² */
        S->lunz = (double)nn;
        double k = sqrt(250.0 * (double)n);
        S->refactor_every = k < 16 ? 16 : k > REFACTOR_EVERY ? REFACTOR_EVERY : (ns_int)k;
        return NS_OK;
    }
    if (S->num) umfpack_di_free_numeric(&S->num);
    if (S->sym) umfpack_di_free_symbolic(&S->sym);
    int st = umfpack_di_symbolic(n, n, S->Bp, S->Bi, S->Bx, &S->sym, S->ctrl, S->info);
    if (st == UMFPACK_OK)
        st = umfpack_di_numeric(S->Bp, S->Bi, S->Bx, S->sym, &S->num, S->ctrl, S->info);
    S->factorizations++;
    S->t_factor += ns_now() - t0;
    S->neta = 0;
    S->enz = 0;
    S->es[0] = 0;
    if (st == UMFPACK_ERROR_out_of_memory)
        return ns_fail(err, NS_NO_MEMORY, "fc2d lemke: out of memory in the basis LU");
    if (st == UMFPACK_WARNING_singular_matrix)
        return ns_fail(err, NS_SINGULAR, "fc2d lemke: the basis matrix is singular");
    if (st != UMFPACK_OK)
        return ns_fail(err, NS_BAD_INPUT, "fc2d lemke: UMFPACK failed (status %d)", st);
    int lnz, unz, nr, nc_, nzud;
    umfpack_di_get_lunz(&lnz, &unz, &nr, &nc_, &nzud, S->num);
    S->lunz = (double)lnz + (double)unz;
    /* k etas cost ~k·n per solve, a factorization ~125 (L+U) (measured on
     * the 7002-contact file): k = sqrt(2·125·(L+U)/n) balances the two */
    double k = sqrt(250.0 * S->lunz / (double)n);
    S->refactor_every = k < 16 ? 16 : k > REFACTOR_EVERY ? REFACTOR_EVERY : (ns_int)k;
    return NS_OK;
}

/* v ← B⁻¹ v (B = B0 E_1 … E_k). */
static void ftran(lemke *S, double *v)
{
    const ns_int n = S->n;
    if (S->Binv) {   /* (not timed: the statistics are the UMFPACK path's) */
        double *y = S->rhs;
        memset(y, 0, (size_t)n * sizeof(double));
        for (ns_int j = 0; j < n; j++) {
            double vj = v[j];
            if (vj == 0.0) continue;
            const double *col = S->Binv + (size_t)j * (size_t)n;
            for (ns_int i = 0; i < n; i++) y[i] += col[i] * vj;
        }
        memcpy(v, y, (size_t)n * sizeof(double));
        return;
    }
    double t0 = ns_now();
    memcpy(S->rhs, v, (size_t)n * sizeof(double));
    umfpack_di_wsolve(UMFPACK_A, S->Bp, S->Bi, S->Bx, v, S->rhs, S->num, S->ctrl, S->info,
                      S->wi, S->wd);
    for (ns_int e = 0; e < S->neta; e++) {
        ns_int r = S->er[e];
        double y = v[r] / S->ec[e];
        const double *ev = S->ev + S->es[e];
        if (y != 0.0) {
            if (S->ed[e]) for (ns_int i = 0; i < n; i++) v[i] -= ev[i] * y;
            else {
                const ns_int *ei = S->ei + S->es[e];
                size_t len = S->es[e + 1] - S->es[e];
                for (size_t k = 0; k < len; k++) v[ei[k]] -= ev[k] * y;
            }
        }
        v[r] = y;
    }
    S->t_solve += ns_now() - t0;
}

/* v ← (vᵀ B⁻¹)ᵀ: the etas transposed in reverse order, then B0ᵀ. */
static void btran(lemke *S, double *v)
{
    const ns_int n = S->n;
    if (S->Binv) {
        double *y = S->rhs;
        for (ns_int j = 0; j < n; j++) {
            const double *col = S->Binv + (size_t)j * (size_t)n;
            double s = 0.0;
            for (ns_int i = 0; i < n; i++) s += col[i] * v[i];
            y[j] = s;
        }
        memcpy(v, y, (size_t)n * sizeof(double));
        S->btrans++;
        return;
    }
    double t0 = ns_now();
    for (ns_int e = S->neta - 1; e >= 0; e--) {
        ns_int r = S->er[e];
        double s = v[r];
        const double *ev = S->ev + S->es[e];
        if (S->ed[e]) for (ns_int i = 0; i < n; i++) s -= v[i] * ev[i];
        else {
            const ns_int *ei = S->ei + S->es[e];
            size_t len = S->es[e + 1] - S->es[e];
            for (size_t k = 0; k < len; k++) s -= v[ei[k]] * ev[k];
        }
        v[r] = s / S->ec[e];
    }
    memcpy(S->rhs, v, (size_t)S->n * sizeof(double));
    umfpack_di_wsolve(UMFPACK_At, S->Bp, S->Bi, S->Bx, v, S->rhs, S->num, S->ctrl, S->info,
                      S->wi, S->wd);
    S->btrans++;
    S->t_solve += ns_now() - t0;
}

/* Appends the eta of a pivot on row r with column c: sparse (indices and
 * values) when c has fewer than n/3 nonzeros, else dense (n values, c_r
 * stored as 0), which the update loops stream through. */
static ns_status push_eta(lemke *S, ns_int r, const double *c, char *err)
{
    const ns_int n = S->n;
    if (S->Binv) {   /* B⁻¹ ← E⁻¹ B⁻¹, column by column */
        const double cr = c[r];
        for (ns_int j = 0; j < n; j++) {
            double *col = S->Binv + (size_t)j * (size_t)n;
            double t = col[r] / cr;
            if (t != 0.0)
                for (ns_int i = 0; i < n; i++) col[i] -= c[i] * t;
            col[r] = t;
        }
        S->eta_total += (double)n;
        S->neta++;
        return NS_OK;
    }
    size_t cnt = 0;
    for (ns_int i = 0; i < n; i++) cnt += (c[i] != 0.0 && i != r);
    int dense = 3 * cnt > (size_t)n;
    size_t need = dense ? (size_t)n : cnt;
    if (S->neta + 1 >= S->eta_cap) {
        ns_int cap = 2 * S->eta_cap + 16;
        ns_int *er = realloc(S->er, (size_t)cap * sizeof *er);
        if (er) S->er = er;
        double *ec = realloc(S->ec, (size_t)cap * sizeof *ec);
        if (ec) S->ec = ec;
        size_t *es = realloc(S->es, ((size_t)cap + 1) * sizeof *es);
        if (es) S->es = es;
        unsigned char *ed = realloc(S->ed, (size_t)cap);
        if (ed) S->ed = ed;
        if (!er || !ec || !es || !ed) return ns_fail(err, NS_NO_MEMORY, "fc2d lemke: out of memory");
        S->eta_cap = cap;
    }
    if (S->enz + need > S->enz_cap) {
        size_t cap = 2 * (S->enz + need) + 1024;
        ns_int *ei = realloc(S->ei, cap * sizeof *ei);
        if (ei) S->ei = ei;
        double *ev = realloc(S->ev, cap * sizeof *ev);
        if (ev) S->ev = ev;
        if (!ei || !ev) return ns_fail(err, NS_NO_MEMORY, "fc2d lemke: out of memory");
        S->enz_cap = cap;
    }
    ns_int e = S->neta;
    S->er[e] = r;
    S->ec[e] = c[r];
    S->ed[e] = (unsigned char)dense;
    size_t k = S->enz;
    if (dense) {
        memcpy(S->ev + k, c, (size_t)n * sizeof(double));
        S->ev[k + (size_t)r] = 0.0;
        k += (size_t)n;
    } else {
        for (ns_int i = 0; i < n; i++)
            if (c[i] != 0.0 && i != r) { S->ei[k] = i; S->ev[k++] = c[i]; }
    }
    S->eta_total += (double)cnt;
    S->enz = k;
    S->es[e + 1] = k;
    S->neta = e + 1;
    return NS_OK;
}

/* a ← column of variable v in [I, −M, −d]. */
static void column(const lemke *S, ns_int v, double *a)
{
    const ns_int n = S->n;
    const slcp *L = S->L;
    if (v == 2 * n) { for (ns_int i = 0; i < n; i++) a[i] = -S->d[i]; return; }
    memset(a, 0, (size_t)n * sizeof(double));
    if (v < n) { a[v] = 1.0; return; }
    for (ns_int k = L->p[v - n]; k < L->p[v - n + 1]; k++) a[L->i[k]] = -L->x[k];
}

/* x ← B⁻¹ q (fresh), negatives of rounding size set to 0. */
/* Negatives of rounding size in x set to 0 (the worst one recorded). */
static void clip_values(lemke *S, double *x)
{
    double xmax = 0.0, neg = 0.0;
    for (ns_int i = 0; i < S->n; i++) {
        if (x[i] > xmax) xmax = x[i];
        if (x[i] < neg) neg = x[i];
    }
    if (xmax > 0 && -neg / xmax > S->worst_neg) S->worst_neg = -neg / xmax;
    for (ns_int i = 0; i < S->n; i++) if (x[i] < 0.0) x[i] = 0.0;
}

static void basic_values(lemke *S, const double *q, double *x)
{
    memcpy(x, q, (size_t)S->n * sizeof(double));
    ftran(S, x);
    clip_values(S, x);
}

/* The last basic values from the updated B⁻¹ (n ≤ DENSE_MAX) and one step
 * of iterative refinement, x += B⁻¹ (q − B x), the residual formed from the
 * basis columns: what a fresh factorization would give, within the
 * rounding of B⁻¹'s updates, at O(n²). rsd: n doubles. */
static void refined_values(lemke *S, const double *q, double *x, double *rsd)
{
    const ns_int n = S->n;
    const slcp *L = S->L;
    memcpy(x, q, (size_t)n * sizeof(double));
    ftran(S, x);
    memcpy(rsd, q, (size_t)n * sizeof(double));
    for (ns_int s = 0; s < n; s++) {
        ns_int v = S->basis[s];
        double xs = x[s];
        if (xs == 0.0) continue;
        if (v < n) rsd[v] -= xs;
        else if (v < 2 * n)
            for (ns_int k = L->p[v - n]; k < L->p[v - n + 1]; k++) rsd[L->i[k]] += L->x[k] * xs;
        else
            for (ns_int i = 0; i < n; i++) rsd[i] += S->d[i] * xs;
    }
    ftran(S, rsd);
    for (ns_int i = 0; i < n; i++) x[i] += rsd[i];
    clip_values(S, x);
}

/* Lexicographic comparison of the rows a/ca and b/cb: < 0 when a/ca is
 * smaller. Differences below 1e-11 of the entries' size count as ties. */
static int lex_cmp(ns_int n, const double *a, double ca, const double *b, double cb)
{
    for (ns_int k = 0; k < n; k++) {
        double x = a[k] / ca, y = b[k] / cb;
        double tol = 1e-11 * fmax(fabs(x), fabs(y));
        if (x < y - tol) return -1;
        if (x > y + tol) return 1;
    }
    return 0;
}

/* Lexicographic minimum among the tied rows cand[0..m-1] (all with c > 0)
 * by whole rows of B⁻¹: one transposed solve per row; ws: 2n doubles. */
static ns_int lex_rows(lemke *S, const double *c, const ns_int *cand, ns_int m, double *ws)
{
    const ns_int n = S->n;
    double *best = ws, *cur = ws + n;
    ns_int r = cand[0];
    memset(best, 0, (size_t)n * sizeof(double));
    best[r] = 1.0;
    btran(S, best);
    for (ns_int t = 1; t < m; t++) {
        ns_int i = cand[t];
        memset(cur, 0, (size_t)n * sizeof(double));
        cur[i] = 1.0;
        btran(S, cur);
        int cmp = lex_cmp(n, cur, c[i], best, c[r]);
        if (cmp < 0 || (cmp == 0 && c[i] > c[r])) {
            r = i;
            double *sw = best; best = cur; cur = sw;
        }
    }
    return r;
}

/* Chooses among the tied rows cand[0..m-1] (all with c > 0) the
 * lexicographic minimum of (B⁻¹)_{i,:}/c_i, column by column. Column k of
 * B⁻¹ is the unit vector e_p when w_k is basic in slot p (B e_p = e_k): it
 * only removes row p from the ties, at no cost. Any other column costs one
 * solve; after as many solves as there are ties, the remaining rows are
 * compared whole (lex_rows: one transposed solve each, and the columns
 * before k are equal on them). Numerical ties that survive every column go
 * to the largest pivot. cand is reordered; ws: 2n doubles. */
static ns_int lex_break(lemke *S, const double *c, ns_int *cand, ns_int m, double *ws)
{
    const ns_int n = S->n;
    double *col = ws;
    ns_int solves = 0;
    S->ties++;
    for (ns_int k = 0; k < n && m > 1; k++) {
        ns_int p = S->pos[k];
        if (p >= 0) {
            for (ns_int t = 0; t < m; t++)
                if (cand[t] == p) { cand[t] = cand[--m]; break; }
            continue;
        }
        if (solves >= m) return lex_rows(S, c, cand, m, ws);
        memset(col, 0, (size_t)n * sizeof(double));
        col[k] = 1.0;
        ftran(S, col);
        S->btrans++;
        solves++;
        double vmin = INFINITY, vmax = 0.0;
        for (ns_int t = 0; t < m; t++) {
            double v = col[cand[t]] / c[cand[t]];
            if (v < vmin) vmin = v;
            if (fabs(v) > vmax) vmax = fabs(v);
        }
        ns_int m2 = 0;
        for (ns_int t = 0; t < m; t++)
            if (col[cand[t]] / c[cand[t]] <= vmin + 1e-11 * vmax) cand[m2++] = cand[t];
        m = m2;
    }
    ns_int r = cand[0];
    for (ns_int t = 1; t < m; t++) if (c[cand[t]] > c[r]) r = cand[t];
    return r;
}

static ns_status fc2d_lemke_run(const ns_fc *P, const slcp *L, double *r, double *u,
                                const ns_options *o, ns_result *res)
{
    const ns_int n = L->n, Z0 = 2 * n;
    lemke S;
    memset(&S, 0, sizeof S);
    S.n = n;
    S.L = L;
    size_t bcap = (size_t)L->p[n] + 2 * (size_t)n + 1, un = (size_t)n;
    int dense = n <= DENSE_MAX;
    if (!dense) {
        umfpack_di_defaults(S.ctrl);
        S.ctrl[UMFPACK_PRL] = 0;
        S.ctrl[UMFPACK_IRSTEP] = 0;
        /* AMD/COLAMD only: the default also tries METIS when fill is high, which
         * on the 7002-contact file picks the same order at ~15 % more LU time */
        S.ctrl[UMFPACK_ORDERING] = UMFPACK_ORDERING_AMD;
    }
    /* every fixed-size array in one block (doubles first, then the
     * integers), the etas' growing arrays apart (UMFPACK path only) */
    size_t nd = bcap + 5 * un + un + 4 * un + 2 * un + un + (dense ? 2 * un * un : 0);
    size_t ni = un + (2 * un + 1) + (un + 1) + bcap + un + un;
    size_t nl = dense ? un : 0;
    char *block = NULL;
    if (nd <= SIZE_MAX / 8 / 4 && ni <= SIZE_MAX / 8 / 4)
        block = ns_malloc(nd * sizeof(double) + ni * sizeof(ns_int) + nl * sizeof(lapack_int), 1);
    double *x = NULL, *c = NULL, *qs = NULL, *d = NULL, *ws = NULL, *z = NULL;
    ns_int *cand = NULL;
    S.block = block;
    if (block) {
        double *dp = (double *)(void *)block;
        S.Bx = dp; dp += bcap;
        S.wd = dp; dp += 5 * un;
        S.rhs = dp; dp += un;
        x = dp; dp += un;
        c = dp; dp += un;
        qs = dp; dp += un;
        d = dp; dp += un;
        ws = dp; dp += 2 * un;
        z = dp; dp += un;
        memset(z, 0, un * sizeof(double));
        if (dense) { S.Binv = dp; dp += un * un; S.LU = dp; dp += un * un; }
        ns_int *ip = (ns_int *)(void *)dp;
        S.basis = ip; ip += un;
        S.pos = ip; ip += 2 * un + 1;
        S.Bp = ip; ip += un + 1;
        S.Bi = ip; ip += bcap;
        S.wi = ip; ip += un;
        cand = ip; ip += un;
        if (dense) S.ipiv = (lapack_int *)(void *)ip;
    }
    if (block && !dense) {
        S.eta_cap = 64;
        S.er = ns_malloc((size_t)S.eta_cap, sizeof(ns_int));
        S.ec = ns_malloc((size_t)S.eta_cap, sizeof(double));
        S.es = ns_malloc((size_t)S.eta_cap + 1, sizeof(size_t));
        S.ed = ns_malloc((size_t)S.eta_cap, 1);
    }
    ns_status st = NS_MAX_ITER;
    if (!block || (!dense && (!S.er || !S.ec || !S.es || !S.ed))) {
        st = ns_fail(res->message, NS_NO_MEMORY, "fc2d lemke: out of memory");
        goto done;
    }
    double qmax = 0.0;
    ns_int qmin = 0;
    for (ns_int i = 0; i < n; i++) {
        if (fabs(L->q[i]) > qmax) qmax = fabs(L->q[i]);
        if (L->q[i] < L->q[qmin]) qmin = i;
    }
    res->iterations = 0;
    if (n == 0 || L->q[qmin] >= 0.0) { st = NS_CONVERGED; goto finish; }   /* z = 0 */
    for (ns_int i = 0; i < n; i++) qs[i] = L->q[i] / qmax;
    for (ns_int i = 0; i < n; i++) d[i] = 1.0;
    S.d = d;
    for (ns_int i = 0; i < n; i++) { S.basis[i] = i; S.pos[i] = i; S.pos[n + i] = -1; }
    S.pos[Z0] = -1;
    if ((st = factorize(&S, res->message))) goto done;
    memcpy(x, qs, (size_t)n * sizeof(double));

    /* a pivot's work: ftran and the update, n² each with B⁻¹ explicit (the
     * UMFPACK path's solves cost more: its pivots are then large anyway) */
    ns_clock clk;
    ns_clock_start(&clk, o->time_limit, dense ? 2.0 * (double)n * (double)n : NS_CLOCK_WORK);
    ns_int entering = Z0;
    for (int it = 0;; it++) {
        if (it >= o->max_iter) { st = NS_MAX_ITER; break; }
        if (ns_clock_over(&clk, dense ? 2.0 * (double)n * (double)n : NS_CLOCK_WORK)) {
            st = ns_fail(res->message, NS_TIME_LIMIT, "fc2d lemke: time limit after %d pivots", it);
            break;
        }
        if ((it & 15) == 0 && ns_cancelled(o)) {
            st = ns_fail(res->message, NS_INTERRUPTED, "fc2d lemke: interrupted after %d pivots", it);
            break;
        }
        column(&S, entering, c);
        ftran(&S, c);
        ns_int m = 0, row;
        if (it == 0) {
            /* z0 enters (c = −d): the row of the most negative q leaves; on a
             * tie, the lexicographic minimum of (q_i, e_i) is the last row */
            double best = INFINITY;
            for (ns_int i = 0; i < n; i++)
                if (d[i] > 0 && x[i] / d[i] < best) best = x[i] / d[i];
            for (ns_int i = 0; i < n; i++)
                if (d[i] > 0 && x[i] / d[i] <= best + 1e-11 * fabs(best)) cand[m++] = i;
            row = cand[m - 1];
        } else {
            double cmax = 0.0, xmax = 0.0;
            for (ns_int i = 0; i < n; i++) {
                if (fabs(c[i]) > cmax) cmax = fabs(c[i]);
                if (x[i] > xmax) xmax = x[i];
            }
            /* pivots below 1e-9·max|c| are taken only when there is no other */
            double best = INFINITY;
            for (int pass = 0; pass < 2 && m == 0; pass++) {
                double eps = (pass ? 1e-13 : 1e-9) * cmax;
                for (ns_int i = 0; i < n; i++)
                    if (c[i] > eps) {
                        cand[m++] = i;
                        if (x[i] / c[i] < best) best = x[i] / c[i];
                    }
                if (pass == 1 && m > 0) S.small_pivots++;
            }
            if (m == 0) {
                st = ns_fail(res->message, NS_NO_SOLUTION,
                             "fc2d lemke: secondary ray after %d pivots (entering %s%d)", it,
                             entering < n ? "w" : "z", (int)(entering % n));
                break;
            }
            ns_int m2 = 0, z0row = S.pos[Z0];
            int has_z0 = 0;
            for (ns_int t = 0; t < m; t++) {
                ns_int i = cand[t];
                if (x[i] / c[i] <= best + 1e-11 * fabs(best) + 1e-16 * xmax / c[i]) {
                    cand[m2++] = i;
                    has_z0 |= i == z0row;
                }
            }
            m = m2;
            row = has_z0 ? z0row : m == 1 ? cand[0] : lex_break(&S, c, cand, m, ws);
        }
        /* pivot on (row, entering) */
        double theta = x[row] / c[row];
        for (ns_int i = 0; i < n; i++) {
            x[i] -= theta * c[i];
            if (x[i] < 0.0) x[i] = 0.0;
        }
        x[row] = theta;
        ns_int leaving = S.basis[row];
        S.basis[row] = entering;
        S.pos[entering] = row;
        S.pos[leaving] = -1;
        res->iterations = it + 1;
        if ((st = push_eta(&S, row, c, res->message))) goto done;
        if (leaving == Z0) { st = NS_CONVERGED; break; }
        if (S.neta >= S.refactor_every) {
            if ((st = factorize(&S, res->message))) goto done;
            basic_values(&S, qs, x);
        }
        if ((it + 1) % 1000 == 0) ns_log(o, 2, "fc2d lemke: pivot %d, z0 = %.3e, %ld LU (L+U %.0f), %ld Bt " "solves, %.2f s LU, %.2f s solves, eta %.0f avg, worst x %.1e", it + 1, S.pos[Z0] >= 0 ? x[S.pos[Z0]] : 0.0, S.factorizations, S.lunz, S.btrans, S.t_factor, S.t_solve, S.eta_total / (it + 1), -S.worst_neg);
        entering = leaving < n ? leaving + n : leaving - n;
    }
    /* the last basis, solved afresh with the unscaled q (B⁻¹ held
     * explicitly: refined from it instead) */
    if (S.Binv) {
        refined_values(&S, L->q, x, ws);
    } else {
        if (S.neta > 0) {
            ns_status fs = factorize(&S, res->message);
            if (fs) { st = fs; goto done; }
        }
        basic_values(&S, L->q, x);
    }
    for (ns_int s = 0; s < n; s++)
        if (S.basis[s] >= n && S.basis[s] < 2 * n) z[S.basis[s] - n] = x[s];
finish:
    for (ns_int a = 0; a < P->nc; a++) {
        r[2 * a] = z[4 * a];
        r[2 * a + 1] = z[4 * a + 1] - z[4 * a + 2];
    }
    res->error = ns_fc_error(P, r, u, (ns_fc_norm)o->fc_norm);
    ns_log(o, 1, "fc2d lemke: %d pivots, %ld factorizations (%.3f s, last " "L+U %.0f nonzeros), %ld transposed solves for ties (%ld ties), %.3f s in solves, " "eta %.0f nonzeros on average, %ld small pivots, worst basic value at a " "refactorization %.1e", res->iterations, S.factorizations, S.t_factor, S.lunz, S.btrans, S.ties, S.t_solve, res->iterations ? S.eta_total / res->iterations : 0.0, S.small_pivots, -S.worst_neg);
    if (st == NS_NO_SOLUTION && res->error <= o->tol) {
        st = NS_CONVERGED;      /* the ray was met from a basis that already solves it */
        res->message[0] = '\0';
    }
done:
    lemke_free(&S);
    return st;
}

/* Up to SMALL_NC contacts: the LCP built dense (n = 4 nc) and solved by
 * the dense lexicographic Lemke kernel (lcp_lemke.c, as Siconos' fc2d
 * lexicolemke does), whose error callback is the FC2D error of r read back
 * from z. On the collection's files of 2 to 28 contacts the dense kernel
 * took 0.4-0.65 of the revised method's time (its sparse build, basis
 * bookkeeping and products cost more than the tableau's n·d per pivot);
 * on 89 contacts they are even and above, the revised method keeps no
 * n×n array. The LCP's arrays on the stack up to STACK_NC contacts. */
enum { SMALL_NC = 32, STACK_NC = 4 };

static ns_status fc2d_lemke_small(const ns_fc *p, double *r, double *u, const ns_options *o,
                                  ns_result *res)
{
    const ns_int nc = p->nc, n = 4 * nc;
    const size_t len = (size_t)n * (size_t)n + 3 * (size_t)n;
    double buf[(4 * STACK_NC) * (4 * STACK_NC) + 3 * 4 * STACK_NC];
    double *M = nc <= STACK_NC ? buf : ns_malloc(len, sizeof(double));
    double *Wc = p->W->storage == NS_DENSE ? NULL : ns_dense_copy(p->W);
    if (!M || (!Wc && p->W->storage != NS_DENSE)) {
        if (M != buf) free(M);
        return ns_fail(res->message, NS_NO_MEMORY, "fc2d lemke: out of memory");
    }
    double *q = M + (size_t)n * n, *z = q + n, *w = z + n;
    ns_fc2d_lcp_build(p, Wc ? Wc : p->W->dense, M, q);
    ns_fc2d_lcp c = { p, r, u, M, q, n, (ns_fc_norm)o->fc_norm };
    ns_status st = ns_lemke_dense_ex(n, M, q, NULL, z, w, o, ns_fc2d_lcp_error, &c, res, NULL);
    ns_fc2d_z_to_r(nc, z, r);
    res->error = ns_fc_error(p, r, u, (ns_fc_norm)o->fc_norm);
    free(Wc);
    if (M != buf) free(M);
    return st;
}

ns_status ns_fc2d_lemke(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    if (p->nc <= (ns_int)SMALL_NC) return fc2d_lemke_small(p, r, u, o, res);
    slcp L;
    ns_status st = build_lcp(p, &L, res->message);
    if (st) return st;
    st = fc2d_lemke_run(p, &L, r, u, o, res);
    slcp_free(&L);
    return st;
}
