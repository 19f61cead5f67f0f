/* nsm_rigid.h — relations between rigid bodies (nsm_ds_newton_euler_new):
 * contacts and joints. Their Jacobian H maps the bodies' velocities
 * (v, ω body frame: 6 columns per body) to ẏ; they couple one body (with
 * the fixed world: the ground) or two. Docs: docs/rigid-bodies.md.
 *
 * A relation is owned by the caller until nsm_model_add_interaction takes
 * it. Every constructor returns NULL with the reason (naming the field) in
 * nsm_constructor_error() on bad input.
 */
#ifndef NSM_RIGID_H
#define NSM_RIGID_H
#include "ns_status.h"
#include "nsm_relation.h"
#ifdef __cplusplus
extern "C" {
#endif

/** One contact between body 1 and body 2 (or the ground).
 *  normal: unit, world frame, pointing from body 2 (the ground) towards
 *  body 1: a positive normal reaction pushes body 1 along it.
 *  r1: the contact point of body 1 as an arm from its centre of mass, in
 *  its body frame (a material point: a vertex), or in the world frame when
 *  r1_world = 1 (a round shape: the arm follows the normal, not the body,
 *  e.g. −radius · normal for a sphere).
 *  r2: the same for body 2; with one body, the contact point on the
 *  ground in the world frame (r2_world ignored).
 *  The gap is y_N = normal · (p1 − p2) (p_k = x_k + arm_k); the local
 *  velocity (u_N, u_T1, u_T2) is that of p1 relative to p2 in the frame
 *  (normal, t1, t2), t1 and t2 built from the normal. */
typedef struct nsm_contact_frame {
    double normal[3];
    double r1[3]; int r1_world;
    double r2[3]; int r2_world;
} nsm_contact_frame;

/** Contact relation: m = 3 (normal + two tangents, with a Newton impact +
 *  Coulomb law of size 3: FC3D) or m = 1 (normal only: LCP with a Newton
 *  law). nbodies = 1 (body–ground) or 2 (body–body); ncols = 6 nbodies.
 *  The frame is copied. */
nsm_relation *nsm_relation_contact_new(int m, int nbodies, const nsm_contact_frame *c);
/** Replaces the contact's frame (each step, from the collision detection).
 *  NS_BAD_INPUT (nothing changed) for a non-contact relation, a normal not
 *  of unit length (1e-8) or a non-finite entry. */
ns_status nsm_relation_contact_set(nsm_relation *r, const nsm_contact_frame *c);
/** The frame of a contact relation into *out; NS_BAD_INPUT for another
 *  relation. */
ns_status nsm_relation_contact_get(const nsm_relation *r, nsm_contact_frame *out);
/** A contact frame from two world points p1 (on body 1), p2 (on body 2 or
 *  the ground) and the normal, with material arms in the body frames of
 *  the poses q1, q2 (7 values each; q2 NULL: the ground). */
ns_status nsm_contact_frame_from_points(const double *q1, const double *q2,
                                        const double *p1, const double *p2,
                                        const double *normal, nsm_contact_frame *out);
/** The tangent directions t1, t2 (world) of a contact of normal n. */
void nsm_contact_tangents(const double *n, double *t1, double *t2);

/** Joints: equality relations (use an NSM_LAW_EQUALITY law of their size),
 *  projected at position level with the simulation's projection option.
 *  Each is built from the bodies' poses when it is created: q1 (7) of
 *  body 1, q2 (7) of body 2 or NULL (body 1 joined to the ground); the
 *  anchor point (world) and the axis (world, unit; ignored by ball and
 *  fixed) as they are in those poses.
 *    BALL (spherical, 3 rows): the anchor points of the two bodies coincide;
 *    REVOLUTE (pivot, 5): ball + the axis of body 1 stays the axis of body 2;
 *    CYLINDRICAL (4): rotation about and sliding along the common axis;
 *    PRISMATIC (5): sliding along the axis, no relative rotation;
 *    FIXED (6): no relative motion. */
typedef enum nsm_joint_type {
    NSM_JOINT_BALL = 0, NSM_JOINT_REVOLUTE, NSM_JOINT_CYLINDRICAL,
    NSM_JOINT_PRISMATIC, NSM_JOINT_FIXED
} nsm_joint_type;
/** Size (rows) of a joint type, −1 for an unknown type. */
int nsm_joint_size(nsm_joint_type type);
nsm_relation *nsm_joint_new(nsm_joint_type type, const double *q1, const double *q2,
                            const double *anchor, const double *axis);
/** Joint stop of a prismatic or cylindrical joint (one row, unilateral:
 *  use a Newton law of size 1): with s the displacement of body 2's anchor
 *  from body 1's along the axis (0 in the poses given), upper = 0 gives
 *  y = s − limit ≥ 0 (a lower stop), upper = 1 gives y = limit − s ≥ 0. */
nsm_relation *nsm_joint_stop_new(const double *q1, const double *q2,
                                 const double *anchor, const double *axis,
                                 double limit, int upper);
/** Angle stop of a revolute or cylindrical joint (one row, unilateral: a
 *  Newton law of size 1): with φ the rotation of body 2 relative to body 1
 *  about the axis (right hand, 0 in the poses given), upper = 0 gives
 *  y = sin(φ − limit) ≥ 0 (φ ≥ limit), upper = 1 gives y = sin(limit − φ)
 *  ≥ 0 (φ ≤ limit); valid while |φ − limit| < π. */
nsm_relation *nsm_joint_angle_stop_new(const double *q1, const double *q2,
                                       const double *axis, double limit, int upper);
/** Friction of a joint: velocity rows (y reported 0) with ẏ the joint's
 *  free relative motion, for a relay law of the same size whose bounds are
 *  the friction impulses over a step (±T h for a Coulomb torque T, ±F h
 *  for a force F): λ then opposes the motion, and holds it while the
 *  impulse needed stays within the bounds.
 *    REVOLUTE (1 row): ẏ = (ω1 − ω2) · axis (world ω; axis fixed in body 1);
 *    PRISMATIC (1 row): ẏ = the sliding rate of body 1's anchor relative
 *      to body 2's along the axis;
 *    CYLINDRICAL (2 rows): the sliding rate, then the rotation rate.
 *  Other types are refused. nsm_joint_friction_size gives the rows (−1
 *  for a type without friction). */
int nsm_joint_friction_size(nsm_joint_type type);
nsm_relation *nsm_joint_friction_new(nsm_joint_type type, const double *q1, const double *q2,
                                     const double *anchor, const double *axis);
/** A joint coordinate, for couplers: the rotation (REVOLUTE, dof 0;
 *  CYLINDRICAL, dof 1; right hand about the axis, in radians, unwrapped
 *  across ±π) or the sliding (PRISMATIC, dof 0; CYLINDRICAL, dof 0) of
 *  the joint's body 2 relative to its body 1 about / along its axis (fixed
 *  in its body 1); 0 in the poses given to nsm_joint_coupler_new. body1,
 *  body2: which of the coupler's bodies the joint joins — 0 (the
 *  coupler's body 1), 1 (its body 2) or −1 (the ground) — not the same
 *  twice; anchor and axis (unit) in the world frame in those poses. */
typedef struct nsm_joint_coord {
    nsm_joint_type type;
    int dof;
    int body1, body2;
    double anchor[3], axis[3];
} nsm_joint_coord;
/** Coupler (one equality row: an NSM_LAW_EQUALITY law of size 1) between
 *  two joint coordinates c1, c2 over the bodies q1 (7) and q2 (7, NULL:
 *  one body and the ground): y = c2 − ratio c1, i.e. c2 = ratio c1 (a
 *  gear between two revolute joints, a screw between a cylindrical
 *  joint's sliding and rotation). Its Jacobian is exact; it is held over a
 *  step on a discrete gradient (docs/rigid-bodies.md): with the Newton
 *  loop converged it keeps its value to round-off.
 *  An angle is unwrapped from its previous evaluation: a coupler follows
 *  one motion, from the poses given (use it in one simulation). */
nsm_relation *nsm_joint_coupler_new(const double *q1, const double *q2, const nsm_joint_coord *c1,
                                    const nsm_joint_coord *c2, double ratio);
#ifdef __cplusplus
}
#endif
#endif
