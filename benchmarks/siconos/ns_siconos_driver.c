/* ns_siconos_driver — runs Debian's Siconos numerics (4.4) on problem files
 * and writes one CSV row per run in nsbench's columns, so that
 * `nsbench --compare ours.csv siconos.csv` joins the two.
 *
 *   ns_siconos_driver --kind KIND --solvers a,b [--tol T] [--max-iter N]
 *                     [--time-limit S] [--no-header] FILE...
 *   ns_siconos_driver --read --kind KIND [--min-time S] [--no-header] FILE...
 *
 * --read times Siconos' readers instead (benchmarks/siconos/read-compare.sh
 * puts them beside benchmarks/io/read_speed): per FILE one CSV row
 * file,kind,bytes,reads,us_per_read, the file read again and again, warm,
 * until S seconds (default 0.2) of CPU time are spent, each problem freed.
 *
 * Solvers are named as in our registry and mapped to Siconos solver ids
 * (table below); a name without a Siconos counterpart is skipped with a
 * note on stderr. Files are read by Siconos' own .dat readers; FCLIB
 * .hdf5 files are read with libfclib (fclib_read_local/global) and handed
 * to Siconos as NumericsMatrix (Debian's Siconos is built without FCLIB,
 * so from_fclib_local/global are not there: fclib_to_nm does their job). Each run happens in a forked child
 * (alarm at the time limit): a crash or a hang is a row, not the end.
 * Times are the solver call alone (reading excluded), like nsbench's.
 * Status: converged (info 0), max_iter (info ≠ 0 after max_iter
 * iterations), failed (other info ≠ 0), timeout, crash, bad_input.
 *
 * Kind gmp: the .dat is read by Siconos' genericMechanical_new_from_filename
 * and solved by gmp_driver (SICONOS_GENERIC_MECHANICAL_NSGS), in the four
 * ways of its iparam[ISREDUCED]: gmp-nsgs (0, Gauss–Seidel over all
 * blocks, Siconos' default), gmp-nsgs-subs (1, equalities substituted),
 * gmp-nsgs-assemble (2, equalities assembled into one block), gmp-mlcp (3,
 * solved as an MLCP). Debian's 4.4 package ships the library functions but
 * not GenericMechanicalProblem.h / GenericMechanical_Solvers.h, so their
 * prototypes are declared below.
 *
 * Kinds gmp, gfc2d, gfc3d: the error column is OUR error function
 * (ns_problem_error: ns_gmp_error, ns_gfc_error) on Siconos' answer, the
 * file read again by our reader (u = Hᵀ v + b recomputed from v), so both
 * sides are scored alike; Siconos' own residual goes to the message
 * column ("siconos residual X"). Other kinds keep Siconos' residual (for
 * fc2d/fc3d the same formula as ours). A converged fc2d/fc3d answer must
 * also pass the velocity check that ns_solve's "converged" asks of ours
 * (ns_fc_velocity_violation ≤ NS_FC_VELOCITY_FACTOR · tol, u = W r + q from
 * our reader); one that does not becomes max_iter, with the reason.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fclib.h>
#include "siconos/numerics/NumericsMatrix.h"
#include "siconos/numerics/SolverOptions.h"
#include "siconos/numerics/NonSmoothDrivers.h"
#include "siconos/numerics/LinearComplementarityProblem.h"
#include "siconos/numerics/MixedLinearComplementarityProblem.h"
#include "siconos/numerics/RelayProblem.h"
#include "siconos/numerics/FrictionContactProblem.h"
#include "siconos/numerics/GlobalFrictionContactProblem.h"
#include "siconos/numerics/RollingFrictionContactProblem.h"
#include "siconos/numerics/GlobalRollingFrictionContactProblem.h"
#include "siconos/numerics/MLCP_Solvers.h"
#include "siconos/numerics/lcp_cst.h"
#include "siconos/numerics/mlcp_cst.h"
#include "siconos/numerics/relay_cst.h"
#include "siconos/numerics/Friction_cst.h"
#include "nonsmooth/nonsmooth.h"
#include "malloc_policy.h"

/* Siconos 4.4 (libsiconos_numerics.so.7), headers not shipped by Debian */
GenericMechanicalProblem *genericMechanical_new_from_filename(const char *filename);
int gmp_driver(GenericMechanicalProblem *problem, double *reaction, double *velocity,
               SolverOptions *options);
enum { GMP_NSGS_ID = 2000,            /* SICONOS_GENERIC_MECHANICAL_NSGS */
       GMP_IPARAM_ISREDUCED = 2,      /* SICONOS_GENERIC_MECHANICAL_IPARAM_ISREDUCED */
       GMP_FREE_MATRIX = 4 };         /* NUMERICS_GMP_FREE_MATRIX: M and q freed too */
void genericMechanicalProblem_free(GenericMechanicalProblem *problem, unsigned int level);
typedef struct gmp_head {             /* leading fields of GenericMechanicalProblem */
    int size, maxLocalSize;
    NumericsMatrix *M;
    double *q;
} gmp_head;

/* variant: for gmp, 1 + iparam[ISREDUCED]; 0 elsewhere */
typedef struct map { const char *kind, *name; int id, variant; } map;

static const map solvers[] = {
    { "lcp", "lemke", SICONOS_LCP_LEMKE },       { "lcp", "pgs", SICONOS_LCP_PGS },
    { "lcp", "psor", SICONOS_LCP_PSOR },         { "lcp", "enum", SICONOS_LCP_ENUM },
    { "lcp", "newton-fb", SICONOS_LCP_NEWTON_FB_FBLSA },{ "lcp", "newton-min", SICONOS_LCP_NEWTONMIN },
    { "mlcp", "enum", SICONOS_MLCP_ENUM },       { "mlcp", "pgs", SICONOS_MLCP_PGS },
    { "mlcp", "lemke", SICONOS_MLCP_LCP_LEMKE }, { "mlcp", "newton-fb", SICONOS_MLCP_FB },
    { "relay", "lemke", SICONOS_RELAY_LEMKE },   { "relay", "enum", SICONOS_RELAY_ENUM },
    { "relay", "pgs", SICONOS_RELAY_PGS },
    { "fc2d", "nsgs", SICONOS_FRICTION_2D_NSGS },{ "fc2d", "lemke", SICONOS_FRICTION_2D_LEMKE },
    { "fc2d", "enum", SICONOS_FRICTION_2D_ENUM },
    { "fc3d", "nsgs", SICONOS_FRICTION_3D_NSGS },{ "fc3d", "nsgs-ac", SICONOS_FRICTION_3D_NSGS },
    { "fc3d", "nsn-ac", SICONOS_FRICTION_3D_NSN_AC },
    { "fc3d", "nsn-fb", SICONOS_FRICTION_3D_NSN_FB },
    { "fc3d", "nsn-nm", SICONOS_FRICTION_3D_NSN_NM },
    { "fc3d", "prox", SICONOS_FRICTION_3D_PROX },{ "fc3d", "vi-eg", SICONOS_FRICTION_3D_VI_EG },
    { "fc3d", "vi-fpp", SICONOS_FRICTION_3D_VI_FPP },
    { "fc3d", "admm", SICONOS_FRICTION_3D_ADMM },
    { "gfc3d", "nsgs-wr", SICONOS_GLOBAL_FRICTION_3D_NSGS_WR },
    { "gfc3d", "nsn-ac", SICONOS_GLOBAL_FRICTION_3D_NSN_AC },
    { "gfc3d", "admm", SICONOS_GLOBAL_FRICTION_3D_ADMM },
    { "gfc3d", "ipm", SICONOS_GLOBAL_FRICTION_3D_IPM },
    { "gmp", "gmp-nsgs", GMP_NSGS_ID, 1 },         { "gmp", "gmp-nsgs-subs", GMP_NSGS_ID, 2 },
    { "gmp", "gmp-nsgs-assemble", GMP_NSGS_ID, 3 }, { "gmp", "gmp-mlcp", GMP_NSGS_ID, 4 },
};

typedef struct rec {
    char status[24];
    long size, iterations;
    double error, seconds;
    char message[200];
    long solves;
} rec;

/* A solve faster than this is repeated until this much is measured, and
 * the time per solve reported (nsbench's rule, --min-time). */
static double min_time = 0.01;
/* A solve under min_time: that measurement made this many times and the
 * least time per solve kept (nsbench's --min-repeat): on a loaded machine a
 * time only grows. */
static int min_repeat = 1;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int is_hdf5(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char sig[8] = { 0 };
    if (!f) return 0;
    size_t n = fread(sig, 1, 8, f);
    fclose(f);
    return n == 8 && !memcmp(sig, "\x89HDF\r\n\x1a\n", 8);
}

/* Times CALL (an expression giving Siconos' info); a converged call faster
 * than min_time is repeated -- outputs zeroed by RESET, AFTER run between
 * calls -- until min_time is measured, and the mean is reported; that
 * measurement is made min_repeat times and the least mean kept (the
 * outputs are the last call's). A first call over min_time but under
 * 10 min_time is made once more and the lesser time decides, as nsbench
 * does: the first call in a process can be slow only for being first. */
#define TIMED(RESET, CALL, AFTER)                                                        \
    do {                                                                                 \
        double t0_ = now();                                                              \
        int info_ = (CALL);                                                              \
        double t_ = now() - t0_;                                                         \
        long m_ = 1;                                                                     \
        if (info_ == 0 && !(t_ < min_time) && t_ < 10 * min_time) {                     \
            AFTER;                                                                       \
            RESET;                                                                       \
            double t2_ = now();                                                          \
            int info2_ = (CALL);                                                         \
            t2_ = now() - t2_;                                                           \
            if (info2_ == info_ && t2_ < t_) t_ = t2_;                                   \
            info_ = info2_;                                                              \
        }                                                                                \
        if (info_ == 0 && t_ < min_time) {                                               \
            double best_ = INFINITY;                                                     \
            for (int rep_ = 0; rep_ < min_repeat; rep_++) {                              \
                double tot_ = 0;                                                         \
                long k_ = 0;                                                             \
                while (tot_ < min_time && k_ < 10000000L) {                              \
                    AFTER;                                                               \
                    RESET;                                                               \
                    double t1_ = now();                                                  \
                    info_ = (CALL);                                                      \
                    tot_ += now() - t1_;                                                 \
                    k_++;                                                                \
                }                                                                        \
                if (k_ > 0 && tot_ > 0 && tot_ / (double)k_ < best_) {                   \
                    best_ = tot_ / (double)k_;                                           \
                    m_ = k_;                                                             \
                }                                                                        \
            }                                                                            \
            if (best_ < INFINITY) t_ = best_;                                            \
        }                                                                                \
        finish(r, info_, o, t_);                                                         \
        r->solves = m_;                                                                  \
    } while (0)

static void set_opts(SolverOptions *o, double tol, int max_iter)
{
    o->dparam[SICONOS_DPARAM_TOL] = tol;
    if (max_iter > 0) o->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
}

static void finish(rec *r, int info, SolverOptions *o, double t)
{
    r->seconds = t;
    r->iterations = o->iparam[SICONOS_IPARAM_ITER_DONE];
    r->error = o->dparam[SICONOS_DPARAM_RESIDU];
    if (info == 0 && !isfinite(r->error)) {
        /* Siconos' PGS on an LCP with a negative diagonal entry
         * (data/lcp/lcp_infeasible_n30) returns info 0 with a NaN residual:
         * no answer, whatever the flag says */
        snprintf(r->status, sizeof r->status, "failed");
        snprintf(r->message, sizeof r->message, "Siconos info 0 with a non-finite residual");
    } else if (info == 0) snprintf(r->status, sizeof r->status, "converged");
    else if (r->iterations >= o->iparam[SICONOS_IPARAM_MAX_ITER])
        snprintf(r->status, sizeof r->status, "max_iter");
    else {
        snprintf(r->status, sizeof r->status, "failed");
        snprintf(r->message, sizeof r->message, "Siconos info %d", info);
    }
}

/* A libfclib matrix as a Siconos matrix: dense (local W, small) or sparse
 * triplet (global M, H). fclib: nz = -1 CSC, -2 CSR, >= 0 triplet with i the
 * row and p the column indices (CSparse's convention, which the files follow:
 * in every global file of the collection max i < m and max p < n, H being
 * m × n with n = 3·contacts; fclib.h's comment says the opposite, and reading
 * it that way transposed H and tripped Siconos' size assertions). */
static NumericsMatrix *fclib_to_nm(const struct fclib_matrix *A, int dense)
{
    NumericsMatrix *M;
    double *d = NULL;
    if (dense) {
        d = calloc((size_t)A->m * (size_t)A->n, sizeof *d);
        M = NM_create_from_data(NM_DENSE, A->m, A->n, d);
    } else {
        M = NM_create(NM_SPARSE, A->m, A->n);
        NM_triplet_alloc(M, A->nzmax > 0 ? A->nzmax : 1);
    }
    int outer = A->nz == -1 ? A->n : A->nz == -2 ? A->m : 0;
    for (int c = 0; c < outer; c++)
        for (int k = A->p[c]; k < A->p[c + 1]; k++) {
            int row = A->nz == -1 ? A->i[k] : c, col = A->nz == -1 ? c : A->i[k];
            if (dense) d[(size_t)col * (size_t)A->m + (size_t)row] += A->x[k];
            else NM_entry(M, row, col, A->x[k]);
        }
    for (int k = 0; A->nz >= 0 && k < A->nz; k++) {
        if (dense) d[(size_t)A->p[k] * (size_t)A->m + (size_t)A->i[k]] += A->x[k];
        else NM_entry(M, A->i[k], A->p[k], A->x[k]);
    }
    return M;
}

/* In the child: read with Siconos, solve, fill r. */
/* Our error function on Siconos' answer (kinds gmp, gfc2d, gfc3d): the file
 * read by our reader, x the first unknown (gmp reaction, gfc v), y the
 * second (gfc r; NULL for gmp). Siconos' own residual moves to the message. */
static void score_ours(const char *file, const double *x, const double *y, rec *r)
{
    char err[NS_ERRMSG_LEN];
    ns_problem *p = NULL;
    double own = r->error;
    if (ns_problem_read(file, NS_KIND_NONE, &p, err)) {
        snprintf(r->message, sizeof r->message, "our reader: %.150s", err);
        r->error = NAN;
        return;
    }
    ns_solution *sol = ns_solution_new(p);
    if (p->kind == NS_KIND_GMP) {
        memcpy(sol->vec[0], x, (size_t)p->u.gmp->n * sizeof(double));
    } else {
        memcpy(sol->vec[0], x, (size_t)p->u.gfc->n * sizeof(double));
        memcpy(sol->vec[2], y, (size_t)p->u.gfc->dim * (size_t)p->u.gfc->nc * sizeof(double));
    }
    r->error = ns_problem_error(p, sol);
    size_t l = strlen(r->message);
    snprintf(r->message + l, sizeof r->message - l, "%ssiconos residual %.3e", l ? "; " : "", own);
    ns_solution_free(sol);
    ns_problem_free(p);
}

/* The velocity check of ns_solve's "converged" on Siconos' converged
 * fc2d/fc3d answer r (the file read by our reader, u = W r + q). */
static void check_fc_velocity(const char *file, const double *rr, double tol, rec *r)
{
    if (strcmp(r->status, "converged")) return;
    char err[NS_ERRMSG_LEN];
    ns_problem *p = NULL;
    if (ns_problem_read(file, NS_KIND_NONE, &p, err)) {
        snprintf(r->message, sizeof r->message, "our reader: %.150s", err);
        return;
    }
    ns_solution *sol = ns_solution_new(p);
    if (sol && (p->kind == NS_KIND_FC2D || p->kind == NS_KIND_FC3D)) {
        memcpy(sol->vec[0], rr, (size_t)sol->len[0] * sizeof(double));
        ns_problem_error(p, sol);
        ns_int c;
        double v = ns_fc_velocity_violation(p->u.fc, sol->vec[1], &c);
        if (v > NS_FC_VELOCITY_FACTOR * tol) {
            snprintf(r->status, sizeof r->status, "max_iter");
            snprintf(r->message, sizeof r->message, "velocity check: contact %ld approaches at "
                     "%.3g of the velocities' scale", (long)c, v);
        }
    }
    ns_solution_free(sol);
    ns_problem_free(p);
}

static void run(const char *kind, const char *file, int id, int variant, double tol, int max_iter,
                rec *r)
{
    SolverOptions *o = solver_options_create(id);
    if (!o) { snprintf(r->status, sizeof r->status, "failed"); return; }
    set_opts(o, tol, max_iter);
    if (variant > 0) o->iparam[GMP_IPARAM_ISREDUCED] = variant - 1;
    snprintf(r->status, sizeof r->status, "bad_input");
    if (!strcmp(kind, "lcp")) {
        LinearComplementarityProblem *p = newLCP();
        /* Siconos 4.4 returns 1 here on success: judge by what was read */
        linearComplementarity_newFromFilename(p, file);
        if (!p->M || p->size <= 0) return;
        int n = p->size;
        double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w);
        r->size = n;
        size_t b = (size_t)n * sizeof *z;
        TIMED((memset(z, 0, b), memset(w, 0, b)), linearComplementarity_driver(p, z, w, o), );
    } else if (!strcmp(kind, "mlcp")) {
        MixedLinearComplementarityProblem *p = mixedLinearComplementarity_new();
        if (mixedLinearComplementarity_newFromFilename(p, file)) return;
        int n = p->n + p->m;
        double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w);
        r->size = n;
        size_t b = (size_t)n * sizeof *z;
        TIMED((memset(z, 0, b), memset(w, 0, b)),
              (mlcp_driver_init(p, o), mlcp_driver(p, z, w, o)), mlcp_driver_reset(p, o));
    } else if (!strcmp(kind, "relay")) {
        FILE *f = fopen(file, "r");
        RelayProblem *p = f ? relay_newFromFile(f) : NULL;
        if (f) fclose(f);
        if (!p) return;
        int n = p->size;
        double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w);
        r->size = n;
        size_t b = (size_t)n * sizeof *z;
        TIMED((memset(z, 0, b), memset(w, 0, b)), relay_driver(p, z, w, o), );
    } else if (!strcmp(kind, "fc2d") || !strcmp(kind, "fc3d")) {
        FrictionContactProblem *p = NULL;
        if (is_hdf5(file)) {
            struct fclib_local *fl = fclib_read_local(file);
            if (fl)
                p = frictionContactProblem_new_with_data(fl->spacedim, fl->W->m / fl->spacedim,
                                                         fclib_to_nm(fl->W, 1), fl->q, fl->mu);
        } else {
            p = frictionContact_new_from_filename(file);
        }
        if (!p) return;
        int n = p->dimension * p->numberOfContacts;
        double *rr = calloc((size_t)n, sizeof *rr), *u = calloc((size_t)n, sizeof *u);
        r->size = n;
        size_t b = (size_t)n * sizeof *rr;
        TIMED((memset(rr, 0, b), memset(u, 0, b)),
              p->dimension == 2 ? fc2d_driver(p, rr, u, o) : fc3d_driver(p, rr, u, o), );
        check_fc_velocity(file, rr, tol, r);
    } else if (!strcmp(kind, "gfc3d") || !strcmp(kind, "gfc2d")) {
        GlobalFrictionContactProblem *p = NULL;
        if (is_hdf5(file)) {
            struct fclib_global *fg = fclib_read_global(file);
            if (fg) {  /* fclib: M v = H r + f, u = Hᵀ v + w; Siconos: q = f, b = w */
                p = globalFrictionContactProblem_new();
                p->dimension = fg->spacedim;
                p->numberOfContacts = fg->H->n / fg->spacedim;
                p->M = fclib_to_nm(fg->M, 0);
                p->H = fclib_to_nm(fg->H, 0);
                p->q = fg->f;
                p->b = fg->w;
                p->mu = fg->mu;
            }
        } else {
            p = globalFrictionContact_new_from_filename(file);
        }
        if (!p) return;
        int m = p->dimension * p->numberOfContacts, n = p->M->size0;
        double *rr = calloc((size_t)m, sizeof *rr), *u = calloc((size_t)m, sizeof *u);
        double *v = calloc((size_t)n, sizeof *v);
        r->size = m;
        size_t b = (size_t)m * sizeof *rr;
        TIMED((memset(rr, 0, b), memset(u, 0, b), memset(v, 0, (size_t)n * sizeof *v)),
              gfc3d_driver(p, rr, u, v, o), );
        score_ours(file, v, rr, r);
    } else if (!strcmp(kind, "gmp")) {
        GenericMechanicalProblem *p = genericMechanical_new_from_filename(file);
        if (!p) return;
        int n = ((gmp_head *)p)->size;
        double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w);
        r->size = n;
        size_t b = (size_t)n * sizeof *z;
        TIMED((memset(z, 0, b), memset(w, 0, b)), gmp_driver(p, z, w, o), );
        score_ours(file, z, NULL, r);
    } else {
        snprintf(r->message, sizeof r->message, "kind %s not handled by this driver", kind);
    }
}

/* Siconos' reader of KIND on FILE once, the problem freed: 0, or -1 when
 * the reader returned nothing. FCLIB files (.hdf5) go through libfclib,
 * the reader Siconos' own FCLIB interface calls (not in Debian's build). */
/* Returns -1 if READER gives nothing on file, else frees it and returns 0. */
#define READ_FREE(T, READER, FREE)              \
    do {                                        \
        T *p_ = READER(file);                   \
        if (!p_) return -1;                     \
        FREE(p_);                               \
        return 0;                               \
    } while (0)

static int read_once(const char *kind, const char *file, int hdf5)
{
    if (hdf5) {
        if (!strcmp(kind, "fc2d") || !strcmp(kind, "fc3d")) {
            struct fclib_local *fl = fclib_read_local(file);
            if (!fl) return -1;
            fclib_delete_local(fl);
            free(fl);
            return 0;
        }
        struct fclib_global *fg = fclib_read_global(file);
        if (!fg) return -1;
        fclib_delete_global(fg);
        free(fg);
        return 0;
    }
    if (!strcmp(kind, "lcp")) {
        LinearComplementarityProblem *p = newLCP();
        linearComplementarity_newFromFilename(p, file);  /* 4.4 returns 1 on success */
        int ok = p->M && p->size > 0;
        freeLinearComplementarityProblem(p);
        return ok ? 0 : -1;
    }
    if (!strcmp(kind, "mlcp")) {
        MixedLinearComplementarityProblem *p = mixedLinearComplementarity_new();
        int bad = mixedLinearComplementarity_newFromFilename(p, file);
        mixedLinearComplementarity_free(p);
        return bad ? -1 : 0;
    }
    if (!strcmp(kind, "relay"))
        READ_FREE(RelayProblem, relay_new_from_filename, freeRelay_problem);
    if (!strcmp(kind, "fc2d") || !strcmp(kind, "fc3d"))
        READ_FREE(FrictionContactProblem, frictionContact_new_from_filename,
                  frictionContactProblem_free);
    if (!strcmp(kind, "gfc2d") || !strcmp(kind, "gfc3d"))
        READ_FREE(GlobalFrictionContactProblem, globalFrictionContact_new_from_filename,
                  globalFrictionContact_free);
    if (!strcmp(kind, "rfc3d") || !strcmp(kind, "rfc2d"))
        READ_FREE(RollingFrictionContactProblem, rollingFrictionContact_new_from_filename,
                  rollingFrictionContactProblem_free);
    if (!strcmp(kind, "grfc3d"))
        READ_FREE(GlobalRollingFrictionContactProblem,
                  globalRollingFrictionContact_new_from_filename,
                  globalRollingFrictionContactProblem_free);
    if (!strcmp(kind, "gmp")) {
        GenericMechanicalProblem *p = genericMechanical_new_from_filename(file);
        if (!p) return -1;
        genericMechanicalProblem_free(p, GMP_FREE_MATRIX);
        return 0;
    }
    return -1;
#undef READ_FREE
}

/* CPU time of the calling thread, as read_speed measures ours */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --read: Siconos' reader timed on FILE as read_speed times ours (warm,
 * CPU time, again and again until min_time): the seconds per read, or a
 * negative value when the reader failed. In the forked child. */
static double read_time(const char *kind, const char *file, long *count)
{
    int hdf5 = is_hdf5(file);
    if (read_once(kind, file, hdf5)) return -1;   /* also warms the cache */
    long reads = 0;
    double t0 = cpu_now(), t;
    do {
        read_once(kind, file, hdf5);
        reads++;
        t = cpu_now() - t0;
    } while (t < min_time);
    *count = reads;
    return t / (double)reads;
}

typedef struct solve_job {
    const char *kind, *file;
    int id, variant;
    double tol;
    int max_iter;
} solve_job;

static void solve_in_child(void *ctx, void *out)
{
    const solve_job *j = ctx;
    run(j->kind, j->file, j->id, j->variant, j->tol, j->max_iter, out);
}

static void csv_field(const char *s)
{
    if (!strpbrk(s, ",\"\n")) { fputs(s, stdout); return; }
    putchar('"');
    for (; *s; s++) { if (*s == '"') putchar('"'); putchar(*s); }
    putchar('"');
}

static void print_row(const char *file, const char *kind, const char *solver, const rec *r)
{
    csv_field(file);
    printf(",%s,", kind);
    if (r->size >= 0) printf("%ld", r->size);
    printf(",%s,%s,", solver, r->status);
    if (r->iterations >= 0) printf("%ld", r->iterations);
    putchar(',');
    if (!isnan(r->error)) printf("%.6e", r->error);
    putchar(',');
    if (!isnan(r->seconds)) printf("%.6e", r->seconds);
    putchar(',');
    if (r->solves > 0) printf("%ld", r->solves);
    putchar(',');
    putchar(',');
    csv_field(r->message);
    putchar('\n');
    fflush(stdout);
}

/* Runs fn(ctx, out) in a forked child with its output silenced (Siconos
 * prints), no core file and, when limit > 0, an alarm at limit seconds;
 * the child sends the size bytes of *out back through a pipe. Returns 1
 * when they all arrived (out filled), 0 when the child died first (*wstatus
 * says how), -1 when no pipe could be made. */
static int in_child(void (*fn)(void *ctx, void *out), void *ctx, void *out, size_t size,
                    double limit, int *wstatus)
{
    int fd[2];
    *wstatus = 0;
    if (pipe(fd)) return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        struct rlimit core = { 0, 0 };
        setrlimit(RLIMIT_CORE, &core);
        if (limit > 0) alarm((unsigned)ceil(limit));
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(4);
        fn(ctx, out);
        if (write(fd[1], out, size) != (ssize_t)size) _exit(3);
        _exit(0);
    }
    close(fd[1]);
    ssize_t got = 0, n;
    while ((n = read(fd[0], (char *)out + got, size - (size_t)got)) > 0) got += n;
    close(fd[0]);
    waitpid(pid, wstatus, 0);
    return got == (ssize_t)size;
}

typedef struct read_job { const char *kind, *file; } read_job;
typedef struct read_out { double per; long reads; } read_out;

static void read_in_child(void *ctx, void *out)
{
    const read_job *j = ctx;
    read_out *m = out;
    m->per = read_time(j->kind, j->file, &m->reads);
}

/* --read: one row per file, each measured in a forked child (a reader
 * that crashes on a file is a row "crash"). */
static int read_files(const char *kind, int nfiles, char **files, int header)
{
    if (header) printf("file,kind,bytes,reads,us_per_read,status\n");
    for (int i = 0; i < nfiles; i++) {
        read_job j = { kind, files[i] };
        read_out m = { -2, 0 };
        int wst;
        int ok = in_child(read_in_child, &j, &m, sizeof m, 0, &wst);
        if (ok < 0) return 2;
        struct stat sb;
        long long bytes = stat(files[i], &sb) == 0 ? (long long)sb.st_size : -1;
        csv_field(files[i]);
        if (!ok) printf(",%s,%lld,,,crash\n", kind, bytes);
        else if (m.per < 0) printf(",%s,%lld,,,refused\n", kind, bytes);
        else printf(",%s,%lld,%ld,%.3f,ok\n", kind, bytes, m.reads, 1e6 * m.per);
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *kind = NULL;
    char *names = NULL;
    double tol = 1e-8, limit = 60;
    int max_iter = 0, header = 1, first = 0, reading = 0, time_set = 0;
    ns_tool_malloc_policy();   /* the heap policy nsbench's runs have */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--read")) reading = 1;
        else if (!strcmp(argv[i], "--kind") && i + 1 < argc) kind = argv[++i];
        else if (!strcmp(argv[i], "--solvers") && i + 1 < argc) names = argv[++i];
        else if (!strcmp(argv[i], "--tol") && i + 1 < argc) tol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--max-iter") && i + 1 < argc) max_iter = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--time-limit") && i + 1 < argc) limit = atof(argv[++i]);
        else if (!strcmp(argv[i], "--min-time") && i + 1 < argc) { min_time = atof(argv[++i]); time_set = 1; }
        else if (!strcmp(argv[i], "--min-repeat") && i + 1 < argc) min_repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-header")) header = 0;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            puts("Usage: ns_siconos_driver --kind KIND --solvers a,b [--tol T] [--max-iter N]\n"
                 "                         [--time-limit S] [--min-time S] [--min-repeat R] [--no-header] FILE...\n"
                 "       ns_siconos_driver --read --kind KIND [--min-time S] [--no-header] FILE...\n"
                 "Runs Siconos numerics on each FILE with each solver (our names, mapped to\n"
                 "Siconos ids) and prints CSV rows in nsbench's columns. A converged solve\n"
                 "faster than --min-time (default 0.01 s) is repeated until that much is\n"
                 "measured; seconds is then the time per solve, solves the count.\n"
                 "--min-repeat R makes that measurement R times and keeps the least.\n"
                 "--read times Siconos' reader of KIND instead (libfclib's for .hdf5):\n"
                 "file,kind,bytes,reads,us_per_read, warm, CPU time, each file read until\n"
                 "--min-time (default 0.2 s) is spent.");
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "ns_siconos_driver: unknown option '%s'\n", argv[i]);
            return 2;
        } else { first = i; break; }
    }
    if (reading) {
        if (!kind || !first || !(min_time >= 0)) {
            fprintf(stderr, "ns_siconos_driver: --read needs --kind and FILE... (see --help)\n");
            return 2;
        }
        if (!time_set) min_time = 0.2;
        return read_files(kind, argc - first, argv + first, header);
    }
    if (!kind || !names || !first || !(tol > 0) || !(limit > 0) || !(min_time >= 0) ||
        min_repeat < 1) {
        fprintf(stderr, "ns_siconos_driver: need --kind, --solvers and FILE... (see --help)\n");
        return 2;
    }
    const char *sv[32];
    int ids[32], variants[32], ns = 0;
    for (char *tok = strtok(names, ","); tok && ns < 32; tok = strtok(NULL, ",")) {
        int id = -1, variant = 0;
        for (size_t k = 0; k < sizeof solvers / sizeof *solvers; k++)
            if (!strcmp(solvers[k].kind, kind) && !strcmp(solvers[k].name, tok)) {
                id = solvers[k].id;
                variant = solvers[k].variant;
            }
        if (id < 0) {
            fprintf(stderr, "ns_siconos_driver: %s solver '%s' has no Siconos counterpart here; "
                    "skipped\n", kind, tok);
            continue;
        }
        sv[ns] = tok;
        variants[ns] = variant;
        ids[ns++] = id;
    }
    if (header)
        printf("file,kind,size,solver,status,iterations,error,seconds,solves,peak_kb,message\n");
    for (int i = first; i < argc; i++)
        for (int s = 0; s < ns; s++) {
            rec r = { "", -1, -1, NAN, NAN, "", -1 };
            solve_job j = { kind, argv[i], ids[s], variants[s], tol, max_iter };
            double t0 = now();
            int st;
            int ok = in_child(solve_in_child, &j, &r, sizeof r, limit, &st);
            if (ok < 0) return 2;
            if (!ok) {
                rec k = { "crash", -1, -1, NAN, now() - t0, "", -1 };
                if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
                    snprintf(k.status, sizeof k.status, "timeout");
                    snprintf(k.message, sizeof k.message, "killed at the %g s time limit", limit);
                } else if (WIFSIGNALED(st)) {
                    snprintf(k.message, sizeof k.message, "died of signal %d", WTERMSIG(st));
                } else {
                    snprintf(k.message, sizeof k.message, "exited with code %d",
                             WIFEXITED(st) ? WEXITSTATUS(st) : -1);
                }
                r = k;
            }
            print_row(argv[i], kind, sv[s], &r);
        }
    return 0;
}
