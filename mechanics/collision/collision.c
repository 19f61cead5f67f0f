/* collision.c — contact points of Bullet's persistent manifolds
 * (bt_world.cpp) turned into interactions of a model of rigid bodies.
 * Contract: include/nonsmooth/nsm_collision.h.
 *
 * Each contact interaction has a record (its interaction id and
 * generation); the manifold point it came from holds the record's index
 * + 1 in its persistent user slot, so that the next update finds the
 * same interaction for the same point (warm start) while Bullet keeps the
 * point. Records not met in an update (point gone, or beyond the margin)
 * are removed with their interactions. */
#include "collision/bt_world.h"
#include "ds/quaternion.h"
#include "nonsmooth/nsm.h"
#include "nonsmooth/nsm_collision.h"
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* public API only: this library sits on libnonsmooth_mechanics */
static void set_err(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, NS_ERRMSG_LEN, fmt, ap);
    va_end(ap);
}

static int all_finite(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) if (!isfinite(v[i])) return 0;
    return 1;
}

enum { SH_SPHERE, SH_BOX, SH_CAPSULE, SH_CYLINDER, SH_CONE, SH_HULL, SH_MESH, SH_PLANE, SH_HEIGHTFIELD };
static const char *const shape_names[] = { "sphere", "box", "capsule", "cylinder", "cone",
                                            "convex hull", "triangle mesh", "plane", "heightfield" };

typedef struct contactor { int ds, shape, group, obj; double pose[7]; } contactor;
typedef struct pair_law { int g1, g2, law, rows; double margin; } pair_law;
typedef struct record { int inter; unsigned gen; int alive, seen; } record;

struct nsm_collision {
    nsm_model *m;
    nsm_bt_world *w;
    int *shape_type; int nshapes, cap_shapes;
    contactor *obj; int nobj, cap_obj;
    pair_law *laws; int nlaws, cap_laws;
    record *rec; int nrec, cap_rec;
    int *free_rec; int nfree, cap_free;
    nsm_sim *sim;                     /* during an update */
    ns_status st;
    nsm_collision_stats stats;
    char err[NS_ERRMSG_LEN];
};

static int grow(void **p, int *cap, int need, size_t elt)
{
    if (need <= *cap) return 0;
    int c = *cap ? 2 * *cap : 16;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * elt);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

nsm_collision *nsm_collision_new(nsm_model *m, char *err)
{
    if (!m) { if (err) set_err(err, "nsm_collision_new: NULL model"); return NULL; }
    nsm_collision *c = calloc(1, sizeof *c);
    if (c) c->w = nsm_bt_new();
    if (!c || !c->w) {
        free(c);
        if (err) set_err(err, "nsm_collision_new: out of memory");
        return NULL;
    }
    c->m = m;
    return c;
}

void nsm_collision_free(nsm_collision *c)
{
    if (!c) return;
    nsm_bt_free(c->w);
    free(c->shape_type); free(c->obj); free(c->laws); free(c->rec); free(c->free_rec);
    free(c);
}

const char *nsm_collision_error(const nsm_collision *c) { return c ? c->err : "no collision set"; }

static int new_shape(nsm_collision *c, int type, int bt)
{
    if (bt < 0 || grow((void **)&c->shape_type, &c->cap_shapes, c->nshapes + 1, sizeof(int))) {
        set_err(c->err, "%s: out of memory", shape_names[type]);
        return -1;
    }
    c->shape_type[c->nshapes] = type;
    return c->nshapes++;
}

static int positive(nsm_collision *c, const char *shape, const char *field, double x)
{
    if (isfinite(x) && x > 0.0) return 1;
    set_err(c->err, "%s: %s = %g must be finite and > 0", shape, field, x);
    return 0;
}

int nsm_collision_sphere(nsm_collision *c, double r)
{
    if (!c || !positive(c, "sphere", "radius", r)) return -1;
    return new_shape(c, SH_SPHERE, nsm_bt_sphere(c->w, r));
}

int nsm_collision_box(nsm_collision *c, const double *h)
{
    if (!c) return -1;
    if (!h) { set_err(c->err, "box: half_extents is NULL"); return -1; }
    for (int i = 0; i < 3; i++) if (!positive(c, "box", "half_extents[i]", h[i])) return -1;
    return new_shape(c, SH_BOX, nsm_bt_box(c->w, h));
}

int nsm_collision_capsule(nsm_collision *c, double r, double hl)
{
    if (!c || !positive(c, "capsule", "radius", r) || !positive(c, "capsule", "half_length", hl)) return -1;
    return new_shape(c, SH_CAPSULE, nsm_bt_capsule(c->w, r, hl));
}

int nsm_collision_cylinder(nsm_collision *c, double r, double hl)
{
    if (!c || !positive(c, "cylinder", "radius", r) || !positive(c, "cylinder", "half_length", hl)) return -1;
    return new_shape(c, SH_CYLINDER, nsm_bt_cylinder(c->w, r, hl));
}

int nsm_collision_cone(nsm_collision *c, double r, double h)
{
    if (!c || !positive(c, "cone", "radius", r) || !positive(c, "cone", "height", h)) return -1;
    return new_shape(c, SH_CONE, nsm_bt_cone(c->w, r, h));
}

/* d = sc (p_i − p_0): point i relative to point 0, scaled */
static void scaled_offset(const double *p, int i, double sc, double d[3])
{
    for (int k = 0; k < 3; k++) d[k] = sc * (p[3 * i + k] - p[k]);
}

/* n ≥ 4 finite points spanning a volume (relative to their extent) */
int nsm_collision_convex_hull(nsm_collision *c, int n, const double *p)
{
    if (!c) return -1;
    if (!p || n < 4) { set_err(c->err, "convex hull: needs at least 4 points (npoints = %d%s)", n, p ? "" : ", points NULL"); return -1; }
    if (!all_finite(p, 3 * (size_t)n)) { set_err(c->err, "convex hull: points has a non-finite entry"); return -1; }
    double ext = 0.0;
    for (int i = 1; i < n; i++)
        for (int k = 0; k < 3; k++) ext = fmax(ext, fabs(p[3 * i + k] - p[k]));
    if (!isfinite(ext)) { set_err(c->err, "convex hull: the points' extent overflows"); return -1; }
    /* the largest triangle on p0, then the largest distance from its plane,
     * in coordinates relative to p0 scaled by the extent (no overflow) */
    const double sc = ext > 0.0 ? 1.0 / ext : 1.0;
    int b = -1; double best = 0.0, e1[3], nrm[3] = { 0, 0, 0 };
    for (int i = 1; i < n; i++) {
        double d[3];
        scaled_offset(p, i, sc, d);
        double l = nsm_dot3(d, d);
        if (l > best) { best = l; b = i; memcpy(e1, d, sizeof e1); }
    }
    best = 0.0;
    for (int i = 1; b > 0 && i < n; i++) {
        double d[3], x[3];
        scaled_offset(p, i, sc, d);
        nsm_cross3(e1, d, x);
        double l = sqrt(nsm_dot3(x, x));
        if (l > best) { best = l; for (int k = 0; k < 3; k++) nrm[k] = x[k] / l; }
    }
    double h = 0.0;
    for (int i = 1; best > 0.0 && i < n; i++) {
        double d[3];
        scaled_offset(p, i, sc, d);
        h = fmax(h, fabs(nsm_dot3(d, nrm)));
    }
    if (!(ext > 0.0) || h <= 1e-9) {
        set_err(c->err, "convex hull: degenerate — its %d points are %s", n,
                    !(ext > 0.0) ? "all the same" : best <= 0.0 ? "collinear" : "coplanar");
        return -1;
    }
    return new_shape(c, SH_HULL, nsm_bt_convex_hull(c->w, n, p));
}

int nsm_collision_triangle_mesh(nsm_collision *c, int nv, const double *v, int nt, const int *tri)
{
    if (!c) return -1;
    if (!v || !tri || nv < 3 || nt < 1) { set_err(c->err, "triangle mesh: needs vertices (nvertices = %d >= 3) and triangles (ntriangles = %d >= 1)", nv, nt); return -1; }
    if (!all_finite(v, 3 * (size_t)nv)) { set_err(c->err, "triangle mesh: vertices has a non-finite entry"); return -1; }
    for (int i = 0; i < 3 * nt; i++)
        if (tri[i] < 0 || tri[i] >= nv) {
            set_err(c->err, "triangle mesh: triangles[%d] = %d is not a vertex index (0..%d)", i, tri[i], nv - 1);
            return -1;
        }
    return new_shape(c, SH_MESH, nsm_bt_trimesh(c->w, nv, v, nt, tri));
}

int nsm_collision_plane(nsm_collision *c, const double *n, double offset)
{
    if (!c) return -1;
    if (!n || !all_finite(n, 3) || fabs(sqrt(nsm_dot3(n, n)) - 1.0) > 1e-8 || !isfinite(offset)) {
        set_err(c->err, "plane: normal must be a finite unit vector and offset finite");
        return -1;
    }
    return new_shape(c, SH_PLANE, nsm_bt_plane(c->w, n, offset));
}

int nsm_collision_heightfield(nsm_collision *c, int nx, int ny, const double *h, double dx, double dy)
{
    if (!c) return -1;
    if (!h || nx < 2 || ny < 2) { set_err(c->err, "heightfield: needs nx, ny >= 2 (%d, %d) and heights", nx, ny); return -1; }
    if (!positive(c, "heightfield", "dx", dx) || !positive(c, "heightfield", "dy", dy)) return -1;
    if (!all_finite(h, (size_t)nx * ny)) { set_err(c->err, "heightfield: heights has a non-finite entry"); return -1; }
    return new_shape(c, SH_HEIGHTFIELD, nsm_bt_heightfield(c->w, nx, ny, h, dx, dy));
}

ns_status nsm_collision_set_shape_margin(nsm_collision *c, int shape, double margin)
{
    if (!c) return NS_BAD_INPUT;
    if (shape < 0 || shape >= c->nshapes) { set_err(c->err, "set_shape_margin: shape %d does not exist", shape); return NS_BAD_INPUT; }
    int t = c->shape_type[shape];
    if (!(isfinite(margin) && margin >= 0.0) || t == SH_SPHERE || t == SH_CAPSULE) {
        set_err(c->err, "set_shape_margin: margin = %g must be finite and >= 0, on a box, cylinder, cone or hull (shape %d is a %s)",
                    margin, shape, shape_names[t]);
        return NS_BAD_INPUT;
    }
    nsm_bt_shape_margin(c->w, shape, margin);
    return NS_OK;
}

int nsm_collision_add(nsm_collision *c, int ds, int shape, const double *pose, int group)
{
    if (!c) return -1;
    if (shape < 0 || shape >= c->nshapes) { set_err(c->err, "add: shape %d does not exist (%d shapes)", shape, c->nshapes); return -1; }
    int t = c->shape_type[shape];
    if (ds >= 0) {
        const nsm_ds *d = nsm_model_ds_const(c->m, ds);
        if (!d || nsm_ds_get_type(d) != NSM_DS_NEWTON_EULER) {
            set_err(c->err, "add: system %d is %s", ds, d ? "not a rigid body (nsm_ds_newton_euler_new)" : "not in the model");
            return -1;
        }
        if (t == SH_MESH || t == SH_PLANE || t == SH_HEIGHTFIELD) {
            set_err(c->err, "add: a %s is static only (ds = -1), not on system %d", shape_names[t], ds);
            return -1;
        }
    } else if (ds != -1) { set_err(c->err, "add: ds = %d (a system id, or -1: static)", ds); return -1; }
    if (group < 0) { set_err(c->err, "add: group = %d must be >= 0", group); return -1; }
    double P[7] = { 0, 0, 0, 1, 0, 0, 0 };
    if (pose) {
        double nr = all_finite(pose, 7) ? sqrt(pose[3] * pose[3] + pose[4] * pose[4] + pose[5] * pose[5] + pose[6] * pose[6]) : NAN;
        if (!(fabs(nr - 1.0) <= 1e-10)) {
            set_err(c->err, "add: pose must be finite with a unit quaternion pose[3..6] (norm %.17g)", nr);
            return -1;
        }
        memcpy(P, pose, sizeof P);
    }
    if (grow((void **)&c->obj, &c->cap_obj, c->nobj + 1, sizeof *c->obj)) { set_err(c->err, "add: out of memory"); return -1; }
    int o = nsm_bt_object(c->w, shape, ds < 0);
    if (o < 0) { set_err(c->err, "add: out of memory"); return -1; }
    contactor *k = &c->obj[c->nobj];
    k->ds = ds; k->shape = shape; k->group = group; k->obj = o;
    memcpy(k->pose, P, sizeof P);
    if (ds < 0) nsm_bt_pose(c->w, o, P, P + 3);
    return c->nobj++;
}

ns_status nsm_collision_set_law(nsm_collision *c, int g1, int g2, int law, int rows, double margin)
{
    if (!c) return NS_BAD_INPUT;
    const nsm_nslaw *L = nsm_model_law(c->m, law);
    if (g1 < 0 || g2 < 0) { set_err(c->err, "set_law: groups (%d, %d) must be >= 0", g1, g2); return NS_BAD_INPUT; }
    if (!L) { set_err(c->err, "set_law: law %d is not in the model", law); return NS_BAD_INPUT; }
    if ((rows != 1 && rows != 3) || nsm_nslaw_size(L) != rows) {
        set_err(c->err, "set_law: rows = %d must be 1 or 3 and the size of law %d (%d)", rows, law, nsm_nslaw_size(L));
        return NS_BAD_INPUT;
    }
    if (!(isfinite(margin) && margin >= 0.0)) { set_err(c->err, "set_law: margin = %g must be finite and >= 0", margin); return NS_BAD_INPUT; }
    for (int i = 0; i < c->nlaws; i++) {
        pair_law *p = &c->laws[i];
        if ((p->g1 == g1 && p->g2 == g2) || (p->g1 == g2 && p->g2 == g1)) {
            p->law = law; p->rows = rows; p->margin = margin;
            double mx = 0.0;
            for (int k = 0; k < c->nlaws; k++) mx = fmax(mx, c->laws[k].margin);
            nsm_bt_threshold(c->w, mx);
            return NS_OK;
        }
    }
    if (grow((void **)&c->laws, &c->cap_laws, c->nlaws + 1, sizeof *c->laws)) { set_err(c->err, "set_law: out of memory"); return NS_NO_MEMORY; }
    c->laws[c->nlaws++] = (pair_law){ g1, g2, law, rows, margin };
    double mx = 0.0;
    for (int i = 0; i < c->nlaws; i++) mx = fmax(mx, c->laws[i].margin);
    nsm_bt_threshold(c->w, mx);
    return NS_OK;
}

static const pair_law *find_law(const nsm_collision *c, int g1, int g2)
{
    for (int i = 0; i < c->nlaws; i++) {
        const pair_law *p = &c->laws[i];
        if ((p->g1 == g1 && p->g2 == g2) || (p->g1 == g2 && p->g2 == g1)) return p;
    }
    return NULL;
}

static const double *body_q(const nsm_collision *c, int ds) { return nsm_sim_q(c->sim, ds); }

/* a sphere, or a capsule centred on its body's centre of mass */
static int round_shape(const nsm_collision *c, const contactor *k)
{
    int t = c->shape_type[k->shape];
    return (t == SH_SPHERE || t == SH_CAPSULE) && k->pose[0] == 0.0 && k->pose[1] == 0.0 && k->pose[2] == 0.0;
}

static void drop(nsm_collision *c, int r)
{
    record *R = &c->rec[r];
    if (!R->alive) return;
    if (nsm_model_inter_alive(c->m, R->inter) && nsm_model_inter_generation(c->m, R->inter) == R->gen)
        nsm_model_remove_interaction(c->m, R->inter);
    R->alive = 0;
    c->free_rec[c->nfree++] = r;   /* capacity kept ≥ nrec */
    c->stats.live--;
    c->stats.removed++;
}

static int point(void *ctx, int oa, int ob, const double *pA, const double *pB, const double *nB,
                 double dist, void **persist)
{
    nsm_collision *c = ctx;
    const contactor *A = NULL, *B = NULL;
    /* bt object index = contactor index (both in creation order) */
    A = &c->obj[oa];
    B = &c->obj[ob];
    intptr_t slot = (intptr_t)*persist - 1;
    record *R = slot >= 0 && slot < c->nrec && c->rec[slot].alive ? &c->rec[slot] : NULL;
    const pair_law *L = A->ds == B->ds ? NULL : find_law(c, A->group, B->group);
    if (!L || dist > L->margin) {
        if (R) drop(c, (int)slot);
        *persist = NULL;
        return 0;
    }
    int swap = A->ds < 0;   /* body 1 is dynamic */
    const contactor *K1 = swap ? B : A, *K2 = swap ? A : B;
    double n[3], nr = sqrt(nsm_dot3(nB, nB));
    if (!(nr > 0.0)) return 0;
    for (int k = 0; k < 3; k++) n[k] = (swap ? -nB[k] : nB[k]) / nr;
    nsm_contact_frame f;
    const double *q1 = body_q(c, K1->ds), *q2 = K2->ds >= 0 ? body_q(c, K2->ds) : NULL;
    const double *p1 = swap ? pB : pA, *p2 = swap ? pA : pB;
    if (nsm_contact_frame_from_points(q1, q2, p1, p2, n, &f) != NS_OK) {
        set_err(c->err, "update: non-finite contact point between contactors %d and %d", oa, ob);
        c->st = NS_DIVERGED;
        return 1;
    }
    /* round shapes: the contact point follows the normal, not the body
     * (world-frame arm from the centre of mass) */
    if (round_shape(c, K1)) { for (int k = 0; k < 3; k++) f.r1[k] = p1[k] - q1[k]; f.r1_world = 1; }
    if (q2 && round_shape(c, K2)) { for (int k = 0; k < 3; k++) f.r2[k] = p2[k] - q2[k]; f.r2_world = 1; }
    if (R && nsm_model_inter_alive(c->m, R->inter) && nsm_model_inter_generation(c->m, R->inter) == R->gen) {
        nsm_relation_contact_set(nsm_model_relation(c->m, R->inter), &f);
        R->seen = 1;
        c->stats.kept_last++;
        return 0;
    }
    if (R) drop(c, (int)slot);
    nsm_relation *rel = nsm_relation_contact_new(L->rows, K2->ds >= 0 ? 2 : 1, &f);
    int inter = rel ? nsm_model_add_interaction(c->m, rel, L->law, K1->ds, K2->ds) : -1;
    if (inter < 0) {
        set_err(c->err, "update: contact between contactors %d and %d: %s", oa, ob,
                    rel ? nsm_model_error(c->m) : nsm_constructor_error());
        c->st = NS_BAD_INPUT;
        return 1;
    }
    int r;
    if (c->nfree > 0) r = c->free_rec[--c->nfree];
    else {
        if (grow((void **)&c->rec, &c->cap_rec, c->nrec + 1, sizeof *c->rec) ||
            grow((void **)&c->free_rec, &c->cap_free, c->nrec + 1, sizeof *c->free_rec)) {
            nsm_model_remove_interaction(c->m, inter);
            set_err(c->err, "update: out of memory");
            c->st = NS_NO_MEMORY;
            return 1;
        }
        r = c->nrec++;
    }
    c->rec[r] = (record){ inter, nsm_model_inter_generation(c->m, inter), 1, 1 };
    *persist = (void *)(intptr_t)(r + 1);
    c->stats.live++;
    c->stats.created++;
    return 0;
}

ns_status nsm_collision_update(nsm_collision *c, nsm_sim *s)
{
    if (!c) return NS_BAD_INPUT;
    if (!s || nsm_sim_model(s) != c->m) {
        set_err(c->err, "update: %s", s ? "the simulation is not of this set's model" : "NULL simulation");
        return NS_BAD_INPUT;
    }
    c->sim = s;
    for (int i = 0; i < c->nobj; i++) {
        const contactor *k = &c->obj[i];
        if (k->ds < 0) continue;
        const double *q = body_q(c, k->ds);
        double R[9], p[3], qq[4];
        nsm_quat_matrix(q + 3, R);
        nsm_mat3_vec(R, k->pose, p);
        for (int j = 0; j < 3; j++) p[j] += q[j];
        nsm_quat_mul(q + 3, k->pose + 3, qq);
        nsm_bt_pose(c->w, k->obj, p, qq);
    }
    for (int r = 0; r < c->nrec; r++) c->rec[r].seen = 0;
    c->st = NS_OK;
    c->stats.kept_last = 0;
    nsm_bt_detect(c->w, point, c);
    for (int r = 0; r < c->nrec; r++)
        if (c->rec[r].alive && !c->rec[r].seen) drop(c, r);
    c->sim = NULL;
    return c->st;
}

nsm_collision_stats nsm_collision_get_stats(const nsm_collision *c)
{
    nsm_collision_stats z = { 0, 0, 0, 0 };
    return c ? c->stats : z;
}

int nsm_collision_contact(const nsm_collision *c, int i)
{
    if (!c || i < 0) return -1;
    for (int r = 0; r < c->nrec; r++)
        if (c->rec[r].alive && i-- == 0) return c->rec[r].inter;
    return -1;
}
