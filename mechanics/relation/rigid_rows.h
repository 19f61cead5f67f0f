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
 * ω_w = R ω; H's ω columns are R_kᵀ times the world coefficient. */
#ifndef NSM_RIGID_ROWS_H
#define NSM_RIGID_ROWS_H
#include "relation/relation_kind.h"

enum { NSM_RROW_POINT = 0, NSM_RROW_AXES, NSM_RROW_TWIST };

typedef struct nsm_rigid_row {
    int type;
    double e[3]; int e_body;
    double r1[3]; int r1_world;
    double r2[3]; int r2_world;
    double a[3], b[3];
    double c0;
    int velocity_only;        /* y reported 0 (tangent rows of a contact) */
} nsm_rigid_row;

struct nsm_rigid_rows {
    int nbodies;
    int contact;              /* 1: rows built from an nsm_contact_frame */
    nsm_rigid_row row[];      /* m rows */
};

/** A rigid relation of m rows over nbodies bodies (rows zeroed). */
nsm_relation *nsm_rigid_alloc(int m, int nbodies, const char *who);
#endif
