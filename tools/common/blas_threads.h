/* blas_threads.h — BLAS threading policy of the command-line tools. */
#ifndef NS_TOOLS_BLAS_THREADS_H
#define NS_TOOLS_BLAS_THREADS_H

/** Runs OpenBLAS single-threaded unless the user set OPENBLAS_NUM_THREADS
 *  (or OMP_NUM_THREADS). The solvers do many small dense factorizations and
 *  products, where OpenBLAS' thread start-up and spin-waiting cost more than
 *  the arithmetic (seen: newton-fb 40× slower on an n = 80 LCP with threads
 *  on a loaded 2-core machine); nsbench parallelises over runs (--jobs)
 *  instead. Process-wide: for executables only, never called by the
 *  libraries. */
void ns_tool_blas_single_thread(void);

#endif
