/* core_util.c — messages, allocation, small vector helpers. */
#define _POSIX_C_SOURCE 200809L
#include "core/ns_internal.h"
#include "nonsmooth/ns_solver.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cblas.h>

ns_status ns_fail(char *err, ns_status st, const char *fmt, ...)
{
    if (err) {   /* formatted apart: an argument may be err itself */
        char buf[NS_ERRMSG_LEN];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        memcpy(err, buf, strlen(buf) + 1);
    }
    return st;
}

void ns_log(const ns_options *o, int level, const char *fmt, ...)
{
    if (!o || !o->log || o->verbosity < level) return;
    char msg[NS_ERRMSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    o->log(o->log_user, level, msg);
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

/* x * 0 is 0 for finite x and NaN for ±Inf or NaN, so a chunk whose sum of
 * x * 0 is not 0 holds a non-finite value. Two-lane vectors (SSE2, the
 * x86-64 baseline; GCC/Clang vector extension, scalar code elsewhere) and no
 * branch per element: about 1 instruction per element against ~8 for an
 * isfinite test per element. Only a bad chunk is searched element by
 * element. */
long ns_first_nonfinite(const double *x, size_t n)
{
    enum { CHUNK = 512 };
    if (n < 8) {   /* the small blocks of a small problem: no vector set-up */
        double s = 0.0;
        for (size_t k = 0; k < n; k++) s += x[k] * 0.0;
        if (s == 0.0) return -1;
        for (size_t k = 0; k < n; k++)
            if (!isfinite(x[k])) return (long)k;
        return -1;
    }
    for (size_t c = 0; c < n; c += CHUNK) {
        size_t e = n - c < CHUNK ? n : c + CHUNK;
        size_t k = c;
        double s = 0.0;
#if defined(__GNUC__)
        ns_v2d a0 = { 0.0, 0.0 }, a1 = a0, a2 = a0, a3 = a0, v0, v1, v2, v3;
        for (; k + 8 <= e; k += 8) {
            v0 = ns_v2d_load(x + k);
            v1 = ns_v2d_load(x + k + 2);
            v2 = ns_v2d_load(x + k + 4);
            v3 = ns_v2d_load(x + k + 6);
            a0 += v0 * 0.0;
            a1 += v1 * 0.0;
            a2 += v2 * 0.0;
            a3 += v3 * 0.0;
        }
        a0 = (a0 + a1) + (a2 + a3);
        s = a0[0] + a0[1];
#endif
        for (; k < e; k++) s += x[k] * 0.0;
        if (s == 0.0) continue;
        for (k = c; k < e; k++)
            if (!isfinite(x[k])) return (long)k;
    }
    return -1;
}

/* Plain sum of squares first (no call overhead: small vectors are the
 * common case in the error functions); CBLAS' scaled dnrm2 only when the
 * sum could have overflowed or lost precision to underflow. */
double ns_norm2(const double *x, size_t n)
{
    if (n == 0) return 0.0;
    if (n <= 64) {
        double s = 0.0;
        for (size_t k = 0; k < n; k++) s += x[k] * x[k];
        if (s < 1e300 && (s > 1e-290 || s == 0.0)) {
            if (s > 0.0) return sqrt(s);
            /* all zero, or every square underflowed: only true zeros give 0 */
            size_t k = 0;
            while (k < n && x[k] == 0.0) k++;
            if (k == n) return 0.0;
        }
        if (s != s) return s;   /* NaN in x */
    }
    return cblas_dnrm2((int)n, x, 1);
}

double ns_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void ns_clock_start(ns_clock *c, double limit, double iter_work)
{
    c->limit = limit > 0 ? limit : 0.0;
    c->work = 0.0;
    c->start = c->limit > 0 && iter_work >= NS_CLOCK_WORK / 64 ? ns_now() : -1.0;
}

int ns_clock_read(ns_clock *c)
{
    c->work = 0.0;
    double t = ns_now();
    if (c->start < 0.0) { c->start = t; return 0; }
    return t - c->start > c->limit;
}
