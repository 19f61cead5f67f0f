/* osi.h — one-step integrators of the time-stepping scheme, one table per
 * integrator (Moreau–Jean for Lagrangian systems, Euler–Moreau for first
 * order). An integrator works on one system: its description (nsm_ds), its
 * data (nsm_dsdata: state, free state, iteration matrix) and the step
 * (times, h, Newton iteration); it never sees the simulation.
 *
 * A step with Newton iterations α = 0, 1, ...:
 *   free_state(α)   linearise at the iterate (α = 0: the predictor
 *                   q* = q_k + h v_k, v* = v_k, or x_k), factorise W,
 *                   free velocity / state;
 *   (the one-step problem adds W G λ to v or x: input_scale · W G λ)
 *   update          position from the velocities (Moreau–Jean θ rule);
 *   residual        the Newton residual at the updated iterate, relative
 *                   to the size of its terms; it also leaves the
 *                   linearisation at that iterate for free_state(α + 1). */
#ifndef NSM_OSI_H
#define NSM_OSI_H
#include "nsm_internal.h"

typedef struct nsm_step {
    double t0, t1, h;
    int iter;                 /* Newton iteration α (0: first) */
    double gamma;             /* Euler–Moreau weight of r_{k+1} (1: h r_{k+1}) */
} nsm_step;

typedef struct nsm_osi {
    const char *name;
    int corrects_velocity;    /* 1: W G λ goes to v (Lagrangian); 0: to x */
    /* factor of W G λ in the state and in the one-step matrix (1 or h) */
    double (*input_scale)(const nsm_step *st);
    /* W factorised at creation (constant systems); t: time of W */
    ns_status (*build_W)(const nsm_ds *ds, int j, nsm_dsdata *d, double h, double t, char *err);
    /* step start: keeps q_k, v_k (x_k) and sets the first iterate */
    void (*begin)(const nsm_ds *ds, nsm_dsdata *d, const nsm_step *st);
    ns_status (*free_state)(const nsm_ds *ds, int j, nsm_dsdata *d, const nsm_step *st, char *err);
    void (*update)(const nsm_ds *ds, nsm_dsdata *d, const nsm_step *st);
    /* Newton residual of the current iterate: relative to its largest term
     * (returned, ≥ 0, or −1 on error) and its absolute 2-norm (*abs2) */
    double (*residual)(const nsm_ds *ds, int j, nsm_dsdata *d, const nsm_step *st,
                       double *abs2, char *err);
} nsm_osi;

extern const nsm_osi nsm_osi_moreau_jean, nsm_osi_euler_moreau;

/** The integrator of system data d. */
static inline const nsm_osi *nsm_osi_of(const nsm_dsdata *d)
{
    return d->lagrangian ? &nsm_osi_moreau_jean : &nsm_osi_euler_moreau;
}
#endif
