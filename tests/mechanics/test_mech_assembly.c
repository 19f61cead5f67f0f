/* test_mech_assembly.c — the worked example of docs/mechanics.md (seeds 002,
 * §2.1.2): 3 first-order systems, I_μ couples DS1, DS3 (m = 3), I_θ couples
 * DS2, DS3 (m = 1); the linked-interaction map is I_μ ↔ I_θ through DS3 and
 * the one-step matrix D + h C W B is 4×4, computed here by hand; with the
 * option theta_output (laws on y_{k+θ}) it is D + hθ C W B, q = C x_{k+θ} + e.
 * Also: the linked map after removing/adding interactions, and bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nsm.h"
#include "nonsmooth/ns_problem.h"
#include "nonsmooth/ns_matrix.h"

/* Systems: ẋ = A x, h = 1, θ = 1/2, so W = (I − A/2)⁻¹:
 *   A1 = diag(−2, −2) → W1 = diag(1/2, 1/2)
 *   A2 = (−6)         → W2 = (1/4)
 *   A3 = diag(−2, −6) → W3 = diag(1/2, 1/4)
 * I_μ: C = [C¹ | C³], C¹ = [1 0; 0 1; 1 1], C³ = [1 0; 0 0; 0 1],
 *      B = Cᵀ, D = I₃, e = (1, 1, 1)
 * I_θ: C = [C² | C³], C² = (2), C³ = (1 1), B = Cᵀ, D = (1), e = (1)
 * By hand:
 *   C¹W1C¹ᵀ = ½[1 0 1; 0 1 1; 1 1 2],  C³W3C³ᵀ = [½ 0 0; 0 0 0; 0 0 ¼]
 *   block μμ = I + both = [2 0 ½; 0 1.5 ½; ½ ½ 2.25]
 *   block θθ = 1 + 2·¼·2 + (½ + ¼) = 2.75
 *   block μθ = C³_μ W3 B³_θ = C³_μ (½, ¼)ᵀ = (½, 0, ¼)ᵀ, block θμ its transpose. */
static const double expected[4][4] = {
    { 2.0, 0.0, 0.5, 0.5 },
    { 0.0, 1.5, 0.5, 0.0 },
    { 0.5, 0.5, 2.25, 0.25 },
    { 0.5, 0.0, 0.25, 2.75 },
};

static nsm_model *worked_example(int *imu, int *ith)
{
    nsm_model *m = nsm_model_new();
    double A1[4] = { -2, 0, 0, -2 }, A2[1] = { -6 }, A3[4] = { -2, 0, 0, -6 };
    double x0[2] = { 0, 0 };
    int d1 = nsm_model_add_ds(m, nsm_ds_first_order_lti_new(2, A1, NULL, NULL, x0));
    int d2 = nsm_model_add_ds(m, nsm_ds_first_order_lti_new(1, A2, NULL, NULL, x0));
    int d3 = nsm_model_add_ds(m, nsm_ds_first_order_lti_new(2, A3, NULL, NULL, x0));
    assert_int_equal(d1, 0); assert_int_equal(d2, 1); assert_int_equal(d3, 2);
    /* C_μ 3×4 column-major: columns x1_0, x1_1, x3_0, x3_1 */
    double Cmu[12] = { 1, 0, 1,   0, 1, 1,   1, 0, 0,   0, 0, 1 };
    double Bmu[12];
    for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) Bmu[j + 4 * i] = Cmu[i + 3 * j];
    double Dmu[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, emu[3] = { 1, 1, 1 };
    double Cth[3] = { 2, 1, 1 }, Bth[3] = { 2, 1, 1 }, Dth[1] = { 1 }, eth[1] = { 1 };
    int lmu = nsm_model_add_law(m, nsm_nslaw_complementarity_new(3));
    int lth = nsm_model_add_law(m, nsm_nslaw_complementarity_new(1));
    *imu = nsm_model_add_interaction(m, nsm_relation_first_order_linear_new(3, 4, Cmu, Dmu, Bmu, emu), lmu, d1, d3);
    *ith = nsm_model_add_interaction(m, nsm_relation_first_order_linear_new(1, 3, Cth, Dth, Bth, eth), lth, d2, d3);
    assert_true(*imu >= 0);
    assert_true(*ith >= 0);
    return m;
}

static void test_worked_example_matrix(void **state)
{
    (void)state;
    int imu, ith;
    nsm_model *m = worked_example(&imu, &ith);
    int linked[4], common[4];
    assert_int_equal(nsm_model_linked(m, imu, linked, common, 4), 1);
    assert_int_equal(linked[0], ith);
    assert_int_equal(common[0], 2);
    assert_int_equal(nsm_model_linked(m, ith, linked, common, 4), 1);
    assert_int_equal(linked[0], imu);

    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1.0;
    o.theta = 0.5;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    assert_int_equal(nsm_sim_compute_free_state(s), NS_OK);
    assert_int_equal(nsm_sim_solve(s), NS_OK);
    const ns_problem *p = nsm_sim_problem(s);
    assert_non_null(p);
    assert_int_equal(p->kind, NS_KIND_LCP);
    const ns_matrix *M = p->u.lcp->M;
    assert_int_equal(M->storage, NS_BLOCK);
    assert_int_equal(M->rows, 4);
    assert_int_equal(M->block.block_rows, 2);
    assert_int_equal(M->block.nblocks, 4);
    assert_int_equal(M->block.row_start[1], 3);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            assert_true(fabs(ns_matrix_get(M, i, j) - expected[i][j]) < 1e-14);
    /* q = C x_free + e = e (x = 0); the LCP solution is λ = 0 */
    for (int i = 0; i < 4; i++) assert_true(fabs(p->u.lcp->q[i] - 1.0) < 1e-14);
    assert_int_equal(nsm_sim_update(s), NS_OK);
    nsm_sim_next_step(s);
    /* theta_output: D + hθ C W B, i.e. the C W B part (expected − D) halved */
    {
        nsm_model *m2 = worked_example(&imu, &ith);
        nsm_sim_options o2 = o;
        o2.theta_output = 1;
        nsm_sim *s2 = nsm_sim_new(m2, &o2, err);
        assert_non_null(s2);
        assert_int_equal(nsm_sim_compute_free_state(s2), NS_OK);
        assert_int_equal(nsm_sim_solve(s2), NS_OK);
        const ns_matrix *M2 = nsm_sim_problem(s2)->u.lcp->M;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                double Dij = i == j ? 1.0 : 0.0;   /* D_μ = I₃, D_θ = 1 */
                assert_true(fabs(ns_matrix_get(M2, i, j) - (Dij + 0.5 * (expected[i][j] - Dij))) < 1e-14);
            }
        nsm_sim_free(s2);
        nsm_model_free(m2);
    }
    /* second step: same structure, same values → reused */
    assert_int_equal(nsm_sim_step(s), NS_OK);
    assert_int_equal(nsm_sim_get_stats(s)->rebuilds, 1);
    assert_int_equal(nsm_sim_get_stats(s)->reuses, 1);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_linked_map_changes(void **state)
{
    (void)state;
    int imu, ith;
    nsm_model *m = worked_example(&imu, &ith);
    unsigned g = nsm_model_inter_generation(m, ith);
    assert_int_equal(nsm_model_remove_interaction(m, ith), NS_OK);
    assert_int_equal(nsm_model_linked(m, imu, NULL, NULL, 0), 0);
    assert_int_equal(nsm_model_ninter(m), 1);
    assert_int_not_equal(nsm_model_remove_interaction(m, ith), NS_OK);
    /* a new interaction coupling DS1 and DS2 reuses the slot, new generation */
    double C[3] = { 1, 0, 1 }, B[3] = { 1, 0, 1 };
    int l = nsm_model_add_law(m, nsm_nslaw_complementarity_new(1));
    int inew = nsm_model_add_interaction(m, nsm_relation_first_order_linear_new(1, 3, C, NULL, B, NULL), l, 0, 1);
    assert_int_equal(inew, ith);
    assert_int_not_equal(nsm_model_inter_generation(m, inew), g);
    int linked[4], common[4];
    assert_int_equal(nsm_model_linked(m, imu, linked, common, 4), 1);
    assert_int_equal(linked[0], inew);
    assert_int_equal(common[0], 0);
    nsm_model_free(m);
}

static void test_bad_input(void **state)
{
    (void)state;
    nsm_model *m = nsm_model_new();
    double M[4] = { 1, 0, 0, 1 }, q0[2] = { 1, 0 };
    int d = nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(2, M, q0, q0));
    double A[1] = { -1 };
    int f = nsm_model_add_ds(m, nsm_ds_first_order_lti_new(1, A, NULL, NULL, q0));
    int newton = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.5));
    int relay2 = nsm_model_add_law(m, nsm_nslaw_newton_new(2, 0.5));
    double H3[3] = { 1, 0, 0 };
    /* relation sizes disagree with the system */
    assert_int_equal(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 3, H3, NULL), newton, d, -1), -1);
    assert_non_null(strstr(nsm_model_error(m), "columns"));
    /* law size does not fit the relation */
    double H[2] = { 1, 0 };
    assert_int_equal(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 2, H, NULL), relay2, d, -1), -1);
    assert_non_null(strstr(nsm_model_error(m), "size"));
    /* Newton law on a first-order relation, Lagrangian relation on a first-order system */
    double C[1] = { 1 };
    assert_int_equal(nsm_model_add_interaction(m, nsm_relation_first_order_linear_new(1, 1, C, NULL, C, NULL), newton, f, -1), -1);
    assert_non_null(strstr(nsm_model_error(m), "Lagrangian"));
    assert_int_equal(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, C, NULL), newton, f, -1), -1);
    /* unknown ids */
    assert_int_equal(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 2, H, NULL), 99, d, -1), -1);
    assert_int_equal(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 2, H, NULL), newton, 7, -1), -1);
    /* bad constructors */
    assert_null(nsm_nslaw_newton_new(1, 1.5));
    assert_null(nsm_ds_lagrangian_lti_new(0, M, q0, q0));
    assert_int_equal(nsm_model_add_law(m, NULL), -1);
    /* a good one */
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 2, H, NULL), newton, d, -1) >= 0);
    nsm_model_free(m);

    /* singular mass matrix: a clear error when the simulation is initialised */
    m = nsm_model_new();
    double Ms[4] = { 1, 1, 1, 1 };
    nsm_model_add_ds(m, nsm_ds_lagrangian_lti_new(2, Ms, q0, q0));
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    char err[NS_ERRMSG_LEN] = "";
    assert_null(nsm_sim_new(m, &o, err));
    assert_non_null(strstr(err, "singular"));
    o.h = -1;
    assert_null(nsm_sim_new(m, &o, err));
    assert_non_null(strstr(err, "h ="));
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_example_matrix),
        cmocka_unit_test(test_linked_map_changes),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
