/* example_util.c — see example_util.h. */
#include "example_util.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int nsx_parse(int argc, char **argv, nsx_args *a, const char *usage)
{
    memset(a, 0, sizeof *a);
    a->save_every = 1;
    a->dump_max = 50;
    a->e = NAN;
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1;
        if (!strcmp(k, "--quiet")) { a->quiet = 1; takes = 0; }
        else if (!strcmp(k, "--siconos-law")) { a->siconos_law = 1; takes = 0; }
        else if (!v) goto bad;
        else if (!strcmp(k, "--out")) a->out = v;
        else if (!strcmp(k, "--dump")) a->dump = v;
        else if (!strcmp(k, "--dump-max")) a->dump_max = atol(v);
        else if (!strcmp(k, "--solver")) a->solver = v;
        else if (!strcmp(k, "--h")) a->h = atof(v);
        else if (!strcmp(k, "--T")) a->T = atof(v);
        else if (!strcmp(k, "--steps")) a->steps = atol(v);
        else if (!strcmp(k, "--save-every")) a->save_every = atol(v);
        else if (!strcmp(k, "--e")) a->e = atof(v);
        else if (!strcmp(k, "--rpm")) a->rpm = atof(v);
        else if (!strcmp(k, "--n")) a->n = atoi(v);
        else if (!strcmp(k, "--variant")) a->variant = v;
        else if (!strcmp(k, "--tol")) a->tol = atof(v);
        else if (!strcmp(k, "--theta")) a->theta = atof(v);
        else goto bad;
        i += takes;
        continue;
bad:
        fprintf(stderr, "unknown or incomplete option %s\nusage: %s %s\n"
                "common: --out DIR --dump DIR [--dump-max N] --solver NAME --h H --T T "
                "--steps N --save-every N --tol TOL --theta THETA --siconos-law --quiet\n", k, argv[0], usage);
        return -1;
    }
    if (a->save_every < 1) a->save_every = 1;
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
    if (a->dump) { o->dump_dir = a->dump; o->dump_max = a->dump_max; }
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
            *val = strtod(argv[i + 1], NULL);
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
