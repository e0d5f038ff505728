/* heat.h - the heat map's one rule, shared by the visualizer and the HTML report: a source
 * line is coloured by its waste (L1TEX units - sectors + wavefronts - over their ideal),
 * never by its cost, so a line at x1 of ideal is the coolest colour however costly it is. */
#ifndef WS_HEAT_H
#define WS_HEAT_H

#include <stdint.h>

/* The waste at and beyond which a line is fully red (log scale: x2 is half way). */
#define WS_HEAT_RED_WASTE 4.0

/* units over ideal, 1 when there is no ideal or the units do not exceed it. */
double ws_heat_waste(uint64_t units, uint64_t ideal);
/* 0 at x1 of ideal, 0.5 at x2, 1 at WS_HEAT_RED_WASTE and worse. */
double ws_heat_level(double waste);
/* 0xRRGGBB a + (b - a) x t per channel, t clamped to [0, 1], rounded. */
uint32_t ws_rgb_lerp(uint32_t a, uint32_t b, double t);
/* 0xRRGGBB for a level in [0, 1] (clamped): blue through yellow (0.5) to red (1). */
uint32_t ws_heat_rgb(double level);

#endif
