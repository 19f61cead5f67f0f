/* ns_status.h — outcomes and failures of numerics calls.
 *
 * 0 is success everywhere. Outcomes of a solve (converged, max_iter, ...)
 * are kept apart from failures of the call itself (bad_input, no_memory).
 */
#ifndef NS_STATUS_H
#define NS_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/** Index and dimension type used in every matrix and problem (32-bit,
 *  the type CHOLMOD, UMFPACK and libfclib take without copying). */
typedef int ns_int;

/** Largest dimension a reader accepts before allocating (2^30). */
#define NS_INT_MAX_DIM 1073741824

/** Size of the message buffers the API fills (err arguments). */
#define NS_ERRMSG_LEN 512

typedef enum ns_status {
    NS_OK = 0,              /* call succeeded / solve converged */
    NS_CONVERGED = 0,
    NS_MAX_ITER = 1,        /* iteration limit reached before tol */
    NS_NO_SOLUTION = 2,     /* problem shown to have no solution (e.g. ray) */
    NS_SINGULAR = 3,        /* singular matrix where one had to be inverted */
    NS_TIME_LIMIT = 4,      /* time limit reached before tol */
    NS_DIVERGED = 5,        /* iterates left every bound (NaN, Inf) */
    NS_FAILED = 6,          /* the method stopped without a solution and without a
                               proof that none exists (e.g. a ray of Lemke's method
                               whose infeasibility certificate does not check) */
    NS_INTERRUPTED = 7,     /* stopped by the caller (ns_options.cancel) */
    NS_BAD_INPUT = 10,      /* invalid argument, problem or file */
    NS_NO_MEMORY = 11,      /* allocation failed */
    NS_IO_ERROR = 12,       /* file could not be opened, read or written */
    NS_UNSUPPORTED = 13,    /* valid request this build/solver cannot do */
    NS_NOT_FOUND = 14       /* unknown solver name or kind */
} ns_status;

/** Lower-case name of a status ("converged", "max_iter", ...). Never NULL. */
const char *ns_status_name(ns_status s);

/** 1 if s is an outcome of a solve (converged .. interrupted), 0 if a failure
 *  of the call. */
int ns_status_is_outcome(ns_status s);

#ifdef __cplusplus
}
#endif
#endif
