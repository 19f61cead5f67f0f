/* solver_spec.c — whether a solver spec (nsm_sim_options.solver,
 * nsm_ed_options.solver: NAME[/key=value]..., parsed by numerics'
 * ns_solver_spec_parse) fits a problem kind. */
#include "nsm_internal.h"

int nsm_spec_applies(const char *spec, ns_kind k)
{
    char name[NS_SOLVER_NAME_LEN];
    ns_options scratch;
    ns_options_default(&scratch);
    return spec && ns_solver_spec_parse(spec, k, name, sizeof name, &scratch, NULL) == NS_OK;
}
