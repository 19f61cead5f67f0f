/* fc_wprobe.c — why an FC3D problem is hard: the structure of W, q, μ.
 * For each file: contacts, μ range, ‖q‖, asymmetry max|W − Wᵀ| / max|W|,
 * the singular values of W (LAPACK dgesdd on a dense copy): σ_max, the
 * numerical rank (σ > 1e-10·σ_max), the smallest nonzero σ and the
 * condition number on the range, the part of q outside range(W)
 * (‖(I − UUᵀ) q‖ / ‖q‖: 0 when q = W x for some x, as in q = H v_free
 * with no restitution term, the case where a solution exists), and the
 * smallest eigenvalue of the symmetric part (≥ 0: W monotone).
 * Dense O(m³): meant for m up to a few thousand.
 * usage: fc_wprobe FILE... */
#include "nonsmooth/nonsmooth.h"
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int probe(const char *file)
{
    ns_problem *p = NULL;
    char err[NS_ERRMSG_LEN];
    if (ns_problem_read(file, NS_KIND_NONE, &p, err)) { fprintf(stderr, "%s\n", err); return 1; }
    if (p->kind != NS_KIND_FC3D && p->kind != NS_KIND_FC2D) {
        fprintf(stderr, "%s: not a local friction-contact problem\n", file);
        ns_problem_free(p);
        return 1;
    }
    const ns_fc *f = p->u.fc;
    const int m = f->dim * (int)f->nc;
    const size_t mm = (size_t)m * (size_t)m;
    ns_matrix *D = ns_matrix_to_dense(f->W);
    double *A = malloc(mm * sizeof *A), *S = malloc(mm * sizeof *S), *U = malloc(mm * sizeof *U),
           *VT = malloc(mm * sizeof *VT), *s = malloc((size_t)m * sizeof *s),
           *ev = malloc((size_t)m * sizeof *ev);
    if (!D || !A || !S || !U || !VT || !s || !ev) { fprintf(stderr, "out of memory\n"); return 1; }
    double wmax = 0, asym = 0, qn = 0, mu0 = INFINITY, mu1 = 0;
    for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++) {
            double a = D->dense[i + (size_t)j * m], b = D->dense[j + (size_t)i * m];
            A[i + (size_t)j * m] = a;
            S[i + (size_t)j * m] = 0.5 * (a + b);
            wmax = fmax(wmax, fabs(a));
            asym = fmax(asym, fabs(a - b));
        }
    for (int i = 0; i < m; i++) qn += f->q[i] * f->q[i];
    qn = sqrt(qn);
    for (ns_int c = 0; c < f->nc; c++) { mu0 = fmin(mu0, f->mu[c]); mu1 = fmax(mu1, f->mu[c]); }
    if (LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'A', m, m, A, m, s, U, m, VT, m) ||
        LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'U', m, S, m, ev)) {
        fprintf(stderr, "%s: LAPACK failed\n", file);
        return 1;
    }
    int rank = 0;
    while (rank < m && s[rank] > 1e-10 * s[0]) rank++;
    double out = 0;
    for (int k = rank; k < m; k++) {
        double c = 0;
        for (int i = 0; i < m; i++) c += U[i + (size_t)k * m] * f->q[i];
        out += c * c;
    }
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    printf("%s\t%d\t%d\t%g..%g\t%.4g\t%.2e\t%.4g\t%d\t%.3e\t%.3e\t%.3e\t%.2e\n", base, (int)f->nc, m,
           mu0, mu1, qn, wmax > 0 ? asym / wmax : 0, s[0], rank, rank ? s[rank - 1] : 0,
           rank ? s[0] / s[rank - 1] : INFINITY, qn > 0 ? sqrt(out) / qn : 0, ev[0]);
    free(A); free(S); free(U); free(VT); free(s); free(ev);
    ns_matrix_free(D);
    ns_problem_free(p);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: fc_wprobe FILE...\n"); return 2; }
    printf("file\tcontacts\tm\tmu\t|q|\tasym\tsigma_max\trank\tsigma_min_nonzero\tcond_range"
           "\tq_outside_range\tlambda_min_sym\n");
    int bad = 0;
    for (int a = 1; a < argc; a++) bad |= probe(argv[a]);
    return bad;
}
