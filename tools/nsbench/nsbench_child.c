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
    rec->solves = -1;
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
        /* a stand-alone matrix file is not a problem: ignored, not an error;
         * but a file whose header matched a problem layout is that problem,
         * broken (a cut GMP file also reads as its leading matrix) */
        ns_matrix *A = NULL;
        char merr[NS_ERRMSG_LEN];
        if (!strstr(err, "header matches that layout") && ns_matrix_read(file, &A, merr) == NS_OK) {
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
 * call as bad_input / memory / unsupported (a valid problem the solver does
 * not apply to) / not_found / io_error. */
static const char *solve_status(ns_status st)
{
    if (ns_status_is_outcome(st)) return ns_status_name(st);
    if (st == NS_NO_MEMORY) return "memory";
    return ns_status_name(st);
}

/* One measurement: a solve, and when it took less than min_measure, a batch
 * of solves timed together until min_measure is reached (the first solve,
 * cold, is left out of the batch), that batch made min_repeat times and the
 * least time per solve kept. *per = time per solve, *count = solves
 * timed. A first solve over min_measure but under 10 min_measure is made
 * once more and the lesser time decides (the first solve in the process
 * can be slow only for being first). The unknowns are zeroed by ns_solve
 * at each call (no warm start), so every solve does the same work. */
static ns_status measure(const nb_config *c, const ns_problem *p, const char *solver,
                         const ns_options *o, ns_solution *sol, ns_result *res,
                         double *per, long *count)
{
    ns_status st = ns_solve(p, solver, o, sol, res);
    *per = res->seconds;
    *count = 1;
    if (!ns_status_is_outcome(st) || !(c->min_measure > 0)) return st;
    /* a first solve over min_measure but under 10 min_measure may be slow
     * only for being the process's first (libraries' lazy set-up, page
     * faults): one more solve decides, and the lesser time stands */
    if (!(res->seconds < c->min_measure) && res->seconds < 10 * c->min_measure) {
        ns_result r2;
        ns_result_init(&r2);
        ns_status st2 = ns_solve(p, solver, o, sol, &r2);
        if (st2 == st && r2.seconds < *per) *per = r2.seconds;
        ns_result_clear(&r2);
    }
    if (!(*per < c->min_measure)) return st;
    double guess = res->seconds > 1e-8 ? res->seconds : 1e-8;
    const int rounds = c->min_repeat > 1 ? c->min_repeat : 1;
    for (int round = 0; round < rounds; round++) {
        double total = 0, wall0 = nb_now();
        long m = 0, batch = 1;
        while (total < c->min_measure && m < 10000000L && nb_now() - wall0 < 5 * c->min_measure + 1) {
            long want = (long)((c->min_measure - total) / guess) + 1;
            batch = want < 1 ? 1 : want > 100000 ? 100000 : want;
            for (long b = 0; b < batch; b++) {
                ns_result r2;
                ns_result_init(&r2);
                ns_solve(p, solver, o, sol, &r2);
                total += r2.seconds;
                ns_result_clear(&r2);
            }
            m += batch;
            if (total > 0) guess = total / (double)m;
        }
        /* the first round replaces the cold solve's time; later ones only
         * a larger one (preemption and cache misses only add time) */
        if (m > 0 && total > 0 && (round == 0 || total / (double)m < *per)) {
            *per = total / (double)m;
            *count = m;
        }
    }
    return st;
}

void nb_child_solve(const nb_config *c, const char *file, ns_kind kind,
                    const char *solver, nb_record *rec)
{
    record_init(rec);
    ns_problem *p = read_problem(file, kind, rec);
    if (!p) return;
    const char *name = solver;
    if (c->test_faults && nb_fault_is_name(solver)) {
        nb_fault_run(solver);
        const ns_solver_info *d = ns_solver_default(kind);  /* test-slow goes on */
        solver = d ? d->name : solver;
    }

    ns_options o;
    ns_options_default(&o);
    o.tol = c->tol;
    o.max_iter = c->max_iter;
    o.time_limit = c->time_limit;
    /* the solver spec NAME[/key=value]... (its keys override the options above) */
    char sname[NS_SOLVER_NAME_LEN];
    if (!(c->test_faults && nb_fault_is_name(name))) {
        char serr[NS_ERRMSG_LEN];
        if (ns_solver_spec_parse(solver, kind, sname, sizeof sname, &o, serr) != NS_OK) {
            set_status(rec, "bad_input", serr);
            ns_problem_free(p);
            return;
        }
        solver = sname;
    }
    int best = 0;
    for (int k = 0; k < c->repeat; k++) {
        ns_solution *sol = ns_solution_new(p);
        if (!sol) {
            set_status(rec, "memory", "out of memory for the solution vectors");
            break;
        }
        ns_result res;
        ns_result_init(&res);
        double per;
        long count;
        ns_status st = measure(c, p, solver, &o, sol, &res, &per, &count);
        if (!best || per < rec->seconds) {
            best = 1;
            rec->iterations = res.iterations;
            rec->error = res.error;
            rec->seconds = per;
            rec->solves = count;
            set_status(rec, solve_status(st), res.message);
        }
        ns_result_clear(&res);
        ns_solution_free(sol);
        if (!ns_status_is_outcome(st)) break;  /* failures repeat identically */
    }
    if (c->test_faults) nb_fault_trace(file, name);
    ns_problem_free(p);
}
