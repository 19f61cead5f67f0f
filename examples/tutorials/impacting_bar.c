/* impacting_bar.c — ImpactingBar: a steel bar (E = 210 GPa, section
 * S = 3.14 cm², length L = 1 m, ρ = 7800 kg/m³) of n nodes (n = 100 for the
 * ref; --nodes), linear finite elements of length l = L/n: tridiagonal
 * consistent mass M = ρ S l/6 · [2 1; 1 2] per element (ends 1/3, inside
 * 2/3 on the diagonal) and stiffness K = E S/l · [1 −1; −1 1]; every node
 * at 5e-5 m moving at −0.1 m/s (no gravity) towards a rigid wall at 0 that
 * the first node hits (y = q₀, Newton e = 0); Moreau–Jean θ = 0.5 with the
 * γ = 0 activation of the program (y_k ≤ 0), h = 2e-6 from t₀ = 1e-8, 748
 * steps, one LCP of size 1 per step. M and K are sparse (CSC): the bar
 * runs at 10⁴ nodes and more (W factorised by CHOLMOD once).
 *
 * Columns: t, q₀, v₀, p₀/h, P, qᵀKq, vᵀMv, q_{n−1}, v_{n−1}, q_{n/2},
 * v_{n/2}, and the impact work of the step (θ v₀,k+1 + (1 − θ) v₀,k) P, as
 * the program writes them (its "energies" carry no ½). */
#include "tutorials.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* y = A x for a symmetric tridiagonal A (diagonal d, off-diagonal o), n. */
static double quad_tri(int n, const double *d, const double *o, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double ax = d[i] * x[i];
        if (i > 0) ax += o[i - 1] * x[i - 1];
        if (i < n - 1) ax += o[i] * x[i + 1];
        s += x[i] * ax;
    }
    return s;
}

/* The tridiagonal n×n matrix (diagonal d, off-diagonal o) in CSC storage. */
static ns_matrix *tridiag_csc(int n, const double *d, const double *o)
{
    ns_matrix *A = ns_matrix_sparse_new(n, n, 3 * (ns_int)n - 2);
    if (!A) return NULL;
    ns_int k = 0;
    for (int c = 0; c < n; c++) {
        A->csc.p[c] = k;
        if (c > 0) { A->csc.i[k] = c - 1; A->csc.x[k++] = o[c - 1]; }
        A->csc.i[k] = c; A->csc.x[k++] = d[c];
        if (c < n - 1) { A->csc.i[k] = c + 1; A->csc.x[k++] = o[c]; }
    }
    A->csc.p[n] = k;
    return A;
}

static int run(const tut_params *p, tut_table *t, char *err)
{
    const double E = 210e9, S = 0.000314, L = 1.0, rho = 7800.0, theta = p->theta > 0 ? p->theta : 0.5;
    const int n = p->nodes > 0 ? p->nodes : 100;
    const double l = L / n, cm = rho * S * l, ck = E * S / l, t0 = 1e-8;
    double e = isnan(p->e) ? 0.0 : p->e;
    double *md = malloc(n * sizeof *md), *mo = malloc(n * sizeof *mo), *kd = malloc(n * sizeof *kd),
           *ko = malloc(n * sizeof *ko), *q0 = malloc(n * sizeof *q0), *v0 = malloc(n * sizeof *v0),
           *H = calloc(n, sizeof *H);
    ns_matrix *M = NULL, *K = NULL;
    nsm_model *model = nsm_model_new();
    nsm_sim *s = NULL;
    int rc = 0;
    if (!md || !mo || !kd || !ko || !q0 || !v0 || !H || !model) { rc = tut_fail(err, "out of memory"); goto done; }
    for (int i = 0; i < n; i++) {
        int end = i == 0 || i == n - 1;
        md[i] = (end ? 1.0 / 3.0 : 2.0 / 3.0) * cm;
        kd[i] = (end ? 1.0 : 2.0) * ck;
        mo[i] = cm / 6.0;
        ko[i] = -ck;
        q0[i] = 5e-5;
        v0[i] = -0.1;
    }
    if (!(M = tridiag_csc(n, md, mo)) || !(K = tridiag_csc(n, kd, ko))) { rc = tut_fail(err, "out of memory"); goto done; }
    H[0] = 1.0;
    /* sparse M and K: W⁻¹ = M + h²θ²K factorised sparse (CHOLMOD) */
    int ds = nsm_model_add_ds(model, nsm_ds_lagrangian_lti_sparse_new(n, M, NULL, K, q0, v0));
    int law = nsm_model_add_law(model, nsm_nslaw_newton_new(1, e));
    int in = nsm_model_add_interaction(model, nsm_relation_lagrangian_linear_new(1, n, H, NULL), law, ds, -1);
    if (ds < 0 || law < 0 || in < 0) { rc = tut_fail(err, "%s", nsm_model_error(model)); goto done; }
    nsm_sim_options o;
    tut_sim_options(&o, p, 2e-6, theta, NULL, 0);
    o.t0 = t0;
    o.activation = NSM_ACTIVATION_GAMMA;
    o.activation_gamma = 0.0;
    if (!(s = tut_sim_new(model, &o, err))) { rc = -1; goto done; }
    double h = nsm_sim_step_size(s);
    long N = tut_steps(p, 748);
    double *r = tut_row(t);
    if (!r) { rc = tut_fail(err, "out of memory"); goto done; }
    r[0] = t0; r[1] = q0[0]; r[2] = v0[0];
    r[5] = quad_tri(n, kd, ko, q0);
    r[6] = quad_tri(n, md, mo, v0);
    r[7] = q0[n - 1]; r[8] = v0[n - 1]; r[9] = q0[n / 2]; r[10] = v0[n / 2];
    double vprev = v0[0];
    for (long k = 1; k <= N; k++) {
        if (nsm_sim_step(s) != NS_OK) { rc = tut_fail(err, "step %ld: %s", k, nsm_sim_error(s)); break; }
        if (!(r = tut_row(t))) { rc = tut_fail(err, "out of memory"); break; }
        const double *q = nsm_sim_q(s, ds), *v = nsm_sim_v(s, ds);
        double P = nsm_sim_lambda(s, in, 1)[0];
        r[0] = nsm_sim_time(s);
        r[1] = q[0]; r[2] = v[0];
        r[3] = nsm_sim_p(s, ds)[0] / h;
        r[4] = P;
        r[5] = quad_tri(n, kd, ko, q);
        r[6] = quad_tri(n, md, mo, v);
        r[7] = q[n - 1]; r[8] = v[n - 1]; r[9] = q[n / 2]; r[10] = v[n / 2];
        r[11] = (theta * v[0] + (1.0 - theta) * vprev) * P;
        vprev = v[0];
    }
done:
    nsm_sim_free(s);
    nsm_model_free(model);
    ns_matrix_free(M); ns_matrix_free(K);
    free(md); free(mo); free(kd); free(ko); free(q0); free(v0); free(H);
    return rc;
}

const tut_model tut_impacting_bar = {
    "ImpactingBar", "FEM bar (100 nodes, --nodes N; sparse M, K) hitting a wall, e = 0, gamma = 0 activation (h = 2e-6)",
    "mechanics/FEM/ImpactingBar/ImpactingBar.ref", 12, 0, run,
    { "position [m]", "velocity [m/s]", "contact force p/h [N]" },
    { { { 1, "q first node" }, { 9, "q middle" }, { 7, "q last node" }, { 0, NULL } },
      { { 2, "v first node" }, { 10, "v middle" }, { 8, "v last node" }, { 0, NULL } },
      { { 3, "p/h" }, { 0, NULL } } },
    NULL
};
