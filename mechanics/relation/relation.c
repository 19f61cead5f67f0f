/* relation.c — relations: constructors and accessors.
 * Contract: include/nonsmooth/nsm_relation.h. Arrays are copied. */
#include "nsm_internal.h"
#include <stdlib.h>
#include <string.h>

static double *dup(const double *src, size_t len)
{
    double *d = calloc(len ? len : 1, sizeof *d);
    if (d && src) memcpy(d, src, len * sizeof *d);
    return d;
}

static nsm_relation *rel_alloc(nsm_relation_type type, int m, int ncols)
{
    if (m <= 0 || ncols <= 0 || m > 1000000 || ncols > 1000000) return NULL;
    nsm_relation *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->type = type; r->m = m; r->ncols = ncols;
    return r;
}

nsm_relation *nsm_relation_lagrangian_linear_new(int m, int ncols,
                                                 const double *H,
                                                 const double *b)
{
    if (!H) return NULL;
    nsm_relation *r = rel_alloc(NSM_REL_LAGRANGIAN_LINEAR, m, ncols);
    if (!r) return NULL;
    r->H = dup(H, (size_t)m * ncols);
    r->b = dup(b, (size_t)m);
    if (!r->H || !r->b) { nsm_relation_free(r); return NULL; }
    return r;
}

ns_status nsm_relation_set_H(nsm_relation *r, const double *H, const double *b)
{
    if (!r || r->type != NSM_REL_LAGRANGIAN_LINEAR || !H) return NS_BAD_INPUT;
    memcpy(r->H, H, (size_t)r->m * r->ncols * sizeof *H);
    if (b) memcpy(r->b, b, (size_t)r->m * sizeof *b);
    r->version++;
    return NS_OK;
}

nsm_relation *nsm_relation_scleronomous_new(int m, int ncols, nsm_h_fn h,
                                            nsm_jach_fn jach, void *user)
{
    if (!h || !jach) return NULL;
    nsm_relation *r = rel_alloc(NSM_REL_LAGRANGIAN_SCLERONOMOUS, m, ncols);
    if (!r) return NULL;
    r->h = h; r->jach = jach; r->user = user;
    return r;
}

nsm_relation *nsm_relation_rheonomous_new(int m, int ncols, nsm_h_fn h,
                                          nsm_jach_fn jach, nsm_h_fn dhdt,
                                          void *user)
{
    if (!h || !jach || !dhdt) return NULL;
    nsm_relation *r = rel_alloc(NSM_REL_LAGRANGIAN_RHEONOMOUS, m, ncols);
    if (!r) return NULL;
    r->h = h; r->jach = jach; r->dhdt = dhdt; r->user = user;
    return r;
}

nsm_relation *nsm_relation_first_order_linear_new(int m, int ncols,
                                                  const double *C,
                                                  const double *D,
                                                  const double *B,
                                                  const double *e)
{
    if (!C || !B) return NULL;
    nsm_relation *r = rel_alloc(NSM_REL_FIRST_ORDER_LINEAR, m, ncols);
    if (!r) return NULL;
    r->C = dup(C, (size_t)m * ncols);
    r->B = dup(B, (size_t)ncols * m);
    r->D = D ? dup(D, (size_t)m * m) : NULL;
    r->e = e ? dup(e, (size_t)m) : NULL;
    if (!r->C || !r->B || (D && !r->D) || (e && !r->e)) {
        nsm_relation_free(r);
        return NULL;
    }
    return r;
}

nsm_relation_type nsm_relation_get_type(const nsm_relation *r) { return r->type; }
int nsm_relation_size(const nsm_relation *r) { return r ? r->m : 0; }
int nsm_relation_ncols(const nsm_relation *r) { return r ? r->ncols : 0; }

void nsm_relation_free(nsm_relation *r)
{
    if (!r) return;
    free(r->H); free(r->b); free(r->C); free(r->D); free(r->B); free(r->e);
    free(r);
}
