/* blas_threads.c — see blas_threads.h. */
#include "blas_threads.h"
#include <stdlib.h>

void openblas_set_num_threads(int num_threads); /* OpenBLAS' own API */

void ns_tool_blas_single_thread(void)
{
    if (getenv("OPENBLAS_NUM_THREADS") || getenv("OMP_NUM_THREADS")) return;
    openblas_set_num_threads(1);
}
