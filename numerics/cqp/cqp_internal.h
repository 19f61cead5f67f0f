/* cqp_internal.h — shared by the convex QP solvers and its error. */
#ifndef NS_CQP_INTERNAL_H
#define NS_CQP_INTERNAL_H
#include "nonsmooth/ns_cqp.h"

/** px ← P_C(x) for the problem's set (box, cones, callback; ℝⁿ when none
 *  is given). 0 on success. */
int ns_cqp_project(const ns_cqp *p, const double *x, double *px);
#endif
