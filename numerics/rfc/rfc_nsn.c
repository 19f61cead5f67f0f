/* rfc_nsn.c — global semismooth Newton for the local rolling kinds (RFC3D,
 * RFC2D) on a residual of all contacts at once (rfc_phi.c): the natural
 * map ("nsn") or the Alart–Curnier function ("nsn-ac"),
 *     Φ_α(r) = Φ(r_α, u_α; ρ_α),  u = W r + q,  ρ_α = 1/‖W_αα‖_F,
 * whose generalized Jacobian has W's block pattern (plus the diagonal):
 *     J_αβ = δ_αβ A_α + B_α W_αβ   (A = ∂Φ/∂r, B = ∂Φ/∂u),
 * all on the problem scaled per contact as in rfc_local.c (S W S, S q,
 * μ/s_T, μr/s_R; r = S x). J is kept in BLOCK storage and factored by the
 * library's factor layer (dense LU up to RFC_NSN_DENSE_MAX unknowns, else
 * UMFPACK: the symbolic analysis done once per
 * solve, the numeric factorization at every step). Step: J δ = −Φ, then a
 * backtracking line search on ‖Φ‖ (Armijo, factor 1 − 10⁻⁴t, t halved
 * down to 2⁻²⁰); a singular J or a rejected step is retried with J + λI,
 * λ = 10⁻⁸ max(1, ‖Φ‖) raised ×100 up to 4 times, then a projected
 * fixed-point step x ← P_K(x − ρû) if it decreases ‖Φ‖. The relative
 * error ns_rfc_error decides convergence; the solve stops as stalled
 * (NS_FAILED) when the best error has not halved in 20 iterations, and the
 * best iterate is returned. */
#include "rfc/rfc_internal.h"
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct nsn_ws {
    const ns_matrix *Wb;     /* S W S in uniform d×d blocks */
    ns_matrix *Wown;         /* that scaled copy (owned) */
    double *sc, *qs, *mus, *murs, *mups;   /* S's diagonal, S q, μ/s_T, μr/s_R, μp/s_P */
    ns_rfc_phi_fn phi;       /* ns_rfc_nm or ns_rfc_ac */
    ns_matrix *J;            /* W's block pattern with every diagonal block */
    ns_int *jdiag;           /* J's diagonal block index per block row */
    double *rho, *P, *G;     /* per contact: ρ, A = ∂Φ/∂r, B = ∂Φ/∂u (d×d each) */
} nsn_ws;

static void ws_free(nsn_ws *w)
{
    ns_matrix_free(w->Wown);
    ns_matrix_free(w->J);
    free(w->jdiag); free(w->rho); free(w->P); free(w->G);
    free(w->sc); free(w->qs); free(w->mus); free(w->murs); free(w->mups);
}

/* J's structure: W's blocks with the diagonal ones added where missing. */
static int ws_init(nsn_ws *w, const ns_rfc *p)
{
    const int d = p->dim;
    const ns_int nc = p->nc;
    const size_t m = (size_t)d * (size_t)nc;
    int off[RFC_PMAX], sz[RFC_PMAX];
    const int np = ns_rfc_parts(d, off, sz);
    memset(w, 0, sizeof *w);
    w->Wown = p->W->storage == NS_BLOCK ? ns_matrix_copy(p->W)
                                        : ns_matrix_to_block_uniform(p->W, d);
    w->sc = ns_malloc(m + 1, sizeof *w->sc);
    w->qs = ns_malloc(m + 1, sizeof *w->qs);
    w->mus = ns_malloc((size_t)nc + 1, sizeof *w->mus);
    w->murs = ns_malloc((size_t)nc + 1, sizeof *w->murs);
    w->mups = ns_malloc((size_t)nc + 1, sizeof *w->mups);
    if (!w->Wown || !w->sc || !w->qs || !w->mus || !w->murs || !w->mups) return 0;
    if (p->W->storage == NS_BLOCK) {   /* a BLOCK W of other block sizes */
        int ok = 1;
        const ns_block *B0 = &w->Wown->block;
        for (ns_int r = 0; ok && r < B0->block_rows; r++) ok = B0->row_start[r + 1] - B0->row_start[r] == d;
        for (ns_int c = 0; ok && c < B0->block_cols; c++) ok = B0->col_start[c + 1] - B0->col_start[c] == d;
        if (!ok) {
            ns_matrix *t = ns_matrix_to_block_uniform(p->W, d);
            if (!t) return 0;
            ns_matrix_free(w->Wown);
            w->Wown = t;
        }
    }
    w->Wb = w->Wown;
    /* per-contact scaling (rfc_local.c): each part's diagonal to W_NN */
    for (ns_int a = 0; a < nc; a++) {
        ns_int nn;
        const double *Waa = ns_matrix_block_diag(w->Wb, a, &nn);
        double part[RFC_PMAX] = { 1.0, 1.0, 1.0 };
        for (int q = 0; q < np && Waa; q++) {
            double wd = 0.0;
            for (int k = 0; k < sz[q]; k++) wd += Waa[(off[q] + k) * (d + 1)];
            wd /= sz[q];
            if (Waa[0] > 0 && wd > 0 && isfinite(Waa[0] / wd)) part[q] = sqrt(Waa[0] / wd);
        }
        double *sa = w->sc + (size_t)a * d;
        sa[0] = 1.0;
        for (int q = 0; q < np; q++)
            for (int k = 0; k < sz[q]; k++) sa[off[q] + k] = part[q];
        w->mus[a] = p->mu[a] / part[0];
        w->murs[a] = p->mu_r[a] / part[1];
        w->mups[a] = d == 6 ? p->mu_p[a] / part[2] : 0.0;
    }
    for (size_t i = 0; i < m; i++) w->qs[i] = w->sc[i] * p->q[i];
    {
        ns_block *Bs = &w->Wown->block;
        for (ns_int a = 0; a < nc; a++)
            for (ns_int t = Bs->row_ptr[a]; t < Bs->row_ptr[a + 1]; t++) {
                double *Wk = Bs->x + Bs->value_ptr[t];
                const double *si = w->sc + (size_t)a * d, *sj = w->sc + (size_t)Bs->block_col[t] * d;
                for (int i = 0; i < d; i++)
                    for (int j = 0; j < d; j++) Wk[i + j * d] *= si[i] * sj[j];
            }
    }
    const ns_block *B = &w->Wb->block;
    ns_int *rs = ns_malloc((size_t)nc + 1, sizeof *rs);
    ns_int *rp = ns_malloc((size_t)nc + 1, sizeof *rp);
    ns_int *bc = ns_malloc((size_t)B->nblocks + (size_t)nc + 1, sizeof *bc);
    w->jdiag = ns_malloc((size_t)nc + 1, sizeof *w->jdiag);
    w->rho = ns_malloc((size_t)nc + 1, sizeof *w->rho);
    w->P = ns_malloc((size_t)nc * d * d + 1, sizeof *w->P);
    w->G = ns_malloc((size_t)nc * d * d + 1, sizeof *w->G);
    int ok = rs && rp && bc && w->jdiag && w->rho && w->P && w->G;
    if (ok) {
        ns_int k = 0;
        for (ns_int a = 0; a <= nc; a++) rs[a] = a * d;
        for (ns_int a = 0; a < nc; a++) {
            rp[a] = k;
            int have = 0;
            for (ns_int t = B->row_ptr[a]; t < B->row_ptr[a + 1]; t++) {
                ns_int c = B->block_col[t];
                if (!have && c > a) { bc[k++] = a; have = 1; }
                if (c == a) have = 1;
                bc[k++] = c;
            }
            if (!have) bc[k++] = a;
        }
        rp[nc] = k;
        w->J = ns_matrix_block_new(nc, nc, rs, rs, rp, bc, NULL);
        ok = w->J != NULL;
        if (ok) for (ns_int a = 0; a < nc; a++) w->jdiag[a] = w->J->block.diag[a];
        for (ns_int a = 0; ok && a < nc; a++) {
            ns_int n;
            const double *Waa = ns_matrix_block_diag(w->Wb, a, &n);
            double f = 0.0;
            if (Waa) for (int i = 0; i < d * d; i++) f += Waa[i] * Waa[i];
            w->rho[a] = f > 0 ? 1.0 / sqrt(f) : 1.0;
        }
    }
    free(rs); free(rp); free(bc);
    return ok;
}

/* Φ(r) into F (and u ← W r + q); returns ‖Φ‖. With jac, also A_α, B_α
 * (stored in w->P, w->G). */
static double phi_all(const ns_rfc *p, nsn_ws *w, const double *r, double *u, double *F,
                      int jac)
{
    const int d = p->dim;
    const size_t m = (size_t)d * p->nc;
    memcpy(u, w->qs, m * sizeof *u);
    ns_matrix_gemv(1.0, w->Wb, r, 1.0, u);
    double s = 0.0;
    for (ns_int a = 0; a < p->nc; a++) {
        const size_t o = (size_t)a * d;
        double f = w->phi(d, w->mus[a], w->murs[a], w->mups[a], w->rho[a], r + o, u + o, F + o,
                             jac ? w->P + o * d : NULL, jac ? w->G + o * d : NULL);
        s += f * f;
    }
    return isfinite(s) ? sqrt(s) : INFINITY;
}

/* J's values: J_αβ = δ_αβ A_α + B_α W_αβ, lambda added on the diagonal. */
static void fill_jacobian(const ns_rfc *p, nsn_ws *w, double lambda)
{
    const int d = p->dim;
    const ns_block *B = &w->Wb->block;
    ns_block *JB = &w->J->block;
    memset(JB->x, 0, (size_t)JB->value_ptr[JB->nblocks] * sizeof *JB->x);
    for (ns_int a = 0; a < p->nc; a++) {
        const double *Aa = w->P + (size_t)a * d * d, *Ba = w->G + (size_t)a * d * d;
        ns_int kj = JB->row_ptr[a];
        for (ns_int t = B->row_ptr[a]; t < B->row_ptr[a + 1]; t++) {
            while (JB->block_col[kj] != B->block_col[t]) kj++;
            const double *Wk = B->x + B->value_ptr[t];
            double *Jk = JB->x + JB->value_ptr[kj];
            for (int i = 0; i < d; i++)
                for (int j = 0; j < d; j++) {
                    double x = 0.0;
                    for (int k = 0; k < d; k++) x += Ba[i + k * d] * Wk[k + j * d];
                    Jk[i + j * d] = x;
                }
        }
        double *Jd = JB->x + JB->value_ptr[w->jdiag[a]];
        for (int i = 0; i < d * d; i++) Jd[i] += Aa[i];
        for (int i = 0; i < d; i++) Jd[i + i * d] += lambda;
    }
}

/* Unknowns up to which J is factored dense (LAPACK LU) rather than by
 * UMFPACK: measured with nsbench -s nsn on the rolling files and the
 * rfc_gen family, time per solve dense / sparse: m = 5 to 10: 0.4 to 0.7;
 * m = 65: 0.32; m = 185: 0.79; m = 325: 2.0; m = 650: 5.5. */
#define RFC_NSN_DENSE_MAX 192

static ns_status nsn_run(const ns_rfc *p, double *r, double *u, const ns_options *o,
                         ns_result *res, ns_rfc_phi_fn phi)
{
    const int d = p->dim;
    const size_t m = (size_t)d * (size_t)p->nc;
    const double t0 = ns_now();
    res->error = ns_rfc_error(p, r, u, (ns_fc_norm)o->fc_norm);
    if (res->error <= o->tol || m == 0) return NS_CONVERGED;
    nsn_ws w;
    ns_factor *Fac = NULL;
    double *F = ns_malloc(m, sizeof *F), *dl = ns_malloc(m, sizeof *dl);
    double *rn = ns_malloc(m, sizeof *rn), *un = ns_malloc(m, sizeof *un);
    double *Fn = ns_malloc(m, sizeof *Fn), *best = ns_malloc(m, sizeof *best);
    double *xs = ns_malloc(m, sizeof *xs);
    ns_status st = NS_MAX_ITER;
    char ferr[NS_ERRMSG_LEN];
    if (!ws_init(&w, p) || !F || !dl || !rn || !un || !Fn || !best || !xs) {
        st = ns_fail(res->message, NS_NO_MEMORY, "rfc nsn: out of memory");
        goto done;
    }
    w.phi = phi;
    if ((st = ns_factor_analyze(w.J, m <= RFC_NSN_DENSE_MAX ? NS_FACTOR_DENSE_LU : NS_FACTOR_SPARSE_LU,
                                &Fac, ferr))) {
        ns_fail(res->message, st, "rfc nsn: %s", ferr);
        goto done;
    }
    st = NS_MAX_ITER;
    memcpy(best, r, m * sizeof *r);
    double best_err = res->error;
    for (size_t i = 0; i < m; i++) xs[i] = r[i] / w.sc[i];   /* scaled unknowns */
    double nf = phi_all(p, &w, xs, u, F, 1);
    const int max_iter = o->max_iter > 0 ? o->max_iter : 1000;
    double mark_err = best_err;
    int mark_it = 0;
    for (int it = 1; it <= max_iter; it++) {
        int accepted = 0;
        /* Levenberg–Marquardt-like regularisation, → 0 at the solution: the
         * hyperstatic problems (granular ones) have a singular J */
        double lambda = fmin(1e-2, best_err);
        for (int attempt = 0; attempt < 5 && !accepted; attempt++) {
            fill_jacobian(p, &w, lambda);
            int ok = ns_factor_numeric(Fac, w.J, ferr) == NS_OK;
            if (ok) {
                for (size_t i = 0; i < m; i++) dl[i] = -F[i];
                ok = ns_factor_solve(Fac, dl, 1, (ns_int)m) == NS_OK && ns_all_finite(dl, m);
            }
            if (ok) {
                double t = 1.0;
                for (int ls = 0; ls <= 20; ls++, t *= 0.5) {
                    for (size_t i = 0; i < m; i++) rn[i] = xs[i] + t * dl[i];
                    double nn = phi_all(p, &w, rn, un, Fn, 0);
                    if (nn <= (1.0 - 1e-4 * t) * nf) {
                        memcpy(xs, rn, m * sizeof *xs);
                        accepted = 1;
                        break;
                    }
                }
            }
            lambda = fmax(lambda, 1e-8) * 100.0;
        }
        if (!accepted) {   /* a projected fixed-point step x ← P_K(x − ρû), if it helps */
            for (ns_int a = 0; a < p->nc; a++) {
                const size_t oa = (size_t)a * d;
                double uh[RFC_DMAX];
                ns_rfc_modified_velocity(d, w.mus[a], w.murs[a], w.mups[a], u + oa, uh, NULL);
                for (int i = 0; i < d; i++) rn[oa + i] = xs[oa + i] - w.rho[a] * uh[i];
                ns_rfc_project_pivot(d, w.mus[a], w.murs[a], w.mups[a], rn + oa);
            }
            if (phi_all(p, &w, rn, un, Fn, 0) < nf) { memcpy(xs, rn, m * sizeof *xs); accepted = 1; }
        }
        if (!accepted) { st = NS_FAILED; ns_fail(res->message, st, "rfc nsn: no descent step"); break; }
        nf = phi_all(p, &w, xs, u, F, 1);
        res->iterations = it;
        for (size_t i = 0; i < m; i++) rn[i] = w.sc[i] * xs[i];
        double e = ns_rfc_error(p, rn, un, (ns_fc_norm)o->fc_norm);
        ns_log(o, 2, "rfc nsn iteration %d error %.3e |phi| %.3e", it, e, nf);
        if (e < best_err) { best_err = e; memcpy(best, rn, m * sizeof *rn); }
        if (e <= o->tol) { st = NS_CONVERGED; break; }
        /* stalled: the best error has not halved in 20 iterations */
        if (e <= 0.5 * mark_err) { mark_err = e; mark_it = it; }
        else if (it - mark_it >= 20) {
            st = NS_FAILED;
            ns_fail(res->message, st, "rfc nsn: stalled at error %.3e", best_err);
            break;
        }
        if (!isfinite(nf)) { st = NS_DIVERGED; break; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
    }
    memcpy(r, best, m * sizeof *r);
    res->error = ns_rfc_error(p, r, u, (ns_fc_norm)o->fc_norm);
    ns_log(o, 1, "rfc nsn: %s after %d iterations, error %.3e", ns_status_name(st),
           res->iterations, res->error);
done:
    ns_factor_free(Fac);
    ws_free(&w);
    free(F); free(dl); free(rn); free(un); free(Fn); free(best); free(xs);
    return st;
}

ns_status ns_rfc_nsn(const ns_rfc *p, double *r, double *u, const ns_options *o,
                     ns_result *res)
{
    return nsn_run(p, r, u, o, res, ns_rfc_nm);
}

ns_status ns_rfc_nsn_ac(const ns_rfc *p, double *r, double *u, const ns_options *o,
                        ns_result *res)
{
    return nsn_run(p, r, u, o, res, ns_rfc_ac);
}
