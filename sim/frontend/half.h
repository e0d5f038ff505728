/* half.h - f16, bf16 and fp8 (e4m3, e5m2) conversions (half.c), shared by decode (immediates),
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
/* .satfinite: beyond the largest finite value (65504, 0x1.fep127) that value, NaN stays NaN */
uint16_t sim_f2h_sat(double x, ptx_round rnd);
uint16_t sim_f2bf_sat(double x, ptx_round rnd);
/* fp8 (sm_89+): round to nearest even, saturating to +-448 (e4m3) / +-57344 (e5m2); NaN -> 0x7f */
uint8_t sim_f2e4m3(double x);
uint8_t sim_f2e5m2(double x);
float sim_e4m32f(uint8_t b);                 /* exact */
float sim_e5m22f(uint8_t b);                 /* exact */

#endif
