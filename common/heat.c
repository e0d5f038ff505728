/* heat.c - the heat map's colour rule (heat.h). */
#include "heat.h"
#include <math.h>

#define HEAT_COOL 0x2F5D8Au
#define HEAT_WARN 0xF2C14Eu
#define HEAT_RED  0xFF3358u

double ws_heat_waste(uint64_t units, uint64_t ideal)
{
    return ideal && units > ideal ? (double)units / (double)ideal : 1.0;
}

double ws_heat_level(double waste)
{
    double t = log2(waste) / log2(WS_HEAT_RED_WASTE);
    return t < 0 ? 0 : t > 1 ? 1 : t;
}

uint32_t ws_rgb_lerp(uint32_t a, uint32_t b, double t)
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    uint32_t out = 0;
    for (int sh = 0; sh <= 16; sh += 8) {
        double x = ((a >> sh) & 255) + (((b >> sh) & 255) - (double)((a >> sh) & 255)) * t;
        out |= (uint32_t)lround(x) << sh;
    }
    return out;
}

uint32_t ws_heat_rgb(double level)
{
    double t = level < 0 ? 0 : level > 1 ? 1 : level;
    return t < 0.5 ? ws_rgb_lerp(HEAT_COOL, HEAT_WARN, t / 0.5) : ws_rgb_lerp(HEAT_WARN, HEAT_RED, (t - 0.5) / 0.5);
}
