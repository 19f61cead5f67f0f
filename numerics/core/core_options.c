/* core_options.c — solver options: defaults and validation; results. */
#include "nonsmooth/ns_solver.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ns_options_default(ns_options *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->tol = 1e-8;
    o->seed = 1;
}

ns_status ns_options_validate(const ns_options *o, char *err)
{
    if (!o) return ns_fail(err, NS_BAD_INPUT, "options: none given");
    if (!(o->tol > 0) || !isfinite(o->tol))
        return ns_fail(err, NS_BAD_INPUT, "options: tol: %g is not a positive number", o->tol);
    if (o->max_iter < 0)
        return ns_fail(err, NS_BAD_INPUT, "options: max_iter: %d is negative", o->max_iter);
    if (!(o->time_limit >= 0) || isinf(o->time_limit))
        return ns_fail(err, NS_BAD_INPUT, "options: time_limit: %g is not ≥ 0", o->time_limit);
    if (!(o->omega >= 0 && o->omega < 2))
        return ns_fail(err, NS_BAD_INPUT, "options: omega: %g is not in [0, 2)", o->omega);
    if (o->check_every < 0)
        return ns_fail(err, NS_BAD_INPUT, "options: check_every: %d is negative", o->check_every);
    if (o->sweep != 0 && o->sweep != 1)
        return ns_fail(err, NS_BAD_INPUT, "options: sweep: %d is not 0 (forward) or 1 (symmetric)", o->sweep);
    if (o->anderson < 0 || o->anderson > 16)
        return ns_fail(err, NS_BAD_INPUT, "options: anderson: %d is not in [0, 16]", o->anderson);
    if (o->threads < 0 || o->threads > 4096)
        return ns_fail(err, NS_BAD_INPUT, "options: threads: %d is not in [0, 4096]", o->threads);
    if (o->verbosity < 0)
        return ns_fail(err, NS_BAD_INPUT, "options: verbosity: %d is negative (0: silent)", o->verbosity);
    if (o->warm_start != 0 && o->warm_start != 1)
        return ns_fail(err, NS_BAD_INPUT, "options: warm_start: %d is not 0 or 1", o->warm_start);
    if (o->shuffle != 0 && o->shuffle != 1)
        return ns_fail(err, NS_BAD_INPUT, "options: shuffle: %d is not 0 or 1", o->shuffle);
    if (o->record_history != 0 && o->record_history != 1)
        return ns_fail(err, NS_BAD_INPUT, "options: record_history: %d is not 0 or 1", o->record_history);
    if (o->fc_norm != 0 && o->fc_norm != 1)
        return ns_fail(err, NS_BAD_INPUT, "options: fc_norm: %d is not 0 or 1", o->fc_norm);
    return NS_OK;
}

void ns_result_init(ns_result *r)
{
    if (r) memset(r, 0, sizeof *r);
}

void ns_result_clear(ns_result *r)
{
    if (!r) return;
    free(r->history);
    r->history = NULL;
    r->history_len = 0;
    free(r->cert.y);
    memset(&r->cert, 0, sizeof r->cert);
}
