/* fc3d_local_proj.c — one-contact projection with a local step:
 *     r ← P_K(r − ρ û(r)),   û = W r + q + μ‖u_T‖ e_N,
 * starting from ρ = 1/W_NN; a step that raises the contact error is
 * rejected and ρ halved, an accepted one lets ρ grow by 1.5 (bounded by
 * 1/W_NN·4). At most 20·max_iter steps. */
#include "fc/fc3d_local.h"
#include <math.h>
#include <string.h>

int ns_fc_local_proj(const ns_fc_contact *c, double *r)
{
    const int d = c->dim;
    double u[3], z[3];
    double err = ns_fc_contact_residual(c, r, u);
    double rho = c->rho_n, rho_max = 4.0 * c->rho_n;
    for (int it = 0; it < 20 * c->max_iter && err > c->tol; it++) {
        double nut = d == 3 ? hypot(u[1], u[2]) : fabs(u[1]);
        z[0] = r[0] - rho * (u[0] + c->mu * nut);
        for (int i = 1; i < d; i++) z[i] = r[i] - rho * u[i];
        ns_fc_project_cone(d, c->mu, z, NULL);
        double uz[3];
        double ez = ns_fc_contact_residual(c, z, uz);
        if (ez < err) {
            memcpy(r, z, (size_t)d * sizeof(double));
            memcpy(u, uz, (size_t)d * sizeof(double));
            err = ez;
            rho = fmin(1.5 * rho, rho_max);
        } else {
            rho *= 0.5;
            if (rho < 1e-12 * c->rho_n) break;
        }
    }
    return err <= c->tol ? 0 : 1;
}
