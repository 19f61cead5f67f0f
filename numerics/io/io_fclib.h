/* io_fclib.h — FCLIB HDF5 problems (docs/formats.md §4), through libfclib. */
#ifndef NS_IO_FCLIB_H
#define NS_IO_FCLIB_H
#include "nonsmooth/ns_problem.h"

ns_status ns_fclib_read(const char *path, ns_problem **out, char *err);
ns_status ns_fclib_write(const char *path, const ns_problem *p, char *err);
/* Removes the partial output at path after a failed write, when path is a
 * regular file: a device (/dev/full fails every write) or anything else
 * the caller was given is left in place (io_problem.c). */
void ns_io_remove_partial(const char *path);
/* ns_fclib_guess_count, ns_fclib_read_solution, ns_fclib_write_solution:
 * declared in nonsmooth/ns_io.h. */
#include "nonsmooth/ns_io.h"
#endif
