/* gmp_nsgs.c — Gauss–Seidel over the block rows of a generic mechanical
 * problem (w = M z + q, block row ρ a sub-problem of its own type):
 *     q̃_ρ = q_ρ + Σ_{σ≠ρ} M_ρσ z_σ,   z_ρ ← solve_ρ(M_ρρ, q̃_ρ),
 * solve_ρ exact for its type:
 *   LCP       principal enumeration of the 2^s active sets (s ≤ 16), the
 *             previous active set first; s = 1: z = max(0, −q̃/M);
 *   RELAY     s = 1: z = clamp(−q̃/M, lb, ub); larger boxes: 50 inner
 *             projected Gauss–Seidel passes;
 *   FC2D/FC3D the one-contact AC Newton with enumeration fallback.
 *
 * Equality blocks are not swept one by one: in the collection they are the
 * joints of one multibody system, strongly coupled (GMP6: M_EE, the
 * 35×35 matrix of its 7 equality blocks, has condition 4e11), and
 * Gauss–Seidel over them contracts by 1 − O(λmin/λmax) per sweep, i.e.
 * stalls (GMP6 stayed at 1.6e-3 after 100000 sweeps). All equality rows E
 * are solved together, exactly, with one factorization of M_EE (ns_factor
 * AUTO: CHOLMOD or UMFPACK). With N the other rows:
 *   Schur (|N| ≤ 3000 and |E|·|N| ≤ 2e7):
 *       S = M_NN − M_NE M_EE⁻¹ M_EN,  q̂ = q_N − M_NE M_EE⁻¹ q_E,
 *     Gauss–Seidel over the N blocks on (S, q̂) (dense S, block solves
 *     with S's diagonal blocks), then z_E = −M_EE⁻¹ (q_E + M_EN z_N);
 *     this is Gauss–Seidel on the problem with the equalities eliminated;
 *   otherwise (or when a diagonal block of S is unusable: a contact held
 *     by the joints alone) a two-level sweep: the N blocks one by one with
 *     M's own diagonal blocks, then z_E ← −M_EE⁻¹ (q_E + M_EN z_N).
 * When M_EE cannot be factored (redundant joints), the equality blocks are
 * swept one by one (LU of each diagonal block), as before.
 * The GMP error ns_gmp_error is computed after every sweep, on the whole z. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "fc/fc3d_local.h"
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_residual.h"
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GMP_MAX_LCP 16
#define GMP_SCHUR_MAX_N 3000
#define GMP_SCHUR_MAX_EN 20000000.0

/* 0 ≤ z ⊥ A z + b ≥ 0, A s×s column-major; work: s*s + s, piv: s. */
static int small_lcp(int s, const double *A, const double *b, double *z,
                     double *work, lapack_int *piv)
{
    unsigned first = 0;
    for (int i = 0; i < s; i++) if (z[i] > 0) first |= 1u << i;
    unsigned total = 1u << s;
    for (unsigned t = 0; t < total; t++) {
        unsigned mask = t == 0 ? first : (t == first ? 0 : t);
        int k = 0, idx[GMP_MAX_LCP];
        for (int i = 0; i < s; i++) if (mask >> i & 1u) idx[k++] = i;
        double *S = work, *x = work + s * s;
        for (int a = 0; a < k; a++) {
            x[a] = -b[idx[a]];
            for (int c = 0; c < k; c++) S[a + c * k] = A[idx[a] + idx[c] * s];
        }
        if (k && LAPACKE_dgesv(LAPACK_COL_MAJOR, k, 1, S, k, piv, x, k) != 0) continue;
        int ok = 1;
        for (int a = 0; a < k; a++) if (!(x[a] >= 0) ) ok = 0;
        if (!ok) continue;
        double zz[GMP_MAX_LCP] = { 0 };
        for (int a = 0; a < k; a++) zz[idx[a]] = x[a];
        for (int i = 0; i < s && ok; i++) {
            if (mask >> i & 1u) continue;
            double w = b[i];
            for (int j = 0; j < s; j++) w += A[i + j * s] * zz[j];
            if (w < -1e-14 * (1 + fabs(b[i]))) ok = 0;
        }
        if (ok) { memcpy(z, zz, (size_t)s * sizeof(double)); return 0; }
    }
    return 1;
}

/* z_b ← solve of the one-block problem (D, qt) of a non-equality type.
 * lb, ub: the block's bounds (relay) or NULL. */
static void solve_block(int type, ns_int s, const double *D, const double *qt, double *zb,
                        double mu, const double *lb, const double *ub, double *work,
                        lapack_int *piv)
{
    switch (type) {
    case NS_GMP_LCP:
        if (s == 1) zb[0] = fmax(0.0, -qt[0] / D[0]);
        else small_lcp(s, D, qt, zb, work, piv);
        break;
    case NS_GMP_RELAY:
        for (int pass = 0; pass < (s == 1 ? 1 : 50); pass++)
            for (ns_int i = 0; i < s; i++) {
                double wi = qt[i];
                for (ns_int j = 0; j < s; j++) if (j != i) wi += D[i + j * s] * zb[j];
                zb[i] = fmin(ub[i], fmax(lb[i], -wi / D[i + i * s]));
            }
        break;
    default: { /* FC2D / FC3D */
        ns_fc_contact c;
        int d = type == NS_GMP_FC3D ? 3 : 2;
        double nq = 0.0;
        for (int i = 0; i < d; i++) nq += qt[i] * qt[i];
        ns_fc_contact_init(&c, d, D, qt, mu, 1e-12 * fmax(sqrt(nq), DBL_MIN), 20);
        ns_fc_local_solve(ns_fc_local_ac, &c, zb);
    } }
}

/* 0 if D (s×s) is a usable diagonal block for a block of this type. */
static int block_usable(int type, ns_int s, const double *D)
{
    if (type == NS_GMP_FC3D || type == NS_GMP_FC2D)
        return ns_fc_check_diag_block(type == NS_GMP_FC3D ? 3 : 2, D);
    if (type == NS_GMP_LCP && s > 1) return 0;   /* enumeration needs no sign */
    for (ns_int i = 0; i < s; i++) if (!(D[i + i * s] > 0)) return 1;
    return 0;
}

/* The equality rows E of p and what the sweeps need of them. */
typedef struct {
    ns_int ne, nn;        /* |E|, |N| */
    ns_int *pos;          /* (n) position of row i in E or in N */
    ns_factor *F;         /* of M_EE */
    double *rhs;          /* (ne) */
} eq_part;

/* qt_E ← q_E + M_EN z_N (is_eq: block row type is EQUALITY). */
static void eq_rhs(const ns_gmp *p, const eq_part *e, const double *z, double *out)
{
    const ns_block *B = &p->M->block;
    for (ns_int b = 0; b < p->nblocks; b++) {
        if (p->type[b] != NS_GMP_EQUALITY) continue;
        ns_int r0 = B->row_start[b], s = B->row_start[b + 1] - r0;
        double *o = out + e->pos[r0];
        for (ns_int i = 0; i < s; i++) o[i] = p->q[r0 + i];
        for (ns_int k = B->row_ptr[b]; k < B->row_ptr[b + 1]; k++) {
            ns_int c = B->block_col[k];
            if (p->type[c] == NS_GMP_EQUALITY) continue;
            ns_int c0 = B->col_start[c], sc = B->col_start[c + 1] - c0;
            const double *Mk = B->x + B->value_ptr[k];
            for (ns_int j = 0; j < sc; j++)
                for (ns_int i = 0; i < s; i++) o[i] += Mk[i + j * s] * z[c0 + j];
        }
    }
}

/* z_E ← −M_EE⁻¹ (q_E + M_EN z_N). */
static ns_status eq_solve(const ns_gmp *p, eq_part *e, double *z)
{
    eq_rhs(p, e, z, e->rhs);
    ns_status st = ns_factor_solve(e->F, e->rhs, 1, e->ne);
    if (st) return st;
    const ns_block *B = &p->M->block;
    for (ns_int b = 0; b < p->nblocks; b++) {
        if (p->type[b] != NS_GMP_EQUALITY) continue;
        for (ns_int i = B->row_start[b]; i < B->row_start[b + 1]; i++) z[i] = -e->rhs[e->pos[i]];
    }
    return NS_OK;
}

/* Factors M_EE (sparse, from the EQ×EQ blocks). NS_OK, NS_SINGULAR, NS_NO_MEMORY. */
static ns_status eq_factor(const ns_gmp *p, eq_part *e)
{
    const ns_block *B = &p->M->block;
    ns_int nnz = 0;
    for (ns_int b = 0; b < p->nblocks; b++) {
        if (p->type[b] != NS_GMP_EQUALITY) continue;
        for (ns_int k = B->row_ptr[b]; k < B->row_ptr[b + 1]; k++)
            if (p->type[B->block_col[k]] == NS_GMP_EQUALITY)
                nnz += B->value_ptr[k + 1] - B->value_ptr[k];
    }
    ns_matrix *A = ns_matrix_sparse_new(e->ne, e->ne, nnz);
    ns_int *cnt = ns_malloc((size_t)e->ne + 1, sizeof(ns_int));
    if (!A || !cnt) { ns_matrix_free(A); free(cnt); return NS_NO_MEMORY; }
    /* count per column, then place (column-major within each block) */
    memset(A->csc.p, 0, ((size_t)e->ne + 1) * sizeof(ns_int));
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            for (ns_int j = 0; j < e->ne; j++) A->csc.p[j + 1] += A->csc.p[j];
            memcpy(cnt, A->csc.p, (size_t)e->ne * sizeof(ns_int));
        }
        for (ns_int b = 0; b < p->nblocks; b++) {
            if (p->type[b] != NS_GMP_EQUALITY) continue;
            ns_int r0 = B->row_start[b], s = B->row_start[b + 1] - r0;
            for (ns_int k = B->row_ptr[b]; k < B->row_ptr[b + 1]; k++) {
                ns_int c = B->block_col[k];
                if (p->type[c] != NS_GMP_EQUALITY) continue;
                ns_int c0 = B->col_start[c], sc = B->col_start[c + 1] - c0;
                const double *Mk = B->x + B->value_ptr[k];
                for (ns_int j = 0; j < sc; j++) {
                    ns_int col = e->pos[c0 + j];
                    for (ns_int i = 0; i < s; i++) {
                        if (pass == 0) { A->csc.p[col + 1]++; continue; }
                        ns_int t = cnt[col]++;
                        A->csc.i[t] = e->pos[r0 + i];
                        A->csc.x[t] = Mk[i + j * s];
                    }
                }
            }
        }
    }
    A->csc.nnz = nnz;
    char ferr[NS_ERRMSG_LEN];
    ns_status st = ns_factor_new(A, NS_FACTOR_AUTO, &e->F, ferr);
    ns_matrix_free(A);
    free(cnt);
    return st;
}

/* Dense Schur complement of the equalities: S (nn×nn), qh (nn). */
static ns_status eq_schur(const ns_gmp *p, eq_part *e, double *S, double *qh)
{
    const ns_block *B = &p->M->block;
    const ns_int ne = e->ne, nn = e->nn;
    double *X = ns_malloc((size_t)ne * ((size_t)nn + 1), sizeof(double));
    if (!X) return NS_NO_MEMORY;
    memset(X, 0, (size_t)ne * ((size_t)nn + 1) * sizeof(double));
    memset(S, 0, (size_t)nn * nn * sizeof(double));
    /* X = [M_EN  q_E]; S = M_NN; qh = q_N */
    for (ns_int b = 0; b < p->nblocks; b++) {
        ns_int r0 = B->row_start[b], s = B->row_start[b + 1] - r0;
        int eqr = p->type[b] == NS_GMP_EQUALITY;
        for (ns_int i = 0; i < s; i++) {
            if (eqr) X[(size_t)nn * ne + e->pos[r0 + i]] = p->q[r0 + i];
            else qh[e->pos[r0 + i]] = p->q[r0 + i];
        }
        for (ns_int k = B->row_ptr[b]; k < B->row_ptr[b + 1]; k++) {
            ns_int c = B->block_col[k];
            if (p->type[c] == NS_GMP_EQUALITY) continue;
            ns_int c0 = B->col_start[c], sc = B->col_start[c + 1] - c0;
            const double *Mk = B->x + B->value_ptr[k];
            for (ns_int j = 0; j < sc; j++)
                for (ns_int i = 0; i < s; i++) {
                    size_t col = (size_t)e->pos[c0 + j];
                    if (eqr) X[col * ne + e->pos[r0 + i]] = Mk[i + j * s];
                    else S[col * nn + e->pos[r0 + i]] = Mk[i + j * s];
                }
        }
    }
    ns_status st = ns_factor_solve(e->F, X, nn + 1, ne);
    if (st) { free(X); return st; }
    /* S −= M_NE X, qh −= M_NE M_EE⁻¹ q_E */
    for (ns_int b = 0; b < p->nblocks; b++) {
        if (p->type[b] == NS_GMP_EQUALITY) continue;
        ns_int r0 = B->row_start[b], s = B->row_start[b + 1] - r0;
        for (ns_int k = B->row_ptr[b]; k < B->row_ptr[b + 1]; k++) {
            ns_int c = B->block_col[k];
            if (p->type[c] != NS_GMP_EQUALITY) continue;
            ns_int c0 = B->col_start[c], sc = B->col_start[c + 1] - c0;
            const double *Mk = B->x + B->value_ptr[k];
            for (ns_int i = 0; i < s; i++) {
                ns_int row = e->pos[r0 + i];
                for (ns_int j = 0; j < sc; j++) {
                    double m = Mk[i + j * s];
                    if (m == 0.0) continue;
                    ns_int ej = e->pos[c0 + j];
                    for (ns_int col = 0; col < nn; col++) S[(size_t)col * nn + row] -= m * X[(size_t)col * ne + ej];
                    qh[row] -= m * X[(size_t)nn * ne + ej];
                }
            }
        }
    }
    free(X);
    return NS_OK;
}

ns_status ns_gmp_nsgs(const ns_gmp *p, double *z, double *w, const ns_options *o, ns_result *res)
{
    const ns_block *B = &p->M->block;
    const ns_int nb = p->nblocks, n = p->n;
    ns_status st = NS_MAX_ITER;
    size_t lu_len = 0;
    ns_int smax = 1;
    for (ns_int b = 0; b < nb; b++) {
        ns_int s = B->row_start[b + 1] - B->row_start[b];
        if (s > smax) smax = s;
        if (B->diag[b] < 0)
            return ns_fail(res->message, NS_BAD_INPUT, "gmp-nsgs: block row %d has no diagonal block", b);
        if (p->type[b] == NS_GMP_EQUALITY) lu_len += (size_t)s * s;
        if (p->type[b] == NS_GMP_LCP && s > GMP_MAX_LCP)
            return ns_fail(res->message, NS_UNSUPPORTED, "gmp-nsgs: LCP block %d of size %d > %d",
                           b, s, GMP_MAX_LCP);
    }
    eq_part e = { 0, 0, NULL, NULL, NULL };
    double *S = NULL, *qh = NULL, *zn = NULL;
    double *lu = ns_malloc(lu_len + 1, sizeof(double));
    lapack_int *piv = ns_malloc((size_t)n + (size_t)smax + 1, sizeof(lapack_int));
    double *qt = ns_malloc((size_t)smax * smax * 2 + 3 * (size_t)smax + 1, sizeof(double));
    size_t *lu_off = ns_malloc((size_t)nb + 1, sizeof(size_t));
    e.pos = ns_malloc((size_t)n + 1, sizeof(ns_int));
    if (!lu || !piv || !qt || !lu_off || !e.pos) { st = ns_fail(res->message, NS_NO_MEMORY, "gmp-nsgs: out of memory"); goto done; }
    double *work = qt + smax, *Db = work + smax * smax + smax;
    for (ns_int b = 0; b < nb; b++) {
        ns_int s = B->row_start[b + 1] - B->row_start[b];
        const double *D = B->x + B->value_ptr[B->diag[b]];
        if (p->type[b] == NS_GMP_EQUALITY) continue;
        if (block_usable(p->type[b], s, D)) {
            if (p->type[b] == NS_GMP_FC3D || p->type[b] == NS_GMP_FC2D)
                st = ns_fail(res->message, NS_BAD_INPUT, "gmp-nsgs: contact block %d: diagonal block "
                             "has W_NN <= 0 or is indefinite", b);
            else
                st = ns_fail(res->message, NS_BAD_INPUT, "gmp-nsgs: block %d: a diagonal entry of "
                             "M_ii is <= 0", b);
            goto done;
        }
    }
    for (ns_int b = 0; b < nb; b++)
        for (ns_int i = B->row_start[b]; i < B->row_start[b + 1]; i++)
            e.pos[i] = p->type[b] == NS_GMP_EQUALITY ? e.ne++ : e.nn++;

    /* mode 0: block by block; 1: equalities jointly, then N blocks with M_ii;
     * 2: Gauss–Seidel on the Schur complement */
    int mode = 0;
    if (e.ne > 0) {
        e.rhs = ns_malloc((size_t)e.ne, sizeof(double));
        if (!e.rhs) { st = ns_fail(res->message, NS_NO_MEMORY, "gmp-nsgs: out of memory"); goto done; }
        ns_status fs = eq_factor(p, &e);
        if (fs == NS_NO_MEMORY) { st = ns_fail(res->message, fs, "gmp-nsgs: out of memory"); goto done; }
        if (fs == NS_OK) mode = 1;
    }
    if (mode == 1 && e.nn > 0 && e.nn <= GMP_SCHUR_MAX_N &&
        (double)e.ne * (double)e.nn <= GMP_SCHUR_MAX_EN) {
        S = ns_malloc((size_t)e.nn * e.nn, sizeof(double));
        qh = ns_malloc((size_t)e.nn, sizeof(double));
        zn = ns_malloc((size_t)e.nn, sizeof(double));
        if (S && qh && zn && eq_schur(p, &e, S, qh) == NS_OK) {
            mode = 2;
            for (ns_int b = 0; b < nb && mode == 2; b++) {
                if (p->type[b] == NS_GMP_EQUALITY) continue;
                ns_int r0 = e.pos[B->row_start[b]], s = B->row_start[b + 1] - B->row_start[b];
                const double *D = B->x + B->value_ptr[B->diag[b]];
                for (ns_int j = 0; j < s; j++)
                    for (ns_int i = 0; i < s; i++) Db[i + j * s] = S[(size_t)(r0 + j) * e.nn + r0 + i];
                /* a direction the joints hold (its diagonal entry of S
                 * lost to cancellation: ≤ 1e-8 of M's) is not a block the
                 * local solvers take: for a contact the normal entry and
                 * the mean tangential entry (what sets ρ_T), otherwise
                 * every diagonal entry. One tangent alone may be ~0 or
                 * slightly negative (GMP5: S_T2T2 = −4.5e-4 against
                 * M_T2T2 = 1.1e6, noise of the file's 7 digits; M itself
                 * is indefinite): that is tried, with the stall fallback
                 * below. */
                int fc = p->type[b] == NS_GMP_FC3D || p->type[b] == NS_GMP_FC2D;
                for (ns_int i = 0; i < (fc ? 1 : s); i++)
                    if (!(Db[i + i * s] > 1e-8 * fabs(D[i + i * s]))) mode = 1;
                if (fc) {
                    double ts = 0, mt = 0;
                    for (ns_int i = 1; i < s; i++) { ts += Db[i + i * s]; mt += fabs(D[i + i * s]); }
                    if (!(ts > 1e-8 * mt)) mode = 1;
                }
                if (block_usable(p->type[b], s, Db) == 1) mode = 1;
            }
        }
    }
    if (mode == 0) {   /* LU of each equality diagonal block */
        size_t off = 0;
        for (ns_int b = 0; b < nb; b++) {
            ns_int s = B->row_start[b + 1] - B->row_start[b];
            lu_off[b] = off;
            if (p->type[b] != NS_GMP_EQUALITY) continue;
            memcpy(lu + off, B->x + B->value_ptr[B->diag[b]], (size_t)s * s * sizeof(double));
            if (LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, s, s, lu + off, s, piv + B->row_start[b]) != 0) {
                st = ns_fail(res->message, NS_SINGULAR, "gmp-nsgs: equality block %d is singular", b);
                goto done;
            }
            off += (size_t)s * s;
        }
    }
    if (mode == 2)
        for (ns_int b = 0; b < nb; b++)
            for (ns_int i = B->row_start[b]; i < B->row_start[b + 1]; i++)
                if (p->type[b] != NS_GMP_EQUALITY) zn[e.pos[i]] = z[i];
    if (mode && eq_solve(p, &e, z)) {
        st = ns_fail(res->message, NS_SINGULAR, "gmp-nsgs: solve with M_EE failed");
        goto done;
    }
    double t0 = ns_now(), ref = INFINITY;
    int stall = 0;
    for (int it = 1; it <= o->max_iter; it++) {
        for (ns_int b = 0; b < nb; b++) {
            ns_int r0 = B->row_start[b], s = B->row_start[b + 1] - r0;
            const int type = p->type[b];
            if (mode && type == NS_GMP_EQUALITY) continue;
            const double *lb = p->lb ? p->lb + r0 : NULL, *ub = p->ub ? p->ub + r0 : NULL;
            if (mode == 2) {
                const ns_int k0 = e.pos[r0];
                for (ns_int i = 0; i < s; i++) qt[i] = qh[k0 + i];
                for (ns_int j = 0; j < e.nn; j++) {
                    if (j == k0) { j += s - 1; continue; }
                    const double zj = zn[j];
                    if (zj == 0.0) continue;
                    const double *Sj = S + (size_t)j * e.nn + k0;
                    for (ns_int i = 0; i < s; i++) qt[i] += Sj[i] * zj;
                }
                for (ns_int j = 0; j < s; j++)
                    for (ns_int i = 0; i < s; i++) Db[i + j * s] = S[(size_t)(k0 + j) * e.nn + k0 + i];
                solve_block(type, s, Db, qt, zn + k0, p->mu[b], lb, ub, work, piv + n);
                memcpy(z + r0, zn + k0, (size_t)s * sizeof(double));
                continue;
            }
            for (ns_int i = 0; i < s; i++) qt[i] = p->q[r0 + i];
            for (ns_int k = B->row_ptr[b]; k < B->row_ptr[b + 1]; k++) {
                if (k == B->diag[b]) continue;
                ns_int c = B->block_col[k], c0 = B->col_start[c], sc = B->col_start[c + 1] - c0;
                const double *Mk = B->x + B->value_ptr[k];
                for (ns_int j = 0; j < sc; j++)
                    for (ns_int i = 0; i < s; i++) qt[i] += Mk[i + j * s] * z[c0 + j];
            }
            const double *D = B->x + B->value_ptr[B->diag[b]];
            double *zb = z + r0;
            if (type == NS_GMP_EQUALITY) {
                for (ns_int i = 0; i < s; i++) zb[i] = -qt[i];
                LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', s, 1, lu + lu_off[b], s, piv + r0, zb, s);
            } else {
                solve_block(type, s, D, qt, zb, p->mu[b], lb, ub, work, piv + n);
            }
        }
        if (mode && eq_solve(p, &e, z)) {
            st = ns_fail(res->message, NS_SINGULAR, "gmp-nsgs: solve with M_EE failed");
            break;
        }
        res->iterations = it;
        res->error = ns_gmp_error(p, z, w);
        int stop = ns_iteration(o, res, res->error);
        if (res->error <= o->tol) { st = NS_CONVERGED; break; }
        if (!isfinite(res->error)) { st = NS_DIVERGED; break; }
        /* a Schur block with an indefinite symmetric part can stall the
         * one-contact solver: 1000 sweeps without a 10 % gain → mode 1 */
        if (res->error <= 0.9 * ref) { ref = res->error; stall = 0; }
        else if (++stall >= 1000 && mode == 2) { mode = 1; stall = 0; ref = res->error; }
        if (o->time_limit > 0 && ns_now() - t0 > o->time_limit) { st = NS_TIME_LIMIT; break; }
        if (stop) { st = NS_INTERRUPTED; break; }
    }
done:
    ns_factor_free(e.F);
    free(e.pos); free(e.rhs); free(S); free(qh); free(zn);
    free(lu); free(piv); free(qt); free(lu_off);
    return st;
}
