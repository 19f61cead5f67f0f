/* rfc_ipm.c — interior-point solver for the local rolling kinds RFC3D
 * (d = 5, 6) and RFC2D (d = 3) on (W, q, μ, μr, μp) (docs/rolling.md §9).
 *
 * The rolling cone K of a contact is the intersection of k = 2 (or 3)
 * second-order cones sharing r_N: with G (3k × d), per part i of
 * coefficient c_i > 0, rows (r_N, r_i / c_i) (a one-entry part padded with
 * a zero row), K = {r : G r ∈ L^k} and K* = {Gᵀ x : x ∈ L^k}. The law with
 * û = u + (μ‖u_T‖ + μr‖u_R‖ + μp|u_P|) e_N reads
 *     ζ = G r ∈ L^k,   û = Gᵀ x,   x ∈ L^k,   ζ ∘ x = 0 per cone.
 * In the core's terms (fc_ipm.h): y = r (d·nc unknowns), the core's
 * "x" = ζ, its "z" = x, r_p = G r − ζ and r_d = û(r) − Gᵀ x, û's shift
 * taken from the current r (so it is updated before every step, the
 * direct variant). Newton (the shift frozen over the step, NT scaling
 * W_nt per cone):
 *     (W + Gᵀ W_nt⁻² G) Δr = −r_d + Gᵀ W_nt⁻² t,   Δx = W_nt⁻² (t − G Δr),
 * symmetric positive definite when W is symmetric positive semidefinite,
 * with W's d×d block pattern plus the diagonal blocks (ns_ipm_sys). A part
 * with c_i = 0 has r_i = 0: its unknowns get identity rows and columns and
 * its cone keeps only (r_N, 0, 0). Finish: the rolling nsn-ac. Registered
 * as "ipm" for RFC3D and RFC2D. */
#include "rfc/rfc_internal.h"
#include "fc/fc_ipm.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ripm {
    const ns_rfc *p;
    const ns_options *o;
    ns_matrix *Wb;         /* W in uniform d×d blocks (owned) */
    int d, k;              /* unknowns and cones per contact */
    ns_int nc;
    double *G;             /* (3k·d per contact) column-major */
    unsigned char *elim;   /* (d·nc) 1: unknown fixed at 0 (its coefficient is 0) */
    ns_ipm_sys sys;
    ns_int *bpos, *dpos;   /* positions in K of W's blocks and of the diagonal blocks */
    const double *W2i;     /* the core's W_nt⁻² of the last factorization */
    double *ubuf, *b;      /* (d·nc) scratch */
    double *r_out, *u_out;
} ripm;

static double mu_p_of(const ripm *F, ns_int a) { return F->d == 6 ? F->p->mu_p[a] : 0.0; }

/* G of contact a and its eliminated unknowns */
static void build_g(ripm *F, ns_int a)
{
    const int d = F->d, k = F->k, rows = 3 * k;
    int off[RFC_PMAX], len[RFC_PMAX];
    ns_rfc_parts(d, off, len);
    const double c[RFC_PMAX] = { F->p->mu[a], F->p->mu_r[a], mu_p_of(F, a) };
    double *G = F->G + (size_t)a * rows * d;
    unsigned char *el = F->elim + (size_t)a * d;
    memset(G, 0, (size_t)rows * d * sizeof(double));
    memset(el, 0, (size_t)d);
    for (int i = 0; i < k; i++) {
        G[3 * i] = 1.0; /* row 3i, column 0 */
        for (int j = 0; j < len[i]; j++) {
            if (c[i] > 0) G[(3 * i + 1 + j) + rows * (off[i] + j)] = 1.0 / c[i];
            else el[off[i] + j] = 1;
        }
    }
}

static void residual(void *ctx, const double *y, const double *z, const double *x,
                     const double *s, double *rd, double *rp, double *u)
{
    (void)s;
    ripm *F = ctx;
    const int d = F->d, k = F->k, rows = 3 * k;
    const ns_int nc = F->nc;
    double *uu = F->ubuf;
    memcpy(uu, F->p->q, (size_t)d * nc * sizeof(double));
    ns_matrix_gemv(1.0, F->Wb, y, 1.0, uu);
    memset(u, 0, (size_t)rows * nc * sizeof(double)); /* the core's shift stays 0 */
    for (ns_int a = 0; a < nc; a++) {
        const double *G = F->G + (size_t)a * rows * d, *ya = y + (size_t)a * d;
        const double *za = z + (size_t)a * rows, *xa = x + (size_t)a * rows;
        const unsigned char *el = F->elim + (size_t)a * d;
        double uh[RFC_DMAX];
        ns_rfc_modified_velocity(d, F->p->mu[a], F->p->mu_r[a], mu_p_of(F, a),
                                 uu + (size_t)a * d, uh, NULL);
        for (int j = 0; j < d; j++) {
            double g = 0.0;
            for (int i = 0; i < rows; i++) g += G[i + rows * j] * za[i];
            rd[(size_t)a * d + j] = el[j] ? ya[j] : uh[j] - g;
        }
        for (int i = 0; i < rows; i++) {
            double g = 0.0;
            for (int j = 0; j < d; j++) g += G[i + rows * j] * ya[j];
            rp[(size_t)a * rows + i] = g - xa[i];
        }
    }
}

static ns_status factor(void *ctx, const double *W2, const double *W2i, char *err)
{
    (void)W2;
    ripm *F = ctx;
    const int d = F->d, k = F->k, rows = 3 * k;
    const ns_block *B = &F->Wb->block;
    double *K = F->sys.K->csc.x;
    memset(K, 0, (size_t)F->sys.K->csc.nnz * sizeof(double));
    for (ns_int br = 0; br < B->block_rows; br++)
        for (ns_int t = B->row_ptr[br]; t < B->row_ptr[br + 1]; t++) {
            ns_int bc = B->block_col[t];
            const double *Wb = B->x + B->value_ptr[t];
            const ns_int *pos = F->bpos + (size_t)d * d * t;
            const unsigned char *er = F->elim + (size_t)br * d, *ec = F->elim + (size_t)bc * d;
            for (int j = 0; j < d; j++)
                for (int i = 0; i < d; i++)
                    if (!er[i] && !ec[j]) K[pos[i + d * j]] += Wb[i + d * j];
        }
    for (ns_int a = 0; a < F->nc; a++) {
        const double *G = F->G + (size_t)a * rows * d;
        const unsigned char *el = F->elim + (size_t)a * d;
        const ns_int *pos = F->dpos + (size_t)d * d * a;
        for (int c = 0; c < k; c++) {
            const double *Wc = W2i + 9 * ((size_t)a * k + c), *Gc = G + 3 * c;
            for (int j = 0; j < d; j++) {
                double wg[3] = { 0, 0, 0 }; /* W_c (G_c e_j) */
                for (int l = 0; l < 3; l++)
                    for (int m = 0; m < 3; m++) wg[l] += Wc[l + 3 * m] * Gc[m + rows * j];
                for (int i = 0; i < d; i++)
                    K[pos[i + d * j]] += Gc[rows * i] * wg[0] + Gc[1 + rows * i] * wg[1] +
                                         Gc[2 + rows * i] * wg[2];
            }
        }
        for (int i = 0; i < d; i++)
            if (el[i]) K[pos[i + d * i]] = 1.0;
    }
    F->W2i = W2i;
    return ns_ipm_sys_factor(&F->sys, err);
}

static ns_status solve(void *ctx, const double *rd, const double *t, double *dy, double *dz)
{
    ripm *F = ctx;
    const int d = F->d, k = F->k, rows = 3 * k;
    for (ns_int a = 0; a < F->nc; a++) {
        const double *G = F->G + (size_t)a * rows * d, *ta = t + (size_t)a * rows;
        double wt[9];
        for (int c = 0; c < k; c++) {
            const double *Wc = F->W2i + 9 * ((size_t)a * k + c);
            for (int l = 0; l < 3; l++)
                wt[3 * c + l] = Wc[l] * ta[3 * c] + Wc[l + 3] * ta[3 * c + 1] + Wc[l + 6] * ta[3 * c + 2];
        }
        for (int j = 0; j < d; j++) {
            double g = 0.0;
            for (int i = 0; i < rows; i++) g += G[i + rows * j] * wt[i];
            dy[(size_t)a * d + j] = -rd[(size_t)a * d + j] + g;
        }
    }
    ns_status st = ns_ipm_sys_solve(&F->sys, dy);
    if (st) return st;
    for (ns_int a = 0; a < F->nc; a++) {
        const double *G = F->G + (size_t)a * rows * d, *ta = t + (size_t)a * rows;
        const double *dya = dy + (size_t)a * d;
        double v[9];
        for (int i = 0; i < rows; i++) {
            double g = 0.0;
            for (int j = 0; j < d; j++) g += G[i + rows * j] * dya[j];
            v[i] = ta[i] - g;
        }
        for (int c = 0; c < k; c++) {
            const double *Wc = F->W2i + 9 * ((size_t)a * k + c);
            for (int l = 0; l < 3; l++)
                dz[(size_t)a * rows + 3 * c + l] =
                    Wc[l] * v[3 * c] + Wc[l + 3] * v[3 * c + 1] + Wc[l + 6] * v[3 * c + 2];
        }
    }
    return NS_OK;
}

static double error(void *ctx, const double *y, const double *z)
{
    (void)z;
    ripm *F = ctx;
    return ns_rfc_error(F->p, y, F->ubuf, (ns_fc_norm)F->o->fc_norm);
}

static void output(void *ctx, const double *y, const double *z)
{
    (void)z;
    ripm *F = ctx;
    memcpy(F->r_out, y, (size_t)F->d * F->nc * sizeof(double));
    ns_rfc_error(F->p, F->r_out, F->u_out, (ns_fc_norm)F->o->fc_norm); /* u = W r + q */
}

static double finish(void *ctx, const double *y, const double *z, double tol, int max_iter,
                     double time_limit, int *iters)
{
    ripm *F = ctx;
    output(ctx, y, z);
    ns_options fo;
    ns_ipm_finish_options(F->o, tol, max_iter, time_limit, &fo);
    ns_result fr;
    ns_result_init(&fr);
    ns_rfc_nsn_ac(F->p, F->r_out, F->u_out, &fo, &fr);
    *iters = fr.iterations;
    ns_result_clear(&fr);
    const size_t m = (size_t)F->d * F->nc;
    if (!ns_all_finite(F->r_out, m)) return INFINITY;
    return ns_rfc_error(F->p, F->r_out, F->u_out, (ns_fc_norm)F->o->fc_norm);
}

/* the dual point x of a warm start: per cone (c_i‖û_i‖ + share of u_N, c_i û_i),
 * so that Gᵀ x = û (the core then pushes it inside) */
static void warm_dual(ripm *F, const double *r, double *z)
{
    const int d = F->d, k = F->k, rows = 3 * k;
    int off[RFC_PMAX], len[RFC_PMAX];
    ns_rfc_parts(d, off, len);
    double *uu = F->ubuf;
    memcpy(uu, F->p->q, (size_t)d * F->nc * sizeof(double));
    ns_matrix_gemv(1.0, F->Wb, r, 1.0, uu);
    for (ns_int a = 0; a < F->nc; a++) {
        const double *ua = uu + (size_t)a * d;
        const double c[RFC_PMAX] = { F->p->mu[a], F->p->mu_r[a], mu_p_of(F, a) };
        double *za = z + (size_t)a * rows;
        memset(za, 0, (size_t)rows * sizeof(double));
        for (int i = 0; i < k; i++) {
            double n2 = 0.0;
            for (int j = 0; j < len[i]; j++) {
                za[3 * i + 1 + j] = c[i] * ua[off[i] + j];
                n2 += za[3 * i + 1 + j] * za[3 * i + 1 + j];
            }
            za[3 * i] = sqrt(n2) + ua[0] / k;
        }
    }
}

ns_status ns_rfc_ipm(const ns_rfc *p, double *r, double *u, const ns_options *o, ns_result *res)
{
    if (!p || !r || !u || !o || !res) {
        if (res) ns_fail(res->message, NS_BAD_INPUT, "rfc ipm: NULL argument");
        return NS_BAD_INPUT;
    }
    ns_status st = ns_rfc_validate(p, res->message);
    if (st) return st;
    const int d = p->dim;
    const ns_int nc = p->nc;
    const size_t m = (size_t)d * nc;
    if (nc == 0) { res->error = 0.0; res->iterations = 0; return NS_CONVERGED; }
    ripm F;
    memset(&F, 0, sizeof F);
    F.p = p; F.o = o; F.d = d; F.nc = nc; F.k = d == 6 ? 3 : 2;
    F.r_out = r; F.u_out = u;
    const int rows = 3 * F.k;
    const ns_int ncone = (ns_int)F.k * nc;
    F.Wb = ns_matrix_to_block_uniform(p->W, d);
    F.G = ns_malloc((size_t)rows * d * nc, sizeof(double));
    F.elim = ns_malloc(m, 1);
    F.ubuf = ns_malloc(m, sizeof(double));
    double *zero = ns_calloc((size_t)ncone, sizeof(double));
    double *z = ns_malloc(3 * (size_t)ncone, sizeof(double));
    double *y = ns_malloc(m, sizeof(double));
    ns_int *ri = NULL, *ci = NULL, *pos = NULL;
    if (!F.Wb || !F.G || !F.elim || !F.ubuf || !zero || !z || !y) {
        st = ns_fail(res->message, NS_NO_MEMORY, "rfc ipm: out of memory");
        goto done;
    }
    for (ns_int a = 0; a < nc; a++) build_g(&F, a);
    const ns_block *B = &F.Wb->block;
    size_t dd = (size_t)d * d, nb = (size_t)B->nblocks, npairs = dd * (nb + (size_t)nc);
    ri = ns_malloc(npairs, sizeof(ns_int));
    ci = ns_malloc(npairs, sizeof(ns_int));
    pos = ns_malloc(npairs, sizeof(ns_int));
    if (!ri || !ci || !pos) {
        st = ns_fail(res->message, NS_NO_MEMORY, "rfc ipm: out of memory");
        goto done;
    }
    size_t qq = 0;
    for (ns_int br = 0; br < B->block_rows; br++)
        for (ns_int t = B->row_ptr[br]; t < B->row_ptr[br + 1]; t++)
            for (int j = 0; j < d; j++)
                for (int i = 0; i < d; i++, qq++) {
                    ri[qq] = (ns_int)d * br + i;
                    ci[qq] = (ns_int)d * B->block_col[t] + j;
                }
    for (ns_int a = 0; a < nc; a++)
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++, qq++) { ri[qq] = (ns_int)d * a + i; ci[qq] = (ns_int)d * a + j; }
    int sym = ns_matrix_is_symmetric(F.Wb, 1e-12);
    if ((st = ns_ipm_sys_init(&F.sys, (ns_int)m, npairs, ri, ci, pos, sym, res->message))) goto done;
    F.bpos = pos;
    F.dpos = pos + dd * nb;
    if (o->warm_start) {
        if (!ns_all_finite(r, m)) {
            st = ns_fail(res->message, NS_BAD_INPUT, "rfc ipm: warm start r not finite");
            goto done;
        }
        for (size_t i = 0; i < m; i++) y[i] = F.elim[i] ? 0.0 : r[i];
        warm_dual(&F, y, z);
    }
    ns_ipm_ops ops = { &F, (ns_int)m, ncone, zero, residual, factor, solve, error, finish, output };
    st = ns_ipm_run(&ops, y, z, o, 0, res);
done:
    ns_ipm_sys_free(&F.sys);
    ns_matrix_free(F.Wb);
    free(F.G); free(F.elim); free(F.ubuf); free(zero); free(z); free(y);
    free(ri); free(ci); free(pos);
    return st;
}
