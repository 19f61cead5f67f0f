/* residual_cqp.c — error of a convex QP (docs/kinds.md): with
 * g = M x + q − Aᵀ y (y: multipliers of A x = b),
 *   e = (‖x − P_C(x − g)‖₂ + ‖A x − b‖₂) / (1 + ‖q‖₂ + ‖b‖₂),
 * zero exactly at a KKT point. */
#include "nonsmooth/ns_residual.h"
#include "cqp/cqp_internal.h"
#include "core/ns_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

double ns_cqp_error(const ns_cqp *p, const double *x, const double *y, double *g)
{
    if (!p || !x || !g || (p->m > 0 && (!y || !p->A))) return INFINITY;
    size_t n = (size_t)p->n, m = (size_t)p->m;
    if (!ns_all_finite(x, n) || (m && !ns_all_finite(y, m))) return INFINITY;
    memcpy(g, p->q, n * sizeof(double));
    ns_matrix_gemv(1.0, p->M, x, 1.0, g);
    if (m) ns_matrix_gemv_t(-1.0, p->A, y, 1.0, g);
    double *w = ns_malloc(n + m > 0 ? n + m : 1, sizeof(double)), *pw = w;
    if (!w) return INFINITY;
    double *t = ns_malloc(n > 0 ? n : 1, sizeof(double));
    if (!t) { free(w); return INFINITY; }
    for (size_t i = 0; i < n; i++) pw[i] = x[i] - g[i];
    double s = 0.0;
    int bad = ns_cqp_project(p, pw, t);
    for (size_t i = 0; i < n; i++) { double d = x[i] - t[i]; s += d * d; }
    double eq = 0.0;
    if (m) {
        double *r = w + n;
        for (size_t i = 0; i < m; i++) r[i] = -p->b[i];
        ns_matrix_gemv(1.0, p->A, x, 1.0, r);
        eq = ns_norm2(r, m);
    }
    free(w);
    free(t);
    if (bad) return INFINITY;
    double e = (sqrt(s) + eq) / (1.0 + ns_norm2(p->q, n) + (m ? ns_norm2(p->b, m) : 0.0));
    return isfinite(e) ? e : INFINITY;
}
