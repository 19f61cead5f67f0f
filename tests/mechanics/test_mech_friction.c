/* test_mech_friction.c — the Newton–Coulomb law through the whole
 * time-stepping path (FC2D and FC3D one-step problems), against the exact
 * answer of a point mass pushed along a plane with Coulomb friction:
 *
 *   mass m = 1 resting on z = 0, gravity g, horizontal push F (direction φ in
 *   3D), friction coefficient μ, restitution 0.
 *   |F| ≤ μ m g: it sticks — x stays 0, the friction impulse is −F h;
 *   |F| > μ m g: it slides along F with a = (|F| − μ m g)/m, so
 *   v(t) = a t and x(t) = a t²/2, the friction impulse is −μ m g h along F.
 *
 * Moreau–Jean with θ = ½ integrates constant forces exactly (the velocity is
 * affine in t, the trapezoidal position update exact), so the only error is
 * the one-step solver's: the bounds below are 1e-9 relative. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nsm.h"
#include "nonsmooth/ns_problem.h"

#define G 9.81
#define MU 0.5
#define H 1e-3
#define NSTEPS 400

/* Runs dim = 2 (q = (x, z)) or 3 (q = (x, y, z)) with push magnitude F and
 * direction phi; checks every step against the exact answer. */
static void push(int dim, double F, double phi)
{
    int n = dim;
    double M[9] = { 0 }, q0[3] = { 0 }, v0[3] = { 0 }, fext[3] = { 0 };
    for (int i = 0; i < n; i++) M[i + n * i] = 1.0;
    double dir[2] = { cos(phi), sin(phi) };   /* tangent direction of the push */
    if (dim == 2) { dir[0] = F < 0 ? -1 : 1; dir[1] = 0; fext[0] = F; fext[1] = -G; }
    else { fext[0] = F * dir[0]; fext[1] = F * dir[1]; fext[2] = -G; }
    nsm_model *m = nsm_model_new();
    assert_non_null(m);
    nsm_ds *ds = nsm_ds_lagrangian_lti_new(n, M, q0, v0);
    assert_non_null(ds);
    assert_int_equal(nsm_ds_set_fext_constant(ds, fext), NS_OK);
    int d = nsm_model_add_ds(m, ds);
    /* rows: normal (z), then the tangents (x, then y); column-major dim × n */
    double Hm[9] = { 0 };
    if (dim == 2) { Hm[0 + 2 * 1] = 1; Hm[1 + 2 * 0] = 1; }
    else { Hm[0 + 3 * 2] = 1; Hm[1 + 3 * 0] = 1; Hm[2 + 3 * 1] = 1; }
    int law = nsm_model_add_law(m, nsm_nslaw_newton_coulomb_new(dim, 0.0, MU));
    int it = nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(dim, n, Hm, NULL), law, d, -1);
    assert_true(it >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = H;
    o.solver_options.tol = 1e-12;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    double a = fabs(F) > MU * G ? fabs(F) - MU * G : 0.0;
    double worst_x = 0, worst_v = 0, worst_p = 0;
    for (int k = 1; k <= NSTEPS; k++) {
        ns_status st = nsm_sim_step(s);
        if (st != NS_OK) fail_msg("step %d: %s", k, ns_status_name(st));
        const ns_problem *P = nsm_sim_problem(s);
        assert_non_null(P);
        assert_int_equal(P->kind, dim == 2 ? NS_KIND_FC2D : NS_KIND_FC3D);
        double t = k * H;
        const double *q = nsm_sim_q(s, d), *v = nsm_sim_v(s, d);
        const double *p = nsm_sim_lambda(s, it, 1);
        double xe = 0.5 * a * t * t, ve = a * t;
        /* position and velocity along the push, none across it, z = 0 */
        double xs = dim == 2 ? q[0] * dir[0] : q[0] * dir[0] + q[1] * dir[1];
        double vs = dim == 2 ? v[0] * dir[0] : v[0] * dir[0] + v[1] * dir[1];
        double xc = dim == 2 ? 0 : -q[0] * dir[1] + q[1] * dir[0];
        worst_x = fmax(worst_x, fmax(fabs(xs - xe), fabs(xc)));
        worst_v = fmax(worst_v, fabs(vs - ve));
        assert_true(fabs(q[n - 1]) < 1e-12 && fabs(v[n - 1]) < 1e-12);
        /* impulses: normal m g h, friction −F h (stick) or −μ m g h (slide) */
        double pt_e = a > 0 ? -MU * G * H : -fabs(F) * H;
        double pts = dim == 2 ? p[1] * dir[0] : p[1] * dir[0] + p[2] * dir[1];
        worst_p = fmax(worst_p, fmax(fabs(p[0] - G * H), fabs(pts - pt_e)));
    }
    print_message("dim %d, F = %.3g (mu m g = %.3g): %s; max errors x %.2g, v %.2g, impulse %.2g\n",
                  dim, F, MU * G, a > 0 ? "slides" : "sticks", worst_x, worst_v, worst_p);
    double T = NSTEPS * H;
    assert_true(worst_x <= 1e-9 * fmax(0.5 * a * T * T, 1e-3));
    assert_true(worst_v <= 1e-9 * fmax(a * T, 1.0));
    assert_true(worst_p <= 1e-9 * G * H);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_fc2d_stick(void **state) { (void)state; push(2, 0.3 * G, 0); }
static void test_fc2d_slide(void **state) { (void)state; push(2, 0.8 * G, 0); }
static void test_fc2d_slide_backwards(void **state) { (void)state; push(2, -1.5 * G, 0); }
static void test_fc3d_stick(void **state) { (void)state; push(3, 0.45 * G, 0.7); }
static void test_fc3d_slide(void **state) { (void)state; push(3, 0.9 * G, 2.3); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fc2d_stick), cmocka_unit_test(test_fc2d_slide),
        cmocka_unit_test(test_fc2d_slide_backwards),
        cmocka_unit_test(test_fc3d_stick), cmocka_unit_test(test_fc3d_slide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
