/* gfc_ipm.c — interior-point solver for GFC3D on (M, H, q, b, μ), W never
 * formed (docs/ipm.md). With Ĥ = H D, D = blockdiag(1, μ_α, μ_α):
 *     M v − Ĥ z − q = 0,   x = Ĥᵀ v + D b + s e_N,   L ∋ x ⊥ z ∈ L,
 * r = D z, s_α = μ_α ‖u_T,α‖ (the core, fc_ipm.c). Newton system reduced to
 * the velocities:
 *     (M + Ĥ W⁻² Ĥᵀ) Δv = −r_d + Ĥ W⁻² t,   Δz = W⁻² (t − Ĥᵀ Δv),
 * n × n, symmetric positive definite when M is; its pattern (M's and, for
 * each contact, every pair of the rows its three columns of H touch) is
 * built once, the values written straight into it at every iteration
 * through precomputed positions, factored by CHOLMOD with the symbolic
 * analysis of the first iteration reused (LAPACKE below 129 unknowns,
 * UMFPACK when M is not symmetric). Finish: the global semismooth Newton
 * nsn-ac (gfc_nsn.c). Registered as "ipm" (s updated before every step)
 * and "ipm-fp" (outer fixed point on s) for GFC3D. */
#include "fc/fc_ipm.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct gipm {
    const ns_gfc *p;
    const ns_options *o;
    ns_matrix *Ms, *Hh;     /* M (CSC) and Ĥ = H D (CSC) */
    ns_ipm_sys sys;
    ns_int *cstart;         /* (nc+1) contact α's rows: crow[cstart[α] .. cstart[α+1]) */
    ns_int *crow;           /* rows of H touched by the contact */
    double *ch;             /* (3 per row) Ĥ values of those rows */
    ns_int *cpos;           /* positions of the pairs in K, contact by contact */
    ns_int *ppos;           /* (nc+1) start of contact α's pairs in cpos */
    ns_int *mpos;           /* (nnz M) position of each M entry in K */
    const double *W2i;      /* the core's W⁻² blocks of the last factorization */
    double *rbuf, *ubuf, *work, *g;
    double *v_out, *u_out, *r_out;
} gipm;

static void to_r(const gipm *G, const double *z, double *r)
{
    for (ns_int a = 0; a < G->p->nc; a++) {
        double mu = G->p->mu[a];
        r[3 * a] = z[3 * a];
        r[3 * a + 1] = mu * z[3 * a + 1];
        r[3 * a + 2] = mu * z[3 * a + 2];
    }
}

static void residual(void *ctx, const double *v, const double *z, const double *x,
                     const double *s, double *rd, double *rp, double *u)
{
    gipm *G = ctx;
    const ns_gfc *p = G->p;
    const ns_int n = p->n, nc = p->nc;
    ns_matrix_gemv(1.0, G->Ms, v, 0.0, rd);
    for (ns_int i = 0; i < n; i++) rd[i] -= p->q[i];
    ns_matrix_gemv(-1.0, G->Hh, z, 1.0, rd);
    memcpy(u, p->b, 3 * (size_t)nc * sizeof(double));
    ns_matrix_gemv_t(1.0, p->H, v, 1.0, u);
    for (ns_int a = 0; a < nc; a++) {
        double mu = p->mu[a];
        rp[3 * a] = u[3 * a] + s[a] - x[3 * a];
        rp[3 * a + 1] = mu * u[3 * a + 1] - x[3 * a + 1];
        rp[3 * a + 2] = mu * u[3 * a + 2] - x[3 * a + 2];
    }
}

static ns_status factor(void *ctx, const double *W2, const double *W2i, char *err)
{
    (void)W2;
    gipm *G = ctx;
    const ns_int nc = G->p->nc;
    double *K = G->sys.K->csc.x;
    memset(K, 0, (size_t)G->sys.K->csc.nnz * sizeof(double));
    for (ns_int t = 0; t < G->Ms->csc.nnz; t++) K[G->mpos[t]] += G->Ms->csc.x[t];
    for (ns_int a = 0; a < nc; a++) {
        const double *B = W2i + 9 * a;
        const ns_int r0 = G->cstart[a], nr = G->cstart[a + 1] - r0;
        const ns_int *pos = G->cpos + G->ppos[a];
        for (ns_int j = 0; j < nr; j++) {
            const double *hj = G->ch + 3 * (r0 + j);
            double bh[3];
            for (int i = 0; i < 3; i++) bh[i] = B[i] * hj[0] + B[i + 3] * hj[1] + B[i + 6] * hj[2];
            for (ns_int i = 0; i < nr; i++) {
                const double *hi = G->ch + 3 * (r0 + i);
                K[pos[i + j * nr]] += hi[0] * bh[0] + hi[1] * bh[1] + hi[2] * bh[2];
            }
        }
    }
    G->W2i = W2i;
    return ns_ipm_sys_factor(&G->sys, err);
}

static ns_status solve(void *ctx, const double *rd, const double *t, double *dv, double *dz)
{
    gipm *G = ctx;
    const ns_int n = G->p->n, nc = G->p->nc;
    for (ns_int a = 0; a < nc; a++) {
        const double *B = G->W2i + 9 * a, *ta = t + 3 * a;
        for (int i = 0; i < 3; i++) G->g[3 * a + i] = B[i] * ta[0] + B[i + 3] * ta[1] + B[i + 6] * ta[2];
    }
    for (ns_int i = 0; i < n; i++) dv[i] = -rd[i];
    ns_matrix_gemv(1.0, G->Hh, G->g, 1.0, dv);
    ns_status st = ns_ipm_sys_solve(&G->sys, dv);
    if (st) return st;
    memcpy(G->g, t, 3 * (size_t)nc * sizeof(double));
    ns_matrix_gemv_t(-1.0, G->Hh, dv, 1.0, G->g);
    for (ns_int a = 0; a < nc; a++) {
        const double *B = G->W2i + 9 * a, *w = G->g + 3 * a;
        for (int i = 0; i < 3; i++) dz[3 * a + i] = B[i] * w[0] + B[i + 3] * w[1] + B[i + 6] * w[2];
    }
    return NS_OK;
}

static double error(void *ctx, const double *v, const double *z)
{
    gipm *G = ctx;
    to_r(G, z, G->rbuf);
    return ns_gfc_error(G->p, v, G->rbuf, G->ubuf, G->work);
}

static void output(void *ctx, const double *v, const double *z)
{
    gipm *G = ctx;
    memcpy(G->v_out, v, (size_t)G->p->n * sizeof(double));
    to_r(G, z, G->r_out);
    ns_gfc_error(G->p, G->v_out, G->r_out, G->u_out, G->work); /* u = Hᵀ v + b */
}

static double finish(void *ctx, const double *v, const double *z, double tol, int max_iter,
                     double time_limit, int *iters)
{
    gipm *G = ctx;
    output(ctx, v, z);
    ns_options fo;
    ns_ipm_finish_options(G->o, tol, max_iter, time_limit, &fo);
    ns_result fr;
    ns_result_init(&fr);
    ns_gfc_nsn_ac(G->p, G->v_out, G->u_out, G->r_out, &fo, &fr);
    *iters = fr.iterations;
    ns_result_clear(&fr);
    if (!ns_all_finite(G->v_out, (size_t)G->p->n) || !ns_all_finite(G->r_out, 3 * (size_t)G->p->nc))
        return INFINITY;
    return ns_gfc_error(G->p, G->v_out, G->r_out, G->u_out, G->work);
}

/* contact row lists, the pattern of K and the positions */
static ns_status setup(gipm *G, char *err)
{
    const ns_gfc *p = G->p;
    const ns_int n = p->n, nc = p->nc;
    const ns_csc *H = &G->Hh->csc, *M = &G->Ms->csc;
    ns_status st = NS_OK;
    ns_int *mark = ns_malloc((size_t)n + 1, sizeof(ns_int));
    G->cstart = ns_malloc((size_t)nc + 1, sizeof(ns_int));
    G->ppos = ns_malloc((size_t)nc + 1, sizeof(ns_int));
    if (!mark || !G->cstart || !G->ppos) { free(mark); return ns_fail(err, NS_NO_MEMORY, "gfc ipm: out of memory"); }
    /* rows per contact (upper bound: entries of its three columns) */
    ns_int tot = 0;
    for (ns_int a = 0; a < nc; a++) tot += H->p[3 * a + 3] - H->p[3 * a];
    G->crow = ns_malloc((size_t)tot + 1, sizeof(ns_int));
    G->ch = ns_calloc(3 * (size_t)tot + 1, sizeof(double));
    if (!G->crow || !G->ch) { free(mark); return ns_fail(err, NS_NO_MEMORY, "gfc ipm: out of memory"); }
    for (ns_int i = 0; i < n; i++) mark[i] = -1;
    ns_int k = 0;
    size_t npairs = (size_t)M->nnz;
    for (ns_int a = 0; a < nc; a++) {
        G->cstart[a] = k;
        for (int c = 0; c < 3; c++)
            for (ns_int t = H->p[3 * a + c]; t < H->p[3 * a + c + 1]; t++) {
                ns_int i = H->i[t];
                if (mark[i] < G->cstart[a]) { mark[i] = k; G->crow[k++] = i; }
                G->ch[3 * mark[i] + c] += H->x[t];
            }
        ns_int nr = k - G->cstart[a];
        G->ppos[a] = (ns_int)(npairs - (size_t)M->nnz); /* range checked below, before use */
        npairs += (size_t)nr * (size_t)nr;
    }
    G->cstart[nc] = k;
    free(mark);
    if (npairs - (size_t)M->nnz > (size_t)INT_MAX - (size_t)n)
        return ns_fail(err, NS_NO_MEMORY, "gfc ipm: %zu row pairs of contacts exceed the index range",
                       npairs - (size_t)M->nnz);
    G->ppos[nc] = (ns_int)(npairs - (size_t)M->nnz);
    ns_int *ri = ns_malloc(npairs + 1, sizeof(ns_int)), *ci = ns_malloc(npairs + 1, sizeof(ns_int));
    ns_int *pos = ns_malloc(npairs + 1, sizeof(ns_int));
    if (!ri || !ci || !pos) { free(ri); free(ci); free(pos); return ns_fail(err, NS_NO_MEMORY, "gfc ipm: out of memory"); }
    size_t q = 0;
    for (ns_int j = 0; j < n; j++)
        for (ns_int t = M->p[j]; t < M->p[j + 1]; t++, q++) { ri[q] = M->i[t]; ci[q] = j; }
    for (ns_int a = 0; a < nc; a++) {
        ns_int r0 = G->cstart[a], nr = G->cstart[a + 1] - r0;
        for (ns_int j = 0; j < nr; j++)
            for (ns_int i = 0; i < nr; i++, q++) { ri[q] = G->crow[r0 + i]; ci[q] = G->crow[r0 + j]; }
    }
    int sym = ns_matrix_is_symmetric(G->Ms, 1e-12);
    st = ns_ipm_sys_init(&G->sys, n, npairs, ri, ci, pos, sym, err);
    free(ri); free(ci);
    if (st) { free(pos); return st; }
    G->mpos = pos;                 /* first nnz(M) positions: M's entries */
    G->cpos = pos + M->nnz;        /* then the contacts' pairs */
    return NS_OK;
}

static ns_status gfc_ipm(const ns_gfc *p, double *v, double *u, double *r,
                         const ns_options *o, int fixed_point, ns_result *res)
{
    if (p->dim != 3) return ns_fail(res->message, NS_BAD_INPUT, "gfc ipm: 3D problems only (dim %d)", p->dim);
    const ns_int n = p->n, nc = p->nc, m = 3 * nc;
    ns_status st;
    gipm G;
    memset(&G, 0, sizeof G);
    G.p = p;
    G.o = o;
    G.v_out = v; G.u_out = u; G.r_out = r;
    double *z = NULL;
    G.Ms = ns_matrix_to_sparse(p->M);
    G.Hh = ns_matrix_to_sparse(p->H);
    G.rbuf = ns_malloc((size_t)m + 1, sizeof(double));
    G.ubuf = ns_malloc((size_t)m + 1, sizeof(double));
    G.g = ns_malloc((size_t)m + 1, sizeof(double));
    G.work = ns_malloc((size_t)n + 1, sizeof(double));
    z = ns_malloc((size_t)m + 1, sizeof(double));
    if (!G.Ms || !G.Hh || !G.rbuf || !G.ubuf || !G.g || !G.work || !z) {
        st = ns_fail(res->message, NS_NO_MEMORY, "gfc ipm: out of memory");
        goto done;
    }
    if (nc == 0) { /* no contact: M v = q */
        ns_options lo = *o;
        st = ns_gfc_reduce(p, v, u, r, &lo, res);
        goto done;
    }
    /* Ĥ = H D: tangential columns times μ */
    for (ns_int a = 0; a < nc; a++)
        for (int c = 1; c < 3; c++)
            for (ns_int t = G.Hh->csc.p[3 * a + c]; t < G.Hh->csc.p[3 * a + c + 1]; t++)
                G.Hh->csc.x[t] *= p->mu[a];
    if ((st = setup(&G, res->message))) goto done;
    if (o->warm_start)
        for (ns_int a = 0; a < nc; a++) {
            double mu = p->mu[a];
            z[3 * a] = r[3 * a];
            z[3 * a + 1] = mu > 0 ? r[3 * a + 1] / mu : 0.0;
            z[3 * a + 2] = mu > 0 ? r[3 * a + 2] / mu : 0.0;
        }
    ns_ipm_ops ops = { &G, n, nc, p->mu, residual, factor, solve, error, finish, output };
    st = ns_ipm_run(&ops, v, z, o, fixed_point, res);
done:
    if (G.mpos) free(G.mpos);
    ns_ipm_sys_free(&G.sys);
    ns_matrix_free(G.Ms);
    ns_matrix_free(G.Hh);
    free(G.cstart); free(G.crow); free(G.ch); free(G.ppos);
    free(G.rbuf); free(G.ubuf); free(G.g); free(G.work);
    free(z);
    return st;
}

ns_status ns_gfc_ipm(const ns_gfc *p, double *v, double *u, double *r,
                     const ns_options *o, ns_result *res)
{
    return gfc_ipm(p, v, u, r, o, 0, res);
}

ns_status ns_gfc_ipm_fp(const ns_gfc *p, double *v, double *u, double *r,
                        const ns_options *o, ns_result *res)
{
    return gfc_ipm(p, v, u, r, o, 1, res);
}
