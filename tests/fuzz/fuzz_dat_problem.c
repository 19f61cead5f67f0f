/* fuzz_dat_problem.c — libFuzzer target for the .dat problem reader.
 * Any input: ns_problem_read_dat_buffer with detection must return either
 * a problem or NS_BAD_INPUT with a one-line message, without crash or leak.
 * A problem read is validated, written back (.dat layout) and re-read with
 * its kind: the second reading must give identical data. */
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
    ns_problem *p = NULL;
    ns_status st = ns_problem_read_dat_buffer((const char *)data, size, "fuzz.dat",
                                              NS_KIND_NONE, &p, err);
    if (st != NS_OK) {
        if (p || st != NS_BAD_INPUT || !err[0] || strchr(err, '\n')) abort();
        return 0;
    }
    (void)ns_problem_validate(p, err);

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) abort();
    st = ns_dat_write_problem(f, p, err);
    fclose(f);
    if (st != NS_OK) {
        fprintf(stderr, "writer refused a problem the reader produced: %s\n", err);
        abort();
    }
    ns_problem *q = NULL;
    st = ns_problem_read_dat_buffer(text, len, "fuzz-rewritten.dat", p->kind, &q, err);
    if (st != NS_OK) {
        fprintf(stderr, "re-read failed: %s\n", err);
        abort();
    }
    if (!ns_fuzz_same_problem(p, q)) {
        fprintf(stderr, "write-then-read changed the problem\n");
        abort();
    }
    ns_problem_free(q);
    ns_problem_free(p);
    free(text);
    return 0;
}
