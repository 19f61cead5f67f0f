/* nsalloc.h — heap allocation counter (tools/alloccount).
 *
 * nsalloc.c defines malloc, calloc, realloc, free and the aligned
 * allocators on top of glibc's __libc_* entry points and counts every
 * allocating call (malloc, calloc, realloc, posix_memalign, aligned_alloc,
 * memalign, valloc). Two ways to use it:
 *
 *  - as a preloaded library, for any program:
 *        LD_PRELOAD=build/lib/libnsalloc.so prog ...
 *    A program that wants per-phase figures looks the functions below up
 *    with dlsym(RTLD_DEFAULT, "nsalloc_count") — they are absent (NULL)
 *    when the library is not preloaded, so the program needs no link-time
 *    dependency (examples/spheres_box does this for its profile line);
 *  - linked into a test executable (its definitions of malloc & co. then
 *    take precedence over libc's for the whole process, shared libraries
 *    included): tests/mechanics/test_mech_noalloc.c.
 *
 * With NSALLOC_TRACE=N in the environment, the first N allocations made
 * inside a region (nsalloc_region(1) ... nsalloc_region(0)) print a
 * backtrace to stderr (backtrace_symbols_fd: module(+offset) frames, to be
 * resolved with addr2line -f -e MODULE OFFSET).
 *
 * Not with AddressSanitizer (which replaces malloc itself), and glibc
 * only (__libc_malloc): under __SANITIZE_ADDRESS__ or another libc nothing
 * is replaced and nsalloc_available() returns 0 (test_mech_noalloc then
 * skips). Thread-safe counters (relaxed
 * atomics); the process-wide counters are the tool's only state. */
#ifndef NSALLOC_H
#define NSALLOC_H
#ifdef __cplusplus
extern "C" {
#endif

/** Allocating calls since the process started. */
unsigned long long nsalloc_count(void);
/** 1 when the hooks are in place (0 under AddressSanitizer). */
int nsalloc_available(void);
/** Opens (1) or closes (0) a region whose allocations NSALLOC_TRACE traces. */
void nsalloc_region(int on);

#ifdef __cplusplus
}
#endif
#endif
