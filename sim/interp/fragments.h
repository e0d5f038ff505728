/* fragments.h - where the elements of a warp's matrix fragments live, as the PTX ISA lays them
 * out ("Matrix Fragments for mma.m16n8k*", "mma.m8n8k4 with .f64"): for lane l and element e
 * of the A, B or C/D fragment, the element's row and column in its matrix and the register and
 * bit offset that hold it. With groupID g = l / 4, threadID_in_group t = l % 4, p elements per
 * 32-bit register (1 for tf32, f32, s32 and f64) and b = e/p (A, B) or e/2 (C/D) its block:
 *   A:    row 8*(b % (M/8)) + g,            col 4p*(b / (M/8)) + t*p + e%p
 *   B:    row 4p*(b % (K/4p)) + t*p + e%p,  col 8*(b / (K/4p)) + g
 *   C/D:  row 8*(b % (M/8)) + g,            col 8*(b / (M/8)) + 2t + e%2
 *   element e sits in register e/p at bit (e%p)*bits.
 * These are the ISA's tables for every mma shape (m16n8k16: A row g + 8*((e/p) % 2), col t*p +
 * e%p + 8*(e/2p); f64 m8n8k4: A (g, t), B (t, g), C (g, 2t+e)). wmma (m16n16k16, m32n8k16,
 * m8n32k16, m16n16k8 tf32, m8n8k4 f64), whose layout the PTX ISA leaves to the target, is the
 * same formula: its tiles laid side by side as sm_80+ does (m16n16k16 B and C/D: two n8 halves).
 * f16 A and B wmma fragments have 8 registers in PTX whatever the shape; registers beyond the
 * distinct elements repeat the first ones (ptx_tensor.c counts, exec_matrix.c fills).
 * Invariant: over the 32 lanes, (row, col) covers each element of the matrix exactly once. */
#ifndef WS_FRAGMENTS_H
#define WS_FRAGMENTS_H

#include <stdbool.h>

typedef struct {
    int m, n, k;          /* the shape */
    int ab_bits;          /* bits of an A/B element: 8 (s8/u8), 16 (f16/bf16), 32 (tf32), 64 (f64) */
    int c_bits;           /* bits of a C/D element: 16 (f16), 32 (f32/s32), 64 (f64) */
    bool wmma;            /* a wmma fragment (same layout; kept for the callers' clarity) */
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

/* The whole layout of one fragment, for the hot loops (mma, wmma.load/store): element e of
 * every lane sits in register reg[e] at bit shift[e] (the same for all lanes, see above), and
 * lane l's element e is cell (row[l][e], col[l][e]). Built once per form and thread from
 * ws_frag_where and kept (thread-local, never freed); the pointer stays valid for the thread's
 * life. WS_FRAG_MAX_ELEMS bounds the elements per lane of every form fragments.h describes. */
#define WS_FRAG_MAX_ELEMS 16
typedef struct {
    int nelem;
    int reg[WS_FRAG_MAX_ELEMS], shift[WS_FRAG_MAX_ELEMS];
    unsigned char row[32][WS_FRAG_MAX_ELEMS], col[32][WS_FRAG_MAX_ELEMS];
    unsigned short at[32][WS_FRAG_MAX_ELEMS]; /* row * the fragment's columns + col: its place in a row-major matrix */
} ws_frag_map;
/* The map of fragment which of form f; NULL when its elements per lane exceed the bound (the
 * caller then uses ws_frag_where). */
const ws_frag_map *ws_frag_map_get(const ws_frag_form *f, char which);

#endif
