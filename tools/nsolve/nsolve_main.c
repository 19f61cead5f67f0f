/* nsolve — solve one problem file and report.
 *
 *   nsolve [options] FILE
 *
 * Exit status: 0 converged (or --check passed), 1 not converged, 2 bad input
 * or usage (one-line message on stderr naming the file, line or field). */
#define _POSIX_C_SOURCE 200809L
#include "nonsmooth/nonsmooth.h"
#include "blas_threads.h"
#include "malloc_policy.h"
#include "cli_numbers.h"
#include "json_string.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *usage_text =
    "Usage: nsolve [options] FILE\n"
    "Solve one nonsmooth problem file (Siconos .dat or FCLIB .hdf5) and report.\n"
    "\n"
    "Options:\n"
    "  -s, --solver SPEC     solver to use, NAME[/key=value]..., e.g. pgs,\n"
    "                        nsgs/anderson=3/omega=1.2/threads=2/local=ac (default: the\n"
    "                        default of the problem's kind; see --list-solvers --options);\n"
    "                        its keys override --tol, --max-iter, --time-limit\n"
    "  -t, --tol T           tolerance on the kind's relative error (default 1e-8)\n"
    "  -n, --max-iter N      iteration limit (default: the solver's own)\n"
    "      --time-limit S    stop after S seconds (default: none)\n"
    "  -k, --kind KIND       problem kind, overriding detection: lcp, mlcp, relay, avi,\n"
    "                        equality, fc2d, fc3d, gfc2d, gfc3d, gmp, rfc3d, rfc2d,\n"
    "                        grfc3d; ncp (an LCP\n"
    "                        file as F(z) = Mz + q), mcp (an MLCP file), vi (a relay\n"
    "                        file as a box VI), soclcp (Siconos' SOCLCP layout)\n"
    "      --check           read and validate, and ask the solver (--solver or\n"
    "                        the kind's default) whether it takes the problem\n"
    "                        (one iteration, discarded); solve nothing\n"
    "  -o, --output FILE     write the solution vectors (the last iterate, even when\n"
    "                        not converged): '# NAME LENGTH' then one value a line;\n"
    "                        with status no_solution also the checked certificate\n"
    "                        ('# certificate_farkas LENGTH', y);\n"
    "                        FILE.hdf5 / FILE.h5 (friction contact): an FCLIB file\n"
    "                        with the problem and the solution as /solution\n"
    "  -g, --guess FILE      start from FILE's solution: an FCLIB file's first guess\n"
    "                        (or its /solution), or a file written by --output\n"
    "      --json            print exactly one JSON object on stdout\n"
    "      --list-solvers    list the registered solvers (of --kind if given) and exit;\n"
    "                        with --options also each solver's spec keys (type,\n"
    "                        default, meaning)\n"
    "  -v, --verbose         print solver progress on stderr\n"
    "  -h, --help            show this help and exit\n"
    "      --version         print the version and exit\n"
    "\n"
    "Exit status: 0 converged (or --check passed), 1 not converged,\n"
    "2 bad input or usage.\n"
    "\n"
    "Examples:\n"
    "  nsolve ../shared/data/lcp/lcp_CPS_1.dat\n"
    "  nsolve --solver pgs --tol 1e-10 --json problem.dat\n"
    "  nsolve --solver nsgs-ac/anderson=3/threads=2 problem.hdf5\n"
    "  nsolve --check --kind equality system.dat\n"
    "  nsolve --kind ncp --solver newton-min lcp_file.dat\n";

typedef struct cli {
    const char *file, *solver, *output, *guess;
    ns_kind kind;
    ns_options opt;
    int check, json, list, list_options, verbose;
} cli;

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "nsolve: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see nsolve --help)\n");
    return 2;
}

/* Returns -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, cli *c)
{
    ns_options_default(&c->opt);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
#define NEEDS_VALUE(name)                                                   \
        do {                                                                \
            if (i + 1 >= argc) return usage_error("%s needs a value", name); \
            val = argv[++i];                                                \
        } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("nsolve (nonsmooth) %s\n", ns_version());
            return 0;
        } else if (!strcmp(a, "-s") || !strcmp(a, "--solver")) {
            NEEDS_VALUE(a); c->solver = val;
        } else if (!strcmp(a, "-t") || !strcmp(a, "--tol")) {
            NEEDS_VALUE(a);
            if (ns_cli_double(val, &c->opt.tol) || !(c->opt.tol > 0))
                return usage_error("--tol: '%s' is not a positive number", val);
        } else if (!strcmp(a, "-n") || !strcmp(a, "--max-iter")) {
            NEEDS_VALUE(a);
            if (ns_cli_int(val, &c->opt.max_iter, 0))
                return usage_error("--max-iter: '%s' is not a non-negative integer", val);
        } else if (!strcmp(a, "--time-limit")) {
            NEEDS_VALUE(a);
            if (ns_cli_double(val, &c->opt.time_limit) || !(c->opt.time_limit >= 0) ||
                isinf(c->opt.time_limit))
                return usage_error("--time-limit: '%s' is not a number of seconds", val);
        } else if (!strcmp(a, "-k") || !strcmp(a, "--kind")) {
            NEEDS_VALUE(a);
            c->kind = ns_kind_from_name(val);
            if (c->kind == NS_KIND_NONE)
                return usage_error("--kind: unknown kind '%s' (lcp, mlcp, relay, avi, "
                                   "equality, fc2d, fc3d, gfc2d, gfc3d, gmp, rfc3d, rfc2d, grfc3d, "
                                   "ncp, mcp, vi, cqp, soclcp)", val);
        } else if (!strcmp(a, "--check")) {
            c->check = 1;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            NEEDS_VALUE(a); c->output = val;
        } else if (!strcmp(a, "-g") || !strcmp(a, "--guess")) {
            NEEDS_VALUE(a); c->guess = val;
        } else if (!strcmp(a, "--json")) {
            c->json = 1;
        } else if (!strcmp(a, "--list-solvers")) {
            c->list = 1;
        } else if (!strcmp(a, "--options")) {
            c->list_options = 1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            c->verbose = 1;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else if (c->file) {
            return usage_error("more than one file given ('%s')", a);
        } else {
            c->file = a;
        }
#undef NEEDS_VALUE
    }
    if (!c->file && !c->list) return usage_error("%s", "no problem file given");
    if (c->solver && !c->list) {
        /* names and keys checked now (against every kind having the name, or
         * --kind's); the problem's kind is checked once the file is read */
        char name[NS_SOLVER_NAME_LEN], err[NS_ERRMSG_LEN];
        ns_options scratch;
        ns_options_default(&scratch);
        if (ns_solver_spec_parse(c->solver, c->kind, name, sizeof name, &scratch, err) != NS_OK)
            return usage_error("--solver: %s", err);
    }
    return -1;
}

static void print_option(const ns_solver_option *d)
{
    const char *type = d->type == NS_OPT_INT ? "int" : d->type == NS_OPT_DOUBLE ? "real"
                     : d->type == NS_OPT_CHOICE ? d->choices : "solver";
    char tbuf[64];
    if (d->type == NS_OPT_SOLVER) {
        snprintf(tbuf, sizeof tbuf, "%s solver", ns_kind_name(d->solver_kind));
        type = tbuf;
    }
    printf("    %-12s %-18s default %-8s %s\n", d->key, type, d->default_value, d->meaning);
}

static void list_solvers(ns_kind only, int options)
{
    if (options) {
        size_t n;
        const ns_solver_option *t = ns_solver_common_options(&n);
        printf("keys of every solver (SPEC = NAME[/key=value]...):\n");
        for (size_t i = 0; i < n; i++) print_option(&t[i]);
        printf("\n");
    }
    printf("%-10s %-10s %-8s %s\n", "kind", "solver", "default", "description");
    for (size_t i = 0; i < ns_solver_count(); i++) {
        const ns_solver_info *s = ns_solver_at(i);
        if (only != NS_KIND_NONE && s->kind != only) continue;
        printf("%-10s %-10s %-8s %s\n", ns_kind_name(s->kind), s->name,
               s->is_default ? "yes" : "", s->description);
        size_t n;
        const ns_solver_option *t = ns_solver_options(s, &n);
        for (size_t k = 0; options && k < n; k++) print_option(&t[k]);
    }
}

static void json_string(FILE *f, const char *s)
{
    ns_json_string(f, s);   /* escapes, and U+FFFD for bytes that are not UTF-8 */
}

static void json_number(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.17g", x);
    else fputs("null", f);
}

/* Size object / line of a problem. */
static void print_size(FILE *f, const ns_problem *p, int json)
{
    const char *fmt2 = json ? "{\"%s\": %d, \"%s\": %d}" : "%s = %d, %s = %d";
    switch (p->kind) {
    case NS_KIND_LCP: case NS_KIND_RELAY: case NS_KIND_AVI: case NS_KIND_EQUALITY:
        fprintf(f, json ? "{\"n\": %d}" : "n = %d", ns_problem_size(p)); break;
    case NS_KIND_MLCP:
        fprintf(f, fmt2, "n", p->u.mlcp->n, "m", p->u.mlcp->m); break;
    case NS_KIND_FC2D: case NS_KIND_FC3D:
        fprintf(f, json ? "{\"contacts\": %d}" : "contacts = %d", p->u.fc->nc); break;
    case NS_KIND_GFC2D: case NS_KIND_GFC3D:
        fprintf(f, fmt2, "ndof", p->u.gfc->n, "contacts", p->u.gfc->nc); break;
    case NS_KIND_RFC3D: case NS_KIND_RFC2D:
        fprintf(f, json ? "{\"contacts\": %d}" : "contacts = %d", p->u.rfc->nc); break;
    case NS_KIND_GRFC3D:
        fprintf(f, fmt2, "ndof", p->u.grfc->n, "contacts", p->u.grfc->nc); break;
    case NS_KIND_NCP: case NS_KIND_MCP: case NS_KIND_VI: case NS_KIND_SOCLCP:
        fprintf(f, json ? "{\"n\": %d}" : "n = %d", ns_problem_size(p)); break;
    case NS_KIND_CQP:
        fprintf(f, fmt2, "n", p->u.cqp->n, "m", p->u.cqp->m); break;
    case NS_KIND_GMP: {
        const ns_gmp *g = p->u.gmp;
        fprintf(f, json ? "{\"n\": %d, \"equality\": %d, \"lcp\": %d, \"relay\": %d, "
                          "\"fc2d\": %d, \"fc3d\": %d}"
                        : "n = %d, blocks: equality %d, lcp %d, relay %d, fc2d %d, fc3d %d",
                g->n, ns_gmp_count(g, NS_GMP_EQUALITY), ns_gmp_count(g, NS_GMP_LCP),
                ns_gmp_count(g, NS_GMP_RELAY), ns_gmp_count(g, NS_GMP_FC2D),
                ns_gmp_count(g, NS_GMP_FC3D));
        break;
    }
    default: fputs(json ? "{}" : "?", f);
    }
}

/* The status word of the report: converged | max_iter | no_solution |
 * singular | time_limit | failed | diverged | error. */
static const char *report_status(ns_status st)
{
    switch (st) {
    case NS_CONVERGED: case NS_MAX_ITER: case NS_NO_SOLUTION:
    case NS_SINGULAR: case NS_TIME_LIMIT: case NS_FAILED: case NS_DIVERGED:
    case NS_INTERRUPTED:
        return ns_status_name(st);
    default:
        return "error";
    }
}

/* Appends the certificate to the --output file as one more vector,
 * "# certificate_<kind> <len>" then one value a line (the layout of the
 * solution's vectors). */
static int write_certificate(const char *path, const ns_certificate *cert)
{
    FILE *f = fopen(path, "a");
    if (!f) return -1;
    fprintf(f, "# certificate_%s %d\n", ns_certificate_kind_name(cert->kind), cert->len);
    for (int i = 0; i < cert->len; i++) fprintf(f, "%.17g\n", cert->y[i]);
    return fclose(f) == 0 ? 0 : -1;
}

static void log_stderr(void *user, int level, const char *msg)
{
    (void)user;
    (void)level;
    fprintf(stderr, "nsolve: %s\n", msg);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_json_error(const cli *c, const char *msg)
{
    printf("{\"file\": ");
    json_string(stdout, c->file);
    printf(", \"status\": \"error\", \"message\": ");
    json_string(stdout, msg);
    printf("}\n");
}

/* --guess: the starting point from a solution file; 0, or -1 with a
 * message in err. */
static int load_guess(cli *c, ns_solution *sol, char *err)
{
    if (!c->guess) return 0;
    char e[NS_ERRMSG_LEN];
    if (ns_solution_read(c->guess, sol, e) != NS_OK) {
        snprintf(err, NS_ERRMSG_LEN, "--guess: %.*s", NS_ERRMSG_LEN - 16, e);
        return -1;
    }
    c->opt.warm_start = 1;
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* --output: FCLIB (problem + /solution) for .hdf5 / .h5, else text. */
static ns_status write_output(const char *path, const ns_problem *p, const ns_solution *sol,
                              char *err)
{
    if (ends_with(path, ".hdf5") || ends_with(path, ".h5"))
        return ns_fclib_write_solution(path, p, sol, err);
    return ns_solution_write(path, sol, err);
}

int main(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    ns_tool_blas_single_thread();
    ns_tool_malloc_policy();
    int rc = parse_args(argc, argv, &c);
    if (rc >= 0) return rc;
    if (c.list) {
        list_solvers(c.kind, c.list_options);
        return 0;
    }
    char err[NS_ERRMSG_LEN] = "";
    ns_problem *p = NULL;
    double t0 = now();
    ns_status st = ns_problem_read(c.file, c.kind, &p, err);
    double read_seconds = now() - t0;
    if (st == NS_OK) st = ns_problem_validate(p, err);
    if (st != NS_OK) {
        if (!err[0]) snprintf(err, sizeof err, "%s: %s", c.file, ns_status_name(st));
        /* messages from validation do not carry the file name */
        if (strncmp(err, c.file, strlen(c.file)) != 0) {
            char full[2 * NS_ERRMSG_LEN];
            snprintf(full, sizeof full, "%s: %s", c.file, err);
            fprintf(stderr, "nsolve: %s\n", full);
            if (c.json) print_json_error(&c, full);
        } else {
            fprintf(stderr, "nsolve: %s\n", err);
            if (c.json) print_json_error(&c, err);
        }
        ns_problem_free(p);
        return 2;
    }

    if (c.check) {
        /* the solver's own preconditions too (e.g. every FC3D solver
         * refuses an indefinite diagonal block): one iteration, result
         * discarded, and a refusal fails the check as bad input */
        const ns_solver_info *ci = c.solver ? ns_solver_find(c.solver, p->kind)
                                            : ns_solver_default(p->kind);
        ns_solution *cs = ci ? ns_solution_new(p) : NULL;
        if (cs) {
            ns_options co = c.opt;
            co.max_iter = 1;
            co.time_limit = 1.0;
            co.verbosity = 0;
            co.warm_start = 0;
            ns_result cr;
            ns_status cst = ns_solve(p, ci->name, &co, cs, &cr);
            ns_solution_free(cs);
            if (cst == NS_BAD_INPUT) {
                char why[2 * NS_ERRMSG_LEN];
                snprintf(why, sizeof why, "%s: %s refuses the problem: %s", c.file, ci->name,
                         cr.message);
                ns_result_clear(&cr);
                fprintf(stderr, "nsolve: %s\n", why);
                if (c.json) print_json_error(&c, why);
                ns_problem_free(p);
                return 2;
            }
            ns_result_clear(&cr);
        }
        if (c.json) {
            printf("{\"file\": ");
            json_string(stdout, c.file);
            printf(", \"kind\": \"%s\", \"size\": ", ns_kind_name(p->kind));
            print_size(stdout, p, 1);
            printf(", \"read_seconds\": %.6g}\n", read_seconds);
        } else {
            printf("file        %s\nkind        %s (", c.file, ns_kind_name(p->kind));
            print_size(stdout, p, 0);
            printf(")\ncheck       ok (read in %.3g s)\n", read_seconds);
        }
        ns_problem_free(p);
        return 0;
    }

    /* The solver spec NAME[/key=value]... (ns_solver_spec_parse): its keys
     * are set after --tol/--max-iter/--time-limit, so they win. */
    char sname[NS_SOLVER_NAME_LEN];
    char serr[NS_ERRMSG_LEN];
    st = ns_solver_spec_parse(c.solver, p->kind, sname, sizeof sname, &c.opt, serr);
    const ns_solver_info *info = st == NS_OK ? ns_solver_find(sname, p->kind) : NULL;
    if (!info) {
        if (st == NS_NOT_FOUND && c.solver)
            snprintf(err, sizeof err, "%s: %.300s (see nsolve --list-solvers --kind %s)", c.file,
                     serr, ns_kind_name(p->kind));
        else if (c.solver)
            snprintf(err, sizeof err, "%s: --solver: %.400s", c.file, serr);
        else
            snprintf(err, sizeof err, "%s: no solver is registered for %s problems yet",
                     c.file, ns_kind_name(p->kind));
        fprintf(stderr, "nsolve: %s\n", err);
        if (c.json) print_json_error(&c, err);
        ns_problem_free(p);
        return 2;
    }
    if (c.verbose) {
        c.opt.verbosity = 2;
        c.opt.log = log_stderr;
    }
    ns_solution *sol = ns_solution_new(p);
    ns_result res;
    if (!sol) {
        fprintf(stderr, "nsolve: %s: out of memory\n", c.file);
        ns_problem_free(p);
        return 2;
    }
    if (load_guess(&c, sol, err)) {
        fprintf(stderr, "nsolve: %s\n", err);
        if (c.json) print_json_error(&c, err);
        ns_solution_free(sol);
        ns_problem_free(p);
        return 2;
    }
    st = ns_solve(p, info->name, &c.opt, sol, &res);
    int failed_call = !ns_status_is_outcome(st);
    if (failed_call) {
        fprintf(stderr, "nsolve: %s: %s\n", c.file,
                res.message[0] ? res.message : ns_status_name(st));
    }
    if (c.output && !failed_call) {
        char werr[NS_ERRMSG_LEN];
        if (write_output(c.output, p, sol, werr) != NS_OK) {
            fprintf(stderr, "nsolve: %s\n", werr);
            failed_call = 1;
        } else if (res.cert.kind != NS_CERT_NONE && res.cert.y &&
                   !ends_with(c.output, ".hdf5") && !ends_with(c.output, ".h5") &&
                   write_certificate(c.output, &res.cert) != 0) {
            fprintf(stderr, "nsolve: %s: cannot append the certificate: %s\n", c.output,
                    strerror(errno));
            failed_call = 1;
        }
    }
    int max_iter = c.opt.max_iter ? c.opt.max_iter : info->default_max_iter;
    if (c.json) {
        printf("{\"file\": ");
        json_string(stdout, c.file);
        printf(", \"kind\": \"%s\", \"size\": ", ns_kind_name(p->kind));
        print_size(stdout, p, 1);
        printf(", \"solver\": \"%s\", \"status\": \"%s\", \"iterations\": %d, \"error\": ",
               info->name, report_status(st), res.iterations);
        json_number(stdout, res.error);
        printf(", \"tol\": %.17g, \"max_iter\": %d, \"seconds\": %.9g, \"read_seconds\": %.9g",
               c.opt.tol, max_iter, res.seconds, read_seconds);
        if (res.message[0]) {
            printf(", \"message\": ");
            json_string(stdout, res.message);
        }
        if (res.cert.kind != NS_CERT_NONE) {
            printf(", \"certificate\": {\"kind\": \"%s\", \"checked\": %s, \"source\": ",
                   ns_certificate_kind_name(res.cert.kind), res.cert.checked ? "true" : "false");
            json_string(stdout, res.cert.source);
            printf(", \"violation\": ");
            json_number(stdout, res.cert.violation);
            printf(", \"gap\": ");
            json_number(stdout, res.cert.gap);
            printf(", \"radius\": ");
            json_number(stdout, res.cert.radius);
            printf("}");
        }
        printf("}\n");
    } else {
        printf("file        %s\n", c.file);
        printf("kind        %s (", ns_kind_name(p->kind));
        print_size(stdout, p, 0);
        printf(")\nsolver      %s\n", info->name);
        printf("status      %s\n", ns_status_name(st));
        if (max_iter > 0) printf("iterations  %d (limit %d)\n", res.iterations, max_iter);
        else printf("iterations  %d\n", res.iterations);   /* e.g. reduce: its local solver's limit */
        printf("error       %.3e (tol %.1e)\n", res.error, c.opt.tol);
        printf("time        %.6f s solve, %.6f s read\n", res.seconds, read_seconds);
        if (res.message[0] && !failed_call) printf("note        %s\n", res.message);
        if (res.cert.kind != NS_CERT_NONE)
            printf("certificate %s (%s), checked: violation %.2g, gap %.2g\n",
                   ns_certificate_kind_name(res.cert.kind), res.cert.source,
                   res.cert.violation, res.cert.gap);
        if (c.output && !failed_call) printf("solution    written to %s\n", c.output);
    }
    ns_result_clear(&res);
    ns_solution_free(sol);
    ns_problem_free(p);
    if (failed_call) return 2;
    return st == NS_CONVERGED ? 0 : 1;
}
