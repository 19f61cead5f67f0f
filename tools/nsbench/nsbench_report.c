/* nsbench_report.c — the summary per kind: for each solver the number and
 * fraction solved, the geometric-mean time over the problems every listed
 * solver solved, the performance profile at a few τ, and the statuses of
 * the runs that did not converge; as text or as JSON. */
#include "nsbench.h"
#include <math.h>
#include <string.h>

static const double taus[] = { 1, 2, 4, 10, 100, 1000 };
#define NTAUS (sizeof taus / sizeof taus[0])

/* Status counts of one solver in one kind, "12 converged, 3 max_iter". */
static void status_counts(const nb_table *t, const char *kind, const char *solver,
                          char *buf, size_t len)
{
    char seen[16][NB_STATUS_LEN];
    size_t count[16], ns = 0;
    for (size_t i = 0; i < t->n; i++) {
        const nb_row *r = &t->rows[i];
        if (strcmp(r->kind, kind) || strcmp(r->solver, solver)) continue;
        size_t k = 0;
        while (k < ns && strcmp(seen[k], r->status)) k++;
        if (k == ns) {
            if (ns == 16) continue;
            snprintf(seen[ns], NB_STATUS_LEN, "%s", r->status);
            count[ns++] = 0;
        }
        count[k]++;
    }
    buf[0] = '\0';
    size_t used = 0;
    for (size_t k = 0; k < ns && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s%zu %s", k ? ", " : "", count[k],
                                 seen[k]);
}

void nb_report_profile_table(FILE *f, const nb_profile *p)
{
    size_t w = 8;
    for (size_t s = 0; s < p->ns; s++)
        if (strlen(p->series[s]) > w) w = strlen(p->series[s]);
    fprintf(f, "  %-*s %15s %12s  ", (int)w, "solver", "solved", "geomean");
    for (size_t k = 0; k < NTAUS; k++) {
        char h[16];
        int cols = snprintf(h, sizeof h, "ρ(%g)", taus[k]) - 1;  /* ρ: 2 bytes, 1 column */
        fprintf(f, "%*s%s", cols < 7 ? 7 - cols : 1, "", h);
    }
    fputc('\n', f);
    for (size_t s = 0; s < p->ns; s++) {
        char solved[32], gm[32];
        snprintf(solved, sizeof solved, "%zu/%zu %5.1f%%", p->solved[s], p->np,
                 p->np ? 100.0 * (double)p->solved[s] / (double)p->np : 0.0);
        if (isnan(p->geomean[s])) snprintf(gm, sizeof gm, "-");
        else snprintf(gm, sizeof gm, "%.3g s", p->geomean[s]);
        fprintf(f, "  %-*s %15s %12s  ", (int)w, p->series[s], solved, gm);
        for (size_t k = 0; k < NTAUS; k++) fprintf(f, "%7.2f", nb_profile_rho(p, s, taus[k]));
        fputc('\n', f);
    }
    if (p->ns > 1)
        fprintf(f, "  geomean over the %zu problem%s every solver solved; ρ(τ): fraction solved "
                "within τ × the best time\n", p->n_common, p->n_common == 1 ? "" : "s");
    else
        fprintf(f, "  geomean over the %zu problem%s solved; ρ(τ): fraction solved within "
                "τ × the best time\n", p->n_common, p->n_common == 1 ? "" : "s");
}

/* Rows of a status that no solver made (file-level: bad_input, no_solver). */
static size_t count_status(const nb_table *t, const char *status)
{
    size_t k = 0;
    for (size_t i = 0; i < t->n; i++)
        k += !strcmp(t->rows[i].status, status) && !t->rows[i].solver[0];
    return k;
}

void nb_report_text(FILE *f, nb_profile *const *prof, size_t n, const nb_table *t)
{
    for (size_t k = 0; k < n; k++) {
        const nb_profile *p = prof[k];
        fprintf(f, "\n%s: %zu problem%s, %zu solver%s\n", p->title, p->np,
                p->np == 1 ? "" : "s", p->ns, p->ns == 1 ? "" : "s");
        nb_report_profile_table(f, p);
        for (size_t s = 0; s < p->ns; s++) {
            if (p->solved[s] == p->np) continue;
            char buf[512];
            status_counts(t, p->title, p->series[s], buf, sizeof buf);
            fprintf(f, "  %s: %s\n", p->series[s], buf);
        }
    }
    size_t bad = count_status(t, "bad_input"), nosolver = count_status(t, "no_solver");
    if (nosolver) {
        fprintf(f, "\nno solver for %zu file%s:", nosolver, nosolver == 1 ? "" : "s");
        char kinds[NS_KIND_COUNT][16];
        size_t nk = 0, cnt[NS_KIND_COUNT] = { 0 };
        for (size_t i = 0; i < t->n; i++) {
            const nb_row *r = &t->rows[i];
            if (strcmp(r->status, "no_solver")) continue;
            size_t j = 0;
            while (j < nk && strcmp(kinds[j], r->kind)) j++;
            if (j == nk && nk < NS_KIND_COUNT) snprintf(kinds[nk++], 16, "%s", r->kind);
            if (j < nk) cnt[j]++;
        }
        for (size_t j = 0; j < nk; j++) fprintf(f, "%s %zu %s", j ? "," : "", cnt[j], kinds[j]);
        fprintf(f, "\n");
    }
    if (bad) {
        fprintf(f, "\n%zu file%s rejected (status bad_input):\n", bad, bad == 1 ? "" : "s");
        size_t shown = 0;
        for (size_t i = 0; i < t->n && shown < 5; i++)
            if (!strcmp(t->rows[i].status, "bad_input") && !t->rows[i].solver[0]) {
                fprintf(f, "  %s\n", t->rows[i].message[0] ? t->rows[i].message : t->rows[i].file);
                shown++;
            }
        if (bad > shown) fprintf(f, "  ... (see the CSV)\n");
    }
}

void nb_report_json(FILE *f, nb_profile *const *prof, size_t n, const nb_table *t,
                    const nb_counts *counts)
{
    fprintf(f, "{");
    if (counts)
        fprintf(f, "\"counts\": {\"finished\": %zu, \"converged\": %zu, \"failed\": %zu, "
                "\"interrupted\": %zu, \"kept\": %zu},\n", counts->finished, counts->converged,
                counts->finished - counts->converged, counts->interrupted, counts->kept);
    fprintf(f, "\"summary\": [");
    for (size_t k = 0; k < n; k++) {
        const nb_profile *p = prof[k];
        fprintf(f, "%s\n  {\"kind\": ", k ? "," : "");
        nb_json_string(f, p->title);
        fprintf(f, ", \"problems\": %zu, \"common_solved\": %zu, \"solvers\": [", p->np,
                p->n_common);
        for (size_t s = 0; s < p->ns; s++) {
            fprintf(f, "%s\n    {\"solver\": ", s ? "," : "");
            nb_json_string(f, p->series[s]);
            fprintf(f, ", \"solved\": %zu, \"fraction\": ", p->solved[s]);
            nb_json_number(f, p->np ? (double)p->solved[s] / (double)p->np : 0.0);
            fprintf(f, ", \"geomean_seconds\": ");
            nb_json_number(f, p->geomean[s]);
            fprintf(f, ", \"profile\": {");
            for (size_t j = 0; j < NTAUS; j++) {
                fprintf(f, "%s\"%g\": ", j ? ", " : "", taus[j]);
                nb_json_number(f, nb_profile_rho(p, s, taus[j]));
            }
            fprintf(f, "}}");
        }
        fprintf(f, "]}");
    }
    fprintf(f, "],\n\"runs\": [");
    for (size_t i = 0; i < t->n; i++) {
        const nb_row *r = &t->rows[i];
        fprintf(f, "%s\n  {\"file\": ", i ? "," : "");
        nb_json_string(f, r->file ? r->file : "");
        fprintf(f, ", \"kind\": ");
        nb_json_string(f, r->kind);
        fprintf(f, ", \"size\": ");
        if (r->size >= 0) fprintf(f, "%ld", r->size); else fputs("null", f);
        fprintf(f, ", \"solver\": ");
        nb_json_string(f, r->solver);
        fprintf(f, ", \"status\": ");
        nb_json_string(f, r->status);
        fprintf(f, ", \"iterations\": ");
        if (r->iterations >= 0) fprintf(f, "%ld", r->iterations); else fputs("null", f);
        fprintf(f, ", \"error\": ");
        nb_json_number(f, r->error);
        fprintf(f, ", \"seconds\": ");
        nb_json_number(f, r->seconds);
        fprintf(f, ", \"peak_kb\": ");
        if (r->peak_kb >= 0) fprintf(f, "%ld", r->peak_kb); else fputs("null", f);
        fprintf(f, ", \"message\": ");
        nb_json_string(f, r->message);
        fputc('}', f);
    }
    fprintf(f, "]}\n");
}
