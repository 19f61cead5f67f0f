/* core_status.c — names of statuses and kinds. */
#include "nonsmooth/ns_status.h"
#include "nonsmooth/ns_kind.h"
#include "nonsmooth/ns_version.h"
#include <string.h>

const char *ns_status_name(ns_status s)
{
    switch (s) {
    case NS_OK: return "converged";
    case NS_MAX_ITER: return "max_iter";
    case NS_NO_SOLUTION: return "no_solution";
    case NS_SINGULAR: return "singular";
    case NS_TIME_LIMIT: return "time_limit";
    case NS_DIVERGED: return "diverged";
    case NS_FAILED: return "failed";
    case NS_INTERRUPTED: return "interrupted";
    case NS_BAD_INPUT: return "bad_input";
    case NS_NO_MEMORY: return "no_memory";
    case NS_IO_ERROR: return "io_error";
    case NS_UNSUPPORTED: return "unsupported";
    case NS_NOT_FOUND: return "not_found";
    }
    return "unknown";
}

int ns_status_is_outcome(ns_status s)
{
    return s >= NS_OK && s <= NS_INTERRUPTED;
}

static const char *const kind_names[NS_KIND_COUNT] = {
    "none", "lcp", "mlcp", "relay", "avi", "equality",
    "fc2d", "fc3d", "gfc2d", "gfc3d", "gmp",
    "rfc3d", "rfc2d", "grfc3d",
    "ncp", "mcp", "vi", "cqp", "soclcp"
};

const char *ns_kind_name(ns_kind k)
{
    if ((int)k < 0 || k >= NS_KIND_COUNT) return "none";
    return kind_names[k];
}

ns_kind ns_kind_from_name(const char *name)
{
    if (!name) return NS_KIND_NONE;
    for (int k = 1; k < NS_KIND_COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0) return (ns_kind)k;
    return NS_KIND_NONE;
}

const char *ns_version(void)
{
    return NS_VERSION_STRING;
}
