/* io_detect.c — kind of a .dat text from its content (docs/formats.md §3).
 *
 * No layout carries a keyword, so each one is tried strictly, in an order
 * where the more specific layout comes first:
 *   MLCP   (hasM hasABCD n m boundaries kinds ...: two 0/1 flags first),
 *   GFC    (d nc M H ...: a second matrix block must follow M),
 *   FC     (d nc M q mu: cols(M) = d·nc),
 *   GMP    (an SBM matrix block right at the start),
 *   relay  (n M q lb ub, only when these fields end the file and lb ≤ ub:
 *           LCP files may carry trailing numbers),
 *   LCP    (n M q).
 * AVI and equality files share the LCP layout and are never detected.
 * When nothing matches, the message of the attempt that read furthest is
 * reported. */
#include "io/io_dat.h"
#include <string.h>

typedef struct attempt {
    ns_status st;
    size_t pos;            /* where the attempt stopped */
    ns_kind kind;
    char msg[NS_ERRMSG_LEN];
} attempt;

/* Reads the buffer as kind; *out receives the problem on success. */
static void try_kind(const char *buf, size_t len, const char *name, ns_kind kind,
                     attempt *a, ns_problem **out, int *at_end)
{
    ns_lexer lx;
    a->msg[0] = '\0';
    a->kind = kind;
    ns_lex_init(&lx, buf, len, name, a->msg);
    a->st = ns_dat_read_problem(&lx, kind, out);
    a->pos = lx.pos;
    *at_end = a->st == NS_OK && ns_lex_at_end(&lx);
}

static int relay_bounds_ordered(const ns_problem *p)
{
    const ns_relay *r = p->u.relay;
    for (ns_int i = 0; i < r->n; i++)
        if (r->lb[i] > r->ub[i]) return 0;
    return 1;
}

ns_status ns_dat_detect(const char *buf, size_t len, const char *name,
                        ns_kind *kind, ns_problem **out, char *err)
{
    static const ns_kind order[] = { NS_KIND_MLCP, NS_KIND_GFC3D, NS_KIND_FC3D,
                                     NS_KIND_GMP, NS_KIND_RELAY, NS_KIND_LCP };
    attempt a, best;
    best.st = NS_BAD_INPUT;
    best.pos = 0;
    best.kind = NS_KIND_NONE;
    best.msg[0] = '\0';
    if (kind) *kind = NS_KIND_NONE;
    if (out) *out = NULL;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        ns_problem *p = NULL;
        int at_end = 0;
        try_kind(buf, len, name, order[k], &a, &p, &at_end);
        /* the FC and GFC readers check d against the kind asked for: retry
         * in 2D when the file is 2D */
        if (a.st == NS_BAD_INPUT && (order[k] == NS_KIND_FC3D || order[k] == NS_KIND_GFC3D)) {
            attempt a2;
            ns_problem *p2 = NULL;
            int e2 = 0;
            try_kind(buf, len, name, order[k] == NS_KIND_FC3D ? NS_KIND_FC2D : NS_KIND_GFC2D,
                     &a2, &p2, &e2);
            if (a2.st == NS_OK || a2.pos > a.pos) { a = a2; p = p2; at_end = e2; }
        }
        if (a.st == NS_NO_MEMORY) {
            if (err) memcpy(err, a.msg, NS_ERRMSG_LEN);
            return NS_NO_MEMORY;
        }
        if (a.st == NS_OK) {
            if (order[k] == NS_KIND_RELAY && !(at_end && relay_bounds_ordered(p))) {
                ns_problem_free(p);   /* an LCP with trailing numbers */
                continue;
            }
            if (kind) *kind = p->kind;
            if (out) *out = p;
            else ns_problem_free(p);
            return NS_OK;
        }
        if (a.pos > best.pos || best.kind == NS_KIND_NONE) best = a;
    }
    return ns_fail(err, NS_BAD_INPUT, "%s (no .dat layout matches; read furthest as %s)",
                   best.msg, ns_kind_name(best.kind));
}
