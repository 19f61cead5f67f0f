/* ns_internal.h — helpers private to libnonsmooth_numerics. */
#ifndef NS_INTERNAL_H
#define NS_INTERNAL_H
#include <stddef.h>
#include <stdarg.h>
#include "nonsmooth/ns_status.h"
#include "nonsmooth/ns_solver.h"

#if defined(__GNUC__)
#define NS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define NS_NOINLINE __attribute__((noinline))
#else
#define NS_PRINTF(a, b)
#define NS_NOINLINE
#endif

/* Two-lane double vectors (GCC/Clang's vector extension: SSE2, the x86-64
 * baseline) and their unaligned load; code using them keeps a scalar path
 * for other compilers. */
#if defined(__GNUC__)
#include <string.h>
typedef double ns_v2d __attribute__((vector_size(16)));
static inline ns_v2d ns_v2d_load(const double *x)
{
    ns_v2d v;
    memcpy(&v, x, sizeof v);
    return v;
}
#endif

/** Writes a formatted message into err (NS_ERRMSG_LEN bytes) if err is not
 *  NULL; returns st so that `return ns_fail(err, NS_BAD_INPUT, "...")`. */
ns_status ns_fail(char *err, ns_status st, const char *fmt, ...) NS_PRINTF(3, 4);

struct ns_options;
struct ns_result;
/** Solver progress: formats the message and hands it to o->log at `level`
 *  when a log callback is set and o->verbosity >= level; does nothing (and
 *  formats nothing) otherwise. Messages longer than NS_ERRMSG_LEN are cut.
 *  The one way solvers report progress. */
void ns_log(const struct ns_options *o, int level, const char *fmt, ...) NS_PRINTF(3, 4);

/** ns_iteration's work when there is some: the history entry and the
 *  question to o->cancel (core_progress.c). */
int ns_iteration_record(const struct ns_options *o, struct ns_result *res, double err);
/** End of one iteration of a solver's main loop: appends err to
 *  res->history when o->record_history (the solver's error at that
 *  iteration: NaN where it computed none), then asks o->cancel. Returns 1
 *  when the caller asked to stop: the solver then ends with NS_INTERRUPTED
 *  (its iterate kept, as at a time limit). Inline: with neither set (the
 *  usual case) it costs two loads, not two calls per pivot or sweep. */
static inline int ns_iteration(const struct ns_options *o, struct ns_result *res, double err)
{
    if (!o->record_history && !o->cancel) return 0;
    return ns_iteration_record(o, res, err);
}
/** o->cancel asked (without recording anything): 1 when the caller asked to
 *  stop. For loops that keep no per-iteration error (pivots, stages of a
 *  chain); loops that have one call ns_iteration. */
static inline int ns_cancelled(const struct ns_options *o)
{
    return o->cancel && o->cancel(o->cancel_user) != 0;
}
/** Capacity of the history buffer ns_solve gives the result it fills when
 *  record_history is set (a power of two; ns_iteration doubles it). */
#define NS_HISTORY_FIRST 64

/** Allocation wrappers: never ask for 0 bytes, check n*size overflow. */
void *ns_malloc(size_t n, size_t size);
void *ns_calloc(size_t n, size_t size);

/** ns_workspace (ns_solver.h): NS_WS_SLOTS grow-only buffers. ns_ws_take
 *  gives slot `slot`'s buffer with at least n × size bytes (contents not
 *  kept), held until ns_ws_give; when w is NULL or the slot is already
 *  held (a nested solve), a fresh ns_malloc buffer instead, which
 *  ns_ws_give frees. NULL on overflow or out of memory. Slots: nsgs 0
 *  (ints), 1 (increments), 2 (Anderson), 4 (stall test); auto 3. */
enum { NS_WS_SLOTS = 5 };
typedef struct ns_workspace ns_workspace;
void *ns_ws_take(ns_workspace *w, int slot, size_t n, size_t size);
void ns_ws_give(ns_workspace *w, int slot, void *p);
/** The friction-contact auto chain's memory across the solves of one
 *  workspace (a simulation's steps): races won by Newton ([0]) and by the
 *  sweeps ([1]); NULL without a workspace. */
int *ns_ws_race(ns_workspace *w);

/** Copies n doubles (NULL when src is NULL or on failure). */
double *ns_dup(const double *src, size_t n);

/** 1 if every x[0..n-1] is finite. */
int ns_all_finite(const double *x, size_t n);

/** Index of the first non-finite value, or -1. */
long ns_first_nonfinite(const double *x, size_t n);

/** Euclidean norm of x (n values, BLAS dnrm2). */
double ns_norm2(const double *x, size_t n);

struct ns_problem;
struct ns_solution;
/** Fills s->kind, nvec, name[], len[] for p's solution (vectors untouched,
 *  no allocation); 0 if p's kind is unknown. numerics/problems/problem.c */
int ns_solution_layout(const struct ns_problem *p, struct ns_solution *s);

/** Wall clock in seconds (monotonic). */
double ns_now(void);

/** A time limit paced by work: a clock reading costs from 30 ns to over a
 *  microsecond on a virtual machine, as much as a whole pivot or sweep of a
 *  small problem, so the clock is read only once the solver has done about
 *  NS_CLOCK_WORK units of work (floating-point operations, roughly) since
 *  the last reading. ns_clock_start reads the clock at once when one
 *  iteration's work (iter_work, the solver's estimate) is at least
 *  NS_CLOCK_WORK / 64 — a reading is then cheap beside it; otherwise the
 *  limit counts from the first reading, so that a small solve reads no
 *  clock at all and at most NS_CLOCK_WORK units of work (a few tens of
 *  microseconds) go uncounted. */
typedef struct ns_clock {
    double limit;   /* seconds; 0 = none */
    double start;   /* first reading; < 0 before it */
    double work;    /* since the last reading */
} ns_clock;
#define NS_CLOCK_WORK 65536.0
void ns_clock_start(ns_clock *c, double limit, double iter_work);
/** The clock's reading behind ns_clock_over (core_util.c). */
int ns_clock_read(ns_clock *c);
/** Adds `work` units; 1 when the limit has passed (0 when there is none). */
static inline int ns_clock_over(ns_clock *c, double work)
{
    if (c->limit == 0.0) return 0;
    c->work += work;
    return c->work >= NS_CLOCK_WORK ? ns_clock_read(c) : 0;
}

/** Threads for a solver whose threaded loops touch `work` stored entries a
 *  pass: `threads` when work ≥ NS_THREADS_MIN_WORK, else 1. Each OpenMP
 *  region costs its start and join (a few µs on two cores); on smaller
 *  passes they cost more than the split saves. admm with 2 threads against
 *  1 (docs/admm.md): W of 6·10³ to 1.2·10⁵ stored values (spheres_box_n100,
 *  Capsules-i122-1617, RockPile_tob1, KaplasTower) 1.2–2× slower, the
 *  GFC3D files' H of 7–9·10³ values 1.13–1.37× slower, the settled pile's
 *  W of 1.8·10⁵ values 1.06× faster. */
#define NS_THREADS_MIN_WORK 131072.0
static inline int ns_threads_for(int threads, double work)
{
    return threads > 1 && work >= NS_THREADS_MIN_WORK ? threads : 1;
}
#endif
