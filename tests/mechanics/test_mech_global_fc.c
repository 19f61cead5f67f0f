/* test_mech_global_fc.c — the global formulation of friction contact
 *: the step's problem is a GFC
 * (M = iteration matrices, H, q, b, μ; W = H M⁻¹ Hᵀ never formed) and
 * must give the trajectory of the local FC formulation.
 *
 * Two point masses in 3D (q = (x, y, z)): A (m = 1) rests on the ground
 * z = 0, B (m = 2) on A (contact A–B at z_B − z_A = 0), gravity, a
 * horizontal push on B large enough to make B slide on A while A sticks
 * (μ_ground = 0.8, μ_AB = 0.3, push 9 N > 0.3·2g = 5.9 N, and the ground
 * holds 0.3·2g < 0.8·3g); restitution 0.5. A is shared by both contacts
 * (linked interactions). Both runs: 300 steps of h = 1e-3, solver
 * tolerance 1e-12; q, v and the impulses must agree to 1e-9 (relative to
 * their largest value), B must slide with a = (9 − 0.3·2g)/2 (exact with
 * θ = ½) and A must not move. A 2D variant (FC2D → GFC2D) likewise.
 * A variant with both systems sparse LTI (their CSC iteration matrices
 * make the GFC's M) gives the same trajectory. The global run dumps every 20th problem (dump_dir): GFC files that nsolve
 * reads and solves at 1e-8 (its own residual). */
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

typedef struct run { nsm_model *m; nsm_sim *s; int a, b, ig, iab; } run;

/* sparse: the systems are sparse LTI ones (their CSC W⁻¹ goes into the
 * GFC's M as it is) */
static nsm_ds *point(int n, const double *M, const double *z0, int sparse)
{
    if (!sparse) return nsm_ds_lagrangian_lti_new(n, M, z0, z0);
    ns_matrix *D = ns_matrix_dense_new(n, n);
    assert_non_null(D);
    memcpy(D->dense, M, (size_t)n * n * sizeof(double));
    nsm_ds *ds = nsm_ds_lagrangian_lti_sparse_new(n, D, NULL, NULL, z0, z0);
    ns_matrix_free(D);
    return ds;
}

static run make(int dim, int global, const char *dump)
{
    int sparse = global == 2;
    run r;
    int n = dim;
    double MA[9] = { 0 }, MB[9] = { 0 }, z0[3] = { 0 }, fA[3] = { 0 }, fB[3] = { 0 };
    for (int i = 0; i < n; i++) { MA[i + n * i] = 1; MB[i + n * i] = 2; }
    fA[n - 1] = -G; fB[n - 1] = -2 * G; fB[0] = 9.0;
    r.m = nsm_model_new();
    nsm_ds *A = point(n, MA, z0, sparse), *B = point(n, MB, z0, sparse);
    assert_true(A && B);
    nsm_ds_set_fext_constant(A, fA);
    nsm_ds_set_fext_constant(B, fB);
    r.a = nsm_model_add_ds(r.m, A);
    r.b = nsm_model_add_ds(r.m, B);
    /* rows: normal (z), tangents (x, y) */
    double Hg[9] = { 0 }, Hab[18] = { 0 };
    Hg[0 + dim * (n - 1)] = 1; Hg[1 + dim * 0] = 1;
    if (dim == 3) Hg[2 + dim * 1] = 1;
    /* A–B: y = z_B − z_A, tangents x_B − x_A, y_B − y_A; Q = (q_A, q_B) */
    Hab[0 + dim * (n - 1)] = -1; Hab[0 + dim * (n + n - 1)] = 1;
    Hab[1 + dim * 0] = -1; Hab[1 + dim * n] = 1;
    if (dim == 3) { Hab[2 + dim * 1] = -1; Hab[2 + dim * (n + 1)] = 1; }
    int lg = nsm_model_add_law(r.m, nsm_nslaw_newton_coulomb_new(dim, 0.5, 0.8));
    int lab = nsm_model_add_law(r.m, nsm_nslaw_newton_coulomb_new(dim, 0.5, 0.3));
    r.ig = nsm_model_add_interaction(r.m, nsm_relation_lagrangian_linear_new(dim, n, Hg, NULL), lg, r.a, -1);
    r.iab = nsm_model_add_interaction(r.m, nsm_relation_lagrangian_linear_new(dim, 2 * n, Hab, NULL), lab, r.a, r.b);
    assert_true(r.ig >= 0 && r.iab >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    o.global_fc = global != 0;
    o.dump_dir = dump;
    o.dump_every = 20;
    o.solver_options.tol = 1e-12;
    char err[NS_ERRMSG_LEN] = "";
    r.s = nsm_sim_new(r.m, &o, err);
    if (!r.s) fail_msg("nsm_sim_new: %s", err);
    return r;
}

static void compare(int dim, int global)
{
    char dir[512], cmd[2048];
    ns_test_tmpname(dir, sizeof dir, dim == 2 ? "_gfc2" : "_gfc3");
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    assert_int_equal(system(cmd), 0);
    run L = make(dim, 0, NULL), Gl = make(dim, global, dir);
    double dmax = 0, smax = 0;
    for (int k = 0; k < 300; k++) {
        assert_int_equal(nsm_sim_step(L.s), NS_OK);
        if (nsm_sim_step(Gl.s) != NS_OK) fail_msg("global step %d: %s", k, nsm_sim_error(Gl.s));
        if (k == 10) {
            const ns_problem *p = nsm_sim_problem(Gl.s);
            assert_non_null(p);
            assert_int_equal(p->kind, dim == 2 ? NS_KIND_GFC2D : NS_KIND_GFC3D);
            assert_int_equal(p->u.gfc->M->storage, NS_SPARSE);
        }
        for (int j = 0; j < 2; j++) {
            const double *qa = nsm_sim_q(L.s, j), *qb = nsm_sim_q(Gl.s, j), *va = nsm_sim_v(L.s, j), *vb = nsm_sim_v(Gl.s, j);
            for (int i = 0; i < dim; i++) {
                dmax = fmax(dmax, fmax(fabs(qa[i] - qb[i]), fabs(va[i] - vb[i])));
                smax = fmax(smax, fmax(fabs(qa[i]), fabs(va[i])));
            }
        }
        for (int t = 0; t < 2; t++) {
            const double *la = nsm_sim_lambda(L.s, t ? L.iab : L.ig, 1), *lb = nsm_sim_lambda(Gl.s, t ? Gl.iab : Gl.ig, 1);
            for (int i = 0; i < dim; i++) { dmax = fmax(dmax, fabs(la[i] - lb[i])); smax = fmax(smax, fabs(la[i])); }
        }
    }
    double T = 300 * 1e-3, acc = (9.0 - 0.3 * 2 * G) / 2.0;
    double xb = nsm_sim_q(Gl.s, Gl.b)[0], xa = nsm_sim_q(Gl.s, Gl.a)[0];
    print_message("dim %d%s: global vs local largest difference %.3g (relative %.3g); x_B = %.12g (exact %.12g), x_A = %.3g\n",
                  dim, global == 2 ? " (sparse systems)" : "", dmax, dmax / smax, xb, 0.5 * acc * T * T, xa);
    assert_true(dmax <= 1e-9 * smax);
    assert_true(fabs(xb - 0.5 * acc * T * T) <= 1e-9);
    assert_true(fabs(xa) <= 1e-12);
    for (int k = 0; k < 2; k++) { run *r = k ? &Gl : &L; nsm_sim_free(r->s); nsm_model_free(r->m); }
    /* the dumped problems: GFC files nsolve reads and solves */
    DIR *D = opendir(dir);
    assert_non_null(D);
    struct dirent *e;
    long files = 0;
    double worst = 0;
    while ((e = readdir(D))) {
        if (!strstr(e->d_name, ".dat")) continue;
        snprintf(cmd, sizeof cmd, "%s/nsolve --json --tol 1e-8 %s/%s", NS_BIN_DIR, dir, e->d_name);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        static char out[8192];
        size_t k = fread(out, 1, sizeof out - 1, p);
        out[k] = 0;
        int rc = pclose(p);
        if (rc != 0) fail_msg("%s: exit %d: %s", cmd, rc, out);
        assert_non_null(strstr(out, dim == 2 ? "\"kind\": \"gfc2d\"" : "\"kind\": \"gfc3d\""));
        assert_non_null(strstr(out, "\"status\": \"converged\""));
        const char *er = strstr(out, "\"error\": ");
        assert_non_null(er);
        worst = fmax(worst, atof(er + 9));
        files++;
    }
    closedir(D);
    print_message("dim %d: %ld dumped GFC files solved by nsolve, worst error %.3g\n", dim, files, worst);
    assert_int_equal(files, 15);
    assert_true(worst <= 1e-8);
}

static void test_global_3d(void **state) { (void)state; compare(3, 1); }
static void test_global_2d(void **state) { (void)state; compare(2, 1); }
static void test_global_sparse(void **state) { (void)state; compare(3, 2); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_3d),
        cmocka_unit_test(test_global_2d),
        cmocka_unit_test(test_global_sparse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
