/* scene.c — a scene of rigid bodies described by name (nsm_scene.h) and
 * its build into a model, a Bullet collision set and a simulation. Public
 * API only. */
#include "ds/quaternion.h"
#include "nonsmooth/nsm.h"
#include "nonsmooth/nsm_scene.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { P_SPHERE, P_BOX, P_CYLINDER, P_CAPSULE, P_CONE, P_PLANE, P_CONVEX };
static const char *const prim_names[] = { "Sphere", "Box", "Cylinder", "Capsule", "Cone", "Plane" };
static const int prim_nparams[] = { 1, 3, 2, 2, 2, 0 };

typedef struct sshape { char *name; int kind; double p[3]; double *pts; int npts; } sshape;
typedef struct slaw { char *name; double e, mu; int g1, g2; } slaw;
typedef struct sbody { char *name; int dynamic; double mass, I[9], x[3], q[4], v[6]; } sbody;
typedef struct sctor { int body, shape, group; double t[3], q[4]; } sctor;
typedef struct sjoint { char *name; int type; int b1, b2; double p[3], a[3]; int absolute; } sjoint;
/* extras on a joint: a stop, a friction or a coupling of its coordinates;
 * a coupler between two joints' coordinates */
enum { X_STOP, X_FRICTION, X_COUPLING };
typedef struct sextra { int kind, joint, axis, dof2; double pos, dir, e, lb, ub, ratio; } sextra;
typedef struct scoupler { char *name; int b1, b2, j1, dof1, j2, dof2; double ratio; } scoupler;

struct nsm_scene {
    sshape *sh; int nsh, csh;
    slaw *law; int nlaw, claw;
    sbody *body; int nbody, cbody;
    sctor *ct; int nct, cct;
    sjoint *jt; int njt, cjt;
    sextra *xt; int nxt, cxt;
    scoupler *cp; int ncp, ccp;
    char err[NS_ERRMSG_LEN];
};

static ns_status fail(nsm_scene *sc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sc->err, sizeof sc->err, fmt, ap);
    va_end(ap);
    return NS_BAD_INPUT;
}

static int grow(void **p, int *cap, int need, size_t elt)
{
    if (need <= *cap) return 0;
    int c = *cap ? 2 * *cap : 8;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * elt);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static int finite_n(const double *v, int n)
{
    for (int i = 0; i < n; i++) if (!isfinite(v[i])) return 0;
    return 1;
}

nsm_scene *nsm_scene_new(void) { return calloc(1, sizeof(nsm_scene)); }
const char *nsm_scene_error(const nsm_scene *sc) { return sc ? sc->err : "no scene"; }

void nsm_scene_free(nsm_scene *sc)
{
    if (!sc) return;
    for (int i = 0; i < sc->nsh; i++) { free(sc->sh[i].name); free(sc->sh[i].pts); }
    for (int i = 0; i < sc->nlaw; i++) free(sc->law[i].name);
    for (int i = 0; i < sc->nbody; i++) free(sc->body[i].name);
    for (int i = 0; i < sc->njt; i++) free(sc->jt[i].name);
    for (int i = 0; i < sc->ncp; i++) free(sc->cp[i].name);
    free(sc->sh); free(sc->law); free(sc->body); free(sc->ct); free(sc->jt); free(sc->xt); free(sc->cp);
    free(sc);
}

static int find_shape(const nsm_scene *sc, const char *n)
{
    for (int i = 0; i < sc->nsh; i++) if (!strcmp(sc->sh[i].name, n)) return i;
    return -1;
}

static int find_body(const nsm_scene *sc, const char *n)
{
    for (int i = 0; sc && n && i < sc->nbody; i++) if (!strcmp(sc->body[i].name, n)) return i;
    return -1;
}

static ns_status new_shape(nsm_scene *sc, const char *name, sshape **out)
{
    if (find_shape(sc, name) >= 0) return fail(sc, "shape '%s': defined twice", name);
    if (grow((void **)&sc->sh, &sc->csh, sc->nsh + 1, sizeof *sc->sh)) return fail(sc, "out of memory");
    sshape *s = &sc->sh[sc->nsh];
    memset(s, 0, sizeof *s);
    if (!(s->name = dupstr(name))) return fail(sc, "out of memory");
    sc->nsh++;
    *out = s;
    return NS_OK;
}

ns_status nsm_scene_primitive(nsm_scene *sc, const char *name, const char *primitive, int np, const double *params)
{
    if (!sc) return NS_BAD_INPUT;
    if (!name || !primitive) return fail(sc, "primitive shape: NULL %s", name ? "primitive" : "name");
    int k = -1;
    for (int i = 0; i < 6; i++) if (!strcmp(primitive, prim_names[i])) k = i;
    if (k < 0) return fail(sc, "shape '%s': unknown primitive '%s' (Sphere, Box, Cylinder, Capsule, Cone, Plane)", name, primitive);
    if (np < prim_nparams[k] || (np > 0 && !params))
        return fail(sc, "shape '%s' (%s): needs %d parameters, has %d", name, primitive, prim_nparams[k], np);
    for (int i = 0; i < prim_nparams[k]; i++)
        if (!(isfinite(params[i]) && params[i] > 0.0))
            return fail(sc, "shape '%s' (%s): parameter %d = %g must be finite and > 0", name, primitive, i, params[i]);
    sshape *s;
    ns_status st = new_shape(sc, name, &s);
    if (st != NS_OK) return st;
    s->kind = k;
    for (int i = 0; i < prim_nparams[k]; i++) s->p[i] = params[i];
    return NS_OK;
}

ns_status nsm_scene_convex(nsm_scene *sc, const char *name, int n, const double *pts)
{
    if (!sc) return NS_BAD_INPUT;
    if (!name) return fail(sc, "convex shape: NULL name");
    if (n < 4 || !pts) return fail(sc, "shape '%s' (convex): needs at least 4 points, has %d", name, pts ? n : 0);
    if (!finite_n(pts, 3 * n)) return fail(sc, "shape '%s' (convex): a point has a non-finite coordinate", name);
    sshape *s;
    ns_status st = new_shape(sc, name, &s);
    if (st != NS_OK) return st;
    s->kind = P_CONVEX;
    s->npts = n;
    s->pts = malloc(3 * (size_t)n * sizeof(double));
    if (!s->pts) return fail(sc, "out of memory");
    memcpy(s->pts, pts, 3 * (size_t)n * sizeof(double));
    return NS_OK;
}

ns_status nsm_scene_law(nsm_scene *sc, const char *name, double e, double mu, int g1, int g2)
{
    if (!sc) return NS_BAD_INPUT;
    if (!name) return fail(sc, "law: NULL name");
    if (!(e >= 0.0 && e <= 1.0)) return fail(sc, "law '%s': e = %g must be in [0, 1]", name, e);
    if (!isfinite(mu)) return fail(sc, "law '%s': mu = %g must be finite", name, mu);
    if (g1 < 0 || g2 < 0) return fail(sc, "law '%s': groups gid1 = %d, gid2 = %d must be >= 0", name, g1, g2);
    if (grow((void **)&sc->law, &sc->claw, sc->nlaw + 1, sizeof *sc->law)) return fail(sc, "out of memory");
    slaw *l = &sc->law[sc->nlaw];
    if (!(l->name = dupstr(name))) return fail(sc, "out of memory");
    l->e = e; l->mu = mu; l->g1 = g1; l->g2 = g2;
    sc->nlaw++;
    return NS_OK;
}

/* u = a / |a| for a finite a ≠ 0, scaled first so that |a| neither
 * overflows (entries near 1e300) nor underflows; 0 when a is zero */
static int unit_vector(const double *a, double *u)
{
    double s = fmax(fabs(a[0]), fmax(fabs(a[1]), fabs(a[2])));
    if (!(s > 0.0)) return 0;
    double b[3] = { a[0] / s, a[1] / s, a[2] / s };
    double nr = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    for (int c = 0; c < 3; c++) u[c] = b[c] / nr;
    return 1;
}

static int unit_quat(const double *q)
{
    return finite_n(q, 4) && fabs(sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) - 1.0) <= 1e-6;
}

ns_status nsm_scene_body(nsm_scene *sc, const char *name, double mass, int ni, const double *I,
                         const double *x, const double *q, const double *v)
{
    if (!sc) return NS_BAD_INPUT;
    if (!name) return fail(sc, "body: NULL name");
    if (find_body(sc, name) >= 0) return fail(sc, "object '%s': defined twice", name);
    int dynamic = !isnan(mass);
    if (dynamic && !(isfinite(mass) && mass > 0.0)) return fail(sc, "object '%s': mass = %g must be > 0 (or absent: static)", name, mass);
    if (!x || !finite_n(x, 3)) return fail(sc, "object '%s': translation %s", name, x ? "has a non-finite entry" : "is missing");
    if (q && !unit_quat(q)) {
        double nr = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        return fail(sc, "object '%s': orientation is not a unit quaternion (norm %.17g)", name, nr);
    }
    if (v && !finite_n(v, 6)) return fail(sc, "object '%s': velocity has a non-finite entry", name);
    double Im[9] = { 0 };
    if (dynamic) {
        if (!I || (ni != 3 && ni != 9)) return fail(sc, "object '%s': inertia %s", name, I ? "must have 3 or 9 values" : "is missing (dynamic object)");
        if (!finite_n(I, ni)) return fail(sc, "object '%s': inertia has a non-finite entry", name);
        if (ni == 3) { Im[0] = I[0]; Im[4] = I[1]; Im[8] = I[2]; } else memcpy(Im, I, sizeof Im);
    }
    if (grow((void **)&sc->body, &sc->cbody, sc->nbody + 1, sizeof *sc->body)) return fail(sc, "out of memory");
    sbody *b = &sc->body[sc->nbody];
    memset(b, 0, sizeof *b);
    if (!(b->name = dupstr(name))) return fail(sc, "out of memory");
    b->dynamic = dynamic;
    b->mass = mass;
    memcpy(b->I, Im, sizeof Im);
    memcpy(b->x, x, sizeof b->x);
    if (q) {
        double nr = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (int i = 0; i < 4; i++) b->q[i] = q[i] / nr;
    } else b->q[0] = 1.0;
    if (v) memcpy(b->v, v, sizeof b->v);
    sc->nbody++;
    return NS_OK;
}

ns_status nsm_scene_contactor(nsm_scene *sc, const char *body, const char *shape, int group,
                              const double *t, const double *q)
{
    if (!sc) return NS_BAD_INPUT;
    int b = find_body(sc, body);
    if (b < 0) return fail(sc, "contactor: object '%s' does not exist", body ? body : "(null)");
    int s = shape ? find_shape(sc, shape) : -1;
    if (s < 0) return fail(sc, "object '%s': contactor shape '%s' is not defined", body, shape ? shape : "(null)");
    if (group < 0) return fail(sc, "object '%s': contactor group %d must be >= 0", body, group);
    if (t && !finite_n(t, 3)) return fail(sc, "object '%s': contactor translation has a non-finite entry", body);
    if (q && !unit_quat(q)) return fail(sc, "object '%s': contactor orientation is not a unit quaternion", body);
    if (sc->sh[s].kind == P_PLANE && sc->body[b].dynamic) return fail(sc, "object '%s': a Plane contactor ('%s') needs a static object", body, shape);
    if (grow((void **)&sc->ct, &sc->cct, sc->nct + 1, sizeof *sc->ct)) return fail(sc, "out of memory");
    sctor *c = &sc->ct[sc->nct++];
    c->body = b; c->shape = s; c->group = group;
    if (t) memcpy(c->t, t, sizeof c->t); else memset(c->t, 0, sizeof c->t);
    if (q) memcpy(c->q, q, sizeof c->q); else { c->q[0] = 1; c->q[1] = c->q[2] = c->q[3] = 0; }
    return NS_OK;
}

static const char *const joint_classes[] = { "KneeJointR", "PivotJointR", "CylindricalJointR", "PrismaticJointR", "FixedJointR" };
static const nsm_joint_type joint_map[] = { NSM_JOINT_BALL, NSM_JOINT_REVOLUTE, NSM_JOINT_CYLINDRICAL, NSM_JOINT_PRISMATIC, NSM_JOINT_FIXED };

ns_status nsm_scene_joint(nsm_scene *sc, const char *name, const char *type, const char *b1,
                          const char *b2, const double *p, const double *a, int absolute)
{
    if (!sc) return NS_BAD_INPUT;
    if (!name || !type) return fail(sc, "joint: NULL %s", name ? "type" : "name");
    int k = -1;
    for (int i = 0; i < 5; i++) if (!strcmp(type, joint_classes[i])) k = i;
    if (k < 0) return fail(sc, "joint '%s': unknown type '%s' (KneeJointR, PivotJointR, CylindricalJointR, PrismaticJointR, FixedJointR)", name, type);
    int i1 = find_body(sc, b1), i2 = b2 ? find_body(sc, b2) : -1;
    if (i1 < 0 || !sc->body[i1].dynamic) return fail(sc, "joint '%s': object1 '%s' is not a dynamic object", name, b1 ? b1 : "(null)");
    if (b2 && i2 < 0) return fail(sc, "joint '%s': object2 '%s' does not exist", name, b2);
    if (b2 && i2 == i1) return fail(sc, "joint '%s': object1 and object2 are the same object '%s'", name, b2);
    int need_p = k <= 2, need_a = k >= 1 && k <= 3;
    if (need_p && (!p || !finite_n(p, 3))) return fail(sc, "joint '%s' (%s): points[0] is missing or not finite", name, type);
    double unit[3] = { 0.0, 0.0, 1.0 };
    if (need_a && !(a && finite_n(a, 3) && unit_vector(a, unit)))
        return fail(sc, "joint '%s' (%s): axes[0] is missing, zero or not finite", name, type);
    if (grow((void **)&sc->jt, &sc->cjt, sc->njt + 1, sizeof *sc->jt)) return fail(sc, "out of memory");
    sjoint *j = &sc->jt[sc->njt];
    memset(j, 0, sizeof *j);
    if (!(j->name = dupstr(name))) return fail(sc, "out of memory");
    j->type = k; j->b1 = i1; j->b2 = i2; j->absolute = absolute;
    if (need_p) memcpy(j->p, p, sizeof j->p);
    if (need_a) memcpy(j->a, unit, sizeof j->a);
    sc->njt++;
    return NS_OK;
}

/* ---- joint stops, friction, couplings ---- */

static int find_joint(const nsm_scene *sc, const char *n)
{
    for (int i = 0; n && i < sc->njt; i++) if (!strcmp(sc->jt[i].name, n)) return i;
    return -1;
}

/* the coordinates of a joint (Siconos' DoF order): revolute 0 angle;
 * prismatic 0 sliding; cylindrical 0 sliding, 1 angle; ball, fixed none */
static int joint_ndof(int k) { return k == 1 || k == 3 ? 1 : k == 2 ? 2 : 0; }
static int coord_is_angle(int k, int dof) { return k == 1 || (k == 2 && dof == 1); }

static ns_status check_axis(nsm_scene *sc, const char *joint, int j, const char *field, int axis)
{
    int n = joint_ndof(sc->jt[j].type);
    if (n == 0) return fail(sc, "joint '%s' (%s): %s: this joint has no free coordinate", joint, joint_classes[sc->jt[j].type], field);
    if (axis < 0 || axis >= n)
        return fail(sc, "joint '%s' (%s): %s: axis %d is unknown (0%s)", joint, joint_classes[sc->jt[j].type], field, axis, n == 2 ? " sliding, 1 rotation" : "");
    return NS_OK;
}

/* The joint named `joint` (its index in *j) and one of its coordinates,
 * checked for the attribute `what` ("stops", "friction", ...). */
static ns_status find_joint_axis(nsm_scene *sc, const char *what, const char *field, const char *joint,
                                 int axis, int *j)
{
    *j = find_joint(sc, joint);
    if (*j < 0) return fail(sc, "joint %s: joint '%s' does not exist", what, joint ? joint : "(null)");
    return check_axis(sc, joint, *j, field, axis);
}

static ns_status new_extra(nsm_scene *sc, sextra **out)
{
    if (grow((void **)&sc->xt, &sc->cxt, sc->nxt + 1, sizeof *sc->xt)) return fail(sc, "out of memory");
    *out = &sc->xt[sc->nxt++];
    memset(*out, 0, sizeof **out);
    return NS_OK;
}

ns_status nsm_scene_joint_stop(nsm_scene *sc, const char *joint, int axis, double pos, double dir, double e)
{
    if (!sc) return NS_BAD_INPUT;
    int j;
    ns_status st = find_joint_axis(sc, "stop", "stops", joint, axis, &j);
    if (st != NS_OK) return st;
    if (!isfinite(pos) || !isfinite(dir)) return fail(sc, "joint '%s': stops: position %g and direction %g must be finite", joint, pos, dir);
    if (!(e >= 0.0 && e <= 1.0)) return fail(sc, "joint '%s': stops: restitution e = %g must be in [0, 1]", joint, e);
    if (coord_is_angle(sc->jt[j].type, axis) && !(fabs(pos) < 3.14159265358979323846))
        return fail(sc, "joint '%s': stops: angle %g must be in (-pi, pi)", joint, pos);
    sextra *x;
    if ((st = new_extra(sc, &x)) != NS_OK) return st;
    x->kind = X_STOP; x->joint = j; x->axis = axis; x->pos = pos; x->dir = dir; x->e = e;
    return NS_OK;
}

ns_status nsm_scene_joint_friction(nsm_scene *sc, const char *joint, int axis, double lb, double ub)
{
    if (!sc) return NS_BAD_INPUT;
    int j;
    ns_status st = find_joint_axis(sc, "friction", "friction", joint, axis, &j);
    if (st != NS_OK) return st;
    if (!(isfinite(lb) && isfinite(ub) && lb <= 0.0 && ub >= 0.0))
        return fail(sc, "joint '%s': friction on axis %d: bounds lb = %g, ub = %g must be finite with lb <= 0 <= ub", joint, axis, lb, ub);
    sextra *x;
    if ((st = new_extra(sc, &x)) != NS_OK) return st;
    x->kind = X_FRICTION; x->joint = j; x->axis = axis; x->lb = lb; x->ub = ub;
    return NS_OK;
}

ns_status nsm_scene_joint_coupling(nsm_scene *sc, const char *joint, int dof1, int dof2, double ratio)
{
    if (!sc) return NS_BAD_INPUT;
    int j;
    ns_status st = find_joint_axis(sc, "coupling", "coupled (dof1)", joint, dof1, &j);
    if (st == NS_OK) st = check_axis(sc, joint, j, "coupled (dof2)", dof2);
    if (st != NS_OK) return st;
    if (dof1 == dof2) return fail(sc, "joint '%s': coupled: dof1 and dof2 are both %d", joint, dof1);
    if (!isfinite(ratio)) return fail(sc, "joint '%s': coupled: ratio %g must be finite", joint, ratio);
    sextra *x;
    if ((st = new_extra(sc, &x)) != NS_OK) return st;
    x->kind = X_COUPLING; x->joint = j; x->axis = dof1; x->dof2 = dof2; x->ratio = ratio;
    return NS_OK;
}

/* where a joint's body sits among a coupler's (0, 1; −1 the ground or a
 * static object; −2 another dynamic body) */
static int coupler_slot(const nsm_scene *sc, int body, int b1, int b2)
{
    if (body < 0 || !sc->body[body].dynamic) return -1;
    return body == b1 ? 0 : body == b2 ? 1 : -2;
}

ns_status nsm_scene_coupler(nsm_scene *sc, const char *name, const char *body1, const char *body2,
                            const char *joint1, int dof1, const char *joint2, int dof2, double ratio)
{
    if (!sc) return NS_BAD_INPUT;
    if (!name) return fail(sc, "coupler: NULL name");
    int b1 = find_body(sc, body1), b2 = body2 ? find_body(sc, body2) : -1;
    if (b1 < 0 || !sc->body[b1].dynamic) return fail(sc, "coupler '%s': object1 '%s' is not a dynamic object", name, body1 ? body1 : "(null)");
    if (body2 && b2 < 0) return fail(sc, "coupler '%s': object2 '%s' does not exist", name, body2);
    if (b2 >= 0 && !sc->body[b2].dynamic) b2 = -1;
    if (b2 == b1) return fail(sc, "coupler '%s': object1 and object2 are the same object", name);
    const char *jn[2] = { joint1, joint2 };
    int jj[2], dof[2] = { dof1, dof2 };
    for (int k = 0; k < 2; k++) {
        jj[k] = find_joint(sc, jn[k]);
        if (jj[k] < 0) return fail(sc, "coupler '%s': references: joint '%s' does not exist", name, jn[k] ? jn[k] : "(null)");
        ns_status st = check_axis(sc, jn[k], jj[k], "coupled", dof[k]);
        if (st != NS_OK) return fail(sc, "coupler '%s': %s", name, sc->err);
        const sjoint *J = &sc->jt[jj[k]];
        int s1 = coupler_slot(sc, J->b1, b1, b2), s2 = coupler_slot(sc, J->b2, b1, b2);
        if (s1 == -2 || s2 == -2)
            return fail(sc, "coupler '%s': references: joint '%s' joins a body other than '%s'%s%s (couplers over a third dynamic body are not supported)",
                        name, jn[k], body1, b2 >= 0 ? " and " : "", b2 >= 0 ? body2 : "");
    }
    if (!isfinite(ratio)) return fail(sc, "coupler '%s': coupled: ratio %g must be finite", name, ratio);
    if (grow((void **)&sc->cp, &sc->ccp, sc->ncp + 1, sizeof *sc->cp)) return fail(sc, "out of memory");
    scoupler *c = &sc->cp[sc->ncp];
    if (!(c->name = dupstr(name))) return fail(sc, "out of memory");
    c->b1 = b1; c->b2 = b2; c->j1 = jj[0]; c->dof1 = dof1; c->j2 = jj[1]; c->dof2 = dof2; c->ratio = ratio;
    sc->ncp++;
    return NS_OK;
}

/* ---- build ---- */

void nsm_scene_run_free(nsm_scene_run *r)
{
    if (!r) return;
    nsm_sim_free(r->sim);
    nsm_collision_free(r->collision);
    nsm_model_free(r->model);
    free(r->names);
    free(r->masses);
    free(r);
}

static nsm_scene_run *build_fail(nsm_scene_run *r, char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err) vsnprintf(err, NS_ERRMSG_LEN, fmt, ap);
    va_end(ap);
    nsm_scene_run_free(r);
    return NULL;
}

/* Siconos' cylinders, capsules and cones lie along y; ours along z:
 * the contactor turns z onto y (a −90° rotation about x). */
static void contactor_pose(const sshape *s, const sctor *c, double *pose)
{
    memcpy(pose, c->t, 3 * sizeof(double));
    memcpy(pose + 3, c->q, 4 * sizeof(double));
    if (s->kind == P_CYLINDER || s->kind == P_CAPSULE || s->kind == P_CONE) {
        const double h = sqrt(0.5), rx[4] = { h, -h, 0, 0 };
        nsm_quat_mul(c->q, rx, pose + 3);
    }
}

nsm_scene_run *nsm_scene_build(const nsm_scene *sc, const nsm_sim_options *o, double g, char *err)
{
    if (!sc || !o) return build_fail(NULL, err, "nsm_scene_build: NULL %s", sc ? "options" : "scene");
    if (!isfinite(g)) return build_fail(NULL, err, "nsm_scene_build: gravity %g is not finite", g);
    nsm_scene_run *r = calloc(1, sizeof *r);
    if (!r) return build_fail(NULL, err, "out of memory");
    r->gravity = g;
    r->model = nsm_model_new();
    r->names = calloc((size_t)sc->nbody + 1, sizeof *r->names);
    r->masses = calloc((size_t)sc->nbody + 1, sizeof *r->masses);
    int *dsid = calloc((size_t)sc->nbody + 1, sizeof *dsid);
    if (!r->model || !r->names || !r->masses || !dsid) { free(dsid); return build_fail(r, err, "out of memory"); }
    for (int i = 0; i < sc->nbody; i++) {
        const sbody *b = &sc->body[i];
        dsid[i] = -1;
        if (!b->dynamic) continue;
        double q0[7] = { b->x[0], b->x[1], b->x[2], b->q[0], b->q[1], b->q[2], b->q[3] };
        nsm_ds *d = nsm_ds_newton_euler_new(b->mass, b->I, q0, b->v);
        if (!d) { free(dsid); return build_fail(r, err, "object '%s': %s", b->name, nsm_constructor_error()); }
        double f[6] = { 0, 0, -b->mass * g, 0, 0, 0 };
        nsm_ds_set_fext_constant(d, f);
        dsid[i] = nsm_model_add_ds(r->model, d);
        if (dsid[i] < 0) { free(dsid); return build_fail(r, err, "object '%s': %s", b->name, nsm_model_error(r->model)); }
        r->masses[r->nbodies] = b->mass;
        r->names[r->nbodies++] = b->name;
    }
    char e2[NS_ERRMSG_LEN];
    r->collision = nsm_collision_new(r->model, e2);
    if (!r->collision) { free(dsid); return build_fail(r, err, "%s", e2); }
    int *shid = malloc(((size_t)sc->nsh + 1) * sizeof *shid);
    if (!shid) { free(dsid); return build_fail(r, err, "out of memory"); }
    nsm_collision *c = r->collision;
    for (int i = 0; i < sc->nsh; i++) {
        const sshape *s = &sc->sh[i];
        static const double up[3] = { 0, 0, 1 };
        double half[3] = { 0.5 * s->p[0], 0.5 * s->p[1], 0.5 * s->p[2] };
        switch (s->kind) {
        case P_SPHERE: shid[i] = nsm_collision_sphere(c, s->p[0]); break;
        case P_BOX: shid[i] = nsm_collision_box(c, half); break;
        case P_CYLINDER: shid[i] = nsm_collision_cylinder(c, s->p[0], 0.5 * s->p[1]); break;
        /* Siconos' Bullet backend scales a unit capsule (radius 1, cylinder
         * part 1) and cone (radius 1, height 1) by (r, length/2, r): its
         * Capsule(r, length) has a cylindrical part of length/2 and its
         * Cone(r, length) a height of length/2 (measured with Siconos 4.5:
         * upright, they rest with their centre at length/4 + r and
         * length/4) */
        case P_CAPSULE: shid[i] = nsm_collision_capsule(c, s->p[0], 0.25 * s->p[1]); break;
        case P_CONE:
            shid[i] = nsm_collision_cone(c, s->p[0], 0.5 * s->p[1]);
            /* Bullet's cone carries its margin outside: Siconos' default
             * (2 % of its smallest parameter) instead of Bullet's 0.04 */
            if (shid[i] >= 0) nsm_collision_set_shape_margin(c, shid[i], 0.02 * fmin(s->p[0], s->p[1]));
            break;
        case P_PLANE: shid[i] = nsm_collision_plane(c, up, 0.0); break;
        default:
            shid[i] = nsm_collision_convex_hull(c, s->npts, s->pts);
            if (shid[i] >= 0) nsm_collision_set_shape_margin(c, shid[i], 0.0);
            break;
        }
        if (shid[i] < 0) { free(dsid); free(shid); return build_fail(r, err, "shape '%s': %s", s->name, nsm_collision_error(c)); }
    }
    for (int i = 0; i < sc->nct; i++) {
        const sctor *k = &sc->ct[i];
        const sbody *b = &sc->body[k->body];
        double pose[7], wp[7];
        contactor_pose(&sc->sh[k->shape], k, pose);
        const double *P = pose;
        if (!b->dynamic) {   /* world pose = body ∘ contactor */
            double R[9];
            nsm_quat_matrix(b->q, R);
            nsm_mat3_vec(R, pose, wp);
            for (int j = 0; j < 3; j++) wp[j] += b->x[j];
            nsm_quat_mul(b->q, pose + 3, wp + 3);
            P = wp;
        }
        if (nsm_collision_add(c, dsid[k->body], shid[k->shape], P, k->group) < 0) {
            free(dsid); free(shid);
            return build_fail(r, err, "object '%s', contactor '%s': %s", b->name, sc->sh[k->shape].name, nsm_collision_error(c));
        }
    }
    free(shid);
    for (int i = 0; i < sc->nlaw; i++) {
        const slaw *l = &sc->law[i];
        int rows = l->mu >= 0.0 ? 3 : 1;
        int id = nsm_model_add_law(r->model, rows == 3 ? nsm_nslaw_newton_coulomb_new(3, l->e, l->mu) : nsm_nslaw_newton_new(1, l->e));
        if (id < 0 || nsm_collision_set_law(c, l->g1, l->g2, id, rows, 1e-2) != NS_OK) {
            free(dsid);
            return build_fail(r, err, "law '%s': %s", l->name, id < 0 ? nsm_model_error(r->model) : nsm_collision_error(c));
        }
    }
    double (*jP)[3] = calloc((size_t)sc->njt + 1, sizeof *jP), (*jA)[3] = calloc((size_t)sc->njt + 1, sizeof *jA);
    if (!jP || !jA) { free(dsid); free(jP); free(jA); return build_fail(r, err, "out of memory"); }
    for (int i = 0; i < sc->njt; i++) {
        const sjoint *j = &sc->jt[i];
        const sbody *b1 = &sc->body[j->b1];
        const sbody *b2 = j->b2 >= 0 ? &sc->body[j->b2] : NULL;
        double q1[7] = { b1->x[0], b1->x[1], b1->x[2], b1->q[0], b1->q[1], b1->q[2], b1->q[3] }, q2[7];
        int two = b2 && b2->dynamic;
        if (two) { memcpy(q2, b2->x, 3 * sizeof(double)); memcpy(q2 + 3, b2->q, 4 * sizeof(double)); }
        double P[3], A[3];
        if (j->type == 3 || j->type == 4) memcpy(P, b1->x, sizeof P);   /* prismatic, fixed: no point */
        else if (j->absolute) memcpy(P, j->p, sizeof P);
        else {
            double R[9];
            nsm_quat_matrix(b1->q, R);
            nsm_mat3_vec(R, j->p, P);
            for (int k = 0; k < 3; k++) P[k] += b1->x[k];
        }
        if (j->absolute) memcpy(A, j->a, sizeof A);
        else { double R[9]; nsm_quat_matrix(b1->q, R); nsm_mat3_vec(R, j->a, A); }
        nsm_joint_type t = joint_map[j->type];
        memcpy(jP[i], P, sizeof P);
        memcpy(jA[i], A, sizeof A);
        nsm_relation *rel = nsm_joint_new(t, q1, two ? q2 : NULL, P, A);
        char why[NS_ERRMSG_LEN];   /* the law's constructor below resets the constructor error */
        snprintf(why, sizeof why, "%s", nsm_constructor_error());
        int law = nsm_model_add_law(r->model, nsm_nslaw_equality_new(nsm_joint_size(t)));
        int id = rel && law >= 0 ? nsm_model_add_interaction(r->model, rel, law, dsid[j->b1], two ? dsid[j->b2] : -1) : -1;
        if (id < 0) {
            free(dsid); free(jP); free(jA);
            return build_fail(r, err, "joint '%s': %s", j->name, rel ? nsm_model_error(r->model) : why);
        }
    }
    /* stops (Newton rows), friction (relay rows), couplings (equality rows)
     * on a joint's coordinates, each measured from the initial poses */
    for (int i = 0; i < sc->nxt; i++) {
        const sextra *x = &sc->xt[i];
        const sjoint *j = &sc->jt[x->joint];
        const sbody *b1 = &sc->body[j->b1];
        const sbody *b2 = j->b2 >= 0 ? &sc->body[j->b2] : NULL;
        int two = b2 && b2->dynamic;
        double q1[7], q2[7];
        memcpy(q1, b1->x, 3 * sizeof(double)); memcpy(q1 + 3, b1->q, 4 * sizeof(double));
        if (two) { memcpy(q2, b2->x, 3 * sizeof(double)); memcpy(q2 + 3, b2->q, 4 * sizeof(double)); }
        int angle = coord_is_angle(j->type, x->axis);
        nsm_relation *rel = NULL;
        nsm_nslaw *law = NULL;
        if (x->kind == X_STOP) {
            /* Siconos' JointStopR: y = (c − pos) dir_sign ≥ 0 */
            int upper = x->dir < 0;
            rel = angle ? nsm_joint_angle_stop_new(q1, two ? q2 : NULL, jA[x->joint], x->pos, upper)
                        : nsm_joint_stop_new(q1, two ? q2 : NULL, jP[x->joint], jA[x->joint], x->pos, upper);
            law = nsm_nslaw_newton_new(1, x->e);
        } else if (x->kind == X_FRICTION) {
            /* Siconos' JointFrictionR: ẏ = −ċ, the relay's bounds the impulse over a step */
            rel = nsm_joint_friction_new(angle ? NSM_JOINT_REVOLUTE : NSM_JOINT_PRISMATIC, q1, two ? q2 : NULL, jP[x->joint], jA[x->joint]);
            law = nsm_nslaw_relay_new(1, &x->lb, &x->ub);
        } else {
            nsm_joint_coord jc[2];
            for (int k = 0; k < 2; k++) {
                jc[k].type = joint_map[j->type];
                jc[k].dof = k == 0 ? x->axis : x->dof2;
                jc[k].body1 = 0;
                jc[k].body2 = two ? 1 : -1;
                memcpy(jc[k].anchor, jP[x->joint], sizeof jc[k].anchor);
                memcpy(jc[k].axis, jA[x->joint], sizeof jc[k].axis);
            }
            rel = nsm_joint_coupler_new(q1, two ? q2 : NULL, &jc[0], &jc[1], x->ratio);
            law = nsm_nslaw_equality_new(1);
        }
        int id = -1, built = rel && law;
        if (built) {
            int lid = nsm_model_add_law(r->model, law);
            law = NULL;
            if (lid >= 0) id = nsm_model_add_interaction(r->model, rel, lid, dsid[j->b1], two ? dsid[j->b2] : -1);
            else nsm_relation_free(rel);
            rel = NULL;
        }
        if (id < 0) {
            static const char *const what[] = { "stop", "friction", "coupling" };
            char why[NS_ERRMSG_LEN];
            snprintf(why, sizeof why, "%s", built ? nsm_model_error(r->model) : nsm_constructor_error());
            nsm_relation_free(rel);
            nsm_nslaw_free(law);
            free(dsid); free(jP); free(jA);
            return build_fail(r, err, "joint '%s': %s on axis %d: %s", j->name, what[x->kind], x->axis, why);
        }
    }
    for (int i = 0; i < sc->ncp; i++) {
        const scoupler *cp = &sc->cp[i];
        const sbody *b1 = &sc->body[cp->b1];
        const sbody *b2 = cp->b2 >= 0 ? &sc->body[cp->b2] : NULL;
        double q1[7], q2[7];
        memcpy(q1, b1->x, 3 * sizeof(double)); memcpy(q1 + 3, b1->q, 4 * sizeof(double));
        if (b2) { memcpy(q2, b2->x, 3 * sizeof(double)); memcpy(q2 + 3, b2->q, 4 * sizeof(double)); }
        nsm_joint_coord jc[2];
        const int jj[2] = { cp->j1, cp->j2 }, dof[2] = { cp->dof1, cp->dof2 };
        for (int k = 0; k < 2; k++) {
            const sjoint *J = &sc->jt[jj[k]];
            jc[k].type = joint_map[J->type];
            jc[k].dof = dof[k];
            jc[k].body1 = coupler_slot(sc, J->b1, cp->b1, cp->b2);
            jc[k].body2 = coupler_slot(sc, J->b2, cp->b1, cp->b2);
            memcpy(jc[k].anchor, jP[jj[k]], sizeof jc[k].anchor);
            memcpy(jc[k].axis, jA[jj[k]], sizeof jc[k].axis);
        }
        nsm_relation *rel = nsm_joint_coupler_new(q1, b2 ? q2 : NULL, &jc[0], &jc[1], cp->ratio);
        int lid = rel ? nsm_model_add_law(r->model, nsm_nslaw_equality_new(1)) : -1;
        if (rel && lid < 0) { nsm_relation_free(rel); rel = NULL; }
        int id = lid >= 0 ? nsm_model_add_interaction(r->model, rel, lid, dsid[cp->b1], b2 ? dsid[cp->b2] : -1) : -1;
        if (id < 0) {
            char why[NS_ERRMSG_LEN];
            snprintf(why, sizeof why, "%s", lid >= 0 ? nsm_model_error(r->model) : nsm_constructor_error());
            free(dsid); free(jP); free(jA);
            return build_fail(r, err, "coupler '%s': %s", cp->name, why);
        }
    }
    free(jP); free(jA);
    free(dsid);
    r->sim = nsm_sim_new(r->model, o, e2);
    if (!r->sim) return build_fail(r, err, "simulation: %s", e2);
    return r;
}

ns_status nsm_scene_step(nsm_scene_run *r)
{
    if (!r) return NS_BAD_INPUT;
    ns_status st = nsm_collision_update(r->collision, r->sim);
    return st == NS_OK ? nsm_sim_step(r->sim) : st;
}

double nsm_scene_energy(nsm_scene_run *r)
{
    if (!r) return NAN;
    double E = 0.0;
    for (int j = 0; j < r->nbodies; j++)
        E += nsm_sim_kinetic_energy(r->sim, j) + nsm_sim_q(r->sim, j)[2] * r->masses[j] * r->gravity;
    return E;
}
