/* numerics.c — Problem and Result types; read, write, problem constructors
 * from arrays, solve, the solver registry. */
#include "pyns.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ================================================================ Problem */

PyObject *pyns_problem_wrap(ns_problem *p)
{
    if (!p) return PyErr_NoMemory();
    pyns_Problem *o = PyObject_New(pyns_Problem, &pyns_ProblemType);
    if (!o) { ns_problem_free(p); return NULL; }
    o->p = p;
    o->keep = NULL;
    return (PyObject *)o;
}

/* Validates then wraps; the library's message becomes the exception. */
static PyObject *checked_problem(ns_problem *p)
{
    if (!p) return PyErr_NoMemory();
    char err[NS_ERRMSG_LEN] = "";
    ns_status st = ns_problem_validate(p, err);
    if (st != NS_OK) { ns_problem_free(p); return pyns_raise(st, err); }
    return pyns_problem_wrap(p);
}

static void problem_dealloc(pyns_Problem *self)
{
    ns_problem_free(self->p);
    Py_XDECREF(self->keep);
    PyObject_Free(self);
}

static PyObject *problem_kind(pyns_Problem *self, void *c)
{
    return PyUnicode_FromString(ns_kind_name(self->p->kind));
}

static PyObject *problem_size(pyns_Problem *self, void *c)
{
    return PyLong_FromLong(ns_problem_size(self->p));
}

static PyObject *problem_repr(pyns_Problem *self)
{
    return PyUnicode_FromFormat("<nonsmooth.Problem %s, %d unknowns>",
                                ns_kind_name(self->p->kind), (int)ns_problem_size(self->p));
}

static int set_item(PyObject *d, const char *key, PyObject *v)
{
    if (!v) return -1;
    int r = PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
    return r;
}

static int set_vec(PyObject *d, const char *key, const double *x, npy_intp n)
{
    if (!x) return 0;
    return set_item(d, key, pyns_array_copy(x, n));
}

/* A copy of x (n ns_int) as a NumPy integer array of the same width. */
static PyObject *int_array(const ns_int *x, npy_intp n)
{
    int type = sizeof(ns_int) == 8 ? NPY_INT64 : NPY_INT32;
    PyObject *a = PyArray_SimpleNew(1, &n, type);
    if (a && n) memcpy(PyArray_DATA((PyArrayObject *)a), x, (size_t)n * sizeof(ns_int));
    return a;
}

/* A problem's matrix as the user gave it: a dense one as a NumPy array, a
 * sparse or block one as a scipy.sparse.csc_matrix holding exactly the
 * stored entries (without SciPy: a dense array). */
static PyObject *matrix_out(const ns_matrix *A)
{
    if (A->storage == NS_DENSE) return pyns_matrix_to_array(A);
    PyObject *sp = PyImport_ImportModule("scipy.sparse");
    if (!sp) {
        if (!PyErr_ExceptionMatches(PyExc_ImportError)) return NULL;
        PyErr_Clear();
        return pyns_matrix_to_array(A);
    }
    ns_matrix *S = A->storage == NS_SPARSE ? NULL : ns_matrix_to_sparse(A);
    const ns_matrix *C = S ? S : A;
    PyObject *res = NULL;
    if (A->storage != NS_SPARSE && !S) { Py_DECREF(sp); return PyErr_NoMemory(); }
    PyObject *x = pyns_array_copy(C->csc.x, C->csc.nnz);
    PyObject *i = int_array(C->csc.i, C->csc.nnz);
    PyObject *pp = int_array(C->csc.p, (npy_intp)C->cols + 1);
    if (x && i && pp)
        res = PyObject_CallMethod(sp, "csc_matrix", "((OOO)(ii))", x, i, pp, (int)C->rows, (int)C->cols);
    Py_XDECREF(x); Py_XDECREF(i); Py_XDECREF(pp);
    Py_DECREF(sp);
    ns_matrix_free(S);
    return res;
}

static int set_mat(PyObject *d, const char *key, const ns_matrix *A)
{
    if (!A) return 0;
    return set_item(d, key, matrix_out(A));
}

static PyObject *problem_data(pyns_Problem *self, PyObject *noargs)
{
    const ns_problem *p = self->p;
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    int r = 0;
    switch (p->kind) {
    case NS_KIND_LCP:
        r = set_mat(d, "M", p->u.lcp->M) || set_vec(d, "q", p->u.lcp->q, p->u.lcp->n); break;
    case NS_KIND_EQUALITY:
        r = set_mat(d, "M", p->u.equality->M) || set_vec(d, "q", p->u.equality->q, p->u.equality->n); break;
    case NS_KIND_RELAY: {
        const ns_relay *x = p->u.relay;
        r = set_mat(d, "M", x->M) || set_vec(d, "q", x->q, x->n) || set_vec(d, "lb", x->lb, x->n) ||
            set_vec(d, "ub", x->ub, x->n);
        break; }
    case NS_KIND_MLCP: {
        const ns_mlcp *x = p->u.mlcp;
        r = set_mat(d, "M", x->M) || set_vec(d, "q", x->q, x->M->cols) ||
            set_item(d, "n", PyLong_FromLong(x->n)) || set_item(d, "m", PyLong_FromLong(x->m));
        break; }
    case NS_KIND_AVI: {
        const ns_avi *x = p->u.avi;
        r = set_mat(d, "M", x->M) || set_vec(d, "q", x->q, x->n) || set_mat(d, "H", x->H) ||
            (x->H && set_vec(d, "h", x->h, x->H->rows)) || set_vec(d, "lb", x->lb, x->n) ||
            set_vec(d, "ub", x->ub, x->n);
        break; }
    case NS_KIND_FC2D: case NS_KIND_FC3D: {
        const ns_fc *x = p->u.fc;
        r = set_mat(d, "W", x->W) || set_vec(d, "q", x->q, (npy_intp)x->dim * x->nc) ||
            set_vec(d, "mu", x->mu, x->nc) || set_item(d, "dim", PyLong_FromLong(x->dim));
        break; }
    case NS_KIND_GFC2D: case NS_KIND_GFC3D: {
        const ns_gfc *x = p->u.gfc;
        r = set_mat(d, "M", x->M) || set_mat(d, "H", x->H) || set_vec(d, "q", x->q, x->n) ||
            set_vec(d, "b", x->b, (npy_intp)x->dim * x->nc) || set_vec(d, "mu", x->mu, x->nc) ||
            set_item(d, "dim", PyLong_FromLong(x->dim));
        break; }
    case NS_KIND_RFC3D: case NS_KIND_RFC2D: {
        const ns_rfc *x = p->u.rfc;
        r = set_mat(d, "W", x->W) || set_vec(d, "q", x->q, (npy_intp)x->dim * x->nc) ||
            set_vec(d, "mu", x->mu, x->nc) || set_vec(d, "mu_r", x->mu_r, x->nc) ||
            (x->dim == 6 && set_vec(d, "mu_p", x->mu_p, x->nc)) ||
            set_item(d, "dim", PyLong_FromLong(x->dim));
        break; }
    case NS_KIND_GRFC3D: {
        const ns_grfc *x = p->u.grfc;
        r = set_mat(d, "M", x->M) || set_mat(d, "H", x->H) || set_vec(d, "q", x->q, x->n) ||
            set_vec(d, "b", x->b, (npy_intp)x->dim * x->nc) || set_vec(d, "mu", x->mu, x->nc) ||
            set_vec(d, "mu_r", x->mu_r, x->nc) || set_item(d, "dim", PyLong_FromLong(x->dim));
        break; }
    case NS_KIND_GMP: {
        const ns_gmp *x = p->u.gmp;
        PyObject *types = PyList_New(x->nblocks), *blocks = PyList_New(x->nblocks);
        if (!types || !blocks) { Py_XDECREF(types); Py_XDECREF(blocks); r = -1; break; }
        for (ns_int b = 0; b < x->nblocks; b++) {
            const char *t = x->type[b] == NS_GMP_LCP ? "lcp" : x->type[b] == NS_GMP_EQUALITY ? "equality"
                          : x->type[b] == NS_GMP_FC2D ? "fc2d" : x->type[b] == NS_GMP_FC3D ? "fc3d"
                          : x->type[b] == NS_GMP_RELAY ? "relay" : "mlcp";
            PyList_SET_ITEM(types, b, PyUnicode_FromString(t));
            PyList_SET_ITEM(blocks, b, PyLong_FromLong(x->M->block.row_start[b + 1] -
                                                       x->M->block.row_start[b]));
        }
        r = set_mat(d, "M", x->M) || set_vec(d, "q", x->q, x->n) || set_item(d, "types", types) ||
            set_item(d, "blocks", blocks) || set_vec(d, "mu", x->mu, x->nblocks) ||
            set_vec(d, "lb", x->lb, x->n) || set_vec(d, "ub", x->ub, x->n);
        break; }
    default: break;
    }
    if (r) { Py_DECREF(d); return NULL; }
    return d;
}

static PyObject *problem_write(pyns_Problem *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "path", "format", NULL };
    PyObject *path = NULL;
    const char *fmt = "auto";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|s:write", kwlist, PyUnicode_FSConverter,
                                     &path, &fmt))
        return NULL;
    ns_format f;
    if (!strcmp(fmt, "auto")) f = NS_FORMAT_AUTO;
    else if (!strcmp(fmt, "dat")) f = NS_FORMAT_DAT;
    else if (!strcmp(fmt, "fclib") || !strcmp(fmt, "hdf5")) f = NS_FORMAT_FCLIB;
    else {
        Py_DECREF(path);
        PyErr_Format(PyExc_ValueError, "unknown format '%s' (auto, dat, fclib)", fmt);
        return NULL;
    }
    char err[NS_ERRMSG_LEN] = "";
    ns_status st = ns_problem_write(PyBytes_AS_STRING(path), self->p, f, err);
    Py_DECREF(path);
    if (st != NS_OK) return pyns_raise(st, err);
    Py_RETURN_NONE;
}

static PyObject *problem_validate(pyns_Problem *self, PyObject *noargs)
{
    char err[NS_ERRMSG_LEN] = "";
    ns_status st = ns_problem_validate(self->p, err);
    if (st != NS_OK) return pyns_raise(st, err);
    Py_RETURN_NONE;
}

static PyGetSetDef problem_getset[] = {
    { "kind", (getter)problem_kind, NULL, "kind name: lcp, mlcp, relay, avi, equality, fc2d, fc3d, gfc2d, gfc3d, gmp", NULL },
    { "size", (getter)problem_size, NULL, "number of unknowns of the main vector", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyObject *py_solve(PyObject *m, PyObject *args, PyObject *kw);

/* problem.solve(solver='auto', **options) = solve(problem, ...) */
static PyObject *problem_solve(pyns_Problem *self, PyObject *args, PyObject *kw)
{
    Py_ssize_t na = PyTuple_GET_SIZE(args);
    PyObject *all = PyTuple_New(na + 1);
    if (!all) return NULL;
    Py_INCREF(self);
    PyTuple_SET_ITEM(all, 0, (PyObject *)self);
    for (Py_ssize_t i = 0; i < na; i++) {
        PyObject *a = PyTuple_GET_ITEM(args, i);
        Py_INCREF(a);
        PyTuple_SET_ITEM(all, i + 1, a);
    }
    PyObject *r = py_solve(NULL, all, kw);
    Py_DECREF(all);
    return r;
}

static PyMethodDef problem_methods[] = {
    { "solve", (PyCFunction)(void (*)(void))problem_solve, METH_VARARGS | METH_KEYWORDS,
      "solve(solver='auto', **options) -> Result: nonsmooth.solve(self, ...)." },
    { "write", (PyCFunction)(void (*)(void))problem_write, METH_VARARGS | METH_KEYWORDS,
      "write(path, format='auto'): writes the problem ('dat', or 'fclib' for FCLIB HDF5; "
      "'auto' picks FCLIB for .hdf5/.h5 names)." },
    { "data", (PyCFunction)problem_data, METH_NOARGS,
      "data() -> dict of NumPy copies of the problem's matrices (dense) and vectors." },
    { "validate", (PyCFunction)problem_validate, METH_NOARGS,
      "validate(): raises InputError with the library's reason if the problem is invalid." },
    { NULL, NULL, 0, NULL }
};

PyTypeObject pyns_ProblemType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nonsmooth.Problem",
    .tp_basicsize = sizeof(pyns_Problem),
    .tp_dealloc = (destructor)problem_dealloc,
    .tp_repr = (reprfunc)problem_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A problem of any kind (made by read() or the constructors lcp(), mlcp(), ...).",
    .tp_methods = problem_methods,
    .tp_getset = problem_getset,
};

/* ================================================================= Result */

typedef struct {
    PyObject_HEAD
    PyObject *status, *message, *solver, *kind, *solution, *history, *certificate, *method;
    double error, seconds;
    int iterations;
} pyns_Result;

static void result_dealloc(pyns_Result *self)
{
    Py_XDECREF(self->status); Py_XDECREF(self->message); Py_XDECREF(self->solver);
    Py_XDECREF(self->kind); Py_XDECREF(self->solution); Py_XDECREF(self->history);
    Py_XDECREF(self->certificate); Py_XDECREF(self->method);
    PyObject_Free(self);
}

PyObject *pyns_result_new(const ns_problem *p, const char *solver, const ns_result *r,
                          const ns_solution *s)
{
    pyns_Result *o = PyObject_New(pyns_Result, &pyns_ResultType);
    if (!o) return NULL;
    o->status = pyns_status_str(r->status);
    o->message = PyUnicode_FromString(r->message);
    o->solver = PyUnicode_InternFromString(solver);
    o->kind = PyUnicode_InternFromString(ns_kind_name(p->kind));
    o->solution = PyDict_New();
    o->history = NULL;
    o->certificate = NULL;
    o->method = PyUnicode_FromString(r->method[0] ? r->method : solver);
    o->error = r->error; o->seconds = r->seconds; o->iterations = r->iterations;
    if (!o->status || !o->message || !o->solver || !o->kind || !o->solution || !o->method) goto fail;
    for (int i = 0; i < s->nvec; i++)
        if (set_vec(o->solution, s->name[i], s->vec[i], s->len[i]) < 0) goto fail;
    if (r->history) {   /* record_history: an array, empty when no iteration recorded */
        o->history = pyns_array_copy(r->history, r->history_len);
        if (!o->history) goto fail;
    } else {
        Py_INCREF(Py_None);
        o->history = Py_None;
    }
    if (r->cert.kind != NS_CERT_NONE && r->cert.y) {
        /* the certificate of no solution ns_solve checked (docs/certificates.md) */
        o->certificate = Py_BuildValue("{s:s,s:N,s:O,s:d,s:d,s:d,s:s}", "kind",
                                       ns_certificate_kind_name(r->cert.kind), "y",
                                       pyns_array_copy(r->cert.y, r->cert.len), "checked",
                                       r->cert.checked ? Py_True : Py_False, "violation",
                                       r->cert.violation, "gap", r->cert.gap, "radius",
                                       r->cert.radius, "source", r->cert.source);
        if (!o->certificate) goto fail;
    } else {
        Py_INCREF(Py_None);
        o->certificate = Py_None;
    }
    return (PyObject *)o;
fail:
    Py_DECREF(o);
    return NULL;
}

static PyObject *result_getattro(PyObject *self, PyObject *name)
{
    PyObject *v = PyObject_GenericGetAttr(self, name);
    if (v || !PyErr_ExceptionMatches(PyExc_AttributeError)) return v;
    PyObject *t, *e, *tb;
    PyErr_Fetch(&t, &e, &tb);
    PyObject *x = PyDict_GetItemWithError(((pyns_Result *)self)->solution, name);
    if (x) {
        Py_XDECREF(t); Py_XDECREF(e); Py_XDECREF(tb);
        Py_INCREF(x);
        return x;
    }
    if (PyErr_Occurred()) { Py_XDECREF(t); Py_XDECREF(e); Py_XDECREF(tb); return NULL; }
    PyErr_Restore(t, e, tb);   /* the AttributeError stays */
    return NULL;
}

static PyObject *result_converged(pyns_Result *self, void *c)
{
    return PyBool_FromLong(PyUnicode_CompareWithASCIIString(self->status, "converged") == 0);
}

/* Pickling: the state, rebuilt by _core._result_from_state. */
static PyObject *result_reduce(pyns_Result *self, PyObject *noargs)
{
    PyObject *mod = PyImport_ImportModule("nonsmooth._core");
    if (!mod) return NULL;
    PyObject *fn = PyObject_GetAttrString(mod, "_result_from_state");
    Py_DECREF(mod);
    if (!fn) return NULL;
    return Py_BuildValue("(N(OOOOOOOddiO))", fn, self->status, self->message, self->solver,
                         self->kind, self->solution, self->history, self->certificate,
                         self->error, self->seconds, self->iterations, self->method);
}

PyObject *pyns_result_from_state(PyObject *m, PyObject *args)
{
    PyObject *status, *message, *solver, *kind, *solution, *history, *cert, *method;
    double error, seconds;
    int iterations;
    if (!PyArg_ParseTuple(args, "UUUUO!OOddiU:_result_from_state", &status, &message, &solver, &kind,
                          &PyDict_Type, &solution, &history, &cert, &error, &seconds, &iterations,
                          &method))
        return NULL;
    pyns_Result *o = PyObject_New(pyns_Result, &pyns_ResultType);
    if (!o) return NULL;
    PyObject *all[8] = { status, message, solver, kind, solution, history, cert, method };
    for (int k = 0; k < 8; k++) Py_INCREF(all[k]);
    o->method = method;
    o->status = status; o->message = message; o->solver = solver; o->kind = kind;
    o->solution = solution; o->history = history; o->certificate = cert;
    o->error = error; o->seconds = seconds; o->iterations = iterations;
    return (PyObject *)o;
}

static PyObject *result_repr(pyns_Result *self)
{
    char e[32], t[32];
    snprintf(e, sizeof e, "%.3g", self->error);
    snprintf(t, sizeof t, "%.3g", self->seconds);
    return PyUnicode_FromFormat("<nonsmooth.Result %U by %U: %U, error %s, %d iterations, %s s>",
                                self->kind, self->solver, self->status, e, self->iterations, t);
}

static PyObject *result_dir(PyObject *self, PyObject *noargs)
{
    PyObject *names = PyList_New(0);
    const char *fixed[] = { "status", "converged", "success", "error", "iterations", "seconds",
                            "message", "solver", "method", "kind", "solution", "history",
                            "certificate" };
    if (!names) return NULL;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        PyObject *s = PyUnicode_FromString(fixed[i]);
        if (!s || PyList_Append(names, s) < 0) { Py_XDECREF(s); Py_DECREF(names); return NULL; }
        Py_DECREF(s);
    }
    PyObject *k = PyDict_Keys(((pyns_Result *)self)->solution);
    if (!k) { Py_DECREF(names); return NULL; }
    PyObject *all = PySequence_Concat(names, k);
    Py_DECREF(names); Py_DECREF(k);
    return all;
}

#include <structmember.h>
static PyMemberDef result_members[] = {
    { "status", T_OBJECT, offsetof(pyns_Result, status), READONLY,
      "'converged', 'max_iter', 'no_solution', 'singular', 'time_limit' or 'diverged'" },
    { "message", T_OBJECT, offsetof(pyns_Result, message), READONLY, "reason of a failure, '' otherwise" },
    { "solver", T_OBJECT, offsetof(pyns_Result, solver), READONLY, "solver that ran" },
    { "method", T_OBJECT, offsetof(pyns_Result, method), READONLY,
      "the method whose iterate is returned: the solver, or for an auto chain the stage "
      "('nsn-ac', 'lemke', 'newton-fb', ...)" },
    { "kind", T_OBJECT, offsetof(pyns_Result, kind), READONLY, "problem kind" },
    { "solution", T_OBJECT, offsetof(pyns_Result, solution), READONLY,
      "dict of the solution vectors (also attributes: z, w, r, u, v, ...)" },
    { "history", T_OBJECT, offsetof(pyns_Result, history), READONLY,
      "error per iteration of the solver's main loop (record_history=True; NaN where the "
      "solver computed none, one entry per stage for auto), else None" },
    { "certificate", T_OBJECT, offsetof(pyns_Result, certificate), READONLY,
      "with status 'no_solution': the checked certificate (dict: kind, y, checked, violation, "
      "gap, radius, source, docs/certificates.md); else None" },
    { "error", T_DOUBLE, offsetof(pyns_Result, error), READONLY, "error recomputed by the kind's error function" },
    { "seconds", T_DOUBLE, offsetof(pyns_Result, seconds), READONLY, "wall time of the solve alone" },
    { "iterations", T_INT, offsetof(pyns_Result, iterations), READONLY, "iterations of the solver" },
    { NULL, 0, 0, 0, NULL }
};

static PyGetSetDef result_getset[] = {
    { "converged", (getter)result_converged, NULL, "status == 'converged'", NULL },
    { "success", (getter)result_converged, NULL, "status == 'converged' (SciPy's name)", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyMethodDef result_methods[] = {
    { "__dir__", result_dir, METH_NOARGS, NULL },
    { "__reduce__", (PyCFunction)result_reduce, METH_NOARGS, "Pickling support." },
    { NULL, NULL, 0, NULL }
};

PyTypeObject pyns_ResultType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nonsmooth.Result",
    .tp_basicsize = sizeof(pyns_Result),
    .tp_dealloc = (destructor)result_dealloc,
    .tp_repr = (reprfunc)result_repr,
    .tp_getattro = result_getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Outcome of solve(): status, error, iterations, seconds, message and the "
              "solution vectors as NumPy arrays (result.z, result.w, ... or result.solution).",
    .tp_members = result_members,
    .tp_getset = result_getset,
    .tp_methods = result_methods,
};

/* ========================================================= constructors */


static PyObject *py_lcp_like(PyObject *args, PyObject *kw, ns_kind kind)
{
    static char *kwlist[] = { "M", "q", NULL };
    PyObject *Mo, *qo;
    if (!PyArg_ParseTupleAndKeywords(args, kw, kind == NS_KIND_LCP ? "OO:lcp" : "OO:equality",
                                     kwlist, &Mo, &qo))
        return NULL;
    ns_matrix *M = pyns_matrix(Mo, "M");
    if (!M) return NULL;
    PyArrayObject *q = pyns_vector(qo, "q", M->cols);
    if (!q) { ns_matrix_free(M); return NULL; }
    ns_problem *p = kind == NS_KIND_LCP
        ? ns_problem_from_lcp(ns_lcp_new(M, PyArray_DATA(q)))
        : ns_problem_from_equality(ns_equality_new(M, PyArray_DATA(q)));
    Py_DECREF(q);
    return checked_problem(p);
}

static PyObject *py_lcp(PyObject *m, PyObject *args, PyObject *kw) { return py_lcp_like(args, kw, NS_KIND_LCP); }
static PyObject *py_equality(PyObject *m, PyObject *args, PyObject *kw) { return py_lcp_like(args, kw, NS_KIND_EQUALITY); }

static PyObject *py_relay(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "M", "q", "lb", "ub", NULL };
    PyObject *Mo, *qo, *lbo, *ubo;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO:relay", kwlist, &Mo, &qo, &lbo, &ubo))
        return NULL;
    ns_matrix *M = pyns_matrix(Mo, "M");
    if (!M) return NULL;
    PyArrayObject *q = pyns_vector(qo, "q", M->cols), *lb = NULL, *ub = NULL;
    if (q) lb = pyns_vector(lbo, "lb", M->cols);
    if (lb) ub = pyns_vector(ubo, "ub", M->cols);
    if (!ub) { Py_XDECREF(q); Py_XDECREF(lb); ns_matrix_free(M); return NULL; }
    ns_problem *p = ns_problem_from_relay(ns_relay_new(M, PyArray_DATA(q), PyArray_DATA(lb),
                                                       PyArray_DATA(ub)));
    Py_DECREF(q); Py_DECREF(lb); Py_DECREF(ub);
    return checked_problem(p);
}

static PyObject *py_mlcp(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "M", "q", "n", "A", "B", "C", "D", "a", "b", NULL };
    PyObject *Mo = Py_None, *qo = Py_None, *no = Py_None;
    PyObject *Ao = Py_None, *Bo = Py_None, *Co = Py_None, *Do = Py_None, *ao = Py_None, *bo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOO$OOOOOO:mlcp", kwlist, &Mo, &qo, &no,
                                     &Ao, &Bo, &Co, &Do, &ao, &bo))
        return NULL;
    int split = Ao != Py_None || Bo != Py_None || Co != Py_None || Do != Py_None ||
                ao != Py_None || bo != Py_None;
    if (split == (Mo != Py_None || qo != Py_None || no != Py_None)) {
        PyErr_SetString(PyExc_TypeError,
                        "mlcp() takes either (M, q, n) or A=, B=, C=, D=, a=, b= (not both)");
        return NULL;
    }
    if (!split) {
        long n;
        if (no == Py_None) { PyErr_SetString(PyExc_TypeError, "mlcp(): n (number of equality rows) is required"); return NULL; }
        if (pyns_get_int(no, "n", 0, NS_INT_MAX_DIM, &n) < 0) return NULL;
        ns_matrix *M = pyns_matrix(Mo, "M");
        if (!M) return NULL;
        if (n > M->cols) {
            PyErr_Format(PyExc_ValueError, "n = %ld exceeds the order of M (%d)", n, (int)M->cols);
            ns_matrix_free(M);
            return NULL;
        }
        PyArrayObject *q = pyns_vector(qo, "q", M->cols);
        if (!q) { ns_matrix_free(M); return NULL; }
        ns_problem *p = ns_problem_from_mlcp(ns_mlcp_new((ns_int)n, M->cols - (ns_int)n, M,
                                                         PyArray_DATA(q)));
        Py_DECREF(q);
        return checked_problem(p);
    }
    /* the split form is dense (ns_mlcp.h): SciPy sparse blocks are densified */
    PyObject *blk[4] = { Ao, Bo, Co, Do };
    for (int k = 0; k < 4; k++) {
        if (!PyArray_Check(blk[k]) && blk[k] != Py_None && PyObject_HasAttrString(blk[k], "toarray"))
            blk[k] = PyObject_CallMethod(blk[k], "toarray", NULL);
        else
            Py_INCREF(blk[k]);
        if (!blk[k]) {
            for (int j = 0; j < k; j++) Py_DECREF(blk[j]);
            return NULL;
        }
    }
    Ao = blk[0]; Bo = blk[1]; Co = blk[2]; Do = blk[3];
    PyArrayObject *A = pyns_fmatrix(Ao, "A", -1, -1), *B = NULL, *C = NULL, *D = NULL,
                  *a = NULL, *b = NULL;
    ns_problem *p = NULL;
    if (!A) goto done;
    npy_intp n = PyArray_DIM(A, 0);
    npy_intp mm = 0;
    if (!(B = pyns_fmatrix(Bo, "B", -1, -1))) goto done;
    mm = PyArray_DIM(B, 0);
    if (!(C = pyns_fmatrix(Co, "C", n, mm)) || !(D = pyns_fmatrix(Do, "D", mm, n)) ||
        !(a = pyns_vector(ao, "a", n)) || !(b = pyns_vector(bo, "b", mm)))
        goto done;
    if (PyArray_DIM(A, 1) != n || PyArray_DIM(B, 1) != mm) {
        PyErr_SetString(PyExc_ValueError, "A and B must be square");
        goto done;
    }
    {
        ns_matrix *Am = pyns_matrix((PyObject *)A, "A"), *Bm = pyns_matrix((PyObject *)B, "B"),
                  *Cm = pyns_matrix((PyObject *)C, "C"), *Dm = pyns_matrix((PyObject *)D, "D");
        if (!Am || !Bm || !Cm || !Dm) {
            ns_matrix_free(Am); ns_matrix_free(Bm); ns_matrix_free(Cm); ns_matrix_free(Dm);
            goto done;
        }
        p = ns_problem_from_mlcp(ns_mlcp_new_abcd(Am, Bm, Cm, Dm, PyArray_DATA(a), PyArray_DATA(b)));
        if (!p) PyErr_NoMemory();
    }
done:
    Py_XDECREF(A); Py_XDECREF(B); Py_XDECREF(C); Py_XDECREF(D); Py_XDECREF(a); Py_XDECREF(b);
    for (int k = 0; k < 4; k++) Py_DECREF(blk[k]);
    if (!p) return NULL;
    return checked_problem(p);
}

static PyObject *py_avi(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "M", "q", "H", "h", "lb", "ub", NULL };
    PyObject *Mo, *qo, *Ho = Py_None, *ho = Py_None, *lbo = Py_None, *ubo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$OOOO:avi", kwlist, &Mo, &qo, &Ho, &ho, &lbo, &ubo))
        return NULL;
    if ((Ho == Py_None) != (ho == Py_None) || (lbo == Py_None) != (ubo == Py_None) ||
        (Ho != Py_None && lbo != Py_None)) {
        PyErr_SetString(PyExc_TypeError, "avi(): give H and h (polyhedron), or lb and ub (box), or neither");
        return NULL;
    }
    ns_matrix *M = pyns_matrix(Mo, "M");
    if (!M) return NULL;
    PyArrayObject *q = pyns_vector(qo, "q", M->cols);
    if (!q) { ns_matrix_free(M); return NULL; }
    ns_avi *a = ns_avi_new(M, PyArray_DATA(q));
    Py_DECREF(q);
    if (!a) return PyErr_NoMemory();
    ns_status st = NS_OK;
    if (Ho != Py_None) {
        ns_matrix *H = pyns_matrix(Ho, "H");
        if (!H) { ns_avi_free(a); return NULL; }
        PyArrayObject *h = pyns_vector(ho, "h", H->rows);
        if (!h) { ns_matrix_free(H); ns_avi_free(a); return NULL; }
        st = ns_avi_set_polyhedron(a, H, PyArray_DATA(h));
        Py_DECREF(h);
    } else if (lbo != Py_None) {
        PyArrayObject *lb = pyns_vector(lbo, "lb", a->n), *ub = lb ? pyns_vector(ubo, "ub", a->n) : NULL;
        if (!ub) { Py_XDECREF(lb); ns_avi_free(a); return NULL; }
        st = ns_avi_set_box(a, PyArray_DATA(lb), PyArray_DATA(ub));
        Py_DECREF(lb); Py_DECREF(ub);
    }
    if (st != NS_OK) { ns_avi_free(a); return pyns_raise(st, "avi(): the set could not be stored"); }
    return checked_problem(ns_problem_from_avi(a));
}

static int parse_dim(PyObject *o, int *dim)
{
    long d;
    if (pyns_get_int(o, "dim", 2, 3, &d) < 0) return -1;
    *dim = (int)d;
    return 0;
}

static PyObject *py_fc(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "W", "q", "mu", "dim", NULL };
    PyObject *Wo, *qo, *muo, *dimo = NULL;
    int dim = 3;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|O:fc", kwlist, &Wo, &qo, &muo, &dimo))
        return NULL;
    if (dimo && parse_dim(dimo, &dim) < 0) return NULL;
    PyArrayObject *mu = pyns_vector(muo, "mu", -1);
    if (!mu) return NULL;
    npy_intp nc = PyArray_DIM(mu, 0);
    ns_matrix *W = pyns_matrix(Wo, "W");
    if (!W) { Py_DECREF(mu); return NULL; }
    if (W->rows != dim * nc || W->cols != dim * nc) {
        PyErr_Format(PyExc_ValueError, "W is %dx%d, expected dim*len(mu) = %zd square",
                     (int)W->rows, (int)W->cols, (Py_ssize_t)(dim * nc));
        ns_matrix_free(W); Py_DECREF(mu);
        return NULL;
    }
    PyArrayObject *q = pyns_vector(qo, "q", W->cols);
    if (!q) { ns_matrix_free(W); Py_DECREF(mu); return NULL; }
    ns_problem *p = ns_problem_from_fc(ns_fc_new(dim, (ns_int)nc, W, PyArray_DATA(q), PyArray_DATA(mu)));
    Py_DECREF(q); Py_DECREF(mu);
    return checked_problem(p);
}

static PyObject *py_gfc(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "M", "H", "q", "b", "mu", "dim", NULL };
    PyObject *Mo, *Ho, *qo, *bo, *muo, *dimo = NULL;
    int dim = 3;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOO|O:gfc", kwlist, &Mo, &Ho, &qo, &bo, &muo, &dimo))
        return NULL;
    if (dimo && parse_dim(dimo, &dim) < 0) return NULL;
    PyArrayObject *mu = pyns_vector(muo, "mu", -1), *q = NULL, *b = NULL;
    if (!mu) return NULL;
    npy_intp nc = PyArray_DIM(mu, 0);
    ns_matrix *M = pyns_matrix(Mo, "M"), *H = NULL;
    ns_problem *p = NULL;
    if (!M || !(H = pyns_matrix(Ho, "H"))) goto fail;
    if (H->rows != M->rows || H->cols != dim * nc) {
        PyErr_Format(PyExc_ValueError, "H is %dx%d, expected %dx%zd (rows of M x dim*len(mu))",
                     (int)H->rows, (int)H->cols, (int)M->rows, (Py_ssize_t)(dim * nc));
        goto fail;
    }
    if (!(q = pyns_vector(qo, "q", M->cols)) || !(b = pyns_vector(bo, "b", H->cols))) goto fail;
    p = ns_problem_from_gfc(ns_gfc_new(dim, (ns_int)nc, M, H, PyArray_DATA(q), PyArray_DATA(b),
                                       PyArray_DATA(mu)));
    Py_DECREF(q); Py_DECREF(b); Py_DECREF(mu);
    return checked_problem(p);
fail:
    ns_matrix_free(M); ns_matrix_free(H);
    Py_XDECREF(q); Py_XDECREF(b); Py_DECREF(mu);
    return NULL;
}

/* rfc(W, q, mu, mu_r, dim=5, mu_p=None): local rolling friction contact
 * (dim 5: rfc3d, 3: rfc2d; 6: rfc3d with pivoting resistance mu_p, the
 * default dim when mu_p is given). */
static PyObject *py_rfc(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "W", "q", "mu", "mu_r", "dim", "mu_p", NULL };
    PyObject *Wo, *qo, *muo, *muro, *dimo = NULL, *mupo = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|OO:rfc", kwlist, &Wo, &qo, &muo, &muro, &dimo, &mupo))
        return NULL;
    if (mupo == Py_None) mupo = NULL;
    long dim = mupo ? 6 : 5;
    if (dimo && dimo != Py_None && pyns_get_int(dimo, "dim", 3, 6, &dim) < 0) return NULL;
    if (dim == 4) { PyErr_SetString(PyExc_ValueError, "dim must be 5 (rfc3d), 6 (rfc3d with mu_p) or 3 (rfc2d)"); return NULL; }
    if ((dim == 6) != (mupo != NULL)) {
        PyErr_SetString(PyExc_ValueError, dim == 6 ? "dim 6 needs mu_p (the pivoting coefficients)"
                                                   : "mu_p needs dim 6 (rfc3d with pivoting resistance)");
        return NULL;
    }
    PyArrayObject *mu = pyns_vector(muo, "mu", -1), *mur = NULL, *mup = NULL, *q = NULL;
    if (!mu) return NULL;
    npy_intp nc = PyArray_DIM(mu, 0);
    if (!(mur = pyns_vector(muro, "mu_r", nc))) { Py_DECREF(mu); return NULL; }
    if (mupo && !(mup = pyns_vector(mupo, "mu_p", nc))) { Py_DECREF(mu); Py_DECREF(mur); return NULL; }
    ns_matrix *W = pyns_matrix(Wo, "W");
    if (!W) { Py_DECREF(mu); Py_DECREF(mur); Py_XDECREF(mup); return NULL; }
    if (W->rows != dim * nc || W->cols != dim * nc) {
        PyErr_Format(PyExc_ValueError, "W is %d×%d, expected dim·len(mu) = %zd square",
                     (int)W->rows, (int)W->cols, (Py_ssize_t)(dim * nc));
        ns_matrix_free(W); Py_DECREF(mu); Py_DECREF(mur); Py_XDECREF(mup);
        return NULL;
    }
    if (!(q = pyns_vector(qo, "q", W->cols))) {
        ns_matrix_free(W); Py_DECREF(mu); Py_DECREF(mur); Py_XDECREF(mup);
        return NULL;
    }
    ns_rfc *x = ns_rfc_new((int)dim, (ns_int)nc, W, PyArray_DATA(q), PyArray_DATA(mu), PyArray_DATA(mur));
    if (x && mup) memcpy(x->mu_p, PyArray_DATA(mup), (size_t)nc * sizeof(double));
    ns_problem *p = ns_problem_from_rfc(x);
    Py_DECREF(q); Py_DECREF(mu); Py_DECREF(mur); Py_XDECREF(mup);
    return checked_problem(p);
}

/* grfc(M, H, q, b, mu, mu_r): global rolling friction contact (5 per contact). */
static PyObject *py_grfc(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "M", "H", "q", "b", "mu", "mu_r", NULL };
    PyObject *Mo, *Ho, *qo, *bo, *muo, *muro;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOO:grfc", kwlist, &Mo, &Ho, &qo, &bo, &muo, &muro))
        return NULL;
    PyArrayObject *mu = pyns_vector(muo, "mu", -1), *mur = NULL, *q = NULL, *b = NULL;
    if (!mu) return NULL;
    npy_intp nc = PyArray_DIM(mu, 0);
    ns_matrix *M = NULL, *H = NULL;
    ns_problem *p = NULL;
    if (!(mur = pyns_vector(muro, "mu_r", nc))) goto fail;
    if (!(M = pyns_matrix(Mo, "M")) || !(H = pyns_matrix(Ho, "H"))) goto fail;
    if (H->rows != M->rows || H->cols != 5 * nc) {
        PyErr_Format(PyExc_ValueError, "H is %d×%d, expected %d×%zd (rows of M × 5·len(mu))",
                     (int)H->rows, (int)H->cols, (int)M->rows, (Py_ssize_t)(5 * nc));
        goto fail;
    }
    if (!(q = pyns_vector(qo, "q", M->cols)) || !(b = pyns_vector(bo, "b", H->cols))) goto fail;
    p = ns_problem_from_grfc(ns_grfc_new(5, (ns_int)nc, M, H, PyArray_DATA(q), PyArray_DATA(b),
                                         PyArray_DATA(mu), PyArray_DATA(mur)));
    Py_DECREF(q); Py_DECREF(b); Py_DECREF(mu); Py_DECREF(mur);
    return checked_problem(p);
fail:
    ns_matrix_free(M); ns_matrix_free(H);
    Py_XDECREF(q); Py_XDECREF(b); Py_DECREF(mu); Py_XDECREF(mur);
    return NULL;
}

static int gmp_type(PyObject *o, int *t)
{
    if (PyUnicode_Check(o)) {
        const char *s = pyns_utf8(o, "gmp block type");
        if (!s) return -1;
        if (!strcmp(s, "lcp")) *t = NS_GMP_LCP;
        else if (!strcmp(s, "equality")) *t = NS_GMP_EQUALITY;
        else if (!strcmp(s, "fc2d")) *t = NS_GMP_FC2D;
        else if (!strcmp(s, "fc3d")) *t = NS_GMP_FC3D;
        else if (!strcmp(s, "relay")) *t = NS_GMP_RELAY;
        else {
            PyErr_Format(PyExc_ValueError, "unknown gmp block type '%s' (lcp, equality, relay, fc2d, fc3d)", s);
            return -1;
        }
        return 0;
    }
    long l;
    if (pyns_get_int(o, "types[i]", 0, 9, &l) < 0) return -1;
    *t = (int)l;
    return 0;
}

static PyObject *py_gmp(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "M", "q", "types", "blocks", "mu", "lb", "ub", NULL };
    PyObject *Mo, *qo, *to, *bo = Py_None, *muo = Py_None, *lbo = Py_None, *ubo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|OO$OO:gmp", kwlist, &Mo, &qo, &to, &bo, &muo,
                                     &lbo, &ubo))
        return NULL;
    PyObject *types = PySequence_Fast(to, "types must be a sequence");
    if (!types) return NULL;
    Py_ssize_t nb = PySequence_Fast_GET_SIZE(types);
    int *type = PyMem_Calloc((size_t)nb + 1, sizeof(int));
    ns_int *start = PyMem_Calloc((size_t)nb + 2, sizeof(ns_int));
    ns_matrix *M = NULL, *Mb = NULL;
    PyArrayObject *q = NULL, *mu = NULL, *lb = NULL, *ub = NULL;
    PyObject *blocks = NULL, *res = NULL;
    ns_gmp *g = NULL;
    if (!type || !start) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t b = 0; b < nb; b++)
        if (gmp_type(PySequence_Fast_GET_ITEM(types, b), &type[b]) < 0) goto done;
    if (bo == Py_None) {
        for (Py_ssize_t b = 0; b < nb; b++) {
            if (type[b] != NS_GMP_FC2D && type[b] != NS_GMP_FC3D) {
                PyErr_SetString(PyExc_TypeError, "gmp(): blocks (the size of each block row) is "
                                "required unless every block is fc2d/fc3d");
                goto done;
            }
            start[b + 1] = start[b] + (type[b] == NS_GMP_FC3D ? 3 : 2);
        }
    } else {
        blocks = PySequence_Fast(bo, "blocks must be a sequence of sizes");
        if (!blocks) goto done;
        if (PySequence_Fast_GET_SIZE(blocks) != nb) {
            PyErr_Format(PyExc_ValueError, "blocks has %zd entries, types %zd",
                         PySequence_Fast_GET_SIZE(blocks), nb);
            goto done;
        }
        for (Py_ssize_t b = 0; b < nb; b++) {
            long s;
            if (pyns_get_int(PySequence_Fast_GET_ITEM(blocks, b), "blocks[i]", 1, NS_INT_MAX_DIM, &s) < 0)
                goto done;
            if (start[b] + s > NS_INT_MAX_DIM) { PyErr_SetString(PyExc_ValueError, "blocks too large"); goto done; }
            start[b + 1] = start[b] + (ns_int)s;
        }
    }
    if (!(M = pyns_matrix(Mo, "M"))) goto done;
    if (M->rows != start[nb] || M->cols != start[nb]) {
        PyErr_Format(PyExc_ValueError, "M is %dx%d, the blocks add up to %d", (int)M->rows,
                     (int)M->cols, (int)start[nb]);
        goto done;
    }
    if (!(q = pyns_vector(qo, "q", M->cols))) goto done;
    if (muo != Py_None && !(mu = pyns_vector(muo, "mu", nb))) goto done;
    if ((lbo == Py_None) != (ubo == Py_None)) {
        PyErr_SetString(PyExc_TypeError, "gmp(): give both lb and ub or neither");
        goto done;
    }
    if (lbo != Py_None && (!(lb = pyns_vector(lbo, "lb", M->cols)) || !(ub = pyns_vector(ubo, "ub", M->cols))))
        goto done;
    Mb = ns_matrix_to_block(M, (ns_int)nb, start, (ns_int)nb, start);
    if (!Mb) { PyErr_SetString(PyExc_ValueError, "M could not be split into the given blocks"); goto done; }
    g = ns_gmp_new(Mb, PyArray_DATA(q), type, mu ? PyArray_DATA(mu) : NULL);
    if (!g) { PyErr_NoMemory(); goto done; }
    if (lb) {
        size_t bytes = (size_t)M->cols * sizeof(double);
        g->lb = malloc(bytes ? bytes : 1);
        g->ub = malloc(bytes ? bytes : 1);
        if (!g->lb || !g->ub) { ns_gmp_free(g); g = NULL; PyErr_NoMemory(); goto done; }
        memcpy(g->lb, PyArray_DATA(lb), bytes);
        memcpy(g->ub, PyArray_DATA(ub), bytes);
    }
    res = checked_problem(ns_problem_from_gmp(g));
done:
    ns_matrix_free(M);
    Py_XDECREF(q); Py_XDECREF(mu); Py_XDECREF(lb); Py_XDECREF(ub);
    Py_XDECREF(blocks); Py_DECREF(types);
    PyMem_Free(type); PyMem_Free(start);
    return res;
}

/* ================================================================ read */

static PyObject *py_read(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "path", "kind", NULL };
    PyObject *path = NULL;
    const char *kname = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|z:read", kwlist, PyUnicode_FSConverter, &path, &kname))
        return NULL;
    ns_kind k = NS_KIND_NONE;
    if (kname && (k = ns_kind_from_name(kname)) == NS_KIND_NONE) {
        Py_DECREF(path);
        PyErr_Format(PyExc_ValueError, "unknown kind '%s'", kname);
        return NULL;
    }
    ns_problem *p = NULL;
    char err[NS_ERRMSG_LEN] = "";
    ns_status st = ns_problem_read(PyBytes_AS_STRING(path), k, &p, err);
    Py_DECREF(path);
    if (st != NS_OK) { ns_problem_free(p); return pyns_raise(st, err); }
    return pyns_problem_wrap(p);
}

/* =============================================================== solve */

static const char *const option_names =
    "tol, max_iter, time_limit, omega, anderson, threads, sweep, check_every, shuffle, seed, "
    "local_solver, fc_norm, verbosity, record_history, x0";

/* verbosity > 0: the library's messages on the process's stderr (C stdio:
 * the solve may run without the GIL) */
static void log_stderr(void *user, int level, const char *message)
{
    (void)user;
    fprintf(stderr, "nonsmooth: [%d] %s\n", level, message);
}

int pyns_parse_options(PyObject *kw, ns_options *o, const char *const *skip)
{
    if (!kw) return 0;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(kw, &pos, &k, &v)) {
        long l;
        if (pyns_key_is(k, "tol")) { if (pyns_get_double(v, "tol", &o->tol) < 0) return -1; }
        else if (pyns_key_is(k, "max_iter")) { if (pyns_get_int(v, "max_iter", 0, 2147483647L, &l) < 0) return -1; o->max_iter = (int)l; }
        else if (pyns_key_is(k, "time_limit")) { if (pyns_get_double(v, "time_limit", &o->time_limit) < 0) return -1; }
        else if (pyns_key_is(k, "omega")) { if (pyns_get_double(v, "omega", &o->omega) < 0) return -1; }
        else if (pyns_key_is(k, "check_every")) { if (pyns_get_int(v, "check_every", 0, 2147483647L, &l) < 0) return -1; o->check_every = (int)l; }
        else if (pyns_key_is(k, "shuffle")) { int b = PyObject_IsTrue(v); if (b < 0) return -1; o->shuffle = b; }
        else if (pyns_key_is(k, "seed")) { if (pyns_get_int(v, "seed", 0, 4294967295L, &l) < 0) return -1; o->seed = (unsigned)l; }
        else if (pyns_key_is(k, "anderson")) { if (pyns_get_int(v, "anderson", 0, 16, &l) < 0) return -1; o->anderson = (int)l; }
        else if (pyns_key_is(k, "threads")) { if (pyns_get_int(v, "threads", 0, 4096, &l) < 0) return -1; o->threads = (int)l; }
        else if (pyns_key_is(k, "sweep")) {
            if (pyns_key_is(v, "forward")) o->sweep = 0;
            else if (pyns_key_is(v, "symmetric")) o->sweep = 1;
            else { PyErr_Format(PyExc_ValueError, "sweep must be 'forward' or 'symmetric', not %R", v); return -1; }
        } else if (pyns_key_is(k, "verbosity")) {
            if (pyns_get_int(v, "verbosity", 0, 3, &l) < 0) return -1;
            o->verbosity = (int)l;
            o->log = l > 0 ? log_stderr : NULL;
        }
        else if (pyns_key_is(k, "record_history")) { int b = PyObject_IsTrue(v); if (b < 0) return -1; o->record_history = b; }
        else if (pyns_key_is(k, "local_solver")) {
            if (v == Py_None) o->local_solver = NULL;
            else if (!PyUnicode_Check(v)) { PyErr_SetString(PyExc_TypeError, "local_solver must be a str"); return -1; }
            else if (!(o->local_solver = pyns_utf8(v, "local_solver"))) return -1;
        } else if (pyns_key_is(k, "fc_norm")) {
            if (pyns_key_is(v, "siconos")) o->fc_norm = NS_FC_NORM_SICONOS;
            else if (pyns_key_is(v, "q")) o->fc_norm = NS_FC_NORM_Q;
            else { PyErr_Format(PyExc_ValueError, "fc_norm must be 'siconos' or 'q', not %R", v); return -1; }
        } else {
            int skipped = 0;
            for (const char *const *s = skip; s && *s; s++)
                if (pyns_key_is(k, *s)) { skipped = 1; break; }
            if (!skipped) {
                PyErr_Format(PyExc_ValueError, "unknown option '%S' (options: %s)", k, option_names);
                return -1;
            }
        }
    }
    char err[NS_ERRMSG_LEN] = "";
    if (ns_options_validate(o, err) != NS_OK) {
        pyns_raise(NS_BAD_INPUT, err);
        return -1;
    }
    return 0;
}

int pyns_solver_name(PyObject *obj, ns_kind kind, const char **name)
{
    *name = NULL;
    if (obj == NULL || obj == Py_None || pyns_key_is(obj, "auto")) {
        if (ns_solver_find("auto", kind)) *name = "auto";
        return 0;
    }
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "solver must be a str, not %.100s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    const char *s = pyns_utf8(obj, "solver");
    if (!s) return -1;
    if (ns_solver_find(s, kind)) { *name = s; return 0; }
    {   /* a solver spec NAME[/key=value]... (ns_solver_spec_parse): checked
         * here, applied by the caller */
        char sname[NS_SOLVER_NAME_LEN], err[NS_ERRMSG_LEN] = "";
        ns_options scratch;
        ns_options_default(&scratch);
        ns_status st = ns_solver_spec_parse(s, kind, sname, sizeof sname, &scratch, err);
        if (st == NS_OK) { *name = s; return 0; }
        if (st == NS_BAD_INPUT) { pyns_raise(NS_BAD_INPUT, err); return -1; }
    }
    char list[1024] = "";
    size_t len = 0;
    for (size_t i = 0; i < ns_solver_count(); i++) {
        const ns_solver_info *si = ns_solver_at(i);
        if (si->kind != kind) continue;
        int w = snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", si->name);
        if (w < 0 || (size_t)w >= sizeof list - len) break;
        len += (size_t)w;
    }
    char msg[NS_ERRMSG_LEN + 1100];
    snprintf(msg, sizeof msg, "unknown solver '%s' for kind %s (solvers: %s)", s,
             ns_kind_name(kind), len ? list : "none");
    pyns_raise(NS_NOT_FOUND, msg);
    return -1;
}

static const char *const solve_skip[] = { "solver", "x0", NULL };

/* ns_options.cancel of solve(): every 20 ms of solving, takes the GIL (the
 * solve may run without it) and runs the signal handlers; an exception
 * (KeyboardInterrupt from Ctrl-C) stops the solve and is raised by
 * solve() */
typedef struct { struct timespec last; int raised; } cancel_state;

static int py_cancel(void *user)
{
    cancel_state *c = user;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double dt = (double)(now.tv_sec - c->last.tv_sec) + 1e-9 * (double)(now.tv_nsec - c->last.tv_nsec);
    if (dt < 0.02) return c->raised;
    c->last = now;
    PyGILState_STATE g = PyGILState_Ensure();
    if (PyErr_CheckSignals() < 0) c->raised = 1;
    PyGILState_Release(g);
    return c->raised;
}

static PyObject *py_solve(PyObject *m, PyObject *args, PyObject *kw)
{
    Py_ssize_t na = PyTuple_GET_SIZE(args);
    if (na < 1 || na > 2) {
        PyErr_SetString(PyExc_TypeError, "solve(problem, solver='auto', **options)");
        return NULL;
    }
    PyObject *po = PyTuple_GET_ITEM(args, 0);
    if (!PyObject_TypeCheck(po, &pyns_ProblemType)) {
        PyErr_Format(PyExc_TypeError, "solve(): problem must be a nonsmooth.Problem, not %.100s",
                     Py_TYPE(po)->tp_name);
        return NULL;
    }
    const ns_problem *p = ((pyns_Problem *)po)->p;
    PyObject *so = na > 1 ? PyTuple_GET_ITEM(args, 1) : NULL, *x0 = NULL;
    if (kw) {
        PyObject *ks = PyDict_GetItemString(kw, "solver");
        if (ks) {
            if (so) { PyErr_SetString(PyExc_TypeError, "solve(): solver given twice"); return NULL; }
            so = ks;
        }
        x0 = PyDict_GetItemString(kw, "x0");
    }
    ns_options o;
    ns_options_default(&o);
    const char *solver;
    if (pyns_solver_name(so, p->kind, &solver) < 0) return NULL;
    /* a spec's keys first, then the keyword options (which win) */
    char sname[NS_SOLVER_NAME_LEN];
    if (solver && strchr(solver, '/')) {
        char err[NS_ERRMSG_LEN] = "";
        if (ns_solver_spec_parse(solver, p->kind, sname, sizeof sname, &o, err) != NS_OK)
            return pyns_raise(NS_BAD_INPUT, err);
        solver = sname;
    }
    if (pyns_parse_options(kw, &o, solve_skip) < 0) return NULL;
    ns_solution *s = ns_solution_new(p);
    if (!s) return PyErr_NoMemory();
    if (x0 && x0 != Py_None) {
        PyArrayObject *a = pyns_vector(x0, "x0", s->len[0]);
        if (!a) { ns_solution_free(s); return NULL; }
        if (s->len[0]) memcpy(s->vec[0], PyArray_DATA(a), (size_t)s->len[0] * sizeof(double));
        Py_DECREF(a);
        o.warm_start = 1;
    }
    cancel_state cs = { { 0, 0 }, 0 };
    clock_gettime(CLOCK_MONOTONIC, &cs.last);
    o.cancel = py_cancel;
    o.cancel_user = &cs;
    ns_result r;
    ns_result_init(&r);
    ns_status st;
    if (ns_problem_size(p) < 64) st = ns_solve(p, solver, &o, s, &r);
    else {
        /* the solve touches no Python object: other threads may run meanwhile
         * (the problem is immutable from Python and referenced by args); not
         * worth the GIL round trip for small problems. Python callables of
         * the callback kinds take the GIL back for each call (kinds.c). */
        Py_BEGIN_ALLOW_THREADS
        st = ns_solve(p, solver, &o, s, &r);
        Py_END_ALLOW_THREADS
    }
    PyObject *res = NULL;
    if (pyns_callback_error((pyns_Problem *)po, st == NS_CONVERGED) < 0) { /* raised */ }
    else if (cs.raised && PyErr_Occurred()) { /* the handler's exception (KeyboardInterrupt) */ }
    else if (!ns_status_is_outcome(st)) pyns_raise(st, r.message);
    else {
        if (!solver) {
            const ns_solver_info *d = ns_solver_default(p->kind);
            solver = d ? d->name : "default";
        }
        res = pyns_result_new(p, solver, &r, s);
    }
    ns_result_clear(&r);
    ns_solution_free(s);
    return res;
}

static PyObject *py_solvers(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "kind", NULL };
    PyObject *ko = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:solvers", kwlist, &ko)) return NULL;
    ns_kind kind = NS_KIND_NONE;
    if (ko != Py_None) {
        if (PyObject_TypeCheck(ko, &pyns_ProblemType)) kind = ((pyns_Problem *)ko)->p->kind;
        else {
            const char *s = PyUnicode_Check(ko) ? pyns_utf8(ko, "kind") : NULL;
            if (!s) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "kind must be a str or a Problem");
                return NULL;
            }
            if ((kind = ns_kind_from_name(s)) == NS_KIND_NONE) {
                PyErr_Format(PyExc_ValueError, "unknown kind '%s' (lcp, mlcp, relay, avi, equality, "
                             "fc2d, fc3d, gfc2d, gfc3d, gmp, ncp, mcp, vi, cqp, soclcp)", s);
                return NULL;
            }
        }
    }
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (size_t i = 0; i < ns_solver_count(); i++) {
        const ns_solver_info *si = ns_solver_at(i);
        if (kind != NS_KIND_NONE && si->kind != kind) continue;
        PyObject *d = Py_BuildValue("{s:s,s:s,s:s,s:O,s:i}", "name", si->name, "kind",
                                    ns_kind_name(si->kind), "description",
                                    si->description ? si->description : "", "default",
                                    si->is_default ? Py_True : Py_False, "max_iter",
                                    si->default_max_iter);
        if (!d || PyList_Append(list, d) < 0) { Py_XDECREF(d); Py_DECREF(list); return NULL; }
        Py_DECREF(d);
    }
    return list;
}

/* Benchmark support: the same loop in C, for benchmarks/python/. Solves the
 * dense LCP (M, q) n times with the named solver: rebuild = 1 makes the
 * problem from the arrays every time (ns_matrix_dense_new, ns_lcp_new,
 * validate), as the Python loop nonsmooth.solve(nonsmooth.lcp(M, q)) does.
 * Returns the seconds per call. */
static PyObject *py_c_loop(PyObject *m, PyObject *args)
{
    PyObject *Mo, *qo;
    const char *solver = NULL;
    long n;
    int rebuild;
    if (!PyArg_ParseTuple(args, "OOzlp:_c_loop", &Mo, &qo, &solver, &n, &rebuild)) return NULL;
    PyArrayObject *M = pyns_fmatrix(Mo, "M", -1, -1);
    if (!M) return NULL;
    PyArrayObject *q = pyns_vector(qo, "q", PyArray_DIM(M, 1));
    if (!q) { Py_DECREF(M); return NULL; }
    ns_int rows = (ns_int)PyArray_DIM(M, 0), cols = (ns_int)PyArray_DIM(M, 1);
    const double *Mx = PyArray_DATA(M), *qx = PyArray_DATA(q);
    ns_problem *fixed = NULL;
    ns_status st = NS_OK;
    char err[NS_ERRMSG_LEN] = "";
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long k = 0; k < n && st == NS_OK; k++) {
        ns_problem *p = fixed;
        if (!p) {
            ns_matrix *A = ns_matrix_dense_new(rows, cols);
            if (!A) { st = NS_NO_MEMORY; break; }
            memcpy(A->dense, Mx, (size_t)rows * cols * sizeof(double));
            p = ns_problem_from_lcp(ns_lcp_new(A, qx));
            if (!p) { st = NS_NO_MEMORY; break; }
            if ((st = ns_problem_validate(p, err)) != NS_OK) { ns_problem_free(p); break; }
        }
        ns_options o;
        ns_options_default(&o);
        ns_solution *s = ns_solution_new(p);
        ns_result r;
        ns_result_init(&r);
        st = s ? ns_solve(p, solver, &o, s, &r) : NS_NO_MEMORY;
        if (st == NS_OK) st = r.status;
        ns_result_clear(&r);
        ns_solution_free(s);
        if (rebuild) ns_problem_free(p);
        else fixed = p;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ns_problem_free(fixed);
    Py_DECREF(M); Py_DECREF(q);
    if (st != NS_OK) return pyns_raise(st, err[0] ? err : "_c_loop: the solve failed");
    double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    return PyFloat_FromDouble(n > 0 ? sec / (double)n : 0.0);
}

PyMethodDef pyns_numerics_methods[] = {
    { "read", (PyCFunction)(void (*)(void))py_read, METH_VARARGS | METH_KEYWORDS,
      "read($module, path, kind=None)\n"
      "--\n"
      "\n"
      "Read a problem file.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "path : str or os.PathLike\n"
      "    A Siconos-style ``.dat`` file or an FCLIB ``.hdf5`` file.\n"
      "kind : str, optional\n"
      "    Problem kind ('lcp', 'mlcp', 'relay', 'avi', 'equality', 'fc2d',\n"
      "    'fc3d', 'gfc2d', 'gfc3d', 'gmp'); detected from the content if None.\n"
      "\n"
      "Returns\n"
      "-------\n"
      "Problem\n"
      "\n"
      "Raises\n"
      "------\n"
      "FileError\n"
      "    The file cannot be opened or read.\n"
      "InputError\n"
      "    The content is not a valid problem (message: file, line, reason)." },
    { "solve", (PyCFunction)(void (*)(void))py_solve, METH_VARARGS | METH_KEYWORDS,
      "solve($module, problem, /, solver='auto', *, tol=1e-08, max_iter=0, time_limit=0.0, omega=0.0, anderson=0, threads=0, sweep='forward', check_every=0, shuffle=False, seed=1, local_solver=None, fc_norm='siconos', verbosity=0, record_history=False, x0=None)\n"
      "--\n"
      "\n"
      "Solve a problem.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "problem : Problem\n"
      "solver : str, optional\n"
      "    A solver name of the problem's kind (``solvers(problem)``) or a spec\n"
      "    ``NAME[/key=value]...`` such as ``'nsgs-ac/anderson=3/threads=2'``\n"
      "    (``nsolve --list-solvers --options`` lists each solver's keys).\n"
      "tol, max_iter, time_limit, omega, anderson, threads, sweep, check_every,\n"
      "shuffle, seed, local_solver, fc_norm, verbosity, record_history\n"
      "    Solver options (docs/python.md); they override a spec's keys.\n"
      "x0 : array_like, optional\n"
      "    Starting point of the first unknown (warm start).\n"
      "\n"
      "Returns\n"
      "-------\n"
      "Result\n"
      "    status, success, error (recomputed), iterations, seconds, message,\n"
      "    history, certificate and the solution vectors.\n"
      "\n"
      "Raises\n"
      "------\n"
      "InputError\n"
      "    Bad options, an unknown solver or key, a bad x0.\n"
      "KeyboardInterrupt\n"
      "    Ctrl-C during the solve (checked every 20 ms)." },
    { "solvers", (PyCFunction)(void (*)(void))py_solvers, METH_VARARGS | METH_KEYWORDS,
      "solvers($module, kind=None)\n"
      "--\n"
      "\n"
      "The registered solvers.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "kind : str or Problem, optional\n"
      "    Only the solvers of this kind (all if None).\n"
      "\n"
      "Returns\n"
      "-------\n"
      "list of dict\n"
      "    name, kind, description, default, max_iter." },
    { "lcp", (PyCFunction)(void (*)(void))py_lcp, METH_VARARGS | METH_KEYWORDS,
      "lcp($module, M, q)\n"
      "--\n"
      "\n"
      "Linear complementarity problem w = Mz + q, 0 <= z _|_ w >= 0.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "M : (n, n) array_like or scipy.sparse matrix\n"
      "q : (n,) array_like\n"
      "\n"
      "Returns\n"
      "-------\n"
      "Problem" },
    { "equality", (PyCFunction)(void (*)(void))py_equality, METH_VARARGS | METH_KEYWORDS,
      "equality($module, M, q)\n"
      "--\n"
      "\n"
      "Linear system Mz + q = 0.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "M : (n, n) array_like or scipy.sparse matrix\n"
      "q : (n,) array_like\n"
      "\n"
      "Returns\n"
      "-------\n"
      "Problem" },
    { "relay", (PyCFunction)(void (*)(void))py_relay, METH_VARARGS | METH_KEYWORDS,
      "relay($module, M, q, lb, ub)\n"
      "--\n"
      "\n"
      "Box-constrained affine variational inequality (relay problem).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "M : (n, n) array_like or scipy.sparse matrix\n"
      "q, lb, ub : (n,) array_like\n"
      "\n"
      "Returns\n"
      "-------\n"
      "Problem" },
    { "mlcp", (PyCFunction)(void (*)(void))py_mlcp, METH_VARARGS | METH_KEYWORDS,
      "mlcp($module, M=None, q=None, n=None, *, A=None, B=None, C=None, D=None, a=None, b=None)\n"
      "--\n"
      "\n"
      "Mixed linear complementarity problem.\n"
      "\n"
      "Either ``mlcp(M, q, n)`` (the first n rows are equalities with free\n"
      "unknowns) or ``mlcp(A=, B=, C=, D=, a=, b=)`` (Au + Cv + a = 0,\n"
      "0 <= v _|_ Du + Bv + b >= 0).\n"
      "\n"
      "Returns\n"
      "-------\n"
      "Problem" },
    { "avi", (PyCFunction)(void (*)(void))py_avi, METH_VARARGS | METH_KEYWORDS,
      "avi($module, M, q, *, H=None, h=None, lb=None, ub=None)\n"
      "--\n"
      "\n"
      "Affine variational inequality over {z : Hz <= h} or a box [lb, ub].\n"
      "\n"
      "Returns\n"
      "-------\n"
      "Problem" },
    { "fc", (PyCFunction)(void (*)(void))py_fc, METH_VARARGS | METH_KEYWORDS,
      "fc($module, W, q, mu, dim=3)\n"
      "--\n"
      "\n"
      "Local friction-contact problem (fc2d or fc3d): u = Wr + q, Coulomb's law\n"
      "per contact.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "W : (dim*nc, dim*nc) array_like or scipy.sparse matrix\n"
      "q : (dim*nc,) array_like\n"
      "mu : (nc,) array_like\n"
      "    Friction coefficients.\n"
      "dim : {2, 3}\n"
      "\n"
      "Returns\n"
      "-------\n"
      "Problem" },
    { "gfc", (PyCFunction)(void (*)(void))py_gfc, METH_VARARGS | METH_KEYWORDS,
      "gfc($module, M, H, q, b, mu, dim=3)\n"
      "--\n"
      "\n"
      "Global friction-contact problem: Mv = Hr + q, u = H'v + b, Coulomb's law\n"
      "per contact.\n"
      "\n"
      "Returns\n"
      "-------\n"
      "Problem" },
    { "rfc", (PyCFunction)(void (*)(void))py_rfc, METH_VARARGS | METH_KEYWORDS,
      "rfc($module, W, q, mu, mu_r, dim=5, mu_p=None)\n--\n\n"
      "Local rolling friction contact (rfc3d; dim=3: rfc2d; mu_p given: dim 6,\n"
      "rfc3d with a pivoting torque |r_P| <= mu_p r_N).\n\nReturns\n-------\nProblem" },
    { "grfc", (PyCFunction)(void (*)(void))py_grfc, METH_VARARGS | METH_KEYWORDS,
      "grfc($module, M, H, q, b, mu, mu_r)\n--\n\n"
      "Global rolling friction contact (grfc3d).\n\nReturns\n-------\nProblem" },
    { "gmp", (PyCFunction)(void (*)(void))py_gmp, METH_VARARGS | METH_KEYWORDS,
      "gmp($module, M, q, types, blocks=None, mu=None, *, lb=None, ub=None)\n"
      "--\n"
      "\n"
      "Generic mechanical problem: block rows of types 'equality', 'lcp',\n"
      "'relay', 'fc2d', 'fc3d'.\n"
      "\n"
      "Returns\n"
      "-------\n"
      "Problem" },
    { "_result_from_state", (PyCFunction)pyns_result_from_state, METH_VARARGS,
      "Rebuilds a Result from its pickled state." },
    { "_c_loop", (PyCFunction)py_c_loop, METH_VARARGS,
      "_c_loop(M, q, solver, n, rebuild) -> seconds per call of the same LCP loop in C." },
    { NULL, NULL, 0, NULL }
};

int pyns_numerics_init(PyObject *m)
{
    if (PyType_Ready(&pyns_ProblemType) < 0 || PyType_Ready(&pyns_ResultType) < 0) return -1;
    Py_INCREF(&pyns_ProblemType);
    if (PyModule_AddObject(m, "Problem", (PyObject *)&pyns_ProblemType) < 0) {
        Py_DECREF(&pyns_ProblemType);
        return -1;
    }
    Py_INCREF(&pyns_ResultType);
    if (PyModule_AddObject(m, "Result", (PyObject *)&pyns_ResultType) < 0) {
        Py_DECREF(&pyns_ResultType);
        return -1;
    }
    return 0;
}
