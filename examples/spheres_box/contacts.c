/* contacts.c — see contacts.h. */
#include "contacts.h"
#include "nsx_cells.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NWALLS 5

typedef struct rec { int other; int inter; int seen; } rec;   /* other ≥ n: wall */
typedef struct reclist { rec *v; int n, cap; } reclist;

struct sbx_contacts {
    int n;
    double *R;
    int *ds;
    double ax, ay;            /* box half-widths in x and y */
    int law;
    int rows;                 /* 3 (normal, 2 sliding), 5 (+ 2 rolling) or 6 (+ pivoting) */
    nsx_cells *grid;          /* broad phase */
    reclist *recs;            /* per sphere: its contacts with walls and with
                                 spheres of larger index */
    nsm_relation **spare[2];  /* relations of removed contacts (wall: 6 columns,
                                 sphere pair: 12), reused for new contacts so
                                 that detection allocates nothing in the steady
                                 state */
    int nspare[2], cap_spare[2];
};

void sbx_contacts_free(sbx_contacts *c)
{
    if (!c) return;
    for (int i = 0; c->recs && i < c->n; i++) free(c->recs[i].v);
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < c->nspare[k]; i++) nsm_relation_free(c->spare[k][i]);
        free(c->spare[k]);
    }
    free(c->recs); nsx_cells_free(c->grid); free(c->R); free(c->ds);
    free(c);
}

sbx_contacts *sbx_contacts_new(int n, const double *R, const int *ds,
                               double ax, double ay, int law)
{
    sbx_contacts *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->n = n; c->ax = ax; c->ay = ay; c->law = law; c->rows = 3;
    c->R = malloc((size_t)(n ? n : 1) * sizeof *c->R);
    c->ds = malloc((size_t)(n ? n : 1) * sizeof *c->ds);
    c->grid = nsx_cells_new();
    c->recs = calloc((size_t)(n ? n : 1), sizeof *c->recs);
    if (!c->R || !c->ds || !c->grid || !c->recs) { sbx_contacts_free(c); return NULL; }
    memcpy(c->R, R, (size_t)n * sizeof *R);
    memcpy(c->ds, ds, (size_t)n * sizeof *ds);
    return c;
}

int sbx_contacts_set_rolling(sbx_contacts *c, int on)
{
    if (!c || c->nspare[0] || c->nspare[1] || on < 0 || on > 2) return -1;
    for (int i = 0; i < c->n; i++) if (c->recs[i].n) return -1;
    c->rows = on == 2 ? 6 : on ? 5 : 3;
    return 0;
}

size_t sbx_contacts_bytes(const sbx_contacts *c)
{
    size_t b = sizeof *c + (size_t)c->n * (sizeof(double) + sizeof(int) + sizeof(reclist));
    for (int i = 0; i < c->n; i++) b += (size_t)c->recs[i].cap * sizeof(rec);
    return b + nsx_cells_bytes(c->grid);
}

/* Orthonormal tangents t1, t2 of a unit normal n (deterministic in n). */
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

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* H (rows × ncols, column-major; rows 3, 5 or 6) of a contact with normal n
 * between body 1 (radius R1 at columns 0..5; the one the normal points away
 * from, NULL for a wall) and body 2 (radius R2, at columns off2..off2+5; the
 * normal points into it). Rows: normal, t1, t2 of the velocity of body 2
 * relative to body 1 at the contact point, then (rows = 5) t1, t2 of the
 * angular velocity of body 2 relative to body 1 (the rolling rows of
 * nsm_nslaw_newton_rolling_new), then (rows = 6) its n component (the
 * pivoting row); b such that y = (gap, 0, ...) at Q. */
static void contact_H(const double n[3], int two, double R1, double R2,
                      const double *Q, int ncols, int rows, double gap, double *H, double *b)
{
    double t[3][3], nt[3][3];
    memcpy(t[0], n, sizeof t[0]);
    tangents(n, t[1], t[2]);
    for (int r = 1; r < 3; r++) cross(n, t[r], nt[r]);
    memset(H, 0, (size_t)rows * ncols * sizeof *H);
    int off2 = two ? 6 : 0;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) {
            H[r + rows * (off2 + k)] = t[r][k];
            if (r > 0) H[r + rows * (off2 + 3 + k)] = -R2 * nt[r][k];
            if (two) {
                H[r + rows * k] = -t[r][k];
                if (r > 0) H[r + rows * (3 + k)] = -R1 * nt[r][k];
            }
        }
    for (int r = 3; r < rows; r++)   /* rows 3, 4: about t1, t2; row 5: about n */
        for (int k = 0; k < 3; k++) {
            const double *ax = r == 5 ? t[0] : t[r - 2];
            H[r + rows * (off2 + 3 + k)] = ax[k];
            if (two) H[r + rows * (3 + k)] = -ax[k];
        }
    for (int r = 0; r < rows; r++) {
        double s = 0.0;
        for (int cidx = 0; cidx < ncols; cidx++) s += H[r + rows * cidx] * Q[cidx];
        b[r] = (r == 0 ? gap : 0.0) - s;
    }
}

static rec *find(reclist *l, int other)
{
    for (int k = 0; k < l->n; k++) if (l->v[k].other == other) return &l->v[k];
    return NULL;
}

static int push(reclist *l, rec r)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        rec *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        l->v = v; l->cap = cap;
    }
    l->v[l->n++] = r;
    return 0;
}

/* Keeps (refreshes or adds) the contact of sphere i with `other` (a sphere
 * j > i or a wall n + w). Q: the q of both bodies (12 values) or of i (6). */
static int keep(sbx_contacts *c, nsm_model *m, int i, int other, const double n[3],
                double gap, const double *Q, sbx_geom *g, char *err)
{
    int two = other < c->n;
    int ncols = two ? 12 : 6;
    double H[72], b[6];
    if (two) contact_H(n, 1, c->R[i], c->R[other], Q, ncols, c->rows, gap, H, b);
    else contact_H(n, 0, 0.0, c->R[i], Q, ncols, c->rows, gap, H, b);  /* sphere i is body 2 */
    rec *r = find(&c->recs[i], other);
    if (r) {
        r->seen = 1;
        if (nsm_relation_set_H(nsm_model_relation(m, r->inter), H, b) != NS_OK) {
            snprintf(err, NS_ERRMSG_LEN, "set_H refused for interaction %d", r->inter);
            return -1;
        }
        return 0;
    }
    nsm_relation *rel = NULL;
    if (c->nspare[two] > 0) {   /* a removed contact's relation, given this contact's H and b */
        rel = c->spare[two][--c->nspare[two]];
        if (nsm_relation_set_H(rel, H, b) != NS_OK) { nsm_relation_free(rel); rel = NULL; }
    }
    if (!rel) rel = nsm_relation_lagrangian_linear_new(c->rows, ncols, H, b);
    if (!rel) { snprintf(err, NS_ERRMSG_LEN, "out of memory"); return -1; }
    int id = nsm_model_add_interaction(m, rel, c->law, c->ds[i], two ? c->ds[other] : -1);
    if (id < 0) { snprintf(err, NS_ERRMSG_LEN, "%s", nsm_model_error(m)); return -1; }
    if (push(&c->recs[i], (rec){ other, id, 1 }) != 0) {
        nsm_model_remove_interaction(m, id);
        snprintf(err, NS_ERRMSG_LEN, "out of memory");
        return -1;
    }
    g->added++;
    return 0;
}

int sbx_contacts_update(sbx_contacts *c, nsm_model *m,
                        const double *const *pos, double margin,
                        sbx_geom *g, char *err)
{
    memset(g, 0, sizeof *g);
    int n = c->n;
    const double ax = c->ax, ay = c->ay;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < c->recs[i].n; k++) c->recs[i].v[k].seen = 0;
    /* walls: floor, x = −ax, x = +ax, y = −ay, y = +ay (normals into the box) */
    static const double wn[NWALLS][3] = { { 0, 0, 1 }, { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 } };
    for (int i = 0; i < n; i++) {
        const double *x = pos[i];
        double R = c->R[i];
        double gaps[NWALLS] = { x[2] - R, x[0] + ax - R, ax - x[0] - R, x[1] + ay - R, ay - x[1] - R };
        for (int w = 0; w < NWALLS; w++) {
            if (-gaps[w] > g->max_penetration) g->max_penetration = -gaps[w];
            if (gaps[w] >= margin) continue;
            if (keep(c, m, i, n + w, wn[w], gaps[w], x, g, err) != 0) return -1;
        }
    }
    /* spheres: candidate pairs from the grid, then the exact gap */
    const int *pairs;
    long np = nsx_cells_pairs(c->grid, n, pos, c->R, margin, &pairs, &g->pair_tests);
    if (np < 0) { snprintf(err, NS_ERRMSG_LEN, "broad phase: out of memory or NaN position"); return -1; }
    for (long k = 0; k < np; k++) {
        int i = pairs[2 * k], j = pairs[2 * k + 1];          /* i < j */
        const double *xi = pos[i], *xj = pos[j];
        double dx = xj[0] - xi[0], dy = xj[1] - xi[1], dz = xj[2] - xi[2];
        double d = sqrt(dx * dx + dy * dy + dz * dz);
        double gap = d - c->R[i] - c->R[j];
        if (-gap > g->max_penetration) g->max_penetration = -gap;
        if (gap >= margin || d == 0.0) continue;
        double nrm[3] = { dx / d, dy / d, dz / d };           /* from i to j */
        double Q[12];
        memcpy(Q, xi, 6 * sizeof *Q);
        memcpy(Q + 6, xj, 6 * sizeof *Q);
        if (keep(c, m, i, j, nrm, gap, Q, g, err) != 0) return -1;
    }
    /* contacts not seen: the gap is above the margin */
    for (int i = 0; i < n; i++) {
        reclist *l = &c->recs[i];
        for (int k = 0; k < l->n;) {
            if (l->v[k].seen) { k++; continue; }
            int two = l->v[k].other < n;
            nsm_relation *rel = nsm_model_detach_interaction(m, l->v[k].inter);
            if (!rel) {
                snprintf(err, NS_ERRMSG_LEN, "cannot remove interaction %d", l->v[k].inter);
                return -1;
            }
            if (c->nspare[two] == c->cap_spare[two]) {   /* keep it for a new contact */
                int cap = c->cap_spare[two] ? 2 * c->cap_spare[two] : 64;
                nsm_relation **v = realloc(c->spare[two], (size_t)cap * sizeof *v);
                if (v) { c->spare[two] = v; c->cap_spare[two] = cap; }
            }
            if (c->nspare[two] < c->cap_spare[two]) c->spare[two][c->nspare[two]++] = rel;
            else nsm_relation_free(rel);
            l->v[k] = l->v[--l->n];
            g->removed++;
        }
    }
    g->ninteractions = nsm_model_ninter(m);
    return 0;
}
