/* fc3d_ipm.c — interior-point solver for FC3D on (W, q, μ) (docs/ipm.md).
 * With D = blockdiag(1, μ_α, μ_α), Ŵ = D W D:
 *     x = Ŵ z + D q + s e_N,   L ∋ x ⊥ z ∈ L,   r = D z,
 * s_α = μ_α ‖u_T,α‖ (the core, fc_ipm.c). Newton system on the reactions:
 *     (Ŵ + W_nt²) Δz = t,
 * positive definite when W is positive semidefinite; pattern = W's block
 * pattern (built once), factored by CHOLMOD with the symbolic analysis
 * reused (LAPACKE below 129 unknowns; UMFPACK when W is not symmetric).
 * Finish: the global semismooth Newton nsn-ac (fc3d_nsn.c). Registered as
 * "ipm" (s updated before every step) and "ipm-fp" (outer fixed point on
 * s) for FC3D. */
#include "fc/fc_ipm.h"
#include "fc/fc3d_internal.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct fipm {
    const ns_fc *p;        /* the caller's problem (finish, error) */
    const ns_fc *view;     /* W in BLOCK storage of 3×3 blocks */
    const ns_options *o;
    ns_ipm_sys sys;
    ns_int *bpos;          /* (9 per stored block of W) positions in K */
    ns_int *dpos;          /* (9 per contact) positions of the W_nt² blocks */
    double *rbuf, *ubuf;
    double *r_out, *u_out;
} fipm;

static void to_r(const fipm *F, const double *z, double *r)
{
    for (ns_int a = 0; a < F->p->nc; a++) {
        double mu = F->p->mu[a];
        r[3 * a] = z[3 * a];
        r[3 * a + 1] = mu * z[3 * a + 1];
        r[3 * a + 2] = mu * z[3 * a + 2];
    }
}

static void residual(void *ctx, const double *y, const double *z, const double *x,
                     const double *s, double *rd, double *rp, double *u)
{
    (void)y; (void)rd;
    fipm *F = ctx;
    const ns_int nc = F->p->nc;
    to_r(F, z, F->rbuf);
    memcpy(u, F->p->q, 3 * (size_t)nc * sizeof(double));
    ns_matrix_gemv(1.0, F->view->W, F->rbuf, 1.0, u);
    for (ns_int a = 0; a < nc; a++) {
        double mu = F->p->mu[a];
        rp[3 * a] = u[3 * a] + s[a] - x[3 * a];
        rp[3 * a + 1] = mu * u[3 * a + 1] - x[3 * a + 1];
        rp[3 * a + 2] = mu * u[3 * a + 2] - x[3 * a + 2];
    }
}

static ns_status factor(void *ctx, const double *W2, const double *W2i, char *err)
{
    (void)W2i;
    fipm *F = ctx;
    const ns_block *B = &F->view->W->block;
    const double *mu = F->p->mu;
    double *K = F->sys.K->csc.x;
    memset(K, 0, (size_t)F->sys.K->csc.nnz * sizeof(double));
    for (ns_int br = 0; br < B->block_rows; br++)
        for (ns_int k = B->row_ptr[br]; k < B->row_ptr[br + 1]; k++) {
            ns_int bc = B->block_col[k];
            const double *Wb = B->x + B->value_ptr[k];
            const ns_int *pos = F->bpos + 9 * (size_t)k;
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++)
                    K[pos[i + 3 * j]] += (i ? mu[br] : 1.0) * Wb[i + 3 * j] * (j ? mu[bc] : 1.0);
        }
    for (ns_int a = 0; a < F->p->nc; a++)
        for (int e = 0; e < 9; e++) K[F->dpos[9 * a + e]] += W2[9 * a + e];
    return ns_ipm_sys_factor(&F->sys, err);
}

static ns_status solve(void *ctx, const double *rd, const double *t, double *dy, double *dz)
{
    (void)rd; (void)dy;
    fipm *F = ctx;
    memcpy(dz, t, 3 * (size_t)F->p->nc * sizeof(double));
    return ns_ipm_sys_solve(&F->sys, dz);
}

static double error(void *ctx, const double *y, const double *z)
{
    (void)y;
    fipm *F = ctx;
    to_r(F, z, F->rbuf);
    return ns_fc_error(F->p, F->rbuf, F->ubuf, (ns_fc_norm)F->o->fc_norm);
}

static void output(void *ctx, const double *y, const double *z)
{
    (void)y;
    fipm *F = ctx;
    to_r(F, z, F->r_out);
    ns_fc_error(F->p, F->r_out, F->u_out, (ns_fc_norm)F->o->fc_norm); /* u = W r + q */
}

static double finish(void *ctx, const double *y, const double *z, double tol, int max_iter,
                     double time_limit, int *iters)
{
    fipm *F = ctx;
    output(ctx, y, z);
    ns_options fo;
    ns_ipm_finish_options(F->o, tol, max_iter, time_limit, &fo);
    ns_result fr;
    ns_result_init(&fr);
    ns_fc_nsn_run(F->view, F->r_out, F->u_out, &fo, ns_fc_phi_ac, &fr);
    *iters = fr.iterations;
    ns_result_clear(&fr);
    if (!ns_all_finite(F->r_out, 3 * (size_t)F->p->nc)) return INFINITY;
    return ns_fc_error(F->p, F->r_out, F->u_out, (ns_fc_norm)F->o->fc_norm);
}

static ns_status fc3d_ipm(const ns_fc *p, double *r, double *u, const ns_options *o,
                          int fixed_point, ns_result *res)
{
    if (p->dim != 3) return ns_fail(res->message, NS_BAD_INPUT, "fc3d ipm: 3D problems only (dim %d)", p->dim);
    const ns_int nc = p->nc, m = 3 * nc;
    if (nc == 0) { res->error = 0.0; return NS_CONVERGED; }
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st) return st;
    fipm F;
    memset(&F, 0, sizeof F);
    F.p = p; F.view = &view; F.o = o; F.r_out = r; F.u_out = u;
    const ns_block *B = &view.W->block;
    size_t nb = (size_t)B->nblocks, npairs = 9 * nb + 9 * (size_t)nc;
    ns_int *ri = ns_malloc(npairs, sizeof(ns_int)), *ci = ns_malloc(npairs, sizeof(ns_int));
    ns_int *pos = ns_malloc(npairs, sizeof(ns_int));
    double *z = ns_malloc((size_t)m, sizeof(double));
    F.rbuf = ns_malloc((size_t)m, sizeof(double));
    F.ubuf = ns_malloc((size_t)m, sizeof(double));
    if (!ri || !ci || !pos || !z || !F.rbuf || !F.ubuf) {
        st = ns_fail(res->message, NS_NO_MEMORY, "fc3d ipm: out of memory");
        goto done;
    }
    size_t q = 0;
    for (ns_int br = 0; br < B->block_rows; br++)
        for (ns_int k = B->row_ptr[br]; k < B->row_ptr[br + 1]; k++)
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++, q++) {
                    ri[q] = 3 * br + i;
                    ci[q] = 3 * B->block_col[k] + j;
                }
    for (ns_int a = 0; a < nc; a++)
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 3; i++, q++) { ri[q] = 3 * a + i; ci[q] = 3 * a + j; }
    int sym = ns_matrix_is_symmetric(view.W, 1e-12);
    if ((st = ns_ipm_sys_init(&F.sys, m, npairs, ri, ci, pos, sym, res->message))) goto done;
    F.bpos = pos;
    F.dpos = pos + 9 * nb;
    if (o->warm_start)
        for (ns_int a = 0; a < nc; a++) {
            double mu = p->mu[a];
            z[3 * a] = r[3 * a];
            z[3 * a + 1] = mu > 0 ? r[3 * a + 1] / mu : 0.0;
            z[3 * a + 2] = mu > 0 ? r[3 * a + 2] / mu : 0.0;
        }
    ns_ipm_ops ops = { &F, 0, nc, p->mu, residual, factor, solve, error, finish, output };
    double ydummy = 0.0;
    st = ns_ipm_run(&ops, &ydummy, z, o, fixed_point, res);
done:
    ns_ipm_sys_free(&F.sys);
    ns_matrix_free(owned);
    free(ri); free(ci); free(pos); free(z); free(F.rbuf); free(F.ubuf);
    return st;
}

ns_status ns_fc3d_ipm(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    return fc3d_ipm(p, r, u, o, 0, res);
}

ns_status ns_fc3d_ipm_fp(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    return fc3d_ipm(p, r, u, o, 1, res);
}
