/* test_mech_gmp.c — the generic mechanical problem as the one-step
 * problem gives the trajectory of the
 * dedicated kinds it generalises:
 *  - the bouncing ball (one Newton row): GMP vs LCP;
 *  - a pendulum on a rod (equality row, scleronomous) swinging into a
 *    floor y ≥ −0.6 (Newton row, e = 0.5): GMP vs MLCP (equality rows
 *    first), both 3000 steps of h = 1e-3, solver tolerance 1e-12; q, v and
 *    the impulses agree to 1e-9 relative, and the GMP run's problems are
 *    GMPs with one block per active interaction;
 *  - a first-order system mixing an equality and a relay row (no single
 *    kind holds both: a GMP each step without the option): ẋ = b + r,
 *    b = (1, 0.3), x0 = (1, 1), equality x_0 − x_1 = 0 (r = (1, −1) λ_e),
 *    relay on y = x_0 + x_1 with λ_r ∈ [−5, 5] (r = (1, 1) λ_r). Exact
 *    solution: λ_e = −0.35; λ_r = −5 until y reaches 0 at t* = 2/8.7, then
 *    sliding, λ_r = −0.65, x = 0. Its problems dumped with dump_dir are GMP
 *    files (relay bounds included) that nsolve reads and solves at 1e-8. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nsm.h"
#include "ns_test.h"

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

/* nsolve DIR/FILE at tol 1e-8: asserts a converged GMP with the expected
 * blocks, returns its error. */
static double nsolve_gmp(const char *path, int *eq, int *relay)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/nsolve --json --tol 1e-8 %s", NS_BIN_DIR, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    static char out[8192];
    size_t k = fread(out, 1, sizeof out - 1, p);
    out[k] = 0;
    int rc = pclose(p);
    if (rc != 0) fail_msg("nsolve %s: exit %d: %s", path, rc, out);
    assert_non_null(strstr(out, "\"kind\": \"gmp\""));
    if (!strstr(out, "\"status\": \"converged\"")) fail_msg("%s: %s", path, out);
    char *e = strstr(out, "\"equality\": "), *r = strstr(out, "\"relay\": "), *er = strstr(out, "\"error\": ");
    assert_true(e && r && er);
    *eq = atoi(e + 12);
    *relay = atoi(r + 9);
    return atof(er + 9);
}

static int drift(double t, int n, double *out, void *u)
{ (void)t; (void)n; (void)u; out[0] = 1.0; out[1] = 0.3; return 0; }

static void test_relay_equality_dumps(void **state)
{
    (void)state;
    char dir[512], cmd[1024];
    ns_test_tmpname(dir, sizeof dir, "_gmp_relay");
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    assert_int_equal(system(cmd), 0);
    double A[4] = { 0 }, x0[2] = { 1, 1 };
    double Ce[2] = { 1, -1 }, Be[2] = { 1, -1 }, Cr[2] = { 1, 1 }, Br[2] = { 1, 1 }, lb = -5, ub = 5;
    nsm_model *m = nsm_model_new();
    nsm_ds *ds = nsm_ds_first_order_lti_new(2, A, drift, NULL, x0);
    assert_non_null(ds);
    int d = nsm_model_add_ds(m, ds);
    int leq = nsm_model_add_law(m, nsm_nslaw_equality_new(1));
    int lre = nsm_model_add_law(m, nsm_nslaw_relay_new(1, &lb, &ub));
    int ie = nsm_model_add_interaction(m, nsm_relation_first_order_linear_new(1, 2, Ce, NULL, Be, NULL), leq, d, -1);
    int ir = nsm_model_add_interaction(m, nsm_relation_first_order_linear_new(1, 2, Cr, NULL, Br, NULL), lre, d, -1);
    if (ie < 0 || ir < 0) fail_msg("%s", nsm_model_error(m));
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    o.solver_options.tol = 1e-12;
    o.dump_dir = dir;
    o.dump_every = 50;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    double worst_x = 0, worst_l = 0;
    for (int k = 0; k < 500; k++) {
        if (nsm_sim_step(s) != NS_OK) fail_msg("step %d: %s", k, nsm_sim_error(s));
        const ns_problem *p = nsm_sim_problem(s);
        assert_non_null(p);
        assert_int_equal(p->kind, NS_KIND_GMP);
        double t = nsm_sim_time(s);
        const double *x = nsm_sim_x(s, d);
        double le = nsm_sim_lambda(s, ie, 0)[0], lr = nsm_sim_lambda(s, ir, 0)[0];
        assert_true(fabs(x[0] - x[1]) <= 1e-10);
        worst_l = fmax(worst_l, fabs(le + 0.35));
        if (t < 2 / 8.7 - 2e-3) worst_l = fmax(worst_l, fabs(lr + 5));
        if (t > 2 / 8.7 + 2e-3) {
            worst_l = fmax(worst_l, fabs(lr + 0.65));
            worst_x = fmax(worst_x, fmax(fabs(x[0]), fabs(x[1])));
        }
    }
    print_message("equality + relay (first order): |lambda - exact| <= %.3g, |x| after sliding starts <= %.3g\n", worst_l, worst_x);
    assert_true(worst_l <= 1e-9);
    assert_true(worst_x <= 1e-9);
    nsm_sim_free(s);
    nsm_model_free(m);
    DIR *D = opendir(dir);
    assert_non_null(D);
    struct dirent *e;
    long files = 0;
    double worst = 0;
    while ((e = readdir(D))) {
        if (!strstr(e->d_name, ".dat")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int eq, relay;
        worst = fmax(worst, nsolve_gmp(path, &eq, &relay));
        assert_int_equal(eq, 1);
        assert_int_equal(relay, 1);
        files++;
    }
    closedir(D);
    print_message("%ld dumped GMP files (equality + relay) solved by nsolve, worst error %.3g\n", files, worst);
    assert_int_equal(files, 10);
    assert_true(worst <= 1e-8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ball),
        cmocka_unit_test(test_pendulum_floor),
        cmocka_unit_test(test_relay_equality_dumps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
