/* kinds.c — constructors of the kinds whose map or set may be Python
 * callables: ncp, mcp, vi (F, its Jacobian, the projection on X), cqp
 * (projection on C), soclcp (arrays only).
 *
 * A callable is held by the Problem (a capsule in pyns_Problem.keep) and
 * called through a C trampoline that takes the GIL (the solve may have
 * released it). F(z) and project(x) must return n floats, jacobian(z) an
 * n×n array or SciPy sparse matrix. A callable that raises, or returns
 * something of the wrong shape, makes that evaluation fail: the solver
 * shortens its step or stops; if the solve then does not converge, solve()
 * raises the first such exception. */
#include "pyns.h"
#include <stdlib.h>
#include <string.h>

typedef struct pycb {
    PyObject *F, *J, *P;                     /* owned, or NULL */
    PyObject *etype, *evalue, *etb;          /* first exception raised */
} pycb;

static void cb_destroy(PyObject *cap)
{
    pycb *cb = PyCapsule_GetPointer(cap, "nonsmooth.callbacks");
    if (!cb) return;
    Py_XDECREF(cb->F); Py_XDECREF(cb->J); Py_XDECREF(cb->P);
    Py_XDECREF(cb->etype); Py_XDECREF(cb->evalue); Py_XDECREF(cb->etb);
    PyMem_Free(cb);
}

/* Keeps the first exception (the GIL is held). */
static void cb_stash(pycb *cb)
{
    if (!PyErr_Occurred()) return;
    if (cb->etype) { PyErr_Clear(); return; }
    PyErr_Fetch(&cb->etype, &cb->evalue, &cb->etb);
}

/* Calls fn(x) and copies its n values into out; 0 on success. */
static int call_vector(pycb *cb, PyObject *fn, const char *what, ns_int n, const double *x,
                       double *out)
{
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = 1;
    PyObject *xin = pyns_array_copy(x, n);
    PyObject *r = xin ? PyObject_CallFunctionObjArgs(fn, xin, NULL) : NULL;
    if (r) {
        PyArrayObject *a = pyns_vector(r, what, n);
        if (a) {
            if (n) memcpy(out, PyArray_DATA(a), (size_t)n * sizeof(double));
            rc = 0;
            Py_DECREF(a);
        }
        Py_DECREF(r);
    }
    Py_XDECREF(xin);
    if (rc) cb_stash(cb);
    PyGILState_Release(g);
    return rc;
}

static int tramp_F(void *user, ns_int n, const double *z, double *Fz)
{
    pycb *cb = user;
    return call_vector(cb, cb->F, "F(z)", n, z, Fz);
}

static int tramp_P(void *user, ns_int n, const double *x, double *px)
{
    pycb *cb = user;
    return call_vector(cb, cb->P, "project(x)", n, x, px);
}

static ns_matrix *tramp_J(void *user, ns_int n, const double *z)
{
    pycb *cb = user;
    PyGILState_STATE g = PyGILState_Ensure();
    ns_matrix *J = NULL;
    PyObject *zin = pyns_array_copy(z, n);
    PyObject *r = zin ? PyObject_CallFunctionObjArgs(cb->J, zin, NULL) : NULL;
    if (r) {
        J = pyns_matrix(r, "jacobian(z)");
        if (J && (J->rows != n || J->cols != n)) {
            PyErr_Format(pyns_InputError, "jacobian(z): %d x %d, expected %d x %d",
                         (int)J->rows, (int)J->cols, (int)n, (int)n);
            ns_matrix_free(J);
            J = NULL;
        }
        Py_DECREF(r);
    }
    Py_XDECREF(zin);
    if (!J) cb_stash(cb);
    PyGILState_Release(g);
    return J;
}

int pyns_callback_error(pyns_Problem *p, int converged)
{
    if (!p->keep) return 0;
    pycb *cb = PyCapsule_GetPointer(p->keep, "nonsmooth.callbacks");
    if (!cb || !cb->etype) return 0;
    PyObject *t = cb->etype, *v = cb->evalue, *tb = cb->etb;
    cb->etype = cb->evalue = cb->etb = NULL;
    if (converged) { Py_XDECREF(t); Py_XDECREF(v); Py_XDECREF(tb); return 0; }
    PyErr_Restore(t, v, tb);
    return -1;
}

/* A callable argument (None → NULL); -1 with TypeError if not callable. */
static int get_callable(PyObject *o, const char *name, PyObject **out)
{
    *out = NULL;
    if (!o || o == Py_None) return 0;
    if (!PyCallable_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be callable, not %.100s", name, Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = o;
    return 0;
}

/* New callbacks capsule holding F, J, P (new references). */
static PyObject *make_keep(PyObject *F, PyObject *J, PyObject *P, pycb **cbo)
{
    pycb *cb = PyMem_Calloc(1, sizeof *cb);
    if (!cb) return PyErr_NoMemory();
    PyObject *cap = PyCapsule_New(cb, "nonsmooth.callbacks", cb_destroy);
    if (!cap) { PyMem_Free(cb); return NULL; }
    Py_XINCREF(F); Py_XINCREF(J); Py_XINCREF(P);
    cb->F = F; cb->J = J; cb->P = P;
    *cbo = cb;
    return cap;
}

/* Validates p, wraps it and attaches keep (taken, may be NULL). */
static PyObject *finish(ns_problem *p, PyObject *keep)
{
    if (!p) { Py_XDECREF(keep); return PyErr_NoMemory(); }
    char err[NS_ERRMSG_LEN] = "";
    ns_status st = ns_problem_validate(p, err);
    if (st != NS_OK) { ns_problem_free(p); Py_XDECREF(keep); return pyns_raise(st, err); }
    PyObject *o = pyns_problem_wrap(p);
    if (!o) { Py_XDECREF(keep); return NULL; }
    ((pyns_Problem *)o)->keep = keep;
    return o;
}

/* Optional vector: None → NULL array (meaning the default). */
static int opt_vector(PyObject *o, const char *name, npy_intp n, PyArrayObject **out)
{
    *out = NULL;
    if (!o || o == Py_None) return 0;
    *out = pyns_vector(o, name, n);
    return *out ? 0 : -1;
}

static const double *data_or_null(PyArrayObject *a) { return a ? PyArray_DATA(a) : NULL; }

/* n of a callback problem: the n argument, else the length of lb/ub. */
static int get_n(PyObject *no, PyObject *lbo, PyObject *ubo, const char *fn, ns_int *n)
{
    if (no && no != Py_None) {
        long l;
        if (pyns_get_int(no, "n", 0, 2147483647L, &l) < 0) return -1;
        *n = (ns_int)l;
        return 0;
    }
    PyObject *b = lbo && lbo != Py_None ? lbo : ubo && ubo != Py_None ? ubo : NULL;
    if (b) {
        Py_ssize_t len = PyObject_Length(b);
        if (len < 0) return -1;
        *n = (ns_int)len;
        return 0;
    }
    PyErr_Format(pyns_InputError, "%s: n: needed with a callable F (or give lb/ub)", fn);
    return -1;
}

/* ---------------------------------------------------------------- ncp */
static PyObject *py_ncp(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "F", "n", "jacobian", "M", "q", NULL };
    PyObject *Fo = Py_None, *no = Py_None, *Jo = Py_None, *Mo = Py_None, *qo = Py_None, *F, *J;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOOOO:ncp", kwlist, &Fo, &no, &Jo, &Mo, &qo))
        return NULL;
    if (get_callable(Fo, "F", &F) < 0 || get_callable(Jo, "jacobian", &J) < 0) return NULL;
    if (F && Mo != Py_None) { PyErr_SetString(pyns_InputError, "ncp: give a callable F or M and q, not both"); return NULL; }
    if (!F) {
        if (Mo == Py_None || qo == Py_None) { PyErr_SetString(pyns_InputError, "ncp: F: give a callable F (with n) or M and q"); return NULL; }
        ns_matrix *M = pyns_matrix(Mo, "M");
        if (!M) return NULL;
        PyArrayObject *q = pyns_vector(qo, "q", M->cols);
        if (!q) { ns_matrix_free(M); return NULL; }
        ns_problem *p = ns_problem_from_ncp(ns_ncp_new_affine(M, PyArray_DATA(q)));
        Py_DECREF(q);
        return finish(p, NULL);
    }
    ns_int n;
    if (get_n(no, NULL, NULL, "ncp", &n) < 0) return NULL;
    pycb *cb = NULL;
    PyObject *keep = make_keep(F, J, NULL, &cb);
    if (!keep) return NULL;
    return finish(ns_problem_from_ncp(ns_ncp_new(n, tramp_F, J ? tramp_J : NULL, cb)), keep);
}

/* ---------------------------------------------------------------- mcp / vi */
static PyObject *py_box_kind(PyObject *args, PyObject *kw, ns_kind kind)
{
    static char *kwlist[] = { "F", "lb", "ub", "n", "jacobian", "project", "M", "q", NULL };
    const char *fn = kind == NS_KIND_MCP ? "mcp" : "vi";
    PyObject *Fo = Py_None, *lbo = Py_None, *ubo = Py_None, *no = Py_None, *Jo = Py_None,
             *Po = Py_None, *Mo = Py_None, *qo = Py_None, *F, *J, *P;
    if (!PyArg_ParseTupleAndKeywords(args, kw, kind == NS_KIND_MCP ? "|OOOOOOOO:mcp" : "|OOOOOOOO:vi",
                                     kwlist, &Fo, &lbo, &ubo, &no, &Jo, &Po, &Mo, &qo))
        return NULL;
    if (get_callable(Fo, "F", &F) < 0 || get_callable(Jo, "jacobian", &J) < 0 ||
        get_callable(Po, "project", &P) < 0)
        return NULL;
    if (P && kind == NS_KIND_MCP) { PyErr_SetString(pyns_InputError, "mcp: project: an MCP's set is its box (lb, ub)"); return NULL; }
    if (P && (lbo != Py_None || ubo != Py_None)) { PyErr_Format(pyns_InputError, "%s: X: give project or lb/ub, not both", fn); return NULL; }
    if (F && Mo != Py_None) { PyErr_Format(pyns_InputError, "%s: give a callable F or M and q, not both", fn); return NULL; }
    ns_matrix *M = NULL;
    ns_int n;
    if (!F) {
        if (Mo == Py_None || qo == Py_None) { PyErr_Format(pyns_InputError, "%s: F: give a callable F or M and q", fn); return NULL; }
        if (!(M = pyns_matrix(Mo, "M"))) return NULL;
        n = M->cols;
    } else if (get_n(no, lbo, ubo, fn, &n) < 0) return NULL;
    PyArrayObject *q = NULL, *lb = NULL, *ub = NULL;
    if ((M && !(q = pyns_vector(qo, "q", n))) || opt_vector(lbo, "lb", n, &lb) < 0 ||
        opt_vector(ubo, "ub", n, &ub) < 0) {
        ns_matrix_free(M); Py_XDECREF(q); Py_XDECREF(lb); Py_XDECREF(ub);
        return NULL;
    }
    ns_problem *p = NULL;
    PyObject *keep = NULL;
    pycb *cb = NULL;
    if (F || P) {
        keep = make_keep(F, J, P, &cb);
        if (!keep) { ns_matrix_free(M); Py_XDECREF(q); Py_XDECREF(lb); Py_XDECREF(ub); return NULL; }
    }
    if (kind == NS_KIND_MCP) {
        p = M ? ns_problem_from_mcp(ns_mcp_new_affine(M, PyArray_DATA(q), data_or_null(lb), data_or_null(ub)))
              : ns_problem_from_mcp(ns_mcp_new(n, tramp_F, J ? tramp_J : NULL, cb, data_or_null(lb),
                                               data_or_null(ub)));
    } else if (P) {
        ns_vi *v = ns_vi_new(n, F ? tramp_F : NULL, J ? tramp_J : NULL, cb, tramp_P);
        if (v && M) {   /* affine F over a projection set: v owns M and a malloc'd q */
            v->M = M;
            M = NULL;
            v->q = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
            if (v->q && n) memcpy(v->q, PyArray_DATA(q), (size_t)n * sizeof(double));
            if (!v->q) { ns_vi_free(v); v = NULL; }
        }
        p = ns_problem_from_vi(v);
    } else {
        p = M ? ns_problem_from_vi(ns_vi_new_affine_box(M, PyArray_DATA(q), data_or_null(lb), data_or_null(ub)))
              : ns_problem_from_vi(ns_vi_new_box(n, tramp_F, J ? tramp_J : NULL, cb, data_or_null(lb),
                                                 data_or_null(ub)));
        M = NULL;
    }
    if (kind == NS_KIND_MCP) M = NULL;
    ns_matrix_free(M);
    Py_XDECREF(q); Py_XDECREF(lb); Py_XDECREF(ub);
    return finish(p, keep);
}

static PyObject *py_mcp(PyObject *m, PyObject *args, PyObject *kw) { return py_box_kind(args, kw, NS_KIND_MCP); }
static PyObject *py_vi(PyObject *m, PyObject *args, PyObject *kw) { return py_box_kind(args, kw, NS_KIND_VI); }

/* ---------------------------------------------------------------- cqp */
static PyObject *py_cqp(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "M", "q", "lb", "ub", "cones", "mu", "project", "A", "b", NULL };
    PyObject *Mo, *qo, *lbo = Py_None, *ubo = Py_None, *co = Py_None, *muo = Py_None,
             *Po = Py_None, *Ao = Py_None, *bo = Py_None, *P;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OOOOOOO:cqp", kwlist, &Mo, &qo, &lbo, &ubo,
                                     &co, &muo, &Po, &Ao, &bo))
        return NULL;
    if (get_callable(Po, "project", &P) < 0) return NULL;
    ns_matrix *M = pyns_matrix(Mo, "M");
    if (!M) return NULL;
    ns_int n = M->cols;
    PyArrayObject *q = pyns_vector(qo, "q", n);
    if (!q) { ns_matrix_free(M); return NULL; }
    ns_cqp *c = ns_cqp_new(M, PyArray_DATA(q));
    Py_DECREF(q);
    if (!c) return PyErr_NoMemory();
    ns_problem *p = ns_problem_from_cqp(c);
    if (!p) return PyErr_NoMemory();
    PyObject *keep = NULL;
    PyArrayObject *lb = NULL, *ub = NULL, *mu = NULL, *b = NULL;
    if (opt_vector(lbo, "lb", n, &lb) < 0 || opt_vector(ubo, "ub", n, &ub) < 0) goto fail;
    if (lb || ub) ns_cqp_set_box(c, data_or_null(lb), data_or_null(ub));
    if (co != Py_None) {
        PyObject *seq = PySequence_Fast(co, "cones must be a sequence of cone sizes");
        if (!seq) goto fail;
        Py_ssize_t nc = PySequence_Fast_GET_SIZE(seq);
        ns_int *start = PyMem_Malloc(((size_t)nc + 1) * sizeof(ns_int));
        if (!start) { Py_DECREF(seq); PyErr_NoMemory(); goto fail; }
        start[0] = 0;
        for (Py_ssize_t i = 0; i < nc; i++) {
            long d;
            if (pyns_get_int(PySequence_Fast_GET_ITEM(seq, i), "cones[i]", 1, 2147483647L, &d) < 0) {
                PyMem_Free(start); Py_DECREF(seq); goto fail;
            }
            start[i + 1] = start[i] + (ns_int)d;
        }
        Py_DECREF(seq);
        if (muo == Py_None) { PyMem_Free(start); PyErr_SetString(pyns_InputError, "cqp: mu: needed with cones"); goto fail; }
        if (!(mu = pyns_vector(muo, "mu", nc))) { PyMem_Free(start); goto fail; }
        ns_cqp_set_cones(c, (ns_int)nc, start, PyArray_DATA(mu));
        PyMem_Free(start);
    }
    if (P) {
        pycb *cb = NULL;
        if (!(keep = make_keep(NULL, NULL, P, &cb))) goto fail;
        ns_cqp_set_projection(c, tramp_P, cb);
    }
    if (Ao != Py_None) {
        ns_matrix *A = pyns_matrix(Ao, "A");
        if (!A) goto fail;
        if (bo == Py_None) { ns_matrix_free(A); PyErr_SetString(pyns_InputError, "cqp: b: needed with A"); goto fail; }
        if (!(b = pyns_vector(bo, "b", A->rows))) { ns_matrix_free(A); goto fail; }
        ns_cqp_set_equalities(c, A, PyArray_DATA(b));
    }
    Py_XDECREF(lb); Py_XDECREF(ub); Py_XDECREF(mu); Py_XDECREF(b);
    {
        char err[NS_ERRMSG_LEN] = "";
        ns_status st = ns_problem_validate(p, err);
        if (st != NS_OK) { ns_problem_free(p); Py_XDECREF(keep); return pyns_raise(st, err); }
        PyObject *o = pyns_problem_wrap(p);
        if (!o) { Py_XDECREF(keep); return NULL; }
        ((pyns_Problem *)o)->keep = keep;
        return o;
    }
fail:
    Py_XDECREF(lb); Py_XDECREF(ub); Py_XDECREF(mu); Py_XDECREF(b); Py_XDECREF(keep);
    ns_problem_free(p);
    return NULL;
}

/* ---------------------------------------------------------------- soclcp */
static PyObject *py_soclcp(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "W", "q", "cones", "mu", NULL };
    PyObject *Wo, *qo, *co, *muo;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO:soclcp", kwlist, &Wo, &qo, &co, &muo)) return NULL;
    PyObject *seq = PySequence_Fast(co, "cones must be a sequence of cone sizes");
    if (!seq) return NULL;
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(seq);
    ns_int *start = PyMem_Malloc(((size_t)nc + 1) * sizeof(ns_int));
    if (!start) { Py_DECREF(seq); return PyErr_NoMemory(); }
    start[0] = 0;
    for (Py_ssize_t i = 0; i < nc; i++) {
        long d;
        if (pyns_get_int(PySequence_Fast_GET_ITEM(seq, i), "cones[i]", 1, 2147483647L, &d) < 0) {
            PyMem_Free(start); Py_DECREF(seq); return NULL;
        }
        start[i + 1] = start[i] + (ns_int)d;
    }
    Py_DECREF(seq);
    ns_matrix *W = pyns_matrix(Wo, "W");
    PyArrayObject *q = W ? pyns_vector(qo, "q", W->cols) : NULL, *mu = q ? pyns_vector(muo, "mu", nc) : NULL;
    if (!mu) { PyMem_Free(start); ns_matrix_free(W); Py_XDECREF(q); return NULL; }
    ns_problem *p = ns_problem_from_soclcp(ns_soclcp_new(W, PyArray_DATA(q), (ns_int)nc, start,
                                                         PyArray_DATA(mu)));
    PyMem_Free(start);
    Py_DECREF(q); Py_DECREF(mu);
    return finish(p, NULL);
}

PyMethodDef pyns_kinds_methods[] = {
    { "ncp", (PyCFunction)(void (*)(void))py_ncp, METH_VARARGS | METH_KEYWORDS,
      "ncp($module, F=None, n=None, jacobian=None, M=None, q=None)\n--\n\n"
      "ncp(F, n, jacobian=None) or ncp(M=, q=): 0 <= z _|_ F(z) >= 0; F(z) -> n floats, "
      "jacobian(z) -> n x n array or SciPy sparse (None: finite differences)." },
    { "mcp", (PyCFunction)(void (*)(void))py_mcp, METH_VARARGS | METH_KEYWORDS,
      "mcp($module, F=None, lb=None, ub=None, n=None, jacobian=None, project=None, M=None, q=None)\n--\n\n"
      "mcp(F, lb=None, ub=None, n=None, jacobian=None) or mcp(M=, q=, lb=, ub=): "
      "z in [lb, ub], z = P(z - F(z)); None bounds are -inf / +inf (free rows: F_i(z) = 0)." },
    { "vi", (PyCFunction)(void (*)(void))py_vi, METH_VARARGS | METH_KEYWORDS,
      "vi($module, F=None, lb=None, ub=None, n=None, jacobian=None, project=None, M=None, q=None)\n--\n\n"
      "vi(F, lb=None, ub=None, n=None, jacobian=None, project=None) or vi(M=, q=, lb=, ub=): "
      "x in X, <F(x), y - x> >= 0 for y in X; X the box [lb, ub] or given by project(x)." },
    { "cqp", (PyCFunction)(void (*)(void))py_cqp, METH_VARARGS | METH_KEYWORDS,
      "cqp($module, M, q, lb=None, ub=None, cones=None, mu=None, project=None, A=None, b=None)\n--\n\n"
      "cqp(M, q, lb=None, ub=None, cones=None, mu=None, project=None, A=None, b=None): "
      "min 1/2 x'Mx + q'x over a box, second-order cones (sizes, mu) or project(x), with A x = b." },
    { "soclcp", (PyCFunction)(void (*)(void))py_soclcp, METH_VARARGS | METH_KEYWORDS,
      "soclcp($module, W, q, cones, mu)\n--\n\n"
      "soclcp(W, q, cones, mu): r in K _|_ W r + q in K*, K the product of the cones "
      "{|r_T| <= mu r_0} of the given sizes." },
    { NULL, NULL, 0, NULL }
};
