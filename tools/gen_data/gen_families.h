/* gen_families.h — generators of the hard LCP families (hard cases
 * for the default solver), shared by gen_data (files in data/) and the
 * acceptance test tests/numerics/test_lcp_families.c (in memory, larger
 * sizes). Deterministic: own xorshift64* generator, one seed per instance.
 *
 * Families (size = n unless said):
 *   bimatrix      M = [[0, A], [Bᵀ, 0]], A, B (size × size) uniform in
 *                 [1, 10], q = −1: a two-player game (cost form), always
 *                 solvable (a Nash equilibrium); n = 2·size.
 *   bimatrix-deg  the same with integer payoffs in {1, 2, 3} (ties
 *                 everywhere: degenerate game).
 *   pscaled       P-matrix: off-diagonal entries uniform in [-1,1], M_ii =
 *                 the row's sum of |M_ij| plus [0.1, 1] (strictly row
 *                 diagonally dominant, positive diagonal, non-symmetric),
 *                 then row i and q_i scaled by 10^u_i, u_i uniform in
 *                 [-4, 4] (8 orders of magnitude); q uniform in [-1,1]
 *                 before scaling. Unique solution.
 *   psd-range     M = B Bᵀ, B n × ⌈n/3⌉ uniform in [-1,1] (PSD, rank n/3);
 *                 q = −M z*, z* ≥ 0 with half its entries 0: q in the range
 *                 of M, solution z* with w = 0 (every index degenerate or
 *                 basic). Solvable.
 *   copos-deg     M = B Bᵀ + (C − Cᵀ) (PSD, not symmetric: copositive-plus,
 *                 rank-deficient symmetric part), q = w* − M z* with a third
 *                 of the indices z*_i = w*_i = 0. Solvable, degenerate.
 *   murty         Murty's M (1 on the diagonal, 2 above, 0 below), q = −1;
 *                 Lemke with covering vector 1 takes 2ⁿ pivots.
 *   infeasible    y > 0 random, M = R − y (Rᵀy + δ)ᵀ / yᵀy (so Mᵀy = −δ < 0),
 *                 q = q0 − y (yᵀq0 + 1)/yᵀy (qᵀy = −1): infeasible, with
 *                 every row of M holding a positive entry (no row with
 *                 q_i < 0 and M_i ≤ 0: no trivially infeasible row); M is
 *                 not copositive, so Lemke's ray need not be a certificate.
 */
#ifndef NS_GEN_FAMILIES_H
#define NS_GEN_FAMILIES_H
#include "nonsmooth/nonsmooth.h"
#include <stdint.h>

/** Names of the families above, NULL-terminated. */
extern const char *const ns_gen_family_names[];

/** A new LCP (dense M) of the family; NULL on an unknown family or
 *  allocation failure. Caller frees with ns_lcp_free. */
ns_lcp *ns_gen_lcp(const char *family, int size, uint64_t seed);

/** 1 if the family's instances are infeasible by construction. */
int ns_gen_family_infeasible(const char *family);
#endif
