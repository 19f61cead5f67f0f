/* problem.c — the tagged union of all problem kinds, and solution vectors. */
#include "nonsmooth/ns_problem.h"
#include "core/ns_internal.h"
#include "problems/kind_ops.h"
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

ns_problem *ns_problem_from_rfc(ns_rfc *x)
{
    ns_problem *p = x ? wrap(x->dim == 3 ? NS_KIND_RFC2D : NS_KIND_RFC3D) : NULL;
    if (!p) { ns_rfc_free(x); return NULL; }
    p->u.rfc = x;
    return p;
}

ns_problem *ns_problem_from_grfc(ns_grfc *x)
{
    ns_problem *p = x ? wrap(NS_KIND_GRFC3D) : NULL;
    if (!p) { ns_grfc_free(x); return NULL; }
    p->u.grfc = x;
    return p;
}

ns_problem *ns_problem_from_ncp(ns_ncp *x)
{
    ns_problem *p = x ? wrap(NS_KIND_NCP) : NULL;
    if (!p) { ns_ncp_free(x); return NULL; }
    p->u.ncp = x;
    return p;
}

ns_problem *ns_problem_from_mcp(ns_mcp *x)
{
    ns_problem *p = x ? wrap(NS_KIND_MCP) : NULL;
    if (!p) { ns_mcp_free(x); return NULL; }
    p->u.mcp = x;
    return p;
}

ns_problem *ns_problem_from_vi(ns_vi *x)
{
    ns_problem *p = x ? wrap(NS_KIND_VI) : NULL;
    if (!p) { ns_vi_free(x); return NULL; }
    p->u.vi = x;
    return p;
}

ns_problem *ns_problem_from_cqp(ns_cqp *x)
{
    ns_problem *p = x ? wrap(NS_KIND_CQP) : NULL;
    if (!p) { ns_cqp_free(x); return NULL; }
    p->u.cqp = x;
    return p;
}

ns_problem *ns_problem_from_soclcp(ns_soclcp *x)
{
    ns_problem *p = x ? wrap(NS_KIND_SOCLCP) : NULL;
    if (!p) { ns_soclcp_free(x); return NULL; }
    p->u.soclcp = x;
    return p;
}

ns_status ns_problem_validate(const ns_problem *p, char *err)
{
    if (!p) return NS_BAD_INPUT;
    const ns_kind_ops *k = ns_kind_ops_of(p->kind);
    if (!k) return ns_fail(err, NS_BAD_INPUT, "problem: unknown kind %d", (int)p->kind);
    return k->validate(p, err);
}

ns_int ns_problem_size(const ns_problem *p)
{
    const ns_kind_ops *k = p ? ns_kind_ops_of(p->kind) : NULL;
    return k ? k->size(p) : 0;
}

void ns_problem_free(ns_problem *p)
{
    if (!p) return;
    const ns_kind_ops *k = ns_kind_ops_of(p->kind);
    if (k) k->release(p);
    free(p);
}

/* Names and lengths of p's solution vectors (no allocation); 0 if the kind
 * is unknown. */
int ns_solution_layout(const ns_problem *p, ns_solution *s)
{
    s->nvec = 0;
    s->kind = p->kind;
    const ns_kind_ops *k = ns_kind_ops_of(p->kind);
    if (!k) return 0;
    k->layout(p, s);
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

ns_status ns_solution_reshape(ns_solution *s, const ns_problem *p)
{
    if (!s || !p || p->kind != s->kind) return NS_BAD_INPUT;
    ns_solution t = *s;
    if (!ns_solution_layout(p, &t) || t.nvec != s->nvec) return NS_BAD_INPUT;
    for (int k = 0; k < s->nvec; k++) {   /* grow first: s unchanged on failure */
        ns_int have = s->cap[k] > s->len[k] ? s->cap[k] : s->len[k];
        if (t.len[k] <= have) continue;
        size_t c = (size_t)t.len[k] + (size_t)t.len[k] / 8 + 1;
        double *v = realloc(s->vec[k], c * sizeof *v);
        if (!v) return NS_NO_MEMORY;
        s->vec[k] = v;
        s->cap[k] = (ns_int)c;
    }
    for (int k = 0; k < s->nvec; k++) {
        s->len[k] = t.len[k];
        memset(s->vec[k], 0, (size_t)s->len[k] * sizeof(double));
    }
    return NS_OK;
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
