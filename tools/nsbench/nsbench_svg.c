/* nsbench_svg.c — performance profiles as one SVG file: one panel per kind
 * (two panels a row), in each one step curve per solver over a log τ axis
 * from 1 to the decade that holds the panel's largest ratio (at most 1000),
 * labelled axes, a grid, and a legend beside the plot with each solver's
 * solved count and geometric-mean time. Colours are the Okabe–Ito palette
 * (readable by colour-blind readers), in the panel's solver order, solid
 * lines (dashed from the ninth solver on); the kind's default solver is
 * drawn thicker and marked so in the legend. */
#define _POSIX_C_SOURCE 200809L
#include "nsbench.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { PANEL_W = 680, PANEL_H = 400, PLOT_L = 70, PLOT_T = 46, PLOT_W = 400, PLOT_H = 290,
       CAPTION_H = 56 };

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

static double xpos(double ox, double tau, int decades)
{
    double lt = log10(tau < 1 ? 1 : tau);
    if (lt > decades) lt = decades;
    return ox + PLOT_L + lt / (double)decades * PLOT_W;
}

/* Decades of τ the panel needs: its largest finite ratio, 1 to 3. */
static int panel_decades(const nb_profile *p)
{
    double worst = 1;
    for (size_t s = 0; s < p->ns; s++) {
        double *r = NULL;
        size_t k = nb_profile_ratios(p, s, &r);
        if (k && r[k - 1] > worst) worst = r[k - 1];
        free(r);
    }
    int d = (int)ceil(log10(worst * 1.05));
    return d < 1 ? 1 : d > 3 ? 3 : d;
}

static void fmt_time(char *buf, size_t len, double t)
{
    if (!isfinite(t)) snprintf(buf, len, "-");
    else if (t < 1e-6) snprintf(buf, len, "%.3g ns", t * 1e9);
    else if (t < 1e-3) snprintf(buf, len, "%.3g µs", t * 1e6);
    else if (t < 1) snprintf(buf, len, "%.3g ms", t * 1e3);
    else snprintf(buf, len, "%.3g s", t);
}

static double ypos(double oy, double rho)
{
    return oy + PLOT_T + (1.0 - rho) * PLOT_H;
}

static void panel(FILE *f, const nb_profile *p, double ox, double oy)
{
    double x0 = ox + PLOT_L, y0 = oy + PLOT_T;
    int dec = panel_decades(p);
    double tau_max = pow(10, dec);
    ns_kind kind = ns_kind_from_name(p->title);
    const ns_solver_info *dflt = kind != NS_KIND_NONE ? ns_solver_default(kind) : NULL;
    fprintf(f, "<g>\n<text x=\"%.1f\" y=\"%.1f\" class=\"title\">", x0 + PLOT_W / 2.0, oy + 28);
    xml_text(f, p->title);
    fprintf(f, " — %zu problem%s</text>\n", p->np, p->np == 1 ? "" : "s");
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n",
            x0, y0, PLOT_W, PLOT_H);
    /* x grid: decades strong, 2..9 faint */
    for (int d = 0; d < dec; d++)
        for (int m = 2; m <= 9; m++) {
            double x = xpos(ox, m * pow(10, d), dec);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"minor\"/>\n",
                    x, y0, x, y0 + PLOT_H);
        }
    for (int d = 0; d <= dec; d++) {
        double x = xpos(ox, pow(10, d), dec);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"major\"/>\n",
                x, y0, x, y0 + PLOT_H);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%g</text>\n",
                x, y0 + PLOT_H + 18, pow(10, d));
    }
    if (dec == 1)  /* one decade: label 2 and 5 too */
        for (int m = 2; m <= 5; m += 3)
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%d"
                    "</text>\n", xpos(ox, m, dec), y0 + PLOT_H + 18, m);
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
    /* --compare panels name series "source:solver": one colour per solver,
     * solid for the first source, dashed for the second */
    int paired = p->ns > 1;
    for (size_t s = 0; s < p->ns && paired; s++) paired = strrchr(p->series[s], ':') != NULL;
    /* curves */
    for (size_t s = 0; s < p->ns; s++) {
        const char *col = colours[s % 8], *dash = dashes[(s / 8) % 4];
        if (paired) {
            const char *base = strrchr(p->series[s], ':') + 1;
            size_t plen = (size_t)(base - p->series[s]);
            size_t ci = 0;
            /* colour: rank of the base name among the distinct ones */
            for (size_t t = 0; t < p->ns; t++) {
                const char *tb = strrchr(p->series[t], ':') + 1;
                if (!strcmp(tb, base)) break;
                int seen = 0;
                for (size_t u = 0; u < t && !seen; u++)
                    seen = !strcmp(strrchr(p->series[u], ':') + 1, tb);
                ci += !seen;
            }
            /* dash: the source is the first one seen, or another */
            int di = strncmp(p->series[0], p->series[s], plen) != 0 ||
                     (size_t)(strrchr(p->series[0], ':') + 1 - p->series[0]) != plen;
            col = colours[ci % 8];
            dash = di ? "7 4" : "";
        }
        int is_default = dflt && !strcmp(dflt->name, p->series[s]);
        double *r = NULL;
        size_t k = nb_profile_ratios(p, s, &r);
        double np = p->np ? (double)p->np : 1.0;
        size_t i = 0;
        while (i < k && r[i] <= 1.0 + 1e-12) i++;
        fprintf(f, "<path d=\"M%.1f %.1f", xpos(ox, 1, dec), ypos(oy, (double)i / np));
        while (i < k && r[i] <= tau_max) {
            double ri = r[i];
            while (i < k && r[i] <= ri * (1 + 1e-12)) i++;
            fprintf(f, " H%.1f V%.1f", xpos(ox, ri, dec), ypos(oy, (double)i / np));
        }
        fprintf(f, " H%.1f\" class=\"curve%s\" stroke=\"%s\"%s%s%s/>\n",
                xpos(ox, tau_max, dec), is_default ? " default" : "", col,
                dash[0] ? " stroke-dasharray=\"" : "", dash, dash[0] ? "\"" : "");
        free(r);
        /* legend beside the plot: name, then solved count and geomean time */
        double ly = y0 + 12 + 34.0 * (double)s, lx = x0 + PLOT_W + 14;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"curve%s\" "
                "stroke=\"%s\"%s%s%s/>\n", lx, ly - 4, lx + 26, ly - 4,
                is_default ? " default" : "", col,
                dash[0] ? " stroke-dasharray=\"" : "", dash, dash[0] ? "\"" : "");
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">", lx + 32, ly);
        xml_text(f, p->series[s]);
        fprintf(f, "%s</text>\n", is_default ? " (default)" : "");
        char gm[32];
        fmt_time(gm, sizeof gm, p->geomean[s]);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"detail\">%zu/%zu solved",
                lx + 32, ly + 15, p->solved[s], p->np);
        if (p->ns > 1 && isfinite(p->geomean[s])) fprintf(f, " · %s", gm);
        fprintf(f, "</text>\n");
    }
    if (p->ns > 1 && p->n_common > 0)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"detail\">times: geometric mean over the"
                "</text>\n<text x=\"%.1f\" y=\"%.1f\" class=\"detail\">%zu problem%s all "
                "solved</text>\n", x0 + PLOT_W + 14, y0 + PLOT_H - 16, x0 + PLOT_W + 14,
                y0 + PLOT_H - 2, p->n_common, p->n_common == 1 ? "" : "s");
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
            ".curve{fill:none;stroke-width:2.2;stroke-linejoin:round}\n"
            ".default{stroke-width:4}\n.detail{font-size:11px;fill:#555}\n"
            "</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"12\" y=\"24\" class=\"caption\">");
    xml_text(f, caption ? caption : "Performance profiles");
    fprintf(f, "</text>\n<text x=\"12\" y=\"44\" class=\"label\">Fraction of a kind's "
            "problems each solver solved within τ × the best time on the problem. τ = 1: how "
            "often it was fastest; right edge: how often it converged. Up and left is better."
            "</text>\n");
    if (n == 0)
        fprintf(f, "<text x=\"40\" y=\"120\" class=\"label\">no solver runs to plot</text>\n");
    for (size_t k = 0; k < n; k++)
        panel(f, prof[k], (double)(k % cols) * PANEL_W,
              CAPTION_H + (double)(k / cols) * PANEL_H);
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0) {
        snprintf(err, NS_ERRMSG_LEN, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
