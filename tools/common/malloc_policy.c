/* malloc_policy.c — see malloc_policy.h. */
#include "malloc_policy.h"
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

enum { TOP_PAD = 64 << 20 };   /* free memory kept at the heap's top */

void ns_tool_malloc_policy(void)
{
#if defined(__GLIBC__)
    if (getenv("GLIBC_TUNABLES")) return;
    mallopt(M_TOP_PAD, TOP_PAD);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}

void ns_tool_malloc_policy_cap(double bytes)
{
#if defined(__GLIBC__)
    if (getenv("GLIBC_TUNABLES")) return;
    if (bytes < (double)TOP_PAD) mallopt(M_TOP_PAD, bytes > 0 ? (int)bytes : 0);
#else
    (void)bytes;
#endif
}
