/* fc3d_vi.h — the variational-inequality form of FC2D/FC3D shared by the
 * projection-type solvers (fpp, eg, desaxce, prox, tresca-fp); private to
 * libnonsmooth_numerics.
 *     find r ∈ K:  ⟨û(r), s − r⟩ ≥ 0 ∀ s ∈ K,
 *     û(r) = u + μ‖u_T‖ e_N per contact,  u = W r + q,
 * equivalently r = P_K(r − ρ û(r)) for any ρ > 0. */
#ifndef NS_FC3D_VI_H
#define NS_FC3D_VI_H
#include "nonsmooth/ns_fc.h"
#include "nonsmooth/ns_residual.h"

/** u ← W r + q (one W·x product). */
void ns_fc_vi_velocity(const ns_fc *p, const double *r, double *u);

/** uh ← û(u) (De Saxcé's modified velocity), every contact. */
void ns_fc_vi_modified(const ns_fc *p, const double *u, double *uh);

/** w ← P_K(r − ρ_α uh) per contact, ρ_α = rho · scale[α] (scale NULL: 1). */
void ns_fc_vi_project(const ns_fc *p, double rho, const double *scale,
                      const double *r, const double *uh, double *w);

/** ns_fc_error from an already computed u = W r + q (no product); qn = ‖q‖. */
double ns_fc_vi_error(const ns_fc *p, const double *r, const double *u,
                      double qn, ns_fc_norm norm);

/** 1 / max_α W_αα,NN of a blocked problem (1 if none is > 0). */
double ns_fc_vi_rho0(const ns_fc *view);

/** ‖x − y‖ over m entries. */
double ns_fc_vi_dist(size_t m, const double *x, const double *y);
#endif
