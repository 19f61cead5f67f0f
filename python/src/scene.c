/* scene.c — nonsmooth.Scene: rigid-body scenes (nonsmooth/nsm_scene.h)
 * built by hand or read from a Siconos mechanics HDF5 file, run with Bullet's
 * collision detection (library nonsmooth::collision). Compiled only when
 * that library is built (PYNS_HAVE_SCENE).
 *
 *   sc = Scene()  |  Scene.read_hdf5(path)
 *   sc.primitive(name, kind, params)      "Sphere", "Box", "Cylinder", "Capsule", "Cone", "Plane"
 *   sc.convex(name, points)               (n, 3) hull points, body frame
 *   sc.law(name, e, mu, group1=0, group2=0)   mu < 0: normal rows only
 *   sc.body(name, mass=None, inertia=None, translation=..., orientation=None, velocity=None)
 *   sc.contactor(body, shape, group=0, translation=None, orientation=None)
 *   sc.joint(name, kind, body1, body2=None, point=None, axis=None, absolute=True)
 *   sc.run(T, h=1e-3, tol=1e-10, ...) -> dict of arrays over the steps
 */
#include "pyns.h"
#include "nonsmooth/nsm_scene.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    nsm_scene *sc;
} pyns_Scene;

static PyObject *scene_fail(pyns_Scene *self, ns_status st)
{
    return pyns_raise(st, nsm_scene_error(self->sc));
}

static PyObject *scene_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwl[] = { NULL };
    if (!PyArg_ParseTupleAndKeywords(args, kw, ":Scene", kwl)) return NULL;
    pyns_Scene *self = (pyns_Scene *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->sc = nsm_scene_new();
    if (!self->sc) { Py_DECREF(self); return PyErr_NoMemory(); }
    return (PyObject *)self;
}

static void scene_dealloc(pyns_Scene *self)
{
    nsm_scene_free(self->sc);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *scene_read_hdf5(PyObject *cls, PyObject *args)
{
    PyObject *path_obj;
    if (!PyArg_ParseTuple(args, "O&:read_hdf5", PyUnicode_FSConverter, &path_obj)) return NULL;
    const char *path = PyBytes_AS_STRING(path_obj);
    FILE *f = fopen(path, "rb");
    if (!f) {
        char msg[512];
        snprintf(msg, sizeof msg, "Scene.read_hdf5: cannot open %s: %s", path, strerror(errno));
        Py_DECREF(path_obj);
        return pyns_raise(NS_IO_ERROR, msg);
    }
    fclose(f);
    char err[NS_ERRMSG_LEN] = "";
    nsm_scene *sc;
    Py_BEGIN_ALLOW_THREADS
    sc = nsm_scene_read_hdf5(path, err);
    Py_END_ALLOW_THREADS
    Py_DECREF(path_obj);
    if (!sc) return pyns_raise(NS_BAD_INPUT, err);
    pyns_Scene *self = (pyns_Scene *)((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
    if (!self) { nsm_scene_free(sc); return NULL; }
    self->sc = sc;
    return (PyObject *)self;
}

/* optional vector argument of length n: NULL (absent / None) or a new
 * reference; *bad set on error */
static PyArrayObject *opt_vec(PyObject *o, const char *name, npy_intp n, int *bad)
{
    if (!o || o == Py_None) return NULL;
    PyArrayObject *a = pyns_vector(o, name, n);
    if (!a) *bad = 1;
    return a;
}

static const double *data_of(PyArrayObject *a) { return a ? (const double *)PyArray_DATA(a) : NULL; }

static PyObject *scene_primitive(pyns_Scene *self, PyObject *args, PyObject *kw)
{
    static char *kwl[] = { "name", "kind", "params", NULL };
    const char *name, *kind;
    PyObject *po;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ssO:primitive", kwl, &name, &kind, &po)) return NULL;
    PyArrayObject *p = pyns_vector(po, "params", -1);
    if (!p) return NULL;
    ns_status st = nsm_scene_primitive(self->sc, name, kind, (int)PyArray_SIZE(p), data_of(p));
    Py_DECREF(p);
    if (st != NS_OK) return scene_fail(self, st);
    Py_RETURN_NONE;
}

static PyObject *scene_convex(pyns_Scene *self, PyObject *args, PyObject *kw)
{
    static char *kwl[] = { "name", "points", NULL };
    const char *name;
    PyObject *po;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sO:convex", kwl, &name, &po)) return NULL;
    PyArrayObject *p = (PyArrayObject *)PyArray_FROMANY(po, NPY_DOUBLE, 2, 2, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED);
    if (!p) return NULL;
    if (PyArray_DIM(p, 1) != 3) {
        Py_DECREF(p);
        PyErr_Format(pyns_InputError, "points must have shape (n, 3), not (%zd, %zd)",
                     (Py_ssize_t)PyArray_DIM(p, 0), (Py_ssize_t)PyArray_DIM(p, 1));
        return NULL;
    }
    ns_status st = nsm_scene_convex(self->sc, name, (int)PyArray_DIM(p, 0), data_of(p));
    Py_DECREF(p);
    if (st != NS_OK) return scene_fail(self, st);
    Py_RETURN_NONE;
}

static PyObject *scene_law(pyns_Scene *self, PyObject *args, PyObject *kw)
{
    static char *kwl[] = { "name", "e", "mu", "group1", "group2", NULL };
    const char *name;
    double e, mu;
    int g1 = 0, g2 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sdd|ii:law", kwl, &name, &e, &mu, &g1, &g2)) return NULL;
    ns_status st = nsm_scene_law(self->sc, name, e, mu, g1, g2);
    if (st != NS_OK) return scene_fail(self, st);
    Py_RETURN_NONE;
}

static PyObject *scene_body(pyns_Scene *self, PyObject *args, PyObject *kw)
{
    static char *kwl[] = { "name", "mass", "inertia", "translation", "orientation", "velocity", NULL };
    const char *name;
    PyObject *mo = Py_None, *io = Py_None, *to = Py_None, *oo = Py_None, *vo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|OOOOO:body", kwl, &name, &mo, &io, &to, &oo, &vo)) return NULL;
    double mass = NAN;
    if (mo != Py_None && pyns_get_double(mo, "mass", &mass) < 0) return NULL;
    int bad = 0, ni = 0;
    PyArrayObject *I = NULL;
    if (io != Py_None) {
        I = (PyArrayObject *)PyArray_FROMANY(io, NPY_DOUBLE, 1, 2, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED);
        if (!I) return NULL;
        ni = (int)PyArray_SIZE(I);
        if (ni != 3 && ni != 9) {
            Py_DECREF(I);
            PyErr_Format(pyns_InputError, "inertia of body %s must have 3 (principal moments) or 9 (a 3 x 3 matrix) "
                         "values, not %d", name, ni);
            return NULL;
        }
    }
    static const double zero3[3] = { 0, 0, 0 };
    PyArrayObject *T = opt_vec(to, "translation", 3, &bad);
    PyArrayObject *O = bad ? NULL : opt_vec(oo, "orientation", 4, &bad);
    PyArrayObject *V = bad ? NULL : opt_vec(vo, "velocity", 6, &bad);
    ns_status st = NS_OK;
    if (!bad) st = nsm_scene_body(self->sc, name, mass, ni, data_of(I), T ? data_of(T) : zero3, data_of(O), data_of(V));
    Py_XDECREF(I); Py_XDECREF(T); Py_XDECREF(O); Py_XDECREF(V);
    if (bad) return NULL;
    if (st != NS_OK) return scene_fail(self, st);
    Py_RETURN_NONE;
}

static PyObject *scene_contactor(pyns_Scene *self, PyObject *args, PyObject *kw)
{
    static char *kwl[] = { "body", "shape", "group", "translation", "orientation", NULL };
    const char *body, *shape;
    int group = 0;
    PyObject *to = Py_None, *oo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ss|iOO:contactor", kwl, &body, &shape, &group, &to, &oo)) return NULL;
    int bad = 0;
    PyArrayObject *T = opt_vec(to, "translation", 3, &bad);
    PyArrayObject *O = bad ? NULL : opt_vec(oo, "orientation", 4, &bad);
    ns_status st = NS_OK;
    if (!bad) st = nsm_scene_contactor(self->sc, body, shape, group, data_of(T), data_of(O));
    Py_XDECREF(T); Py_XDECREF(O);
    if (bad) return NULL;
    if (st != NS_OK) return scene_fail(self, st);
    Py_RETURN_NONE;
}

static PyObject *scene_joint(pyns_Scene *self, PyObject *args, PyObject *kw)
{
    static char *kwl[] = { "name", "kind", "body1", "body2", "point", "axis", "absolute", NULL };
    const char *name, *kind, *b1, *b2 = NULL;
    PyObject *po = Py_None, *ao = Py_None;
    int absolute = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sss|zOOp:joint", kwl, &name, &kind, &b1, &b2, &po, &ao, &absolute))
        return NULL;
    int bad = 0;
    PyArrayObject *P = opt_vec(po, "point", 3, &bad);
    PyArrayObject *A = bad ? NULL : opt_vec(ao, "axis", 3, &bad);
    ns_status st = NS_OK;
    if (!bad) st = nsm_scene_joint(self->sc, name, kind, b1, b2, data_of(P), data_of(A), absolute);
    Py_XDECREF(P); Py_XDECREF(A);
    if (bad) return NULL;
    if (st != NS_OK) return scene_fail(self, st);
    Py_RETURN_NONE;
}

/* Runs the scene: a new model, collision set and simulation each call. */
static PyObject *scene_run(pyns_Scene *self, PyObject *args, PyObject *kw)
{
    static char *kwl[] = { "T", "h", "tol", "max_iter", "newton_max_iter", "project", "gravity", NULL };
    double T, h = 1e-3, tol = 1e-10, g = 9.80665;
    int max_iter = 10000, newton_max_iter = 1, project = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "d|ddiipd:run", kwl, &T, &h, &tol, &max_iter, &newton_max_iter,
                                     &project, &g))
        return NULL;
    if (!(h > 0) || !isfinite(h) || !(T >= 0) || !isfinite(T) || !(T / h < 1e8)) {
        PyErr_Format(pyns_InputError, "Scene.run: T = %g and h = %g must be finite with h > 0, T >= 0 "
                     "and fewer than 1e8 steps", T, h);
        return NULL;
    }
    if (max_iter < 1 || newton_max_iter < 1) {
        PyErr_SetString(pyns_InputError, "Scene.run: max_iter and newton_max_iter must be >= 1");
        return NULL;
    }
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    o.solver_options.tol = tol;
    o.solver_options.max_iter = max_iter;
    o.newton_max_iter = newton_max_iter;
    o.accept_nonconverged = 1;
    if (project) o.projection = NSM_PROJECTION_DIRECT;
    char err[NS_ERRMSG_LEN] = "";
    nsm_scene_run *r = nsm_scene_build(self->sc, &o, g, err);
    if (!r) return pyns_raise(NS_BAD_INPUT, err);
    npy_intp N = (npy_intp)(T / h + 0.5), nb = r->nbodies;
    npy_intp dq[3] = { N + 1, nb, 7 }, dv[3] = { N + 1, nb, 6 }, d1[1] = { N + 1 };
    PyArrayObject *aq = (PyArrayObject *)PyArray_ZEROS(3, dq, NPY_DOUBLE, 0);
    PyArrayObject *av = (PyArrayObject *)PyArray_ZEROS(3, dv, NPY_DOUBLE, 0);
    PyArrayObject *at = (PyArrayObject *)PyArray_ZEROS(1, d1, NPY_DOUBLE, 0);
    PyArrayObject *ae = (PyArrayObject *)PyArray_ZEROS(1, d1, NPY_DOUBLE, 0);
    PyArrayObject *ac = (PyArrayObject *)PyArray_ZEROS(1, d1, NPY_LONG, 0);
    PyObject *names = PyList_New(nb), *out = NULL;
    if (!aq || !av || !at || !ae || !ac || !names) goto done;
    for (npy_intp j = 0; j < nb; j++) {
        PyObject *s = PyUnicode_FromString(r->names[j]);
        if (!s) goto done;
        PyList_SET_ITEM(names, j, s);
    }
    double *Q = PyArray_DATA(aq), *V = PyArray_DATA(av), *Ts = PyArray_DATA(at), *E = PyArray_DATA(ae);
    long *C = PyArray_DATA(ac);
    ns_status st = NS_OK;
    npy_intp k = 0;
    Py_BEGIN_ALLOW_THREADS
    for (k = 0; k <= N; k++) {
        if (k > 0 && (st = nsm_scene_step(r)) != NS_OK) break;
        Ts[k] = nsm_sim_time(r->sim);
        E[k] = nsm_scene_energy(r);
        for (npy_intp j = 0; j < nb; j++) {
            memcpy(Q + (k * nb + j) * 7, nsm_sim_q(r->sim, (int)j), 7 * sizeof(double));
            memcpy(V + (k * nb + j) * 6, nsm_sim_v(r->sim, (int)j), 6 * sizeof(double));
        }
        long active = 0;
        nsm_collision_stats cs = nsm_collision_get_stats(r->collision);
        for (int i = 0; k > 0 && i < cs.live; i++) {
            const double *lam = nsm_sim_lambda(r->sim, nsm_collision_contact(r->collision, i), 1);
            if (lam && lam[0] > 0.0) active++;
        }
        C[k] = active;
    }
    Py_END_ALLOW_THREADS
    if (st != NS_OK) {
        char msg[2 * NS_ERRMSG_LEN + 64];
        snprintf(msg, sizeof msg, "Scene.run: step %ld: %s %s", (long)k, nsm_sim_error(r->sim),
                 nsm_collision_error(r->collision));
        pyns_raise(st, msg);
        goto done;
    }
    out = Py_BuildValue("{s:O,s:O,s:O,s:O,s:O,s:O}", "t", at, "names", names, "q", aq, "v", av,
                        "energy", ae, "contacts", ac);
done:
    Py_XDECREF(aq); Py_XDECREF(av); Py_XDECREF(at); Py_XDECREF(ae); Py_XDECREF(ac); Py_XDECREF(names);
    nsm_scene_run_free(r);
    return out;
}

static PyMethodDef scene_methods[] = {
    { "read_hdf5", scene_read_hdf5, METH_VARARGS | METH_CLASS,
      "read_hdf5(path)\n--\n\nA scene read from a Siconos mechanics HDF5 file (siconos.io.mechanics_hdf5): "
      "shapes, objects and contactors, Newton impact-friction laws per group pair, joints." },
    { "primitive", (PyCFunction)(void (*)(void))scene_primitive, METH_VARARGS | METH_KEYWORDS,
      "primitive(name, kind, params)\n--\n\nA primitive shape: 'Sphere' (r), 'Box' (side lengths), "
      "'Cylinder' / 'Capsule' (r, length, along y), 'Cone' (r, height), 'Plane'." },
    { "convex", (PyCFunction)(void (*)(void))scene_convex, METH_VARARGS | METH_KEYWORDS,
      "convex(name, points)\n--\n\nA convex hull of the (n, 3) points (body frame)." },
    { "law", (PyCFunction)(void (*)(void))scene_law, METH_VARARGS | METH_KEYWORDS,
      "law(name, e, mu, group1=0, group2=0)\n--\n\nNewton impact e + Coulomb mu between two collision "
      "groups (mu < 0: normal rows only)." },
    { "body", (PyCFunction)(void (*)(void))scene_body, METH_VARARGS | METH_KEYWORDS,
      "body(name, mass=None, inertia=None, translation=(0, 0, 0), orientation=None, velocity=None)\n--\n\n"
      "A body: dynamic with mass and inertia (3 moments or 3 x 3), static without mass; orientation a "
      "unit quaternion (w, x, y, z); velocity (v world, omega body)." },
    { "contactor", (PyCFunction)(void (*)(void))scene_contactor, METH_VARARGS | METH_KEYWORDS,
      "contactor(body, shape, group=0, translation=None, orientation=None)\n--\n\n"
      "Puts a shape on a body at a pose in the body frame, in a collision group." },
    { "joint", (PyCFunction)(void (*)(void))scene_joint, METH_VARARGS | METH_KEYWORDS,
      "joint(name, kind, body1, body2=None, point=None, axis=None, absolute=True)\n--\n\n"
      "A joint by Siconos' class name: KneeJointR, PivotJointR, CylindricalJointR, PrismaticJointR, "
      "FixedJointR; body2 None: to the ground." },
    { "run", (PyCFunction)(void (*)(void))scene_run, METH_VARARGS | METH_KEYWORDS,
      "run(T, h=1e-3, tol=1e-10, max_iter=10000, newton_max_iter=1, project=False, gravity=9.80665)\n--\n\n"
      "Builds the scene (model, Bullet collision set, Moreau-Jean simulation) and runs it to T. Returns "
      "a dict: t (N+1), names (dynamic bodies), q (N+1, nbodies, 7), v (N+1, nbodies, 6), energy "
      "(N+1), contacts (N+1: contacts carrying a normal impulse)." },
    { NULL, NULL, 0, NULL }
};

PyTypeObject pyns_SceneType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nonsmooth.Scene",
    .tp_basicsize = sizeof(pyns_Scene),
    .tp_dealloc = (destructor)scene_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Scene()\n--\n\nA scene of rigid bodies with Bullet collision detection (docs/rigid-bodies.md): "
              "shapes, bodies, contactors, contact laws per group pair and joints; Scene.read_hdf5(path) "
              "reads a Siconos mechanics HDF5 scene; run(T, h) simulates it.",
    .tp_methods = scene_methods,
    .tp_new = scene_new,
};

int pyns_scene_init(PyObject *m)
{
    if (PyType_Ready(&pyns_SceneType) < 0) return -1;
    Py_INCREF(&pyns_SceneType);
    if (PyModule_AddObject(m, "Scene", (PyObject *)&pyns_SceneType) < 0) {
        Py_DECREF(&pyns_SceneType);
        return -1;
    }
    return 0;
}
