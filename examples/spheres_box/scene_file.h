/* scene_file.h — the initial scene of spheres_box as a small text file,
 * and the end-of-run measures every engine is compared on.
 *
 * spheres_box --write-scene FILE writes the scene it builds (box, gravity,
 * contact law, step, step count, and per sphere: position, velocity, spin,
 * radius, mass, moment of inertia); the peer programs of benchmarks/peers
 * (Bullet, ODE, MuJoCo) read it, so that they simulate exactly the same
 * spheres. Plain C, no dependency on the nonsmooth libraries.
 *
 * Format (text, '#' starts a comment line; keys in this order):
 *   nonsmooth-spheres-scene 1
 *   n N
 *   box AX AY          walls x = ±AX, y = ±AY, floor z = 0, open top
 *   gravity GX GY GZ
 *   mu MU
 *   e E                Newton restitution coefficient
 *   h H
 *   steps S
 *   then N lines: x y z vx vy vz wx wy wz R m I
 *
 * Overlap measures: at given positions, every sphere pair closer than the
 * sum of the radii (overlap = R_i + R_j − distance) and every sphere
 * crossing the floor or a wall (overlap = R − distance to the plane). */
#ifndef SBX_SCENE_FILE_H
#define SBX_SCENE_FILE_H
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbx_scene {
    int n;
    double ax, ay;          /* box half-widths */
    double g[3];            /* gravity */
    double mu, e, h;
    long steps;
    double *x, *v, *w;      /* 3 n each: position, velocity, angular velocity */
    double *R, *m, *I;      /* n each */
} sbx_scene;

/** Writes s to path; 0, or −1 with the reason in err (len bytes). */
int sbx_scene_write(const char *path, const sbx_scene *s, char *err, size_t len);
/** Reads a scene written by sbx_scene_write, validating every field (count,
 *  finite values, R, m, I, h, mu > 0 ...). Returns a new scene the caller
 *  frees with sbx_scene_free, or NULL with "path: line L: reason" in err. */
sbx_scene *sbx_scene_read(const char *path, char *err, size_t len);
void sbx_scene_free(sbx_scene *s);

typedef struct sbx_overlap {
    double pair_max, pair_mean;   /* over the overlapping sphere pairs (0 if none) */
    long pairs;                   /* overlapping sphere pairs */
    double wall_max, wall_mean;   /* over the sphere-floor/wall overlaps */
    long walls;
} sbx_overlap;

/** Overlaps of n spheres at positions x (3 n, stride 3), radii R, in the box
 *  ±ax × ±ay above z = 0. Returns 0, or −1 if memory runs out (o zeroed).
 *  Sort and sweep along x: O(n log n + pairs within 2 max R in x). */
int sbx_overlaps(int n, const double *x, const double *R, double ax, double ay, sbx_overlap *o);

/** The comparison line every engine prints (one line, key=value):
 *  "peer: engine=E settings=S n=N steps=K settled_ms=.. settled_cpu_ms=.. run_s=..
 *   max_overlap_um=.. mean_overlap_um=.. overlapping_pairs=..
 *   wall_max_overlap_um=.. wall_mean_overlap_um=.. overlapping_walls=..
 *   kinetic_energy=..". settled_ms: wall time per step over the settled
 *  steps (benchmarks/peers: 1500 to the end), settled_cpu_ms the process
 *  CPU time per step over the same steps (less sensitive to other load on
 *  the machine); NAN when not measured. */
void sbx_peer_line(FILE *f, const char *engine, const char *settings, int n, long steps,
                   double settled_ms, double settled_cpu_ms, double run_s, const sbx_overlap *o,
                   double kinetic_energy);

#ifdef __cplusplus
}
#endif
#endif
