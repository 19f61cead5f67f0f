/* kind_table.c — one row per problem kind: the descriptor that every
 * kind-generic entry point (validate, size, free, solution layout, error,
 * solve dispatch) looks up. See kind_ops.h. */
#include "problems/kind_ops.h"

static const ns_kind_ops *const table[NS_KIND_COUNT] = {
    [NS_KIND_LCP] = &ns_lcp_kind_ops,
    [NS_KIND_MLCP] = &ns_mlcp_kind_ops,
    [NS_KIND_RELAY] = &ns_relay_kind_ops,
    [NS_KIND_AVI] = &ns_avi_kind_ops,
    [NS_KIND_EQUALITY] = &ns_equality_kind_ops,
    [NS_KIND_FC2D] = &ns_fc_kind_ops,
    [NS_KIND_FC3D] = &ns_fc_kind_ops,
    [NS_KIND_GFC2D] = &ns_gfc_kind_ops,
    [NS_KIND_GFC3D] = &ns_gfc_kind_ops,
    [NS_KIND_GMP] = &ns_gmp_kind_ops,
    [NS_KIND_RFC3D] = &ns_rfc_kind_ops,
    [NS_KIND_RFC2D] = &ns_rfc_kind_ops,
    [NS_KIND_GRFC3D] = &ns_grfc_kind_ops,
    [NS_KIND_NCP] = &ns_ncp_kind_ops,
    [NS_KIND_MCP] = &ns_mcp_kind_ops,
    [NS_KIND_VI] = &ns_vi_kind_ops,
    [NS_KIND_CQP] = &ns_cqp_kind_ops,
    [NS_KIND_SOCLCP] = &ns_soclcp_kind_ops,
};

const ns_kind_ops *ns_kind_ops_of(ns_kind k)
{
    return (int)k > NS_KIND_NONE && k < NS_KIND_COUNT ? table[k] : NULL;
}

void ns_layout_add(ns_solution *s, const char *name, ns_int len)
{
    s->name[s->nvec] = name;
    s->len[s->nvec] = len < 0 ? 0 : len;
    s->nvec++;
}
