/* core_workspace.c — ns_workspace: grow-only buffers a caller keeps
 * between solves (ns_solver.h), so that a solver called once per time
 * step allocates nothing once the problems stop growing. */
#include "core/ns_internal.h"
#include <stdlib.h>

struct ns_workspace {
    void *buf[NS_WS_SLOTS];
    size_t cap[NS_WS_SLOTS];   /* bytes */
    int held[NS_WS_SLOTS];     /* a solve holds the slot's buffer */
    int race[2];               /* fc auto's races won: [0] Newton, [1] sweeps */
};

int *ns_ws_race(ns_workspace *w) { return w ? w->race : NULL; }

ns_workspace *ns_workspace_new(void) { return calloc(1, sizeof(ns_workspace)); }

void ns_workspace_free(ns_workspace *w)
{
    if (!w) return;
    for (int k = 0; k < NS_WS_SLOTS; k++) free(w->buf[k]);
    free(w);
}

size_t ns_workspace_bytes(const ns_workspace *w)
{
    size_t b = 0;
    for (int k = 0; w && k < NS_WS_SLOTS; k++) b += w->cap[k];
    return b;
}

/* Slot `slot`'s buffer grown to `bytes` (contents not kept), NULL on
 * failure. */
static void *slot_buffer(ns_workspace *w, int slot, size_t bytes)
{
    if (bytes == 0) bytes = 1;
    if (bytes > w->cap[slot]) {
        size_t c = w->cap[slot] ? w->cap[slot] : 64;
        while (c < bytes) c = c > (size_t)-1 / 2 ? bytes : 2 * c;
        void *p = malloc(c);   /* old contents are not kept: no realloc copy */
        if (!p) return NULL;
        free(w->buf[slot]);
        w->buf[slot] = p;
        w->cap[slot] = c;
    }
    return w->buf[slot];
}

void *ns_ws_take(ns_workspace *w, int slot, size_t n, size_t size)
{
    if (!w || slot < 0 || slot >= NS_WS_SLOTS || w->held[slot]) return ns_malloc(n, size);
    if (size && n > (size_t)-1 / size) return NULL;
    void *p = slot_buffer(w, slot, n * size);
    if (p) w->held[slot] = 1;
    return p;
}

void ns_ws_give(ns_workspace *w, int slot, void *p)
{
    if (!p) return;
    if (w && slot >= 0 && slot < NS_WS_SLOTS && w->held[slot] && p == w->buf[slot]) w->held[slot] = 0;
    else free(p);
}
