/* nsbench_merge.c — `nsbench merge`: the CSVs of a campaign's shards (or of
 * any runs) joined into one CSV, summary and profiles.
 *
 * Order: files as a directory walk visits them (paths compared component by
 * component, each directory's entries sorted), so shards of one PATH merge
 * into the order a single run writes; the rows of one file keep their order
 * (the --solvers order). A (file, solver) pair found twice keeps the row that
 * finished (not "interrupted"), else the first; the count is reported. */
#define _POSIX_C_SOURCE 200809L
#include "nsbench.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Walk order: the first differing path component decides, by strcmp
 * (a component that is a prefix of the other comes first). */
static int path_cmp(const char *a, const char *b)
{
    for (;;) {
        size_t la = strcspn(a, "/"), lb = strcspn(b, "/");
        size_t l = la < lb ? la : lb;
        int c = strncmp(a, b, l);
        if (c) return c;
        if (la != lb) return la < lb ? -1 : 1;
        if (!a[la] || !b[lb]) return a[la] ? 1 : b[lb] ? -1 : 0;
        a += la + 1;
        b += lb + 1;
    }
}

typedef struct group {
    const char *file;
    size_t first;            /* order of first appearance (tie-break) */
} group;

static int group_cmp(const void *x, const void *y)
{
    const group *a = x, *b = y;
    int c = path_cmp(a->file, b->file);
    if (c) return c;
    return a->first < b->first ? -1 : a->first > b->first;
}

static int row_for_file_cmp(const void *x, const void *y)
{
    /* rows sorted by (rank of their file's group, position) */
    const size_t *a = x, *b = y;
    return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : (a[1] < b[1] ? -1 : a[1] > b[1]);
}

int nb_merge(char **csv, size_t n, const char *out, const char *svg, int json)
{
    char err[NS_ERRMSG_LEN];
    nb_table all = { 0 }, merged = { 0 };
    for (size_t i = 0; i < n; i++)
        if (nb_csv_read(csv[i], &all, err)) {
            fprintf(stderr, "nsbench merge: %s\n", err);
            nb_table_free(&all);
            return 2;
        }
    if (all.malformed)
        fprintf(stderr, "nsbench merge: %zu malformed row%s left out (wrong number of fields or "
                "unknown status)\n", all.malformed, all.malformed > 1 ? "s" : "");
    /* rows grouped by file: a stable sort of the row indices by file name */
    size_t *idx = malloc((all.n + 1) * sizeof *idx);
    group *g = malloc((all.n + 1) * sizeof *g);
    size_t *key = malloc((all.n + 1) * 2 * sizeof *key);
    size_t *gid = malloc((all.n + 1) * sizeof *gid);
    char *drop = calloc(all.n + 1, 1);
    int rc = 0;
    if (!idx || !g || !key || !gid || !drop) {
        fprintf(stderr, "nsbench merge: out of memory\n");
        rc = 2;
        goto done;
    }
    size_t ng = 0, dup = 0;
    for (size_t i = 0; i < all.n; i++) idx[i] = i;
    {
        /* sort row indices by (file string, position) */
        const nb_table *t = &all;
        size_t m = all.n;
        /* bottom-up merge sort (stable) */
        size_t *tmp = malloc((m + 1) * sizeof *tmp);
        if (!tmp) { rc = 2; goto done; }
        for (size_t w = 1; w < m; w *= 2)
            for (size_t lo = 0; lo < m; lo += 2 * w) {
                size_t mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
                size_t p = lo, q = mid, o = lo;
                while (p < mid || q < hi) {
                    int take_p = q >= hi || (p < mid &&
                                 strcmp(t->rows[idx[p]].file, t->rows[idx[q]].file) <= 0);
                    tmp[o++] = take_p ? idx[p++] : idx[q++];
                }
                memcpy(idx + lo, tmp + lo, (hi - lo) * sizeof *idx);
            }
        free(tmp);
    }
    for (size_t j = 0; j < all.n; j++) {
        size_t i = idx[j];
        if (j == 0 || strcmp(all.rows[idx[j - 1]].file, all.rows[i].file)) {
            g[ng].file = all.rows[i].file;
            g[ng].first = i;  /* stable sort: the first row of the file */
            ng++;
        }
        gid[i] = ng - 1;
    }
    /* duplicate pairs within a file: keep the finished row, else the first */
    for (size_t j = 0; j < all.n; j++) {
        size_t i = idx[j];
        for (size_t jj = j + 1; jj < all.n && gid[idx[jj]] == gid[i]; jj++) {
            size_t k = idx[jj];
            if (drop[i] || drop[k] || strcmp(all.rows[i].solver, all.rows[k].solver)) continue;
            int ki = !strcmp(all.rows[i].status, "interrupted");
            int kk = !strcmp(all.rows[k].status, "interrupted");
            drop[ki && !kk ? i : k] = 1;
            dup++;
        }
    }
    group *order = malloc((ng + 1) * sizeof *order);
    size_t *rank = malloc((ng + 1) * sizeof *rank);
    if (!order || !rank) {
        free(order);
        free(rank);
        rc = 2;
        goto done;
    }
    for (size_t k = 0; k < ng; k++) {
        order[k] = g[k];
        order[k].first = k;  /* carry the group id through the sort */
    }
    qsort(order, ng, sizeof *order, group_cmp);
    for (size_t k = 0; k < ng; k++) rank[order[k].first] = k;
    size_t nk = 0;
    for (size_t i = 0; i < all.n; i++) {
        if (drop[i]) continue;
        key[2 * nk] = rank[gid[i]];
        key[2 * nk + 1] = i;
        nk++;
    }
    qsort(key, nk, 2 * sizeof *key, row_for_file_cmp);
    for (size_t k = 0; k < nk && !rc; k++) {
        const nb_row *r = &all.rows[key[2 * k + 1]];
        if (nb_table_put(&merged, r->file, r)) rc = 2;
    }
    free(order);
    free(rank);
    if (rc) {
        fprintf(stderr, "nsbench merge: out of memory\n");
        goto done;
    }

    int to_stdout = !out || !strcmp(out, "-");
    if (to_stdout) nb_csv_write_stream(stdout, &merged);
    else if (nb_csv_write_atomic(out, &merged, err)) {
        fprintf(stderr, "nsbench merge: %s\n", err);
        rc = 1;
    }
    nb_profile **prof = NULL;
    size_t nprof = nb_profiles_from_table(&merged, &prof);
    if (svg) {
        char caption[256];
        snprintf(caption, sizeof caption, "nsbench performance profiles — %zu result file%s "
                 "merged", n, n == 1 ? "" : "s");
        if (nb_svg_write(svg, prof, nprof, caption, err)) {
            fprintf(stderr, "nsbench merge: %s\n", err);
            rc = 1;
        }
    }
    FILE *rep = to_stdout ? stderr : stdout;
    nb_counts cnt = { 0, 0, 0, 0 };
    for (size_t i = 0; i < merged.n; i++) {
        const nb_row *r = &merged.rows[i];
        if (!strcmp(r->status, "interrupted")) cnt.interrupted++;
        else if (r->solver[0]) {
            cnt.finished++;
            cnt.converged += !strcmp(r->status, "converged");
        }
    }
    if (json) nb_report_json(rep, prof, nprof, &merged, &cnt);
    else {
        fprintf(rep, "nsbench merge: %zu rows from %zu file%s", merged.n, n, n == 1 ? "" : "s");
        if (dup) fprintf(rep, "; %zu duplicate (file, solver) row%s dropped", dup,
                         dup == 1 ? "" : "s");
        fprintf(rep, "\n");
        nb_report_text(rep, prof, nprof, &merged);
        fprintf(rep, "\nruns: %zu finished (%zu converged, %zu not), %zu interrupted\n",
                cnt.finished, cnt.converged, cnt.finished - cnt.converged, cnt.interrupted);
        if (!to_stdout && !rc) fprintf(rep, "results: %s\n", out);
    }
    for (size_t k = 0; k < nprof; k++) nb_profile_free(prof[k]);
    free(prof);
done:
    free(idx);
    free(g);
    free(key);
    free(gid);
    free(drop);
    nb_table_free(&merged);
    nb_table_free(&all);
    return rc;
}
