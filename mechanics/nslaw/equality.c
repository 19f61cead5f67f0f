/* equality.c — y = 0, λ free (bilateral constraint). */
#include "nslaw/nslaw_kind.h"

nsm_nslaw *nsm_nslaw_equality_new(int m) { return nsm_nslaw_alloc(NSM_LAW_EQUALITY, m, "nsm_nslaw_equality_new"); }

const nsm_nslaw_kind nsm_law_kind_equality = {
    .type = NSM_LAW_EQUALITY, .name = "equality", .rows = NSM_ROWS_EQUALITY,
};
