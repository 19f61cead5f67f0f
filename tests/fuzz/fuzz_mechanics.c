/* fuzz_mechanics.c — libFuzzer target for the mechanics API: the input is a
 * program of random calls on one model — systems (Lagrangian LTI, first-
 * order LTI) with entries drawn from a table of awkward values (0, ±1, NaN,
 * ±inf, 1e±300, ...), laws of every type, linear relations between random
 * system ids, removals, detaches, the same object added twice or to a
 * second model, free functions called on the model's objects, simulations
 * (time-stepping with random options, event-driven) stepped a few times,
 * output rows. Every call must return (no crash, leak or undefined
 * behaviour: ASan/UBSan), and every failure must say why: a constructor's
 * NULL with nsm_constructor_error, a model call's −1 with nsm_model_error,
 * a simulation's status with nsm_sim_error / nsm_ed_error. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nsm.h"
#ifdef NSM_HAVE_EVENT_DRIVEN
#include "nonsmooth/nsm_event_driven.h"
#endif

typedef struct reader { const uint8_t *p; size_t n, i; } reader;

static unsigned byte(reader *r) { return r->i < r->n ? r->p[r->i++] : 0u; }

static double value(reader *r)
{
    static const double table[] = { 0.0, 1.0, -1.0, 0.5, 2.0, 1e-3, -9.81, 10.0,
                                    1e-300, 1e300, -1e300, 1e-12, 0.25, 3.0, -0.5, 100.0 };
    unsigned b = byte(r);
    if (b == 0xFD) return NAN;
    if (b == 0xFE) return INFINITY;
    if (b == 0xFF) return -INFINITY;
    return table[b % (sizeof table / sizeof *table)];
}

static void need(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_mechanics: a failure without a reason: %s\n", what);
        abort();
    }
}

static const double *vec(reader *r, double *buf, int len)
{
    for (int i = 0; i < len; i++) buf[i] = value(r);
    return buf;
}

static void run_sim(nsm_model *m, reader *r)
{
    nsm_sim_options o;
    nsm_sim_options_default(&o);
    o.h = value(r);
    if (byte(r) & 1) o.t0 = value(r);
    if (byte(r) & 1) o.theta = value(r);
    if (byte(r) & 1) o.gap_tol = value(r);
    unsigned b = byte(r);
    o.projection = (int)(b % 4);                 /* 3: refused */
    o.projection_hysteresis = (int)((b >> 2) % 3);
    if (b & 0x10) o.projection_activate_pos = value(r);
    if (b & 0x20) o.solver_options.tol = value(r);
    o.global_fc = (b >> 6) & 1;
    o.accept_nonconverged = (int)(byte(r) % 2);
    o.newton_max_iter = 1 + (int)(byte(r) % 4);
    o.solver_options.max_iter = 200;
    char err[NS_ERRMSG_LEN] = "";
    nsm_sim *s = nsm_sim_new(m, &o, err);
    if (!s) { need(err[0] != 0, "nsm_sim_new"); return; }
    FILE *devnull = NULL;
    nsm_output *out = NULL;
    if (byte(r) & 1) {
        out = nsm_output_open("/dev/null", s, err);
        need(out || err[0], "nsm_output_open");
        (void)devnull;
    }
    int steps = (int)(byte(r) % 6);
    for (int k = 0; k < steps; k++) {
        ns_status st = nsm_sim_step(s);
        if (st != NS_OK) { need(nsm_sim_error(s)[0] != 0, "nsm_sim_step"); break; }
        if (out) (void)nsm_output_row(out, s);
        if (byte(r) == 0x42 && nsm_model_ninter(m) > 0)    /* a contact vanishes mid-run */
            (void)nsm_model_remove_interaction(m, (int)(byte(r) % (unsigned)nsm_model_inter_capacity(m)));
    }
    (void)nsm_sim_time(s);
    (void)nsm_sim_kinetic_energy(s, 0);
    nsm_output_close(out);
    nsm_sim_free(s);
}

#ifdef NSM_HAVE_EVENT_DRIVEN
static void run_ed(nsm_model *m, reader *r)
{
    nsm_ed_options o;
    nsm_ed_options_default(&o);
    o.T = value(r);
    if (byte(r) & 1) o.output_step = value(r);
    if (byte(r) & 1) o.hmin = value(r);
    if (byte(r) & 1) o.hmax = value(r);
    o.max_steps = 200;
    char err[NS_ERRMSG_LEN] = "";
    nsm_ed *s = nsm_ed_new(m, &o, err);
    if (!s) { need(err[0] != 0, "nsm_ed_new"); return; }
    int events = (int)(byte(r) % 4);
    for (int k = 0; k < events && nsm_ed_has_next_event(s); k++) {
        int a = nsm_ed_advance_to_event(s);
        if (a < 0) { need(nsm_ed_error(s)[0] != 0, "nsm_ed_advance_to_event"); break; }
        if (nsm_ed_process_events(s) != NS_OK) { need(nsm_ed_error(s)[0] != 0, "nsm_ed_process_events"); break; }
    }
    nsm_ed_free(s);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = { data, size, 0 };
    nsm_model *m = nsm_model_new(), *m2 = nsm_model_new();
    if (!m || !m2) abort();
    double a[32], b[32], c[32];   /* up to 3×6 relation matrices */
    for (int op = 0; op < 40 && r.i < r.n; op++) {
        switch (byte(&r) % 12) {
        case 0: {   /* a Lagrangian LTI system */
            int n = 1 + (int)(byte(&r) % 3);
            nsm_ds *ds = nsm_ds_lagrangian_lti_new(n, vec(&r, a, n * n), vec(&r, b, n), vec(&r, c, n));
            if (!ds) { need(nsm_constructor_error()[0] != 0, "nsm_ds_lagrangian_lti_new"); break; }
            if (byte(&r) & 1) (void)nsm_ds_set_fext_constant(ds, vec(&r, a, n));
            if (nsm_model_add_ds(m, ds) < 0) need(nsm_model_error(m)[0] != 0, "add_ds");
            break;
        }
        case 1: {   /* a first-order LTI system */
            int n = 1 + (int)(byte(&r) % 3);
            nsm_ds *ds = nsm_ds_first_order_lti_new(n, vec(&r, a, n * n), NULL, NULL, vec(&r, b, n));
            if (!ds) { need(nsm_constructor_error()[0] != 0, "nsm_ds_first_order_lti_new"); break; }
            if (nsm_model_add_ds(m, ds) < 0) need(nsm_model_error(m)[0] != 0, "add_ds");
            break;
        }
        case 2: {   /* a law of any type */
            int k = (int)(byte(&r) % 5), sz = 1 + (int)(byte(&r) % 3);
            nsm_nslaw *l = k == 0 ? nsm_nslaw_newton_new(sz, value(&r))
                         : k == 1 ? nsm_nslaw_newton_coulomb_new(2 + (int)(byte(&r) % 2), value(&r), value(&r))
                         : k == 2 ? nsm_nslaw_complementarity_new(sz)
                         : k == 3 ? nsm_nslaw_relay_new(sz, vec(&r, a, sz), vec(&r, b, sz))
                                  : nsm_nslaw_equality_new(sz);
            if (!l) { need(nsm_constructor_error()[0] != 0, "nslaw constructor"); break; }
            if (nsm_model_add_law(m, l) < 0) need(nsm_model_error(m)[0] != 0, "add_law");
            break;
        }
        case 3: {   /* a linear relation between random ids (maybe wrong ones) */
            int msz = 1 + (int)(byte(&r) % 3), ncols = 1 + (int)(byte(&r) % 6);
            int first = byte(&r) & 1;
            nsm_relation *rel = first
                ? nsm_relation_first_order_linear_new(msz, ncols, vec(&r, a, msz * ncols), NULL,
                                                      vec(&r, b, ncols * msz), NULL)
                : nsm_relation_lagrangian_linear_new(msz, ncols, vec(&r, a, msz * ncols),
                                                     (byte(&r) & 1) ? vec(&r, b, msz) : NULL);
            if (!rel) { need(nsm_constructor_error()[0] != 0, "relation constructor"); break; }
            int law = (int)(byte(&r) % 4) - 1, d1 = (int)(byte(&r) % 5) - 1, d2 = (int)(byte(&r) % 5) - 1;
            if (nsm_model_add_interaction(m, rel, law, d1, d2) < 0) need(nsm_model_error(m)[0] != 0, "add_interaction");
            break;
        }
        case 4:     /* remove an interaction (maybe not live) */
            if (nsm_model_remove_interaction(m, (int)(byte(&r) % 10) - 1) != NS_OK)
                need(nsm_model_error(m)[0] != 0, "remove_interaction");
            break;
        case 5: {   /* detach, then add again or free */
            nsm_relation *rel = nsm_model_detach_interaction(m, (int)(byte(&r) % 10) - 1);
            if (!rel) break;
            if (byte(&r) & 1) {
                if (nsm_model_add_interaction(m, rel, 0, 0, -1) < 0) need(nsm_model_error(m)[0] != 0, "re-add");
            } else nsm_relation_free(rel);
            break;
        }
        case 6: {   /* misuse: the model's objects added again, here or elsewhere, or freed */
            int id = (int)(byte(&r) % 4);
            nsm_ds *ds = nsm_model_ds(m, id);
            nsm_relation *rel = nsm_model_relation(m, id);
            unsigned how = byte(&r) % 4;
            if (ds && how == 0 && nsm_model_add_ds(m, ds) >= 0) abort();
            if (ds && how == 1 && nsm_model_add_ds(m2, ds) >= 0) abort();
            if (ds && how == 2) nsm_ds_free(ds);          /* the model's: a no-op */
            if (rel && how == 3) {
                if (nsm_model_add_interaction(m2, rel, 0, 0, -1) >= 0) abort();
                nsm_relation_free(rel);
            }
            break;
        }
        case 7: case 8:
            run_sim(m, &r);
            break;
        case 9:
#ifdef NSM_HAVE_EVENT_DRIVEN
            run_ed(m, &r);
#endif
            break;
        case 10:    /* queries with random ids */
            (void)nsm_model_linked(m, (int)(byte(&r) % 8) - 1, NULL, NULL, 0);
            (void)nsm_model_inter_size(m, (int)(byte(&r) % 8) - 1);
            (void)nsm_model_ds_interactions(m, (int)(byte(&r) % 8) - 1, NULL, 0);
            break;
        default:    /* boundary conditions on a system */
        {
            nsm_ds *ds = nsm_model_ds(m, (int)(byte(&r) % 4));
            if (ds) {
                int dof = (int)(byte(&r) % 4) - 1;
                (void)nsm_ds_set_boundary_condition(ds, 1, &dof, vec(&r, a, 1), NULL, NULL);
            }
            break;
        }
        }
    }
    nsm_model_free(m);
    nsm_model_free(m2);
    return 0;
}
