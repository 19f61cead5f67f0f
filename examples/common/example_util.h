/* example_util.h — small helpers shared by the examples: command-line
 * parsing of the common options, growable series, directory creation. */
#ifndef NSX_EXAMPLE_UTIL_H
#define NSX_EXAMPLE_UTIL_H
#include <stddef.h>
#include "nonsmooth/nsm.h"

typedef struct nsx_args {
    const char *out;        /* --out DIR (NULL: no files) */
    const char *dump;       /* --dump DIR */
    long dump_max;          /* --dump-max N (default 50) */
    long dump_every;        /* --dump-every K (default 1) */
    const char *solver;     /* --solver NAME */
    double h, T;            /* --h, --T (0 = example default) */
    long steps;             /* --steps N (overrides T) */
    long save_every;        /* --save-every N (default 1) */
    int quiet;              /* --quiet */
    double e;               /* --e (NAN = default) */
    double rpm;             /* --rpm */
    int n;                  /* --n (beads, spheres) */
    const char *variant;    /* --variant NAME (beads: column/cradle) */
    double tol;             /* --tol (0 = default) */
    double theta;           /* --theta (0 = example default) */
    int siconos_law;        /* --siconos-law: Siconos' rules: restitution e
                               also for active separating contacts
                               (nsm_sim_options.separating_restitution = 0)
                               and first-order laws on y_{k+1}
                               (theta_output = 0; the examples use 1) */
} nsx_args;

/** The examples' process policy, as the tools': OpenBLAS single-threaded
 *  unless the user set OPENBLAS_NUM_THREADS or OMP_NUM_THREADS (the
 *  solvers' small dense LUs spin OpenBLAS' threads on a loaded machine: a
 *  100-step rigid stack took 0.9 s or 50 s from one run to the next), and
 *  freed memory kept in the process (malloc_policy.h: sparse
 *  factorizations otherwise fault their tens of MB back in at every
 *  iteration). nsx_parse calls it; programs with their own parser call it
 *  first. */
void nsx_process_policy(void);

/** Parses argv (numbers strictly: the whole word, finite, in range);
 *  returns 0, 1 after printing the help for -h/--help (the caller exits 0),
 *  or −1 after a message on stderr (the caller exits 2). */
int nsx_parse(int argc, char **argv, nsx_args *a, const char *usage);
/** nsx_parse with the example's own options described in the help:
 *  `details` (lines of "  --opt ARG   what it does", or NULL) is printed
 *  under "Options of this example:" before the common options. */
int nsx_parse_described(int argc, char **argv, nsx_args *a, const char *usage, const char *details);
/** mkdir -p of one level (parent must exist); 0 on success or if it exists. */
int nsx_mkdir(const char *dir);
/** Joins dir and name into a static-free buffer given by the caller. */
char *nsx_path(char *buf, size_t len, const char *dir, const char *name);
/** Applies --dump / --solver / --tol / --theta / --siconos-law to simulation options. */
void nsx_apply(const nsx_args *a, nsm_sim_options *o);
/** Time-stepping simulation of model with step h, θ = 1/2 and the command
 *  line's options; on failure prints "prog: reason" and returns NULL (the
 *  model stays the caller's). */
nsm_sim *nsx_sim_new(nsm_model *model, const nsx_args *a, double h, const char *prog);

/** Removes "--scheme ts|ed" from argv (argc updated): 0 ts (default), 1 ed,
 *  −1 unknown scheme. */
int nsx_take_scheme(int *argc, char **argv);
/** Removes "NAME VALUE" from argv and sets *val; 1 if found. A VALUE that
 *  is not a finite number is reported on stderr and left in argv, so that
 *  nsx_parse refuses it. */
int nsx_take_double(int *argc, char **argv, const char *name, double *val);

typedef struct nsx_series { size_t n, cap; double *v; } nsx_series;
int nsx_push(nsx_series *s, double v);
void nsx_series_free(nsx_series *s);

#endif
