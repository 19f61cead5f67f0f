/* newton_euler.c — a rigid body in Newton–Euler form:
 *     m v̇ = f,   I ω̇ + ω × Iω = τ,   ẋ = v,   q̇ = ½ q ⊗ (0, ω),
 * q = (x, unit quaternion) (7 values), v = (v, ω) (6 values, ω in the body
 * frame), M = diag(m, m, m, I) constant in these coordinates. The forces
 * F = f_ext − f_int − f_gyr with f_gyr = (0, ω × Iω) (its Jacobian
 * ∂f_gyr/∂ω = ω̂ I − (Iω)^ goes into W), f_ext a world force and a body
 * torque. The table row gives Moreau–Jean the position update q ⊕ dv
 * (advance: x + dv_x, quaternion q + ½ q ⊗ (0, dv_ω) renormalised: the
 * Cayley step of the rotation, so that with θ = ½ and the forces at the
 * θ-point the free rotation keeps its energy and its world angular
 * momentum exactly). */
#include "ds/ds_kind.h"
#include "ds/quaternion.h"
#include <math.h>
#include <string.h>

static int inertia_ok(const double *I, const char *who)
{
    double mx = 0.0;
    for (int i = 0; i < 9; i++) mx = fmax(mx, fabs(I[i]));
    for (int c = 0; c < 3; c++)
        for (int r = c + 1; r < 3; r++)
            if (fabs(I[r + 3 * c] - I[c + 3 * r]) > 1e-12 * mx) {
                nsm_ctor_fail("%s: inertia is not symmetric (I[%d][%d] = %g, I[%d][%d] = %g)",
                              who, r, c, I[r + 3 * c], c, r, I[c + 3 * r]);
                return -1;
            }
    /* leading principal minors > 0 (Sylvester) */
    double d1 = I[0], d2 = I[0] * I[4] - I[1] * I[3];
    double d3 = I[0] * (I[4] * I[8] - I[7] * I[5]) - I[3] * (I[1] * I[8] - I[7] * I[2]) + I[6] * (I[1] * I[5] - I[4] * I[2]);
    if (!(d1 > 0.0 && d2 > 0.0 && d3 > 0.0)) {
        nsm_ctor_fail("%s: inertia is not positive definite (leading minors %g, %g, %g)", who, d1, d2, d3);
        return -1;
    }
    return 0;
}

nsm_ds *nsm_ds_newton_euler_new(double mass, const double *inertia,
                                const double *q0, const double *v0)
{
    static const char who[] = "nsm_ds_newton_euler_new";
    if (!(mass > 0.0) || !isfinite(mass)) return nsm_ctor_fail("%s: mass = %g must be finite and > 0", who, mass);
    if (nsm_ctor_check(who, "inertia", inertia, 9, 1) || nsm_ctor_check(who, "q0", q0, 7, 0) ||
        nsm_ctor_check(who, "v0", v0, 6, 0) || inertia_ok(inertia, who))
        return NULL;
    if (q0) {
        double nr = sqrt(q0[3] * q0[3] + q0[4] * q0[4] + q0[5] * q0[5] + q0[6] * q0[6]);
        if (fabs(nr - 1.0) > 1e-10)
            return nsm_ctor_fail("%s: q0[3..6], the orientation quaternion, has norm %.17g (must be 1 within 1e-10)", who, nr);
    }
    nsm_ds *ds = nsm_ds_alloc(NSM_DS_NEWTON_EULER, 6, who);
    if (!ds) return NULL;
    ds->nq = 7;
    ds->body_mass = mass;
    memcpy(ds->inertia, inertia, sizeof ds->inertia);
    static const double identity[7] = { 0, 0, 0, 1, 0, 0, 0 };
    ds->q0 = nsm_dup(q0 ? q0 : identity, 7);
    ds->v0 = nsm_dup(v0, 6);
    if (!ds->q0 || !ds->v0) { nsm_ds_free(ds); return nsm_ctor_fail("%s: out of memory", who); }
    return ds;
}

ns_status nsm_ds_newton_euler_set_forces(nsm_ds *ds, const nsm_body_fns *fns)
{
    if (!ds || ds->type != NSM_DS_NEWTON_EULER) return NS_BAD_INPUT;
    if (fns) ds->body = *fns;
    else memset(&ds->body, 0, sizeof ds->body);
    return NS_OK;
}

static int mass(const nsm_ds *ds, const double *q, double *M)
{
    (void)q;
    for (int i = 0; i < 3; i++) M[i + 6 * i] = ds->body_mass;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) M[(3 + r) + 6 * (3 + c)] = ds->inertia[r + 3 * c];
    return 0;
}

/* work: w (6), then Jq, Jv (36 each) */
static int forces(const nsm_ds *ds, double t, const double *q, const double *v,
                  double *F, double *Kt, double *Ct, double *work, const char **what)
{
    double *w = work, *Jq = work + 6, *Jv = Jq + 36;
    *what = "f_ext";
    int rc = nsm_ds_fext(ds, t, F, w);
    if (rc != 0) return rc;
    if (Kt) memset(Kt, 0, 36 * sizeof *Kt);
    if (Ct) memset(Ct, 0, 36 * sizeof *Ct);
    if (ds->body.fext) {
        *what = "body f_ext";
        rc = ds->body.fext(t, q, v, w, ds->body.user);
        if (rc != 0) return rc;
        if (!nsm_all_finite(w, 6)) return NSM_CB_NAN;
        for (int i = 0; i < 6; i++) F[i] += w[i];
    }
    if (ds->body.fint) {
        *what = "body f_int";
        rc = ds->body.fint(t, q, v, w, ds->body.user);
        if (rc != 0) return rc;
        if (!nsm_all_finite(w, 6)) return NSM_CB_NAN;
        for (int i = 0; i < 6; i++) F[i] -= w[i];
        if (ds->body.jac_fint && (Kt || Ct)) {
            *what = "body jac_fint";
            memset(Jq, 0, 72 * sizeof *Jq);
            rc = ds->body.jac_fint(t, q, v, Jq, Jv, ds->body.user);
            if (rc != 0) return rc;
            if (!nsm_all_finite(Jq, 72)) return NSM_CB_NAN;
            if (Kt) for (int i = 0; i < 36; i++) Kt[i] += Jq[i];
            if (Ct) for (int i = 0; i < 36; i++) Ct[i] += Jv[i];
        }
    }
    /* gyroscopic: F_ω −= ω × Iω; Ct_ωω += ω̂ I − (Iω)^ */
    const double *om = v + 3, *I = ds->inertia;
    double Iw[3], g[3];
    nsm_mat3_vec(I, om, Iw);
    nsm_cross3(om, Iw, g);
    for (int i = 0; i < 3; i++) F[3 + i] -= g[i];
    if (Ct) {
        for (int c = 0; c < 3; c++) {
            double Ic[3] = { I[3 * c], I[3 * c + 1], I[3 * c + 2] }, wc[3];
            nsm_cross3(om, Ic, wc);                 /* ω̂ I e_c */
            double ec[3] = { 0, 0, 0 }, lc[3];
            ec[c] = 1.0;
            nsm_cross3(Iw, ec, lc);                 /* (Iω)^ e_c */
            for (int r = 0; r < 3; r++) Ct[(3 + r) + 6 * (3 + c)] += wc[r] - lc[r];
        }
    }
    *what = "f_ext";
    return 0;
}

static void advance(const nsm_ds *ds, const double *q, const double *dv, double *out)
{
    (void)ds;
    double p[4], dq[4], half[4] = { 0.0, 0.5 * dv[3], 0.5 * dv[4], 0.5 * dv[5] };
    nsm_quat_mul(q + 3, half, dq);
    for (int i = 0; i < 4; i++) p[i] = q[3 + i] + dq[i];
    double nr = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    for (int i = 0; i < 3; i++) out[i] = q[i] + dv[i];
    for (int i = 0; i < 4; i++) out[3 + i] = p[i] / nr;
}

const nsm_ds_kind nsm_ds_kind_newton_euler = {
    .type = NSM_DS_NEWTON_EULER, .name = "Newton–Euler", .lagrangian = 1,
    .constant = 0, .linear = 0, .mass = mass, .forces = forces,
    .advance = advance, .forces_at_theta = 1,
};
