/* rigid.c — the relation kind of rigid bodies (rows: rigid_rows.h) and
 * its contact constructor. h and H are evaluated from the rows at the
 * bodies' positions Q = (x1, quaternion1 [, x2, quaternion2]). */
#include "relation/rigid_rows.h"
#include "ds/ds_kind.h"
#include "ds/quaternion.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSM_PI 3.14159265358979323846

nsm_relation *nsm_rigid_alloc_terms(int m, int nbodies, int nterms, nsm_coord_term **terms, const char *who)
{
    if (nbodies != 1 && nbodies != 2) return nsm_ctor_fail("%s: nbodies = %d must be 1 or 2", who, nbodies);
    nsm_relation *r = nsm_relation_alloc(NSM_REL_RIGID, m, 6 * nbodies, who);
    if (!r) return NULL;
    size_t head = sizeof *r->rigid + (size_t)m * sizeof(nsm_rigid_row);
    head = (head + sizeof(double) - 1) / sizeof(double) * sizeof(double);
    r->rigid = calloc(1, head + (size_t)nterms * sizeof(nsm_coord_term));
    if (!r->rigid) { nsm_relation_free(r); return nsm_ctor_fail("%s: out of memory", who); }
    r->rigid->nbodies = nbodies;
    if (terms) *terms = nterms > 0 ? (nsm_coord_term *)(void *)((char *)r->rigid + head) : NULL;
    return r;
}

nsm_relation *nsm_rigid_alloc(int m, int nbodies, const char *who)
{
    return nsm_rigid_alloc_terms(m, nbodies, 0, NULL, who);
}

/* One coordinate term at the poses (x_k, R_k; k = 2: the world): its value,
 * and its rate's coefficients added to L (linear velocity, world) and C
 * (ω, world) of body 1 and body 2, scaled by coef. */
static double coord_term(nsm_coord_term *t, const double *const x[3], const double R[3][9], double L[2][3], double C[2][3])
{
    int p = t->ip < 0 ? 2 : t->ip, q = t->iq < 0 ? 2 : t->iq;
    double gp[3], gq[3], lp[3] = { 0, 0, 0 }, val;
    if (!t->slide) {
        double U1[3], U2[3], W[3], a[3], b[3];
        nsm_mat3_vec(R[p], t->u1, U1);
        nsm_mat3_vec(R[p], t->u2, U2);
        nsm_mat3_vec(R[q], t->w, W);
        double c = nsm_dot3(U1, W), s = nsm_dot3(U2, W), n2 = c * c + s * s;
        double wrapped = atan2(s, c);
        if (wrapped - t->last > NSM_PI) t->turns--;
        else if (wrapped - t->last < -NSM_PI) t->turns++;
        t->last = wrapped;
        val = wrapped + 2.0 * NSM_PI * t->turns;
        /* d(U·W)/dt = (ωP − ωQ)·(U × W): φ̇ = (ωP − ωQ)·g */
        nsm_cross3(U2, W, a);
        nsm_cross3(U1, W, b);
        for (int c3 = 0; c3 < 3; c3++) {
            gp[c3] = n2 > 0.0 ? (c * a[c3] - s * b[c3]) / n2 : 0.0;
            gq[c3] = -gp[c3];
        }
    } else {
        double E[3], aP[3], aQ[3], D[3], u[3];
        nsm_mat3_vec(R[p], t->e, E);
        nsm_mat3_vec(R[p], t->rp, aP);
        if (q == 2) memcpy(aQ, t->rq, sizeof aQ); else nsm_mat3_vec(R[q], t->rq, aQ);
        for (int c3 = 0; c3 < 3; c3++) D[c3] = x[q][c3] + aQ[c3] - x[p][c3] - aP[c3];
        val = nsm_dot3(E, D);
        /* ṡ = E·(vQ − vP) + ωQ·(aQ × E) − ωP·(aP × E) + ωP·(E × D) */
        nsm_cross3(aQ, E, gq);
        nsm_cross3(aP, E, gp);
        nsm_cross3(E, D, u);
        for (int c3 = 0; c3 < 3; c3++) { gp[c3] = u[c3] - gp[c3]; lp[c3] = E[c3]; }
    }
    for (int c3 = 0; c3 < 3; c3++) {
        if (p < 2) { C[p][c3] += t->coef * gp[c3]; L[p][c3] -= t->coef * lp[c3]; }
        if (q < 2) { C[q][c3] += t->coef * gq[c3]; L[q][c3] += t->coef * lp[c3]; }
    }
    return t->coef * val;
}

static void body_pose(const double *Q, int k, int nb, const double **x, double *R)
{
    static const double origin[3] = { 0, 0, 0 };
    if (k < nb) { *x = Q + 7 * k; nsm_quat_matrix(Q + 7 * k + 3, R); return; }
    *x = origin;
    for (int i = 0; i < 9; i++) R[i] = (i % 4 == 0) ? 1.0 : 0.0;
}

/* Row i of H (m rows, column-major): body 1's twist columns (E, b1), body
 * 2's (−E, b2) when there are two bodies. */
static void put_row(double *H, int m, int i, int nb, const double *E, const double *b1, const double *b2)
{
    for (int c = 0; c < 3; c++) {
        H[i + (size_t)c * m] = E[c];
        H[i + (size_t)(3 + c) * m] = b1[c];
        if (nb == 2) {
            H[i + (size_t)(6 + c) * m] = -E[c];
            H[i + (size_t)(9 + c) * m] = b2[c];
        }
    }
}

static int output(const nsm_relation *r, double t, const double *Q,
                  const double *lam, double *y, double *H, double *work)
{
    (void)t; (void)lam; (void)work;
    const struct nsm_rigid_rows *rr = r->rigid;
    int m = r->m, nb = rr->nbodies;
    const double *x1, *x2;
    double R1[9], R2[9];
    body_pose(Q, 0, nb, &x1, R1);
    body_pose(Q, 1, nb, &x2, R2);
    memset(H, 0, (size_t)m * r->ncols * sizeof *H);
    for (int i = 0; i < m; i++) {
        const nsm_rigid_row *w = &rr->row[i];
        double c1[3], c2[3], E[3];   /* world coefficients of ω1, ω2; direction */
        if (w->type == NSM_RROW_POINT) {
            double a1[3], a2[3] = { 0, 0, 0 }, p1[3], p2[3], D[3], t3[3];
            if (w->r1_world) memcpy(a1, w->r1, sizeof a1); else nsm_mat3_vec(R1, w->r1, a1);
            if (nb == 2) { if (w->r2_world) memcpy(a2, w->r2, sizeof a2); else nsm_mat3_vec(R2, w->r2, a2); }
            for (int c = 0; c < 3; c++) {
                p1[c] = x1[c] + a1[c];
                p2[c] = nb == 2 ? x2[c] + a2[c] : w->r2[c];
                D[c] = p1[c] - p2[c];
            }
            if (w->e_body) nsm_mat3_vec(R1, w->e, E); else memcpy(E, w->e, sizeof E);
            y[i] = w->velocity_only ? 0.0 : nsm_dot3(E, D) - w->c0;
            nsm_cross3(a1, E, c1);
            if (w->e_body) { nsm_cross3(E, D, t3); for (int c = 0; c < 3; c++) c1[c] += t3[c]; }
            nsm_cross3(a2, E, c2);
            for (int c = 0; c < 3; c++) c2[c] = -c2[c];
        } else if (w->type == NSM_RROW_AXES) {
            double A[3], B[3];
            nsm_mat3_vec(R1, w->a, A);
            if (nb == 2) nsm_mat3_vec(R2, w->b, B); else memcpy(B, w->b, sizeof B);
            y[i] = nsm_dot3(A, B) - w->c0;
            nsm_cross3(A, B, c1);
            for (int c = 0; c < 3; c++) { c2[c] = -c1[c]; E[c] = 0.0; }
        } else if (w->type == NSM_RROW_TWIST) {
            y[i] = 0.0;
            nsm_mat3_vec(R1, w->a, c1);
            for (int c = 0; c < 3; c++) { c2[c] = -c1[c]; E[c] = 0.0; }
        } else {   /* COUPLE: its own linear columns per body */
            static const double origin[3] = { 0, 0, 0 }, I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
            const double *x[3] = { x1, nb == 2 ? x2 : origin, origin };
            double Rs[3][9], L[2][3] = { { 0 } }, C[2][3] = { { 0 } };
            memcpy(Rs[0], R1, sizeof Rs[0]);
            memcpy(Rs[1], nb == 2 ? R2 : I3, sizeof Rs[1]);
            memcpy(Rs[2], I3, sizeof Rs[2]);
            y[i] = -w->c0;
            for (int k = 0; k < 2; k++) y[i] += coord_term(&w->term[k], x, (const double (*)[9])Rs, L, C);
            for (int k = 0; k < nb; k++) {
                double b[3];
                nsm_mat3t_vec(Rs[k], C[k], b);
                for (int c = 0; c < 3; c++) {
                    H[i + (size_t)(6 * k + c) * m] = L[k][c];
                    H[i + (size_t)(6 * k + 3 + c) * m] = b[c];
                }
            }
            continue;
        }
        double b1[3], b2[3];
        nsm_mat3t_vec(R1, c1, b1);
        nsm_mat3t_vec(R2, c2, b2);
        put_row(H, m, i, nb, E, b1, b2);
    }
    return 0;
}

/* The mean pose of a body over the step: x_m and R_m = (R_k + R_1)/2 (not
 * a rotation). With R_1 = R_k cay(h ω̂) (the Cayley step of ds advance),
 * R_1 − R_k = R_m h ω̂ exactly, so a row linear in each body's x and R
 * (or bilinear between them) changes over the step by h H_m v_θ when H_m
 * is built from the mean factors (the midpoint product rule). */
static void mean_pose(const double *Qk, const double *Q1, int k, int nb, double *x, double *R)
{
    if (k >= nb) {
        for (int c = 0; c < 3; c++) x[c] = 0.0;
        for (int i = 0; i < 9; i++) R[i] = (i % 4 == 0) ? 1.0 : 0.0;
        return;
    }
    double Ra[9], Rb[9];
    nsm_quat_matrix(Qk + 7 * k + 3, Ra);
    nsm_quat_matrix(Q1 + 7 * k + 3, Rb);
    for (int i = 0; i < 9; i++) R[i] = 0.5 * (Ra[i] + Rb[i]);
    for (int c = 0; c < 3; c++) x[c] = 0.5 * (Qk[7 * k + c] + Q1[7 * k + c]);
}

/* Discrete gradient of the rows between Qk and Q1 (relation_kind.h
 * mean_jacobian): rows on material points only (a world arm follows the
 * normal, not the body: no such H, the caller keeps the θ-point one). */
/* A coupler row (nonlinear: angles): the discrete gradient of Gonzalez,
 * H̄ = ḡ + (Δy − ḡ·Δq) Δq/|Δq|², ḡ the mean of the gradients at both ends
 * and Δq the step in velocity coordinates (Δx, and the body-frame Δω of the
 * Cayley step, 2 v/w of q_kᵀ ⊗ q_1 = (w, v)), so that H̄ Δq = Δy exactly. */
static int coupler_mean_jacobian(const nsm_relation *r, const double *Qk, const double *Q1, double *H)
{
    int nb = r->rigid->nbodies, nc = r->ncols;
    double yk, y1, Hk[12], H1[12], dq[12], gd = 0.0, dd = 0.0;
    output(r, 0.0, Qk, NULL, &yk, Hk, NULL);
    output(r, 0.0, Q1, NULL, &y1, H1, NULL);
    for (int k = 0; k < nb; k++) {
        const double *a = Qk + 7 * k + 3, *b = Q1 + 7 * k + 3;
        /* conj(a) ⊗ b */
        double w = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        double v[3] = { a[0] * b[1] - a[1] * b[0] - (a[2] * b[3] - a[3] * b[2]),
                        a[0] * b[2] - a[2] * b[0] - (a[3] * b[1] - a[1] * b[3]),
                        a[0] * b[3] - a[3] * b[0] - (a[1] * b[2] - a[2] * b[1]) };
        if (!(w > 0.0)) return 1;   /* a half turn or more in one step: keep the θ-point H */
        for (int c = 0; c < 3; c++) {
            dq[6 * k + c] = Q1[7 * k + c] - Qk[7 * k + c];
            dq[6 * k + 3 + c] = 2.0 * v[c] / w;
        }
    }
    for (int j = 0; j < nc; j++) {
        H[j] = 0.5 * (Hk[j] + H1[j]);
        gd += H[j] * dq[j];
        dd += dq[j] * dq[j];
    }
    if (dd > 0.0)
        for (int j = 0; j < nc; j++) H[j] += (y1 - yk - gd) * dq[j] / dd;
    return 0;
}

static int mean_jacobian(const nsm_relation *r, const double *Qk, const double *Q1, double *H)
{
    const struct nsm_rigid_rows *rr = r->rigid;
    int m = r->m, nb = rr->nbodies;
    if (m == 1 && rr->row[0].type == NSM_RROW_COUPLE) return coupler_mean_jacobian(r, Qk, Q1, H);
    for (int i = 0; i < m; i++) {
        const nsm_rigid_row *w = &rr->row[i];
        if (w->type == NSM_RROW_TWIST || w->type == NSM_RROW_COUPLE ||
            (w->type == NSM_RROW_POINT && (w->r1_world || (nb == 2 && w->r2_world))))
            return 1;
    }
    double x1[3], x2[3], R1[9], R2[9];
    mean_pose(Qk, Q1, 0, nb, x1, R1);
    mean_pose(Qk, Q1, 1, nb, x2, R2);
    memset(H, 0, (size_t)m * r->ncols * sizeof *H);
    for (int i = 0; i < m; i++) {
        const nsm_rigid_row *w = &rr->row[i];
        double E[3] = { 0, 0, 0 }, b1[3], b2[3] = { 0, 0, 0 }, t3[3];
        if (w->type == NSM_RROW_POINT) {
            /* D_m = mean of p1 − p2 = x1m + R1m r1 − (x2m + R2m r2) (or − r2) */
            double a1[3], a2[3] = { 0, 0, 0 }, D[3], Eb[3];
            nsm_mat3_vec(R1, w->r1, a1);
            if (nb == 2) nsm_mat3_vec(R2, w->r2, a2);
            for (int c = 0; c < 3; c++) D[c] = x1[c] + a1[c] - (nb == 2 ? x2[c] + a2[c] : w->r2[c]);
            if (w->e_body) nsm_mat3_vec(R1, w->e, E); else memcpy(E, w->e, sizeof E);
            /* ω1: r1 × R1mᵀ E_m (+ e × R1mᵀ D_m); ω2: −r2 × R2mᵀ E_m */
            nsm_mat3t_vec(R1, E, Eb);
            nsm_cross3(w->r1, Eb, b1);
            if (w->e_body) {
                nsm_mat3t_vec(R1, D, t3);
                double u[3];
                nsm_cross3(w->e, t3, u);
                for (int c = 0; c < 3; c++) b1[c] += u[c];
            }
            if (nb == 2) {
                nsm_mat3t_vec(R2, E, Eb);
                nsm_cross3(w->r2, Eb, b2);
                for (int c = 0; c < 3; c++) b2[c] = -b2[c];
            }
        } else {
            /* ω1: a × R1mᵀ B_m; ω2: b × R2mᵀ A_m */
            double A[3], B[3];
            nsm_mat3_vec(R1, w->a, A);
            if (nb == 2) nsm_mat3_vec(R2, w->b, B); else memcpy(B, w->b, sizeof B);
            nsm_mat3t_vec(R1, B, t3);
            nsm_cross3(w->a, t3, b1);
            if (nb == 2) {
                nsm_mat3t_vec(R2, A, t3);
                nsm_cross3(w->b, t3, b2);
            }
        }
        put_row(H, m, i, nb, E, b1, b2);
    }
    return 0;
}

static void input(const nsm_relation *r, const double *H, double *G) { nsm_relation_transpose(r->m, r->ncols, H, G); }
/* compliance (nsm_relation_set_compliance), NULL when none */
static const double *dblock(const nsm_relation *r) { return r->D; }

const nsm_relation_kind nsm_rel_kind_rigid = {
    .type = NSM_REL_RIGID, .name = "rigid-body", .lagrangian = 1, .linear = 0,
    .velocity_jacobian = 1, .theta_point = 1, .mean_jacobian = mean_jacobian, .qsize = 7, .output = output, .input = input, .D = dblock,
};

/* ---- contacts ---- */

void nsm_contact_tangents(const double *n, double *t1, double *t2)
{
    /* the world axis least aligned with n */
    int k = 0;
    for (int c = 1; c < 3; c++) if (fabs(n[c]) < fabs(n[k])) k = c;
    double e[3] = { 0, 0, 0 };
    e[k] = 1.0;
    nsm_cross3(n, e, t1);
    double nr = sqrt(nsm_dot3(t1, t1));
    for (int c = 0; c < 3; c++) t1[c] /= nr;
    nsm_cross3(n, t1, t2);
}

static int frame_ok(const nsm_contact_frame *c, char *why, size_t len)
{
    if (!c) { snprintf(why, len, "the contact frame is NULL"); return 0; }
    if (!nsm_all_finite(c->normal, 3) || !nsm_all_finite(c->r1, 3) || !nsm_all_finite(c->r2, 3)) {
        snprintf(why, len, "the contact frame has a non-finite entry (normal, r1 or r2)");
        return 0;
    }
    double nr = sqrt(nsm_dot3(c->normal, c->normal));
    if (fabs(nr - 1.0) > 1e-8) { snprintf(why, len, "the normal has norm %g (must be 1)", nr); return 0; }
    return 1;
}

static void set_frame(nsm_relation *r, const nsm_contact_frame *c)
{
    double d[3][3];
    memcpy(d[0], c->normal, sizeof d[0]);
    nsm_contact_tangents(c->normal, d[1], d[2]);
    for (int i = 0; i < r->m; i++) {
        nsm_rigid_row *w = &r->rigid->row[i];
        w->type = NSM_RROW_POINT;
        memcpy(w->e, d[i], sizeof w->e);
        memcpy(w->r1, c->r1, sizeof w->r1); w->r1_world = c->r1_world;
        memcpy(w->r2, c->r2, sizeof w->r2); w->r2_world = c->r2_world;
        w->velocity_only = i > 0;
    }
    r->version++;
}

nsm_relation *nsm_relation_contact_new(int m, int nbodies, const nsm_contact_frame *c)
{
    static const char who[] = "nsm_relation_contact_new";
    char why[160];
    if (m != 1 && m != 3) return nsm_ctor_fail("%s: m = %d must be 1 (normal) or 3 (normal, two tangents)", who, m);
    if (!frame_ok(c, why, sizeof why)) return nsm_ctor_fail("%s: %s", who, why);
    nsm_relation *r = nsm_rigid_alloc(m, nbodies, who);
    if (!r) return NULL;
    r->rigid->contact = 1;
    set_frame(r, c);
    return r;
}

ns_status nsm_relation_contact_set(nsm_relation *r, const nsm_contact_frame *c)
{
    char why[160];
    if (!r || r->type != NSM_REL_RIGID || !r->rigid->contact || !frame_ok(c, why, sizeof why)) return NS_BAD_INPUT;
    set_frame(r, c);
    return NS_OK;
}

ns_status nsm_relation_contact_get(const nsm_relation *r, nsm_contact_frame *out)
{
    if (!r || !out || r->type != NSM_REL_RIGID || !r->rigid->contact) return NS_BAD_INPUT;
    const nsm_rigid_row *w = &r->rigid->row[0];
    memcpy(out->normal, w->e, sizeof out->normal);
    memcpy(out->r1, w->r1, sizeof out->r1); out->r1_world = w->r1_world;
    memcpy(out->r2, w->r2, sizeof out->r2); out->r2_world = w->r2_world;
    return NS_OK;
}

ns_status nsm_contact_frame_from_points(const double *q1, const double *q2,
                                        const double *p1, const double *p2,
                                        const double *normal, nsm_contact_frame *out)
{
    if (!q1 || !p1 || !p2 || !normal || !out || !nsm_all_finite(q1, 7) || (q2 && !nsm_all_finite(q2, 7)) ||
        !nsm_all_finite(p1, 3) || !nsm_all_finite(p2, 3) || !nsm_all_finite(normal, 3))
        return NS_BAD_INPUT;
    memset(out, 0, sizeof *out);
    memcpy(out->normal, normal, sizeof out->normal);
    double R[9], d[3];
    nsm_quat_matrix(q1 + 3, R);
    for (int c = 0; c < 3; c++) d[c] = p1[c] - q1[c];
    nsm_mat3t_vec(R, d, out->r1);
    if (q2) {
        nsm_quat_matrix(q2 + 3, R);
        for (int c = 0; c < 3; c++) d[c] = p2[c] - q2[c];
        nsm_mat3t_vec(R, d, out->r2);
    } else memcpy(out->r2, p2, sizeof out->r2);
    return NS_OK;
}
