/* nsm_collision.h — collision detection between rigid bodies through
 * Bullet's collision library (library nonsmooth::collision, built when
 * Debian's libbullet-dev is found; docs/rigid-bodies.md).
 *
 * A collision set borrows a model of rigid bodies (nsm_ds_newton_euler_new)
 * and holds shapes, their placement on the bodies (or in the world, static)
 * in groups, and a law per pair of groups. nsm_collision_update, called
 * before each step, runs the broad phase and the narrow phase (persistent
 * contact manifolds) at the bodies' current poses and turns the contact
 * points into interactions of the model: a new point within the pair's
 * margin makes a contact relation (nsm_relation_contact_new with the
 * pair's law), a point still there keeps its interaction (its frame is
 * updated, its reactions stay for the warm start), an interaction whose
 * point is gone or beyond the margin is removed.
 *
 * Shapes (body frame; the axis of capsule, cylinder and cone is z; data
 * copied): sphere, box, capsule, cylinder, cone, convex hull (≥ 4 points,
 * not coplanar), and, for static placement only, triangle mesh, plane and
 * heightfield (nx × ny heights, row-major in x, spacing dx, dy, centred on
 * the placement's origin, z up, Bullet's convention: centred between the
 * lowest and highest height).
 *
 * Every function validates its arguments: a bad one returns −1 or
 * NS_BAD_INPUT with the reason (naming the field) in
 * nsm_collision_error(). */
#ifndef NSM_COLLISION_H
#define NSM_COLLISION_H
#include "ns_status.h"
#include "nsm_model.h"
#include "nsm_simulation.h"
#ifdef __cplusplus
extern "C" {
#endif
typedef struct nsm_collision nsm_collision;

/** A collision set over model m (borrowed: it must outlive the set). NULL
 *  (reason in err, NS_ERRMSG_LEN) on a NULL model or out of memory. */
nsm_collision *nsm_collision_new(nsm_model *m, char *err);
/** Frees c (NULL allowed); the interactions it made stay in the model. */
void nsm_collision_free(nsm_collision *c);

/** Shapes: an id ≥ 0, or −1. Lengths > 0 and finite. */
int nsm_collision_sphere(nsm_collision *c, double radius);
int nsm_collision_box(nsm_collision *c, const double *half_extents);
int nsm_collision_capsule(nsm_collision *c, double radius, double half_length);
int nsm_collision_cylinder(nsm_collision *c, double radius, double half_length);
int nsm_collision_cone(nsm_collision *c, double radius, double height);
int nsm_collision_convex_hull(nsm_collision *c, int npoints, const double *points);
int nsm_collision_triangle_mesh(nsm_collision *c, int nvertices, const double *vertices,
                                int ntriangles, const int *triangles);
/** The half-space below n · x = offset (n unit). */
int nsm_collision_plane(nsm_collision *c, const double *normal, double offset);
int nsm_collision_heightfield(nsm_collision *c, int nx, int ny, const double *heights,
                              double dx, double dy);
/** Bullet's collision margin of a box, cylinder, cone or hull (default
 *  Bullet's 0.04, rounding the edges by that radius); ≥ 0. */
ns_status nsm_collision_set_shape_margin(nsm_collision *c, int shape, double margin);

/** Places shape on system ds of the model (a rigid body) at pose (7: offset
 *  and unit quaternion in the body frame; NULL: identity), or in the world
 *  when ds = −1 (static; pose in the world frame). group ≥ 0. Returns the
 *  contactor's id ≥ 0, or −1. */
int nsm_collision_add(nsm_collision *c, int ds, int shape, const double *pose, int group);
/** The law (an id of the model: a Newton–Coulomb law of size 3 with rows
 *  = 3, a Newton law of size 1 with rows = 1) of the pairs of contactors of
 *  groups g1 and g2 (either order), and the margin: contact points closer
 *  than it make interactions. Pairs without a law do not interact. */
ns_status nsm_collision_set_law(nsm_collision *c, int g1, int g2, int law, int rows, double margin);
/** Collision detection at the poses of simulation s (of the set's model)
 *  and the interactions updated (see above). Call it before each
 *  nsm_sim_step (a simulation may start with no interaction). */
ns_status nsm_collision_update(nsm_collision *c, nsm_sim *s);
/** Counters: live contacts, contacts created, removed, kept by the last update. */
typedef struct nsm_collision_stats {
    int live;
    long created, removed;
    int kept_last;
} nsm_collision_stats;
nsm_collision_stats nsm_collision_get_stats(const nsm_collision *c);
/** The interaction of a live contact of the last update (i < live), −1. */
int nsm_collision_contact(const nsm_collision *c, int i);
const char *nsm_collision_error(const nsm_collision *c);
#ifdef __cplusplus
}
#endif
#endif
