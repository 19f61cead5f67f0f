/* nsbench_progress.c — progress on stderr: on a terminal one live line
 * (runs done / total, current file and solver, elapsed, time left),
 * redrawn at most 10 times a second; otherwise a plain line every 10 s. */
#define _POSIX_C_SOURCE 200809L
#include "nsbench.h"
#include <string.h>
#include <unistd.h>

static void fmt_duration(char *buf, size_t len, double s)
{
    if (!(s >= 0)) snprintf(buf, len, "?");
    else if (s < 60) snprintf(buf, len, "%.0fs", s);
    else if (s < 3600) snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else snprintf(buf, len, "%dh%02dm", (int)(s / 3600), ((int)s % 3600) / 60);
}

void nb_progress_start(nb_progress *p, int enabled, size_t total)
{
    memset(p, 0, sizeof *p);
    p->enabled = enabled;
    p->tty = isatty(STDERR_FILENO);
    p->t0 = p->last = nb_now();
    p->total = total;
}

static void draw(nb_progress *p, double t)
{
    char el[32], left[32];
    double elapsed = t - p->t0;
    fmt_duration(el, sizeof el, elapsed);
    if (p->done > 0 && p->done < p->total)
        fmt_duration(left, sizeof left, elapsed / (double)p->done * (double)(p->total - p->done));
    else snprintf(left, sizeof left, p->done ? "0s" : "?");
    int pct = p->total ? (int)(100.0 * (double)p->done / (double)p->total) : 100;
    if (p->tty) {
        /* fit the current item into the terminal line */
        char cur[72];
        size_t n = strlen(p->current);
        if (n < sizeof cur) snprintf(cur, sizeof cur, "%s", p->current);
        else snprintf(cur, sizeof cur, "...%s", p->current + n - (sizeof cur - 4));
        fprintf(stderr, "\r\033[K[%zu/%zu %3d%%] %s elapsed, ~%s left  %s", p->done,
                p->total, pct, el, left, cur);
        p->line_shown = 1;
    } else {
        fprintf(stderr, "nsbench: %zu/%zu runs done (%d%%), %s elapsed, ~%s left\n",
                p->done, p->total, pct, el, left);
    }
    fflush(stderr);
    p->last = t;
}

void nb_progress_set(nb_progress *p, size_t done, size_t total, const char *current)
{
    p->done = done;
    p->total = total;
    if (current) snprintf(p->current, sizeof p->current, "%s", current);
}

void nb_progress_count(nb_progress *p, const nb_row *r)
{
    p->done++;
    if (!strcmp(r->status, "interrupted")) p->stopped++;
}

void nb_progress_tick(nb_progress *p)
{
    if (!p->enabled) return;
    double t = nb_now();
    if (t - p->last >= (p->tty ? 0.1 : 10.0)) draw(p, t);
}

void nb_progress_end(nb_progress *p, const char *what)
{
    if (!p->enabled) return;
    char el[32];
    fmt_duration(el, sizeof el, nb_now() - p->t0);
    if (p->tty && p->line_shown) fprintf(stderr, "\r\033[K");
    if (p->stopped)
        fprintf(stderr, "nsbench: %s: %zu of %zu runs finished in %s, %zu interrupted\n", what,
                p->done - p->stopped, p->total, el, p->stopped);
    else
        fprintf(stderr, "nsbench: %s: %zu runs in %s\n", what, p->done, el);
    p->line_shown = 0;
    fflush(stderr);
}
