/* repose.h — the slope of a heap's free surface (angle of repose) from the
 * sphere centres, for spheres_box --rolling.
 *
 * Free surface: the spheres i with no sphere j above them (z_j > z_i) whose
 * centre lies within i's vertical cylinder (horizontal distance below R_i);
 * each gives a surface point: its horizontal distance ρ_i from the heap's
 * axis (the vertical through the centroid of all centres) and its top
 * z_i + R_i. The least-squares line z = z0 − s ρ through these points gives
 * the angle atan(s) (degrees; positive for a heap that peaks on its axis).
 * In a box the walls bound the heap: the angle is then that of the surface
 * between the walls. */
#ifndef SBX_REPOSE_H
#define SBX_REPOSE_H
#include <stdio.h>

typedef struct sbx_repose {
    int n, nsurf;          /* spheres, spheres on the free surface */
    double *rho, *ztop;    /* (nsurf) surface points */
    double cx, cy;         /* the axis */
    double z0, slope, angle_deg;
    double rms;            /* root mean square distance of the points from the line (m) */
    double zmin, zmax;     /* lowest and highest surface point */
} sbx_repose;

/** Measures the free surface of n spheres (centres x: 3 n values, radii R).
 *  Returns 0, or −1 (n < 1, NULL input, out of memory, or fewer than two
 *  surface points at distinct ρ); rp is cleared first and must be passed to
 *  sbx_repose_clear in every case. */
int sbx_repose_measure(int n, const double *x, const double *R, sbx_repose *rp);
/** One line "repose: ...". */
void sbx_repose_print(FILE *f, const sbx_repose *rp);
/** SVG: the surface points and the fitted line, ztop against ρ. 0 on success. */
int sbx_repose_plot(const sbx_repose *rp, const char *path);
void sbx_repose_clear(sbx_repose *rp);

#endif
