/* fc3d_nsn.c — global semismooth Newton for FC2D/FC3D on
 *     Φ(r) = (Φ_α(r_α, u_α))_α = 0,   u = W r + q,
 * Φ_α the ac, fb or nm residual of fc3d_phi.c, with ρ_N = ρ_T = 1/‖W_αα‖₂
 * per contact (spectral norm of the diagonal block, as Siconos' NSN-AC
 * default; 1/W_NN and 1/W_TT separately stall on some Capsules files).
 * The generalized Jacobian
 *     J = blockdiag(A_α) + blockdiag(B_α) W
 * has W's block pattern and is dimensionless (Φ has the units of r). It is
 * written straight into a CSC array whose pattern is W's full block
 * pattern (every stored block d×d, zeros kept), so UMFPACK's symbolic
 * analysis is done once per solve and only the numeric factorization is
 * repeated (no conversion, no re-analysis when a contact changes state).
 * Step: regularized semismooth Newton (Levenberg–Marquardt-like, as in
 * Facchinei–Kanzow / Yamashita–Fukushima with λ ∝ ‖Φ‖):
 *     (J + λ_k D) δ = −Φ,   D = diag(‖J_i,:‖_∞),
 *     λ_k = min(1, e_k, ‖Φ(r_k)‖ / max(‖Φ(r_0)‖, ‖r_k‖)),
 * e_k the relative error of the current iterate, so λ_k → 0 at the
 * solution (fast local convergence) while far from it the step stays
 * short where J is near-singular. The first step is the plain one
 * (λ_1 = 0), as Siconos' NSN_AC takes every step: on problems of a few
 * contacts that one step often solves, or nearly, what the damped steps
 * took 2–4 iterations for (FC3D_Example1: 1 iteration instead of 4, the
 * Rover files 1–2 fewer, Capsules-i122-1617 15 instead of 38), and over
 * ../shared/data every nsn variant and auto solve as many problems as with
 * λ_1 > 0 (some hard ones take more iterations: RockPile_tob1 169 instead
 * of 97). On the dense path (n ≤ NSN_DENSE_MAX) the later steps are tried
 * plain too, and the plain step is kept only when the line search takes
 * it whole (t = 1); otherwise the step is redone damped, at the cost of a
 * second small factorization: near a solution the plain steps converge
 * quadratically where λ_k ∝ e_k slows the first of them (Rover4493: 5
 * iterations to 4, the path of Siconos' NSN_AC to the digit; six other
 * Rover files and four other fc2d/fc3d files one to three fewer, none more
 * over ../shared/data and data/). Plain steps shortened by the line search stay
 * out: kept on BoxesStack1 they took it from 13 iterations to 141; and
 * on the sparse path even full plain steps took the granular flow
 * 07002_00801 from 167 iterations to more than 700. Not for the fb
 * residual either (BoxesStack1 474 → 656 iterations, one OneObject file
 * 57 → 69, the other 132 → 13). (The Φ term keeps λ small where the
 * residual is already small although e_k is not: FB with μ = 1e6 otherwise
 * crawls at e ≈ 0.4 with λ ≈ 0.4 ≫ the 1/μ-sized part of J.) Without it the plain step needed line
 * search steps of 1e-6 for hundreds of iterations on KaplasTower,
 * RockPile and the LMGC periodic box. Then a line search on θ = ½‖Φ‖²
 * (u moves linearly: u + tWδ; along the plain Newton step the slope of θ
 * is −2θ):
 *   - non-monotone Armijo (default; Grippo–Lampariello–Lucidi, reference =
 *     max of the last 10 θ): θ(r + tδ) ≤ θ_ref − 2σtθ, σ = 1e-4, t halved;
 *   - Goldstein–Price (the -gp solver variant): 2m₂tθ ≥ θ − θ(r + tδ)
 *     ≥ 2m₁tθ (m₁ = 0.1, m₂ = 0.9), t bisected inside [t_lo, t_hi] ⊂ (0, 1];
 *     if no t meets both, the best decreasing t tried is taken.
 * A singular J (zero pivot, or a non-finite step), or a step the line
 * search rejects, is retried with λ raised (at least 1e-10, ×100, up to 7
 * times; lowered again after a success); if that fails too the solve ends
 * with NS_SINGULAR or NS_MAX_ITER and the best iterate (never a
 * non-finite one). fb and nm switch to the ac residual for the last steps
 * when they stall below an error of 1e-5 (3 iterations without halving the
 * error): their merits stop tracking the error there (FB hovers at 1e-6 on
 * Capsules-i101-404 while ½‖Φ‖² decreases) and their scaled residuals
 * reach a rounding floor of about μ·ε in r (FB with μ = 1e6 stops at
 * 2e-11); ac's does not.
 * Lagged steps (a cache with ns_fc_nsn_cache_krylov, prox's inner solves):
 * on the sparse path the step is first sought by GMRES on J, right-
 * preconditioned with the factorization of an earlier iteration, to a
 * relative residual of 1e-3 within 12 iterations (abandoned after 4 above
 * 0.1); J is factored only when that misses (and then GMRES waits 1, 2,
 * 4, 8 iterations after misses in a row) or when the line search refuses
 * the lagged step. A GMRES
 * iteration is one solve with the kept L and U and one product with J,
 * ~1/13 of a numeric factorization on a settled pile's J.
 * Registered as nsn-ac, nsn-fb, nsn-nm, nsn-ac-gp. */
#include "fc/fc3d_internal.h"
#include "solve/solvers.h"
#include "matrix/factor_internal.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <umfpack.h>

enum { LS_ARMIJO = 0, LS_GOLDSTEIN = 1 };

/* J in CSC with W's full block pattern; slot[k] = rank of block k among the
 * blocks of its block column (block rows increasing), so entry (i, j) of
 * block k = (a, b) sits at p[b·d + j] + slot[k]·d + i. */
typedef struct nsn_lu {
    ns_int n;
    ns_int *p, *i, *slot;
    double *x;
    void *symbolic, *numeric;
    double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
    double *dense;        /* n ≤ NSN_DENSE_MAX: J dense (column-major), LAPACK LU */
    lapack_int *ipiv;
    double pred_work;     /* predicted work of a first iteration (0: not yet predicted) */
    int krylov;           /* steps by GMRES preconditioned with the last factorization */
    int kry_fresh;        /* numeric is J's own (factored this iteration) */
    int kry_skip, kry_wait;   /* after a miss: iterations left without GMRES, next wait */
    double *kv;           /* GMRES basis, (NSN_KRYLOV + 2) vectors of n */
    long kry_its, kry_ok, kry_miss;   /* counts (log) */
} nsn_lu;

struct ns_fc_nsn_cache {
    nsn_lu L;
};

/* Unknowns up to which J is factored dense (LAPACK's LU with partial
 * pivoting) instead of by UMFPACK: on small problems UMFPACK's analysis
 * and bookkeeping cost more than the arithmetic (a 5-contact problem:
 * 62 % of a solve in UMFPACK). The rolling Newton measured its crossover
 * between 185 and 325 unknowns; the same bound is used here. */
#define NSN_DENSE_MAX 192

static void lu_free(nsn_lu *L)
{
    if (L->numeric) umfpack_di_free_numeric(&L->numeric);
    if (L->symbolic) umfpack_di_free_symbolic(&L->symbolic);
    free(L->p); free(L->i); free(L->slot); free(L->x);
    free(L->dense); free(L->ipiv); free(L->kv);
}

/* The dense path of lu_solve: J, filled into the column-major n×n array
 * L->dense by lu_fill, LU with partial pivoting, x ← J⁻¹ b. Same returns
 * as lu_solve. */
static int lu_solve_dense(nsn_lu *L, const double *b, double *x, char *err)
{
    const size_t n = (size_t)L->n;
    /* one dgesv, not dgetrf then dgetrs: OpenBLAS sets up its buffers once
     * per call, a tenth of a 15-unknown factorization and solve */
    memcpy(x, b, n * sizeof *x);
    lapack_int info = LAPACKE_dgesv_work(LAPACK_COL_MAJOR, (lapack_int)n, 1, L->dense,
                                         (lapack_int)n, L->ipiv, x, (lapack_int)n);
    if (info > 0) { snprintf(err, NS_ERRMSG_LEN, "LU: zero pivot"); return 1; }
    if (info < 0) { snprintf(err, NS_ERRMSG_LEN, "LAPACK dgesv failed (info %d)", (int)info); return 2; }
    return ns_all_finite(x, n) ? 0 : 1;
}

/* Pattern of W's blocks in CSC (p and slot; the row indices and values
 * only for UMFPACK, above NSN_DENSE_MAX unknowns, else the dense array);
 * 0 or 1 (out of memory). */
static int lu_pattern(nsn_lu *L, const ns_block *WB, int d)
{
    const ns_int nb = WB->block_rows, nbl = WB->nblocks;
    L->n = nb * d;
    L->p = calloc((size_t)L->n + 1, sizeof(ns_int));
    L->slot = ns_malloc((size_t)nbl + 1, sizeof(ns_int));
    ns_int *cnt = calloc((size_t)nb + 1, sizeof(ns_int));
    if (!L->p || !L->slot || !cnt) { free(cnt); return 1; }
    for (ns_int a = 0; a < nb; a++)
        for (ns_int k = WB->row_ptr[a]; k < WB->row_ptr[a + 1]; k++)
            L->slot[k] = cnt[WB->block_col[k]]++;
    for (ns_int b = 0; b < nb; b++)
        for (int j = 0; j < d; j++)
            L->p[b * d + j + 1] = L->p[b * d + j] + cnt[b] * d;
    if (L->n <= NSN_DENSE_MAX) {   /* J goes straight into the dense array */
        free(cnt);
        L->dense = ns_malloc((size_t)L->n * (size_t)L->n + 1, sizeof *L->dense);
        L->ipiv = ns_malloc((size_t)L->n + 1, sizeof *L->ipiv);
        return !L->dense || !L->ipiv;
    }
    const size_t nnz = (size_t)L->p[L->n];
    L->i = ns_malloc(nnz + 1, sizeof(ns_int));
    L->x = calloc(nnz + 1, sizeof(double));
    if (!L->i || !L->x) { free(cnt); return 1; }
    for (ns_int a = 0; a < nb; a++)
        for (ns_int k = WB->row_ptr[a]; k < WB->row_ptr[a + 1]; k++) {
            ns_int b = WB->block_col[k];
            for (int j = 0; j < d; j++)
                for (int i = 0; i < d; i++)
                    L->i[L->p[b * d + j] + L->slot[k] * d + i] = a * d + i;
        }
    free(cnt);
    umfpack_di_defaults(L->control);
    L->control[UMFPACK_PRL] = 0;
    L->control[UMFPACK_IRSTEP] = 0; /* the Newton iteration corrects the step */
    return 0;
}

/* One 3×3 block of J, B W_k (+ A on the diagonal block, A NULL off it),
 * into the columns c0, c1, c2; rmax[i] ← max(rmax[i], |row i|). Unrolled
 * by hand, the same operations in the same order as block_fill_col's loops
 * (GCC keeps those rolled even for d = 3: ~330 instructions a block, ~80
 * here). */
static inline void block_fill3(const double *A, const double *B, const double *W, double *c0,
                               double *c1, double *c2, double *rmax)
{
    double *c[3] = { c0, c1, c2 };
    for (int j = 0; j < 3; j++) {
        const double w0 = W[3 * j], w1 = W[3 * j + 1], w2 = W[3 * j + 2];
        double s0 = A ? A[3 * j] : 0.0, s1 = A ? A[3 * j + 1] : 0.0, s2 = A ? A[3 * j + 2] : 0.0;
        s0 += B[0] * w0; s0 += B[3] * w1; s0 += B[6] * w2;
        s1 += B[1] * w0; s1 += B[4] * w1; s1 += B[7] * w2;
        s2 += B[2] * w0; s2 += B[5] * w1; s2 += B[8] * w2;
        c[j][0] = s0; c[j][1] = s1; c[j][2] = s2;
        const double a0 = fabs(s0), a1 = fabs(s1), a2 = fabs(s2);
        if (a0 > rmax[0]) rmax[0] = a0;
        if (a1 > rmax[1]) rmax[1] = a1;
        if (a2 > rmax[2]) rmax[2] = a2;
    }
}

/* Column j of one d×d block of J, B W_k e_j (+ A e_j on the diagonal
 * block, A NULL off it), into Jc; rmax[i] ← max(rmax[i], |J_ij|). */
static inline void block_fill_col(int d, const double *A, const double *B, const double *W, int j,
                                  double *Jc, double *rmax)
{
    const double *Wc = W + j * d;
    for (int i = 0; i < d; i++) {
        double s = A ? A[i + j * d] : 0.0;
        for (int l = 0; l < d; l++) s += B[i + l * d] * Wc[l];
        Jc[i] = s;
        const double as = fabs(s);   /* fmax without the call (s NaN: kept out) */
        if (as > rmax[i]) rmax[i] = as;
    }
}

/* J ← blockdiag(A) + blockdiag(B) W + reg·D, D the diagonal of the row
 * norms ‖J_i,:‖_∞ (so the regularization is relative to each row: FB with
 * a large μ has rows of size 1/μ), written into UMFPACK's CSC values L->x,
 * or on the dense path into the column-major n×n array L->dense (each
 * block in its place, the rest zero: filling the CSC values and then
 * scattering them cost ~35 instructions per entry of J, a sixth of a
 * 5-contact solve, Rover4609; this ~12). */
static inline void lu_fill_d(nsn_lu *L, const ns_block *WB, const int d, const int to_dense,
                             const double *AB, double reg)
{
    const ns_int nb = WB->block_rows;
    const size_t n = (size_t)L->n;
    double *dense = to_dense ? L->dense : NULL;
    if (dense) memset(dense, 0, n * n * sizeof *dense);
    for (ns_int a = 0; a < nb; a++) {
        const double *A = AB + 2 * (size_t)a * d * d, *B = A + d * d;
        double rmax[3] = { 0.0, 0.0, 0.0 };
        for (ns_int k = WB->row_ptr[a]; k < WB->row_ptr[a + 1]; k++) {
            const double *Wk = WB->x + WB->value_ptr[k];
            const ns_int b = WB->block_col[k];
            const double *Ak = k == WB->diag[a] ? A : NULL;
            /* the block's first column in J and the step to the next one */
            double *c0;
            size_t step;
            if (dense) {
                c0 = dense + (size_t)b * d * n + (size_t)a * d;
                step = n;
            } else {   /* the block's columns lie p[j + 1] − p[j] apart, the same for each j of b */
                c0 = L->x + L->p[b * d] + L->slot[k] * d;
                step = (size_t)(L->p[b * d + 1] - L->p[b * d]);
            }
            if (d == 3) block_fill3(Ak, B, Wk, c0, c0 + step, c0 + 2 * step, rmax);
            else for (int j = 0; j < d; j++) block_fill_col(d, Ak, B, Wk, j, c0 + (size_t)j * step, rmax);
        }
        if (reg > 0) {
            const ns_int k = WB->diag[a];
            for (int i = 0; i < d; i++) {
                double *Jii = dense ? dense + ((size_t)a * d + (size_t)i) * (n + 1)
                                    : L->x + L->p[a * d + i] + L->slot[k] * d + i;
                *Jii += reg * (rmax[i] > 0 ? rmax[i] : 1.0);
            }
        }
    }
}

/* d a constant in each call: the 3×3 (2×2) block products unrolled, ~3×
 * fewer instructions than with d read at run time (lu_fill was 27 % of a
 * 4-contact solve); same operations in the same order. */
#if defined(__GNUC__)
__attribute__((flatten))   /* each call below its own copy, d and to_dense constants in it */
#endif
static void lu_fill(nsn_lu *L, const ns_block *WB, int d, const double *AB, double reg)
{
    const int dense = L->dense != NULL;   /* a constant in each call too */
    if (d == 3 && dense) lu_fill_d(L, WB, 3, 1, AB, reg);
    else if (d == 3) lu_fill_d(L, WB, 3, 0, AB, reg);
    else if (d == 2 && dense) lu_fill_d(L, WB, 2, 1, AB, reg);
    else if (d == 2) lu_fill_d(L, WB, 2, 0, AB, reg);
    else lu_fill_d(L, WB, d, dense, AB, reg);
}

/* A run with a stall rule (prox's inner solves) also ends after NSN_FLAT
 * iterations in a row without a 1 % gain: an inner solve that fails
 * usually makes no progress at all from its first iteration (on
 * RockPile_tob1's prox, 1 754 Newton iterations became 1 625 with the same
 * outer steps on every fc2d/fc3d file of ../shared/data; 5 changed the
 * outer path of three files). */
#define NSN_FLAT 7

/* Above this many flops predicted for AMD's ordering, J is also ordered by
 * METIS (nested dissection), and the ordering with fewer predicted flops
 * is kept. On a settled pile of 2 393 spheres' contacts (7 179 unknowns)
 * METIS cuts the flops from 3.2e8 to 2.0e8 and an iteration's time by
 * 18 %; below ~5e7 flops (KaplasTower, the 10-layer pyramids) it gains
 * nothing and its ordering costs more than AMD's. */
#define NSN_METIS_FLOPS 1e8

static void try_metis(nsn_lu *L)
{
    double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
    memcpy(control, L->control, sizeof control);
    control[UMFPACK_ORDERING] = UMFPACK_ORDERING_METIS;
    void *sym = NULL;
    if (umfpack_di_symbolic(L->n, L->n, L->p, L->i, L->x, &sym, control, info) != UMFPACK_OK) {
        if (sym) umfpack_di_free_symbolic(&sym);
        return;   /* AMD's analysis stays */
    }
    if (info[UMFPACK_FLOPS_ESTIMATE] < L->info[UMFPACK_FLOPS_ESTIMATE]) {
        umfpack_di_free_symbolic(&L->symbolic);
        L->symbolic = sym;
        memcpy(L->info, info, sizeof info);
    } else
        umfpack_di_free_symbolic(&sym);
}

/* Numeric LU of L->x (dense LAPACK LU up to NSN_DENSE_MAX unknowns, else
 * UMFPACK with its symbolic analysis on the first call) and x ← J⁻¹ b.
 * 0 on success, 1 singular (zero pivot or non-finite solution), 2 out of
 * memory or another UMFPACK failure (message in err). */
static int lu_solve(nsn_lu *L, const double *b, double *x, char *err)
{
    if (L->n <= NSN_DENSE_MAX) return lu_solve_dense(L, b, x, err);
    int s;
    if (!L->symbolic) {
        s = umfpack_di_symbolic(L->n, L->n, L->p, L->i, L->x, &L->symbolic, L->control, L->info);
        if (s != UMFPACK_OK) {
            snprintf(err, NS_ERRMSG_LEN, "UMFPACK symbolic analysis failed (status %d)", s);
            return 2;
        }
        if (L->info[UMFPACK_FLOPS_ESTIMATE] > NSN_METIS_FLOPS) try_metis(L);
    }
    if (L->numeric) umfpack_di_free_numeric(&L->numeric);
    s = umfpack_di_numeric(L->p, L->i, L->x, L->symbolic, &L->numeric, L->control, L->info);
    if (s == UMFPACK_WARNING_singular_matrix || (s == UMFPACK_OK && !(L->info[UMFPACK_RCOND] > 0))) {
        snprintf(err, NS_ERRMSG_LEN, "UMFPACK: zero pivot");
        return 1;
    }
    if (s != UMFPACK_OK) {
        snprintf(err, NS_ERRMSG_LEN, "UMFPACK numeric factorization failed (status %d)", s);
        return 2;
    }
    s = umfpack_di_solve(UMFPACK_A, L->p, L->i, L->x, x, b, L->numeric, L->control, L->info);
    if (s == UMFPACK_WARNING_singular_matrix) return 1;
    if (s != UMFPACK_OK) {
        snprintf(err, NS_ERRMSG_LEN, "UMFPACK solve failed (status %d)", s);
        return 2;
    }
    return ns_all_finite(x, (size_t)L->n) ? 0 : 1;
}

/* GMRES iterations a lagged step may take before J is factored anew, and
 * the relative residual it must reach. */
#define NSN_KRYLOV 12
#define NSN_KRYLOV_TOL 1e-3

/* ... and gives up after NSN_KRYLOV_CHECK iterations above NSN_KRYLOV_SLOW
 * of the initial residual: on the settled pile's prox 13 % less work (a
 * miss then costs 4 solves instead of 12), counted in factorizations and
 * solves; the tolerance between 3e-4 and 1e-2 changed the work by 4 %. */
#define NSN_KRYLOV_CHECK 4
#define NSN_KRYLOV_SLOW 0.1

/* A GMRES iteration (a solve with the kept L and U, a product with J)
 * costs this share of a numeric factorization: perf on the settled
 * 2 393-contact pile's J, UMFPACK's numeric 85 % of prox's time, its
 * solves 6.5 %, one solve per factorization. */
#define NSN_KRYLOV_SHARE (1.0 / 13.0)

/* y ← J x, J in L's CSC arrays (filled by lu_fill) */
static void lu_matvec(const nsn_lu *L, const double *x, double *y)
{
    memset(y, 0, (size_t)L->n * sizeof *y);
    for (ns_int j = 0; j < L->n; j++) {
        const double xj = x[j];
        if (xj == 0.0) continue;
        for (ns_int k = L->p[j]; k < L->p[j + 1]; k++) y[L->i[k]] += L->x[k] * xj;
    }
}

/* x ← M⁻¹ b with the kept factorization M (of an earlier J); 0 on success */
static int lu_precond(const nsn_lu *L, const double *b, double *x)
{
    double info[UMFPACK_INFO], control[UMFPACK_CONTROL];
    memcpy(control, L->control, sizeof control);
    control[UMFPACK_IRSTEP] = 0;
    int s = umfpack_di_solve(UMFPACK_A, L->p, L->i, L->x, x, b, L->numeric, control, info);
    return s == UMFPACK_OK && ns_all_finite(x, (size_t)L->n) ? 0 : 1;
}

/* J x = b (J just filled into L->x) by GMRES right-preconditioned with
 * the factorization kept from an earlier iteration: J changes between
 * iterations by the contacts whose state switched and by the damping, so
 * that factorization is a close preconditioner and a few triangular solves
 * replace a numeric factorization (~13 times a solve's cost on a settled
 * pile's J). 0: ‖b − J x‖ ≤ NSN_KRYLOV_TOL ‖b‖ reached within NSN_KRYLOV
 * iterations; 1: not (x undefined); 2: out of memory. */
static int lu_krylov(nsn_lu *L, const double *b, double *x)
{
    const size_t n = (size_t)L->n;
    enum { K = NSN_KRYLOV };
    if (!L->kv && !(L->kv = ns_malloc((K + 2) * n + 1, sizeof(double)))) return 2;
    double *V = L->kv, *z = L->kv + (K + 1) * n;
    double H[(K + 1) * K], cs[K], sn[K], g[K + 1];
    const double bn = ns_norm2(b, n);
    if (!(bn > 0.0)) { memset(x, 0, n * sizeof *x); return 0; }
    for (size_t i = 0; i < n; i++) V[i] = b[i] / bn;
    memset(g, 0, sizeof g);
    g[0] = bn;
    int k = 0, done = 0;
    for (; k < K && !done; k++) {
        double *vk = V + (size_t)k * n, *w = V + (size_t)(k + 1) * n;
        if (lu_precond(L, vk, z)) return 1;
        lu_matvec(L, z, w);
        L->kry_its++;
        for (int j = 0; j <= k; j++) {   /* modified Gram–Schmidt */
            const double *vj = V + (size_t)j * n;
            double h = 0.0;
            for (size_t i = 0; i < n; i++) h += w[i] * vj[i];
            for (size_t i = 0; i < n; i++) w[i] -= h * vj[i];
            H[j + k * (K + 1)] = h;
        }
        const double hn = ns_norm2(w, n);
        H[k + 1 + k * (K + 1)] = hn;
        for (int j = 0; j < k; j++) {   /* earlier rotations on the new column */
            const double a = H[j + k * (K + 1)], c = H[j + 1 + k * (K + 1)];
            H[j + k * (K + 1)] = cs[j] * a + sn[j] * c;
            H[j + 1 + k * (K + 1)] = -sn[j] * a + cs[j] * c;
        }
        const double a = H[k + k * (K + 1)], c = H[k + 1 + k * (K + 1)];
        const double rho = hypot(a, c);
        if (!(rho > 0.0) || !isfinite(rho)) return 1;
        cs[k] = a / rho; sn[k] = c / rho;
        H[k + k * (K + 1)] = rho;
        H[k + 1 + k * (K + 1)] = 0.0;
        g[k + 1] = -sn[k] * g[k];
        g[k] = cs[k] * g[k];
        if (fabs(g[k + 1]) <= NSN_KRYLOV_TOL * bn) done = 1;
        else if (k + 1 >= NSN_KRYLOV_CHECK && fabs(g[k + 1]) > NSN_KRYLOV_SLOW * bn) return 1;
        else if (!(hn > 0.0)) return 1;   /* breakdown short of the tolerance */
        else for (size_t i = 0; i < n; i++) w[i] /= hn;
    }
    if (!done) return 1;
    double y[K];
    for (int j = k - 1; j >= 0; j--) {   /* H y = g, H upper triangular k×k */
        double s = g[j];
        for (int l = j + 1; l < k; l++) s -= H[j + l * (K + 1)] * y[l];
        y[j] = s / H[j + j * (K + 1)];
    }
    memset(z, 0, n * sizeof *z);   /* x = M⁻¹ (V y) */
    for (int j = 0; j < k; j++)
        for (size_t i = 0; i < n; i++) z[i] += y[j] * V[(size_t)j * n + i];
    return lu_precond(L, z, x);
}

/* ‖W_αα‖₂ (largest singular value of the d×d diagonal block); 0 if it
 * cannot be computed. The largest eigenvalue of S = WᵀW (symmetric,
 * positive semidefinite) in closed form: d = 2, the quadratic's larger
 * root; d = 3, the trigonometric form of the cubic's roots,
 * λ = tr/3 + 2p cos(acos(det((S − tr/3 I)/p)/2)/3), p² = ‖S − tr/3 I‖²_F / 6.
 * This is only the scaling ρ = 1/‖W_αα‖ of the residual, and the largest
 * root is well conditioned (its cosine is flat where acos is steep), so it
 * agrees with LAPACK's dsyev to rounding; dsyev cost ~5k instructions per
 * contact and solve (26 % of a 1-contact prox solve). */
static double block_norm2(int d, const double *W)
{
    double S[9];
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++) {
            double s = 0.0;
            for (int l = 0; l < d; l++) s += W[l + i * d] * W[l + j * d];
            if (!isfinite(s)) return 0.0;
            S[i + j * d] = s;
        }
    double lmax;
    if (d == 2) {
        double h = 0.5 * (S[0] - S[3]);
        lmax = 0.5 * (S[0] + S[3]) + sqrt(h * h + S[2] * S[2]);
    } else {
        const double a = S[0], b = S[4], c = S[8], x = S[3], y = S[6], z = S[7];
        const double off = x * x + y * y + z * z;
        const double q = (a + b + c) / 3.0;
        const double p2 = (a - q) * (a - q) + (b - q) * (b - q) + (c - q) * (c - q) + 2.0 * off;
        if (!(p2 > 0.0)) {
            lmax = q;   /* S = qI */
        } else {
            const double p = sqrt(p2 / 6.0);
            const double A = (a - q) / p, B = (b - q) / p, C = (c - q) / p;
            const double X = x / p, Y = y / p, Z = z / p;
            double det = A * (B * C - Z * Z) - X * (X * C - Z * Y) + Y * (X * Z - B * Y);
            double rr = 0.5 * det;
            rr = rr < -1.0 ? -1.0 : rr > 1.0 ? 1.0 : rr;
            lmax = q + 2.0 * p * cos(acos(rr) / 3.0);
            /* never below the largest diagonal entry (a bound of λmax) */
            lmax = fmax(lmax, fmax(a, fmax(b, c)));
        }
    }
    return lmax > 0 && isfinite(lmax) ? sqrt(lmax) : 0.0;
}

/* Model seconds of a dense n×n J filled and factored */
static double dense_lu_work(double n)
{
    return NS_FC_WORK_DENSE_ENTRY * n * n + NS_FC_WORK_FLOP_DENSE * (2.0 / 3.0) * n * n * n;
}

/* Model seconds of J filled and factored */
static double lu_work(const nsn_lu *L)
{
    const double n = (double)L->n, nnz = (double)L->p[L->n];
    if (L->n <= NSN_DENSE_MAX) return dense_lu_work(n);
    return NS_FC_WORK_ENTRY * nnz + NS_FC_WORK_LU * (L->info[UMFPACK_LNZ] + L->info[UMFPACK_UNZ]) +
           NS_FC_WORK_FLOP_SPARSE * L->info[UMFPACK_FLOPS];
}

/* Model seconds of one Newton iteration (ns_fc_work): lu_units times J
 * filled and factored, the line search's `trials` evaluations of Φ and
 * the iterate's error. lu_units is 1 for a factored step; 4.5 for the
 * first, which also pays the set-up (J's pattern and UMFPACK's symbolic
 * analysis, measured at 3–4 times the numeric work of an iteration on the
 * hard collections); a lagged step's GMRES iterations NSN_KRYLOV_SHARE
 * each. */
static double step_work(const ns_fc *p, int trials, double lu)
{
    /* two products with W: the step's W·Δr and the error's u = W r + q */
    return lu + 2.0 * NS_FC_WORK_BLOCK * (double)p->W->block.nblocks +
           NS_FC_WORK_PHI * (double)p->nc * (1.0 + trials);
}

static double iteration_work(const nsn_lu *L, const ns_fc *p, int trials, double lu_units)
{
    return step_work(p, trials, lu_units * lu_work(L));
}

/* Predicted LU entries and flops of J (W's block pattern) from the
 * Cholesky fill of the contacts' graph under AMD (CHOLMOD's counts, no
 * factorization): entries ≈ 2 d² lnz, flops ≈ 2 d³ fl. 0 on success. */
static int predict_lu(const ns_block *WB, int d, double *entries, double *flops)
{
    const ns_int nb = WB->block_rows;
    ns_int nnz = 0;
    for (ns_int a = 0; a < nb; a++)
        for (ns_int k = WB->row_ptr[a]; k < WB->row_ptr[a + 1]; k++) nnz += WB->block_col[k] <= a;
    ns_matrix *G = ns_matrix_sparse_new(nb, nb, nnz + nb);
    ns_int *cnt = ns_calloc((size_t)nb + 1, sizeof(ns_int));
    if (!G || !cnt) { ns_matrix_free(G); free(cnt); return 1; }
    /* the lower triangle by columns: block (a, b), a ≥ b, in column b (W's
     * block pattern is symmetric), the diagonal always; counted, then
     * placed in increasing rows */
    for (ns_int a = 0; a < nb; a++) {
        int diag = 0;
        for (ns_int k = WB->row_ptr[a]; k < WB->row_ptr[a + 1]; k++) {
            ns_int b = WB->block_col[k];
            if (b <= a) cnt[b + 1]++;
            diag |= b == a;
        }
        if (!diag) cnt[a + 1]++;
    }
    for (ns_int b = 0; b < nb; b++) cnt[b + 1] += cnt[b];
    memcpy(G->csc.p, cnt, ((size_t)nb + 1) * sizeof(ns_int));
    for (ns_int a = 0; a < nb; a++) {
        int diag = 0;
        for (ns_int k = WB->row_ptr[a]; k < WB->row_ptr[a + 1]; k++) {
            ns_int b = WB->block_col[k];
            if (b <= a) { G->csc.i[cnt[b]] = a; G->csc.x[cnt[b]++] = 1.0; }
            diag |= b == a;
        }
        if (!diag) { G->csc.i[cnt[a]] = a; G->csc.x[cnt[a]++] = 1.0; }
    }
    G->csc.nnz = G->csc.p[nb];
    free(cnt);
    double lnz = 0, fl = 0;
    char err[NS_ERRMSG_LEN];
    int bad = ns_cholmod_fill(G, &lnz, &fl, err) != NS_OK;
    ns_matrix_free(G);
    if (bad) return 1;
    *entries = 2.0 * d * d * lnz;
    *flops = 2.0 * d * d * d * fl;
    return 0;
}

/* Model seconds of a sparse J of nnz entries filled and factored, before
 * any factorization: predict_lu's counts scaled by 1/3 and 1/7 (see the
 * budget rule in nsn_run); -1 when they cannot be had. */
static double predicted_lu_work(const ns_block *WB, int d, double nnz)
{
    double pe, pf;
    if (predict_lu(WB, d, &pe, &pf)) return -1.0;
    return NS_FC_WORK_ENTRY * nnz + NS_FC_WORK_LU * pe / 3.0 + NS_FC_WORK_FLOP_SPARSE * pf / 7.0;
}

/* The work of the next iteration (model seconds): known from the last
 * factorization once there is one, else predicted (the first iteration's
 * 4.5 times, set-up included), once per pattern. */
static double next_iteration_work(nsn_lu *L, const ns_fc *p, const ns_block *WB, int d)
{
    if (L->numeric) return iteration_work(L, p, 1, 1.0);
    if (L->pred_work == 0.0) {
        const double w = predicted_lu_work(WB, d, (double)L->p[L->n]);
        if (w >= 0.0) L->pred_work = 4.5 * w;
    }
    return L->pred_work;
}

static double merit(const ns_fc *p, const ns_fc_contact *cs, ns_fc_phi_fn phi,
                    const double *r, const double *u, double *F)
{
    const int d = p->dim;
    double s = 0.0;
    for (ns_int a = 0; a < p->nc; a++) {
        phi(&cs[a], r + (size_t)a * d, u + (size_t)a * d, F + (size_t)a * d, NULL, NULL);
        for (int i = 0; i < d; i++) s += F[(size_t)a * d + i] * F[(size_t)a * d + i];
    }
    return 0.5 * s;
}

double ns_fc_nsn_iteration_work(const ns_fc *view)
{
    const ns_block *WB = &view->W->block;
    const int d = view->dim;
    const double n = (double)d * (double)view->nc;
    const double lu = n <= NSN_DENSE_MAX ? dense_lu_work(n)
                                         : predicted_lu_work(WB, d, (double)WB->nblocks * d * d);
    return lu < 0.0 ? -1.0 : step_work(view, 1, lu);
}

/* stall > 0: stop after that many iterations without a 10 % gain, or
 * NSN_FLAT in a row without a 1 % gain;
 * walk (or NULL): a run stopped by its time limit or its work budget
 * returns its last iterate, any other unconverged run its best one; a run
 * that returns its last iterate leaves in *walk what the next run from
 * that iterate resumes (the line search's history, the regularization),
 * so that the turns of a walk take the steps of one uninterrupted run;
 * work (or NULL): the budget and the count of ns_fc_nsn_turn */
static ns_status nsn_run(const ns_fc *p, double *r, double *u, const ns_options *o,
                         ns_fc_phi_fn phi, int ls_kind, int stall, ns_fc_nsn_walk *walk, ns_fc_work *work_budget,
                         ns_fc_nsn_cache *cache, ns_result *res)
{
    const int d = p->dim;
    const ns_int nc = p->nc;
    const size_t m = (size_t)d * (size_t)nc;
    const ns_block *WB = &p->W->block;
    ns_status st = NS_MAX_ITER;
    nsn_lu own;
    memset(&own, 0, sizeof own);
    nsn_lu *L = cache ? &cache->L : &own;
    const int set_up = L->p == NULL;   /* J's pattern built (and analysed) by this run */
    const int in_chain = work_budget != NULL;   /* a stage of the auto chain */
    ns_fc_contact *cs = ns_malloc((size_t)nc + 1, sizeof *cs);
    double *work = ns_malloc(8 * m + 1, sizeof(double));
    double *AB = ns_malloc(2 * (size_t)d * d * (size_t)nc + 1, sizeof(double));
    if (!cs || !work || !AB || (set_up && lu_pattern(L, WB, d))) {
        st = ns_fail(res->message, NS_NO_MEMORY, "nsn: out of memory");
        goto done;
    }
    double *Phi = work, *dl = work + m, *Wd = work + 2 * m, *rt = work + 3 * m,
           *ut = work + 4 * m, *best = work + 5 * m, *Fw = work + 6 * m, *rhs = work + 7 * m;
    double reg = 0.0; /* retry regularization after a failure */
    int singular = 0, budget_out = 0;
    char ferr[NS_ERRMSG_LEN] = "";
    for (ns_int a = 0; a < nc; a++) {
        const double *Wa = WB->x + WB->value_ptr[WB->diag[a]];
        ns_fc_contact_init(&cs[a], d, Wa, p->q + (size_t)a * d, p->mu[a], 0.0, 0);
        double nw = block_norm2(d, Wa);
        if (nw > 0 && isfinite(nw)) cs[a].rho_n = cs[a].rho_t = 1.0 / nw;
    }
    /* an iteration's work: J's assembly and the products (W's stored
     * values, a few times), the LU (dense: n³/3 up to NSN_DENSE_MAX) */
    const double nzw = (double)WB->value_ptr[WB->nblocks], dm = (double)m;
    const double it_work = 8.0 * nzw + (m <= NSN_DENSE_MAX ? dm * dm * dm / 3.0 : 10.0 * nzw);
    ns_clock clk;
    ns_clock_start(&clk, o->time_limit, it_work);
    double err = ns_fc_error(p, r, u, (ns_fc_norm)o->fc_norm), best_err = err;
    memcpy(best, r, m * sizeof(double));
    res->error = err;
    if (err <= o->tol) { st = NS_CONVERGED; goto done; }
    if (!isfinite(err)) best_err = INFINITY;
    double hist[NSN_HIST] = { 0 };
    int nh = 0;
    double phi0 = 1.0;
    const int resumed = walk && walk->its > 0;   /* the next iteration of an earlier run */
    if (resumed) {
        memcpy(hist, walk->hist, sizeof hist);
        nh = walk->nh;
        phi0 = walk->phi0;
        reg = walk->reg;
    }
    double ehist[4] = { 0.0, 0.0, 0.0, 0.0 };
    double stall_ref = err;   /* the error a stall is measured against */
    int since = 0;
    double flat_ref = err;
    int flat = 0;
    /* A turn of a race does not start an iteration that would cost more
     * than twice what is left of its budget: the factorization cannot be
     * interrupted (a settled pile of 38 591 contacts: 8 s for one
     * iteration where the turn's share was 0.5 s). Twice: RockPile_tob1's
     * first probe (set-up and one iteration) is 1.7 times its round-0
     * share, and Newton must start there early (14 231 iterations of the
     * chain, 30 509 when it waits a round); the 4·10³-sphere piles' is 3.8
     * times their round-1 share, where the sweeps are a round from done
     * (Newton's three iterations there were 25-30 % of the solve). Before J has been
     * factored its cost is predicted from the fill of the contacts' graph
     * (predict_lu, which overestimates UMFPACK's entries 2.4-4 times and
     * its flops 5-14 times on the hard collections: scaled by 1/3 and
     * 1/7), afterwards known from the last factorization. */
    if (work_budget && work_budget->limit > 0 && L->n > NSN_DENSE_MAX) {
        /* predicted once per pattern: a skipped walk asks again next round */
        const double est = next_iteration_work(L, p, WB, d);
        if (est > 2.0 * (work_budget->limit - work_budget->used)) {
            budget_out = 1;
            ns_log(o, 2, "nsn: an iteration (%.3g model s) is beyond the turn's budget (%.3g)", est,
                   work_budget->limit - work_budget->used);
            goto out;
        }
    }
    /* Under a time limit, the sparse path does not start an iteration it
     * cannot finish before the limit: one factorization of a large J
     * cannot be interrupted (a 38 591-contact pile: 8-16 s each), and a
     * caller that enforces the limit from outside (a benchmark's watchdog,
     * a real-time step) would lose the whole solve. The cost is the last
     * iteration's measured time, or before the first the work model's
     * prediction (the budget rule's, in model seconds). */
    const int guard = clk.limit > 0 && L->n > NSN_DENSE_MAX;
    double t_last = 0.0;
    for (int it = 1; it <= o->max_iter; it++) {
        res->iterations = it;
        double t_it = 0.0;
        if (guard) {
            t_it = ns_now();
            if (clk.start < 0.0) clk.start = t_it;
            const double est = it == 1 ? next_iteration_work(L, p, WB, d) : t_last;
            if (est > clk.limit - (t_it - clk.start)) {
                st = NS_TIME_LIMIT;
                res->iterations = it - 1;
                ns_log(o, 2, "nsn: an iteration (%.3g s) would end past the time limit (%.3g s left)", est,
                       clk.limit - (t_it - clk.start));
                break;
            }
        }
        double th = 0.0;
        int trials = 0;
        for (ns_int a = 0; a < nc; a++) {
            double *A = AB + 2 * (size_t)a * d * d, *B = A + d * d;
            phi(&cs[a], r + (size_t)a * d, u + (size_t)a * d, Phi + (size_t)a * d, A, B);
        }
        for (size_t i = 0; i < m; i++) th += Phi[i] * Phi[i];
        th *= 0.5;
        if (it == 1 && !resumed) phi0 = sqrt(2.0 * th);
        /* λ_k of the header (fmin drops a NaN error); the first step plain,
         * except in the stages of the auto chain (ns_fc_nsn_turn): there
         * each turn of a walk would start with an undamped step, and on
         * RockPile_tob1 the race then took 100k iterations and 9.5-15 s
         * instead of 30k and 3.4 s */
        const double lambda_damped = fmin(fmin(1.0, err), sqrt(2.0 * th) / fmax(phi0, ns_norm2(r, m)));
        /* on the dense path (small problems, a factorization costs little)
         * every later step is first tried plain, kept only at its full
         * length, else redone damped (see the header) */
        const int plain_try = it > 1 && !in_chain && lambda_damped > 0.0 && L->n <= NSN_DENSE_MAX &&
                              phi != ns_fc_phi_fb;
        double lambda = (it == 1 && !in_chain) || plain_try ? 0.0 : lambda_damped;
        hist[nh++ % NSN_HIST] = th;
        double thref = th; /* non-monotone reference: max of the last NSN_HIST */
        if (ls_kind == LS_ARMIJO)
            for (int i = 0; i < (nh < NSN_HIST ? nh : NSN_HIST); i++) thref = fmax(thref, hist[i]);
        for (size_t i = 0; i < m; i++) rhs[i] = -Phi[i];
        /* J_αβ = B_α W_αβ (+ A_α on the diagonal) + max(λ_k, δ)·D; δ > 0
         * only after a singular J or a failed line search (retry). */
        int ok = 0;
        double t = 1.0;
        int redo = 0;   /* the plain first step retried damped: no extra regularization */
        int lagged = 0, redo_lagged = 0;   /* the step from the kept factorization; refused once */
        long kry_its = 0;                  /* GMRES iterations of this step */
        L->kry_fresh = 0;
        for (int attempt = 0; attempt < 8 && !ok; attempt++) {
            if (attempt > 0 && !redo) reg = fmax(reg * 100.0, 1e-10);
            redo = 0;
            lu_fill(L, WB, d, AB, fmax(reg, lambda));
            int ls = -1;
            if (L->krylov && L->numeric && !L->kry_fresh && attempt == 0 && !redo_lagged) {
                if (L->kry_skip > 0) L->kry_skip--;
                else {
                    const long its0 = L->kry_its;
                    ls = lu_krylov(L, rhs, dl);
                    if (ls == 2) { st = ns_fail(res->message, NS_NO_MEMORY, "nsn: out of memory"); goto out; }
                    kry_its += L->kry_its - its0;
                    if (ls == 0) { L->kry_ok++; L->kry_wait = 0; }
                    else {   /* J moved too far: wait 1, 2, 4, 8 iterations before the next try */
                        L->kry_miss++;
                        L->kry_skip = L->kry_wait = L->kry_wait ? (L->kry_wait < 8 ? 2 * L->kry_wait : 8) : 1;
                        ls = -1;
                    }
                }
            }
            lagged = ls == 0;
            if (ls != 0) { ls = lu_solve(L, rhs, dl, ferr); L->kry_fresh = 1; }
            if (ls == 2) { st = ns_fail(res->message, NS_NO_MEMORY, "nsn: %s", ferr); goto out; }
            if (ls == 1 && plain_try && lambda == 0.0) { lambda = lambda_damped; redo = 1; attempt--; continue; }
            if (ls == 1) { singular = 1; continue; }
            singular = 0;
            ns_matrix_gemv(1.0, p->W, dl, 0.0, Wd);
            if (ls_kind == LS_ARMIJO) {
                t = 1.0;
                for (int k = 0; k < 40; k++, t *= 0.5) {
                    trials++;
                    for (size_t i = 0; i < m; i++) { rt[i] = r[i] + t * dl[i]; ut[i] = u[i] + t * Wd[i]; }
                    double tht = merit(p, cs, phi, rt, ut, Fw);
                    if (tht <= thref - 2e-4 * t * th) { ok = 1; break; }
                    if (plain_try && lambda == 0.0) break;   /* only the full plain step */
                }
            } else { /* Goldstein–Price, t ∈ (0, 1] */
                const double m1 = 0.1, m2 = 0.9;
                double tlo = 0.0, thi = 1.0, tbest = 0.0, decbest = 0.0;
                t = 1.0;
                for (int k = 0; k < 60; k++) {
                    trials++;
                    for (size_t i = 0; i < m; i++) { rt[i] = r[i] + t * dl[i]; ut[i] = u[i] + t * Wd[i]; }
                    double dec = th - merit(p, cs, phi, rt, ut, Fw); /* θ(0) − θ(t) */
                    if (dec > decbest) { decbest = dec; tbest = t; }
                    if (!(dec >= 2.0 * m1 * t * th)) thi = t;       /* too long (or NaN) */
                    else if (dec > 2.0 * m2 * t * th && t < 1.0) tlo = t; /* too short */
                    else { ok = 1; break; }
                    t = 0.5 * (tlo + thi);
                    if (thi - tlo < 1e-14) break;
                }
                if (!ok && decbest > 0) {
                    t = tbest;
                    for (size_t i = 0; i < m; i++) rt[i] = r[i] + t * dl[i];
                    ok = 1;
                }
            }
            /* The plain first step from a numerically singular J (UMFPACK's
             * reciprocal condition estimate below 1e-12, so that rounding
             * moves the direction by more than ~1e-4 of its size) that the
             * line search shortens is taken again with the damping: its
             * direction is decided by rounding (on RockPile_tob1,
             * rcond 4e-13, OpenBLAS' Haswell and SkylakeX kernels led
             * nsn-ac to 3e-5 after 1000 iterations and to convergence in
             * 168; damped, 102-113 iterations with each of three kernels).
             * A well-conditioned J keeps its plain step, shortened or not
             * (Capsules-i122-1617, rcond 2e-11: 15 iterations, 38 damped);
             * the dense path (n ≤ NSN_DENSE_MAX) always does. A later
             * step's plain try (the header) is redone damped too, unless
             * the line search took it whole. */
            if (!ok && lagged) {   /* the lagged step refused: J factored, same damping */
                redo_lagged = 1;
                redo = 1;
                attempt--;
                continue;
            }
            const int plain_refused = plain_try && (!ok || t < 1.0);
            const int plain_illcond = ok && t < 1.0 && lambda_damped > 0.0 && L->n > NSN_DENSE_MAX &&
                                      !(L->info[UMFPACK_RCOND] >= 1e-12);
            if (lambda == 0.0 && (plain_refused || plain_illcond)) {
                lambda = lambda_damped;
                ok = 0;
                redo = 1;
                attempt--;
            }
        }
        if (work_budget)
            work_budget->used += iteration_work(L, p, trials,
                                                (L->kry_fresh ? (set_up && it == 1 ? 4.5 : 1.0) : 0.0) +
                                                (double)kry_its * NSN_KRYLOV_SHARE);
        if (!ok) {
            if (singular)
                st = ns_fail(res->message, NS_SINGULAR, "nsn: Jacobian singular at iteration %d "
                             "even regularised (%s)", it, ferr);
            else
                ns_fail(res->message, NS_MAX_ITER, "nsn: line search failed at iteration %d", it);
            break;
        }
        if (guard) t_last = ns_now() - t_it;
        reg *= 0.01;
        if (reg < 1e-14) reg = 0.0;
        memcpy(r, rt, m * sizeof(double));
        err = ns_fc_error(p, r, u, (ns_fc_norm)o->fc_norm);
        if (err < best_err) { best_err = err; memcpy(best, r, m * sizeof(double)); }
        /* fb, nm: polish with ac once stalled close to the solution (the
         * error not halved over the last 3 iterations) */
        ehist[it % 4] = err;
        if (phi != ns_fc_phi_ac && it >= 4 && err < 1e-5 && !(err < 0.5 * ehist[(it + 1) % 4])) {
            phi = ns_fc_phi_ac;
            nh = 0;
        }
        ns_log(o, 2, "nsn iteration %d step %.3g error %.3e", it, t, err);
        int stop = ns_iteration(o, res, err);
        if (err <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(err)) { st = NS_DIVERGED; break; }
        flat = err < 0.99 * flat_ref ? 0 : flat + 1;
        if (flat == 0) flat_ref = err;
        if (err < 0.9 * stall_ref) { stall_ref = err; since = 0; }
        else if (stall > 0 && (++since >= stall || flat >= NSN_FLAT)) {
            ns_fail(res->message, NS_MAX_ITER, "nsn: no progress in %d iterations (error %.3e)",
                    flat >= NSN_FLAT ? flat : since, err);
            break;
        }
        if (ns_clock_over(&clk, it_work)) { st = NS_TIME_LIMIT; break; }
        if (stop) { st = NS_INTERRUPTED; break; }
        if (work_budget && work_budget->limit > 0 && work_budget->used >= work_budget->limit) {
            budget_out = 1;
            break;
        }
    }
out:;
    int last = 1;   /* r is the last iterate */
    if (st != NS_CONVERGED && !(err <= best_err) &&   /* also when err is NaN */
        !(walk && (st == NS_TIME_LIMIT || budget_out) && isfinite(err))) {
        memcpy(r, best, m * sizeof(double));
        err = ns_fc_error(p, r, u, (ns_fc_norm)o->fc_norm);
        last = 0;
    }
    if (walk) {   /* what the next run from r resumes; nothing when r is not the last iterate */
        walk->its = last ? walk->its + res->iterations : 0;
        memcpy(walk->hist, hist, sizeof hist);
        walk->nh = nh;
        walk->phi0 = phi0;
        walk->reg = reg;
    }
    res->error = err;
done:
    if (!cache || (set_up && st == NS_NO_MEMORY)) {   /* a cache keeps only a whole pattern */
        lu_free(L);
        memset(L, 0, sizeof *L);
    }
    free(cs);
    free(work);
    free(AB);
    return st;
}

ns_status ns_fc_nsn_run(const ns_fc *p, double *r, double *u, const ns_options *o,
                        ns_fc_phi_fn phi, ns_result *res)
{
    return nsn_run(p, r, u, o, phi, LS_ARMIJO, 0, NULL, NULL, NULL, res);
}

ns_status ns_fc_nsn_turn(const ns_fc *p, double *r, double *u, const ns_options *o,
                         ns_fc_phi_fn phi, ns_fc_work *w, ns_fc_nsn_walk *walk, ns_fc_nsn_cache *cache,
                         ns_result *res)
{
    return nsn_run(p, r, u, o, phi, LS_ARMIJO, 0, walk, w, cache, res);
}

ns_fc_nsn_cache *ns_fc_nsn_cache_new(void)
{
    return calloc(1, sizeof(ns_fc_nsn_cache));
}

void ns_fc_nsn_cache_krylov(ns_fc_nsn_cache *c, int on)
{
    if (c) c->L.krylov = on;
}

void ns_fc_nsn_cache_counts(const ns_fc_nsn_cache *c, long *its, long *ok, long *miss)
{
    *its = c ? c->L.kry_its : 0;
    *ok = c ? c->L.kry_ok : 0;
    *miss = c ? c->L.kry_miss : 0;
}

void ns_fc_nsn_cache_free(ns_fc_nsn_cache *c)
{
    if (!c) return;
    lu_free(&c->L);
    free(c);
}

ns_status ns_fc_nsn_run_stall(const ns_fc *p, double *r, double *u, const ns_options *o,
                              ns_fc_phi_fn phi, int stall, ns_fc_nsn_cache *cache, ns_result *res)
{
    return nsn_run(p, r, u, o, phi, LS_ARMIJO, stall, NULL, NULL, cache, res);
}

static ns_status nsn_with(const ns_fc *p, double *r, double *u, const ns_options *o,
                          ns_fc_phi_fn phi, int ls_kind, ns_result *res)
{
    ns_fc view;
    ns_matrix *owned = NULL;
    ns_status st = ns_fc_blocked(p, &view, &owned, res->message);
    if (st == NS_OK) st = nsn_run(&view, r, u, o, phi, ls_kind, 0, NULL, NULL, NULL, res);
    ns_matrix_free(owned);
    return st;
}

ns_status ns_fc3d_nsn_ac(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsn_with(p, r, u, o, ns_fc_phi_ac, LS_ARMIJO, res); }
ns_status ns_fc3d_nsn_fb(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsn_with(p, r, u, o, ns_fc_phi_fb, LS_ARMIJO, res); }
ns_status ns_fc3d_nsn_nm(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsn_with(p, r, u, o, ns_fc_phi_nm, LS_ARMIJO, res); }
ns_status ns_fc3d_nsn_ac_gp(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return nsn_with(p, r, u, o, ns_fc_phi_ac, LS_GOLDSTEIN, res); }
