/* test_solver_spec.c — solver specs NAME[/key=value]... (ns_solver_spec_parse)
 * and the per-solver option tables: values reach the named ns_options
 * fields, unknown keys and bad values are refused with a message naming
 * the key and the valid ones, every table row names a registered solver and
 * its defaults parse, and a spec solves exactly as the same options set by
 * hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "ns_test.h"

static ns_status parse(const char *spec, ns_kind k, char *name, ns_options *o, char *err)
{
    ns_options_default(o);
    return ns_solver_spec_parse(spec, k, name, NS_SOLVER_NAME_LEN, o, err);
}

static void test_values_reach_fields(void **state)
{
    (void)state;
    char name[NS_SOLVER_NAME_LEN], err[NS_ERRMSG_LEN] = "";
    ns_options o;
    assert_int_equal(parse("nsgs/anderson=3/omega=1.2/threads=2/local=fb/sweep=symmetric",
                           NS_KIND_FC3D, name, &o, err), NS_OK);
    assert_string_equal(name, "nsgs");
    assert_int_equal(o.anderson, 3);
    assert_true(o.omega == 1.2);
    assert_int_equal(o.threads, 2);
    assert_string_equal(o.local_solver, "fb");
    assert_int_equal(o.sweep, 1);
    /* untouched fields keep their defaults */
    ns_options d;
    ns_options_default(&d);
    assert_true(o.tol == d.tol);
    assert_int_equal(o.max_iter, d.max_iter);
    assert_int_equal(o.shuffle, d.shuffle);

    assert_int_equal(parse("pgs/max_iter=7/tol=1e-3/time_limit=2.5/omega=0.5/check_every=4",
                           NS_KIND_LCP, name, &o, err), NS_OK);
    assert_string_equal(name, "pgs");
    assert_int_equal(o.max_iter, 7);
    assert_true(o.tol == 1e-3 && o.time_limit == 2.5 && o.omega == 0.5);
    assert_int_equal(o.check_every, 4);
    /* the last of a repeated key wins */
    assert_int_equal(parse("nsgs-ac/anderson=2/anderson=5", NS_KIND_FC3D, name, &o, err), NS_OK);
    assert_int_equal(o.anderson, 5);
    /* the seed reaches the unsigned field */
    assert_int_equal(parse("nsgs-ac/seed=12345/shuffle=1", NS_KIND_FC3D, name, &o, err), NS_OK);
    assert_int_equal(o.seed, 12345u);
    assert_int_equal(o.shuffle, 1);
    /* gfc reduce: local names an fc3d solver */
    assert_int_equal(parse("reduce/local=nsn-ac", NS_KIND_GFC3D, name, &o, err), NS_OK);
    assert_string_equal(o.local_solver, "nsn-ac");
}

static void test_default_and_kind_none(void **state)
{
    (void)state;
    char name[NS_SOLVER_NAME_LEN], err[NS_ERRMSG_LEN] = "";
    ns_options o;
    assert_int_equal(parse(NULL, NS_KIND_LCP, name, &o, err), NS_OK);
    assert_string_equal(name, ns_solver_default(NS_KIND_LCP)->name);
    assert_int_equal(parse("/max_iter=9", NS_KIND_FC3D, name, &o, err), NS_OK);
    assert_string_equal(name, ns_solver_default(NS_KIND_FC3D)->name);
    assert_int_equal(o.max_iter, 9);
    /* "auto" is every kind's: its own auto, else its default */
    for (int k = 0; k < NS_KIND_COUNT; k++) {
        const ns_solver_info *d = ns_solver_default((ns_kind)k);
        if (!d) continue;
        const ns_solver_info *a = ns_solver_find("auto", (ns_kind)k);
        assert_non_null(a);
        assert_int_equal(a->kind, k);
        if (strcmp(a->name, "auto") != 0) assert_ptr_equal(a, d);
    }
    assert_string_equal(ns_solver_find("auto", NS_KIND_GFC3D)->name,
                        ns_solver_default(NS_KIND_GFC3D)->name);
    assert_null(ns_solver_find("no-such-solver", NS_KIND_GFC3D));
    /* kind unknown: a key of any solver of that name */
    assert_int_equal(parse("nsgs/local=ac", NS_KIND_NONE, name, &o, err), NS_OK);
    assert_int_equal(parse("pgs/omega=1.1", NS_KIND_NONE, name, &o, err), NS_OK);
    assert_int_equal(parse("/tol=1", NS_KIND_NONE, name, &o, err), NS_BAD_INPUT);
    /* but for fc2d, nsgs has no 'local' */
    assert_int_equal(parse("nsgs/local=ac", NS_KIND_FC2D, name, &o, err), NS_BAD_INPUT);
    /* a key none of the name's solvers takes: the message does not pin the
     * name on one kind it happens to list first */
    assert_int_equal(parse("auto/threads=2", NS_KIND_NONE, name, &o, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "auto (any kind) has no option 'threads'"));
    assert_null(strstr(err, "auto (lcp)"));
    /* the keys listed are those of the name's solvers of every kind (fc3d's
     * nsgs-ac takes 'anderson' and 'threads') */
    assert_int_equal(parse("nsgs-ac/andersen=3", NS_KIND_NONE, name, &o, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "valid: tol, max_iter, time_limit"));
    assert_non_null(strstr(err, "anderson"));
    assert_non_null(strstr(err, "threads"));
}

static void test_errors_name_key_and_valid_keys(void **state)
{
    (void)state;
    char name[NS_SOLVER_NAME_LEN], err[NS_ERRMSG_LEN] = "";
    ns_options o;
    assert_int_equal(parse("nsgs-ac/andersen=3", NS_KIND_FC3D, name, &o, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "'andersen'"));
    assert_non_null(strstr(err, "anderson"));
    assert_non_null(strstr(err, "threads"));
    assert_non_null(strstr(err, "max_iter"));
    assert_string_equal(name, "");
    /* keys of another solver are not accepted */
    assert_int_equal(parse("lemke/omega=1.2", NS_KIND_LCP, name, &o, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "lemke"));
    assert_non_null(strstr(err, "valid: tol, max_iter, time_limit)"));
    static const struct { const char *spec; ns_kind k; const char *needle; } bad[] = {
        { "nsgs-ac/anderson=17", NS_KIND_FC3D, "anderson='17'" },
        { "nsgs-ac/anderson=3x", NS_KIND_FC3D, "anderson='3x'" },
        { "nsgs-ac/anderson=", NS_KIND_FC3D, "no value for 'anderson'" },
        { "nsgs-ac/threads=-1", NS_KIND_FC3D, "threads='-1'" },
        { "nsgs-ac/omega=2", NS_KIND_FC3D, "omega='2'" },
        { "nsgs-ac/omega=0", NS_KIND_FC3D, "omega='0'" },
        { "nsgs-ac/omega=nan", NS_KIND_FC3D, "omega='nan'" },
        { "nsgs-ac/sweep=backward", NS_KIND_FC3D, "forward,symmetric" },
        { "nsgs/local=newton", NS_KIND_FC3D, "ac,fb,nm,proj,enum" },
        { "reduce/local=lemke", NS_KIND_GFC3D, "not a fc3d solver" },
        { "pgs/tol=0", NS_KIND_LCP, "tol='0'" },
        { "pgs/tol=inf", NS_KIND_LCP, "tol='inf'" },
        { "pgs/max_iter=1.5", NS_KIND_LCP, "max_iter='1.5'" },
        { "pgs/max_iter=99999999999", NS_KIND_LCP, "max_iter=" },
        { "pgs/omega", NS_KIND_LCP, "'omega' is not key=value" },
        { "pgs/=3", NS_KIND_LCP, "is not key=value" },
        { "pgs/", NS_KIND_LCP, "is not key=value" },
        { "pgs//omega=1", NS_KIND_LCP, "is not key=value" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        ns_status st = parse(bad[i].spec, bad[i].k, name, &o, err);
        if (st != NS_BAD_INPUT || !strstr(err, bad[i].needle))
            fail_msg("%s: status %s, message '%s' (wanted '%s')", bad[i].spec, ns_status_name(st),
                     err, bad[i].needle);
        assert_non_null(strstr(err, bad[i].spec));
    }
    assert_int_equal(parse("nope/omega=1", NS_KIND_LCP, name, &o, err), NS_NOT_FOUND);
    assert_non_null(strstr(err, "no solver 'nope' for lcp"));
    assert_int_equal(parse("lemke", NS_KIND_FC3D, name, &o, err), NS_NOT_FOUND);
    assert_int_equal(parse("nope", NS_KIND_NONE, name, &o, err), NS_NOT_FOUND);
    char longname[200];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(parse(longname, NS_KIND_LCP, name, &o, err), NS_NOT_FOUND);
    /* NULL arguments */
    assert_int_equal(ns_solver_spec_parse("pgs", NS_KIND_LCP, NULL, 10, &o, err), NS_BAD_INPUT);
    assert_int_equal(ns_solver_spec_parse("pgs", NS_KIND_LCP, name, sizeof name, NULL, err), NS_BAD_INPUT);
    assert_int_equal(ns_solver_spec_parse("pgs/omega=3", NS_KIND_LCP, name, sizeof name, &o, NULL),
                     NS_BAD_INPUT);
}

/* Every solver's table: keys unique and not shadowing a common key, and
 * "NAME/key=default" accepted, for every registered solver. */
static void test_tables_cover_the_registry(void **state)
{
    (void)state;
    size_t nc;
    const ns_solver_option *common = ns_solver_common_options(&nc);
    assert_int_equal(nc, 3);
    size_t with_options = 0;
    for (size_t i = 0; i < ns_solver_count(); i++) {
        const ns_solver_info *s = ns_solver_at(i);
        size_t n;
        const ns_solver_option *t = ns_solver_options(s, &n);
        assert_non_null(t);
        with_options += n > 0;
        for (size_t a = 0; a < n + nc; a++) {
            const ns_solver_option *d = a < n ? &t[a] : &common[a - n];
            assert_non_null(d->meaning);
            for (size_t b = a + 1; b < n + nc; b++) {
                const ns_solver_option *e = b < n ? &t[b] : &common[b - n];
                if (!strcmp(d->key, e->key)) fail_msg("%s: key %s twice", s->name, d->key);
            }
            char spec[256], name[NS_SOLVER_NAME_LEN], err[NS_ERRMSG_LEN] = "";
            snprintf(spec, sizeof spec, "%s/%s=%s", s->name, d->key, d->default_value);
            ns_options o;
            if (parse(spec, s->kind, name, &o, err) != NS_OK) fail_msg("%s: %s", spec, err);
            char e2[NS_ERRMSG_LEN];
            if (ns_options_validate(&o, e2) != NS_OK) fail_msg("%s: %s", spec, e2);
        }
    }
    assert_true(with_options >= 10);
    assert_null(ns_solver_options(NULL, NULL));
}

static ns_problem *lcp_2x2(void)
{
    ns_matrix *M = ns_matrix_dense_new(2, 2);
    M->dense[0] = 2; M->dense[1] = 1; M->dense[2] = 1; M->dense[3] = 2;
    const double q[2] = { -5, -6 };
    return ns_problem_from_lcp(ns_lcp_new(M, q));
}

/* A spec solves exactly as the same fields set by hand (same iterates). */
static void test_spec_solves_as_fields(void **state)
{
    (void)state;
    char path[1024], err[NS_ERRMSG_LEN] = "";
    ns_problem *p = NULL;
    if (ns_problem_read(ns_test_data_path(path, sizeof path, "fc3d/Capsules-i100-889.dat"),
                        NS_KIND_NONE, &p, err) != NS_OK)
        skip();
    ns_options a, b;
    char name[NS_SOLVER_NAME_LEN];
    assert_int_equal(parse("nsgs/anderson=3/omega=1.1/local=fb/tol=1e-10", p->kind, name, &a, err), NS_OK);
    ns_options_default(&b);
    b.anderson = 3; b.omega = 1.1; b.local_solver = "fb"; b.tol = 1e-10;
    ns_solution *sa = ns_solution_new(p), *sb = ns_solution_new(p);
    ns_result ra, rb;
    ns_result_init(&ra); ns_result_init(&rb);
    ns_status st = ns_solve(p, name, &a, sa, &ra);
    assert_int_equal(ns_solve(p, "nsgs", &b, sb, &rb), st);
    assert_int_equal(ra.iterations, rb.iterations);
    assert_true(ra.error == rb.error);
    assert_memory_equal(sa->vec[0], sb->vec[0], (size_t)sa->len[0] * sizeof(double));
    /* and differently from the defaults: the options did reach the solver */
    ns_result rc;
    ns_result_init(&rc);
    ns_options c;
    ns_options_default(&c);
    c.tol = 1e-10;
    ns_solve(p, "nsgs", &c, sb, &rc);
    assert_true(rc.iterations != ra.iterations || rc.error != ra.error);
    ns_result_clear(&ra); ns_result_clear(&rb); ns_result_clear(&rc);
    ns_solution_free(sa); ns_solution_free(sb);
    ns_problem_free(p);

    /* max_iter from the spec: pgs stops after exactly that many sweeps */
    p = lcp_2x2();
    ns_solution *s = ns_solution_new(p);
    assert_int_equal(parse("pgs/max_iter=3/tol=1e-14", NS_KIND_LCP, name, &a, err), NS_OK);
    ns_result_init(&ra);
    assert_int_equal(ns_solve(p, name, &a, s, &ra), NS_MAX_ITER);
    assert_int_equal(ra.iterations, 3);
    ns_result_clear(&ra);
    ns_solution_free(s);
    ns_problem_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_reach_fields),
        cmocka_unit_test(test_default_and_kind_none),
        cmocka_unit_test(test_errors_name_key_and_valid_keys),
        cmocka_unit_test(test_tables_cover_the_registry),
        cmocka_unit_test(test_spec_solves_as_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
