/* rigid_rows.h — the rows of a rigid-body relation (contacts, joints):
 * each row is a scalar constraint between body 1 and body 2 (or the
 * fixed world), with its Jacobian on the bodies' velocities (v, ω body).
 *   POINT: y = E · (p1 − p2) − c0, p_k = x_k + arm_k, E a world direction
 *          or fixed in body 1 (e_body); arm_k = R_k r_k (material point)
 *          or r_k (world arm); with one body p2 = r2 (a world point).
 *          ẏ = E·(v1 − v2) + ω1_w·(arm1 × E [+ E × (p1 − p2)]) − ω2_w·(arm2 × E)
 *   AXES:  y = (R1 a) · (R2 b) − c0 (b a world vector with one body),
 *          ẏ = (ω1_w − ω2_w) · (A × B).
 *   TWIST: velocity only (y reported 0), ẏ = (ω1_w − ω2_w) · R1 a: the
 *          relative rotation rate about a direction fixed in body 1.
 *   COUPLE: y = Σ_k coef_k c_k over the two joint coordinates of a coupler
 *          (nsm_coord_term), each a function of the poses of two of
 *          {body 1, body 2, world}.
 * ω_w = R ω; H's ω columns are R_kᵀ times the world coefficient. */
#ifndef NSM_RIGID_ROWS_H
#define NSM_RIGID_ROWS_H
#include "relation/relation_kind.h"

enum { NSM_RROW_POINT = 0, NSM_RROW_AXES, NSM_RROW_TWIST, NSM_RROW_COUPLE };

/* One joint coordinate of a COUPLE row, between the joint's body P and
 * body Q (ip, iq: 0 body 1, 1 body 2, −1 the world):
 *   angle (slide = 0): φ = atan2(U2·W, U1·W), U1, U2 fixed in P (u1, u2),
 *          W fixed in Q (w): the rotation of Q relative to P about
 *          U1 × U2, unwrapped across ±π (last, turns: the previous wrapped
 *          value and the number of turns, updated at each evaluation);
 *   slide (slide = 1): s = E · (pQ − pP), E = R_P e, p = x + R r. */
typedef struct nsm_coord_term {
    int slide, ip, iq;
    double u1[3], u2[3], w[3];
    double e[3], rp[3], rq[3];
    double coef;
    double last;
    int turns;
} nsm_coord_term;

typedef struct nsm_rigid_row {
    int type;
    double e[3]; int e_body;
    double r1[3]; int r1_world;
    double r2[3]; int r2_world;
    double a[3], b[3];
    double c0;
    int velocity_only;        /* y reported 0 (tangent rows of a contact) */
    nsm_coord_term *term;     /* COUPLE: its two terms (in the relation's block) */
} nsm_rigid_row;

struct nsm_rigid_rows {
    int nbodies;
    int contact;              /* 1: rows built from an nsm_contact_frame */
    nsm_rigid_row row[];      /* m rows */
};

/** A rigid relation of m rows over nbodies bodies (rows zeroed). */
nsm_relation *nsm_rigid_alloc(int m, int nbodies, const char *who);
/** The same with room for nterms coordinate terms after the rows
 *  (*terms points at them, zeroed; freed with the relation). */
nsm_relation *nsm_rigid_alloc_terms(int m, int nbodies, int nterms, nsm_coord_term **terms, const char *who);
#endif
