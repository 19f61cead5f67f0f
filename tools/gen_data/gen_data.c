/* gen_data — makes the project's own problem collection (data/).
 *
 *   gen_data [--out DIR]        (default: data)
 *
 * Writes LCP families with known structure through the library's writer
 * (ns_problem_write), plus DIR/MANIFEST.tsv with one line per file saying
 * how it was made (the rows an existing MANIFEST.tsv has for files this
 * program does not make are kept, after its own). Deterministic: the same
 * binary gives the same bytes (own xorshift64* generator, one seed per
 * file), so data/ can be checked against a fresh run.
 *
 * Families (M, q; n = size):
 *   pd          M = AᵀA/n + 0.1 I, A uniform in [-1,1]: symmetric positive
 *               definite; q uniform in [-1,1]. Unique solution.
 *   pd-sparse   M = tridiag(-1, 2.05, -1) (1D Laplacian + shift), CSC
 *               storage; q uniform in [-1,1]. Sparse SPD, unique solution.
 *   pmatrix     M = P (D + U) Pᵀ: D diagonal in [1,2], U strictly upper
 *               triangular uniform in [-3,3], P a random permutation. Every
 *               principal minor is a product of diagonal entries > 0: a
 *               P-matrix (unique solution) whose symmetric part is indefinite.
 *   degenerate  M = B Bᵀ with B n×(n/2) uniform in [-1,1] (singular PSD);
 *               a solution z* is chosen with a third of the indices strictly
 *               complementary each way and a third with z*_i = w*_i = 0;
 *               q = w* − M z*. Solvable, non-unique, degenerate.
 *   avi         AVI files with their sets (gen_data_avi.c)
 *   murty       Murty's example: M_ii = 1, M_ij = 2 (j > i), 0 below; q = −1.
 *               Unique solution z = (0, …, 0, 1); Lemke with covering
 *               vector 1 takes 2ⁿ pivots.
 *
 * Then the hard families (gen_families.h, shared with the
 * acceptance test test_lcp_families, which also draws larger sizes):
 * bimatrix, bimatrix-deg, pscaled, psd-range, copos-deg, infeasible, at
 * sizes that keep the committed files small (n ≤ 30).
 */
#define _POSIX_C_SOURCE 200809L
#include "nonsmooth/nonsmooth.h"
#include "gen_families.h"
#include "gen_data_avi.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct rng { uint64_t s; } rng;

static void rng_seed(rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    if (!r->s) r->s = 1;
}

static double uniform(rng *r, double a, double b)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    uint64_t x = r->s * 0x2545F4914F6CDD1DULL;
    return a + (b - a) * ((double)(x >> 11) * (1.0 / 9007199254740992.0));
}

typedef struct family {
    const char *name;
    int sizes[3];
    const char *notes;
} family;

static const family families[] = {
    { "pd", { 10, 30, 80 }, "M = A'A/n + 0.1 I, A uniform in [-1,1]; q uniform in [-1,1]; "
      "symmetric positive definite, unique solution" },
    { "pd-sparse", { 1000, 0, 0 }, "M = tridiag(-1, 2.05, -1) in CSC storage; q uniform in "
      "[-1,1]; sparse symmetric positive definite, unique solution" },
    { "pmatrix", { 10, 30, 80 }, "M = P (D + U) P', D diagonal in [1,2], U strictly upper "
      "uniform in [-3,3], P random permutation; P-matrix (unique solution), symmetric part "
      "indefinite" },
    { "degenerate", { 10, 30, 80 }, "M = B B', B n x n/2 uniform in [-1,1] (singular PSD); "
      "q = w* - M z* with a third of the indices z*_i = w*_i = 0; solvable, degenerate, "
      "non-unique" },
    { "murty", { 8, 12, 16 }, "Murty's example: M_ii = 1, M_ij = 2 above the diagonal, 0 "
      "below; q = -1; unique solution z = (0,...,0,1); Lemke with covering vector 1 takes "
      "2^n pivots" },
};

#define AT(M, n, i, j) ((M)->dense[(size_t)(j) * (size_t)(n) + (size_t)(i)])

static ns_matrix *make(const char *fam, int n, rng *r, double *q)
{
    ns_matrix *M = NULL;
    if (!strcmp(fam, "pd-sparse")) {
        M = ns_matrix_sparse_new(n, n, 3 * n - 2);
        if (!M) return NULL;
        ns_int k = 0;
        for (int j = 0; j < n; j++) {
            M->csc.p[j] = k;
            if (j > 0) { M->csc.i[k] = j - 1; M->csc.x[k++] = -1.0; }
            M->csc.i[k] = j; M->csc.x[k++] = 2.05;
            if (j < n - 1) { M->csc.i[k] = j + 1; M->csc.x[k++] = -1.0; }
        }
        M->csc.p[n] = k;
        for (int i = 0; i < n; i++) q[i] = uniform(r, -1, 1);
        return M;
    }
    M = ns_matrix_dense_new(n, n);
    if (!M) return NULL;
    if (!strcmp(fam, "pd")) {
        double *A = malloc((size_t)n * (size_t)n * sizeof *A);
        if (!A) { ns_matrix_free(M); return NULL; }
        for (size_t k = 0; k < (size_t)n * (size_t)n; k++) A[k] = uniform(r, -1, 1);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < n; k++) s += A[(size_t)k * n + i] * A[(size_t)k * n + j];
                AT(M, n, i, j) = s / n + (i == j ? 0.1 : 0.0);
            }
        free(A);
        for (int i = 0; i < n; i++) q[i] = uniform(r, -1, 1);
    } else if (!strcmp(fam, "pmatrix")) {
        int *perm = malloc((size_t)n * sizeof *perm);
        double *T = calloc((size_t)n * (size_t)n, sizeof *T);
        if (!perm || !T) { free(perm); free(T); ns_matrix_free(M); return NULL; }
        for (int i = 0; i < n; i++) {
            T[(size_t)i * n + i] = uniform(r, 1, 2);
            for (int j = i + 1; j < n; j++) T[(size_t)j * n + i] = uniform(r, -3, 3);
            perm[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {  /* Fisher–Yates */
            int j = (int)(uniform(r, 0, 1) * (i + 1));
            if (j > i) j = i;
            int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) AT(M, n, i, j) = T[(size_t)perm[j] * n + perm[i]];
        free(perm);
        free(T);
        for (int i = 0; i < n; i++) q[i] = uniform(r, -1, 1);
    } else if (!strcmp(fam, "degenerate")) {
        int m = n / 2;
        double *B = malloc((size_t)n * (size_t)m * sizeof *B);
        double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w);
        if (!B || !z || !w) { free(B); free(z); free(w); ns_matrix_free(M); return NULL; }
        for (size_t k = 0; k < (size_t)n * (size_t)m; k++) B[k] = uniform(r, -1, 1);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < m; k++) s += B[(size_t)k * n + i] * B[(size_t)k * n + j];
                AT(M, n, i, j) = s;
            }
        for (int i = 0; i < n; i++) {
            int cls = i % 3;       /* 0: z > 0 = w, 1: w > 0 = z, 2: both zero */
            if (cls == 0) z[i] = uniform(r, 0.5, 1.5);
            else if (cls == 1) w[i] = uniform(r, 0.5, 1.5);
        }
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) s += AT(M, n, i, j) * z[j];
            q[i] = w[i] - s;
        }
        free(B);
        free(z);
        free(w);
    } else if (!strcmp(fam, "murty")) {
        for (int i = 0; i < n; i++) {
            AT(M, n, i, i) = 1.0;
            for (int j = i + 1; j < n; j++) AT(M, n, i, j) = 2.0;
            q[i] = -1.0;
        }
    }
    return M;
}

/* The generator behind void pointers, for gen_data_avi.c. */
static double uniform_v(void *r, double a, double b) { return uniform(r, a, b); }
static void *rng_new_v(unsigned seed)
{
    rng *r = malloc(sizeof *r);
    if (r) rng_seed(r, seed);
    return r;
}

static int mkdir_p(const char *path)
{
    if (mkdir(path, 0755) == 0 || errno == EEXIST) return 0;
    return -1;
}

/* The whole of file f into a new NUL-terminated buffer, or NULL (absent,
 * unreadable or out of memory). */
static char *slurp(const char *f)
{
    FILE *in = fopen(f, "rb");
    if (!in) return NULL;
    size_t cap = 4096, len = 0;
    char *b = malloc(cap);
    for (size_t k; b && (k = fread(b + len, 1, cap - len - 1, in)) > 0;) {
        len += k;
        if (len + 1 == cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) { free(b); b = NULL; }
            else b = nb;
        }
    }
    fclose(in);
    if (b) b[len] = '\0';
    return b;
}

/* Whether the manifest text m has a row for path (its first field). */
static int has_row(const char *m, const char *path, size_t n)
{
    for (const char *l = m; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
        if (!strncmp(l, path, n) && l[n] == '\t') return 1;
    return 0;
}

/* DIR/MANIFEST.tsv also describes files this program does not make (the
 * examples' dumps, the Siconos references): the rows of the manifest that
 * was there before (old) whose files the new one (at path) does not list
 * are appended to it, in their order. Returns 0, or -1 on a write error. */
static int keep_other_rows(const char *path, const char *old)
{
    char *now = slurp(path);
    if (!now) return -1;
    FILE *man = fopen(path, "a");
    if (!man) { free(now); return -1; }
    const char *l = strchr(old, '\n');   /* past the header */
    for (l = l ? l + 1 : NULL; l && *l;) {
        const char *end = strchr(l, '\n'), *tab = strchr(l, '\t');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        if (tab && tab < l + len && !has_row(now, l, (size_t)(tab - l)))
            fprintf(man, "%.*s\n", (int)len, l);
        l = end ? end + 1 : NULL;
    }
    free(now);
    return fclose(man) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *out = "data", *fam_name = NULL, *file = NULL;
    long size = 0;
    unsigned long long fseed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            puts("Usage: gen_data [--out DIR]\n"
                 "       gen_data --family NAME --size S [--seed K] --file FILE\n"
                 "Writes the project's problem collection (LCP families pd, pd-sparse,\n"
                 "pmatrix, degenerate, murty, bimatrix, bimatrix-deg, pscaled, psd-range,\n"
                 "copos-deg, infeasible) and DIR/MANIFEST.tsv (default DIR: data).\n"
                 "With --family: one instance of a hard family (bimatrix, bimatrix-deg,\n"
                 "pscaled, psd-range, copos-deg, murty, infeasible; S = n, or the game's\n"
                 "payoff size for bimatrix: n = 2 S) written to FILE, e.g. the 200 x 200\n"
                 "games tests/numerics/test_lcp_families.c solves in memory.");
            return 0;
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--family") && i + 1 < argc) {
            fam_name = argv[++i];
        } else if (!strcmp(argv[i], "--file") && i + 1 < argc) {
            file = argv[++i];
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            char *end;
            size = strtol(argv[++i], &end, 10);
            if (*end || size < 1 || size > 100000) {
                fprintf(stderr, "gen_data: --size: '%s' is not an integer in [1, 100000]\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            char *end;
            fseed = strtoull(argv[++i], &end, 10);
            if (*end) {
                fprintf(stderr, "gen_data: --seed: '%s' is not an integer\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "gen_data: unknown argument '%s' (see gen_data --help)\n", argv[i]);
            return 2;
        }
    }
    char path[4096], err[NS_ERRMSG_LEN];
    if (fam_name || file || size) {
        if (!fam_name || !file || !size) {
            fprintf(stderr, "gen_data: --family, --size and --file go together\n");
            return 2;
        }
        ns_lcp *lcp = ns_gen_lcp(fam_name, (int)size, fseed);
        ns_problem *p = lcp ? ns_problem_from_lcp(lcp) : NULL;
        if (!p) {
            fprintf(stderr, "gen_data: --family: '%s' is not a family (see gen_data --help)\n",
                    fam_name);
            return 2;
        }
        int rc = ns_problem_write(file, p, NS_FORMAT_DAT, err) != NS_OK;
        if (rc) fprintf(stderr, "gen_data: %s\n", err);
        ns_problem_free(p);
        return rc ? 2 : 0;
    }
    snprintf(path, sizeof path, "%s/lcp", out);
    if (mkdir_p(out) || mkdir_p(path)) {
        fprintf(stderr, "gen_data: cannot create %s: %s\n", path, strerror(errno));
        return 2;
    }
    char manifest[4096];
    snprintf(manifest, sizeof manifest, "%s/MANIFEST.tsv", out);
    char *old_manifest = slurp(manifest);   /* its rows of other files are kept */
    FILE *man = fopen(manifest, "w");
    if (!man) {
        fprintf(stderr, "gen_data: %s: %s\n", manifest, strerror(errno));
        free(old_manifest);
        return 2;
    }
    fprintf(man, "path\tkind\tsize\tstorage\tfamily\tseed\thow\tnotes\n");
    unsigned seed = 0;
    int files = 0;
    for (size_t f = 0; f < sizeof families / sizeof *families; f++) {
        const family *fam = &families[f];
        for (int k = 0; k < 3 && fam->sizes[k]; k++) {
            int n = fam->sizes[k];
            seed++;
            rng r;
            rng_seed(&r, seed);
            double *q = malloc((size_t)n * sizeof *q);
            ns_matrix *M = q ? make(fam->name, n, &r, q) : NULL;
            ns_lcp *lcp = M ? ns_lcp_new(M, q) : NULL;
            ns_problem *p = lcp ? ns_problem_from_lcp(lcp) : NULL;
            free(q);
            if (!p) {
                fprintf(stderr, "gen_data: out of memory\n");
                goto fail;
            }
            char rel[256];
            snprintf(rel, sizeof rel, "lcp/lcp_%s_n%d.dat", fam->name, n);
            snprintf(path, sizeof path, "%s/%s", out, rel);
            if (ns_problem_validate(p, err) != NS_OK ||
                ns_problem_write(path, p, NS_FORMAT_DAT, err) != NS_OK) {
                fprintf(stderr, "gen_data: %s\n", err);
                ns_problem_free(p);
                goto fail;
            }
            fprintf(man, "%s\tlcp\tn=%d\t%s\t%s\t%u\tgen_data --out DIR (tools/gen_data/gen_data.c)"
                    "\t%s\n", rel, n, M->storage == NS_SPARSE ? "csc" : "dense", fam->name, seed,
                    fam->notes);
            ns_problem_free(p);
            files++;
        }
    }
    static const struct { const char *name; int sizes[2]; const char *notes; } hard[] = {
        { "bimatrix", { 3, 15 }, "M = [[0, A], [B', 0]], A, B (size x size) uniform in [1,10], "
          "q = -1; bimatrix game, always solvable (Nash equilibrium); n = 2 size" },
        { "bimatrix-deg", { 3, 15 }, "bimatrix game with integer payoffs in {1,2,3} (degenerate); "
          "always solvable; n = 2 size" },
        { "pscaled", { 10, 30 }, "P-matrix (strictly row diagonally dominant, positive diagonal, "
          "off-diagonal uniform in [-1,1]) with row i and q_i scaled by 10^u, u uniform in [-4,4] "
          "(8 orders of magnitude); unique solution" },
        { "psd-range", { 10, 30 }, "M = B B', B n x n/3 (PSD, rank n/3); q = -M z*, z* >= 0 half "
          "zero: q in the range of M, solvable, degenerate" },
        { "copos-deg", { 10, 30 }, "M = B B' + (C - C'), B n x n/2: copositive-plus, rank-deficient "
          "symmetric part; q = w* - M z* with a third degenerate; solvable" },
        { "infeasible", { 5, 30 }, "y > 0, M = R - y (R'y + d)'/y'y so M'y = -d < 0, q'y = -1: "
          "infeasible (Farkas), no trivially infeasible row, M not copositive" },
    };
    for (size_t f = 0; f < sizeof hard / sizeof *hard; f++)
        for (int k = 0; k < 2; k++) {
            int sz = hard[f].sizes[k];
            seed++;
            ns_lcp *lcp = ns_gen_lcp(hard[f].name, sz, seed);
            ns_problem *p = lcp ? ns_problem_from_lcp(lcp) : NULL;
            if (!p) {
                fprintf(stderr, "gen_data: out of memory\n");
                goto fail;
            }
            int n = p->u.lcp->n;
            char rel[256];
            snprintf(rel, sizeof rel, "lcp/lcp_%s_n%d.dat", hard[f].name, n);
            snprintf(path, sizeof path, "%s/%s", out, rel);
            if (ns_problem_validate(p, err) != NS_OK ||
                ns_problem_write(path, p, NS_FORMAT_DAT, err) != NS_OK) {
                fprintf(stderr, "gen_data: %s\n", err);
                ns_problem_free(p);
                goto fail;
            }
            fprintf(man, "%s\tlcp\tn=%d\tdense\t%s\t%u\tgen_data --out DIR "
                    "(tools/gen_data/gen_families.c)\t%s\n", rel, n, hard[f].name, seed,
                    hard[f].notes);
            ns_problem_free(p);
            files++;
        }
    snprintf(path, sizeof path, "%s/avi", out);
    if (mkdir_p(path) || gen_data_avi(out, man, &seed, uniform_v, rng_new_v, &files)) {
        fprintf(stderr, "gen_data: %s: cannot write the AVI files\n", path);
        goto fail;
    }
    if (fclose(man) != 0 || (old_manifest && keep_other_rows(manifest, old_manifest))) {
        fprintf(stderr, "gen_data: %s/MANIFEST.tsv: %s\n", out, strerror(errno));
        free(old_manifest);
        return 2;
    }
    free(old_manifest);
    fprintf(stderr, "gen_data: %d files and MANIFEST.tsv written to %s\n", files, out);
    return 0;
fail:
    fclose(man);
    free(old_manifest);
    return 2;
}
