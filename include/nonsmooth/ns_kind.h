/* ns_kind.h — problem kinds. */
#ifndef NS_KIND_H
#define NS_KIND_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ns_kind {
    NS_KIND_NONE = 0,   /* unknown / detect from content */
    NS_KIND_LCP,
    NS_KIND_MLCP,
    NS_KIND_RELAY,
    NS_KIND_AVI,
    NS_KIND_EQUALITY,
    NS_KIND_FC2D,
    NS_KIND_FC3D,
    NS_KIND_GFC2D,
    NS_KIND_GFC3D,
    NS_KIND_GMP,
    NS_KIND_RFC3D,      /* rolling friction contact, local 3D (ns_rfc.h) */
    NS_KIND_RFC2D,      /* rolling friction contact, local 2D */
    NS_KIND_GRFC3D,     /* rolling friction contact, global 3D */
    NS_KIND_NCP,
    NS_KIND_MCP,
    NS_KIND_VI,
    NS_KIND_CQP,
    NS_KIND_SOCLCP,
    NS_KIND_COUNT
} ns_kind;

/** "lcp", "mlcp", "relay", "avi", "equality", "fc2d", "fc3d", "gfc2d",
 *  "gfc3d", "gmp", "rfc3d", "rfc2d", "grfc3d", "ncp", "mcp", "vi", "cqp", "soclcp";
 *  "none" for NS_KIND_NONE. Never NULL. */
const char *ns_kind_name(ns_kind k);

/** Kind from its name (case-sensitive, as above); NS_KIND_NONE if unknown. */
ns_kind ns_kind_from_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
