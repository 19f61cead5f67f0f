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
#include "malloc_policy.h"
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
    "       nsbench merge [--out ALL.csv] [--profile out.svg] SHARD.csv...\n"
    "       mpirun -np N nsbench [options] PATH...   (when built with MPI)\n"
    "Benchmark solvers over stored problem files (Siconos .dat, FCLIB .hdf5).\n"
    "PATH is a file or a directory searched recursively for *.dat, *.hdf5, *.h5;\n"
    "each file's kind is detected from its content (stand-alone matrix files are\n"
    "skipped). Every run is isolated in its own process: a crash, a hang or a\n"
    "memory blow-up is recorded as that run's status and the benchmark goes on.\n"
    "\n"
    "Options:\n"
    "  -s, --solvers A,B,C   solvers to run; each applies to the kinds it exists for;\n"
    "                        each is a spec NAME[/key=value]... (nsolve --list-solvers\n"
    "                        --options), e.g. pgs,nsgs-ac/anderson=3\n"
    "                        (default: the default solver of each kind; see\n"
    "                        --list-solvers)\n"
    "  -s, --solvers KIND=A,B  solvers for files of KIND only (repeat the option for\n"
    "                        other kinds; a kind without its list takes the general\n"
    "                        list, or its default solver)\n"
    "  -k, --kind KIND       only files of this kind: lcp, mlcp, relay, avi, equality,\n"
    "                        fc2d, fc3d, gfc2d, gfc3d, gmp, rfc3d, rfc2d, grfc3d;\n"
    "                        or ncp, mcp, vi: the LCP,\n"
    "                        MLCP, relay files read as affine NCP, MCP, box VI\n"
    "  -t, --tol T           tolerance on the kind's relative error (default 1e-8)\n"
    "  -n, --max-iter N      iteration limit (default: each solver's own)\n"
    "      --time-limit S    seconds per run (default 60); the solver is told, and\n"
    "                        the run is killed (status timeout) a margin later\n"
    "      --mem-limit MB    memory per run (default 4096); status memory beyond\n"
    "  -j, --jobs N          runs in parallel (default 1); results do not depend on it\n"
    "  -r, --repeat R        measure R times in each run, keep the best (default 1)\n"
    "      --min-time S      a solve faster than S seconds (default 0.01) is repeated\n"
    "                        in its process until S seconds are measured; the time\n"
    "                        reported is per solve (column solves: how many); 0: off\n"
    "      --min-repeat R    such a solve is measured so R times, the least time per\n"
    "                        solve kept (default 1): on a loaded machine a time only\n"
    "                        grows; slower solves are not repeated\n"
    "  -o, --out FILE        write the results as CSV ('-' for stdout): one row per\n"
    "                        run: file,kind,size,solver,status,iterations,error,\n"
    "                        seconds,solves,peak_kb,message; rows are appended and\n"
    "                        flushed as runs finish, the file is rewritten in order\n"
    "                        at the end\n"
    "      --resume          keep the rows already in --out FILE and run only the\n"
    "                        (file, solver) pairs missing there (or interrupted)\n"
    "      --shard K/N       run only shard K of N (files K, K+N, ...; for job\n"
    "                        arrays); join the shards' CSVs with nsbench merge\n"
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
    "Under mpirun (MPI build) the runs are spread over the ranks, each with --jobs\n"
    "processes; rank 0 writes the CSV, the summary and the profiles.\n"
    "nsbench merge joins CSVs (shards) into one, files in directory-walk order,\n"
    "and prints the summary of the whole.\n"
    "\n"
    "Exit status: 0 done, 1 an output could not be written, 2 bad usage or no\n"
    "problem file, 130 interrupted (the results so far are still written).\n"
    "\n"
    "Examples:\n"
    "  nsbench data/ ../shared/data --profile out/profile.svg\n"
    "  nsbench --kind lcp --solvers pgs,lemke --jobs 2 --out lcp.csv ../shared/data\n"
    "  nsbench --compare old.csv new.csv --profile compare.svg\n"
    "  nsbench --shard 2/8 --out part2.csv ../shared/data; nsbench merge -o all.csv part*.csv\n"
    "  mpirun -np 16 nsbench --out all.csv --resume ../shared/data\n";

typedef struct cli {
    nb_config cfg;
    const char *out, *profile, *compare_a, *compare_b;
    char **paths;
    size_t npaths;
    int json, list, merge, resume, shard_k, shard_n;
    int mpi;                 /* rank 0 of an MPI run */
    const char **svals;      /* --solvers values (owned array) */
    char **bufs;             /* --solvers storage (owned) */
    size_t nbufs, capbufs;
} cli;

static int silent;  /* MPI ranks > 0: rank 0 reports usage errors */

static int usage_error(const char *fmt, const char *arg)
{
    if (silent) return 2;
    fprintf(stderr, "nsbench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see nsbench --help)\n");
    return 2;
}

/* 1 if solver spec NAME[/key=value]... names a solver of kind k and its keys
 * are that solver's (ns_solver_spec_parse). */
static int spec_applies(const char *spec, ns_kind k)
{
    char name[NS_SOLVER_NAME_LEN];
    ns_options scratch;
    ns_options_default(&scratch);
    return ns_solver_spec_parse(spec, k, name, sizeof name, &scratch, NULL) == NS_OK;
}

static int known_solver(const nb_config *c, const char *name)
{
    if (c->test_faults && nb_fault_is_name(name)) return 1;
    for (size_t i = 0; i < ns_solver_count(); i++)
        if (spec_applies(name, ns_solver_at(i)->kind)) return 1;
    return 0;
}

/* One --solvers value: "a,b,c" (every kind each exists for; replaces an
 * earlier such list) or "KIND=a,b,c" (that kind only; replaces its list). */
static int split_solvers(cli *c, const char *arg)
{
    nb_config *g = &c->cfg;
    ns_kind kind = NS_KIND_NONE;
    const char *eq = strchr(arg, '=');
    /* "KIND=..." only when the '=' comes before any '/' or ',' (a solver
     * spec's keys come after its name's '/') */
    if (eq && (memchr(arg, '/', (size_t)(eq - arg)) || memchr(arg, ',', (size_t)(eq - arg))))
        eq = NULL;
    if (eq) {
        char kn[32];
        snprintf(kn, sizeof kn, "%.*s", (int)(eq - arg < 31 ? eq - arg : 31), arg);
        kind = ns_kind_from_name(kn);
        if (kind == NS_KIND_NONE)
            return usage_error("--solvers: unknown kind '%s' before '=' (lcp, mlcp, relay, avi, "
                               "equality, fc2d, fc3d, gfc2d, gfc3d, gmp, rfc3d, rfc2d, grfc3d, ncp, mcp, vi)", kn);
        arg = eq + 1;
    }
    char *buf = strdup(arg);
    size_t cap = 1;
    for (const char *p = arg; *p; p++) cap += *p == ',';
    const char **list = calloc(cap, sizeof *list);
    if (!buf || !list || c->nbufs >= c->capbufs) {
        free(buf);
        free(list);
        return -1;
    }
    c->bufs[c->nbufs++] = buf;
    c->bufs[c->nbufs++] = (char *)list;
    size_t n = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        while (*tok == ' ') tok++;
        if (!*tok) continue;
        if (!(g->test_faults && nb_fault_is_name(tok))) {
            /* a solver spec NAME[/key=value]...: the keys checked now */
            char name[NS_SOLVER_NAME_LEN], err[NS_ERRMSG_LEN];
            ns_options scratch;
            ns_options_default(&scratch);
            if (ns_solver_spec_parse(tok, kind, name, sizeof name, &scratch, err) == NS_BAD_INPUT) {
                if (silent) return 2;
                fprintf(stderr, "nsbench: --solvers: %s\n", err);
                return 2;
            }
        }
        if (kind != NS_KIND_NONE ? !spec_applies(tok, kind) &&
                                       !(g->test_faults && nb_fault_is_name(tok))
                                 : !known_solver(g, tok)) {
            if (silent) return 2;
            fprintf(stderr, "nsbench: --solvers: no %s%ssolver named '%s' (see nsbench "
                    "--list-solvers)\n", kind != NS_KIND_NONE ? ns_kind_name(kind) : "",
                    kind != NS_KIND_NONE ? " " : "", tok);
            return 2;
        }
        int dup = 0;
        for (size_t i = 0; i < n; i++) dup |= !strcmp(list[i], tok);
        if (!dup) list[n++] = tok;
    }
    if (!n) return usage_error("%s", "--solvers: empty list");
    if (kind != NS_KIND_NONE) {
        g->ksolvers[kind] = list;
        g->nksolvers[kind] = n;
    } else {
        g->solvers = (char **)list;
        g->nsolvers = n;
    }
    if (n > g->max_solvers) g->max_solvers = n;
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
    g->min_measure = 0.01;
    g->min_repeat = 1;
    const char *env = getenv("NSBENCH_TEST_FAULTS");
    g->test_faults = env && !strcmp(env, "1");
    c->paths = calloc((size_t)argc + 1, sizeof *c->paths);
    if (!c->paths) return usage_error("%s", "out of memory");
    /* the --solvers values; freed with the cli (every return below) */
    c->svals = calloc((size_t)argc + 1, sizeof *c->svals);
    const char **solvers = c->svals;
    size_t nsolvers_args = 0;
    c->capbufs = 2 * (size_t)argc + 2;
    c->bufs = calloc(c->capbufs, sizeof *c->bufs);
    if (!solvers || !c->bufs) return usage_error("%s", "out of memory");
    int first = 1;
    if (argc > 1 && !strcmp(argv[1], "merge")) {
        c->merge = 1;
        first = 2;
    }
    for (int i = first; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
#define NEEDS_VALUE(name)                                                   \
        do {                                                                \
            if (i + 1 >= argc) return usage_error("%s needs a value", name); \
            val = argv[++i];                                                \
        } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            if (!silent) fputs(usage_text, stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            if (!silent) printf("nsbench (nonsmooth) %s\n", ns_version());
            return 0;
        } else if (!strcmp(a, "-s") || !strcmp(a, "--solvers") || !strcmp(a, "--solver")) {
            NEEDS_VALUE(a); solvers[nsolvers_args++] = val;
        } else if (!strcmp(a, "-k") || !strcmp(a, "--kind")) {
            NEEDS_VALUE(a);
            g->kind_filter = ns_kind_from_name(val);
            if (g->kind_filter == NS_KIND_NONE)
                return usage_error("--kind: unknown kind '%s' (lcp, mlcp, relay, avi, "
                                   "equality, fc2d, fc3d, gfc2d, gfc3d, gmp, rfc3d, rfc2d, grfc3d, "
                                   "ncp, mcp, vi)", val);
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
        } else if (!strcmp(a, "--min-time")) {
            NEEDS_VALUE(a);
            if (ns_cli_double(val, &g->min_measure) || !(g->min_measure >= 0) ||
                g->min_measure > 10)
                return usage_error("--min-time: '%s' is not a number of seconds from 0 to 10",
                                   val);
        } else if (!strcmp(a, "--min-repeat")) {
            NEEDS_VALUE(a);
            if (ns_cli_int(val, &g->min_repeat, 1) || g->min_repeat > 1000)
                return usage_error("--min-repeat: '%s' is not a number from 1 to 1000", val);
        } else if (!strcmp(a, "--resume")) {
            c->resume = 1;
        } else if (!strcmp(a, "--shard")) {
            NEEDS_VALUE(a);
            int k = 0, n = 0, used = 0;
            if (sscanf(val, "%d/%d%n", &k, &n, &used) != 2 || val[used] || n < 1 ||
                n > 1000000 || k < 1 || k > n)
                return usage_error("--shard: '%s' is not K/N with 1 <= K <= N", val);
            c->shard_k = k;
            c->shard_n = n;
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
    if (c->merge) {
        if (!c->npaths) return usage_error("%s", "merge: no CSV file given");
        return -1;
    }
    if (c->resume && (!c->out || !strcmp(c->out, "-")))
        return usage_error("%s", "--resume needs --out FILE (the CSV to complete)");
    if (c->compare_a) {
        if (c->npaths) return usage_error("--compare takes no PATH ('%s')", c->paths[0]);
        return -1;
    }
    for (size_t i = 0; i < nsolvers_args; i++) {
        int rc = split_solvers(c, solvers[i]);
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

/* The kind a file of detected kind k is run as: with --kind ncp, mcp or vi
 * the LCP, MLCP and relay files are read as affine NCP, MCP and box VI
 * (their readers take those layouts); k otherwise. */
static ns_kind run_as(const nb_config *g, ns_kind k)
{
    if (g->kind_filter == NS_KIND_NCP && k == NS_KIND_LCP) return NS_KIND_NCP;
    if (g->kind_filter == NS_KIND_MCP && k == NS_KIND_MLCP) return NS_KIND_MCP;
    if (g->kind_filter == NS_KIND_VI && k == NS_KIND_RELAY) return NS_KIND_VI;
    return k;
}

/* Solvers that apply to kind k, in the order given; n returned: the kind's
 * own list (--solvers KIND=...), else the general list, else the default. */
static size_t solvers_for(const nb_config *g, ns_kind k, const char **out)
{
    size_t n = 0;
    if (k > NS_KIND_NONE && k < NS_KIND_COUNT && g->nksolvers[k]) {
        for (size_t i = 0; i < g->nksolvers[k]; i++) out[n++] = g->ksolvers[k][i];
        return n;
    }
    if (!g->solvers) {
        const ns_solver_info *d = ns_solver_default(k);
        if (d) out[n++] = d->name;
        return n;
    }
    for (size_t i = 0; i < g->nsolvers; i++)
        if (spec_applies(g->solvers[i], k) ||
            (g->test_faults && nb_fault_is_name(g->solvers[i])))
            out[n++] = g->solvers[i];
    return n;
}

/* ---- the rows kept from --resume: (file, solver) → row, hashed ---- */
typedef struct kept {
    nb_table t;
    long *slot;              /* open addressing, -1 empty; cap a power of 2 */
    size_t cap;
    char *used;              /* per row: placed in the final table */
} kept;

static size_t pair_hash(const char *file, const char *solver)
{
    size_t h = 1469598103934665603ULL;
    for (const char *p = file; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;
    for (const char *p = solver; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    return h;
}

static long kept_find(const kept *k, const char *file, const char *solver)
{
    if (!k->cap) return -1;
    for (size_t h = pair_hash(file, solver) & (k->cap - 1);; h = (h + 1) & (k->cap - 1)) {
        long i = k->slot[h];
        if (i < 0) return -1;
        if (!strcmp(k->t.rows[i].file, file) && !strcmp(k->t.rows[i].solver, solver)) return i;
    }
}

/* Reads the CSV of a campaign to resume; rows "interrupted" are dropped
 * (they run again), and of two rows of one pair the first is kept. A CSV
 * that does not exist yet is an empty campaign. */
static int kept_load(kept *k, const char *path, char *err)
{
    memset(k, 0, sizeof *k);
    nb_table all = { 0 };
    FILE *probe = fopen(path, "r");
    if (!probe) return errno == ENOENT ? 0 : (snprintf(err, NS_ERRMSG_LEN, "%s: %s", path,
                                                      strerror(errno)), -1);
    fclose(probe);
    if (nb_csv_read(path, &all, err)) {
        nb_table_free(&all);
        return -1;
    }
    if (all.malformed)   /* not nsbench's rows: they are not kept, their runs are done again */
        fprintf(stderr, "nsbench: --resume: %s: %zu malformed row%s left out (first at line %ld: "
                "wrong number of fields or unknown status)\n", path, all.malformed,
                all.malformed > 1 ? "s" : "", all.first_malformed);
    k->cap = 64;
    while (k->cap < 2 * all.n + 2) k->cap *= 2;
    k->slot = malloc(k->cap * sizeof *k->slot);
    k->used = calloc(all.n + 1, 1);
    if (!k->slot || !k->used) {
        nb_table_free(&all);
        snprintf(err, NS_ERRMSG_LEN, "%s: out of memory", path);
        return -1;
    }
    for (size_t h = 0; h < k->cap; h++) k->slot[h] = -1;
    k->t.rows = all.rows;  /* compacted in place */
    k->t.cap = all.cap;
    for (size_t i = 0; i < all.n; i++) {
        nb_row *r = &all.rows[i];
        if (!strcmp(r->status, "interrupted") || kept_find(k, r->file, r->solver) >= 0) {
            free(r->file);
            continue;
        }
        size_t m = k->t.n;
        if (m != i) all.rows[m] = *r;
        size_t h = pair_hash(all.rows[m].file, all.rows[m].solver) & (k->cap - 1);
        while (k->slot[h] >= 0) h = (h + 1) & (k->cap - 1);
        k->slot[h] = (long)m;
        k->t.n++;
    }
    return 0;
}

static void kept_free(kept *k)
{
    nb_table_free(&k->t);
    free(k->slot);
    free(k->used);
    memset(k, 0, sizeof *k);
}

/* What the old rows say of a file: 2 done (a file-level row), 1 kind known
 * (solver rows; *kind_row set), 0 nothing. Linear in the rows of the file
 * only through the hash of (file, "") and a scan of the solvers. */
static int kept_file_state(const kept *k, const char *file, const nb_config *g,
                           const nb_row **kind_row)
{
    *kind_row = NULL;
    if (!k->cap) return 0;
    if (kept_find(k, file, "") >= 0) return 2;
    for (size_t i = 0; i < ns_solver_count(); i++) {
        long j = kept_find(k, file, ns_solver_at(i)->name);
        if (j >= 0 && strcmp(k->t.rows[j].kind, "none")) {
            *kind_row = &k->t.rows[j];
            return 1;
        }
    }
    if (g->test_faults)
        for (int i = 0; nb_fault_names[i]; i++) {
            long j = kept_find(k, file, nb_fault_names[i]);
            if (j >= 0 && strcmp(k->t.rows[j].kind, "none")) {
                *kind_row = &k->t.rows[j];
                return 1;
            }
        }
    return 0;
}

/* ---- the campaign ---- */
typedef int (*runner_fn)(const nb_config *c, nb_task *tasks, size_t n, nb_progress *prog,
                         const char *phase, nb_done_fn done, void *ctx);

typedef struct campaign {
    const nb_config *g;
    nb_sink sink;
    long *size_hint;         /* per solve task: the probe's size */
    nb_task *tasks;
} campaign;

/* A probe that ended in something else than "ok" or "matrix" is a row of
 * its own (bad_input, crash, memory, interrupted), unless --kind leaves
 * its file out. 1 when it is a row. */
static int probe_is_row(const nb_config *g, const nb_row *pr)
{
    if (!strcmp(pr->status, "ok") || !strcmp(pr->status, "matrix")) return 0;
    if (g->kind_filter != NS_KIND_NONE && strcmp(pr->kind, "none") &&
        run_as(g, ns_kind_from_name(pr->kind)) != g->kind_filter) return 0;
    return 1;
}

static void probe_done(void *ctx, nb_task *t)
{
    campaign *k = ctx;
    if (!probe_is_row(k->g, &t->row) || !strcmp(t->row.status, "interrupted")) return;
    nb_row r = t->row;
    r.seconds = NAN;
    nb_sink_put(&k->sink, t->file, &r);
}

static void solve_done(void *ctx, nb_task *t)
{
    campaign *k = ctx;
    if (t->row.size < 0) t->row.size = k->size_hint[t - k->tasks];  /* a killed run */
    if (!strcmp(t->row.status, "interrupted")) return;
    nb_sink_put(&k->sink, t->file, &t->row);
}

static int run_benchmark(cli *c)
{
    nb_config *g = &c->cfg;
    char err[NS_ERRMSG_LEN];
    nb_files files = { 0 };
    runner_fn runner = nb_run_tasks;
#ifdef NB_HAVE_MPI
    if (c->mpi) runner = nb_mpi_run_tasks;
#endif
    for (size_t i = 0; i < c->npaths; i++)
        if (nb_files_collect(&files, c->paths[i], err)) {
            fprintf(stderr, "nsbench: %s\n", err);
            nb_files_free(&files);
            return 2;
        }
    if (c->shard_n > 1) {  /* files K-1, K-1+N, ... of the sorted list */
        size_t m = 0;
        for (size_t i = 0; i < files.n; i++) {
            if (i % (size_t)c->shard_n == (size_t)(c->shard_k - 1)) files.path[m++] = files.path[i];
            else free(files.path[i]);
        }
        files.n = m;
    }
    if (!files.n) {
        fprintf(stderr, "nsbench: no problem file (*.dat, *.hdf5, *.h5) under the given "
                "PATH%s%s\n", c->npaths > 1 ? "s" : "", c->shard_n > 1 ? " in this shard" : "");
        nb_files_free(&files);
        return 2;
    }
    kept old;
    memset(&old, 0, sizeof old);
    campaign k;
    memset(&k, 0, sizeof k);
    k.g = g;
    if (c->resume && kept_load(&old, c->out, err)) {
        fprintf(stderr, "nsbench: --resume: %s\n", err);
        nb_files_free(&files);
        return 2;
    }
    if (c->out && strcmp(c->out, "-")) {
        /* resume: the kept rows first (normalised, interrupted ones out),
         * then the new rows appended as they come */
        int bad = c->resume && nb_csv_write_atomic(c->out, &old.t, err);
        if (bad || nb_sink_open(&k.sink, c->out, c->resume, err)) {
            fprintf(stderr, "nsbench: %s\n", err);
            kept_free(&old);
            nb_files_free(&files);
            return 1;
        }
    }

    nb_progress prog;
    int show = !g->quiet;
    int rc = 0;
    nb_table table = { 0 };
    size_t cap = files.n * (g->max_solvers + 1) + 1, nt = 0, nmatrix = 0, nother = 0;
    nb_task *probe = calloc(files.n, sizeof *probe);
    nb_task *tasks = calloc(cap, sizeof *tasks);
    nb_task **probe_list = calloc(files.n + 1, sizeof *probe_list);
    long *size_hint = calloc(cap, sizeof *size_hint);
    size_t *first = calloc(files.n + 1, sizeof *first);  /* first task of each file */
    char *file_done = calloc(files.n + 1, 1);             /* a kept file-level row */
    const char **sv = calloc(g->max_solvers + 4, sizeof *sv);
    if (!probe || !tasks || !probe_list || !size_hint || !first || !file_done || !sv) {
        rc = 2;
        goto done;
    }
    k.tasks = tasks;
    k.size_hint = size_hint;

    /* probe the files the kept rows say nothing of */
    size_t nprobe = 0;
    for (size_t i = 0; i < files.n; i++) {
        probe[i].file = files.path[i];
        const nb_row *kr;
        int st = kept_file_state(&old, files.path[i], g, &kr);
        if (st == 2) {
            file_done[i] = 1;
            snprintf(probe[i].row.status, sizeof probe[i].row.status, "kept");
        } else if (st == 1) {
            probe[i].row = *kr;
            probe[i].row.file = NULL;
            snprintf(probe[i].row.status, sizeof probe[i].row.status, "ok");
        } else {
            probe_list[nprobe++] = &probe[i];
        }
    }
    if (nprobe) {
        /* run the probes through a compact array, then copy back */
        nb_task *pt = calloc(nprobe, sizeof *pt);
        if (!pt) { rc = 2; goto done; }
        for (size_t j = 0; j < nprobe; j++) pt[j] = *probe_list[j];
        nb_progress_start(&prog, show, nprobe);
        rc = runner(g, pt, nprobe, &prog, "reading", probe_done, &k);
        nb_progress_end(&prog, "read and classified the files");
        for (size_t j = 0; j < nprobe; j++) probe_list[j]->row = pt[j].row;
        free(pt);
        if (rc < 0) { rc = 2; goto done; }
    }

    /* plan: one task per (readable file of a wanted kind, applicable solver)
     * not already in the kept rows */
    for (size_t i = 0; i < files.n; i++) {
        first[i] = nt;
        nb_row *pr = &probe[i].row;
        if (file_done[i]) continue;
        if (!strcmp(pr->status, "ok")) {
            ns_kind kd = run_as(g, ns_kind_from_name(pr->kind));
            if (g->kind_filter != NS_KIND_NONE && kd != g->kind_filter) { nother++; continue; }
            size_t ns = solvers_for(g, kd, sv);
            for (size_t j = 0; j < ns; j++) {
                if (kept_find(&old, files.path[i], sv[j]) >= 0) continue;
                tasks[nt].file = files.path[i];
                tasks[nt].kind = kd;
                tasks[nt].solver = sv[j];
                size_hint[nt] = pr->size;
                nt++;
            }
            if (!ns) {
                nb_row r = *pr;
                snprintf(r.status, sizeof r.status, "no_solver");
                r.seconds = NAN;
                r.peak_kb = -1;
                snprintf(r.message, sizeof r.message, "no %s solver %s", pr->kind,
                         g->solvers || g->nksolvers[kd] ? "among --solvers" : "is registered");
                *pr = r;  /* the file's row from now on */
                if (rc == 0) nb_sink_put(&k.sink, files.path[i], &r);
            }
        } else if (!strcmp(pr->status, "matrix")) nmatrix++;
    }
    first[files.n] = nt;
    if (rc == 0 && nt > 0) {
        nb_progress_start(&prog, show, nt);
        rc = runner(g, tasks, nt, &prog, "solving", solve_done, &k);
        nb_progress_end(&prog, "solved");
        if (rc < 0) { rc = 2; goto done; }
    } else {
        for (size_t j = 0; j < nt; j++)  /* interrupted while reading */
            nb_row_unrun(&tasks[j].row, &tasks[j], "interrupted", NULL);
    }

    /* rows in file order, solvers in the order given; kept rows in place */
    size_t kept_rows = 0;
    for (size_t i = 0; i < files.n; i++) {
        const char *f = files.path[i];
        nb_row *pr = &probe[i].row;
        if (file_done[i]) {
            long j = kept_find(&old, f, "");
            nb_table_put(&table, f, &old.t.rows[j]);
            old.used[j] = 1;
            kept_rows++;
            continue;
        }
        if (!strcmp(pr->status, "matrix")) continue;
        if (!strcmp(pr->status, "no_solver") || probe_is_row(g, pr)) {
            nb_row r = *pr;
            r.seconds = NAN;
            nb_table_put(&table, f, &r);
            continue;
        }
        if (strcmp(pr->status, "ok")) continue;
        ns_kind kd = run_as(g, ns_kind_from_name(pr->kind));
        if (g->kind_filter != NS_KIND_NONE && kd != g->kind_filter) continue;
        size_t ns = solvers_for(g, kd, sv), next = first[i];
        for (size_t j = 0; j < ns; j++) {
            long o = kept_find(&old, f, sv[j]);
            if (o >= 0) {
                nb_table_put(&table, f, &old.t.rows[o]);
                old.used[o] = 1;
                kept_rows++;
            } else if (next < first[i + 1]) {
                nb_table_put(&table, f, &tasks[next++].row);
            }
        }
    }
    size_t foreign = 0;
    const char *foreign_file = NULL;
    for (size_t j = 0; j < old.t.n; j++)  /* other files or solvers: kept as they were */
        if (!old.used[j]) {
            nb_table_put(&table, old.t.rows[j].file, &old.t.rows[j]);
            kept_rows++;
            if (!foreign++) foreign_file = old.t.rows[j].file;
        }
    if (foreign)
        fprintf(stderr, "nsbench: --resume: %zu row%s of %s kept from %s as they were (files or "
                "solvers outside this campaign, e.g. %s): they count in the summary\n", foreign,
                foreign > 1 ? "s" : "", foreign > 1 ? "files or solvers" : "a file or solver",
                c->out, foreign_file);

    /* closing counts: this session's runs (file-level rows included) */
    size_t n_fin = 0, n_conv = 0, n_int = 0;
    for (size_t j = 0; j < nt; j++) {
        const char *st = tasks[j].row.status;
        if (!strcmp(st, "interrupted")) n_int++;
        else {
            n_fin++;
            n_conv += !strcmp(st, "converged");
        }
    }
    for (size_t i = 0; i < files.n; i++)
        n_int += !file_done[i] && !strcmp(probe[i].row.status, "interrupted") &&
                 probe_is_row(g, &probe[i].row);

    nb_sink_close(&k.sink);
    nb_profile **prof = NULL;
    size_t nprof = nb_profiles_from_table(&table, &prof);
    int out_rc = k.sink.failed;
    if (c->out) {
        if (!strcmp(c->out, "-")) nb_csv_write_stream(stdout, &table);
        else if (nb_csv_write_atomic(c->out, &table, err)) {  /* in order, replaces the log */
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
    char engine[96];
#ifdef NB_HAVE_MPI
    if (c->mpi)
        snprintf(engine, sizeof engine, "%d MPI rank%s x %d job%s", nb_mpi_size(),
                 nb_mpi_size() == 1 ? "" : "s", g->jobs, g->jobs == 1 ? "" : "s");
    else
#endif
        snprintf(engine, sizeof engine, "%d job%s", g->jobs, g->jobs == 1 ? "" : "s");
    nb_counts counts = { n_fin, n_conv, n_int, kept_rows };
    if (c->json) nb_report_json(rep, prof, nprof, &table, &counts);
    else {
        fprintf(rep, "nsbench: %zu problem files, %zu runs (tol %g, time limit %g s, %s)",
                files.n - nmatrix - nother, nt, g->tol, g->time_limit, engine);
        if (c->shard_n > 1) fprintf(rep, "; shard %d/%d", c->shard_k, c->shard_n);
        if (nmatrix) fprintf(rep, "; %zu matrix files skipped", nmatrix);
        fprintf(rep, "\n");
        nb_report_text(rep, prof, nprof, &table);
        fprintf(rep, "\nruns: %zu finished (%zu converged, %zu not), %zu interrupted", n_fin,
                n_conv, n_fin - n_conv, n_int);
        if (c->resume) fprintf(rep, "; %zu rows kept from %s", kept_rows, c->out);
        fprintf(rep, "\n");
        if (c->out && strcmp(c->out, "-") && !out_rc) fprintf(rep, "results: %s\n", c->out);
        if (c->profile && !out_rc) fprintf(rep, "profiles: %s\n", c->profile);
    }
    for (size_t j = 0; j < nprof; j++) nb_profile_free(prof[j]);
    free(prof);
    if (rc == 0) rc = out_rc;
done:
    nb_sink_close(&k.sink);
    nb_table_free(&table);
    kept_free(&old);
    free(tasks);
    free(probe_list);
    free(size_hint);
    free(first);
    free(file_done);
    free(sv);
    free(probe);
    nb_files_free(&files);
    return rc;
}

static void cli_free(cli *c)
{
    for (size_t i = 0; i < c->nbufs; i++) free(c->bufs[i]);
    free(c->bufs);
    free(c->svals);
    free(c->paths);
}

int main(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    ns_tool_blas_single_thread();   /* children inherit it: one core per run */
    ns_tool_malloc_policy();
#ifdef NB_HAVE_MPI
    silent = nb_mpi_env_rank() > 0;
#endif
    int rc = parse_args(argc, argv, &c);
#ifdef NB_HAVE_MPI
    /* under mpirun: only a benchmark run uses the ranks; for anything else
     * (help, errors, --list-solvers, --compare, merge) rank 0 alone speaks */
    int env_rank = nb_mpi_env_rank();
    int bench = rc < 0 && !c.list && !c.compare_a && !c.merge;
    if (env_rank > 0 && !bench) {
        cli_free(&c);
        return rc < 0 ? 0 : rc;
    }
    if (bench && nb_mpi_launched()) {
        int rank = nb_mpi_start(&c.cfg);
        if (rank < 0) {
            fprintf(stderr, "nsbench: could not start MPI\n");
            rc = 2;
            bench = 0;
        } else if (rank > 0) {
            nb_mpi_serve();
            nb_mpi_end();
            cli_free(&c);
            return 0;
        } else {
            c.mpi = 1;
        }
    }
#endif
    if (rc < 0) {
        if (c.list) {
            list_solvers(&c.cfg);
            rc = 0;
        } else if (c.compare_a) {
            rc = nb_compare(c.compare_a, c.compare_b, c.profile, c.json);
        } else if (c.merge) {
            rc = nb_merge(c.paths, c.npaths, c.out, c.profile, c.json);
        } else {
            rc = run_benchmark(&c);
        }
    }
#ifdef NB_HAVE_MPI
    if (c.mpi) nb_mpi_end();
#endif
    cli_free(&c);
    return rc;
}
