/* vi_internal.h — the projection-type VI methods shared by the vi, cqp
 * and soclcp kinds: F is an ns_cp_map, X is given by a projection. */
#ifndef NS_VI_INTERNAL_H
#define NS_VI_INTERNAL_H
#include "mcp/mcp_internal.h"

/** The set X: project(user, n, x, px) (callback, or the box of lb/ub when
 *  project is NULL). */
typedef struct ns_vi_set {
    ns_projection_fn project;
    void *user;
    const double *lb, *ub;
} ns_vi_set;

/** px ← P_X(x); 0 on success. */
int ns_vi_project(const ns_vi_set *X, ns_int n, const double *x, double *px);

/** ‖x − P_X(x − F)‖₂; +INFINITY when the projection fails. work: n. */
double ns_vi_natural_residual(const ns_vi_set *X, ns_int n, const double *x,
                              const double *F, double *work);

typedef enum { NS_VI_FPP, NS_VI_EG, NS_VI_HP } ns_vi_method;

/** Projection methods: fixed-point projection x ← P(x − ρF(x)) and
 *  extragradient, both with the self-adaptive step ρ; hyperplane
 *  projection (Solodov–Svaiter). x: start in, solution out; F ← F(x).
 *  Stops when the natural residual ≤ o->tol; res->error = that residual. */
ns_status ns_vi_projection_method(const ns_cp_map *f, const ns_vi_set *X, ns_vi_method m,
                                  double *x, double *F, const ns_options *o, ns_result *res);
#endif
