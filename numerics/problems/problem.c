/* problem.c — the tagged union of all problem kinds, and solution vectors. */
#include "nonsmooth/ns_problem.h"
#include "core/ns_internal.h"
#include <stdlib.h>
#include <string.h>

static ns_problem *wrap(ns_kind kind)
{
    ns_problem *p = ns_calloc(1, sizeof *p);
    if (p) p->kind = kind;
    return p;
}

ns_problem *ns_problem_from_lcp(ns_lcp *x)
{
    ns_problem *p = x ? wrap(NS_KIND_LCP) : NULL;
    if (!p) { ns_lcp_free(x); return NULL; }
    p->u.lcp = x;
    return p;
}

ns_problem *ns_problem_from_mlcp(ns_mlcp *x)
{
    ns_problem *p = x ? wrap(NS_KIND_MLCP) : NULL;
    if (!p) { ns_mlcp_free(x); return NULL; }
    p->u.mlcp = x;
    return p;
}

ns_problem *ns_problem_from_relay(ns_relay *x)
{
    ns_problem *p = x ? wrap(NS_KIND_RELAY) : NULL;
    if (!p) { ns_relay_free(x); return NULL; }
    p->u.relay = x;
    return p;
}

ns_problem *ns_problem_from_avi(ns_avi *x)
{
    ns_problem *p = x ? wrap(NS_KIND_AVI) : NULL;
    if (!p) { ns_avi_free(x); return NULL; }
    p->u.avi = x;
    return p;
}

ns_problem *ns_problem_from_equality(ns_equality *x)
{
    ns_problem *p = x ? wrap(NS_KIND_EQUALITY) : NULL;
    if (!p) { ns_equality_free(x); return NULL; }
    p->u.equality = x;
    return p;
}

ns_problem *ns_problem_from_fc(ns_fc *x)
{
    ns_problem *p = x ? wrap(x->dim == 2 ? NS_KIND_FC2D : NS_KIND_FC3D) : NULL;
    if (!p) { ns_fc_free(x); return NULL; }
    p->u.fc = x;
    return p;
}

ns_problem *ns_problem_from_gfc(ns_gfc *x)
{
    ns_problem *p = x ? wrap(x->dim == 2 ? NS_KIND_GFC2D : NS_KIND_GFC3D) : NULL;
    if (!p) { ns_gfc_free(x); return NULL; }
    p->u.gfc = x;
    return p;
}

ns_problem *ns_problem_from_gmp(ns_gmp *x)
{
    ns_problem *p = x ? wrap(NS_KIND_GMP) : NULL;
    if (!p) { ns_gmp_free(x); return NULL; }
    p->u.gmp = x;
    return p;
}

ns_status ns_problem_validate(const ns_problem *p, char *err)
{
    if (!p) return NS_BAD_INPUT;
    switch (p->kind) {
    case NS_KIND_LCP: return ns_lcp_validate(p->u.lcp, err);
    case NS_KIND_MLCP: return ns_mlcp_validate(p->u.mlcp, err);
    case NS_KIND_RELAY: return ns_relay_validate(p->u.relay, err);
    case NS_KIND_AVI: return ns_avi_validate(p->u.avi, err);
    case NS_KIND_EQUALITY: return ns_equality_validate(p->u.equality, err);
    case NS_KIND_FC2D: case NS_KIND_FC3D: {
        ns_status st = ns_fc_validate(p->u.fc, err);
        if (!st && p->u.fc->dim != (p->kind == NS_KIND_FC2D ? 2 : 3))
            return ns_fail(err, NS_BAD_INPUT, "%s: dim %d disagrees with the kind",
                           ns_kind_name(p->kind), p->u.fc->dim);
        return st;
    }
    case NS_KIND_GFC2D: case NS_KIND_GFC3D: {
        ns_status st = ns_gfc_validate(p->u.gfc, err);
        if (!st && p->u.gfc->dim != (p->kind == NS_KIND_GFC2D ? 2 : 3))
            return ns_fail(err, NS_BAD_INPUT, "%s: dim %d disagrees with the kind",
                           ns_kind_name(p->kind), p->u.gfc->dim);
        return st;
    }
    case NS_KIND_GMP: return ns_gmp_validate(p->u.gmp, err);
    default: return ns_fail(err, NS_BAD_INPUT, "problem: unknown kind %d", (int)p->kind);
    }
}

ns_int ns_problem_size(const ns_problem *p)
{
    if (!p) return 0;
    switch (p->kind) {
    case NS_KIND_LCP: return p->u.lcp->n;
    case NS_KIND_MLCP: return p->u.mlcp->n + p->u.mlcp->m;
    case NS_KIND_RELAY: return p->u.relay->n;
    case NS_KIND_AVI: return p->u.avi->n;
    case NS_KIND_EQUALITY: return p->u.equality->n;
    case NS_KIND_FC2D: case NS_KIND_FC3D: return p->u.fc->dim * p->u.fc->nc;
    case NS_KIND_GFC2D: case NS_KIND_GFC3D: return p->u.gfc->dim * p->u.gfc->nc;
    case NS_KIND_GMP: return p->u.gmp->n;
    default: return 0;
    }
}

void ns_problem_free(ns_problem *p)
{
    if (!p) return;
    switch (p->kind) {
    case NS_KIND_LCP: ns_lcp_free(p->u.lcp); break;
    case NS_KIND_MLCP: ns_mlcp_free(p->u.mlcp); break;
    case NS_KIND_RELAY: ns_relay_free(p->u.relay); break;
    case NS_KIND_AVI: ns_avi_free(p->u.avi); break;
    case NS_KIND_EQUALITY: ns_equality_free(p->u.equality); break;
    case NS_KIND_FC2D: case NS_KIND_FC3D: ns_fc_free(p->u.fc); break;
    case NS_KIND_GFC2D: case NS_KIND_GFC3D: ns_gfc_free(p->u.gfc); break;
    case NS_KIND_GMP: ns_gmp_free(p->u.gmp); break;
    default: break;
    }
    free(p);
}

static void add_vec(ns_solution *s, const char *name, ns_int len)
{
    s->name[s->nvec] = name;
    s->len[s->nvec] = len < 0 ? 0 : len;
    s->nvec++;
}

/* Names and lengths of p's solution vectors (no allocation); 0 if the kind
 * is unknown. */
int ns_solution_layout(const ns_problem *p, ns_solution *s)
{
    s->nvec = 0;
    s->kind = p->kind;
    switch (p->kind) {
    case NS_KIND_LCP:
        add_vec(s, "z", p->u.lcp->n); add_vec(s, "w", p->u.lcp->n); break;
    case NS_KIND_RELAY:
        add_vec(s, "z", p->u.relay->n); add_vec(s, "w", p->u.relay->n); break;
    case NS_KIND_MLCP:
        add_vec(s, "u", p->u.mlcp->n); add_vec(s, "v", p->u.mlcp->m);
        add_vec(s, "w", p->u.mlcp->n + p->u.mlcp->m); break;
    case NS_KIND_AVI: add_vec(s, "z", p->u.avi->n); break;
    case NS_KIND_EQUALITY: add_vec(s, "z", p->u.equality->n); break;
    case NS_KIND_FC2D: case NS_KIND_FC3D: {
        ns_int m = p->u.fc->dim * p->u.fc->nc;
        add_vec(s, "r", m); add_vec(s, "u", m); break;
    }
    case NS_KIND_GFC2D: case NS_KIND_GFC3D: {
        ns_int m = p->u.gfc->dim * p->u.gfc->nc;
        add_vec(s, "v", p->u.gfc->n); add_vec(s, "u", m); add_vec(s, "r", m); break;
    }
    case NS_KIND_GMP:
        add_vec(s, "reaction", p->u.gmp->n); add_vec(s, "velocity", p->u.gmp->n); break;
    default: return 0;
    }
    return 1;
}

ns_solution *ns_solution_new(const ns_problem *p)
{
    if (!p) return NULL;
    ns_solution *s = ns_calloc(1, sizeof *s);
    if (!s) return NULL;
    if (!ns_solution_layout(p, s)) { free(s); return NULL; }
    for (int k = 0; k < s->nvec; k++) {
        s->vec[k] = ns_calloc((size_t)s->len[k], sizeof(double));
        if (!s->vec[k]) { ns_solution_free(s); return NULL; }
    }
    return s;
}

double *ns_solution_get(ns_solution *s, const char *name)
{
    if (!s || !name) return NULL;
    for (int k = 0; k < s->nvec; k++)
        if (strcmp(s->name[k], name) == 0) return s->vec[k];
    return NULL;
}

void ns_solution_free(ns_solution *s)
{
    if (!s) return;
    for (int k = 0; k < s->nvec; k++) free(s->vec[k]);
    free(s);
}
