/* detect_spheres — cost of one contact-detection update for n spheres in an
 * open box (the spheres_box scene at rest: a jittered dense lattice),
 * side by side: the spheres_box example's own detection (uniform grid +
 * exact sphere gaps, examples/spheres_box/contacts.c) and Bullet through
 * nsm_collision (dynamic AABB tree + persistent manifolds). Both keep the
 * model's contact interactions in step (created, kept, removed) with the
 * same margin; each update follows a small random move of every sphere.
 *
 *   detect_spheres [n (1000)] [updates (200)]
 *
 * Prints ms per update for each and the number of contacts each holds. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "contacts.h"
#include "nonsmooth/nsm.h"
#include "nonsmooth/nsm_collision.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double urand(unsigned long *s)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000, K = argc > 2 ? atoi(argv[2]) : 200;
    if (n < 1 || K < 1) { fprintf(stderr, "usage: detect_spheres [n] [updates]\n"); return 2; }
    const double R = 0.05, sp = 2.02 * R, margin = 0.1 * R;
    int side = (int)ceil(sqrt((double)n / 4.0));   /* about 4 layers */
    double ax = 0.5 * side * sp + 0.01 * R, ay = ax;
    double *q = malloc(3 * (size_t)n * sizeof *q);
    unsigned long seed = 12345;
    for (int i = 0; i < n; i++) {
        int layer = i / (side * side), ix = i % side, iy = (i / side) % side;
        q[3 * i] = -ax + R + sp * ix + 0.04 * R * (urand(&seed) - 0.5);
        q[3 * i + 1] = -ay + R + sp * iy + 0.04 * R * (urand(&seed) - 0.5);
        q[3 * i + 2] = 1.02 * R + sp * layer;
    }
    /* the example's detection: Lagrangian spheres (q of size 6) */
    nsm_model *mA = nsm_model_new();
    int *ds = malloc((size_t)n * sizeof *ds);
    double *Rs = malloc((size_t)n * sizeof *Rs), *qA = calloc(6 * (size_t)n, sizeof *qA);
    const double **pos = malloc((size_t)n * sizeof *pos);
    double M[36] = { 0 };
    for (int t = 0; t < 6; t++) M[t * 7] = 1.0;
    for (int i = 0; i < n; i++) {
        for (int t = 0; t < 3; t++) qA[6 * i + t] = q[3 * i + t];
        ds[i] = nsm_model_add_ds(mA, nsm_ds_lagrangian_lti_new(6, M, qA + 6 * i, NULL));
        Rs[i] = R;
        pos[i] = qA + 6 * i;
    }
    int lawA = nsm_model_add_law(mA, nsm_nslaw_newton_coulomb_new(3, 0.0, 0.3));
    sbx_contacts *cA = sbx_contacts_new(n, Rs, ds, ax, ay, lawA);
    /* Bullet: rigid bodies, sphere shapes, five static planes */
    nsm_model *mB = nsm_model_new();
    double I[9] = { 1e-3, 0, 0, 0, 1e-3, 0, 0, 0, 1e-3 };
    for (int i = 0; i < n; i++) {
        double q0[7] = { q[3 * i], q[3 * i + 1], q[3 * i + 2], 1, 0, 0, 0 };
        nsm_model_add_ds(mB, nsm_ds_newton_euler_new(1.0, I, q0, NULL));
    }
    int lawB = nsm_model_add_law(mB, nsm_nslaw_newton_coulomb_new(3, 0.0, 0.3));
    char err[NS_ERRMSG_LEN];
    nsm_collision *cB = nsm_collision_new(mB, err);
    int sph = nsm_collision_sphere(cB, R);
    for (int i = 0; i < n; i++) nsm_collision_add(cB, i, sph, NULL, 1);
    const double walls[5][4] = { { 0, 0, 1, 0 }, { 1, 0, 0, -ax }, { -1, 0, 0, -ax }, { 0, 1, 0, -ay }, { 0, -1, 0, -ay } };
    for (int w = 0; w < 5; w++) nsm_collision_add(cB, -1, nsm_collision_plane(cB, walls[w], walls[w][3]), NULL, 0);
    nsm_collision_set_law(cB, 0, 1, lawB, 3, margin);
    nsm_collision_set_law(cB, 1, 1, lawB, 3, margin);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    nsm_sim *sB = nsm_sim_new(mB, &o, err);
    if (!cA || !cB || !sB) { fprintf(stderr, "detect_spheres: setup failed: %s\n", err); return 1; }
    double tA = 0.0, tB = 0.0;
    sbx_geom g;
    int liveB = 0;
    for (int k = 0; k <= K; k++) {
        if (k > 0)   /* a small random move of every sphere, the same for both */
            for (int i = 0; i < n; i++)
                for (int t = 0; t < 3; t++) {
                    double d = 0.002 * R * (urand(&seed) - 0.5);
                    qA[6 * i + t] += d;
                    nsm_sim_q(sB, i)[t] += d;
                }
        double t0 = now();
        if (sbx_contacts_update(cA, mA, pos, margin, &g, err)) { fprintf(stderr, "own: %s\n", err); return 1; }
        double t1 = now();
        if (nsm_collision_update(cB, sB) != NS_OK) { fprintf(stderr, "bullet: %s\n", nsm_collision_error(cB)); return 1; }
        double t2 = now();
        if (k > 0) { tA += t1 - t0; tB += t2 - t1; }   /* update 0 builds everything */
        liveB = nsm_collision_get_stats(cB).live;
    }
    printf("%d spheres, %d updates: own grid detection %.4g ms per update (%d contacts), "
           "Bullet %.4g ms per update (%d contacts); Bullet / own = %.3g\n",
           n, K, 1e3 * tA / K, g.ninteractions, 1e3 * tB / K, liveB, tB / tA);
    sbx_contacts_free(cA);
    nsm_collision_free(cB);
    nsm_sim_free(sB);
    nsm_model_free(mA);
    nsm_model_free(mB);
    free(q); free(ds); free(Rs); free(qA); free(pos);
    return 0;
}
