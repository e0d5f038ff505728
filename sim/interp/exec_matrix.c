/* exec_matrix.c - warp-wide matrix loads and stores: ldmatrix / stmatrix (.m8n8 .b16, .x1 .x2
 * .x4, .trans) and wmma.load / wmma.store (every wmma shape and type, fragments.h).
 *
 * ldmatrix (PTX ISA): matrix i of .xN has its 8 rows of 16 bytes at the addresses lanes
 * 8i..8i+7 supply; lane l receives in register i the b16 elements (l/4, 2(l%4)) and
 * (l/4, 2(l%4)+1) of matrix i, low half first; .trans gives it (2(l%4), l/4) and
 * (2(l%4)+1, l/4) instead. stmatrix is the same mapping in the other direction. One LDSM /
 * STSM event carries the row addresses (width 16, the supplying lanes active); its wavefronts
 * are the bank model's (ws_banks_ldsm: one phase per matrix).
 * wmma.load/store: element (r, c) of a row-major matrix is at base + (r*stride + c)*size, of a
 * col-major one at base + (c*stride + r)*size; stride defaults to the matrix's width (row) or
 * height (col). One WMMA event per fragment register, when the register's elements are
 * contiguous in memory for every lane, else one per element; its part is 8 * register + element
 * (0 for a whole register), so part 0 starts an execution.
 * Invariant: every lane of the warp takes part (.sync.aligned); a partial warp faults. */
#include "exec_tc.h"

#include <inttypes.h>

static int whole_warp(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    if (m == SIM_FULL) return 0;
    char txt[160];
    ptx_format_insn(c->fn, in->pi, txt, sizeof txt);
    return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "'%s' executed by lanes 0x%08x only: every lane of the warp must execute it "
                     "(.sync.aligned)", txt, m);
}

/* ---- ldmatrix / stmatrix -------------------------------------------------------------- */

static int ldst_matrix(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    if (whole_warp(c, w, in, m)) return -1;
    bool load = pi->op == PTX_LDMATRIX, trans = pi->tc.flags & PTX_TC_TRANS;
    int num = pi->tc.num;
    uint32_t am = num == 4 ? SIM_FULL : (1u << (8 * num)) - 1; /* lanes that supply row addresses */
    uint64_t addr[32];
    uint8_t *row[32];
    sim_addr a = sim_tc_mem1(in);
    sim_tc_addr(w, &a, am, addr);
    if (sim_tc_shared_addr(c, w, in, am, addr)) return -1;
    uint32_t ok = am;
    if (sim_translate(c, w, in, WS_SPACE_SHARED, addr, &ok, 16, 16, row)) return -1;
    if (ok != am) return 0;                      /* a row faulted (counted as a warning): no data moves */
    if (c->tc && sim_tc_check_shared(c, w, in, am, addr, 16)) return -1;
    sim_tc_emit(c, w, in, WS_SPACE_SHARED, load ? WS_MEM_LOAD : WS_MEM_STORE, load ? WS_KIND_LDSM : WS_KIND_STSM, am,
                addr, 16);
    const ptx_operand *v = &pi->opnd[load ? 0 : 1];
    uint64_t *F = w->file;
    for (int i = 0; i < num; i++) {
        uint64_t *reg = F + sim_tc_elem(c, v, i);
        uint8_t *const *rows = row + 8 * i;
        if (load) {
            uint64_t out[32];
            for (int l = 0; l < 32; l++) {
                uint16_t e[2];
                for (int j = 0; j < 2; j++) {
                    int r = trans ? 2 * (l % 4) + j : l / 4, col = trans ? l / 4 : 2 * (l % 4) + j;
                    memcpy(&e[j], rows[r] + 2 * col, 2);
                }
                out[l] = (uint64_t)e[0] | (uint64_t)e[1] << 16;
            }
            for (int l = 0; l < 32; l++) reg[l] = out[l];
        } else {
            for (int r = 0; r < 8; r++)
                for (int col = 0; col < 8; col++) {
                    /* the element at memory (r, col) is held at (col, r) with .trans */
                    int hr = trans ? col : r, hc = trans ? r : col;
                    uint16_t e = (uint16_t)(reg[4 * hr + hc / 2] >> (16 * (hc % 2)));
                    memcpy(rows[r] + 2 * col, &e, 2);
                }
        }
    }
    return 0;
}

/* ---- wmma.load / wmma.store ----------------------------------------------------------- */

static int elem_size(int mt)
{
    switch (mt) {
    case PTX_MT_S8: case PTX_MT_U8: return 1;
    case PTX_MT_F16: case PTX_MT_BF16: return 2;
    case PTX_MT_F64: return 8;
    default: return 4;                           /* tf32 (an f32 in memory), f32, s32 */
    }
}

/* Space of the lanes' addresses: the instruction's, or for a generic address the window all
 * lanes fall in (turned into offsets there). */
static int wmma_space(sim_ctx *c, sim_warp *w, const sim_insn *in, uint64_t *addr, ws_space *sp)
{
    ptx_space s = in->pi->space;
    if (s == PTX_SPACE_GLOBAL) { *sp = WS_SPACE_GLOBAL; return 0; }
    if (s == PTX_SPACE_SHARED) { *sp = WS_SPACE_SHARED; return 0; }
    int nsh = 0;
    for (int l = 0; l < 32; l++) nsh += addr[l] - SIM_WIN_SHARED < SIM_WIN_SIZE;
    if (nsh == 32) {
        for (int l = 0; l < 32; l++) addr[l] -= SIM_WIN_SHARED;
        *sp = WS_SPACE_SHARED;
        return 0;
    }
    for (int l = 0; l < 32; l++)
        if (addr[l] >= SIM_WIN_SHARED)
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "generic address 0x%" PRIx64 " is neither global memory nor in the shared "
                             "window of every lane (wmma.load/store needs one space for the warp)", addr[l]);
    *sp = WS_SPACE_GLOBAL;
    return 0;
}

/* A sub-byte A or B fragment (.s4/.u4 m8n8k32, .b1 m8n8k128: one register a lane): its 8 or 32
 * elements are consecutive along the row of A (.row) or the column of B (.col), so the register
 * is the 32-bit word at the first one's bit offset, row (column) g at ld elements apart. */
static int wmma_subbyte_ldst(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m, int bits)
{
    const ptx_insn *pi = in->pi;
    bool load = pi->op == PTX_WMMA_LOAD;
    char which = pi->tc.frag;
    ws_frag_form f = {pi->tc.m, pi->tc.n, pi->tc.k, bits, 32, true};
    uint64_t *F = w->file;
    int64_t ld[32];
    int rows, cols;
    ws_frag_dims(&f, which, &rows, &cols);
    for (int l = 0; l < 32; l++)
        ld[l] = pi->nopnd == 3 ? (int64_t)(int32_t)F[in->src[2] + l] : (which == 'a' ? cols : rows);
    uint64_t base[32], ea[32];
    sim_addr a = sim_tc_mem1(in);
    sim_tc_addr(w, &a, m, base);
    ws_space sp = WS_SPACE_GLOBAL;
    if (wmma_space(c, w, in, base, &sp)) return -1;
    for (int l = 0; l < 32; l++) {
        ws_frag_pos p;
        ws_frag_where(&f, which, l, 0, &p);
        int64_t off = which == 'a' ? (int64_t)p.row * ld[l] + p.col : (int64_t)p.col * ld[l] + p.row;   /* elements */
        if (off * bits % 32)
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "the stride %" PRId64 " puts a sub-byte fragment's word off its "
                             "32-bit boundary (the PTX ISA: a multiple of %d elements)", ld[l], 32 / bits * 4);
        ea[l] = base[l] + (uint64_t)(off * bits / 8);
    }
    uint8_t *ptr[32];
    uint32_t ok = SIM_FULL;
    if (sim_translate(c, w, in, sp, ea, &ok, 4, 4, ptr)) return -1;
    if (sp == WS_SPACE_SHARED && c->tc && sim_tc_check_shared(c, w, in, ok, ea, 4)) return -1;
    sim_tc_emit_part(c, w, in, sp, load ? WS_MEM_LOAD : WS_MEM_STORE, WS_KIND_WMMA, ok, ea, 4, 0);
    uint64_t *reg = F + sim_tc_elem(c, &pi->opnd[load ? 0 : 1], 0);
    SIM_LANES(ok, {
        uint32_t x = 0;
        if (load) {
            memcpy(&x, ptr[l], 4);
            reg[l] = x;
        } else {
            x = (uint32_t)reg[l];
            memcpy(ptr[l], &x, 4);
        }
    });
    return 0;
}

static int wmma_ldst(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    if (whole_warp(c, w, in, m)) return -1;
    bool load = pi->op == PTX_WMMA_LOAD;
    char which = pi->tc.frag == 'd' ? 'c' : pi->tc.frag;
    int type = pi->tc.dtype, esz = elem_size(type);
    if (ptx_mma_type_subbyte(type))
        return wmma_subbyte_ldst(c, w, in, m, ptx_mma_type_bits(type));
    ws_frag_form f = {pi->tc.m, pi->tc.n, pi->tc.k, esz * 8, esz * 8, true};
    int rows, cols;
    ws_frag_dims(&f, which, &rows, &cols);
    bool rowmajor = pi->tc.alayout == 'r';
    uint64_t *F = w->file;
    int64_t ld[32];                              /* read before any destination is written */
    for (int l = 0; l < 32; l++)
        ld[l] = pi->nopnd == 3 ? (int64_t)(int32_t)F[in->src[2] + l] : (rowmajor ? cols : rows);
    uint64_t base[32];
    sim_addr a = sim_tc_mem1(in);
    sim_tc_addr(w, &a, m, base);
    ws_space sp = WS_SPACE_GLOBAL;
    if (wmma_space(c, w, in, base, &sp)) return -1;
    const ptx_operand *v = &pi->opnd[load ? 0 : 1];
    int nelem = ws_frag_elems(&f, which), nreg = ws_frag_regs(&f, which), per = nelem / nreg;
    const ws_frag_map *fm = ws_frag_map_get(&f, which);
    for (int r = 0; r < nreg; r++) {
        uint64_t ea[4][32];                      /* element addresses of register r, per lane */
        bool contiguous = true;
        for (int l = 0; l < 32; l++) {
            for (int j = 0; j < per; j++) {
                ws_frag_pos p;
                if (fm) {                        /* the cached layout (fragments.h) */
                    p.row = fm->row[l][r * per + j];
                    p.col = fm->col[l][r * per + j];
                } else {
                    ws_frag_where(&f, which, l, r * per + j, &p);
                }
                int64_t off = rowmajor ? (int64_t)p.row * ld[l] + p.col : (int64_t)p.col * ld[l] + p.row;
                ea[j][l] = base[l] + (uint64_t)(off * esz);
                if (j && ea[j][l] != ea[j - 1][l] + (uint64_t)esz) contiguous = false;
            }
        }
        if (contiguous)
            for (int l = 0; l < 32; l++)
                if (ea[0][l] % (uint64_t)(per * esz)) contiguous = false;
        uint64_t *reg = F + sim_tc_elem(c, v, r);
        int nev = contiguous ? 1 : per, width = contiguous ? per * esz : esz;
        for (int j = 0; j < nev; j++) {
            uint8_t *ptr[32];
            uint32_t ok = SIM_FULL;
            if (sim_translate(c, w, in, sp, ea[j], &ok, (uint32_t)width, (uint32_t)width, ptr)) return -1;
            if (sp == WS_SPACE_SHARED && c->tc && sim_tc_check_shared(c, w, in, ok, ea[j], (uint32_t)width)) return -1;
            /* part: register r, element event j (the SASS stage regroups a fragment by register) */
            sim_tc_emit_part(c, w, in, sp, load ? WS_MEM_LOAD : WS_MEM_STORE, WS_KIND_WMMA, ok, ea[j], (uint32_t)width,
                             (uint32_t)(r * 8 + j));
            int shift = contiguous ? 0 : j * esz * 8;
            uint64_t mask = width >= 8 ? ~0ull : (1ull << (width * 8)) - 1;
            SIM_LANES(ok, {
                uint64_t x = 0;
                if (load) {
                    memcpy(&x, ptr[l], (size_t)width);
                    reg[l] = (j ? reg[l] : 0) | x << shift;
                } else {
                    x = reg[l] >> shift & mask;
                    memcpy(ptr[l], &x, (size_t)width);
                }
            });
        }
    }
    if (load && v->kind == PTX_OPND_VEC && v->vec_n > nreg) /* f16 A/B: registers nreg.. repeat 0.. */
        for (int r = nreg; r < v->vec_n; r++) {
            uint64_t *dst = F + sim_tc_elem(c, v, r);
            const uint64_t *src = F + sim_tc_elem(c, v, r % nreg);
            for (int l = 0; l < 32; l++) dst[l] = src[l];
        }
    return 0;
}

int sim_exec_matrix(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    switch (in->pi->op) {
    case PTX_LDMATRIX: case PTX_STMATRIX: return ldst_matrix(c, w, in, m);
    default: return wmma_ldst(c, w, in, m);
    }
}
