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
#endif
