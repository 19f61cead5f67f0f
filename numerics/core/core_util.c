/* core_util.c — messages, allocation, small vector helpers. */
#define _POSIX_C_SOURCE 200809L
#include "core/ns_internal.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cblas.h>

ns_status ns_fail(char *err, ns_status st, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, NS_ERRMSG_LEN, fmt, ap);
        va_end(ap);
    }
    return st;
}

void *ns_malloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    size_t b = n * size;
    return malloc(b ? b : 1);
}

void *ns_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    return calloc(n ? n : 1, size ? size : 1);
}

double *ns_dup(const double *src, size_t n)
{
    if (!src) return NULL;
    double *d = ns_malloc(n, sizeof *d);
    if (d && n) memcpy(d, src, n * sizeof *d);
    return d;
}

int ns_all_finite(const double *x, size_t n)
{
    return ns_first_nonfinite(x, n) < 0;
}

long ns_first_nonfinite(const double *x, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!isfinite(x[k])) return (long)k;
    return -1;
}

double ns_norm2(const double *x, size_t n)
{
    if (n == 0) return 0.0;
    return cblas_dnrm2((int)n, x, 1);
}

double ns_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
