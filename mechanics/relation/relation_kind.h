/* relation_kind.h — the behaviour of a relation type, one table row per
 * type (nsm_relation_type), defined in that type's file, listed in
 * relation.c. Both schemes evaluate relations through these entries only.
 *
 *   output: y ← h(Q, t) (+ D λ), and H ← ∇_Q h (m × ncols): the Jacobian
 *           used to assemble the one-step problem (C for first order);
 *   dhdt:   ∂h/∂t (Q, t) (NULL: scleronomous); ẏ = H V + ∂h/∂t of a
 *           Lagrangian relation is formed from output and dhdt by
 *           nsm_relation_eval (+ D λ[1] when D is set: osnsp/interactions.c);
 *   input:  G (ncols × m) ← the input matrix: p = G λ with G = Hᵀ
 *           (Lagrangian) or r = G λ with G = B (first order);
 *   D:      the m × m block added to the one-step matrix (NULL: none). */
#ifndef NSM_RELATION_KIND_H
#define NSM_RELATION_KIND_H
#include "nsm_internal.h"

/* b ← M⁻¹ b over an interaction's coupled state (block-diagonal M). */
typedef struct nsm_minv {
    int (*apply)(const struct nsm_minv *self, double *b);
    const void *ctx1, *ctx2;
} nsm_minv;

typedef struct nsm_relation_kind {
    nsm_relation_type type;
    const char *name;
    int lagrangian;           /* couples Lagrangian systems (y, ẏ levels) */
    int linear;               /* H constant (changed only by nsm_relation_set_H) */
    int velocity_jacobian;    /* H maps the systems' velocities v (a rigid
                                 body's twist), not ∂h/∂q: the only kind that
                                 may couple a system with nq ≠ n; output gets
                                 Q = the positions (nq per system) */
    int theta_point;          /* the step's H is taken at the θ-point
                                 positions of the iterate (ds/ds_kind.h
                                 forces_at_theta), and rows under an equality
                                 law hold on the θ-point velocity, H v_θ = 0
                                 (v_θ = θ v_{k+1} + (1−θ) v_k), H the same as
                                 in p = Hᵀλ: the constraint impulse then does
                                 no work in the θ = ½ energy balance and the
                                 constraint drifts by O(h³) a step, unless
                                 the kind has a mean_jacobian (below), which
                                 replaces that H for equality rows */
    /* optional, with theta_point: H (m × ncols) of rows under an equality
     * law built from the poses at both ends of the step, Qk and Q1 =
     * Qk ⊕ h v_θ, such that h(Q1) − h(Qk) = h H v_θ exactly (a discrete
     * gradient); the step's H v_θ = 0 then keeps the rows where they were,
     * with no drift for the projection to remove. 0, or non-zero when the
     * relation has no such H (the θ-point H is kept). */
    int (*mean_jacobian)(const nsm_relation *r, const double *Qk, const double *Q1, double *H);
    int qsize;                /* position coordinates per system it reads
                                 (7: rigid bodies); 0: any */
    int (*output)(const nsm_relation *r, double t, const double *Q,
                  const double *lam, double *y, double *H, double *work);
    int (*dhdt)(const nsm_relation *r, double t, const double *Q, double *out);
    void (*input)(const nsm_relation *r, const double *H, double *G);
    const double *(*D)(const nsm_relation *r);
    /* The H (m × ncols) the relation stores and output() copies, constant
     * except through nsm_relation_set_H (which bumps r->version); NULL when
     * H is evaluated. The simulation reads it there instead of keeping a
     * copy per interaction. */
    const double *(*stored_H)(const nsm_relation *r);
    /* relative degree of row i of the interaction (y's lowest derivative in
     * which λ appears): 0 when D's row i is nonzero, else 1 when (C M⁻¹ B)'s
     * row i is nonzero (first order; CB summed over the systems), 2 for a
     * Lagrangian relation without D (λ enters q̈); −1 when undefined (≥ 2 for
     * a first-order relation). NULL: 2. Nonlinear relations decide at the
     * state (t, X, λ) where the interaction is first met (X: its coupled
     * state, ncols values). First-order systems with a mass matrix:
     * ẏ = C M⁻¹ (f + B λ), so the test is on C M⁻¹ B; minv (NULL when no
     * coupled system has one) replaces a column (ncols) b by M⁻¹ b. */
    int (*relative_degree)(const nsm_relation *r, double t, const double *X,
                           const double *lam, int row, const nsm_minv *minv);
    /* Nonlinear first-order relations (NULL otherwise): at (t, X, λ) the
     * linearisation D ← ∂h/∂λ (m×m), G ← B = ∂g/∂λ (ncols×m), r0 ← g − B λ
     * (ncols); work: ncols. */
    int (*linearise)(const nsm_relation *r, double t, const double *X,
                     const double *lam, double *D, double *G, double *r0,
                     double *work);
} nsm_relation_kind;

extern const nsm_relation_kind nsm_rel_kind_lagrangian_linear,
    nsm_rel_kind_scleronomous, nsm_rel_kind_rheonomous,
    nsm_rel_kind_first_order_linear, nsm_rel_kind_lagrangian_compliant_linear,
    nsm_rel_kind_first_order_nonlinear, nsm_rel_kind_rigid;

const nsm_relation_kind *nsm_relation_kind_of(const nsm_relation *r);

nsm_relation *nsm_relation_alloc(nsm_relation_type type, int m, int ncols, const char *who);
/** G = Hᵀ (ncols × m) from H (m × ncols). */
void nsm_relation_transpose(int m, int nc, const double *H, double *G);
/** y (m) = A x for A m × nc column-major. */
void nsm_matvec(int m, int nc, const double *A, const double *x, double *y);

/** Row i of C M⁻¹ B (C m × nc, B nc × m; minv NULL: M = I): 1 if nonzero,
 *  −1 if zero, −2 if M⁻¹ could not be applied. */
int nsm_rel_cb_row_nonzero(int m, int nc, const double *C, const double *B, int i, const nsm_minv *minv);

/** y += e (+ e(t)) of a first-order linear relation (work: m). */
int nsm_rel_first_order_offset(const nsm_relation *r, double t, double *y, double *work);

/** Evaluates y[0] (and y[1] = H V + ∂h/∂t when V and y1 are non-NULL) and
 *  H at (t, Q); errors name interaction `inter` and the callback. work:
 *  ncols + m. */
ns_status nsm_relation_eval(const nsm_relation *r, int inter, double t,
                            const double *Q, const double *V, const double *lam,
                            double *y0, double *y1, double *H, double *work,
                            char *err);
#endif
