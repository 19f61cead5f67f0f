/* gen_families.c — the LCP families of gen_families.h. */
#include "gen_families.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const ns_gen_family_names[] = {
    "bimatrix", "bimatrix-deg", "pscaled", "psd-range", "copos-deg", "murty",
    "infeasible", NULL
};

typedef struct grng { uint64_t s; } grng;

static void gseed(grng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    if (!r->s) r->s = 1;
}

static double unif(grng *r, double a, double b)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    uint64_t x = r->s * 0x2545F4914F6CDD1DULL;
    return a + (b - a) * ((double)(x >> 11) * (1.0 / 9007199254740992.0));
}

int ns_gen_family_infeasible(const char *family)
{
    return family && !strcmp(family, "infeasible");
}

#define AT(i, j) M->dense[(size_t)(j) * (size_t)n + (size_t)(i)]

/* M = B Bᵀ with B n × k uniform in [-1, 1] */
static void gram(ns_matrix *M, int n, int k, grng *r)
{
    double *B = malloc((size_t)n * (size_t)k * sizeof *B + 1);
    if (!B) return;
    for (size_t t = 0; t < (size_t)n * (size_t)k; t++) B[t] = unif(r, -1, 1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int c = 0; c < k; c++) s += B[(size_t)c * n + i] * B[(size_t)c * n + j];
            AT(i, j) = s;
        }
    free(B);
}

ns_lcp *ns_gen_lcp(const char *fam, int size, uint64_t seed)
{
    if (!fam || size < 1) return NULL;
    int bim = !strcmp(fam, "bimatrix") || !strcmp(fam, "bimatrix-deg");
    int n = bim ? 2 * size : size;
    int known = bim;
    for (int k = 0; ns_gen_family_names[k]; k++) if (!strcmp(fam, ns_gen_family_names[k])) known = 1;
    if (!known) return NULL;
    ns_matrix *M = ns_matrix_dense_new(n, n);
    double *q = calloc((size_t)n, sizeof *q), *z = calloc((size_t)n, sizeof *z);
    double *w = calloc((size_t)n, sizeof *w);
    if (!M || !q || !z || !w) { ns_matrix_free(M); free(q); free(z); free(w); return NULL; }
    grng r;
    gseed(&r, seed);
    if (bim) {
        int deg = !strcmp(fam, "bimatrix-deg");
        int m = size;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) {
                AT(i, m + j) = deg ? floor(unif(&r, 1, 4)) : unif(&r, 1, 10);   /* A */
                AT(m + j, i) = deg ? floor(unif(&r, 1, 4)) : unif(&r, 1, 10);   /* Bᵀ */
            }
        for (int i = 0; i < n; i++) q[i] = -1.0;
    } else if (!strcmp(fam, "pscaled")) {
        /* R uniform in [-1,1] off the diagonal, M_ii = Σ_j |R_ij| + [0.1, 1]:
         * strictly row diagonally dominant with positive diagonal, hence a
         * P-matrix, non-symmetric; then row i and q_i times 10^u_i */
        for (int i = 0; i < n; i++) {
            double s = 0, sc = pow(10.0, unif(&r, -4, 4));
            for (int j = 0; j < n; j++)
                if (j != i) { AT(i, j) = unif(&r, -1, 1); s += fabs(AT(i, j)); }
            AT(i, i) = s + unif(&r, 0.1, 1.0);
            q[i] = sc * unif(&r, -1, 1);
            for (int j = 0; j < n; j++) AT(i, j) *= sc;
        }
    } else if (!strcmp(fam, "psd-range")) {
        gram(M, n, (n + 2) / 3, &r);
        for (int i = 0; i < n; i++) z[i] = i % 2 ? 0.0 : unif(&r, 0.5, 1.5);
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) s += AT(i, j) * z[j];
            q[i] = -s;
        }
    } else if (!strcmp(fam, "copos-deg")) {
        gram(M, n, (n + 1) / 2, &r);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                double c = unif(&r, -1, 1);
                AT(i, j) += c;
                AT(j, i) -= c;
            }
        for (int i = 0; i < n; i++) {
            int cls = i % 3;
            if (cls == 0) z[i] = unif(&r, 0.5, 1.5);
            else if (cls == 1) w[i] = unif(&r, 0.5, 1.5);
        }
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) s += AT(i, j) * z[j];
            q[i] = w[i] - s;
        }
    } else if (!strcmp(fam, "murty")) {
        for (int i = 0; i < n; i++) {
            AT(i, i) = 1.0;
            for (int j = i + 1; j < n; j++) AT(i, j) = 2.0;
            q[i] = -1.0;
        }
    } else {   /* infeasible */
        double *y = z, *c = w, yy = 0, yq = 0;
        for (int i = 0; i < n; i++) { y[i] = unif(&r, 0.5, 1.5); yy += y[i] * y[i]; }
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) AT(i, j) = unif(&r, -1, 1);
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int i = 0; i < n; i++) s += AT(i, j) * y[i];
            c[j] = s + unif(&r, 0.1, 0.5);              /* Rᵀy + δ */
        }
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) AT(i, j) -= y[i] * c[j] / yy;
        for (int i = 0; i < n; i++) { q[i] = unif(&r, -1, 1); yq += y[i] * q[i]; }
        for (int i = 0; i < n; i++) q[i] -= y[i] * (yq + 1.0) / yy;
        /* no trivially infeasible row: give a row without a positive entry one */
        for (int i = 0; i < n; i++) {
            int pos = 0;
            for (int j = 0; j < n; j++) pos |= AT(i, j) > 0;
            if (!pos && n > 1) {
                /* move mass between two columns of row i keeping Mᵀy: add t
                 * to M_i0 and −t y_i/y_k to M_k0 for another row k */
                int k = (i + 1) % n;
                double t = 1.0 - AT(i, 0);
                AT(i, 0) += t;
                AT(k, 0) -= t * y[i] / y[k];
            }
        }
    }
    ns_lcp *p = ns_lcp_new(M, q);
    free(q); free(z); free(w);
    return p;
}
