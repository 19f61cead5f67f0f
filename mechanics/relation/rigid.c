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

nsm_relation *nsm_rigid_alloc(int m, int nbodies, const char *who)
{
    if (nbodies != 1 && nbodies != 2) return nsm_ctor_fail("%s: nbodies = %d must be 1 or 2", who, nbodies);
    nsm_relation *r = nsm_relation_alloc(NSM_REL_RIGID, m, 6 * nbodies, who);
    if (!r) return NULL;
    r->rigid = calloc(1, sizeof *r->rigid + (size_t)m * sizeof(nsm_rigid_row));
    if (!r->rigid) { nsm_relation_free(r); return nsm_ctor_fail("%s: out of memory", who); }
    r->rigid->nbodies = nbodies;
    return r;
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
        } else {   /* TWIST */
            y[i] = 0.0;
            nsm_mat3_vec(R1, w->a, c1);
            for (int c = 0; c < 3; c++) { c2[c] = -c1[c]; E[c] = 0.0; }
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
static int mean_jacobian(const nsm_relation *r, const double *Qk, const double *Q1, double *H)
{
    const struct nsm_rigid_rows *rr = r->rigid;
    int m = r->m, nb = rr->nbodies;
    for (int i = 0; i < m; i++) {
        const nsm_rigid_row *w = &rr->row[i];
        if (w->type == NSM_RROW_TWIST || (w->type == NSM_RROW_POINT && (w->r1_world || (nb == 2 && w->r2_world))))
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
