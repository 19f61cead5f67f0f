/* solve_registry.c — the one table of solvers. nsolve and nsbench look
 * solvers up here by (name, kind); tests walk it so no solver goes untested.
 * Add a row when a solver lands; mark one default per kind. */
#include "nonsmooth/ns_solver.h"
#include "solve/solvers.h"
#include "fc2d/fc2d_internal.h"
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
    { "reduce", NS_KIND_GFC3D, { .gfc = ns_gfc_reduce }, 1, 0,
      "W = H'M^-1 H (CHOLMOD), local solve (local_solver, default auto), v = M^-1(Hr + q)" },
    { "nsgs-ac", NS_KIND_GFC3D, { .gfc = ns_gfc_reduce_nsgs_ac }, 0, 100000,
      "reduction to the local problem, solved by nsgs-ac" },
    { "nsn-ac", NS_KIND_GFC3D, { .gfc = ns_gfc_nsn_ac }, 0, 1000,
      "global semismooth Newton on (v, r): [Mv - Hr - q; AC(r, H'v + b)], UMFPACK, Armijo" },
    { "reduce-nsn-ac", NS_KIND_GFC3D, { .gfc = ns_gfc_reduce_nsn_ac }, 0, 1000,
      "reduction to the local problem, solved by the local semismooth Newton nsn-ac (UMFPACK)" },
    { "reduce", NS_KIND_GFC2D, { .gfc = ns_gfc_reduce }, 1, 0,
      "W = H'M^-1 H (CHOLMOD), local solve (local_solver, default auto), v = M^-1(Hr + q)" },
    { "nsgs-ac", NS_KIND_GFC2D, { .gfc = ns_gfc_reduce_nsgs_ac }, 0, 100000,
      "reduction to the local problem, solved by nsgs-ac" },
    { "nsn-ac", NS_KIND_GFC2D, { .gfc = ns_gfc_nsn_ac }, 0, 1000,
      "global semismooth Newton on (v, r): [Mv - Hr - q; AC(r, H'v + b)], UMFPACK, Armijo" },
    { "reduce-nsn-ac", NS_KIND_GFC2D, { .gfc = ns_gfc_reduce_nsn_ac }, 0, 1000,
      "reduction to the local problem, solved by the local semismooth Newton nsn-ac (UMFPACK)" },
    { "gmp-nsgs", NS_KIND_GMP, { .gmp = ns_gmp_nsgs }, 1, 100000,
      "Gauss-Seidel over block rows, each solved exactly for its type (LU, enumeration, contact Newton)" },
    { "auto", NS_KIND_NCP, { .ncp = ns_ncp_auto }, 1, 200,
      "newton-fb, then newton-min, then the smoothing homotopy from the same start; the best iterate is kept (robust default)" },
    { "newton-fb", NS_KIND_NCP, { .ncp = ns_ncp_newton_fb }, 0, 200,
      "semismooth Newton on Fischer-Burmeister, nonmonotone Armijo, Levenberg-Marquardt then gradient safeguard" },
    { "newton-min", NS_KIND_NCP, { .ncp = ns_ncp_newton_min }, 0, 200,
      "semismooth Newton on the min map, nonmonotone Armijo on its merit, LM then gradient safeguard" },
    { "homotopy", NS_KIND_NCP, { .ncp = ns_ncp_homotopy }, 0, 500,
      "smoothing homotopy: smoothed FB (mu -> 0 by factors of 10) followed by newton-fb; for degenerate problems" },
    { "auto", NS_KIND_MCP, { .mcp = ns_mcp_auto }, 1, 200,
      "newton-fb, then newton-min, then the smoothing homotopy from the same start; the best iterate is kept (robust default)" },
    { "newton-fb", NS_KIND_MCP, { .mcp = ns_mcp_newton_fb }, 0, 200,
      "semismooth Newton on Billups' box Fischer-Burmeister, nonmonotone Armijo, LM then gradient safeguard" },
    { "newton-min", NS_KIND_MCP, { .mcp = ns_mcp_newton_min }, 0, 200,
      "semismooth Newton on the box min map z - mid(l, u, z - F), nonmonotone Armijo, LM then gradient safeguard" },
    { "homotopy", NS_KIND_MCP, { .mcp = ns_mcp_homotopy }, 0, 500,
      "smoothing homotopy on the box FB function, then newton-fb" },
    { "auto", NS_KIND_VI, { .vi = ns_vi_auto }, 1, 20000,
      "100 fpp steps, then from the start box X: the MCP chain (newton-fb, newton-min, homotopy); projection X: eg then hp (robust default)" },
    { "eg", NS_KIND_VI, { .vi = ns_vi_eg }, 0, 20000,
      "extragradient (Korpelevich), self-adaptive step (Khobotov rule); monotone Lipschitz F" },
    { "fpp", NS_KIND_VI, { .vi = ns_vi_fpp }, 0, 20000,
      "fixed-point projection x <- P(x - rho F(x)), self-adaptive step; strongly monotone F" },
    { "hp", NS_KIND_VI, { .vi = ns_vi_hp }, 0, 20000,
      "hyperplane projection (Solodov-Svaiter), Armijo search; monotone continuous F" },
    { "newton-fb", NS_KIND_VI, { .vi = ns_vi_newton_fb }, 0, 200,
      "box X only: semismooth Newton on the box Fischer-Burmeister function (the VI as an MCP)" },
    { "newton-min", NS_KIND_VI, { .vi = ns_vi_newton_min }, 0, 200,
      "box X only: semismooth Newton on the box min map" },
    { "auto", NS_KIND_CQP, { .cqp = ns_cqp_auto }, 1, 20000,
      "pg-bb without equality constraints, admm if it fails or with A x = b (robust default)" },
    { "pg-bb", NS_KIND_CQP, { .cqp = ns_cqp_pg_bb }, 0, 20000,
      "projected gradient, Barzilai-Borwein steps, nonmonotone exact line search (SPG); no A x = b" },
    { "admm", NS_KIND_CQP, { .cqp = ns_cqp_admm }, 0, 20000,
      "ADMM: KKT solve with A x = b (UMFPACK), projection on C, residual-balanced rho" },
    { "auto", NS_KIND_SOCLCP, { .soclcp = ns_soclcp_auto }, 1, 10000,
      "nsgs, then eg from its iterate (robust default)" },
    { "nsgs", NS_KIND_SOCLCP, { .soclcp = ns_soclcp_nsgs }, 0, 10000,
      "block Gauss-Seidel over the cones, local projection iteration on each cone" },
    { "fpp", NS_KIND_SOCLCP, { .soclcp = ns_soclcp_fpp }, 0, 20000,
      "fixed-point projection on the VI form, self-adaptive step" },
    { "eg", NS_KIND_SOCLCP, { .soclcp = ns_soclcp_eg }, 0, 20000,
      "extragradient on the VI form, self-adaptive step" },
    { "newton-fb", NS_KIND_SOCLCP, { .soclcp = ns_soclcp_newton_fb }, 0, 200,
      "semismooth Newton on the second-order cone's Fischer-Burmeister function (Jordan algebra), nsgs start, Armijo" },
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
