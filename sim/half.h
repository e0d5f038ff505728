/* half.h - f16 and bf16 conversions (half.c), shared by decode (immediates),
 * the ALU, atomics and argument setup, so none of them depends on another.
 * Invariant: the 16-bit values are bit patterns in the low bits of a uint16_t. */
#ifndef WS_HALF_H
#define WS_HALF_H

#include <stdint.h>

#include "ptx.h"

float sim_h2f(uint16_t h);                   /* exact: every f16 is a float */
float sim_bf2f(uint16_t h);                  /* exact */
uint16_t sim_f2h(double x, ptx_round rnd);   /* IEEE binary16, rounding mode (RN default) */
uint16_t sim_f2bf(double x, ptx_round rnd);

#endif
