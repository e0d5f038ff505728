/* viz_plot.h - the validation report's picture (`check --validate --png`): predicted against
 * measured kernel time on log-log axes, the y = x line and the +-20% band around it, one dot
 * per run coloured by the bound the model predicts, drawn headless on an SDL2 surface with the
 * visualizer's fonts and written as PNG through common/outfile.c (viz_png_write).
 * Invariant: the picture is a function of the points alone (no clock, no window). */
#ifndef VIZ_PLOT_H
#define VIZ_PLOT_H

#include <stddef.h>

#define VIZ_PLOT_CLASSES 8     /* DRAM, L2, shared, atomics, issue, latency, launch, tensor */

typedef struct {
    double measured_us, predicted_us; /* both > 0 (others are left out) */
    int cls;                          /* 0..VIZ_PLOT_CLASSES-1: index into the names given */
} viz_plot_point;

/* Draws the points into a w x h PNG at path, with a legend naming classes[0..VIZ_PLOT_CLASSES).
 * Returns 0, or -1 with err (no font, the file cannot be written). */
int viz_plot_time_png(const viz_plot_point *pts, int n, const char *const *classes, const char *title,
                      const char *path, int w, int h, char *err, size_t cap);

#endif
