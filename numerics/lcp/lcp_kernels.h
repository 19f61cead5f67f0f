/* lcp_kernels.h — dense complementarity kernels shared by the LCP, MLCP,
 * relay and AVI solvers (private to libnonsmooth_numerics).
 *
 * Every kernel works on a dense column-major N×N matrix M and a vector q and
 * solves the mixed problem
 *     w = M z + q,   w_i = 0 (z_i free)        for rows with eq[i] = 1,
 *                    0 ≤ z_i ⊥ w_i ≥ 0         for rows with eq[i] = 0
 * (eq = NULL: every row is complementarity, i.e. a plain LCP). The caller's
 * error function (err, ctx) is the one the kernel stops on, so that a solver
 * stops on the error its kind reports; it receives z and must fill w. Kernels
 * allocate once at entry, never inside iterations, and fill res->iterations,
 * res->error and res->message (on failures). */
#ifndef NS_LCP_KERNELS_H
#define NS_LCP_KERNELS_H
#include "nonsmooth/ns_solver.h"
#include "nonsmooth/ns_lcp.h"
#include <lapacke.h>

/** Error of the problem at z (fills w = M z + q). */
typedef double (*ns_kernel_error_fn)(const void *ctx, const double *z, double *w);

/** Complementary pivoting (Lemke) with a lexicographic ratio test on a plain
 *  LCP (no equality rows: eliminate them first). Covering vector d = 1.
 *  NS_CONVERGED, NS_NO_SOLUTION (secondary ray), NS_MAX_ITER (pivots),
 *  NS_TIME_LIMIT, NS_NO_MEMORY. The final basis is re-solved by one LU of
 *  its complementary principal block ("polish"), kept if more accurate. */
ns_status ns_lemke_dense(ns_int n, const double *M, const double *q,
                         double *z, double *w, const ns_options *o,
                         ns_kernel_error_fn err, const void *ctx,
                         ns_result *res);

/** ns_lemke_dense with a covering vector d (n entries > 0; NULL = 1) and,
 *  on a secondary ray (NS_NO_SOLUTION), the z part of the ray's direction
 *  in *ray (n doubles allocated then, the caller frees; NULL otherwise and
 *  when the allocation fails; ray = NULL: not wanted). For copositive-plus
 *  M that direction is a Farkas certificate (y ≥ 0, Mᵀy ≤ 0, qᵀy < 0). */
ns_status ns_lemke_dense_ex(ns_int n, const double *M, const double *q,
                            const double *d, double *z, double *w,
                            const ns_options *o, ns_kernel_error_fn err,
                            const void *ctx, ns_result *res, double **ray);

/** Lemke on an MLCP in one tableau: eq[i] = 1 marks an equality row
 *  (w_i = 0, z_i free). The free z's are pivoted into the basis first
 *  (partial pivoting over the equality rows), never leave it and are
 *  excluded from the ratio tests, so the rest is the lexicographic Lemke of
 *  the Schur complement LCP, covering vector 1 on the complementarity rows.
 *  NS_SINGULAR when the equality block is numerically singular (no pivot
 *  above 1e-13 of its column): eliminate by other means then. The final
 *  basic solution is refined with the tableau's B⁻¹ only (no LU); the caller
 *  polishes when res->error is not at the rounding level. No ray. */
ns_status ns_lemke_mixed_dense(ns_int n, const double *M, const double *q,
                               const unsigned char *eq, double *z, double *w,
                               const ns_options *o, ns_kernel_error_fn err,
                               const void *ctx, ns_result *res);

/** Semismooth Newton on Φ_i = w_i (eq rows) and Φ_i = φ(z_i, w_i) (others),
 *  φ = Fischer–Burmeister √(a²+b²) − a − b (minmap = 0) or min(a, b)
 *  (minmap = 1). Armijo line search on ½‖Φ‖²; when the Newton system is
 *  singular or its direction is not a descent direction, a gradient step
 *  −∇(½‖Φ_FB‖²) is taken instead (safeguard). */
ns_status ns_newton_dense(ns_int n, const double *M, const double *q,
                          const unsigned char *eq, int minmap,
                          double *z, double *w, const ns_options *o,
                          ns_kernel_error_fn err, const void *ctx,
                          ns_result *res);

/** Principal enumeration: for each set J of complementarity rows taken
 *  "z_i basic" (w_i = 0) — equality rows always basic — solves
 *  M_BB z_B = −q_B and accepts when z_J ≥ 0 and w_{not B} ≥ 0. The set
 *  {i : z_i > 0} of the starting z is tried first (warm start), then every
 *  set in order of Hamming distance from {i : q_i < 0}. At most 2^30 sets
 *  (NS_BAD_INPUT above that). */
ns_status ns_enum_dense(ns_int n, const double *M, const double *q,
                        const unsigned char *eq, double *z, double *w,
                        const ns_options *o, ns_kernel_error_fn err,
                        const void *ctx, ns_result *res);
/** ns_enum_dense with a guess of the set (guess[i] = 1: row i in it; NULL:
 *  {i : q_i < 0}) from which the sets are enumerated by Hamming distance. */
ns_status ns_enum_dense_guess(ns_int n, const double *M, const double *q,
                              const unsigned char *eq, const unsigned char *guess,
                              double *z, double *w, const ns_options *o,
                              ns_kernel_error_fn err, const void *ctx, ns_result *res);

/** Solves the active set A = {eq} ∪ {i : z_i > w_i} exactly: M_AA zp_A =
 *  −q_A, zp = 0 off A (one LAPACKE LU). work: n² + n doubles, piv: n,
 *  idx: n. Returns 0 on success, 1 if M_AA is singular. */
int ns_active_set_solve(ns_int n, const double *M, const double *q,
                        const unsigned char *eq, const double *z,
                        const double *w, double *zp, double *work,
                        lapack_int *piv, ns_int *idx);

/** Polishes a near-solution z (w = M z + q given) on its active set
 *  A = {eq} ∪ {i : z_i > w_i, z_i > zsmall_rel ‖z‖∞}: zp = z on A, 0 off A, then
 *  `steps` steps of
 *  r_A = q_A + M_AA zp_A (long double), zp_A −= M_AA⁺ r_A (minimum-norm least
 *  squares, LAPACK dgelsy); works when M_AA is singular but the active
 *  equations are consistent (non-unique solutions). Allocates. 0 on
 *  success, 1 on failure (allocation, rank 0, non-finite correction). */
int ns_active_set_refine(ns_int n, const double *M, const double *q,
                         const unsigned char *eq, const double *z,
                         const double *w, double *zp, int steps, double zsmall_rel);

/* Loops built for AVX2+FMA as well as the baseline x86-64 and chosen at
 * load time (GCC/Clang function multiversioning), the library being
 * compiled for the baseline; a no-op elsewhere. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define NS_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
#endif
#ifndef NS_SIMD_CLONES
#define NS_SIMD_CLONES
#endif

/** LU with partial pivoting of A (n×n, leading dimension lda) by LAPACK's
 *  dgetrf, 1-based piv. 0 on success, 1 when singular (zero pivot). */
int ns_kernel_lu(ns_int n, double *A, ns_int lda, lapack_int *piv);
/** b ← A⁻¹ b (one right-hand side, length n) from ns_kernel_lu's factors. */
void ns_kernel_lu_solve(ns_int n, const double *A, ns_int lda,
                        const lapack_int *piv, double *b);
/** ns_kernel_lu then ns_kernel_lu_solve in one LAPACK call (dgesv: one
 *  buffer set-up instead of two, which is most of a small system's cost).
 *  0 on success, 1 when A is singular (b then undefined). */
int ns_kernel_lu_and_solve(ns_int n, double *A, ns_int lda, lapack_int *piv, double *b);

/** newton-fb on an LCP whose M is SPARSE (lcp_newton_sparse.c): UMFPACK
 *  on the reduced Newton systems. Returns -1 when M is not SPARSE, else 0
 *  with the outcome in *status. */
int ns_lcp_newton_fb_sparse(const ns_lcp *p, double *z, double *w,
                            const ns_options *o, ns_result *res, ns_status *status);

/** Principal pivoting (lcp_ppm.c): block pivoting with Murty's least-index
 *  rule as safeguard. NS_SINGULAR when a principal block is singular. */
ns_status ns_ppm_dense(ns_int n, const double *M, const double *q, double *z,
                       double *w, const ns_options *o, ns_kernel_error_fn err,
                       const void *ctx, ns_result *res);

/** m (1 ≤ m < n) when M = [[0, A], [Bᵀ, 0]] with A (m × (n−m)) > 0,
 *  B > 0 and q < 0 (a bimatrix game), else 0. */
ns_int ns_bimatrix_split(ns_int n, const double *M, const double *q);
/** Lemke–Howson on a bimatrix-structured LCP (lcp_lh.c); NS_UNSUPPORTED
 *  when M has not that structure. */
ns_status ns_lh_dense(ns_int n, const double *M, const double *q, double *z, double *w,
                      const ns_options *o, ns_kernel_error_fn err, const void *ctx,
                      ns_result *res);

/** The auto chain (lcp_auto.c) on a dense plain LCP. NS_NO_SOLUTION only
 *  with a checked Farkas certificate, returned in *cert_y (n doubles the
 *  caller frees; NULL otherwise). */
ns_status ns_lcp_auto_dense(ns_int n, const double *M, const double *q, double *z,
                            double *w, const ns_options *o, ns_kernel_error_fn err,
                            const void *ctx, ns_result *res, double **cert_y);

/** Dense column-major copy of any matrix (NULL on failure). */
double *ns_dense_copy(const ns_matrix *A);
#endif
