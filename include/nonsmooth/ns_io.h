/* ns_io.h — problem and matrix files.
 *
 * Formats (docs/formats.md): the Siconos-style .dat text layouts and FCLIB
 * HDF5 (through libfclib). The kind of a file is detected from its content
 * (an HDF5 signature means FCLIB; otherwise the .dat layouts are tried in a
 * fixed order, docs/formats-extensions.md §2); pass a kind to override
 * detection (needed for equality files, and for AVI files in Siconos'
 * layout without a set, whose layout is that of an LCP; an AVI written with
 * its set is detected by the keyword after q).
 *
 * Every reader validates what it reads and fails with NS_BAD_INPUT (or
 * NS_IO_ERROR when the file cannot be opened) and a one-line message in err
 * naming the file, the line or field, and the reason. Sizes are checked
 * against the data available before anything is allocated. Paths that are
 * not regular files (directories, FIFOs, devices) are refused before being
 * opened for reading, files over 2 GiB from their size (fstat).
 */
#ifndef NS_IO_H
#define NS_IO_H
#include <stddef.h>
#include "ns_problem.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum ns_format {
    NS_FORMAT_AUTO = 0,   /* from content (read) / from the name (write: .hdf5, .h5 → FCLIB) */
    NS_FORMAT_DAT,
    NS_FORMAT_FCLIB
} ns_format;

/** Reads a problem file. kind = NS_KIND_NONE detects it. *out receives a
 *  new problem the caller frees with ns_problem_free. The problem is
 *  structurally consistent; ns_problem_validate checks the rest (e.g. a
 *  rectangular MLCP is read, then rejected by validation). */
ns_status ns_problem_read(const char *path, ns_kind kind, ns_problem **out,
                          char *err);

/** Same for a .dat text held in memory (len bytes, need not be
 *  NUL-terminated); name is used in messages. */
ns_status ns_problem_read_dat_buffer(const char *buf, size_t len,
                                     const char *name, ns_kind kind,
                                     ns_problem **out, char *err);

/** Detected format and kind of a file without keeping the problem. */
ns_status ns_problem_detect(const char *path, ns_format *format,
                            ns_kind *kind, char *err);

/** Writes p. NS_FORMAT_FCLIB only for fc2d/fc3d/gfc2d/gfc3d. Values are
 *  written with 17 significant digits (exact round trip). On a failed
 *  write (NS_IO_ERROR) a partial regular file is removed; any other path
 *  (a device, a FIFO) is left as it was. */
ns_status ns_problem_write(const char *path, const ns_problem *p,
                           ns_format format, char *err);

/** Reads a stand-alone matrix file: a NumericsMatrix block (dense, SBM,
 *  CSC or triplet), or a raw SBM payload without the storage header. */
ns_status ns_matrix_read(const char *path, ns_matrix **out, char *err);
ns_status ns_matrix_read_buffer(const char *buf, size_t len, const char *name,
                                ns_matrix **out, char *err);

/** Writes A as a NumericsMatrix block (SPARSE as CSC). */
ns_status ns_matrix_write(const char *path, const ns_matrix *A, char *err);

/** Solution file: for each vector a line "# NAME LENGTH" then LENGTH lines
 *  of one value each (%.17g). */
ns_status ns_solution_write(const char *path, const ns_solution *s, char *err);

/** Reads a solution file into sol, whose vectors are sized for the problem
 *  (ns_solution_new); vectors are matched by name and length, and must be
 *  finite. An FCLIB file (HDF5 signature) gives its first initial guess
 *  (/guesses/1) when it has any, else its /solution; any other file is read
 *  as written by ns_solution_write ('# NAME LENGTH' then the values, every
 *  vector of sol's layout in order; '#' sections after them are ignored).
 *  sol is unchanged on failure. */
ns_status ns_solution_read(const char *path, ns_solution *sol, char *err);

/** FCLIB solutions and guesses (docs/formats.md §4.5), friction-contact
 *  kinds only (NS_UNSUPPORTED otherwise). The file is checked with HDF5
 *  before anything is read (datasets present, lengths those of sol, values
 *  finite; NS_BAD_INPUT naming the dataset).
 *  ns_fclib_guess_count: the number of guesses (0 without /guesses).
 *  ns_fclib_read_solution: guess = 0 reads /solution, guess = k ≥ 1 reads
 *  /guesses/k, into sol (fc: r, u; gfc: v, u, r), unchanged on failure.
 *  ns_fclib_write_solution: a new file holding p (as ns_problem_write with
 *  NS_FORMAT_FCLIB) and sol as /solution, written by libfclib so that
 *  fclib_read_solution reads it back bit for bit. */
ns_status ns_fclib_guess_count(const char *path, int *count, char *err);
ns_status ns_fclib_read_solution(const char *path, int guess, ns_solution *sol,
                                 char *err);
ns_status ns_fclib_write_solution(const char *path, const ns_problem *p,
                                  const ns_solution *sol, char *err);

#ifdef __cplusplus
}
#endif
#endif
