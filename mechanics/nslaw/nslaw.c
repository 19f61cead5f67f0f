/* nslaw.c — nonsmooth laws: constructors and accessors.
 * Contract: include/nonsmooth/nsm_nslaw.h. */
#include "nsm_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static nsm_nslaw *law_alloc(nsm_nslaw_type type, int m)
{
    if (m <= 0 || m > 1000000) return NULL;
    nsm_nslaw *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->type = type; l->size = m;
    return l;
}

nsm_nslaw *nsm_nslaw_newton_new(int m, double e)
{
    if (!(e >= 0.0 && e <= 1.0)) return NULL;
    nsm_nslaw *l = law_alloc(NSM_LAW_NEWTON, m);
    if (l) l->e = e;
    return l;
}

nsm_nslaw *nsm_nslaw_newton_coulomb_new(int dim, double e, double mu)
{
    if ((dim != 2 && dim != 3) || !(e >= 0.0 && e <= 1.0) || !(mu >= 0.0) || !isfinite(mu))
        return NULL;
    nsm_nslaw *l = law_alloc(NSM_LAW_NEWTON_COULOMB, dim);
    if (l) { l->e = e; l->mu = mu; }
    return l;
}

nsm_nslaw *nsm_nslaw_complementarity_new(int m) { return law_alloc(NSM_LAW_COMPLEMENTARITY, m); }
nsm_nslaw *nsm_nslaw_equality_new(int m) { return law_alloc(NSM_LAW_EQUALITY, m); }

nsm_nslaw *nsm_nslaw_relay_new(int m, const double *lb, const double *ub)
{
    if (!lb || !ub) return NULL;
    for (int i = 0; i < m; i++)
        if (isnan(lb[i]) || isnan(ub[i]) || lb[i] > ub[i]) return NULL;
    nsm_nslaw *l = law_alloc(NSM_LAW_RELAY, m);
    if (!l) return NULL;
    l->lb = malloc((size_t)m * sizeof *l->lb);
    l->ub = malloc((size_t)m * sizeof *l->ub);
    if (!l->lb || !l->ub) { nsm_nslaw_free(l); return NULL; }
    memcpy(l->lb, lb, (size_t)m * sizeof *lb);
    memcpy(l->ub, ub, (size_t)m * sizeof *ub);
    return l;
}

nsm_nslaw_type nsm_nslaw_get_type(const nsm_nslaw *l) { return l->type; }
int nsm_nslaw_size(const nsm_nslaw *l) { return l ? l->size : 0; }
double nsm_nslaw_restitution(const nsm_nslaw *l) { return l ? l->e : 0.0; }
double nsm_nslaw_friction(const nsm_nslaw *l) { return l ? l->mu : 0.0; }

void nsm_nslaw_free(nsm_nslaw *l)
{
    if (!l) return;
    free(l->lb); free(l->ub);
    free(l);
}
