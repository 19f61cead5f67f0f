/* test_scene_joints.c — Siconos mechanics HDF5 scenes with joint stops,
 * joint friction and couplings (nsm_scene_read_hdf5), against exact
 * answers. The scenes are those of benchmarks/rigid/joint_scenes.py (same
 * names, same parameters); they are written here with the HDF5 C API in
 * the layout Siconos' writer gives them (h5py: variable-length strings,
 * fixed-length byte strings for 'nslaws', 'friction' and 'references',
 * n × 3 float arrays for 'stops' and 'coupled', int64 group ids, empty
 * datasets for laws and joints). Run with a directory argument, the test
 * reads the files Siconos' own writer made there instead (ctest does so
 * when python3-siconos is present):
 *  - pendulum_stop: a link on a PivotJointR released horizontal hits its
 *    stop at π/4 below (overshoot < |ω| h), its velocity turned by −e
 *    (1e-3), and rebounds to the height energy gives, asin((1 − e²)
 *    sin π/4) (1e-3 relative at h = 1e-4: first order in h);
 *  - slider_friction: a slider launched at v0 = 1 m/s against a friction
 *    force F = 2 N (RelayNSL ±F h) slows at F/m and stops after m v0/F
 *    with travel m v0²/(2F) (1e-12);
 *  - slider_stick / slider_slip: on an axis inclined at 0.3 rad, F > m g
 *    sin 0.3 holds it (1e-12), F < m g sin 0.3 lets it slide at
 *    g sin 0.3 − F/m (1e-10 relative);
 *  - screw: a nut on a CylindricalJointR with coupled [[0, 1, 20]] falls
 *    at m g/(m + 20² I_zz) (1e-5 at h = 1e-4: the Cayley step turns the
 *    nut by 2 atan(h ω/2), second order in h) and turns 20 rad per metre
 *    (1e-10);
 *  - gears: two wheels on PivotJointRs coupled by a CouplerJointR with
 *    ratio −2: θ2 = −2 θ1 (1e-10) and the energy is kept (1e-10 m g l),
 *    with no projection (the coupler is held on its discrete gradient);
 *  - malformed attributes, each refused with a message naming the joint
 *    and the field. */
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
#include "nonsmooth/nsm.h"
#include "nonsmooth/nsm_scene.h"

#define G 9.80665
#define PI 3.14159265358979323846

static const char *dir = NULL;   /* Siconos-written files, when given */

/* ---- writing, in the layout of siconos.io.mechanics_hdf5 ---- */

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

/* numpy 'S' strings: n = 0 a scalar (one name), else a 1-D array */
static void attr_bytes(hid_t o, const char *name, int n, const char *const *v)
{
    size_t len = 1;
    int cnt = n ? n : 1;
    for (int i = 0; i < cnt; i++) if (strlen(v[i]) > len) len = strlen(v[i]);
    char *buf = calloc((size_t)cnt, len);
    for (int i = 0; i < cnt; i++) memcpy(buf + (size_t)i * len, v[i], strlen(v[i]));
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, len);
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    hsize_t d = (hsize_t)n;
    hid_t sp = n ? H5Screate_simple(1, &d, NULL) : H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(o, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, t, buf);
    H5Aclose(a); H5Sclose(sp); H5Tclose(t);
    free(buf);
}

/* doubles: rows = 0 a scalar, cols = 0 a 1-D array of rows, else rows × cols */
static void attr_m(hid_t o, const char *name, int rows, int cols, const double *v)
{
    hsize_t d[2] = { (hsize_t)rows, (hsize_t)cols };
    hid_t sp = rows == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(cols ? 2 : 1, d, NULL);
    hid_t a = H5Acreate2(o, name, H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, v);
    H5Aclose(a); H5Sclose(sp);
}

static void attr_1(hid_t o, const char *name, double v) { attr_m(o, name, 0, 0, &v); }

static void attr_int(hid_t o, const char *name, long long v)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(o, name, H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_LLONG, &v);
    H5Aclose(a); H5Sclose(sp);
}

/* an empty float32 dataset of shape (0,) (laws, joints) or (0, 0) */
static hid_t empty(hid_t g, const char *name, int rank)
{
    hsize_t d[2] = { 0, 0 };
    hid_t sp = H5Screate_simple(rank, d, NULL);
    hid_t ds = H5Dcreate2(g, name, H5T_IEEE_F32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Sclose(sp);
    return ds;
}

typedef struct wfile { hid_t f, data, ref, in, nsl, jts; } wfile;

static wfile wopen(const char *path)
{
    wfile w;
    w.f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    attr_1(w.f, "dimension", 3);
    w.data = H5Gcreate2(w.f, "data", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    w.ref = H5Gcreate2(w.data, "ref", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    w.in = H5Gcreate2(w.data, "input", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    w.nsl = H5Gcreate2(w.data, "nslaws", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    w.jts = H5Gcreate2(w.data, "joints", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    return w;
}

static void wclose(wfile *w)
{
    H5Gclose(w->jts); H5Gclose(w->nsl); H5Gclose(w->in); H5Gclose(w->ref); H5Gclose(w->data);
    H5Fclose(w->f);
}

static void box_shape(wfile *w, const char *name, double lx, double ly, double lz)
{
    hsize_t d[2] = { 1, 3 };
    double v[3] = { lx, ly, lz };
    hid_t sp = H5Screate_simple(2, d, NULL);
    hid_t ds = H5Dcreate2(w->ref, name, H5T_IEEE_F32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    attr_s(ds, "type", "primitive"); attr_s(ds, "primitive", "Box");
    H5Dclose(ds); H5Sclose(sp);
}

static void box_body(wfile *w, const char *name, const char *shape, int group, double m, double lx, double ly,
                     double lz, const double *x, const double *v)
{
    hid_t g = H5Gcreate2(w->in, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double I[3] = { m / 12 * (ly * ly + lz * lz), m / 12 * (lx * lx + lz * lz), m / 12 * (lx * lx + ly * ly) };
    double q[4] = { 1, 0, 0, 0 }, z[6] = { 0 };
    attr_s(g, "type", "dynamic"); attr_1(g, "mass", m); attr_m(g, "inertia", 3, 0, I);
    attr_m(g, "translation", 3, 0, x); attr_m(g, "orientation", 4, 0, q);
    attr_m(g, "velocity", 6, 0, v ? v : z); attr_m(g, "center_of_mass", 3, 0, z);
    hid_t c = empty(g, "C-0", 2);
    attr_s(c, "shape_name", shape); attr_int(c, "group", group);
    attr_m(c, "translation", 3, 0, z); attr_m(c, "orientation", 4, 0, q);
    H5Dclose(c);
    H5Gclose(g);
}

static void newton_law(wfile *w, const char *name, double e)
{
    hid_t l = empty(w->nsl, name, 1);
    attr_s(l, "type", "NewtonImpactNSL"); attr_1(l, "e", e); attr_int(l, "gid1", -1); attr_int(l, "gid2", -1);
    H5Dclose(l);
}

static void relay_law(wfile *w, const char *name, double lb, double ub, int size)
{
    hid_t l = empty(w->nsl, name, 1);
    attr_s(l, "type", "RelayNSL"); attr_int(l, "size", size); attr_1(l, "lb", lb); attr_1(l, "ub", ub);
    attr_int(l, "gid1", -1); attr_int(l, "gid2", -1);
    H5Dclose(l);
}

static hid_t joint(wfile *w, const char *name, const char *type, const char *o1, const char *o2,
                   const double *point, const double *axis)
{
    hid_t j = empty(w->jts, name, 1);
    attr_s(j, "object1", o1);
    if (o2) attr_s(j, "object2", o2);
    attr_s(j, "type", type);
    if (point) attr_m(j, "points", 1, 3, point);
    if (axis) attr_m(j, "axes", 1, 3, axis);
    if (point || axis) attr_1(j, "absolute", 1);
    return j;
}

/* the malformations, one at a time */
typedef struct bad {
    int stops_2cols, stop_axis1, nslaws_unknown, nslaws_relay, nslaws_count;
    int friction_neg, friction_unknown, friction_newton, relay_size2, stop_on_ball;
    int coupled_2cols, coupled_dof, coupler_no_refs, coupler_unknown_ref, coupler_third;
} bad;

static const double L = 0.5, E_STOP = 0.5, F_SLIDE = 2.0, H_SLIDE = 1e-3, RATIO_SCREW = 20.0, RATIO_GEAR = -2.0;

static void write_pendulum_stop(const char *path, const bad *b)
{
    wfile w = wopen(path);
    double x[3] = { L / 2, 0, 0 }, o[3] = { 0, 0, 0 }, ay[3] = { 0, 1, 0 };
    box_shape(&w, "Link", L, 0.04, 0.04);
    newton_law(&w, "stop", E_STOP);
    relay_law(&w, "fr", -0.1, 0.1, 1);
    box_body(&w, "link", "Link", 1, 1.0, L, 0.04, 0.04, x, NULL);
    hid_t j = joint(&w, "pivot", b->stop_on_ball ? "KneeJointR" : "PivotJointR", "link", NULL, o, b->stop_on_ball ? NULL : ay);
    double st[6] = { b->stop_axis1 ? 1 : 0, -PI / 4, 1, 0, PI / 2, -1 };
    if (b->stops_2cols) { double s2[2] = { 0, -PI / 4 }; attr_m(j, "stops", 1, 2, s2); }
    else attr_m(j, "stops", b->nslaws_count ? 2 : 1, 3, st);
    const char *nm = b->nslaws_unknown ? "bounce" : b->nslaws_relay ? "fr" : "stop";
    if (b->nslaws_count) { const char *three[3] = { "stop", "stop", "stop" }; attr_bytes(j, "nslaws", 3, three); }
    else attr_bytes(j, "nslaws", 0, &nm);
    H5Dclose(j);
    wclose(&w);
}

static void write_slider(const char *path, double beta, double F, double v0, const bad *b)
{
    wfile w = wopen(path);
    double a[3] = { cos(beta), 0, sin(beta) }, x[3] = { 0, 0, 0 }, v[6] = { v0 * a[0], 0, v0 * a[2], 0, 0, 0 };
    box_shape(&w, "Slider", 0.1, 0.06, 0.06);
    if (b->friction_neg) relay_law(&w, "friction", 0.5 * F * H_SLIDE, F * H_SLIDE, 1);
    else relay_law(&w, "friction", -F * H_SLIDE, F * H_SLIDE, b->relay_size2 ? 2 : 1);
    newton_law(&w, "newton", 0.0);
    box_body(&w, "slider", "Slider", 1, 1.0, 0.1, 0.06, 0.06, x, v);
    hid_t j = joint(&w, "rail", "PrismaticJointR", "slider", NULL, NULL, a);
    const char *fr = b->friction_unknown ? "grip" : b->friction_newton ? "newton" : "friction";
    attr_bytes(j, "friction", 1, &fr);
    H5Dclose(j);
    wclose(&w);
}

static const double NUT_I = 1.0 / 12 * (0.01 + 0.01);   /* I_zz of the 0.1 × 0.1 × 0.05 nut, 1 kg */

static void write_screw(const char *path, const bad *b)
{
    wfile w = wopen(path);
    double x[3] = { 0, 0, 0 }, az[3] = { 0, 0, 1 };
    box_shape(&w, "Nut", 0.1, 0.1, 0.05);
    box_body(&w, "nut", "Nut", 1, 1.0, 0.1, 0.1, 0.05, x, NULL);
    hid_t j = joint(&w, "screw", "CylindricalJointR", "nut", NULL, x, az);
    double c[3] = { 0, b->coupled_dof ? 2 : 1, RATIO_SCREW };
    if (b->coupled_2cols) attr_m(j, "coupled", 1, 2, c); else attr_m(j, "coupled", 1, 3, c);
    H5Dclose(j);
    wclose(&w);
}

static void write_gears(const char *path, const bad *b)
{
    wfile w = wopen(path);
    double x1[3] = { 0.2, 0, 0 }, x2[3] = { 1.0, 0, 0 }, x3[3] = { 2.0, 0, 0 }, p1[3] = { 0, 0, 0 }, p2[3] = { 1, 0, 0 }, ay[3] = { 0, 1, 0 };
    box_shape(&w, "Arm", 0.4, 0.04, 0.04);
    box_shape(&w, "Disk", 0.2, 0.04, 0.2);
    box_body(&w, "wheel1", "Arm", 1, 1.0, 0.4, 0.04, 0.04, x1, NULL);
    box_body(&w, "wheel2", "Disk", 2, 2.0, 0.2, 0.04, 0.2, x2, NULL);
    hid_t j = joint(&w, "j1", "PivotJointR", "wheel1", NULL, p1, ay);
    H5Dclose(j);
    if (b->coupler_third) {   /* wheel2 turns on a third body */
        box_body(&w, "base", "Disk", 3, 1.0, 0.2, 0.04, 0.2, x3, NULL);
        j = joint(&w, "j2", "PivotJointR", "wheel2", "base", p2, ay);
    } else j = joint(&w, "j2", "PivotJointR", "wheel2", NULL, p2, ay);
    H5Dclose(j);
    j = joint(&w, "zgear", "CouplerJointR", "wheel1", "wheel2", NULL, NULL);
    double c[3] = { 0, 0, RATIO_GEAR };
    attr_m(j, "coupled", 1, 3, c);
    const char *refs[2] = { "j1", b->coupler_unknown_ref ? "j9" : "j2" };
    if (!b->coupler_no_refs) attr_bytes(j, "references", 2, refs);
    H5Dclose(j);
    wclose(&w);
}

/* ---- running ---- */

static const char *scene_path(const char *name, char *buf, size_t len)
{
    if (dir) snprintf(buf, len, "%s/%s.hdf5", dir, name);
    else snprintf(buf, len, "test_scene_joints_%s.hdf5", name);
    return buf;
}

static nsm_scene_run *build(const char *path, nsm_scene **sc, double h, int projection)
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
    nsm_scene_run *r = nsm_scene_build(*sc, &o, G, err);
    if (!r) fail_msg("build: %s", err);
    return r;
}

static void step(nsm_scene_run *r, int k)
{
    if (nsm_scene_step(r) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(r->sim));
}

/* rotation angle of a body turned about one axis c (1 x, 2 y, 3 z) only,
 * quaternion (cos a/2, …, sin a/2, …), unwrapped from its previous value */
static double unwrap_angle(const double *q, int c, double prev)
{
    double half = atan2(q[3 + c], q[3]);   /* in (−π, π]: a in (−2π, 2π] */
    double a = 2.0 * half;
    while (a - prev > 2.0 * PI) a -= 4.0 * PI;
    while (a - prev < -2.0 * PI) a += 4.0 * PI;
    return a;
}
static double angle_y(const double *q) { return unwrap_angle(q, 2, 0.0); }

static void done(nsm_scene_run *r, nsm_scene *sc, const char *path)
{
    nsm_scene_run_free(r);
    nsm_scene_free(sc);
    if (!dir) remove(path);
}

static void test_pendulum_stop(void **state)
{
    (void)state;
    char path[512];
    bad b = { 0 };
    scene_path("pendulum_stop", path, sizeof path);
    if (!dir) write_pendulum_stop(path, &b);
    nsm_scene *sc;
    double h = 1e-4;
    nsm_scene_run *r = build(path, &sc, h, NSM_PROJECTION_NONE);
    /* the link turns by +a about y as it falls (joint angle −a); the stop keeps a <= π/4 */
    double amax = 0.0, wmax = 0.0, arebound = 10.0, w_before = 0.0, w_after = 0.0;
    int hit = 0;
    for (int k = 0; k < (int)(0.5 / h); k++) {
        double w0 = nsm_sim_v(r->sim, 0)[4];
        step(r, k);
        double a = angle_y(nsm_sim_q(r->sim, 0)), w = nsm_sim_v(r->sim, 0)[4];
        amax = fmax(amax, a);
        wmax = fmax(wmax, fabs(w));
        if (!hit && w < 0.0) { hit = 1; w_before = w0; w_after = w; }
        if (hit && w < 0.0) arebound = fmin(arebound, a);
    }
    /* energy: m g L/2 sin π/4 at the stop, e² of it after the impact */
    double exact = asin((1.0 - E_STOP * E_STOP) * sin(PI / 4));
    print_message("pendulum stop: max angle - pi/4 = %.3g (one step at |w| h = %.3g), rebound to %.9f (exact %.9f, %.2g), "
                  "w %.6f -> %.6f\n", amax - PI / 4, wmax * h, arebound, exact, arebound / exact - 1.0, w_before, w_after);
    assert_true(hit);
    assert_true(amax - PI / 4 <= wmax * h);
    assert_true(amax > PI / 4 - wmax * h);
    assert_true(fabs(w_after / w_before + E_STOP) <= 1e-3);
    assert_true(fabs(arebound / exact - 1.0) <= 1e-3);   /* first order in h: the impact falls within a step */
    done(r, sc, path);
}

static void slider(const char *name, double beta, double F, double v0)
{
    char path[512];
    bad b = { 0 };
    scene_path(name, path, sizeof path);
    if (!dir) write_slider(path, beta, F, v0, &b);
    nsm_scene *sc;
    nsm_scene_run *r = build(path, &sc, H_SLIDE, NSM_PROJECTION_NONE);
    double a[3] = { cos(beta), 0, sin(beta) }, m = 1.0, gs = G * sin(beta);
    int N = 800;
    double worst = 0.0, s = 0.0, vs = 0.0;
    for (int k = 1; k <= N; k++) {
        step(r, k);
        const double *q = nsm_sim_q(r->sim, 0), *v = nsm_sim_v(r->sim, 0);
        s = q[0] * a[0] + q[2] * a[2];
        vs = v[0] * a[0] + v[2] * a[2];
        double t = k * H_SLIDE, ve;
        if (v0 > 0) ve = fmax(v0 - F / m * t, 0.0);                 /* launched on a level rail */
        else ve = gs > F / m ? -(gs - F / m) * t : 0.0;            /* from rest on the incline */
        worst = fmax(worst, fabs(vs - ve));
    }
    double T = N * H_SLIDE, se;
    if (v0 > 0) se = m * v0 * v0 / (2 * F);
    else se = gs > F / m ? -0.5 * (gs - F / m) * T * T : 0.0;   /* θ = ½: the trapezoidal sum of v, exact */
    print_message("%s: max |v - exact| = %.3g, s(%.2f) = %.15g (exact %.15g)\n", name, worst, T, s, se);
    assert_true(worst <= 1e-10 * fmax(1.0, fabs(vs)));
    assert_true(fabs(s - se) <= 1e-10 * fmax(1.0, fabs(se)));
    done(r, sc, path);
}

static void test_slider_friction(void **state) { (void)state; slider("slider_friction", 0.0, F_SLIDE, 1.0); }
static void test_slider_stick(void **state) { (void)state; slider("slider_stick", 0.3, 4.0, 0.0); }
static void test_slider_slip(void **state) { (void)state; slider("slider_slip", 0.3, 1.0, 0.0); }

static void test_screw(void **state)
{
    (void)state;
    char path[512];
    bad b = { 0 };
    scene_path("screw", path, sizeof path);
    if (!dir) write_screw(path, &b);
    nsm_scene *sc;
    double h = 1e-4;
    nsm_scene_run *r = build(path, &sc, h, NSM_PROJECTION_NONE);
    double acc = G / (1.0 + RATIO_SCREW * RATIO_SCREW * NUT_I), worst = 0.0, phi = 0.0;
    int N = 10000;
    for (int k = 1; k <= N; k++) {
        step(r, k);
        const double *q = nsm_sim_q(r->sim, 0);
        /* the nut turns about z by φ; the joint's coordinates are those of
         * the ground relative to the nut: angle −φ, sliding −z */
        phi = unwrap_angle(q, 3, phi);
        double joint_angle = -phi, slide = -q[2];
        worst = fmax(worst, fabs(joint_angle - RATIO_SCREW * slide));
    }
    double z = nsm_sim_q(r->sim, 0)[2], T = N * h, ze = -0.5 * acc * T * T;
    print_message("screw: z(1) = %.12g (exact %.12g), max |angle - 20 travel| = %.3g\n", z, ze, worst);
    assert_true(fabs(z / ze - 1.0) <= 1e-5);
    assert_true(worst <= 1e-10);
    done(r, sc, path);
}

static void test_gears(void **state)
{
    (void)state;
    char path[512];
    bad b = { 0 };
    scene_path("gears", path, sizeof path);
    if (!dir) write_gears(path, &b);
    nsm_scene *sc;
    double h = 1e-3;
    nsm_scene_run *r = build(path, &sc, h, NSM_PROJECTION_NONE);
    assert_int_equal(r->nbodies, 2);
    double E0 = nsm_scene_energy(r), worst = 0.0, dE = 0.0, th1 = 0.0, th2 = 0.0, amax = 0.0;
    int N = 2000;
    for (int k = 1; k <= N; k++) {
        step(r, k);
        th1 = unwrap_angle(nsm_sim_q(r->sim, 0), 2, th1);   /* the joint angles are −θ: same ratio */
        th2 = unwrap_angle(nsm_sim_q(r->sim, 1), 2, th2);
        worst = fmax(worst, fabs(th2 - RATIO_GEAR * th1));
        amax = fmax(amax, fabs(th1));
        dE = fmax(dE, fabs(nsm_scene_energy(r) - E0));
    }
    /* the arm (1 kg, centre 0.2 from its pivot) carries the gravity torque */
    double mgl = 1.0 * G * 0.2;
    print_message("gears: max |theta2 - (%g) theta1| = %.3g (theta1 up to %.3f rad), max |E - E0| / (m g l) = %.3g\n",
                  RATIO_GEAR, worst, amax, dE / mgl);
    assert_true(amax > 1.0);
    assert_true(worst <= 1e-10);
    assert_true(dE <= 1e-10 * mgl);
    done(r, sc, path);
}

/* ---- malformed attributes ---- */

typedef void (*writer)(const char *, const bad *);
static void w_pend(const char *p, const bad *b) { write_pendulum_stop(p, b); }
static void w_slide(const char *p, const bad *b) { write_slider(p, 0.0, F_SLIDE, 1.0, b); }

static void expect_error(writer w, const bad *b, const char *w1, const char *w2)
{
    const char *path = "test_scene_joints_bad.hdf5";
    w(path, b);
    char err[NS_ERRMSG_LEN];
    nsm_scene *sc = nsm_scene_read_hdf5(path, err);
    if (sc) fail_msg("accepted a scene that should fail (%s, %s)", w1, w2);
    if (!strstr(err, w1) || !strstr(err, w2)) fail_msg("message \"%s\" does not name \"%s\" and \"%s\"", err, w1, w2);
    remove(path);
}

static void test_malformed(void **state)
{
    (void)state;
    if (dir) skip();
    bad b;
    memset(&b, 0, sizeof b); b.stops_2cols = 1; expect_error(w_pend, &b, "joint 'pivot'", "'stops' must be an n × 3 array");
    memset(&b, 0, sizeof b); b.stop_axis1 = 1; expect_error(w_pend, &b, "joint 'pivot'", "stops: axis 1 is unknown");
    memset(&b, 0, sizeof b); b.stop_on_ball = 1; expect_error(w_pend, &b, "joint 'pivot' (KneeJointR)", "stops: this joint has no free coordinate");
    memset(&b, 0, sizeof b); b.nslaws_unknown = 1; expect_error(w_pend, &b, "joint 'pivot'", "nslaws: law 'bounce' does not exist");
    memset(&b, 0, sizeof b); b.nslaws_relay = 1; expect_error(w_pend, &b, "joint 'pivot'", "law 'fr' is a RelayNSL");
    memset(&b, 0, sizeof b); b.nslaws_count = 1; expect_error(w_pend, &b, "joint 'pivot'", "'nslaws' names 3 laws for 2 stops");
    memset(&b, 0, sizeof b); b.friction_neg = 1; expect_error(w_slide, &b, "joint 'rail'", "friction on axis 0: bounds lb = 0.001");
    memset(&b, 0, sizeof b); b.friction_unknown = 1; expect_error(w_slide, &b, "joint 'rail'", "friction[0]: law 'grip' does not exist");
    memset(&b, 0, sizeof b); b.friction_newton = 1; expect_error(w_slide, &b, "joint 'rail'", "law 'newton' is not a RelayNSL");
    memset(&b, 0, sizeof b); b.relay_size2 = 1; expect_error(w_slide, &b, "law 'friction'", "'size' must be 1");
    memset(&b, 0, sizeof b); b.coupled_2cols = 1; expect_error(write_screw, &b, "joint 'screw'", "'coupled' must be an n × 3 array");
    memset(&b, 0, sizeof b); b.coupled_dof = 1; expect_error(write_screw, &b, "joint 'screw'", "coupled (dof2): axis 2 is unknown");
    memset(&b, 0, sizeof b); b.coupler_no_refs = 1; expect_error(write_gears, &b, "joint 'zgear' (CouplerJointR)", "'references'");
    memset(&b, 0, sizeof b); b.coupler_unknown_ref = 1; expect_error(write_gears, &b, "coupler 'zgear'", "joint 'j9' does not exist");
    memset(&b, 0, sizeof b); b.coupler_third = 1; expect_error(write_gears, &b, "coupler 'zgear'", "third dynamic body");
}

static void test_api_bad_input(void **state)
{
    (void)state;
    nsm_scene *sc = nsm_scene_new();
    double x[3] = { 0 }, I[3] = { 1, 1, 1 }, ay[3] = { 0, 1, 0 };
    assert_int_equal(nsm_scene_joint_stop(NULL, "j", 0, 0.1, 1, 0.5), NS_BAD_INPUT);
    assert_int_equal(nsm_scene_joint_stop(sc, "j", 0, 0.1, 1, 0.5), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "joint 'j' does not exist"));
    assert_int_equal(nsm_scene_body(sc, "b", 1.0, 3, I, x, NULL, NULL), NS_OK);
    assert_int_equal(nsm_scene_joint(sc, "j", "PivotJointR", "b", NULL, x, ay, 1), NS_OK);
    assert_int_equal(nsm_scene_joint_stop(sc, "j", 0, 0.1, 1, 1.5), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "restitution e = 1.5"));
    assert_int_equal(nsm_scene_joint_stop(sc, "j", 0, 4.0, 1, 0.5), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "angle 4 must be in (-pi, pi)"));
    assert_int_equal(nsm_scene_joint_friction(sc, "j", 0, -1.0, -0.5), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "lb <= 0 <= ub"));
    assert_int_equal(nsm_scene_joint_coupling(sc, "j", 0, 0, 2.0), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "dof1 and dof2 are both 0"));
    assert_int_equal(nsm_scene_coupler(sc, "c", "b", NULL, "j", 0, "j", 0, NAN), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "ratio"));
    assert_int_equal(nsm_scene_coupler(sc, "c", "nobody", NULL, "j", 0, "j", 0, 1.0), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_scene_error(sc), "object1 'nobody'"));
    assert_int_equal(nsm_scene_joint_stop(sc, "j", 0, 0.1, 1, 0.5), NS_OK);
    assert_int_equal(nsm_scene_joint_friction(sc, "j", 0, -0.1, 0.1), NS_OK);
    nsm_scene_free(sc);
}

int main(int argc, char **argv)
{
    if (argc > 1) dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pendulum_stop), cmocka_unit_test(test_slider_friction),
        cmocka_unit_test(test_slider_stick), cmocka_unit_test(test_slider_slip),
        cmocka_unit_test(test_screw), cmocka_unit_test(test_gears),
        cmocka_unit_test(test_malformed), cmocka_unit_test(test_api_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
