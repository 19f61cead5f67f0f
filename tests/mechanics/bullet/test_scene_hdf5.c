/* test_scene_hdf5.c — scenes read from Siconos mechanics HDF5 files
 * (nsm_scene_read_hdf5). The files are written here with the HDF5 C API in
 * the layout siconos.io.mechanics_hdf5 writes (variable-length string
 * attributes, single-precision shape data, /data/ref, /data/input with
 * contactor datasets, /data/nslaws, /data/joints):
 *  - a box resting on an inclined static box, μ = 0.3: at 0.45 rad it
 *    slides by ½ g (sin α − μ cos α) t² (1e-8 relative at t = 0.5 s), at
 *    0.2 rad it stays (1e-12);
 *    the same with the step in the global form (global_fc: GFC3D on M, H);
 *  - rigid_scene --global on the sliding box: its dumps are GFC3D problems
 *    that nsolve solves to 1e-10 by its own error;
 *  - a pendulum on a PivotJointR to the ground keeps its joint;
 *  - malformed files and fields, each refused with a message naming the
 *    object and the field: not HDF5, no /data/ref, unknown primitive, zero
 *    and negative mass, non-unit quaternion, missing inertia, degenerate
 *    convex hull (at build), convex data not n × 3, unknown law type,
 *    joint on an unknown object. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "nonsmooth/nsm.h"
#include "nonsmooth/nsm_scene.h"

#define G 9.80665

static void attr_s(hid_t o, const char *name, const char *v)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(o, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, t, &v);
    H5Aclose(a); H5Sclose(sp); H5Tclose(t);
}

static void attr_d(hid_t o, const char *name, int n, const double *v)
{
    hsize_t d = (hsize_t)n;
    hid_t sp = n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &d, NULL);
    hid_t a = H5Acreate2(o, name, H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, v);
    H5Aclose(a); H5Sclose(sp);
}

static void attr_1(hid_t o, const char *name, double v) { attr_d(o, name, 1, &v); }

/* a (rows × cols) float32 dataset, as Siconos stores shape data */
static hid_t dset(hid_t g, const char *name, int rows, int cols, const double *v)
{
    hsize_t d[2] = { (hsize_t)rows, (hsize_t)cols };
    hid_t sp = H5Screate_simple(2, d, NULL);
    hid_t ds = H5Dcreate2(g, name, H5T_IEEE_F32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (v && rows * cols > 0) H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Sclose(sp);
    return ds;
}

typedef struct spec {
    double alpha, mass, qnorm;
    double cgroup, gid1;       /* the cube's contactor group (0: the default), the law's gid1 */
    double axscale;            /* the pivot's axis is (0, axscale, 0) */
    const char *prim;          /* the cube's primitive */
    int no_ref, no_inertia, flat_hull, hull_cols2, bad_law, joint_bad, pendulum;
} spec;

static void write_scene(const char *path, const spec *s)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    attr_1(f, "dimension", 3);
    hid_t data = H5Gcreate2(f, "data", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t in = H5Gcreate2(data, "input", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t nsl = H5Gcreate2(data, "nslaws", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t jts = H5Gcreate2(data, "joints", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double a = s->alpha, n[3] = { sin(a), 0, cos(a) }, q[4] = { cos(a / 2) * s->qnorm, 0, sin(a / 2) * s->qnorm, 0 };
    if (!s->no_ref) {
        hid_t ref = H5Gcreate2(data, "ref", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        double cube[3] = { 1.0, 0.6, 0.4 }, ground[3] = { 20.0, 20.0, 0.2 };
        hid_t d = dset(ref, "Cube", 1, 3, cube);
        attr_s(d, "type", "primitive"); attr_s(d, "primitive", s->prim); attr_1(d, "id", 0);
        H5Dclose(d);
        d = dset(ref, "Ground", 1, 3, ground);
        attr_s(d, "type", "primitive"); attr_s(d, "primitive", "Box"); attr_1(d, "id", 1);
        H5Dclose(d);
        if (s->flat_hull || s->hull_cols2) {
            double pts[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0 };
            d = s->hull_cols2 ? dset(ref, "Hull", 6, 2, pts) : dset(ref, "Hull", 4, 3, pts);
            attr_s(d, "type", "convex"); attr_1(d, "id", 2);
            H5Dclose(d);
        }
        H5Gclose(ref);
    }
    /* ground: static, rotated by α about y, its top face through the origin */
    hid_t g = H5Gcreate2(in, "ground", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double x[3] = { -0.1 * n[0], 0, -0.1 * n[2] }, z3[3] = { 0, 0, 0 }, v6[6] = { 0 }, qg[4] = { cos(a / 2), 0, sin(a / 2), 0 };
    attr_s(g, "type", "static"); attr_d(g, "translation", 3, x); attr_d(g, "orientation", 4, qg);
    attr_d(g, "velocity", 6, v6); attr_d(g, "center_of_mass", 3, z3); attr_1(g, "id", -1);
    hid_t c = dset(g, "Ground-0", 0, 0, NULL);
    double one[4] = { 1, 0, 0, 0 };
    attr_s(c, "shape_name", "Ground"); attr_s(c, "instance_name", "Ground-0"); attr_1(c, "group", 0);
    attr_d(c, "translation", 3, z3); attr_d(c, "orientation", 4, one);
    H5Dclose(c);
    H5Gclose(g);
    /* the cube (or the pendulum's link) */
    g = H5Gcreate2(in, "cube", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double xc[3] = { 0.2 * n[0], 0, 0.2 * n[2] }, I[3] = { 1.5 / 12 * (0.36 + 0.16), 1.5 / 12 * (1.0 + 0.16), 1.5 / 12 * (1.0 + 0.36) };
    if (s->pendulum) { xc[0] = 0.5; xc[1] = 0; xc[2] = 2.0; }
    attr_s(g, "type", "dynamic"); attr_1(g, "mass", s->mass); attr_d(g, "translation", 3, xc);
    attr_d(g, "orientation", 4, s->pendulum ? one : q); attr_d(g, "velocity", 6, v6); attr_d(g, "center_of_mass", 3, z3);
    if (!s->no_inertia) attr_d(g, "inertia", 3, I);
    attr_1(g, "id", 1);
    c = dset(g, "Cube-0", 0, 0, NULL);
    attr_s(c, "shape_name", s->flat_hull ? "Hull" : "Cube"); attr_s(c, "instance_name", "Cube-0");
    attr_1(c, "group", s->cgroup != 0 ? s->cgroup : (s->pendulum ? 1 : 0));
    attr_d(c, "translation", 3, z3); attr_d(c, "orientation", 4, one);
    H5Dclose(c);
    H5Gclose(g);
    hid_t l = dset(nsl, "contact", 0, 1, NULL);
    attr_s(l, "type", s->bad_law ? "NewtonImpactRollingFrictionNSL" : "NewtonImpactFrictionNSL");
    attr_1(l, "mu", 0.3); attr_1(l, "e", 0.0); attr_1(l, "gid1", s->gid1); attr_1(l, "gid2", 0);
    H5Dclose(l);
    if (s->pendulum || s->joint_bad) {
        hid_t j = dset(jts, "pivot", 0, 1, NULL);
        double p[3] = { 0, 0, 2.0 }, ax[3] = { 0, s->axscale, 0 };
        attr_s(j, "type", "PivotJointR"); attr_s(j, "object1", s->joint_bad ? "nobody" : "cube");
        hsize_t d2[2] = { 1, 3 };
        hid_t sp = H5Screate_simple(2, d2, NULL);
        hid_t at = H5Acreate2(j, "points", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(at, H5T_NATIVE_DOUBLE, p); H5Aclose(at);
        at = H5Acreate2(j, "axes", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(at, H5T_NATIVE_DOUBLE, ax); H5Aclose(at);
        H5Sclose(sp);
        attr_1(j, "absolute", 1);
        H5Dclose(j);
    }
    H5Gclose(jts); H5Gclose(nsl); H5Gclose(in); H5Gclose(data);
    H5Fclose(f);
}

static spec base(double alpha)
{
    spec s = { .alpha = alpha, .mass = 1.5, .qnorm = 1.0, .axscale = 1.0, .prim = "Box" };
    return s;
}

static nsm_scene_run *build(const char *path, nsm_scene **sc, double h, int projection, int global)
{
    char err[NS_ERRMSG_LEN];
    *sc = nsm_scene_read_hdf5(path, err);
    if (!*sc) fail_msg("read: %s", err);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = h;
    o.solver_options.tol = 1e-14;
    o.solver_options.max_iter = 100000;
    o.newton_tol = 1e-13;
    o.newton_max_iter = 50;
    o.projection = projection;
    o.projection_tol = 1e-12;
    o.global_fc = global;
    nsm_scene_run *r = nsm_scene_build(*sc, &o, G, err);
    if (!r) fail_msg("build: %s", err);
    return r;
}

static void incline(double alpha, int global)
{
    const char *path = "test_scene_incline.hdf5";
    spec s = base(alpha);
    write_scene(path, &s);
    nsm_scene *sc;
    nsm_scene_run *r = build(path, &sc, 1e-3, 0, global);
    assert_int_equal(r->nbodies, 1);
    assert_string_equal(r->names[0], "cube");
    int N = 500;
    for (int k = 0; k < N; k++)
        if (nsm_scene_step(r) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(r->sim));
    const double *q = nsm_sim_q(r->sim, 0);
    double t = N * 1e-3, ta[3] = { cos(alpha), 0, -sin(alpha) }, nv[3] = { sin(alpha), 0, cos(alpha) };
    double d[3] = { q[0] - 0.2 * nv[0], q[1], q[2] - 0.2 * nv[2] };
    double s_along = d[0] * ta[0] + d[2] * ta[2], s_norm = d[0] * nv[0] + d[2] * nv[2];
    double acc = G * (sin(alpha) - 0.3 * cos(alpha));
    print_message("scene incline %.2f%s: s = %.12g (exact %.12g), normal %.3g\n", alpha, global ? " (global)" : "",
                  s_along, acc > 0 ? 0.5 * acc * t * t : 0.0, s_norm);
    if (global) assert_int_equal(nsm_sim_problem(r->sim)->kind, NS_KIND_GFC3D);
    if (acc > 0) assert_true(fabs(s_along - 0.5 * acc * t * t) <= 1e-8 * 0.5 * acc * t * t);
    else assert_true(fabs(s_along) <= 1e-12);
    /* the float32 shape data put the cube 4.5e-9 into the ground at most */
    assert_true(fabs(s_norm) <= 1e-8);
    nsm_scene_run_free(r);
    nsm_scene_free(sc);
    remove(path);
}

static void test_incline_slip(void **state) { (void)state; incline(0.45, 0); }
static void test_incline_stick(void **state) { (void)state; incline(0.2, 0); }
static void test_incline_slip_global(void **state) { (void)state; incline(0.45, 1); }
static void test_incline_stick_global(void **state) { (void)state; incline(0.2, 1); }

/* rigid_scene --global --dump: the sliding box's steps as GFC3D files */
static void test_rigid_scene_global(void **state)
{
    (void)state;
    const char *path = "test_scene_global.hdf5", *dir = "test_scene_global_dump";
    spec s = base(0.45);
    write_scene(path, &s);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir %s && %s/rigid_scene --scene %s --steps 300 --tol 1e-10 --global "
             "--dump %s --dump-every 100 --quiet", dir, dir, NS_BIN_DIR, path, dir);
    assert_int_equal(system(cmd), 0);
    int files = 0;
    for (int k = 0; k < 300; k += 100) {
        char f[256], err[NS_ERRMSG_LEN];
        snprintf(f, sizeof f, "%s/step_%08d.dat", dir, k);
        ns_problem *p = NULL;
        if (ns_problem_read(f, NS_KIND_NONE, &p, err) != NS_OK) continue;   /* a step without contact has no solve */
        assert_int_equal(p->kind, NS_KIND_GFC3D);
        assert_true(p->u.gfc->nc >= 1);
        ns_problem_free(p);
        snprintf(cmd, sizeof cmd, "%s/nsolve --tol 1e-10 %s >/dev/null", NS_BIN_DIR, f);
        assert_int_equal(system(cmd), 0);
        files++;
    }
    print_message("rigid_scene --global: %d GFC3D dumps solved by nsolve\n", files);
    assert_true(files >= 2);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    remove(path);
}

/* the pivot's axis is a direction: written as (0, 1, 0) or as (0, 1e300, 0)
 * (whose norm overflows), the pendulum swings the same way */
static void pendulum_joint(double axscale)
{
    const char *path = "test_scene_pendulum.hdf5";
    spec s = base(0.0);
    s.pendulum = 1;
    s.axscale = axscale;
    write_scene(path, &s);
    nsm_scene *sc;
    nsm_scene_run *r = build(path, &sc, 1e-3, NSM_PROJECTION_DIRECT, 0);
    double worst = 0.0;
    for (int k = 0; k < 500; k++) {
        if (nsm_scene_step(r) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(r->sim));
        const double *q = nsm_sim_q(r->sim, 0);
        /* the pivot (0, 0, 2) is the cube's point (−0.5, 0, 0) in its frame: |x − pivot| = 0.5 */
        double dx = q[0], dz = q[2] - 2.0;
        worst = fmax(worst, fabs(sqrt(dx * dx + q[1] * q[1] + dz * dz) - 0.5));
    }
    print_message("scene pendulum (axis scale %g): max |distance to pivot - 0.5| = %.3g, z = %.6f\n", axscale, worst, nsm_sim_q(r->sim, 0)[2]);
    assert_true(worst <= 1e-10);
    assert_true(nsm_sim_q(r->sim, 0)[2] < 1.9);   /* it swung down */
    nsm_scene_run_free(r);
    nsm_scene_free(sc);
    remove(path);
}

static void test_pendulum_joint(void **state) { (void)state; pendulum_joint(1.0); }
static void test_pendulum_joint_huge_axis(void **state) { (void)state; pendulum_joint(1e300); }

static void expect_read_error(const spec *s, const char *w1, const char *w2)
{
    const char *path = "test_scene_bad.hdf5";
    write_scene(path, s);
    char err[NS_ERRMSG_LEN];
    nsm_scene *sc = nsm_scene_read_hdf5(path, err);
    if (sc) fail_msg("accepted a scene that should fail (%s)", w1);
    if (!strstr(err, w1) || !strstr(err, w2)) fail_msg("message \"%s\" does not name \"%s\" and \"%s\"", err, w1, w2);
    remove(path);
}

static void test_bad_files(void **state)
{
    (void)state;
    char err[NS_ERRMSG_LEN];
    FILE *f = fopen("test_scene_text.hdf5", "w");
    fputs("not hdf5\n", f);
    fclose(f);
    assert_null(nsm_scene_read_hdf5("test_scene_text.hdf5", err));
    assert_non_null(strstr(err, "not an HDF5 file"));
    remove("test_scene_text.hdf5");
    assert_null(nsm_scene_read_hdf5(NULL, err));
    spec s = base(0.2);
    s.no_ref = 1; expect_read_error(&s, "/data/ref", "missing");
    s = base(0.2); s.prim = "Torus"; expect_read_error(&s, "shape 'Cube'", "unknown primitive 'Torus'");
    s = base(0.2); s.mass = 0.0; expect_read_error(&s, "object 'cube'", "mass = 0");
    s = base(0.2); s.mass = -2.0; expect_read_error(&s, "object 'cube'", "mass = -2");
    s = base(0.2); s.qnorm = 1.1; expect_read_error(&s, "object 'cube'", "orientation is not a unit quaternion");
    s = base(0.2); s.no_inertia = 1; expect_read_error(&s, "object 'cube'", "inertia");
    s = base(0.2); s.hull_cols2 = 1; expect_read_error(&s, "shape 'Hull'", "n × 3");
    s = base(0.2); s.bad_law = 1; expect_read_error(&s, "law 'contact'", "NewtonImpactRollingFrictionNSL");
    s = base(0.2); s.joint_bad = 1; expect_read_error(&s, "joint 'pivot'", "'nobody'");
    /* NaN is no mass (NaN marks a static body in the API) */
    s = base(0.2); s.mass = NAN; expect_read_error(&s, "object 'cube'", "mass = nan");
    /* integral but beyond int: refused, not converted */
    s = base(0.2); s.cgroup = 1e300; expect_read_error(&s, "contactor 'Cube-0'", "'group' = 1e+300");
    s = base(0.2); s.cgroup = INFINITY; expect_read_error(&s, "contactor 'Cube-0'", "'group' = inf");
    s = base(0.2); s.gid1 = 1e20; expect_read_error(&s, "law 'contact'", "'gid1' = 1e+20");
    /* a degenerate hull reads (its points are numbers) but is refused at build */
    s = base(0.2); s.flat_hull = 1;
    write_scene("test_scene_flat.hdf5", &s);
    nsm_scene *sc = nsm_scene_read_hdf5("test_scene_flat.hdf5", err);
    assert_non_null(sc);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    assert_null(nsm_scene_build(sc, &o, G, err));
    if (!strstr(err, "shape 'Hull'") || !strstr(err, "degenerate")) fail_msg("message \"%s\"", err);
    nsm_scene_free(sc);
    remove("test_scene_flat.hdf5");
}

static void test_api_bad_input(void **state)
{
    (void)state;
    nsm_scene *sc = nsm_scene_new();
    double x[3] = { 0 }, I[3] = { 1, 1, 1 }, p[1] = { -1.0 };
    assert_int_equal(nsm_scene_primitive(sc, "s", "Sphere", 1, p), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "parameter 0"));
    assert_int_equal(nsm_scene_body(sc, "b", 1.0, 3, I, NULL, NULL, NULL), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "translation"));
    assert_int_equal(nsm_scene_body(sc, "b", 1.0, 3, I, x, NULL, NULL), NS_OK);
    assert_int_equal(nsm_scene_body(sc, "b", 1.0, 3, I, x, NULL, NULL), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "defined twice"));
    assert_int_equal(nsm_scene_contactor(sc, "b", "nothing", 0, NULL, NULL), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "'nothing'"));
    assert_int_equal(nsm_scene_law(sc, "l", 2.0, 0.3, 0, 0), NS_BAD_INPUT);
    assert_int_equal(nsm_scene_joint(sc, "j", "HingeR", "b", NULL, x, x, 1), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "unknown type 'HingeR'"));
    assert_int_equal(nsm_scene_joint(sc, "j", "PivotJointR", "b", NULL, x, x, 1), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "axes[0]"));
    assert_int_equal(nsm_scene_primitive(NULL, "s", "Sphere", 1, p), NS_BAD_INPUT);
    nsm_scene_free(sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_incline_slip), cmocka_unit_test(test_incline_stick),
        cmocka_unit_test(test_incline_slip_global), cmocka_unit_test(test_incline_stick_global),
        cmocka_unit_test(test_rigid_scene_global),
        cmocka_unit_test(test_pendulum_joint), cmocka_unit_test(test_pendulum_joint_huge_axis),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_api_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
