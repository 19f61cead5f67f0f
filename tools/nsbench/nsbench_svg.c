/* nsbench_svg.c — performance profiles as one SVG file: one panel per kind
 * (two panels a row), in each one step curve per solver over a log τ axis
 * from 1 to 1000, labelled axes, a grid, and a legend beside the plot with
 * each solver's solved count. Colours are the Okabe–Ito palette (readable
 * by colour-blind readers); from the fifth solver on curves are also dashed. */
#define _POSIX_C_SOURCE 200809L
#include "nsbench.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { PANEL_W = 680, PANEL_H = 400, PLOT_L = 70, PLOT_T = 46, PLOT_W = 400, PLOT_H = 290,
       CAPTION_H = 36 };

static const char *colours[] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                 "#E69F00", "#56B4E9", "#000000", "#999999" };
static const char *dashes[] = { "", "8 4", "2 3", "8 3 2 3" };

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static double xpos(double ox, double tau)
{
    double lt = log10(tau < 1 ? 1 : tau);
    if (lt > 3) lt = 3;
    return ox + PLOT_L + lt / 3.0 * PLOT_W;
}

static double ypos(double oy, double rho)
{
    return oy + PLOT_T + (1.0 - rho) * PLOT_H;
}

/* Colour index of a series: its rank among all series of all panels, so
 * one solver keeps its colour from panel to panel. */
static size_t series_index(nb_profile *const *prof, size_t n, const char *name)
{
    size_t idx = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t s = 0; s < prof[k]->ns; s++) {
            int seen = 0;
            for (size_t k2 = 0; k2 <= k && !seen; k2++)
                for (size_t s2 = 0; s2 < (k2 == k ? s : prof[k2]->ns) && !seen; s2++)
                    seen = !strcmp(prof[k2]->series[s2], prof[k]->series[s]);
            if (seen) continue;
            if (!strcmp(prof[k]->series[s], name)) return idx;
            idx++;
        }
    return idx;
}

static void panel(FILE *f, nb_profile *const *all, size_t nall, const nb_profile *p,
                  double ox, double oy)
{
    double x0 = ox + PLOT_L, y0 = oy + PLOT_T;
    fprintf(f, "<g>\n<text x=\"%.1f\" y=\"%.1f\" class=\"title\">", x0 + PLOT_W / 2.0, oy + 28);
    xml_text(f, p->title);
    fprintf(f, " — %zu problem%s</text>\n", p->np, p->np == 1 ? "" : "s");
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n",
            x0, y0, PLOT_W, PLOT_H);
    /* x grid: decades strong, 2..9 faint */
    for (int d = 0; d < 3; d++)
        for (int m = 2; m <= 9; m++) {
            double x = xpos(ox, m * pow(10, d));
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"minor\"/>\n",
                    x, y0, x, y0 + PLOT_H);
        }
    for (int d = 0; d <= 3; d++) {
        double x = xpos(ox, pow(10, d));
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"major\"/>\n",
                x, y0, x, y0 + PLOT_H);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%g</text>\n",
                x, y0 + PLOT_H + 18, pow(10, d));
    }
    for (int k = 0; k <= 5; k++) {
        double y = ypos(oy, k / 5.0);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"major\"/>\n",
                x0, y, x0 + PLOT_W, y);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%.1f</text>\n",
                x0 - 6, y + 4, k / 5.0);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"label\" text-anchor=\"middle\">"
            "τ (time / best time of the problem), log scale</text>\n",
            x0 + PLOT_W / 2.0, y0 + PLOT_H + 40);
    fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" class=\"label\" "
            "text-anchor=\"middle\">fraction solved within τ × best</text>\n",
            ox + 22, y0 + PLOT_H / 2.0);
    /* curves */
    for (size_t s = 0; s < p->ns; s++) {
        size_t ci = series_index(all, nall, p->series[s]);
        const char *col = colours[ci % 8], *dash = dashes[(ci / 4) % 4];
        double *r = NULL;
        size_t k = nb_profile_ratios(p, s, &r);
        double np = p->np ? (double)p->np : 1.0;
        size_t i = 0;
        while (i < k && r[i] <= 1.0 + 1e-12) i++;
        fprintf(f, "<path d=\"M%.1f %.1f", xpos(ox, 1), ypos(oy, (double)i / np));
        while (i < k && r[i] <= NB_TAU_MAX) {
            double ri = r[i];
            while (i < k && r[i] <= ri * (1 + 1e-12)) i++;
            fprintf(f, " H%.1f V%.1f", xpos(ox, ri), ypos(oy, (double)i / np));
        }
        fprintf(f, " H%.1f\" class=\"curve\" stroke=\"%s\"%s%s%s/>\n", xpos(ox, NB_TAU_MAX), col,
                dash[0] ? " stroke-dasharray=\"" : "", dash, dash[0] ? "\"" : "");
        free(r);
        /* legend beside the plot */
        double ly = y0 + 14 + 24.0 * (double)s, lx = x0 + PLOT_W + 16;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"curve\" "
                "stroke=\"%s\"%s%s%s/>\n", lx, ly - 4, lx + 28, ly - 4, col,
                dash[0] ? " stroke-dasharray=\"" : "", dash, dash[0] ? "\"" : "");
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">", lx + 34, ly);
        xml_text(f, p->series[s]);
        fprintf(f, " (%zu/%zu)</text>\n", p->solved[s], p->np);
    }
    fprintf(f, "</g>\n");
}

int nb_svg_write(const char *path, nb_profile *const *prof, size_t n, const char *caption,
                 char *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, NS_ERRMSG_LEN, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cols = n > 1 ? 2 : 1, rows = n ? (n + cols - 1) / cols : 1;
    int width = (int)cols * PANEL_W, height = (int)rows * PANEL_H + CAPTION_H;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
            width, height, width, height);
    fprintf(f, "<style>\n"
            ".title{font-size:17px;font-weight:bold;text-anchor:middle}\n"
            ".caption{font-size:15px}\n"
            ".label{font-size:13px}\n.tick{font-size:12px}\n.legend{font-size:13px}\n"
            ".frame{fill:none;stroke:#333;stroke-width:1}\n"
            ".major{stroke:#ccc;stroke-width:1}\n.minor{stroke:#eee;stroke-width:1}\n"
            ".curve{fill:none;stroke-width:2.5;stroke-linejoin:round}\n"
            "</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"12\" y=\"24\" class=\"caption\">");
    xml_text(f, caption ? caption : "Performance profiles");
    fprintf(f, "</text>\n");
    if (n == 0)
        fprintf(f, "<text x=\"40\" y=\"120\" class=\"label\">no solver runs to plot</text>\n");
    for (size_t k = 0; k < n; k++)
        panel(f, prof, n, prof[k], (double)(k % cols) * PANEL_W,
              CAPTION_H + (double)(k / cols) * PANEL_H);
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0) {
        snprintf(err, NS_ERRMSG_LEN, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
