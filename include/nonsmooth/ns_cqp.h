/* ns_cqp.h — convex quadratic program.
 *   minimise ½ xᵀ M x + qᵀ x  over  x ∈ C,  A x = b (optional),
 *   M symmetric positive semidefinite (n × n), C closed convex: a box
 *   [lb, ub] (ℝⁿ when both are NULL), a product of second-order cones, or
 *   given by its projection (callback). A: (m × n), m ≥ 0.
 * Optimality (KKT): with y ∈ ℝᵐ the multipliers of A x = b,
 *   x = P_C(x − (M x + q − Aᵀ y)),  A x = b.
 */
#ifndef NS_CQP_H
#define NS_CQP_H
#include "ns_vi.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_cqp {
    ns_int n;
    ns_matrix *M;              /* (n × n) owned, symmetric PSD */
    double *q;                 /* (n) owned */
    ns_int m;                  /* equality constraints (0: none) */
    ns_matrix *A;              /* (m × n) owned, or NULL when m = 0 */
    double *b;                 /* (m) owned */
    /* the set C, one of: */
    ns_projection_fn project;  /* projection callback (user borrowed) */
    void *user;
    double *lb, *ub;           /* box (n each, owned) */
    ns_int ncones;             /* second-order cones: x split into blocks */
    ns_int *cone_start;        /* (ncones+1) owned, 0 .. n */
    double *cone_mu;           /* (ncones) owned: {x : ‖x_1..‖ ≤ mu x_0} */
} ns_cqp;

/** Takes M (freed on failure), copies q; C = ℝⁿ until a set is given. */
ns_cqp *ns_cqp_new(ns_matrix *M, const double *q);
/** C = [lb, ub] (copied; NULL: −∞ / +∞). */
ns_status ns_cqp_set_box(ns_cqp *p, const double *lb, const double *ub);
/** C = the product of ncones cones {x_b : ‖x_b[1..]‖ ≤ mu_b x_b[0]} over
 *  the blocks start[b] .. start[b+1]−1 (copied; start[ncones] = n). */
ns_status ns_cqp_set_cones(ns_cqp *p, ns_int ncones, const ns_int *start,
                           const double *mu);
/** C by its projection (user borrowed). */
ns_status ns_cqp_set_projection(ns_cqp *p, ns_projection_fn project, void *user);
/** A x = b: takes A (m × n, freed on failure), copies b (A->rows values). */
ns_status ns_cqp_set_equalities(ns_cqp *p, ns_matrix *A, const double *b);

/** Sizes, finite data, M symmetric (1e-10 relative), one set only, cones
 *  covering 0 .. n with mu ≥ 0 and blocks of size ≥ 1, box l ≤ u. */
ns_status ns_cqp_validate(const ns_cqp *p, char *err);
void ns_cqp_free(ns_cqp *p);

#ifdef __cplusplus
}
#endif
#endif
