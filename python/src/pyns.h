/* pyns.h — shared declarations of the nonsmooth._core CPython extension.
 *
 * Hand-written against the CPython and NumPy C APIs (no generated code):
 * module.c (module, exceptions, array conversions), numerics.c (Problem,
 * Result, read/solve/solvers), mechanics.c (Model, Simulation).
 *
 * Conversions never crash on foreign input: every array argument goes
 * through PyArray_FROMANY with safe casting (ints → float64 accepted;
 * complex, strings, objects refused with TypeError), any memory layout
 * (non-contiguous and C-ordered inputs are copied), and shapes checked here
 * with a message naming the argument. Values (NaN, Inf) are checked by the
 * library's own validators, whose messages become the exception text.
 */
#ifndef PYNS_H
#define PYNS_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL pyns_ARRAY_API
#ifndef PYNS_MAIN
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>
#include "nonsmooth/nonsmooth.h"
#include "nonsmooth/nsm.h"

/* ---- exceptions (module.c) ---- */
extern PyObject *pyns_Error;          /* base: nonsmooth.Error(Exception) */
extern PyObject *pyns_InputError;     /* bad input / unknown name: also ValueError */
extern PyObject *pyns_FileError;      /* file cannot be opened/read/written: also OSError */
extern PyObject *pyns_UnsupportedError; /* also NotImplementedError */

/** Raises the exception of a library status with its message; returns NULL. */
PyObject *pyns_raise(ns_status st, const char *msg);

/* ---- conversions (module.c) ---- */
/** Matrix argument: 2-D array-like (dense, any layout) or a SciPy sparse
 *  matrix/array (anything with tocsc()). New ns_matrix or NULL with an
 *  exception set. */
ns_matrix *pyns_matrix(PyObject *obj, const char *name);
/** 1-D float64 C-contiguous array of length n (n < 0: any length); new
 *  reference or NULL with an exception. */
PyArrayObject *pyns_vector(PyObject *obj, const char *name, npy_intp n);
/** 2-D float64 Fortran-ordered array of shape rows × cols (column-major, the
 *  library's layout); new reference or NULL. */
PyArrayObject *pyns_fmatrix(PyObject *obj, const char *name, npy_intp rows,
                            npy_intp cols);
/** New 1-D float64 array holding a copy of x[0..n). */
PyObject *pyns_array_copy(const double *x, npy_intp n);
/** New rows×cols array copied from a column-major buffer. */
PyObject *pyns_array_copy_colmajor(const double *x, npy_intp rows, npy_intp cols);
/** Dense copy of any ns_matrix as a 2-D array. */
PyObject *pyns_matrix_to_array(const ns_matrix *A);
/** Interned str of a status name ("converged", ...). */
PyObject *pyns_status_str(ns_status st);
/** Keyword parsing helper: 1 if key equals the ASCII name. */
/** UTF-8 of a str (borrowed from it), NULL with an exception set — also
 *  ValueError naming `name` for an embedded NUL, which C would cut at. */
const char *pyns_utf8(PyObject *s, const char *name);
int pyns_key_is(PyObject *key, const char *name);
/** Double / int / bool from a keyword value with a message naming it. */
int pyns_get_double(PyObject *v, const char *name, double *out);
int pyns_get_int(PyObject *v, const char *name, long lo, long hi, long *out);

/* ---- numerics types (numerics.c) ---- */
typedef struct {
    PyObject_HEAD
    ns_problem *p;
    PyObject *keep;   /* callables of a callback problem (a capsule), or NULL */
} pyns_Problem;
extern PyTypeObject pyns_ProblemType;
/** Wraps p (taken; freed when the object dies). NULL + exception on failure
 *  (p freed). */
PyObject *pyns_problem_wrap(ns_problem *p);

extern PyTypeObject pyns_ResultType;
/** Result object from a finished solve (copies the vectors). */
PyObject *pyns_result_from_state(PyObject *m, PyObject *args);
PyObject *pyns_result_new(const ns_problem *p, const char *solver,
                          const ns_result *r, const ns_solution *s);
/** Fills o from keywords (tol, max_iter, ...); the solver's keywords
 *  (solver, x0) are left to the caller: names in `skip` are ignored.
 *  Returns 0 or -1 with ValueError naming an unknown option. */
int pyns_parse_options(PyObject *kw, ns_options *o, const char *const *skip);
/** Resolves a solver argument for kind: None/"auto" → the kind's "auto"
 *  entry if registered, else NULL (the registry's default). Otherwise the
 *  name, checked (ValueError naming it and listing the kind's solvers).
 *  Returns 0 / -1; *name stays valid while obj lives. */
int pyns_solver_name(PyObject *obj, ns_kind kind, const char **name);

extern PyMethodDef pyns_numerics_methods[];

/* ---- callback kinds (kinds.c): ncp, mcp, vi, cqp, soclcp ---- */
extern PyMethodDef pyns_kinds_methods[];
/** After a solve of a problem holding Python callables: when one of them
 *  raised and the solve did not converge, sets that exception and returns
 *  -1; otherwise forgets it and returns 0. */
int pyns_callback_error(pyns_Problem *p, int converged);
int pyns_numerics_init(PyObject *m);

/* ---- mechanics (mechanics.c) ---- */
int pyns_mechanics_init(PyObject *m);

/* ---- rigid-body scenes (scene.c, built with nonsmooth::collision) ---- */
#ifdef PYNS_HAVE_SCENE
int pyns_scene_init(PyObject *m);
#endif

#endif
