/* bt_world.h — the C interface of the Bullet wrapper (bt_world.cpp): a
 * collision world of shapes and objects, broad phase + narrow phase with
 * persistent contact manifolds, and a walk over their contact points.
 * Only geometry: the interactions are made in collision.c. Bullet's
 * double-precision build (bullet-float64). Private to libnonsmooth_collision. */
#ifndef NSM_BT_WORLD_H
#define NSM_BT_WORLD_H
#ifdef __cplusplus
extern "C" {
#endif
typedef struct nsm_bt_world nsm_bt_world;

nsm_bt_world *nsm_bt_new(void);
void nsm_bt_free(nsm_bt_world *w);

/* Shapes: index ≥ 0, or −1 (out of memory / Bullet refused). Data copied. */
int nsm_bt_sphere(nsm_bt_world *w, double r);
int nsm_bt_box(nsm_bt_world *w, const double *half);
int nsm_bt_capsule(nsm_bt_world *w, double r, double half_length);   /* axis z */
int nsm_bt_cylinder(nsm_bt_world *w, double r, double half_length);  /* axis z */
int nsm_bt_cone(nsm_bt_world *w, double r, double height);           /* axis z */
int nsm_bt_convex_hull(nsm_bt_world *w, int n, const double *pts);
int nsm_bt_trimesh(nsm_bt_world *w, int nv, const double *v, int nt, const int *tri);
int nsm_bt_plane(nsm_bt_world *w, const double *normal, double offset);
int nsm_bt_heightfield(nsm_bt_world *w, int nx, int ny, const double *h, double dx, double dy);
/* collision margin of a convex shape (not sphere, capsule: theirs is the radius) */
void nsm_bt_shape_margin(nsm_bt_world *w, int shape, double margin);

/* Contact points up to d apart are reported and kept (the largest margin). */
void nsm_bt_threshold(nsm_bt_world *w, double d);

/* An object: one shape in the world; static objects do not meet each other. */
int nsm_bt_object(nsm_bt_world *w, int shape, int is_static);
/* pose: position (3) and unit quaternion (w, x, y, z) */
void nsm_bt_pose(nsm_bt_world *w, int obj, const double *pos, const double *quat);

/* One contact point of the pair (objA, objB): world points on A and on B,
 * the normal on B (from B towards A), the signed distance, and the
 * point's persistent user slot (0 for a new point; kept by Bullet while the
 * point lives). Return 0 to go on, non-zero to stop the walk. */
typedef int (*nsm_bt_point_fn)(void *ctx, int objA, int objB, const double *pA,
                               const double *pB, const double *nB, double dist,
                               void **persist);
/* Collision detection at the current poses, then the walk. Returns the
 * callback's non-zero value, or 0. */
int nsm_bt_detect(nsm_bt_world *w, nsm_bt_point_fn fn, void *ctx);
#ifdef __cplusplus
}
#endif
#endif
