/* relay.c — relay law lb ≤ λ ≤ ub, −y ∈ N_[lb,ub](λ). On a Lagrangian
 * relation y is the velocity ẏ_{k+1} = H v_{k+1} and λ the impulse over
 * the step (dry friction: bounds ± force × h). */
#include "nslaw/nslaw_kind.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

nsm_nslaw *nsm_nslaw_relay_new(int m, const double *lb, const double *ub)
{
    static const char who[] = "nsm_nslaw_relay_new";
    if (!lb || !ub) return nsm_ctor_fail("%s: lb and ub are required", who);
    nsm_nslaw *l = nsm_nslaw_alloc(NSM_LAW_RELAY, m, who);
    if (!l) return NULL;
    for (int i = 0; i < m; i++)
        if (isnan(lb[i]) || isnan(ub[i]) || lb[i] > ub[i]) {
            nsm_nslaw_free(l);
            return nsm_ctor_fail("%s: bounds of row %d [%g, %g] must satisfy lb <= ub", who, i, lb[i], ub[i]);
        }
    l->lb = malloc((size_t)m * sizeof *l->lb);
    l->ub = malloc((size_t)m * sizeof *l->ub);
    if (!l->lb || !l->ub) { nsm_nslaw_free(l); return nsm_ctor_fail("%s: out of memory", who); }
    memcpy(l->lb, lb, (size_t)m * sizeof *lb);
    memcpy(l->ub, ub, (size_t)m * sizeof *ub);
    return l;
}

static void bounds(const nsm_nslaw *l, int c, double *lb, double *ub) { *lb = l->lb[c]; *ub = l->ub[c]; }

const nsm_nslaw_kind nsm_law_kind_relay = {
    .type = NSM_LAW_RELAY, .name = "relay", .rows = NSM_ROWS_RELAY,
    .bounds = bounds,
};
