/* fragments.h - where the elements of a warp's matrix fragments live, as the PTX ISA lays them
 * out ("Matrix Fragments for mma.m16n8k*", "mma.m8n8k4 with .f64"): for lane l and element e
 * of the A, B or C/D fragment, the element's row and column in its matrix and the register and
 * bit offset that hold it. With groupID g = l / 4 and threadID_in_group t = l % 4, p elements
 * per 32-bit register and K the k of the shape:
 *   A (m16):  row g + 8*((e/p) % 2), col t*p + e%p + (K/2)*(e/(2p))
 *   B:        row t*p + e%p + (K/2)*(e/p), col g
 *   C/D:      row g + 8*(e/2), col 2t + e%2       (f64 m8n8k4: A (g, t), B (t, g), C (g, 2t+e))
 *   element e sits in register e/p at bit (e%p)*bits.
 * wmma m16n16k16 (whose layout the PTX ISA leaves to the target) is laid out as sm_80+ does:
 * A is the m16n8k16 A fragment; B and C/D are two n8 halves side by side, elements 0..3 (or
 * 0..3 of each register pair) the columns 0..7, elements 4..7 the columns 8..15; f16 A and B
 * fragments have 8 registers in PTX, of which registers 4..7 repeat 0..3.
 * Invariant: over the 32 lanes, (row, col) covers each element of the matrix exactly once. */
#ifndef WS_FRAGMENTS_H
#define WS_FRAGMENTS_H

#include <stdbool.h>

typedef struct {
    int m, n, k;          /* the shape (wmma: 16, 16, 16) */
    int ab_bits;          /* bits of an A/B element: 8 (s8/u8), 16 (f16/bf16), 32 (tf32), 64 (f64) */
    int c_bits;           /* bits of a C/D element: 16 (f16), 32 (f32/s32), 64 (f64) */
    bool wmma;            /* wmma m16n16k16: B and C/D in two n8 halves */
} ws_frag_form;

typedef struct {
    int row, col;         /* in A (m x k), B (k x n) or C/D (m x n) */
    int reg;              /* register of the fragment (0-based) */
    int shift;            /* bit offset of the element in it */
} ws_frag_pos;

/* Distinct elements per lane of fragment which ('a', 'b', 'c'; 'd' is 'c'). */
int ws_frag_elems(const ws_frag_form *f, char which);
/* Registers per lane holding them (a 64-bit element is one register). */
int ws_frag_regs(const ws_frag_form *f, char which);
/* Rows and columns of fragment which's matrix. */
void ws_frag_dims(const ws_frag_form *f, char which, int *rows, int *cols);
/* Element e of lane's fragment which. Example: the m16n8k16 f16 A element 5 of lane 6 is row
 * 1 + 0, col 2*2 + 1 + 8 = 13, register 2, shift 16. */
void ws_frag_where(const ws_frag_form *f, char which, int lane, int e, ws_frag_pos *p);

#endif
