/* rfc_gen.c — a family of RFC3D problems from a physical scene: a × b
 * spheres of radius R lying on a plane in a square grid, each touching the
 * ground and its right and front neighbours (a·b + (a−1)·b + a·(b−1)
 * contacts, 5 unknowns each: normal, two sliding, two rolling). Masses
 * m ∈ [0.5, 1.5], inertia 2/5 m R²; random horizontal and downward
 * velocities and spins, one time step h = 10⁻² of gravity: q = J v_free,
 * W = J M⁻¹ Jᵀ (BLOCK storage of 5×5 blocks), μ ∈ [0.3, 0.7], μr ∈
 * [0.002, 0.02] (a length: the rolling torque is bounded by μr r_N).
 * Contact rows of body b with offset p (centre → contact point) for a
 * direction d: translation d, rotation p × d (sliding, normal) and d
 * alone on ω (rolling: relative spin about the tangential axes).
 * usage: rfc_gen OUTDIR   (writes the 24 files of the benchmark family)
 *        rfc_gen OUTDIR A B SEED   (one file) */
#include "nonsmooth/nonsmooth.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;
static double uni(double a, double b)
{
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return a + (b - a) * ((rng * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct { int a, b; double n[3]; } contact;   /* body a (−1: ground) → body b */

static void cross(const double *x, const double *y, double *z)
{
    z[0] = x[1] * y[2] - x[2] * y[1];
    z[1] = x[2] * y[0] - x[0] * y[2];
    z[2] = x[0] * y[1] - x[1] * y[0];
}

/* J block (5 × 6, row-major) of contact c for body `body` (sign +1 for b,
 * −1 for a; offset p). */
static void jblock(const contact *c, double sign, const double *p, double *J)
{
    double t1[3], t2[3];
    const double *n = c->n;
    if (fabs(n[2]) > 0.5) { t1[0] = 1; t1[1] = 0; t1[2] = 0; } else { t1[0] = 0; t1[1] = 0; t1[2] = 1; }
    double s = t1[0] * n[0] + t1[1] * n[1] + t1[2] * n[2];
    for (int k = 0; k < 3; k++) t1[k] -= s * n[k];
    double l = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    for (int k = 0; k < 3; k++) t1[k] /= l;
    cross(n, t1, t2);
    const double *dir[3] = { n, t1, t2 };
    memset(J, 0, 30 * sizeof *J);
    for (int r = 0; r < 3; r++) {
        double pd[3];
        cross(p, dir[r], pd);
        for (int k = 0; k < 3; k++) { J[r * 6 + k] = sign * dir[r][k]; J[r * 6 + 3 + k] = sign * pd[k]; }
    }
    for (int k = 0; k < 3; k++) { J[3 * 6 + 3 + k] = sign * t1[k]; J[4 * 6 + 3 + k] = sign * t2[k]; }
}

static ns_problem *scene(int A, int B, uint64_t seed)
{
    rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    const double R = 0.1, h = 1e-2, g = -9.81;
    const int nb = A * B;
    int nc = 0, cap = 3 * nb;
    contact *C = malloc((size_t)cap * sizeof *C);
    for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++) {
            int id = i * B + j;
            C[nc++] = (contact){ -1, id, { 0, 0, 1 } };
            if (i + 1 < A) C[nc++] = (contact){ id, id + B, { 1, 0, 0 } };
            if (j + 1 < B) C[nc++] = (contact){ id, id + 1, { 0, 1, 0 } };
        }
    double *minv = malloc((size_t)nb * 2 * sizeof *minv), *vf = malloc((size_t)nb * 6 * sizeof *vf);
    for (int b = 0; b < nb; b++) {
        double m = uni(0.5, 1.5);
        minv[2 * b] = 1 / m;
        minv[2 * b + 1] = 1 / (0.4 * m * R * R);
        double *v = vf + 6 * b;
        v[0] = uni(-1, 1); v[1] = uni(-1, 1); v[2] = uni(-0.5, 0) + h * g;
        v[3] = uni(-10, 10); v[4] = uni(-10, 10); v[5] = uni(-2, 2);
    }
    /* J blocks per (contact, side) */
    double *Jb = malloc((size_t)nc * 2 * 30 * sizeof *Jb);
    for (int c = 0; c < nc; c++) {
        double pb[3], pa[3];
        for (int k = 0; k < 3; k++) { pb[k] = -R * C[c].n[k]; pa[k] = R * C[c].n[k]; }
        jblock(&C[c], 1.0, pb, Jb + (size_t)c * 60);
        if (C[c].a >= 0) jblock(&C[c], -1.0, pa, Jb + (size_t)c * 60 + 30);
    }
    /* contacts of each body */
    int *cnt = calloc((size_t)nb + 1, sizeof *cnt), *lst, *pos;
    for (int c = 0; c < nc; c++) { cnt[C[c].b + 1]++; if (C[c].a >= 0) cnt[C[c].a + 1]++; }
    for (int b = 0; b < nb; b++) cnt[b + 1] += cnt[b];
    lst = malloc((size_t)cnt[nb] * sizeof *lst);
    pos = malloc((size_t)nb * sizeof *pos);
    memcpy(pos, cnt, (size_t)nb * sizeof *pos);
    for (int c = 0; c < nc; c++) { lst[pos[C[c].b]++] = c; if (C[c].a >= 0) lst[pos[C[c].a]++] = c; }
    /* block pattern: (α, β) sharing a body; rows sorted */
    int *rp = calloc((size_t)nc + 1, sizeof *rp), *bc = malloc((size_t)nc * 12 * sizeof *bc);
    int *rs = malloc((size_t)(nc + 1) * sizeof *rs);
    for (int c = 0; c <= nc; c++) rs[c] = 5 * c;
    int k = 0;
    for (int c = 0; c < nc; c++) {
        rp[c] = k;
        int bodies[2] = { C[c].b, C[c].a }, start = k;
        for (int s = 0; s < 2; s++) {
            if (bodies[s] < 0) continue;
            for (int t = cnt[bodies[s]]; t < cnt[bodies[s] + 1]; t++) {
                int d = lst[t], dup = 0;
                for (int u = start; u < k; u++) dup |= bc[u] == d;
                if (!dup) bc[k++] = d;
            }
        }
        for (int u = start + 1; u < k; u++)   /* insertion sort */
            for (int v = u; v > start && bc[v - 1] > bc[v]; v--) { int x = bc[v]; bc[v] = bc[v - 1]; bc[v - 1] = x; }
    }
    rp[nc] = k;
    char err[NS_ERRMSG_LEN];
    ns_matrix *W = ns_matrix_block_new(nc, nc, rs, rs, rp, bc, err);
    double *q = calloc((size_t)5 * nc, sizeof *q), *mu = malloc((size_t)nc * sizeof *mu),
           *mur = malloc((size_t)nc * sizeof *mur);
    for (int c = 0; c < nc; c++) {
        for (int kk = W->block.row_ptr[c]; kk < W->block.row_ptr[c + 1]; kk++) {
            int d = W->block.block_col[kk];
            double *blk = W->block.x + W->block.value_ptr[kk];   /* column-major 5×5 */
            int bc_[2] = { C[c].b, C[c].a }, bd[2] = { C[d].b, C[d].a };
            for (int s = 0; s < 2; s++)
                for (int t = 0; t < 2; t++) {
                    if (bc_[s] < 0 || bc_[s] != bd[t]) continue;
                    const double *Jc = Jb + (size_t)c * 60 + 30 * s, *Jd = Jb + (size_t)d * 60 + 30 * t;
                    const double *mi = minv + 2 * bc_[s];
                    for (int i = 0; i < 5; i++)
                        for (int j = 0; j < 5; j++) {
                            double x = 0;
                            for (int l = 0; l < 6; l++) x += Jc[i * 6 + l] * mi[l / 3] * Jd[j * 6 + l];
                            blk[i + 5 * j] += x;
                        }
                }
        }
        int bodies[2] = { C[c].b, C[c].a };
        for (int s = 0; s < 2; s++) {
            if (bodies[s] < 0) continue;
            const double *Jc = Jb + (size_t)c * 60 + 30 * s, *v = vf + 6 * bodies[s];
            for (int i = 0; i < 5; i++)
                for (int l = 0; l < 6; l++) q[5 * c + i] += Jc[i * 6 + l] * v[l];
        }
        mu[c] = uni(0.3, 0.7);
        mur[c] = uni(0.002, 0.02);
    }
    /* written in SPARSE storage: Siconos 4.4's rolling NSGS cannot take the
     * diagonal blocks of a sparse-block (SBM) matrix (an assertion) */
    ns_matrix *Ws = W ? ns_matrix_to_sparse(W) : NULL;
    ns_matrix_free(W);
    ns_problem *P = Ws ? ns_problem_from_rfc(ns_rfc_new(5, nc, Ws, q, mu, mur)) : NULL;
    free(C); free(minv); free(vf); free(Jb); free(cnt); free(lst); free(pos);
    free(rp); free(bc); free(rs); free(q); free(mu); free(mur);
    return P;
}

static int write_one(const char *dir, int A, int B, unsigned seed)
{
    char path[4096], err[NS_ERRMSG_LEN];
    ns_problem *P = scene(A, B, seed);
    if (!P) { fprintf(stderr, "rfc_gen: out of memory\n"); return 1; }
    snprintf(path, sizeof path, "%s/rfc3d_spheres_%dx%d_s%u.dat", dir, A, B, seed);
    ns_status st = ns_problem_write(path, P, NS_FORMAT_DAT, err);
    if (st) fprintf(stderr, "rfc_gen: %s\n", err);
    else fprintf(stderr, "rfc_gen: %s (%d contacts)\n", path, (int)P->u.rfc->nc);
    ns_problem_free(P);
    return st != NS_OK;
}

int main(int argc, char **argv)
{
    if (argc == 5) return write_one(argv[1], atoi(argv[2]), atoi(argv[3]), (unsigned)atoi(argv[4]));
    if (argc != 2) {
        fprintf(stderr, "usage: rfc_gen OUTDIR [A B SEED]\n");
        return 2;
    }
    static const int grid[][2] = { { 2, 3 }, { 3, 3 }, { 3, 5 }, { 5, 5 }, { 6, 8 }, { 8, 10 },
                                   { 12, 12 }, { 16, 18 }, { 24, 24 }, { 32, 34 }, { 45, 45 },
                                   { 57, 59 } };
    int bad = 0;
    for (size_t k = 0; k < sizeof grid / sizeof *grid; k++)
        for (unsigned seed = 1; seed <= 2; seed++) bad |= write_one(argv[1], grid[k][0], grid[k][1], seed);
    return bad;
}
