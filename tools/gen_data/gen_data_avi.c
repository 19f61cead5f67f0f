/* gen_data_avi.c — the AVI part of the project's collection (data/avi/),
 * written in the AVI layout with its set (docs/formats-extensions.md §1).
 * The cases are those of tests/numerics/test_avi.c, K = {z : H z ≤ h} a
 * polytope (the box [-1, 2]^n cut by random planes through points near its
 * centre, so it stays non-empty and bounded), plus box sets:
 *   lp          M = 0: the optimality condition of min qᵀz over K
 *   singular    M = u uᵀ + a skew part: singular M
 *   lineality   K = {z1 + z2 ≤ 1} (a lineality direction), M = diag(1, 0),
 *               q = (0, -1): solution z = (-1, 2) (by hand)
 *   pd          M = BᵀB + 0.1 I + (B - Bᵀ): positive definite, not symmetric
 *   box         M as pd, K a box (finite bounds: the relay Lemke behind a box
 *               AVI needs them; open sides are covered by test_io_dat)
 * Deterministic: gen_data's generator with fixed seeds 1001, 1002, ... (one
 * per case, whatever gen_data wrote before). */
#include "gen_data_avi.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows of the cut box in R^n: 2n box rows then ncut planes; returns nh.
 * H row-major (nh × n). */
static int polytope(int n, int ncut, double (*uniform)(void *, double, double), void *r,
                    double *H, double *h)
{
    int nh = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            H[nh * n + j] = i == j;
            H[(nh + 1) * n + j] = -(double)(i == j);
        }
        h[nh] = 2.0;
        h[nh + 1] = 1.0;
        nh += 2;
    }
    for (int c = 0; c < ncut; c++) {
        double off = 0.0;
        for (int j = 0; j < n; j++) {
            H[nh * n + j] = uniform(r, -1, 1);
            off += H[nh * n + j] * 0.5;
        }
        h[nh++] = off + uniform(r, 0.2, 1.0);
    }
    return nh;
}

static ns_matrix *dense_rowmajor(int rows, int cols, const double *A)
{
    ns_matrix *M = ns_matrix_dense_new(rows, cols);
    if (!M) return NULL;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) M->dense[i + (size_t)j * rows] = A[i * cols + j];
    return M;
}

/* M positive definite, not symmetric: BᵀB + 0.1 I + (B − Bᵀ). */
static void pd_matrix(int n, double (*uniform)(void *, double, double), void *r, double *M)
{
    double *B = malloc((size_t)n * n * sizeof *B);
    if (!B) { memset(M, 0, (size_t)n * n * sizeof *M); return; }
    for (int k = 0; k < n * n; k++) B[k] = uniform(r, -1, 1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = (i == j) * 0.1 + B[i * n + j] - B[j * n + i];
            for (int k = 0; k < n; k++) s += B[k * n + i] * B[k * n + j];
            M[i * n + j] = s;
        }
    free(B);
}

static const struct avi_case {
    const char *family;
    int n, ncut;
    const char *notes;
} cases[] = {
    { "lp", 3, 8, "M = 0 (the optimality condition of min q'z over K); K = [-1,2]^3 cut by 8 "
      "random planes (H z <= h); q uniform in [-1,1]" },
    { "singular", 3, 6, "M = u u' + skew part along e3 (singular); K = [-1,2]^3 cut by 6 random "
      "planes; q uniform in [-2,2]" },
    { "lineality", 2, 0, "K = {z1 + z2 <= 1} (lineality direction (1,-1)), M = diag(1, 0), "
      "q = (0, -1): solution z = (-1, 2) by hand" },
    { "pd", 3, 5, "M = B'B + 0.1 I + (B - B'), B uniform in [-1,1] (positive definite, not "
      "symmetric); K = [-1,2]^3 cut by 5 random planes; q uniform in [-3,3]" },
    { "pd", 8, 12, "M = B'B + 0.1 I + (B - B'), B uniform in [-1,1]; K = [-1,2]^8 cut by 12 "
      "random planes; q uniform in [-3,3]" },
    { "box", 20, 0, "M = B'B + 0.1 I + (B - B'), B uniform in [-1,1]; K a box with bounds in "
      "[-1,0] x [0.5,2] (finite: the relay Lemke behind a box AVI needs finite bounds); q "
      "uniform in [-3,3]" },
};

int gen_data_avi(const char *out, FILE *man, unsigned *seed,
                 double (*uniform)(void *, double, double), void *(*rng_new)(unsigned),
                 int *files)
{
    (void)seed;
    char path[4096], err[NS_ERRMSG_LEN];
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const struct avi_case *k = &cases[c];
        int n = k->n, nh = 2 * n + k->ncut;
        /* fixed seeds, independent of how many files gen_data wrote before */
        unsigned my_seed = 1001u + (unsigned)c;
        void *r = rng_new(my_seed);
        double *M = calloc((size_t)n * n, sizeof *M), *q = calloc((size_t)n, sizeof *q);
        double *H = calloc((size_t)(nh ? nh : 1) * n, sizeof *H);
        double *h = calloc((size_t)(nh ? nh : 1), sizeof *h);
        double *lb = calloc((size_t)n, sizeof *lb), *ub = calloc((size_t)n, sizeof *ub);
        ns_problem *p = NULL;
        int box = 0;
        if (!r || !M || !q || !H || !h || !lb || !ub) goto fail;
        if (!strcmp(k->family, "lineality")) {
            M[0] = 1.0;
            q[1] = -1.0;
            H[0] = H[1] = 1.0;
            h[0] = 1.0;
            nh = 1;
        } else if (!strcmp(k->family, "box")) {
            box = 1;
            pd_matrix(n, uniform, r, M);
            for (int i = 0; i < n; i++) {
                q[i] = uniform(r, -3, 3);
                lb[i] = uniform(r, -1, 0);
                ub[i] = uniform(r, 0.5, 2);
            }
        } else {
            nh = polytope(n, k->ncut, uniform, r, H, h);
            if (!strcmp(k->family, "lp")) {
                for (int j = 0; j < n; j++) q[j] = uniform(r, -1, 1);
            } else if (!strcmp(k->family, "singular")) {
                double u[3];
                for (int j = 0; j < n; j++) { u[j] = uniform(r, -1, 1); q[j] = uniform(r, -2, 2); }
                double w = uniform(r, -1, 1);
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++) M[i * n + j] = u[i] * u[j];
                M[0 * n + 1] += w;
                M[1 * n + 0] -= w;
            } else {
                pd_matrix(n, uniform, r, M);
                for (int j = 0; j < n; j++) q[j] = uniform(r, -3, 3);
            }
        }
        ns_avi *a = ns_avi_new(dense_rowmajor(n, n, M), q);
        if (!a) goto fail;
        if ((box ? ns_avi_set_box(a, lb, ub) : ns_avi_set_polyhedron(a, dense_rowmajor(nh, n, H), h))) {
            ns_avi_free(a);
            goto fail;
        }
        p = ns_problem_from_avi(a);
        if (!p) goto fail;
        char rel[256];
        snprintf(rel, sizeof rel, "avi/avi_%s_n%d.dat", k->family, n);
        snprintf(path, sizeof path, "%s/%s", out, rel);
        if (ns_problem_validate(p, err) != NS_OK ||
            ns_problem_write(path, p, NS_FORMAT_DAT, err) != NS_OK) {
            fprintf(stderr, "gen_data: %s\n", err);
            goto fail;
        }
        fprintf(man, "%s\tavi\tn=%d\tdense\tavi-%s\t%u\tgen_data --out DIR "
                "(tools/gen_data/gen_data_avi.c)\t%s\n", rel, n, k->family, my_seed, k->notes);
        (*files)++;
        ns_problem_free(p);
        free(r); free(M); free(q); free(H); free(h); free(lb); free(ub);
        continue;
    fail:
        ns_problem_free(p);
        free(r); free(M); free(q); free(H); free(h); free(lb); free(ub);
        return -1;
    }
    return 0;
}
