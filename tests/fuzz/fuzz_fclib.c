/* fuzz_fclib.c — libFuzzer target for ns_problem_read on arbitrary files
 * (FCLIB HDF5 when the input carries the HDF5 signature, .dat otherwise).
 * The input is written to one temporary file per process. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nonsmooth/nonsmooth.h"

static char tmp_path[4096];

static void remove_tmp(void)
{
    if (tmp_path[0]) unlink(tmp_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!tmp_path[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(tmp_path, sizeof tmp_path, "%s/nsfuzzXXXXXX", dir && *dir ? dir : "/tmp");
        int fd = mkstemp(tmp_path);
        if (fd < 0) abort();
        close(fd);
        atexit(remove_tmp);
    }
    FILE *f = fopen(tmp_path, "wb");
    if (!f) abort();
    if (size && fwrite(data, 1, size, f) != size) abort();
    fclose(f);
    char err[NS_ERRMSG_LEN] = "";
    ns_problem *p = NULL;
    ns_status st = ns_problem_read(tmp_path, NS_KIND_NONE, &p, err);
    if (st == NS_OK) {
        (void)ns_problem_validate(p, err);
        ns_problem_free(p);
    } else if (p || !err[0]) {
        abort();
    }
    return 0;
}
