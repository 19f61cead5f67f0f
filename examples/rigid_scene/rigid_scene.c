/* rigid_scene — runs a scene of rigid bodies read from a Siconos mechanics
 * HDF5 file (siconos.io.mechanics_hdf5), with Bullet's collision detection,
 * and writes positions, velocities and contacts over time.
 *
 *   rigid_scene --scene FILE.hdf5 [--T 1] [--h 1e-3] [--tol 1e-10]
 *               [--out DIR] [--dump DIR] [--project] [--global] [--quiet]
 *
 * --out DIR writes DIR/run.hdf5 — /data/dynamic (t, body id, x, y, z, qw,
 * qx, qy, qz) and /data/velocities (t, body id, v, ω body), Siconos'
 * layouts (ids from 1 in the order of the scene's dynamic objects, in
 * double precision), and /data/cf, one row per active contact and step:
 * t, μ, point on body 1 (3), point on body 2 (3), normal (3), reaction
 * force in the world frame (3), gap, local velocity (u_N, u_T1, u_T2),
 * local impulse (3), interaction id, body ids 1 and 2 (0: static) — and
 * DIR/energy.svg (energy and number of contacts over time). --dump DIR
 * writes each step's one-step problem (FC3D, LCP, ...) for nsolve;
 * --project runs the direct position projection after each step (joints
 * and contacts back on their constraints); --global solves a friction-only
 * step in the global form (nsm_sim_options.global_fc: GFC3D on M, H, q, b,
 * μ without forming W; --dump then writes GFC3D problems). */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "example_util.h"
#include "svgplot.h"
#include "nonsmooth/nsm.h"
#include "nonsmooth/nsm_scene.h"

/* the example's own options, after "usage: rigid_scene [options]" */
static const char usage[] =
    "--scene FILE.hdf5 [--project] [--global] [--verbose]\n"
    "Runs a Siconos mechanics HDF5 scene (Bullet collision detection).\n"
    "  --scene FILE       the scene (written by siconos.io.mechanics_io or nsm_scene)\n"
    "  --project          project joints and contacts back onto their constraints\n"
    "                     after each step\n"
    "  --global           friction-only steps in the global form (GFC3D: M, H,\n"
    "                     W never formed; --dump writes these problems)\n"
    "  --verbose          the solver's progress on stderr (each stage of the\n"
    "                     default chain with its error and time)\n";

typedef struct rows { double *v; size_t n, cap; int ncol; } rows;

static int push_row(rows *r, const double *x)
{
    if (r->n == r->cap) {
        size_t c = r->cap ? 2 * r->cap : 1024;
        double *v = realloc(r->v, c * r->ncol * sizeof *v);
        if (!v) return -1;
        r->v = v; r->cap = c;
    }
    memcpy(r->v + r->n * r->ncol, x, r->ncol * sizeof *x);
    r->n++;
    return 0;
}

static int write_set(hid_t g, const char *name, const rows *r, const char *info)
{
    hsize_t dims[2] = { r->n, (hsize_t)r->ncol };
    hid_t sp = H5Screate_simple(2, dims, NULL);
    hid_t d = H5Dcreate2(g, name, H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = d >= 0 && (r->n == 0 || H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, r->v) >= 0) ? 0 : -1;
    if (d >= 0) {
        hid_t st = H5Tcopy(H5T_C_S1);
        H5Tset_size(st, strlen(info) + 1);
        hid_t as = H5Screate(H5S_SCALAR);
        hid_t a = H5Acreate2(d, "info", st, as, H5P_DEFAULT, H5P_DEFAULT);
        if (a >= 0) { H5Awrite(a, st, info); H5Aclose(a); }
        H5Sclose(as); H5Tclose(st);
        H5Dclose(d);
    }
    H5Sclose(sp);
    return rc;
}

static void quat_rot(const double *p, const double *x, double *y)
{
    double w = p[0], a = p[1], b = p[2], c = p[3];
    double R[9] = { 1 - 2 * (b * b + c * c), 2 * (a * b + w * c), 2 * (a * c - w * b),
                    2 * (a * b - w * c), 1 - 2 * (a * a + c * c), 2 * (b * c + w * a),
                    2 * (a * c + w * b), 2 * (b * c - w * a), 1 - 2 * (a * a + b * b) };
    for (int i = 0; i < 3; i++) y[i] = R[i] * x[0] + R[i + 3] * x[1] + R[i + 6] * x[2];
}

static int take_flag(int *argc, char **argv, const char *name)
{
    for (int i = 1; i < *argc; i++)
        if (!strcmp(argv[i], name)) {
            for (int j = i; j + 1 <= *argc; j++) argv[j] = argv[j + 1];
            (*argc)--;
            return 1;
        }
    return 0;
}

static int take_string(int *argc, char **argv, const char *name, const char **val)
{
    for (int i = 1; i + 1 < *argc; i++)
        if (!strcmp(argv[i], name)) {
            *val = argv[i + 1];
            for (int j = i; j + 2 <= *argc; j++) argv[j] = argv[j + 2];
            *argc -= 2;
            return 1;
        }
    return 0;
}

/* --verbose: the solver's messages (the auto chain's stages) on stderr */
static void solver_log(void *user, int level, const char *msg)
{
    (void)user; (void)level;
    fprintf(stderr, "rigid_scene: %s\n", msg);
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    take_string(&argc, argv, "--scene", &path);
    int project = take_flag(&argc, argv, "--project");
    int verbose = take_flag(&argc, argv, "--verbose");
    int global = take_flag(&argc, argv, "--global");
    nsx_args a;
    int pr = nsx_parse(argc, argv, &a, usage);
    if (pr) return pr > 0 ? 0 : 2;
    if (!path) { fprintf(stderr, "rigid_scene: --scene FILE is required\nusage: rigid_scene [options] %s", usage); return 2; }
    char err[NS_ERRMSG_LEN];
    nsm_scene *sc = nsm_scene_read_hdf5(path, err);
    if (!sc) { fprintf(stderr, "rigid_scene: %s\n", err); return 1; }
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = a.h > 0 ? a.h : 1e-3;
    o.solver_options.tol = a.tol > 0 ? a.tol : 1e-10;
    o.solver_options.max_iter = 10000;
    if (verbose) { o.solver_options.verbosity = 1; o.solver_options.log = solver_log; }
    o.newton_max_iter = 1;   /* Siconos' mechanics runner: one linearised step */
    nsx_apply(&a, &o);
    if (a.dump) { nsx_mkdir(a.dump); o.dump_dir = a.dump; }
    o.accept_nonconverged = 1;
    o.global_fc = global;
    if (project) o.projection = NSM_PROJECTION_DIRECT;   /* joints and contacts back on their constraints */
    nsm_scene_run *r = nsm_scene_build(sc, &o, 9.80665, err);
    if (!r) { fprintf(stderr, "rigid_scene: %s\n", err); nsm_scene_free(sc); return 1; }
    double T = a.T > 0 ? a.T : 1.0;
    long N = a.steps > 0 ? a.steps : (long)(T / o.h + 0.5);
    rows dyn = { .ncol = 9 }, vel = { .ncol = 8 }, cf = { .ncol = 24 };
    nsx_series ts = { 0 }, en = { 0 }, nc = { 0 };
    int rc = 0, maxc = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long k = 0; k < N; k++) {
        ns_status st = nsm_scene_step(r);
        if (st != NS_OK) {
            const char *ce = nsm_collision_error(r->collision);
            if (ce[0]) fprintf(stderr, "rigid_scene: step %ld: collision detection: %s\n", k, ce);
            else fprintf(stderr, "rigid_scene: %s\n", nsm_sim_error(r->sim));   /* names the step */
            rc = 1;
            break;
        }
        double t = nsm_sim_time(r->sim);
        nsm_collision_stats cs = nsm_collision_get_stats(r->collision);
        int active = 0;
        for (int i = 0; i < cs.live; i++) {
            int ii = nsm_collision_contact(r->collision, i);
            const double *lam = nsm_sim_lambda(r->sim, ii, 1);
            if (lam && lam[0] > 0.0) active++;
            if (!a.out || !lam || !(lam[0] > 0.0)) continue;
            int ds[2];
            nsm_model_inter_ds(r->model, ii, ds);
            nsm_contact_frame f;
            nsm_relation_contact_get(nsm_model_relation(r->model, ii), &f);
            const double *q1 = nsm_sim_q(r->sim, ds[0]);
            double row[24] = { t, nsm_nslaw_friction(nsm_model_law(r->model, nsm_model_inter_law(r->model, ii))) }, arm[3];
            if (f.r1_world) memcpy(arm, f.r1, sizeof arm); else quat_rot(q1 + 3, f.r1, arm);
            for (int c = 0; c < 3; c++) row[2 + c] = q1[c] + arm[c];
            if (ds[1] >= 0) {
                const double *q2 = nsm_sim_q(r->sim, ds[1]);
                if (f.r2_world) memcpy(arm, f.r2, sizeof arm); else quat_rot(q2 + 3, f.r2, arm);
                for (int c = 0; c < 3; c++) row[5 + c] = q2[c] + arm[c];
            } else memcpy(row + 5, f.r2, 3 * sizeof(double));
            double t1v[3], t2v[3];
            nsm_contact_tangents(f.normal, t1v, t2v);
            int m = nsm_model_inter_size(r->model, ii);
            const double *y0 = nsm_sim_y(r->sim, ii, 0), *y1 = nsm_sim_y(r->sim, ii, 1);
            for (int c = 0; c < 3; c++) {
                row[8 + c] = f.normal[c];
                row[11 + c] = (lam[0] * f.normal[c] + (m == 3 ? lam[1] * t1v[c] + lam[2] * t2v[c] : 0.0)) / o.h;
                row[15 + c] = c < m ? y1[c] : 0.0;
                row[18 + c] = c < m ? lam[c] : 0.0;
            }
            row[14] = y0[0];
            row[21] = ii; row[22] = ds[0] + 1; row[23] = ds[1] + 1;
            if (push_row(&cf, row)) rc = 1;
        }
        if (active > maxc) maxc = active;
        if (a.out) {
            for (int j = 0; j < r->nbodies; j++) {
                const double *q = nsm_sim_q(r->sim, j), *v = nsm_sim_v(r->sim, j);
                double d[9] = { t, j + 1 }, w[8] = { t, j + 1 };
                memcpy(d + 2, q, 7 * sizeof(double));
                memcpy(w + 2, v, 6 * sizeof(double));
                if (push_row(&dyn, d) || push_row(&vel, w)) rc = 1;
            }
            nsx_push(&ts, t);
            nsx_push(&en, nsm_scene_energy(r));
            nsx_push(&nc, active);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (!a.quiet) {
        printf("scene %s: %ld steps of h = %g, %d dynamic bodies, at most %d active contacts\n", path, N, o.h, r->nbodies, maxc);
        const nsm_sim_stats *ss = nsm_sim_get_stats(r->sim);
        printf("wall %.3f s, %.3g ms per step; solver iterations %ld, unconverged solves %ld (tol %g)\n", wall,
               1e3 * wall / (double)N, ss->solver_iterations, ss->nonconverged, o.solver_options.tol);
        for (int j = 0; j < r->nbodies && j < 20; j++) {
            const double *q = nsm_sim_q(r->sim, j);
            printf("  %-16s x = %.12f %.12f %.12f  q = %.9f %.9f %.9f %.9f\n", r->names[j], q[0], q[1], q[2], q[3], q[4], q[5], q[6]);
        }
    }
    if (a.out && rc == 0) {
        char buf[4096];
        nsx_mkdir(a.out);
        hid_t fh = H5Fcreate(nsx_path(buf, sizeof buf, a.out, "run.hdf5"), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        hid_t g = fh >= 0 ? H5Gcreate2(fh, "data", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
        if (g < 0 || write_set(g, "dynamic", &dyn, "time, ds id, translation, orientation") ||
            write_set(g, "velocities", &vel, "time, ds id, translational velocities, angular velocities (body frame)") ||
            write_set(g, "cf", &cf, "time, mu, contact point on body 1 (3), on body 2 (3), normal (3), reaction force (3, world), "
                                  "gap, local velocity (3), local impulse (3), interaction id, ds 1, ds 2 (0: static)")) {
            fprintf(stderr, "rigid_scene: cannot write %s\n", buf);
            rc = 1;
        }
        if (g >= 0) H5Gclose(g);
        if (fh >= 0) H5Fclose(fh);
        svgplot *p = svgplot_new(2, "rigid scene: energy and contacts");
        if (p) {
            svgplot_labels(p, 0, "t [s]", "energy [J]");
            svgplot_series(p, 0, "kinetic + potential", ts.n, ts.v, en.v, 0);
            svgplot_labels(p, 1, "t [s]", "active contacts");
            svgplot_series(p, 1, "contacts", ts.n, ts.v, nc.v, 0);
            if (svgplot_write(p, nsx_path(buf, sizeof buf, a.out, "energy.svg"))) rc = 1;
            svgplot_free(p);
        }
    }
    free(dyn.v); free(vel.v); free(cf.v);
    nsx_series_free(&ts); nsx_series_free(&en); nsx_series_free(&nc);
    nsm_scene_run_free(r);
    nsm_scene_free(sc);
    return rc;
}
