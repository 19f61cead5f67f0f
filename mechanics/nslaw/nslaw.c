/* nslaw.c — nonsmooth laws: the type table and accessors.
 * Contract: include/nonsmooth/nsm_nslaw.h. */
#include "nslaw/nslaw_kind.h"
#include <math.h>
#include <stdlib.h>

static const nsm_nslaw_kind *const kinds[] = {
    [NSM_LAW_NEWTON] = &nsm_law_kind_newton,
    [NSM_LAW_NEWTON_COULOMB] = &nsm_law_kind_newton_coulomb,
    [NSM_LAW_COMPLEMENTARITY] = &nsm_law_kind_complementarity,
    [NSM_LAW_RELAY] = &nsm_law_kind_relay,
    [NSM_LAW_EQUALITY] = &nsm_law_kind_equality,
    [NSM_LAW_NEWTON_ROLLING] = &nsm_law_kind_newton_rolling,
};

const nsm_nslaw_kind *nsm_nslaw_kind_of(const nsm_nslaw *l) { return kinds[l->type]; }

nsm_nslaw *nsm_nslaw_alloc(nsm_nslaw_type type, int m, const char *who)
{
    if (m <= 0 || m > 1000000) return nsm_ctor_fail("%s: size %d must be in 1..1000000", who, m);
    nsm_nslaw *l = calloc(1, sizeof *l);
    if (!l) return nsm_ctor_fail("%s: out of memory", who);
    nsm_ctor_ok();
    l->type = type; l->size = m;
    return l;
}

int nsm_nslaw_impact_rows(const nsm_nslaw *l)
{
    int k = nsm_nslaw_kind_of(l)->impact_rows;
    return k < 0 ? l->size : k;
}

nsm_nslaw_type nsm_nslaw_get_type(const nsm_nslaw *l) { return l ? l->type : (nsm_nslaw_type)-1; }
int nsm_nslaw_size(const nsm_nslaw *l) { return l ? l->size : 0; }
double nsm_nslaw_restitution(const nsm_nslaw *l) { return l ? l->e : NAN; }
double nsm_nslaw_friction(const nsm_nslaw *l) { return l ? l->mu : NAN; }
double nsm_nslaw_rolling(const nsm_nslaw *l) { return l ? l->mu_r : NAN; }
double nsm_nslaw_pivoting(const nsm_nslaw *l) { return l ? l->mu_p : NAN; }

void nsm_nslaw_free(nsm_nslaw *l)
{
    if (!l || l->owner) return;   /* a model's law: the model frees it */
    free(l->lb); free(l->ub);
    free(l);
}
