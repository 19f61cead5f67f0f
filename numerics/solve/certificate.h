/* certificate.h — certificates of no solution (solve_certificate.c), private.
 * The LCP, MLCP and relay problems as one feasibility system (see the head
 * comment of solve_certificate.c). */
#ifndef NS_CERTIFICATE_H
#define NS_CERTIFICATE_H
#include "nonsmooth/ns_solver.h"

typedef struct ns_feas {
    ns_int N;
    double *M;             /* (N × N) dense column-major, owned */
    const double *q;       /* (N) borrowed from the problem */
    double *lo, *hi;       /* (N) bounds of z */
    unsigned char *type;   /* (N) row type: 1 w ≥ 0, 3 w ≤ 0, 2 w = 0, 0 none */
} ns_feas;

ns_status ns_feas_build(const ns_problem *p, ns_feas *f, char *err);
void ns_feas_free(ns_feas *f);
/** The check of ns_certificate_check on a built system. */
ns_status ns_feas_check(const ns_feas *f, ns_certificate *c, char *err);
/** Looks for a Farkas certificate by Lemke on the feasibility LP; on NS_OK
 *  c holds a checked one (c->y replaced, owned by c). NS_FAILED (the system
 *  is feasible, or Lemke stopped), NS_UNSUPPORTED (too large for the dense
 *  search), NS_NO_MEMORY. */
ns_status ns_feas_search(const ns_feas *f, ns_certificate *c, const ns_options *o,
                         char *err);
/** ns_feas_build + ns_feas_search. */
ns_status ns_certificate_search(const ns_problem *p, ns_certificate *c,
                                const ns_options *o, char *err);
#endif
