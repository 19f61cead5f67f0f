/* tutorials.h — the Siconos tutorial models re-made on the public mechanics
 * API (nonsmooth/nsm.h), one file per model.
 *
 * Each model fills a table in the layout of its Siconos reference
 * (../shared/siconos-tutorials, `NAME.ref`): the same rows and the same
 * columns in the same order, so that the file `tutorials NAME --out FILE`
 * writes can be compared with the ref entry by entry. Columns the Siconos
 * program leaves at zero are written as zero.
 *
 * The schemes follow the rules the refs were made with (the README of
 * ../shared/siconos-tutorials): Newton law H v_{k+1} + e ẏ_k for every
 * active row (nsm_sim_options.separating_restitution = 0), activation of a
 * unilateral row when y_k + (h/2) ẏ_k ≤ 0 (gap_tol = 0), first-order laws on
 * y_{k+1} (theta_output = 0). */
#ifndef NSX_TUTORIALS_H
#define NSX_TUTORIALS_H
#include <stddef.h>
#include "nonsmooth/nsm.h"

/** What the user may vary (0 / NAN / NULL: the model's default). */
typedef struct tut_params {
    long steps;          /* time steps (event-driven: processed events); 0 = the ref's */
    double h;            /* time step (event-driven: output step) */
    double e;            /* restitution of the model's impact law (NAN = default) */
    double theta;        /* θ of the scheme (0 = the ref's) */
    int nodes;           /* ImpactingBar: nodes of the bar (0 = 100) */
    const char *solver;  /* numerics solver (NULL = the model's) */
    double tol;          /* solver tolerance (0 = the model's) */
    const char *dump;    /* time-stepping: write every one-step problem there (NULL: no) */
} tut_params;

void tut_params_default(tut_params *p);

/** A growable row-major table of `cols` columns. */
typedef struct tut_table {
    int cols;
    size_t rows, cap;
    double *v;
} tut_table;

/** Appends a row of zeros and returns it; NULL on allocation failure. */
double *tut_row(tut_table *t);
void tut_table_free(tut_table *t);

/** One line of a plot: column col of the table, with its legend. */
typedef struct tut_line { int col; const char *label; } tut_line;

#define TUT_MAX_LINES 10

/** A model: its name (the ref's file name without .ref), what it is, the
 *  run function, the table width, whether it is event-driven, and the
 *  three plot panels (positions, velocities, multipliers; label NULL ends a
 *  panel's list). run returns 0, or −1 with a message in err (size 256). */
typedef struct tut_model {
    const char *name;
    const char *what;
    const char *ref;      /* path of the ref under ../shared/siconos-tutorials */
    int cols;
    int event_driven;
    int (*run)(const tut_params *p, tut_table *t, char *err);
    const char *ylabel[3];
    tut_line lines[3][TUT_MAX_LINES];
    const char *xlabel;   /* the plots' abscissa, column 0 (NULL: "t [s]") */
} tut_model;

/** All models, in the order of the reference list (docs/tutorials.md); *n set to their number. */
const tut_model *const *tut_models(int *n);
/** The model called name, or NULL. */
const tut_model *tut_find(const char *name);

/* ---- helpers for the model files ---- */

/** Time-stepping options with Siconos' rules (see above), step h, θ, and the
 *  user's solver / tolerance when given (else solver, tol). */
void tut_sim_options(nsm_sim_options *o, const tut_params *p, double h,
                     double theta, const char *solver, double tol);
/** nsm_sim_new with a message in err on failure. */
nsm_sim *tut_sim_new(nsm_model *m, const nsm_sim_options *o, char *err);
/** Number of steps: p->steps if set, else the ref's default. */
long tut_steps(const tut_params *p, long def);
/** err ← "fmt..." (printf-style), returns −1. */
int tut_fail(char *err, const char *fmt, ...);

/* the models (one file each) */
extern const tut_model tut_bouncing_ball_ts, tut_bouncing_ball_gosi;
extern const tut_model tut_column_of_beads;
extern const tut_model tut_double_pendulum, tut_bouncing_ball_scleronomous, tut_ball_on_moving_plane;
extern const tut_model tut_woodpecker, tut_impacting_bar;
extern const tut_model tut_bouncing_ball_ed, tut_bouncing_ball_ed_rest,
    tut_bouncing_ball_ed_two;
extern const tut_model tut_friction_oscillator, tut_pendulum_slider;
extern const tut_model tut_bouncing_ball_direct, tut_bouncing_ball_combined, tut_slider_crank;
extern const tut_model tut_circuit_rlcd, tut_diode_bridge,
    tut_diode_bridge_cap_filter, tut_nonlinear_switch;

#endif
