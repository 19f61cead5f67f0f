/* fc2d_lcp.c — FC2D through its LCP reformulation. Per contact α,
 * z_α = (r_N, λ⁺, λ⁻, γ) ≥ 0 with r_T = λ⁺ − λ⁻, u = W r + q, and
 *     w_α = ( u_N,  u_T + γ,  −u_T + γ,  μ r_N − λ⁺ − λ⁻ ) ≥ 0,  z ⊥ w.
 * (Sliding with u_T > 0 forces γ = u_T, λ⁺ = 0, λ⁻ = μ r_N: r_T = −μ r_N;
 * sticking gives γ = 0, u_T = 0, |r_T| ≤ μ r_N.) The 4nc×4nc matrix is
 * built dense and handed to the enumeration kernel, which stops on the
 * FC2D error of the r read back from z. Dense: refused (NS_UNSUPPORTED)
 * above 2000 contacts. Lemke on the same LCP is fc2d_lemke.c (sparse,
 * revised, any size). */
#include "solve/solvers.h"
#include "fc2d/fc2d_internal.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <stdlib.h>
#include <string.h>

void ns_fc2d_z_to_r(ns_int nc, const double *z, double *r)
{
    for (ns_int a = 0; a < nc; a++) {
        r[2 * a] = z[4 * a];
        r[2 * a + 1] = z[4 * a + 1] - z[4 * a + 2];
    }
}

double ns_fc2d_lcp_error(const void *vc, const double *z, double *w)
{
    const ns_fc2d_lcp *c = vc;
    for (ns_int i = 0; i < c->n; i++) w[i] = c->q[i];
    for (ns_int j = 0; j < c->n; j++) {
        const double zj = z[j], *Mj = c->M + (size_t)j * c->n;
        if (zj != 0.0)
            for (ns_int i = 0; i < c->n; i++) w[i] += Mj[i] * zj;
    }
    ns_fc2d_z_to_r(c->p->nc, z, c->r);
    return ns_fc_error(c->p, c->r, c->u, c->norm);
}

void ns_fc2d_lcp_build(const ns_fc *p, const double *W, double *M, double *q)
{
    const ns_int nc = p->nc, n = 4 * nc, m = 2 * nc;
    memset(M, 0, (size_t)n * (size_t)n * sizeof(double));
#define MM(i, j) M[(size_t)(i) + (size_t)(j) * n]
#define WW(i, j) W[(size_t)(i) + (size_t)(j) * m]
    for (ns_int a = 0; a < nc; a++) {
        q[4 * a] = p->q[2 * a];
        q[4 * a + 1] = p->q[2 * a + 1];
        q[4 * a + 2] = -p->q[2 * a + 1];
        q[4 * a + 3] = 0.0;
        for (ns_int b = 0; b < nc; b++) {
            double nn = WW(2 * a, 2 * b), nt = WW(2 * a, 2 * b + 1);
            double tn = WW(2 * a + 1, 2 * b), tt = WW(2 * a + 1, 2 * b + 1);
            MM(4 * a, 4 * b) = nn; MM(4 * a, 4 * b + 1) = nt; MM(4 * a, 4 * b + 2) = -nt;
            MM(4 * a + 1, 4 * b) = tn; MM(4 * a + 1, 4 * b + 1) = tt; MM(4 * a + 1, 4 * b + 2) = -tt;
            MM(4 * a + 2, 4 * b) = -tn; MM(4 * a + 2, 4 * b + 1) = -tt; MM(4 * a + 2, 4 * b + 2) = tt;
        }
        MM(4 * a + 1, 4 * a + 3) = 1.0;
        MM(4 * a + 2, 4 * a + 3) = 1.0;
        MM(4 * a + 3, 4 * a) = p->mu[a];
        MM(4 * a + 3, 4 * a + 1) = -1.0;
        MM(4 * a + 3, 4 * a + 2) = -1.0;
    }
#undef MM
#undef WW
}

static ns_status fc2d_as_lcp(const ns_fc *p, double *r, double *u, const ns_options *o,
                             ns_result *res)
{
    const ns_int nc = p->nc, n = 4 * nc, m = 2 * nc;
    if (nc > 2000)
        return ns_fail(res->message, NS_UNSUPPORTED, "fc2d enum: %d contacts give a dense LCP of "
                       "order %d; use lemke, nsgs or auto", nc, n);
    ns_status st;
    (void)m;
    double *W = ns_dense_copy(p->W);
    double *M = ns_malloc((size_t)n * n + 1, sizeof(double));
    double *q = ns_calloc((size_t)n + 1, sizeof(double));
    double *z = ns_calloc((size_t)n + 1, sizeof(double));
    double *w = ns_calloc((size_t)n + 1, sizeof(double));
    if (!W || !M || !q || !z || !w) {
        st = ns_fail(res->message, NS_NO_MEMORY, "fc2d lcp: out of memory");
        goto done;
    }
    ns_fc2d_lcp_build(p, W, M, q);
    for (ns_int a = 0; a < nc; a++) {   /* warm start: split r_T */
        z[4 * a] = r[2 * a] > 0 ? r[2 * a] : 0.0;
        z[4 * a + 1] = r[2 * a + 1] > 0 ? r[2 * a + 1] : 0.0;
        z[4 * a + 2] = r[2 * a + 1] < 0 ? -r[2 * a + 1] : 0.0;
    }
    ns_fc2d_lcp c = { p, r, u, M, q, n, (ns_fc_norm)o->fc_norm };
    st = ns_enum_dense(n, M, q, NULL, z, w, o, ns_fc2d_lcp_error, &c, res);
    ns_fc2d_z_to_r(nc, z, r);
    res->error = ns_fc_error(p, r, u, (ns_fc_norm)o->fc_norm);
done:
    free(W); free(M); free(q); free(z); free(w);
    return st;
}

ns_status ns_fc2d_enum(const ns_fc *p, double *r, double *u, const ns_options *o, ns_result *res)
{ return fc2d_as_lcp(p, r, u, o, res); }
