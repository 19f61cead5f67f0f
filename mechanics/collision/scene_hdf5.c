/* scene_hdf5.c — reads a Siconos mechanics HDF5 scene (the layout written
 * by siconos.io.mechanics_hdf5: /data/ref shapes, /data/input objects with
 * their contactors, /data/nslaws, /data/joints) into an nsm_scene.
 * Every field is checked; errors name the file, the object and the field.
 * HDF5's own error printing is switched off around the reads
 * (H5E_BEGIN_TRY / H5E_END_TRY restore it). */
#include "nonsmooth/nsm_scene.h"
#include <hdf5.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_LEN 256

/* a law as read, for the joints' stops and friction that name it */
typedef struct rlaw { char name[NAME_LEN]; int relay; double e, lb, ub; } rlaw;

typedef struct rd {
    const char *path;
    char *err;
    nsm_scene *sc;
    rlaw *law;
    int nlaw;
} rd;

static int bad(rd *R, const char *fmt, ...)
{
    char msg[NS_ERRMSG_LEN - 96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(R->err, NS_ERRMSG_LEN, "%s: %s", R->path, msg);
    return -1;
}

/* a string attribute (variable or fixed length): 1 read, 0 absent, −1 not a string */
static int attr_str(hid_t obj, const char *name, char *buf, size_t len)
{
    if (H5Aexists(obj, name) <= 0) return 0;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0) return -1;
    hid_t t = H5Aget_type(a);
    int rc = -1;
    if (H5Tget_class(t) == H5T_STRING) {
        if (H5Tis_variable_str(t) > 0) {
            char *s = NULL;
            hid_t mt = H5Tcopy(H5T_C_S1);
            H5Tset_size(mt, H5T_VARIABLE);
            H5Tset_cset(mt, H5Tget_cset(t));
            if (H5Aread(a, mt, &s) >= 0 && s) {
                snprintf(buf, len, "%s", s);
                H5free_memory(s);
                rc = 1;
            }
            H5Tclose(mt);
        } else {
            size_t n = H5Tget_size(t);
            char *s = calloc(n + 1, 1);
            hid_t mt = H5Tcopy(H5T_C_S1);
            H5Tset_size(mt, n);
            if (s && H5Aread(a, mt, s) >= 0) { snprintf(buf, len, "%s", s); rc = 1; }
            free(s);
            H5Tclose(mt);
        }
    }
    H5Tclose(t);
    H5Aclose(a);
    return rc;
}

/* a numeric attribute as doubles: its element count (≤ max), 0 absent,
 * −1 not numeric or too long */
static int attr_num(hid_t obj, const char *name, double *out, int max)
{
    if (H5Aexists(obj, name) <= 0) return 0;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0) return -1;
    hid_t t = H5Aget_type(a), sp = H5Aget_space(a);
    H5T_class_t cl = H5Tget_class(t);
    hssize_t n = H5Sget_simple_extent_npoints(sp);
    int rc = -1;
    if (n == 0) rc = 0;   /* an empty array (h5py writes [] so): as absent */
    else if ((cl == H5T_FLOAT || cl == H5T_INTEGER || cl == H5T_ENUM) && n >= 1 && n <= max) {
        if (cl == H5T_ENUM) {   /* h5py booleans */
            signed char b[16];
            if (n <= 16 && H5Aread(a, H5T_NATIVE_SCHAR, b) >= 0) { for (int i = 0; i < n; i++) out[i] = b[i]; rc = (int)n; }
        } else if (H5Aread(a, H5T_NATIVE_DOUBLE, out) >= 0) rc = (int)n;
    }
    H5Sclose(sp);
    H5Tclose(t);
    H5Aclose(a);
    return rc;
}

/* the shape of an attribute: its rank (dims filled, at most 2), −1 absent */
static int attr_shape(hid_t obj, const char *name, hsize_t *dims)
{
    if (H5Aexists(obj, name) <= 0) return -1;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0) return -1;
    hid_t sp = H5Aget_space(a);
    int nd = H5Sget_simple_extent_ndims(sp);
    dims[0] = dims[1] = 0;
    if (nd >= 1 && nd <= 2) H5Sget_simple_extent_dims(sp, dims, NULL);
    H5Sclose(sp);
    H5Aclose(a);
    return nd;
}

/* a string attribute, scalar or 1-D (fixed or variable length, as h5py
 * writes numpy 'S' arrays and str): the number of strings (≤ max) into
 * out, 0 absent, −1 not strings or too many */
static int attr_strs(hid_t obj, const char *name, char (*out)[NAME_LEN], int max)
{
    if (H5Aexists(obj, name) <= 0) return 0;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0) return -1;
    hid_t t = H5Aget_type(a), sp = H5Aget_space(a);
    hssize_t n = H5Sget_simple_extent_npoints(sp);
    int nd = H5Sget_simple_extent_ndims(sp), rc = -1;
    if (H5Tget_class(t) == H5T_STRING && nd <= 1 && n >= 1 && n <= max) {
        hid_t mt = H5Tcopy(H5T_C_S1);
        if (H5Tis_variable_str(t) > 0) {
            char **v = calloc((size_t)n, sizeof *v);
            H5Tset_size(mt, H5T_VARIABLE);
            H5Tset_cset(mt, H5Tget_cset(t));
            if (v && H5Aread(a, mt, v) >= 0) {
                for (hssize_t i = 0; i < n; i++) snprintf(out[i], NAME_LEN, "%s", v[i] ? v[i] : "");
                rc = (int)n;
                H5Dvlen_reclaim(mt, sp, H5P_DEFAULT, v);
            }
            free(v);
        } else {
            size_t len = H5Tget_size(t);
            char *buf = calloc((size_t)n * len + 1, 1);
            H5Tset_size(mt, len);
            H5Tset_strpad(mt, H5T_STR_NULLPAD);
            if (buf && H5Aread(a, mt, buf) >= 0) {
                for (hssize_t i = 0; i < n; i++) {
                    const char *b = buf + (size_t)i * len;
                    size_t l = 0;
                    while (l < len && b[l]) l++;
                    if (l >= NAME_LEN) l = NAME_LEN - 1;
                    memcpy(out[i], b, l);
                    out[i][l] = 0;
                }
                rc = (int)n;
            }
            free(buf);
        }
        H5Tclose(mt);
    }
    H5Sclose(sp);
    H5Tclose(t);
    H5Aclose(a);
    return rc;
}

typedef struct names { char **v; int n, cap; } names;

static herr_t collect(hid_t g, const char *name, const H5L_info_t *info, void *op)
{
    (void)g; (void)info;
    names *N = op;
    if (N->n == N->cap) {
        int c = N->cap ? 2 * N->cap : 16;
        char **v = realloc(N->v, (size_t)c * sizeof *v);
        if (!v) return -1;
        N->v = v; N->cap = c;
    }
    size_t l = strlen(name) + 1;
    N->v[N->n] = malloc(l);
    if (!N->v[N->n]) return -1;
    memcpy(N->v[N->n++], name, l);
    return 0;
}

static void names_free(names *N)
{
    for (int i = 0; i < N->n; i++) free(N->v[i]);
    free(N->v);
    memset(N, 0, sizeof *N);
}

/* members of group `path` in file f, or none when the group is absent */
static int members(hid_t f, const char *path, names *N, int required, rd *R)
{
    memset(N, 0, sizeof *N);
    if (H5Lexists(f, path, H5P_DEFAULT) <= 0) return required ? bad(R, "group %s is missing", path) : 0;
    hid_t g = H5Gopen2(f, path, H5P_DEFAULT);
    if (g < 0) return bad(R, "%s is not a group", path);
    hsize_t idx = 0;
    herr_t e = H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, &idx, collect, N);
    H5Gclose(g);
    if (e < 0) { names_free(N); return bad(R, "cannot list %s", path); }
    return 0;
}

static int read_shapes(hid_t f, rd *R)
{
    names N;
    if (members(f, "/data/ref", &N, 1, R)) return -1;
    int rc = 0;
    for (int i = 0; i < N.n && rc == 0; i++) {
        char p[1024], type[64] = "", prim[64] = "";
        snprintf(p, sizeof p, "/data/ref/%s", N.v[i]);
        hid_t d = H5Dopen2(f, p, H5P_DEFAULT);
        if (d < 0) { rc = bad(R, "shape '%s': not a dataset", N.v[i]); break; }
        if (attr_str(d, "type", type, sizeof type) != 1) rc = bad(R, "shape '%s': attribute 'type' missing or not a string", N.v[i]);
        hid_t sp = H5Dget_space(d);
        int nd = H5Sget_simple_extent_ndims(sp);
        hsize_t dims[2] = { 0, 0 };
        if (nd >= 1 && nd <= 2) H5Sget_simple_extent_dims(sp, dims, NULL);
        hssize_t np = H5Sget_simple_extent_npoints(sp);
        H5Sclose(sp);
        double *buf = NULL;
        if (rc == 0 && (np < 0 || np >= 100000000))
            rc = bad(R, "shape '%s': %lld values (at most 10^8 are read)", N.v[i], (long long)np);
        if (rc == 0 && np > 0) {
            buf = malloc((size_t)np * sizeof *buf);
            if (!buf || H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
                rc = bad(R, "shape '%s': its data cannot be read as numbers", N.v[i]);
        }
        if (rc == 0 && !strcmp(type, "primitive")) {
            if (attr_str(d, "primitive", prim, sizeof prim) != 1) rc = bad(R, "shape '%s': attribute 'primitive' missing", N.v[i]);
            else if (nsm_scene_primitive(R->sc, N.v[i], prim, (int)np, buf) != NS_OK) rc = bad(R, "%s", nsm_scene_error(R->sc));
        } else if (rc == 0 && !strcmp(type, "convex")) {
            if (nd != 2 || dims[1] != 3) rc = bad(R, "shape '%s' (convex): data must be n × 3 points", N.v[i]);
            else if (nsm_scene_convex(R->sc, N.v[i], (int)dims[0], buf) != NS_OK) rc = bad(R, "%s", nsm_scene_error(R->sc));
        } else if (rc == 0)
            rc = bad(R, "shape '%s': type '%s' is not supported (primitive, convex)", N.v[i], type);
        free(buf);
        H5Dclose(d);
    }
    names_free(&N);
    return rc;
}

static int read_objects(hid_t f, rd *R)
{
    names N;
    if (members(f, "/data/input", &N, 1, R)) return -1;
    int rc = 0;
    /* bodies first, then their contactors */
    for (int pass = 0; pass < 2 && rc == 0; pass++)
        for (int i = 0; i < N.n && rc == 0; i++) {
            char p[1024], type[32] = "";
            snprintf(p, sizeof p, "/data/input/%s", N.v[i]);
            hid_t g = H5Gopen2(f, p, H5P_DEFAULT);
            if (g < 0) { rc = bad(R, "object '%s': not a group", N.v[i]); break; }
            if (pass == 0) {
                double mass = NAN, I[9], x[3], q[4] = { 1, 0, 0, 0 }, v[6] = { 0 }, com[3] = { 0 };
                int ni = 0, nx, nq, nv, nc, nm;
                if (attr_str(g, "type", type, sizeof type) != 1) rc = bad(R, "object '%s': attribute 'type' missing", N.v[i]);
                else if (strcmp(type, "dynamic") && strcmp(type, "static")) rc = bad(R, "object '%s': type '%s' (dynamic or static)", N.v[i], type);
                else if ((nx = attr_num(g, "translation", x, 3)) != 3) rc = bad(R, "object '%s': 'translation' must have 3 numbers", N.v[i]);
                else if ((nq = attr_num(g, "orientation", q, 4)) != 4 && nq != 0) rc = bad(R, "object '%s': 'orientation' must be a quaternion (4 numbers)", N.v[i]);
                else if ((nv = attr_num(g, "velocity", v, 6)) != 6 && nv != 0) rc = bad(R, "object '%s': 'velocity' must have 6 numbers", N.v[i]);
                else if ((nc = attr_num(g, "center_of_mass", com, 3)) < 0 || (nc > 0 && (com[0] != 0 || com[1] != 0 || com[2] != 0)))
                    rc = bad(R, "object '%s': 'center_of_mass' other than 0 is not supported", N.v[i]);
                else if (!strcmp(type, "dynamic")) {
                    if ((nm = attr_num(g, "mass", &mass, 1)) != 1) rc = bad(R, "object '%s': dynamic without a numeric 'mass'", N.v[i]);
                    else if (!(isfinite(mass) && mass > 0.0)) rc = bad(R, "object '%s': mass = %g must be finite and > 0", N.v[i], mass);
                    else if ((ni = attr_num(g, "inertia", I, 9)) != 3 && ni != 9) rc = bad(R, "object '%s': 'inertia' missing or not 3 / 3×3 numbers", N.v[i]);
                }
                if (rc == 0 && nsm_scene_body(R->sc, N.v[i], strcmp(type, "dynamic") ? NAN : mass, ni, I, x, q, v) != NS_OK)
                    rc = bad(R, "%s", nsm_scene_error(R->sc));
            } else {
                names C;
                if (members(f, p, &C, 0, R)) rc = -1;
                for (int k = 0; k < C.n && rc == 0; k++) {
                    char cp[2048], shape[256] = "";
                    snprintf(cp, sizeof cp, "%s/%s", p, C.v[k]);
                    hid_t d = H5Oopen(f, cp, H5P_DEFAULT);
                    if (d < 0) { rc = bad(R, "object '%s': contactor '%s' cannot be opened", N.v[i], C.v[k]); break; }
                    double grp = 0, t[3] = { 0 }, q[4] = { 1, 0, 0, 0 };
                    int ng, nt, nq;
                    if (attr_str(d, "shape_name", shape, sizeof shape) != 1) rc = bad(R, "object '%s': contactor '%s' has no 'shape_name'", N.v[i], C.v[k]);
                    else if ((ng = attr_num(d, "group", &grp, 1)) < 0 || grp != floor(grp) || fabs(grp) > INT_MAX) rc = bad(R, "object '%s': contactor '%s': 'group' = %g must be an integer of at most %d", N.v[i], C.v[k], grp, INT_MAX);
                    else if ((nt = attr_num(d, "translation", t, 3)) != 3 && nt != 0) rc = bad(R, "object '%s': contactor '%s': 'translation' must have 3 numbers", N.v[i], C.v[k]);
                    else if ((nq = attr_num(d, "orientation", q, 4)) != 4 && nq != 0) rc = bad(R, "object '%s': contactor '%s': 'orientation' must be a quaternion", N.v[i], C.v[k]);
                    else if (nsm_scene_contactor(R->sc, N.v[i], shape, (int)grp, t, q) != NS_OK) rc = bad(R, "%s", nsm_scene_error(R->sc));
                    H5Oclose(d);
                }
                names_free(&C);
            }
            H5Gclose(g);
        }
    names_free(&N);
    return rc;
}

static int read_laws(hid_t f, rd *R)
{
    names N;
    if (members(f, "/data/nslaws", &N, 0, R)) return -1;
    int rc = 0;
    R->law = calloc((size_t)N.n + 1, sizeof *R->law);
    if (!R->law) { names_free(&N); return bad(R, "out of memory"); }
    for (int i = 0; i < N.n && rc == 0; i++) {
        char p[1024], type[64] = "";
        snprintf(p, sizeof p, "/data/nslaws/%s", N.v[i]);
        hid_t d = H5Oopen(f, p, H5P_DEFAULT);
        if (d < 0) { rc = bad(R, "law '%s' cannot be opened", N.v[i]); break; }
        double e = 0, mu = -1, g1 = 0, g2 = 0, lb = 0, ub = 0, size = 1;
        int relay = 0;
        if (attr_str(d, "type", type, sizeof type) != 1) rc = bad(R, "law '%s': attribute 'type' missing", N.v[i]);
        else if (!(relay = !strcmp(type, "RelayNSL")) && strcmp(type, "NewtonImpactFrictionNSL") && strcmp(type, "NewtonImpactNSL"))
            rc = bad(R, "law '%s': type '%s' is not supported (NewtonImpactFrictionNSL, NewtonImpactNSL, RelayNSL)", N.v[i], type);
        else if (!relay && attr_num(d, "e", &e, 1) != 1) rc = bad(R, "law '%s': 'e' missing", N.v[i]);
        else if (!strcmp(type, "NewtonImpactFrictionNSL") && attr_num(d, "mu", &mu, 1) != 1) rc = bad(R, "law '%s': 'mu' missing", N.v[i]);
        else if (relay && (attr_num(d, "lb", &lb, 1) != 1 || attr_num(d, "ub", &ub, 1) != 1))
            rc = bad(R, "law '%s' (RelayNSL): 'lb' and 'ub' must be numbers", N.v[i]);
        else if (relay && (attr_num(d, "size", &size, 1) < 0 || size != 1))
            rc = bad(R, "law '%s' (RelayNSL): 'size' must be 1 (one joint axis)", N.v[i]);
        else if (attr_num(d, "gid1", &g1, 1) < 0 || attr_num(d, "gid2", &g2, 1) < 0 || g1 != floor(g1) || g2 != floor(g2) ||
                 fabs(g1) > INT_MAX || fabs(g2) > INT_MAX)
            rc = bad(R, "law '%s': 'gid1' = %g, 'gid2' = %g must be integers of magnitude at most %d", N.v[i], g1, g2, INT_MAX);
        else if (!strcmp(type, "NewtonImpactFrictionNSL") && mu < 0) rc = bad(R, "law '%s': mu = %g must be >= 0", N.v[i], mu);
        else if (relay && g1 >= 0 && g2 >= 0) rc = bad(R, "law '%s': a RelayNSL between collision groups %g and %g is not supported (joint friction only: gid -1)", N.v[i], g1, g2);
        else if (g1 >= 0 && g2 >= 0 && nsm_scene_law(R->sc, N.v[i], e, mu, (int)g1, (int)g2) != NS_OK) rc = bad(R, "%s", nsm_scene_error(R->sc));
        /* negative groups: not a contact law (Siconos keeps it for joints only) */
        if (rc == 0) {
            rlaw *L = &R->law[R->nlaw++];
            snprintf(L->name, sizeof L->name, "%s", N.v[i]);
            L->relay = relay; L->e = e; L->lb = lb; L->ub = ub;
        }
        H5Oclose(d);
    }
    names_free(&N);
    return rc;
}

static const rlaw *find_law(const rd *R, const char *name)
{
    for (int i = 0; i < R->nlaw; i++) if (!strcmp(R->law[i].name, name)) return &R->law[i];
    return NULL;
}

/* an n × 3 numeric attribute (1-D of 3 as one row when one_row_ok): its
 * rows (≤ max) into v, 0 absent, −1 malformed */
static int attr_rows3(hid_t d, const char *name, double *v, int max, int one_row_ok)
{
    hsize_t dims[2];
    int nd = attr_shape(d, name, dims);
    if (nd < 0) return 0;
    int rows;
    if (nd == 2 && dims[1] == 3 && dims[0] >= 1 && dims[0] <= (hsize_t)max) rows = (int)dims[0];
    else if (nd == 1 && dims[0] == 3 && one_row_ok) rows = 1;
    else return -1;
    return attr_num(d, name, v, 3 * max) == 3 * rows ? rows : -1;
}

/* stops, friction and couplings of joint `jn` (its attributes in d) */
static int read_joint_extras(hid_t d, const char *jn, rd *R)
{
    enum { MAXX = 16 };
    double st[3 * MAXX], cp[3 * MAXX];
    char (*law)[NAME_LEN] = calloc(2 * MAXX, NAME_LEN), (*fr)[NAME_LEN] = law + MAXX;
    if (!law) return bad(R, "out of memory");
    int rc = 0, ns = attr_rows3(d, "stops", st, MAXX, 0), nl = attr_strs(d, "nslaws", law, MAXX);
    int nf = attr_strs(d, "friction", fr, MAXX), nc = attr_rows3(d, "coupled", cp, MAXX, 1);
    if (ns < 0) rc = bad(R, "joint '%s': 'stops' must be an n × 3 array of [axis, position, direction] (n <= %d)", jn, MAXX);
    else if (nl < 0) rc = bad(R, "joint '%s': 'nslaws' must be a law name or a list of names", jn);
    else if (nl > 1 && ns > 0 && nl != ns) rc = bad(R, "joint '%s': 'nslaws' names %d laws for %d stops (one, or one per stop)", jn, nl, ns);
    else if (nf < 0) rc = bad(R, "joint '%s': 'friction' must be a law name or a list of names (one per axis)", jn);
    else if (nc < 0) rc = bad(R, "joint '%s': 'coupled' must be an n × 3 array of [dof1, dof2, ratio]", jn);
    for (int k = 0; k < ns && rc == 0; k++) {
        double ax = st[3 * k], e = 0.0;
        if (ax != floor(ax) || fabs(ax) > 100) { rc = bad(R, "joint '%s': stops[%d]: axis %g is not an integer", jn, k, ax); break; }
        if (nl > 0) {   /* (without stops, Siconos ignores 'nslaws': so do we) */
            const char *ln = law[nl == 1 ? 0 : k];
            const rlaw *L = find_law(R, ln);
            if (!L) { rc = bad(R, "joint '%s': nslaws: law '%s' does not exist", jn, ln); break; }
            if (L->relay) { rc = bad(R, "joint '%s': nslaws: law '%s' is a RelayNSL (a stop needs a NewtonImpactNSL)", jn, ln); break; }
            e = L->e;
        }
        if (nsm_scene_joint_stop(R->sc, jn, (int)ax, st[3 * k + 1], st[3 * k + 2], e) != NS_OK) rc = bad(R, "%s", nsm_scene_error(R->sc));
    }
    for (int k = 0; k < nf && rc == 0; k++) {
        if (!fr[k][0]) continue;   /* '': no friction on this axis */
        const rlaw *L = find_law(R, fr[k]);
        if (!L) rc = bad(R, "joint '%s': friction[%d]: law '%s' does not exist", jn, k, fr[k]);
        else if (!L->relay) rc = bad(R, "joint '%s': friction[%d]: law '%s' is not a RelayNSL", jn, k, fr[k]);
        else if (nsm_scene_joint_friction(R->sc, jn, k, L->lb, L->ub) != NS_OK) rc = bad(R, "%s", nsm_scene_error(R->sc));
    }
    for (int k = 0; k < nc && rc == 0; k++) {
        double d1 = cp[3 * k], d2 = cp[3 * k + 1];
        if (d1 != floor(d1) || d2 != floor(d2) || fabs(d1) > 100 || fabs(d2) > 100)
            rc = bad(R, "joint '%s': coupled[%d]: dof1 %g, dof2 %g must be integers", jn, k, d1, d2);
        else if (nsm_scene_joint_coupling(R->sc, jn, (int)d1, (int)d2, cp[3 * k + 2]) != NS_OK) rc = bad(R, "%s", nsm_scene_error(R->sc));
    }
    free(law);
    return rc;
}

/* a CouplerJointR: object1, object2, coupled (1 × 3), references (joint1
 * [, joint2 [, reference object]]) */
static int read_coupler(hid_t f, hid_t d, const char *jn, const char *o1, const char *o2, rd *R)
{
    double cp[3];
    char ref[3][NAME_LEN];
    int nc = attr_rows3(d, "coupled", cp, 1, 1), nr = attr_strs(d, "references", ref, 3);
    if (nc != 1) return bad(R, "joint '%s' (CouplerJointR): 'coupled' must be one [dof1, dof2, ratio]", jn);
    if (nr < 1) return bad(R, "joint '%s' (CouplerJointR): 'references' must name 1 to 3 joints / objects", jn);
    if (cp[0] != floor(cp[0]) || cp[1] != floor(cp[1]) || fabs(cp[0]) > 100 || fabs(cp[1]) > 100)
        return bad(R, "joint '%s' (CouplerJointR): coupled: dof1 %g, dof2 %g must be integers", jn, cp[0], cp[1]);
    if (nr == 3) {   /* the reference object: each coordinate is measured by its own joint here */
        char p[NAME_LEN + 16];
        snprintf(p, sizeof p, "/data/input/%s", ref[2]);
        if (!ref[2][0] || strchr(ref[2], '/') || H5Lexists(f, p, H5P_DEFAULT) <= 0)
            return bad(R, "joint '%s' (CouplerJointR): references[2]: object '%s' does not exist", jn, ref[2]);
    }
    if (nsm_scene_coupler(R->sc, jn, o1, o2, ref[0], (int)cp[0], nr > 1 ? ref[1] : ref[0], (int)cp[1], cp[2]) != NS_OK)
        return bad(R, "%s", nsm_scene_error(R->sc));
    return 0;
}

static int read_joints(hid_t f, rd *R)
{
    names N;
    if (members(f, "/data/joints", &N, 0, R)) return -1;
    int rc = 0;
    /* the joints with their stops, friction and couplings, then the
     * couplers (CouplerJointR), which refer to other joints */
    for (int pass = 0; pass < 2 && rc == 0; pass++)
        for (int i = 0; i < N.n && rc == 0; i++) {
            char p[1024], type[64] = "", o1[256] = "", o2[256] = "";
            snprintf(p, sizeof p, "/data/joints/%s", N.v[i]);
            hid_t d = H5Oopen(f, p, H5P_DEFAULT);
            if (d < 0) { rc = bad(R, "joint '%s' cannot be opened", N.v[i]); break; }
            double pts[30] = { 0 }, axes[30] = { 0 }, absolute = 1;
            int has2;
            if (attr_str(d, "type", type, sizeof type) != 1) rc = bad(R, "joint '%s': attribute 'type' missing", N.v[i]);
            else if ((pass == 1) != !strcmp(type, "CouplerJointR")) rc = 0;   /* its pass is the other one */
            else if (attr_str(d, "object1", o1, sizeof o1) != 1) rc = bad(R, "joint '%s': attribute 'object1' missing", N.v[i]);
            else if ((has2 = attr_str(d, "object2", o2, sizeof o2)) < 0) rc = bad(R, "joint '%s': 'object2' is not a string", N.v[i]);
            else if (pass == 1) rc = read_coupler(f, d, N.v[i], o1, has2 == 1 ? o2 : NULL, R);
            else if (attr_num(d, "points", pts, 30) < 0 || attr_num(d, "axes", axes, 30) < 0 || attr_num(d, "absolute", &absolute, 1) < 0)
                rc = bad(R, "joint '%s': 'points', 'axes' or 'absolute' malformed", N.v[i]);
            else if (nsm_scene_joint(R->sc, N.v[i], type, o1, has2 == 1 ? o2 : NULL,
                                     H5Aexists(d, "points") > 0 ? pts : NULL, H5Aexists(d, "axes") > 0 ? axes : NULL,
                                     absolute != 0) != NS_OK)
                rc = bad(R, "%s", nsm_scene_error(R->sc));
            else rc = read_joint_extras(d, N.v[i], R);
            H5Oclose(d);
        }
    names_free(&N);
    return rc;
}

nsm_scene *nsm_scene_read_hdf5(const char *path, char *err)
{
    char dummy[NS_ERRMSG_LEN];
    if (!err) err = dummy;
    if (!path) { snprintf(err, NS_ERRMSG_LEN, "nsm_scene_read_hdf5: NULL path"); return NULL; }
    nsm_scene *sc = nsm_scene_new();
    if (!sc) { snprintf(err, NS_ERRMSG_LEN, "out of memory"); return NULL; }
    rd R = { path, err, sc, NULL, 0 };
    int rc = -1;
    H5E_BEGIN_TRY {
        hid_t f = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
        if (f < 0) bad(&R, "not an HDF5 file (or cannot be opened)");
        else {
            rc = read_shapes(f, &R);
            if (rc == 0) rc = read_objects(f, &R);
            if (rc == 0) rc = read_laws(f, &R);
            if (rc == 0) rc = read_joints(f, &R);
            H5Fclose(f);
            free(R.law);
        }
    } H5E_END_TRY
    if (rc != 0) { nsm_scene_free(sc); return NULL; }
    return sc;
}
