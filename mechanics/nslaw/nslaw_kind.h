/* nslaw_kind.h — the behaviour of a law type: how its rows map onto the
 * one-step problem. One table row per type (nsm_nslaw_type), defined in
 * that type's file, listed in nslaw.c.
 *
 * Row classes: the assembly (osnsp/assembly.c) counts the active rows of
 * each class and picks the problem kind from that count (LCP, MLCP,
 * relay, equality, FC2D/FC3D); a new class of rows (or a new combination,
 * e.g. the generic mechanical problem) is a change there only. */
#ifndef NSM_NSLAW_KIND_H
#define NSM_NSLAW_KIND_H
#include "nsm_internal.h"

typedef enum nsm_row_class {
    NSM_ROWS_EQUALITY = 0,     /* y = 0, λ free */
    NSM_ROWS_COMPLEMENTARITY,  /* 0 ≤ y ⊥ λ ≥ 0 */
    NSM_ROWS_RELAY,            /* lb ≤ λ ≤ ub, −y ∈ N(λ) */
    NSM_ROWS_FRICTION,         /* a contact: normal row then tangential rows */
    NSM_ROWS_ROLLING,          /* a contact: normal, sliding, rolling rows (RFC) */
    NSM_ROWS_NCLASSES
} nsm_row_class;

typedef struct nsm_nslaw_kind {
    nsm_nslaw_type type;
    const char *name;
    nsm_row_class rows;
    int unilateral;           /* Lagrangian rows activated by the predicted gap */
    int activation_rows;      /* rows whose gap activates it (0: all m) */
    int impact_rows;          /* leading rows with a Newton restitution (−1: all m) */
    int lagrangian_only;      /* needs a Lagrangian relation (velocity level) */
    int first_order_only;     /* needs a first-order relation */
    /* bounds of row c (relay class; complementarity rows: [0, ∞)) */
    void (*bounds)(const nsm_nslaw *l, int c, double *lb, double *ub);
} nsm_nslaw_kind;

extern const nsm_nslaw_kind nsm_law_kind_newton, nsm_law_kind_newton_coulomb,
    nsm_law_kind_complementarity, nsm_law_kind_relay, nsm_law_kind_equality,
    nsm_law_kind_newton_rolling;

const nsm_nslaw_kind *nsm_nslaw_kind_of(const nsm_nslaw *l);
nsm_nslaw *nsm_nslaw_alloc(nsm_nslaw_type type, int m, const char *who);
/** Rows with a Newton restitution of law l (0 .. m). */
int nsm_nslaw_impact_rows(const nsm_nslaw *l);
#endif
