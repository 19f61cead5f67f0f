/* problem_check.c — validation steps shared by the problem kinds. */
#include "problems/problem_check.h"
#include "core/ns_internal.h"
#include <math.h>

ns_status ns_check_square(const ns_matrix *M, ns_int n, const char *kind,
                          const char *name, char *err)
{
    if (!M) return ns_fail(err, NS_BAD_INPUT, "%s: %s: missing matrix", kind, name);
    if (M->rows != M->cols)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s: not square (%d x %d)", kind,
                       name, M->rows, M->cols);
    if (M->rows != n)
        return ns_fail(err, NS_BAD_INPUT,
                       "%s: %s: order %d disagrees with the problem size %d",
                       kind, name, M->rows, n);
    char sub[NS_ERRMSG_LEN];
    if (ns_matrix_validate(M, name, sub) != NS_OK)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s", kind, sub);
    return NS_OK;
}

ns_status ns_check_vector(const double *x, ns_int n, const char *kind,
                          const char *name, char *err)
{
    if (n < 0) return ns_fail(err, NS_BAD_INPUT, "%s: %s: negative length", kind, name);
    if (n > 0 && !x) return ns_fail(err, NS_BAD_INPUT, "%s: %s: missing vector", kind, name);
    long k = n > 0 ? ns_first_nonfinite(x, (size_t)n) : -1;
    if (k >= 0)
        return ns_fail(err, NS_BAD_INPUT, "%s: %s[%ld] is not finite (%g)", kind,
                       name, k, x[k]);
    return NS_OK;
}

ns_status ns_check_mu(const double *mu, ns_int nc, const char *kind, char *err)
{
    if (nc > 0 && !mu) return ns_fail(err, NS_BAD_INPUT, "%s: mu: missing", kind);
    for (ns_int a = 0; a < nc; a++) {
        if (isnan(mu[a]))
            return ns_fail(err, NS_BAD_INPUT, "%s: mu[%d] is NaN", kind, a);
        if (mu[a] < 0)
            return ns_fail(err, NS_BAD_INPUT, "%s: mu[%d] = %g is negative", kind, a, mu[a]);
        if (!isfinite(mu[a]))
            return ns_fail(err, NS_BAD_INPUT, "%s: mu[%d] is infinite", kind, a);
    }
    return NS_OK;
}
