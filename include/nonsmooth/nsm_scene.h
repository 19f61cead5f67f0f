/* nsm_scene.h — scenes of rigid bodies: shapes, bodies (dynamic or static)
 * with their contactors, contact laws per pair of collision groups, and
 * joints, described by name; built into a model, a collision set (Bullet)
 * and a simulation. A scene can be read from a Siconos mechanics HDF5 file
 * (written by siconos.io.mechanics_hdf5 / MechanicsHdf5Runner), with
 * Siconos' conventions (library nonsmooth::collision; docs/rigid-bodies.md).
 *
 * Siconos' conventions kept: a Box's parameters are its side lengths;
 * Sphere (radius); Cylinder, Capsule and Cone (radius, length) along the
 * body's y axis, sized as Siconos' Bullet backend makes them (Bullet's unit
 * shape scaled by (r, length/2, r)): a cylinder of that length, a capsule
 * with a cylindrical part of length/2, a cone of height length/2;
 * Plane: z = 0 of its frame, normal +z;
 * inertia: 3 principal moments or a 3×3 matrix; quaternions (w, x, y, z);
 * velocity (v, ω), ω in the body frame (Siconos' Newton–Euler twist);
 * gravity −g e_z on the dynamic bodies.
 * Names are copied. Every function validates its input and fails with
 * NS_BAD_INPUT and a message (nsm_scene_error) naming the object and the
 * field. */
#ifndef NSM_SCENE_H
#define NSM_SCENE_H
#include "ns_status.h"
#include "nsm_model.h"
#include "nsm_simulation.h"
#include "nsm_collision.h"
#ifdef __cplusplus
extern "C" {
#endif
typedef struct nsm_scene nsm_scene;

nsm_scene *nsm_scene_new(void);
void nsm_scene_free(nsm_scene *sc);
const char *nsm_scene_error(const nsm_scene *sc);

/** A primitive shape: "Sphere", "Box", "Cylinder", "Capsule", "Cone",
 *  "Plane" with its parameters (Siconos' conventions above). */
ns_status nsm_scene_primitive(nsm_scene *sc, const char *name, const char *primitive,
                              int nparams, const double *params);
/** A convex hull of n points (3 n values, body frame). */
ns_status nsm_scene_convex(nsm_scene *sc, const char *name, int n, const double *points);
/** Newton impact (e) + Coulomb friction (mu) between collision groups g1
 *  and g2; mu < 0: Newton impact only (normal rows, LCP). */
ns_status nsm_scene_law(nsm_scene *sc, const char *name, double e, double mu, int g1, int g2);
/** A body: mass > 0 (dynamic) or NAN (static). inertia: ninertia = 3
 *  (principal moments) or 9 (matrix), required for a dynamic body.
 *  translation (3), orientation (4, unit; NULL identity), velocity (6:
 *  v world, ω body; NULL zero). */
ns_status nsm_scene_body(nsm_scene *sc, const char *name, double mass, int ninertia,
                         const double *inertia, const double *translation,
                         const double *orientation, const double *velocity);
/** A contactor of body: shape at (translation, orientation) in the body
 *  frame (NULL: identity), in collision group ≥ 0. */
ns_status nsm_scene_contactor(nsm_scene *sc, const char *body, const char *shape, int group,
                              const double *translation, const double *orientation);
/** A joint by Siconos' class name: "KneeJointR" (ball: 1 point),
 *  "PivotJointR" (revolute: point, axis), "CylindricalJointR" (point,
 *  axis), "PrismaticJointR" (axis), "FixedJointR" (none); body2 NULL: to
 *  the ground. absolute = 1: point and axis in the world frame, 0: in
 *  body 1's frame. */
ns_status nsm_scene_joint(nsm_scene *sc, const char *name, const char *type, const char *body1,
                          const char *body2, const double *point, const double *axis, int absolute);
/** Siconos' joint extras, on a joint's coordinates (numbered as Siconos'
 *  DoFs: PivotJointR 0 the angle; PrismaticJointR 0 the sliding;
 *  CylindricalJointR 0 the sliding, 1 the angle; KneeJointR and
 *  FixedJointR have none): the rotation (radians, right hand about the
 *  axis) or sliding of the joint's body 2 relative to its body 1 (the
 *  ground when it has one body), 0 in the scene's initial poses.
 *  A stop (JointStopR, a Newton law of restitution e in [0, 1]): dir >= 0
 *  keeps the coordinate >= pos, dir < 0 keeps it <= pos; an angle pos in
 *  (−π, π). */
ns_status nsm_scene_joint_stop(nsm_scene *sc, const char *joint, int axis, double pos, double dir, double e);
/** Friction on a coordinate (JointFrictionR with a RelayNSL(lb, ub)): the
 *  friction impulse over a step stays in [lb, ub], lb <= 0 <= ub (a force
 *  or torque F: ±F h) and opposes the motion. */
ns_status nsm_scene_joint_friction(nsm_scene *sc, const char *joint, int axis, double lb, double ub);
/** A coupling of two coordinates of one joint (Siconos' 'coupled'
 *  attribute, e.g. a screw on a CylindricalJointR): c[dof2] = ratio c[dof1]. */
ns_status nsm_scene_joint_coupling(nsm_scene *sc, const char *joint, int dof1, int dof2, double ratio);
/** A coupler between body1 and body2 (NULL: the ground) (Siconos'
 *  CouplerJointR with references joint1, joint2): coordinate dof2 of
 *  joint2 = ratio × coordinate dof1 of joint1, each measured between its
 *  joint's own bodies, which must be among body1, body2 and the ground /
 *  static objects. */
ns_status nsm_scene_coupler(nsm_scene *sc, const char *name, const char *body1, const char *body2,
                            const char *joint1, int dof1, const char *joint2, int dof2, double ratio);
/** Reads a Siconos mechanics HDF5 scene (its /data/ref shapes, /data/input
 *  objects and contactors, /data/nslaws, /data/joints). NULL with the
 *  reason (file, object, field) in err (NS_ERRMSG_LEN). */
nsm_scene *nsm_scene_read_hdf5(const char *path, char *err);

/** The built scene: owns its model, collision set and simulation. */
typedef struct nsm_scene_run {
    nsm_model *model;
    nsm_collision *collision;
    nsm_sim *sim;
    int nbodies;              /* dynamic bodies, system ids 0 .. nbodies − 1 */
    const char **names;       /* their names (borrowed from the scene) */
    double *masses;           /* their masses */
    double gravity;
} nsm_scene_run;
/** Builds the scene with options o (h required) and gravity g (Siconos:
 *  9.80665). NULL with the reason in err. Free with nsm_scene_run_free
 *  (the scene must outlive the run). */
nsm_scene_run *nsm_scene_build(const nsm_scene *sc, const nsm_sim_options *o, double g, char *err);
/** One step: collision update, then nsm_sim_step. */
ns_status nsm_scene_step(nsm_scene_run *r);
/** Kinetic + potential (gravity) energy of the dynamic bodies. */
double nsm_scene_energy(nsm_scene_run *r);
void nsm_scene_run_free(nsm_scene_run *r);
#ifdef __cplusplus
}
#endif
#endif
