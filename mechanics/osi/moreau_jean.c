/* moreau_jean.c — Moreau–Jean (θ) one-step integrator, Lagrangian systems.
 *
 * On [t_k, t_{k+1}]:  M (v_{k+1} − v_k) = h [θ F_{k+1} + (1−θ) F_k] + p_{k+1},
 *                     q_{k+1} = q_k + h (θ v_{k+1} + (1−θ) v_k),
 * F = f_ext − f_int − f_gyr. Newton on v (q follows the θ rule): at the
 * iterate (q^α, v^α), starting from the predictor q⁰ = q_k + h v_k, v⁰ = v_k,
 *     W⁻¹ = M(q^α) + hθ C_t + h²θ² K_t     (K_t, C_t: ∂(f_int+f_gyr)/∂q, ∂q̇)
 *     v_free = v^α + W [h (θ F(t_{k+1}, q^α, v^α) + (1−θ) F_k) − M(q^α)(v^α − v_k)]
 *     v^{α+1} = v_free + W p^{α+1}
 * with F_k = F(t_k, q_k, v_k). The first iteration is Siconos' linearised
 * step at the predictor (../shared/siconos-tutorials/README.md). For LTI
 * systems (f_int = C v + K q) one step is exact, W is constant and
 * factorised once: v_free = v_k + W h (f_ext,θ − C v_k − K (q_k + hθ v_k)).
 * W⁻¹ is factorised through ns_factor; a singular one is NS_SINGULAR.
 * Positions move through the kind's advance (q ⊕ dv: a rigid body's
 * quaternion, nq ≠ n); kinds with forces_at_theta evaluate F once, at the
 * θ-point, in place of θ F_{k+1} + (1−θ) F_k (ds/ds_kind.h). */
#include "osi/osi.h"
#include "ds/ds_kind.h"
#include <float.h>
#include <math.h>
#include <string.h>

static double input_scale(const nsm_step *st) { (void)st; return 1.0; }

ns_status nsm_mj_build_W(const nsm_ds *ds, int j, nsm_dsdata *d, double h, double t, char *err);

/* W⁻¹ = M + hθC_t + h²θ²K_t from d->Mq, d->J1 (K_t), d->J2 (C_t), or the
 * constant matrices of an LTI system. */
ns_status nsm_mj_build_W(const nsm_ds *ds, int j, nsm_dsdata *d, double h, double t, char *err)
{
    (void)t;
    int n = ds->n;
    size_t nn = (size_t)n * n;
    double th = d->theta;
    if (nsm_ds_kind_of(ds)->sparse) {   /* W⁻¹ assembled sparse, CHOLMOD / UMFPACK */
        ns_matrix *Ws = nsm_ds_sparse_combination(ds, h * th, h * h * th * th);
        if (!Ws) { nsm_set_err(err, "system %d: out of memory for the sparse iteration matrix", j); return NS_NO_MEMORY; }
        ns_matrix_free(d->Wmat);
        d->Wmat = Ws;
        ns_status st = nsm_ds_factor(j, d->Wmat, &d->F_W, "M + hθC + h²θ²K (sparse)", err);
        if (st != NS_OK) return st;
        d->W_ready = 1;
        d->W_version++;
        return NS_OK;
    }
    double *W = d->Wmat->dense;
    if (nsm_ds_kind_of(ds)->constant) {
        for (size_t i = 0; i < nn; i++)
            W[i] = ds->M[i] + (ds->C ? h * th * ds->C[i] : 0.0)
                 + (ds->K ? h * h * th * th * ds->K[i] : 0.0);
    } else {
        for (size_t i = 0; i < nn; i++) W[i] = d->Mq[i] + h * th * d->J2[i] + h * h * th * th * d->J1[i];
    }
    if (ds->nbc && !d->Wfull) {
        nsm_set_err(err, "system %d: prescribed velocities were set after the simulation was created", j);
        return NS_BAD_INPUT;
    }
    if (ds->nbc) {
        /* prescribed velocities: keep W⁻¹, then identity on those rows and
         * columns (their velocity is imposed, not solved for) */
        memcpy(d->Wfull, W, nn * sizeof *W);
        for (int b = 0; b < ds->nbc; b++) {
            int i = ds->bc_dof[b];
            for (int c = 0; c < n; c++) { W[i + (size_t)c * n] = 0.0; W[c + (size_t)i * n] = 0.0; }
            W[i + (size_t)i * n] = 1.0;
        }
    }
    ns_status st = nsm_ds_factor(j, d->Wmat, &d->F_W,
                                 nsm_ds_kind_of(ds)->constant ? "M + hθC + h²θ²K" : "M(q) + hθC_t + h²θ²K_t", err);
    if (st != NS_OK) return st;
    d->W_ready = 1;
    d->W_version++;
    return NS_OK;
}

/* Prescribed velocities v̄_B(t): rhs_U −= W⁻¹_UB Δ_B, rhs_B = Δ_B with
 * Δ_B = v̄_B(t_{k+1}) − base_B, so that the solve with the modified W
 * gives v_B = v̄_B and the other rows the coupled answer. */
static ns_status impose_bc(const nsm_ds *ds, int j, nsm_dsdata *d, double t1, const double *base, double *rhs, char *err)
{
    int n = ds->n;
    if (!d->Wfull) {
        nsm_set_err(err, "system %d: prescribed velocities were set after the simulation was created", j);
        return NS_BAD_INPUT;
    }
    memcpy(d->rhs0, rhs, (size_t)n * sizeof *rhs);
    memcpy(d->base, base, (size_t)n * sizeof *base);
    double *vb = d->w1;
    if (ds->bc_fn) {
        int rc = ds->bc_fn(t1, ds->nbc, vb, ds->bc_user);
        if (rc != 0 || !nsm_all_finite(vb, (size_t)ds->nbc)) {
            nsm_set_err(err, "system %d: the prescribed-velocity callback %s at t = %.17g", j,
                        rc ? "failed" : "returned a non-finite value", t1);
            return NS_BAD_INPUT;
        }
    } else memcpy(vb, ds->bc_v0, (size_t)ds->nbc * sizeof *vb);
    for (int b = 0; b < ds->nbc; b++) {
        int i = ds->bc_dof[b];
        double delta = vb[b] - base[i];
        for (int r = 0; r < n; r++) rhs[r] -= d->Wfull[r + (size_t)i * n] * delta;
        vb[b] = delta;
    }
    for (int b = 0; b < ds->nbc; b++) rhs[ds->bc_dof[b]] = vb[b];
    return NS_OK;
}

/* M, F, K_t, C_t at the iterate: (t_{k+1}, q, v), or for a kind with
 * forces_at_theta at the θ-point (t_k + θh, q_k ⊕ θh v_θ, v_θ), with
 * F_k ← F so that θ F + (1−θ) F_k below is F(θ-point). */
static ns_status eval_at_iterate(const nsm_ds *ds, int j, nsm_dsdata *d, const nsm_step *st, char *err)
{
    if (!nsm_ds_kind_of(ds)->forces_at_theta)
        return nsm_ds_eval_lagrangian(ds, j, st->t1, d->q, d->v, d->Mq, d->F, d->J1, d->J2, d->w3, err);
    int n = ds->n;
    double th = d->theta, *vth = d->w1, *dq = d->w2;
    for (int i = 0; i < n; i++) {
        vth[i] = th * d->v[i] + (1.0 - th) * d->vk[i];
        dq[i] = th * st->h * vth[i];
    }
    nsm_ds_advance(ds, d->qk, dq, d->qth);
    ns_status s = nsm_ds_eval_lagrangian(ds, j, st->t0 + th * st->h, d->qth, vth, d->Mq, d->F, d->J1, d->J2, d->w3, err);
    if (s == NS_OK) memcpy(d->Fk, d->F, (size_t)n * sizeof(double));
    return s;
}

static ns_status free_state(const nsm_ds *ds, int j, nsm_dsdata *d, const nsm_step *st, char *err)
{
    int n = ds->n;
    double h = st->h, th = d->theta;
    double *rhs = d->free;
    ns_status s;
    if (nsm_ds_kind_of(ds)->constant) {
        double *f0 = d->w1, *tmp = d->w2;
        int rc = nsm_ds_fext(ds, st->t1, rhs, tmp);
        if (rc == 0) rc = nsm_ds_fext(ds, st->t0, f0, tmp);
        if (rc != 0) { nsm_set_err(err, "system %d: f_ext callback returned %d", j, rc); return rc < 0 ? NS_DIVERGED : NS_BAD_INPUT; }
        if (!nsm_all_finite(rhs, (size_t)n) || !nsm_all_finite(f0, (size_t)n)) {
            nsm_set_err(err, "system %d (%s): the f_ext callback returned a non-finite value at t = %.17g",
                        j, nsm_ds_kind_of(ds)->name, st->t1);
            return NS_DIVERGED;   /* as the evaluation layer (ds/iteration.c) */
        }
        for (int i = 0; i < n; i++) rhs[i] = th * rhs[i] + (1.0 - th) * f0[i];
        /* rhs -= C v_k + K (q_k + hθ v_k) */
        if (nsm_ds_kind_of(ds)->sparse) {
            if (ds->Cs) ns_matrix_gemv(-1.0, ds->Cs, d->vk, 1.0, rhs);
            if (ds->Ks) {
                for (int i = 0; i < n; i++) f0[i] = d->qk[i] + h * th * d->vk[i];
                ns_matrix_gemv(-1.0, ds->Ks, f0, 1.0, rhs);
            }
        } else for (int c = 0; c < n; c++) {
            double vc = d->vk[c], qc = d->qk[c] + h * th * vc;
            const double *Cc = ds->C ? ds->C + (size_t)c * n : NULL;
            const double *Kc = ds->K ? ds->K + (size_t)c * n : NULL;
            if (Cc && vc != 0.0) for (int i = 0; i < n; i++) rhs[i] -= Cc[i] * vc;
            if (Kc && qc != 0.0) for (int i = 0; i < n; i++) rhs[i] -= Kc[i] * qc;
        }
        for (int i = 0; i < n; i++) rhs[i] *= h;
        if (ds->nbc && (s = impose_bc(ds, j, d, st->t1, d->vk, rhs, err)) != NS_OK) return s;
        s = ns_factor_solve(d->F_W, rhs, 1, n);
        if (s != NS_OK) { nsm_set_err(err, "system %d: solve with W failed", j); return s; }
        for (int i = 0; i < n; i++) rhs[i] += d->vk[i];
        return NS_OK;
    }
    if (st->iter == 0) {
        if (nsm_ds_kind_of(ds)->forces_at_theta) s = eval_at_iterate(ds, j, d, st, err);
        else {
            s = nsm_ds_eval_lagrangian(ds, j, st->t0, d->qk, d->vk, NULL, d->Fk, NULL, NULL, d->w3, err);
            if (s == NS_OK)
                s = nsm_ds_eval_lagrangian(ds, j, st->t1, d->q, d->v, d->Mq, d->F, d->J1, d->J2, d->w3, err);
        }
        if (s != NS_OK) return s;
    }
    s = nsm_mj_build_W(ds, j, d, h, st->t1, err);
    if (s != NS_OK) return s;
    for (int i = 0; i < n; i++) rhs[i] = h * (th * d->F[i] + (1.0 - th) * d->Fk[i]);
    if (st->iter > 0)
        for (int c = 0; c < n; c++) {
            double dv = d->v[c] - d->vk[c];
            if (dv == 0.0) continue;
            for (int i = 0; i < n; i++) rhs[i] -= d->Mq[i + (size_t)c * n] * dv;
        }
    if (ds->nbc && (s = impose_bc(ds, j, d, st->t1, d->v, rhs, err)) != NS_OK) return s;
    s = ns_factor_solve(d->F_W, rhs, 1, n);
    if (s != NS_OK) { nsm_set_err(err, "system %d: solve with W failed", j); return s; }
    for (int i = 0; i < n; i++) rhs[i] += d->v[i];
    return NS_OK;
}

static void begin(const nsm_ds *ds, nsm_dsdata *d, const nsm_step *st)
{
    size_t n = (size_t)ds->n;
    memcpy(d->qk, d->q, (size_t)d->nq * sizeof(double));
    memcpy(d->vk, d->v, n * sizeof(double));
    for (size_t i = 0; i < n; i++) d->w2[i] = st->h * d->vk[i];
    nsm_ds_advance(ds, d->qk, d->w2, d->q);
}

static void update(const nsm_ds *ds, nsm_dsdata *d, const nsm_step *st)
{
    double h = st->h, th = d->theta;
    int n = d->n;
    for (int i = 0; i < n; i++) d->w2[i] = h * (th * d->v[i] + (1.0 - th) * d->vk[i]);
    nsm_ds_advance(ds, d->qk, d->w2, d->q);
    /* reaction of the prescribed velocities: the impulse that closes the
     * step's equation W⁻¹ (v − base) = rhs + p + R on their rows */
    for (int b = 0; d->Wfull && b < ds->nbc; b++) {
        int i = ds->bc_dof[b];
        double a = 0.0;
        for (int c = 0; c < n; c++) a += d->Wfull[i + (size_t)c * n] * (d->v[c] - d->base[c]);
        d->bcr[i] = a - d->rhs0[i] - d->p[i];
    }
}

/* R = M(q)(v − v_k) − h (θ F(t_{k+1}, q, v) + (1−θ) F_k) − p, relative to
 * the largest of its terms; leaves M, F, K_t, C_t at (q, v). */
static double residual(const nsm_ds *ds, int j, nsm_dsdata *d, const nsm_step *st, double *abs2, char *err)
{
    *abs2 = 0.0;
    if (nsm_ds_kind_of(ds)->linear) return 0.0;
    int n = ds->n;
    double h = st->h, th = d->theta;
    if (eval_at_iterate(ds, j, d, st, err) != NS_OK) return -1.0;
    double rmax = 0.0, scale = 0.0, r2 = 0.0;
    int above_roundoff = 0;
    for (int i = 0; i < n; i++) {
        double mv = 0.0, mabs = 0.0;
        for (int c = 0; c < n; c++) {
            double Mic = d->Mq[i + (size_t)c * n];
            mv += Mic * (d->v[c] - d->vk[c]);
            mabs += fabs(Mic) * (fabs(d->v[c]) + fabs(d->vk[c]));
        }
        double f = h * (th * d->F[i] + (1.0 - th) * d->Fk[i]);
        double r = mv - f - d->p[i];
        r2 += r * r;
        rmax = fmax(rmax, fabs(r));
        scale = fmax(scale, fmax(fabs(mv), fmax(fabs(f), fabs(d->p[i]))));
        /* the rounding of v − v_k alone is ε|M|(|v| + |v_k|): a residual
         * below that is zero in this arithmetic (small h, large v) */
        if (fabs(r) > 4.0 * DBL_EPSILON * (mabs + fabs(f) + fabs(d->p[i]))) above_roundoff = 1;
    }
    *abs2 = sqrt(r2);
    if (!above_roundoff) return 0.0;
    return scale > 0.0 ? rmax / scale : 0.0;
}

const nsm_osi nsm_osi_moreau_jean = {
    .name = "Moreau–Jean", .corrects_velocity = 1, .input_scale = input_scale,
    .build_W = nsm_mj_build_W, .begin = begin, .free_state = free_state, .update = update,
    .residual = residual,
};
