/* nsbench — benchmark solvers over collections of stored problems.
 *
 *   nsbench [options] PATH...
 *   nsbench --compare A.csv B.csv [--profile out.svg]
 *
 * Each run (file × solver) happens in its own process with a time and a
 * memory limit (nsbench_run.c); the rows come out in file order whatever
 * --jobs is. Exit status: 0 done, 1 an output file could not be written,
 * 2 bad usage or no problem file, 130 interrupted (partial results kept). */
#define _POSIX_C_SOURCE 200809L
#include "blas_threads.h"
#include "cli_numbers.h"
#include "nsbench.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *usage_text =
    "Usage: nsbench [options] PATH...\n"
    "       nsbench --compare A.csv B.csv [--profile out.svg] [--json]\n"
    "Benchmark solvers over stored problem files (Siconos .dat, FCLIB .hdf5).\n"
    "PATH is a file or a directory searched recursively for *.dat, *.hdf5, *.h5;\n"
    "each file's kind is detected from its content (stand-alone matrix files are\n"
    "skipped). Every run is isolated in its own process: a crash, a hang or a\n"
    "memory blow-up is recorded as that run's status and the benchmark goes on.\n"
    "\n"
    "Options:\n"
    "  -s, --solvers A,B,C   solvers to run; each applies to the kinds it exists for\n"
    "                        (default: the default solver of each kind; see\n"
    "                        --list-solvers)\n"
    "  -k, --kind KIND       only files of this kind: lcp, mlcp, relay, avi, equality,\n"
    "                        fc2d, fc3d, gfc2d, gfc3d, gmp\n"
    "  -t, --tol T           tolerance on the kind's relative error (default 1e-8)\n"
    "  -n, --max-iter N      iteration limit (default: each solver's own)\n"
    "      --time-limit S    seconds per run (default 60); the solver is told, and\n"
    "                        the run is killed (status timeout) a margin later\n"
    "      --mem-limit MB    memory per run (default 4096); status memory beyond\n"
    "  -j, --jobs N          runs in parallel (default 1); results do not depend on it\n"
    "  -r, --repeat R        solve R times in each run, keep the best time (default 1)\n"
    "  -o, --out FILE        write the results as CSV ('-' for stdout): one row per\n"
    "                        run: file,kind,size,solver,status,iterations,error,\n"
    "                        seconds,peak_kb,message\n"
    "  -p, --profile FILE    write the performance profiles as SVG\n"
    "      --json            print the summary and the runs as one JSON object\n"
    "      --compare A B     join two result CSVs: per-problem time ratios B/A,\n"
    "                        geometric mean, and the profile of both\n"
    "      --list-solvers    list the registered solvers and exit\n"
    "  -q, --quiet           no progress on stderr\n"
    "  -v, --verbose         let the runs' own messages through to stderr\n"
    "  -h, --help            show this help and exit\n"
    "      --version         print the version and exit\n"
    "\n"
    "Statuses: converged, max_iter, no_solution, singular, time_limit, diverged\n"
    "(the solver's outcome); timeout (killed past the time limit), memory, crash,\n"
    "bad_input (file or problem rejected), no_solver, interrupted.\n"
    "Summary per kind: solved count and fraction, geometric-mean time over the\n"
    "problems every solver solved, Dolan-More profile rho(tau) for tau in 1..1000.\n"
    "\n"
    "Exit status: 0 done, 1 an output could not be written, 2 bad usage or no\n"
    "problem file, 130 interrupted (the results so far are still written).\n"
    "\n"
    "Examples:\n"
    "  nsbench data/ ../shared/data --profile out/profile.svg\n"
    "  nsbench --kind lcp --solvers pgs,lemke --jobs 2 --out lcp.csv ../shared/data\n"
    "  nsbench --compare old.csv new.csv --profile compare.svg\n";

typedef struct cli {
    nb_config cfg;
    const char *out, *profile, *compare_a, *compare_b;
    char **paths;
    size_t npaths;
    int json, list;
    char *solver_arg;
} cli;

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "nsbench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see nsbench --help)\n");
    return 2;
}

static int known_solver(const nb_config *c, const char *name)
{
    if (c->test_faults && nb_fault_is_name(name)) return 1;
    for (size_t i = 0; i < ns_solver_count(); i++)
        if (!strcmp(ns_solver_at(i)->name, name)) return 1;
    return 0;
}

static int split_solvers(cli *c, const char *arg)
{
    free(c->solver_arg);
    c->solver_arg = strdup(arg);
    free(c->cfg.solvers);
    c->cfg.solvers = NULL;
    c->cfg.nsolvers = 0;
    if (!c->solver_arg) return -1;
    size_t cap = 1;
    for (const char *p = arg; *p; p++) cap += *p == ',';
    c->cfg.solvers = calloc(cap, sizeof *c->cfg.solvers);
    if (!c->cfg.solvers) return -1;
    for (char *tok = strtok(c->solver_arg, ","); tok; tok = strtok(NULL, ",")) {
        while (*tok == ' ') tok++;
        if (!*tok) continue;
        if (!known_solver(&c->cfg, tok))
            return usage_error("--solvers: no solver named '%s' (see nsbench --list-solvers)",
                               tok);
        int dup = 0;
        for (size_t i = 0; i < c->cfg.nsolvers; i++) dup |= !strcmp(c->cfg.solvers[i], tok);
        if (!dup) c->cfg.solvers[c->cfg.nsolvers++] = tok;
    }
    if (!c->cfg.nsolvers) return usage_error("%s", "--solvers: empty list");
    return 0;
}

/* Returns -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, cli *c)
{
    nb_config *g = &c->cfg;
    g->tol = 1e-8;
    g->time_limit = 60;
    g->mem_limit_mb = 4096;
    g->jobs = 1;
    g->repeat = 1;
    const char *env = getenv("NSBENCH_TEST_FAULTS");
    g->test_faults = env && !strcmp(env, "1");
    c->paths = calloc((size_t)argc + 1, sizeof *c->paths);
    if (!c->paths) return usage_error("%s", "out of memory");
    const char *solvers = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
#define NEEDS_VALUE(name)                                                   \
        do {                                                                \
            if (i + 1 >= argc) return usage_error("%s needs a value", name); \
            val = argv[++i];                                                \
        } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("nsbench (nonsmooth) %s\n", ns_version());
            return 0;
        } else if (!strcmp(a, "-s") || !strcmp(a, "--solvers") || !strcmp(a, "--solver")) {
            NEEDS_VALUE(a); solvers = val;
        } else if (!strcmp(a, "-k") || !strcmp(a, "--kind")) {
            NEEDS_VALUE(a);
            g->kind_filter = ns_kind_from_name(val);
            if (g->kind_filter == NS_KIND_NONE)
                return usage_error("--kind: unknown kind '%s' (lcp, mlcp, relay, avi, "
                                   "equality, fc2d, fc3d, gfc2d, gfc3d, gmp)", val);
        } else if (!strcmp(a, "-t") || !strcmp(a, "--tol")) {
            NEEDS_VALUE(a);
            if (ns_cli_double(val, &g->tol) || !(g->tol > 0))
                return usage_error("--tol: '%s' is not a positive number", val);
        } else if (!strcmp(a, "-n") || !strcmp(a, "--max-iter")) {
            NEEDS_VALUE(a);
            if (ns_cli_int(val, &g->max_iter, 0))
                return usage_error("--max-iter: '%s' is not a non-negative integer", val);
        } else if (!strcmp(a, "--time-limit")) {
            NEEDS_VALUE(a);
            if (ns_cli_double(val, &g->time_limit) || !(g->time_limit > 0))
                return usage_error("--time-limit: '%s' is not a positive number of seconds",
                                   val);
        } else if (!strcmp(a, "--mem-limit")) {
            NEEDS_VALUE(a);
            if (ns_cli_double(val, &g->mem_limit_mb) || !(g->mem_limit_mb >= 16))
                return usage_error("--mem-limit: '%s' is not a number of MB (at least 16)",
                                   val);
        } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
            NEEDS_VALUE(a);
            if (ns_cli_int(val, &g->jobs, 1) || g->jobs > 256)
                return usage_error("--jobs: '%s' is not a number from 1 to 256", val);
        } else if (!strcmp(a, "-r") || !strcmp(a, "--repeat")) {
            NEEDS_VALUE(a);
            if (ns_cli_int(val, &g->repeat, 1) || g->repeat > 1000)
                return usage_error("--repeat: '%s' is not a number from 1 to 1000", val);
        } else if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
            NEEDS_VALUE(a); c->out = val;
        } else if (!strcmp(a, "-p") || !strcmp(a, "--profile")) {
            NEEDS_VALUE(a); c->profile = val;
        } else if (!strcmp(a, "--json")) {
            c->json = 1;
        } else if (!strcmp(a, "--compare")) {
            if (i + 2 >= argc) return usage_error("%s needs two result files", a);
            c->compare_a = argv[++i];
            c->compare_b = argv[++i];
        } else if (!strcmp(a, "--list-solvers")) {
            c->list = 1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            g->quiet = 1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            g->verbose = 1;
        } else if (!strcmp(a, "--") ) {
            for (i++; i < argc; i++) c->paths[c->npaths++] = argv[i];
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else {
            c->paths[c->npaths++] = argv[i];
        }
#undef NEEDS_VALUE
    }
    if (c->list) return -1;
    if (c->compare_a) {
        if (c->npaths) return usage_error("--compare takes no PATH ('%s')", c->paths[0]);
        return -1;
    }
    if (solvers) {
        int rc = split_solvers(c, solvers);
        if (rc) return rc > 0 ? rc : usage_error("%s", "out of memory");
    }
    if (!c->npaths) return usage_error("%s", "no PATH given (a problem file or a directory)");
    return -1;
}

static void list_solvers(const nb_config *g)
{
    printf("%-10s %-10s %-8s %s\n", "kind", "solver", "default", "description");
    for (size_t i = 0; i < ns_solver_count(); i++) {
        const ns_solver_info *s = ns_solver_at(i);
        if (g->kind_filter != NS_KIND_NONE && s->kind != g->kind_filter) continue;
        printf("%-10s %-10s %-8s %s\n", ns_kind_name(s->kind), s->name,
               s->is_default ? "yes" : "", s->description);
    }
    if (g->test_faults)
        for (int i = 0; nb_fault_names[i]; i++)
            printf("%-10s %-10s %-8s %s\n", "any", nb_fault_names[i], "",
                   "testing hook (NSBENCH_TEST_FAULTS=1): misbehaves on purpose");
}

/* Solvers that apply to kind k, in the order given; n returned. */
static size_t solvers_for(const nb_config *g, ns_kind k, const char **out)
{
    size_t n = 0;
    if (!g->solvers) {
        const ns_solver_info *d = ns_solver_default(k);
        if (d) out[n++] = d->name;
        return n;
    }
    for (size_t i = 0; i < g->nsolvers; i++)
        if (ns_solver_find(g->solvers[i], k) ||
            (g->test_faults && nb_fault_is_name(g->solvers[i])))
            out[n++] = g->solvers[i];
    return n;
}

static int put_row(nb_table *t, const char *file, const nb_row *src)
{
    nb_row *r = nb_table_add(t);
    if (!r) return -1;
    *r = *src;
    if (!(r->file = strdup(file))) return -1;
    return 0;
}

static int run_benchmark(cli *c)
{
    nb_config *g = &c->cfg;
    char err[NS_ERRMSG_LEN];
    nb_files files = { 0 };
    for (size_t i = 0; i < c->npaths; i++)
        if (nb_files_collect(&files, c->paths[i], err)) {
            fprintf(stderr, "nsbench: %s\n", err);
            nb_files_free(&files);
            return 2;
        }
    if (!files.n) {
        fprintf(stderr, "nsbench: no problem file (*.dat, *.hdf5, *.h5) under the given "
                "PATH%s\n", c->npaths > 1 ? "s" : "");
        nb_files_free(&files);
        return 2;
    }
    nb_progress prog;
    int show = !g->quiet;
    nb_task *probe = calloc(files.n, sizeof *probe);
    if (!probe) { nb_files_free(&files); return 2; }
    for (size_t i = 0; i < files.n; i++) probe[i].file = files.path[i];
    nb_progress_start(&prog, show, files.n);
    int rc = nb_run_tasks(g, probe, files.n, &prog, "reading");
    nb_progress_end(&prog, "read and classified the files");

    /* plan: one task per (readable file of a wanted kind, applicable solver) */
    size_t cap = files.n * (g->nsolvers + 1) + 1, nt = 0, nmatrix = 0, nother = 0;
    nb_task *tasks = calloc(cap, sizeof *tasks);
    size_t *first = calloc(files.n + 1, sizeof *first);  /* first task of each file */
    const char **sv = calloc(g->nsolvers + 4, sizeof *sv);
    if (!tasks || !first || !sv) { rc = 2; goto done; }
    for (size_t i = 0; i < files.n; i++) {
        first[i] = nt;
        nb_row *pr = &probe[i].row;
        if (!strcmp(pr->status, "ok")) {
            ns_kind k = ns_kind_from_name(pr->kind);
            if (g->kind_filter != NS_KIND_NONE && k != g->kind_filter) { nother++; continue; }
            size_t ns = solvers_for(g, k, sv);
            for (size_t j = 0; j < ns; j++) {
                tasks[nt].file = files.path[i];
                tasks[nt].kind = k;
                tasks[nt].solver = sv[j];
                nt++;
            }
        } else if (!strcmp(pr->status, "matrix")) nmatrix++;
    }
    first[files.n] = nt;
    if (rc == 0 && nt > 0) {
        nb_progress_start(&prog, show, nt);
        rc = nb_run_tasks(g, tasks, nt, &prog, "solving");
        nb_progress_end(&prog, "solved");
    } else {
        for (size_t j = 0; j < nt; j++) {  /* interrupted while reading */
            nb_row *r = &tasks[j].row;
            r->size = r->iterations = r->peak_kb = -1;
            r->error = r->seconds = NAN;
            snprintf(r->kind, sizeof r->kind, "%s", ns_kind_name(tasks[j].kind));
            snprintf(r->solver, sizeof r->solver, "%s", tasks[j].solver);
            snprintf(r->status, sizeof r->status, "interrupted");
        }
    }

    /* rows in file order, solvers in the order given */
    nb_table table = { 0 };
    for (size_t i = 0; i < files.n && rc != 2; i++) {
        nb_row *pr = &probe[i].row;
        if (!strcmp(pr->status, "matrix")) continue;
        if (strcmp(pr->status, "ok")) {
            if (g->kind_filter != NS_KIND_NONE && strcmp(pr->kind, "none") &&
                ns_kind_from_name(pr->kind) != g->kind_filter) continue;
            nb_row r = *pr;  /* bad_input, crash, ... of the read */
            r.seconds = NAN;
            put_row(&table, files.path[i], &r);
            continue;
        }
        if (g->kind_filter != NS_KIND_NONE && ns_kind_from_name(pr->kind) != g->kind_filter)
            continue;
        if (first[i] == first[i + 1]) {
            nb_row r = *pr;
            snprintf(r.status, sizeof r.status, "no_solver");
            r.seconds = NAN;
            r.peak_kb = -1;
            snprintf(r.message, sizeof r.message, "no %s solver %s", pr->kind,
                     g->solvers ? "among --solvers" : "is registered");
            put_row(&table, files.path[i], &r);
            continue;
        }
        for (size_t j = first[i]; j < first[i + 1]; j++) {
            nb_row r = tasks[j].row;
            if (r.size < 0) r.size = pr->size;  /* a killed run did not say */
            put_row(&table, files.path[i], &r);
        }
    }
    if (rc == 2) goto done;

    nb_profile **prof = NULL;
    size_t nprof = nb_profiles_from_table(&table, &prof);
    int out_rc = 0;
    if (c->out) {
        if (!strcmp(c->out, "-")) nb_csv_write_stream(stdout, &table);
        else if (nb_csv_write(c->out, &table, err)) {
            fprintf(stderr, "nsbench: %s\n", err);
            out_rc = 1;
        }
    }
    if (c->profile) {
        char caption[256];
        snprintf(caption, sizeof caption,
                 "nsbench performance profiles — tol %g, time limit %g s, %zu files", g->tol,
                 g->time_limit, files.n - nmatrix);
        if (nb_svg_write(c->profile, prof, nprof, caption, err)) {
            fprintf(stderr, "nsbench: %s\n", err);
            out_rc = 1;
        }
    }
    FILE *rep = c->out && !strcmp(c->out, "-") ? stderr : stdout;
    if (c->json) nb_report_json(rep, prof, nprof, &table);
    else {
        fprintf(rep, "nsbench: %zu problem files, %zu runs (tol %g, time limit %g s, %d job%s)",
                files.n - nmatrix - nother, nt, g->tol, g->time_limit, g->jobs,
                g->jobs == 1 ? "" : "s");
        if (nmatrix) fprintf(rep, "; %zu matrix files skipped", nmatrix);
        fprintf(rep, "\n");
        nb_report_text(rep, prof, nprof, &table);
        if (c->out && strcmp(c->out, "-") && !out_rc) fprintf(rep, "\nresults: %s\n", c->out);
        if (c->profile && !out_rc) fprintf(rep, "profiles: %s\n", c->profile);
    }
    for (size_t k = 0; k < nprof; k++) nb_profile_free(prof[k]);
    free(prof);
    nb_table_free(&table);
    if (rc == 0) rc = out_rc;
done:
    free(tasks);
    free(first);
    free(sv);
    free(probe);
    nb_files_free(&files);
    return rc;
}

int main(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    ns_tool_blas_single_thread();   /* children inherit it: one core per run */
    int rc = parse_args(argc, argv, &c);
    if (rc < 0) {
        if (c.list) {
            list_solvers(&c.cfg);
            rc = 0;
        } else if (c.compare_a) {
            rc = nb_compare(c.compare_a, c.compare_b, c.profile, c.json);
        } else {
            rc = run_benchmark(&c);
        }
    }
    free(c.paths);
    free(c.cfg.solvers);
    free(c.solver_arg);
    return rc;
}
