/* nsbench_json.c — JSON string and number output (as nsolve writes them). */
#include "nsbench.h"
#include "json_string.h"
#include <math.h>

void nb_json_string(FILE *f, const char *s)
{
    ns_json_string(f, s);
}

void nb_json_number(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.9g", x);
    else fputs("null", f);
}
