/* nsbench_child.c — what a forked child does: probe a file (detect, read,
 * validate) or solve it with one solver, and describe the outcome in one
 * nb_record. Runs in its own process: it may crash, hang or run out of
 * memory without harm to the benchmark. */
#define _POSIX_C_SOURCE 200809L
#include "nsbench.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static void set_status(nb_record *rec, const char *status, const char *msg)
{
    snprintf(rec->status, sizeof rec->status, "%s", status);
    snprintf(rec->message, sizeof rec->message, "%s", msg ? msg : "");
}

static void record_init(nb_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->magic = NB_RECORD_MAGIC;
    rec->size = -1;
    rec->iterations = -1;
    rec->error = NAN;
    rec->seconds = NAN;
}

/* Reads and validates file; NULL with rec filled ("bad_input") on failure. */
static ns_problem *read_problem(const char *file, ns_kind kind, nb_record *rec)
{
    char err[NS_ERRMSG_LEN] = "";
    ns_problem *p = NULL;
    ns_status st = ns_problem_read(file, kind, &p, err);
    if (st == NS_OK) st = ns_problem_validate(p, err);
    if (st != NS_OK) {
        if (!err[0]) snprintf(err, sizeof err, "%s", ns_status_name(st));
        char full[NS_ERRMSG_LEN];
        if (strncmp(err, file, strlen(file)) != 0) {  /* validation omits the file */
            int n = snprintf(full, sizeof full, "%s: ", file);
            if (n > 0 && (size_t)n < sizeof full)
                snprintf(full + n, sizeof full - (size_t)n, "%.*s",
                         (int)(sizeof full - (size_t)n - 1), err);
        } else {
            snprintf(full, sizeof full, "%s", err);
        }
        set_status(rec, st == NS_NO_MEMORY ? "memory" : "bad_input", full);
        ns_problem_free(p);
        return NULL;
    }
    rec->kind = (int)p->kind;
    rec->size = (long)ns_problem_size(p);
    return p;
}

void nb_child_probe(const char *file, nb_record *rec)
{
    record_init(rec);
    char err[NS_ERRMSG_LEN] = "";
    ns_format fmt;
    ns_kind kind = NS_KIND_NONE;
    if (ns_problem_detect(file, &fmt, &kind, err) != NS_OK) {
        /* a stand-alone matrix file is not a problem: ignored, not an error */
        ns_matrix *A = NULL;
        char merr[NS_ERRMSG_LEN];
        if (ns_matrix_read(file, &A, merr) == NS_OK) {
            ns_matrix_free(A);
            set_status(rec, "matrix", "stand-alone matrix file, not a problem");
            return;
        }
        set_status(rec, "bad_input", err[0] ? err : "unrecognised content");
        return;
    }
    rec->kind = (int)kind;
    double t0 = nb_now();
    ns_problem *p = read_problem(file, kind, rec);
    rec->seconds = nb_now() - t0;
    if (!p) return;
    set_status(rec, "ok", "");
    ns_problem_free(p);
}

/* Status word of a solve: outcomes by their library name, failures of the
 * call as bad_input / memory / error. */
static const char *solve_status(ns_status st)
{
    if (ns_status_is_outcome(st)) return ns_status_name(st);
    if (st == NS_BAD_INPUT) return "bad_input";
    if (st == NS_NO_MEMORY) return "memory";
    return "error";
}

void nb_child_solve(const nb_config *c, const char *file, ns_kind kind,
                    const char *solver, nb_record *rec)
{
    record_init(rec);
    ns_problem *p = read_problem(file, kind, rec);
    if (!p) return;
    if (c->test_faults && nb_fault_is_name(solver)) nb_fault_run(solver);

    ns_options o;
    ns_options_default(&o);
    o.tol = c->tol;
    o.max_iter = c->max_iter;
    o.time_limit = c->time_limit;
    int best = 0;
    for (int k = 0; k < c->repeat; k++) {
        ns_solution *sol = ns_solution_new(p);
        if (!sol) {
            set_status(rec, "memory", "out of memory for the solution vectors");
            break;
        }
        ns_result res;
        ns_result_init(&res);
        ns_status st = ns_solve(p, solver, &o, sol, &res);
        if (!best || res.seconds < rec->seconds) {
            best = 1;
            rec->iterations = res.iterations;
            rec->error = res.error;
            rec->seconds = res.seconds;
            set_status(rec, solve_status(st), res.message);
        }
        ns_result_clear(&res);
        ns_solution_free(sol);
        if (!ns_status_is_outcome(st)) break;  /* failures repeat identically */
    }
    ns_problem_free(p);
}
