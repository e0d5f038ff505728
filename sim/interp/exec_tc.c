/* exec_tc.c - the tensor-era instructions' dispatch and their asynchronous side: cp.async and
 * its groups (commit_group, wait_group, wait_all, cp.async.mbarrier.arrive) and mbarrier
 * objects (init, arrive, expect_tx, complete_tx, test/try_wait, phase parity).
 *
 * Model: a cp.async copies its bytes when it issues (the PTX ISA lets the copy complete at any
 * time before the wait that covers it, so an in-order simulator may complete it at once). What
 * that hides, a kernel that reads a destination before waiting, is caught instead: every shared
 * byte a copy wrote remembers the warp and group that wrote it until that warp's wait covers the
 * group, and any shared access to such a byte faults, naming the copy.
 * Invariant: groups are per warp (the lanes of a warp commit and wait together); group g of warp
 * w is complete exactly when g < done[w]; open[w] is the group new copies join.
 *
 * mbarrier: its 8 bytes of shared memory hold the state (sim_mbar below), so bounds, alignment
 * and the 0xCD poison apply to it as to any shared word; every lane arrives on its own, in lane
 * order. A phase completes when the pending arrivals and the transaction count both reach 0. */
#include "exec_tc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

enum { TC_RANGES = 8 };  /* groups per warp whose byte ranges are kept (tc_warp.lo/hi) */

typedef struct {
    uint32_t open;        /* the group new cp.async join (commits so far) */
    uint32_t done;        /* groups below this are complete */
    uint32_t last;        /* highest group holding a copy */
    bool has;             /* some copy issued in this block */
    /* the shared bytes [lo, hi) each of the last TC_RANGES groups wrote, slot g % TC_RANGES holding
       group rgroup (+ 1; 0 = none): sim_tc_check_shared's quick answer where no access touches them */
    uint64_t lo[TC_RANGES], hi[TC_RANGES];
    uint32_t rgroup[TC_RANGES];
} tc_warp;

struct sim_tc {
    uint64_t shared_bytes;
    uint8_t *owner;       /* per shared byte: 1 + the warp whose cp.async wrote it, 0 none */
    uint32_t *group;      /* per shared byte: that copy's group */
    uint32_t *pc;         /* per shared byte: that copy's instruction */
    uint32_t nwarps;
    tc_warp *warp;
    uint32_t pending_warps; /* warps with a copy not yet waited for: 0 = nothing to check */
    bool bulk;            /* a bulk copy wrote shared memory in this block (owner BULK_OWNER) */
    struct {              /* the block's mbarriers, for the bulk copies that complete on them */
        uint64_t off;         /* shared offset */
        uint32_t completed;   /* phases completed since its init */
        uint32_t observed;    /* phases a test/try_wait of some thread has seen complete */
        uint32_t init_warp;   /* 1 + the warp whose mbarrier.init set it up, 0 = none yet */
        uint32_t init_phases; /* the block's bar_phases at that init */
        int init_line;        /* its .cu line */
    } mbar[32];
    int nmbar;
};

#define BULK_OWNER 0xff   /* owner of bytes a bulk copy wrote: group = mbarrier slot << 24 | the phase
                             (completions before it) it completes */

/* ---- shared helpers (exec_tc.h) ------------------------------------------------------- */

int sim_tc_refuse(sim_ctx *c, sim_warp *w, const sim_insn *in, const char *why)
{
    char txt[200];
    ptx_format_insn(c->fn, in->pi, txt, sizeof txt);
    return sim_fault(c, w, in, -1, WS_FAULT_UNSUPPORTED, "unsupported instruction '%s': %s", txt, why);
}

sim_addr sim_tc_mem1(const sim_insn *in)
{
    return (sim_addr){in->mem_base, in->mem_base_bits, in->mem_disp};
}

void sim_tc_addr(const sim_warp *w, const sim_addr *a, uint32_t m, uint64_t *addr)
{
    if (a->base >= 0) {
        const uint64_t *base = w->file + a->base;
        if (a->base_bits < 64) SIM_LANES(m, addr[l] = sim_zext(base[l] + a->disp, a->base_bits));
        else SIM_LANES(m, addr[l] = base[l] + a->disp);
    } else {
        SIM_LANES(m, addr[l] = a->disp);
    }
}

int sim_tc_shared_addr(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m, uint64_t *addr)
{
    if (in->pi->space == PTX_SPACE_SHARED) return 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        if (addr[l] - SIM_WIN_SHARED >= SIM_WIN_SIZE)
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "generic address 0x%" PRIx64 " is not in shared memory (this instruction "
                             "addresses shared memory only)", addr[l]);
        addr[l] -= SIM_WIN_SHARED;
    }
    return 0;
}

uint32_t sim_tc_elem(const sim_ctx *c, const ptx_operand *o, int e)
{
    if (o->kind == PTX_OPND_REG) return (uint32_t)o->reg * 32;
    if (o->kind == PTX_OPND_VEC && e < o->vec_n && o->vec[e] >= 0) return (uint32_t)o->vec[e] * 32;
    return c->prog.scratch_off;
}

/* One event; zfill, gline: its zfill_copy_mask and gline (event.h: a cp.async's shared write), NULL gline: none. */
static void emit(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_space sp, ws_mem_op op, ws_mem_kind kind,
                 uint32_t m, const uint64_t *addr, uint32_t width, uint32_t part, uint32_t zfill, const uint8_t *gline,
                 const uint8_t *gsector, int copies)
{
    if (!m) return;
    if (c->cfg->listener) {
        const ptx_insn *pi = in->pi;
        ws_mem_event ev;
        memset(&ev, 0, sizeof ev);
        ev.seq = c->seq;
        ev.block_linear = c->block_linear;
        ev.block[0] = c->block[0]; ev.block[1] = c->block[1]; ev.block[2] = c->block[2];
        ev.warp = w->index;
        ev.warp_global = c->block_linear * c->nwarps + w->index;
        ev.pc = (uint32_t)(in - c->prog.insns);
        ev.src_line = pi->src_line;
        ev.ptx_line = pi->ptx_line;
        ev.space = sp;
        ev.op = op;
        ev.cache = pi->cache == PTX_CACHE_CG || kind == WS_KIND_BULK || kind == WS_KIND_TMA ? WS_CACHE_CG /* TMA: no L1 */
                 : pi->cache == PTX_CACHE_CA ? WS_CACHE_CA : WS_CACHE_DEFAULT;
        ev.kind = kind;
        ev.part = part;
        ev.copies = (uint8_t)copies;
        ev.issue_lane = kind == WS_KIND_BULK ? (uint8_t)c->copy_lane : 0;
        ev.width = (uint8_t)width;
        ev.elem_size = (uint8_t)(width > 8 ? 4 : width);
        ev.vec = (uint8_t)(width > 8 ? width / 4 : 1);
        ev.active_mask = m;
        ev.dsmem = sp == WS_SPACE_SHARED ? c->dsmem_tag : 0;   /* another block's window (sim_tc_enter) */
        ev.zfill_copy_mask = zfill & m;
        if (gline) memcpy(ev.gline, gline, 32);
        else memset(ev.gline, 0xff, 32);
        if (gsector) memcpy(ev.gsector, gsector, 32);
        SIM_LANES(m, ev.addr[l] = addr[l]);
        WS_ASSERT(ws_mem_event_check(&ev) == 0);
        c->cfg->listener(c->cfg->listener_ctx, &ev);
    }
    c->seq++;
}

void sim_tc_emit_part(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_space sp, ws_mem_op op, ws_mem_kind kind,
                      uint32_t m, const uint64_t *addr, uint32_t width, uint32_t part)
{
    emit(c, w, in, sp, op, kind, m, addr, width, part, 0, NULL, NULL, 1);
}

void sim_tc_emit(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_space sp, ws_mem_op op, ws_mem_kind kind,
                 uint32_t m, const uint64_t *addr, uint32_t width)
{
    sim_tc_emit_part(c, w, in, sp, op, kind, m, addr, width, 0);
}

void sim_tc_emit_copy(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_mem_kind kind, ws_space ss,
                      const uint64_t *src_chunk, uint64_t src, ws_space ds, const uint64_t *dst_chunk, uint64_t dst,
                      uint64_t n)
{
    sim_tc_emit_copy_sides(c, w, in, kind, ss, src_chunk, src, ds, dst_chunk, dst, n, 3, 1);
}

void sim_tc_emit_copy_sides(sim_ctx *c, sim_warp *w, const sim_insn *in, ws_mem_kind kind, ws_space ss,
                            const uint64_t *src_chunk, uint64_t src, ws_space ds, const uint64_t *dst_chunk, uint64_t dst,
                            uint64_t n, int sides, int copies)
{
    uint64_t chunks = (n + 15) / 16;
    for (int side = 0; side < 2; side++)         /* the source's events, then the destination's */
        for (uint64_t k0 = 0; k0 < chunks && (sides >> side & 1); k0 += 32) {
            uint64_t addr[32];
            uint32_t m = 0;
            for (int l = 0; l < 32 && k0 + (uint64_t)l < chunks; l++) {
                uint64_t k = k0 + (uint64_t)l;
                const uint64_t *ch = side == 0 ? src_chunk : dst_chunk;
                uint64_t a = ch ? ch[k] : (side == 0 ? src : dst) + 16 * k;
                if (a == SIM_TC_NO_CHUNK) continue;   /* out of the tensor's bounds: nothing moves there */
                addr[l] = a;
                m |= 1u << l;
            }
            emit(c, w, in, side == 0 ? ss : ds, side == 0 ? WS_MEM_LOAD : WS_MEM_STORE, kind, m, addr, 16,
                 (uint32_t)(k0 / 32), 0, NULL, NULL, side == 0 ? copies : 1);
        }
}

int sim_tc_enter(sim_ctx *c, sim_warp *w, const sim_insn *in, int lane, uint32_t tag, sim_tc_view *save)
{
    *save = (sim_tc_view){c->shared, c->tc, c->blk, c->dsmem_tag};
    if (!tag) return 0;
    sim_block *t = sim_cluster_block(c, tag - 1);
    if (!t)
        return sim_fault(c, w, in, lane, WS_FAULT_KERNEL, "distributed shared memory access to block rank %u of the "
                         "cluster, which has %u block%s (ranks 0..%u)", tag - 1, c->cl_n, c->cl_n == 1 ? "" : "s",
                         c->cl_n - 1);
    if (t->done)
        return sim_fault(c, w, in, lane, WS_FAULT_KERNEL, "distributed shared memory access to block rank %u of the "
                         "cluster, which has exited: its shared memory is gone (a cluster.sync() before it exits)",
                         tag - 1);
    if (t == c->blk) return 0;
    c->shared = t->shared;
    c->tc = t->tc;
    c->blk = t;
    c->dsmem_tag = (uint8_t)tag;
    return 0;
}

void sim_tc_leave(sim_ctx *c, const sim_tc_view *save)
{
    c->shared = save->shared;
    c->tc = save->tc;
    c->blk = save->blk;
    c->dsmem_tag = save->tag;
}

/* ---- the asynchronous side's record (interp.h ws_async_event, for the visualizer) ---------- */

/* One ws_async_event of kind k by warp w (NULL: none known, a bulk copy's completion) at in; the
 * caller fills the kind's fields into *e first. */
static void async_note(sim_ctx *c, const sim_warp *w, const sim_insn *in, ws_async_kind k, ws_async_event *e)
{
    if (!c->cfg->on_async) return;
    e->kind = k;
    e->seq = c->seq;
    e->block_linear = c->block_linear;
    e->warp = w ? w->index : 0;
    if (in) {
        e->pc = (uint32_t)(in - c->prog.insns);
        e->src_line = in->pi->src_line;
        e->ptx_line = in->pi->ptx_line;
    }
    c->cfg->on_async(c->cfg->async_ctx, e);
}

/* ---- cp.async and its groups --------------------------------------------------------- */

static struct sim_tc *tc_state(sim_ctx *c)
{
    if (c->tc) return c->tc;
    struct sim_tc *t = calloc(1, sizeof *t);
    uint64_t n = c->shared_bytes ? c->shared_bytes : 1;
    if (t) {
        t->shared_bytes = c->shared_bytes;
        t->owner = calloc(n, 1);
        t->group = calloc(n, sizeof *t->group);
        t->pc = calloc(n, sizeof *t->pc);
        t->nwarps = c->nwarps;
        t->warp = calloc(c->nwarps ? c->nwarps : 1, sizeof *t->warp);
    }
    if (!t || !t->owner || !t->group || !t->pc || !t->warp) {
        c->tc = t;
        sim_tc_free(c);
        return NULL;
    }
    c->tc = t;
    if (c->blk) c->blk->tc = t;   /* each block its own: a cooperative grid interleaves them */
    return t;
}

void sim_tc_block_start(sim_ctx *c)
{
    struct sim_tc *t = c->tc;
    memset(t->owner, 0, t->shared_bytes ? t->shared_bytes : 1);
    memset(t->warp, 0, (t->nwarps ? t->nwarps : 1) * sizeof *t->warp);
    t->pending_warps = 0;
    t->bulk = false;
    t->nmbar = 0;
}

void sim_tc_free(sim_ctx *c)
{
    if (!c->tc) return;
    free(c->tc->owner);
    free(c->tc->group);
    free(c->tc->pc);
    free(c->tc->warp);
    free(c->tc);
    c->tc = NULL;
}

static bool warp_pending(const tc_warp *tw) { return tw->has && tw->last >= tw->done; }

/* Applies a change of warp wi's groups, keeping pending_warps right. */
#define GROUP_UPDATE(t, wi, stmt) do {                                   \
        tc_warp *tw_ = &(t)->warp[wi];                                   \
        bool before_ = warp_pending(tw_);                                \
        stmt;                                                            \
        bool after_ = warp_pending(tw_);                                 \
        (t)->pending_warps += (uint32_t)after_ - (uint32_t)before_;      \
    } while (0)

/* Whether bytes [lo, hi) may hold a byte that a copy still in flight wrote: false when they miss
 * every pending group's range (then the byte walk below finds nothing: each byte's last writer
 * is a group either complete or in a range). Unknown (true) with a bulk copy in the block or a
 * warp with more groups pending than it keeps ranges for. The byte walk was a tenth of a
 * cp.async GEMM's simulation, whose ldmatrix reads one buffer while the copies fill the other. */
static bool may_be_pending(const struct sim_tc *t, uint64_t lo, uint64_t hi)
{
    if (t->bulk) return true;
    for (uint32_t wi = 0; wi < t->nwarps; wi++) {
        const tc_warp *tw = &t->warp[wi];
        if (!warp_pending(tw)) continue;
        if (tw->last - tw->done >= TC_RANGES) return true;
        for (uint32_t g = tw->done; g <= tw->last; g++) {
            int r = (int)(g % TC_RANGES);
            if (tw->rgroup[r] == g + 1 && tw->lo[r] < hi && lo < tw->hi[r]) return true;
        }
    }
    return false;
}

int sim_tc_check_shared(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m, const uint64_t *addr, uint32_t n)
{
    const struct sim_tc *t = c->tc;
    if (!t->pending_warps && !t->bulk) return 0;
    if (m && !t->bulk) {
        uint64_t lo = UINT64_MAX, hi = 0;
        SIM_LANES(m, { if (addr[l] < lo) lo = addr[l]; if (addr[l] + n > hi) hi = addr[l] + n; });
        if (!may_be_pending(t, lo, hi)) return 0;
    }
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        for (uint32_t b = 0; b < n; b++) {
            uint64_t a = addr[l] + b;
            if (a >= t->shared_bytes || !t->owner[a]) continue;
            const ptx_insn *cp = c->prog.insns[t->pc[a]].pi;
            const char *what = in->pi->op == PTX_ST || in->pi->op == PTX_STMATRIX || in->pi->op == PTX_WMMA_STORE
                               ? "writes" : "reads";
            if (t->owner[a] == BULK_OWNER) {
                int slot = (int)(t->group[a] >> 24);
                uint32_t phase = t->group[a] & 0xffffff;
                if (slot >= t->nmbar || t->mbar[slot].observed > phase) continue; /* a wait saw its phase end */
                uint64_t mb = t->mbar[slot].off;
                return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "shared memory at offset 0x%" PRIx64 " %s bytes that the bulk copy at line "
                                 "%d (PTX line %d) may not have written yet: wait for the phase of its mbarrier "
                                 "(at shared offset 0x%" PRIx64 ") first (mbarrier.try_wait.parity)",
                                 a, what, cp->src_line, cp->ptx_line, mb);
            }
            uint32_t ow = t->owner[a] - 1u;
            if (t->group[a] < t->warp[ow].done) continue;
            if (in->pi->op == PTX_CP_ASYNC) {  /* a copy onto a copy: the two land in either order */
                char who[32] = "this warp's";
                if (ow != w->index) snprintf(who, sizeof who, "warp %u's", ow);
                return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "this cp.async writes shared memory at offset 0x%" PRIx64
                                 " that %s cp.async at line %d (PTX line %d), in a group not yet waited for, may "
                                 "still be writing: two copies in flight to the same bytes land in either order, so "
                                 "what a later read sees is undefined; wait for the earlier group before refilling "
                                 "the buffer (a pipeline with more stages in flight than buffers?)",
                                 a, who, cp->src_line, cp->ptx_line);
            }
            if (ow == w->index)
                return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "shared memory at offset 0x%" PRIx64 " %s bytes that this warp's cp.async "
                                 "at line %d (PTX line %d) may not have written yet: wait for its group first "
                                 "(cp.async.wait_group / wait_all, __pipeline_wait_prior)",
                                 a, what, cp->src_line, cp->ptx_line);
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "shared memory at offset 0x%" PRIx64 " %s bytes that warp %u's cp.async at "
                             "line %d (PTX line %d) may not have written yet: warp %u must wait for its group "
                             "(cp.async.wait_group) before the barrier that publishes it",
                             a, what, ow, cp->src_line, cp->ptx_line, ow);
        }
    }
    return 0;
}

/* The bytes a lane copies (src-size, or 0 with ignore-src set), from operand 3. */
static int src_sizes(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m, uint32_t cp, uint32_t *size)
{
    const ptx_insn *pi = in->pi;
    SIM_LANES(m, size[l] = cp);
    if (!(pi->tc.flags & PTX_TC_ZFILL)) return 0;
    const ptx_operand *o = &pi->opnd[3];
    const uint64_t *v = w->file + in->src[3];
    bool pred = o->kind == PTX_OPND_REG && c->fn->regs[o->reg].type == PTX_T_PRED;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        if (pred) { size[l] = ((v[l] & 1) ^ o->neg) ? 0 : cp; continue; } /* ignore-src */
        uint32_t s = (uint32_t)v[l];
        if (s > cp)
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "cp.async source size %u is larger than the copy size %u", s, cp);
        size[l] = s;
    }
    return 0;
}

/* cp.async.ca|cg.shared.global [dst], [src], cp-size[, src-size | ignore-src] */
static int cp_async(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    uint32_t cp = pi->tc.cp_size, size[32];
    uint64_t dst[32], src[32];
    uint8_t *pd[32], *ps[32];
    sim_addr d1 = sim_tc_mem1(in);
    sim_tc_addr(w, &d1, m, dst);
    sim_tc_addr(w, &in->more[0], m, src);
    if (src_sizes(c, w, in, m, cp, size)) return -1;
    if (sim_translate(c, w, in, WS_SPACE_SHARED, dst, &m, cp, cp, pd)) return -1;
    uint32_t gm = 0;                             /* lanes that read a source byte */
    SIM_LANES(m, if (size[l]) gm |= 1u << l);
    /* the source is read for src-size bytes only (the idiom clamps a bad pointer with size 0),
       but must be aligned to the copy size */
    uint32_t todo = gm;
    while (todo) {
        uint32_t s = size[__builtin_ctz(todo)], same = 0;
        SIM_LANES(todo, if (size[l] == s) same |= 1u << l);
        uint32_t got = same;
        if (sim_translate(c, w, in, WS_SPACE_GLOBAL, src, &got, s, cp, ps)) return -1;
        gm &= ~(same & ~got);
        m &= ~(same & ~got);                     /* a lane whose source faulted (warning) copies nothing */
        todo &= ~same;
    }
    if (!m) return 0;
    struct sim_tc *t = c->tc ? c->tc : tc_state(c);
    if (!t) return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "out of memory tracking cp.async");
    if (c->shared_bytes && t->shared_bytes != c->shared_bytes) return sim_fault(c, w, in, -1, WS_FAULT_KERNEL, "internal: shared size changed");
    if (sim_tc_check_shared(c, w, in, m, dst, cp)) return -1;  /* overwriting a copy still in flight */
    sim_tc_emit(c, w, in, WS_SPACE_GLOBAL, WS_MEM_LOAD, WS_KIND_LDGSTS, gm, src, cp);
    /* the zero-filling form's shared write costs more wavefronts and its bank conflicts depend on the
       global lines it reads (banks.h), so it says which lanes copy and each lane's line */
    uint8_t gline[32], gsector[32];
    uint64_t lines[32];
    int nlines = 0;
    memset(gline, 0xff, sizeof gline);
    memset(gsector, 0, sizeof gsector);
    SIM_LANES(gm, {
        uint64_t ln = src[l] >> 7;
        int k = 0;
        while (k < nlines && lines[k] != ln) k++;
        if (k == nlines) lines[nlines++] = ln;
        gline[l] = (uint8_t)k;
        gsector[l] = (uint8_t)(src[l] >> 5 & 3);
    });
    emit(c, w, in, WS_SPACE_SHARED, WS_MEM_STORE, WS_KIND_LDGSTS, m, dst, cp, 0,
         pi->tc.flags & PTX_TC_ZFILL ? gm : 0, gline, gsector, 1);
    uint32_t pc = (uint32_t)(in - c->prog.insns);
    GROUP_UPDATE(t, w->index, {
        SIM_LANES(m, {
            if (size[l]) memcpy(pd[l], ps[l], size[l]);
            if (size[l] < cp) memset(pd[l] + size[l], 0, cp - size[l]); /* zero-fill */
            for (uint32_t b = 0; b < cp; b++) {
                t->owner[dst[l] + b] = (uint8_t)(w->index + 1);
                t->group[dst[l] + b] = tw_->open;
                t->pc[dst[l] + b] = pc;
            }
        });
        tw_->last = tw_->open;
        tw_->has = true;
        int r = (int)(tw_->open % TC_RANGES);
        if (tw_->rgroup[r] != tw_->open + 1) {
            tw_->rgroup[r] = tw_->open + 1;
            tw_->lo[r] = UINT64_MAX;
            tw_->hi[r] = 0;
        }
        SIM_LANES(m, {
            if (dst[l] < tw_->lo[r]) tw_->lo[r] = dst[l];
            if (dst[l] + cp > tw_->hi[r]) tw_->hi[r] = dst[l] + cp;
        });
    });
    return 0;
}

static int cp_groups(sim_ctx *c, sim_warp *w, const sim_insn *in)
{
    struct sim_tc *t = c->tc;
    if (!t) return 0;                            /* no copy issued yet: nothing to wait for */
    const ptx_insn *pi = in->pi;
    switch (pi->op) {
    case PTX_CP_COMMIT:
        t->warp[w->index].open++;
        if (c->cfg->on_async) {
            ws_async_event e = {.groups = t->warp[w->index].open};
            async_note(c, w, in, WS_ASYNC_CP_COMMIT, &e);
        }
        return 0;
    case PTX_CP_WAIT: {
        uint64_t nkeep = (uint64_t)pi->opnd[0].imm;
        GROUP_UPDATE(t, w->index, {
            uint32_t upto = tw_->open > nkeep ? tw_->open - (uint32_t)nkeep : 0;
            if (upto > tw_->done) tw_->done = upto;
        });
        break;
    }
    default: /* wait_all; cp.async.mbarrier.arrive tracks every earlier copy of the thread */
        GROUP_UPDATE(t, w->index, { tw_->open++; tw_->done = tw_->open; });
        break;
    }
    if (c->cfg->on_async) {
        ws_async_event e = {.groups = t->warp[w->index].done};
        async_note(c, w, in, WS_ASYNC_CP_WAIT, &e);
    }
    return 0;
}

/* ---- mbarrier -------------------------------------------------------------------------- */

/* The 64-bit state: pending arrivals (20 bits), expected arrivals per phase (20), the
 * transaction count (21, signed: complete_tx may precede expect_tx), the phase (3, mod 8). */
typedef struct { uint32_t pending, expected; int32_t tx; uint32_t phase; } sim_mbar;

static sim_mbar mbar_get(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    sim_mbar b = {(uint32_t)(v & 0xfffff), (uint32_t)(v >> 20 & 0xfffff), (int32_t)sim_sext(v >> 40, 21),
                  (uint32_t)(v >> 61)};
    return b;
}

static void mbar_put(uint8_t *p, sim_mbar b)
{
    uint64_t v = (uint64_t)(b.pending & 0xfffff) | (uint64_t)(b.expected & 0xfffff) << 20 |
                 ((uint64_t)(uint32_t)b.tx & 0x1fffff) << 40 | (uint64_t)(b.phase & 7) << 61;
    memcpy(p, &v, 8);
}

#define MBAR_MAX ((1 << 20) - 1)

/* The slot of the mbarrier at shared offset off (made when absent and there is room), or -1. */
static int mbar_slot(sim_ctx *c, uint64_t off)
{
    struct sim_tc *t = c->tc ? c->tc : tc_state(c);
    if (!t) return -1;
    for (int i = 0; i < t->nmbar; i++)
        if (t->mbar[i].off == off) return i;
    if (t->nmbar == (int)(sizeof t->mbar / sizeof t->mbar[0])) return -1; /* untracked: copies on it are not checked */
    memset(&t->mbar[t->nmbar], 0, sizeof t->mbar[0]);
    t->mbar[t->nmbar].off = off;
    return t->nmbar++;
}

static void mbar_maybe_complete(sim_ctx *c, const sim_warp *w, const sim_insn *in, uint64_t off, sim_mbar *b)
{
    if (b->pending == 0 && b->tx == 0) {
        b->phase = (b->phase + 1) & 7;
        b->pending = b->expected;
        int s = mbar_slot(c, off);
        if (s >= 0) c->tc->mbar[s].completed++;
        if (c->cfg->on_async) {
            ws_async_event e = {.mbar = off, .pending = b->pending, .expected = b->expected, .tx = b->tx,
                                .phase = b->phase};
            async_note(c, w, in, WS_ASYNC_MBAR_PHASE, &e);
        }
    }
}

/* The record of one warp-level mbarrier operation: its first lane's mbarrier and state. */
static void mbar_note(sim_ctx *c, const sim_warp *w, const sim_insn *in, ws_async_kind k, uint64_t off,
                      const uint8_t *p, ws_async_event *e)
{
    if (!c->cfg->on_async) return;
    sim_mbar b = mbar_get(p);
    e->mbar = off;
    e->pending = b.pending;
    e->expected = b.expected;
    e->tx = b.tx;
    e->phase = b.phase;
    async_note(c, w, in, k, e);
}

static int mbar_count(sim_ctx *c, sim_warp *w, const sim_insn *in, int l, uint64_t v, bool tx, int64_t *out)
{
    int64_t n = (int64_t)(uint32_t)v;
    if (n < (tx ? 0 : 1) || n > MBAR_MAX)
        return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "mbarrier %s count %" PRId64 " is outside %d..%d", tx ? "transaction" : "arrival",
                         n, tx ? 0 : 1, MBAR_MAX);
    *out = n;
    return 0;
}

/* An mbarrier used by a warp of its own block before its mbarrier.init, or after it with no
 * barrier between (the PTX ISA: init is no atomic operation; other threads see it through a
 * barrier, e.g. __syncthreads() after fence.mbarrier_init). The GPU let such a kernel run for
 * a few launches and then failed one (demos/cluster.cu's table_per_block on the H200: unspecified
 * launch failure at the fifth timed launch). Checked in the block's own window only: a cluster's
 * other blocks see it through a cluster barrier, which this does not follow. */
static int mbar_unordered(sim_ctx *c, sim_warp *w, const sim_insn *in, int l, uint64_t off)
{
    int s = mbar_slot(c, off);
    if (s < 0) return 0;                         /* untracked: not checked */
    const struct sim_tc *t = c->tc;
    const char *op = ptx_op_info(in->pi->op)->name;
    if (!t->mbar[s].init_warp)
        return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "%s on the mbarrier at shared offset 0x%" PRIx64 " before any "
                         "thread of the block initialised it (mbarrier.init): its bytes are whatever shared memory "
                         "held (on the GPU: a hang or a launch failure)", op, off);
    if (t->mbar[s].init_warp != w->index + 1 && t->mbar[s].init_phases == c->blk->bar_phases)
        return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "%s on the mbarrier at shared offset 0x%" PRIx64 " that warp %u "
                         "initialised at line %d with no barrier between: nothing makes the init visible to this "
                         "warp first (a __syncthreads() after the mbarrier.init, and fence.mbarrier_init before it "
                         "for the async proxy)", op, off, t->mbar[s].init_warp - 1, t->mbar[s].init_line);
    return 0;
}

/* The mbarrier operation on the lanes of m whose addr[] are offsets in the shared window c->shared
 * (the executing block's, or another block's under sim_tc_enter). */
static int mbar_lanes(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m, uint64_t *addr)
{
    const ptx_insn *pi = in->pi;
    ptx_opcode op = pi->op;
    uint64_t *F = w->file;
    int am = op == PTX_MBAR_ARRIVE || op == PTX_MBAR_ARRIVE_DROP || op == PTX_MBAR_TEST_WAIT || op == PTX_MBAR_TRY_WAIT
             ? 1 : 0;                            /* index of [addr] */
    uint8_t *p[32];
    if (sim_translate(c, w, in, WS_SPACE_SHARED, addr, &m, 8, 8, p)) return -1;
    const uint64_t *arg = F + in->src[am + 1];
    uint64_t *d = am ? F + sim_tc_elem(c, &pi->opnd[0], 0) : NULL;
    ws_async_event note = {.lanes = m};          /* the viz's record of the operation (interp.h) */
    for (uint32_t mm = m; mm; mm &= mm - 1) {    /* lane by lane, in lane order */
        int l = __builtin_ctz(mm);
        int64_t n = 1;
        if (op == PTX_MBAR_INIT) {
            if (mbar_count(c, w, in, l, arg[l], false, &n)) return -1;
            mbar_put(p[l], (sim_mbar){(uint32_t)n, (uint32_t)n, 0, 0});
            int s = mbar_slot(c, addr[l]);
            if (s >= 0) {
                c->tc->mbar[s].completed = c->tc->mbar[s].observed = 0;
                c->tc->mbar[s].init_warp = w->index + 1;
                c->tc->mbar[s].init_phases = c->blk->bar_phases;
                c->tc->mbar[s].init_line = pi->src_line;
            }
            continue;
        }
        if (!c->dsmem_tag && mbar_unordered(c, w, in, l, addr[l])) return -1;
        sim_mbar b = mbar_get(p[l]);
        switch (op) {
        case PTX_MBAR_ARRIVE: case PTX_MBAR_ARRIVE_DROP: case PTX_CP_MBAR_ARRIVE: {
            bool expect = pi->tc.flags & PTX_TC_EXPECT_TX;
            if (op != PTX_CP_MBAR_ARRIVE && pi->nopnd == 3 && mbar_count(c, w, in, l, arg[l], expect, &n)) return -1;
            if (expect) { b.tx += (int32_t)n; note.bytes += n; n = 1; }
            if (d) d[l] = (uint64_t)b.phase << 61;   /* the state: the phase it arrived in */
            if (op == PTX_CP_MBAR_ARRIVE && !(pi->tc.flags & PTX_TC_NOINC)) break; /* +1 then the arrive: no change */
            if ((int64_t)b.pending < n)
                return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "mbarrier at shared offset 0x%" PRIx64 ": %" PRId64 " arrivals but only %u "
                                 "pending in this phase (more arrivals than mbarrier.init counted?)", addr[l], n, b.pending);
            b.pending -= (uint32_t)n;
            note.arrivals += (uint32_t)n;
            if (op == PTX_MBAR_ARRIVE_DROP) b.expected -= (uint32_t)n < b.expected ? (uint32_t)n : b.expected;
            mbar_maybe_complete(c, w, in, addr[l], &b);
            break;
        }
        case PTX_MBAR_EXPECT_TX: case PTX_MBAR_COMPLETE_TX:
            if (mbar_count(c, w, in, l, arg[l], true, &n)) return -1;
            b.tx += op == PTX_MBAR_EXPECT_TX ? (int32_t)n : -(int32_t)n;
            note.bytes += n;
            if (b.tx > MBAR_MAX || b.tx < -MBAR_MAX)
                return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "mbarrier transaction count %d is outside +-%d", b.tx, MBAR_MAX);
            mbar_maybe_complete(c, w, in, addr[l], &b);
            break;
        case PTX_MBAR_TEST_WAIT: case PTX_MBAR_TRY_WAIT: {
            bool done;
            if (pi->tc.flags & PTX_TC_PARITY) done = (b.phase & 1) != (arg[l] & 1); /* that parity's phase ended */
            else done = b.phase != (uint32_t)(arg[l] >> 61 & 7);                /* the state's phase ended */
            d[l] = done;
            if (done) note.done |= 1u << l;
            if (done) {                          /* this thread has now seen every completed phase */
                sim_progress(c);
                int s = mbar_slot(c, addr[l]);
                if (s >= 0) c->tc->mbar[s].observed = c->tc->mbar[s].completed;
            }
            continue;
        }
        case PTX_MBAR_INVAL:
            memset(p[l], 0, 8);
            continue;
        default:
            break;
        }
        mbar_put(p[l], b);
    }
    if (c->cfg->on_async && m && op != PTX_MBAR_INIT && op != PTX_MBAR_INVAL) {
        int l0 = __builtin_ctz(m);
        ws_async_kind k = op == PTX_MBAR_TEST_WAIT || op == PTX_MBAR_TRY_WAIT ? WS_ASYNC_MBAR_WAIT
                        : op == PTX_MBAR_COMPLETE_TX ? WS_ASYNC_MBAR_TX : WS_ASYNC_MBAR_ARRIVE;
        mbar_note(c, w, in, k, addr[l0], p[l0], &note);
    }
    return 0;
}

/* mbarrier operations: lanes whose address names another block of the cluster (a mapa'd
 * .shared::cluster address, or a generic one holding its tag) operate on that block's mbarrier,
 * one group of lanes per target block in the order of their first lane; the PTX ISA allows only
 * arrivals and transaction counts there (the frontend refuses the rest for .shared::cluster). */
static int mbarrier(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    uint64_t addr[32];
    sim_addr a = sim_tc_mem1(in);
    sim_tc_addr(w, &a, m, addr);
    if (in->pi->space != PTX_SPACE_SHARED_CLUSTER && sim_tc_shared_addr(c, w, in, m, addr)) return -1;
    uint32_t own = in->pi->space == PTX_SPACE_SHARED ? m : 0;   /* a .shared::cta address has no rank */
    SIM_LANES(m, if (!SIM_DSMEM_TAG(addr[l])) own |= 1u << l);
    if (own && mbar_lanes(c, w, in, own, addr)) return -1;
    ptx_opcode op = in->pi->op;
    bool remote_ok = op == PTX_MBAR_ARRIVE || op == PTX_MBAR_ARRIVE_DROP || op == PTX_MBAR_EXPECT_TX ||
                     op == PTX_MBAR_COMPLETE_TX;
    for (uint32_t rest = m & ~own; rest;) {
        int l0 = __builtin_ctz(rest);
        uint32_t tag = SIM_DSMEM_TAG(addr[l0]), grp = 0;
        if (!remote_ok)
            return sim_fault(c, w, in, l0, WS_FAULT_KERNEL, "this mbarrier operation names the mbarrier of block rank %u of the "
                             "cluster (a mapa'd address): the PTX ISA allows only arrive, expect_tx and complete_tx on "
                             "another block's mbarrier", tag - 1);
        SIM_LANES(rest, if (SIM_DSMEM_TAG(addr[l]) == tag) { grp |= 1u << l; addr[l] = SIM_DSMEM_OFF(addr[l]); });
        rest &= ~grp;
        sim_tc_view v;
        if (sim_tc_enter(c, w, in, l0, tag, &v)) return -1;
        int rc = mbar_lanes(c, w, in, grp, addr);
        sim_tc_leave(c, &v);
        if (rc) return -1;
    }
    return 0;
}

int sim_tc_mark_bulk(sim_ctx *c, uint64_t dst, uint64_t n, uint64_t mbar, uint32_t pc)
{
    struct sim_tc *t = c->tc ? c->tc : tc_state(c);
    if (!t) return -1;
    int s = mbar_slot(c, mbar);
    if (s < 0) return 0;                         /* more mbarriers than tracked: the bytes go unchecked */
    uint32_t tag = (uint32_t)s << 24 | (t->mbar[s].completed & 0xffffff);
    for (uint64_t b = 0; b < n && dst + b < t->shared_bytes; b++) {
        t->owner[dst + b] = BULK_OWNER;
        t->group[dst + b] = tag;
        t->pc[dst + b] = pc;
    }
    t->bulk = true;
    return 0;
}

int sim_tc_complete_tx(sim_ctx *c, sim_warp *w, const sim_insn *in, int lane, uint8_t *p, uint64_t mbar, int64_t bytes)
{
    sim_mbar b = mbar_get(p);
    b.tx -= (int32_t)bytes;
    if (bytes > MBAR_MAX || b.tx < -MBAR_MAX)
        return sim_fault(c, w, in, lane, WS_FAULT_KERNEL, "mbarrier at shared offset 0x%" PRIx64 ": a copy of %" PRId64 " bytes takes its "
                         "transaction count to %d, outside +-%d", mbar, bytes, b.tx, MBAR_MAX);
    if (c->cfg->on_async) {
        ws_async_event e = {.lanes = 1u << (lane & 31), .bytes = bytes};
        mbar_note(c, w, in, WS_ASYNC_MBAR_TX, mbar, p, &e);
    }
    mbar_maybe_complete(c, w, in, mbar, &b);
    mbar_put(p, b);
    return 0;
}

/* ---- clusters ------------------------------------------------------------------------------ */

/* A .shared::cluster (or generic, when the instruction names no space) address operand as an
 * offset in the shared window with its rank tag (interp_priv.h); -1 when a generic one is not
 * in the shared window. */
static int cluster_addr(sim_ctx *c, sim_warp *w, const sim_insn *in, int l, uint64_t a, uint64_t *off)
{
    if (in->pi->space == PTX_SPACE_NONE) {
        if (a - SIM_WIN_SHARED >= SIM_WIN_SIZE)
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "generic address 0x%" PRIx64 " is not in shared memory (mapa and "
                             "getctarank take shared addresses)", a);
        a -= SIM_WIN_SHARED;
    }
    *off = a;
    return 0;
}

/* mapa d, a, rank: the address a of block `rank` of the cluster; getctarank d, a: the rank an
 * address belongs to; elect.sync d|p, membermask: the lowest active lane of membermask leads. */
static int cluster_op(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    uint64_t *F = w->file;
    uint64_t *d = F + sim_tc_elem(c, &pi->opnd[0], 0);
    if (pi->op == PTX_ELECT) {
        const uint64_t *mask = F + in->src[2];
        uint64_t *p = F + sim_tc_elem(c, &pi->opnd[1], 0);
        uint32_t cand = m & (uint32_t)mask[__builtin_ctz(m)];
        int leader = cand ? __builtin_ctz(cand) : -1;
        SIM_LANES(m, { d[l] = leader < 0 ? 0 : (uint64_t)leader; p[l] = l == leader; });
        return 0;
    }
    const uint64_t *a = F + in->src[1];
    uint64_t base = pi->space == PTX_SPACE_NONE ? SIM_WIN_SHARED : 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t off = 0;  /* set by cluster_addr on success; 0 keeps -O2 quiet */
        if (cluster_addr(c, w, in, l, pi->type == PTX_T_U32 ? (uint32_t)a[l] : a[l], &off)) return -1;
        uint32_t tag = SIM_DSMEM_TAG(off);
        if (pi->op == PTX_GETCTARANK) {
            d[l] = tag ? tag - 1 : c->blk->rank;
            continue;
        }
        uint32_t rank = (uint32_t)F[in->src[2] + (uint32_t)l];
        if (rank >= c->cl_n)
            return sim_fault(c, w, in, l, WS_FAULT_KERNEL, "mapa to block rank %u of the cluster, which has %u block%s "
                             "(ranks 0..%u)%s", rank, c->cl_n, c->cl_n == 1 ? "" : "s", c->cl_n - 1,
                             c->cl_explicit ? "" : "; without a cluster launch every block is a cluster of one");
        /* the block's own rank gives its plain shared address (no tag), as the H200 counts an access
           through it: an ordinary shared one, not distributed (results/h200-cluster/notes.md) */
        uint64_t v = base + (SIM_DSMEM_OFF(off) | (rank == c->blk->rank ? 0 : (uint64_t)(rank + 1) << SIM_DSMEM_SHIFT));
        d[l] = pi->type == PTX_T_U32 ? (uint32_t)v : v;
    }
    return 0;
}

/* ---- dispatch ---------------------------------------------------------------------------- */

int sim_exec_tc_mem(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    if (pi->tc.refuse) return sim_tc_refuse(c, w, in, pi->tc.refuse);
    sim_progress(c);                             /* copies and matrix stores: counted as a change */
    if (pi->op == PTX_CP_ASYNC) return cp_async(c, w, in, m);
    if (pi->op == PTX_CP_BULK || pi->op == PTX_CP_BULK_TENSOR) return sim_exec_bulk(c, w, in, m);
    return sim_exec_matrix(c, w, in, m);
}

int sim_exec_tc_warp(sim_ctx *c, sim_warp *w, const sim_insn *in, uint32_t m)
{
    const ptx_insn *pi = in->pi;
    if (pi->tc.refuse) return sim_tc_refuse(c, w, in, pi->tc.refuse);
    switch (pi->op) {
    case PTX_CP_COMMIT: case PTX_CP_WAIT: case PTX_CP_WAIT_ALL:
        sim_progress(c);                         /* the warp's groups in flight */
        return cp_groups(c, w, in);
    case PTX_CP_MBAR_ARRIVE:
        sim_progress(c);
        if (cp_groups(c, w, in)) return -1;
        return mbarrier(c, w, in, m);
    case PTX_MMA: case PTX_WMMA_MMA:
        return sim_exec_mma(c, w, in, m);
    case PTX_WGMMA_MMA: case PTX_WGMMA_FENCE: case PTX_WGMMA_COMMIT: case PTX_WGMMA_WAIT:
        return sim_exec_wgmma(c, w, in, m);
    case PTX_CP_BULK_COMMIT: case PTX_CP_BULK_WAIT:
        return 0;                                /* bulk stores complete when they issue */
    case PTX_MAPA: case PTX_GETCTARANK: case PTX_ELECT:
        return cluster_op(c, w, in, m);
    default:
        /* a wait that only tests changes nothing until the phase it waits for has ended */
        if (pi->op != PTX_MBAR_TEST_WAIT && pi->op != PTX_MBAR_TRY_WAIT) sim_progress(c);
        return mbarrier(c, w, in, m);
    }
}
