/* solve_registry.c — the one table of solvers. nsolve and nsbench look
 * solvers up here by (name, kind); tests walk it so no solver goes untested.
 * Add a row when a solver lands; mark one default per kind. */
#include "nonsmooth/ns_solver.h"
#include "solve/solvers.h"
#include "fc2d/fc2d_internal.h"
#include "rfc/rfc_internal.h"
#include <string.h>

static const ns_solver_info registry[] = {
    { "direct", NS_KIND_EQUALITY, { .equality = ns_equality_direct }, 1, 1,
      "direct factorization: CHOLMOD if sparse SPD, UMFPACK if sparse, LAPACKE LU if dense" },
    { "auto", NS_KIND_LCP, { .lcp = ns_lcp_auto }, 1, 1000000,
      "lemke, other covering vectors, lemke-howson (bimatrix), ppm, newton-fb, enum (n <= 16), "
      "Farkas search: a solution or a checked certificate of infeasibility (robust default)" },
    { "lemke", NS_KIND_LCP, { .lcp = ns_lcp_lemke }, 0, 1000000,
      "Lemke's complementary pivoting, lexicographic ratio test; a ray is no_solution only "
      "with a checked Farkas certificate" },
    { "ppm", NS_KIND_LCP, { .lcp = ns_lcp_ppm }, 0, 10000,
      "principal pivoting: block pivots (Judice-Pires), Murty's least-index rule as safeguard; "
      "P-matrices, row-scale invariant" },
    { "pgs", NS_KIND_LCP, { .lcp = ns_lcp_pgs }, 0, 10000,
      "projected Gauss-Seidel z_i <- max(0, z_i - w_i / M_ii); needs M_ii > 0" },
    { "psor", NS_KIND_LCP, { .lcp = ns_lcp_psor }, 0, 10000,
      "projected SOR: pgs with relaxation omega (default 1.2); needs M_ii > 0" },
    { "enum", NS_KIND_LCP, { .lcp = ns_lcp_enum }, 0, 1073741824,
      "principal enumeration, sets by Hamming distance from a guess (warm set first); n <= 30" },
    { "newton-fb", NS_KIND_LCP, { .lcp = ns_lcp_newton_fb }, 0, 100,
      "semismooth Newton on Fischer-Burmeister: PGS start, reduced Newton system, Armijo search, LM then gradient safeguard" },
    { "newton-min", NS_KIND_LCP, { .lcp = ns_lcp_newton_min }, 0, 100,
      "semismooth Newton on the min map, line search and gradient safeguard" },
    { "auto", NS_KIND_MLCP, { .mlcp = ns_mlcp_auto }, 1, 1000000,
      "lemke, then newton-fb, then enum, until one reaches tol, then the Farkas search (robust default)" },
    { "lemke", NS_KIND_MLCP, { .mlcp = ns_mlcp_lemke }, 0, 1000000,
      "Lemke in one tableau, the equality unknowns pivoted in first; Schur complement with rows of C when M_EE is singular (Cao-Ferris)" },
    { "enum", NS_KIND_MLCP, { .mlcp = ns_mlcp_enum }, 0, 1073741824,
      "active-set enumeration on the Schur complement, sets by Hamming distance from a guess; m <= 30" },
    { "pgs", NS_KIND_MLCP, { .mlcp = ns_mlcp_pgs }, 0, 10000,
      "projected Gauss-Seidel, equality blocks solved exactly; needs M_ii > 0 on complementarity rows" },
    { "newton-fb", NS_KIND_MLCP, { .mlcp = ns_mlcp_newton_fb }, 0, 100,
      "semismooth Newton on (w_eq, Fischer-Burmeister), line search and gradient safeguard" },
    { "auto", NS_KIND_RELAY, { .relay = ns_relay_auto }, 1, 1000000,
      "the LCP auto chain on the LCP reformulation of the bounds (each variable needs a finite bound)" },
    { "ppm", NS_KIND_RELAY, { .relay = ns_relay_ppm }, 0, 10000,
      "principal pivoting on the LCP reformulation of the bounds" },
    { "lemke", NS_KIND_RELAY, { .relay = ns_relay_lemke }, 0, 1000000,
      "Lemke on the LCP reformulation of the bounds (each variable needs a finite bound)" },
    { "enum", NS_KIND_RELAY, { .relay = ns_relay_enum }, 0, 1073741824,
      "enumeration on the LCP reformulation of the bounds; small problems" },
    { "pgs", NS_KIND_RELAY, { .relay = ns_relay_pgs }, 0, 10000,
      "projected Gauss-Seidel, projection on the box; needs M_ii > 0" },
    { "newton-fb", NS_KIND_RELAY, { .relay = ns_relay_newton_fb }, 0, 100,
      "semismooth Newton FB on the LCP reformulation of the bounds" },
    { "auto", NS_KIND_AVI, { .avi = ns_avi_auto }, 1, 1000000,
      "lemke, then the MLCP chain's newton-fb and enum on the KKT system (robust default); box: relay lemke" },
    { "lemke", NS_KIND_AVI, { .avi = ns_avi_lemke }, 0, 1000000,
      "Lemke on the KKT system of {Hz <= h}: z eliminated through M, or pivoted in on rows of H (Cao-Ferris) when M is singular; box: relay lemke" },
    { "auto", NS_KIND_FC3D, { .fc = ns_fc3d_auto }, 1, 100000,
      "nsgs-ac to 1e-4, nsn-ac to finish, nsgs/nsn-ac restarts, then nsn-nm, nsn-fb, nsgs-fb, nsgs-proj (robust default)" },
    { "nsgs-ac", NS_KIND_FC3D, { .fc = ns_fc3d_nsgs_ac }, 0, 100000,
      "Gauss-Seidel over contacts, Alart-Curnier local Newton + exact enumeration fallback" },
    { "nsgs-fb", NS_KIND_FC3D, { .fc = ns_fc3d_nsgs_fb }, 0, 100000,
      "Gauss-Seidel over contacts, Fischer-Burmeister local Newton + enumeration fallback" },
    { "nsgs-nm", NS_KIND_FC3D, { .fc = ns_fc3d_nsgs_nm }, 0, 100000,
      "Gauss-Seidel over contacts, natural-map local Newton + enumeration fallback" },
    { "nsgs-proj", NS_KIND_FC3D, { .fc = ns_fc3d_nsgs_proj }, 0, 100000,
      "Gauss-Seidel over contacts, local projection with adaptive step + enumeration fallback" },
    { "nsgs", NS_KIND_FC3D, { .fc = ns_fc3d_nsgs }, 0, 100000,
      "Gauss-Seidel over contacts with the local solver named by local_solver (ac, fb, nm, proj, enum)" },
    { "nsn-ac", NS_KIND_FC3D, { .fc = ns_fc3d_nsn_ac }, 0, 1000,
      "global semismooth Newton, Alart-Curnier, UMFPACK (analysis reused), non-monotone Armijo" },
    { "nsn-fb", NS_KIND_FC3D, { .fc = ns_fc3d_nsn_fb }, 0, 1000,
      "global semismooth Newton, Fischer-Burmeister on the second-order cone, UMFPACK, Armijo" },
    { "nsn-nm", NS_KIND_FC3D, { .fc = ns_fc3d_nsn_nm }, 0, 1000,
      "global semismooth Newton, natural map (De Saxce), UMFPACK, Armijo" },
    { "nsn-ac-gp", NS_KIND_FC3D, { .fc = ns_fc3d_nsn_ac_gp }, 0, 1000,
      "global semismooth Newton, Alart-Curnier, UMFPACK (analysis reused), Goldstein-Price line search" },
    { "fpp", NS_KIND_FC3D, { .fc = ns_fc3d_fpp }, 0, 100000,
      "fixed-point projection r = P_K(r - rho u^), self-adaptive rho (Khobotov + error decrease)" },
    { "eg", NS_KIND_FC3D, { .fc = ns_fc3d_eg }, 0, 100000,
      "extragradient (Korpelevich) on the VI form, self-adaptive rho (Khobotov + error decrease)" },
    { "prox", NS_KIND_FC3D, { .fc = ns_fc3d_prox }, 0, 1000,
      "proximal point: (W + sigma I, q - sigma r_k) solved by nsn-ac (nsgs-ac fallback), adaptive sigma" },
    { "desaxce", NS_KIND_FC3D, { .fc = ns_fc3d_desaxce }, 0, 100000,
      "De Saxce fixed point r = P_K(r - rho/W_NN u^), fixed rho (omega, default 1), halved on growth" },
    { "tresca-fp", NS_KIND_FC3D, { .fc = ns_fc3d_tresca_fp }, 0, 100000,
      "fixed point on Tresca thresholds mu r_N, each Tresca problem by NSGS with a local Tresca Newton" },
    { "admm", NS_KIND_FC3D, { .fc = ns_fc3d_admm }, 0, 20000,
      "ADMM on the cone program with De Saxce's term: (W + rho I) solves (CHOLMOD/LAPACKE), cone projections, residual-balanced rho" },
    { "ipm", NS_KIND_FC3D, { .fc = ns_fc3d_ipm }, 0, 100,
      "interior point on the De Saxce SOC form, Nesterov-Todd scaling, Mehrotra, W + W_nt^2 by CHOLMOD, nsn-ac finish" },
    { "ipm-fp", NS_KIND_FC3D, { .fc = ns_fc3d_ipm_fp }, 0, 200,
      "ipm with an outer fixed point on s = mu|u_T| (each convex SOC problem solved before s is updated)" },
    { "auto", NS_KIND_FC2D, { .fc = ns_fc3d_auto }, 1, 100000,
      "the FC3D auto chain in 2D: nsgs-ac, nsn-ac, restarts, other reformulations; Lemke/enum on the LCP form when a diagonal block is not monotone (robust default)" },
    { "lemke", NS_KIND_FC2D, { .fc = ns_fc2d_lemke }, 0, 1000000,
      "Lemke on the 4nc LCP of 2D Coulomb friction: sparse basis LU (UMFPACK) + eta updates, any size" },
    { "enum", NS_KIND_FC2D, { .fc = ns_fc2d_enum }, 0, 1073741824,
      "principal enumeration on the LCP reformulation (small problems only)" },
    { "nsgs", NS_KIND_FC2D, { .fc = ns_fc2d_nsgs }, 0, 100000,
      "Gauss-Seidel over contacts, exact 2D one-contact solver; active-set LU solve when sweeps stall" },
    { "pgs", NS_KIND_FC2D, { .fc = ns_fc3d_nsgs_proj }, 0, 100000,
      "projected Gauss-Seidel: local projection on the 2D cone with adaptive step" },
    { "nsn-ac", NS_KIND_FC2D, { .fc = ns_fc3d_nsn_ac }, 0, 1000,
      "global semismooth Newton, Alart-Curnier, UMFPACK" },
    { "fpp", NS_KIND_FC2D, { .fc = ns_fc3d_fpp }, 0, 100000,
      "fixed-point projection r = P_K(r - rho u^), self-adaptive rho (Khobotov + error decrease)" },
    { "eg", NS_KIND_FC2D, { .fc = ns_fc3d_eg }, 0, 100000,
      "extragradient (Korpelevich) on the VI form, self-adaptive rho (Khobotov + error decrease)" },
    { "prox", NS_KIND_FC2D, { .fc = ns_fc3d_prox }, 0, 1000,
      "proximal point: (W + sigma I, q - sigma r_k) solved by nsn-ac (nsgs-ac fallback), adaptive sigma" },
    { "desaxce", NS_KIND_FC2D, { .fc = ns_fc3d_desaxce }, 0, 100000,
      "De Saxce fixed point r = P_K(r - rho/W_NN u^), fixed rho (omega, default 1), halved on growth" },
    { "tresca-fp", NS_KIND_FC2D, { .fc = ns_fc3d_tresca_fp }, 0, 100000,
      "fixed point on Tresca thresholds mu r_N, each Tresca problem by NSGS with a local Tresca Newton" },
    { "admm", NS_KIND_FC2D, { .fc = ns_fc3d_admm }, 0, 20000,
      "ADMM on the cone program with De Saxce's term: (W + rho I) solves (CHOLMOD/LAPACKE), cone projections, residual-balanced rho" },
    { "reduce", NS_KIND_GFC3D, { .gfc = ns_gfc_reduce }, 1, 0,
      "W = H'M^-1 H (CHOLMOD), local solve (local_solver, default auto), v = M^-1(Hr + q)" },
    { "nsgs-ac", NS_KIND_GFC3D, { .gfc = ns_gfc_reduce_nsgs_ac }, 0, 100000,
      "reduction to the local problem, solved by nsgs-ac" },
    { "nsn-ac", NS_KIND_GFC3D, { .gfc = ns_gfc_nsn_ac }, 0, 1000,
      "global semismooth Newton on (v, r): [Mv - Hr - q; AC(r, H'v + b)], UMFPACK, Armijo" },
    { "reduce-nsn-ac", NS_KIND_GFC3D, { .gfc = ns_gfc_reduce_nsn_ac }, 0, 1000,
      "reduction to the local problem, solved by the local semismooth Newton nsn-ac (UMFPACK)" },
    { "ipm", NS_KIND_GFC3D, { .gfc = ns_gfc_ipm }, 0, 100,
      "interior point on the De Saxce SOC form, Nesterov-Todd scaling, Mehrotra, M + H W^-2 H' by CHOLMOD, nsn-ac finish" },
    { "ipm-fp", NS_KIND_GFC3D, { .gfc = ns_gfc_ipm_fp }, 0, 200,
      "ipm with an outer fixed point on s = mu|u_T| (each convex SOC problem solved before s is updated)" },
    { "reduce", NS_KIND_GFC2D, { .gfc = ns_gfc_reduce }, 1, 0,
      "W = H'M^-1 H (CHOLMOD), local solve (local_solver, default auto), v = M^-1(Hr + q)" },
    { "nsgs-ac", NS_KIND_GFC2D, { .gfc = ns_gfc_reduce_nsgs_ac }, 0, 100000,
      "reduction to the local problem, solved by nsgs-ac" },
    { "nsn-ac", NS_KIND_GFC2D, { .gfc = ns_gfc_nsn_ac }, 0, 1000,
      "global semismooth Newton on (v, r): [Mv - Hr - q; AC(r, H'v + b)], UMFPACK, Armijo" },
    { "reduce-nsn-ac", NS_KIND_GFC2D, { .gfc = ns_gfc_reduce_nsn_ac }, 0, 1000,
      "reduction to the local problem, solved by the local semismooth Newton nsn-ac (UMFPACK)" },
    { "admm", NS_KIND_GFC3D, { .gfc = ns_gfc_admm }, 0, 20000,
      "ADMM on (M, H) without W: M + rho H H' (CHOLMOD), cone projections, De Saxce's term, residual-balanced rho" },
    { "admm", NS_KIND_GFC2D, { .gfc = ns_gfc_admm }, 0, 20000,
      "ADMM on (M, H) without W: M + rho H H' (CHOLMOD), cone projections, De Saxce's term, residual-balanced rho" },
    { "gmp-nsgs", NS_KIND_GMP, { .gmp = ns_gmp_nsgs }, 1, 100000,
      "Gauss-Seidel over block rows, each solved exactly for its type (LU, enumeration, contact Newton)" },
    { "auto", NS_KIND_RFC3D, { .rfc = ns_rfc_auto }, 1, 100000,
      "nsgs to 1e-4, nsn to finish, nsgs again from the best point if nsn stops short (robust default)" },
    { "nsgs", NS_KIND_RFC3D, { .rfc = ns_rfc_nsgs }, 0, 100000,
      "Gauss-Seidel over contacts, local semismooth Newton on the rolling natural map, projection safeguard" },
    { "nsgs-proj", NS_KIND_RFC3D, { .rfc = ns_rfc_nsgs_proj }, 0, 100000,
      "Gauss-Seidel over contacts, local projected fixed point r = P_K(r - rho u^) on the rolling cone" },
    { "nsn", NS_KIND_RFC3D, { .rfc = ns_rfc_nsn }, 0, 1000,
      "global semismooth Newton on the rolling natural map, UMFPACK (analysis reused), Armijo" },
    { "nsn-ac", NS_KIND_RFC3D, { .rfc = ns_rfc_nsn_ac }, 0, 1000,
      "global semismooth Newton on the rolling Alart-Curnier function, UMFPACK (analysis reused), Armijo" },
    { "auto", NS_KIND_RFC2D, { .rfc = ns_rfc_auto }, 1, 100000,
      "nsgs to 1e-4, nsn to finish, nsgs again from the best point if nsn stops short (robust default)" },
    { "nsgs", NS_KIND_RFC2D, { .rfc = ns_rfc_nsgs }, 0, 100000,
      "Gauss-Seidel over contacts, local semismooth Newton on the rolling natural map, projection safeguard" },
    { "nsgs-proj", NS_KIND_RFC2D, { .rfc = ns_rfc_nsgs_proj }, 0, 100000,
      "Gauss-Seidel over contacts, local projected fixed point r = P_K(r - rho u^) on the rolling cone" },
    { "nsn", NS_KIND_RFC2D, { .rfc = ns_rfc_nsn }, 0, 1000,
      "global semismooth Newton on the rolling natural map, UMFPACK (analysis reused), Armijo" },
    { "nsn-ac", NS_KIND_RFC2D, { .rfc = ns_rfc_nsn_ac }, 0, 1000,
      "global semismooth Newton on the rolling Alart-Curnier function, UMFPACK (analysis reused), Armijo" },
    { "auto", NS_KIND_GRFC3D, { .grfc = ns_grfc_reduce }, 1, 0,
      "reduce with the rfc3d auto chain: W = H'M^-1 H, local solve, v = M^-1(Hr + q) (robust default)" },
    { "reduce", NS_KIND_GRFC3D, { .grfc = ns_grfc_reduce }, 0, 0,
      "W = H'M^-1 H (factor layer), local rfc3d solve (local_solver, default auto), v = M^-1(Hr + q)" },
    { "nsgs", NS_KIND_GRFC3D, { .grfc = ns_grfc_reduce_nsgs }, 0, 100000,
      "reduction to the local problem, solved by rfc3d nsgs" },
    { "nsn", NS_KIND_GRFC3D, { .grfc = ns_grfc_reduce_nsn }, 0, 1000,
      "reduction to the local problem, solved by the rfc3d global semismooth Newton" },
};

size_t ns_solver_count(void)
{
    return sizeof registry / sizeof registry[0];
}

const ns_solver_info *ns_solver_at(size_t i)
{
    return i < ns_solver_count() ? &registry[i] : NULL;
}

const ns_solver_info *ns_solver_find(const char *name, ns_kind kind)
{
    if (!name) return NULL;
    for (size_t i = 0; i < ns_solver_count(); i++)
        if (registry[i].kind == kind && strcmp(registry[i].name, name) == 0)
            return &registry[i];
    return NULL;
}

const ns_solver_info *ns_solver_default(ns_kind kind)
{
    for (size_t i = 0; i < ns_solver_count(); i++)
        if (registry[i].kind == kind && registry[i].is_default) return &registry[i];
    return NULL;
}
