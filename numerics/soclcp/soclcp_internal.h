/* soclcp_internal.h — private helpers of the SOCLCP solvers. */
#ifndef NS_SOCLCP_INTERNAL_H
#define NS_SOCLCP_INTERNAL_H
#include "nonsmooth/ns_soclcp.h"

/** The Fischer–Burmeister residual of one cone of size d ≤ 64
 *  (soclcp_newton.c): phi ← Φ(r, v), zero iff K ∋ r ⊥ v ∈ K*; when Ar is
 *  not NULL, Ar ← ∂Φ/∂r and Av ← ∂Φ/∂v (d×d, column-major). */
void ns_soclcp_cone_phi(ns_int d, double mu, const double *r, const double *v, double *phi,
                        double *Ar, double *Av);

#endif
