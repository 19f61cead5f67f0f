/* peer_mujoco.c — the spheres_box scene (spheres_box --write-scene FILE)
 * simulated by MuJoCo (Debian's libmujoco-dev): the scene is written as an
 * MJCF model (a temporary file, loaded by mj_loadXML), then mj_step h by h.
 * Solver: CG, --iterations N (default 100), MuJoCo's default tolerance
 * 1e-8 (CG may stop before N), elliptic friction cones (condim 3, the
 * Coulomb cone as in spheres_box), semi-implicit Euler.
 *
 * Scene: each sphere a body with a free joint, inertial mass m and
 * diaginertia (I, I, I), a sphere geom of radius R, the scene's initial
 * velocity and spin; the floor and the four walls are plane geoms
 * (infinite for collisions, as in spheres_box). Contacts: friction mu,
 * stiff solref "0.002 1" (time constant 2 h, the smallest MuJoCo accepts
 * with its default refsafe, critical damping), default solimp and margin 0.
 * MuJoCo's contacts are soft and have no Newton restitution coefficient: e
 * is not reproduced (the critically damped contact dissipates the approach
 * velocity, e ≈ 0).
 *
 * MuJoCo 2.2 allocates ~12 (njmax² + nv njmax) bytes whatever the solver
 * (contact_capacity below): 1.3 GB at n = 1000, 12 GB at n = 4000, and its
 * mjData buffer cannot pass 2^31 bytes; above that, or above --max-gb G,
 * the program refuses the scene (exit 3).
 *
 * Prints one "peer:" line (scene_file.h); the contact count at the end and
 * the list's capacity on stderr. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, mkstemp, fdopen */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mujoco/mujoco.h>
#include "scene_file.h"
#include "peer_util.h"

/* Contact list size: a settled pile has ~2.1 contacts per sphere (walls
 * and floor included); 2.6 per sphere leaves room for the transient (a
 * full list is reported and fails the run). MuJoCo 2.2 allocates dense
 * njmax × njmax and nv × njmax arrays (efc_AR, efc_JT and their column
 * indices, 12 bytes an entry) in one mjData buffer that must stay below
 * 2^31 bytes, so njmax (3 rows per elliptic contact) is kept to what the
 * scene needs. */
static long contact_capacity(int n) { return (long)(2.6 * n) + 64; }

static int write_mjcf(FILE *f, const sbx_scene *s, long iterations)
{
    long ncon = contact_capacity(s->n);
    fprintf(f, "<mujoco model=\"spheres_box\">\n"
               "  <option timestep=\"%.17g\" gravity=\"%.17g %.17g %.17g\" integrator=\"Euler\" solver=\"CG\" "
               "iterations=\"%ld\" cone=\"elliptic\"/>\n"
               "  <size nconmax=\"%ld\" njmax=\"%ld\"/>\n"
               "  <default><geom condim=\"3\" friction=\"%.17g 0 0\" solref=\"0.002 1\"/></default>\n"
               "  <worldbody>\n"
               "    <geom type=\"plane\" size=\"0 0 1\" pos=\"0 0 0\" zaxis=\"0 0 1\"/>\n"
               "    <geom type=\"plane\" size=\"0 0 1\" pos=\"%.17g 0 0\" zaxis=\"1 0 0\"/>\n"
               "    <geom type=\"plane\" size=\"0 0 1\" pos=\"%.17g 0 0\" zaxis=\"-1 0 0\"/>\n"
               "    <geom type=\"plane\" size=\"0 0 1\" pos=\"0 %.17g 0\" zaxis=\"0 1 0\"/>\n"
               "    <geom type=\"plane\" size=\"0 0 1\" pos=\"0 %.17g 0\" zaxis=\"0 -1 0\"/>\n",
            s->h, s->g[0], s->g[1], s->g[2], iterations, ncon, 3 * ncon, s->mu,
            -s->ax, s->ax, -s->ay, s->ay);
    for (int i = 0; i < s->n; i++)
        fprintf(f, "    <body pos=\"%.17g %.17g %.17g\"><freejoint/>"
                   "<inertial pos=\"0 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>"
                   "<geom type=\"sphere\" size=\"%.17g\" mass=\"0\"/></body>\n",
                s->x[3 * i], s->x[3 * i + 1], s->x[3 * i + 2], s->m[i], s->I[i], s->I[i], s->I[i], s->R[i]);
    fprintf(f, "  </worldbody>\n</mujoco>\n");
    return ferror(f) ? -1 : 0;
}

int main(int argc, char **argv)
{
    peer_args a = { NULL, 1500, 100, 0 };
    double max_gb = 4.0;   /* --max-gb G: taken out before the common parser */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--max-gb")) {
            char *end;
            max_gb = strtod(argv[i + 1], &end);
            if (end == argv[i + 1] || *end || !(max_gb > 0)) {
                fprintf(stderr, "peer_mujoco: --max-gb needs a number > 0\n");
                return 2;
            }
            for (int j = i; j + 2 <= argc; j++) argv[j] = argv[j + 2];
            argc -= 2;
            break;
        }
    int rc = peer_parse(argc, argv, &a, "peer_mujoco");
    if (rc) return rc;
    char err[1024];
    sbx_scene *s = sbx_scene_read(a.scene, err, sizeof err);
    if (!s) { fprintf(stderr, "peer_mujoco: %s\n", err); return 2; }
    if (a.iterations < 1) { fprintf(stderr, "peer_mujoco: --iterations must be >= 1\n"); sbx_scene_free(s); return 2; }
    long steps = a.steps > 0 ? a.steps : s->steps;
    double njmax = 3.0 * (double)contact_capacity(s->n), nv = 6.0 * s->n;
    double gb = 12.0 * (njmax * njmax + nv * njmax) / 1e9;
    if (gb > max_gb || gb > 2.0) {
        fprintf(stderr, "peer_mujoco: n = %d needs njmax = %.0f constraint rows, and MuJoCo 2.2 allocates "
                        "~12 (njmax^2 + nv njmax) bytes in one buffer: %.1f GB, over %s\n", s->n, njmax, gb,
                gb > 2.0 ? "its 2^31-byte limit" : "--max-gb");
        sbx_scene_free(s);
        return 3;
    }
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/peer_mujoco_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || write_mjcf(f, s, a.iterations) != 0 || fclose(f) != 0) {
        fprintf(stderr, "peer_mujoco: cannot write the model in %s\n", path);
        if (fd >= 0) unlink(path);
        sbx_scene_free(s);
        return 1;
    }
    mjModel *m = mj_loadXML(path, NULL, err, sizeof err);
    unlink(path);
    if (!m) { fprintf(stderr, "peer_mujoco: MJCF: %s\n", err); sbx_scene_free(s); return 1; }
    mjData *d = mj_makeData(m);
    if (!d) { fprintf(stderr, "peer_mujoco: mj_makeData failed\n"); mj_deleteModel(m); sbx_scene_free(s); return 1; }
    /* free joint i: qpos 7 (position, quaternion), qvel 6 (linear in the
     * world frame, angular in the body frame: the world's at the start) */
    for (int i = 0; i < s->n; i++) {
        int v = m->jnt_dofadr[i];
        for (int t = 0; t < 3; t++) {
            d->qvel[v + t] = s->v[3 * i + t];
            d->qvel[v + 3 + t] = s->w[3 * i + t];
        }
    }
    peer_clock clk = { a.settled_from, 0, 0.0, 0.0, 0.0 };
    for (long k = 0; k < steps; k++) {
        double t0 = peer_now(), c0 = peer_cpu();
        mj_step(m, d);
        peer_clock_step(&clk, k, peer_now() - t0, peer_cpu() - c0);
    }
    int full = d->warning[mjWARN_CONTACTFULL].number + d->warning[mjWARN_CNSTRFULL].number +
               d->warning[mjWARN_BADQACC].number;
    if (full) fprintf(stderr, "peer_mujoco: warnings: contact list full %d, constraints full %d, bad qacc %d\n",
                      d->warning[mjWARN_CONTACTFULL].number, d->warning[mjWARN_CNSTRFULL].number,
                      d->warning[mjWARN_BADQACC].number);
    fprintf(stderr, "peer_mujoco: %d contacts at the end (capacity %d)\n", d->ncon, m->nconmax);
    double *x = malloc((size_t)s->n * 3 * sizeof *x), ke = 0.0;
    if (!x) { fprintf(stderr, "peer_mujoco: out of memory\n"); return 1; }
    for (int i = 0; i < s->n; i++) {
        const mjtNum *p = d->qpos + m->jnt_qposadr[i], *v = d->qvel + m->jnt_dofadr[i];
        for (int t = 0; t < 3; t++) x[3 * i + t] = p[t];
        ke += 0.5 * s->m[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
              0.5 * s->I[i] * (v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
    }
    sbx_overlap ov;
    char set[64];
    snprintf(set, sizeof set, "cg/it=%ld/solref=0.002,1", a.iterations);
    if (sbx_overlaps(s->n, x, s->R, s->ax, s->ay, &ov) != 0) { fprintf(stderr, "peer_mujoco: out of memory\n"); return 1; }
    sbx_peer_line(stdout, "mujoco", set, s->n, steps, peer_settled_ms(&clk), peer_settled_cpu_ms(&clk), clk.total, &ov, ke);
    free(x);
    mj_deleteData(d);
    mj_deleteModel(m);
    sbx_scene_free(s);
    return full ? 1 : 0;
}
