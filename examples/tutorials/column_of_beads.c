/* column_of_beads.c — ColumnOfBeadsTS: ten beads (q = (z, x, θ) each,
 * M = diag(m, m, 3/5 m R²), m = 1, R = 0.1) stacked at heights 1, 1.25, ...,
 * 3.25, at rest, falling under g = 9.81 onto the ground and onto each other;
 * Newton e = 0.9 for every contact (ground: y = z₀ − R; beads i, i+1:
 * y = z_{i+1} − z_i − 2R); Moreau–Jean θ = 0.5, h = 5e-4, 4000 steps, one
 * LCP per step over the active contacts.
 *
 * As in the Siconos program, a contact enters the model when its gap falls
 * below 0.02 (checked before each step, ground first, then the pairs from
 * the bottom), which orders the LCP's rows as the ref's.
 *
 * Columns: t, then z_i, ż_i for each bead (21 columns), then 20 columns the
 * program reserves and leaves at zero. */
#include "tutorials.h"
#include <math.h>

#define NB 10

static int run(const tut_params *p, tut_table *t, char *err)
{
    const double m = 1.0, R = 0.1, g = 9.81, gap0 = 0.25, alert = 0.02;
    double e = isnan(p->e) ? 0.9 : p->e;
    double M[9] = { m, 0, 0, 0, m, 0, 0, 0, 0.6 * m * R * R };
    double fext[3] = { -m * g, 0, 0 }, v0[3] = { 0, 0, 0 };
    nsm_model *model = nsm_model_new();
    if (!model) return tut_fail(err, "out of memory");
    int ds[NB], ok = 1;
    for (int i = 0; i < NB; i++) {
        double q0[3] = { 1.0 + i * gap0, 0, 0 };
        nsm_ds *b = nsm_ds_lagrangian_lti_new(3, M, q0, v0);
        nsm_ds_set_fext_constant(b, fext);
        ds[i] = nsm_model_add_ds(model, b);
        ok = ok && ds[i] >= 0;
    }
    int law = nsm_model_add_law(model, nsm_nslaw_newton_new(1, e));
    if (!ok || law < 0) {
        tut_fail(err, "%s", nsm_model_error(model));
        nsm_model_free(model);
        return -1;
    }
    nsm_sim_options o;
    tut_sim_options(&o, p, 5e-4, 0.5, NULL, 0);
    nsm_sim *s = tut_sim_new(model, &o, err);
    if (!s) { nsm_model_free(model); return -1; }
    const double Hg[3] = { 1, 0, 0 }, bg[1] = { -R };
    const double Hp[6] = { -1, 0, 0, 1, 0, 0 }, bp[1] = { -2 * R };
    int ground = -1, pair[NB - 1];
    for (int i = 0; i < NB - 1; i++) pair[i] = -1;
    long N = tut_steps(p, 4000);
    int rc = 0;
    double *r = tut_row(t);
    for (long k = 0; k <= N && r; k++) {
        if (k > 0) {
            for (int i = 0; i < NB - 1 && rc == 0; i++) {
                double zi = nsm_sim_q(s, ds[i])[0], zj = nsm_sim_q(s, ds[i + 1])[0];
                if (fabs(zi - R) < alert && ground < 0) {
                    ground = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, 3, Hg, bg),
                                                       law, ds[0], -1);
                    if (ground < 0) rc = tut_fail(err, "%s", nsm_model_error(model));
                }
                if (fabs(zj - zi - 2 * R) < alert && pair[i] < 0) {
                    pair[i] = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, 6, Hp, bp),
                                                        law, ds[i], ds[i + 1]);
                    if (pair[i] < 0) rc = tut_fail(err, "%s", nsm_model_error(model));
                }
            }
            if (rc) break;
            if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
            if (!(r = tut_row(t))) break;
        }
        r[0] = nsm_sim_time(s);
        for (int i = 0; i < NB; i++) {
            r[1 + 2 * i] = nsm_sim_q(s, ds[i])[0];
            r[2 + 2 * i] = nsm_sim_v(s, ds[i])[0];
        }
    }
    if (!r && rc == 0) rc = tut_fail(err, "out of memory");
    nsm_sim_free(s);
    nsm_model_free(model);
    return rc;
}

const tut_model tut_column_of_beads = {
    "ColumnOfBeadsTS", "ten beads falling in a column, Moreau-Jean, LCP (e = 0.9, h = 5e-4)",
    "mechanics/ColumnOfBeads/ColumnOfBeadsTS.ref", 41, 0, run,
    { "height z_i [m]", "velocity [m/s]", "" },
    { { { 1, "bead 1" }, { 5, "bead 3" }, { 9, "bead 5" }, { 13, "bead 7" }, { 19, "bead 10" }, { 0, NULL } },
      { { 2, "bead 1" }, { 6, "bead 3" }, { 10, "bead 5" }, { 14, "bead 7" }, { 20, "bead 10" }, { 0, NULL } },
      { { 0, NULL } } },
    NULL
};
