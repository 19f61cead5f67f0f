/* repose.c — see repose.h. */
#include "repose.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "svgplot.h"

void sbx_repose_clear(sbx_repose *rp)
{
    if (!rp) return;
    free(rp->rho);
    free(rp->ztop);
    memset(rp, 0, sizeof *rp);
}

int sbx_repose_measure(int n, const double *x, const double *R, sbx_repose *rp)
{
    if (!rp) return -1;
    memset(rp, 0, sizeof *rp);
    if (n < 1 || !x || !R) return -1;
    rp->n = n;
    rp->rho = malloc((size_t)n * sizeof *rp->rho);
    rp->ztop = malloc((size_t)n * sizeof *rp->ztop);
    if (!rp->rho || !rp->ztop) return -1;
    for (int i = 0; i < n; i++) { rp->cx += x[3 * i]; rp->cy += x[3 * i + 1]; }
    rp->cx /= n; rp->cy /= n;
    /* O(n²): the measure runs once, at the end of a run */
    for (int i = 0; i < n; i++) {
        const double *xi = x + 3 * i;
        int covered = 0;
        for (int j = 0; j < n && !covered; j++) {
            const double *xj = x + 3 * j;
            covered = j != i && xj[2] > xi[2] && hypot(xj[0] - xi[0], xj[1] - xi[1]) < R[i];
        }
        if (covered) continue;
        rp->rho[rp->nsurf] = hypot(xi[0] - rp->cx, xi[1] - rp->cy);
        rp->ztop[rp->nsurf] = xi[2] + R[i];
        rp->nsurf++;
    }
    int m = rp->nsurf;
    double sr = 0, sz = 0;
    rp->zmin = INFINITY; rp->zmax = -INFINITY;
    for (int k = 0; k < m; k++) {
        sr += rp->rho[k]; sz += rp->ztop[k];
        rp->zmin = fmin(rp->zmin, rp->ztop[k]);
        rp->zmax = fmax(rp->zmax, rp->ztop[k]);
    }
    if (m < 2) return -1;
    double mr = sr / m, mz = sz / m, srr = 0, srz = 0;
    for (int k = 0; k < m; k++) {
        srr += (rp->rho[k] - mr) * (rp->rho[k] - mr);
        srz += (rp->rho[k] - mr) * (rp->ztop[k] - mz);
    }
    if (!(srr > 0)) return -1;
    rp->slope = -srz / srr;
    rp->z0 = mz + rp->slope * mr;
    rp->angle_deg = atan(rp->slope) * 180.0 / 3.14159265358979323846;
    double ss = 0;
    for (int k = 0; k < m; k++) {
        double d = rp->ztop[k] - (rp->z0 - rp->slope * rp->rho[k]);
        ss += d * d;
    }
    rp->rms = sqrt(ss / m);
    return 0;
}

void sbx_repose_print(FILE *f, const sbx_repose *rp)
{
    fprintf(f, "repose: angle=%.3g deg slope=%.4g surface_spheres=%d of %d z0=%.4g m "
            "rms=%.3g m surface_z=[%.4g, %.4g] m (least-squares line of the free surface's "
            "tops against the distance from the heap's axis)\n",
            rp->angle_deg, rp->slope, rp->nsurf, rp->n, rp->z0, rp->rms, rp->zmin, rp->zmax);
}

int sbx_repose_plot(const sbx_repose *rp, const char *path)
{
    if (!rp || rp->nsurf < 2 || !path) return -1;
    double rmax = 0;
    for (int k = 0; k < rp->nsurf; k++) rmax = fmax(rmax, rp->rho[k]);
    double lx[2] = { 0.0, rmax }, ly[2] = { rp->z0, rp->z0 - rp->slope * rmax };
    char title[160];
    snprintf(title, sizeof title, "Free surface of the heap: angle of repose %.1f deg", rp->angle_deg);
    svgplot *p = svgplot_new(1, title);
    if (!p) return -1;
    svgplot_labels(p, 0, "distance from the heap's axis [m]", "height of the surface [m]");
    int rc = svgplot_series(p, 0, "tops of the surface spheres", (size_t)rp->nsurf, rp->rho, rp->ztop, 1);
    rc |= svgplot_series(p, 0, "least-squares line", 2, lx, ly, 0);
    rc |= svgplot_write(p, path);
    svgplot_free(p);
    return rc ? -1 : 0;
}
