/* core_progress.c — what the iterative solvers do at the end of each
 * iteration of their main loop: record the error in the result's history
 * (ns_options.record_history) and ask the caller whether to stop
 * (ns_options.cancel). One function, so every solver behaves alike. */
#include "nonsmooth/ns_solver.h"
#include "core/ns_internal.h"
#include <stdlib.h>

int ns_iteration_record(const ns_options *o, ns_result *res, double err)
{
    /* Only the result ns_solve armed records (a history buffer of
     * NS_HISTORY_FIRST): the results of a solver's inner solves do not. */
    if (o->record_history && res && res->history) {
        int n = res->history_len;
        if (n >= NS_HISTORY_FIRST && (n & (n - 1)) == 0) {   /* full: double it */
            double *h = realloc(res->history, 2 * (size_t)n * sizeof *h);
            if (!h) goto ask;   /* the history stops growing; the solve goes on */
            res->history = h;
        }
        res->history[n] = err;
        res->history_len = n + 1;
    }
ask:
    return ns_cancelled(o);
}
