/* nsx_cells.c — see nsx_cells.h. */
#include "nsx_cells.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

struct nsx_cells {
    int cap_n;          /* capacity of the per-sphere arrays */
    long cap_cells;     /* capacity of start[] (cells + 1) */
    long cap_pairs;     /* capacity of pairs[] in pairs */
    long *cell;         /* (n) cell of each sphere */
    long *start;        /* (cells + 1) first slot of each cell in idx */
    int *idx;           /* (n) sphere indices in cell order */
    double *xs;         /* (4n) x, y, z, R in cell order (cache-friendly) */
    int *pairs;         /* (2 cap_pairs) */
};

nsx_cells *nsx_cells_new(void) { return calloc(1, sizeof(nsx_cells)); }

void nsx_cells_free(nsx_cells *g)
{
    if (!g) return;
    free(g->cell); free(g->start); free(g->idx); free(g->xs); free(g->pairs);
    free(g);
}

size_t nsx_cells_bytes(const nsx_cells *g)
{
    if (!g) return 0;
    return (size_t)g->cap_n * (sizeof(long) + sizeof(int) + 4 * sizeof(double)) +
           (size_t)g->cap_cells * sizeof(long) + (size_t)g->cap_pairs * 2 * sizeof(int);
}

static int reserve_n(nsx_cells *g, int n)
{
    if (n <= g->cap_n) return 0;
    int cap = g->cap_n ? g->cap_n : 64;
    while (cap < n) cap = cap > (1 << 29) ? n : 2 * cap;
    long *c = realloc(g->cell, (size_t)cap * sizeof *c);
    if (!c) return -1;
    g->cell = c;
    int *ix = realloc(g->idx, (size_t)cap * sizeof *ix);
    if (!ix) return -1;
    g->idx = ix;
    double *xs = realloc(g->xs, (size_t)cap * 4 * sizeof *xs);
    if (!xs) return -1;
    g->xs = xs;
    g->cap_n = cap;
    return 0;
}

static int reserve_cells(nsx_cells *g, long ncells)
{
    if (ncells + 1 <= g->cap_cells) return 0;
    long cap = g->cap_cells ? g->cap_cells : 256;
    while (cap < ncells + 1) cap *= 2;
    long *s = realloc(g->start, (size_t)cap * sizeof *s);
    if (!s) return -1;
    g->start = s;
    g->cap_cells = cap;
    return 0;
}

static int push_pair(nsx_cells *g, long *np, int i, int j)
{
    if (*np == g->cap_pairs) {
        long cap = g->cap_pairs ? 2 * g->cap_pairs : 1024;
        int *p = realloc(g->pairs, (size_t)cap * 2 * sizeof *p);
        if (!p) return -1;
        g->pairs = p;
        g->cap_pairs = cap;
    }
    int lo = i < j ? i : j, hi = i < j ? j : i;
    g->pairs[2 * *np] = lo;
    g->pairs[2 * *np + 1] = hi;
    (*np)++;
    return 0;
}

long nsx_cells_pairs(nsx_cells *g, int n, const double *const *pos,
                     const double *R, double margin, const int **pairs,
                     long *tests)
{
    if (tests) *tests = 0;
    if (!g || n < 0 || !(margin >= 0.0) || !pairs || (n > 0 && (!pos || !R))) return -1;
    *pairs = g->pairs;
    if (n < 2) return 0;
    if (reserve_n(g, n) != 0) return -1;
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    double Rmax = 0.0;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            double x = pos[i][k];
            if (x != x) return -1;
            if (x < lo[k]) lo[k] = x;
            if (x > hi[k]) hi[k] = x;
        }
        if (R[i] > Rmax) Rmax = R[i];
    }
    /* cell side: reach of the largest pair, grown until the cells are few */
    double side = 2.0 * Rmax + margin;
    if (!(side > 0.0)) side = 1.0;
    long dim[3];
    const double limit = 2.0 * n + 64.0;
    for (;;) {
        double cells = 1.0;
        for (int k = 0; k < 3; k++) cells *= floor((hi[k] - lo[k]) / side) + 1.0;
        if (cells <= limit) break;
        side *= fmax(1.05, cbrt(cells / limit));
    }
    for (int k = 0; k < 3; k++) dim[k] = (long)floor((hi[k] - lo[k]) / side) + 1;
    long ncells = dim[0] * dim[1] * dim[2];
    if (reserve_cells(g, ncells) != 0) return -1;
    const double inv = 1.0 / side;
    long *start = g->start;
    for (long c = 0; c <= ncells; c++) start[c] = 0;
    for (int i = 0; i < n; i++) {
        long cx = (long)((pos[i][0] - lo[0]) * inv), cy = (long)((pos[i][1] - lo[1]) * inv),
             cz = (long)((pos[i][2] - lo[2]) * inv);
        if (cx >= dim[0]) cx = dim[0] - 1;
        if (cy >= dim[1]) cy = dim[1] - 1;
        if (cz >= dim[2]) cz = dim[2] - 1;
        long c = cx + dim[0] * (cy + dim[1] * cz);
        g->cell[i] = c;
        start[c + 1]++;
    }
    for (long c = 0; c < ncells; c++) start[c + 1] += start[c];
    /* counting sort (stable: within a cell, increasing sphere index) */
    for (int i = 0; i < n; i++) {
        long s = start[g->cell[i]]++;
        g->idx[s] = i;
    }
    for (long c = ncells; c > 0; c--) start[c] = start[c - 1];
    start[0] = 0;
    for (int s = 0; s < n; s++) {
        int i = g->idx[s];
        g->xs[4 * s] = pos[i][0]; g->xs[4 * s + 1] = pos[i][1];
        g->xs[4 * s + 2] = pos[i][2]; g->xs[4 * s + 3] = R[i];
    }
    /* each cell against itself and its 13 forward neighbours */
    static const int off[13][3] = {
        { 1, 0, 0 }, { -1, 1, 0 }, { 0, 1, 0 }, { 1, 1, 0 },
        { -1, -1, 1 }, { 0, -1, 1 }, { 1, -1, 1 }, { -1, 0, 1 }, { 0, 0, 1 },
        { 1, 0, 1 }, { -1, 1, 1 }, { 0, 1, 1 }, { 1, 1, 1 } };
    long np = 0, ntests = 0;
    const double *xs = g->xs;
    for (long cz = 0; cz < dim[2]; cz++)
        for (long cy = 0; cy < dim[1]; cy++)
            for (long cx = 0; cx < dim[0]; cx++) {
                long c = cx + dim[0] * (cy + dim[1] * cz);
                long a0 = start[c], a1 = start[c + 1];
                if (a0 == a1) continue;
                for (int nb = -1; nb < 13; nb++) {
                    long b0, b1;
                    if (nb < 0) { b0 = a0; b1 = a1; }
                    else {
                        long x = cx + off[nb][0], y = cy + off[nb][1], z = cz + off[nb][2];
                        if (x < 0 || y < 0 || x >= dim[0] || y >= dim[1] || z >= dim[2]) continue;
                        long d = x + dim[0] * (y + dim[1] * z);
                        b0 = start[d]; b1 = start[d + 1];
                        if (b0 == b1) continue;
                    }
                    for (long s = a0; s < a1; s++) {
                        const double *p = xs + 4 * s;
                        for (long t = nb < 0 ? s + 1 : b0; t < b1; t++) {
                            const double *q = xs + 4 * t;
                            double dx = q[0] - p[0], dy = q[1] - p[1], dz = q[2] - p[2];
                            double reach = p[3] + q[3] + margin;
                            ntests++;
                            if (dx * dx + dy * dy + dz * dz >= reach * reach) continue;
                            if (push_pair(g, &np, g->idx[s], g->idx[t]) != 0) return -1;
                        }
                    }
                }
            }
    *pairs = g->pairs;
    if (tests) *tests = ntests;
    return np;
}
