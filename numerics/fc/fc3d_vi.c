/* fc3d_vi.c — pieces of the VI form r = P_K(r − ρ û(r)) (fc3d_vi.h):
 * u = W r + q, û = u + μ‖u_T‖ e_N, the per-contact projection of
 * r − ρ_α û_α on the Coulomb cone, and the FC error of ns_residual.h
 * evaluated from an already known u (same formula: ‖r − P_K(r − û)‖
 * divided by max(‖q‖, ‖r‖, ‖u‖), or by ‖q‖), so that iterative solvers
 * pay one W·x product per iterate, not two. */
#include "fc/fc3d_vi.h"
#include "fc/fc3d_local.h"
#include "core/ns_internal.h"
#include <float.h>
#include <math.h>
#include <string.h>

void ns_fc_vi_velocity(const ns_fc *p, const double *r, double *u)
{
    const size_t m = (size_t)p->dim * (size_t)p->nc;
    for (size_t i = 0; i < m; i++) u[i] = p->q[i];
    ns_matrix_gemv(1.0, p->W, r, 1.0, u);
}

void ns_fc_vi_modified(const ns_fc *p, const double *u, double *uh)
{
    const int d = p->dim;
    for (ns_int a = 0; a < p->nc; a++) {
        const double *ua = u + (size_t)a * d;
        double *h = uh + (size_t)a * d;
        double nt = d == 3 ? hypot(ua[1], ua[2]) : fabs(ua[1]);
        h[0] = ua[0] + p->mu[a] * nt;
        for (int i = 1; i < d; i++) h[i] = ua[i];
    }
}

void ns_fc_vi_project(const ns_fc *p, double rho, const double *scale,
                      const double *r, const double *uh, double *w)
{
    const int d = p->dim;
    for (ns_int a = 0; a < p->nc; a++) {
        double ra = rho * (scale ? scale[a] : 1.0);
        double *wa = w + (size_t)a * d;
        for (int i = 0; i < d; i++) wa[i] = r[(size_t)a * d + i] - ra * uh[(size_t)a * d + i];
        ns_fc_project_cone(d, p->mu[a], wa, NULL);
    }
}

double ns_fc_vi_error(const ns_fc *p, const double *r, const double *u,
                      double qn, ns_fc_norm norm)
{
    const int d = p->dim;
    double s = 0.0;
    for (ns_int a = 0; a < p->nc; a++)
        s += ns_fc_contact_error_sq(d, p->mu[a], r + (size_t)a * d, u + (size_t)a * d);
    return ns_fc_vi_error_scaled(p, r, u, s, qn, norm);
}

double ns_fc_vi_error_scaled(const ns_fc *p, const double *r, const double *u,
                             double sum_sq, double qn, ns_fc_norm norm)
{
    const size_t m = (size_t)p->dim * (size_t)p->nc;
    double den = qn;
    if (norm != NS_FC_NORM_Q) {
        double nr = 0.0, nu = 0.0;
        for (size_t i = 0; i < m; i++) { nr += r[i] * r[i]; nu += u[i] * u[i]; }
        den = fmax(qn, fmax(sqrt(nr), sqrt(nu)));
    }
    double e = sqrt(sum_sq);
    if (den > DBL_EPSILON) e /= den;
    return isfinite(e) ? e : INFINITY;
}

ns_status ns_fc_vi_iteration_end(const ns_fc *p, const double *r, double *u,
                                 const ns_options *o, double t0, double *err)
{
    if (*err <= o->tol) *err = ns_fc_error(p, r, u, (ns_fc_norm)o->fc_norm);
    if (*err <= o->tol) return NS_CONVERGED;
    if (t0 >= 0 && o->time_limit > 0 && ns_now() - t0 > o->time_limit) return NS_TIME_LIMIT;
    if (ns_cancelled(o)) return NS_INTERRUPTED;
    return NS_MAX_ITER;
}

void ns_fc_vi_keep_best(const ns_fc *p, ns_status st, const double *best, double best_err,
                        double *r, double *u, double *err)
{
    if (st == NS_CONVERGED || !(best_err < *err)) return;
    memcpy(r, best, (size_t)p->dim * (size_t)p->nc * sizeof(double));
    ns_fc_vi_velocity(p, r, u);
    *err = best_err;
}

double ns_fc_vi_dist(size_t m, const double *x, const double *y)
{
    double s = 0.0;
    for (size_t i = 0; i < m; i++) s += (x[i] - y[i]) * (x[i] - y[i]);
    return sqrt(s);
}

double ns_fc_vi_rho0(const ns_fc *view)
{
    const ns_block *B = &view->W->block;
    double wmax = 0.0;
    for (ns_int a = 0; a < view->nc; a++) wmax = fmax(wmax, B->x[B->value_ptr[B->diag[a]]]);
    return wmax > 0 ? 1.0 / wmax : 1.0;
}
