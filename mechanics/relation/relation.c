/* relation.c — relations: the type table, shared helpers and accessors.
 * Contract: include/nonsmooth/nsm_relation.h. Arrays are copied. */
#include "relation/relation_kind.h"
#include "ds/ds_kind.h"
#include <stdlib.h>
#include <string.h>

static const nsm_relation_kind *const kinds[] = {
    [NSM_REL_LAGRANGIAN_LINEAR] = &nsm_rel_kind_lagrangian_linear,
    [NSM_REL_LAGRANGIAN_SCLERONOMOUS] = &nsm_rel_kind_scleronomous,
    [NSM_REL_LAGRANGIAN_RHEONOMOUS] = &nsm_rel_kind_rheonomous,
    [NSM_REL_FIRST_ORDER_LINEAR] = &nsm_rel_kind_first_order_linear,
    [NSM_REL_LAGRANGIAN_COMPLIANT_LINEAR] = &nsm_rel_kind_lagrangian_compliant_linear,
    [NSM_REL_FIRST_ORDER_NONLINEAR] = &nsm_rel_kind_first_order_nonlinear,
    [NSM_REL_RIGID] = &nsm_rel_kind_rigid,
};

const nsm_relation_kind *nsm_relation_kind_of(const nsm_relation *r) { return kinds[r->type]; }

nsm_relation *nsm_relation_alloc(nsm_relation_type type, int m, int ncols, const char *who)
{
    if (m <= 0 || ncols <= 0 || m > 1000000 || ncols > 1000000)
        return nsm_ctor_fail("%s: m = %d and ncols = %d must be in 1..1000000", who, m, ncols);
    nsm_relation *r = calloc(1, sizeof *r);
    if (!r) return nsm_ctor_fail("%s: out of memory", who);
    nsm_ctor_ok();
    r->type = type; r->m = m; r->ncols = ncols;
    return r;
}

void nsm_relation_transpose(int m, int nc, const double *H, double *G)
{
    for (int c = 0; c < m; c++)
        for (int i = 0; i < nc; i++) G[i + (size_t)c * nc] = H[c + (size_t)i * m];
}

void nsm_matvec(int m, int nc, const double *A, const double *x, double *y)
{
    if (m == 3) {   /* a contact's three rows: the sums in registers (in y,
                     * each product would wait for the previous store) */
        double y0 = 0.0, y1 = 0.0, y2 = 0.0;
        for (int c = 0; c < nc; c++) {
            double xc = x[c];
            if (xc == 0.0) continue;
            const double *Ac = A + (size_t)c * 3;
            y0 += Ac[0] * xc;
            y1 += Ac[1] * xc;
            y2 += Ac[2] * xc;
        }
        y[0] = y0; y[1] = y1; y[2] = y2;
        return;
    }
    for (int i = 0; i < m; i++) y[i] = 0.0;
    for (int c = 0; c < nc; c++) {
        double xc = x[c];
        if (xc == 0.0) continue;
        const double *Ac = A + (size_t)c * m;
        for (int i = 0; i < m; i++) y[i] += Ac[i] * xc;
    }
}

ns_status nsm_relation_eval(const nsm_relation *r, int inter, double t,
                            const double *Q, const double *V, const double *lam,
                            double *y0, double *y1, double *H, double *work,
                            char *err)
{
    const nsm_relation_kind *k = nsm_relation_kind_of(r);
    int m = r->m, nc = r->ncols;
    const char *what = "h/jacobian";
    int rc = k->output(r, t, Q, lam, y0, H, work);
    /* a linear relation's H was checked finite when set (constructor,
     * nsm_relation_set_H): only a callback's H needs the check each time */
    if (rc == 0 && (!nsm_all_finite(y0, (size_t)m) || (!k->linear && !nsm_all_finite(H, (size_t)m * nc))))
        rc = NSM_CB_NAN;
    if (rc == 0 && V && y1) {
        nsm_matvec(m, nc, H, V, y1);
        if (k->dhdt) {
            what = "dh/dt";
            rc = k->dhdt(r, t, Q, work);
            if (rc == 0 && !nsm_all_finite(work, (size_t)m)) rc = NSM_CB_NAN;
            if (rc == 0) for (int i = 0; i < m; i++) y1[i] += work[i];
        }
    }
    if (rc != 0) {
        if (rc == NSM_CB_NAN)
            nsm_set_err(err, "interaction %d (%s relation): the %s callback returned a non-finite value at t = %.17g",
                        inter, k->name, what, t);
        else
            nsm_set_err(err, "interaction %d (%s relation): the %s callback returned %d at t = %.17g",
                        inter, k->name, what, rc, t);
        return rc < 0 || rc == NSM_CB_NAN ? NS_DIVERGED : NS_BAD_INPUT;
    }
    return NS_OK;
}

ns_status nsm_relation_set_compliance(nsm_relation *r, const double *D)
{
    if (!r || !nsm_relation_kind_of(r)->lagrangian) return NS_BAD_INPUT;
    size_t mm = (size_t)r->m * r->m;
    if (D && !nsm_all_finite(D, mm)) return NS_BAD_INPUT;
    double *d = D ? nsm_dup(D, mm) : NULL;
    if (D && !d) return NS_NO_MEMORY;
    free(r->D);
    r->D = d;
    return NS_OK;
}

nsm_relation_type nsm_relation_get_type(const nsm_relation *r) { return r ? r->type : (nsm_relation_type)-1; }
int nsm_relation_size(const nsm_relation *r) { return r ? r->m : 0; }
int nsm_relation_ncols(const nsm_relation *r) { return r ? r->ncols : 0; }

void nsm_relation_free(nsm_relation *r)
{
    if (!r || r->owner) return;   /* a model's relation: the model frees it */
    free(r->H); free(r->b); free(r->C); free(r->D); free(r->B); free(r->e); free(r->rigid);
    free(r);
}

int nsm_rel_cb_row_nonzero(int m, int nc, const double *C, const double *B, int i, const nsm_minv *minv)
{
    double *b = minv ? malloc((size_t)nc * sizeof *b) : NULL;
    if (minv && !b) return -2;
    int deg = -1;
    for (int c = 0; c < m && deg < 0; c++) {
        const double *Bc = B + (size_t)c * nc;
        if (minv) {
            memcpy(b, Bc, (size_t)nc * sizeof *b);
            if (minv->apply(minv, b) != 0) { deg = -2; break; }
            Bc = b;
        }
        double cb = 0.0;
        for (int k = 0; k < nc; k++) cb += C[i + (size_t)k * m] * Bc[k];
        if (cb != 0.0) deg = 1;
    }
    free(b);
    return deg;
}
