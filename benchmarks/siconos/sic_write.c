/* sic_write.c — problem files written by Siconos' own writers, and
 * Siconos' error of a solution of them: the test that our readers take
 * what Siconos writes (every kind with a writer in Debian's Siconos 4.4,
 * every matrix storage it writes) and that our solutions solve the
 * problem as Siconos reads it.
 *
 *   sic_write OUTDIR
 *       writes OUTDIR/KIND_STORAGE.dat for KIND in lcp, mlcp, relay, fc2d,
 *       fc3d, rfc2d, rfc3d, gfc3d, grfc3d and STORAGE in dense, triplet,
 *       csc, sbm (W or M in that storage; gfc3d/grfc3d: M and H), random
 *       coupled problems with a solution (positive definite M or W),
 *       seeded; and KIND_STORAGE_one.dat, one contact or one unknown, for
 *       lcp, fc2d, fc3d, rfc2d, rfc3d;
 *   sic_write --error FILE SOLUTION
 *       reads FILE with Siconos' reader of the kind named by FILE's base
 *       name (KIND_...), the vectors of SOLUTION as `nsolve -o` writes them
 *       ('# NAME LENGTH' then one value a line), and prints Siconos' error
 *       of that solution (its *_compute_error for the kind; grfc3d has none
 *       in Debian's headers: not supported).
 *
 * Exit status 0 on success, 1 on a failure (a message on stderr), 3 when
 * Siconos has no error function for the kind. */
#include "SiconosNumerics.h"
#include "NumericsMatrix.h"
#include "NumericsSparseMatrix.h"
#include "SparseBlockMatrix.h"
#include "CSparseMatrix.h"
#include "LinearComplementarityProblem.h"
#include "MixedLinearComplementarityProblem.h"
#include "RelayProblem.h"
#include "FrictionContactProblem.h"
#include "GlobalFrictionContactProblem.h"
#include "RollingFrictionContactProblem.h"
#include "GlobalRollingFrictionContactProblem.h"
#include "SolverOptions.h"
#include "Friction_cst.h"
#include "LCP_Solvers.h"
#include "MLCP_Solvers.h"
#include "Relay_Solvers.h"
#include "fc2d_compute_error.h"
#include "fc3d_compute_error.h"
#include "gfc3d_compute_error.h"
#include "rolling_fc3d_compute_error.h"
/* (Siconos 4.4's rolling_fc2d_compute_error.h has the 3D header's include
 * guard, so only one of the two can be included: the 2D one is declared
 * here as that header declares it) */
int rolling_fc2d_compute_error(RollingFrictionContactProblem *problem, double *z, double *w,
                               double tolerance, SolverOptions *options, double norm, double *error);
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static double urand(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

enum { DENSE, TRIPLET, CSC, SBM, NSTORAGE };
static const char *storage_name[NSTORAGE] = { "dense", "triplet", "csc", "sbm" };

/* A column-major n × n matrix B Bᵀ + n I with zero off-diagonal blocks
 * (block size bs) here and there: coupled, positive definite, sparse. */
static double *spd(int n, int bs)
{
    int k = n + 2, nb = n / bs;
    double *H = calloc((size_t)n * k, sizeof *H), *W = calloc((size_t)n * n, sizeof *W);
    for (int i = 0; i < n * k; i++) H[i] = urand() < 0.4 ? 2 * urand() - 1 : 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = i == j ? n : 0.0;
            for (int l = 0; l < k; l++) s += H[i + l * n] * H[j + l * n];
            W[i + j * n] = s;
        }
    for (int a = 0; a < nb; a++)
        for (int b = a + 1; b < nb; b++)
            if (urand() < 0.5)
                for (int i = 0; i < bs; i++)
                    for (int j = 0; j < bs; j++) {
                        W[a * bs + i + (b * bs + j) * n] = 0.0;
                        W[b * bs + j + (a * bs + i) * n] = 0.0;
                    }
    free(H);
    return W;
}

/* A rows × cols column-major array in the given storage (blocks of bs × bs
 * for SBM). */
static NumericsMatrix *matrix(const double *A, int rows, int cols, int storage, int bs)
{
    if (storage == DENSE) {
        NumericsMatrix *M = NM_create(NM_DENSE, rows, cols);
        memcpy(M->matrix0, A, sizeof(double) * (size_t)rows * cols);
        return M;
    }
    NumericsMatrix *M = NM_create(NM_SPARSE, rows, cols);
    int nnz = 0;
    for (int i = 0; i < rows * cols; i++) nnz += A[i] != 0.0;
    NM_triplet_alloc(M, nnz);
    M->matrix2->origin = NSM_TRIPLET;
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            if (A[i + j * rows] != 0.0) NM_entry(M, i, j, A[i + j * rows]);
    if (storage == TRIPLET) return M;
    CSparseMatrix *csc = NM_csc(M);
    if (storage == CSC) {
        M->matrix2->origin = NSM_CSC;
        return M;
    }
    SparseBlockStructuredMatrix *sbm = SBM_new();
    if (SBM_from_csparse(bs, csc, sbm)) { fprintf(stderr, "sic_write: SBM_from_csparse failed\n"); exit(1); }
    NM_clear(M);
    free(M);
    return NM_new_SBM(rows, cols, sbm);
}

static double *vec(int n, double lo, double hi)
{
    double *v = malloc(sizeof *v * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) v[i] = lo + (hi - lo) * urand();
    return v;
}

/* one = 1: the smallest problem of the kind (one contact, one unknown),
 * written as KIND_STORAGE_one.dat: the layouts where detection has the
 * least to go on (a one-contact FC3D file against RFC2D's). */
static int write_kind(const char *dir, const char *kind, int storage, int one)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s_%s%s.dat", dir, kind, storage_name[storage], one ? "_one" : "");
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "sic_write: cannot write %s\n", path); return 1; }
    int st = 0;
    if (!strcmp(kind, "lcp")) {
        int n = one ? 1 : 12;
        double *A = spd(n, one ? 1 : 3);
        LinearComplementarityProblem *p = newLCP();
        p->size = n; p->M = matrix(A, n, n, storage, one ? 1 : 3); p->q = vec(n, -1, 1);
        st = linearComplementarity_printInFile(p, f);
        freeLinearComplementarityProblem(p);
        free(A);
    } else if (!strcmp(kind, "relay")) {
        int n = 12;
        double *A = spd(n, 3);
        RelayProblem *p = relayProblem_new();
        p->size = n; p->M = matrix(A, n, n, storage, 3); p->q = vec(n, -1, 1);
        p->lb = vec(n, -2, -0.5); p->ub = vec(n, 0.5, 2);
        st = relay_printInFile(p, f);
        freeRelay_problem(p);
        free(A);
    } else if (!strcmp(kind, "mlcp")) {
        int ne = 3, nc = 9, n = ne + nc;
        double *A = spd(n, 3);
        MixedLinearComplementarityProblem *p = mixedLinearComplementarity_new();
        p->isStorageType1 = 1; p->isStorageType2 = 0;
        p->n = ne; p->m = nc;
        p->blocksRows = malloc(3 * sizeof(int));
        p->blocksRows[0] = 0; p->blocksRows[1] = ne; p->blocksRows[2] = n;
        p->blocksIsComp = malloc(2 * sizeof(int));
        p->blocksIsComp[0] = 0; p->blocksIsComp[1] = 1;
        p->M = matrix(A, n, n, storage, 3); p->q = vec(n, -1, 1);
        st = mixedLinearComplementarity_printInFile(p, f);
        mixedLinearComplementarity_free(p);
        free(A);
    } else if (!strcmp(kind, "fc2d") || !strcmp(kind, "fc3d")) {
        int d = kind[2] == '2' ? 2 : 3, nc = one ? 1 : 6, n = d * nc;
        double *A = spd(n, d);
        double *q = vec(n, -1, 1);
        for (int c = 0; c < nc; c++) q[c * d] = -1.0 + 0.5 * urand() - (c % 3 == 0 ? -1.5 : 0.0);
        FrictionContactProblem *p =
            frictionContactProblem_new_with_data(d, nc, matrix(A, n, n, storage, d), q, vec(nc, 0.1, 0.9));
        st = frictionContact_printInFile(p, f);
        frictionContactProblem_free(p);
        free(A);
    } else if (!strcmp(kind, "rfc3d") || !strcmp(kind, "rfc2d")) {
        int d = kind[3] == '2' ? 3 : 5, nc = one ? 1 : 4, n = d * nc;
        double *A = spd(n, d);
        double *q = vec(n, -0.5, 0.5);
        for (int c = 0; c < nc; c++) q[c * d] = -1.0;
        RollingFrictionContactProblem *p = rollingFrictionContactProblem_new_with_data(
            d, nc, matrix(A, n, n, storage, d), q, vec(nc, 0.2, 0.8), vec(nc, 0.01, 0.1));
        st = rollingFrictionContact_printInFile(p, f);
        rollingFrictionContactProblem_free(p);
        free(A);
    } else if (!strcmp(kind, "gfc3d") || !strcmp(kind, "grfc3d")) {
        const int rolling = kind[1] == 'r', d = rolling ? 5 : 3, nc = 4, m = d * nc, nv = 12;
        double *Md = spd(nv, 3);
        double *H = calloc((size_t)nv * m, sizeof *H);   /* nv × m: u = Hᵀ v + b */
        for (int i = 0; i < nv * m; i++) H[i] = urand() < 0.5 ? 2 * urand() - 1 : 0.0;
        for (int c = 0; c < nc; c++) H[(c * 3) % nv + (c * d) * nv] += 3.0;   /* each normal sees a body */
        double *q = vec(nv, -1, 1), *b = vec(m, -0.2, 0.2), *mu = vec(nc, 0.2, 0.8);
        NumericsMatrix *MM = matrix(Md, nv, nv, storage, 3);
        /* H in the same storage but for SBM (its blocks are not square): CSC */
        NumericsMatrix *HH = matrix(H, nv, m, storage == SBM ? CSC : storage, 3);
        if (rolling) {
            GlobalRollingFrictionContactProblem *p = globalRollingFrictionContactProblem_new();
            p->dimension = d; p->numberOfContacts = nc; p->M = MM; p->H = HH; p->q = q; p->b = b;
            p->mu = mu; p->mu_r = vec(nc, 0.01, 0.1);
            st = globalRollingFrictionContact_printInFile(p, f);
            globalRollingFrictionContactProblem_free(p);
        } else {
            GlobalFrictionContactProblem *p = globalFrictionContactProblem_new();
            p->dimension = d; p->numberOfContacts = nc; p->M = MM; p->H = HH; p->q = q; p->b = b;
            p->mu = mu;
            st = globalFrictionContact_printInFile(p, f);
            globalFrictionContact_free(p);
        }
        free(Md);
        free(H);
    } else {
        fprintf(stderr, "sic_write: unknown kind %s\n", kind);
        st = 1;
    }
    fclose(f);
    /* Siconos' LCP and relay writers return 1 when they wrote the file;
     * the others 0: a file is judged by what Siconos reads back (--error) */
    (void)st;
    return 0;
}

/* The vector NAME of a solution file written by nsolve -o, n values. */
static double *read_vector(const char *file, const char *name, int n)
{
    FILE *f = fopen(file, "r");
    if (!f) { fprintf(stderr, "sic_write: cannot read %s\n", file); exit(1); }
    char line[256], want[64];
    snprintf(want, sizeof want, "# %s %d", name, n);
    double *v = NULL;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strcmp(line, want)) continue;
        v = malloc(sizeof *v * (size_t)(n > 0 ? n : 1));
        for (int i = 0; i < n; i++)
            if (!fgets(line, sizeof line, f) || sscanf(line, "%lf", &v[i]) != 1) {
                fprintf(stderr, "sic_write: %s: vector %s cut short\n", file, name);
                exit(1);
            }
        break;
    }
    fclose(f);
    if (!v) { fprintf(stderr, "sic_write: %s: no vector '%s'\n", file, want); exit(1); }
    return v;
}

static double norm2(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}

static int print_error(const char *file, const char *sol)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    FILE *f = fopen(file, "r");
    if (!f) { fprintf(stderr, "sic_write: cannot read %s\n", file); return 1; }
    double err = NAN;
    int st = 0;
    if (!strncmp(base, "lcp_", 4)) {
        LinearComplementarityProblem *p = newLCP();
        linearComplementarity_newFromFile(p, f);   /* (its status is 1 when it read the file) */
        st = !p->M || p->size <= 0;
        if (!st) {
            double *z = read_vector(sol, "z", p->size), *w = read_vector(sol, "w", p->size);
            st = lcp_compute_error(p, z, w, 1e-8, &err) > 1 ? 1 : 0;
            free(z); free(w);
        }
        freeLinearComplementarityProblem(p);
    } else if (!strncmp(base, "relay_", 6)) {
        RelayProblem *p = relay_newFromFile(f);
        if (!p) st = 1;
        else {
            double *z = read_vector(sol, "z", p->size), *w = read_vector(sol, "w", p->size);
            relay_compute_error(p, z, w, 1e-8, &err);
            free(z); free(w);
            freeRelay_problem(p);
        }
    } else if (!strncmp(base, "mlcp_", 5)) {
        MixedLinearComplementarityProblem *p = mixedLinearComplementarity_new();
        st = mixedLinearComplementarity_newFromFile(p, f);
        if (!st) {   /* ours writes z as u (the n equality unknowns) and v */
            int n = p->n + p->m;
            double *u = read_vector(sol, "u", p->n), *v = read_vector(sol, "v", p->m);
            double *z = malloc(sizeof *z * (size_t)n), *w = read_vector(sol, "w", n);
            memcpy(z, u, sizeof *z * (size_t)p->n);
            memcpy(z + p->n, v, sizeof *z * (size_t)p->m);
            mlcp_compute_error(p, z, w, 1e-8, &err);
            free(u); free(v); free(z); free(w);
        }
        mixedLinearComplementarity_free(p);
    } else if (!strncmp(base, "fc2d_", 5) || !strncmp(base, "fc3d_", 5)) {
        FrictionContactProblem *p = frictionContact_newFromFile(f);
        if (!p) st = 1;
        else {
            int n = p->dimension * p->numberOfContacts;
            double *r = read_vector(sol, "r", n), *u = read_vector(sol, "u", n);
            const double nq = norm2(p->q, n);
            if (p->dimension == 2) fc2d_compute_error(p, r, u, 1e-8, nq, &err);
            else {
                SolverOptions *o = solver_options_create(SICONOS_FRICTION_3D_NSGS);
                fc3d_compute_error(p, r, u, 1e-8, o, nq, &err);
                solver_options_delete(o);
            }
            free(r); free(u);
            frictionContactProblem_free(p);
        }
    } else if (!strncmp(base, "rfc3d_", 6) || !strncmp(base, "rfc2d_", 6)) {
        RollingFrictionContactProblem *p = rollingFrictionContact_newFromFile(f);
        if (!p) st = 1;
        else {
            int n = p->dimension * p->numberOfContacts;
            double *r = read_vector(sol, "r", n), *u = read_vector(sol, "u", n);
            const double nq = norm2(p->q, n);
            SolverOptions *o = solver_options_create(p->dimension == 3 ? SICONOS_ROLLING_FRICTION_2D_NSGS
                                                                      : SICONOS_ROLLING_FRICTION_3D_NSGS);
            if (p->dimension == 3) rolling_fc2d_compute_error(p, r, u, 1e-8, o, nq, &err);
            else rolling_fc3d_compute_error(p, r, u, 1e-8, o, nq, &err);
            solver_options_delete(o);
            free(r); free(u);
            rollingFrictionContactProblem_free(p);
        }
    } else if (!strncmp(base, "gfc3d_", 6)) {
        GlobalFrictionContactProblem *p = globalFrictionContact_newFromFile(f);
        if (!p) st = 1;
        else {
            int n = p->M->size0, m = p->dimension * p->numberOfContacts;
            double *v = read_vector(sol, "v", n), *u = read_vector(sol, "u", m), *r = read_vector(sol, "r", m);
            SolverOptions *o = solver_options_create(SICONOS_GLOBAL_FRICTION_3D_NSN_AC);
            gfc3d_compute_error(p, r, u, v, 1e-8, o, norm2(p->q, n), norm2(p->b, m), &err);
            solver_options_delete(o);
            free(v); free(u); free(r);
            globalFrictionContact_free(p);
        }
    } else {   /* grfc3d: Debian's headers declare no error function */
        fclose(f);
        fprintf(stderr, "sic_write: %s: Siconos has no error function for this kind here\n", base);
        return 3;
    }
    fclose(f);
    if (st) { fprintf(stderr, "sic_write: Siconos could not read %s\n", file); return 1; }
    printf("%.6e\n", err);
    return !(err >= 0.0);
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--error")) return print_error(argv[2], argv[3]);
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: sic_write OUTDIR | sic_write --error FILE SOLUTION\n");
        return 2;
    }
    static const char *kinds[] = { "lcp", "mlcp", "relay", "fc2d", "fc3d", "rfc2d", "rfc3d", "gfc3d", "grfc3d" };
    static const char *small[] = { "lcp", "fc2d", "fc3d", "rfc2d", "rfc3d" };
    int bad = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (int s = 0; s < NSTORAGE; s++) bad |= write_kind(argv[1], kinds[k], s, 0);
    for (size_t k = 0; k < sizeof small / sizeof small[0]; k++)
        for (int s = 0; s < NSTORAGE; s++) bad |= write_kind(argv[1], small[k], s, 1);
    return bad;
}
