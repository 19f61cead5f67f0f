/* complementarity.c — 0 ≤ y ⊥ λ ≥ 0 componentwise. */
#include "nslaw/nslaw_kind.h"
#include <math.h>

nsm_nslaw *nsm_nslaw_complementarity_new(int m) { return nsm_nslaw_alloc(NSM_LAW_COMPLEMENTARITY, m, "nsm_nslaw_complementarity_new"); }

static void bounds(const nsm_nslaw *l, int c, double *lb, double *ub) { (void)l; (void)c; *lb = 0.0; *ub = INFINITY; }

const nsm_nslaw_kind nsm_law_kind_complementarity = {
    .type = NSM_LAW_COMPLEMENTARITY, .name = "complementarity",
    .rows = NSM_ROWS_COMPLEMENTARITY, .unilateral = 1, .bounds = bounds,
};
