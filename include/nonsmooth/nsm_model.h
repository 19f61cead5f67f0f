/* nsm_model.h — the nonsmooth dynamical system as a graph: systems,
 * nonsmooth laws, interactions, the linked-interaction map.
 *
 * The model is the description (read by a simulation step, never written by
 * it); the evolving data (states, y, λ, index sets, assembled problems) live
 * in the simulation (nsm_simulation.h). Interactions may be added and removed
 * between steps (contacts appear and vanish); their ids are slots that may be
 * reused after a removal, each reuse with a new generation number.
 *
 * Ownership: the model takes the systems, laws and relations given to it and
 * frees them in nsm_model_free. Functions returning an id return it (≥ 0) on
 * success and −1 on failure with the reason in nsm_model_error(). A model
 * argument that fails to be added (e.g. a relation of the wrong size) is
 * freed by the call too, so the caller never has to track it.
 *
 * One owner, checked: an object belongs to at most one model, once. Adding
 * a system, law or relation that a model (this one or another) already
 * holds is refused (−1, reason in nsm_model_error) and the object is left
 * to that model, untouched. nsm_ds_free, nsm_nslaw_free and
 * nsm_relation_free do nothing on an object a model holds (the model frees
 * it); a relation handed back by nsm_model_detach_interaction is the
 * caller's again.
 */
#ifndef NSM_MODEL_H
#define NSM_MODEL_H
#include "nsm_ds.h"
#include "nsm_relation.h"
#include "nsm_nslaw.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct nsm_model nsm_model;

nsm_model *nsm_model_new(void);
void nsm_model_free(nsm_model *m);

/** Adds a system (taken). Returns its id 0, 1, 2, ... */
int nsm_model_add_ds(nsm_model *m, nsm_ds *ds);
/** Adds a law (taken). Returns its id. */
int nsm_model_add_law(nsm_model *m, nsm_nslaw *law);

/** Adds an interaction coupling ds1 (and ds2, or −1 for one system) through
 *  rel (taken) with the law `law` (an id). Checks: ids exist; the relation
 *  kind matches the systems (Lagrangian relation ↔ Lagrangian systems,
 *  first-order relation ↔ first-order systems); rel's ncols = n1 (+ n2);
 *  the law's size = rel's size; the law fits the relation (Newton and
 *  Newton–Coulomb need a Lagrangian relation; relay a first-order one).
 *  Returns the interaction id or −1 (rel freed, reason in nsm_model_error). */
int nsm_model_add_interaction(nsm_model *m, nsm_relation *rel, int law,
                              int ds1, int ds2);
/** Removes an interaction (frees its relation). NS_BAD_INPUT for a bad id. */
ns_status nsm_model_remove_interaction(nsm_model *m, int inter);
/** Removes an interaction like nsm_model_remove_interaction but hands its
 *  relation back to the caller, who owns it again: to add it to a new
 *  interaction later (after nsm_relation_set_H for a contact: a contact
 *  detection that keeps such relations for the contacts it finds next
 *  allocates nothing once it has enough) or to free it with
 *  nsm_relation_free. NULL for a bad id (reason in nsm_model_error). */
nsm_relation *nsm_model_detach_interaction(nsm_model *m, int inter);

int nsm_model_nds(const nsm_model *m);
/** Number of interaction slots (ids are < this); some may be free. */
int nsm_model_inter_capacity(const nsm_model *m);
/** Number of live interactions. */
int nsm_model_ninter(const nsm_model *m);
/** 1 if inter is a live interaction id. */
int nsm_model_inter_alive(const nsm_model *m, int inter);
/** Generation of slot `inter` (changes each time the slot is reused). */
unsigned nsm_model_inter_generation(const nsm_model *m, int inter);

/** Borrowed pointers (owned by the model); NULL for a bad id. */
nsm_ds *nsm_model_ds(nsm_model *m, int id);
const nsm_ds *nsm_model_ds_const(const nsm_model *m, int id);
nsm_relation *nsm_model_relation(nsm_model *m, int inter);
const nsm_nslaw *nsm_model_law(const nsm_model *m, int law);
/** Law id of an interaction, −1 for a bad id. */
int nsm_model_inter_law(const nsm_model *m, int inter);
/** Systems of an interaction: returns their number (1 or 2) and fills ds[0..1]. */
int nsm_model_inter_ds(const nsm_model *m, int inter, int ds[2]);
/** Size m of an interaction (size of y and λ). */
int nsm_model_inter_size(const nsm_model *m, int inter);

/** The linked-interaction map: the live interactions β ≠ inter that share a
 *  system with inter; fills up to max entries of linked[] and common_ds[]
 *  (the shared system; an interaction sharing two systems appears twice, once
 *  per system) and returns the total count (may exceed max). */
int nsm_model_linked(const nsm_model *m, int inter, int *linked,
                     int *common_ds, int max);

/** Interactions attached to a system: fills up to max ids, returns the count. */
int nsm_model_ds_interactions(const nsm_model *m, int ds, int *inter, int max);

/** Why the calling thread's last constructor (nsm_ds_*_new,
 *  nsm_relation_*_new, nsm_nslaw_*_new) returned NULL, e.g.
 *  "nsm_ds_lagrangian_lti_new: n = 0 must be in 1..1000000"; "" after a
 *  constructor that succeeded. One buffer per thread (like errno): threads
 *  never see each other's reasons. nsm_model_add_* given a NULL argument
 *  repeat it in nsm_model_error(). */
const char *nsm_constructor_error(void);

/** Last error message ("" if none). Owned by the model. */
const char *nsm_model_error(const nsm_model *m);

#ifdef __cplusplus
}
#endif
#endif
