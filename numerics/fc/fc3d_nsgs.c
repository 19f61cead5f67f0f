/* fc3d_nsgs.c — non-smooth Gauss–Seidel over contacts (FC2D and FC3D):
 * for each contact α (natural order, shuffled every sweep, forward and
 * backward in turn (sweep = 1), or colour by colour on threads),
 *     q̃_α = q_α + Σ_{β≠α} W_αβ r_β,
 *     r_α ← ω · local(W_αα, q̃_α, μ_α; start r_α) + (1 − ω) r_α,
 * local = the chosen one-contact solver (ac, fb, nm, proj) backed by exact
 * enumeration (then an AC polish) when it misses its tolerance
 * 1e-12·max(‖q̃_α‖, ‖r_α‖, W_NN‖r_α‖) by more than rounding. A sweep reads W once (one block
 * row per contact, BLOCK storage); the global error ns_fc_error (one more
 * W·r) is computed every check_every sweeps, or with check_every = 0 when
 * the sweep's relative increment predicts convergence (see below); it
 * alone decides convergence. No allocation inside sweeps.
 *
 * threads = k ≥ 1: the contacts are coloured greedily so that no two
 * contacts of a colour share a body (W_αβ = 0 within a colour); a sweep
 * goes colour by colour, each colour's contacts updated together by k
 * OpenMP threads (static split, each thread writing only its contacts' r
 * and increments: no shared writes; the sweep's increments are summed
 * serially afterwards). The iterates are the same for every k — a
 * Gauss–Seidel in the colour order — and k = 1 gives that order without
 * OpenMP. threads = 0 keeps the serial natural order (the default: the
 * order users and tests have always had).
 * Registered as nsgs-ac, nsgs-fb, nsgs-nm, nsgs-proj (and nsgs, which takes
 * o->local_solver, default ac). */
#include "fc/fc3d_internal.h"
#include "fc/fc3d_vi.h"
#include "solve/solvers.h"
#include "matrix/matrix_internal.h"
#include "core/ns_internal.h"
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

/* q̃_α = q_α + Σ_{β≠α} W_αβ r_β over block row α. */
static void row_rhs(const ns_block *B, const double *q, const double *r, int d, ns_int a,
                    double *qa)
{
    const ns_int kd = B->diag[a];
    if (d == 3) { /* the blocks before the diagonal one, then those after it */
        double q0 = q[3 * (size_t)a], q1 = q[3 * (size_t)a + 1], q2 = q[3 * (size_t)a + 2];
        const ns_int *col = B->block_col;
        const ns_int *vp = B->value_ptr;
        for (int part = 0; part < 2; part++) {
            ns_int k0 = part ? kd + 1 : B->row_ptr[a], k1 = part ? B->row_ptr[a + 1] : kd;
            for (ns_int k = k0; k < k1; k++) {
                const double *Wk = B->x + vp[k];
                const double *rb = r + 3 * (size_t)col[k];
                q0 += Wk[0] * rb[0] + Wk[3] * rb[1] + Wk[6] * rb[2];
                q1 += Wk[1] * rb[0] + Wk[4] * rb[1] + Wk[7] * rb[2];
                q2 += Wk[2] * rb[0] + Wk[5] * rb[1] + Wk[8] * rb[2];
            }
        }
        qa[0] = q0; qa[1] = q1; qa[2] = q2;
        return;
    }
    qa[0] = q[2 * (size_t)a]; qa[1] = q[2 * (size_t)a + 1];
    for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
        if (k == kd) continue;
        const double *Wk = B->x + B->value_ptr[k];
        const double *rb = r + 2 * (size_t)B->block_col[k];
        qa[0] += Wk[0] * rb[0] + Wk[2] * rb[1];
        qa[1] += Wk[1] * rb[0] + Wk[3] * rb[1];
    }
}

/* A local solve that missed its tolerance is kept without the exact
 * enumeration when its contact error is at the rounding level of the
 * contact's own numbers (‖r‖, ‖u‖, ‖q̃‖ ~ 1e6 with W ~ 1e-5 cannot meet
 * 1e-12·‖q̃‖): the enumeration would cost ~100 Newton solves to find the
 * same point. */
static int at_rounding_level(const ns_fc_contact *c, const double *r, double nq2)
{
    double u[3];
    double e = ns_fc_contact_residual(c, r, u);
    double n2 = nq2;
    double nr2 = 0.0, nu2 = 0.0;
    for (int i = 0; i < c->dim; i++) { nr2 += r[i] * r[i]; nu2 += u[i] * u[i]; }
    n2 = fmax(n2, fmax(nr2, nu2));
    return e <= 1e3 * DBL_EPSILON * sqrt(n2);
}

/* When to pay for the global error (one W·r and a pass over the contacts).
 * check_every = k > 0: every k sweeps. check_every = 0: when the sweep's
 * light error ℓ = ‖r_new − r_old‖ / ‖r_new‖ (summed over the sweep, free)
 * predicts it: the last full check gave the ratio κ = error/ℓ, and the next
 * one comes when κ ℓ ≤ tol — or, to calibrate κ, at sweeps 1, 2, 4, …, 32
 * and then every CHECK_GAP sweeps without one. Only the global error
 * decides convergence. */
enum { CHECK_GAP = 50, AA_GRACE = 32, AA_RECHECK = 10 };

/* Anderson's safety net counts a global check as progress only when it
 * lowers the best error by this factor (see ns_fc_nsgs_run_ctl). */
#define AA_PROGRESS 0.97

/* fmax without the library call (GCC keeps fmax a call for its NaN
 * rules): the same result, a NaN argument ignored. */
static inline double max2(double a, double b) { return a > b || b != b ? a : b; }

/* One contact's update: r_α ← ω local(W_αα, q̃_α) + (1 − ω) r_α, with the
 * contact's ρ_N, ρ_T from rho (computed once per solve). Writes only r_α
 * and inc[0..1] (‖Δr_α‖², ‖r_α‖²), so that contacts which share no block
 * row entry can be updated at the same time. */
static inline void update_contact(const ns_fc *view, const ns_block *B, double *r, ns_int a,
                                  ns_fc_local_fn f, double omega, double ltol, const double *rho,
                                  double *inc, double *delta)
{
    const int d = view->dim;
    double *ra = r + (size_t)a * d, qa[3], old[3];
    row_rhs(B, view->q, r, d, a, qa);
    const double *Wd = B->x + B->value_ptr[B->diag[a]];
    double nq2 = qa[0] * qa[0] + qa[1] * qa[1] + (d == 3 ? qa[2] * qa[2] : 0.0);
    double nr2 = ra[0] * ra[0] + ra[1] * ra[1] + (d == 3 ? ra[2] * ra[2] : 0.0);
    double scale2 = max2(max2(nq2, nr2), Wd[0] * Wd[0] * nr2);
    ns_fc_contact c = { .dim = d, .W = Wd, .q = qa, .mu = view->mu[a],
                        .rho_n = rho[2 * (size_t)a], .rho_t = rho[2 * (size_t)a + 1],
                        .tol = ltol * max2(sqrt(scale2), DBL_MIN), .max_iter = 20 };
    old[0] = ra[0]; old[1] = ra[1]; old[2] = d == 3 ? ra[2] : 0.0;
    if (f(&c, ra) != 0 && !at_rounding_level(&c, ra, nq2))
        if (ns_fc_local_enum(&c, ra) != 0) ns_fc_local_ac(&c, ra);
    if (omega != 1.0)
        for (int i = 0; i < d; i++) ra[i] = omega * ra[i] + (1.0 - omega) * old[i];
    double dr2 = 0.0, r2 = 0.0;
    for (int i = 0; i < d; i++) {
        double e = ra[i] - old[i];
        if (delta) delta[(size_t)a * d + i] = e;
        dr2 += e * e;
        r2 += ra[i] * ra[i];
    }
    inc[0] = dr2;
    inc[1] = r2;
}

/* Greedy colouring of the contact graph (α ~ β when block W_αβ is stored,
 * i.e. the two contacts share a body): contact α gets the smallest colour
 * none of its already coloured neighbours has. Fills start[0..ncol] and
 * list (contacts by colour, increasing index within a colour); work: 2 nc
 * + 1 ints. Returns the number of colours. O(blocks). */
static ns_int colour_contacts(const ns_block *B, ns_int nc, ns_int *start, ns_int *list, ns_int *work)
{
    ns_int *colour = work, *mark = work + nc;
    ns_int ncol = 0;
    for (ns_int c = 0; c <= nc; c++) mark[c] = -1;
    for (ns_int a = 0; a < nc; a++) {
        for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
            ns_int b = B->block_col[k];
            if (b < a) mark[colour[b]] = a;
        }
        ns_int c = 0;
        while (mark[c] == a) c++;
        colour[a] = c;
        if (c + 1 > ncol) ncol = c + 1;
    }
    for (ns_int c = 0; c <= ncol; c++) start[c] = 0;
    for (ns_int a = 0; a < nc; a++) start[colour[a] + 1]++;
    for (ns_int c = 0; c < ncol; c++) start[c + 1] += start[c];
    for (ns_int a = 0; a < nc; a++) list[start[colour[a]]++] = a;
    for (ns_int c = ncol; c > 0; c--) start[c] = start[c - 1];
    start[0] = 0;
    return ncol;
}

/* One coloured sweep: colours in turn (reversed when backward), the
 * contacts of a colour split among the threads. Every contact reads the
 * r of other colours only, so the iterates do not depend on the thread
 * count; each thread writes its own contacts' r and inc entries. */
static void coloured_sweep(const ns_fc *view, const ns_block *B, double *r, ns_fc_local_fn f,
                           double omega, double ltol, const ns_int *start, const ns_int *list,
                           ns_int ncol, int backward, int threads, const double *rho, double *inc,
                           double *delta)
{
#ifdef _OPENMP
    if (threads > 1) {
#pragma omp parallel num_threads(threads)
        {
            for (ns_int k = 0; k < ncol; k++) {
                ns_int c = backward ? ncol - 1 - k : k;
                ns_int s0 = start[c], s1 = start[c + 1];
#pragma omp for schedule(static)
                for (ns_int s = s0; s < s1; s++) {
                    ns_int a = list[s];
                    update_contact(view, B, r, a, f, omega, ltol, rho, inc + 2 * (size_t)a, delta);
                }
            }
        }
        return;
    }
#endif
    /* one thread: the same iterates without an OpenMP region (libgomp
     * allocates a team for every region of one thread) */
    (void)threads;
    for (ns_int k = 0; k < ncol; k++) {
        ns_int c = backward ? ncol - 1 - k : k;
        for (ns_int s = start[c]; s < start[c + 1]; s++)
            update_contact(view, B, r, list[s], f, omega, ltol, rho, inc + 2 * (size_t)list[s],
                           delta);
    }
}

/* The global error of ns_fc_error with the threads of the coloured
 * sweeps: u = W r + q and each contact's squared error block row by block
 * row in parallel (rows are independent: each thread writes its own u_α
 * and eb[α]), then the sum in contact order on one thread, so that the
 * value does not depend on the thread count; scaled as every FC error
 * (ns_fc_vi_error_scaled, qn = ‖q‖). u's products are summed in another
 * order than ns_fc_error's gemv, so the two may differ in the last bits
 * (the driver recomputes the error of the returned r). eb: nc doubles. */
/* u_α = (W r + q)_α and contact α's squared error (one block row). */
static inline double error_row(const ns_fc *view, const ns_block *B, const double *r, double *u, ns_int a)
{
    const int d = view->dim;
    double *ua = u + (size_t)a * d;
    const double *ra = r + (size_t)a * d;
    row_rhs(B, view->q, r, d, a, ua);
    const double *Wd = B->x + B->value_ptr[B->diag[a]];
    for (int i = 0; i < d; i++) {
        double acc = ua[i];
        for (int j = 0; j < d; j++) acc += Wd[i + j * d] * ra[j];
        ua[i] = acc;
    }
    return ns_fc_contact_error_sq(d, view->mu[a], ra, ua);
}

static double coloured_error(const ns_fc *view, const ns_block *B, const double *r, double *u,
                             double qn, ns_fc_norm norm, int threads, double *eb)
{
    const ns_int nc = view->nc;
#ifdef _OPENMP
    if (threads > 1) {
#pragma omp parallel for schedule(static) num_threads(threads)
        for (ns_int a = 0; a < nc; a++) eb[a] = error_row(view, B, r, u, a);
    } else   /* one thread: no OpenMP region (see coloured_sweep) */
#endif
        for (ns_int a = 0; a < nc; a++) eb[a] = error_row(view, B, r, u, a);
    (void)threads;
    double sum = 0.0;
    for (ns_int a = 0; a < nc; a++) sum += eb[a];
    return ns_fc_vi_error_scaled(view, r, u, sum, qn, norm);
}

/* Anderson acceleration of the sweep map G (r_next = G(r)), type II with
 * memory m: with f = G(x) − x, ΔF and ΔG the differences of the last m
 * f's and G's, γ = argmin ‖f_k − ΔF γ‖ (normal equations, the Gram matrix
 * ΔFᵀΔF updated by one row per sweep, a relative Tikhonov term 1e-12 for
 * rank loss) and the next iterate x = G(x_k) − ΔG γ, projected contact by
 * contact on the cones. Safeguards: a sweep from an extrapolated point
 * whose ‖f‖ exceeds the previous one is undone (back to the plain sweep's
 * result, history dropped, one plain sweep before extrapolating again);
 * and (in ns_fc_nsgs_run_ctl) two global error checks in a row that do
 * not lower the best so far by 3 % (after the first AA_GRACE sweeps) end
 * the acceleration for the solve. Measured on a
 * settled 1000-sphere pile (2080 contacts, cold start): 1424 -> 211 sweeps
 * at tol 1e-4, 28744 -> 2160 at 1e-6; on a regular lattice stack at 1e-6,
 * where the extrapolations keep failing, 1146 -> 1629. Cost per
 * sweep: about 6m + 2 flops per unknown in two passes over memory (the
 * new column with its Gram row and b; the extrapolation; f and ‖f‖ come
 * from the sweep's own increments) and the projection of the points
 * outside their cones, against ~30 flops per unknown for a sweep of a
 * pile's W: about 10 % of a sweep on the settled pile (perf).
 * Workspace: (2m + 3) × n doubles. */


typedef struct anderson {
    int m, k, next, len;     /* memory, columns stored, slot to overwrite, n */
    double *dF, *dG;         /* m columns each (ring of slots) */
    double *fprev, *gprev;   /* f and G of the previous sweep */
    double gram[16 * 16];    /* dF_i · dF_j over the slots */
    double fn_prev;
    int have_prev;
    int extrapolated;        /* the current x came from an extrapolation */
    int rejected;            /* extrapolations undone */
    int cooldown;            /* plain sweeps before extrapolating again */
} anderson;


/* One pass: the newest history column (df = f − fprev into dFs, G's change
 * into dGs, f and G kept in fprev, gprev) and the sums s = (df·df, df·f,
 * df·O1, O1·f, df·O2, O2·f) over the `no` other columns O1, O2 (0–2, a
 * constant once inlined). */
static inline void entry_sums(int n, const double *restrict r, const double *restrict fx,
                              double *restrict fprev, double *restrict gprev,
                              double *restrict dFs, double *restrict dGs,
                              const double *restrict O1, const double *restrict O2, const int no,
                              double s[6])
{
    double gs = 0.0, bs = 0.0, g1 = 0.0, b1 = 0.0, g2 = 0.0, b2 = 0.0;
#pragma omp simd reduction(+ : gs, bs, g1, b1, g2, b2)
    for (int i = 0; i < n; i++) {
        const double f = fx[i], df = f - fprev[i];
        dFs[i] = df;
        dGs[i] = r[i] - gprev[i];
        fprev[i] = f;
        gprev[i] = r[i];
        gs += df * df;
        bs += df * f;
        if (no > 0) { g1 += df * O1[i]; b1 += O1[i] * f; }
        if (no > 1) { g2 += df * O2[i]; b2 += O2[i] * f; }
    }
    s[0] = gs; s[1] = bs; s[2] = g1; s[3] = b1; s[4] = g2; s[5] = b2;
}

/* r −= g0 G0 + g1 G1 + g2 G2, in that order (a zero g leaves the sum as
 * the general loop makes it: x − 0·y = x for finite y) */
static inline void extrapolate3(int n, double *restrict r, const double *restrict G0,
                                const double *restrict G1, const double *restrict G2,
                                double g0, double g1, double g2)
{
    for (int t = 0; t < n; t++) r[t] = r[t] - g0 * G0[t] - g1 * G1[t] - g2 * G2[t];
}

/* r holds G(x); fn2 = ‖G(x) − x‖², which the sweep has summed from its
 * contacts' increments */
static void anderson_step(anderson *A, const ns_fc *view, double *r, const double *fx, double fn2, int extrapolate)
{
    const int n = A->len, m = A->m;
    double fn = sqrt(fn2);
    if (A->have_prev && A->extrapolated && fn > A->fn_prev) {
        /* the sweep from the extrapolated point did worse than the plain
         * sweep before it: back to that plain sweep's result, history
         * dropped */
        memcpy(r, A->gprev, (size_t)n * sizeof *r);
        A->k = 0; A->next = 0; A->have_prev = 0; A->extrapolated = 0;
        A->rejected++;
        A->cooldown = 1;
        return;
    }
    /* The newest column (f − fprev, G − gprev) into its slot and the
     * products the normal equations need: the new Gram row ΔF_slᵀΔF_j and
     * b_j = ΔF_jᵀ f. f is the sweep's own increments, written by the
     * sweep: no copy of r before it. */
    double bacc[16] = { 0 };
    if (A->have_prev) {
        const int sl = A->next, kn = A->k < m ? A->k + 1 : m;
        double *dFs = A->dF + (size_t)sl * n, *dGs = A->dG + (size_t)sl * n;
        double gacc[16] = { 0 };
        /* the new slot's own products from df itself, up to two other
         * columns' in the same pass: no column is both written and read,
         * so the sums vectorise (in the vector lanes' order); with a longer
         * memory the others' products take a pass each */
        int oth[16], no = 0;
        for (int j = 0; j < kn; j++) if (j != sl) oth[no++] = j;
        const int in_pass = no < 2 ? no : 2;
        double s[6];
        const double *O1 = A->dF + (size_t)(no > 0 ? oth[0] : sl) * n;
        const double *O2 = A->dF + (size_t)(no > 1 ? oth[1] : sl) * n;
        if (in_pass == 0) entry_sums(n, r, fx, A->fprev, A->gprev, dFs, dGs, O1, O2, 0, s);
        else if (in_pass == 1) entry_sums(n, r, fx, A->fprev, A->gprev, dFs, dGs, O1, O2, 1, s);
        else entry_sums(n, r, fx, A->fprev, A->gprev, dFs, dGs, O1, O2, 2, s);
        gacc[sl] = s[0]; bacc[sl] = s[1];
        for (int t = 0; t < in_pass; t++) { gacc[oth[t]] = s[2 + 2 * t]; bacc[oth[t]] = s[3 + 2 * t]; }
        for (int t = 2; t < no; t++) {
            const double *D = A->dF + (size_t)oth[t] * n;
            double g = 0.0, b = 0.0;
#pragma omp simd reduction(+ : g, b)
            for (int i = 0; i < n; i++) { g += dFs[i] * D[i]; b += D[i] * fx[i]; }
            gacc[oth[t]] = g; bacc[oth[t]] = b;
        }
        A->k = kn;
        A->next = (sl + 1) % m;
        for (int j = 0; j < kn; j++) A->gram[sl + 16 * j] = A->gram[j + 16 * sl] = gacc[j];
    } else {
        for (int i = 0; i < n; i++) { A->fprev[i] = fx[i]; A->gprev[i] = r[i]; }
    }
    A->fn_prev = fn;
    A->have_prev = 1;
    const int k = A->k;
    A->extrapolated = 0;
    if (k == 0 || !extrapolate) return;
    double M[16 * 16], b[16], g[16], tr = 0.0;
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++) M[i + k * j] = A->gram[i + 16 * j];
        b[i] = bacc[i];
        tr += M[i + k * i];
    }
    if (!(tr > 0.0)) { A->k = 0; A->next = 0; return; }
    for (int i = 0; i < k; i++) M[i + k * i] += 1e-12 * tr;
    for (int j = 0; j < k; j++) {           /* Cholesky, then two substitutions */
        double d = M[j + k * j];
        for (int t = 0; t < j; t++) d -= M[j + k * t] * M[j + k * t];
        if (!(d > 0.0)) { A->k = 0; A->next = 0; return; }
        d = sqrt(d);
        M[j + k * j] = d;
        for (int i = j + 1; i < k; i++) {
            double s = M[i + k * j];
            for (int t = 0; t < j; t++) s -= M[i + k * t] * M[j + k * t];
            M[i + k * j] = s / d;
        }
    }
    for (int i = 0; i < k; i++) {
        double s = b[i];
        for (int t = 0; t < i; t++) s -= M[i + k * t] * g[t];
        g[i] = s / M[i + k * i];
    }
    for (int i = k - 1; i >= 0; i--) {
        double s = g[i];
        for (int t = i + 1; t < k; t++) s -= M[t + k * i] * g[t];
        g[i] = s / M[i + k * i];
    }
    if (k <= 3) extrapolate3(n, r, A->dG, A->dG + (size_t)(k > 1) * n, A->dG + (size_t)(k > 2) * 2 * n,
                             g[0], k > 1 ? g[1] : 0.0, k > 2 ? g[2] : 0.0);
    else
        for (int t = 0; t < n; t++) {   /* r −= Σ_j g_j ΔG_j, j in order */
            double s = r[t];
            for (int j = 0; j < k; j++) s -= g[j] * A->dG[(size_t)j * n + t];
            r[t] = s;
        }
    const int d = view->dim;
    ns_fc_project_cones(d, view->nc, view->mu, r, 0);
    A->extrapolated = 1;
}

/* The sweeps' buffers come from the caller's workspace (o->workspace:
 * nothing allocated once it has grown to the problem) or, without one,
 * are allocated here; ws_done gives them back or frees them. */
static void ws_done(ns_workspace *ws, void *order, void *inc, void *aw)
{
    ns_ws_give(ws, 0, order); ns_ws_give(ws, 1, inc); ns_ws_give(ws, 2, aw);
}

/* The handover (ns_fc_nsgs_ctl.more) asks this margin over both the
 * sweeps made and the other method's predicted cost. The rate of the
 * stall test's halves is pessimistic while Anderson's plateaus last: on
 * the settled 10³-sphere pile and the 385-sphere pyramid at 1e-4 the
 * prediction was 1.2-5 times the sweeps made and 1-3 times a Newton probe
 * where the sweeps then converged and Newton did not help; on the rigid
 * stacks and walls at 1e-8, where Newton converges in a few dozen
 * iterations and the sweeps crawl for 10⁴-10⁵ sweeps, 20-2·10⁴ times both */
#define HANDOVER_MARGIN 10.0

/* The stall test's memory: the best error at the checks where it fell
 * by 3 % or more since the last entry (a decreasing sequence, so the best
 * up to any sweep is the last entry at or before it). 1024 entries span
 * 13 decades; a longer run forgets every other entry. */
enum { STALL_LOG = 1024 };
typedef struct { int n; int sweep[STALL_LOG]; double err[STALL_LOG]; } stall_log;

static void stall_note(stall_log *L, int sweep, double e)
{
    if (L->n > 0 && !(e < 0.97 * L->err[L->n - 1])) return;
    if (L->n == STALL_LOG) {
        int k = 0;
        for (int i = 0; i < L->n; i += 2, k++) { L->sweep[k] = L->sweep[i]; L->err[k] = L->err[i]; }
        L->n = k;
    }
    L->sweep[L->n] = sweep;
    L->err[L->n] = e;
    L->n++;
}

/* The best error noted up to sweep s (INFINITY: none yet). */
static double stall_best_until(const stall_log *L, int s)
{
    double b = INFINITY;
    for (int i = 0; i < L->n && L->sweep[i] <= s; i++) b = L->err[i];
    return b;
}

double ns_fc_sweep_work(const ns_fc *view)
{
    return NS_FC_WORK_BLOCK * (double)view->W->block.nblocks + NS_FC_WORK_CONTACT * (double)view->nc;
}

ns_status ns_fc_nsgs_run(const ns_fc *view, double *r, double *u,
                         const ns_options *o, ns_fc_local_fn f, ns_result *res)
{
    return ns_fc_nsgs_run_ctl(view, r, u, o, f, res, NULL);
}

ns_status ns_fc_nsgs_run_ctl(const ns_fc *view, double *r, double *u, const ns_options *o,
                             ns_fc_local_fn f, ns_result *res, ns_fc_nsgs_ctl *ctl)
{
    const ns_int nc = view->nc;
    const ns_block *B = &view->W->block;
    const double omega = o->omega > 0 ? o->omega : 1.0;
    const int every = o->check_every;
    const double ltol = fmin(1e-12, 0.1 * o->tol);
    const int coloured = o->threads > 0;
    /* order (nc); coloured: start (nc + 1), list (nc), work (2 nc + 1), inc (2 nc doubles) */
    size_t nint = coloured ? 5 * (size_t)nc + 2 : (size_t)nc + 1;
    ns_workspace *ws = o->workspace;
    ns_int *order = ns_ws_take(ws, 0, nint, sizeof(ns_int));
    /* inc (2 nc), then each contact's rho_n, rho_t (2 nc) */
    double *inc = ns_ws_take(ws, 1, 4 * (size_t)nc + 1, sizeof(double));
    if (!order || !inc) {
        ws_done(ws, order, inc, NULL);
        return ns_fail(res->message, NS_NO_MEMORY, "nsgs: out of memory");
    }
    double *rho = inc + 2 * (size_t)nc;
    for (ns_int a = 0; a < nc; a++)
        ns_fc_contact_rho(view->dim, B->x + B->value_ptr[B->diag[a]], rho + 2 * (size_t)a);
    for (ns_int i = 0; i < nc; i++) order[i] = i;
    ns_int ncol = 0, *cstart = NULL, *clist = NULL;
    double qn = 0.0;   /* ‖q‖, for the coloured error check */
    anderson A = { 0 };
    double *aw = NULL;
    if (o->anderson > 0) {
        const size_t n = (size_t)view->dim * (size_t)nc;
        A.m = o->anderson;
        A.len = (int)n;
        aw = ns_ws_take(ws, 2, (2 * (size_t)A.m + 3) * n + 1, sizeof(double));
        if (!aw) {
            ws_done(ws, order, inc, NULL);
            return ns_fail(res->message, NS_NO_MEMORY, "nsgs: out of memory");
        }
        A.dF = aw; A.dG = aw + (size_t)A.m * n;
        A.fprev = A.dG + (size_t)A.m * n; A.gprev = A.fprev + n;
    }
    double *fbuf = aw ? A.gprev + (size_t)A.len : NULL;   /* f = G(x) − x, the sweep's increments */
    int coloured_ok = coloured;
    for (ns_int a = 0; coloured_ok && a < nc; a++)   /* W_αβ stored ⇔ W_βα stored? */
        for (ns_int k = B->row_ptr[a]; coloured_ok && k < B->row_ptr[a + 1]; k++)
            if (ns_block_find(B, B->block_col[k], a) < 0) coloured_ok = 0;
    if (coloured && !coloured_ok)
        ns_log(o, 1, "nsgs: W's block structure is not symmetric: serial sweeps instead of colours");
    if (coloured_ok) {
        cstart = order + nc;
        clist = cstart + nc + 1;
        ncol = colour_contacts(B, nc, cstart, clist, clist + nc);
        qn = ns_norm2(view->q, (size_t)view->dim * (size_t)nc);
        ns_log(o, 2, "nsgs: %d contacts in %d colours, %d threads", (int)nc, (int)ncol, o->threads);
    }
    uint64_t seed = (uint64_t)o->seed * 0x9E3779B97F4A7C15ULL + 1;
    ns_status st = NS_MAX_ITER;
    double t0 = ns_now();
    res->error = ctl && ctl->start_err >= 0 ? ctl->start_err
                                            : ns_fc_error(view, r, u, (ns_fc_norm)o->fc_norm);
    const size_t len = (size_t)view->dim * (size_t)nc;
    stall_log *slog = NULL;
    double more_sweeps = -1.0;   /* ctl->more's answer, once asked */
    if (ctl) {
        ctl->stalled = 0;
        ctl->slow = 0;
        ctl->anderson_off = 0;
        if (ctl->best && res->error < ctl->best_err) {
            ctl->best_err = res->error;
            memcpy(ctl->best, r, len * sizeof *r);
        }
        if (ctl->min_sweeps > 0 && !(slog = ns_ws_take(ws, 4, 1, sizeof *slog))) {
            ws_done(ws, order, inc, aw);
            return ns_fail(res->message, NS_NO_MEMORY, "nsgs: out of memory");
        }
        if (slog) slog->n = 0;
    }
    if (res->error <= o->tol) { ws_done(ws, order, inc, aw); ns_ws_give(ws, 4, slog); return NS_CONVERGED; }
    double kappa = 1.0, best_error = res->error;
    int last_check = 0, aa_misses = 0;
    for (int it = 1; it <= o->max_iter; it++) {
        int backward = o->sweep == 1 && it % 2 == 0;
        double dr2 = 0.0, r2 = 0.0;
        double *fx = fbuf && A.m > 0 ? fbuf : NULL;   /* the sweep's increments, while Anderson is on */
        if (coloured_ok) {
            coloured_sweep(view, B, r, f, omega, ltol, cstart, clist, ncol, backward, o->threads, rho, inc,
                           fx);
            for (ns_int a = 0; a < nc; a++) { dr2 += inc[2 * a]; r2 += inc[2 * a + 1]; }
        } else {
            if (o->shuffle)
                for (ns_int i = nc - 1; i > 0; i--) {
                    ns_int j = (ns_int)(next_rand(&seed) % (uint64_t)(i + 1));
                    ns_int t = order[i]; order[i] = order[j]; order[j] = t;
                }
            for (ns_int s = 0; s < nc; s++) {
                ns_int a = order[backward ? nc - 1 - s : s];
                update_contact(view, B, r, a, f, omega, ltol, rho, inc, fx);
                dr2 += inc[0];
                r2 += inc[1];
            }
        }
        res->iterations = it;
        double light = r2 > 0 ? sqrt(dr2 / r2) : sqrt(dr2);
        int check = it == o->max_iter || !isfinite(light);
        int near = 0;
        if (every > 0) check |= it % every == 0;
        else {
            near = kappa * light <= o->tol;
            check |= near
                    || it - last_check >= (last_check < CHECK_GAP ? (last_check > 1 ? last_check : 1) : CHECK_GAP)
                    || (aa_misses > 0 && A.m > 0 && it - last_check >= AA_RECHECK);
        }
        /* A sweep whose increments say the tolerance is reached is checked
         * as it is, not extrapolated first: from a warm start the
         * extrapolation made on the second sweep pushed solves that plain
         * sweeps end there to a third (the history still takes the sweep) */
        if (fx) {
            if (A.cooldown > 0) A.cooldown--;
            else anderson_step(&A, view, r, fx, dr2, !near);
        }
        int late = o->time_limit > 0 && ns_now() - t0 > o->time_limit;
        if (!check && !late) {
            /* the history holds the global error of the sweeps that computed it */
            if (ns_iteration(o, res, NAN)) { st = NS_INTERRUPTED; break; }
            continue;
        }
        res->error = coloured_ok
                         ? coloured_error(view, B, r, u, qn, (ns_fc_norm)o->fc_norm, o->threads, inc)
                         : ns_fc_error(view, r, u, (ns_fc_norm)o->fc_norm);
        last_check = it;
        if (light > 0 && isfinite(res->error)) kappa = res->error / light;
        ns_log(o, 2, "nsgs sweep %d error %.3e (light %.3e)", it, res->error, light);
        int stop = ns_iteration(o, res, res->error);
        if (ctl && ctl->best && res->error < ctl->best_err) {
            ctl->best_err = res->error;
            memcpy(ctl->best, r, len * sizeof *r);
        }
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        if (slog) {
            stall_note(slog, it, res->error);
            if (it >= ctl->min_sweeps) {
                double half = stall_best_until(slog, it / 2), now = slog->err[slog->n - 1];
                if (isfinite(half) && !(now < ctl->factor * half)) {
                    ns_log(o, 2, "nsgs: stalled at sweep %d (best %.3e, %.3e by sweep %d)", it, now,
                           half, it / 2);
                    ctl->stalled = 1;
                    break;
                }
                if (ctl->more && isfinite(half) && now > o->tol) {
                    const double need = it * (pow(now / o->tol, 1.0 / log2(half / now)) - 1.0);
                    const double bar = HANDOVER_MARGIN * it;
                    if (need > bar && more_sweeps < 0) {
                        more_sweeps = ctl->more(ctl->more_ctx);
                        if (!(more_sweeps >= 0)) more_sweeps = INFINITY;   /* no prediction */
                    }
                    if (need > bar && need > HANDOVER_MARGIN * more_sweeps) {
                        ns_log(o, 2, "nsgs: slow at sweep %d (%.3e, %.3e by sweep %d): %.3g sweeps "
                               "more at this rate, the other method %.3g", it, now, half, it / 2,
                               need, more_sweeps);
                        ctl->stalled = ctl->slow = 1;
                        break;
                    }
                }
            }
        }
        /* Anderson's safety net: two global checks in a row that do not
         * lower the best error by 3 % (AA_PROGRESS) end the acceleration;
         * plain sweeps go on from there. After a check that missed, the
         * next comes AA_RECHECK sweeps later, not CHECK_GAP. A rule that
         * counted any decrease as progress let plateaus run on: on one
         * settled-pile problem the accelerated sweeps crept from 1.19e-4 to
         * 1.18e-4 over 2 500 sweeps where plain sweeps converged in 414
         * (8.3 times their time). Over the pile's 500 problems of steps
         * 1500-2000 the accelerated solves that took more than 1.2 times
         * plain sweeps' time went from 10 to 2, the mean time by -5 %; the
         * lattice stack of test_fc_colour at 1e-6 from 2014 to 1359 sweeps
         * (plain 1146). The checks of the first AA_GRACE sweeps only set the
         * reference: from a warm start the first sweeps raise the error
         * before lowering it (the step's changes spread through the
         * contacts), and judging them against the start ended the
         * acceleration at once on 92 of 500 settled-pile problems
         * (docs/scale.md). */
        if (fx) {
            if (it <= AA_GRACE || res->error < AA_PROGRESS * best_error) { best_error = res->error; aa_misses = 0; }
            else if (++aa_misses >= 2) {
                A.m = 0;
                if (ctl) ctl->anderson_off = 1;
                ns_log(o, 2, "nsgs: Anderson off at sweep %d", it);
            }
        }
        if (late) { st = NS_TIME_LIMIT; break; }
        if (stop) { st = NS_INTERRUPTED; break; }
    }
    ws_done(ws, order, inc, aw);
    ns_ws_give(ws, 4, slog);
    return st;
}

static ns_status nsgs_with(const ns_fc *p, double *r, double *u, const ns_options *o,
                           ns_fc_local_fn f, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st == NS_OK) st = ns_fc_nsgs_run(&view, r, u, o, f, res);
    ns_matrix_free(owned);
    return st;
}

ns_status ns_fc3d_nsgs(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    ns_fc_local_fn f = ns_fc_local_find(o->local_solver);
    if (!f) return ns_fail(res->message, NS_BAD_INPUT,
                           "nsgs: local_solver '%s' is not one of ac, fb, nm, proj, enum",
                           o->local_solver);
    return nsgs_with(p, r, u, o, f, res);
}
ns_status ns_fc3d_nsgs_ac(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsgs_with(p, r, u, o, ns_fc_local_ac, res); }
ns_status ns_fc3d_nsgs_fb(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsgs_with(p, r, u, o, ns_fc_local_fb, res); }
ns_status ns_fc3d_nsgs_nm(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsgs_with(p, r, u, o, ns_fc_local_nm, res); }
ns_status ns_fc3d_nsgs_proj(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsgs_with(p, r, u, o, ns_fc_local_proj, res); }
