/* interp.c - one simulated launch: buffers (and a cooperative launch's grid
 * workspace) in the simulated global address space, the parameter buffer, blocks
 * in linear order, the warps of a block scheduled round robin in slices, the
 * instruction budget, and the error messages that name kernel, block, warp, lane
 * and source line; barriers are exec_barrier.c's.
 * Invariant: a block starts only when the previous one has finished, except that a
 * cooperative launch holds every block at once and a cluster launch the blocks of one cluster; a warp waiting at a barrier resumes
 * only when that barrier completes, in the next scheduling round. */
#include "interp_priv.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../common/buffers.h"
#include "../../common/demangle.h"
#include "../../common/device.h"
#include "launch_check.h"
#include "../frontend/casloop.h"
#include "../frontend/params.h"

#define SIM_DEFAULT_HOST_BYTES (8ull << 30)

/* --- messages -------------------------------------------------------------- */

static const char *src_file(const sim_ctx *c, const ptx_insn *pi)
{
    if (c->cfg->source_file && c->cfg->source_file[0]) return c->cfg->source_file;
    for (int i = 0; i < c->mod->nfiles; i++)
        if (c->mod->files[i].index == pi->src_file) return c->mod->files[i].path;
    return c->mod->path;
}

/* The record of a fault at instruction `in` (NULL = none) of warp w (NULL = the block's),
 * lane `lane` (-1 = the warp's); the wording is fault.c's. */
static void vfault(sim_ctx *c, const sim_warp *w, const sim_insn *in, int lane, ws_fault_kind kind,
                   ws_memerr_kind mem, ws_fault *f, const char *fmt, va_list ap)
{
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->mem = mem;
    f->tool = ws_fault_tool_of(kind, mem);
    memcpy(f->block, c->block, sizeof f->block);
    f->warp = w ? (int)w->index : -1;
    f->lane = lane;
    snprintf(f->kernel, sizeof f->kernel, "%s", c->kname);
    if (w && w->depth > 0) {                     /* in a called function: which, and from where */
        ws_demangle(w->prog->fn->name, f->func, sizeof f->func);
        f->call_line = w->frames[1].site->pi->src_line;
    }
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    const ptx_insn *pi = in ? in->pi : NULL;
    const sim_program *P = w ? w->prog : &c->prog;
    f->pc = in && in >= P->insns && in < P->insns + P->n ? (int)(in - P->insns) : -1;
    const char *file = pi && pi->src_line > 0 ? src_file(c, pi)
                     : pi ? c->mod->path : c->cfg->source_file ? c->cfg->source_file : c->mod->path;
    snprintf(f->file, sizeof f->file, "%s", file ? file : "");
    f->src_line = pi && pi->src_line > 0 ? pi->src_line : 0;
    f->ptx_line = pi ? pi->ptx_line : 0;
}

int sim_fault(sim_ctx *c, const sim_warp *w, const sim_insn *in, int lane, ws_fault_kind kind, const char *fmt, ...)
{
    /* an instruction the simulator does not run is a refusal of the input, not a kernel fault */
    if (kind == WS_FAULT_UNSUPPORTED) c->res->stop = WS_SIM_REFUSED;
    va_list ap;
    va_start(ap, fmt);
    vfault(c, w, in, lane, kind, WS_MEMERR_GLOBAL, &c->res->fault, fmt, ap);
    va_end(ap);
    ws_fault_error(&c->res->fault, c->err);
    return -1;
}

int sim_mem_fault(sim_ctx *c, const sim_warp *w, const sim_insn *in, int lane, ws_memerr_kind k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!c->cfg->memory_errors_are_warnings) {
        vfault(c, w, in, lane, WS_FAULT_MEMORY, k, &c->res->fault, fmt, ap);
        va_end(ap);
        ws_fault_error(&c->res->fault, c->err);
        return -1;
    }
    if (c->res->memory_warnings++ == 0 || c->res->memerr_count[k] == 0) {  /* memcheck: the first of each kind */
        ws_fault f;
        vfault(c, w, in, lane, WS_FAULT_MEMORY, k, &f, fmt, ap);
        if (c->res->memory_warnings == 1) c->res->first_warning = f;
        if (c->res->memerr_count[k] == 0) c->res->memerr_first[k] = f;
    }
    c->res->memerr_count[k]++;
    va_end(ap);
    return 0;
}

/* "_Z15transpose_naivePfS_ii" -> "transpose_naive"; other names unchanged. */
static void plain_name(const char *mangled, char *out, size_t cap)
{
    const char *p = mangled;
    if (p[0] == '_' && p[1] == 'Z') {
        p += 2;
        if (*p == 'N') p++;
        unsigned long len = 0;
        while (*p >= '0' && *p <= '9') len = len * 10 + (unsigned long)(*p++ - '0');
        if (len && strlen(p) >= len && len < cap) { memcpy(out, p, len); out[len] = 0; return; }
    }
    snprintf(out, cap, "%.*s", (int)(cap - 1), mangled);
}

/* --- what cannot run ------------------------------------------------------- */

int ws_sim_check_runnable(const ptx_module *m, const ptx_function *fn, const char *source_file, const char *kname,
                          ws_error *err)
{
    const ptx_function *via = NULL, *bad = ptx_refused_reach(m, fn, &via);
    if (!bad) return 0;
    const ws_error *r = bad->refusal;
    char name[WS_KERNEL_NAME_MAX + 8], where[400], callee[160], caller[160];
    if (kname && kname[0]) snprintf(name, sizeof name, "%s", kname);
    else plain_name(fn->name, name, sizeof name);
    ws_demangle(bad->name, callee, sizeof callee);
    ws_demangle(via->name, caller, sizeof caller);
    if (bad == fn) snprintf(where, sizeof where, "PTX line %d", r->line);
    else snprintf(where, sizeof where, "PTX line %d, in the function %.150s that %.150s calls", r->line, callee,
                  via == fn ? "it" : caller);
    const char *file = source_file && source_file[0] ? source_file : NULL;
    if (!file)
        for (int i = 0; i < m->nfiles; i++)
            if (m->files[i].index == bad->refusal_src_file) file = m->files[i].path;
    if (file && bad->refusal_src_line > 0)
        ws_error_set(err, file, bad->refusal_src_line, 0,
                     "kernel '%s' cannot be simulated: %s (%s); the other kernels of the file are not affected",
                     name, r->msg, where);
    else
        ws_error_set(err, r->file, r->line, r->col,
                     "kernel '%s' cannot be simulated: %s; the other kernels of the file are not affected", name, r->msg);
    return -1;
}

/* --- launch set-up --------------------------------------------------------- */

/* The one packing rule of sim and gpu (sim/frontend/params.h): a refusal reads the same on both paths. */
static int build_params(sim_ctx *c)
{
    uint64_t addr[WS_MAX_BUFFERS] = {0};
    for (int i = 0; i < c->L->nbuffers && i < WS_MAX_BUFFERS; i++) addr[i] = c->region[i].base;
    c->param_bytes = c->fn->param_bytes;
    c->param = calloc(c->param_bytes ? c->param_bytes : 1, 1);
    if (!c->param) {
        c->res->stop = WS_SIM_OUT_OF_MEMORY;
        ws_error_set(c->err, c->mod->path, 0, 0, "%s: out of memory for the parameter buffer", c->kname);
        return -1;
    }
    if (ws_params_pack(c->fn, c->L, addr, c->param, c->param_bytes, NULL, c->err)) {
        c->res->stop = WS_SIM_REFUSED;
        return -1;
    }
    return 0;
}

void sim_region_fill(sim_region *r, uint64_t off, uint64_t n)
{
    uint64_t last = (off + (n ? n : 1) - 1) / SIM_FILL_CHUNK;
    for (uint64_t k = off / SIM_FILL_CHUNK; k <= last && k * SIM_FILL_CHUNK < r->size; k++)
        if (!r->chunk_done[k]) {
            ws_buffer_fill_range(r->lazy, r->data, k * SIM_FILL_CHUNK, SIM_FILL_CHUNK);
            r->chunk_done[k] = 1;
            r->pending--;
        }
}

static int alloc_buffers(sim_ctx *c)
{
    const ws_launch *L = c->L;
    uint64_t limit = c->cfg->max_host_bytes ? c->cfg->max_host_bytes : SIM_DEFAULT_HOST_BYTES;
    uint64_t need = c->mod->global_bytes;
    for (int i = 0; i < L->nbuffers; i++) need += L->buffers[i].bytes;
    if (need > limit) {
        ws_error_set(c->err, c->cfg->source_file ? c->cfg->source_file : c->mod->path,
                     L->desc ? L->desc->line : 0, 0,
                     "%s: the launch needs %" PRIu64 " bytes (%.2f GiB) of buffers, more than the simulator's "
                     "limit of %" PRIu64 " bytes (%.2f GiB); make the problem smaller with -D overrides",
                     c->kname, need, (double)need / (1ull << 30), limit, (double)limit / (1ull << 30));
        c->res->stop = WS_SIM_REFUSED;
        return -1;
    }
    uint64_t next = WS_GLOBAL_BASE;
    for (int i = 0; i < L->nbuffers; i++) {
        const ws_buffer *b = &L->buffers[i];
        sim_region *r = &c->region[i];
        r->name = b->name;
        r->base = next;
        r->size = b->bytes;
        /* lazily: only local inits (any chunk on its own), no initcheck poison, on one thread; calloc's
           untouched pages cost nothing, so a partial run pays for the chunks it touches (issue 25) */
        bool lazy = c->cfg->lazy_fill && c->cfg->threads <= 1 && !b->uninit && ws_buffer_fill_is_local(b) &&
                    b->bytes > SIM_FILL_CHUNK;
        r->data = lazy ? calloc(b->bytes, 1) : malloc(b->bytes ? b->bytes : 1);
        uint64_t nchunks = (b->bytes + SIM_FILL_CHUNK - 1) / SIM_FILL_CHUNK;
        if (r->data && lazy && !(r->chunk_done = calloc(nchunks, 1))) {
            free(r->data);
            r->data = NULL;
        }
        if (!r->data) {
            ws_error_set(c->err, c->mod->path, 0, 0, "%s: out of memory for buffer '%s' (%" PRIu64 " bytes)",
                         c->kname, b->name, b->bytes);
            c->res->stop = WS_SIM_OUT_OF_MEMORY;
            return -1;
        }
        if (lazy) {
            r->lazy = b;
            r->pending = nchunks;
            c->any_lazy = true;
        } else
            ws_buffer_fill(b, r->data);
        c->res->buffer_base[i] = r->base;
        c->res->buffer_data[i] = r->data;
        c->res->nbuffers = i + 1;
        c->nregions = i + 1;
        if (b->uninit) {                         /* init=none: poison, and track what gets written */
            memset(r->data, 0xCD, b->bytes);
            r->written = calloc((b->bytes + 7) / 8 ? (b->bytes + 7) / 8 : 1, 1);
            if (!r->written) {
                ws_error_set(c->err, c->mod->path, 0, 0, "%s: out of memory for buffer '%s' (%" PRIu64 " bytes)",
                             c->kname, b->name, b->bytes);
                c->res->stop = WS_SIM_OUT_OF_MEMORY;
                return -1;
            }
            c->any_uninit = true;
        }
        /* a guard gap of one alignment unit keeps an overrun out of the next buffer */
        next = (r->base + r->size + WS_GLOBAL_ALIGN - 1) / WS_GLOBAL_ALIGN * WS_GLOBAL_ALIGN + WS_GLOBAL_ALIGN;
    }
    /* init=tmap buffers: the map's image names its tensor's address, known only now (the GPU
     * backend writes cuTensorMapEncodeTiled's map there instead, cuda/cu_run.c) */
    for (int i = 0; i < L->nbuffers; i++) {
        const ws_buffer *b = &L->buffers[i];
        if (b->init != WS_INIT_TMAP || b->tmap < 0 || b->tmap >= L->ntmaps || b->bytes != WS_TMAP_BYTES) continue;
        const ws_tmap *t = &L->tmaps[b->tmap];
        ws_tmap_image(t, t->buffer >= 0 && t->buffer < L->nbuffers ? c->region[t->buffer].base : 0, c->region[i].data);
    }
    /* a cooperative launch's grid workspace, as the driver provides it behind %envreg1:%envreg2
     * ({wsSize, barrier}: cooperative_groups/details/driver_abi.h); grid.sync() counts on it */
    if (c->cooperative) {
        sim_region *ws = &c->region[c->nregions++];
        ws->name = "(grid workspace of the cooperative launch)";
        ws->base = next;
        ws->size = sizeof c->grid_ws_data;
        ws->data = c->grid_ws_data;
        uint32_t ws_size = (uint32_t)sizeof c->grid_ws_data;
        memcpy(ws->data, &ws_size, 4);
        c->grid_ws = next;
        next += 2 * WS_GLOBAL_ALIGN;
    }
    /* module-scope __device__ variables form one more region */
    sim_region *g = &c->region[c->nregions];
    g->name = "(module globals)";
    g->base = next;
    g->size = c->mod->global_bytes;
    g->data = calloc(g->size ? g->size : 1, 1);
    if (!g->data) {
        ws_error_set(c->err, c->mod->path, 0, 0, "%s: out of memory for the module's globals", c->kname);
        c->res->stop = WS_SIM_OUT_OF_MEMORY;
        return -1;
    }
    if (c->mod->global_image && g->size) memcpy(g->data, c->mod->global_image, g->size);
    c->nregions++;
    return 0;
}

/* Warps and shared window of one block slot; the per-block values (ctaid, stacks) are
 * set when a block starts in it (start_block). */
int sim_block_alloc(sim_ctx *c, sim_block *blk)
{
    const ws_launch *L = c->L;
    const sim_program *p = &c->prog;
    uint32_t bx = L->block[0], by = L->block[1], bz = L->block[2];
    uint64_t nthreads = (uint64_t)bx * by * bz;
    blk->warps = calloc(c->nwarps, sizeof *blk->warps);
    blk->shared = malloc(c->shared_bytes ? c->shared_bytes : 1);
    if (!blk->warps || !blk->shared) return -1;
    for (uint32_t wi = 0; wi < c->nwarps; wi++) {
        sim_warp *w = &blk->warps[wi];
        w->index = wi;
        w->exit_node = p->n;
        w->file = aligned_alloc(64, ((size_t)p->file_words * 8 + 63) / 64 * 64);
        w->cap = 2 * p->n + 8;
        w->stack = malloc((size_t)w->cap * sizeof *w->stack);
        w->local_stride = c->local_bytes;
        w->local = c->local_bytes ? calloc(32, c->local_bytes) : NULL;
        w->cap_frames = 4;
        w->frames = calloc((size_t)w->cap_frames, sizeof *w->frames);
        if (!w->file || !w->stack || (c->local_bytes && !w->local) || !w->frames) return -1;
        memset(w->file, 0, (size_t)p->file_words * 8);
        for (int k = 0; k < p->nimm; k++)
            for (int l = 0; l < 32; l++) w->file[p->imm_off + (uint32_t)k * 32 + (uint32_t)l] = p->imm[k];
        for (int l = 0; l < 32; l++)
            if ((uint64_t)wi * 32 + (uint64_t)l < nthreads) w->exists |= 1u << l;
        sim_frame *f = &w->frames[0];            /* the kernel's frame: its call arguments per lane */
        f->prog = p;
        f->file = w->file;
        f->file_cap = p->file_words;
        f->imms_of = p;
        f->pbase = c->fn->arg_base;
        f->pstride = (uint32_t)((c->fn->arg_bytes + 7) / 8 * 8);
        f->pcap = 32ull * f->pstride;
        f->pbuf = f->pcap ? calloc(1, f->pcap) : NULL;
        f->local_top = c->local_bytes;
        if (f->pcap && !f->pbuf) return -1;
        sim_frames_reset(c, w);                 /* special registers: sreg.c, when a block starts */
    }
    return 0;
}

void sim_block_free(sim_ctx *c, sim_block *blk)
{
    for (uint32_t i = 0; blk->warps && i < c->nwarps; i++) {
        sim_warp *w = &blk->warps[i];
        if (w->frames) sim_frames_free(w);   /* the frames' files: the kernel's too */
        else free(w->file);
        free(w->stack);
        free(w->local);
        sim_wgmma_free(w);
    }
    free(blk->warps);
    free(blk->shared);
    c->tc = blk->tc;
    sim_tc_free(c);
}

/* The blocking wait loops' ranges (sim_ctx.spin_range) and the result's pc_spin_count; none for a
 * kernel without such a loop. 0, or -1 out of memory. */
static int spin_ranges(sim_ctx *c)
{
    int n = ws_wait_loop_ranges(c->fn, NULL, NULL, NULL, 0);
    if (n < 0) return -1;
    if (n == 0) return 0;
    int *pcs = malloc((size_t)n * 3 * sizeof *pcs);
    if (!pcs) return -1;
    ws_wait_loop_ranges(c->fn, pcs, pcs + n, pcs + 2 * n, n);
    bool any = false;
    for (int i = 0; i < n; i++) any |= ws_wait_blocks(&c->fn->insns[pcs[i]]);
    if (!any) { free(pcs); return 0; } /* a test_wait or a polled flag spins on the GPU too */
    size_t ni = (size_t)(c->fn->ninsns ? c->fn->ninsns : 1);
    c->spin_range = malloc(2 * ni * sizeof *c->spin_range);
    c->res->pc_spin_count = calloc(ni, sizeof *c->res->pc_spin_count);
    if (!c->spin_range || !c->res->pc_spin_count) { free(pcs); return -1; }
    for (size_t i = 0; i < 2 * ni; i++) c->spin_range[i] = -1;
    for (int i = 0; i < n; i++)
        if (ws_wait_blocks(&c->fn->insns[pcs[i]])) {
            c->spin_range[2 * pcs[i]] = pcs[n + i];
            c->spin_range[2 * pcs[i] + 1] = pcs[2 * n + i];
        }
    free(pcs);
    return 0;
}

static void free_ctx(sim_ctx *c)
{
    free(c->spin_range);
    c->spin_range = NULL;
    for (uint32_t b = 0; c->blocks && b < c->nslots; b++) sim_block_free(c, &c->blocks[b]);
    free(c->blocks);
    if (c->nregions > c->res->nbuffers) free(c->region[c->nregions - 1].data); /* module globals */
    for (int i = 0; i < c->nregions; i++) free(c->region[i].written);
    for (int i = 0; i < c->nregions; i++) free(c->region[i].chunk_done);
    free(c->param);
    sim_progress_free(c);
    sim_programs_free(c);
}

/* --- blocks ---------------------------------------------------------------- */

void sim_select_block(sim_ctx *c, sim_block *b)
{
    c->blk = b;
    c->warps = b->warps;
    c->shared = b->shared;
    c->tc = b->tc;
    memcpy(c->block, b->idx, sizeof c->block);
    c->block_linear = b->linear;
}

static bool reads_grid_ws(const ptx_function *fn)
{
    for (int i = 0; i < fn->ninsns; i++)
        for (int k = 0; k < fn->insns[i].nopnd; k++) {
            const ptx_operand *o = &fn->insns[i].opnd[k];
            if (o->kind == PTX_OPND_SREG && (o->sreg == PTX_SREG_ENVREG0 + 1 || o->sreg == PTX_SREG_ENVREG0 + 2))
                return true;
        }
    return false;
}

/* Block `linear` of the grid starts in slot blk: poisoned shared memory, every warp at
 * pc 0 with its threads, fresh barriers. */
void sim_block_start(sim_ctx *c, sim_block *blk, uint64_t linear)
{
    const ws_launch *L = c->L;
    uint64_t gx = L->grid[0], gy = L->grid[1];
    blk->linear = (uint32_t)linear;
    blk->idx[0] = (uint32_t)(linear % gx);
    blk->idx[1] = (uint32_t)((linear / gx) % gy);
    blk->idx[2] = (uint32_t)(linear / (gx * gy));
    blk->rank = blk->idx[0] % c->cl_dim[0] + blk->idx[1] % c->cl_dim[1] * c->cl_dim[0] +
                blk->idx[2] % c->cl_dim[2] * c->cl_dim[0] * c->cl_dim[1];   /* x fastest (PTX ISA %cluster_ctarank) */
    blk->done = false;
    blk->cl_phase = 0;
    blk->bar_phases = 0;
    memset(blk->bar, 0, sizeof blk->bar);
    sim_select_block(c, blk);
    if (c->shared_bytes) memset(blk->shared, 0xCD, c->shared_bytes);   /* poison: read-before-write shows */
    if (c->cfg->on_sync) c->cfg->on_sync(c->cfg->sync_ctx, blk->linear, WS_SYNC_BLOCK_START, 0); /* racecheck */
    if (c->tc) sim_tc_block_start(c);                                 /* no cp.async in flight */
    for (uint32_t i = 0; i < c->nwarps; i++) {
        sim_warp *w = &blk->warps[i];
        sim_frames_reset(c, w);
        sim_wgmma_block_start(w);                                      /* no wgmma in flight */
        sim_sreg_fill(c, w, &c->prog, w->file, blk->sregs_filled ? SIM_SREG_BLOCK : SIM_SREG_ALL); /* %ctaid ... */
        w->sp = 1;
        w->stack[0].pc = 0;
        w->stack[0].rpc = -1;
        w->stack[0].mask = w->exists;
        w->live = w->exists;
        w->carry = 0;
        w->state = c->prog.n ? SIM_W_RUN : SIM_W_DONE;
        w->exit_pc = -1;
        w->spin_wait = -1;
        w->bar_id = -1;
        w->bar_lanes = 0;
        w->bars_passed = 0;
        w->ready_round = 0;
        w->cl_arrived = false;
        w->cl_phase = 0;
        sim_progress_reset(w);
    }
    sim_progress_blocks_start(c);                                      /* the watch on the whole state */
    sim_nreg_block_start(c, blk);                                      /* every warp holds ptxas's count */
    blk->sregs_filled = true;
}

/* The pc a warp is at (for the budget's message): where it exited, or its path's next. */
int sim_warp_pc(const sim_ctx *c, const sim_warp *w, const sim_program **P)
{
    *P = w->state == SIM_W_DONE ? &c->prog : w->prog;  /* maybe a callee's */
    int pc = w->state == SIM_W_DONE ? (w->exit_pc >= 0 ? w->exit_pc : 0) : w->stack[w->sp - 1].pc;
    if (pc >= (*P)->n) pc = (*P)->n - 1;
    return pc;
}

int sim_budget_fault(sim_ctx *c, const sim_warp *w, const sim_program *P, int pc)
{
    /* a block that spins on what another block sets never sees it here: say why */
    uint64_t nblocks = ws_launch_blocks(c->L);
    return sim_fault(c, w, pc >= 0 ? &P->insns[pc] : NULL, -1, WS_FAULT_KERNEL,
                     "stopped after the instruction budget of %" PRIu64 " thread-instructions; "
                     "this warp was at this line (a loop that never ends? a bigger launch needs --budget N)%s",
                     c->budget, nblocks > 1 && !c->cooperative ? "; if it waits for another block (a flag or counter "
                     "another block sets), that never completes here: warpscope runs the blocks one "
                     "after another, each to its end before the next starts (a cooperative launch, the "
                     "description's `cooperative` keyword, runs them together)" : "");
}

/* Runs the n block slots until every one has finished: each round gives every runnable
 * warp of every block one slice (one block alone: the classic warp round robin). A warp
 * that exits may complete a barrier that counts the block; when no warp anywhere can
 * run but some wait at barriers, that is a deadlock. */
int sim_blocks_run(sim_ctx *c, sim_block *blocks, uint32_t n)
{
    uint32_t left = n;
    for (;;) {
        bool any_run = false;
        c->round++;
        for (uint32_t b = 0; b < n; b++) {
            sim_block *blk = &blocks[b];
            if (blk->done) continue;
            sim_select_block(c, blk);
            bool block_live = false;
            for (uint32_t i = 0; i < c->nwarps; i++) {
                sim_warp *w = &blk->warps[i];
                if (w->state == SIM_W_RUN && w->ready_round <= c->round) {
                    if (sim_warp_run(c, w)) return -1;
                    if (c->on_slice) c->on_slice(c, w);  /* a worker's checkpoint (interp_par.c) */
                    if (c->thread_insns > c->budget) {
                        const sim_program *P;
                        int pc = sim_warp_pc(c, w, &P);
                        return sim_budget_fault(c, w, P, pc);
                    }
                    if (c->abort && *c->abort) return -1;  /* an earlier block faulted: this one is not needed */
                    if (w->state == SIM_W_RUN && sim_progress_slice(c, blocks, n, w)) return -1; /* loops forever */
                    if (w->state == SIM_W_DONE && (sim_barrier_warp_done(c, w) || sim_cluster_warp_done(c, w)))
                        return -1;
                }                                /* round robin: one slice, then the next warp */
                block_live |= w->state != SIM_W_DONE;
            }
            if (!block_live) {
                blk->done = true;
                left--;
                sim_nreg_block_end(c, blk);     /* setmaxnreg's counts, for the report */
                if (c->cfg->on_sync) {          /* racecheck; block sampling reads the counts so far */
                    c->res->thread_insns = c->thread_insns;
                    c->res->warp_insns = c->warp_insns;
                    c->res->mem_events = c->seq;
                    c->cfg->on_sync(c->cfg->sync_ctx, blk->linear, WS_SYNC_BLOCK_END, 0);
                }
            }
        }
        if (!left) return 0;
        for (uint32_t b = 0; b < n && !any_run; b++)   /* after the round: a barrier may have released some */
            for (uint32_t i = 0; !blocks[b].done && i < c->nwarps && !any_run; i++)
                any_run = blocks[b].warps[i].state == SIM_W_RUN;
        if (!any_run) return sim_barrier_deadlock(c, blocks, n);
    }
}

/* --- resource limits -------------------------------------------------------- */
/* Launches the simulator could never finish or hold are refused before any
 * memory is filled, with the numbers and the way out: more shared memory per
 * block than any profiled GPU grants, more threads than the instruction budget
 * (every thread executes at least one instruction), and more host memory than
 * max_host_bytes for buffers + shared window + per-warp registers, local
 * frames and SIMT stacks (checked after decoding, when register counts are known). */

static const char *where_file(const sim_ctx *c)
{
    return c->cfg->source_file ? c->cfg->source_file : c->mod->path;
}

static int check_launch_limits(sim_ctx *c, uint64_t nblocks)
{
    const ws_launch *L = c->L;
    uint64_t st = c->fn->static_shared_bytes;
    uint64_t window = L->shared_bytes ? (c->fn->dyn_shared_offset > st ? c->fn->dyn_shared_offset : st) + L->shared_bytes : st;
    const ws_device *most = c->cfg->shared_limit ? c->cfg->shared_limit : ws_device_most_shared();
    if (window > most->smem_per_block_optin) {
        ws_error_set(c->err, where_file(c), L->desc ? L->desc->line : 0, 0,
                     "%s: a block needs %" PRIu64 " bytes of shared memory (%" PRIu64 " static + %" PRIu64
                     " dynamic), more than any GPU gives one block (%s: %u bytes)",
                     c->kname, window, st, (uint64_t)L->shared_bytes, most->name, most->smem_per_block_optin);
        return -1;
    }
    uint64_t tpb = ws_launch_threads_per_block(L);
    if (tpb > 1024) {                            /* every GPU's limit; barriers keep a warp per bit */
        ws_error_set(c->err, where_file(c), L->desc ? L->desc->line : 0, 0,
                     "%s: a block of %" PRIu64 " threads; a GPU block holds at most 1024", c->kname, tpb);
        return -1;
    }
    if (nblocks > c->budget / tpb && !c->cfg->block_next) {   /* sampled: predict.c, once it knows how many run */
        ws_error_set(c->err, where_file(c), L->desc ? L->desc->line : 0, 0,
                     "%s: %" PRIu64 " blocks of %" PRIu64 " threads cannot finish within the instruction budget of %"
                     PRIu64 " thread-instructions (each thread runs at least one); simulate a sample of the blocks "
                     "(--sample), make the problem smaller with -D overrides, or raise the budget with --budget N",
                     c->kname, nblocks, tpb, c->budget);
        return -1;
    }
    return 0;
}

static int check_host_memory(sim_ctx *c)
{
    const ws_launch *L = c->L;
    uint64_t limit = c->cfg->max_host_bytes ? c->cfg->max_host_bytes : SIM_DEFAULT_HOST_BYTES;
    uint64_t tpb = ws_launch_threads_per_block(L);
    uint64_t nwarps = (tpb + 31) / 32, per_warp, warps, extra, need = c->mod->global_bytes + c->shared_bytes;
    for (int i = 0; i < L->nbuffers; i++) need += L->buffers[i].bytes;   /* <= limit: alloc_buffers checked */
    bool over = __builtin_mul_overflow((uint64_t)c->local_bytes, 32, &per_warp) ||
                __builtin_add_overflow(per_warp, (uint64_t)c->prog.file_words * 8, &per_warp) ||
                __builtin_add_overflow(per_warp, (uint64_t)(2 * c->prog.n + 8) * sizeof(sim_simt_entry), &per_warp) ||
                __builtin_mul_overflow(per_warp, nwarps * c->nslots, &warps) ||
                __builtin_mul_overflow(c->shared_bytes, (uint64_t)c->nslots - 1, &extra) ||
                __builtin_add_overflow(need, extra, &need) || __builtin_add_overflow(need, warps, &need);
    if (over || need > limit) {
        ws_error_set(c->err, where_file(c), L->desc ? L->desc->line : 0, 0,
                     "%s: simulating %s needs %s%" PRIu64 " bytes of host memory (buffers, %" PRIu64
                     " bytes of shared memory, and %" PRIu64 " warps of registers and %" PRIu64 "-byte local frames%s), "
                     "more than the simulator's limit of %" PRIu64 " bytes",
                     c->kname, c->nslots > 1 ? "the cooperative grid" : "a block", over ? "more than " : "",
                     over ? UINT64_MAX : need, c->shared_bytes, nwarps, (uint64_t)c->local_bytes,
                     c->nslots > 1 ? ", for every block at once" : "", limit);
        return -1;
    }
    return 0;
}

/* A cluster launch: the clusters in linear order of %clusterid (x fastest), each cluster's blocks
 * started together in rank order in the slots blocks[0..cl_n) and run interleaved (so cluster
 * barriers and distributed shared memory work); a cluster runs when any of its blocks is in
 * [first, first+count) and the sampler (block_next) runs its rank-0 block. On one thread: the order is
 * the one-thread order for any -j. */
static int run_clusters(sim_ctx *c, uint64_t first, uint64_t count)
{
    const ws_launch *L = c->L;
    const uint32_t *d = c->cl_dim;
    uint64_t ngx = L->grid[0] / d[0], ngy = L->grid[1] / d[1], ncl = ws_launch_blocks(L) / c->cl_n;
    uint64_t step = ncl / 200 ? ncl / 200 : 1, gx = L->grid[0], gy = L->grid[1];
    for (uint64_t k = 0; k < ncl; k++) {
        uint64_t cx = k % ngx, cy = k / ngx % ngy, cz = k / (ngx * ngy), lin[WS_CLUSTER_NONPORTABLE];
        bool want = false;
        for (uint32_t r = 0; r < c->cl_n; r++) {
            uint64_t x = cx * d[0] + r % d[0], y = cy * d[1] + r / d[0] % d[1], z = cz * d[2] + r / (d[0] * d[1]);
            lin[r] = x + y * gx + z * gx * gy;
            want |= lin[r] >= first && lin[r] - first < count;
        }
        if (!want || (c->cfg->block_next && c->cfg->block_next(c->cfg->filter_ctx, lin[0]) != lin[0])) continue;
        for (uint32_t r = 0; r < c->cl_n; r++) sim_block_start(c, &c->blocks[r], lin[r]);
        if (sim_blocks_run(c, c->blocks, c->cl_n)) return -1;
        if (c->cfg->progress && ((k + 1) % step == 0 || k + 1 == ncl))
            c->cfg->progress(c->cfg->progress_ctx, (k + 1) * c->cl_n, ncl * c->cl_n);
    }
    return 0;
}

int ws_sim_run(const ws_sim_config *cfg, ws_sim_result *res, ws_error *err)
{
    memset(res, 0, sizeof *res);
    if (err) err->msg[0] = 0;                    /* a caller's stop is told from a fault by an empty message */
    res->stop = WS_SIM_REFUSED;                  /* until the blocks run, a failure is a refusal of the launch */
    if (!cfg || !cfg->module || !cfg->fn || !cfg->launch) {
        ws_error_set(err, "", 0, 0, "ws_sim_run: module, function and launch are required");
        return -1;
    }
    sim_ctx ctx, *c = &ctx;
    memset(c, 0, sizeof *c);
    c->cfg = cfg;
    c->L = cfg->launch;
    c->fn = cfg->fn;
    c->mod = cfg->module;
    c->res = res;
    c->err = err;
    c->budget = cfg->max_thread_insns ? cfg->max_thread_insns : WS_SIM_DEFAULT_BUDGET;
    c->abort = cfg->stop;                        /* the caller's early end (the visualizer's full recording) */
    if (c->L->desc) snprintf(c->kname, sizeof c->kname, "%s", c->L->desc->name);
    else plain_name(c->fn->name, c->kname, sizeof c->kname);

    const ws_launch *L = c->L;
    uint64_t nblocks_all = ws_launch_blocks(L);
    uint64_t first = cfg->first_block, count = cfg->num_blocks ? cfg->num_blocks : nblocks_all;
    int rc = -1;
    if (ws_launch_threads_per_block(L) == 0 || nblocks_all == 0) {
        ws_error_set(err, cfg->source_file ? cfg->source_file : c->mod->path, 0, 0, "%s: empty grid or block", c->kname);
        return -1;
    }
    if (first >= nblocks_all || count > nblocks_all - first) {
        ws_error_set(err, cfg->source_file ? cfg->source_file : c->mod->path, 0, 0,
                     "%s: blocks %" PRIu64 "..%" PRIu64 " asked for, but the grid has %" PRIu64 " blocks",
                     c->kname, first, first + count - 1, nblocks_all);
        return -1;
    }
    if (ws_sim_check_runnable(c->mod, c->fn, cfg->source_file, c->kname, err)) {
        res->stop = WS_SIM_REFUSED;              /* PTX it cannot run: this kernel only */
        return -1;
    }
    if (ws_launch_bounds_check(c->fn, L, c->kname, where_file(c), L->desc ? L->desc->line : 0, err)) return -1;
    c->cooperative = L->cooperative;
    if (c->cooperative && count != nblocks_all) {
        ws_error_set(err, where_file(c), L->desc ? L->desc->line : 0, 0,
                     "%s: a cooperative launch runs all %" PRIu64 " blocks together (grid.sync() waits for every one); "
                     "simulating %" PRIu64 " of them cannot work", c->kname, nblocks_all, count);
        return -1;
    }
    if (c->cooperative && cfg->on_sync) {
        ws_error_set(err, where_file(c), L->desc ? L->desc->line : 0, 0,
                     "%s: racecheck follows one block at a time and cannot yet check a cooperative launch, whose "
                     "blocks run interleaved; run it without --racecheck", c->kname);
        return -1;
    }
    if (check_launch_limits(c, count)) return -1;
    bool cl_explicit;
    if (ws_cluster_dims(c->fn, L, c->cl_dim, &cl_explicit, c->kname, where_file(c), L->desc ? L->desc->line : 0, err))
        return -1;
    c->cl_explicit = cl_explicit;
    c->cl_n = c->cl_dim[0] * c->cl_dim[1] * c->cl_dim[2];
    if (alloc_buffers(c) || build_params(c)) goto out;
    c->cnst = c->mod->const_image;
    c->const_bytes = c->mod->const_image ? c->mod->const_bytes : 0;
    c->shared_static = c->fn->static_shared_bytes;
    c->shared_dynamic = L->shared_bytes;
    c->shared_bytes = L->shared_bytes
        ? (c->fn->dyn_shared_offset > c->shared_static ? c->fn->dyn_shared_offset : c->shared_static) + L->shared_bytes
        : c->shared_static;
    c->local_bytes = c->fn->local_bytes;
    res->pc_warp_count = calloc((size_t)(c->fn->ninsns ? c->fn->ninsns : 1), sizeof *res->pc_warp_count);
    if (!res->pc_warp_count) {
        ws_error_set(err, c->mod->path, 0, 0, "%s: out of memory", c->kname);
        res->stop = WS_SIM_OUT_OF_MEMORY;
        goto out;
    }
    if (spin_ranges(c)) {
        ws_error_set(err, c->mod->path, 0, 0, "%s: out of memory", c->kname);
        res->stop = WS_SIM_OUT_OF_MEMORY;
        goto out;
    }
    c->nwarps = ws_launch_warps_per_block(L);
    c->nslots = c->cooperative ? (uint32_t)count : c->cl_n;  /* a cooperative grid, a cluster: resident at once */
    c->needs_grid_ws = reads_grid_ws(c->fn);
    if (sim_decode(c)) {                         /* its only failure is memory */
        res->stop = WS_SIM_OUT_OF_MEMORY;
        goto out;
    }
    if (check_host_memory(c)) goto out;
    if (sim_predict_before(c, count)) goto out;  /* beyond the budget, or no path ends */
    c->blocks = calloc(c->nslots, sizeof *c->blocks);
    bool ok = c->blocks != NULL;
    for (uint32_t b = 0; ok && b < c->nslots; b++) ok = sim_block_alloc(c, &c->blocks[b]) == 0;
    if (!ok) {
        ws_error_set(err, c->mod->path, 0, 0, "%s: out of memory for %u warps", c->kname, c->nwarps * c->nslots);
        res->stop = WS_SIM_OUT_OF_MEMORY;
        goto out;
    }
    res->stop = WS_SIM_FAULT;                    /* from here a failure is the kernel's (or a refused instruction) */
    if (c->cooperative) {                        /* every block at once, interleaved */
        for (uint32_t k = 0; k < c->nslots; k++) sim_block_start(c, &c->blocks[k], first + k);
        if (sim_blocks_run(c, c->blocks, c->nslots)) goto out;
        if (cfg->progress) cfg->progress(cfg->progress_ctx, count, count);
    } else if (c->cl_n > 1) {                    /* cluster by cluster, each cluster's blocks together */
        if (run_clusters(c, first, count)) goto out;
    } else if ((rc = sim_run_parallel(c, first, count)) <= 0) {   /* blocks on threads, when it may */
        if (rc) { rc = -1; goto out; }
    } else {
        rc = -1;
        uint64_t step = count / 200 ? count / 200 : 1, done = 0;
        double t0 = sim_now();
        for (uint64_t k = 0; k < count; k++) {
            if (cfg->block_next) {               /* sampled: skip to the next block that runs */
                c->res->thread_insns = c->thread_insns; /* the counts so far, for a filter that plans by cost */
                uint64_t nx = cfg->block_next(cfg->filter_ctx, first + k);
                if (nx >= first + count) break;
                k = nx - first;
            }
            sim_block_start(c, &c->blocks[0], first + k);
            if (sim_blocks_run(c, c->blocks, 1)) goto out;
            if (sim_predict_after(c, ++done, count, sim_now() - t0)) goto out;
            if (cfg->progress && ((k + 1) % step == 0 || k + 1 == count)) cfg->progress(cfg->progress_ctx, k + 1, count);
        }
        if (cfg->progress && cfg->block_next) cfg->progress(cfg->progress_ctx, count, count);
    }
    rc = 0;
    res->stop = WS_SIM_COMPLETED;
out:
    if (rc && cfg->stop && *cfg->stop && res->stop == WS_SIM_FAULT && !err->msg[0]) {
        rc = 0;                                  /* the caller ended it: the counts so far, no fault */
        res->stop = WS_SIM_COMPLETED;
        res->stopped_early = true;
    }
    if (!res->threads) res->threads = 1;
    res->thread_insns = c->thread_insns;
    res->warp_insns = c->warp_insns;
    res->mem_events = c->seq;
    free_ctx(c);
    if (rc) {                                    /* nothing to hand back but the counters */
        for (int i = 0; i < res->nbuffers; i++) { free(res->buffer_data[i]); res->buffer_data[i] = NULL; }
        res->nbuffers = 0;
        free(res->pc_warp_count);
        res->pc_warp_count = NULL;
        free(res->pc_spin_count);
        res->pc_spin_count = NULL;
    }
    return rc;
}

void ws_sim_result_free(ws_sim_result *res)
{
    if (!res) return;
    for (int i = 0; i < res->nbuffers; i++) free(res->buffer_data[i]);
    free(res->pc_warp_count);
    free(res->pc_spin_count);
    memset(res, 0, sizeof *res);
}
