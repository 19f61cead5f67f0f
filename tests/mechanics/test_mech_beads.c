/* test_mech_beads.c — acceptance 2: the beads example (cradle with e = 1
 * passes the momentum from the first bead to the last; with e < 1 the energy
 * decreases) and the assembled matrix of 3 beads against the one computed
 * by hand (Lagrangian: H W Hᵀ over the linked-interaction map). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ns_test.h"
#include "nonsmooth/nsm.h"

/* Runs beads with args; reads the last row's velocities (n of them) and the
 * energies: first, last, and whether it ever increased by more than tol. */
static void run(const char *args, int n, double *v, double *E0, double *E1,
                double tol, long *increases)
{
    char dir[512], cmd[1024], path[1024];
    ns_test_tmpname(dir, sizeof dir, "_beads");
    snprintf(cmd, sizeof cmd, "%s/beads --quiet %s --out %s", NS_BIN_DIR, args, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/trajectory.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char line[65536];
    assert_non_null(fgets(line, sizeof line, f));
    double prev = INFINITY;
    *increases = 0;
    long rows = 0;
    while (fgets(line, sizeof line, f)) {
        double vals[2 * 64 + 2];
        int k = 0;
        for (char *p = strtok(line, ","); p && k < 2 * n + 2; p = strtok(NULL, ",")) vals[k++] = atof(p);
        assert_int_equal(k, 2 * n + 2);
        for (int i = 0; i < n; i++) v[i] = vals[1 + n + i];
        double E = vals[2 * n + 1];
        if (rows == 0) *E0 = E;
        if (E > prev + tol) (*increases)++;
        prev = E;
        *E1 = E;
        rows++;
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/beads.svg", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    fclose(f);
}

static void test_cradle_elastic(void **state)
{
    (void)state;
    double v[5], E0, E1;
    long inc;
    run("--variant cradle --e 1", 5, v, &E0, &E1, 1e-12, &inc);
    print_message("cradle e = 1: final velocities %.6f %.6f %.6f %.6f %.6f, energy %.9g -> %.9g\n",
                  v[0], v[1], v[2], v[3], v[4], E0, E1);
    for (int i = 0; i < 4; i++) assert_true(fabs(v[i]) < 1e-9);
    assert_true(fabs(v[4] - 1.0) < 1e-9);
    assert_true(fabs(E1 - E0) < 1e-9);
}

static void test_dissipation(void **state)
{
    (void)state;
    double v[10], E0, E1;
    long inc;
    run("--variant cradle --e 0.5", 5, v, &E0, &E1, 1e-12, &inc);
    print_message("cradle e = 0.5: energy %.6g -> %.6g\n", E0, E1);
    assert_true(E1 < 0.5 * E0);
    assert_int_equal(inc, 0);
    double sum = 0;  /* momentum conserved (no external force) */
    for (int i = 0; i < 5; i++) sum += v[i];
    assert_true(fabs(sum - 1.0) < 1e-9);
    /* Column under gravity (E0 ≈ 191 J): every row's impulse does the work
     * ½ (1 − e_row) U_k P ≤ 0 at θ = ½ (restitution 1 for rows that already
     * separate), so no step may gain more than the 12 printed digits. */
    run("--variant column --e 0.8", 10, v, &E0, &E1, 1e-11 * 200, &inc);
    print_message("column e = 0.8: energy %.6g -> %.6g, %ld increases above 2e-9 J\n", E0, E1, inc);
    assert_true(E1 < E0);
    assert_int_equal(inc, 0);
    for (int i = 0; i < 10; i++) assert_true(fabs(v[i]) < 1e-6);   /* settled */
}

/* Three beads of masses 1, 2, 4 (W = M⁻¹ = diag(1, 1/2, 1/4), no stiffness),
 * touching the floor and each other. Interactions: floor y = q0 − R (H = (1)),
 * I1 y = q1 − q0 − 2R (H = (−1 1)), I2 y = q2 − q1 − 2R (H = (−1 1)).
 * By hand, W_osnsp = Σ H W Hᵀ:
 *   floor,floor = 1           floor,I1 = 1·1·(−1) = −1     floor,I2: no common bead
 *   I1,I1 = 1 + 1/2 = 1.5     I1,I2 = (1)(1/2)(−1) = −0.5
 *   I2,I2 = 1/2 + 1/4 = 0.75 */
static void test_three_beads_matrix(void **state)
{
    (void)state;
    const double R = 0.125, g = 9.81;   /* exact in binary: gaps exactly 0 */
    nsm_model *m = nsm_model_new();
    double masses[3] = { 1, 2, 4 };
    for (int i = 0; i < 3; i++) {
        double M[1] = { masses[i] }, q0[1] = { R + 2 * R * i }, v0[1] = { 0 }, f[1] = { -masses[i] * g };
        nsm_ds *ds = nsm_ds_lagrangian_lti_new(1, M, q0, v0);
        nsm_ds_set_fext_constant(ds, f);
        assert_int_equal(nsm_model_add_ds(m, ds), i);
    }
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.5));
    double Hf[1] = { 1 }, bf[1] = { -R }, H[2] = { -1, 1 }, b[1] = { -2 * R };
    int fl = nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, Hf, bf), law, 0, -1);
    int i1 = nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 2, H, b), law, 0, 1);
    int i2 = nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 2, H, b), law, 1, 2);
    assert_true(fl >= 0 && i1 >= 0 && i2 >= 0);
    int linked[4], common[4];
    assert_int_equal(nsm_model_linked(m, i1, linked, common, 4), 2);   /* inner bead 0 and 1 */
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    char err[NS_ERRMSG_LEN];
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    assert_int_equal(nsm_sim_compute_free_state(s), NS_OK);
    assert_int_equal(nsm_sim_solve(s), NS_OK);
    const ns_problem *p = nsm_sim_problem(s);
    assert_non_null(p);
    assert_int_equal(p->kind, NS_KIND_LCP);
    const ns_matrix *W = p->u.lcp->M;
    assert_int_equal(W->storage, NS_BLOCK);
    assert_int_equal(W->block.nblocks, 7);   /* (floor, I2) and (I2, floor) not stored */
    assert_null(ns_matrix_block_get(W, 0, 2));
    const double expect[3][3] = { { 1, -1, 0 }, { -1, 1.5, -0.5 }, { 0, -0.5, 0.75 } };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            assert_true(fabs(ns_matrix_get(W, i, j) - expect[i][j]) < 1e-14);
    /* the stack at rest stays at rest: impulses carry the weights */
    assert_int_equal(nsm_sim_update(s), NS_OK);
    nsm_sim_next_step(s);
    for (int k = 0; k < 100; k++) assert_int_equal(nsm_sim_step(s), NS_OK);
    const double *Pf = nsm_sim_lambda(s, fl, 1);
    assert_true(fabs(Pf[0] / o.h - 7 * g) < 1e-6);
    assert_true(fabs(nsm_sim_lambda(s, i2, 1)[0] / o.h - 4 * g) < 1e-6);
    assert_true(fabs(nsm_sim_q(s, 2)[0] - 5 * R) < 1e-6);
    int ids[8];
    assert_int_equal(nsm_sim_index_set(s, 0, ids, 8), 3);
    assert_int_equal(nsm_sim_index_set(s, 1, ids, 8), 3);
    nsm_sim_free(s);
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_beads_matrix),
        cmocka_unit_test(test_cradle_elastic),
        cmocka_unit_test(test_dissipation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
