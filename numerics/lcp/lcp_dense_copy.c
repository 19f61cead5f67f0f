/* lcp_dense_copy.c — dense column-major copy of a matrix of any storage, the
 * form the dense complementarity kernels (lcp_kernels.h) work on:
 *   out[i + j*rows] = A(i, j). */
#include "lcp/lcp_kernels.h"
#include "core/ns_internal.h"
#include <string.h>

double *ns_dense_copy(const ns_matrix *A)
{
    size_t len = (size_t)A->rows * (size_t)A->cols;
    if (A->storage == NS_DENSE) return ns_dup(A->dense, len);
    ns_matrix *D = ns_matrix_to_dense(A);
    if (!D) return NULL;
    double *out = ns_dup(D->dense, len);
    ns_matrix_free(D);
    return out;
}
