/* fc2d_nsgs.c — non-smooth Gauss–Seidel for FC2D with the exact
 * one-contact solver (fc2d_local.c), plus an active-set solve when the
 * sweeps stall.
 *
 * Sweep: for each contact α in natural order (or shuffled every sweep),
 *     q̃_α = q_α + Σ_{β≠α} W_αβ r_β,   r_α ← ω·exact(W_αα, q̃_α, μ_α) + (1 − ω) r_α,
 * over W in BLOCK storage (2×2 blocks, one block row per contact). A DENSE
 * W of up to DENSE_NC contacts is read as it is, by columns: the sweeps
 * keep u = W r + q, q̃_α = u_α − W_αα r_α, and a change of r_α adds its two
 * contiguous columns to u (the same work as a block row's products, and the
 * error needs no product with W). The global error is computed every
 * check_every sweeps (default: sweeps 1, 2, 4, 8, then every 10); it alone
 * decides convergence, on u computed anew unless the kept u gives an error
 * below half the tolerance.
 *
 * Active-set solve. Gauss–Seidel converges linearly and on large granular
 * problems very slowly (fc2d_granularflowonwall_07002_00801: the error goes
 * from 1.8e-8 to 1.6e-8 in 38000 sweeps), while the case of every contact
 * (separated, sticking, sliding ±) settles long before. So, at a check, the
 * cases found by the last sweep define one sparse linear system in r:
 *     separated: r_α = 0;  sticking: (W r + q)_α = 0;
 *     sliding s: (W r + q)_{N,α} = 0,  r_{T,α} + s μ_α r_{N,α} = 0,
 * solved by UMFPACK (ns_factor). Its solution replaces r only when its
 * global error is smaller; the sweeps then go on from it. The first try is
 * made once the error is below 1e-4 (or at the first check), the next ones
 * every `gap` sweeps, gap doubling after each rejected try (16 … 4096
 * sweeps). Statistics (sweeps, tries, accepted) go to the log. */
#include "fc2d/fc2d_internal.h"
#include "fc/fc3d_internal.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s >> 12; *s ^= *s << 25; *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

/* The active-set system A r = b of the cases `cs`, built row by row from
 * the block rows of W and stored in CSC; solved into rp. Returns NS_OK, or
 * the factorization's status (singular system: the try is dropped). */
static ns_status active_set_solve(const ns_fc *P, const ns_block *B, const signed char *cs,
                                  double *rp, ns_int *cnt, char *err)
{
    const ns_int nc = P->nc, n = 2 * nc;
    /* column counts */
    memset(cnt, 0, ((size_t)n + 1) * sizeof(ns_int));
    for (ns_int a = 0; a < nc; a++) {
        int c = cs[a];
        if (c == NS_FC2D_SEPARATED) { cnt[2 * a]++; cnt[2 * a + 1]++; continue; }
        for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
            ns_int b = B->block_col[k];
            int rows = c == NS_FC2D_STICKING ? 2 : 1;
            cnt[2 * b] += rows;
            cnt[2 * b + 1] += rows;
        }
        if (c != NS_FC2D_STICKING) { cnt[2 * a]++; cnt[2 * a + 1]++; }
    }
    ns_int nnz = 0;
    for (ns_int j = 0; j < n; j++) nnz += cnt[j];
    ns_matrix *A = ns_matrix_sparse_new(n, n, nnz);
    if (!A) return ns_fail(err, NS_NO_MEMORY, "fc2d nsgs: out of memory");
    ns_int *Ap = A->csc.p, *Ai = A->csc.i;
    double *Ax = A->csc.x;
    Ap[0] = 0;
    for (ns_int j = 0; j < n; j++) Ap[j + 1] = Ap[j] + cnt[j];
    for (ns_int j = 0; j < n; j++) cnt[j] = Ap[j];
#define PUT(i, j, v) do { ns_int k_ = cnt[j]++; Ai[k_] = (i); Ax[k_] = (v); } while (0)
    /* rows in increasing order, so each column's rows come out sorted */
    for (ns_int a = 0; a < nc; a++) {
        int c = cs[a];
        const ns_int rn = 2 * a, rt = 2 * a + 1;
        if (c == NS_FC2D_SEPARATED) {
            PUT(rn, rn, 1.0); PUT(rt, rt, 1.0);
            rp[rn] = 0.0; rp[rt] = 0.0;
            continue;
        }
        for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
            const double *Wk = B->x + B->value_ptr[k];
            ns_int b = B->block_col[k];
            PUT(rn, 2 * b, Wk[0]);
            PUT(rn, 2 * b + 1, Wk[2]);
        }
        rp[rn] = -P->q[rn];
        if (c == NS_FC2D_STICKING) {
            for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
                const double *Wk = B->x + B->value_ptr[k];
                ns_int b = B->block_col[k];
                PUT(rt, 2 * b, Wk[1]);
                PUT(rt, 2 * b + 1, Wk[3]);
            }
            rp[rt] = -P->q[rt];
        } else {
            double s = c == NS_FC2D_SLIDING_POS ? 1.0 : -1.0;
            PUT(rt, rn, s * P->mu[a]);
            PUT(rt, rt, 1.0);
            rp[rt] = 0.0;
        }
    }
#undef PUT
    ns_factor *F = NULL;
    ns_status st = ns_factor_new(A, NS_FACTOR_SPARSE_LU, &F, err);
    if (st == NS_OK) st = ns_factor_solve(F, rp, 1, n);
    ns_factor_free(F);
    ns_matrix_free(A);
    return st;
}

/* q̃_α = q_α + Σ_{β≠α} W_αβ r_β over block row α. */
static void row_rhs(const ns_block *B, const double *q, const double *r, ns_int a, double *qa)
{
    const ns_int kd = B->diag[a];
    double q0 = q[2 * (size_t)a], q1 = q[2 * (size_t)a + 1];
    for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
        if (k == kd) continue;
        const double *Wk = B->x + B->value_ptr[k];
        const double *rb = r + 2 * (size_t)B->block_col[k];
        q0 += Wk[0] * rb[0] + Wk[2] * rb[1];
        q1 += Wk[1] * rb[0] + Wk[3] * rb[1];
    }
    qa[0] = q0;
    qa[1] = q1;
}

/* Problems of up to DENSE_NC contacts with a DENSE W are swept on W as it
 * is: converting it to blocks cost more than the sweeps that solve them
 * (the 6-contact FrictionContactProblem00394: 9k of 19k instructions). The
 * block copy is made only if an active-set try needs it. */
enum { DENSE_NC = 32 };

/* The checks ns_fc_blocked makes, for contact c of a DENSE W whose
 * diagonal block is Wd (column-major 2 × 2): mu finite and ≥ 0, the block
 * positive definite. The usual case is decided inline (the comparisons
 * fail on any NaN or infinite entry: then W_NN·W_TT − b² is NaN or not
 * above the infinite bound); a contact that fails them goes to
 * check_contact_slow for the verdict and the message. */
static NS_NOINLINE ns_status check_contact_slow(const ns_fc *P, ns_int c, const double *Wd,
                                                char *msg)
{
    const double mu = P->mu[c];
    if (!(mu >= 0) || !isfinite(mu))
        return ns_fail(msg, NS_BAD_INPUT, "fc: mu[%d] = %g is not a finite number >= 0", (int)c, mu);
    int bad = ns_fc_check_diag_block(2, Wd);
    if (bad == 1)
        return ns_fail(msg, NS_BAD_INPUT, "fc: contact %d: diagonal block has W_NN = %g <= 0",
                       (int)c, Wd[0]);
    if (bad == 2)
        return ns_fail(msg, NS_BAD_INPUT, "fc: contact %d: diagonal block is indefinite", (int)c);
    return NS_OK;
}

static inline ns_status check_dense_contact(const ns_fc *P, ns_int c, const double *Wd, char *msg)
{
    const double mu = P->mu[c];
    const double a = Wd[0], b = 0.5 * (Wd[1] + Wd[2]), d = Wd[3], s2 = fabs(a) + fabs(d);
    if (mu >= 0 && mu <= DBL_MAX && a > 0 && a * d - b * b > 1e-12 * s2 * s2) return NS_OK;
    return check_contact_slow(P, c, Wd, msg);
}

/* Diagonal block of contact a of a DENSE W (order n) into Wd. */
static inline void dense_diag(const ns_matrix *W, ns_int a, double *Wd)
{
    const size_t nn = (size_t)W->rows, i0 = 2 * (size_t)a;
    const double *c0 = W->dense + i0 * nn + i0;
    Wd[0] = c0[0]; Wd[1] = c0[1]; Wd[2] = c0[nn]; Wd[3] = c0[nn + 1];
}

/* u ← u + W_{·α} Δr_α over a DENSE W (column-major, order n): the two
 * columns of contact α are contiguous, so this is one pass over 2n
 * consecutive values. */
static inline void dense_column_update(const ns_matrix *W, ns_int a, double d0, double d1, double *u)
{
    const size_t n = (size_t)W->rows;
    const double *c0 = W->dense + 2 * (size_t)a * n, *c1 = c0 + n;
    for (size_t i = 0; i < n; i++) u[i] += c0[i] * d0 + c1[i] * d1;
}

static ns_status nsgs_run(const ns_fc *P, const ns_block *B, double *r, double *u,
                          const ns_options *o, ns_result *res)
{
    ns_fc bview;
    ns_matrix *owned = NULL;
    const int dense = B == NULL;
    const ns_int nc = P->nc, n = 2 * nc;
    const double omega = o->omega > 0 ? o->omega : 1.0;
    const int every = o->check_every > 0 ? o->check_every : 10;
    const ns_fc_norm norm = (ns_fc_norm)o->fc_norm;
    /* one block: rp, up (n doubles each), order (nc), cnt (n + 1), cs (nc
     * bytes); on the stack up to SMALL_NC contacts (a solve of a few
     * contacts spent a tenth of its time in five malloc/free pairs) */
    enum { SMALL_NC = 32 };
    const size_t nbytes = 2 * (size_t)n * sizeof(double) +
                          ((size_t)nc + (size_t)n + 1) * sizeof(ns_int) + (size_t)nc;
    union { double d; ns_int i; unsigned char c[4 * SMALL_NC * sizeof(double) +
                                                (3 * SMALL_NC + 1) * sizeof(ns_int) + SMALL_NC]; } small;
    unsigned char *heap = nc <= SMALL_NC ? NULL : ns_malloc(nbytes, 1);
    unsigned char *blk = nc <= SMALL_NC ? small.c : heap;
    ns_status st = NS_MAX_ITER;
    double *rp = NULL, *up = NULL;
    ns_int *order = NULL, *cnt = NULL;
    signed char *cs = NULL;
    if (!blk) {
        st = ns_fail(res->message, NS_NO_MEMORY, "fc2d nsgs: out of memory");
        goto done;
    }
    rp = (double *)(void *)blk;
    up = rp + n;
    order = (ns_int *)(void *)(up + n);
    cnt = order + nc;
    cs = (signed char *)(cnt + n + 1);
    for (ns_int i = 0; i < nc; i++) order[i] = i;
    uint64_t seed = (uint64_t)o->seed * 0x9E3779B97F4A7C15ULL + 1;
    /* a sweep's work: W's stored values, twice (row products) */
    const double sweep_work = 2.0 * (dense ? (double)n * (double)n : (double)B->value_ptr[B->nblocks]);
    ns_clock clk;
    ns_clock_start(&clk, o->time_limit, sweep_work);
    res->iterations = 0;
    /* a start that may already solve it is checked first; r = 0 is not
     * (that costs a product with W, as much as a sweep on a dense W): if it
     * solves the problem, the first sweep keeps it and the first check
     * says so */
    /* a DENSE W comes unchecked (ns_fc2d_nsgs): its contacts are checked
     * in the first sweep, which reads their blocks anyway, or here, before
     * a start that is not zero is judged */
    int checked = !dense;
    /* r ≠ 0: any bit set but the sign's (−0.0 is a zero start) */
    uint64_t nonzero = 0;
    for (ns_int i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, r + i, sizeof bits);
        nonzero |= bits << 1;
    }
    if (nonzero) {
        for (ns_int c = 0; c < nc && !checked; c++) {
            double Wd[4];
            dense_diag(P->W, c, Wd);
            if ((st = check_dense_contact(P, c, Wd, res->message))) goto done;
        }
        checked = 1;
        res->error = ns_fc_error(P, r, u, norm);
        if (res->error <= o->tol) { st = NS_CONVERGED; goto done; }
    } else if (dense) {
        memcpy(u, P->q, (size_t)n * sizeof(double));
    }
    int gap = 16, next_try = 0, tries = 0, accepted = 0;
    for (int it = 1; it <= o->max_iter; it++) {
        if (o->shuffle)
            for (ns_int i = nc - 1; i > 0; i--) {
                ns_int j = (ns_int)(next_rand(&seed) % (uint64_t)(i + 1));
                ns_int t = order[i]; order[i] = order[j]; order[j] = t;
            }
        for (ns_int s = 0; s < nc; s++) {
            ns_int a = order[s];
            double *ra = r + 2 * (size_t)a, qa[2], ro0 = ra[0], ro1 = ra[1];
            double Wdd[4];
            const double *Wd;
            if (dense) {
                dense_diag(P->W, a, Wdd);
                if (!checked && (st = check_dense_contact(P, a, Wdd, res->message))) goto done;
                Wd = Wdd;
                qa[0] = u[2 * (size_t)a] - (Wdd[0] * ro0 + Wdd[2] * ro1);
                qa[1] = u[2 * (size_t)a + 1] - (Wdd[1] * ro0 + Wdd[3] * ro1);
            } else {
                row_rhs(B, P->q, r, a, qa);
                Wd = B->x + B->value_ptr[B->diag[a]];
            }
            cs[a] = (signed char)ns_fc2d_local_exact(Wd, qa, P->mu[a], ra);
            if (cs[a] < 0) cs[a] = ra[0] > 0 ? NS_FC2D_STICKING : NS_FC2D_SEPARATED;
            if (omega != 1.0) {
                ra[0] = omega * ra[0] + (1.0 - omega) * ro0;
                ra[1] = omega * ra[1] + (1.0 - omega) * ro1;
            }
            if (dense) {
                const double d0 = ra[0] - ro0, d1 = ra[1] - ro1;
                if (d0 != 0.0 || d1 != 0.0) dense_column_update(P->W, a, d0, d1, u);
            }
        }
        checked = 1;
        res->iterations = it;
        int late = ns_clock_over(&clk, sweep_work);
        /* default: also at sweeps 1, 2, 4, 8 (easy problems end early) */
        int check = it % every == 0 || it == o->max_iter || late
                    || (o->check_every <= 0 && it < every && (it & (it - 1)) == 0);
        if (!check) {
            if (ns_iteration(o, res, NAN)) { st = NS_INTERRUPTED; break; }
            continue;
        }
        /* a DENSE W's u is kept up to date by the sweeps: its rounding
         * may decide only a clear convergence, anything else is judged on
         * u computed anew (which also ends the drift) */
        res->error = dense ? ns_fc_error_of(P, r, u, norm) : INFINITY;
        if (!(res->error <= 0.5 * o->tol)) res->error = ns_fc_error(P, r, u, norm);
        if (ns_iteration(o, res, res->error)) { st = NS_INTERRUPTED; break; }
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(res->error)) {
            st = ns_fail(res->message, NS_DIVERGED, "fc2d nsgs: non-finite error at sweep %d", it);
            break;
        }
        if (it >= next_try && (res->error <= 1e-4 || tries == 0)) {
            tries++;
            char msg[NS_ERRMSG_LEN];
            double e2 = INFINITY;
            if (!B && ns_fc_blocked_unchecked(P, &bview, &owned, msg) == NS_OK) B = &bview.W->block;
            if (B && active_set_solve(P, B, cs, rp, cnt, msg) == NS_OK) e2 = ns_fc_error(P, rp, up, norm);
            if (e2 < res->error) {
                accepted++;
                memcpy(r, rp, (size_t)n * sizeof(double));
                memcpy(u, up, (size_t)n * sizeof(double));
                res->error = e2;
            } else if (gap < 4096) {
                gap *= 2;
            }
            next_try = it + gap;
            ns_log(o, 2, "fc2d nsgs: sweep %d, active-set try %d: error %.3e (%s)", it, tries, e2, e2 == res->error ? "kept" : "dropped");
            if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        }
        if ((it / every) % 100 == 0) ns_log(o, 2, "fc2d nsgs: sweep %d error %.3e", it, res->error);
        if (late) {
            st = ns_fail(res->message, NS_TIME_LIMIT, "fc2d nsgs: time limit after %d sweeps", it);
            break;
        }
    }
    ns_log(o, 1, "fc2d nsgs: %d sweeps, %d active-set tries, %d kept, error %.3e", res->iterations, tries, accepted, res->error);
done:
    free(heap);
    ns_matrix_free(owned);
    return st;
}

ns_status ns_fc2d_nsgs(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    if (p->dim != 2)
        return ns_fail(res->message, NS_BAD_INPUT, "fc2d nsgs: problem of dimension %d", p->dim);
    if (p->W->storage == NS_DENSE && p->nc <= DENSE_NC && p->W->rows == 2 * p->nc
        && p->W->cols == 2 * p->nc) {
        /* W as it is; nsgs_run makes the checks of ns_fc_blocked */
        return nsgs_run(p, NULL, r, u, o, res);
    }
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st == NS_OK) st = nsgs_run(&view, &view.W->block, r, u, o, res);
    ns_matrix_free(owned);
    return st;
}
