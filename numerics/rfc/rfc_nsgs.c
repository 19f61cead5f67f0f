/* rfc_nsgs.c — non-smooth Gauss–Seidel over contacts for the local rolling
 * friction-contact kinds (RFC3D, RFC2D): for each contact α in turn,
 *     q̃_α = q_α + Σ_{β≠α} W_αβ r_β,
 *     r_α ← local(W_αα, q̃_α, μ_α, μr_α; start r_α),
 * local = ns_rfc_local_solve (semismooth Newton on the Alart–Curnier
 * function with projection steps as safeguard: "nsgs"; projected fixed
 * point only: "nsgs-proj"), to a tolerance that follows the global error
 * down. W is
 * read in BLOCK storage of d×d blocks (converted once when given DENSE or
 * SPARSE). The global error ns_rfc_error is computed after every sweep
 * (one more W·r, the cost of a sweep) and alone decides convergence. */
#include "rfc/rfc_internal.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* W in BLOCK storage of uniform d×d blocks: W itself when it already is,
 * else a new copy in *own (NULL on failure). */
static const ns_matrix *uniform_blocks(const ns_matrix *W, int d, ns_matrix **own)
{
    *own = NULL;
    if (W->storage == NS_BLOCK) {
        const ns_block *B = &W->block;
        int ok = 1;
        for (ns_int r = 0; ok && r < B->block_rows; r++)
            ok = B->row_start[r + 1] - B->row_start[r] == d;
        for (ns_int c = 0; ok && c < B->block_cols; c++)
            ok = B->col_start[c + 1] - B->col_start[c] == d;
        if (ok) return W;
    }
    *own = ns_matrix_to_block_uniform(W, d);
    return *own;
}

static ns_status nsgs_run(const ns_rfc *p, double *r, double *u, const ns_options *o,
                          ns_result *res, int newton)
{
    const int d = p->dim;
    const ns_int nc = p->nc;
    const size_t m = (size_t)d * (size_t)nc;
    const double t0 = ns_now();
    if (!o->warm_start) memset(r, 0, m * sizeof *r);
    res->error = ns_rfc_error(p, r, u, (ns_fc_norm)o->fc_norm);
    if (res->error <= o->tol) return NS_CONVERGED;
    ns_matrix *own;
    const ns_matrix *Wb = uniform_blocks(p->W, d, &own);
    if (!Wb) return ns_fail(res->message, NS_NO_MEMORY, "rfc nsgs: out of memory");
    const ns_block *B = &Wb->block;
    static const double zero_block[RFC_DMAX * RFC_DMAX];
    const int max_iter = o->max_iter > 0 ? o->max_iter : 100000;
    ns_status st = NS_MAX_ITER;
    double local_tol = 1e-6;
    for (int it = 1; it <= max_iter; it++) {
        for (ns_int a = 0; a < nc; a++) {
            double qa[RFC_DMAX];
            const double *Waa = zero_block;
            for (int i = 0; i < d; i++) qa[i] = p->q[(size_t)a * d + i];
            for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
                const double *Wk = B->x + B->value_ptr[k];
                ns_int b = B->block_col[k];
                if (b == a) { Waa = Wk; continue; }
                const double *rb = r + (size_t)b * d;
                for (int j = 0; j < d; j++) {
                    double x = rb[j];
                    if (x == 0.0) continue;
                    for (int i = 0; i < d; i++) qa[i] += Wk[i + j * d] * x;
                }
            }
            ns_rfc_local_solve(d, p->mu[a], p->mu_r[a], d == 6 ? p->mu_p[a] : 0.0, Waa, qa, r + (size_t)a * d,
                               local_tol, newton ? 50 : 200, newton);
        }
        res->iterations = it;
        res->error = ns_rfc_error(p, r, u, (ns_fc_norm)o->fc_norm);
        ns_log(o, 2, "rfc nsgs sweep %d error %.3e", it, res->error);
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        local_tol = fmax(1e-14, fmin(local_tol, 0.1 * res->error));
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
    }
    ns_log(o, 1, "rfc nsgs: %s after %d sweeps, error %.3e", ns_status_name(st),
           res->iterations, res->error);
    ns_matrix_free(own);
    return st;
}

ns_status ns_rfc_nsgs(const ns_rfc *p, double *r, double *u, const ns_options *o,
                      ns_result *res)
{
    return nsgs_run(p, r, u, o, res, 1);
}

ns_status ns_rfc_nsgs_proj(const ns_rfc *p, double *r, double *u, const ns_options *o,
                           ns_result *res)
{
    return nsgs_run(p, r, u, o, res, 0);
}
