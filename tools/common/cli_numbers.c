/* cli_numbers.c — see cli_numbers.h. */
#include "cli_numbers.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>

int ns_cli_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int ns_cli_int(const char *s, int *out, int min)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < min || v > 2000000000L) return -1;
    *out = (int)v;
    return 0;
}
