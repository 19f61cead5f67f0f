/* events.c — the events manager of the event-driven scheme.
 *
 * Unprocessed events = the time-discretisation events t0 + k·dt
 * (k = 1..n_td, the last one clamped to T; generated lazily, never stored)
 * merged with a sorted list of pending user / nonsmooth events. Popping the
 * next event moves the current one to the past (a ring of the last
 * cap_past) and makes the popped one current. At equal times a nonsmooth
 * event comes first, then user events, then the time event.
 * Contract: event_driven_internal.h. */
#include "simulation/event_driven_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int nsm_events_init(nsm_events *e, double t0, double T, double dt, long history)
{
    memset(e, 0, sizeof *e);
    e->t0 = t0; e->T = T; e->dt = dt;
    double n = ceil((T - t0) / dt - 1e-9);
    e->n_td = n < 1 ? 1 : (long)n;
    e->k_td = 1;
    e->cap_past = history > 0 ? history : 1;
    e->past = calloc((size_t)e->cap_past, sizeof *e->past);
    return e->past ? 0 : -1;
}

void nsm_events_free(nsm_events *e)
{
    free(e->pend);
    free(e->past);
    memset(e, 0, sizeof *e);
}

static double td_time(const nsm_events *e, long k)
{
    return k >= e->n_td ? e->T : e->t0 + (double)k * e->dt;
}

static void td_event(const nsm_events *e, nsm_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->t = td_time(e, e->k_td);
    ev->type = NSM_EVENT_TIME;
    ev->inter = ev->comp = -1;
}

/* a before b: earlier, or same time and lower type (nonsmooth < user < time) */
static int before(const nsm_event *a, const nsm_event *b)
{
    if (a->t != b->t) return a->t < b->t;
    int ra = a->type == NSM_EVENT_NONSMOOTH ? 0 : a->type == NSM_EVENT_USER ? 1 : 2;
    int rb = b->type == NSM_EVENT_NONSMOOTH ? 0 : b->type == NSM_EVENT_USER ? 1 : 2;
    return ra < rb;
}

int nsm_events_peek(const nsm_events *e, nsm_event *ev)
{
    int have_td = e->k_td <= e->n_td;
    if (!have_td && e->npend == 0) return 0;
    nsm_event td;
    if (have_td) td_event(e, &td);
    if (e->npend > 0 && (!have_td || before(&e->pend[0], &td))) *ev = e->pend[0];
    else *ev = td;
    return 1;
}

int nsm_events_schedule(nsm_events *e, const nsm_event *ev)
{
    if (e->npend == e->cap_pend) {
        int cap = e->cap_pend ? 2 * e->cap_pend : 16;
        nsm_event *p = realloc(e->pend, (size_t)cap * sizeof *p);
        if (!p) return -1;
        e->pend = p; e->cap_pend = cap;
    }
    int i = e->npend;
    while (i > 0 && before(ev, &e->pend[i - 1])) { e->pend[i] = e->pend[i - 1]; i--; }
    e->pend[i] = *ev;
    e->npend++;
    return 0;
}

int nsm_events_pop(nsm_events *e, nsm_event *ev)
{
    if (!nsm_events_peek(e, ev)) return 0;
    if (e->npend > 0 && memcmp(ev, &e->pend[0], sizeof *ev) == 0) {
        memmove(e->pend, e->pend + 1, (size_t)(e->npend - 1) * sizeof *e->pend);
        e->npend--;
    } else {
        e->k_td++;
    }
    if (e->have_current) e->past[e->npast++ % e->cap_past] = e->current;
    e->current = *ev;
    e->have_current = 1;
    return 1;
}

void nsm_events_set_current(nsm_events *e, const nsm_event *ev)
{
    e->current = *ev;
}
