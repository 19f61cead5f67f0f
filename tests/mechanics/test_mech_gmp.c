/* test_mech_gmp.c — the generic mechanical problem as the one-step
 * problem (issue 12 item 6, option gmp = 1) gives the trajectory of the
 * dedicated kinds it generalises:
 *  - the bouncing ball (one Newton row): GMP vs LCP;
 *  - a pendulum on a rod (equality row, scleronomous) swinging into a
 *    floor y ≥ −0.6 (Newton row, e = 0.5): GMP vs MLCP (equality rows
 *    first), both 3000 steps of h = 1e-3, solver tolerance 1e-12; q, v and
 *    the impulses agree to 1e-9 relative, and the GMP run's problems are
 *    GMPs with one block per active interaction. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nsm.h"

#define G 9.81

static int rod_h(double t, int nq, const double *Q, int m, double *out, void *u)
{ (void)t; (void)nq; (void)m; (void)u; out[0] = sqrt(Q[0] * Q[0] + Q[1] * Q[1]) - 1.0; return 0; }
static int rod_jac(double t, int nq, const double *Q, int m, double *H, void *u)
{ (void)t; (void)m; (void)u; double l = sqrt(Q[0] * Q[0] + Q[1] * Q[1]); for (int i = 0; i < nq; i++) H[i] = Q[i] / l; return 0; }

typedef struct run { nsm_model *m; nsm_sim *s; int d, nint, in[2]; } run;

static run make(int pendulum, int gmp)
{
    run r = { 0 };
    r.m = nsm_model_new();
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.gmp = gmp;
    o.solver_options.tol = 1e-12;
    if (!pendulum) {
        double M[1] = { 1 }, q0[1] = { 1 }, v0[1] = { 0 }, f[1] = { -G }, H[1] = { 1 }, b[1] = { -0.1 };
        nsm_ds *ds = nsm_ds_lagrangian_lti_new(1, M, q0, v0);
        nsm_ds_set_fext_constant(ds, f);
        r.d = nsm_model_add_ds(r.m, ds);
        int law = nsm_model_add_law(r.m, nsm_nslaw_newton_new(1, 0.9));
        r.in[0] = nsm_model_add_interaction(r.m, nsm_relation_lagrangian_linear_new(1, 1, H, b), law, r.d, -1);
        r.nint = 1;
        o.h = 0.005;
    } else {
        double M[4] = { 1, 0, 0, 1 }, q0[2] = { 1, 0 }, v0[2] = { 0, 0 }, f[2] = { 0, -G }, H[2] = { 0, 1 }, b[1] = { 0.6 };
        nsm_ds *ds = nsm_ds_lagrangian_lti_new(2, M, q0, v0);
        nsm_ds_set_fext_constant(ds, f);
        r.d = nsm_model_add_ds(r.m, ds);
        int leq = nsm_model_add_law(r.m, nsm_nslaw_equality_new(1));
        int lfl = nsm_model_add_law(r.m, nsm_nslaw_newton_new(1, 0.5));
        r.in[0] = nsm_model_add_interaction(r.m, nsm_relation_scleronomous_new(1, 2, rod_h, rod_jac, NULL), leq, r.d, -1);
        r.in[1] = nsm_model_add_interaction(r.m, nsm_relation_lagrangian_linear_new(1, 2, H, b), lfl, r.d, -1);
        r.nint = 2;
        o.h = 1e-3;
    }
    char err[NS_ERRMSG_LEN] = "";
    r.s = nsm_sim_new(r.m, &o, err);
    if (!r.s) fail_msg("nsm_sim_new: %s", err);
    return r;
}

static void compare(int pendulum, int steps)
{
    run a = make(pendulum, 0), b = make(pendulum, 1);
    int n = pendulum ? 2 : 1;
    double dmax = 0, smax = 0;
    long gmps = 0, floor_steps = 0;
    for (int k = 0; k < steps; k++) {
        assert_int_equal(nsm_sim_step(a.s), NS_OK);
        if (nsm_sim_step(b.s) != NS_OK) fail_msg("gmp step %d: %s", k, nsm_sim_error(b.s));
        const ns_problem *p = nsm_sim_problem(b.s);
        if (p && nsm_sim_index_set(b.s, 1, NULL, 0) > 0) {
            assert_int_equal(p->kind, NS_KIND_GMP);
            assert_int_equal(p->u.gmp->nblocks, nsm_sim_index_set(b.s, 1, NULL, 0));
            gmps++;
        }
        const double *qa = nsm_sim_q(a.s, a.d), *qb = nsm_sim_q(b.s, b.d), *va = nsm_sim_v(a.s, a.d), *vb = nsm_sim_v(b.s, b.d);
        for (int i = 0; i < n; i++) {
            dmax = fmax(dmax, fmax(fabs(qa[i] - qb[i]), fabs(va[i] - vb[i])));
            smax = fmax(smax, fmax(fabs(qa[i]), fabs(va[i])));
        }
        for (int t = 0; t < a.nint; t++) {
            double la = nsm_sim_lambda(a.s, a.in[t], 1)[0], lb = nsm_sim_lambda(b.s, b.in[t], 1)[0];
            dmax = fmax(dmax, fabs(la - lb));
            smax = fmax(smax, fabs(la));
            if (t == 1 && la > 0) floor_steps++;
        }
    }
    print_message("%s: GMP vs %s, %ld GMP solves, largest difference %.3g (relative %.3g)\n",
                  pendulum ? "pendulum + floor" : "bouncing ball", pendulum ? "MLCP" : "LCP", gmps, dmax, dmax / smax);
    assert_true(gmps > 10);
    if (pendulum) assert_true(floor_steps > 0);   /* it does hit the floor */
    assert_true(dmax <= 1e-9 * smax);
    for (int k = 0; k < 2; k++) { run *r = k ? &b : &a; nsm_sim_free(r->s); nsm_model_free(r->m); }
}

static void test_ball(void **state) { (void)state; compare(0, 2000); }
static void test_pendulum_floor(void **state) { (void)state; compare(1, 3000); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ball),
        cmocka_unit_test(test_pendulum_floor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
