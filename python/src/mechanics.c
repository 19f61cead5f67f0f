/* mechanics.c — Model and Simulation: time-stepping simulations built from
 * Python (public nsm_*.h API only).
 *
 * Python callbacks (nonlinear systems, time-dependent forces) are called
 * through trampolines with the GIL held (the extension never releases it).
 * A callback that raises makes the trampoline return −1 (the library stops
 * the step); the Python exception is then re-raised by step()/run(). Every
 * trampoline returns −1 at once while an exception is pending, so no Python
 * code runs with an exception set. The callables are kept alive by the
 * Model (a capsule per system in Model._keep).
 */
#include "pyns.h"
#include <math.h>
#include <string.h>

/* ================================================================ callbacks */

typedef struct cbctx {
    PyObject *mass, *fgyr, *jac_fgyr, *fint, *jac_fint, *fext; /* Lagrangian */
    PyObject *f, *jac, *b;                                     /* first order */
    PyObject *h, *jach, *dhdt;                                 /* nonlinear relations */
    int n;
} cbctx;

static void cbctx_free(PyObject *cap)
{
    cbctx *c = PyCapsule_GetPointer(cap, "nonsmooth.cbctx");
    if (!c) return;
    Py_XDECREF(c->mass); Py_XDECREF(c->fgyr); Py_XDECREF(c->jac_fgyr); Py_XDECREF(c->fint);
    Py_XDECREF(c->jac_fint); Py_XDECREF(c->fext); Py_XDECREF(c->f); Py_XDECREF(c->jac);
    Py_XDECREF(c->b); Py_XDECREF(c->h); Py_XDECREF(c->jach); Py_XDECREF(c->dhdt);
    PyMem_Free(c);
}

/* Non-finite values in a model's data or a callback's result: an error
 * naming the argument (the library would carry NaN through the steps). */
static int all_finite(PyArrayObject *a, const char *name)
{
    const double *x = PyArray_DATA(a);
    npy_intp n = PyArray_SIZE(a);
    for (npy_intp i = 0; i < n; i++)
        if (!isfinite(x[i])) {
            char v[32];
            snprintf(v, sizeof v, "%g", x[i]);
            PyErr_Format(pyns_InputError, "%s holds a non-finite value (%s) at flat index %zd", name,
                         v, (Py_ssize_t)i);
            return -1;
        }
    return 0;
}

/* Checked vector / matrix: shape as pyns_vector / pyns_fmatrix, finite. */
static PyArrayObject *fvec(PyObject *o, const char *name, npy_intp n)
{
    PyArrayObject *a = pyns_vector(o, name, n);
    if (a && all_finite(a, name) < 0) Py_CLEAR(a);
    return a;
}

static PyArrayObject *fmat(PyObject *o, const char *name, npy_intp r, npy_intp c)
{
    PyArrayObject *a = pyns_fmatrix(o, name, r, c);
    if (a && all_finite(a, name) < 0) Py_CLEAR(a);
    return a;
}

/* Copies the callback's return value (array-like of shape (rows,) when cols
 * < 0, else (rows, cols)) into out, column-major. */
static int take(PyObject *r, const char *what, double *out, npy_intp rows, npy_intp cols)
{
    if (!r) return -1;
    PyArrayObject *a = cols < 0 ? fvec(r, what, rows) : fmat(r, what, rows, cols);
    Py_DECREF(r);
    if (!a) return -1;
    size_t n = (size_t)rows * (size_t)(cols < 0 ? 1 : cols);
    if (n) memcpy(out, PyArray_DATA(a), n * sizeof(double));
    Py_DECREF(a);
    return 0;
}

static PyObject *vec(const double *x, int n) { return x ? pyns_array_copy(x, n) : (Py_INCREF(Py_None), Py_None); }

static int tr_time(double t, int n, double *out, void *user)
{
    cbctx *c = user;
    PyObject *fn = c->fext ? c->fext : c->b;
    if (PyErr_Occurred()) return -1;
    return take(PyObject_CallFunction(fn, "d", t), "callback result (time function)", out, n, -1);
}

static int tr_mass(int n, const double *q, double *M, void *user)
{
    cbctx *c = user;
    if (PyErr_Occurred()) return -1;
    PyObject *qa = vec(q, n);
    if (!qa) return -1;
    PyObject *r = PyObject_CallOneArg(c->mass, qa);
    Py_DECREF(qa);
    return take(r, "mass(q) result", M, n, n);
}

static int call_force(PyObject *fn, double t, int n, const double *q, const double *v, double *out,
                      const char *what)
{
    if (PyErr_Occurred()) return -1;
    PyObject *qa = vec(q, n), *va = qa ? vec(v, n) : NULL;
    if (!va) { Py_XDECREF(qa); return -1; }
    PyObject *r = PyObject_CallFunction(fn, "dOO", t, qa, va);
    Py_DECREF(qa); Py_DECREF(va);
    return take(r, what, out, n, -1);
}

static int call_force_jac(PyObject *fn, double t, int n, const double *q, const double *v,
                          double *Jq, double *Jv, const char *what)
{
    if (PyErr_Occurred()) return -1;
    PyObject *qa = vec(q, n), *va = qa ? vec(v, n) : NULL;
    if (!va) { Py_XDECREF(qa); return -1; }
    PyObject *r = PyObject_CallFunction(fn, "dOO", t, qa, va);
    Py_DECREF(qa); Py_DECREF(va);
    if (!r) return -1;
    PyObject *a, *b;
    if (!PyTuple_Check(r) || !PyArg_ParseTuple(r, "OO", &a, &b)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must return a pair (dF/dq, dF/dv)", what);
        Py_DECREF(r);
        return -1;
    }
    Py_INCREF(a); Py_INCREF(b);
    Py_DECREF(r);
    if (take(a, "dF/dq", Jq, n, n) < 0) { Py_DECREF(b); return -1; }
    return take(b, "dF/dv", Jv, n, n);
}

static int tr_fint(double t, int n, const double *q, const double *v, double *out, void *user)
{ return call_force(((cbctx *)user)->fint, t, n, q, v, out, "fint(t, q, v) result"); }
static int tr_fgyr(double t, int n, const double *q, const double *v, double *out, void *user)
{ return call_force(((cbctx *)user)->fgyr, t, n, q, v, out, "fgyr(t, q, v) result"); }
static int tr_jac_fint(double t, int n, const double *q, const double *v, double *Jq, double *Jv, void *user)
{ return call_force_jac(((cbctx *)user)->jac_fint, t, n, q, v, Jq, Jv, "jac_fint(t, q, v)"); }
static int tr_jac_fgyr(double t, int n, const double *q, const double *v, double *Jq, double *Jv, void *user)
{ return call_force_jac(((cbctx *)user)->jac_fgyr, t, n, q, v, Jq, Jv, "jac_fgyr(t, q, v)"); }

static int tr_field(double t, int n, const double *x, double *out, void *user)
{
    cbctx *c = user;
    if (PyErr_Occurred()) return -1;
    PyObject *xa = vec(x, n);
    if (!xa) return -1;
    PyObject *r = PyObject_CallFunction(c->f, "dO", t, xa);
    Py_DECREF(xa);
    return take(r, "f(t, x) result", out, n, -1);
}

static int tr_jac(double t, int n, const double *x, double *J, void *user)
{
    cbctx *c = user;
    if (PyErr_Occurred()) return -1;
    PyObject *xa = vec(x, n);
    if (!xa) return -1;
    PyObject *r = PyObject_CallFunction(c->jac, "dO", t, xa);
    Py_DECREF(xa);
    return take(r, "jac(t, x) result", J, n, n);
}

static int call_rel(PyObject *fn, double t, int nq, const double *Q, double *out, npy_intp rows,
                    npy_intp cols, const char *what)
{
    if (PyErr_Occurred()) return -1;
    PyObject *Qa = vec(Q, nq);
    if (!Qa) return -1;
    PyObject *r = PyObject_CallFunction(fn, "dO", t, Qa);
    Py_DECREF(Qa);
    return take(r, what, out, rows, cols);
}

static int tr_h(double t, int nq, const double *Q, int m, double *out, void *user)
{ return call_rel(((cbctx *)user)->h, t, nq, Q, out, m, -1, "h(t, Q) result"); }
static int tr_dhdt(double t, int nq, const double *Q, int m, double *out, void *user)
{ return call_rel(((cbctx *)user)->dhdt, t, nq, Q, out, m, -1, "dhdt(t, Q) result"); }
static int tr_jach(double t, int nq, const double *Q, int m, double *H, void *user)
{ return call_rel(((cbctx *)user)->jach, t, nq, Q, H, m, nq, "jach(t, Q) result"); }

/* ==================================================================== Model */

typedef struct {
    PyObject_HEAD
    nsm_model *m;
    PyObject *keep;   /* list: callback capsules (outlive the model's use of them) */
    int busy;         /* > 0 while a simulation of it steps (callbacks may run) */
    int frozen;       /* live EventDriven objects: they keep the model's structure */
    PyObject *journal; /* list of (method, args, kwargs, result): every call that built or
                          changed the model, with its arrays copied, replayed by pickle */
    unsigned char *relset; /* per interaction id: H or b replaced since its add
                          (set_relation(s)); the journal's reader appends their current
                          H and b, so that replacing them each step costs no journal entry */
    int cap_relset;
} pyns_Model;

/* A callback must not change the model under a running step, nor anything
 * change it while an event-driven simulation holds its rows: refused. */
static int model_busy(pyns_Model *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the model cannot be changed while one of its "
                        "simulations is stepping (from a callback)");
        return 1;
    }
    if (self->frozen) {
        PyErr_SetString(PyExc_RuntimeError, "the model cannot be changed while an EventDriven "
                        "simulation of it exists (the scheme keeps its systems and contact rows; "
                        "delete the EventDriven first)");
        return 1;
    }
    return 0;
}

static PyTypeObject ModelType;

static PyObject *model_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    if (PyTuple_GET_SIZE(args) || (kw && PyDict_GET_SIZE(kw))) {
        PyErr_SetString(PyExc_TypeError, "Model() takes no arguments");
        return NULL;
    }
    pyns_Model *o = (pyns_Model *)type->tp_alloc(type, 0);
    if (!o) return NULL;
    o->m = nsm_model_new();
    o->keep = PyList_New(0);
    o->journal = PyList_New(0);
    if (!o->m || !o->keep || !o->journal) { Py_DECREF(o); return PyErr_NoMemory(); }
    return (PyObject *)o;
}

static void model_dealloc(pyns_Model *self)
{
    PyObject_GC_UnTrack(self);
    nsm_model_free(self->m);
    Py_XDECREF(self->keep);
    Py_XDECREF(self->journal);
    PyMem_Free(self->relset);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int model_traverse(pyns_Model *self, visitproc visit, void *arg)
{
    Py_VISIT(self->keep);
    Py_VISIT(self->journal);
    return 0;
}

/* A copy of an argument as the model took it: arrays (NumPy, SciPy
 * sparse) copied, lists, tuples and dicts copied through, anything else
 * (numbers, strings, callables) by reference. */
static PyObject *journal_copy(PyObject *o, int depth)
{
    if (depth > 32) return Py_NewRef(o);
    if (PyArray_Check(o)) return PyArray_NewCopy((PyArrayObject *)o, NPY_ANYORDER);
    if (PyList_Check(o) || PyTuple_Check(o)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        PyObject *r = PyList_Check(o) ? PyList_New(n) : PyTuple_New(n);
        if (!r) return NULL;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *c = journal_copy(PySequence_Fast_GET_ITEM(o, i), depth + 1);
            if (!c) { Py_DECREF(r); return NULL; }
            if (PyList_Check(o)) PyList_SET_ITEM(r, i, c); else PyTuple_SET_ITEM(r, i, c);
        }
        return r;
    }
    if (PyDict_Check(o)) {
        PyObject *r = PyDict_New(), *k, *v;
        Py_ssize_t pos = 0;
        if (!r) return NULL;
        while (PyDict_Next(o, &pos, &k, &v)) {
            PyObject *c = journal_copy(v, depth + 1);
            if (!c || PyDict_SetItem(r, k, c) < 0) { Py_XDECREF(c); Py_DECREF(r); return NULL; }
            Py_DECREF(c);
        }
        return r;
    }
    if (!PyCallable_Check(o) && PyObject_HasAttrString(o, "tocsc") && PyObject_HasAttrString(o, "copy"))
        return PyObject_CallMethod(o, "copy", NULL);   /* a SciPy sparse matrix */
    return Py_NewRef(o);
}

/* Appends (name, args, kw, result) to the journal; -1 on failure. */
static int journal_add(pyns_Model *self, const char *name, PyObject *args, PyObject *kw, PyObject *result)
{
    PyObject *a = journal_copy(args, 0);
    PyObject *k = kw ? journal_copy(kw, 0) : PyDict_New();
    PyObject *e = a && k ? Py_BuildValue("(sOOO)", name, a, k, result) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(k);
    if (!e) return -1;
    int rc = PyList_Append(self->journal, e);
    Py_DECREF(e);
    return rc;
}

/* Marks interaction id's H, b as replaced (-1: out of memory). */
static int relset_mark(pyns_Model *self, int id, int on)
{
    if (id >= self->cap_relset) {
        if (!on) return 0;
        int cap = self->cap_relset ? self->cap_relset : 64;
        while (cap <= id) cap *= 2;
        unsigned char *v = PyMem_Realloc(self->relset, (size_t)cap);
        if (!v) { PyErr_NoMemory(); return -1; }
        memset(v + self->cap_relset, 0, (size_t)(cap - self->cap_relset));
        self->relset = v;
        self->cap_relset = cap;
    }
    self->relset[id] = (unsigned char)on;
    return 0;
}

/* The journal, then ("set_relation", (id, H, b)) with the current H (m,
 * ncols) and b of every live interaction whose H was replaced since its add. */
static PyObject *model_journal(pyns_Model *self, void *c)
{
    (void)c;
    PyObject *out = PyList_GetSlice(self->journal, 0, PyList_GET_SIZE(self->journal));
    for (int id = 0; out && id < self->cap_relset; id++) {
        if (!self->relset[id] || !nsm_model_inter_alive(self->m, id)) continue;
        const nsm_relation *r = nsm_model_relation(self->m, id);
        npy_intp d[2] = { nsm_relation_size(r), nsm_relation_ncols(r) };
        PyObject *H = PyArray_SimpleNew(2, d, NPY_DOUBLE), *b = PyArray_SimpleNew(1, d, NPY_DOUBLE);
        double *Hcm = PyMem_Malloc((size_t)(d[0] * d[1] > 0 ? d[0] * d[1] : 1) * sizeof *Hcm);
        PyObject *e = NULL;
        if (H && b && Hcm && nsm_relation_get_H(r, Hcm, PyArray_DATA((PyArrayObject *)b)) == NS_OK) {
            double *Hr = PyArray_DATA((PyArrayObject *)H);
            for (npy_intp i = 0; i < d[0]; i++)
                for (npy_intp k = 0; k < d[1]; k++) Hr[i * d[1] + k] = Hcm[i + k * d[0]];
            e = Py_BuildValue("(s(iOO){}O)", "set_relation", id, H, b, Py_None);
        }
        PyMem_Free(Hcm);
        Py_XDECREF(H); Py_XDECREF(b);
        if (!e || PyList_Append(out, e) < 0) Py_CLEAR(out);
        Py_XDECREF(e);
    }
    return out;
}

/* New callback context kept by the model; NULL + exception on failure. */
static cbctx *new_ctx(pyns_Model *self, int n)
{
    cbctx *c = PyMem_Calloc(1, sizeof *c);
    if (!c) { PyErr_NoMemory(); return NULL; }
    c->n = n;
    PyObject *cap = PyCapsule_New(c, "nonsmooth.cbctx", cbctx_free);
    if (!cap) { PyMem_Free(c); return NULL; }
    int r = PyList_Append(self->keep, cap);
    Py_DECREF(cap);
    return r < 0 ? NULL : c;
}

static int check_callable(PyObject *o, const char *name)
{
    if (o && o != Py_None && !PyCallable_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be callable", name);
        return -1;
    }
    return 0;
}

static PyObject *add_ds(pyns_Model *self, nsm_ds *ds)
{
    if (!ds) {
        PyErr_SetString(pyns_InputError, "the system could not be made (bad sizes or out of memory)");
        return NULL;
    }
    int id = nsm_model_add_ds(self->m, ds);
    if (id < 0) return pyns_raise(NS_BAD_INPUT, nsm_model_error(self->m));
    return PyLong_FromLong(id);
}

static int dim_of(PyObject *o, const char *name, npy_intp *n)
{
    PyArrayObject *a = pyns_vector(o, name, -1);
    if (!a) return -1;
    *n = PyArray_DIM(a, 0);
    Py_DECREF(a);
    if (*n < 1 || *n > 1000000) {
        PyErr_Format(PyExc_ValueError, "%s: a system needs 1 to 1e6 coordinates", name);
        return -1;
    }
    return 0;
}

static PyObject *model_add_lagrangian(pyns_Model *self, PyObject *args, PyObject *kw)
{
    if (model_busy(self)) return NULL;
    static char *kwlist[] = { "M", "q0", "v0", "C", "K", "fext", NULL };
    PyObject *Mo, *q0o, *v0o = Py_None, *Co = Py_None, *Ko = Py_None, *fo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O$OOO:add_lagrangian", kwlist, &Mo, &q0o, &v0o,
                                     &Co, &Ko, &fo))
        return NULL;
    npy_intp n;
    if (dim_of(q0o, "q0", &n) < 0) return NULL;
    /* a SciPy sparse M: the sparse LTI system (M, C, K kept CSC; C and K
     * may be sparse or dense); otherwise dense */
    int sparse = !PyArray_Check(Mo) && PyObject_HasAttrString(Mo, "tocsc");
    PyArrayObject *M = NULL, *q0 = NULL, *v0 = NULL, *C = NULL, *K = NULL, *fc = NULL;
    ns_matrix *Ms = NULL, *Cs = NULL, *Ks = NULL;
    PyObject *res = NULL;
    nsm_ds *ds = NULL;
    if (sparse ? !(Ms = pyns_matrix(Mo, "M")) : !(M = fmat(Mo, "M", n, n))) goto done;
    if (!(q0 = fvec(q0o, "q0", n))) goto done;
    if (v0o != Py_None && !(v0 = fvec(v0o, "v0", n))) goto done;
    if (sparse) {
        if (Co != Py_None && !(Cs = pyns_matrix(Co, "C"))) goto done;
        if (Ko != Py_None && !(Ks = pyns_matrix(Ko, "K"))) goto done;
    } else {
        if (Co != Py_None && !(C = fmat(Co, "C", n, n))) goto done;
        if (Ko != Py_None && !(K = fmat(Ko, "K", n, n))) goto done;
    }
    if (fo != Py_None && !PyCallable_Check(fo) && !(fc = fvec(fo, "fext", n))) goto done;
    ds = sparse ? nsm_ds_lagrangian_lti_sparse_new((int)n, Ms, Cs, Ks, PyArray_DATA(q0), v0 ? PyArray_DATA(v0) : NULL)
                : nsm_ds_lagrangian_lti_new((int)n, PyArray_DATA(M), PyArray_DATA(q0), v0 ? PyArray_DATA(v0) : NULL);
    if (!ds) { PyErr_Format(pyns_InputError, "add_lagrangian: %s", nsm_constructor_error()); goto done; }
    if ((C && nsm_ds_set_damping(ds, PyArray_DATA(C)) != NS_OK) ||
        (K && nsm_ds_set_stiffness(ds, PyArray_DATA(K)) != NS_OK) ||
        (fc && nsm_ds_set_fext_constant(ds, PyArray_DATA(fc)) != NS_OK)) {
        PyErr_NoMemory();
        goto done;
    }
    if (fo != Py_None && !fc) {
        cbctx *c = new_ctx(self, (int)n);
        if (!c) goto done;
        Py_INCREF(fo);
        c->fext = fo;
        nsm_ds_set_fext(ds, tr_time, c);
    }
    res = add_ds(self, ds);
    ds = NULL;
done:
    nsm_ds_free(ds);
    ns_matrix_free(Ms); ns_matrix_free(Cs); ns_matrix_free(Ks);
    Py_XDECREF(M); Py_XDECREF(q0); Py_XDECREF(v0); Py_XDECREF(C); Py_XDECREF(K); Py_XDECREF(fc);
    return res;
}

static PyObject *model_add_lagrangian_nonlinear(pyns_Model *self, PyObject *args, PyObject *kw)
{
    if (model_busy(self)) return NULL;
    static char *kwlist[] = { "q0", "v0", "mass", "fint", "jac_fint", "fgyr", "jac_fgyr", "fext", NULL };
    PyObject *q0o, *v0o, *mass = Py_None, *fint = Py_None, *jfint = Py_None, *fgyr = Py_None,
             *jfgyr = Py_None, *fext = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$OOOOOO:add_lagrangian_nonlinear", kwlist, &q0o,
                                     &v0o, &mass, &fint, &jfint, &fgyr, &jfgyr, &fext))
        return NULL;
    if (mass == Py_None) { PyErr_SetString(PyExc_TypeError, "mass (a callable q -> M(q)) is required"); return NULL; }
    if (check_callable(mass, "mass") || check_callable(fint, "fint") ||
        check_callable(jfint, "jac_fint") || check_callable(fgyr, "fgyr") ||
        check_callable(jfgyr, "jac_fgyr") || check_callable(fext, "fext"))
        return NULL;
    npy_intp n;
    if (dim_of(q0o, "q0", &n) < 0) return NULL;
    PyArrayObject *q0 = fvec(q0o, "q0", n), *v0 = q0 ? fvec(v0o, "v0", n) : NULL;
    if (!v0) { Py_XDECREF(q0); return NULL; }
    PyObject *res = NULL;
    cbctx *c = new_ctx(self, (int)n);
    if (c) {
        nsm_lagrangian_fns fns = { 0 };
        fns.user = c;
        Py_INCREF(mass); c->mass = mass; fns.mass = tr_mass;
        if (fint != Py_None) { Py_INCREF(fint); c->fint = fint; fns.fint = tr_fint; }
        if (jfint != Py_None) { Py_INCREF(jfint); c->jac_fint = jfint; fns.jac_fint = tr_jac_fint; }
        if (fgyr != Py_None) { Py_INCREF(fgyr); c->fgyr = fgyr; fns.fgyr = tr_fgyr; }
        if (jfgyr != Py_None) { Py_INCREF(jfgyr); c->jac_fgyr = jfgyr; fns.jac_fgyr = tr_jac_fgyr; }
        if (fext != Py_None) { Py_INCREF(fext); c->fext = fext; fns.fext = tr_time; }
        res = add_ds(self, nsm_ds_lagrangian_new((int)n, &fns, PyArray_DATA(q0), PyArray_DATA(v0)));
    }
    Py_DECREF(q0); Py_DECREF(v0);
    return res;
}

static PyObject *model_add_first_order(pyns_Model *self, PyObject *args, PyObject *kw)
{
    if (model_busy(self)) return NULL;
    static char *kwlist[] = { "A", "x0", "b", NULL };
    PyObject *Ao, *x0o, *bo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:add_first_order", kwlist, &Ao, &x0o, &bo))
        return NULL;
    if (check_callable(bo, "b")) return NULL;
    npy_intp n;
    if (dim_of(x0o, "x0", &n) < 0) return NULL;
    PyArrayObject *A = fmat(Ao, "A", n, n), *x0 = A ? fvec(x0o, "x0", n) : NULL;
    if (!x0) { Py_XDECREF(A); return NULL; }
    PyObject *res = NULL;
    cbctx *c = NULL;
    if (bo != Py_None) {
        if (!(c = new_ctx(self, (int)n))) goto done;
        Py_INCREF(bo);
        c->b = bo;
    }
    res = add_ds(self, nsm_ds_first_order_lti_new((int)n, PyArray_DATA(A), c ? tr_time : NULL, c,
                                                  PyArray_DATA(x0)));
done:
    Py_DECREF(A); Py_DECREF(x0);
    return res;
}

static PyObject *model_add_first_order_nonlinear(pyns_Model *self, PyObject *args, PyObject *kw)
{
    if (model_busy(self)) return NULL;
    static char *kwlist[] = { "x0", "f", "jac", NULL };
    PyObject *x0o, *f, *jac;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O$OO:add_first_order_nonlinear", kwlist, &x0o, &f, &jac))
        return NULL;
    if (!PyCallable_Check(f) || !PyCallable_Check(jac)) {
        PyErr_SetString(PyExc_TypeError, "f and jac must be callable");
        return NULL;
    }
    npy_intp n;
    if (dim_of(x0o, "x0", &n) < 0) return NULL;
    PyArrayObject *x0 = fvec(x0o, "x0", n);
    if (!x0) return NULL;
    PyObject *res = NULL;
    cbctx *c = new_ctx(self, (int)n);
    if (c) {
        Py_INCREF(f); c->f = f;
        Py_INCREF(jac); c->jac = jac;
        res = add_ds(self, nsm_ds_first_order_new((int)n, tr_field, tr_jac, c, PyArray_DATA(x0)));
    }
    Py_DECREF(x0);
    return res;
}

static PyObject *model_add_law(pyns_Model *self, PyObject *args, PyObject *kw)
{
    if (model_busy(self)) return NULL;
    static char *kwlist[] = { "kind", "size", "e", "mu", "dim", "lb", "ub", NULL };
    const char *kind;
    int size = 1, dim = 3;
    double e = 0.0, mu = 0.0;
    PyObject *lbo = Py_None, *ubo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|$iddiOO:add_law", kwlist, &kind, &size, &e, &mu,
                                     &dim, &lbo, &ubo))
        return NULL;
    nsm_nslaw *l = NULL;
    const char *why = "size must be >= 1";
    if (!strcmp(kind, "relay")) {
        PyArrayObject *lb = pyns_vector(lbo, "lb", -1), *ub = NULL;
        if (!lb) return NULL;
        if (!(ub = pyns_vector(ubo, "ub", PyArray_DIM(lb, 0)))) { Py_DECREF(lb); return NULL; }
        l = nsm_nslaw_relay_new((int)PyArray_DIM(lb, 0), PyArray_DATA(lb), PyArray_DATA(ub));
        why = "relay: need 1 or more bounds, lb <= ub, no NaN";
        Py_DECREF(lb); Py_DECREF(ub);
    } else if (lbo != Py_None || ubo != Py_None) {
        PyErr_Format(PyExc_TypeError, "add_law('%s'): lb and ub are for relay laws", kind);
        return NULL;
    } else if (!strcmp(kind, "newton")) {
        l = size >= 1 && e >= 0.0 && e <= 1.0 ? nsm_nslaw_newton_new(size, e) : NULL;
        why = "newton: size >= 1 and e in [0, 1]";
    } else if (!strcmp(kind, "newton_coulomb")) {
        l = (dim == 2 || dim == 3) && e >= 0.0 && e <= 1.0 && mu >= 0.0 && isfinite(mu)
            ? nsm_nslaw_newton_coulomb_new(dim, e, mu) : NULL;
        why = "newton_coulomb: dim 2 or 3, e in [0, 1], mu >= 0 finite";
    } else if (!strcmp(kind, "complementarity")) {
        l = size >= 1 ? nsm_nslaw_complementarity_new(size) : NULL;
    } else if (!strcmp(kind, "equality")) {
        l = size >= 1 ? nsm_nslaw_equality_new(size) : NULL;
    } else {
        PyErr_Format(PyExc_ValueError, "unknown law '%s' (newton, newton_coulomb, complementarity, "
                     "relay, equality)", kind);
        return NULL;
    }
    if (!l) {
        PyErr_Format(pyns_InputError, "add_law('%s'): bad parameters (%s)", kind, why);
        return NULL;
    }
    int id = nsm_model_add_law(self->m, l);
    if (id < 0) return pyns_raise(NS_BAD_INPUT, nsm_model_error(self->m));
    return PyLong_FromLong(id);
}

static PyObject *model_add_interaction(pyns_Model *self, PyObject *args, PyObject *kw)
{
    if (model_busy(self)) return NULL;
    static char *kwlist[] = { "law", "ds", "ds2", "H", "b", "C", "D", "B", "e", "h", "jach", "dhdt",
                              "size", NULL };
    int law, ds1, ds2 = -1, size = -1;
    PyObject *Ho = Py_None, *bo = Py_None, *Co = Py_None, *Do = Py_None, *Bo = Py_None, *eo = Py_None;
    PyObject *ho = Py_None, *jo = Py_None, *dto = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ii|i$OOOOOOOOOi:add_interaction", kwlist, &law, &ds1,
                                     &ds2, &Ho, &bo, &Co, &Do, &Bo, &eo, &ho, &jo, &dto, &size))
        return NULL;
    const nsm_ds *d1 = nsm_model_ds_const(self->m, ds1), *d2 = ds2 >= 0 ? nsm_model_ds_const(self->m, ds2) : NULL;
    if (!d1 || (ds2 >= 0 && !d2) || ds2 < -1) {
        PyErr_Format(pyns_InputError, "add_interaction: no system %d", !d1 ? ds1 : ds2);
        return NULL;
    }
    npy_intp ncols = nsm_ds_size(d1) + (d2 ? nsm_ds_size(d2) : 0);
    nsm_relation *rel = NULL;
    if (ho != Py_None || jo != Py_None || dto != Py_None) {
        if (Ho != Py_None || bo != Py_None || Co != Py_None || Do != Py_None || Bo != Py_None ||
            eo != Py_None) {
            PyErr_SetString(PyExc_TypeError, "add_interaction: h, jach (and dhdt) make a nonlinear "
                            "relation; H, b, C, D, B, e belong to linear ones");
            return NULL;
        }
        if (check_callable(ho, "h") || check_callable(jo, "jach") || check_callable(dto, "dhdt"))
            return NULL;
        if (ho == Py_None || jo == Py_None || size < 1) {
            PyErr_SetString(PyExc_TypeError, "add_interaction: a nonlinear relation needs h, jach "
                            "and size (the length of y)");
            return NULL;
        }
        cbctx *c = new_ctx(self, size);
        if (!c) return NULL;
        Py_INCREF(ho); c->h = ho;
        Py_INCREF(jo); c->jach = jo;
        if (dto != Py_None) {
            Py_INCREF(dto); c->dhdt = dto;
            rel = nsm_relation_rheonomous_new(size, (int)ncols, tr_h, tr_jach, tr_dhdt, c);
        } else {
            rel = nsm_relation_scleronomous_new(size, (int)ncols, tr_h, tr_jach, c);
        }
    } else if (Ho != Py_None) {
        if (Co != Py_None || Do != Py_None || Bo != Py_None || eo != Py_None) {
            PyErr_SetString(PyExc_TypeError, "add_interaction: H (and b) for a Lagrangian relation, "
                            "C, B (and D, e) for a first-order one, not both");
            return NULL;
        }
        PyArrayObject *H = fmat(Ho, "H", -1, ncols), *b = NULL;
        if (!H) return NULL;
        if (bo != Py_None && !(b = fvec(bo, "b", PyArray_DIM(H, 0)))) { Py_DECREF(H); return NULL; }
        rel = nsm_relation_lagrangian_linear_new((int)PyArray_DIM(H, 0), (int)ncols, PyArray_DATA(H),
                                                 b ? PyArray_DATA(b) : NULL);
        Py_DECREF(H); Py_XDECREF(b);
    } else if (Co != Py_None && Bo != Py_None) {
        if (bo != Py_None) {
            PyErr_SetString(PyExc_TypeError, "add_interaction: b belongs to Lagrangian relations (H)");
            return NULL;
        }
        PyArrayObject *C = fmat(Co, "C", -1, ncols), *B = NULL, *D = NULL, *e = NULL;
        if (!C) return NULL;
        npy_intp m = PyArray_DIM(C, 0);
        if (!(B = fmat(Bo, "B", ncols, m)) ||
            (Do != Py_None && !(D = fmat(Do, "D", m, m))) ||
            (eo != Py_None && !(e = fvec(eo, "e", m)))) {
            Py_DECREF(C); Py_XDECREF(B); Py_XDECREF(D);
            return NULL;
        }
        rel = nsm_relation_first_order_linear_new((int)m, (int)ncols, PyArray_DATA(C),
                                                  D ? PyArray_DATA(D) : NULL, PyArray_DATA(B),
                                                  e ? PyArray_DATA(e) : NULL);
        Py_DECREF(C); Py_DECREF(B); Py_XDECREF(D); Py_XDECREF(e);
    } else {
        PyErr_SetString(PyExc_TypeError, "add_interaction: give H (Lagrangian linear relation "
                        "y = H q + b) or C and B (first-order linear y = C x + D lambda + e, r = B lambda)");
        return NULL;
    }
    if (!rel) {
        PyErr_SetString(pyns_InputError, "add_interaction: the relation could not be made (empty or too large)");
        return NULL;
    }
    int id = nsm_model_add_interaction(self->m, rel, law, ds1, ds2);
    if (id < 0) return pyns_raise(NS_BAD_INPUT, nsm_model_error(self->m));
    return PyLong_FromLong(id);
}

static PyObject *model_remove_interaction(pyns_Model *self, PyObject *arg)
{
    if (model_busy(self)) return NULL;
    long id;
    if (pyns_get_int(arg, "interaction", -2147483647L, 2147483647L, &id) < 0) return NULL;
    if (nsm_model_remove_interaction(self->m, (int)id) != NS_OK)
        return pyns_raise(NS_BAD_INPUT, nsm_model_error(self->m)[0] ? nsm_model_error(self->m)
                                                                    : "remove_interaction: bad id");
    Py_RETURN_NONE;
}

/* ---- rigid bodies (nsm_ds_newton_euler_new, nsm_rigid.h) ---- */

static PyObject *model_add_rigid_body(pyns_Model *self, PyObject *args, PyObject *kw)
{
    if (model_busy(self)) return NULL;
    static char *kwlist[] = { "mass", "inertia", "q0", "v0", "fext", NULL };
    double mass;
    PyObject *Io, *q0o = Py_None, *v0o = Py_None, *fo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "dO|OO$O:add_rigid_body", kwlist, &mass, &Io, &q0o, &v0o, &fo))
        return NULL;
    PyArrayObject *I = NULL, *q0 = NULL, *v0 = NULL, *fc = NULL;
    PyObject *res = NULL;
    nsm_ds *ds = NULL;
    double Im[9] = { 0 };
    PyArrayObject *Iv = (PyArrayObject *)PyArray_FROM_OTF(Io, NPY_DOUBLE, NPY_ARRAY_IN_ARRAY);
    if (!Iv) return NULL;
    int ndim = PyArray_NDIM(Iv);
    Py_DECREF(Iv);
    if (ndim == 1) {
        if (!(I = fvec(Io, "inertia", 3))) goto done;
        for (int k = 0; k < 3; k++) Im[4 * k] = ((double *)PyArray_DATA(I))[k];
    } else {
        if (!(I = fmat(Io, "inertia", 3, 3))) goto done;
        memcpy(Im, PyArray_DATA(I), sizeof Im);
    }
    if (q0o != Py_None && !(q0 = fvec(q0o, "q0", 7))) goto done;
    if (v0o != Py_None && !(v0 = fvec(v0o, "v0", 6))) goto done;
    if (fo != Py_None && !PyCallable_Check(fo) && !(fc = fvec(fo, "fext", 6))) goto done;
    ds = nsm_ds_newton_euler_new(mass, Im, q0 ? PyArray_DATA(q0) : NULL, v0 ? PyArray_DATA(v0) : NULL);
    if (!ds) { PyErr_Format(pyns_InputError, "add_rigid_body: %s", nsm_constructor_error()); goto done; }
    if (fc && nsm_ds_set_fext_constant(ds, PyArray_DATA(fc)) != NS_OK) { PyErr_NoMemory(); goto done; }
    if (fo != Py_None && !fc) {
        cbctx *c = new_ctx(self, 6);
        if (!c) goto done;
        Py_INCREF(fo);
        c->fext = fo;
        nsm_ds_set_fext(ds, tr_time, c);
    }
    res = add_ds(self, ds);
    ds = NULL;
done:
    nsm_ds_free(ds);
    Py_XDECREF(I); Py_XDECREF(q0); Py_XDECREF(v0); Py_XDECREF(fc);
    return res;
}

static int vec3(PyObject *o, const char *name, double *out)
{
    if (o == Py_None) return 0;
    PyArrayObject *a = fvec(o, name, 3);
    if (!a) return -1;
    memcpy(out, PyArray_DATA(a), 3 * sizeof(double));
    Py_DECREF(a);
    return 0;
}

static PyObject *model_add_contact(pyns_Model *self, PyObject *args, PyObject *kw)
{
    if (model_busy(self)) return NULL;
    static char *kwlist[] = { "law", "ds", "ds2", "normal", "r1", "r2", "r1_world", "r2_world", "size", NULL };
    int law, ds1, ds2 = -1, w1 = 0, w2 = 0, size = 3;
    PyObject *no = NULL, *r1o = Py_None, *r2o = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ii|i$OOOppi:add_contact", kwlist, &law, &ds1, &ds2, &no, &r1o,
                                     &r2o, &w1, &w2, &size))
        return NULL;
    if (!no) { PyErr_SetString(PyExc_TypeError, "add_contact: normal is required"); return NULL; }
    nsm_contact_frame f = { .r1_world = w1, .r2_world = w2 };
    if (vec3(no, "normal", f.normal) < 0 || vec3(r1o, "r1", f.r1) < 0 || vec3(r2o, "r2", f.r2) < 0) return NULL;
    nsm_relation *rel = nsm_relation_contact_new(size, ds2 >= 0 ? 2 : 1, &f);
    if (!rel) { PyErr_Format(pyns_InputError, "add_contact: %s", nsm_constructor_error()); return NULL; }
    int id = nsm_model_add_interaction(self->m, rel, law, ds1, ds2);
    if (id < 0) return pyns_raise(NS_BAD_INPUT, nsm_model_error(self->m));
    return PyLong_FromLong(id);
}

static PyObject *model_add_joint(pyns_Model *self, PyObject *args, PyObject *kw)
{
    if (model_busy(self)) return NULL;
    static char *kwlist[] = { "kind", "law", "ds", "ds2", "q1", "q2", "anchor", "axis", NULL };
    const char *kind;
    int law, ds1, ds2 = -1;
    PyObject *q1o = NULL, *q2o = Py_None, *ao = NULL, *axo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sii|i$OOOO:add_joint", kwlist, &kind, &law, &ds1, &ds2, &q1o, &q2o,
                                     &ao, &axo))
        return NULL;
    static const char *const names[] = { "ball", "revolute", "cylindrical", "prismatic", "fixed" };
    int t = -1;
    for (int k = 0; k < 5; k++) if (!strcmp(kind, names[k])) t = k;
    if (t < 0) {
        PyErr_Format(pyns_InputError, "add_joint: unknown kind '%s' (ball, revolute, cylindrical, prismatic, fixed)", kind);
        return NULL;
    }
    if (!q1o || !ao) { PyErr_SetString(PyExc_TypeError, "add_joint: q1 and anchor are required"); return NULL; }
    if ((ds2 >= 0) != (q2o != Py_None)) {
        PyErr_SetString(PyExc_TypeError, "add_joint: q2 goes with ds2 (both or neither)");
        return NULL;
    }
    PyArrayObject *q1 = fvec(q1o, "q1", 7), *q2 = NULL;
    double anchor[3], axis[3] = { 0, 0, 1 };
    PyObject *res = NULL;
    if (!q1 || (q2o != Py_None && !(q2 = fvec(q2o, "q2", 7))) || vec3(ao, "anchor", anchor) < 0 ||
        vec3(axo, "axis", axis) < 0)
        goto done;
    nsm_relation *rel = nsm_joint_new((nsm_joint_type)t, PyArray_DATA(q1), q2 ? PyArray_DATA(q2) : NULL, anchor,
                                      axo == Py_None ? NULL : axis);
    if (!rel) { PyErr_Format(pyns_InputError, "add_joint: %s", nsm_constructor_error()); goto done; }
    int id = nsm_model_add_interaction(self->m, rel, law, ds1, ds2);
    res = id < 0 ? pyns_raise(NS_BAD_INPUT, nsm_model_error(self->m)) : PyLong_FromLong(id);
done:
    Py_XDECREF(q1); Py_XDECREF(q2);
    return res;
}

/* set_relation(inter, H, b=None): a live contact's H (and b) between steps */
static PyObject *model_set_relation(pyns_Model *self, PyObject *args, PyObject *kw)
{
    if (model_busy(self)) return NULL;
    static char *kwlist[] = { "inter", "H", "b", NULL };
    int id;
    PyObject *Ho, *bo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iO|O:set_relation", kwlist, &id, &Ho, &bo)) return NULL;
    if (!nsm_model_inter_alive(self->m, id)) { PyErr_Format(pyns_InputError, "no interaction %d", id); return NULL; }
    nsm_relation *r = nsm_model_relation(self->m, id);
    if (nsm_relation_get_type(r) != NSM_REL_LAGRANGIAN_LINEAR) {
        PyErr_Format(pyns_InputError, "set_relation: interaction %d is not Lagrangian linear (y = H q + b)", id);
        return NULL;
    }
    int rows = nsm_relation_size(r), cols = nsm_relation_ncols(r);
    PyArrayObject *H = fmat(Ho, "H", rows, cols), *b = NULL;
    if (!H) return NULL;
    if (bo != Py_None && !(b = fvec(bo, "b", rows))) { Py_DECREF(H); return NULL; }
    ns_status st = nsm_relation_set_H(r, PyArray_DATA(H), b ? PyArray_DATA(b) : NULL);
    Py_DECREF(H);
    Py_XDECREF(b);
    if (st != NS_OK) return pyns_raise(st, "set_relation: H refused");
    if (relset_mark(self, id, 1) < 0) return NULL;
    Py_RETURN_NONE;
}

/* set_relations(ids, H, b=None): H (k, m, ncols), b (k, m): set_relation
 * for k interactions in one call. */
static PyObject *model_set_relations(pyns_Model *self, PyObject *args, PyObject *kw)
{
    if (model_busy(self)) return NULL;
    static char *kwlist[] = { "ids", "H", "b", NULL };
    PyObject *io, *Ho, *bo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:set_relations", kwlist, &io, &Ho, &bo)) return NULL;
    PyArrayObject *ids = (PyArrayObject *)PyArray_FROMANY(io, NPY_INTP, 1, 1, NPY_ARRAY_IN_ARRAY);
    PyArrayObject *H = ids ? (PyArrayObject *)PyArray_FROMANY(Ho, NPY_DOUBLE, 3, 3, NPY_ARRAY_IN_ARRAY) : NULL;
    PyArrayObject *b = H && bo != Py_None ? (PyArrayObject *)PyArray_FROMANY(bo, NPY_DOUBLE, 2, 2, NPY_ARRAY_IN_ARRAY) : NULL;
    PyObject *ret = NULL;
    double *Hcm = NULL;
    if (!H || (bo != Py_None && !b)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "set_relations: ids (k,), H (k, m, ncols), b (k, m)");
        goto out;
    }
    npy_intp k = PyArray_DIM(ids, 0), m = PyArray_DIM(H, 1), nc = PyArray_DIM(H, 2);
    if (PyArray_DIM(H, 0) != k || (b && (PyArray_DIM(b, 0) != k || PyArray_DIM(b, 1) != m))) {
        PyErr_Format(pyns_InputError, "set_relations: %zd ids, H of shape (%zd, %zd, %zd)%s: the first "
                     "dimensions must agree (and b's shape be (k, m))", (Py_ssize_t)k, (Py_ssize_t)PyArray_DIM(H, 0),
                     (Py_ssize_t)m, (Py_ssize_t)nc, b ? " and b" : "");
        goto out;
    }
    const double *Hd = PyArray_DATA(H), *bd = b ? PyArray_DATA(b) : NULL;
    for (npy_intp t = 0; t < k * m * nc; t++)
        if (!isfinite(Hd[t])) { PyErr_SetString(pyns_InputError, "set_relations: H has a non-finite entry"); goto out; }
    for (npy_intp t = 0; bd && t < k * m; t++)
        if (!isfinite(bd[t])) { PyErr_SetString(pyns_InputError, "set_relations: b has a non-finite entry"); goto out; }
    Hcm = PyMem_Malloc((size_t)(m * nc > 0 ? m * nc : 1) * sizeof *Hcm);
    if (!Hcm) { PyErr_NoMemory(); goto out; }
    const npy_intp *id = PyArray_DATA(ids);
    for (npy_intp t = 0; t < k; t++) {   /* checks first: all or nothing */
        if (id[t] < 0 || id[t] > INT_MAX || !nsm_model_inter_alive(self->m, (int)id[t])) {
            PyErr_Format(pyns_InputError, "set_relations: ids[%zd]: no interaction %zd", (Py_ssize_t)t, (Py_ssize_t)id[t]);
            goto out;
        }
        nsm_relation *r = nsm_model_relation(self->m, (int)id[t]);
        if (nsm_relation_get_type(r) != NSM_REL_LAGRANGIAN_LINEAR || nsm_relation_size(r) != m ||
            nsm_relation_ncols(r) != nc) {
            PyErr_Format(pyns_InputError, "set_relations: interaction %zd is not Lagrangian linear with "
                         "H of shape (%zd, %zd)", (Py_ssize_t)id[t], (Py_ssize_t)m, (Py_ssize_t)nc);
            goto out;
        }
    }
    for (npy_intp t = 0; t < k; t++) {
        const double *Ht = Hd + (size_t)t * m * nc;
        for (npy_intp i = 0; i < m; i++)
            for (npy_intp c = 0; c < nc; c++) Hcm[i + c * m] = Ht[i * nc + c];
        ns_status st = nsm_relation_set_H(nsm_model_relation(self->m, (int)id[t]), Hcm, bd ? bd + t * m : NULL);
        if (st != NS_OK) { pyns_raise(st, "set_relations: H refused"); goto out; }
        if (relset_mark(self, (int)id[t], 1) < 0) goto out;
    }
    ret = Py_NewRef(Py_None);
out:
    PyMem_Free(Hcm);
    Py_XDECREF(ids); Py_XDECREF(H); Py_XDECREF(b);
    return ret;
}

static PyObject *model_nds(pyns_Model *self, void *c) { return PyLong_FromLong(nsm_model_nds(self->m)); }
static PyObject *model_ninter(pyns_Model *self, void *c) { return PyLong_FromLong(nsm_model_ninter(self->m)); }

static PyObject *model_repr(pyns_Model *self)
{
    return PyUnicode_FromFormat("<nonsmooth.Model: %d system(s), %d interaction(s)>",
                                nsm_model_nds(self->m), nsm_model_ninter(self->m));
}

/* The model's building calls, journaled when they succeed. */
#define JOURNALED(fn, name) \
    static PyObject *fn##_j(pyns_Model *self, PyObject *args, PyObject *kw) \
    { \
        PyObject *r = fn(self, args, kw); \
        if (r && journal_add(self, name, args, kw, r) < 0) Py_CLEAR(r); \
        return r; \
    }
JOURNALED(model_add_lagrangian, "add_lagrangian")
JOURNALED(model_add_lagrangian_nonlinear, "add_lagrangian_nonlinear")
JOURNALED(model_add_first_order, "add_first_order")
JOURNALED(model_add_first_order_nonlinear, "add_first_order_nonlinear")
JOURNALED(model_add_law, "add_law")
JOURNALED(model_add_interaction, "add_interaction")
JOURNALED(model_add_rigid_body, "add_rigid_body")
JOURNALED(model_add_contact, "add_contact")
JOURNALED(model_add_joint, "add_joint")
#undef JOURNALED
static PyObject *model_remove_interaction_j(pyns_Model *self, PyObject *arg)
{
    PyObject *r = model_remove_interaction(self, arg);
    PyObject *args = r ? PyTuple_Pack(1, arg) : NULL;
    if (r && (!args || journal_add(self, "remove_interaction", args, NULL, r) < 0 ||
              relset_mark(self, (int)PyLong_AsLong(arg), 0) < 0)) Py_CLEAR(r);
    Py_XDECREF(args);
    return r;
}

static PyMethodDef model_methods[] = {
    { "add_lagrangian", (PyCFunction)(void (*)(void))model_add_lagrangian_j, METH_VARARGS | METH_KEYWORDS,
      "add_lagrangian(M, q0, v0=None, *, C=None, K=None, fext=None) -> system id.\n"
      "LTI Lagrangian M q'' + C q' + K q = fext(t) + p; fext a constant vector or a callable t -> vector.\n"
      "A SciPy sparse M makes a sparse system (M, C, K kept CSC, factorised by CHOLMOD/UMFPACK; no n×n "
      "dense matrix in either scheme): for finite-element models." },
    { "add_lagrangian_nonlinear", (PyCFunction)(void (*)(void))model_add_lagrangian_nonlinear_j,
      METH_VARARGS | METH_KEYWORDS,
      "add_lagrangian_nonlinear(q0, v0, *, mass, fint=None, jac_fint=None, fgyr=None, jac_fgyr=None, "
      "fext=None) -> system id.\nM(q) q'' + fgyr(t, q, v) + fint(t, q, v) = fext(t) + p; mass(q) -> n×n, "
      "forces (t, q, v) -> n, Jacobians (t, q, v) -> (dF/dq, dF/dv)." },
    { "add_first_order", (PyCFunction)(void (*)(void))model_add_first_order_j, METH_VARARGS | METH_KEYWORDS,
      "add_first_order(A, x0, b=None) -> system id. LTI x' = A x + b(t) + r (b a callable t -> vector)." },
    { "add_first_order_nonlinear", (PyCFunction)(void (*)(void))model_add_first_order_nonlinear_j,
      METH_VARARGS | METH_KEYWORDS,
      "add_first_order_nonlinear(x0, *, f, jac) -> system id. x' = f(t, x) + r; jac(t, x) -> df/dx." },
    { "add_law", (PyCFunction)(void (*)(void))model_add_law_j, METH_VARARGS | METH_KEYWORDS,
      "add_law(kind, *, size=1, e=0, mu=0, dim=3, lb=None, ub=None) -> law id. kind: 'newton' (size, e), "
      "'newton_coulomb' (dim, e, mu), 'complementarity' (size), 'relay' (lb, ub), 'equality' (size)." },
    { "add_interaction", (PyCFunction)(void (*)(void))model_add_interaction_j, METH_VARARGS | METH_KEYWORDS,
      "add_interaction(law, ds, ds2=-1, *, H=None, b=None, C=None, D=None, B=None, e=None, h=None, "
      "jach=None, dhdt=None, size=None) -> id.\n"
      "Lagrangian linear y = H Q + b; first-order linear y = C X + D lambda + e, r = B lambda; "
      "Lagrangian nonlinear y = h(t, Q) with jach(t, Q) -> dh/dQ (size × ncols) and, if y depends "
      "on t, dhdt(t, Q); size = len(y)." },
    { "add_rigid_body", (PyCFunction)(void (*)(void))model_add_rigid_body_j, METH_VARARGS | METH_KEYWORDS,
      "add_rigid_body(mass, inertia, q0=None, v0=None, *, fext=None) -> system id.\n"
      "Newton-Euler rigid body (docs/rigid-bodies.md): q = (x, y, z, quaternion w, x, y, z), "
      "v = (velocity, body angular velocity); inertia 3 principal moments or 3x3 (body frame); "
      "fext a constant 6-vector (world force, body torque) or a callable t -> 6-vector." },
    { "add_contact", (PyCFunction)(void (*)(void))model_add_contact_j, METH_VARARGS | METH_KEYWORDS,
      "add_contact(law, ds, ds2=-1, *, normal, r1=None, r2=None, r1_world=False, r2_world=False, size=3) -> id.\n"
      "Contact of rigid body ds with ds2 (or the ground): unit normal (world) from ds2 towards ds, arms r1, r2 "
      "from the centres of mass (body frame, or world with r*_world; with one body r2 is the ground point); "
      "size 3 (normal + 2 tangents, Newton-Coulomb law) or 1 (normal, Newton law)." },
    { "add_joint", (PyCFunction)(void (*)(void))model_add_joint_j, METH_VARARGS | METH_KEYWORDS,
      "add_joint(kind, law, ds, ds2=-1, *, q1, q2=None, anchor, axis=None) -> id.\n"
      "kind 'ball', 'revolute', 'cylindrical', 'prismatic' or 'fixed' (3, 5, 4, 5, 6 rows: an equality law of "
      "that size), built from the poses q1 (q2 with ds2), the anchor and the axis (world) as they are." },
    { "set_relation", (PyCFunction)(void (*)(void))model_set_relation, METH_VARARGS | METH_KEYWORDS,
      "set_relation($self, inter, H, b=None)\n--\n\nReplaces H (and b) of a Lagrangian linear "
      "interaction y = H q + b between steps (a contact whose normal turns); shapes as at "
      "add_interaction." },
    { "set_relations", (PyCFunction)(void (*)(void))model_set_relations, METH_VARARGS | METH_KEYWORDS,
      "set_relations($self, ids, H, b=None)\n--\n\nset_relation for many interactions in one call: "
      "ids (k,), H (k, m, ncols), b (k, m); all checked before any is changed (Lagrangian linear, "
      "shape (m, ncols), finite)." },
    { "remove_interaction", (PyCFunction)model_remove_interaction_j, METH_O,
      "remove_interaction(id): removes an interaction (between steps)." },
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef model_getset[] = {
    { "nds", (getter)model_nds, NULL, "number of systems", NULL },
    { "ninter", (getter)model_ninter, NULL, "number of live interactions", NULL },
    { "_journal", (getter)model_journal, NULL, "the calls that built the model (method, args, "
      "kwargs, result), arrays copied: what pickling replays", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nonsmooth.Model",
    .tp_basicsize = sizeof(pyns_Model),
    .tp_dealloc = (destructor)model_dealloc,
    .tp_repr = (reprfunc)model_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)model_traverse,
    .tp_doc = "Model(): systems, nonsmooth laws and interactions (nsm_model).",
    .tp_methods = model_methods,
    .tp_getset = model_getset,
    .tp_new = model_new,
};

/* =============================================================== Simulation */

/* The solve hook's context: the callable and the dict its last retry
 * returned (its solver and local_solver strings must outlive the retry). */
typedef struct simhook {
    PyObject *fn;
    PyObject *keep;
    PyObject *log;    /* log(level, message), or NULL */
} simhook;

typedef struct {
    PyObject_HEAD
    nsm_sim *s;
    pyns_Model *model;
    PyObject *kw;     /* keeps the option strings alive */
    simhook *hook;    /* NULL without solve_hook */
    int busy;         /* 1 while stepping: a callback may not step or change it */
} pyns_Sim;

static int sim_busy(pyns_Sim *self)
{
    if (!self->busy) return 0;
    PyErr_SetString(PyExc_RuntimeError, "the simulation is stepping: it cannot be stepped or "
                    "changed from one of its callbacks");
    return 1;
}

static void sim_enter(pyns_Sim *self) { self->busy = 1; self->model->busy++; }
static void sim_leave(pyns_Sim *self) { self->busy = 0; self->model->busy--; }

static PyTypeObject SimType;

static const char *const sim_skip[] = { "h", "theta", "t0", "solver", "warm_start", "gap_tol",
                                        "separating_restitution", "theta_output", "dump_dir",
                                        "dump_max", "accept_nonconverged", "projection",
                                        "projection_tol", "projection_tol_unilateral",
                                        "projection_max_iter", "projection_metric", "projection_all",
                                        "newton_tol", "newton_max_iter", "newton_criterion",
                                        "activation", "activation_gamma", "gmp", "gmp_solver",
                                        "global_fc", "order_by_system", "solve_hook", "log",
                                        "verbosity", "rules", "linearisation", "em_gamma", "stabilization",
                                        "activation_hold", NULL };

/* rules="default" | "siconos" (kw["rules"], absent: default): the preset
 * nsm_sim_options_siconos / nsm_ed_options_siconos, applied before the
 * other keywords so that they override it. Returns 1 for "siconos". */
static int rules_arg(PyObject *kw, const char *who)
{
    PyObject *v = kw ? PyDict_GetItemString(kw, "rules") : NULL;
    if (!v || pyns_key_is(v, "default")) return 0;
    if (pyns_key_is(v, "siconos")) return 1;
    PyErr_Format(PyExc_ValueError, "%s: rules must be 'default' or 'siconos', not %R", who, v);
    return -1;
}

/* solve_hook(info) after a one-step solve that missed its tolerance: info
 * is a dict (scheme, what, step, t, kind, status, error, iterations,
 * solver, attempt); the hook returns None or "stop" (the step fails),
 * "accept" (go on, counted in stats["nonconverged"]) or a dict of retry
 * settings: "solver" and any solve() option (tol, max_iter, ...), applied
 * over the last attempt's (at most 16 attempts per problem). An exception
 * in the hook stops the step and is re-raised by step()/run(). */
static nsm_hook_action py_solve_hook(const nsm_solve_info *info, nsm_solve_settings *next, void *user)
{
    simhook *h = user;
    if (PyErr_Occurred() || !h->fn) return NSM_HOOK_STOP;   /* fn NULL: cleared by the GC */
    PyObject *d = Py_BuildValue("{s:s,s:s,s:l,s:d,s:s,s:s,s:d,s:i,s:s,s:i}", "scheme", info->scheme,
                                "what", info->what, "step", info->step, "t", info->t, "kind",
                                ns_kind_name(info->problem->kind), "status", ns_status_name(info->result->status),
                                "error", info->result->error, "iterations", info->result->iterations,
                                "solver", info->solver ? info->solver : "default", "attempt", info->attempt);
    if (!d) return NSM_HOOK_STOP;
    PyObject *r = PyObject_CallOneArg(h->fn, d);
    Py_DECREF(d);
    if (!r) return NSM_HOOK_STOP;
    if (r == Py_None || pyns_key_is(r, "stop")) { Py_DECREF(r); return NSM_HOOK_STOP; }
    if (pyns_key_is(r, "accept")) { Py_DECREF(r); return NSM_HOOK_ACCEPT; }
    if (!PyDict_Check(r)) {
        PyErr_Format(PyExc_TypeError, "solve_hook must return None, 'stop', 'accept' or a dict of retry "
                     "settings (solver, tol, max_iter, ...), not %R", r);
        Py_DECREF(r);
        return NSM_HOOK_STOP;
    }
    static const char *const retry_skip[] = { "solver", NULL };
    if (pyns_parse_options(r, &next->options, retry_skip) < 0) { Py_DECREF(r); return NSM_HOOK_STOP; }
    PyObject *sv = PyDict_GetItemString(r, "solver");
    if (sv == Py_None) next->solver = NULL;
    else if (sv) {
        const char *name = PyUnicode_Check(sv) ? pyns_utf8(sv, "solver") : NULL;
        char sname[NS_SOLVER_NAME_LEN];
        ns_options scratch;
        ns_options_default(&scratch);
        if (!name || ns_solver_spec_parse(name, info->problem->kind, sname, sizeof sname, &scratch, NULL) != NS_OK) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "solve_hook: solver %R does not solve the step's %s problem",
                             sv, ns_kind_name(info->problem->kind));
            Py_DECREF(r);
            return NSM_HOOK_STOP;
        }
        next->solver = name;
    }
    Py_XSETREF(h->keep, r);   /* its strings stay valid through the retry */
    return NSM_HOOK_RETRY;
}

static void simhook_free(simhook *h)
{
    if (!h) return;
    Py_XDECREF(h->fn);
    Py_XDECREF(h->keep);
    Py_XDECREF(h->log);
    PyMem_Free(h);
}

/* log(level, message): the simulation's and its solver's messages. An
 * exception in it stays pending: the step's callbacks then stop at once
 * and step()/run() re-raise it. */
static void py_log(void *user, int level, const char *message)
{
    simhook *h = user;
    if (PyErr_Occurred() || !h->log) return;
    PyObject *r = PyObject_CallFunction(h->log, "is", level, message);
    Py_XDECREF(r);
}

/* kw["solve_hook"], kw["log"] and kw["verbosity"] (None or absent: not
 * set) into a new context (*out; NULL when neither callable is given),
 * wired into the scheme's options: the hook, and the log of the scheme and
 * of its solver at verbosity (default 1, 0..3). */
static int simhook_setup(PyObject *kw, simhook **out, nsm_solve_hook_fn *hook, void **hook_user,
                         ns_log_fn *log, void **log_user, ns_options *so)
{
    *out = NULL;
    PyObject *v = kw ? PyDict_GetItemString(kw, "solve_hook") : NULL;
    PyObject *lg = kw ? PyDict_GetItemString(kw, "log") : NULL;
    PyObject *vb = kw ? PyDict_GetItemString(kw, "verbosity") : NULL;
    if (v == Py_None) v = NULL;
    if (lg == Py_None) lg = NULL;
    long l = 1;
    if (vb && pyns_get_int(vb, "verbosity", 0, 3, &l) < 0) return -1;
    if (!v && !lg) return 0;
    if (v && !PyCallable_Check(v)) { PyErr_SetString(PyExc_TypeError, "solve_hook must be callable"); return -1; }
    if (lg && !PyCallable_Check(lg)) { PyErr_SetString(PyExc_TypeError, "log must be callable"); return -1; }
    simhook *h = PyMem_Calloc(1, sizeof *h);
    if (!h) { PyErr_NoMemory(); return -1; }
    if (v) { h->fn = Py_NewRef(v); *hook = py_solve_hook; *hook_user = h; }
    if (lg) {
        h->log = Py_NewRef(lg);
        *log = py_log; *log_user = h;
        so->log = py_log; so->log_user = h; so->verbosity = (int)l;
    }
    *out = h;
    return 0;
}

/* GC support of the owners of a context. */
static int simhook_traverse(simhook *h, visitproc visit, void *arg)
{
    if (h) { Py_VISIT(h->fn); Py_VISIT(h->keep); Py_VISIT(h->log); }
    return 0;
}
static void simhook_clear(simhook *h)
{
    if (h) { Py_CLEAR(h->fn); Py_CLEAR(h->keep); Py_CLEAR(h->log); }
}

/* A str option among names[] (its index in *out); ValueError naming them otherwise. */
static int sim_choice(PyObject *kw, const char *key, const char *const *names, int *out)
{
    PyObject *v = PyDict_GetItemString(kw, key);
    if (!v) return 0;
    char list[128] = "";
    for (int i = 0; names[i]; i++) {
        if (pyns_key_is(v, names[i])) { *out = i; return 0; }
        size_t u = strlen(list);
        snprintf(list + u, sizeof list - u, "%s'%s'", i ? ", " : "", names[i]);
    }
    PyErr_Format(PyExc_ValueError, "Simulation: %s must be one of %s, not %R", key, list, v);
    return -1;
}

/* The options of the C simulation beyond the basic ones: projection, the
 * Newton loop of nonlinear systems, the activation rule, mixed laws and the
 * row order (nsm_sim_options; nsm_sim_new checks their ranges). */
static int sim_more_options(PyObject *kw, nsm_sim_options *o)
{
    static const char *const proj[] = { "none", "direct", "combined", NULL };
    static const char *const metric[] = { "identity", "mass", NULL };
    static const char *const crit[] = { "relative", "abs_norm2", NULL };
    static const char *const act[] = { "gamma", "predicted", NULL };
    static const char *const lin[] = { "iterate", "step_start", NULL };
    int c;
    if (!kw) return 0;
    c = (int)o->linearisation;
    if (sim_choice(kw, "linearisation", lin, &c) < 0) return -1;
    o->linearisation = (nsm_linearisation)c;
    c = o->projection;
    if (sim_choice(kw, "projection", proj, &c) < 0) return -1;
    o->projection = c;
    c = o->projection_metric;
    if (sim_choice(kw, "projection_metric", metric, &c) < 0) return -1;
    o->projection_metric = c;
    c = (int)o->newton_criterion;
    if (sim_choice(kw, "newton_criterion", crit, &c) < 0) return -1;
    o->newton_criterion = (nsm_newton_criterion)c;
    c = (int)o->activation;
    if (sim_choice(kw, "activation", act, &c) < 0) return -1;
    o->activation = (nsm_activation)c;
    struct { const char *name; double *dst; } dbl[] = {
        { "projection_tol", &o->projection_tol }, { "projection_tol_unilateral", &o->projection_tol_unilateral },
        { "newton_tol", &o->newton_tol }, { "activation_gamma", &o->activation_gamma },
        { "stabilization", &o->stabilization }, { "activation_hold", &o->activation_hold },
    };
    PyObject *v;
    for (size_t i = 0; i < sizeof dbl / sizeof dbl[0]; i++)
        if ((v = PyDict_GetItemString(kw, dbl[i].name)) && pyns_get_double(v, dbl[i].name, dbl[i].dst) < 0)
            return -1;
    /* em_gamma=None: h r_{k+1}; a number: Euler-Moreau's h (γ r_{k+1} + (1 − γ) r_k) */
    if ((v = PyDict_GetItemString(kw, "em_gamma")) && v != Py_None) {
        if (pyns_get_double(v, "em_gamma", &o->em_gamma) < 0) return -1;
        o->em_use_gamma = 1;
    }
    long l;
    if ((v = PyDict_GetItemString(kw, "projection_max_iter"))) {
        if (pyns_get_int(v, "projection_max_iter", 1, 1000000L, &l) < 0) return -1;
        o->projection_max_iter = (int)l;
    }
    if ((v = PyDict_GetItemString(kw, "newton_max_iter"))) {
        if (pyns_get_int(v, "newton_max_iter", 1, 1000000L, &l) < 0) return -1;
        o->newton_max_iter = (int)l;
    }
    struct { const char *name; int *dst; } flag[] = {
        { "projection_all", &o->projection_all }, { "gmp", &o->gmp }, { "global_fc", &o->global_fc },
        { "order_by_system", &o->order_by_system },
    };
    for (size_t i = 0; i < sizeof flag / sizeof flag[0]; i++) {
        if (!(v = PyDict_GetItemString(kw, flag[i].name))) continue;
        int b = PyObject_IsTrue(v);
        if (b < 0) return -1;
        *flag[i].dst = b;
    }
    if ((v = PyDict_GetItemString(kw, "gmp_solver")) && v != Py_None) {
        if (!PyUnicode_Check(v) || !(o->gmp_solver = pyns_utf8(v, "gmp_solver"))) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "gmp_solver must be a str");
            return -1;
        }
    }
    return 0;
}

static PyObject *sim_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *mo;
    if (!PyArg_ParseTuple(args, "O!:Simulation", &ModelType, &mo)) return NULL;
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    int rules = rules_arg(kw, "Simulation");
    if (rules < 0) return NULL;
    if (rules) nsm_sim_options_siconos(&o);
    if (pyns_parse_options(kw, &o.solver_options, sim_skip) < 0) return NULL;
    PyObject *v;
    long l;
    int b;
    if (!kw || !(v = PyDict_GetItemString(kw, "h"))) {
        PyErr_SetString(PyExc_TypeError, "Simulation(model, h=..., ...): the time step h is required");
        return NULL;
    }
    if (pyns_get_double(v, "h", &o.h) < 0) return NULL;
    if ((v = PyDict_GetItemString(kw, "theta")) && pyns_get_double(v, "theta", &o.theta) < 0) return NULL;
    if ((v = PyDict_GetItemString(kw, "t0")) && pyns_get_double(v, "t0", &o.t0) < 0) return NULL;
    if ((v = PyDict_GetItemString(kw, "gap_tol")) && pyns_get_double(v, "gap_tol", &o.gap_tol) < 0) return NULL;
    if ((v = PyDict_GetItemString(kw, "warm_start"))) { if ((b = PyObject_IsTrue(v)) < 0) return NULL; o.warm_start = b; }
    if ((v = PyDict_GetItemString(kw, "separating_restitution"))) { if ((b = PyObject_IsTrue(v)) < 0) return NULL; o.separating_restitution = b; }
    if ((v = PyDict_GetItemString(kw, "theta_output"))) { if ((b = PyObject_IsTrue(v)) < 0) return NULL; o.theta_output = b; }
    if ((v = PyDict_GetItemString(kw, "accept_nonconverged"))) { if ((b = PyObject_IsTrue(v)) < 0) return NULL; o.accept_nonconverged = b; }
    if ((v = PyDict_GetItemString(kw, "dump_max"))) { if (pyns_get_int(v, "dump_max", 0, 2147483647L, &l) < 0) return NULL; o.dump_max = l; }
    if ((v = PyDict_GetItemString(kw, "dump_dir")) && v != Py_None) {
        if (!PyUnicode_Check(v) || !(o.dump_dir = pyns_utf8(v, "dump_dir"))) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "dump_dir must be a str");
            return NULL;
        }
    }
    if (sim_more_options(kw, &o) < 0) return NULL;
    if ((v = PyDict_GetItemString(kw, "solver")) && v != Py_None && !pyns_key_is(v, "auto")) {
        if (!PyUnicode_Check(v) || !(o.solver = pyns_utf8(v, "solver"))) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "solver must be a str");
            return NULL;
        }
        /* a solver spec NAME[/key=value]...: the name and keys checked here
         * (against every kind having the name), the kind by nsm_sim_new */
        char sname[NS_SOLVER_NAME_LEN], serr[NS_ERRMSG_LEN] = "";
        ns_options scratch;
        ns_options_default(&scratch);
        ns_status sst = ns_solver_spec_parse(o.solver, NS_KIND_NONE, sname, sizeof sname, &scratch, serr);
        if (sst == NS_NOT_FOUND) {
            PyErr_Format(pyns_InputError, "unknown solver '%s' (nonsmooth.solvers() lists them)", o.solver);
            return NULL;
        }
        if (sst != NS_OK) { PyErr_SetString(pyns_InputError, serr); return NULL; }
    }
    simhook *hook;
    if (simhook_setup(kw, &hook, &o.solve_hook, &o.solve_hook_user, &o.log, &o.log_user, &o.solver_options) < 0)
        return NULL;
    char err[NS_ERRMSG_LEN] = "";
    ((pyns_Model *)mo)->busy++;    /* nsm_sim_new may call the mass callbacks */
    nsm_sim *s = nsm_sim_new(((pyns_Model *)mo)->m, &o, err);
    ((pyns_Model *)mo)->busy--;
    if (!s) { simhook_free(hook); return pyns_raise(NS_BAD_INPUT, err[0] ? err : "Simulation: could not be made"); }
    pyns_Sim *self = (pyns_Sim *)type->tp_alloc(type, 0);
    if (!self) { nsm_sim_free(s); simhook_free(hook); return NULL; }
    self->s = s;
    self->hook = hook;
    Py_INCREF(mo);
    self->model = (pyns_Model *)mo;
    self->kw = kw ? PyDict_Copy(kw) : NULL;
    return (PyObject *)self;
}

static void sim_dealloc(pyns_Sim *self)
{
    PyObject_GC_UnTrack(self);
    nsm_sim_free(self->s);
    simhook_free(self->hook);
    Py_XDECREF(self->model);
    Py_XDECREF(self->kw);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int sim_traverse(pyns_Sim *self, visitproc visit, void *arg)
{
    Py_VISIT(self->model);
    Py_VISIT(self->kw);
    return simhook_traverse(self->hook, visit, arg);
}

/* Breaks a cycle through the hook (a hook that refers to its simulation). */
static int sim_clear(pyns_Sim *self)
{
    simhook_clear(self->hook);
    return 0;
}

/* Exception after a failed step: the callback's own if one is pending. */
static PyObject *step_failed(pyns_Sim *self, ns_status st)
{
    if (PyErr_Occurred()) return NULL;
    const char *e = nsm_sim_error(self->s);
    char msg[NS_ERRMSG_LEN + 64];
    snprintf(msg, sizeof msg, "step %ld at t = %.17g: %s", nsm_sim_step_count(self->s),
             nsm_sim_time(self->s), e && e[0] ? e : ns_status_name(st));
    return pyns_raise(st == NS_OK ? NS_BAD_INPUT : st, msg);
}

static PyObject *sim_step(pyns_Sim *self, PyObject *noargs)
{
    if (sim_busy(self)) return NULL;
    sim_enter(self);
    ns_status st = nsm_sim_step(self->s);
    sim_leave(self);
    if (st != NS_OK || PyErr_Occurred()) return step_failed(self, st);
    Py_RETURN_NONE;
}

/* One recorded column group: a borrowed pointer source re-read each row.
 * what is also the trajectory's group: 0 q, 1 v, 2 x, 3 y, 4 lambda,
 * 5 ydot (y at level 1). */
typedef struct col { int what, id, level, len; } col;
static const char *const traj_names[6] = { "q", "v", "x", "y", "lambda", "ydot" };

/* The rows run() records (Simulation and EventDriven): t, then every
 * column group's values, read through get(src, col). */
typedef struct traj_rec {
    col *cols;
    int nc;
    size_t width;          /* 1 + the columns' lengths */
    double *buf;
    size_t rows, cap;      /* cap: rows allocated (the first allocation takes it as a hint) */
} traj_rec;
typedef const double *(*traj_get_fn)(void *src, const col *c);

static void traj_add(traj_rec *r, int what, int id, int level, int len)
{
    r->cols[r->nc++] = (col){ what, id, level, len };
    r->width += (size_t)len;
}

static int traj_push(traj_rec *r, double t, traj_get_fn get, void *src)
{
    if (!r->buf || r->rows == r->cap) {
        size_t cap = !r->buf ? (r->cap > 0 ? r->cap : 64) : 2 * r->cap;
        double *nb = PyMem_Realloc(r->buf, cap * r->width * sizeof(double));
        if (!nb) { PyErr_NoMemory(); return -1; }
        r->buf = nb;
        r->cap = cap;
    }
    double *row = r->buf + r->rows * r->width;
    *row++ = t;
    for (int c = 0; c < r->nc; c++) {
        const double *x = get(src, &r->cols[c]);
        for (int j = 0; j < r->cols[c].len; j++) row[j] = x ? x[j] : NAN;
        row += r->cols[c].len;
    }
    r->rows++;
    return 0;
}

/* {"t": (rows,), "q": {id: (rows, len)}, "v", "x", "y", "lambda", "ydot"} */
static PyObject *traj_dict(const traj_rec *r)
{
    PyObject *out = PyDict_New(), *groups[6] = { NULL };
    if (!out) return NULL;
    for (int g = 0; g < 6; g++)
        if (!(groups[g] = PyDict_New())) goto fail;
    npy_intp n1 = (npy_intp)r->rows;
    PyObject *t = PyArray_SimpleNew(1, &n1, NPY_DOUBLE);
    if (!t) goto fail;
    for (size_t i = 0; i < r->rows; i++) ((double *)PyArray_DATA((PyArrayObject *)t))[i] = r->buf[i * r->width];
    int rc = PyDict_SetItemString(out, "t", t);
    Py_DECREF(t);
    if (rc < 0) goto fail;
    size_t off = 1;
    for (int c = 0; c < r->nc; c++) {
        npy_intp dims[2] = { (npy_intp)r->rows, r->cols[c].len };
        PyObject *a = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
        if (!a) goto fail;
        double *dst = PyArray_DATA((PyArrayObject *)a);
        for (size_t i = 0; i < r->rows; i++)
            memcpy(dst + i * (size_t)r->cols[c].len, r->buf + i * r->width + off,
                   (size_t)r->cols[c].len * sizeof(double));
        off += (size_t)r->cols[c].len;
        PyObject *key = PyLong_FromLong(r->cols[c].id);
        rc = key ? PyDict_SetItem(groups[r->cols[c].what], key, a) : -1;
        Py_XDECREF(key);
        Py_DECREF(a);
        if (rc < 0) goto fail;
    }
    for (int g = 0; g < 6; g++)
        if (PyDict_SetItemString(out, traj_names[g], groups[g]) < 0) goto fail;
    for (int g = 0; g < 6; g++) Py_DECREF(groups[g]);
    return out;
fail:
    for (int g = 0; g < 6; g++) Py_XDECREF(groups[g]);
    Py_DECREF(out);
    return NULL;
}

static const double *col_ptr(void *src, const col *c)
{
    nsm_sim *s = src;
    switch (c->what) {
    case 0: return nsm_sim_q(s, c->id);
    case 1: return nsm_sim_v(s, c->id);
    case 2: return nsm_sim_x(s, c->id);
    case 3: case 5: return nsm_sim_y(s, c->id, c->level);
    default: return nsm_sim_lambda(s, c->id, c->level);
    }
}

static PyObject *sim_run_steps(pyns_Sim *self, PyObject *args, PyObject *kw);

/* run()'s before_step / after_step: called between steps (the simulation
 * is not stepping then, so the hook may change the model and the state);
 * -1 on an exception, 1 when it returned something true (stop), else 0. */
static int sim_hook_call(pyns_Sim *self, PyObject *fn)
{
    sim_leave(self);
    PyObject *r = PyObject_CallOneArg(fn, (PyObject *)self);
    sim_enter(self);
    if (!r) return -1;
    int stop = PyObject_IsTrue(r);
    Py_DECREF(r);
    return stop;
}

static PyObject *sim_run(pyns_Sim *self, PyObject *args, PyObject *kw)
{
    if (sim_busy(self)) return NULL;
    sim_enter(self);
    PyObject *r = sim_run_steps(self, args, kw);
    sim_leave(self);
    return r;
}

static PyObject *sim_run_steps(pyns_Sim *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "T", "every", "before_step", "after_step", NULL };
    double T;
    long every = 1;
    PyObject *before = Py_None, *after = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "d|l$OO:run", kwlist, &T, &every, &before, &after))
        return NULL;
    if ((before != Py_None && !PyCallable_Check(before)) || (after != Py_None && !PyCallable_Check(after))) {
        PyErr_SetString(PyExc_TypeError, "run: before_step and after_step must be callables (sim) -> bool");
        return NULL;
    }
    if (!isfinite(T)) { PyErr_SetString(PyExc_ValueError, "T must be finite"); return NULL; }
    if (every < 1) { PyErr_SetString(PyExc_ValueError, "every must be >= 1"); return NULL; }
    nsm_sim *s = self->s;
    nsm_model *m = self->model->m;
    int nds = nsm_model_nds(m), cap = nsm_model_inter_capacity(m);
    traj_rec rec = { PyMem_Calloc((size_t)(2 * nds + 3 * cap) + 1, sizeof(col)), 0, 1, NULL, 0, 0 };
    if (!rec.cols) return PyErr_NoMemory();
    for (int d = 0; d < nds; d++) {
        const nsm_ds *ds = nsm_model_ds_const(m, d);
        int n = nsm_ds_size(ds);
        if (nsm_ds_is_lagrangian(ds)) {
            traj_add(&rec, 0, d, 0, nsm_ds_position_size(ds));   /* q: 7 for a rigid body */
            traj_add(&rec, 1, d, 0, n);
        } else {
            traj_add(&rec, 2, d, 0, n);
        }
    }
    for (int i = 0; i < cap; i++) {
        if (!nsm_model_inter_alive(m, i)) continue;
        int n = nsm_model_inter_size(m, i);
        int first = nsm_relation_get_type(nsm_model_relation(m, i)) == NSM_REL_FIRST_ORDER_LINEAR;
        traj_add(&rec, 3, i, 0, n);
        if (!first) traj_add(&rec, 5, i, 1, n);
        traj_add(&rec, 4, i, first ? 0 : 1, n);
    }
    double h = nsm_sim_step_size(s);
    double est = (T - nsm_sim_time(s)) / h / (double)every + 2.0;
    if (est > 64 && est < 1e7) rec.cap = (size_t)est;   /* the first allocation's size */
    PyObject *out = NULL;
    ns_status st = NS_OK;
    for (long k = 0;; k++) {
        if (k % every == 0 && traj_push(&rec, nsm_sim_time(s), col_ptr, s) < 0) goto done;
        if (!(nsm_sim_time(s) < T - 0.5 * h)) break;
        if (before != Py_None) {   /* the model may change here (set_relation, set_state, ...) */
            int stop = sim_hook_call(self, before);
            if (stop < 0) goto done;
            if (stop) break;
        }
        st = nsm_sim_step(s);
        if (st != NS_OK || PyErr_Occurred()) { step_failed(self, st); goto done; }
        if (after != Py_None) {
            int stop = sim_hook_call(self, after);
            if (stop < 0) goto done;
            if (stop) {   /* the state it stopped at is the last row */
                if (traj_push(&rec, nsm_sim_time(s), col_ptr, s) < 0) goto done;
                break;
            }
        }
        if ((k & 1023) == 1023 && PyErr_CheckSignals() < 0) goto done;
        if ((k + 1) % every != 0 && !(nsm_sim_time(s) < T - 0.5 * h)) k = -1; /* record the last state */
    }
    out = traj_dict(&rec);
done:
    PyMem_Free(rec.buf);
    PyMem_Free(rec.cols);
    if (PyErr_Occurred()) { Py_XDECREF(out); return NULL; }
    return out;
}

/* The system id argument of q(ds), v(ds), ... of a simulation of `model`. */
static int ds_arg(pyns_Model *model, PyObject *args, int *ds)
{
    if (!PyArg_ParseTuple(args, "i", ds)) return -1;
    if (*ds < 0 || *ds >= nsm_model_nds(model->m)) {
        PyErr_Format(pyns_InputError, "no system %d", *ds);
        return -1;
    }
    return 0;
}

static PyObject *state(pyns_Sim *self, PyObject *args, int what)
{
    int ds;
    if (ds_arg(self->model, args, &ds) < 0) return NULL;
    const double *x = what == 0 ? nsm_sim_q(self->s, ds) : what == 1 ? nsm_sim_v(self->s, ds)
                    : what == 2 ? nsm_sim_x(self->s, ds) : nsm_sim_p(self->s, ds);
    if (!x) {
        PyErr_Format(pyns_InputError, "system %d has no %s (%s system)", ds,
                     what == 0 ? "q" : what == 1 ? "v" : what == 2 ? "x" : "p",
                     nsm_ds_is_lagrangian(nsm_model_ds_const(self->model->m, ds)) ? "Lagrangian" : "first-order");
        return NULL;
    }
    const nsm_ds *d = nsm_model_ds_const(self->model->m, ds);
    return pyns_array_copy(x, what == 0 ? nsm_ds_position_size(d) : nsm_ds_size(d));
}

static PyObject *sim_q(pyns_Sim *self, PyObject *a) { return state(self, a, 0); }
static PyObject *sim_v(pyns_Sim *self, PyObject *a) { return state(self, a, 1); }
static PyObject *sim_x(pyns_Sim *self, PyObject *a) { return state(self, a, 2); }
static PyObject *sim_p(pyns_Sim *self, PyObject *a) { return state(self, a, 3); }

static PyObject *sim_set_state(pyns_Sim *self, PyObject *args, PyObject *kw)
{
    if (sim_busy(self)) return NULL;
    static char *kwlist[] = { "ds", "q", "v", "x", NULL };
    int ds;
    PyObject *o[3] = { Py_None, Py_None, Py_None };
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|$OOO:set_state", kwlist, &ds, &o[0], &o[1], &o[2]))
        return NULL;
    if (ds < 0 || ds >= nsm_model_nds(self->model->m)) {
        PyErr_Format(pyns_InputError, "no system %d", ds);
        return NULL;
    }
    const nsm_ds *dd = nsm_model_ds_const(self->model->m, ds);
    const char *nm[3] = { "q", "v", "x" };
    for (int i = 0; i < 3; i++) {
        if (o[i] == Py_None) continue;
        int n = i == 0 ? nsm_ds_position_size(dd) : nsm_ds_size(dd);
        double *dst = i == 0 ? nsm_sim_q(self->s, ds) : i == 1 ? nsm_sim_v(self->s, ds) : nsm_sim_x(self->s, ds);
        if (!dst) { PyErr_Format(pyns_InputError, "system %d has no %s", ds, nm[i]); return NULL; }
        PyArrayObject *a = fvec(o[i], nm[i], n);
        if (!a) return NULL;
        memcpy(dst, PyArray_DATA(a), (size_t)n * sizeof(double));
        Py_DECREF(a);
    }
    Py_RETURN_NONE;
}

/* Bulk state of the Lagrangian systems, in system id order (first-order
 * systems are left out): offsets[d] .. offsets[d + 1] are system d's
 * entries (equal offsets: a first-order system). */
static PyObject *sim_state(pyns_Sim *self, PyObject *noargs)
{
    nsm_model *m = self->model->m;
    int nds = nsm_model_nds(m);
    npy_intp total = 0, no = (npy_intp)nds + 1;
    for (int d = 0; d < nds; d++)
        if (nsm_ds_is_lagrangian(nsm_model_ds_const(m, d))) total += nsm_ds_size(nsm_model_ds_const(m, d));
    PyObject *q = PyArray_SimpleNew(1, &total, NPY_DOUBLE), *v = PyArray_SimpleNew(1, &total, NPY_DOUBLE);
    PyObject *off = PyArray_SimpleNew(1, &no, NPY_INTP);
    if (!q || !v || !off) { Py_XDECREF(q); Py_XDECREF(v); Py_XDECREF(off); return NULL; }
    double *qd = PyArray_DATA((PyArrayObject *)q), *vd = PyArray_DATA((PyArrayObject *)v);
    npy_intp *od = PyArray_DATA((PyArrayObject *)off), k = 0;
    for (int d = 0; d < nds; d++) {
        od[d] = k;
        const nsm_ds *ds = nsm_model_ds_const(m, d);
        if (!nsm_ds_is_lagrangian(ds)) continue;
        int n = nsm_ds_size(ds);
        memcpy(qd + k, nsm_sim_q(self->s, d), (size_t)n * sizeof(double));
        memcpy(vd + k, nsm_sim_v(self->s, d), (size_t)n * sizeof(double));
        k += n;
    }
    od[nds] = k;
    return Py_BuildValue("{s:N,s:N,s:N}", "q", q, "v", v, "offsets", off);
}

static PyObject *sim_set_states(pyns_Sim *self, PyObject *args, PyObject *kw)
{
    if (sim_busy(self)) return NULL;
    static char *kwlist[] = { "q", "v", NULL };
    PyObject *o[2] = { Py_None, Py_None };
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$OO:set_states", kwlist, &o[0], &o[1])) return NULL;
    nsm_model *m = self->model->m;
    int nds = nsm_model_nds(m);
    npy_intp total = 0;
    for (int d = 0; d < nds; d++)
        if (nsm_ds_is_lagrangian(nsm_model_ds_const(m, d))) total += nsm_ds_size(nsm_model_ds_const(m, d));
    PyArrayObject *a[2] = { NULL, NULL };
    for (int i = 0; i < 2; i++)   /* both checked before either is written */
        if (o[i] != Py_None && !(a[i] = fvec(o[i], i ? "v" : "q", total))) { Py_XDECREF(a[0]); return NULL; }
    for (int i = 0; i < 2; i++) {
        if (!a[i]) continue;
        const double *src = PyArray_DATA(a[i]);
        for (int d = 0; d < nds; d++) {
            const nsm_ds *ds = nsm_model_ds_const(m, d);
            if (!nsm_ds_is_lagrangian(ds)) continue;
            int n = nsm_ds_size(ds);
            memcpy(i ? nsm_sim_v(self->s, d) : nsm_sim_q(self->s, d), src, (size_t)n * sizeof(double));
            src += n;
        }
        Py_DECREF(a[i]);
    }
    Py_RETURN_NONE;
}

/* level=None (or left out): the natural level (lam: 1 for Lagrangian
 * interactions, 0 for first-order ones; y: 0) */
static int level_arg(PyObject *o, int *level)
{
    if (!o || o == Py_None) return 0;
    long l;
    if (pyns_get_int(o, "level", 0, 2, &l) < 0) return -1;
    *level = (int)l;
    return 0;
}

static PyObject *inter_vec(pyns_Sim *self, PyObject *args, PyObject *kw, int lam)
{
    static char *kwlist[] = { "inter", "level", NULL };
    int id, level = -1;
    PyObject *lo = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, lam ? "i|O:lam" : "i|O:y", kwlist, &id, &lo) ||
        level_arg(lo, &level) < 0)
        return NULL;
    nsm_model *m = self->model->m;
    if (!nsm_model_inter_alive(m, id)) { PyErr_Format(pyns_InputError, "no interaction %d", id); return NULL; }
    int first = nsm_relation_get_type(nsm_model_relation(m, id)) == NSM_REL_FIRST_ORDER_LINEAR;
    if (level < 0) level = lam && !first ? 1 : 0;
    const double *x = lam ? nsm_sim_lambda(self->s, id, level) : nsm_sim_y(self->s, id, level);
    if (!x) {
        PyErr_Format(pyns_InputError, "interaction %d has no %s[%d] (yet)", id, lam ? "lambda" : "y", level);
        return NULL;
    }
    return pyns_array_copy(x, nsm_model_inter_size(m, id));
}

static PyObject *sim_y(pyns_Sim *self, PyObject *a, PyObject *kw) { return inter_vec(self, a, kw, 0); }
static PyObject *sim_lam(pyns_Sim *self, PyObject *a, PyObject *kw) { return inter_vec(self, a, kw, 1); }

static PyObject *sim_kinetic_energy(pyns_Sim *self, PyObject *args)
{
    int ds;
    if (ds_arg(self->model, args, &ds) < 0) return NULL;
    return PyFloat_FromDouble(nsm_sim_kinetic_energy(self->s, ds));
}

static PyObject *sim_index_set(pyns_Sim *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "level", NULL };
    int level = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|i:index_set", kwlist, &level)) return NULL;
    int cap = nsm_model_inter_capacity(self->model->m) + 1;
    int *ids = PyMem_Malloc((size_t)cap * sizeof(int));
    if (!ids) return PyErr_NoMemory();
    int n = nsm_sim_index_set(self->s, level, ids, cap);
    if (n > cap) n = cap;
    PyObject *l = PyList_New(n > 0 ? n : 0);
    for (int i = 0; l && i < n; i++) PyList_SET_ITEM(l, i, PyLong_FromLong(ids[i]));
    PyMem_Free(ids);
    return l;
}

static PyObject *sim_t(pyns_Sim *self, void *c) { return PyFloat_FromDouble(nsm_sim_time(self->s)); }
static PyObject *sim_h(pyns_Sim *self, void *c) { return PyFloat_FromDouble(nsm_sim_step_size(self->s)); }
static PyObject *sim_steps(pyns_Sim *self, void *c) { return PyLong_FromLong(nsm_sim_step_count(self->s)); }
static PyObject *sim_model(pyns_Sim *self, void *c) { Py_INCREF(self->model); return (PyObject *)self->model; }

static PyObject *sim_stats(pyns_Sim *self, void *c)
{
    const nsm_sim_stats *st = nsm_sim_get_stats(self->s);
    return Py_BuildValue("{s:l,s:l,s:l,s:l,s:l,s:l,s:d,s:l,s:l,s:i,s:l,s:l,s:l,s:l,s:d,s:d}", "steps",
                         st->steps, "solves", st->solves, "nonconverged", st->nonconverged, "rebuilds",
                         st->rebuilds, "refills", st->refills, "reuses", st->reuses, "solver_seconds",
                         st->solver_seconds, "solver_iterations", st->solver_iterations,
                         "newton_iterations", st->newton_iterations, "newton_max", st->newton_max,
                         "newton_nonconverged", st->newton_nonconverged, "projection_iterations",
                         st->projection_iterations, "projection_nonconverged", st->projection_nonconverged,
                         "projection_passes", st->projection_passes, "projection_violation",
                         st->projection_violation, "projection_violation_max", st->projection_violation_max);
}

static PyObject *sim_last_result(pyns_Sim *self, void *c)
{
    const ns_problem *p = nsm_sim_problem(self->s);
    const ns_result *r = nsm_sim_last_result(self->s);
    if (!p || !r) Py_RETURN_NONE;
    return Py_BuildValue("{s:s,s:s,s:d,s:i,s:d,s:s,s:i}", "kind", ns_kind_name(p->kind), "status",
                         ns_status_name(r->status), "error", r->error, "iterations", r->iterations,
                         "seconds", r->seconds, "message", r->message, "size", (int)ns_problem_size(p));
}

static PyObject *sim_repr(pyns_Sim *self)
{
    char t[32], h[32];
    snprintf(t, sizeof t, "%.6g", nsm_sim_time(self->s));
    snprintf(h, sizeof h, "%.6g", nsm_sim_step_size(self->s));
    return PyUnicode_FromFormat("<nonsmooth.Simulation: t = %s, h = %s, %ld step(s)>", t, h,
                                nsm_sim_step_count(self->s));
}

static PyMethodDef sim_methods[] = {
    { "step", (PyCFunction)sim_step, METH_NOARGS, "step(): one time step." },
    { "run", (PyCFunction)(void (*)(void))sim_run, METH_VARARGS | METH_KEYWORDS,
      "run(T, every=1, *, before_step=None, after_step=None) -> dict: steps while t < T and "
      "returns the trajectory as NumPy arrays; before_step(sim) / after_step(sim) are called "
      "around every step (they may change the model: set_relation, add_interaction, set_state; "
      "a true return value stops the run; interactions added after the start are not in the "
      "trajectory): "
      "'t' (N,), and dicts keyed by id of (N, n) arrays: 'q', 'v' (Lagrangian systems), 'x' "
      "(first order), 'y', 'ydot' (Lagrangian interactions), 'lambda' (impulse P of the step for "
      "Lagrangian interactions, lambda for first-order ones). Row 0 is the state at the start; "
      "then every `every` steps and the last one." },
    { "q", (PyCFunction)sim_q, METH_VARARGS, "q(ds) -> positions (copy)." },
    { "v", (PyCFunction)sim_v, METH_VARARGS, "v(ds) -> velocities (copy)." },
    { "state", (PyCFunction)sim_state, METH_NOARGS,
      "state($self)\n--\n\nThe q and v of every Lagrangian system at once: dict with 'q', 'v' "
      "(concatenated in system id order, copies) and 'offsets' (system d: offsets[d]:offsets[d+1])." },
    { "set_states", (PyCFunction)(void (*)(void))sim_set_states, METH_VARARGS | METH_KEYWORDS,
      "set_states($self, *, q=None, v=None)\n--\n\nOverwrites the q and/or v of every Lagrangian "
      "system at once (layout of state()), between steps." },
    { "x", (PyCFunction)sim_x, METH_VARARGS, "x(ds) -> first-order state (copy)." },
    { "p", (PyCFunction)sim_p, METH_VARARGS, "p(ds) -> impulse / input r put on ds by the last step." },
    { "set_state", (PyCFunction)(void (*)(void))sim_set_state, METH_VARARGS | METH_KEYWORDS,
      "set_state(ds, *, q=None, v=None, x=None): overwrites a state between steps." },
    { "y", (PyCFunction)(void (*)(void))sim_y, METH_VARARGS | METH_KEYWORDS,
      "y($self, inter, level=0)\n--\n\nOutput y[level] of an interaction (copy)." },
    { "lam", (PyCFunction)(void (*)(void))sim_lam, METH_VARARGS | METH_KEYWORDS,
      "lam($self, inter, level=None)\n--\n\nlambda[level] of an interaction (copy); default level: "
      "1 (impulse P) for Lagrangian, 0 for first-order interactions." },
    { "kinetic_energy", (PyCFunction)sim_kinetic_energy, METH_VARARGS, "kinetic_energy(ds) -> 1/2 v'Mv." },
    { "index_set", (PyCFunction)(void (*)(void))sim_index_set, METH_VARARGS | METH_KEYWORDS,
      "index_set($self, level=1)\n--\n\nList of the ids of the interactions in index set I_level." },
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef sim_getset[] = {
    { "t", (getter)sim_t, NULL, "current time", NULL },
    { "h", (getter)sim_h, NULL, "time step", NULL },
    { "steps", (getter)sim_steps, NULL, "steps taken", NULL },
    { "model", (getter)sim_model, NULL, "the Model", NULL },
    { "stats", (getter)sim_stats, NULL, "dict of counters (steps, solves, nonconverged, ...)", NULL },
    { "last_result", (getter)sim_last_result, NULL, "dict of the last one-step solve, or None", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject SimType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nonsmooth.Simulation",
    .tp_basicsize = sizeof(pyns_Sim),
    .tp_dealloc = (destructor)sim_dealloc,
    .tp_repr = (reprfunc)sim_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)sim_traverse,
    .tp_clear = (inquiry)sim_clear,
    .tp_doc = "Simulation(model, *, h, theta=0.5, t0=0, solver=None, warm_start=True, gap_tol=1e-12, "
              "separating_restitution=True, theta_output=False, accept_nonconverged=False, dump_dir=None, "
              "dump_max=0, projection='none'|'direct'|'combined', projection_tol=1e-10, "
              "projection_tol_unilateral=1e-10, projection_max_iter=10, projection_metric='identity'|'mass', "
              "projection_all=False, newton_tol=1e-10, newton_max_iter=20, "
              "newton_criterion='relative'|'abs_norm2', activation='gamma'|'predicted', activation_gamma=0.5, "
              "gmp=False, gmp_solver=None, global_fc=False, order_by_system=False, solve_hook=None, "
              "rules='default'|'siconos' (Siconos' rules first, the other keywords over them), "
              "linearisation='iterate'|'step_start', em_gamma=None (Euler-Moreau gamma), stabilization=0, activation_hold=0, "
              "log=None (log(level, message)), verbosity=1, "
              "tol=1e-8, max_iter=0, ... (solve() options)): Moreau-Jean / Euler-Moreau time-stepping "
              "(the options of nsm_sim_options, docs/mechanics-api.md).",
    .tp_methods = sim_methods,
    .tp_getset = sim_getset,
    .tp_new = sim_new,
};

/* ============================================================ EventDriven */
/* nsm_event_driven.h from Python: CVODE between events, impact / closing /
 * release treatment at them. The object keeps its Model alive and frozen
 * (nsm_ed_new takes the model's systems and contact rows once: adding or
 * removing anything afterwards is refused by model_busy). Callbacks (the
 * model's and run()'s observer) run with the GIL held, as for Simulation;
 * one that raises stops the run and its exception comes out of run() /
 * step(). Built only with SUNDIALS (NSM_HAVE_EVENT_DRIVEN); otherwise the
 * constructor raises UnsupportedError. */

typedef struct {
    PyObject_HEAD
    nsm_ed *s;
    pyns_Model *model;
    PyObject *kw;     /* keeps the option strings alive */
    simhook *hook;    /* NULL without solve_hook */
    int busy;         /* 1 while running: callbacks may not run or change it */
    double t0, T, dt; /* the output grid (for run(until)) */
} pyns_ED;

static PyTypeObject EDType;

static int ed_busy(pyns_ED *self)
{
    if (!self->busy) return 0;
    PyErr_SetString(PyExc_RuntimeError, "the event-driven simulation is running: it cannot be run "
                    "or changed from one of its callbacks");
    return 1;
}

#ifdef NSM_HAVE_EVENT_DRIVEN
static const char *const ed_type_names[] = { "time", "nonsmooth", "user" };
static const char *const ed_root_names[] = { "none", "close", "release" };

static PyObject *ed_event_dict(const nsm_event *ev)
{
    int ty = ev->type >= 0 && ev->type < NSM_EVENT_NTYPES ? (int)ev->type : 0;
    int rk = ev->root >= NSM_ROOT_NONE && ev->root <= NSM_ROOT_RELEASE ? (int)ev->root : 0;
    return Py_BuildValue("{s:d,s:s,s:i,s:i,s:s,s:i,s:i,s:N,s:i,s:i,s:d,s:d}", "t", ev->t, "type",
                         ed_type_names[ty], "inter", ev->inter, "comp", ev->comp, "root",
                         ed_root_names[rk], "direction", ev->direction, "nroots", ev->nroots,
                         "impact", PyBool_FromLong(ev->impact), "rested", ev->rested, "released",
                         ev->released, "y1_before", ev->y1_before, "y1_after", ev->y1_after);
}
#endif

#ifdef NSM_HAVE_EVENT_DRIVEN
/* EventDriven's own keywords; any other is a solve() option of the LCPs. */
static const char *const ed_keys[] = { "T", "t0", "output_step", "method", "fixed_point", "linear_solver", "rtol",
                                       "atol", "hmin", "hmax", "max_steps", "gap_tol", "vel_tol",
                                       "rest_vel", "rest_gap", "lambda_tol", "acc_tol", "solver",
                                       "history", "accept_nonconverged", "solve_hook", "log",
                                       "verbosity", "rules", NULL };
static const char *const solve_keys[] = { "tol", "max_iter", "time_limit", "omega", "check_every",
                                          "shuffle", "seed", "record_history", "local_solver",
                                          "fc_norm", NULL };
#endif

static PyObject *ed_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *mo;
    if (!PyArg_ParseTuple(args, "O!:EventDriven", &ModelType, &mo)) return NULL;
#ifndef NSM_HAVE_EVENT_DRIVEN
    (void)type; (void)kw;
    return pyns_raise(NS_UNSUPPORTED, "EventDriven: this build has no event-driven scheme (it "
                      "needs SUNDIALS CVODE at configure time)");
#else
    /* unknown keywords: an error naming them and listing the options */
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (kw && PyDict_Next(kw, &pos, &k, &v)) {
        int known = 0;
        for (const char *const *n = ed_keys; *n && !known; n++) known = pyns_key_is(k, *n);
        for (const char *const *n = solve_keys; *n && !known; n++) known = pyns_key_is(k, *n);
        if (!known) {
            PyErr_Format(PyExc_ValueError, "EventDriven: unknown option '%S' (options: T, t0, "
                         "output_step, method, fixed_point, linear_solver, rtol, atol, hmin, hmax, max_steps, "
                         "gap_tol, vel_tol, rest_vel, rest_gap, lambda_tol, acc_tol, solver, history, "
                         "accept_nonconverged, solve_hook, log, verbosity, rules, and the solve() options tol, "
                         "max_iter, ...)", k);
            return NULL;
        }
    }
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    int rules = rules_arg(kw, "EventDriven");
    if (rules < 0) return NULL;
    if (rules) nsm_ed_options_siconos(&o);
    if (pyns_parse_options(kw, &o.solver_options, ed_keys) < 0) return NULL;
    if (!kw || !(v = PyDict_GetItemString(kw, "T"))) {
        PyErr_SetString(PyExc_TypeError, "EventDriven(model, T=..., ...): the final time T is required");
        return NULL;
    }
    struct { const char *name; double *dst; } dbl[] = {
        { "T", &o.T }, { "t0", &o.t0 }, { "output_step", &o.output_step }, { "rtol", &o.rtol },
        { "atol", &o.atol }, { "hmin", &o.hmin }, { "hmax", &o.hmax }, { "gap_tol", &o.gap_tol },
        { "vel_tol", &o.vel_tol }, { "rest_vel", &o.rest_vel }, { "rest_gap", &o.rest_gap },
        { "lambda_tol", &o.lambda_tol }, { "acc_tol", &o.acc_tol },
    };
    for (size_t i = 0; i < sizeof dbl / sizeof dbl[0]; i++) {
        if (!(v = PyDict_GetItemString(kw, dbl[i].name))) continue;
        if (pyns_get_double(v, dbl[i].name, dbl[i].dst) < 0) return NULL;
        if (!isfinite(*dbl[i].dst)) {
            PyErr_Format(pyns_InputError, "EventDriven: %s must be finite", dbl[i].name);
            return NULL;
        }
    }
    long l;
    int b;
    if ((v = PyDict_GetItemString(kw, "max_steps"))) {
        if (pyns_get_int(v, "max_steps", 1, 2147483647L, &l) < 0) return NULL;
        o.max_steps = l;
    }
    if ((v = PyDict_GetItemString(kw, "history"))) {
        /* the ring is allocated up front: 10^6 events are ~90 MB */
        if (pyns_get_int(v, "history", 1, 1000000L, &l) < 0) return NULL;
        o.history = l;
    }
    if ((v = PyDict_GetItemString(kw, "fixed_point"))) { if ((b = PyObject_IsTrue(v)) < 0) return NULL; o.fixed_point = b; }
    if ((v = PyDict_GetItemString(kw, "accept_nonconverged"))) { if ((b = PyObject_IsTrue(v)) < 0) return NULL; o.accept_nonconverged = b; }
    if ((v = PyDict_GetItemString(kw, "method"))) {
        if (pyns_key_is(v, "adams")) o.method = NSM_ED_ADAMS;
        else if (pyns_key_is(v, "bdf")) o.method = NSM_ED_BDF;
        else { PyErr_Format(PyExc_ValueError, "EventDriven: method must be 'adams' or 'bdf', not %R", v); return NULL; }
    }
    if ((v = PyDict_GetItemString(kw, "linear_solver"))) {
        if (pyns_key_is(v, "auto")) o.linear_solver = NSM_ED_LS_AUTO;
        else if (pyns_key_is(v, "dense")) o.linear_solver = NSM_ED_LS_DENSE;
        else if (pyns_key_is(v, "krylov")) o.linear_solver = NSM_ED_LS_KRYLOV;
        else {
            PyErr_Format(PyExc_ValueError, "EventDriven: linear_solver must be 'auto', 'dense' or 'krylov', not %R", v);
            return NULL;
        }
    }
    if ((v = PyDict_GetItemString(kw, "solver")) && v != Py_None) {
        const char *name;
        if (pyns_solver_name(v, NS_KIND_LCP, &name) < 0) return NULL;
        o.solver = name;   /* stays valid: self->kw keeps the str */
    }
    simhook *hook;
    if (simhook_setup(kw, &hook, &o.solve_hook, &o.solve_hook_user, &o.log, &o.log_user, &o.solver_options) < 0)
        return NULL;
    char err[NS_ERRMSG_LEN] = "";
    pyns_Model *model = (pyns_Model *)mo;
    model->busy++;    /* nsm_ed_new calls the mass (and relation) callbacks */
    nsm_ed *s = nsm_ed_new(model->m, &o, err);
    model->busy--;
    if (!s) { simhook_free(hook); return pyns_raise(NS_BAD_INPUT, err[0] ? err : "EventDriven: could not be made"); }
    pyns_ED *self = (pyns_ED *)type->tp_alloc(type, 0);
    if (!self) { nsm_ed_free(s); simhook_free(hook); return NULL; }
    self->s = s;
    self->hook = hook;
    Py_INCREF(mo);
    self->model = model;
    model->frozen++;
    self->kw = kw ? PyDict_Copy(kw) : NULL;
    self->t0 = o.t0;
    self->T = o.T;
    self->dt = o.output_step > 0 ? o.output_step : (o.T - o.t0) / 1000.0;
    return (PyObject *)self;
#endif
}

static void ed_dealloc(pyns_ED *self)
{
    PyObject_GC_UnTrack(self);
#ifdef NSM_HAVE_EVENT_DRIVEN
    nsm_ed_free(self->s);
#endif
    simhook_free(self->hook);
    if (self->model) self->model->frozen--;
    Py_XDECREF(self->model);
    Py_XDECREF(self->kw);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ed_traverse(pyns_ED *self, visitproc visit, void *arg)
{
    Py_VISIT(self->model);
    Py_VISIT(self->kw);
    return simhook_traverse(self->hook, visit, arg);
}

static int ed_clear(pyns_ED *self)
{
    simhook_clear(self->hook);
    return 0;
}

#ifdef NSM_HAVE_EVENT_DRIVEN
/* Recording of run(): one row per processed event. Columns as in
 * Simulation.run: what 0 q, 1 v, 3 y[0], 5 y[1] (ydot), 4 lambda[2]. */
typedef struct edrec {
    pyns_ED *self;
    traj_rec rec;         /* no columns (rec.cols NULL): step(), nothing recorded */
    PyObject *types;      /* list of event type names, one per row */
    PyObject *observer;   /* run(observer=...) or NULL */
    double until;
    int one;              /* step(): stop after one event */
    long count;
    PyObject *last;       /* step(): the event's dict */
} edrec;

static const double *ed_col(void *src, const col *c)
{
    nsm_ed *s = src;
    switch (c->what) {
    case 0: return nsm_ed_q(s, c->id);
    case 1: return nsm_ed_v(s, c->id);
    case 3: return nsm_ed_y(s, c->id, 0);
    case 5: return nsm_ed_y(s, c->id, 1);
    default: return nsm_ed_lambda(s, c->id, 2);
    }
}

static int edrec_row(edrec *r, const char *type)
{
    if (!r->rec.cols) return 0;
    if (traj_push(&r->rec, nsm_ed_time(r->self->s), ed_col, r->self->s) < 0) return -1;
    PyObject *ty = PyUnicode_InternFromString(type);
    if (!ty || PyList_Append(r->types, ty) < 0) { Py_XDECREF(ty); return -1; }
    Py_DECREF(ty);
    return 0;
}

static int ed_observe(nsm_ed *s, const nsm_event *ev, void *user)
{
    edrec *r = user;
    (void)s;
    if (PyErr_Occurred()) return -1;
    int ty = ev->type >= 0 && ev->type < NSM_EVENT_NTYPES ? (int)ev->type : 0;
    if (edrec_row(r, ed_type_names[ty]) < 0) return -1;
    r->count++;
    if (r->one) {
        r->last = ed_event_dict(ev);
        return -1;
    }
    if (r->observer) {
        PyObject *d = ed_event_dict(ev);
        if (!d) return -1;
        PyObject *res = PyObject_CallFunctionObjArgs(r->observer, (PyObject *)r->self, d, NULL);
        Py_DECREF(d);
        if (!res) return -1;
        int stop = res == Py_True;
        Py_DECREF(res);
        if (stop) return -1;
    }
    if ((r->count & 1023) == 0 && PyErr_CheckSignals() < 0) return -1;
    return ev->t >= r->until ? -1 : 0;
}

/* Runs the events (all, up to until, or one) recording rows if cols. */
static ns_status ed_drive(pyns_ED *self, edrec *r)
{
    self->busy = 1;
    self->model->busy++;
    ns_status st = nsm_ed_run(self->s, ed_observe, r);
    self->busy = 0;
    self->model->busy--;
    return st;
}

static PyObject *ed_failed(pyns_ED *self, ns_status st)
{
    if (PyErr_Occurred()) return NULL;
    const char *e = nsm_ed_error(self->s);
    char msg[NS_ERRMSG_LEN + 64];
    snprintf(msg, sizeof msg, "event-driven run at t = %.17g: %s", nsm_ed_time(self->s),
             e && e[0] ? e : ns_status_name(st));
    return pyns_raise(st == NS_OK ? NS_BAD_INPUT : st, msg);
}

static PyObject *ed_traj(edrec *r)
{
    PyObject *out = traj_dict(&r->rec);
    if (!out) return NULL;
    PyObject *ev = PyArray_FROM_O(r->types);   /* str array: "start", "time", "nonsmooth", "user" */
    int rc = ev ? PyDict_SetItemString(out, "event", ev) : -1;
    Py_XDECREF(ev);
    if (rc < 0) { Py_DECREF(out); return NULL; }
    return out;
}
#endif

static PyObject *ed_run(pyns_ED *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "until", "observer", NULL };
    PyObject *untilo = Py_None, *obs = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:run", kwlist, &untilo, &obs)) return NULL;
    if (ed_busy(self)) return NULL;
    if (obs != Py_None && !PyCallable_Check(obs)) {
        PyErr_SetString(PyExc_TypeError, "observer must be callable (observer(ed, event) -> True to stop)");
        return NULL;
    }
#ifndef NSM_HAVE_EVENT_DRIVEN
    return pyns_raise(NS_UNSUPPORTED, "EventDriven: not built");
#else
    double until = INFINITY;
    if (untilo != Py_None) {
        if (pyns_get_double(untilo, "until", &until) < 0) return NULL;
        if (!isfinite(until)) { PyErr_SetString(PyExc_ValueError, "until must be finite (or None: up to T)"); return NULL; }
        double t = nsm_ed_time(self->s);
        if (!(until > t)) {
            char msg[160];
            snprintf(msg, sizeof msg, "run: until = %.17g must be after the current time %.17g", until, t);
            return pyns_raise(NS_BAD_INPUT, msg);
        }
        if (until > self->T) {
            char msg[160];
            snprintf(msg, sizeof msg, "run: until = %.17g is after the final time T = %.17g given to "
                     "EventDriven", until, self->T);
            return pyns_raise(NS_BAD_INPUT, msg);
        }
        /* stop exactly at until: a user event there unless the output grid has one */
        double k = nearbyint((until - self->t0) / self->dt);
        if (fabs(self->t0 + k * self->dt - until) > 1e-12 * fmax(1.0, fabs(until)) &&
            nsm_ed_add_event(self->s, until) != NS_OK)
            return PyErr_NoMemory();
    }
    nsm_model *m = self->model->m;
    int nds = nsm_model_nds(m), cap = nsm_model_inter_capacity(m);
    edrec r = { 0 };
    r.self = self;
    r.until = until;
    r.observer = obs != Py_None ? obs : NULL;
    r.rec.cols = PyMem_Calloc((size_t)(2 * nds + 3 * cap) + 1, sizeof(col));
    r.rec.width = 1;
    r.rec.cap = 256;
    r.types = PyList_New(0);
    PyObject *out = NULL;
    if (!r.rec.cols || !r.types) { PyErr_NoMemory(); goto done; }
    for (int d = 0; d < nds; d++) {
        int n = nsm_ds_size(nsm_model_ds_const(m, d));
        traj_add(&r.rec, 0, d, 0, n);
        traj_add(&r.rec, 1, d, 0, n);
    }
    for (int i = 0; i < cap; i++) {
        if (!nsm_model_inter_alive(m, i)) continue;
        int n = nsm_model_inter_size(m, i);
        traj_add(&r.rec, 3, i, 0, n);
        traj_add(&r.rec, 5, i, 1, n);
        traj_add(&r.rec, 4, i, 2, n);
    }
    if (edrec_row(&r, "start") < 0) goto done;
    ns_status st = nsm_ed_has_next_event(self->s) ? ed_drive(self, &r) : NS_OK;
    if (st != NS_OK || PyErr_Occurred()) { ed_failed(self, st); goto done; }
    out = ed_traj(&r);
done:
    PyMem_Free(r.rec.cols);
    PyMem_Free(r.rec.buf);
    Py_XDECREF(r.types);
    return out;
#endif
}

#ifdef NSM_HAVE_EVENT_DRIVEN
static PyObject *ed_step(pyns_ED *self, PyObject *noargs)
{
    if (ed_busy(self)) return NULL;
    if (!nsm_ed_has_next_event(self->s)) Py_RETURN_NONE;
    edrec r = { 0 };
    r.self = self;
    r.until = INFINITY;
    r.one = 1;
    ns_status st = ed_drive(self, &r);
    if (st != NS_OK || PyErr_Occurred()) { Py_XDECREF(r.last); return ed_failed(self, st); }
    if (!r.last) return ed_failed(self, st);
    return r.last;
}

static PyObject *ed_add_event(pyns_ED *self, PyObject *arg)
{
    if (ed_busy(self)) return NULL;
    double t;
    if (pyns_get_double(arg, "t", &t) < 0) return NULL;
    if (nsm_ed_add_event(self->s, t) != NS_OK) {
        char msg[160];
        snprintf(msg, sizeof msg, "add_event: t = %.17g must be after the current time %.17g and "
                 "at most T = %.17g", t, nsm_ed_time(self->s), self->T);
        return pyns_raise(NS_BAD_INPUT, msg);
    }
    Py_RETURN_NONE;
}

/* Switching schemes on one model (nsm_ed_set_state_from_sim / copy_state_to_sim). */
static PyObject *ed_switch(pyns_ED *self, PyObject *arg, int from)
{
    if (ed_busy(self)) return NULL;
    if (!PyObject_TypeCheck(arg, &SimType)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a nonsmooth.Simulation, not %.100s",
                     from ? "set_state_from" : "copy_state_to", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    pyns_Sim *sim = (pyns_Sim *)arg;
    if (sim_busy(sim)) return NULL;
    if (sim->model != self->model)
        return pyns_raise(NS_BAD_INPUT, "the Simulation and the EventDriven must share one Model");
    if (from && !(nsm_sim_time(sim->s) < self->T)) {
        char msg[160];
        snprintf(msg, sizeof msg, "set_state_from: the simulation's time %.17g is not before T = %.17g",
                 nsm_sim_time(sim->s), self->T);
        return pyns_raise(NS_BAD_INPUT, msg);
    }
    self->model->busy++;    /* the restart computes the kinematics (callbacks) */
    ns_status st = from ? nsm_ed_set_state_from_sim(self->s, sim->s) : nsm_ed_copy_state_to_sim(self->s, sim->s);
    self->model->busy--;
    if (PyErr_Occurred()) return NULL;
    if (st != NS_OK) return pyns_raise(st, from ? "set_state_from: the state could not be taken "
                                                  "(kinematics failed)" : "copy_state_to failed");
    Py_RETURN_NONE;
}
static PyObject *ed_set_state_from(pyns_ED *self, PyObject *a) { return ed_switch(self, a, 1); }
static PyObject *ed_copy_state_to(pyns_ED *self, PyObject *a) { return ed_switch(self, a, 0); }

static PyObject *ed_state(pyns_ED *self, PyObject *args, int v)
{
    int ds;
    if (ds_arg(self->model, args, &ds) < 0) return NULL;
    const double *x = v ? nsm_ed_v(self->s, ds) : nsm_ed_q(self->s, ds);
    return pyns_array_copy(x, nsm_ds_size(nsm_model_ds_const(self->model->m, ds)));
}
static PyObject *ed_q(pyns_ED *self, PyObject *a) { return ed_state(self, a, 0); }
static PyObject *ed_qdd(pyns_ED *self, PyObject *args)
{
    int ds;
    if (ds_arg(self->model, args, &ds) < 0) return NULL;
    return pyns_array_copy(nsm_ed_acceleration(self->s, ds), nsm_ds_size(nsm_model_ds_const(self->model->m, ds)));
}
static PyObject *ed_v(pyns_ED *self, PyObject *a) { return ed_state(self, a, 1); }

static PyObject *ed_set_state(pyns_ED *self, PyObject *args, PyObject *kw)
{
    if (ed_busy(self)) return NULL;
    static char *kwlist[] = { "ds", "q", "v", NULL };
    int ds;
    PyObject *o[2] = { Py_None, Py_None };
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|$OO:set_state", kwlist, &ds, &o[0], &o[1]))
        return NULL;
    if (ds < 0 || ds >= nsm_model_nds(self->model->m)) {
        PyErr_Format(pyns_InputError, "no system %d", ds);
        return NULL;
    }
    int n = nsm_ds_size(nsm_model_ds_const(self->model->m, ds));
    PyArrayObject *a[2] = { NULL, NULL };
    for (int i = 0; i < 2; i++)
        if (o[i] != Py_None && !(a[i] = fvec(o[i], i ? "v" : "q", n))) { Py_XDECREF(a[0]); return NULL; }
    for (int i = 0; i < 2; i++) {
        if (!a[i]) continue;
        memcpy(i ? nsm_ed_v(self->s, ds) : nsm_ed_q(self->s, ds), PyArray_DATA(a[i]), (size_t)n * sizeof(double));
        Py_DECREF(a[i]);
    }
    self->model->busy++;
    nsm_ed_reinit(self->s);   /* y, index sets from the new state; CVODE restarts */
    self->model->busy--;
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyObject *ed_inter_vec(pyns_ED *self, PyObject *args, PyObject *kw, int lam)
{
    static char *kwlist[] = { "inter", "level", NULL };
    int id, level = lam ? 2 : 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, lam ? "i|i:lam" : "i|i:y", kwlist, &id, &level)) return NULL;
    nsm_model *m = self->model->m;
    if (!nsm_model_inter_alive(m, id)) { PyErr_Format(pyns_InputError, "no interaction %d", id); return NULL; }
    const double *x = lam ? nsm_ed_lambda(self->s, id, level) : nsm_ed_y(self->s, id, level);
    if (!x) {
        PyErr_Format(pyns_InputError, "%s: level %d is not one of %s", lam ? "lam" : "y", level,
                     lam ? "1 (impulse), 2 (contact force)" : "0, 1, 2");
        return NULL;
    }
    return pyns_array_copy(x, nsm_model_inter_size(m, id));
}
static PyObject *ed_y(pyns_ED *self, PyObject *a, PyObject *kw) { return ed_inter_vec(self, a, kw, 0); }
static PyObject *ed_lam(pyns_ED *self, PyObject *a, PyObject *kw) { return ed_inter_vec(self, a, kw, 1); }

static PyObject *ed_index_set(pyns_ED *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "level", NULL };
    int level = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|i:index_set", kwlist, &level)) return NULL;
    if (level < 0 || level > 2) { PyErr_Format(pyns_InputError, "index_set: level %d is not 0, 1 or 2", level); return NULL; }
    int n = nsm_ed_index_set(self->s, level, NULL, 0);
    int *ids = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (!ids) return PyErr_NoMemory();
    n = nsm_ed_index_set(self->s, level, ids, n);
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        PyObject *x = PyLong_FromLong(ids[i]);
        if (!x) { Py_CLEAR(l); break; }
        PyList_SET_ITEM(l, i, x);
    }
    PyMem_Free(ids);
    return l;
}

static PyObject *ed_events(pyns_ED *self, void *c)
{
    int n = nsm_ed_past_events(self->s, NULL, 0);
    nsm_event *evs = PyMem_Malloc((size_t)(n + 1) * sizeof *evs);
    if (!evs) return PyErr_NoMemory();
    n = nsm_ed_past_events(self->s, evs, n);
    const nsm_event *cur = nsm_ed_current_event(self->s);
    if (cur) evs[n++] = *cur;
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        PyObject *d = ed_event_dict(&evs[i]);
        if (!d) { Py_CLEAR(l); break; }
        PyList_SET_ITEM(l, i, d);
    }
    PyMem_Free(evs);
    return l;
}

static PyObject *ed_stats(pyns_ED *self, void *c)
{
    const nsm_ed_stats *st = nsm_ed_get_stats(self->s);
    return Py_BuildValue("{s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l,s:l}",
                         "cvode_steps", st->cvode_steps, "rhs_evals", st->rhs_evals, "root_evals",
                         st->root_evals, "jac_evals", st->jac_evals, "lin_iters", st->lin_iters, "reinits", st->reinits,
                         "advances", st->advances, "time_events", st->events[NSM_EVENT_TIME],
                         "nonsmooth_events", st->events[NSM_EVENT_NONSMOOTH], "user_events",
                         st->events[NSM_EVENT_USER], "impacts", st->impacts, "impact_rows",
                         st->impact_rows, "rests", st->rests, "releases", st->releases,
                         "accel_lcps", st->accel_lcps, "rhs_lcps", st->rhs_lcps, "lcp_failures",
                         st->lcp_failures, "lcp_retries", st->lcp_retries, "lcp_nonconverged",
                         st->lcp_nonconverged, "history", (long)nsm_ed_past_events(self->s, NULL, 0));
}

static PyObject *ed_t(pyns_ED *self, void *c) { return PyFloat_FromDouble(nsm_ed_time(self->s)); }
static PyObject *ed_T(pyns_ED *self, void *c) { return PyFloat_FromDouble(self->T); }
static PyObject *ed_next_time(pyns_ED *self, void *c) { return PyFloat_FromDouble(nsm_ed_next_time(self->s)); }
static PyObject *ed_done(pyns_ED *self, void *c) { return PyBool_FromLong(!nsm_ed_has_next_event(self->s)); }
static PyObject *ed_model(pyns_ED *self, void *c) { Py_INCREF(self->model); return (PyObject *)self->model; }

static PyObject *ed_repr(pyns_ED *self)
{
    char t[32], T[32];
    snprintf(t, sizeof t, "%.6g", nsm_ed_time(self->s));
    snprintf(T, sizeof T, "%.6g", self->T);
    return PyUnicode_FromFormat("<nonsmooth.EventDriven: t = %s of T = %s, %ld impact(s)>", t, T,
                                nsm_ed_get_stats(self->s)->impacts);
}
#endif

static PyMethodDef ed_methods[] = {
    { "run", (PyCFunction)(void (*)(void))ed_run, METH_VARARGS | METH_KEYWORDS,
      "run(until=None, observer=None) -> dict: processes the events up to T (or until) and returns "
      "the trajectory, one row at the start and one after each processed event: 't' (N,), 'event' "
      "(N,) str ('start', 'time', 'nonsmooth', 'user'), dicts keyed by id of (N, n) arrays: 'q', "
      "'v' (systems), 'y', 'ydot' (y[0], y[1]), 'lambda' (contact force lambda[2]) of the "
      "interactions; 'x' is empty. observer(ed, event) is called after each event; True stops." },
#ifdef NSM_HAVE_EVENT_DRIVEN
    { "step", (PyCFunction)ed_step, METH_NOARGS,
      "step() -> event dict: integrates to the next event and processes it; None when done." },
    { "add_event", (PyCFunction)ed_add_event, METH_O, "add_event(t): a user event at t (t < t' <= T)." },
    { "q", (PyCFunction)ed_q, METH_VARARGS, "q(ds) -> positions (copy)." },
    { "v", (PyCFunction)ed_v, METH_VARARGS, "v(ds) -> velocities (copy)." },
    { "qdd", (PyCFunction)ed_qdd, METH_VARARGS, "qdd(ds)\n--\n\nAccelerations q'' of system ds at the "
      "current event (copy), with the contact forces of resting contacts; at t0 already after "
      "construction (contacts closed at t0 included)." },
    { "set_state", (PyCFunction)(void (*)(void))ed_set_state, METH_VARARGS | METH_KEYWORDS,
      "set_state(ds, *, q=None, v=None): overwrites a state between events; the integration "
      "restarts from it (index sets recomputed)." },
    { "set_state_from", (PyCFunction)ed_set_state_from, METH_O,
      "set_state_from(sim): takes q, v and the time of a Simulation of the same Model (switching "
      "from time-stepping; the time events already behind are skipped)." },
    { "copy_state_to", (PyCFunction)ed_copy_state_to, METH_O,
      "copy_state_to(sim): puts q, v into a Simulation of the same Model (not its time)." },
    { "y", (PyCFunction)(void (*)(void))ed_y, METH_VARARGS | METH_KEYWORDS,
      "y($self, inter, level=0)\n--\n\ny[level] of an interaction, level 0, 1, 2 (copy)." },
    { "lam", (PyCFunction)(void (*)(void))ed_lam, METH_VARARGS | METH_KEYWORDS,
      "lam($self, inter, level=2)\n--\n\nlambda[2] (contact force) or lambda[1] (impulse of the "
      "current event) of an interaction (copy)." },
    { "index_set", (PyCFunction)(void (*)(void))ed_index_set, METH_VARARGS | METH_KEYWORDS,
      "index_set($self, level=1)\n--\n\nList of the ids of the interactions in index set I_level." },
#endif
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef ed_getset[] = {
#ifdef NSM_HAVE_EVENT_DRIVEN
    { "t", (getter)ed_t, NULL, "current time", NULL },
    { "T", (getter)ed_T, NULL, "final time", NULL },
    { "next_time", (getter)ed_next_time, NULL, "time of the next event (inf when done)", NULL },
    { "done", (getter)ed_done, NULL, "True when no event is left (T reached)", NULL },
    { "model", (getter)ed_model, NULL, "the Model", NULL },
    { "events", (getter)ed_events, NULL, "processed events, oldest first (the last `history`)", NULL },
    { "stats", (getter)ed_stats, NULL, "dict of counters (cvode_steps, impacts, ...)", NULL },
#endif
    { NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject EDType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nonsmooth.EventDriven",
    .tp_basicsize = sizeof(pyns_ED),
    .tp_dealloc = (destructor)ed_dealloc,
#ifdef NSM_HAVE_EVENT_DRIVEN
    .tp_repr = (reprfunc)ed_repr,
#endif
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)ed_traverse,
    .tp_clear = (inquiry)ed_clear,
    .tp_doc = "EventDriven(model, *, T, t0=0, output_step=(T-t0)/1000, method='adams', "
              "fixed_point=False, linear_solver='auto', rtol=1e-10, atol=1e-12, hmin=0, hmax=0, max_steps=100000, "
              "gap_tol=1e-9, vel_tol=1e-9, rest_vel=1e-5, rest_gap=100*atol, lambda_tol=1e-10, "
              "acc_tol=1e-10, solver=None (lemke), history=4096, accept_nonconverged=False, "
              "solve_hook=None (as Simulation's, called with the LCP's info), log=None, verbosity=1, tol=1e-12, max_iter=... (solve() options of the LCPs)): event-driven scheme "
              "(nsm_event_driven.h) for Lagrangian systems with Newton impact laws.",
    .tp_methods = ed_methods,
    .tp_getset = ed_getset,
    .tp_new = ed_new,
};

int pyns_mechanics_init(PyObject *m)
{
    if (PyType_Ready(&ModelType) < 0 || PyType_Ready(&SimType) < 0) return -1;
    Py_INCREF(&ModelType);
    if (PyModule_AddObject(m, "Model", (PyObject *)&ModelType) < 0) { Py_DECREF(&ModelType); return -1; }
    Py_INCREF(&SimType);
    if (PyModule_AddObject(m, "Simulation", (PyObject *)&SimType) < 0) { Py_DECREF(&SimType); return -1; }
    if (PyType_Ready(&EDType) < 0) return -1;
    Py_INCREF(&EDType);
    if (PyModule_AddObject(m, "EventDriven", (PyObject *)&EDType) < 0) { Py_DECREF(&EDType); return -1; }
    return 0;
}
