/* fc_sweep_cost.c — one FC solve with a chosen check_every and sweep limit,
 * for instruction counts per sweep under callgrind:
 *   valgrind --tool=callgrind fc_sweep_cost FILE nsgs-ac CHECK_EVERY 1
 *   valgrind --tool=callgrind fc_sweep_cost FILE nsgs-ac CHECK_EVERY 101
 * (difference / 100 = one sweep, reading the file cancels out).
 * Prints status, iterations, error, seconds. */
#include "nonsmooth/nonsmooth.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: fc_sweep_cost FILE SOLVER CHECK_EVERY MAX_ITER\n");
        return 2;
    }
    ns_problem *p = NULL;
    char err[NS_ERRMSG_LEN];
    if (ns_problem_read(argv[1], NS_KIND_NONE, &p, err)) { fprintf(stderr, "%s\n", err); return 2; }
    ns_solution *sol = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.check_every = atoi(argv[3]);
    o.max_iter = atoi(argv[4]);
    ns_result res;
    ns_status st = ns_solve(p, argv[2], &o, sol, &res);
    printf("status %d iterations %d error %.3e seconds %.4f\n", (int)st, res.iterations,
           res.error, res.seconds);
    ns_solution_free(sol);
    ns_problem_free(p);
    return st == NS_CONVERGED ? 0 : 1;
}
