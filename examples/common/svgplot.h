/* svgplot.h — a tiny SVG line-plot writer for the examples: one or more
 * panels, each with axes, tick labels, axis labels, a title and a legend.
 * Series data are copied. Not part of the libraries. */
#ifndef NSX_SVGPLOT_H
#define NSX_SVGPLOT_H
#include <stddef.h>

typedef struct svgplot svgplot;

/** A plot of `panels` panels stacked vertically. NULL on allocation failure. */
svgplot *svgplot_new(int panels, const char *title);
/** Axis labels of a panel. */
void svgplot_labels(svgplot *p, int panel, const char *xlabel, const char *ylabel);
/** Adds a line series (or markers only when dots != 0) to a panel. Returns 0 on success. */
int svgplot_series(svgplot *p, int panel, const char *name, size_t n,
                   const double *x, const double *y, int dots);
/** Writes the SVG file; 0 on success. */
int svgplot_write(const svgplot *p, const char *path);
void svgplot_free(svgplot *p);

#endif
