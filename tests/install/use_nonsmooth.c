/* Solves the 2×2 LCP  M = [[2, 1], [1, 2]], q = (−5, −6), whose solution is
 * z = (4/3, 7/3) (both components positive, so w = 0 and M z = −q), through
 * an installed libnonsmooth_numerics. Exit 0 when the answer is right. */
#include <nonsmooth/nonsmooth.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    if (strcmp(ns_version(), NS_VERSION_STRING) != 0) {
        fprintf(stderr, "header %s, library %s\n", NS_VERSION_STRING, ns_version());
        return 1;
    }
    ns_matrix *M = ns_matrix_dense_new(2, 2);
    if (!M) return 1;
    M->dense[0] = 2; M->dense[1] = 1; M->dense[2] = 1; M->dense[3] = 2;
    const double q[2] = { -5, -6 };
    ns_problem *p = ns_problem_from_lcp(ns_lcp_new(M, q));
    ns_solution *s = ns_solution_new(p);
    ns_options o;
    ns_options_default(&o);
    o.tol = 1e-12;
    ns_result r;
    ns_status st = ns_solve(p, NULL, &o, s, &r);
    double *z = ns_solution_get(s, "z");
    int ok = st == NS_CONVERGED && fabs(z[0] - 4.0 / 3) < 1e-9 && fabs(z[1] - 7.0 / 3) < 1e-9;
    printf("%s: z = (%.12g, %.12g), error %.3g\n", ok ? "ok" : "FAILED", z[0], z[1], r.error);
    ns_result_clear(&r);
    ns_solution_free(s);
    ns_problem_free(p);
    return ok ? 0 : 1;
}
