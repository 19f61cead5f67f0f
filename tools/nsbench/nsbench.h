/* nsbench.h — types shared by the nsbench source files (tool-private).
 *
 * nsbench runs (file, solver) pairs, each in its own forked process, and
 * keeps one row per run. The rows are what the CSV holds, what the summary
 * and the performance profiles are computed from, and what --compare joins.
 */
#ifndef NSBENCH_H
#define NSBENCH_H
#include "nonsmooth/nonsmooth.h"
#include <stddef.h>
#include <stdio.h>

#define NB_STATUS_LEN 24
#define NB_NAME_LEN 64
#define NB_MSG_LEN NS_ERRMSG_LEN

/* ---- configuration (nsbench_main.c fills it) ---- */
typedef struct nb_config {
    char **solvers;          /* --solvers list, NULL = defaults of each kind */
    size_t nsolvers;
    const char **ksolvers[NS_KIND_COUNT];  /* --solvers KIND=list, per kind */
    size_t nksolvers[NS_KIND_COUNT];
    size_t max_solvers;      /* longest of these lists */
    ns_kind kind_filter;     /* --kind, NS_KIND_NONE = all */
    double tol;              /* --tol */
    int max_iter;            /* --max-iter, 0 = solver default */
    double time_limit;       /* --time-limit per run, seconds */
    double mem_limit_mb;     /* --mem-limit per run */
    int jobs;                /* --jobs */
    int repeat;              /* --repeat (best of R) */
    int verbose;             /* children keep their stderr */
    int quiet;               /* no progress */
    int test_faults;         /* NSBENCH_TEST_FAULTS=1: test-crash/-hang/-oom */
    int min_repeat;          /* a solve under min_measure: that measurement made
                                this many times, the least time per solve kept */
    double min_measure;      /* a run repeats its solve until this many seconds are
                              * measured (sub-millisecond problems), 0 = never */
} nb_config;

/* ---- one run's outcome = one CSV row ---- */
typedef struct nb_row {
    char *file;              /* owned */
    char kind[16];           /* "lcp", ...; "none" when unreadable */
    long size;               /* unknowns (ns_problem_size), -1 unknown */
    char solver[NB_NAME_LEN];/* "" when no solver ran (bad_input, no_solver) */
    char status[NB_STATUS_LEN];
    long iterations;         /* -1 unknown */
    double error;            /* NAN unknown */
    double seconds;          /* time per solve (best of R); wall time for killed runs */
    long solves;             /* solves timed for seconds (>1 for sub-ms runs), -1 unknown */
    long peak_kb;            /* peak resident memory of the run's process, -1 unknown */
    char message[NB_MSG_LEN];
} nb_row;

typedef struct nb_table {
    nb_row *rows;
    size_t n, cap;
    size_t malformed;        /* nb_csv_read: rows left out (fields or status wrong) */
    long first_malformed;    /* line of the first of them */
} nb_table;

nb_row *nb_table_add(nb_table *t);  /* zeroed-out row with unknowns set; NULL on OOM */
void nb_table_free(nb_table *t);

/* nsbench_csv.c: columns file,kind,size,solver,status,iterations,error,
 * seconds,solves,peak_kb,message (RFC 4180 quoting). */
int nb_csv_write(const char *path, const nb_table *t, char *err);
/* Writes path.tmp then renames it over path (a reader never sees half a
 * file); a path that exists and is not a regular file (/dev/null, a FIFO,
 * a symbolic link) is written in place instead. */
int nb_csv_write_atomic(const char *path, const nb_table *t, char *err);
void nb_csv_write_stream(FILE *f, const nb_table *t);
void nb_csv_header(FILE *f);
void nb_csv_row(FILE *f, const nb_row *r);
/* Reads a CSV by header names (extra columns ignored; file, solver, status
 * and seconds required). A last line cut short (no line break and fewer
 * fields than the header: the writer was killed mid-row) is dropped. */
int nb_csv_read(const char *path, nb_table *t, char *err);
/* Copies *src into a new row of t (file duplicated); -1 on OOM. */
int nb_table_put(nb_table *t, const char *file, const nb_row *src);

/* --out as the campaign goes: rows appended and flushed as runs finish. */
typedef struct nb_sink {
    FILE *f;                 /* NULL: no CSV (or stdout: written at the end) */
    const char *path;
    double last_sync;
    int failed;              /* a write failed (reported once) */
} nb_sink;
/* Opens path for appending (truncates and writes the header unless keep). */
int nb_sink_open(nb_sink *s, const char *path, int keep, char *err);
void nb_sink_put(nb_sink *s, const char *file, const nb_row *r);
void nb_sink_close(nb_sink *s);

/* nsbench_json.c */
void nb_json_string(FILE *f, const char *s);
void nb_json_number(FILE *f, double x);

/* ---- collection (nsbench_collect.c) ---- */
typedef struct nb_files {
    char **path;             /* owned, in benchmark order */
    size_t n, cap;
    /* identities (device, inode) of the files taken and the directories
     * walked: a file or directory reached again (through a symbolic link,
     * a loop of links, a path given twice) is taken once */
    struct nb_file_id { unsigned long long dev, ino; } *fid, *did;
    size_t nfid, capfid, ndid, capdid;
} nb_files;

/* Adds PATH (a file: always; a directory: every *.dat, *.hdf5, *.h5 below
 * it, sorted, hidden entries skipped; each file and directory once, by
 * identity, whatever links lead to it). Returns 0, or -1 with err. */
int nb_files_collect(nb_files *f, const char *path, char *err);
void nb_files_free(nb_files *f);

/* ---- isolated runs (nsbench_run.c, nsbench_child.c) ---- */
typedef struct nb_task {
    const char *file;
    ns_kind kind;            /* known kind (solve tasks), NONE for probes */
    const char *solver;      /* NULL: probe (detect, read, validate) */
    nb_row row;              /* filled when the task finishes (file not set) */
} nb_task;

/* What a child sends back through its pipe. */
typedef struct nb_record {
    int magic;
    int kind;
    long size;
    long iterations;
    double error;
    double seconds;
    long solves;
    char status[NB_STATUS_LEN];
    char message[NB_MSG_LEN];
} nb_record;
#define NB_RECORD_MAGIC 0x6e736263

/* Child side: fills rec for a probe or a solve (never returns early). */
void nb_child_probe(const char *file, nb_record *rec);
void nb_child_solve(const nb_config *c, const char *file, ns_kind kind,
                    const char *solver, nb_record *rec);

/* Test-only pseudo-solvers (nsbench_faults.c): 1 if name is one of them. */
int nb_fault_is_name(const char *name);
/* Runs the fault (never returns for crash/hang/oom; test-slow returns after
 * its sleep, the run then goes on with the default solver). */
void nb_fault_run(const char *name);
/* NSBENCH_TEST_TRACE: appends "file,solver" to the trace file. */
void nb_fault_trace(const char *file, const char *solver);
extern const char *const nb_fault_names[];

/* Progress (nsbench_progress.c). */
typedef struct nb_progress {
    int enabled, tty;
    double t0, last;
    size_t done, total;
    size_t stopped;          /* of done: interrupted (never ran to the end) */
    char current[NB_MSG_LEN];
    int line_shown;
} nb_progress;
void nb_progress_start(nb_progress *p, int enabled, size_t total);
void nb_progress_set(nb_progress *p, size_t done, size_t total, const char *current);
void nb_progress_tick(nb_progress *p);
/* Counts a finished task (interrupted or not) and shows it. */
void nb_progress_count(nb_progress *p, const nb_row *r);
void nb_progress_end(nb_progress *p, const char *what);

/* Called when a task's row is final (also for interrupted ones). */
typedef void (*nb_done_fn)(void *ctx, nb_task *t);

/* Runs all tasks, at most c->jobs at a time; fills each task's row and calls
 * done (may be NULL) as each finishes. Returns 0, or 130 when interrupted
 * (unfinished tasks get "interrupted"). */
int nb_run_tasks(const nb_config *c, nb_task *tasks, size_t n, nb_progress *prog,
                 const char *phase, nb_done_fn done, void *ctx);
double nb_now(void);

/* The process engine under nb_run_tasks (also driven by the MPI runner):
 * at most c->jobs children at a time, each with its limits. */
typedef struct nb_engine nb_engine;
nb_engine *nb_engine_new(const nb_config *c);
void nb_engine_free(nb_engine *e);
int nb_engine_idle(const nb_engine *e);     /* free slots */
int nb_engine_active(const nb_engine *e);   /* running children */
/* Starts t in a child; -1 when no process could be made (t->row says why). */
int nb_engine_start(nb_engine *e, nb_task *t);
/* Waits up to timeout_ms for children's output (and for extra_fd, when >= 0,
 * to become readable), enforces the limits, reaps the finished children
 * (done() for each). Returns 1 when extra_fd is readable, else 0. */
int nb_engine_step(nb_engine *e, int extra_fd, int timeout_ms, nb_done_fn done, void *ctx);
/* Kills every running child; their rows say "interrupted" (done() called). */
void nb_engine_kill_all(nb_engine *e, nb_done_fn done, void *ctx);
/* SIGINT/SIGTERM set a flag instead of killing nsbench. */
void nb_signals_catch(void);
void nb_signals_restore(void);
int nb_interrupted(void);
/* A row for a task that did not run: unknowns and the given status. */
void nb_row_unrun(nb_row *r, const nb_task *t, const char *status, const char *msg);

/* ---- nsbench merge (nsbench_merge.c) ---- */
/* Joins result CSVs (shards of one campaign) into one: files in
 * directory-walk order, each file's rows in their order; prints the summary;
 * out NULL or "-": stdout. */
int nb_merge(char **csv, size_t n, const char *out, const char *svg, int json);

/* ---- MPI (nsbench_mpi.c, only when built with MPI) ---- */
/* 1 when launched by mpirun/srun (nb_mpi_start then runs the campaign over
 * the ranks); 0 otherwise. */
int nb_mpi_launched(void);
/* The rank the launcher gave this process (environment), -1 if none. */
int nb_mpi_env_rank(void);
/* Forks this rank's runner process (before MPI_Init: no MPI state is ever
 * forked), then initialises MPI. Returns the rank, or -1 on failure. */
int nb_mpi_start(const nb_config *c);
int nb_mpi_size(void);
/* Ranks > 0: serve the tasks rank 0 hands out until told to stop. */
void nb_mpi_serve(void);
/* Rank 0: like nb_run_tasks, over every rank's runner. */
int nb_mpi_run_tasks(const nb_config *c, nb_task *tasks, size_t n, nb_progress *prog,
                     const char *phase, nb_done_fn done, void *ctx);
/* Rank 0: tell the other ranks to stop; every rank: shut down MPI. */
void nb_mpi_end(void);

/* ---- profiles (nsbench_profile.c) ---- */
#define NB_TAU_MAX 1000.0
typedef struct nb_profile {
    char title[64];          /* kind name, or a caption */
    size_t np, ns;           /* problems, series (solvers) */
    char **series;           /* (ns) owned */
    char **problem;          /* (np) owned */
    double *t;               /* (np*ns) time of problem p by series s, INFINITY if unsolved */
    size_t *solved;          /* (ns) */
    size_t n_common;         /* problems every series solved */
    double *geomean;         /* (ns) geometric-mean time over the common problems, NAN if none */
} nb_profile;

nb_profile *nb_profile_new(const char *title);
/* Records time t (INFINITY = not solved) of problem for series; creates
 * either on first sight. Returns 0 or -1 on OOM. */
int nb_profile_set(nb_profile *p, const char *problem, const char *series, double t);
void nb_profile_finish(nb_profile *p);  /* computes solved, n_common, geomean */
/* Fraction of problems series s solved within tau × the best time. */
double nb_profile_rho(const nb_profile *p, size_t s, double tau);
/* Sorted finite ratios of series s (count returned, caller frees *out). */
size_t nb_profile_ratios(const nb_profile *p, size_t s, double **out);
void nb_profile_free(nb_profile *p);

/* Builds one profile per kind from rows (only kinds with solver rows). */
size_t nb_profiles_from_table(const nb_table *t, nb_profile ***out);

/* ---- reports (nsbench_report.c, nsbench_svg.c) ---- */
void nb_report_text(FILE *f, nb_profile *const *prof, size_t n, const nb_table *t);
/* The closing counts of a campaign (this invocation's runs). */
typedef struct nb_counts {
    size_t finished, converged, interrupted, kept;
} nb_counts;
/* counts may be NULL (no "counts" member then). */
void nb_report_json(FILE *f, nb_profile *const *prof, size_t n, const nb_table *t,
                    const nb_counts *counts);
void nb_report_profile_table(FILE *f, const nb_profile *p);
int nb_svg_write(const char *path, nb_profile *const *prof, size_t n,
                 const char *caption, char *err);

/* ---- --compare (nsbench_compare.c) ---- */
int nb_compare(const char *a, const char *b, const char *svg, int json);

#endif
