/* tutorials.c — the Siconos tutorial suite on the public mechanics API:
 * `tutorials --list`, `tutorials NAME [--out FILE] [--svg DIR]
 * [options]`. The models live in one file each (tutorials.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tutorials.h"
#include "cli_numbers.h"
#include "example_util.h"
#include "svgplot.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tutorials --list\n"
            "       tutorials NAME [options]\n"
            "Runs one of the Siconos tutorial models (../shared/siconos-tutorials,\n"
            "NAME = the reference file's name without .ref) and prints a summary.\n"
            "  --list          the model names, one per line (with --verbose: and what they are)\n"
            "  --out FILE      the trajectory in the layout of NAME.ref: first line 'rows cols',\n"
            "                  then one row per line (%%.17g), the ref's columns in its order\n"
            "  --svg DIR       DIR/NAME.svg: positions, velocities and multipliers over time\n"
            "  --steps N       stop after N steps (event-driven: N events); default: the ref's\n"
            "  --h H           time step (event-driven: output step); default: the ref's\n"
            "  --e E           restitution coefficient of the model's impact law\n"
            "  --theta THETA   theta of the scheme, in (0, 1]\n"
            "  --nodes N       ImpactingBar: number of nodes of the bar (default 100)\n"
            "  --solver NAME   numerics solver of the one-step problem (nsolve --list-solvers)\n"
            "  --tol TOL       its tolerance\n"
            "  --dump DIR      time-stepping: write every one-step problem to DIR as a file\n"
            "                  nsolve reads (DIR/step_KKKKKKKK.dat, K the step; DIR is created)\n"
            "  --quiet         no summary line\n"
            "  -h, --help      this text\n"
            "Exit status: 0 done, 1 the simulation failed, 2 bad usage.\n");
}

static int write_table(const char *path, const tut_table *t)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "%zu %d\n", t->rows, t->cols);
    for (size_t i = 0; i < t->rows; i++) {
        const double *r = t->v + i * (size_t)t->cols;
        for (int j = 0; j < t->cols; j++) fprintf(f, j ? " %.17g" : "%.17g", r[j]);
        fputc('\n', f);
    }
    return fclose(f) == 0 ? 0 : -1;
}

static int write_svg(const char *dir, const tut_model *m, const tut_table *t)
{
    if (nsx_mkdir(dir) != 0) return -1;
    double *x = malloc((t->rows ? t->rows : 1) * sizeof *x);
    double *y = malloc((t->rows ? t->rows : 1) * sizeof *y);
    int panels = 0;
    for (int k = 0; k < 3; k++) panels += m->lines[k][0].label != NULL;
    svgplot *p = svgplot_new(panels, m->what);
    int rc = (!x || !y || !p) ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < t->rows; i++) x[i] = t->v[i * (size_t)t->cols];
    for (int k = 0, pk = 0; rc == 0 && k < 3; k++) {
        if (!m->lines[k][0].label) continue;
        svgplot_labels(p, pk, m->xlabel ? m->xlabel : "t [s]", m->ylabel[k]);
        for (int l = 0; l < TUT_MAX_LINES && m->lines[k][l].label; l++) {
            int c = m->lines[k][l].col;
            for (size_t i = 0; i < t->rows; i++) y[i] = t->v[i * (size_t)t->cols + c];
            if (svgplot_series(p, pk, m->lines[k][l].label, t->rows, x, y, 0) != 0) rc = -1;
        }
        pk++;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.svg", dir, m->name);
    if (rc == 0 && svgplot_write(p, path) != 0) rc = -1;
    svgplot_free(p);
    free(x);
    free(y);
    return rc;
}

int main(int argc, char **argv)
{
    nsx_process_policy();
    tut_params p;
    tut_params_default(&p);
    const char *name = NULL, *out = NULL, *svg = NULL;
    int list = 0, quiet = 0, verbose = 0;
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0, n = 0;
        double x = 0;
        if (!strcmp(k, "-h") || !strcmp(k, "--help")) { usage(stdout); return 0; }
        if (!strcmp(k, "--list")) { list = 1; continue; }
        if (!strcmp(k, "--quiet")) { quiet = 1; continue; }
        if (!strcmp(k, "--verbose")) { verbose = 1; continue; }
        if (k[0] != '-') {
            if (name) { fprintf(stderr, "tutorials: one model at a time ('%s' and '%s')\n", name, k); return 2; }
            name = k;
            continue;
        }
        if (!v) { fprintf(stderr, "tutorials: unknown or incomplete option %s (see --help)\n", k); return 2; }
        if (!strcmp(k, "--out")) out = v;
        else if (!strcmp(k, "--svg")) svg = v;
        else if (!strcmp(k, "--solver")) p.solver = v;
        else if (!strcmp(k, "--dump")) p.dump = v;
        else if (!strcmp(k, "--steps")) { bad = ns_cli_int(v, &n, 1); p.steps = n; }
        else if (!strcmp(k, "--nodes")) { bad = ns_cli_int(v, &n, 2); p.nodes = n; }
        else if (!strcmp(k, "--h")) { bad = ns_cli_double(v, &x) || !(x > 0); p.h = x; }
        else if (!strcmp(k, "--e")) { bad = ns_cli_double(v, &x) || !(x >= 0 && x <= 1); p.e = x; }
        else if (!strcmp(k, "--theta")) { bad = ns_cli_double(v, &x) || !(x > 0 && x <= 1); p.theta = x; }
        else if (!strcmp(k, "--tol")) { bad = ns_cli_double(v, &x) || !(x > 0); p.tol = x; }
        else { fprintf(stderr, "tutorials: unknown option %s (see --help)\n", k); return 2; }
        if (bad) { fprintf(stderr, "tutorials: invalid value '%s' for %s (see --help)\n", v, k); return 2; }
        i++;
    }
    if (p.dump && nsx_mkdir(p.dump) != 0) {
        fprintf(stderr, "tutorials: --dump: cannot create %s\n", p.dump);
        return 2;
    }
    if (list) {
        int n;
        const tut_model *const *m = tut_models(&n);
        for (int i = 0; i < n; i++) {
            if (verbose) printf("%-50s %s\n", m[i]->name, m[i]->what);
            else printf("%s\n", m[i]->name);
        }
        return 0;
    }
    if (!name) { fprintf(stderr, "tutorials: no model named (tutorials --list gives them; see --help)\n"); return 2; }
    const tut_model *m = tut_find(name);
    if (!m) { fprintf(stderr, "tutorials: unknown model '%s' (tutorials --list gives the names)\n", name); return 2; }

    tut_table t = { m->cols, 0, 0, NULL };
    char err[256] = "";
    struct timespec t0, t1;
    timespec_get(&t0, TIME_UTC);
    int rc = m->run(&p, &t, err);
    timespec_get(&t1, TIME_UTC);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (rc != 0) fprintf(stderr, "tutorials: %s: %s\n", name, err);
    if (!quiet && t.rows)
        printf("%s: %zu rows x %d columns in %.6f s; last row t = %.9g\n", name, t.rows, t.cols, secs,
               t.v[(t.rows - 1) * (size_t)t.cols]);
    if (out && write_table(out, &t) != 0) { fprintf(stderr, "tutorials: cannot write %s\n", out); rc = -1; }
    if (svg && write_svg(svg, m, &t) != 0) { fprintf(stderr, "tutorials: cannot write the plot in %s\n", svg); rc = -1; }
    tut_table_free(&t);
    return rc == 0 ? 0 : 1;
}
