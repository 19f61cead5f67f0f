/* ns_mcp.h — mixed (box-constrained) complementarity problem.
 *   find z ∈ [l, u] (l_i ∈ [−∞, ∞), u_i ∈ (−∞, ∞], l ≤ u) such that for
 *   every i:  z_i = l_i ⇒ F_i(z) ≥ 0,  z_i = u_i ⇒ F_i(z) ≤ 0,
 *             l_i < z_i < u_i ⇒ F_i(z) = 0,
 *   i.e. z = P_[l,u](z − F(z)). Rows with l_i = −∞, u_i = +∞ are the
 *   equalities F_E(z) = 0; rows with l_i = 0, u_i = +∞ are complementarity
 *   rows 0 ≤ z_i ⊥ F_i(z) ≥ 0 (an NCP is the MCP with l = 0, u = +∞).
 * F as for the NCP (ns_ncp.h): a callback with optional Jacobian, or affine
 * F(z) = M z + q (an MLCP read as an MCP).
 */
#ifndef NS_MCP_H
#define NS_MCP_H
#include "ns_ncp.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_mcp {
    ns_int n;
    ns_map_fn F;          /* callback, or NULL for the affine form */
    ns_jacobian_fn J;     /* NULL: forward differences of F (dense) */
    void *user;           /* borrowed, passed to F and J */
    ns_matrix *M;         /* affine form (n × n), owned */
    double *q;            /* affine form (n), owned */
    double *lb, *ub;      /* (n) owned bounds; −INFINITY / +INFINITY allowed */
} ns_mcp;

/** MCP with callback F (J may be NULL), bounds copied from lb and ub (n
 *  values each; NULL lb means all −∞, NULL ub all +∞). */
ns_mcp *ns_mcp_new(ns_int n, ns_map_fn F, ns_jacobian_fn J, void *user,
                   const double *lb, const double *ub);

/** The mixed form of the MCP: n_eq equalities F_E(z) = 0 (z_E free) first,
 *  then n_cp complementarity rows 0 ≤ z_C ⊥ F_C(z) ≥ 0 (n = n_eq + n_cp). */
ns_mcp *ns_mcp_new_mixed(ns_int n_eq, ns_int n_cp, ns_map_fn F, ns_jacobian_fn J,
                         void *user);

/** Affine MCP F(z) = M z + q: takes M (freed on failure), copies q, lb, ub
 *  (NULL as above). */
ns_mcp *ns_mcp_new_affine(ns_matrix *M, const double *q, const double *lb,
                          const double *ub);

/** Sizes, the F/M choice as for the NCP, bounds present, not NaN, l ≤ u,
 *  l < +∞, u > −∞. NS_OK or NS_BAD_INPUT with the field in err. */
ns_status ns_mcp_validate(const ns_mcp *p, char *err);

/** Frees p, M, q, lb, ub (never user). NULL allowed. */
void ns_mcp_free(ns_mcp *p);

#ifdef __cplusplus
}
#endif
#endif
