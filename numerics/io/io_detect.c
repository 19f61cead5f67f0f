/* io_detect.c — kind of a .dat text from its content (docs/formats.md §3,
 * docs/formats-extensions.md §2).
 *
 * No layout of Siconos carries a keyword, so each one is tried strictly, in
 * an order where the more specific layout comes first:
 *   MLCP   (hasM hasABCD n m boundaries kinds ...: two 0/1 flags first),
 *   SOCLCP (n nc W q starts mu: commits only when W is n × n, the nc + 1
 *          cone starts run from 0 to n increasing and exactly nc numbers
 *          follow them),
 *   GRFC   (5 nc M H q b mu mu_r: d = 5 and a second matrix block),
 *   GFC    (d nc M H ...: a second matrix block must follow M),
 *   RFC3D  (5 nc M q mu mu_r: d = 5), RFC2D (3 nc M q mu mu_r: an FC3D
 *          file followed by nc numbers; committed only when exactly nc
 *          numbers follow mu and, for nc = 1, that number is not a lone
 *          0 or 1, the flag many Siconos FC3D files end with),
 *   FC     (d nc M q mu: M is d·nc × d·nc),
 *   GMP    (an SBM matrix block right at the start),
 *   AVI    (n M q, then the keyword avi-polyhedron or avi-box),
 *   relay  (n M q lb ub: exactly 2n numbers after q),
 *   LCP    (n M q, trailing content allowed).
 * Each reader "commits" once the text matched its layout's header (see the
 * readers: MLCP after valid block boundaries, GFC at an H header of the
 * right size, FC at an M header of d·nc × d·nc, GMP after a square SBM M,
 * AVI at its keyword, relay when exactly 2n numbers follow q, LCP at an
 * n × n M header). Once a layout committed, its result is final: its error
 * is reported with its line and no other layout is tried (so a relay with
 * NaN bounds fails as a relay, an LCP with NaN in M reports M[0]).
 * Equality files share the LCP layout and are never detected. When nothing
 * commits, the message of the attempt that read furthest is reported, and
 * the LCP layout's own reason after it when that is another attempt. */
#include "io/io_dat.h"
#include <string.h>

typedef struct attempt {
    ns_status st;
    size_t pos;            /* where the attempt stopped */
    ns_kind kind;
    int committed;
    char msg[NS_ERRMSG_LEN];
} attempt;

/* Reads the buffer as kind; *out receives the problem on success. */
static void try_kind(const char *buf, size_t len, const char *name, ns_kind kind,
                     ns_mat_cache *cache, attempt *a, ns_problem **out, int *at_end)
{
    ns_lexer lx;
    a->msg[0] = '\0';
    a->kind = kind;
    ns_lex_init(&lx, buf, len, name, cache->quiet ? NULL : a->msg);
    lx.mcache = cache;
    a->st = ns_dat_read_problem(&lx, kind, out);
    a->pos = lx.pos;
    a->committed = lx.committed;
    *at_end = a->st == NS_OK && ns_lex_at_end(&lx);
}

static ns_status detect(const char *buf, size_t len, const char *name, ns_mat_cache *cache,
                        ns_kind *kind, ns_problem **out, char *err)
{
    static const ns_kind order[] = { NS_KIND_MLCP, NS_KIND_SOCLCP, NS_KIND_GRFC3D, NS_KIND_GFC3D,
                                     NS_KIND_RFC3D, NS_KIND_FC3D,
                                     NS_KIND_GMP, NS_KIND_AVI, NS_KIND_RELAY,
                                     NS_KIND_LCP };
    attempt a, best, lcp;
    lcp.msg[0] = '\0';
    best.st = NS_BAD_INPUT;
    best.pos = 0;
    best.kind = NS_KIND_NONE;
    best.msg[0] = '\0';
    if (kind) *kind = NS_KIND_NONE;
    if (out) *out = NULL;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        ns_problem *p = NULL;
        int at_end = 0;
        try_kind(buf, len, name, order[k], cache, &a, &p, &at_end);
        /* the FC, GFC and RFC readers check d against the kind asked for:
         * retry in 2D when the file is 2D */
        if (a.st == NS_BAD_INPUT && (order[k] == NS_KIND_FC3D || order[k] == NS_KIND_GFC3D ||
                                     order[k] == NS_KIND_RFC3D)) {
            attempt a2;
            ns_problem *p2 = NULL;
            int e2 = 0;
            try_kind(buf, len, name, order[k] == NS_KIND_FC3D ? NS_KIND_FC2D
                                     : order[k] == NS_KIND_GFC3D ? NS_KIND_GFC2D : NS_KIND_RFC2D,
                     cache, &a2, &p2, &e2);
            if (a2.st == NS_OK || (!a.committed && (a2.committed || a2.pos > a.pos))) {
                a = a2; p = p2; at_end = e2;
            }
        }
        if (a.st == NS_NO_MEMORY) {
            if (err) memcpy(err, a.msg, NS_ERRMSG_LEN);
            return NS_NO_MEMORY;
        }
        if (a.st == NS_OK) {
            /* an AVI needs its set, a relay exactly its bounds after q */
            if (!a.committed && (order[k] == NS_KIND_RELAY || order[k] == NS_KIND_AVI ||
                                 order[k] == NS_KIND_RFC3D || order[k] == NS_KIND_SOCLCP)) {
                ns_problem_free(p);
                continue;
            }
            if (kind) *kind = p->kind;
            if (out) *out = p;
            else ns_problem_free(p);
            return NS_OK;
        }
        if (a.committed)
            return ns_fail(err, a.st, "%s (read as %s: the file's header matches that "
                           "layout)", a.msg, ns_kind_name(a.kind));
        if (order[k] == NS_KIND_LCP) lcp = a;
        if (a.pos > best.pos || best.kind == NS_KIND_NONE) best = a;
    }
    /* the layout read furthest may have taken the file for something else
     * entirely (a wrong storage number read as a GFC's sparse header): the
     * plainest layout's own reason is given too, so that the line and field
     * of the actual mistake are named */
    if (best.kind != NS_KIND_LCP && lcp.msg[0])
        return ns_fail(err, NS_BAD_INPUT, "%s (no .dat layout matches; read furthest as %s; "
                       "as an lcp: %.200s)", best.msg, ns_kind_name(best.kind), lcp.msg);
    return ns_fail(err, NS_BAD_INPUT, "%s (no .dat layout matches; read furthest as %s)",
                   best.msg, ns_kind_name(best.kind));
}

ns_status ns_dat_detect(const char *buf, size_t len, const char *name,
                        ns_kind *kind, ns_problem **out, char *err)
{
    /* first without messages (formatting the reasons of the layouts that
     * do not match costs more than reading a small file); when no layout
     * matches, again with them, for the error */
    ns_mat_cache cache = { 0 };
    cache.quiet = 1;
    ns_status st = detect(buf, len, name, &cache, kind, out, err);
    if (st != NS_OK) {
        cache.quiet = 0;
        st = detect(buf, len, name, &cache, kind, out, err);
    }
    ns_matrix_free(cache.m);
    return st;
}
