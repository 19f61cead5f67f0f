/* module.c — nonsmooth._core: module definition, exceptions, conversions
 * between Python objects and the library's matrices and vectors. */
#define PYNS_MAIN
#include "pyns.h"
#include <limits.h>
#include <string.h>

PyObject *pyns_Error, *pyns_InputError, *pyns_FileError, *pyns_UnsupportedError;

PyObject *pyns_raise(ns_status st, const char *msg)
{
    /* a Python callback's exception (the cause of the failure) wins */
    if (PyErr_Occurred()) return NULL;
    const char *text = msg && msg[0] ? msg : ns_status_name(st);
    PyObject *type;
    switch (st) {
    case NS_BAD_INPUT: case NS_NOT_FOUND: type = pyns_InputError; break;
    case NS_IO_ERROR: type = pyns_FileError; break;
    case NS_UNSUPPORTED: type = pyns_UnsupportedError; break;
    case NS_NO_MEMORY: return PyErr_NoMemory();
    default: type = pyns_Error; break;
    }
    PyObject *exc = PyObject_CallFunction(type, "s", text);
    if (!exc) return NULL;
    PyObject *code = PyUnicode_FromString(ns_status_name(st));
    if (code) {
        PyObject_SetAttrString(exc, "status", code);
        Py_DECREF(code);
    }
    PyErr_SetObject(type, exc);
    Py_DECREF(exc);
    return NULL;
}

const char *pyns_utf8(PyObject *s, const char *name)
{
    Py_ssize_t len = 0;
    const char *c = PyUnicode_AsUTF8AndSize(s, &len);
    if (!c) return NULL;
    if ((size_t)len != strlen(c)) {
        PyErr_Format(PyExc_ValueError, "%s: embedded null character", name);
        return NULL;
    }
    return c;
}

int pyns_key_is(PyObject *key, const char *name)
{
    return PyUnicode_Check(key) && PyUnicode_CompareWithASCIIString(key, name) == 0;
}

int pyns_get_double(PyObject *v, const char *name, double *out)
{
    if (PyBool_Check(v) || !(PyFloat_Check(v) || PyLong_Check(v) || PyNumber_Check(v))) {
        PyErr_Format(PyExc_TypeError, "%s must be a number, not %.100s", name,
                     Py_TYPE(v)->tp_name);
        return -1;
    }
    double d = PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    *out = d;
    return 0;
}

int pyns_get_int(PyObject *v, const char *name, long lo, long hi, long *out)
{
    if (PyBool_Check(v) || PyArray_IsScalar(v, Bool) || (!PyLong_Check(v) && !PyIndex_Check(v))) {
        PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.100s", name,
                     Py_TYPE(v)->tp_name);
        return -1;
    }
    int overflow = 0;
    PyObject *i = PyNumber_Index(v);
    if (!i) return -1;
    long l = PyLong_AsLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (l == -1 && PyErr_Occurred()) return -1;
    if (overflow || l < lo || l > hi) {
        PyErr_Format(PyExc_ValueError, "%s = %S out of range [%ld, %ld]", name, v, lo, hi);
        return -1;
    }
    *out = l;
    return 0;
}

/* Array of the given type from anything NumPy accepts, safe casting only. */
static PyArrayObject *as_array(PyObject *obj, const char *name, int type, int flags)
{
    if (obj == Py_None) {
        PyErr_Format(PyExc_TypeError, "%s is required (got None)", name);
        return NULL;
    }
    PyArray_Descr *d = PyArray_DescrFromType(type);
    PyArrayObject *a = (PyArrayObject *)PyArray_FromAny(obj, d, 0, 0, flags, NULL);
    if (!a) {
        /* name the argument in NumPy's message (TypeError/ValueError kept);
         * anything else (MemoryError and NumPy's subclass of it, whose
         * constructor takes no message, KeyboardInterrupt, ...) goes up as
         * it came */
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        if (t != PyExc_TypeError && t != PyExc_ValueError) {
            PyErr_Restore(t, v, tb);
            return NULL;
        }
        PyErr_NormalizeException(&t, &v, &tb);
        PyErr_Format(t, "%s: %S", name, v ? v : Py_None);
        Py_XDECREF(t); Py_XDECREF(v); Py_XDECREF(tb);
    }
    return a;
}

PyArrayObject *pyns_vector(PyObject *obj, const char *name, npy_intp n)
{
    PyArrayObject *a = as_array(obj, name, NPY_DOUBLE, NPY_ARRAY_CARRAY_RO);
    if (!a) return NULL;
    if (PyArray_NDIM(a) != 1) {
        PyErr_Format(PyExc_ValueError, "%s must be 1-D, got %d dimension(s)", name,
                     PyArray_NDIM(a));
        Py_DECREF(a);
        return NULL;
    }
    if (n >= 0 && PyArray_DIM(a, 0) != n) {
        PyErr_Format(PyExc_ValueError, "%s has length %zd, expected %zd", name,
                     (Py_ssize_t)PyArray_DIM(a, 0), (Py_ssize_t)n);
        Py_DECREF(a);
        return NULL;
    }
    if (PyArray_DIM(a, 0) > NS_INT_MAX_DIM) {
        PyErr_Format(PyExc_ValueError, "%s is too long", name);
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

PyArrayObject *pyns_fmatrix(PyObject *obj, const char *name, npy_intp rows, npy_intp cols)
{
    PyArrayObject *a = as_array(obj, name, NPY_DOUBLE, NPY_ARRAY_FARRAY_RO);
    if (!a) return NULL;
    if (PyArray_NDIM(a) != 2) {
        PyErr_Format(PyExc_ValueError, "%s must be 2-D, got %d dimension(s)", name,
                     PyArray_NDIM(a));
        Py_DECREF(a);
        return NULL;
    }
    if ((rows >= 0 && PyArray_DIM(a, 0) != rows) || (cols >= 0 && PyArray_DIM(a, 1) != cols)) {
        PyErr_Format(PyExc_ValueError, "%s has shape (%zd, %zd), expected (%zd, %zd)", name,
                     (Py_ssize_t)PyArray_DIM(a, 0), (Py_ssize_t)PyArray_DIM(a, 1),
                     (Py_ssize_t)(rows >= 0 ? rows : PyArray_DIM(a, 0)),
                     (Py_ssize_t)(cols >= 0 ? cols : PyArray_DIM(a, 1)));
        Py_DECREF(a);
        return NULL;
    }
    if (PyArray_DIM(a, 0) > NS_INT_MAX_DIM || PyArray_DIM(a, 1) > NS_INT_MAX_DIM) {
        PyErr_Format(PyExc_ValueError, "%s is too large", name);
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

static ns_matrix *sparse_matrix(PyObject *obj, const char *name)
{
    ns_matrix *A = NULL;
    PyArrayObject *p = NULL, *i = NULL, *x = NULL;
    PyObject *csc = PyObject_CallMethod(obj, "tocsc", NULL);
    PyObject *shape = NULL, *ip = NULL, *ii = NULL, *ix = NULL;
    if (!csc) return NULL;
    shape = PyObject_GetAttrString(csc, "shape");
    ip = PyObject_GetAttrString(csc, "indptr");
    ii = PyObject_GetAttrString(csc, "indices");
    ix = PyObject_GetAttrString(csc, "data");
    if (!shape || !ip || !ii || !ix) goto done;
    Py_ssize_t rows, cols;
    if (!PyArg_ParseTuple(shape, "nn;sparse shape must be (rows, cols)", &rows, &cols)) goto done;
    if (rows < 0 || cols < 0 || rows > NS_INT_MAX_DIM || cols > NS_INT_MAX_DIM) {
        PyErr_Format(PyExc_ValueError, "%s: bad sparse shape (%zd, %zd)", name, rows, cols);
        goto done;
    }
    /* indices may be int32 or int64: take int64 then check the range */
    PyArrayObject *p64 = as_array(ip, name, NPY_INT64, NPY_ARRAY_CARRAY_RO);
    if (!p64) goto done;
    p = p64;
    i = as_array(ii, name, NPY_INT64, NPY_ARRAY_CARRAY_RO);
    if (!i) goto done;
    x = as_array(ix, name, NPY_DOUBLE, NPY_ARRAY_CARRAY_RO);
    if (!x) goto done;
    if (PyArray_NDIM(p) != 1 || PyArray_DIM(p, 0) != cols + 1 || PyArray_NDIM(i) != 1 ||
        PyArray_NDIM(x) != 1 || PyArray_DIM(i, 0) != PyArray_DIM(x, 0)) {
        PyErr_Format(PyExc_ValueError, "%s: inconsistent sparse arrays", name);
        goto done;
    }
    const npy_int64 *pp = PyArray_DATA(p), *pi = PyArray_DATA(i);
    npy_int64 nnz = pp[cols];
    if (pp[0] != 0 || nnz < 0 || nnz > PyArray_DIM(i, 0) || nnz > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "%s: bad sparse column pointers", name);
        goto done;
    }
    for (Py_ssize_t j = 0; j < cols; j++)
        if (pp[j + 1] < pp[j]) {
            PyErr_Format(PyExc_ValueError, "%s: sparse column pointers decrease at column %zd",
                         name, j);
            goto done;
        }
    for (npy_int64 k = 0; k < nnz; k++)
        if (pi[k] < 0 || pi[k] >= rows) {
            PyErr_Format(PyExc_ValueError, "%s: sparse row index %lld out of range",
                         name, (long long)pi[k]);
            goto done;
        }
    A = ns_matrix_sparse_new((ns_int)rows, (ns_int)cols, (ns_int)nnz);
    if (!A) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t j = 0; j <= cols; j++) A->csc.p[j] = (ns_int)pp[j];
    for (npy_int64 k = 0; k < nnz; k++) A->csc.i[k] = (ns_int)pi[k];
    if (nnz) memcpy(A->csc.x, PyArray_DATA(x), (size_t)nnz * sizeof(double));
done:
    Py_XDECREF(p); Py_XDECREF(i); Py_XDECREF(x);
    Py_XDECREF(shape); Py_XDECREF(ip); Py_XDECREF(ii); Py_XDECREF(ix);
    Py_DECREF(csc);
    return A;
}

ns_matrix *pyns_matrix(PyObject *obj, const char *name)
{
    if (!PyArray_Check(obj) && obj != Py_None && PyObject_HasAttrString(obj, "tocsc"))
        return sparse_matrix(obj, name);
    if (PyArray_Check(obj)) {
        /* float64 array of any strides (C order, views): one strided copy
         * into the column-major matrix, no intermediate array */
        PyArrayObject *a = (PyArrayObject *)obj;
        if (PyArray_TYPE(a) == NPY_DOUBLE && PyArray_NDIM(a) == 2 && PyArray_ISBEHAVED_RO(a) &&
            PyArray_DIM(a, 0) <= NS_INT_MAX_DIM && PyArray_DIM(a, 1) <= NS_INT_MAX_DIM) {
            npy_intp r = PyArray_DIM(a, 0), c = PyArray_DIM(a, 1);
            npy_intp s0 = PyArray_STRIDE(a, 0), s1 = PyArray_STRIDE(a, 1);
            ns_matrix *A = ns_matrix_dense_new((ns_int)r, (ns_int)c);
            if (!A) return (ns_matrix *)PyErr_NoMemory();
            const char *base = PyArray_BYTES(a);
            for (npy_intp j = 0; j < c; j++)
                for (npy_intp i = 0; i < r; i++)
                    memcpy(&A->dense[i + j * r], base + i * s0 + j * s1, sizeof(double));
            return A;
        }
    }
    PyArrayObject *a = pyns_fmatrix(obj, name, -1, -1);
    if (!a) return NULL;
    ns_matrix *A = ns_matrix_dense_new((ns_int)PyArray_DIM(a, 0), (ns_int)PyArray_DIM(a, 1));
    if (!A) { Py_DECREF(a); PyErr_NoMemory(); return NULL; }
    size_t n = (size_t)PyArray_DIM(a, 0) * (size_t)PyArray_DIM(a, 1);
    if (n) memcpy(A->dense, PyArray_DATA(a), n * sizeof(double));
    Py_DECREF(a);
    return A;
}

PyObject *pyns_array_copy(const double *x, npy_intp n)
{
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_DOUBLE);
    if (a && n) memcpy(PyArray_DATA((PyArrayObject *)a), x, (size_t)n * sizeof(double));
    return a;
}

PyObject *pyns_array_copy_colmajor(const double *x, npy_intp rows, npy_intp cols)
{
    npy_intp dims[2] = { rows, cols };
    PyObject *a = PyArray_EMPTY(2, dims, NPY_DOUBLE, 1 /* Fortran order */);
    if (a && rows > 0 && cols > 0)
        memcpy(PyArray_DATA((PyArrayObject *)a), x, (size_t)(rows * cols) * sizeof(double));
    return a;
}

PyObject *pyns_matrix_to_array(const ns_matrix *A)
{
    if (A->storage == NS_DENSE) return pyns_array_copy_colmajor(A->dense, A->rows, A->cols);
    ns_matrix *D = ns_matrix_to_dense(A);
    if (!D) return PyErr_NoMemory();
    PyObject *a = pyns_array_copy_colmajor(D->dense, D->rows, D->cols);
    ns_matrix_free(D);
    return a;
}

PyObject *pyns_status_str(ns_status st)
{
    return PyUnicode_InternFromString(ns_status_name(st));
}

/* ------------------------------------------------------------------ module */

static PyObject *py_version(PyObject *self, PyObject *noargs)
{
    return PyUnicode_FromString(ns_version());
}

static PyMethodDef core_methods[] = {
    { "version", py_version, METH_NOARGS,
      "version($module)\n--\n\nVersion of the linked C library, e.g. '0.1.0'." },
    { NULL, NULL, 0, NULL }
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core",
    "C extension of the nonsmooth package (see the package docstring).",
    -1, core_methods, NULL, NULL, NULL, NULL
};

static PyObject *new_exception(PyObject *m, const char *name, PyObject *bases, const char *doc)
{
    char full[64];
    snprintf(full, sizeof full, "nonsmooth.%s", name);
    PyObject *e = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
    if (!e) return NULL;
    Py_INCREF(e);
    if (PyModule_AddObject(m, name, e) < 0) { Py_DECREF(e); Py_DECREF(e); return NULL; }
    return e;
}

PyMODINIT_FUNC PyInit__core(void)
{
    import_array();
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    PyObject *b = NULL;
    pyns_Error = new_exception(m, "Error", PyExc_Exception,
        "A failure reported by the nonsmooth library (attribute status: its name).");
    if (!pyns_Error) goto fail;
    b = PyTuple_Pack(2, pyns_Error, PyExc_ValueError);
    if (!b || !(pyns_InputError = new_exception(m, "InputError", b,
        "Bad input: invalid problem, argument, option or unknown name."))) goto fail;
    Py_DECREF(b);
    b = PyTuple_Pack(2, pyns_Error, PyExc_OSError);
    if (!b || !(pyns_FileError = new_exception(m, "FileError", b,
        "A file could not be opened, read or written."))) goto fail;
    Py_DECREF(b);
    b = PyTuple_Pack(2, pyns_Error, PyExc_NotImplementedError);
    if (!b || !(pyns_UnsupportedError = new_exception(m, "UnsupportedError", b,
        "A valid request this build or solver cannot do."))) goto fail;
    Py_DECREF(b);
    b = NULL;
    if (PyModule_AddFunctions(m, pyns_numerics_methods) < 0) goto fail;
    if (PyModule_AddFunctions(m, pyns_kinds_methods) < 0) goto fail;
    if (pyns_numerics_init(m) < 0 || pyns_mechanics_init(m) < 0) goto fail;
#ifdef PYNS_HAVE_SCENE
    if (pyns_scene_init(m) < 0) goto fail;   /* scene.c: rigid-body scenes with Bullet */
#endif
    return m;
fail:
    Py_XDECREF(b);
    Py_DECREF(m);
    return NULL;
}
