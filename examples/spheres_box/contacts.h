/* contacts.h — contact detection and contact management of the spheres_box
 * example: spheres against the five walls of an open box (floor z = 0 and
 * the planes x = ±ax, y = ±ay) and against each other.
 *
 * Broad phase: the uniform grid of nsx_cells.h (O(n) per call, no
 * allocation once its buffers have grown); walls: one test per sphere and
 * wall. Narrow phase: exact gap of two spheres or of a sphere and a plane. A contact is an interaction of the
 * model (Lagrangian linear relation, 3 rows: normal first, then two
 * tangents) that exists while its gap is below a margin: it is added when
 * the gap drops below the margin and removed when it rises above it; while
 * it exists, its H and b are refreshed from the current positions at each
 * call, so that y = (gap, 0, 0) at the call and ẏ = H v is the relative
 * velocity at the contact point (translation and ω × r). A removed
 * contact's relation is taken back (nsm_model_detach_interaction) and kept
 * for the next new contact of the same shape (wall or sphere pair), so
 * that detection allocates nothing once the scene's churn has been seen.
 *
 * A sphere is a Lagrangian system with q = (x, y, z, ψ) of size 6 and
 * v = (ẋ, ẏ, ż, ω), ω the angular velocity in the world frame; ψ only
 * integrates ω (a sphere's contacts do not depend on its orientation).
 */
#ifndef SBX_CONTACTS_H
#define SBX_CONTACTS_H
#include "nonsmooth/nsm.h"

typedef struct sbx_contacts sbx_contacts;

typedef struct sbx_geom {
    double max_penetration;   /* max over sphere pairs and walls of −gap (≥ 0) */
    int ninteractions;        /* contacts held in the model after the call */
    int added, removed;       /* by this call */
    long pair_tests;          /* sphere-pair distances computed by this call */
} sbx_geom;

/** n spheres of radii R (copied), system ids ds (copied), box half-widths
 *  ax, ay, law id of the contacts. NULL on allocation failure. */
sbx_contacts *sbx_contacts_new(int n, const double *R, const int *ds,
                               double ax, double ay, int law);
/** on = 1: contacts are made with 5 rows (normal, 2 sliding, then the
 *  relative angular velocity about the two tangents: the rolling rows of
 *  nsm_nslaw_newton_rolling_new), for a rolling law; on = 2: 6 rows, the
 *  sixth the relative angular velocity about the normal (the pivoting row
 *  of nsm_nslaw_newton_rolling_pivot_new); 0: 3 rows (default). Only
 *  before the first update; −1 otherwise. */
int sbx_contacts_set_rolling(sbx_contacts *c, int on);
/** Bytes held by c (contact records and the grid), for memory reports. */
size_t sbx_contacts_bytes(const sbx_contacts *c);
void sbx_contacts_free(sbx_contacts *c);

/** Detects the contacts at the positions pos[i] (3 values, the first of q)
 *  with the given margin; adds, removes and refreshes interactions of m.
 *  Returns 0, or −1 (message in err, NS_ERRMSG_LEN) when the model refuses
 *  an interaction or memory runs out. */
int sbx_contacts_update(sbx_contacts *c, nsm_model *m,
                        const double *const *pos, double margin,
                        sbx_geom *g, char *err);

#endif
