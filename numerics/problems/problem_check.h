/* problem_check.h — shared validation steps of the problem kinds. */
#ifndef NS_PROBLEM_CHECK_H
#define NS_PROBLEM_CHECK_H
#include "nonsmooth/ns_matrix.h"

/** M present, square of order n, structurally valid, finite entries. */
ns_status ns_check_square(const ns_matrix *M, ns_int n, const char *kind,
                          const char *name, char *err);

/** x present (when n > 0) and finite. */
ns_status ns_check_vector(const double *x, ns_int n, const char *kind,
                          const char *name, char *err);

/** mu present (when nc > 0), finite and ≥ 0. */
ns_status ns_check_mu(const double *mu, ns_int nc, const char *kind, char *err);

/** The F of the callback kinds: n ≥ 0 and a callback (has_F) or a square
 *  M of order n with finite q, not both. */
ns_status ns_check_map(ns_int n, int has_F, const ns_matrix *M, const double *q,
                       const char *kind, char *err);

/** lb, ub present (n > 0), not NaN, lb < +inf, ub > -inf, lb ≤ ub. */
ns_status ns_check_bounds(ns_int n, const double *lb, const double *ub,
                          const char *kind, char *err);

/** New bound arrays copied from lb, ub (NULL: all -inf / +inf); 0 on
 *  success, 1 out of memory (then *l = *u = NULL). */
int ns_bounds_copy(ns_int n, const double *lb, const double *ub, double **l, double **u);
#endif
