/* exec_mem.c - loads, stores, atomics and reductions in every state space:
 * address translation (generic windows from cvta), bounds and alignment
 * checks, the data movement itself, and one ws_mem_event per warp-level access.
 * Invariant: no lane touches host memory outside its space's allocation; an
 * access that would is a fault (or a counted warning, and the lane is skipped),
 * and atomics apply lane by lane in lane order. */
#include "interp_priv.h"

#include <inttypes.h>
#include <math.h>

static ws_cache_hint cache_hint(ptx_cacheop c)
{
    switch (c) {
    case PTX_CACHE_CA: return WS_CACHE_CA;
    case PTX_CACHE_CG: return WS_CACHE_CG;
    case PTX_CACHE_CS: return WS_CACHE_CS;
    case PTX_CACHE_LU: return WS_CACHE_LU;
    case PTX_CACHE_CV: return WS_CACHE_CV;
    case PTX_CACHE_WB: return WS_CACHE_WB;
    case PTX_CACHE_WT: return WS_CACHE_WT;
    case PTX_CACHE_NC: return WS_CACHE_NC;
    default: return WS_CACHE_DEFAULT;
    }
}

static const char *op_word(ptx_opcode op)
{
    switch (op) {
    case PTX_ST: return "store";
    case PTX_ATOM: return "atomic";
    case PTX_RED: return "reduction";
    case PTX_STMATRIX: case PTX_WMMA_STORE: return "store";
    case PTX_CP_ASYNC: return "cp.async";
    default: return "load";
    }
}

/* Host pointer for [a, a+n) in global memory, or NULL. */
static inline uint8_t *global_ptr(sim_ctx *c, uint64_t a, uint32_t n)
{
    sim_region *r = &c->region[c->last_region];
    if (a >= r->base && a - r->base <= r->size && r->size - (a - r->base) >= n) {
        if (__builtin_expect(r->pending != 0, 0)) sim_region_fill(r, a - r->base, n);
        return r->data + (a - r->base);
    }
    for (int i = 0; i < c->nregions; i++) {
        r = &c->region[i];
        if (a >= r->base && a - r->base <= r->size && r->size - (a - r->base) >= n) {
            c->last_region = i;
            if (__builtin_expect(r->pending != 0, 0)) sim_region_fill(r, a - r->base, n);
            return r->data + (a - r->base);
        }
    }
    return NULL;
}

/* Makes the region holding address a the last one used, as global_ptr would; false when a lies in
 * none or in one not filled yet (then global_ptr's walk fills it). */
static inline bool last_region_at(sim_ctx *c, uint64_t a)
{
    for (int k = -1; k < c->nregions; k++) {
        int i = k < 0 ? c->last_region : k;
        const sim_region *r = &c->region[i];
        if (i < c->nregions && a >= r->base && a - r->base < r->size) {
            if (r->pending) return false;
            c->last_region = i;
            return true;
        }
    }
    return false;
}

static int global_fault(sim_ctx *c, sim_warp *w, const sim_insn *in, int lane, uint64_t a, uint32_t n)
{
    const char *what = op_word(in->pi->op);
    int best = -1;
    uint64_t dist = UINT64_MAX;
    bool before = false;
    for (int i = 0; i < c->nregions; i++) {
        const sim_region *r = &c->region[i];
        uint64_t end = r->base + r->size, d;
        bool b;
        if (a < r->base) { d = r->base - a; b = true; }
        else { d = a + n - end; b = false; }
        if (d < dist) { dist = d; best = i; before = b; }
    }
    if (best < 0)
        return sim_mem_fault(c, w, in, lane, WS_MEMERR_GLOBAL, "global %s of %u bytes at 0x%" PRIx64 " with no buffer allocated",
                             what, n, a);
    const sim_region *r = &c->region[best];
    return sim_mem_fault(c, w, in, lane, WS_MEMERR_GLOBAL, "global %s of %u bytes at 0x%" PRIx64 " is %" PRIu64
                         " bytes %s buffer '%s' (%" PRIu64 " bytes)", what, n, a, dist,
                         before ? "before the start of" : "past the end of", r->name, r->size);
}

/* Resolves lane addresses of one space to host pointers; faulting lanes are
 * dropped from *mask (warnings) or the call fails (errors). */
int sim_translate(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_space sp, const uint64_t *addr,
                  uint32_t *mask, uint32_t n, uint32_t align, uint8_t **ptr)
{
    uint32_t m = *mask, keep = m;
    uint64_t amask = (align & (align - 1)) == 0 ? align - 1 : 0;  /* a power of two: a mask, no division */
    /* The common case in one tight pass per space: every lane aligned and inside the shared
     * window, the global buffer the last access used (filled) or the kernel's parameters: one
     * unsigned compare of the lane's offset against the last start that fits n bytes, the flags
     * or'ed without a branch per lane. Any other lane: the full walk below, from the start (this
     * pass only wrote ptr[], as integers: a bad lane's pointer is never used). */
    if (amask || align == 1) {
        uintptr_t base = 0;
        uint64_t lo = 0, size = 0;
        bool fast = true;
        if (sp == WS_SPACE_SHARED) {
            base = (uintptr_t)c->shared;
            size = c->shared_bytes;
        } else if (sp == WS_SPACE_GLOBAL && m && (fast = last_region_at(c, addr[__builtin_ctz(m)]))) {
            const sim_region *r = &c->region[c->last_region];   /* the first lane's (a copy alternates two) */
            base = (uintptr_t)r->data;
            lo = r->base;
            size = r->size;
        } else if (sp == WS_SPACE_PARAM && w->depth == 0) {    /* the kernel's parameters: one buffer for all */
            base = (uintptr_t)c->param;
            size = c->param_bytes < w->frames[0].pbase ? c->param_bytes : w->frames[0].pbase;
        } else {
            fast = false;
        }
        if (fast && size >= n && size < (1ull << 62)) {
            uint64_t last = size - n, bad = 0;           /* offsets 0..last fit n bytes */
            if (m == 0xffffffffu) {
                /* a full warp without a compare per lane, so the compiler vectorises it: with
                 * last < 2^63, off > last exactly when off or last - off has bit 63 set */
                uint64_t any = 0, over = 0;
                for (int l = 0; l < 32; l++) {
                    uint64_t off = addr[l] - lo;         /* below the buffer: wraps past last */
                    any |= addr[l];
                    over |= off | (last - off);
                    ptr[l] = (uint8_t *)(base + (uintptr_t)off);
                }
                bad = (any & amask) | over >> 63;
            } else
                for (uint32_t mm = m; mm; mm &= mm - 1) {
                    int l = __builtin_ctz(mm);
                    uint64_t off = addr[l] - lo;
                    bad |= (addr[l] & amask) | (uint64_t)(off > last);
                    ptr[l] = (uint8_t *)(base + (uintptr_t)off);
                }
            if (!bad) return 0;
        }
    }
    const char *what = op_word(in->pi->op);
    while (m) {
        int l = __builtin_ctz(m);
        m &= m - 1;
        uint64_t a = addr[l];
        uint8_t *p = NULL;
        if (amask ? (a & amask) : (a % align)) {
            if (sim_mem_fault(c, w, in, l, WS_MEMERR_MISALIGNED, "%s %s of %u bytes at 0x%" PRIx64 " is misaligned (must be a multiple of %u)",
                              ws_space_name(sp), what, n, a, align)) return -1;
            keep &= ~(1u << l);
            continue;
        }
        switch (sp) {
        case WS_SPACE_GLOBAL:
            p = global_ptr(c, a, n);
            if (!p) {
                if (global_fault(c, w, in, l, a, n)) return -1;
            }
            break;
        case WS_SPACE_SHARED:
            if (a < c->shared_bytes && c->shared_bytes - a >= n) p = c->shared + a;
            else if (sim_mem_fault(c, w, in, l, WS_MEMERR_SHARED, "shared %s of %u bytes at offset 0x%" PRIx64 " is outside the block's %"
                                   PRIu64 " bytes of shared memory (%" PRIu64 " static + %" PRIu64 " dynamic)",
                                   what, n, a, c->shared_bytes, c->shared_static, c->shared_dynamic)) return -1;
            break;
        case WS_SPACE_LOCAL: {
            uint64_t top = w->frames[w->depth].local_top;   /* the running frame and its callers' */
            if (a < top && top - a >= n) p = w->local + (uint64_t)l * w->local_stride + a;
            else if (sim_mem_fault(c, w, in, l, WS_MEMERR_LOCAL, "local %s of %u bytes at offset 0x%" PRIx64 " is outside the thread's %"
                                   PRIu64 "-byte local frame%s", what, n, a, top, w->depth ? "s" : "")) return -1;
            break;
        }
        case WS_SPACE_CONST:
            if (a < c->const_bytes && c->const_bytes - a >= n) p = (uint8_t *)(uintptr_t)(c->cnst + a);
            else if (sim_mem_fault(c, w, in, l, WS_MEMERR_CONST, "const %s of %u bytes at offset 0x%" PRIx64 " is outside the module's %"
                                   PRIu64 " bytes of constant memory", what, n, a, c->const_bytes)) return -1;
            break;
        case WS_SPACE_PARAM: {
            const sim_frame *f = &w->frames[w->depth];
            if ((p = sim_param_ptr(c, w, f, l, a, n))) break;
            uint64_t size = w->depth ? f->pstride : f->pbase + f->pstride;
            if (sim_mem_fault(c, w, in, l, WS_MEMERR_PARAM, "param %s of %u bytes at offset 0x%" PRIx64 " is outside the %"
                              PRIu64 "-byte parameter %s", what, n, a, w->depth ? size : c->param_bytes,
                              w->depth ? "space of the called function" : "buffer")) return -1;
            break;
        }
        }
        if (!p) keep &= ~(1u << l);
        ptr[l] = p;
    }
    *mask = keep;
    return 0;
}

static void emit(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_space sp, uint32_t m, const uint64_t *addr,
                 uint32_t elem, uint32_t vec, uint32_t same)
{
    const ptx_insn *pi = in->pi;
    ws_mem_event ev;
    ev.seq = c->seq;
    ev.block_linear = c->block_linear;
    ev.block[0] = c->block[0]; ev.block[1] = c->block[1]; ev.block[2] = c->block[2];
    ev.warp = w->index;
    ev.warp_global = c->block_linear * c->nwarps + w->index;
    ev.pc = w->depth ? w->site_pc : (uint32_t)(in - c->prog.insns);  /* a called function's: its call site */
    ev.src_line = pi->src_line;
    ev.ptx_line = pi->ptx_line;
    ev.space = sp;
    ev.op = pi->op == PTX_ST ? WS_MEM_STORE : pi->op == PTX_ATOM ? WS_MEM_ATOMIC :
            pi->op == PTX_RED ? WS_MEM_REDUCE : WS_MEM_LOAD;
    ev.cache = cache_hint(pi->cache);
    ev.kind = WS_KIND_PLAIN;
    ev.part = 0;
    ev.dsmem = sp == WS_SPACE_SHARED ? c->dsmem_tag : 0;
    ev.atom_float = (uint8_t)((pi->op == PTX_ATOM || pi->op == PTX_RED) && pi->atomop == PTX_ATOM_ADD &&
                              ptx_type_is_float(pi->type));
    ev.width = (uint8_t)(elem * vec);
    ev.elem_size = (uint8_t)elem;
    ev.vec = (uint8_t)vec;
    ev.active_mask = m;
    ev.same_value_mask = same;
    if (m == 0xffffffffu) memcpy(ev.addr, addr, sizeof ev.addr);
    else for (int l = 0; l < 32; l++) ev.addr[l] = (m >> l & 1) ? addr[l] : 0;
    WS_ASSERT(ws_mem_event_check(&ev) == 0);
    c->cfg->listener(c->cfg->listener_ctx, &ev);
}

static inline uint64_t load_n(const uint8_t *p, uint32_t n)
{
    /* constant sizes for the usual widths: a memcpy of variable size is a library call */
    switch (n) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
    default: break;
    }
    uint64_t v = 0;
    memcpy(&v, p, n);                            /* little-endian host, like the GPU */
    return v;
}

/* Stores the low n bytes of x at p; true when that changed some byte. */
static inline bool store_n(uint8_t *p, uint64_t x, uint32_t n)
{
    uint64_t lo = n >= 8 ? x : x & ((1ull << (n * 8)) - 1);
    switch (n) {
    case 1: { bool ch = *p != (uint8_t)lo; *p = (uint8_t)lo; return ch; }
    case 2: { uint16_t v = (uint16_t)lo; bool ch = load_n(p, 2) != v; memcpy(p, &v, 2); return ch; }
    case 4: { uint32_t v = (uint32_t)lo; bool ch = load_n(p, 4) != v; memcpy(p, &v, 4); return ch; }
    case 8: { bool ch = load_n(p, 8) != lo; memcpy(p, &lo, 8); return ch; }
    default: break;
    }
    bool ch = memcmp(p, &x, n) != 0;
    memcpy(p, &x, n);
    return ch;
}

static uint64_t atom_apply(ptx_atomop op, ptx_type t, uint64_t old, uint64_t b, uint64_t cv)
{
    int bits = sim_bits(t);
    bool sgn = ptx_type_is_signed(t);
    switch (op) {
    case PTX_ATOM_ADD:
        if (t == PTX_T_F32) return sim_f32b(sim_f32(old) + sim_f32(b));
        if (t == PTX_T_F64) return sim_f64b(sim_f64(old) + sim_f64(b));
        if (t == PTX_T_F16) return sim_f2h((double)sim_h2f((uint16_t)old) + sim_h2f((uint16_t)b), PTX_RND_RN);
        if (t == PTX_T_BF16) return sim_f2bf((double)sim_bf2f((uint16_t)old) + sim_bf2f((uint16_t)b), PTX_RND_RN);
        if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {   /* two independent half adds */
            ptx_type h = t == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
            uint64_t lo = atom_apply(op, h, old & 0xffff, b & 0xffff, 0);
            uint64_t hi = atom_apply(op, h, (old >> 16) & 0xffff, (b >> 16) & 0xffff, 0);
            return (lo & 0xffff) | (hi & 0xffff) << 16;
        }
        return old + b;
    case PTX_ATOM_MIN: case PTX_ATOM_MAX: {
        bool mx = op == PTX_ATOM_MAX;
        if (t == PTX_T_F32) {
            float x = sim_f32(old), y = sim_f32(b);
            return sim_f32b(mx ? fmaxf(x, y) : fminf(x, y));
        }
        if (sgn) { int64_t x = sim_sext(old, bits), y = sim_sext(b, bits); return (uint64_t)((x < y) != mx ? x : y); }
        uint64_t x = sim_zext(old, bits), y = sim_zext(b, bits);
        return (x < y) != mx ? x : y;
    }
    case PTX_ATOM_INC: {
        uint64_t x = sim_zext(old, bits), y = sim_zext(b, bits);
        return x >= y ? 0 : x + 1;
    }
    case PTX_ATOM_DEC: {
        uint64_t x = sim_zext(old, bits), y = sim_zext(b, bits);
        return (x == 0 || x > y) ? y : x - 1;
    }
    case PTX_ATOM_AND: return old & b;
    case PTX_ATOM_OR: return old | b;
    case PTX_ATOM_XOR: return old ^ b;
    case PTX_ATOM_EXCH: return b;
    case PTX_ATOM_CAS: return sim_zext(old, bits) == sim_zext(b, bits) ? cv : old;
    default: return old;
    }
}

/* True when register slot r is named by an operand or guard of fn other than insn `self`'s
 * destination (a use or another write: either keeps the atomic's old value possibly observed). */
static bool slot_named(const ptx_function *fn, const ptx_insn *self, int r)
{
    for (int i = 0; i < fn->ninsns; i++) {
        const ptx_insn *pi = &fn->insns[i];
        if (pi->guard == r) return true;
        for (int k = pi == self ? 1 : 0; k < pi->nopnd; k++) {
            const ptx_operand *o = &pi->opnd[k];
            if ((o->kind == PTX_OPND_REG || (o->kind == PTX_OPND_MEM && o->base_kind == PTX_OPND_REG)) && o->reg == r)
                return true;
            if (o->kind == PTX_OPND_VEC) {
                for (int v = 0; v < o->vec_n && v < PTX_VEC_MAX; v++)
                    if (o->vec[v] == r) return true;
                for (int v = 0; v < o->wide_n; v++)
                    if (o->wide0 + v < fn->nwide && fn->wide[o->wide0 + v] == r) return true;
            }
        }
    }
    return false;
}

/* An atomic or reduction whose effect on memory does not depend on the order of the lanes' and
 * blocks' updates and whose old value nobody reads: integer add, min, max, and, or, xor of 4 or 8
 * bytes without acquire/release, a red or an atom whose destination no instruction names (nvcc
 * writes atomicAdd with the result unused as atom.global.add into a register nothing reads).
 * Float adds round differently in another order; inc/dec wrap at their operand; exch and cas
 * keep the last. Blocks with these may run on threads (interp_par.c), each update a host atomic. */
bool sim_red_commutes(const ptx_function *fn, const ptx_insn *pi)
{
    if ((pi->op != PTX_RED && pi->op != PTX_ATOM) || ptx_type_is_float(pi->type) || (pi->vec && pi->vec != 1) ||
        (pi->flags & (PTX_F_VOLATILE | PTX_F_ACQUIRE | PTX_F_RELEASE)))
        return false;
    int n = ptx_type_size(pi->type);
    if (n != 4 && n != 8)
        return false;
    switch (pi->atomop) {
    case PTX_ATOM_ADD: case PTX_ATOM_MIN: case PTX_ATOM_MAX: case PTX_ATOM_AND: case PTX_ATOM_OR: case PTX_ATOM_XOR:
        break;
    default:
        return false;
    }
    if (pi->op == PTX_ATOM)
        return pi->nopnd > 0 && (pi->opnd[0].kind == PTX_OPND_SINK ||
                                 (pi->opnd[0].kind == PTX_OPND_REG && !slot_named(fn, pi, pi->opnd[0].reg)));
    return true;
}

/* initcheck for init=none buffers: lane by lane in lane order, a read (load, or the old value
 * of an atomic) of a byte no thread has stored is reported (a fault, or a counted memcheck
 * error with the read going on to see the 0xCD poison); then a write marks its bytes. */
static int uninit_check(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m, const uint64_t *addr, uint32_t n)
{
    ptx_opcode op = in->pi->op;
    bool reads = op != PTX_ST, writes = op == PTX_ST || op == PTX_ATOM || op == PTX_RED;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        const sim_region *r = NULL;
        for (int i = 0; i < c->nregions && !r; i++)
            if (addr[l] >= c->region[i].base && addr[l] - c->region[i].base < c->region[i].size) r = &c->region[i];
        if (!r || !r->written) continue;
        uint64_t off = addr[l] - r->base;
        if (reads)
            for (uint64_t b = off; b < off + n; b++) {
                if (r->written[b / 8] >> (b % 8) & 1) continue;
                uint64_t t = (uint64_t)w->index * 32 + (uint64_t)l, bx = c->L->block[0], by = c->L->block[1];
                if (sim_mem_fault(c, w, in, l, WS_MEMERR_UNINIT, "uninitialised global %s of %u bytes at 0x%" PRIx64 " by thread (%" PRIu64
                                  ",%" PRIu64 ",%" PRIu64 "): byte %" PRIu64 " of buffer '%s' (init=none) was never "
                                  "written", op_word(op), n, addr[l], t % bx, t / bx % by, t / (bx * by), b, r->name))
                    return -1;
                break;
            }
        if (writes)
            for (uint64_t b = off; b < off + n; b++) {
                if (!(r->written[b / 8] >> (b % 8) & 1)) sim_progress(c);   /* initcheck's state changed */
                r->written[b / 8] |= (uint8_t)(1u << (b % 8));
            }
    }
    return 0;
}

/* One access of a single space by the lanes of m. */
static int mem_access(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_space sp, uint32_t m, const uint64_t *addr)
{
    const ptx_insn *pi = in->pi;
    uint64_t *F = w->file;
    uint32_t elem = (uint32_t)ptx_type_size(pi->type), vec = pi->vec ? pi->vec : 1, n = elem * vec;
    uint8_t *ptr[32];
    if (elem > 8) {
        char txt[160];
        ptx_format_insn(w->prog->fn, pi, txt, sizeof txt);
        return sim_fault(c, w, in, -1, WS_FAULT_UNSUPPORTED, "unsupported instruction '%s' (%u-byte elements)", txt, elem);
    }
    if ((pi->op == PTX_ATOM || pi->op == PTX_RED) && vec > 1) {
        /* atom.v2/.v4 (sm_90) has two vector operands; the decoder keeps one */
        char txt[160];
        ptx_format_insn(w->prog->fn, pi, txt, sizeof txt);
        return sim_fault(c, w, in, -1, WS_FAULT_UNSUPPORTED, "unsupported instruction '%s' (vector atomics)", txt);
    }
    if (sim_translate(c, w, in, sp, addr, &m, n, n, ptr)) return -1;
    if (!m) return 0;
    if (sp == WS_SPACE_SHARED && c->tc && sim_tc_check_shared(c, w, in, m, addr, n)) return -1; /* cp.async in flight */
    if (sp == WS_SPACE_GLOBAL && c->any_uninit && uninit_check(c, w, in, m, addr, n)) return -1;
    if (pi->op == PTX_ST && sp == WS_SPACE_SHARED && c->cfg->listener) {
        /* racecheck needs to know which lanes store what is already there: store lane by lane,
         * comparing first, then tell the listeners (they see addresses, never memory) */
        uint32_t same = 0;
        SIM_LANES(m, {
            bool eq = true;
            for (uint32_t i = 0; i < vec; i++) {
                const uint64_t *s = F + (vec == 1 ? in->src[1] : in->vec[i]);
                eq &= !store_n(ptr[l] + i * elem, s[l], elem);
            }
            same |= (uint32_t)eq << l;
        });
        if (c->sliced) {                         /* progress.c's slice: where a deciding load reads */
            uint32_t seen = in->watch & SIM_WATCH_KNOWN ? m & ~same : m;
            SIM_LANES(seen, sim_seen_write(c, sim_seen_key(c, w, sp, l, addr[l]), n));
        } else if (same != m) sim_progress(c);   /* some byte changed */
        emit(c, w, in, sp, m, addr, elem, vec, same);
        c->seq++;
        return 0;
    }
    if (sp <= WS_SPACE_LOCAL) {                  /* global, shared, local: one event each */
        if (c->cfg->listener) emit(c, w, in, sp, m, addr, elem, vec, 0);
        c->seq++;
    }

    switch (pi->op) {
    case PTX_LD: case PTX_LDU: {
        bool sgn = ptx_type_is_signed(pi->type);
        int eb = (int)elem * 8;
        if (vec == 1) {
            uint64_t *d = F + in->src[0];
            if (elem == 4 && !sgn) SIM_LANES(m, { uint32_t v; memcpy(&v, ptr[l], 4); d[l] = v; });
            else if (sgn) SIM_LANES(m, d[l] = (uint64_t)sim_sext(load_n(ptr[l], elem), eb));
            else SIM_LANES(m, d[l] = load_n(ptr[l], elem));
        } else {
            for (uint32_t i = 0; i < vec; i++) {
                uint64_t *d = F + in->vec[i];
                SIM_LANES(m, { uint64_t v = load_n(ptr[l] + i * elem, elem); d[l] = sgn ? (uint64_t)sim_sext(v, eb) : v; });
            }
        }
        if (c->sliced && in->watch & SIM_WATCH_READ) SIM_LANES(m, sim_seen_read(c, sim_seen_key(c, w, sp, l, addr[l]), n));
        return 0;
    }
    case PTX_ST: {
        /* a store of what is already there changes nothing: the progress watch may still see
           a loop that repeats it forever (progress.c) */
        bool changed = false;
        if (c->sliced) {                         /* progress.c's slice: lane by lane, where it lands */
            bool known = in->watch & SIM_WATCH_KNOWN;
            SIM_LANES(m, {
                bool ch = false;
                for (uint32_t i = 0; i < vec; i++)
                    ch |= store_n(ptr[l] + i * elem, F[(vec == 1 ? in->src[1] : in->vec[i]) + (uint32_t)l], elem);
                if (ch || !known) sim_seen_write(c, sim_seen_key(c, w, sp, l, addr[l]), n);
            });
            return 0;
        }
        if (vec == 1) {
            const uint64_t *s = F + in->src[1];
            SIM_LANES(m, changed |= store_n(ptr[l], s[l], elem));
        } else {
            for (uint32_t i = 0; i < vec; i++) {
                const uint64_t *s = F + in->vec[i];
                SIM_LANES(m, changed |= store_n(ptr[l] + i * elem, s[l], elem));
            }
        }
        if (changed) sim_progress(c);
        return 0;
    }
    case PTX_ATOM: case PTX_RED: {
        bool red = pi->op == PTX_RED;
        uint64_t *d = red ? NULL : F + in->src[0];
        const uint64_t *b = F + in->src[red ? 1 : 2], *cv = F + in->src[red ? 2 : 3];
        /* a global atomic with blocks on threads (interp_par.c lets only sim_red_commutes's
           through): the other threads' blocks update the same words, so each lane's update is one
           host atomic; the memory after the launch is the one-thread run's in any order */
        bool host_atomic = c->par && sp == WS_SPACE_GLOBAL;
        for (uint32_t mm = m; mm; mm &= mm - 1) {     /* lane order, one at a time */
            int l = __builtin_ctz(mm);
            uint64_t old = load_n(ptr[l], elem);
            uint64_t nv = atom_apply(pi->atomop, pi->type, old, b[l], cv[l]);
            bool done = false;
            if (host_atomic && elem == 4 && (uintptr_t)ptr[l] % 4 == 0) {
                uint32_t o32 = (uint32_t)old;
                while (!__atomic_compare_exchange_n((uint32_t *)(void *)ptr[l], &o32, (uint32_t)nv, false,
                                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                    nv = atom_apply(pi->atomop, pi->type, o32, b[l], cv[l]);
                old = o32;
                done = true;
            } else if (host_atomic && elem == 8 && (uintptr_t)ptr[l] % 8 == 0) {
                while (!__atomic_compare_exchange_n((uint64_t *)(void *)ptr[l], &old, nv, false,
                                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                    nv = atom_apply(pi->atomop, pi->type, old, b[l], cv[l]);
                done = true;
            }
            bool ch = sim_zext(nv, (int)elem * 8) != old;      /* a failed CAS changes nothing */
            if (c->sliced) {                     /* progress.c's slice */
                if (in->watch & SIM_WATCH_READ) sim_seen_read(c, sim_seen_key(c, w, sp, l, addr[l]), elem);
                if (ch || !(in->watch & SIM_WATCH_KNOWN)) sim_seen_write(c, sim_seen_key(c, w, sp, l, addr[l]), elem);
            } else if (ch) sim_progress(c);
            if (!done) memcpy(ptr[l], &nv, elem);
            if (d) d[l] = ptx_type_is_signed(pi->type) ? (uint64_t)sim_sext(old, (int)elem * 8) : old;
        }
        return 0;
    }
    default:
        return 0;
    }
}

static ws_space space_of(ptx_space s)
{
    switch (s) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: return WS_SPACE_SHARED;
    case PTX_SPACE_LOCAL: return WS_SPACE_LOCAL;
    case PTX_SPACE_CONST: return WS_SPACE_CONST;
    case PTX_SPACE_PARAM: return WS_SPACE_PARAM;
    default: return WS_SPACE_GLOBAL;
    }
}

/* A shared access whose lanes may name other blocks of the cluster (a .shared::cluster address,
 * or a generic one in the shared window, with a rank tag: interp_priv.h): the untagged lanes
 * access the block's own window; each tagged group runs on its target block's window (one event
 * per target block), as an access of distributed shared memory (mapa gives the block's own rank no
 * tag: exec_tc.c). */
static int shared_access(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m, uint64_t *addr)
{
    uint32_t own = 0;
    SIM_LANES(m, if (!SIM_DSMEM_TAG(addr[l])) own |= 1u << l);
    if (own && mem_access(c, w, in, WS_SPACE_SHARED, own, addr)) return -1;
    uint32_t rest = m & ~own;
    while (rest) {
        int l0 = __builtin_ctz(rest);
        uint32_t tag = SIM_DSMEM_TAG(addr[l0]), grp = 0;
        SIM_LANES(rest, if (SIM_DSMEM_TAG(addr[l]) == tag) { grp |= 1u << l; addr[l] = SIM_DSMEM_OFF(addr[l]); });
        rest &= ~grp;
        sim_block *t = sim_cluster_block(c, tag - 1);
        if (!t)
            return sim_fault(c, w, in, l0, WS_FAULT_KERNEL, "distributed shared memory access to block rank %u of the "
                             "cluster, which has %u block%s (ranks 0..%u)", tag - 1, c->cl_n, c->cl_n == 1 ? "" : "s",
                             c->cl_n - 1);
        if (t->done)
            return sim_fault(c, w, in, l0, WS_FAULT_KERNEL, "distributed shared memory access to block rank %u of the "
                             "cluster, which has exited: its shared memory is gone (CUDA C++ Programming Guide: "
                             "every block of the cluster must stay until the others' accesses are done, a "
                             "cluster.sync() before it exits)", tag - 1);
        uint8_t *sh = c->shared;
        struct sim_tc *tc = c->tc;
        c->shared = t->shared;
        c->tc = t->tc;
        c->dsmem_tag = (uint8_t)tag;
        int rc = mem_access(c, w, in, WS_SPACE_SHARED, grp, addr);
        c->shared = sh;
        c->tc = tc;
        c->dsmem_tag = 0;
        if (rc) return -1;
    }
    return 0;
}

/* The lanes' addresses base + disp, wrapped to the base register's width (keep: its mask). The
 * restrict pointers tell the compiler addr is not the register file, so a full warp vectorises. */
static inline void lane_addresses(uint64_t *restrict addr, const uint64_t *restrict base, uint64_t disp, uint64_t keep,
                                  uint32_t m)
{
    SIM_LANES(m, addr[l] = (base[l] + disp) & keep);
}

int sim_exec_mem(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    if (ptx_tc_op(pi->op)) return sim_exec_tc_mem(c, w, in, m); /* cp.async, ldmatrix, wmma: exec_tc.c */
    const uint64_t *F = w->file;
    uint64_t addr[32];
    uint64_t disp = in->mem_disp;
    if (in->mem_base >= 0) {
        lane_addresses(addr, F + in->mem_base, disp, in->mem_base_bits < 64 ? (1ull << in->mem_base_bits) - 1 : ~0ull, m);
    } else SIM_LANES(m, addr[l] = disp);

    if (pi->space == PTX_SPACE_LOCAL && w->depth) {
        /* .local addresses are the running frame's; generic ones (cvta.local) are the stack's */
        uint64_t base = w->frames[w->depth].local_base;
        SIM_LANES(m, addr[l] += base);
    }
    if (pi->space == PTX_SPACE_SHARED_CLUSTER) return shared_access(c, w, in, m, addr);
    if (pi->space != PTX_SPACE_NONE) return mem_access(c, w, in, space_of(pi->space), m, addr);

    /* generic: split the lanes by the window their address falls in */
    uint32_t gm = 0, sm = 0, lm = 0, cm = 0, pm = 0;
    SIM_LANES(m, {
        uint64_t a = addr[l];
        if (a - SIM_WIN_SHARED < SIM_WIN_SIZE) { sm |= 1u << l; addr[l] = a - SIM_WIN_SHARED; }
        else if (a - SIM_WIN_LOCAL < SIM_WIN_SIZE) { lm |= 1u << l; addr[l] = a - SIM_WIN_LOCAL; }
        else if (a - SIM_WIN_CONST < SIM_WIN_SIZE) { cm |= 1u << l; addr[l] = a - SIM_WIN_CONST; }
        else if (a - SIM_WIN_PARAM < SIM_WIN_SIZE) { pm |= 1u << l; addr[l] = a - SIM_WIN_PARAM; }
        else gm |= 1u << l;
    });
    if (gm && mem_access(c, w, in, WS_SPACE_GLOBAL, gm, addr)) return -1;
    if (sm && shared_access(c, w, in, sm, addr)) return -1;
    if (lm && mem_access(c, w, in, WS_SPACE_LOCAL, lm, addr)) return -1;
    if (cm && mem_access(c, w, in, WS_SPACE_CONST, cm, addr)) return -1;
    if (pm && mem_access(c, w, in, WS_SPACE_PARAM, pm, addr)) return -1;
    return 0;
}

uint8_t *sim_param_ptr(sim_ctx *c, const sim_warp *w, const sim_frame *f, int l, uint64_t a, uint64_t n)
{
    if (f == &w->frames[0] && a < f->pbase)      /* the kernel's own parameters: one buffer for all */
        return a <= c->param_bytes && c->param_bytes - a >= n ? c->param + a : NULL;
    if (a < f->pbase) return NULL;
    uint64_t o = a - f->pbase;
    if (o > f->pstride || f->pstride - o < n) return NULL;
    return f->pbuf + (uint64_t)l * f->pstride + o;
}

uint8_t *sim_generic_ptr(sim_ctx *c, const sim_warp *w, int l, uint64_t a, uint64_t n)
{
    if (a - SIM_WIN_SHARED < SIM_WIN_SIZE) {
        a -= SIM_WIN_SHARED;
        return a <= c->shared_bytes && c->shared_bytes - a >= n ? c->shared + a : NULL;
    }
    if (a - SIM_WIN_LOCAL < SIM_WIN_SIZE) {
        a -= SIM_WIN_LOCAL;
        uint64_t top = w->frames[w->depth].local_top;
        return a <= top && top - a >= n ? w->local + (uint64_t)l * w->local_stride + a : NULL;
    }
    if (a - SIM_WIN_CONST < SIM_WIN_SIZE) {
        a -= SIM_WIN_CONST;
        return a <= c->const_bytes && c->const_bytes - a >= n ? (uint8_t *)(uintptr_t)(c->cnst + a) : NULL;
    }
    if (a - SIM_WIN_PARAM < SIM_WIN_SIZE)
        return sim_param_ptr(c, w, &w->frames[w->depth], l, a - SIM_WIN_PARAM, n);
    return n <= UINT32_MAX ? global_ptr(c, a, (uint32_t)n) : NULL;
}
