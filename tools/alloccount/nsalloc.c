/* nsalloc.c — see nsalloc.h. */
#include "nsalloc.h"
#include <stddef.h>
#include <stdlib.h>   /* glibc's features.h: __GLIBC__ */

#if defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__)
#define NSALLOC_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSALLOC_OFF 1
#endif
#endif

#ifdef NSALLOC_OFF

unsigned long long nsalloc_count(void) { return 0; }
int nsalloc_available(void) { return 0; }
void nsalloc_region(int on) { (void)on; }

#else

#include <errno.h>
#include <execinfo.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t k, size_t n);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t al, size_t n);

static unsigned long long calls;
static int in_region;
static long trace_left = -1;          /* −1: NSALLOC_TRACE not read yet */
static __thread int busy;             /* inside a backtrace: do not recurse */

static void trace(void)
{
    if (!__atomic_load_n(&in_region, __ATOMIC_RELAXED) || busy) return;
    if (__atomic_load_n(&trace_left, __ATOMIC_RELAXED) <= 0) return;
    if (__atomic_sub_fetch(&trace_left, 1, __ATOMIC_RELAXED) < 0) return;
    busy = 1;
    void *frames[24];
    int n = backtrace(frames, 24);
    static const char head[] = "nsalloc: allocation in region:\n";
    ssize_t w = write(2, head, sizeof head - 1);
    (void)w;
    backtrace_symbols_fd(frames + 1, n - 1, 2);
    busy = 0;
}

static inline void counted(void)
{
    __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
    if (__atomic_load_n(&in_region, __ATOMIC_RELAXED)) trace();
}

void *malloc(size_t n) { counted(); return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { counted(); return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { counted(); return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t al, size_t n) { counted(); return __libc_memalign(al, n); }
void *aligned_alloc(size_t al, size_t n) { counted(); return __libc_memalign(al, n); }
void *valloc(size_t n) { counted(); return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), n); }
int posix_memalign(void **p, size_t al, size_t n)
{
    counted();
    if (al < sizeof(void *) || (al & (al - 1)) != 0) return EINVAL;
    void *q = __libc_memalign(al, n);
    if (!q && n) return ENOMEM;
    *p = q;
    return 0;
}

unsigned long long nsalloc_count(void) { return __atomic_load_n(&calls, __ATOMIC_RELAXED); }
int nsalloc_available(void) { return 1; }

void nsalloc_region(int on)
{
    if (on && __atomic_load_n(&trace_left, __ATOMIC_RELAXED) < 0) {
        const char *e = getenv("NSALLOC_TRACE");
        long n = e ? strtol(e, NULL, 10) : 0;
        if (n > 0) {   /* load libgcc's unwinder now; its allocations are not counted */
            void *f[2];
            unsigned long long c0 = nsalloc_count();
            busy = 1;
            backtrace(f, 2);
            busy = 0;
            __atomic_sub_fetch(&calls, nsalloc_count() - c0, __ATOMIC_RELAXED);
        }
        __atomic_store_n(&trace_left, n > 0 ? n : 0, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&in_region, on, __ATOMIC_RELAXED);
}

#endif
