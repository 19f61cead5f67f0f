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
#include "nonsmooth/ns_solver.h"

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

/** The same error from the sum of the contacts' squared errors already
 *  taken (ns_fc_contact_error_sq): the division by ‖q‖ or by
 *  max(‖q‖, ‖r‖, ‖u‖) as norm says; INFINITY when not finite. */
double ns_fc_vi_error_scaled(const ns_fc *p, const double *r, const double *u,
                             double sum_sq, double qn, ns_fc_norm norm);

/** The end of an iteration of the VI solvers: an error *err ≤ o->tol is
 *  confirmed by the library's own (ns_fc_error recomputes u = W r + q; *err
 *  takes its value). NS_CONVERGED, NS_TIME_LIMIT when o->time_limit has
 *  passed since t0 (t0 < 0: the caller checks the time itself), otherwise
 *  NS_MAX_ITER (go on). */
ns_status ns_fc_vi_iteration_end(const ns_fc *p, const double *r, double *u,
                                 const ns_options *o, double t0, double *err);

/** Unless st is NS_CONVERGED: the best iterate (best, best_err) replaces
 *  r when it beats *err, u is recomputed for it. */
void ns_fc_vi_keep_best(const ns_fc *p, ns_status st, const double *best, double best_err,
                        double *r, double *u, double *err);

/** 1 / max_α W_αα,NN of a blocked problem (1 if none is > 0). */
double ns_fc_vi_rho0(const ns_fc *view);

/** ‖x − y‖ over m entries. */
double ns_fc_vi_dist(size_t m, const double *x, const double *y);
#endif
