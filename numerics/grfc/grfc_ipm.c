/* grfc_ipm.c — interior-point solver for GRFC3D on (M, H, q, b, μ, μr),
 * W never formed (docs/rolling.md §9). The cones of rfc_ipm.c (ζ = G r ∈
 * L², û = Gᵀ x, x ∈ L², ζ ∘ x = 0 per cone) with the unknowns y = (v, r):
 *     r_d = (M v − H r − q, û(v) − Gᵀ x),   r_p = G r − ζ,
 * û from u = Hᵀ v + b with its shift taken from the current v (updated
 * before every step). With A_α = Gᵀ W_nt⁻² G (5×5 per contact, positive
 * definite on the parts whose coefficient is not 0) and t = W_nt ξ − r_p:
 *     w = A⁻¹ (−r_d,2 + Gᵀ W_nt⁻² t),
 *     (M + H A⁻¹ Hᵀ) Δv = −r_d,1 + H w,
 *     Δr = w − A⁻¹ Hᵀ Δv,   Δx = W_nt⁻² (t − G Δr),
 * n × n with gfc_ipm's pattern (M's and every pair of rows a contact's
 * columns of H touch). The interior point never forms W; its finish does:
 * the reduction "reduce" with the local nsn-ac warm from the current r,
 * once the error is at most max(tol, 1e-6) (the global rolling Newton
 * solvers all work on W). Registered as "ipm" for GRFC3D. */
#include "rfc/rfc_internal.h"
#include "fc/fc_ipm.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { D5 = 5, K2 = 2, R6 = 6 };

typedef struct gripm {
    const ns_grfc *p;
    const ns_options *o;
    ns_matrix *Ms, *Hs;
    ns_ipm_sys sys;
    double G[R6 * D5];      /* G of a contact with unit coefficients: scaled per contact */
    double *Ai;             /* (25 per contact) A⁻¹ on the free unknowns, 0 elsewhere */
    unsigned char *elim;    /* (5 nc) */
    ns_int *cstart, *crow, *ppos, *cpos, *mpos;
    double *ch;             /* (5 per row) H values of a contact's rows */
    const double *W2i;
    double *ubuf, *w, *work, *hv;
    double *v_out, *u_out, *r_out;
} gripm;

/* G of contact a (6 × 5, column-major) */
static void gmat(const gripm *F, ns_int a, double *G)
{
    const double c[2] = { F->p->mu[a], F->p->mu_r[a] };
    memset(G, 0, sizeof(double) * R6 * D5);
    for (int i = 0; i < K2; i++) {
        G[3 * i] = 1.0;
        for (int j = 0; j < 2; j++)
            if (c[i] > 0) G[(3 * i + 1 + j) + R6 * (1 + 2 * i + j)] = 1.0 / c[i];
    }
}

static void residual(void *ctx, const double *y, const double *z, const double *x,
                     const double *s, double *rd, double *rp, double *u)
{
    (void)s;
    gripm *F = ctx;
    const ns_grfc *p = F->p;
    const ns_int n = p->n, nc = p->nc;
    const double *v = y, *r = y + n;
    ns_matrix_gemv(1.0, F->Ms, v, 0.0, rd);
    for (ns_int i = 0; i < n; i++) rd[i] -= p->q[i];
    ns_matrix_gemv(-1.0, F->Hs, r, 1.0, rd);
    memcpy(F->ubuf, p->b, (size_t)D5 * nc * sizeof(double));
    ns_matrix_gemv_t(1.0, F->Hs, v, 1.0, F->ubuf);
    memset(u, 0, (size_t)R6 * nc * sizeof(double));
    for (ns_int a = 0; a < nc; a++) {
        double G[R6 * D5], uh[D5];
        gmat(F, a, G);
        ns_rfc_modified_velocity(D5, p->mu[a], p->mu_r[a], 0.0, F->ubuf + D5 * a, uh, NULL);
        const double *za = z + R6 * a, *xa = x + R6 * a, *ra = r + D5 * a;
        const unsigned char *el = F->elim + D5 * a;
        for (int j = 0; j < D5; j++) {
            double g = 0.0;
            for (int i = 0; i < R6; i++) g += G[i + R6 * j] * za[i];
            rd[n + D5 * a + j] = el[j] ? ra[j] : uh[j] - g;
        }
        for (int i = 0; i < R6; i++) {
            double g = 0.0;
            for (int j = 0; j < D5; j++) g += G[i + R6 * j] * ra[j];
            rp[R6 * a + i] = g - xa[i];
        }
    }
}

/* Ai ← inverse of A on the free indices (Gauss–Jordan with pivoting on the
 * free sub-block), 0 elsewhere; 0 when singular */
static int inv_free(const double *A, const unsigned char *el, double *Ai)
{
    int idx[D5], f = 0;
    for (int i = 0; i < D5; i++) if (!el[i]) idx[f++] = i;
    double S[D5][2 * D5];
    for (int i = 0; i < f; i++)
        for (int j = 0; j < f; j++) { S[i][j] = A[idx[i] + D5 * idx[j]]; S[i][f + j] = i == j; }
    for (int c = 0; c < f; c++) {
        int pv = c;
        for (int i = c + 1; i < f; i++) if (fabs(S[i][c]) > fabs(S[pv][c])) pv = i;
        if (!(fabs(S[pv][c]) > 0)) return 0;
        if (pv != c) for (int j = 0; j < 2 * f; j++) { double t = S[c][j]; S[c][j] = S[pv][j]; S[pv][j] = t; }
        double dinv = 1.0 / S[c][c];
        for (int j = 0; j < 2 * f; j++) S[c][j] *= dinv;
        for (int i = 0; i < f; i++)
            if (i != c && S[i][c] != 0.0) {
                double m = S[i][c];
                for (int j = 0; j < 2 * f; j++) S[i][j] -= m * S[c][j];
            }
    }
    memset(Ai, 0, sizeof(double) * D5 * D5);
    for (int i = 0; i < f; i++)
        for (int j = 0; j < f; j++) Ai[idx[i] + D5 * idx[j]] = S[i][f + j];
    return 1;
}

static ns_status factor(void *ctx, const double *W2, const double *W2i, char *err)
{
    (void)W2;
    gripm *F = ctx;
    const ns_int nc = F->p->nc;
    double *K = F->sys.K->csc.x;
    memset(K, 0, (size_t)F->sys.K->csc.nnz * sizeof(double));
    for (ns_int t = 0; t < F->Ms->csc.nnz; t++) K[F->mpos[t]] += F->Ms->csc.x[t];
    for (ns_int a = 0; a < nc; a++) {
        double G[R6 * D5], A[D5 * D5];
        gmat(F, a, G);
        memset(A, 0, sizeof A);
        for (int c = 0; c < K2; c++) {
            const double *Wc = W2i + 9 * (K2 * a + c), *Gc = G + 3 * c;
            for (int j = 0; j < D5; j++) {
                double wg[3] = { 0, 0, 0 };
                for (int l = 0; l < 3; l++)
                    for (int m = 0; m < 3; m++) wg[l] += Wc[l + 3 * m] * Gc[m + R6 * j];
                for (int i = 0; i < D5; i++)
                    A[i + D5 * j] += Gc[R6 * i] * wg[0] + Gc[1 + R6 * i] * wg[1] + Gc[2 + R6 * i] * wg[2];
            }
        }
        double *Ai = F->Ai + 25 * a;
        if (!inv_free(A, F->elim + D5 * a, Ai))
            return ns_fail(err, NS_SINGULAR, "grfc ipm: contact %ld: singular cone block", (long)a);
        const ns_int r0 = F->cstart[a], nr = F->cstart[a + 1] - r0;
        const ns_int *pos = F->cpos + F->ppos[a];
        for (ns_int j = 0; j < nr; j++) {
            const double *hj = F->ch + D5 * (r0 + j);
            double bh[D5];
            for (int i = 0; i < D5; i++) {
                bh[i] = 0.0;
                for (int l = 0; l < D5; l++) bh[i] += Ai[i + D5 * l] * hj[l];
            }
            for (ns_int i = 0; i < nr; i++) {
                const double *hi = F->ch + D5 * (r0 + i);
                double s = 0.0;
                for (int l = 0; l < D5; l++) s += hi[l] * bh[l];
                K[pos[i + j * nr]] += s;
            }
        }
    }
    F->W2i = W2i;
    return ns_ipm_sys_factor(&F->sys, err);
}

static ns_status solve(void *ctx, const double *rd, const double *t, double *dy, double *dz)
{
    gripm *F = ctx;
    const ns_int n = F->p->n, nc = F->p->nc;
    double *dv = dy, *dr = dy + n;
    for (ns_int a = 0; a < nc; a++) {
        double G[R6 * D5], wt[R6], b[D5];
        gmat(F, a, G);
        const double *ta = t + R6 * a;
        for (int c = 0; c < K2; c++) {
            const double *Wc = F->W2i + 9 * (K2 * a + c);
            for (int l = 0; l < 3; l++)
                wt[3 * c + l] = Wc[l] * ta[3 * c] + Wc[l + 3] * ta[3 * c + 1] + Wc[l + 6] * ta[3 * c + 2];
        }
        for (int j = 0; j < D5; j++) {
            double g = 0.0;
            for (int i = 0; i < R6; i++) g += G[i + R6 * j] * wt[i];
            b[j] = -rd[n + D5 * a + j] + g;
        }
        const double *Ai = F->Ai + 25 * a;
        for (int i = 0; i < D5; i++) {
            double s = 0.0;
            for (int l = 0; l < D5; l++) s += Ai[i + D5 * l] * b[l];
            F->w[D5 * a + i] = F->elim[D5 * a + i] ? -rd[n + D5 * a + i] : s;
        }
    }
    for (ns_int i = 0; i < n; i++) dv[i] = -rd[i];
    ns_matrix_gemv(1.0, F->Hs, F->w, 1.0, dv);
    ns_status st = ns_ipm_sys_solve(&F->sys, dv);
    if (st) return st;
    memset(F->hv, 0, (size_t)D5 * nc * sizeof(double));
    ns_matrix_gemv_t(1.0, F->Hs, dv, 0.0, F->hv);
    for (ns_int a = 0; a < nc; a++) {
        const double *Ai = F->Ai + 25 * a, *h = F->hv + D5 * a;
        for (int i = 0; i < D5; i++) {
            double s = 0.0;
            for (int l = 0; l < D5; l++) s += Ai[i + D5 * l] * h[l];
            dr[D5 * a + i] = F->w[D5 * a + i] - s;
        }
        double G[R6 * D5], vv[R6];
        gmat(F, a, G);
        for (int i = 0; i < R6; i++) {
            double g = 0.0;
            for (int j = 0; j < D5; j++) g += G[i + R6 * j] * dr[D5 * a + j];
            vv[i] = t[R6 * a + i] - g;
        }
        for (int c = 0; c < K2; c++) {
            const double *Wc = F->W2i + 9 * (K2 * a + c);
            for (int l = 0; l < 3; l++)
                dz[R6 * a + 3 * c + l] = Wc[l] * vv[3 * c] + Wc[l + 3] * vv[3 * c + 1] + Wc[l + 6] * vv[3 * c + 2];
        }
    }
    return NS_OK;
}

static double error(void *ctx, const double *y, const double *z)
{
    (void)z;
    gripm *F = ctx;
    return ns_grfc_error(F->p, y, y + F->p->n, F->ubuf, F->work);
}

static void output(void *ctx, const double *y, const double *z)
{
    (void)z;
    gripm *F = ctx;
    memcpy(F->v_out, y, (size_t)F->p->n * sizeof(double));
    memcpy(F->r_out, y + F->p->n, (size_t)D5 * F->p->nc * sizeof(double));
    ns_grfc_error(F->p, F->v_out, F->r_out, F->u_out, F->work); /* u = Hᵀ v + b */
}

/* the finish: the reduction (W = Hᵀ M⁻¹ H formed there, and only there)
 * with the local nsn-ac warm from the current r */
static double finish(void *ctx, const double *y, const double *z, double tol, int max_iter,
                     double time_limit, int *iters)
{
    gripm *F = ctx;
    output(ctx, y, z);
    ns_options fo;
    ns_ipm_finish_options(F->o, tol, max_iter, time_limit, &fo);
    fo.local_solver = "nsn-ac";
    ns_result fr;
    ns_result_init(&fr);
    ns_grfc_reduce(F->p, F->v_out, F->u_out, F->r_out, &fo, &fr);
    *iters = fr.iterations;
    ns_result_clear(&fr);
    if (!ns_all_finite(F->v_out, (size_t)F->p->n) || !ns_all_finite(F->r_out, (size_t)D5 * F->p->nc))
        return INFINITY;
    return ns_grfc_error(F->p, F->v_out, F->r_out, F->u_out, F->work);
}

static ns_status setup(gripm *F, char *err)
{
    const ns_grfc *p = F->p;
    const ns_int n = p->n, nc = p->nc;
    const ns_csc *H = &F->Hs->csc, *M = &F->Ms->csc;
    ns_int *mark = ns_malloc((size_t)n + 1, sizeof(ns_int));
    F->cstart = ns_malloc((size_t)nc + 1, sizeof(ns_int));
    F->ppos = ns_malloc((size_t)nc + 1, sizeof(ns_int));
    if (!mark || !F->cstart || !F->ppos) { free(mark); return ns_fail(err, NS_NO_MEMORY, "grfc ipm: out of memory"); }
    ns_int tot = 0;
    for (ns_int a = 0; a < nc; a++) tot += H->p[D5 * a + D5] - H->p[D5 * a];
    F->crow = ns_malloc((size_t)tot + 1, sizeof(ns_int));
    F->ch = ns_calloc((size_t)D5 * tot + 1, sizeof(double));
    if (!F->crow || !F->ch) { free(mark); return ns_fail(err, NS_NO_MEMORY, "grfc ipm: out of memory"); }
    for (ns_int i = 0; i < n; i++) mark[i] = -1;
    ns_int k = 0;
    size_t npairs = (size_t)M->nnz;
    for (ns_int a = 0; a < nc; a++) {
        F->cstart[a] = k;
        for (int c = 0; c < D5; c++)
            for (ns_int t = H->p[D5 * a + c]; t < H->p[D5 * a + c + 1]; t++) {
                ns_int i = H->i[t];
                if (mark[i] < F->cstart[a]) { mark[i] = k; F->crow[k++] = i; }
                F->ch[D5 * mark[i] + c] += H->x[t];
            }
        ns_int nr = k - F->cstart[a];
        F->ppos[a] = (ns_int)(npairs - (size_t)M->nnz);
        npairs += (size_t)nr * (size_t)nr;
    }
    F->cstart[nc] = k;
    free(mark);
    if (npairs - (size_t)M->nnz > (size_t)INT_MAX - (size_t)n)
        return ns_fail(err, NS_NO_MEMORY, "grfc ipm: %zu row pairs of contacts exceed the index range",
                       npairs - (size_t)M->nnz);
    ns_int *ri = ns_malloc(npairs + 1, sizeof(ns_int)), *ci = ns_malloc(npairs + 1, sizeof(ns_int));
    ns_int *pos = ns_malloc(npairs + 1, sizeof(ns_int));
    if (!ri || !ci || !pos) { free(ri); free(ci); free(pos); return ns_fail(err, NS_NO_MEMORY, "grfc ipm: out of memory"); }
    size_t q = 0;
    for (ns_int j = 0; j < n; j++)
        for (ns_int t = M->p[j]; t < M->p[j + 1]; t++, q++) { ri[q] = M->i[t]; ci[q] = j; }
    for (ns_int a = 0; a < nc; a++) {
        ns_int r0 = F->cstart[a], nr = F->cstart[a + 1] - r0;
        for (ns_int j = 0; j < nr; j++)
            for (ns_int i = 0; i < nr; i++, q++) { ri[q] = F->crow[r0 + i]; ci[q] = F->crow[r0 + j]; }
    }
    int sym = ns_matrix_is_symmetric(F->Ms, 1e-12);
    ns_status st = ns_ipm_sys_init(&F->sys, n, npairs, ri, ci, pos, sym, err);
    free(ri); free(ci);
    if (st) { free(pos); return st; }
    F->mpos = pos;
    F->cpos = pos + M->nnz;
    return NS_OK;
}

ns_status ns_grfc_ipm(const ns_grfc *p, double *v, double *u, double *r, const ns_options *o,
                      ns_result *res)
{
    if (!p || !v || !u || !r || !o || !res) {
        if (res) ns_fail(res->message, NS_BAD_INPUT, "grfc ipm: NULL argument");
        return NS_BAD_INPUT;
    }
    ns_status st = ns_grfc_validate(p, res->message);
    if (st) return st;
    const ns_int n = p->n, nc = p->nc, m = D5 * nc;
    if (nc == 0) return ns_grfc_reduce(p, v, u, r, o, res); /* M v = q */
    gripm F;
    memset(&F, 0, sizeof F);
    F.p = p; F.o = o; F.v_out = v; F.u_out = u; F.r_out = r;
    F.Ms = ns_matrix_to_sparse(p->M);
    F.Hs = ns_matrix_to_sparse(p->H);
    F.Ai = ns_malloc(25 * (size_t)nc, sizeof(double));
    F.elim = ns_calloc((size_t)m, 1);
    F.ubuf = ns_malloc((size_t)m, sizeof(double));
    F.w = ns_malloc((size_t)m, sizeof(double));
    F.hv = ns_malloc((size_t)m, sizeof(double));
    F.work = ns_malloc((size_t)n + 1, sizeof(double));
    double *y = ns_malloc((size_t)(n + m), sizeof(double));
    double *z = ns_malloc((size_t)R6 * nc, sizeof(double));
    double *zero = ns_calloc((size_t)K2 * nc, sizeof(double));
    if (!F.Ms || !F.Hs || !F.Ai || !F.elim || !F.ubuf || !F.w || !F.hv || !F.work || !y || !z || !zero) {
        st = ns_fail(res->message, NS_NO_MEMORY, "grfc ipm: out of memory");
        goto done;
    }
    for (ns_int a = 0; a < nc; a++) {
        if (!(p->mu[a] > 0)) F.elim[D5 * a + 1] = F.elim[D5 * a + 2] = 1;
        if (!(p->mu_r[a] > 0)) F.elim[D5 * a + 3] = F.elim[D5 * a + 4] = 1;
    }
    if ((st = setup(&F, res->message))) goto done;
    if (o->warm_start) {
        if (!ns_all_finite(v, (size_t)n) || !ns_all_finite(r, (size_t)m)) {
            st = ns_fail(res->message, NS_BAD_INPUT, "grfc ipm: warm start not finite");
            goto done;
        }
        memcpy(y, v, (size_t)n * sizeof(double));
        for (ns_int i = 0; i < m; i++) y[n + i] = F.elim[i] ? 0.0 : r[i];
        /* dual point from û: per cone (c‖û_i‖ + u_N/2, c û_i) */
        memcpy(F.ubuf, p->b, (size_t)m * sizeof(double));
        ns_matrix_gemv_t(1.0, F.Hs, v, 1.0, F.ubuf);
        for (ns_int a = 0; a < nc; a++) {
            const double *ua = F.ubuf + D5 * a, c[2] = { p->mu[a], p->mu_r[a] };
            for (int i = 0; i < K2; i++) {
                double *zi = z + R6 * a + 3 * i;
                zi[1] = c[i] * ua[1 + 2 * i];
                zi[2] = c[i] * ua[2 + 2 * i];
                zi[0] = hypot(zi[1], zi[2]) + 0.5 * ua[0];
            }
        }
    }
    ns_ipm_ops ops = { &F, n + m, K2 * nc, zero, residual, factor, solve, error, finish, output };
    st = ns_ipm_run(&ops, y, z, o, 0, res);
done:
    free(F.mpos);
    ns_ipm_sys_free(&F.sys);
    ns_matrix_free(F.Ms);
    ns_matrix_free(F.Hs);
    free(F.cstart); free(F.crow); free(F.ch); free(F.ppos);
    free(F.Ai); free(F.elim); free(F.ubuf); free(F.w); free(F.hv); free(F.work);
    free(y); free(z); free(zero);
    return st;
}
