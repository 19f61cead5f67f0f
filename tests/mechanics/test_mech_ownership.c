#define _POSIX_C_SOURCE 200809L
/* test_mech_ownership.c — one owner per object, checked (nsm_model.h):
 * a system, law or relation added twice to one model, or to two models,
 * is refused and left to its owner (nsm_model_free used to free it twice);
 * the free functions leave a model's objects alone; a detached relation is
 * the caller's again. Also nsm_output_row after an interaction is removed
 * (the row keeps the header's width) and with another simulation
 * (refused), and a failed step that leaves the states of t_k. Run under
 * ASan, a double free fails it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nonsmooth/nsm.h"

static nsm_ds *ball_ds(double q0)
{
    double M = 1.0, v0 = 0.0, g = -9.81;
    nsm_ds *ds = nsm_ds_lagrangian_lti_new(1, &M, &q0, &v0);
    nsm_ds_set_fext_constant(ds, &g);
    return ds;
}

static void test_added_twice(void **state)
{
    (void)state;
    nsm_model *m = nsm_model_new(), *m2 = nsm_model_new();
    nsm_ds *ds = ball_ds(1.0);
    assert_int_equal(nsm_model_add_ds(m, ds), 0);
    assert_int_equal(nsm_model_add_ds(m, ds), -1);
    assert_non_null(strstr(nsm_model_error(m), "already belongs to this model"));
    assert_int_equal(nsm_model_add_ds(m2, ds), -1);
    assert_non_null(strstr(nsm_model_error(m2), "another model"));
    assert_int_equal(nsm_model_nds(m), 1);
    assert_int_equal(nsm_model_nds(m2), 0);
    nsm_ds_free(ds);   /* the model's: nothing happens */

    nsm_nslaw *law = nsm_nslaw_newton_new(1, 0.5);
    assert_int_equal(nsm_model_add_law(m, law), 0);
    assert_int_equal(nsm_model_add_law(m, law), -1);
    assert_non_null(strstr(nsm_model_error(m), "law already belongs"));
    assert_int_equal(nsm_model_add_law(m2, law), -1);
    nsm_nslaw_free(law);

    double H = 1.0;
    nsm_relation *rel = nsm_relation_lagrangian_linear_new(1, 1, &H, NULL);
    int i0 = nsm_model_add_interaction(m, rel, 0, 0, -1);
    assert_true(i0 >= 0);
    assert_int_equal(nsm_model_add_interaction(m, rel, 0, 0, -1), -1);
    assert_non_null(strstr(nsm_model_error(m), "relation already belongs"));
    assert_int_equal(nsm_model_ninter(m), 1);
    assert_true(nsm_model_relation(m, i0) == rel);   /* untouched */
    nsm_relation_free(rel);
    /* detached: the caller's again, may go to another model */
    nsm_relation *back = nsm_model_detach_interaction(m, i0);
    assert_true(back == rel);
    int ds2 = nsm_model_add_ds(m2, ball_ds(2.0));
    int law2 = nsm_model_add_law(m2, nsm_nslaw_newton_new(1, 0.0));
    assert_true(nsm_model_add_interaction(m2, back, law2, ds2, -1) >= 0);
    nsm_model_free(m);
    nsm_model_free(m2);   /* each object freed once: ASan would say otherwise */
}

static int count_fields(const char *line)
{
    int n = 1;
    for (const char *p = line; *p && *p != '\n'; p++) n += *p == ',';
    return n;
}

static void test_output_row(void **state)
{
    (void)state;
    nsm_model *m = nsm_model_new();
    int d = nsm_model_add_ds(m, ball_ds(1.0));
    int law = nsm_model_add_law(m, nsm_nslaw_newton_new(1, 0.5));
    double H = 1.0, b = 0.5;
    int i0 = nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, &H, NULL), law, d, -1);
    assert_true(nsm_model_add_interaction(m, nsm_relation_lagrangian_linear_new(1, 1, &H, &b), law, d, -1) >= 0);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    char err[NS_ERRMSG_LEN] = "", path[] = "/tmp/ns_test_output_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    nsm_sim *s = nsm_sim_new(m, &o, err), *other = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    assert_non_null(other);
    nsm_output *out = nsm_output_open(path, s, err);
    assert_non_null(out);
    assert_int_equal(nsm_sim_step(s), NS_OK);
    assert_int_equal(nsm_output_row(out, s), NS_OK);
    assert_int_equal(nsm_output_row(out, other), NS_BAD_INPUT);   /* its columns are s's */
    assert_int_equal(nsm_model_remove_interaction(m, i0), NS_OK);
    assert_int_equal(nsm_sim_step(s), NS_OK);
    assert_int_equal(nsm_output_row(out, s), NS_OK);
    nsm_output_close(out);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    int nlines = 0, width = -1;
    while (fgets(line, sizeof line, f)) {
        int w = count_fields(line);
        if (width < 0) width = w;
        else if (w != width) fail_msg("line %d has %d fields, the header %d", nlines + 1, w, width);
        nlines++;
    }
    fclose(f);
    unlink(path);
    assert_int_equal(nlines, 3);   /* header + 2 rows: the other simulation's row was refused */
    assert_int_equal(width, 1 + 2 + 2 * 3);
    nsm_sim_free(s);
    nsm_sim_free(other);
    nsm_model_free(m);
}

/* A force that turns NaN after t = 0.0105: the step fails, naming it, and
 * leaves q, v and t as they were. */
static int nan_late(double t, int n, double *f, void *user)
{
    (void)n; (void)user;
    f[0] = t > 0.0105 ? NAN : -9.81;
    return 0;
}

static void test_failed_step_keeps_state(void **state)
{
    (void)state;
    nsm_model *m = nsm_model_new();
    double M = 1.0, q0 = 1.0, v0 = 0.0;
    nsm_ds *ds = nsm_ds_lagrangian_lti_new(1, &M, &q0, &v0);
    assert_int_equal(nsm_ds_set_fext(ds, nan_late, NULL), NS_OK);
    nsm_model_add_ds(m, ds);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    ns_status st = NS_OK;
    double q = 0, v = 0, t = 0;
    for (int k = 0; k < 100 && st == NS_OK; k++) {
        q = nsm_sim_q(s, 0)[0]; v = nsm_sim_v(s, 0)[0]; t = nsm_sim_time(s);
        st = nsm_sim_step(s);
    }
    assert_int_not_equal(st, NS_OK);
    assert_true(nsm_sim_error(s)[0] != '\0');
    assert_true(nsm_sim_q(s, 0)[0] == q);
    assert_true(nsm_sim_v(s, 0)[0] == v);
    assert_true(nsm_sim_time(s) == t);
    assert_true(isfinite(q) && q < 1.0);
    nsm_sim_free(s);
    nsm_model_free(m);
}

/* Boundary conditions, θ of a system: read by nsm_sim_new; changed
 * afterwards (even a change of the imposed value), the next step refuses
 * to go on with them half-read, naming the system. */
static void test_settings_read_at_creation(void **state)
{
    (void)state;
    nsm_model *m = nsm_model_new();
    nsm_ds *ds = ball_ds(1.0);
    int dof = 0;
    double v = 0.5, v2 = 1.0;
    assert_int_equal(nsm_ds_set_boundary_condition(ds, 1, &dof, &v, NULL, NULL), NS_OK);
    nsm_model_add_ds(m, ds);
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = 1e-3;
    char err[NS_ERRMSG_LEN];
    nsm_sim *s = nsm_sim_new(m, &o, err);
    assert_non_null(s);
    assert_int_equal(nsm_sim_step(s), NS_OK);
    assert_true(fabs(nsm_sim_v(s, 0)[0] - 0.5) < 1e-12);
    assert_int_equal(nsm_ds_set_boundary_condition(ds, 1, &dof, &v2, NULL, NULL), NS_OK);
    assert_int_equal(nsm_sim_step(s), NS_BAD_INPUT);
    assert_non_null(strstr(nsm_sim_error(s), "system 0"));
    assert_true(fabs(nsm_sim_v(s, 0)[0] - 0.5) < 1e-12);   /* not taken */
    nsm_sim_free(s);
    s = nsm_sim_new(m, &o, err);   /* a new simulation takes them */
    assert_int_equal(nsm_sim_step(s), NS_OK);
    assert_true(fabs(nsm_sim_v(s, 0)[0] - 1.0) < 1e-12);
    assert_int_equal(nsm_ds_set_theta(ds, 1.0), NS_OK);
    assert_int_equal(nsm_sim_step(s), NS_BAD_INPUT);
    nsm_sim_free(s);
    nsm_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_added_twice),
        cmocka_unit_test(test_output_row),
        cmocka_unit_test(test_failed_step_keeps_state),
        cmocka_unit_test(test_settings_read_at_creation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
