/* test_mech_noalloc.c — a time-stepping step allocates nothing in the
 * steady state.
 *
 * The scene: a column of three point masses (3 coordinates each) resting
 * on the floor and on each other, pushed sideways so that friction works,
 * FC3D one-step problems solved by the time-stepping default (nsgs-ac with
 * Anderson memory 3) and by coloured sweeps on 1 and 2 OpenMP threads
 * (with one thread the sweeps open no OpenMP region: GCC's libgomp
 * allocates a team for every region of one thread, ~17 allocations per
 * solve here; with 2 threads it reuses its pool): the contact set
 * does not change after the first step, so once the simulation's buffers
 * and the solver's workspace have grown, a step must not touch the heap.
 * And with churn: the top contact removed and added again (a new
 * interaction, as contact detection does) before every step, so that the
 * one-step problem changes structure every step — reshaped in place, the
 * interaction's data slot reused: still no allocation inside the steps
 * (the user's new relation allocates, outside them); and with the
 * relation taken back (nsm_model_detach_interaction) and added again,
 * none at all, the user's side included.
 * Allocations are counted by tools/alloccount/nsalloc.c, linked into this
 * program (its malloc & co. replace libc's for the whole process). Under
 * AddressSanitizer, which replaces malloc itself, the counter is off and
 * the test is skipped (exit 77).
 *
 * Also: ns_options.workspace changes no result — the same problem solved
 * with and without a workspace gives bit-identical multipliers and the
 * same sweep count, and a solve with a grown workspace allocates nothing
 * in NSGS. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "nonsmooth/nsm.h"
#include "nonsmooth/ns_problem.h"
#include "nonsmooth/ns_solver.h"
#include "nsalloc.h"

#define G 9.81
#define H 1e-3

/* The relation of body b on body b − 1 (relative motion of b; gap
 * z_b − z_{b−1} − 1): rows normal (z), tangents (x, y). */
static void top_Hb(double Hc[18], double bb[3])
{
    memset(Hc, 0, 18 * sizeof *Hc);
    bb[0] = -1.0; bb[1] = bb[2] = 0.0;
    for (int r = 0; r < 3; r++) {
        int col = r == 0 ? 2 : r - 1;
        Hc[r + 3 * col] = -1;
        Hc[r + 3 * (3 + col)] = 1;
    }
}

static nsm_relation *on_top(void)
{
    double Hc[18], bb[3];
    top_Hb(Hc, bb);
    return nsm_relation_lagrangian_linear_new(3, 6, Hc, bb);
}

/* Bodies 0, 1, 2 stacked along z (unit spacing, contact gaps 0), body 0
 * on the floor z = 0; each contact's rows: normal (z), tangents (x, y). */
static nsm_sim *stack(nsm_model **mp, int threads, int *inter)
{
    nsm_model *m = nsm_model_new();
    assert_non_null(m);
    double M[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, v0[3] = { 0 };
    int ds[3];
    for (int b = 0; b < 3; b++) {
        double q0[3] = { 0, 0, (double)b }, f[3] = { 2.0 + b, -1.0, -G };
        nsm_ds *d = nsm_ds_lagrangian_lti_new(3, M, q0, v0);
        assert_non_null(d);
        assert_int_equal(nsm_ds_set_fext_constant(d, f), NS_OK);
        ds[b] = nsm_model_add_ds(m, d);
        assert_true(ds[b] >= 0);
    }
    int law = nsm_model_add_law(m, nsm_nslaw_newton_coulomb_new(3, 0.0, 0.4));
    double Hf[9] = { 0 };   /* floor: rows z, x, y of body 0 */
    Hf[0 + 3 * 2] = 1; Hf[1 + 3 * 0] = 1; Hf[2 + 3 * 1] = 1;
    inter[0] = nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(3, 3, Hf, NULL), law, ds[0], -1);
    for (int b = 1; b < 3; b++) inter[b] = nsm_model_add_interaction(m, on_top(), law, ds[b - 1], ds[b]);
    for (int k = 0; k < 3; k++) assert_true(inter[k] >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = H;
    o.solver_options.tol = 1e-10;
    o.solver_options.threads = threads;
    o.warm_start = 0;   /* every step's solve sweeps (warm-started, sliding converges at once) */
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) fail_msg("nsm_sim_new: %s", err);
    *mp = m;
    return s;
}

/* The top contact (bodies 1, 2) again as a new interaction: the user's
 * side of a contact that detection drops and finds again (law 0). */
static int recreate_top(nsm_model *m, int inter)
{
    assert_int_equal(nsm_model_remove_interaction(m, inter), NS_OK);
    int id = nsm_model_add_interaction(m, on_top(), 0, 1, 2);
    assert_true(id >= 0);
    return id;
}

/* The same, the relation taken back (nsm_model_detach_interaction) and
 * added again with its H and b set anew: the user's side allocates
 * nothing either. */
static int reattach_top(nsm_model *m, int inter)
{
    nsm_relation *r = nsm_model_detach_interaction(m, inter);
    assert_non_null(r);
    assert_false(nsm_model_inter_alive(m, inter));
    double Hc[18], bb[3];   /* the H and b a contact detection would compute */
    top_Hb(Hc, bb);
    assert_int_equal(nsm_relation_set_H(r, Hc, bb), NS_OK);
    int id = nsm_model_add_interaction(m, r, 0, 1, 2);
    assert_true(id >= 0);
    return id;
}

/* churn: the top contact is removed and added again before every step,
 * so that every step's active list differs from the last one (the
 * one-step problem is reshaped, the interaction's data slot reused). */
static void steady_state_steps(int threads, int churn)
{
    nsm_model *m;
    int inter[3];
    nsm_sim *s = stack(&m, threads, inter);
    for (int k = 0; k < 20; k++) {   /* warm-up */
        if (churn == 1) inter[2] = recreate_top(m, inter[2]);
        if (churn == 2) inter[2] = reattach_top(m, inter[2]);
        assert_int_equal(nsm_sim_step(s), NS_OK);
    }
    long solves0 = nsm_sim_get_stats(s)->solves, sweeps0 = nsm_sim_get_stats(s)->solver_iterations;
    long rebuilds0 = nsm_sim_get_stats(s)->rebuilds;
    unsigned long long used = 0;
    nsalloc_region(1);   /* NSALLOC_TRACE=N prints where the first N allocations come from */
    for (int k = 0; k < 200; k++) {
        if (churn == 1) {   /* the user's side allocates (a new relation): not counted */
            nsalloc_region(0);
            inter[2] = recreate_top(m, inter[2]);
            nsalloc_region(1);
        }
        unsigned long long a0 = nsalloc_count();
        if (churn == 2) inter[2] = reattach_top(m, inter[2]);   /* counted */
        assert_int_equal(nsm_sim_step(s), NS_OK);
        used += nsalloc_count() - a0;
    }
    nsalloc_region(0);
    assert_int_equal(nsm_sim_get_stats(s)->rebuilds - rebuilds0, churn ? 200 : 0);
    /* every step solved its friction problem, with sweeps (the stack slides) */
    const nsm_sim_stats *S = nsm_sim_get_stats(s);
    printf("threads = %d, churn %d: %ld solves, %ld sweeps, %llu allocations in 200 steps\n", threads,
           churn, S->solves - solves0, S->solver_iterations - sweeps0, used);
    assert_int_equal(S->solves - solves0, 200);
    assert_true(S->solver_iterations - sweeps0 >= 200);
    assert_int_equal(nsm_sim_index_set(s, 1, NULL, 0), 3);
    const double *p = nsm_sim_lambda(s, inter[0], 1);   /* floor carries the three weights */
    assert_true(fabs(p[0] - 3 * G * H) < 1e-8);
    if (used != 0) fail_msg("threads = %d, churn %d: %llu heap allocations in 200 steady-state steps",
                            threads, churn, used);
    nsm_sim_free(s);
    nsm_model_free(m);
}

static void test_steady_state_serial(void **state) { (void)state; steady_state_steps(0, 0); }
static void test_steady_state_coloured(void **state) { (void)state; steady_state_steps(2, 0); }
static void test_steady_state_coloured_1(void **state) { (void)state; steady_state_steps(1, 0); }
static void test_recreated_contact(void **state) { (void)state; steady_state_steps(0, 1); }
static void test_reattached_relation(void **state)
{
    (void)state;
    steady_state_steps(0, 2);
    nsm_model *m = nsm_model_new();
    assert_null(nsm_model_detach_interaction(m, 0));   /* no such interaction */
    assert_null(nsm_model_detach_interaction(NULL, 0));
    nsm_model_free(m);
}

static void test_workspace_same_result(void **state)
{
    (void)state;
    nsm_model *m;
    int inter[3];
    nsm_sim *s = stack(&m, 0, inter);
    for (int k = 0; k < 5; k++) assert_int_equal(nsm_sim_step(s), NS_OK);
    const ns_problem *P = nsm_sim_problem(s);
    assert_non_null(P);
    assert_int_equal(P->kind, NS_KIND_FC3D);
    ns_workspace *w = ns_workspace_new();
    assert_non_null(w);
    for (int anderson = 0; anderson <= 3; anderson += 3) {
        ns_options o;
        ns_options_default(&o);
        o.tol = 1e-14;
        o.max_iter = 50;   /* stops on max_iter or converges: either way the same path */
        o.anderson = anderson;
        ns_solution *a = ns_solution_new(P), *b = ns_solution_new(P);
        ns_result ra, rb;
        ns_result_init(&ra); ns_result_init(&rb);
        ns_solve(P, "nsgs-ac", &o, a, &ra);
        o.workspace = w;
        ns_solve(P, "nsgs-ac", &o, b, &rb);
        assert_int_equal(ra.status, rb.status);
        assert_int_equal(ra.iterations, rb.iterations);
        assert_true(ra.iterations > 0);
        assert_memory_equal(a->vec[0], b->vec[0], (size_t)a->len[0] * sizeof(double));
        assert_true(ns_workspace_bytes(w) > 0);
        /* a second solve with the grown workspace allocates nothing in NSGS */
        ns_solution *c = ns_solution_new(P);
        ns_result rc;
        ns_result_init(&rc);
        unsigned long long a1 = nsalloc_count();
        ns_solve(P, "nsgs-ac", &o, c, &rc);
        assert_true(nsalloc_count() == a1);
        assert_memory_equal(a->vec[0], c->vec[0], (size_t)a->len[0] * sizeof(double));
        ns_result_clear(&ra); ns_result_clear(&rb); ns_result_clear(&rc);
        ns_solution_free(a); ns_solution_free(b); ns_solution_free(c);
    }
    ns_workspace_free(w);
    ns_workspace_free(NULL);
    assert_int_equal((int)ns_workspace_bytes(NULL), 0);
    nsm_sim_free(s);
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest all[] = {
        cmocka_unit_test(test_workspace_same_result),
        cmocka_unit_test(test_steady_state_serial),
        cmocka_unit_test(test_steady_state_coloured),
        cmocka_unit_test(test_steady_state_coloured_1),
        cmocka_unit_test(test_recreated_contact),
        cmocka_unit_test(test_reattached_relation),
    };
    if (!nsalloc_available()) {
        printf("test_mech_noalloc: skipped: the allocation counter is off under AddressSanitizer "
               "(which replaces malloc itself)\n");
        return 77;
    }
    return cmocka_run_group_tests(all, NULL, NULL);
}
