/* joints.c — joints between rigid bodies as rows of the rigid relation
 * (rigid_rows.h), built from the bodies' poses, an anchor and an axis in
 * the world frame: every row is 0 in the poses given.
 *   ball:        3 POINT rows (world directions) on the anchor's material
 *                points of both bodies;
 *   revolute:    ball + 2 AXES rows (u_i of body 1 ⊥ axis of body 2);
 *   cylindrical: those 2 AXES rows + 2 POINT rows along u_i fixed in body 1;
 *   prismatic:   3 AXES rows (no relative rotation) + the 2 POINT rows;
 *   fixed:       ball + the 3 AXES rows.
 * (u_1, u_2: two unit vectors ⊥ the axis.) Three AXES rows (w_a of body 1
 * · w_b of body 2 for (a, b) = (1, 2), (2, 3), (3, 1), w the world axes)
 * have independent rates −δ_3, −δ_1, −δ_2 for a small relative rotation
 * δ: they lock it. */
#include "relation/rigid_rows.h"
#include "ds/ds_kind.h"
#include "ds/quaternion.h"
#include <math.h>
#include <string.h>

static const int joint_rows[] = { 3, 5, 4, 5, 6 };

int nsm_joint_size(nsm_joint_type type)
{
    return (int)type >= 0 && (int)type < 5 ? joint_rows[type] : -1;
}

typedef struct jframe {
    int nb;
    double R1[9], R2[9];
    double r1[3], r2[3];      /* the anchor in body 1, in body 2 (or world) */
    double u[3][3];           /* axis, u1, u2 (world) */
} jframe;

static int check_pose(const char *who, const char *name, const double *q)
{
    if (!nsm_all_finite(q, 7)) { nsm_ctor_fail("%s: %s has a non-finite entry", who, name); return -1; }
    double nr = sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
    if (fabs(nr - 1.0) > 1e-10) {
        nsm_ctor_fail("%s: %s[3..6], the orientation quaternion, has norm %.17g (must be 1 within 1e-10)", who, name, nr);
        return -1;
    }
    return 0;
}

static int frame(const char *who, const double *q1, const double *q2, const double *anchor,
                 const double *axis, int need_axis, jframe *f)
{
    if (!q1) { nsm_ctor_fail("%s: q1 is NULL", who); return -1; }
    if (!anchor) { nsm_ctor_fail("%s: anchor is NULL", who); return -1; }
    if (check_pose(who, "q1", q1) || (q2 && check_pose(who, "q2", q2))) return -1;
    if (!nsm_all_finite(anchor, 3)) { nsm_ctor_fail("%s: anchor has a non-finite entry", who); return -1; }
    static const double ez[3] = { 0, 0, 1 };
    if (need_axis) {
        if (!axis) { nsm_ctor_fail("%s: axis is NULL", who); return -1; }
        double nr = nsm_all_finite(axis, 3) ? sqrt(nsm_dot3(axis, axis)) : NAN;
        if (!(fabs(nr - 1.0) <= 1e-8)) { nsm_ctor_fail("%s: axis has norm %g (must be 1)", who, nr); return -1; }
    } else axis = ez;
    f->nb = q2 ? 2 : 1;
    memcpy(f->u[0], axis, sizeof f->u[0]);
    nsm_contact_tangents(axis, f->u[1], f->u[2]);
    nsm_quat_matrix(q1 + 3, f->R1);
    double d[3];
    for (int c = 0; c < 3; c++) d[c] = anchor[c] - q1[c];
    nsm_mat3t_vec(f->R1, d, f->r1);
    if (q2) {
        nsm_quat_matrix(q2 + 3, f->R2);
        for (int c = 0; c < 3; c++) d[c] = anchor[c] - q2[c];
        nsm_mat3t_vec(f->R2, d, f->r2);
    } else {
        for (int i = 0; i < 9; i++) f->R2[i] = (i % 4 == 0) ? 1.0 : 0.0;
        memcpy(f->r2, anchor, sizeof f->r2);
    }
    return 0;
}

/* a POINT row on the anchor along world e (e_body 0) or body-1-fixed e */
static void point_row(nsm_rigid_row *w, const jframe *f, const double *e_world, int e_body)
{
    w->type = NSM_RROW_POINT;
    if (e_body) nsm_mat3t_vec(f->R1, e_world, w->e); else memcpy(w->e, e_world, sizeof w->e);
    w->e_body = e_body;
    memcpy(w->r1, f->r1, sizeof w->r1);
    memcpy(w->r2, f->r2, sizeof w->r2);
}

/* an AXES row: A (world) fixed in body 1, B (world) fixed in body 2 */
static void axes_row(nsm_rigid_row *w, const jframe *f, const double *A, const double *B)
{
    w->type = NSM_RROW_AXES;
    nsm_mat3t_vec(f->R1, A, w->a);
    if (f->nb == 2) nsm_mat3t_vec(f->R2, B, w->b); else memcpy(w->b, B, sizeof w->b);
    w->c0 = nsm_dot3(A, B);   /* 0 for orthogonal A, B: kept exact */
}

nsm_relation *nsm_joint_new(nsm_joint_type type, const double *q1, const double *q2,
                            const double *anchor, const double *axis)
{
    static const char who[] = "nsm_joint_new";
    int m = nsm_joint_size(type);
    if (m < 0) return nsm_ctor_fail("%s: unknown joint type %d", who, (int)type);
    jframe f;
    int need_axis = type != NSM_JOINT_BALL && type != NSM_JOINT_FIXED;
    if (frame(who, q1, q2, anchor, axis, need_axis, &f)) return NULL;
    nsm_relation *r = nsm_rigid_alloc(m, f.nb, who);
    if (!r) return NULL;
    nsm_rigid_row *w = r->rigid->row;
    static const double W[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    int k = 0;
    if (type == NSM_JOINT_BALL || type == NSM_JOINT_REVOLUTE || type == NSM_JOINT_FIXED)
        for (int c = 0; c < 3; c++) point_row(&w[k++], &f, W[c], 0);
    if (type == NSM_JOINT_REVOLUTE || type == NSM_JOINT_CYLINDRICAL)
        for (int c = 1; c < 3; c++) axes_row(&w[k++], &f, f.u[c], f.u[0]);
    if (type == NSM_JOINT_FIXED || type == NSM_JOINT_PRISMATIC)
        for (int c = 0; c < 3; c++) axes_row(&w[k++], &f, W[c], W[(c + 1) % 3]);
    if (type == NSM_JOINT_CYLINDRICAL || type == NSM_JOINT_PRISMATIC)
        for (int c = 1; c < 3; c++) point_row(&w[k++], &f, f.u[c], 1);
    return r;
}

nsm_relation *nsm_joint_stop_new(const double *q1, const double *q2,
                                 const double *anchor, const double *axis,
                                 double limit, int upper)
{
    static const char who[] = "nsm_joint_stop_new";
    if (!isfinite(limit)) return nsm_ctor_fail("%s: limit = %g must be finite", who, limit);
    jframe f;
    if (frame(who, q1, q2, anchor, axis, 1, &f)) return NULL;
    nsm_relation *r = nsm_rigid_alloc(1, f.nb, who);
    if (!r) return NULL;
    /* s = axis · (p2 − p1) = −axis · D: lower y = s − limit, upper y = limit − s */
    double e[3];
    for (int c = 0; c < 3; c++) e[c] = upper ? f.u[0][c] : -f.u[0][c];
    point_row(&r->rigid->row[0], &f, e, 1);
    r->rigid->row[0].c0 = upper ? -limit : limit;
    return r;
}

/* φ of body 2 about the axis: with U1, U2 = axis × U1 of body 1 and W (= U1
 * in the poses given) of body 2, cos φ = U1·W, sin φ = U2·W; so
 * sin(φ − limit) = (cos limit U2 − sin limit U1) · W and sin(limit − φ) its
 * negative: one axes row, its body-1 vector a combination of U1 and U2. */
nsm_relation *nsm_joint_angle_stop_new(const double *q1, const double *q2,
                                       const double *axis, double limit, int upper)
{
    static const char who[] = "nsm_joint_angle_stop_new";
    if (!isfinite(limit)) return nsm_ctor_fail("%s: limit = %g must be finite", who, limit);
    static const double origin[3] = { 0, 0, 0 };
    jframe f;
    if (frame(who, q1, q2, origin, axis, 1, &f)) return NULL;
    nsm_relation *r = nsm_rigid_alloc(1, f.nb, who);
    if (!r) return NULL;
    double u2[3], A[3];
    nsm_cross3(f.u[0], f.u[1], u2);   /* axis × U1 */
    double sgn = upper ? -1.0 : 1.0;
    for (int c = 0; c < 3; c++) A[c] = sgn * (cos(limit) * u2[c] - sin(limit) * f.u[1][c]);
    nsm_rigid_row *w = &r->rigid->row[0];
    w->type = NSM_RROW_AXES;
    nsm_mat3t_vec(f.R1, A, w->a);
    if (f.nb == 2) nsm_mat3t_vec(f.R2, f.u[1], w->b); else memcpy(w->b, f.u[1], sizeof w->b);
    w->c0 = 0.0;
    return r;
}

int nsm_joint_friction_size(nsm_joint_type type)
{
    switch (type) {
    case NSM_JOINT_REVOLUTE: case NSM_JOINT_PRISMATIC: return 1;
    case NSM_JOINT_CYLINDRICAL: return 2;
    default: return -1;
    }
}

nsm_relation *nsm_joint_friction_new(nsm_joint_type type, const double *q1, const double *q2,
                                     const double *anchor, const double *axis)
{
    static const char who[] = "nsm_joint_friction_new";
    int m = nsm_joint_friction_size(type);
    if (m < 0)
        return nsm_ctor_fail("%s: joint type %d has no friction rows (revolute, prismatic or cylindrical only)",
                             who, (int)type);
    jframe f;
    if (frame(who, q1, q2, anchor, axis, 1, &f)) return NULL;
    nsm_relation *r = nsm_rigid_alloc(m, f.nb, who);
    if (!r) return NULL;
    nsm_rigid_row *w = r->rigid->row;
    int k = 0;
    if (type != NSM_JOINT_REVOLUTE) {   /* sliding along the axis fixed in body 1 */
        point_row(&w[k], &f, f.u[0], 1);
        w[k++].velocity_only = 1;
    }
    if (type != NSM_JOINT_PRISMATIC) {  /* rotation about it */
        w[k].type = NSM_RROW_TWIST;
        nsm_mat3t_vec(f.R1, f.u[0], w[k].a);
        w[k++].velocity_only = 1;
    }
    return r;
}

/* ---- couplers ---- */

static int coord_term_new(const char *who, int k, const nsm_joint_coord *c, const double *const q[2],
                          int nb, nsm_coord_term *t)
{
    if (!c) { nsm_ctor_fail("%s: c%d is NULL", who, k); return -1; }
    int ndof = c->type == NSM_JOINT_CYLINDRICAL ? 2 : (c->type == NSM_JOINT_REVOLUTE || c->type == NSM_JOINT_PRISMATIC) ? 1 : 0;
    if (ndof == 0) { nsm_ctor_fail("%s: c%d: joint type %d has no coordinate (revolute, prismatic or cylindrical)", who, k, (int)c->type); return -1; }
    if (c->dof < 0 || c->dof >= ndof) { nsm_ctor_fail("%s: c%d: dof %d out of range (0..%d for this joint)", who, k, c->dof, ndof - 1); return -1; }
    if (c->body1 < -1 || c->body1 >= nb || c->body2 < -1 || c->body2 >= nb || c->body1 == c->body2) {
        nsm_ctor_fail("%s: c%d: bodies %d, %d must be two different ones of 0..%d or -1 (ground)", who, k, c->body1, c->body2, nb - 1);
        return -1;
    }
    if (!nsm_all_finite(c->anchor, 3)) { nsm_ctor_fail("%s: c%d: anchor has a non-finite entry", who, k); return -1; }
    double nr = nsm_all_finite(c->axis, 3) ? sqrt(nsm_dot3(c->axis, c->axis)) : NAN;
    if (!(fabs(nr - 1.0) <= 1e-8)) { nsm_ctor_fail("%s: c%d: axis has norm %g (must be 1)", who, k, nr); return -1; }
    static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, origin[3] = { 0, 0, 0 };
    double RP[9], RQ[9];
    const double *xP = origin, *xQ = origin;
    if (c->body1 >= 0) { nsm_quat_matrix(q[c->body1] + 3, RP); xP = q[c->body1]; } else memcpy(RP, I3, sizeof RP);
    if (c->body2 >= 0) { nsm_quat_matrix(q[c->body2] + 3, RQ); xQ = q[c->body2]; } else memcpy(RQ, I3, sizeof RQ);
    t->ip = c->body1;
    t->iq = c->body2;
    t->slide = c->type == NSM_JOINT_PRISMATIC || (c->type == NSM_JOINT_CYLINDRICAL && c->dof == 0);
    if (t->slide) {
        double d[3];
        nsm_mat3t_vec(RP, c->axis, t->e);
        for (int i = 0; i < 3; i++) d[i] = c->anchor[i] - xP[i];
        nsm_mat3t_vec(RP, d, t->rp);
        for (int i = 0; i < 3; i++) d[i] = c->anchor[i] - xQ[i];
        if (c->body2 >= 0) nsm_mat3t_vec(RQ, d, t->rq); else memcpy(t->rq, c->anchor, sizeof t->rq);
    } else {
        double U1[3], U2[3];
        nsm_contact_tangents(c->axis, U1, U2);   /* U2 = axis × U1 */
        nsm_mat3t_vec(RP, U1, t->u1);
        nsm_mat3t_vec(RP, U2, t->u2);
        nsm_mat3t_vec(RQ, U1, t->w);
    }
    return 0;
}

nsm_relation *nsm_joint_coupler_new(const double *q1, const double *q2, const nsm_joint_coord *c1,
                                    const nsm_joint_coord *c2, double ratio)
{
    static const char who[] = "nsm_joint_coupler_new";
    if (!q1) return nsm_ctor_fail("%s: q1 is NULL", who);
    if (check_pose(who, "q1", q1) || (q2 && check_pose(who, "q2", q2))) return NULL;
    if (!isfinite(ratio)) return nsm_ctor_fail("%s: ratio = %g must be finite", who, ratio);
    int nb = q2 ? 2 : 1;
    const double *const q[2] = { q1, q2 };
    nsm_coord_term t[2];
    memset(t, 0, sizeof t);
    if (coord_term_new(who, 1, c1, q, nb, &t[0]) || coord_term_new(who, 2, c2, q, nb, &t[1])) return NULL;
    t[0].coef = -ratio;
    t[1].coef = 1.0;
    nsm_coord_term *terms;
    nsm_relation *r = nsm_rigid_alloc_terms(1, nb, 2, &terms, who);
    if (!r) return NULL;
    memcpy(terms, t, sizeof t);
    r->rigid->row[0].type = NSM_RROW_COUPLE;
    r->rigid->row[0].term = terms;
    return r;
}
