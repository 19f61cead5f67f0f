/* svgplot.c — see svgplot.h. Panels share the width; each has its own
 * ranges (padded 5%), 5 ticks per axis, and a legend at the top right. */
#include "svgplot.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXS 8
#define MAXP 4

typedef struct series { char name[64]; size_t n; double *x, *y; int dots; } series;
typedef struct panel { char xl[64], yl[64]; series s[MAXS]; int ns; } panel;
struct svgplot { char title[128]; int np; panel p[MAXP]; };

static const char *colors[MAXS] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                    "#9467bd", "#8c564b", "#e377c2", "#7f7f7f" };

svgplot *svgplot_new(int panels, const char *title)
{
    if (panels < 1 || panels > MAXP) return NULL;
    svgplot *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->np = panels;
    snprintf(p->title, sizeof p->title, "%s", title ? title : "");
    return p;
}

void svgplot_labels(svgplot *p, int k, const char *xl, const char *yl)
{
    if (!p || k < 0 || k >= p->np) return;
    snprintf(p->p[k].xl, sizeof p->p[k].xl, "%s", xl ? xl : "");
    snprintf(p->p[k].yl, sizeof p->p[k].yl, "%s", yl ? yl : "");
}

int svgplot_series(svgplot *p, int k, const char *name, size_t n,
                   const double *x, const double *y, int dots)
{
    if (!p || k < 0 || k >= p->np || p->p[k].ns >= MAXS) return -1;
    series *s = &p->p[k].s[p->p[k].ns];
    s->x = malloc((n ? n : 1) * sizeof *s->x);
    s->y = malloc((n ? n : 1) * sizeof *s->y);
    if (!s->x || !s->y) { free(s->x); free(s->y); return -1; }
    if (n) { memcpy(s->x, x, n * sizeof *x); memcpy(s->y, y, n * sizeof *y); }
    s->n = n;
    s->dots = dots;
    snprintf(s->name, sizeof s->name, "%s", name ? name : "");
    p->p[k].ns++;
    return 0;
}

static void esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else fputc(*s, f);
    }
}

int svgplot_write(const svgplot *p, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    const double W = 800, PH = 300, L = 80, R = 20, T = 40, B = 50;
    double H = T + p->np * (PH + B) + 10;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"%g\" y=\"22\" text-anchor=\"middle\" font-size=\"16\">", W / 2);
    esc(f, p->title);
    fprintf(f, "</text>\n");
    for (int k = 0; k < p->np; k++) {
        const panel *pa = &p->p[k];
        double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
        for (int s = 0; s < pa->ns; s++)
            for (size_t i = 0; i < pa->s[s].n; i++) {
                double x = pa->s[s].x[i], y = pa->s[s].y[i];
                if (!isfinite(x) || !isfinite(y)) continue;
                if (x < x0) x0 = x;
                if (x > x1) x1 = x;
                if (y < y0) y0 = y;
                if (y > y1) y1 = y;
            }
        if (!(x1 > x0)) { x0 = isfinite(x0) ? x0 - 1 : 0; x1 = x0 + 2; }
        if (!(y1 > y0)) { y0 = isfinite(y0) ? y0 - 1 : 0; y1 = y0 + 2; }
        double dy = 0.05 * (y1 - y0);
        y0 -= dy; y1 += dy;
        double top = T + k * (PH + B), left = L, pw = W - L - R;
#define SX(x) (left + ((x) - x0) / (x1 - x0) * pw)
#define SY(y) (top + PH - ((y) - y0) / (y1 - y0) * PH)
        fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" stroke=\"black\"/>\n",
                left, top, pw, PH);
        for (int t = 0; t <= 5; t++) {
            double xv = x0 + t * (x1 - x0) / 5, yv = y0 + t * (y1 - y0) / 5;
            fprintf(f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#ddd\"/>\n",
                    SX(xv), top, SX(xv), top + PH);
            fprintf(f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#ddd\"/>\n",
                    left, SY(yv), left + pw, SY(yv));
            fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">%.4g</text>\n", SX(xv), top + PH + 15, xv);
            fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">%.4g</text>\n", left - 5, SY(yv) + 4, yv);
        }
        fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">", left + pw / 2, top + PH + 35);
        esc(f, pa->xl);
        fprintf(f, "</text>\n<text x=\"15\" y=\"%g\" text-anchor=\"middle\" transform=\"rotate(-90 15 %g)\">",
                top + PH / 2, top + PH / 2);
        esc(f, pa->yl);
        fprintf(f, "</text>\n");
        for (int s = 0; s < pa->ns; s++) {
            const series *se = &pa->s[s];
            const char *c = colors[s % MAXS];
            if (se->dots) {
                fprintf(f, "<g fill=\"%s\">\n", c);
                for (size_t i = 0; i < se->n; i++)
                    if (isfinite(se->x[i]) && isfinite(se->y[i]))
                        fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"1.2\"/>\n", SX(se->x[i]), SY(se->y[i]));
                fprintf(f, "</g>\n");
            } else {
                /* thin the polyline to at most ~4000 points */
                size_t stride = se->n > 4000 ? se->n / 4000 : 1;
                fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" points=\"", c);
                for (size_t i = 0; i < se->n; i += stride)
                    if (isfinite(se->x[i]) && isfinite(se->y[i]))
                        fprintf(f, "%.2f,%.2f ", SX(se->x[i]), SY(se->y[i]));
                fprintf(f, "\"/>\n");
            }
            double ly = top + 15 + 16 * s;
            fprintf(f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" stroke-width=\"3\"/>\n",
                    left + pw - 150, ly - 4, left + pw - 130, ly - 4, c);
            fprintf(f, "<text x=\"%g\" y=\"%g\">", left + pw - 125, ly);
            esc(f, se->name);
            fprintf(f, "</text>\n");
        }
#undef SX
#undef SY
    }
    fprintf(f, "</svg>\n");
    return fclose(f) == 0 ? 0 : -1;
}

void svgplot_free(svgplot *p)
{
    if (!p) return;
    for (int k = 0; k < p->np; k++)
        for (int s = 0; s < p->p[k].ns; s++) { free(p->p[k].s[s].x); free(p->p[k].s[s].y); }
    free(p);
}
