/* nsbench_profile.c — Dolan–Moré performance profiles.
 *
 * For problems p and solvers (series) s with time t(p,s) (∞ when s did not
 * converge on p), the ratio is r(p,s) = t(p,s) / min_s' t(p,s'), and the
 * profile ρ_s(τ) = |{p : r(p,s) ≤ τ}| / |P|. ρ_s(1) is the fraction of
 * problems where s was fastest; ρ_s(τ→∞) the fraction it solved. Times
 * below NB_TIME_FLOOR are raised to it, so that timer noise does not make
 * ratios out of nothing (fast runs are timed as means over many solves, so
 * the floor sits at 10 ns).
 */
#define _POSIX_C_SOURCE 200809L
#include "nsbench.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NB_TIME_FLOOR 1e-8

nb_profile *nb_profile_new(const char *title)
{
    nb_profile *p = calloc(1, sizeof *p);
    if (p) snprintf(p->title, sizeof p->title, "%s", title);
    return p;
}

static long find(char **names, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], s)) return (long)i;
    return -1;
}

int nb_profile_set(nb_profile *p, const char *problem, const char *series, double t)
{
    long s = find(p->series, p->ns, series);
    if (s < 0) {
        char **names = realloc(p->series, (p->ns + 1) * sizeof *names);
        if (!names) return -1;
        p->series = names;
        double *nt = malloc((p->np * (p->ns + 1) + 1) * sizeof *nt);
        if (!nt || !(names[p->ns] = strdup(series))) { free(nt); return -1; }
        for (size_t i = 0; i < p->np; i++) {
            for (size_t j = 0; j < p->ns; j++) nt[i * (p->ns + 1) + j] = p->t[i * p->ns + j];
            nt[i * (p->ns + 1) + p->ns] = INFINITY;
        }
        free(p->t);
        p->t = nt;
        s = (long)p->ns++;
    }
    long q = find(p->problem, p->np, problem);
    if (q < 0) {
        char **names = realloc(p->problem, (p->np + 1) * sizeof *names);
        if (!names) return -1;
        p->problem = names;
        double *nt = realloc(p->t, ((p->np + 1) * p->ns + 1) * sizeof *nt);
        if (!nt || !(names[p->np] = strdup(problem))) { if (nt) p->t = nt; return -1; }
        p->t = nt;
        for (size_t j = 0; j < p->ns; j++) nt[p->np * p->ns + j] = INFINITY;
        q = (long)p->np++;
    }
    if (isfinite(t) && t < NB_TIME_FLOOR) t = NB_TIME_FLOOR;
    p->t[(size_t)q * p->ns + (size_t)s] = isfinite(t) && t >= 0 ? t : INFINITY;
    return 0;
}

void nb_profile_finish(nb_profile *p)
{
    free(p->solved);
    free(p->geomean);
    p->solved = calloc(p->ns ? p->ns : 1, sizeof *p->solved);
    p->geomean = calloc(p->ns ? p->ns : 1, sizeof *p->geomean);
    if (!p->solved || !p->geomean) return;
    double *logsum = calloc(p->ns ? p->ns : 1, sizeof *logsum);
    p->n_common = 0;
    for (size_t i = 0; i < p->np; i++) {
        int all = p->ns > 0;
        for (size_t j = 0; j < p->ns; j++) {
            if (isfinite(p->t[i * p->ns + j])) p->solved[j]++;
            else all = 0;
        }
        if (!all) continue;
        p->n_common++;
        for (size_t j = 0; logsum && j < p->ns; j++) logsum[j] += log(p->t[i * p->ns + j]);
    }
    for (size_t j = 0; j < p->ns; j++)
        p->geomean[j] = p->n_common && logsum ? exp(logsum[j] / (double)p->n_common) : NAN;
    free(logsum);
}

static double best_time(const nb_profile *p, size_t i)
{
    double b = INFINITY;
    for (size_t j = 0; j < p->ns; j++)
        if (p->t[i * p->ns + j] < b) b = p->t[i * p->ns + j];
    return b;
}

double nb_profile_rho(const nb_profile *p, size_t s, double tau)
{
    if (!p->np) return 0.0;
    size_t k = 0;
    for (size_t i = 0; i < p->np; i++) {
        double t = p->t[i * p->ns + s];
        if (isfinite(t) && t <= tau * best_time(p, i) * (1 + 1e-12)) k++;
    }
    return (double)k / (double)p->np;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

size_t nb_profile_ratios(const nb_profile *p, size_t s, double **out)
{
    *out = malloc((p->np ? p->np : 1) * sizeof **out);
    if (!*out) return 0;
    size_t k = 0;
    for (size_t i = 0; i < p->np; i++) {
        double t = p->t[i * p->ns + s];
        if (isfinite(t)) (*out)[k++] = t / best_time(p, i);
    }
    qsort(*out, k, sizeof **out, cmp_double);
    return k;
}

void nb_profile_free(nb_profile *p)
{
    if (!p) return;
    for (size_t j = 0; j < p->ns; j++) free(p->series[j]);
    for (size_t i = 0; i < p->np; i++) free(p->problem[i]);
    free(p->series);
    free(p->problem);
    free(p->t);
    free(p->solved);
    free(p->geomean);
    free(p);
}

/* A row takes part in the profile of its kind when a solver ran on a
 * readable problem; bad_input / no_solver rows are reported apart. */
static int is_run(const nb_row *r)
{
    return r->solver[0] && strcmp(r->status, "bad_input") != 0 &&
           strcmp(r->status, "no_solver") != 0;
}

size_t nb_profiles_from_table(const nb_table *t, nb_profile ***out)
{
    nb_profile **prof = NULL;
    size_t n = 0;
    *out = NULL;
    for (size_t i = 0; i < t->n; i++) {
        const nb_row *r = &t->rows[i];
        if (!is_run(r)) continue;
        size_t k = 0;
        while (k < n && strcmp(prof[k]->title, r->kind)) k++;
        if (k == n) {
            nb_profile **np = realloc(prof, (n + 1) * sizeof *np);
            if (!np) break;
            prof = np;
            if (!(prof[n] = nb_profile_new(r->kind))) break;
            n++;
        }
        int ok = !strcmp(r->status, "converged");
        nb_profile_set(prof[k], r->file, r->solver, ok ? r->seconds : INFINITY);
    }
    for (size_t k = 0; k < n; k++) nb_profile_finish(prof[k]);
    /* kinds in the library's order (lcp, mlcp, relay, ..., fc3d, gfc, gmp) */
    for (size_t a = 1; a < n; a++)
        for (size_t b = a; b > 0 && ns_kind_from_name(prof[b - 1]->title) >
                                        ns_kind_from_name(prof[b]->title); b--) {
            nb_profile *tmp = prof[b - 1];
            prof[b - 1] = prof[b];
            prof[b] = tmp;
        }
    *out = prof;
    return n;
}
