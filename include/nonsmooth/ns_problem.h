/* ns_problem.h — a problem of any kind (tagged union) and its solution
 * vectors.
 */
#ifndef NS_PROBLEM_H
#define NS_PROBLEM_H
#include "ns_kind.h"
#include "ns_lcp.h"
#include "ns_mlcp.h"
#include "ns_relay.h"
#include "ns_avi.h"
#include "ns_equality.h"
#include "ns_fc.h"
#include "ns_gfc.h"
#include "ns_gmp.h"
#include "ns_rfc.h"
#include "ns_ncp.h"
#include "ns_mcp.h"
#include "ns_vi.h"
#include "ns_cqp.h"
#include "ns_soclcp.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_problem {
    ns_kind kind;
    union {
        ns_lcp *lcp;           /* NS_KIND_LCP */
        ns_mlcp *mlcp;         /* NS_KIND_MLCP */
        ns_relay *relay;       /* NS_KIND_RELAY */
        ns_avi *avi;           /* NS_KIND_AVI */
        ns_equality *equality; /* NS_KIND_EQUALITY */
        ns_fc *fc;             /* NS_KIND_FC2D, NS_KIND_FC3D */
        ns_gfc *gfc;           /* NS_KIND_GFC2D, NS_KIND_GFC3D */
        ns_gmp *gmp;           /* NS_KIND_GMP */
        ns_rfc *rfc;           /* NS_KIND_RFC3D, NS_KIND_RFC2D */
        ns_grfc *grfc;         /* NS_KIND_GRFC3D */
        ns_ncp *ncp;           /* NS_KIND_NCP */
        ns_mcp *mcp;           /* NS_KIND_MCP */
        ns_vi *vi;             /* NS_KIND_VI */
        ns_cqp *cqp;           /* NS_KIND_CQP */
        ns_soclcp *soclcp;     /* NS_KIND_SOCLCP */
    } u;
} ns_problem;

/* Wrappers: take ownership of the kind-specific problem (freed on failure). */
ns_problem *ns_problem_from_lcp(ns_lcp *p);
ns_problem *ns_problem_from_mlcp(ns_mlcp *p);
ns_problem *ns_problem_from_relay(ns_relay *p);
ns_problem *ns_problem_from_avi(ns_avi *p);
ns_problem *ns_problem_from_equality(ns_equality *p);
ns_problem *ns_problem_from_fc(ns_fc *p);      /* kind from p->dim */
ns_problem *ns_problem_from_gfc(ns_gfc *p);    /* kind from p->dim */
ns_problem *ns_problem_from_gmp(ns_gmp *p);
ns_problem *ns_problem_from_rfc(ns_rfc *p);    /* kind from p->dim (5: rfc3d, 3: rfc2d) */
ns_problem *ns_problem_from_grfc(ns_grfc *p);  /* grfc3d */
ns_problem *ns_problem_from_ncp(ns_ncp *p);
ns_problem *ns_problem_from_mcp(ns_mcp *p);
ns_problem *ns_problem_from_vi(ns_vi *p);
ns_problem *ns_problem_from_cqp(ns_cqp *p);
ns_problem *ns_problem_from_soclcp(ns_soclcp *p);

/** Validates with the kind's validator. */
ns_status ns_problem_validate(const ns_problem *p, char *err);

/** Number of unknowns of the problem's main vector (lcp/relay/avi/equality
 *  n, mlcp n+m, fc d·nc, gfc d·nc, gmp n, rfc d·nc, grfc d·nc,
 *  ncp/mcp/vi/cqp/soclcp n). */
ns_int ns_problem_size(const ns_problem *p);

/** Frees p and the kind-specific problem. NULL allowed. */
void ns_problem_free(ns_problem *p);

/* ---- solutions ---- */

#define NS_SOLUTION_MAXVEC 3

/** The vectors of a solution, in the order of the solution file:
 *   lcp, relay: z, w         mlcp: u (n), v (m), w (n+m)
 *   avi: z                   equality: z
 *   fc2d/fc3d: r, u          gfc2d/gfc3d: v (n), u (d·nc), r (d·nc)
 *   gmp: reaction, velocity
 *   rfc3d/rfc2d: r, u        grfc3d: v (n), u (d·nc), r (d·nc)
 *   ncp, mcp: z, F (F(z))    vi: x, F (F(x))
 *   cqp: x (n), y (m, multipliers of A x = b), g (n, M x + q − Aᵀ y)
 *   soclcp: r, v (W r + q)
 * The solver's unknowns are the first vector(s); the others are computed
 * from them (w = Mz + q, u = Wr + q, ...). */
typedef struct ns_solution {
    ns_kind kind;
    int nvec;
    const char *name[NS_SOLUTION_MAXVEC];  /* static strings */
    ns_int len[NS_SOLUTION_MAXVEC];
    double *vec[NS_SOLUTION_MAXVEC];        /* owned, zero-initialised */
    ns_int cap[NS_SOLUTION_MAXVEC];         /* room in vec[k] (ns_solution_reshape); 0 = len[k] */
} ns_solution;

/** Zeroed solution vectors sized for p. Caller frees with ns_solution_free. */
ns_solution *ns_solution_new(const ns_problem *p);
/** Vector by name, NULL if the solution has none of that name. */
double *ns_solution_get(ns_solution *s, const char *name);
void ns_solution_free(ns_solution *s);
/** Re-sizes s for p (of s's kind), zeroed, in s's own vectors (grown with
 *  1/8 headroom, never shrunk: nothing allocated once s has seen p's
 *  largest sizes). NS_BAD_INPUT (another kind) or NS_NO_MEMORY (s keeps
 *  its old sizes). */
ns_status ns_solution_reshape(ns_solution *s, const ns_problem *p);

#ifdef __cplusplus
}
#endif
#endif
