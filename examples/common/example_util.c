/* example_util.c — see example_util.h. */
#include "example_util.h"
#include "blas_threads.h"
#include "malloc_policy.h"
#include "cli_numbers.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* *out = the integer of s (ns_cli_int: whole word, in [min, 2·10⁹]); 0, or −1 */
static int strict_long(const char *s, long *out, int min)
{
    int v;
    if (ns_cli_int(s, &v, min) != 0) return -1;
    *out = v;
    return 0;
}

static void help(FILE *f, const char *prog, const char *usage, const char *details)
{
    fprintf(f,
            "usage: %s [options] %s\n"
            "Runs the example and prints a one-line summary; see README.md and\n"
            "docs/mechanics-api.md for the model.\n",
            prog, usage);
    if (details) fprintf(f, "Options of this example:\n%s", details);
    fprintf(f,
            "Common options:\n"
            "  --out DIR          write DIR/trajectory.csv (header + one row per saved\n"
            "                     step) and the SVG plots (created if missing)\n"
            "  --dump DIR         write the one-step problems as files nsolve reads\n"
            "  --dump-max N       at most N dumped problems (default 50, 0 = all)\n"
            "  --dump-every K     dump every K-th one-step problem (default 1)\n"
            "  --solver NAME      numerics solver of the problem's kind (nsolve --list-solvers)\n"
            "  --tol TOL          solver tolerance (default 1e-8 unless the example says)\n"
            "  --h H              time step (> 0; default: the example's)\n"
            "  --T T              final time (> 0; default: the example's)\n"
            "  --steps N          number of steps (overrides --T)\n"
            "  --save-every N     save every N-th step in trajectory.csv (default 1)\n"
            "  --theta THETA      theta of the scheme, in (0, 1] (default 0.5)\n"
            "  --siconos-law      Siconos' rules (restitution e for separating active\n"
            "                     contacts, first-order laws on y_{k+1}); see\n"
            "                     docs/mechanics-api.md on energy\n"
            "  --quiet            no summary line\n"
            "  -h, --help         this text\n"
            "Exit status: 0 done, 1 the simulation failed, 2 bad usage.\n");
}

void nsx_process_policy(void)
{
    ns_tool_blas_single_thread();
    ns_tool_malloc_policy();
}

int nsx_parse(int argc, char **argv, nsx_args *a, const char *usage)
{
    return nsx_parse_described(argc, argv, a, usage, NULL);
}

int nsx_parse_described(int argc, char **argv, nsx_args *a, const char *usage, const char *details)
{
    nsx_process_policy();
    memset(a, 0, sizeof *a);
    a->save_every = 1;
    a->dump_max = 50;
    a->dump_every = 1;
    a->e = NAN;
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1, bad_value = 0;
        double x = 0.0;
        long l = 0;
        if (!strcmp(k, "-h") || !strcmp(k, "--help")) { help(stdout, argv[0], usage, details); return 1; }
        else if (!strcmp(k, "--quiet")) { a->quiet = 1; takes = 0; }
        else if (!strcmp(k, "--siconos-law")) { a->siconos_law = 1; takes = 0; }
        else if (!v) goto bad;
        else if (!strcmp(k, "--out")) a->out = v;
        else if (!strcmp(k, "--dump")) a->dump = v;
        else if (!strcmp(k, "--solver")) a->solver = v;
        else if (!strcmp(k, "--variant")) a->variant = v;
        else if (!strcmp(k, "--dump-max")) { bad_value = strict_long(v, &l, 0); a->dump_max = l; }
        else if (!strcmp(k, "--dump-every")) { bad_value = strict_long(v, &l, 1); a->dump_every = l; }
        else if (!strcmp(k, "--steps")) { bad_value = strict_long(v, &l, 1); a->steps = l; }
        else if (!strcmp(k, "--save-every")) { bad_value = strict_long(v, &l, 1); a->save_every = l; }
        else if (!strcmp(k, "--n")) { bad_value = strict_long(v, &l, 1); a->n = (int)l; }
        else if (!strcmp(k, "--h")) { bad_value = ns_cli_double(v, &x) || !(x > 0); a->h = x; }
        else if (!strcmp(k, "--T")) { bad_value = ns_cli_double(v, &x) || !(x > 0); a->T = x; }
        else if (!strcmp(k, "--e")) { bad_value = ns_cli_double(v, &x) || x < 0; a->e = x; }
        else if (!strcmp(k, "--rpm")) { bad_value = ns_cli_double(v, &x) || !(x > 0); a->rpm = x; }
        else if (!strcmp(k, "--tol")) { bad_value = ns_cli_double(v, &x) || !(x > 0); a->tol = x; }
        else if (!strcmp(k, "--theta")) { bad_value = ns_cli_double(v, &x) || !(x > 0 && x <= 1); a->theta = x; }
        else goto bad;
        if (bad_value) {
            fprintf(stderr, "%s: invalid value '%s' for %s (see --help)\n", argv[0], v, k);
            return -1;
        }
        i += takes;
        continue;
bad:
        fprintf(stderr, "%s: unknown or incomplete option %s (see --help)\n", argv[0], k);
        return -1;
    }
    if (a->out && nsx_mkdir(a->out) != 0) { fprintf(stderr, "cannot create %s\n", a->out); return -1; }
    if (a->dump && nsx_mkdir(a->dump) != 0) { fprintf(stderr, "cannot create %s\n", a->dump); return -1; }
    return 0;
}

int nsx_mkdir(const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST) return 0;
    return -1;
}

char *nsx_path(char *buf, size_t len, const char *dir, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
    return buf;
}

void nsx_apply(const nsx_args *a, nsm_sim_options *o)
{
    if (a->dump) { o->dump_dir = a->dump; o->dump_max = a->dump_max; o->dump_every = a->dump_every; }
    if (a->solver) o->solver = a->solver;
    if (a->tol > 0) o->solver_options.tol = a->tol;
    if (a->theta > 0) o->theta = a->theta;
    if (a->siconos_law) { o->separating_restitution = 0; o->theta_output = 0; }
}

int nsx_push(nsx_series *s, double v)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        double *p = realloc(s->v, cap * sizeof *p);
        if (!p) return -1;
        s->v = p; s->cap = cap;
    }
    s->v[s->n++] = v;
    return 0;
}

void nsx_series_free(nsx_series *s) { free(s->v); s->v = NULL; s->n = s->cap = 0; }

int nsx_take_scheme(int *argc, char **argv)
{
    int ed = 0, k = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], "--scheme") && i + 1 < *argc) {
            ed = strcmp(argv[i + 1], "ed") == 0 ? 1 : strcmp(argv[i + 1], "ts") == 0 ? 0 : -1;
            i++;
            continue;
        }
        argv[k++] = argv[i];
    }
    *argc = k;
    argv[k] = NULL;
    return ed;
}

int nsx_take_double(int *argc, char **argv, const char *name, double *val)
{
    int found = 0, k = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], name) && i + 1 < *argc) {
            double v;
            if (ns_cli_double(argv[i + 1], &v) != 0) {
                /* left in argv: nsx_parse then refuses the option (exit 2) */
                fprintf(stderr, "%s: invalid value '%s' for %s (a finite number)\n", argv[0],
                        argv[i + 1], name);
                argv[k++] = argv[i];
                continue;
            }
            *val = v;
            found = 1;
            i++;
            continue;
        }
        argv[k++] = argv[i];
    }
    *argc = k;
    argv[k] = NULL;
    return found;
}

nsm_sim *nsx_sim_new(nsm_model *model, const nsx_args *a, double h, const char *prog)
{
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    o.theta = 0.5;
    /* first-order examples (diode_bridge): the laws on y_{k+θ}, so that the
     * passive circuit never gains energy (--siconos-law: on y_{k+1}) */
    o.theta_output = 1;
    nsx_apply(a, &o);
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *sim = nsm_sim_new(model, &o, err);
    if (!sim) fprintf(stderr, "%s: %s\n", prog, err);
    return sim;
}
