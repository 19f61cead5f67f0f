/* solve_certificate.c — certificates that a problem has no solution: the
 * check ns_solve runs before it reports no_solution, and the Farkas search
 * that looks for one when a solver found none.
 *
 * One form serves the LCP, the MLCP and the relay problem. Each is written
 * as a feasibility system over its unknowns z and w = M z + q:
 *   z_j ∈ [lo_j, hi_j]                       (LCP: [0, ∞); MLCP: free or
 *                                              [0, ∞); relay: [lb_j, ub_j])
 *   row type t_i:  +1  w_i ≥ 0,   −1  w_i ≤ 0,   2  w_i = 0,   0  none
 * (LCP: every row +1; MLCP: equality rows 2, complementarity rows +1; relay:
 * +1 where only lb_i is finite, −1 where only ub_i is, 0 where both are, 2
 * where neither is). Every solution of the problem satisfies this system.
 * y is a Farkas certificate when y_i t_i ≥ 0 (t = 2: y_i free, t = 0:
 * y_i = 0) and, with c = Mᵀy,
 *   h = yᵀq + Σ_j max_{z_j ∈ [lo_j, hi_j]} c_j z_j < 0
 * (finite only if c_j ≤ 0 where hi_j = +∞ and c_j ≥ 0 where lo_j = −∞):
 * for a solution, yᵀw ≥ 0 by the signs, while yᵀw = cᵀz + yᵀq ≤ h < 0.
 *
 * Tolerances (NS_CERT_TOL = η). The signs of y are checked exactly. A
 * condition on c_j may be violated by η s_j, s_j = Σ_i |M_ij y_i| (the size
 * of the terms of c_j); then y is an exact certificate of a matrix M' with
 * |M'_ij − M_ij| ≤ η |M_ij| (the violation moved into column j), and the
 * violated part is left out of h. h must be below −η times the sum of the
 * magnitudes of its terms. All sums in long double. radius: no z feasible
 * for M itself with ‖z‖∞ ≤ radius (−h over the sum of the violations; +∞
 * when there are none). */
#include "nonsmooth/ns_solver.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "mlcp/mlcp_internal.h"
#include "solve/certificate.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ns_certificate_kind_name(ns_certificate_kind k)
{
    switch (k) {
    case NS_CERT_NONE: return "none";
    case NS_CERT_FARKAS: return "farkas";
    }
    return "none";
}

void ns_feas_free(ns_feas *f)
{
    free(f->M); free(f->lo); free(f->hi); free(f->type);
    memset(f, 0, sizeof *f);
}

ns_status ns_feas_build(const ns_problem *p, ns_feas *f, char *err)
{
    memset(f, 0, sizeof *f);
    const ns_matrix *M = NULL;
    ns_int N = 0;
    switch (p->kind) {
    case NS_KIND_LCP: M = p->u.lcp->M; N = p->u.lcp->n; f->q = p->u.lcp->q; break;
    case NS_KIND_MLCP:
        M = p->u.mlcp->M; N = p->u.mlcp->n + p->u.mlcp->m; f->q = p->u.mlcp->q;
        if (!M || M->rows != N || M->cols != N)
            return ns_fail(err, NS_BAD_INPUT, "certificate: rectangular or split-form "
                           "MLCP has no certificate");
        break;
    case NS_KIND_RELAY: M = p->u.relay->M; N = p->u.relay->n; f->q = p->u.relay->q; break;
    default:
        return ns_fail(err, NS_BAD_INPUT, "certificate: %s problems have no certificate "
                       "of infeasibility", ns_kind_name(p->kind));
    }
    f->N = N;
    f->M = ns_dense_copy(M);
    f->lo = ns_malloc((size_t)N + 1, sizeof(double));
    f->hi = ns_malloc((size_t)N + 1, sizeof(double));
    f->type = ns_malloc((size_t)N + 1, 1);
    unsigned char *eq = p->kind == NS_KIND_MLCP ? ns_mlcp_eq_mask(p->u.mlcp) : NULL;
    if (!f->M || !f->lo || !f->hi || !f->type || (p->kind == NS_KIND_MLCP && !eq)) {
        free(eq);
        ns_feas_free(f);
        return ns_fail(err, NS_NO_MEMORY, "certificate: out of memory");
    }
    for (ns_int i = 0; i < N; i++) {
        if (p->kind == NS_KIND_RELAY) {
            double lb = p->u.relay->lb[i], ub = p->u.relay->ub[i];
            int fl = isfinite(lb), fu = isfinite(ub);
            f->lo[i] = lb; f->hi[i] = ub;
            f->type[i] = fl && fu ? 0 : fl ? 1 : fu ? 3 : 2;   /* 3 encodes −1 */
        } else if (eq && eq[i]) {
            f->lo[i] = -INFINITY; f->hi[i] = INFINITY; f->type[i] = 2;
        } else {
            f->lo[i] = 0.0; f->hi[i] = INFINITY; f->type[i] = 1;
        }
    }
    free(eq);
    return NS_OK;
}

/* max over [lo, hi] of c z, or ±inf */
static long double sup_lin(long double c, double lo, double hi)
{
    if (c > 0) return isfinite(hi) ? c * hi : (long double)INFINITY;
    if (c < 0) return isfinite(lo) ? c * lo : (long double)INFINITY;
    return 0.0L;
}

ns_status ns_feas_check(const ns_feas *f, ns_certificate *c, char *err)
{
    const ns_int N = f->N;
    c->checked = 0;
    c->violation = INFINITY;
    c->gap = INFINITY;
    c->radius = 0.0;
    if (c->kind != NS_CERT_FARKAS)
        return ns_fail(err, NS_FAILED, "certificate: kind %s cannot be checked",
                       ns_certificate_kind_name(c->kind));
    if (!c->y || c->len != N)
        return ns_fail(err, NS_BAD_INPUT, "certificate: vector of length %d for %d unknowns",
                       c->y ? c->len : 0, (int)N);
    if (!ns_all_finite(c->y, (size_t)N))
        return ns_fail(err, NS_FAILED, "certificate: y holds NaN or Inf");
    int nonzero = 0;
    for (ns_int i = 0; i < N; i++) {
        double y = c->y[i];
        int t = f->type[i];
        if ((t == 0 && y != 0.0) || (t == 1 && y < 0.0) || (t == 3 && y > 0.0))
            return ns_fail(err, NS_FAILED, "certificate: y[%d] = %.3g has the wrong sign",
                           (int)i, y);
        if (y != 0.0) nonzero = 1;
    }
    if (!nonzero) return ns_fail(err, NS_FAILED, "certificate: y = 0");
    const double eta = NS_CERT_TOL;
    long double h = 0.0L, hs = 0.0L, viol_abs = 0.0L;
    double vmax = 0.0;
    ns_int vj = -1;
    for (ns_int i = 0; i < N; i++) {
        h += (long double)c->y[i] * f->q[i];
        hs += fabsl((long double)c->y[i] * f->q[i]);
    }
    for (ns_int j = 0; j < N; j++) {
        const double *Mj = f->M + (size_t)j * (size_t)N;
        long double cj = 0.0L, sj = 0.0L;
        for (ns_int i = 0; i < N; i++) {
            long double t = (long double)Mj[i] * c->y[i];
            cj += t;
            sj += fabsl(t);
        }
        /* the part of c_j that would make the max infinite is a violation */
        long double bad = 0.0L;
        if (cj > 0 && !isfinite(f->hi[j])) bad = cj;
        if (cj < 0 && !isfinite(f->lo[j])) bad = -cj;
        if (bad > 0) {
            double v = sj > 0 ? (double)(bad / sj) : INFINITY;
            if (v > vmax) { vmax = v; vj = j; }
            viol_abs += bad;
            continue;               /* c_j taken as 0: M' moves it */
        }
        long double sup = sup_lin(cj, f->lo[j], f->hi[j]);
        h += sup;
        hs += fabsl(sup);
    }
    c->violation = vmax;
    c->gap = hs > 0 ? (double)(h / hs) : 0.0;
    c->radius = viol_abs > 0 ? (h < 0 ? (double)(-h / viol_abs) : 0.0) : INFINITY;
    if (vmax > eta)
        return ns_fail(err, NS_FAILED, "certificate: (M'y)[%d] violates its sign by %.3g "
                       "of its terms (allowed %.0e)", (int)vj, vmax, eta);
    if (!(c->gap < -eta))
        return ns_fail(err, NS_FAILED, "certificate: the bound q'y (+ box terms) is %.3g "
                       "relative, not below -%.0e", c->gap, eta);
    c->checked = 1;
    return NS_OK;
}

ns_status ns_certificate_check(const ns_problem *p, ns_certificate *c, char *err)
{
    if (!p || !c) return ns_fail(err, NS_BAD_INPUT, "certificate: NULL argument");
    ns_feas f;
    ns_status st = ns_feas_build(p, &f, err);
    if (st) return st;
    st = ns_feas_check(&f, c, err);
    ns_feas_free(&f);
    return st;
}

/* ---- the Farkas search ----
 * The feasibility system as { x ≥ 0 : A x + b ≥ 0 }: z_j = lo_j + x_a
 * (lo finite; a row hi_j − lo_j − x_a ≥ 0 when hi is finite too),
 * z_j = hi_j − x_a (only hi finite), z_j = x_a − x_b (free); row type +1
 * gives the row w_i ≥ 0, −1 the row −w_i ≥ 0, 2 both. Its LP (objective 0)
 * is the LCP  [[0, −Aᵀ], [A, 0]] (x, u) + (0, b), skew-symmetric hence
 * copositive-plus: Lemke solves it when the system is feasible and otherwise
 * ends on a secondary ray whose u part satisfies u ≥ 0, Aᵀu ≤ 0, bᵀu < 0;
 * y is u summed back over the rows made from each w_i (with their signs). */

static double plain_err(const void *ctx, const double *z, double *w)
{
    const ns_lcp *l = ctx;
    ns_int n = l->n;
    const double *M = l->M->dense;
    for (ns_int i = 0; i < n; i++) w[i] = l->q[i];
    for (ns_int j = 0; j < n; j++) {
        if (z[j] == 0.0) continue;
        const double *Mj = M + (size_t)j * n;
        for (ns_int i = 0; i < n; i++) w[i] += Mj[i] * z[j];
    }
    double e = 0.0;
    for (ns_int i = 0; i < n; i++) {
        double r = z[i] - fmax(0.0, z[i] - w[i]);
        e += r * r;
    }
    return sqrt(e);
}

ns_status ns_feas_search(const ns_feas *f, ns_certificate *c, const ns_options *o,
                         char *err)
{
    const ns_int N = f->N;
    /* columns of A (variables x) and rows of A */
    ns_int nx = 0, nr = 0;
    for (ns_int j = 0; j < N; j++) {
        int fl = isfinite(f->lo[j]), fu = isfinite(f->hi[j]);
        nx += fl || fu ? 1 : 2;
        if (fl && fu) nr++;
    }
    for (ns_int i = 0; i < N; i++) nr += f->type[i] == 2 ? 2 : f->type[i] == 0 ? 0 : 1;
    ns_int nb = nx + nr;
    if ((double)nb * nb > 16e6)
        return ns_fail(err, NS_UNSUPPORTED, "farkas search: %d unknowns is beyond the "
                       "dense search's size", (int)N);
    double *B = ns_calloc((size_t)nb * nb, sizeof(double));
    double *qb = ns_calloc((size_t)nb, sizeof(double));
    double *A = ns_calloc((size_t)nr * (nx + 1) + 1, sizeof(double));   /* nr × nx, then b */
    ns_int *row_of = ns_malloc((size_t)nr + 1, sizeof(ns_int));     /* w index or −1 */
    double *row_sg = ns_malloc((size_t)nr + 1, sizeof(double));
    double *zb = ns_calloc((size_t)nb, sizeof(double)), *wb = ns_malloc((size_t)nb, sizeof(double));
    double *ray = NULL;
    double *y = ns_calloc((size_t)N + 1, sizeof(double));
    ns_status st;
    if (!B || !qb || !A || !row_of || !row_sg || !zb || !wb || !y) {
        st = ns_fail(err, NS_NO_MEMORY, "farkas search: out of memory");
        goto out;
    }
    double *b = A + (size_t)nr * nx;
    /* z = z0 + T x: T is a signed selection, z0 the offsets */
    ns_int *xcol = ns_malloc((size_t)N * 2 + 1, sizeof(ns_int));
    double *xsg = ns_malloc((size_t)N * 2 + 1, sizeof(double));
    double *z0 = ns_calloc((size_t)N + 1, sizeof(double));
    double *Mz0 = ns_malloc((size_t)N + 1, sizeof(double));
    if (!xcol || !xsg || !z0 || !Mz0) {
        free(xcol); free(xsg); free(z0); free(Mz0);
        st = ns_fail(err, NS_NO_MEMORY, "farkas search: out of memory");
        goto out;
    }
    ns_int k = 0, r = 0;
    for (ns_int j = 0; j < N; j++) {
        int fl = isfinite(f->lo[j]), fu = isfinite(f->hi[j]);
        if (fl) { z0[j] = f->lo[j]; xcol[2 * j] = k; xsg[2 * j] = 1.0; xcol[2 * j + 1] = -1; k++; }
        else if (fu) { z0[j] = f->hi[j]; xcol[2 * j] = k; xsg[2 * j] = -1.0; xcol[2 * j + 1] = -1; k++; }
        else { xcol[2 * j] = k; xsg[2 * j] = 1.0; xcol[2 * j + 1] = k + 1; xsg[2 * j + 1] = -1.0; k += 2; }
    }
    for (ns_int i = 0; i < N; i++) {
        long double s = f->q[i];
        for (ns_int j = 0; j < N; j++) s += (long double)f->M[i + (size_t)j * N] * z0[j];
        Mz0[i] = (double)s;
    }
    for (ns_int i = 0; i < N; i++) {
        int t = f->type[i];
        for (int pass = 0; pass < (t == 2 ? 2 : (t == 0 ? 0 : 1)); pass++) {
            double sg = (t == 3 || pass == 1) ? -1.0 : 1.0;
            for (ns_int j = 0; j < N; j++) {
                double m = f->M[i + (size_t)j * N];
                if (m == 0.0) continue;
                A[r + (size_t)xcol[2 * j] * nr] += sg * m * xsg[2 * j];
                if (xcol[2 * j + 1] >= 0) A[r + (size_t)xcol[2 * j + 1] * nr] += sg * m * xsg[2 * j + 1];
            }
            b[r] = sg * Mz0[i];
            row_of[r] = i; row_sg[r] = sg;
            r++;
        }
    }
    for (ns_int j = 0; j < N; j++)
        if (isfinite(f->lo[j]) && isfinite(f->hi[j])) {
            A[r + (size_t)xcol[2 * j] * nr] = -1.0;
            b[r] = f->hi[j] - f->lo[j];
            row_of[r] = -1; row_sg[r] = 0.0;
            r++;
        }
    free(xcol); free(xsg); free(z0); free(Mz0);
    /* big LCP: (x, u), [[0, −Aᵀ], [A, 0]], (0, b) */
    for (ns_int a = 0; a < nr; a++)
        for (ns_int jx = 0; jx < nx; jx++) {
            double v = A[a + (size_t)jx * nr];
            if (v == 0.0) continue;
            B[(nx + a) + (size_t)jx * nb] = v;          /* A block */
            B[jx + (size_t)(nx + a) * nb] = -v;         /* −Aᵀ block */
        }
    for (ns_int a = 0; a < nr; a++) qb[nx + a] = b[a];
    ns_matrix Mb;
    memset(&Mb, 0, sizeof Mb);
    Mb.rows = Mb.cols = nb;
    Mb.storage = NS_DENSE;
    Mb.dense = B;
    ns_lcp big = { .n = nb, .M = &Mb, .q = qb };
    ns_options ob;
    ns_options_default(&ob);
    ob.max_iter = 50 * nb + 1000;
    ob.time_limit = o ? o->time_limit : 0.0;
    ob.tol = 1e-12;
    ns_result rb;
    ns_result_init(&rb);
    st = ns_lemke_dense_ex(nb, B, qb, NULL, zb, wb, &ob, plain_err, &big, &rb, &ray);
    if (st != NS_NO_SOLUTION || !ray) {
        st = ns_fail(err, NS_FAILED, st == NS_CONVERGED
                     ? "farkas search: the feasibility system has a solution (no certificate exists)"
                     : "farkas search: Lemke on the feasibility LP stopped (%s)", ns_status_name(st));
        goto out;
    }
    double umax = 0.0;
    for (ns_int a = 0; a < nr; a++) if (ray[nx + a] > umax) umax = ray[nx + a];
    if (!(umax > 0)) { st = ns_fail(err, NS_FAILED, "farkas search: zero ray"); goto out; }
    for (ns_int a = 0; a < nr; a++) {
        double u = ray[nx + a] / umax;
        if (u > 0 && row_of[a] >= 0) y[row_of[a]] += row_sg[a] * u;
    }
    for (ns_int i = 0; i < N; i++) {   /* exact signs (rounding of the sums) */
        int t = f->type[i];
        if (t == 0 || (t == 1 && y[i] < 0) || (t == 3 && y[i] > 0)) y[i] = 0.0;
    }
    free(c->y);
    c->kind = NS_CERT_FARKAS;
    c->len = N;
    c->y = y;
    y = NULL;
    snprintf(c->source, sizeof c->source, "farkas search (lemke on the feasibility LP)");
    st = ns_feas_check(f, c, err);
out:
    free(B); free(qb); free(A); free(row_of); free(row_sg); free(zb); free(wb); free(ray); free(y);
    return st;
}

ns_status ns_certificate_search(const ns_problem *p, ns_certificate *c,
                                const ns_options *o, char *err)
{
    ns_feas f;
    ns_status st = ns_feas_build(p, &f, err);
    if (st) return st;
    st = ns_feas_search(&f, c, o, err);
    ns_feas_free(&f);
    return st;
}
