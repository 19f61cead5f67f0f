/* fuzz_dat_matrix.c — libFuzzer target for the stand-alone matrix reader
 * (NumericsMatrix block or raw SBM payload). A matrix read is written back
 * and re-read: the result must be identical (storage, structure, bits). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nonsmooth/nonsmooth.h"
#include "io/io_dat.h"
#include "fuzz_compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[NS_ERRMSG_LEN] = "";
    ns_matrix *A = NULL;
    ns_status st = ns_matrix_read_buffer((const char *)data, size, "fuzz.dat", &A, err);
    if (st != NS_OK) {
        if (A || st != NS_BAD_INPUT || !err[0] || strchr(err, '\n')) abort();
        return 0;
    }
    if (ns_matrix_validate(A, "A", err) != NS_OK) {
        fprintf(stderr, "reader produced an invalid matrix: %s\n", err);
        abort();
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) abort();
    st = ns_dat_write_matrix(f, A, "A", err);
    fclose(f);
    if (st != NS_OK) {
        fprintf(stderr, "writer refused: %s\n", err);
        abort();
    }
    ns_matrix *B = NULL;
    st = ns_matrix_read_buffer(text, len, "fuzz-rewritten.dat", &B, err);
    if (st != NS_OK) {
        fprintf(stderr, "re-read failed: %s\n", err);
        abort();
    }
    if (!ns_fuzz_same_matrix(A, B)) {
        fprintf(stderr, "write-then-read changed the matrix\n");
        abort();
    }
    ns_matrix_free(A);
    ns_matrix_free(B);
    free(text);
    return 0;
}
