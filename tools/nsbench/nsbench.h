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
    double seconds;          /* solve time (best of R); wall time for killed runs */
    long peak_kb;            /* peak resident memory of the run's process, -1 unknown */
    char message[NB_MSG_LEN];
} nb_row;

typedef struct nb_table {
    nb_row *rows;
    size_t n, cap;
} nb_table;

nb_row *nb_table_add(nb_table *t);  /* zeroed-out row with unknowns set; NULL on OOM */
void nb_table_free(nb_table *t);

/* nsbench_csv.c: columns file,kind,size,solver,status,iterations,error,
 * seconds,peak_kb,message (RFC 4180 quoting). */
int nb_csv_write(const char *path, const nb_table *t, char *err);
void nb_csv_write_stream(FILE *f, const nb_table *t);
/* Reads a CSV by header names (extra columns ignored; file, solver, status
 * and seconds required). */
int nb_csv_read(const char *path, nb_table *t, char *err);

/* nsbench_json.c */
void nb_json_string(FILE *f, const char *s);
void nb_json_number(FILE *f, double x);

/* ---- collection (nsbench_collect.c) ---- */
typedef struct nb_files {
    char **path;             /* owned, in benchmark order */
    size_t n, cap;
} nb_files;

/* Adds PATH (a file: always; a directory: every *.dat, *.hdf5, *.h5 below
 * it, sorted, hidden entries skipped). Returns 0, or -1 with err. */
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
/* Runs the fault (never returns for crash/hang/oom). */
void nb_fault_run(const char *name);
extern const char *const nb_fault_names[];

/* Progress (nsbench_progress.c). */
typedef struct nb_progress {
    int enabled, tty;
    double t0, last;
    size_t done, total;
    char current[NB_MSG_LEN];
    int line_shown;
} nb_progress;
void nb_progress_start(nb_progress *p, int enabled, size_t total);
void nb_progress_set(nb_progress *p, size_t done, size_t total, const char *current);
void nb_progress_tick(nb_progress *p);
void nb_progress_end(nb_progress *p, const char *what);

/* Runs all tasks, at most c->jobs at a time; fills each task's row.
 * Returns 0, or 130 when interrupted (unfinished tasks get "interrupted"). */
int nb_run_tasks(const nb_config *c, nb_task *tasks, size_t n, nb_progress *prog,
                 const char *phase);
double nb_now(void);

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
void nb_report_json(FILE *f, nb_profile *const *prof, size_t n, const nb_table *t);
void nb_report_profile_table(FILE *f, const nb_profile *p);
int nb_svg_write(const char *path, nb_profile *const *prof, size_t n,
                 const char *caption, char *err);

/* ---- --compare (nsbench_compare.c) ---- */
int nb_compare(const char *a, const char *b, const char *svg, int json);

#endif
