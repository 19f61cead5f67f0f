/* malloc_policy.h — heap policy of the command-line tools. */
#ifndef NS_TOOLS_MALLOC_POLICY_H
#define NS_TOOLS_MALLOC_POLICY_H

/** Keeps freed memory of up to tens of MB in the process instead of giving
 *  it back to the kernel at once. A sparse factorization (UMFPACK for the
 *  Newton solvers, CHOLMOD for the interior point) allocates its numeric
 *  factors afresh at every iteration, tens of MB on a 2 000-contact pile;
 *  with glibc's defaults that memory is returned to the kernel when freed
 *  (heap trim, munmap) and faulted back in, zero-filled, by the next
 *  iteration: half of an interior-point solve went to page faults. Here:
 *  64 MB of free heap kept at its top (M_TOP_PAD), trimming only beyond
 *  256 MB (M_TRIM_THRESHOLD), blocks below 32 MB from the heap
 *  (M_MMAP_THRESHOLD). glibc only, and not when the user set
 *  GLIBC_TUNABLES. Process-wide: for executables only, never called by the
 *  libraries (an application using them decides its own heap policy;
 *  docs/solver-specs.md, "Memory"). */
void ns_tool_malloc_policy(void);

/** Lowers the memory kept at the heap's top to at most `bytes` (a process
 *  under an address-space limit: nsbench's runs). */
void ns_tool_malloc_policy_cap(double bytes);

#endif
