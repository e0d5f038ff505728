/* exec_bulk.c - bulk copies (the TMA unit): cp.async.bulk (1-D, global -> shared with mbarrier
 * completion, shared -> global in bulk groups) and cp.async.bulk.tensor (tile mode, 1-D to
 * 5-D, through a tensor map; common/tmap.h).
 *
 * Model: each active lane's copy happens when it issues, and then performs complete_tx of its
 * bytes on its mbarrier; the PTX ISA lets the copy land any time before that phase completes,
 * so this is one behaviour the hardware may show. The shared bytes it wrote stay in flight
 * until some thread's test/try_wait has seen that phase of the mbarrier end: a shared access to
 * them before then faults, naming the copy (exec_tc.c). Stores to global complete at issue, so bulk commit/wait_group have nothing to do.
 * A tensor copy moves the box at the coordinates the instruction gives: element (i4..i0) of the
 * box comes from tensor element (c + i) when every index lies inside the tensor's dimensions,
 * else it is the map's fill (zero or NaN); in shared memory the box is dense, innermost index
 * fastest, and then its 16-byte chunks are moved by the map's swizzle on the address bits
 * (ws_tmap_swizzle). Its transaction count is the whole box, filled elements included.
 * The map is a kernel parameter (__grid_constant__), a __constant__ variable, or 128 bytes of
 * global memory reached through a pointer (`const CUtensorMap *`, a buffer init=tmap(NAME)).
 * Invariant: every shared byte of a copied box is written once; an element whose global bytes
 * fault (a counted warning under --memcheck) reads as the fill. */
#include "exec_tc.h"
#include "../../common/tmap.h"

#include <inttypes.h>
#include <stdlib.h>

/* One lane's address as a one-lane array for sim_translate. */
static int one(sim_ctx *c, sim_warp *w, const sim_insn *in, int l, ws_space sp, uint64_t a, uint64_t n, uint32_t align,
               uint8_t **p)
{
    uint64_t addr[32];
    uint8_t *ptr[32];
    uint32_t m = 1u << l;
    if (n > UINT32_MAX) return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "a bulk copy of %" PRIu64 " bytes is too large", n);
    addr[l] = a;
    if (sim_translate(c, w, in, sp, addr, &m, (uint32_t)n, align, ptr)) return -1;
    *p = m ? ptr[l] : NULL;
    return 0;
}

/* A shared::cluster / shared::cta address of this block as an offset in its shared window. */
static uint64_t shared_offset(uint64_t a)
{
    return a - SIM_WIN_SHARED < SIM_WIN_SIZE ? a - SIM_WIN_SHARED : a;
}

/* The blocks a copy to shared memory lands in, as rank tags (interp_priv.h: 1 + rank, 0 = this
 * block): its destination's, or with .multicast::cluster every rank of lane l's 16-bit ctaMask
 * (operand 4), in rank order. The PTX ISA puts a copy's mbarrier in its destination's block, and
 * a multicast's box and mbarrier signal at the same block-relative offsets in every block it names. */
static int targets(sim_ctx *c, sim_warp *w, const sim_insn *in, int l, uint64_t dst, uint64_t mbar, uint32_t *tags,
                   int *n)
{
    if (!(in->pi->tc.flags & PTX_TC_MULTICAST)) {
        uint32_t td = SIM_DSMEM_TAG(dst), tm = SIM_DSMEM_TAG(mbar), me = c->blk ? c->blk->rank : 0;
        uint32_t rd = td ? td - 1 : me, rm = tm ? tm - 1 : me;   /* untagged: the executing block */
        if (rd != rm)
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "the copy's destination is in block rank %u of the cluster and its "
                             "mbarrier in block rank %u: the PTX ISA wants both in the same block", rd, rm);
        tags[0] = td;
        *n = 1;
        return 0;
    }
    uint64_t mask = w->file[in->src[4] + (uint32_t)l] & 0xffff;
    if (!mask)
        return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "a .multicast::cluster copy with ctaMask 0 lands in no block");
    if (mask >> c->cl_n)
        return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "ctaMask 0x%04x names block rank %d of the cluster, which has %u "
                         "block%s (ranks 0..%u)%s", (unsigned)mask, 63 - __builtin_clzll(mask), c->cl_n,
                         c->cl_n == 1 ? "" : "s", c->cl_n - 1,
                         c->cl_explicit ? "" : "; without a cluster launch every block is a cluster of one");
    *n = 0;
    for (uint64_t mm = mask; mm; mm &= mm - 1) tags[(*n)++] = (uint32_t)__builtin_ctzll(mm) + 1;
    return 0;
}

static int bulk_1d(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    bool store = pi->tc.flags & PTX_TC_TO_GLOBAL;
    uint64_t dst[32], src[32], mb[32];
    sim_addr d1 = sim_tc_mem1(in);
    sim_tc_addr(w, &d1, m, dst);
    sim_tc_addr(w, &in->more[0], m, src);
    if (!store) sim_tc_addr(w, &in->more[1], m, mb);
    const uint64_t *size = w->file + in->src[2];
    uint32_t pc = (uint32_t)(in - c->prog.insns);
    for (uint32_t mm = m; mm; mm &= mm - 1) {     /* every active lane issues its own copy */
        int l = __builtin_ctz(mm);
        c->copy_lane = l;
        uint64_t n = (uint32_t)size[l];
        if (n == 0 || n % 16)
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "cp.async.bulk of %" PRIu64 " bytes: the size must be a positive multiple of 16", n);
        uint8_t *pd, *ps, *pm = NULL;
        if (store) {
            uint64_t d = dst[l], s = shared_offset(src[l]);
            if (one(c, w, in, l, WS_SPACE_GLOBAL, d, n, 16, &pd)) return -1;
            if (one(c, w, in, l, WS_SPACE_SHARED, s, n, 16, &ps)) return -1;
            if (!pd || !ps) continue;                              /* faulted as a counted warning */
            if (c->tc) {
                uint64_t a[32];
                a[l] = s;
                if (sim_tc_check_shared(c, w, in, 1u << l, a, (uint32_t)n)) return -1;
            }
            memmove(pd, ps, n);
            sim_tc_emit_copy(c, w, in, WS_KIND_BULK, WS_SPACE_SHARED, NULL, s, WS_SPACE_GLOBAL, NULL, d, n);
            continue;
        }
        uint64_t d = shared_offset(dst[l]), mo = shared_offset(mb[l]), s = src[l];
        uint32_t tags[16];
        int nt;
        if (targets(c, w, in, l, d, mo, tags, &nt)) return -1;
        d = SIM_DSMEM_OFF(d);
        mo = SIM_DSMEM_OFF(mo);
        if (one(c, w, in, l, WS_SPACE_GLOBAL, s, n, 16, &ps)) return -1;
        if (!ps) continue;
        for (int k = 0; k < nt; k++) {                            /* one read, a write in each block */
            sim_tc_view v;
            if (sim_tc_enter(c, w, in, l, tags[k], &v)) return -1;
            int rc = one(c, w, in, l, WS_SPACE_SHARED, d, n, 16, &pd);
            if (!rc) rc = one(c, w, in, l, WS_SPACE_SHARED, mo, 8, 8, &pm);
            if (!rc && pd && pm) {
                memmove(pd, ps, n);
                sim_tc_emit_copy_sides(c, w, in, WS_KIND_BULK, WS_SPACE_GLOBAL, NULL, s, WS_SPACE_SHARED, NULL, d, n,
                                       k == 0 ? 3 : 2, nt);
                if (sim_tc_mark_bulk(c, d, n, mo, pc))
                    rc = sim_fault(c, w, in, l, WS_FAULT_KERNEL, "out of memory tracking a bulk copy");
                else
                    rc = sim_tc_complete_tx(c, w, in, l, pm, mo, (int64_t)n);
            }
            sim_tc_leave(c, &v);
            if (rc) return -1;
        }
    }
    return 0;
}

/* The NaN of an element of the map's size (the canonical quiet NaN of f16, f32, f64). */
static void fill_value(const ws_tmap *t, uint8_t *out)
{
    memset(out, 0, (size_t)t->elem_size);
    if (!t->fill_nan) return;
    uint64_t v = t->elem_size == 2 ? 0x7fff : t->elem_size == 4 ? 0x7fffffff : 0x7fffffffffffffffull;
    memcpy(out, &v, (size_t)t->elem_size);
}

/* One destination of a tensor copy (lane l, map t at global base, coordinates crd): the box between
 * global memory and the shared window c->shared (the block sim_tc_enter chose) at offset so; a load
 * completes its bytes on the mbarrier at mo there. sides: the events to emit, copies: the blocks the
 * copy lands in (sim_tc_emit_copy_sides). */
static int box_copy(sim_ctx *c, sim_warp *w, const sim_insn *in, int l, const ws_tmap *t, uint64_t base,
                    const int64_t *crd, uint64_t elems, uint64_t bytes, uint64_t so, uint64_t mo, bool store, int sides,
                    int copies, uint32_t pc)
{
    uint8_t *ps, *pm = NULL;
    if (one(c, w, in, l, WS_SPACE_SHARED, so, bytes, 128, &ps)) return -1;
    if (!store && one(c, w, in, l, WS_SPACE_SHARED, mo, 8, 8, &pm)) return -1;
    if (!ps || (!store && !pm)) return 0;                 /* faulted as a counted warning */
    uint64_t nch = bytes / 16;                               /* box[0] * size is a multiple of 16 */
    uint64_t *gch = malloc(nch * sizeof *gch), *sch = malloc(nch * sizeof *sch);
    if (!gch || !sch) {
        free(gch);
        free(sch);
        return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "out of memory for a tensor copy");
    }
    uint8_t fill[8];
    fill_value(t, fill);
    int rc = 0;
    uint32_t per_chunk = 16 / (uint32_t)t->elem_size;
    for (uint64_t e = 0; e < elems && !rc; e++) {
        /* box index of element e, innermost fastest, and its tensor element */
        uint64_t rest = e, goff = 0;
        bool inside = true;
        for (int d = 0; d < t->rank; d++) {
            int64_t g = crd[d] + (int64_t)(rest % t->box[d]);
            rest /= t->box[d];
            if (g < 0 || (uint64_t)g >= t->dims[d]) inside = false;
            else goff += (uint64_t)g * t->strides[d];
        }
        uint64_t sa = ws_tmap_swizzle(so + e * (uint64_t)t->elem_size, t->swizzle);
        uint8_t *sp = c->shared + sa, *gp = NULL;
        if (sa + (uint64_t)t->elem_size > c->shared_bytes) { rc = sim_fault(c, w, in, l, WS_FAULT_KERNEL, "internal: swizzled box left shared memory"); break; }
        if (inside && (rc = one(c, w, in, l, WS_SPACE_GLOBAL, base + goff, (uint64_t)t->elem_size,
                                (uint32_t)t->elem_size, &gp)))
            break;
        if (e % per_chunk == 0) {
            gch[e / per_chunk] = inside ? base + goff : SIM_TC_NO_CHUNK;
            sch[e / per_chunk] = sa;
        } else if (inside && gch[e / per_chunk] == SIM_TC_NO_CHUNK) {
            gch[e / per_chunk] = base + goff - (e % per_chunk) * (uint64_t)t->elem_size; /* the row enters here */
        }
        if (store) {
            if (inside && gp) memcpy(gp, sp, (size_t)t->elem_size);   /* out-of-bound elements are not written */
        } else {
            memcpy(sp, inside && gp ? gp : fill, (size_t)t->elem_size);
        }
    }
    if (!rc) {
        sim_tc_emit_copy_sides(c, w, in, WS_KIND_TMA, store ? WS_SPACE_SHARED : WS_SPACE_GLOBAL, store ? sch : gch, 0,
                               store ? WS_SPACE_GLOBAL : WS_SPACE_SHARED, store ? gch : sch, 0, bytes, sides, copies);
        if (!store) {
            for (uint64_t k = 0; k < nch && !rc; k++)
                if (sim_tc_mark_bulk(c, sch[k], 16, mo, pc)) rc = sim_fault(c, w, in, l, WS_FAULT_KERNEL, "out of memory tracking a copy");
            if (!rc) rc = sim_tc_complete_tx(c, w, in, l, pm, mo, (int64_t)bytes);
        }
    }
    free(gch);
    free(sch);
    return rc ? -1 : 0;
}

/* The region (buffer) holding global address a, for messages; NULL when none does. */
static const char *region_name(const sim_ctx *c, uint64_t a)
{
    for (int i = 0; i < c->nregions; i++)
        if (a >= c->region[i].base && a - c->region[i].base < c->region[i].size) return c->region[i].name;
    return NULL;
}

/* Lane l's tensor map at address a: a __grid_constant__ parameter (generic address in the
 * parameter window, or a .param offset), a __constant__ one, or one passed by pointer (a generic
 * or global address of 128 bytes aligned to 64, CUtensorMap's alignment: a buffer declared
 * init=tmap(NAME)). The PTX ISA allows the .param, .const and .global spaces for the operand. */
static int read_map(sim_ctx *c, sim_warp *w, const sim_insn *in, int l, uint64_t a, ws_tmap *t, uint64_t *base)
{
    const uint8_t *p = NULL;
    bool global = false;
    if (a - SIM_WIN_PARAM < SIM_WIN_SIZE || a < WS_GLOBAL_BASE) {          /* the kernel's parameters */
        uint64_t ma = a - SIM_WIN_PARAM < SIM_WIN_SIZE ? a - SIM_WIN_PARAM : a;
        if (ma + WS_TMAP_BYTES <= c->param_bytes && ma % 64 == 0) p = c->param + ma;
    } else if (a - SIM_WIN_CONST < SIM_WIN_SIZE) {                          /* a __constant__ map */
        uint64_t ma = a - SIM_WIN_CONST;
        if (ma + WS_TMAP_BYTES <= c->const_bytes && ma % 64 == 0) p = c->cnst + ma;
    } else {                                                                /* by pointer */
        global = true;
        if (a % 64)
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "the tensor map pointer 0x%" PRIx64 " is not aligned to 64 bytes "
                             "(%" PRIu64 " past a 64-byte boundary%s%s%s), as a CUtensorMap must be", a, a % 64,
                             region_name(c, a) ? ", in buffer '" : "", region_name(c, a) ? region_name(c, a) : "",
                             region_name(c, a) ? "'" : "");
        uint8_t *g;
        if (one(c, w, in, l, WS_SPACE_GLOBAL, a, WS_TMAP_BYTES, 64, &g)) return -1;
        if (!g)
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "the tensor map pointer 0x%" PRIx64 " points at no 128 bytes of "
                             "a buffer", a);
        p = g;
    }
    if (p && !ws_tmap_from_image(p, t, base)) return 0;
    if (global)
        return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "the 128 bytes at 0x%" PRIx64 " (buffer '%s') hold no tensor map: "
                         "declare that buffer with init=tmap(NAME) to pass a tmap line's map by pointer", a,
                         region_name(c, a) ? region_name(c, a) : "?");
    return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "the tensor map at 0x%" PRIx64 " is not one: pass a tensor map the "
                     "description declares (tmap) as a __grid_constant__ CUtensorMap parameter, or by pointer to a "
                     "buffer declared init=tmap(NAME)", a);
}

static int bulk_tensor(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    bool store = pi->tc.flags & PTX_TC_TO_GLOBAL;
    const ptx_operand *co = &pi->opnd[store ? 1 : 2];
    uint64_t sh[32], map[32], mb[32];
    sim_addr a0 = sim_tc_mem1(in);
    sim_tc_addr(w, store ? &in->more[0] : &a0, m, sh);            /* the shared side */
    sim_tc_addr(w, store ? &a0 : &in->more[0], m, map);
    if (!store) sim_tc_addr(w, &in->more[1], m, mb);
    uint32_t pc = (uint32_t)(in - c->prog.insns);
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        ws_tmap t;
        uint64_t base;
        if (read_map(c, w, in, l, map[l], &t, &base)) return -1;
        if (t.rank != pi->tc.dims)
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "a .%dd copy through a %d-D tensor map", pi->tc.dims, t.rank);
        int64_t crd[WS_TMAP_MAX_RANK] = {0};
        for (int d = 0; d < t.rank; d++) crd[d] = (int32_t)w->file[sim_tc_elem(c, co, d) + l];
        uint64_t elems = 1;
        for (int d = 0; d < t.rank; d++) elems *= t.box[d];
        uint64_t bytes = elems * (uint64_t)t.elem_size, so = shared_offset(sh[l]);
        uint64_t mo = store ? 0 : shared_offset(mb[l]);
        uint32_t tags[16] = {0};
        int nt = 1;
        if (!store) {
            if (targets(c, w, in, l, so, mo, tags, &nt)) return -1;
            so = SIM_DSMEM_OFF(so);
            mo = SIM_DSMEM_OFF(mo);
        }
        for (int k = 0; k < nt; k++) {                           /* a multicast: the box in each block */
            sim_tc_view v;
            if (sim_tc_enter(c, w, in, l, tags[k], &v)) return -1;
            int rc = box_copy(c, w, in, l, &t, base, crd, elems, bytes, so, mo, store, k == 0 ? 3 : 2, nt, pc);
            sim_tc_leave(c, &v);
            if (rc) return -1;
        }
    }
    return 0;
}

int sim_exec_bulk(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    if (in->pi->tc.flags & PTX_TC_PREFETCH) return 0;            /* a hint: no effect on the model */
    return in->pi->op == PTX_CP_BULK_TENSOR ? bulk_tensor(c, w, in, m) : bulk_1d(c, w, in, m);
}
