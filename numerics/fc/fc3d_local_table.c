/* fc3d_local_table.c — the table of one-contact solvers and the safeguarded
 * call used by every sweep:  r ← f(r); if that misses tol, r ← the better
 * of f's answer and the exact enumeration, then an AC Newton polish. */
#include "fc/fc3d_local.h"
#include <string.h>

static const struct { const char *name; ns_fc_local_fn fn; } table[] = {
    { "ac", ns_fc_local_ac },     { "fb", ns_fc_local_fb },
    { "nm", ns_fc_local_nm },     { "proj", ns_fc_local_proj },
    { "enum", ns_fc_local_enum },
};

ns_fc_local_fn ns_fc_local_find(const char *name)
{
    if (!name) return ns_fc_local_ac;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].name, name) == 0) return table[i].fn;
    return NULL;
}

int ns_fc_local_solve(ns_fc_local_fn f, const ns_fc_contact *c, double *r)
{
    if (f(c, r) == 0) return 0;
    if (ns_fc_local_enum(c, r) == 0) return 0;
    return ns_fc_local_ac(c, r);
}
