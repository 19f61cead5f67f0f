/* gmp.c — the generic mechanical problem of a time step:
 * when the active rows mix classes no single problem kind holds (friction
 * with equality, complementarity or relay rows; relay with equality rows),
 * or when the option gmp = 1 asks for it, the one-step problem is a
 * numerics GMP (ns_gmp.h): the BLOCK matrix and q of assembly.c unchanged,
 * one block row per active interaction, its sub-problem type from the row
 * class of its law:
 *   equality → EQUALITY; Newton impact / complementarity → LCP;
 *   relay → RELAY (bounds lb, ub of the law); Newton + Coulomb → FC2D /
 *   FC3D with μ (normal row first, as in the FC kinds).
 * It is solved by the GMP solvers (default gmp-nsgs: equality rows solved
 * together, the others by Gauss–Seidel with exact local solves); the
 * solver name is the option gmp_solver (NULL: the kind's default). */
#include "simulation/sim_internal.h"
#include "nslaw/nslaw_kind.h"
#include <math.h>
#include <stdlib.h>

ns_problem *nsm_gmp_problem(nsm_sim *s, ns_matrix *M, const double *q)
{
    nsm_model *m = s->model;
    int nb = s->nact, n = s->nrows, relay = 0;
    int *type = malloc((size_t)(nb ? nb : 1) * sizeof *type);
    double *mu = malloc((size_t)(nb ? nb : 1) * sizeof *mu);
    if (!type || !mu) { free(type); free(mu); ns_matrix_free(M); return NULL; }
    for (int a = 0; a < nb; a++) {
        const nsm_nslaw *L = m->laws[m->inter[s->act[a]].law];
        mu[a] = NAN;
        switch (nsm_nslaw_kind_of(L)->rows) {
        case NSM_ROWS_EQUALITY: type[a] = NS_GMP_EQUALITY; break;
        case NSM_ROWS_COMPLEMENTARITY: type[a] = NS_GMP_LCP; break;
        case NSM_ROWS_RELAY: type[a] = NS_GMP_RELAY; relay = 1; break;
        case NSM_ROWS_FRICTION:
        default:
            type[a] = L->size == 2 ? NS_GMP_FC2D : NS_GMP_FC3D;
            mu[a] = L->mu;
            break;
        }
    }
    ns_gmp *g = ns_gmp_new(M, q, type, mu);
    free(type); free(mu);
    if (!g) return NULL;
    if (relay) {
        g->lb = malloc((size_t)n * sizeof *g->lb);
        g->ub = malloc((size_t)n * sizeof *g->ub);
        if (!g->lb || !g->ub) { ns_gmp_free(g); return NULL; }
        for (int a = 0; a < nb; a++) {
            const nsm_nslaw *L = m->laws[m->inter[s->act[a]].law];
            const nsm_nslaw_kind *lk = nsm_nslaw_kind_of(L);
            for (int c = 0; c < L->size; c++) {
                int r = s->row_start[a] + c;
                g->lb[r] = -INFINITY; g->ub[r] = INFINITY;
                if (lk->rows == NSM_ROWS_RELAY && lk->bounds) lk->bounds(L, c, &g->lb[r], &g->ub[r]);
            }
        }
    }
    return ns_problem_from_gmp(g);
}
