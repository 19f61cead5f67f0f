/* residual_global.h — the equilibrium part of the global problems' errors
 * (GFC2D/GFC3D, GRFC3D). Internal. */
#ifndef NS_RESIDUAL_GLOBAL_H
#define NS_RESIDUAL_GLOBAL_H
#include "nonsmooth/ns_matrix.h"
#include <stddef.h>

/** ‖q + H r − M v‖₂ / max(‖q‖, ‖M v‖, ‖H r‖), the division skipped when
 *  that max is ≤ √DBL_EPSILON (r unused when m = 0). work: n doubles, or
 *  NULL (then allocated here): H r, M v and q + H r − M v are formed in it
 *  in turn. +INFINITY on a non-finite residual or allocation failure. */
double ns_global_equilibrium_error(const ns_matrix *M, const ns_matrix *H, const double *q,
                                   const double *v, const double *r, size_t n, size_t m,
                                   double *work);

#endif
