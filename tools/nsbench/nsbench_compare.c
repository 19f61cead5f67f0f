/* nsbench_compare.c — --compare A.csv B.csv: joins two result files (two
 * versions of a solver, or ours against a reference run written in the
 * same columns) and prints, per kind and solver pair, each problem's time
 * ratio B/A, the geometric mean of the ratios over the problems both
 * solved, and the performance profile of both.
 *
 * Problems are matched on the last two components of the file path
 * (lcp/lcp_CPS_1.dat), so runs from different working directories join.
 * Solvers are paired by name when the files share names in a kind;
 * otherwise, in the order they first appear (one solver each: that pair).
 */
#define _POSIX_C_SOURCE 200809L
#include "nsbench.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *key_of(const char *path)
{
    const char *end = path + strlen(path), *p = end;
    int slashes = 0;
    while (p > path) {
        if (p[-1] == '/' && ++slashes == 2) break;
        p--;
    }
    return p;
}

/* Label of a result file: its base name without .csv. */
static void label_of(const char *path, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(buf, len, "%s", b);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf) *dot = '\0';
}

static const nb_row *find_row(const nb_table *t, const char *key, const char *solver)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->rows[i].solver, solver) && !strcmp(key_of(t->rows[i].file), key))
            return &t->rows[i];
    return NULL;
}

static int has_name(const char **v, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i], s)) return 1;
    return 0;
}

/* Distinct solvers of kind in t, in order of appearance. */
static size_t solvers_of(const nb_table *t, const char *kind, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n && n < max; i++) {
        const nb_row *r = &t->rows[i];
        if (!r->solver[0] || strcmp(r->kind, kind) || has_name(out, n, r->solver)) continue;
        out[n++] = r->solver;
    }
    return n;
}

static int converged(const nb_row *r)
{
    return r && !strcmp(r->status, "converged") && isfinite(r->seconds);
}

static void fmt_time(char *buf, size_t len, const nb_row *r)
{
    if (r && isfinite(r->seconds)) snprintf(buf, len, "%.3g", r->seconds);
    else snprintf(buf, len, "-");
}

#define MAXS 64

int nb_compare(const char *a, const char *b, const char *svg, int json)
{
    nb_table A = { 0 }, B = { 0 };
    char err[NS_ERRMSG_LEN];
    if (nb_csv_read(a, &A, err) || nb_csv_read(b, &B, err)) {
        fprintf(stderr, "nsbench: %s\n", err);
        nb_table_free(&A);
        nb_table_free(&B);
        return 2;
    }
    if (A.malformed || B.malformed)
        fprintf(stderr, "nsbench --compare: malformed rows left out: %zu in %s, %zu in %s\n",
                A.malformed, a, B.malformed, b);
    char la[64], lb[64];
    label_of(a, la, sizeof la);
    label_of(b, lb, sizeof lb);
    if (!strcmp(la, lb)) {
        snprintf(la, sizeof la, "A");
        snprintf(lb, sizeof lb, "B");
    }
    /* kinds in order of appearance in A, then B */
    const char *kinds[NS_KIND_COUNT + 8];
    size_t nk = 0;
    for (int pass = 0; pass < 2; pass++) {
        const nb_table *t = pass ? &B : &A;
        for (size_t i = 0; i < t->n && nk < sizeof kinds / sizeof *kinds; i++)
            if (t->rows[i].solver[0] && !has_name(kinds, nk, t->rows[i].kind))
                kinds[nk++] = t->rows[i].kind;
    }
    FILE *o = stdout;
    if (json) fprintf(o, "{\"a\": "), nb_json_string(o, a), fprintf(o, ", \"b\": "),
              nb_json_string(o, b), fprintf(o, ", \"pairs\": [");
    else
        fprintf(o, "compare: A = %s (%s, %zu rows), B = %s (%s, %zu rows)\n"
                "ratio = time of B / time of A (> 1: A faster), over problems both converged on\n",
                la, a, A.n, lb, b, B.n);
    nb_profile **prof = NULL;
    size_t nprof = 0, npairs_json = 0;
    for (size_t k = 0; k < nk; k++) {
        const char *sa[MAXS], *sb[MAXS];
        size_t na = solvers_of(&A, kinds[k], sa, MAXS), nb = solvers_of(&B, kinds[k], sb, MAXS);
        const char *pa[MAXS], *pb[MAXS];
        size_t np = 0;
        for (size_t i = 0; i < na; i++)
            if (has_name(sb, nb, sa[i])) { pa[np] = sa[i]; pb[np++] = sa[i]; }
        if (!np)
            for (size_t i = 0; i < na && i < nb; i++) { pa[np] = sa[i]; pb[np++] = sb[i]; }
        if (!np) {
            if (!json)
                fprintf(o, "\n%s: only in %s\n", kinds[k], na ? la : lb);
            continue;
        }
        nb_profile *pr = nb_profile_new(kinds[k]);
        nb_profile **pp = realloc(prof, (nprof + 1) * sizeof *pp);
        if (!pr || !pp) { nb_profile_free(pr); free(pp ? pp : prof); prof = NULL; nprof = 0; break; }
        prof = pp;
        prof[nprof++] = pr;
        for (size_t q = 0; q < np; q++) {
            char sera[NB_NAME_LEN + 80], serb[NB_NAME_LEN + 80];
            snprintf(sera, sizeof sera, "%s:%s", la, pa[q]);
            snprintf(serb, sizeof serb, "%s:%s", lb, pb[q]);
            if (!json)
                fprintf(o, "\n%s: %s (%s) vs %s (%s)\n  %-44s %-11s %-11s %10s %10s %8s\n",
                        kinds[k], pa[q], la, pb[q], lb, "problem", "status A", "status B",
                        "time A", "time B", "ratio");
            double logsum = 0;
            size_t both = 0, only_a = 0, only_b = 0, neither = 0, faster_b = 0;
            for (size_t i = 0; i < A.n; i++) {
                const nb_row *ra = &A.rows[i];
                if (strcmp(ra->solver, pa[q]) || strcmp(ra->kind, kinds[k])) continue;
                const char *key = key_of(ra->file);
                const nb_row *rb = find_row(&B, key, pb[q]);
                if (!rb) continue;
                int ca = converged(ra), cb = converged(rb);
                nb_profile_set(pr, key, sera, ca ? ra->seconds : INFINITY);
                nb_profile_set(pr, key, serb, cb ? rb->seconds : INFINITY);
                char ta[32], tb[32], ratio[32] = "-";
                fmt_time(ta, sizeof ta, ra);
                fmt_time(tb, sizeof tb, rb);
                if (ca && cb) {
                    double ra_t = fmax(ra->seconds, 1e-6), rb_t = fmax(rb->seconds, 1e-6);
                    logsum += log(rb_t / ra_t);
                    both++;
                    faster_b += rb_t < ra_t;
                    snprintf(ratio, sizeof ratio, "%.3g", rb_t / ra_t);
                } else if (ca) only_a++;
                else if (cb) only_b++;
                else neither++;
                if (!json)
                    fprintf(o, "  %-44s %-11s %-11s %10s %10s %8s\n", key, ra->status,
                            rb->status, ta, tb, ratio);
            }
            double gm = both ? exp(logsum / (double)both) : NAN;
            if (json) {
                fprintf(o, "%s\n  {\"kind\": ", npairs_json++ ? "," : "");
                nb_json_string(o, kinds[k]);
                fprintf(o, ", \"solver_a\": ");
                nb_json_string(o, pa[q]);
                fprintf(o, ", \"solver_b\": ");
                nb_json_string(o, pb[q]);
                fprintf(o, ", \"both_converged\": %zu, \"only_a\": %zu, \"only_b\": %zu, "
                        "\"neither\": %zu, \"geomean_ratio\": ", both, only_a, only_b, neither);
                nb_json_number(o, gm);
                fprintf(o, "}");
            } else {
                if (both)
                    fprintf(o, "  geometric mean of the ratios over %zu problems: %.3g "
                            "(%s faster on %zu, %s on %zu)\n", both, gm, lb, faster_b, la,
                            both - faster_b);
                else
                    fprintf(o, "  no problem converged in both\n");
                fprintf(o, "  converged only in %s: %zu, only in %s: %zu, in neither: %zu\n", la,
                        only_a, lb, only_b, neither);
            }
        }
        nb_profile_finish(pr);
        if (!json) {
            fprintf(o, "\n%s profile (%zu problems in both files):\n", kinds[k], pr->np);
            nb_report_profile_table(o, pr);
        }
    }
    if (json) fprintf(o, "]}\n");
    int rc = 0;
    if (svg) {
        char caption[300];
        snprintf(caption, sizeof caption, "nsbench --compare: %s vs %s", la, lb);
        if (nb_svg_write(svg, prof, nprof, caption, err)) {
            fprintf(stderr, "nsbench: %s\n", err);
            rc = 1;
        } else if (!json) fprintf(o, "\nprofiles: %s\n", svg);
    }
    for (size_t k = 0; k < nprof; k++) nb_profile_free(prof[k]);
    free(prof);
    nb_table_free(&A);
    nb_table_free(&B);
    return rc;
}
