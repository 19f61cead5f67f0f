/* io_fclib.c — FCLIB HDF5 problems (docs/formats.md §4): read with the HDF5
 * API, written through libfclib.
 *
 * Reading checks what the problem is built from (groups and datasets
 * present, types, lengths, pointers and indices in range) and nothing else:
 * the metadata no problem depends on -- the info group (title, description,
 * math_info) and a matrix's conditioning, determinant, rank and comment --
 * is not opened, so a malformed one neither stops the read nor costs it
 * (each dataset costs ~8 us to open and describe; the info group's walk and
 * three strings were a tenth of a small file's read).
 * A matrix's arrays must agree with its scalars m, n, nz, nzmax (the sizes
 * every FCLIB reader, libfclib's among them, allocates from). libfclib
 * trusts its file (it calls exit(1) on a failed HDF5 call), so only files
 * we created ourselves are handed to it, to its writers.
 *
 * HDF5 error printing: the first call of ns_fclib_read or ns_fclib_write
 * turns off HDF5's automatic error stack printing for the default error
 * stack (H5Eset_auto2(H5E_DEFAULT, NULL, NULL)). This is process-global HDF5
 * state, the one piece of global state the library touches (failed probes
 * such as "does this dataset exist" would otherwise print); it is not
 * restored.
 */
#include "io/io_fclib.h"
#include "core/ns_internal.h"
#include "matrix/matrix_internal.h"
#include <hdf5.h>
#include <fclib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------ HDF5 probes */

/* 1 if path names a dataset of the file, 0 otherwise (missing link, missing
 * intermediate group, or another kind of object). */
static int dataset_exists(hid_t f, const char *path)
{
    if (H5Lexists(f, path, H5P_DEFAULT) <= 0) return 0;
    H5O_info_t oi;
    if (H5Oget_info_by_name(f, path, &oi, H5P_DEFAULT) < 0) return 0;
    return oi.type == H5O_TYPE_DATASET;
}

/* 1 if a link of that name exists at all (group or dataset). Intermediate
 * groups are tested one by one so that H5Lexists never fails. */
static int link_exists(hid_t f, const char *path)
{
    char buf[256];
    size_t len = strlen(path);
    if (len >= sizeof buf) return 0;
    memcpy(buf, path, len + 1);
    for (size_t k = 1; k <= len; k++) {
        if (buf[k] == '/' || buf[k] == '\0') {
            char c = buf[k];
            buf[k] = '\0';
            int e = H5Lexists(f, buf, H5P_DEFAULT) > 0;
            buf[k] = c;
            if (!e) return 0;
        }
    }
    return 1;
}

typedef struct ds_desc {
    H5T_class_t cls;
    hssize_t len;      /* number of elements */
    size_t tsize;      /* bytes of one element */
} ds_desc;

/* Class and element count of the dataset at path, left open in *dso (the
 * caller closes it) when dso is non-NULL; NS_BAD_INPUT naming the path if
 * it is missing or unreadable. The dataset is opened once: the probes that
 * tell a missing dataset from one HDF5 cannot open run only when the open
 * failed, to word the message. */
static ns_status describe_open(hid_t f, const char *file, const char *path, ds_desc *d,
                               hid_t *dso, char *err)
{
    if (dso) *dso = -1;
    hid_t ds = H5Dopen2(f, path, H5P_DEFAULT);
    if (ds < 0) {
        if (!link_exists(f, path) || !dataset_exists(f, path))
            return ns_fail(err, NS_BAD_INPUT, "%s: %s: missing dataset", file, path);
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: cannot open dataset", file, path);
    }
    hid_t sp = H5Dget_space(ds), ty = H5Dget_type(ds);
    d->len = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    int rank = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    d->cls = ty >= 0 ? H5Tget_class(ty) : H5T_NO_CLASS;
    d->tsize = ty >= 0 ? H5Tget_size(ty) : 0;
    if (ty >= 0) H5Tclose(ty);
    if (sp >= 0) H5Sclose(sp);
    ns_status st = NS_OK;
    if (d->len < 0) {
        st = ns_fail(err, NS_BAD_INPUT, "%s: %s: unreadable dataspace", file, path);
    } else if (rank < 0 || rank > 1) {
        /* every FCLIB dataset is a scalar or a vector; libfclib's readers
         * write the dimensions into one hsize_t */
        st = ns_fail(err, NS_BAD_INPUT, "%s: %s: rank %d dataset, a vector expected", file,
                     path, rank);
    } else if ((d->cls == H5T_INTEGER || d->cls == H5T_FLOAT) &&
               (d->tsize == 0 || d->tsize > 8)) {
        /* numbers are at most 8 bytes: a forged element size would make
         * HDF5 allocate a conversion buffer of that size */
        st = ns_fail(err, NS_BAD_INPUT, "%s: %s: %zu-byte numbers are not supported", file,
                     path, d->tsize);
    }
    if (st || !dso) H5Dclose(ds);
    else *dso = ds;
    return st;
}

/* Requires an integer dataset of exactly `want` elements (want < 0: any);
 * left open in *dso as describe_open does. */
static ns_status want_ints_open(hid_t f, const char *file, const char *path, hssize_t want,
                                ds_desc *d, hid_t *dso, char *err)
{
    hid_t ds;
    ns_status st = describe_open(f, file, path, d, &ds, err);
    if (st) return st;
    if (d->cls != H5T_INTEGER)
        st = ns_fail(err, NS_BAD_INPUT, "%s: %s: integer dataset expected", file, path);
    else if (want >= 0 && d->len != want)
        st = ns_fail(err, NS_BAD_INPUT, "%s: %s: %lld values, expected %lld", file, path,
                     (long long)d->len, (long long)want);
    if (st || !dso) H5Dclose(ds);
    else *dso = ds;
    return st;
}

/* Requires a float dataset of exactly `want` elements; left open in *dso
 * as describe_open does. */
static ns_status want_reals_open(hid_t f, const char *file, const char *path, hssize_t want,
                                 hid_t *dso, char *err)
{
    ds_desc d = { 0 };
    hid_t ds;
    ns_status st = describe_open(f, file, path, &d, &ds, err);
    if (st) return st;
    if (d.cls != H5T_FLOAT)
        st = ns_fail(err, NS_BAD_INPUT, "%s: %s: floating-point dataset expected", file, path);
    else if (d.len != want)
        st = ns_fail(err, NS_BAD_INPUT, "%s: %s: %lld values, expected %lld", file, path,
                     (long long)d.len, (long long)want);
    if (st || !dso) H5Dclose(ds);
    else *dso = ds;
    return st;
}

static ns_status check_group(hid_t f, const char *file, const char *path, char *err)
{
    H5O_info_t oi;
    /* a missing link or intermediate group makes the lookup fail; only the
     * object's type is asked for (not its header and attribute counts) */
    if (H5Oget_info_by_name2(f, path, &oi, H5O_INFO_BASIC, H5P_DEFAULT) < 0 ||
        oi.type != H5O_TYPE_GROUP)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: missing group", file, path);
    return NS_OK;
}

/* Reads a 1-element integer dataset. */
static ns_status read_int1(hid_t f, const char *file, const char *path, int *v, char *err)
{
    ds_desc d = { 0 };
    hid_t ds;
    ns_status st = want_ints_open(f, file, path, 1, &d, &ds, err);
    if (st) return st;
    herr_t h = H5Dread(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(ds);
    if (h < 0) return ns_fail(err, NS_BAD_INPUT, "%s: %s: cannot read", file, path);
    return NS_OK;
}

/* Reads the whole open integer dataset ds (path, for messages) of len
 * elements into a new array, and closes ds. */
static ns_status read_ints_ds(hid_t ds, const char *file, const char *path, hssize_t len,
                              int **out, char *err)
{
    *out = ns_malloc((size_t)(len > 0 ? len : 1), sizeof(int));
    if (!*out) { H5Dclose(ds); return ns_fail(err, NS_NO_MEMORY, "%s: %s: out of memory", file, path); }
    herr_t h = len == 0 ? 0 : H5Dread(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, *out);
    H5Dclose(ds);
    if (h < 0) {
        free(*out);
        *out = NULL;
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: cannot read", file, path);
    }
    return NS_OK;
}

/* -------------------------------------------------------- file validation */

/* A matrix group's scalars, and its p and i arrays once check_matrix read
 * them (owned: freed by shape_free, or handed over by read_matrix_arrays). */
typedef struct mat_shape {
    int m, n, nz, nzmax;
    int *p, *i;
    double *x;
    hssize_t ilen;   /* elements of i */
    hssize_t xlen;   /* elements of x */
} mat_shape;

static void shape_free(mat_shape *s)
{
    free(s->p);
    free(s->i);
    free(s->x);
    s->p = s->i = NULL;
    s->x = NULL;
}

/* Index of the first v[k] outside [0, lim), k < n, or -1. The array is
 * scanned without a branch per entry (every valid file is checked whole)
 * and searched again only when the scan failed. */
static hssize_t first_out_of_range(const int *v, hssize_t n, int lim)
{
    unsigned bad = 0;
    for (hssize_t k = 0; k < n; k++) bad |= (unsigned)v[k] >= (unsigned)lim;
    if (!bad) return -1;
    for (hssize_t k = 0; k < n; k++)
        if ((unsigned)v[k] >= (unsigned)lim) return k;
    return -1;
}

/* Checks the matrix group at `grp` (formats.md §4.2) and reads its arrays:
 * scalars present and sane, every array no longer than its scalars allow
 * (nz or n+1 / m+1 for p, nz or nzmax for i and x) and at least as long as
 * the entries need, compressed pointers from 0, non-decreasing, within the
 * arrays, every index in range. */
static ns_status check_matrix(hid_t f, const char *file, const char *grp, mat_shape *s,
                              char *err)
{
    char path[256];
    ns_status st;
    ds_desc d = { 0 };
    hid_t ds;
    s->p = s->i = NULL;
    s->x = NULL;
#define P(name) (snprintf(path, sizeof path, "%s/%s", grp, name), path)
    if ((st = check_group(f, file, grp, err))) return st;
    if ((st = read_int1(f, file, P("m"), &s->m, err))) return st;
    if ((st = read_int1(f, file, P("n"), &s->n, err))) return st;
    if ((st = read_int1(f, file, P("nz"), &s->nz, err))) return st;
    if ((st = read_int1(f, file, P("nzmax"), &s->nzmax, err))) return st;
    if (s->m < 0 || s->n < 0 || s->m > NS_INT_MAX_DIM || s->n > NS_INT_MAX_DIM)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: size %d x %d out of range", file, grp,
                       s->m, s->n);
    if (s->nzmax < 0 || s->nzmax > NS_INT_MAX_DIM)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: nzmax = %d out of range", file,
                       P("nzmax"), s->nzmax);
    if (s->nz < -2)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: nz = %d is no storage (>= 0 triplet, "
                       "-1 CSC, -2 CSR)", file, P("nz"), s->nz);
    const int triplet = s->nz >= 0;
    if (triplet && s->nz > s->nzmax)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: nz = %d exceeds nzmax = %d", file,
                       P("nz"), s->nz, s->nzmax);
    /* p: exact length (libfclib's buffer) */
    const hssize_t plen = triplet ? s->nz : (s->nz == -1 ? (hssize_t)s->n + 1
                                                          : (hssize_t)s->m + 1);
    if ((st = want_ints_open(f, file, P("p"), plen, &d, &ds, err))) return st;
    int *p = NULL, *ix = NULL;
    if ((st = read_ints_ds(ds, file, path, plen, &p, err))) return st;
    hssize_t need;   /* entries actually used */
    const hssize_t cap = triplet ? s->nz : s->nzmax;   /* libfclib's i buffer */
    if (triplet) {
        need = s->nz;
    } else {
        const ns_int outer = s->nz == -1 ? s->n : s->m;
        if (p[0] != 0) {
            int p0 = p[0];
            free(p);
            return ns_fail(err, NS_BAD_INPUT, "%s: %s[0] = %d, pointers must start at 0",
                           file, P("p"), p0);
        }
        for (ns_int k = 0; k < outer; k++)
            if (p[k + 1] < p[k]) {
                int a = p[k], b = p[k + 1];
                free(p);
                return ns_fail(err, NS_BAD_INPUT, "%s: %s: pointers decrease at %d "
                               "(%d then %d)", file, P("p"), k, a, b);
            }
        need = p[outer];
        if (need > s->nzmax) {
            free(p);
            return ns_fail(err, NS_BAD_INPUT, "%s: %s: last pointer %lld exceeds nzmax = %d",
                           file, P("p"), (long long)need, s->nzmax);
        }
    }
    /* i: need ≤ len ≤ cap */
    if ((st = want_ints_open(f, file, P("i"), -1, &d, &ds, err))) { free(p); return st; }
    if (d.len < need || d.len > cap) {
        H5Dclose(ds);
        free(p);
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: %lld values, expected between %lld and "
                       "%lld", file, P("i"), (long long)d.len, (long long)need,
                       (long long)cap);
    }
    if ((st = read_ints_ds(ds, file, path, d.len, &ix, err))) { free(p); return st; }
    /* index ranges: triplet i rows < m, p cols < n; CSC i rows < m; CSR i cols < n */
    const int ilim = s->nz == -2 ? s->n : s->m;
    hssize_t bad = first_out_of_range(ix, need, ilim);
    if (bad >= 0) {
        int v = ix[bad];
        free(p); free(ix);
        return ns_fail(err, NS_BAD_INPUT, "%s: %s[%lld] = %d out of range [0, %d)", file,
                       P("i"), (long long)bad, v, ilim);
    }
    if (triplet && (bad = first_out_of_range(p, need, s->n)) >= 0) {
        int v = p[bad];
        free(p); free(ix);
        return ns_fail(err, NS_BAD_INPUT, "%s: %s[%lld] = %d out of range [0, %d)",
                       file, P("p"), (long long)bad, v, s->n);
    }
    /* kept for read_matrix_arrays: the arrays libfclib's reader would read */
    s->p = p;
    s->i = ix;
    s->ilen = d.len;
    /* x: need ≤ len ≤ nzmax (libfclib's buffer is nzmax); read here, from
     * the dataset this check opened */
    if ((st = describe_open(f, file, P("x"), &d, &ds, err))) return st;
    if (d.cls != H5T_FLOAT) {
        H5Dclose(ds);
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: floating-point dataset expected", file,
                       P("x"));
    }
    if (d.len < need || d.len > s->nzmax) {
        H5Dclose(ds);
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: %lld values, expected between %lld and "
                       "%d", file, P("x"), (long long)d.len, (long long)need, s->nzmax);
    }
    s->x = ns_malloc((size_t)(d.len > 0 ? d.len : 1), sizeof(double));
    if (!s->x) { H5Dclose(ds); return ns_fail(err, NS_NO_MEMORY, "%s: %s: out of memory", file, path); }
    s->xlen = d.len;
    herr_t hx = d.len > 0 ? H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, s->x) : 0;
    H5Dclose(ds);
    if (hx < 0) return ns_fail(err, NS_BAD_INPUT, "%s: %s: cannot read", file, path);
#undef P
    return NS_OK;
}

static ns_status check_spacedim(hid_t f, const char *file, const char *root, int *d,
                                char *err)
{
    char path[256];
    snprintf(path, sizeof path, "%s/spacedim", root);
    ns_status st = read_int1(f, file, path, d, err);
    if (st) return st;
    if (*d != 2 && *d != 3)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s = %d: must be 2 or 3", file, path, *d);
    return NS_OK;
}

/* Local problem (§4.3). *W receives W's shape. */
static ns_status check_local(hid_t f, const char *file, int *dim, mat_shape *W, char *err)
{
    ns_status st;
    if (link_exists(f, "/fclib_local/V") || link_exists(f, "/fclib_local/R"))
        return ns_fail(err, NS_UNSUPPORTED, "%s: /fclib_local/V, /fclib_local/R: local "
                       "problems with the extra unknowns lambda (V, R, s) are not supported",
                       file);
    if ((st = check_group(f, file, "/fclib_local", err))) return st;
    if ((st = check_group(f, file, "/fclib_local/vectors", err))) return st;
    if ((st = check_spacedim(f, file, "/fclib_local", dim, err))) return st;
    if ((st = check_matrix(f, file, "/fclib_local/W", W, err))) return st;
    if (W->m != W->n)
        return ns_fail(err, NS_BAD_INPUT, "%s: /fclib_local/W: %d x %d, must be square", file,
                       W->m, W->n);
    if (W->m % *dim)
        return ns_fail(err, NS_BAD_INPUT, "%s: /fclib_local/W: order %d not divisible by "
                       "spacedim %d", file, W->m, *dim);
    /* the vectors are checked (class, length, values) as read_checked reads them */
    return NS_OK;
}

/* Global problem (§4.4). */
static ns_status check_global(hid_t f, const char *file, int *dim, mat_shape *M,
                              mat_shape *H, char *err)
{
    ns_status st;
    if (link_exists(f, "/fclib_global/G"))
        return ns_fail(err, NS_UNSUPPORTED, "%s: /fclib_global/G: global problems with "
                       "equality constraints (G, b) are not supported", file);
    if ((st = check_group(f, file, "/fclib_global", err))) return st;
    if ((st = check_group(f, file, "/fclib_global/vectors", err))) return st;
    if ((st = check_spacedim(f, file, "/fclib_global", dim, err))) return st;
    if ((st = check_matrix(f, file, "/fclib_global/M", M, err))) return st;
    if ((st = check_matrix(f, file, "/fclib_global/H", H, err))) return st;
    if (M->m != M->n)
        return ns_fail(err, NS_BAD_INPUT, "%s: /fclib_global/M: %d x %d, must be square",
                       file, M->m, M->n);
    if (H->m != M->m)
        return ns_fail(err, NS_BAD_INPUT, "%s: /fclib_global/H: %d rows, M has %d", file,
                       H->m, M->m);
    if (H->n % *dim)
        return ns_fail(err, NS_BAD_INPUT, "%s: /fclib_global/H: %d columns not divisible by "
                       "spacedim %d", file, H->n, *dim);
    /* the vectors are checked (class, length, values) as read_checked reads them */
    return NS_OK;
}

/* ------------------------------------------------------------- conversion */

/* Whether the triplet's columns p[0..nnz) never decrease (a triplet written
 * from a column-major matrix, the usual case). */
static int columns_sorted(const int *p, ns_int nnz)
{
    int bad = 0;
    for (ns_int k = 1; k < nnz; k++) bad |= p[k] < p[k - 1];
    return !bad;
}

/* cp[0..n] (zeroed by the caller) ← the column pointers of nnz entries
 * whose columns are col[0..nnz): counts, then their running sums. */
static void column_pointers(ns_int *cp, const int *col, ns_int nnz, ns_int n)
{
    for (ns_int k = 0; k < nnz; k++) cp[col[k] + 1]++;
    for (ns_int j = 0; j < n; j++) cp[j + 1] += cp[j];
}

/* The CSC matrix of a validated libfclib matrix: triplet (i rows, p
 * columns), CSC or CSR; values bit for bit, entries of a column in the
 * order they appear (triplet, CSC) or by increasing row (CSR); no
 * summation. A CSC matrix, or a triplet whose columns never decrease, is
 * already in the order CSC stores: its arrays are taken over (a's pointers
 * set to NULL; i and x may be longer than nnz) instead of copied. */
static ns_matrix *to_csc(struct fclib_matrix *a)
{
    const ns_int m = a->m, n = a->n;
    ns_int nnz = a->nz >= 0 ? a->nz : a->p[a->nz == -1 ? n : m];
    if (nnz > 0 && a->i && a->x &&
        (a->nz == -1 || (a->nz >= 0 && columns_sorted(a->p, nnz)))) {
        ns_matrix *A = ns_matrix_shell(NS_SPARSE, m, n);
        if (!A) return NULL;
        if (a->nz == -1) {
            A->csc.p = a->p;
            a->p = NULL;
        } else {
            ns_int *cp = ns_calloc((size_t)n + 1, sizeof(ns_int));
            if (!cp) { ns_matrix_free(A); return NULL; }
            column_pointers(cp, a->p, nnz, n);
            A->csc.p = cp;
        }
        A->csc.i = a->i;
        A->csc.x = a->x;
        a->i = NULL;
        a->x = NULL;
        A->csc.nnz = nnz;
        return A;
    }
    ns_matrix *A = ns_matrix_sparse_new(m, n, nnz);
    if (!A) return NULL;
    ns_int *cp = A->csc.p;
    if (a->nz == -1) {
        memcpy(cp, a->p, ((size_t)n + 1) * sizeof(ns_int));
        return A;   /* nnz = 0 */
    }
    ns_int *next = ns_calloc((size_t)n + 1, sizeof(ns_int));
    if (!next) { ns_matrix_free(A); return NULL; }
    column_pointers(cp, a->nz >= 0 ? a->p : a->i, nnz, n);   /* triplet: p; CSR: i */
    memcpy(next, cp, (size_t)n * sizeof(ns_int));
    if (a->nz >= 0) {
        for (ns_int k = 0; k < nnz; k++) {
            ns_int pos = next[a->p[k]]++;
            A->csc.i[pos] = a->i[k];
            A->csc.x[pos] = a->x[k];
        }
    } else {
        for (ns_int r = 0; r < m; r++)
            for (ns_int k = a->p[r]; k < a->p[r + 1]; k++) {
                ns_int pos = next[a->i[k]]++;
                A->csc.i[pos] = r;
                A->csc.x[pos] = a->x[k];
            }
    }
    free(next);
    A->csc.nnz = nnz;
    return A;
}

/* ----------------------------------------------------------------- read */

static void silence_hdf5(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* Reads the FCLIB file at path into a new fc2d/fc3d (local) or gfc2d/gfc3d
 * (global) problem: W, M, H become SPARSE (CSC) with the stored values
 * exactly; q ← q, mu ← mu (local); q ← f, b ← w, mu ← mu (global).
 * NS_IO_ERROR if the file cannot be opened, NS_BAD_INPUT (message naming the
 * dataset) if it is not a valid FCLIB problem, NS_UNSUPPORTED for V/R or G. */
/* ------------------------------------------------- global rolling (GRFC3D) */

static ns_status read_reals_exact(hid_t f, const char *file, const char *path, ns_int len,
                                  double *x, char *err);

/* The arrays of a matrix group check_matrix accepted, into m (freed by the
 * caller with free(m->p), free(m->i), free(m->x)): p, i and x are the arrays
 * check_matrix read, handed over from s; the entries in use must be
 * finite. */
static ns_status read_matrix_arrays(const char *file, const char *grp, mat_shape *s,
                                    struct fclib_matrix *m, char *err)
{
    memset(m, 0, sizeof *m);
    m->m = s->m; m->n = s->n; m->nz = s->nz; m->nzmax = s->nzmax;
    m->p = s->p;
    m->i = s->i;
    m->x = s->x;
    s->p = s->i = NULL;
    s->x = NULL;
    long k = ns_first_nonfinite(m->x, (size_t)s->ilen);
    if (k >= 0) return ns_fail(err, NS_BAD_INPUT, "%s: %s/x[%ld] is not finite", file, grp, k);
    return NS_OK;
}

/* /fclib_global_rolling (docs/formats-extensions.md §6): the FCLIB global
 * layout with spacedim 5 and one more vector, vectors/mu_r. libfclib has
 * no reader for it: the group is checked as the others (check_matrix on M
 * and H) and read with the HDF5 API. */
static ns_status read_global_rolling_checked(hid_t f, const char *file, const char *root,
                                             mat_shape *sM, mat_shape *sH,
                                             ns_problem **out, char *err)
{
    int dim = 0;
    ns_status st;
    if ((st = check_group(f, file, root, err))) return st;
    if ((st = check_group(f, file, "/fclib_global_rolling/vectors", err))) return st;
    if ((st = read_int1(f, file, "/fclib_global_rolling/spacedim", &dim, err))) return st;
    if (dim != 5)
        return ns_fail(err, NS_BAD_INPUT, "%s: /fclib_global_rolling/spacedim = %d: must be 5",
                       file, dim);
    if ((st = check_matrix(f, file, "/fclib_global_rolling/M", sM, err))) return st;
    if ((st = check_matrix(f, file, "/fclib_global_rolling/H", sH, err))) return st;
    if (sM->m != sM->n)
        return ns_fail(err, NS_BAD_INPUT, "%s: /fclib_global_rolling/M: %d x %d, must be square",
                       file, sM->m, sM->n);
    if (sH->m != sM->m)
        return ns_fail(err, NS_BAD_INPUT, "%s: /fclib_global_rolling/H: %d rows, M has %d", file,
                       sH->m, sM->m);
    if (sH->n % dim)
        return ns_fail(err, NS_BAD_INPUT, "%s: /fclib_global_rolling/H: %d columns not "
                       "divisible by spacedim 5", file, sH->n);
    const ns_int nc = sH->n / dim;
    struct fclib_matrix fm, fh;
    ns_matrix *M = NULL, *H = NULL;
    double *q = ns_malloc((size_t)sM->m + 1, sizeof *q), *b = ns_malloc((size_t)sH->n + 1, sizeof *b);
    double *mu = ns_malloc((size_t)nc + 1, sizeof *mu), *mur = ns_malloc((size_t)nc + 1, sizeof *mur);
    memset(&fm, 0, sizeof fm);
    memset(&fh, 0, sizeof fh);
    if (!q || !b || !mu || !mur) { st = ns_fail(err, NS_NO_MEMORY, "%s: out of memory", file); goto done; }
    if ((st = read_reals_exact(f, file, "/fclib_global_rolling/vectors/f", sM->m, q, err)) ||
        (st = read_reals_exact(f, file, "/fclib_global_rolling/vectors/w", sH->n, b, err)) ||
        (st = read_reals_exact(f, file, "/fclib_global_rolling/vectors/mu", nc, mu, err)) ||
        (st = read_reals_exact(f, file, "/fclib_global_rolling/vectors/mu_r", nc, mur, err)))
        goto done;
    for (ns_int a = 0; a < nc; a++)
        if (mu[a] < 0 || mur[a] < 0) {
            st = ns_fail(err, NS_BAD_INPUT, "%s: /fclib_global_rolling/vectors/%s[%d] is negative",
                         file, mu[a] < 0 ? "mu" : "mu_r", a);
            goto done;
        }
    if ((st = read_matrix_arrays(file, "/fclib_global_rolling/M", sM, &fm, err)) ||
        (st = read_matrix_arrays(file, "/fclib_global_rolling/H", sH, &fh, err)))
        goto done;
    M = to_csc(&fm);
    H = to_csc(&fh);
    if (!M || !H) { st = ns_fail(err, NS_NO_MEMORY, "%s: out of memory", file); goto done; }
    *out = ns_problem_from_grfc(ns_grfc_new(dim, nc, M, H, q, b, mu, mur));
    M = H = NULL;
    if (!*out) st = ns_fail(err, NS_NO_MEMORY, "%s: out of memory", file);
done:
    ns_matrix_free(M); ns_matrix_free(H);
    free(fm.p); free(fm.i); free(fm.x); free(fh.p); free(fh.i); free(fh.x);
    free(q); free(b); free(mu); free(mur);
    return st;
}

static ns_status read_global_rolling(hid_t f, const char *file, ns_problem **out, char *err)
{
    static const char *root = "/fclib_global_rolling";
    mat_shape sM = { 0 }, sH = { 0 };
    ns_status st = read_global_rolling_checked(f, file, root, &sM, &sH, out, err);
    shape_free(&sM);
    shape_free(&sH);
    return st;
}

/* The arrays of a file check_local / check_global accepted, read with the
 * HDF5 API on the handle already open (libfclib's readers would open the
 * file again and read its info strings: 0.6 ms of a 1.1 ms read of a 60 kB
 * file), converted as libfclib's arrays were: W, M, H to CSC with the
 * stored values exactly; q ← q, mu ← mu (local); q ← f, b ← w, mu ← mu. */
static ns_status read_checked(hid_t f, const char *file, int local, int dim,
                              mat_shape *s1, mat_shape *s2, ns_problem **out,
                              char *err)
{
    const char *root = local ? "/fclib_local" : "/fclib_global";
    char path[64];
    struct fclib_matrix fa, fb;
    memset(&fa, 0, sizeof fa);
    memset(&fb, 0, sizeof fb);
    ns_matrix *A = NULL, *B = NULL;
    const ns_int nq = s1->m, nb = local ? 0 : s2->n, nc = (local ? s1->m : s2->n) / dim;
    double *q = ns_malloc((size_t)nq + 1, sizeof *q), *b = ns_malloc((size_t)nb + 1, sizeof *b);
    double *mu = ns_malloc((size_t)nc + 1, sizeof *mu);
    ns_status st = NS_OK;
    if (!q || !b || !mu) { st = ns_fail(err, NS_NO_MEMORY, "%s: out of memory", file); goto done; }
    snprintf(path, sizeof path, "%s/vectors/%s", root, local ? "q" : "f");
    if ((st = read_reals_exact(f, file, path, nq, q, err))) goto done;
    if (!local) {
        if ((st = read_reals_exact(f, file, "/fclib_global/vectors/w", nb, b, err))) goto done;
    }
    snprintf(path, sizeof path, "%s/vectors/mu", root);
    if ((st = read_reals_exact(f, file, path, nc, mu, err))) goto done;
    if (local) {
        if ((st = read_matrix_arrays(file, "/fclib_local/W", s1, &fa, err))) goto done;
    } else if ((st = read_matrix_arrays(file, "/fclib_global/M", s1, &fa, err)) ||
               (st = read_matrix_arrays(file, "/fclib_global/H", s2, &fb, err))) {
        goto done;
    }
    A = to_csc(&fa);
    B = local ? NULL : to_csc(&fb);
    if (!A || (!local && !B)) { st = ns_fail(err, NS_NO_MEMORY, "%s: out of memory", file); goto done; }
    if (local) {
        ns_fc *fc = ns_fc_new(dim, nc, A, q, mu);
        *out = fc ? ns_problem_from_fc(fc) : NULL;
    } else {
        ns_gfc *gfc = ns_gfc_new(dim, nc, A, B, q, b, mu);
        *out = gfc ? ns_problem_from_gfc(gfc) : NULL;
    }
    A = B = NULL;
    if (!*out) st = ns_fail(err, NS_NO_MEMORY, "%s: out of memory", file);
done:
    ns_matrix_free(A); ns_matrix_free(B);
    free(fa.p); free(fa.i); free(fa.x); free(fb.p); free(fb.i); free(fb.x);
    free(q); free(b); free(mu);
    return st;
}

/* Files up to this size are read into memory whole when opened (HDF5's
 * core driver, no backing store): one read instead of a pread per
 * metadata block and array; larger ones are read in place. */
#define NS_FCLIB_IN_MEMORY ((off_t)256 << 10)

/* Opens the HDF5 file at path for reading into *f. The probes that word a
 * failure (the file cannot be opened at all; it is not HDF5) run only when
 * HDF5 could not open it. */
static ns_status open_for_reading(const char *path, hid_t *f, char *err)
{
    struct stat sb;
    hid_t fapl = H5P_DEFAULT;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size <= NS_FCLIB_IN_MEMORY) {
        fapl = H5Pcreate(H5P_FILE_ACCESS);
        if (fapl >= 0 && H5Pset_fapl_core(fapl, (size_t)1 << 16, 0) < 0) {
            H5Pclose(fapl);
            fapl = H5P_DEFAULT;
        } else if (fapl < 0) {
            fapl = H5P_DEFAULT;
        }
    }
    *f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    if (fapl != H5P_DEFAULT) H5Pclose(fapl);
    if (*f >= 0) return NS_OK;
    FILE *probe = fopen(path, "rb");
    if (!probe) return ns_fail(err, NS_IO_ERROR, "%s: cannot open", path);
    fclose(probe);
    if (H5Fis_hdf5(path) <= 0)
        return ns_fail(err, NS_BAD_INPUT, "%s: not an HDF5 file", path);
    return ns_fail(err, NS_IO_ERROR, "%s: HDF5 cannot open the file", path);
}

ns_status ns_fclib_read(const char *path, ns_problem **out, char *err)
{
    if (!out) return ns_fail(err, NS_BAD_INPUT, "fclib: no output pointer");
    *out = NULL;
    if (!path) return ns_fail(err, NS_BAD_INPUT, "fclib: no file name");
    silence_hdf5();
    hid_t f;
    ns_status ost = open_for_reading(path, &f, err);
    if (ost) return ost;
    const int local = H5Lexists(f, "/fclib_local", H5P_DEFAULT) > 0;
    const int global = H5Lexists(f, "/fclib_global", H5P_DEFAULT) > 0;
    if (!local && !global && H5Lexists(f, "/fclib_global_rolling", H5P_DEFAULT) > 0) {
        ns_status rs = read_global_rolling(f, path, out, err);
        H5Fclose(f);
        return rs;
    }
    int dim = 0;
    mat_shape s1 = { 0 }, s2 = { 0 };
    ns_status st;
    if (local && global)
        st = ns_fail(err, NS_BAD_INPUT, "%s: both /fclib_local and /fclib_global: one "
                     "problem per file expected", path);
    else if (!local && !global)
        st = ns_fail(err, NS_BAD_INPUT, "%s: /fclib_local, /fclib_global: neither group "
                     "present, not an FCLIB problem", path);
    else if (local)
        st = check_local(f, path, &dim, &s1, err);
    else
        st = check_global(f, path, &dim, &s1, &s2, err);
    if (!st) st = read_checked(f, path, local, dim, &s1, &s2, out, err);
    shape_free(&s1);
    shape_free(&s2);
    H5Fclose(f);
    return st;
}

/* ---------------------------------------------------------------- write */

/* A libfclib CSC view of A (SPARSE: its own arrays, no copy; other storages:
 * a CSC copy returned in *tmp for the caller to free). With nnz = 0 the
 * caller's one-element dummies stand for i and x so that no array pointer
 * is NULL (nzmax stays 0). */
static int fclib_view(const ns_matrix *A, struct fclib_matrix *v, ns_matrix **tmp,
                      int *zero_i, double *zero_x)
{
    *tmp = NULL;
    const ns_matrix *S = A;
    if (A->storage != NS_SPARSE) {
        *tmp = ns_matrix_to_sparse(A);
        if (!*tmp) return -1;
        S = *tmp;
    }
    memset(v, 0, sizeof *v);
    v->m = S->rows;
    v->n = S->cols;
    v->nz = -1;
    v->nzmax = S->csc.nnz;
    v->p = S->csc.p;
    v->i = S->csc.nnz ? S->csc.i : zero_i;
    v->x = S->csc.nnz ? S->csc.x : zero_x;
    v->info = NULL;
    return 0;
}

/* Writes an fc2d/fc3d problem as /fclib_local (W as CSC, q, mu) or a
 * gfc2d/gfc3d problem as /fclib_global (M, H as CSC, f ← q, w ← b, mu) into a
 * new file at path (an existing file is replaced). The problem is validated
 * first (NS_BAD_INPUT); other kinds give NS_UNSUPPORTED; NS_IO_ERROR if the
 * file cannot be created. A SPARSE matrix is written with exactly its arrays,
 * so that reading the file back gives the same CSC bit for bit; libfclib
 * writes CSC with nz = -1 and nzmax = the entry count. */
ns_status ns_fclib_write(const char *path, const ns_problem *p, char *err)
{
    if (!path || !p) return ns_fail(err, NS_BAD_INPUT, "fclib: no file name or problem");
    const int local = p->kind == NS_KIND_FC2D || p->kind == NS_KIND_FC3D;
    const int global = p->kind == NS_KIND_GFC2D || p->kind == NS_KIND_GFC3D;
    if (!local && !global)
        return ns_fail(err, NS_UNSUPPORTED, "%s: FCLIB holds friction-contact problems only, "
                       "not %s", path, ns_kind_name(p->kind));
    ns_status st = ns_problem_validate(p, err);
    if (st) return st;
    if (global && p->u.gfc->nc == 0)
        return ns_fail(err, NS_UNSUPPORTED, "%s: a global problem without contacts cannot "
                       "be written to FCLIB (empty H, w, mu)", path);
    silence_hdf5();
    /* a fresh, empty file: libfclib's writers open an existing file and add
     * to it, and exit on a dataset that already exists */
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) return ns_fail(err, NS_IO_ERROR, "%s: cannot create the file", path);
    H5Fclose(f);

    int ok = 0;
    if (local) {
        const ns_fc *fc = p->u.fc;
        struct fclib_matrix W;
        ns_matrix *tmp;
        int zi[1] = { 0 };
        double zx[1] = { 0.0 };
        if (fclib_view(fc->W, &W, &tmp, zi, zx))
            return ns_fail(err, NS_NO_MEMORY, "%s: out of memory", path);
        struct fclib_local L;
        memset(&L, 0, sizeof L);
        L.W = &W;
        L.q = fc->q;
        L.mu = fc->mu;
        L.spacedim = fc->dim;
        ok = fclib_write_local(&L, path);
        ns_matrix_free(tmp);
    } else {
        const ns_gfc *g = p->u.gfc;
        struct fclib_matrix M, H;
        ns_matrix *tM, *tH;
        int zi[2] = { 0, 0 };
        double zx[2] = { 0.0, 0.0 };
        if (fclib_view(g->M, &M, &tM, zi, zx))
            return ns_fail(err, NS_NO_MEMORY, "%s: out of memory", path);
        if (fclib_view(g->H, &H, &tH, zi + 1, zx + 1)) {
            ns_matrix_free(tM);
            return ns_fail(err, NS_NO_MEMORY, "%s: out of memory", path);
        }
        struct fclib_global G;
        memset(&G, 0, sizeof G);
        G.M = &M;
        G.H = &H;
        G.f = g->q;
        G.w = g->b;
        G.mu = g->mu;
        G.spacedim = g->dim;
        ok = fclib_write_global(&G, path);
        ns_matrix_free(tM);
        ns_matrix_free(tH);
    }
    if (!ok) return ns_fail(err, NS_IO_ERROR, "%s: libfclib could not write the problem", path);
    return NS_OK;
}

/* ------------------------------------------------- solution and guesses */

/* Reads the float dataset path (exactly len values, all finite) into x. */
static ns_status read_reals_exact(hid_t f, const char *file, const char *path, ns_int len,
                                  double *x, char *err)
{
    hid_t ds;
    ns_status st = want_reals_open(f, file, path, len, &ds, err);
    if (st) return st;
    herr_t h = len > 0 ? H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) : 0;
    H5Dclose(ds);
    if (h < 0) return ns_fail(err, NS_BAD_INPUT, "%s: %s: cannot read", file, path);
    long k = ns_first_nonfinite(x, (size_t)len);
    if (k >= 0)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s[%ld] = %g is not finite", file, path, k,
                       x[k]);
    return NS_OK;
}

/* FCLIB's name of a solution vector of ours: fc r, u; gfc v, u, r
 * (formats §4.5); NULL when FCLIB has none. */
static const char *fclib_name(const char *ours)
{
    if (!ours) return NULL;
    if (!strcmp(ours, "v") || !strcmp(ours, "u") || !strcmp(ours, "r")) return ours;
    return NULL;
}

static ns_status check_friction(const ns_solution *sol, const char *file, char *err)
{
    if (!sol) return ns_fail(err, NS_BAD_INPUT, "%s: solution: none given", file);
    if (sol->kind != NS_KIND_FC2D && sol->kind != NS_KIND_FC3D &&
        sol->kind != NS_KIND_GFC2D && sol->kind != NS_KIND_GFC3D)
        return ns_fail(err, NS_UNSUPPORTED, "%s: FCLIB holds friction-contact solutions "
                       "only, not %s", file, ns_kind_name(sol->kind));
    for (int k = 0; k < sol->nvec; k++)
        if (!fclib_name(sol->name[k]) || (sol->len[k] > 0 && !sol->vec[k]))
            return ns_fail(err, NS_BAD_INPUT, "%s: solution: vector %d (%s) is not one of "
                           "FCLIB's v, u, r", file, k, sol->name[k] ? sol->name[k] : "?");
    return NS_OK;
}

/* A regular file (HDF5 would block on a FIFO). */
static ns_status regular_file(const char *path, char *err)
{
    struct stat sb;
    if (stat(path, &sb) != 0) return ns_fail(err, NS_IO_ERROR, "%s: cannot open", path);
    if (S_ISDIR(sb.st_mode)) return ns_fail(err, NS_BAD_INPUT, "%s: is a directory", path);
    if (!S_ISREG(sb.st_mode)) return ns_fail(err, NS_BAD_INPUT, "%s: not a regular file", path);
    return NS_OK;
}

ns_status ns_fclib_guess_count(const char *path, int *count, char *err)
{
    if (!count) return ns_fail(err, NS_BAD_INPUT, "fclib: no output pointer");
    *count = 0;
    if (!path) return ns_fail(err, NS_BAD_INPUT, "fclib: no file name");
    ns_status st0 = regular_file(path, err);
    if (st0) return st0;
    silence_hdf5();
    if (H5Fis_hdf5(path) <= 0) return ns_fail(err, NS_BAD_INPUT, "%s: not an HDF5 file", path);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return ns_fail(err, NS_IO_ERROR, "%s: HDF5 cannot open the file", path);
    ns_status st = NS_OK;
    if (link_exists(f, "/guesses")) {
        int n = 0;
        if (!(st = check_group(f, path, "/guesses", err)) &&
            !(st = read_int1(f, path, "/guesses/number_of_guesses", &n, err))) {
            if (n < 0)
                st = ns_fail(err, NS_BAD_INPUT, "%s: /guesses/number_of_guesses: %d is "
                             "negative", path, n);
            else
                *count = n;
        }
    }
    H5Fclose(f);
    return st;
}

ns_status ns_fclib_read_solution(const char *path, int guess, ns_solution *sol, char *err)
{
    ns_status st = check_friction(sol, path ? path : "(null)", err);
    if (st) return st;
    if (!path) return ns_fail(err, NS_BAD_INPUT, "fclib: no file name");
    int count = 0;
    if (guess > 0 && (st = ns_fclib_guess_count(path, &count, err))) return st;
    if (guess > 0 && guess > count)
        return ns_fail(err, NS_BAD_INPUT, "%s: /guesses: guess %d asked for, the file has "
                       "%d", path, guess, count);
    if ((st = regular_file(path, err))) return st;
    silence_hdf5();
    if (H5Fis_hdf5(path) <= 0) return ns_fail(err, NS_BAD_INPUT, "%s: not an HDF5 file", path);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return ns_fail(err, NS_IO_ERROR, "%s: HDF5 cannot open the file", path);
    char grp[64];
    if (guess > 0) snprintf(grp, sizeof grp, "/guesses/%d", guess);
    else snprintf(grp, sizeof grp, "/solution");
    st = check_group(f, path, grp, err);
    /* read into scratch first: sol is left untouched on failure */
    double *tmp[NS_SOLUTION_MAXVEC] = { NULL };
    for (int k = 0; !st && k < sol->nvec; k++) {
        char ds[96];
        snprintf(ds, sizeof ds, "%s/%s", grp, sol->name[k]);
        tmp[k] = ns_malloc((size_t)(sol->len[k] > 0 ? sol->len[k] : 1), sizeof(double));
        if (!tmp[k]) st = ns_fail(err, NS_NO_MEMORY, "%s: out of memory", path);
        else st = read_reals_exact(f, path, ds, sol->len[k], tmp[k], err);
    }
    H5Fclose(f);
    for (int k = 0; k < sol->nvec; k++) {
        if (!st && sol->len[k] > 0)
            memcpy(sol->vec[k], tmp[k], (size_t)sol->len[k] * sizeof(double));
        free(tmp[k]);
    }
    return st;
}

ns_status ns_fclib_write_solution(const char *path, const ns_problem *p,
                                  const ns_solution *sol, char *err)
{
    if (!path || !p) return ns_fail(err, NS_BAD_INPUT, "fclib: no file name or problem");
    ns_status st = check_friction(sol, path, err);
    if (st) return st;
    if (sol->kind != p->kind)
        return ns_fail(err, NS_BAD_INPUT, "%s: solution is for %s, problem is %s", path,
                       ns_kind_name(sol->kind), ns_kind_name(p->kind));
    ns_solution ref;
    if (!ns_solution_layout(p, &ref) || ref.nvec != sol->nvec)
        return ns_fail(err, NS_BAD_INPUT, "%s: solution vectors do not fit the problem", path);
    for (int k = 0; k < sol->nvec; k++) {
        if (ref.len[k] != sol->len[k])
            return ns_fail(err, NS_BAD_INPUT, "%s: solution: %s has %d values, the problem "
                           "needs %d", path, sol->name[k], sol->len[k], ref.len[k]);
        long bad = sol->len[k] > 0 ? ns_first_nonfinite(sol->vec[k], (size_t)sol->len[k]) : -1;
        if (bad >= 0)
            return ns_fail(err, NS_BAD_INPUT, "%s: solution: %s[%ld] is not finite", path,
                           sol->name[k], bad);
    }
    for (int k = 0; k < sol->nvec; k++)
        if ((!strcmp(sol->name[k], "u") || !strcmp(sol->name[k], "r")) && sol->len[k] == 0)
            return ns_fail(err, NS_UNSUPPORTED, "%s: a solution without contacts cannot be "
                           "written to FCLIB (empty u, r)", path);
    /* the problem first (a fresh file): libfclib's solution reader takes the
     * sizes from it */
    if ((st = ns_fclib_write(path, p, err))) return st;
    struct fclib_solution s;
    memset(&s, 0, sizeof s);
    for (int k = 0; k < sol->nvec; k++) {
        if (!strcmp(sol->name[k], "v")) s.v = sol->vec[k];
        else if (!strcmp(sol->name[k], "u")) s.u = sol->vec[k];
        else s.r = sol->vec[k];
    }
    if (!fclib_write_solution(&s, path)) {
        ns_io_remove_partial(path);
        return ns_fail(err, NS_IO_ERROR, "%s: libfclib could not write the solution", path);
    }
    return NS_OK;
}
