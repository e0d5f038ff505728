/* interp.c - one simulated launch: buffers in the simulated global address
 * space, the parameter buffer, blocks in linear order, the warps of a block
 * scheduled round robin in slices, barriers, the instruction budget, and the
 * error messages that name kernel, block, warp, lane and source line.
 * Invariant: a block starts only when the previous one has finished, and a
 * warp waiting at a barrier resumes only when every live warp of its block
 * waits at that same barrier. */
#include "interp_priv.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/buffers.h"
#include "../common/device.h"

#define SIM_DEFAULT_HOST_BYTES (8ull << 30)

/* --- messages -------------------------------------------------------------- */

static const char *src_file(const sim_ctx *c, const ptx_insn *pi)
{
    if (c->cfg->source_file && c->cfg->source_file[0]) return c->cfg->source_file;
    for (int i = 0; i < c->mod->nfiles; i++)
        if (c->mod->files[i].index == pi->src_file) return c->mod->files[i].path;
    return c->mod->path;
}

static void vfault(sim_ctx *c, const sim_warp *w, const sim_insn *in, int lane, ws_error *e,
                   const char *fmt, va_list ap)
{
    char msg[WS_MSG_MAX], who[160];
    vsnprintf(msg, sizeof msg, fmt, ap);
    int k = snprintf(who, sizeof who, "%s: block (%u,%u,%u)", c->kname, c->block[0], c->block[1], c->block[2]);
    if (w && k < (int)sizeof who) k += snprintf(who + k, sizeof who - (size_t)k, " warp %u", w->index);
    if (lane >= 0 && k < (int)sizeof who) snprintf(who + k, sizeof who - (size_t)k, " lane %d", lane);
    const ptx_insn *pi = in ? in->pi : NULL;
    if (pi && pi->src_line > 0) ws_error_set(e, src_file(c, pi), pi->src_line, 0, "%s: %s", who, msg);
    else if (pi) ws_error_set(e, c->mod->path, pi->ptx_line, 0, "%s: %s", who, msg);
    else ws_error_set(e, c->cfg->source_file ? c->cfg->source_file : c->mod->path, 0, 0, "%s: %s", who, msg);
}

int sim_fault(sim_ctx *c, const sim_warp *w, const sim_insn *in, int lane, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfault(c, w, in, lane, c->err, fmt, ap);
    va_end(ap);
    return -1;
}

/* memcheck: the kind of a memory fault, from the space word every message in
 * exec_mem.c starts with ("shared load of ...") or its "misaligned" clause. */
static ws_memerr_kind memerr_kind(const char *fmt)
{
    if (strstr(fmt, "misaligned")) return WS_MEMERR_MISALIGNED;
    if (!strncmp(fmt, "shared", 6)) return WS_MEMERR_SHARED;
    if (!strncmp(fmt, "local", 5)) return WS_MEMERR_LOCAL;
    if (!strncmp(fmt, "const", 5)) return WS_MEMERR_CONST;
    if (!strncmp(fmt, "param", 5)) return WS_MEMERR_PARAM;
    return WS_MEMERR_GLOBAL;
}

int sim_mem_fault(sim_ctx *c, const sim_warp *w, const sim_insn *in, int lane, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!c->cfg->memory_errors_are_warnings) {
        vfault(c, w, in, lane, c->err, fmt, ap);
        va_end(ap);
        return -1;
    }
    ws_memerr_kind k = memerr_kind(fmt);         /* memcheck: count per kind, keep the first of each */
    if (c->res->memory_warnings++ == 0 || c->res->memerr_count[k] == 0) {
        ws_error e;
        vfault(c, w, in, lane, &e, fmt, ap);
        if (c->res->memory_warnings == 1) ws_error_format(&e, c->res->first_warning, sizeof c->res->first_warning);
        if (c->res->memerr_count[k] == 0) ws_error_format(&e, c->res->memerr_first[k], sizeof c->res->memerr_first[k]);
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

/* --- launch set-up --------------------------------------------------------- */

static int build_params(sim_ctx *c)
{
    const ptx_function *fn = c->fn;
    const ws_launch *L = c->L;
    if (L->nargs != fn->nparams) {
        ws_error_set(c->err, c->cfg->source_file ? c->cfg->source_file : c->mod->path,
                     L->desc ? L->desc->line : 0, 0,
                     "%s: the kernel %s takes %d parameters but the description passes %d arguments",
                     c->kname, fn->name, fn->nparams, L->nargs);
        return -1;
    }
    c->param_bytes = fn->param_bytes;
    c->param = calloc(c->param_bytes ? c->param_bytes : 1, 1);
    if (!c->param) return -1;
    for (int i = 0; i < fn->nparams; i++) {
        const ptx_symbol *s = &fn->syms[fn->param_syms[i]];
        const ws_arg *a = &L->args[i];
        uint64_t size = s->size;
        uint8_t *dst = c->param + s->offset;
        if (a->kind == WS_ARG_TMAP) {            /* the simulator's image of the map (common/tmap.h) */
            const ws_tmap *t = &L->tmaps[a->buffer];
            if (size != WS_TMAP_BYTES || s->offset % 64 || s->offset + size > c->param_bytes) {
                ws_error_set(c->err, c->mod->path, s->ptx_line, 0, "%s: parameter %d ('%s', %" PRIu64 " bytes) cannot hold "
                             "tensor map '%s' (a const __grid_constant__ CUtensorMap: 128 bytes)", c->kname, i + 1,
                             s->name, size, L->desc ? L->desc->tmaps[a->buffer].name : "?");
                return -1;
            }
            ws_tmap_image(t, c->region[t->buffer].base, dst);
            continue;
        }
        if (s->offset + size > c->param_bytes || (size != 1 && size != 2 && size != 4 && size != 8)) {
            ws_error_set(c->err, c->mod->path, s->ptx_line, 0,
                         "%s: parameter %d ('%s', %" PRIu64 " bytes) cannot hold a scalar argument",
                         c->kname, i + 1, s->name, size);
            return -1;
        }
        uint64_t bits = 0;
        switch (a->kind) {
        case WS_ARG_BUFFER:
            if (size != 8) {
                ws_error_set(c->err, c->mod->path, s->ptx_line, 0,
                             "%s: parameter %d ('%s') is %" PRIu64 " bytes but is passed buffer '%s' (a pointer)",
                             c->kname, i + 1, s->name, size, L->buffers[a->buffer].name);
                return -1;
            }
            bits = c->region[a->buffer].base;
            break;
        case WS_ARG_INT:
            if (s->type == PTX_T_F32) bits = sim_f32b((float)a->ivalue);
            else if (s->type == PTX_T_F64) bits = sim_f64b((double)a->ivalue);
            else bits = (uint64_t)a->ivalue;
            break;
        case WS_ARG_TMAP:                        /* handled above */
            break;
        case WS_ARG_FLOAT:
            if (size == 8) bits = sim_f64b(a->fvalue);
            else if (size == 4) bits = sim_f32b((float)a->fvalue);
            else bits = sim_f2h(a->fvalue, PTX_RND_RN);
            break;
        }
        memcpy(dst, &bits, size);
    }
    return 0;
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
        return -1;
    }
    uint64_t next = WS_GLOBAL_BASE;
    for (int i = 0; i < L->nbuffers; i++) {
        const ws_buffer *b = &L->buffers[i];
        sim_region *r = &c->region[i];
        r->name = b->name;
        r->base = next;
        r->size = b->bytes;
        r->data = malloc(b->bytes ? b->bytes : 1);
        if (!r->data) {
            ws_error_set(c->err, c->mod->path, 0, 0, "%s: out of memory for buffer '%s' (%" PRIu64 " bytes)",
                         c->kname, b->name, b->bytes);
            return -1;
        }
        ws_buffer_fill(b, r->data);
        c->res->buffer_base[i] = r->base;
        c->res->buffer_data[i] = r->data;
        c->res->nbuffers = i + 1;
        c->nregions = i + 1;
        /* a guard gap of one alignment unit keeps an overrun out of the next buffer */
        next = (r->base + r->size + WS_GLOBAL_ALIGN - 1) / WS_GLOBAL_ALIGN * WS_GLOBAL_ALIGN + WS_GLOBAL_ALIGN;
    }
    /* module-scope __device__ variables form one more region */
    sim_region *g = &c->region[c->nregions];
    g->name = "(module globals)";
    g->base = next;
    g->size = c->mod->global_bytes;
    g->data = calloc(g->size ? g->size : 1, 1);
    if (!g->data) return -1;
    if (c->mod->global_image && g->size) memcpy(g->data, c->mod->global_image, g->size);
    c->nregions++;
    return 0;
}

static int alloc_warps(sim_ctx *c)
{
    const ws_launch *L = c->L;
    const sim_program *p = &c->prog;
    uint32_t bx = L->block[0], by = L->block[1], bz = L->block[2];
    uint64_t nthreads = (uint64_t)bx * by * bz;
    c->nwarps = (uint32_t)((nthreads + 31) / 32);
    c->warps = calloc(c->nwarps, sizeof *c->warps);
    if (!c->warps) return -1;
    for (uint32_t wi = 0; wi < c->nwarps; wi++) {
        sim_warp *w = &c->warps[wi];
        w->index = wi;
        w->exit_node = p->n;
        w->file = aligned_alloc(64, ((size_t)p->file_words * 8 + 63) / 64 * 64);
        w->cap = 2 * p->n + 8;
        w->stack = malloc((size_t)w->cap * sizeof *w->stack);
        w->local = c->local_bytes ? calloc(32, c->local_bytes) : NULL;
        if (!w->file || !w->stack || (c->local_bytes && !w->local)) return -1;
        memset(w->file, 0, (size_t)p->file_words * 8);
        for (int k = 0; k < p->nimm; k++)
            for (int l = 0; l < 32; l++) w->file[p->imm_off + (uint32_t)k * 32 + (uint32_t)l] = p->imm[k];
        uint64_t *S = w->file + p->sreg_off;
        for (int l = 0; l < 32; l++) {
            uint64_t t = (uint64_t)wi * 32 + (uint64_t)l;
            if (t < nthreads) w->exists |= 1u << l;
            S[PTX_SREG_TID_X * 32 + l] = t % bx;
            S[PTX_SREG_TID_Y * 32 + l] = (t / bx) % by;
            S[PTX_SREG_TID_Z * 32 + l] = t / ((uint64_t)bx * by);
            S[PTX_SREG_NTID_X * 32 + l] = bx;
            S[PTX_SREG_NTID_Y * 32 + l] = by;
            S[PTX_SREG_NTID_Z * 32 + l] = bz;
            S[PTX_SREG_NCTAID_X * 32 + l] = L->grid[0];
            S[PTX_SREG_NCTAID_Y * 32 + l] = L->grid[1];
            S[PTX_SREG_NCTAID_Z * 32 + l] = L->grid[2];
            S[PTX_SREG_LANEID * 32 + l] = (uint64_t)l;
            S[PTX_SREG_WARPID * 32 + l] = wi;
            S[PTX_SREG_NWARPID * 32 + l] = c->nwarps;
            S[PTX_SREG_SMID * 32 + l] = 0;
            S[PTX_SREG_NSMID * 32 + l] = 1;
            S[PTX_SREG_GRIDID * 32 + l] = 1;
            S[PTX_SREG_LANEMASK_EQ * 32 + l] = 1ull << l;
            S[PTX_SREG_LANEMASK_LT * 32 + l] = (1ull << l) - 1;
            S[PTX_SREG_LANEMASK_LE * 32 + l] = (2ull << l) - 1;
            S[PTX_SREG_LANEMASK_GT * 32 + l] = (uint32_t)~((2ull << l) - 1);
            S[PTX_SREG_LANEMASK_GE * 32 + l] = (uint32_t)~((1ull << l) - 1);
            S[PTX_SREG_DYNAMIC_SMEM_SIZE * 32 + l] = c->shared_dynamic;
            S[PTX_SREG_TOTAL_SMEM_SIZE * 32 + l] = c->shared_bytes;
            for (int k = 0; k < 3; k++) {        /* every block a cluster of one (no cluster launch) */
                S[(PTX_SREG_NCLUSTERID_X + k) * 32 + l] = L->grid[k];
                S[(PTX_SREG_CLUSTER_CTAID_X + k) * 32 + l] = 0;
                S[(PTX_SREG_CLUSTER_NCTAID_X + k) * 32 + l] = 1;
            }
            S[PTX_SREG_CLUSTER_CTARANK * 32 + l] = 0;
            S[PTX_SREG_CLUSTER_NCTARANK * 32 + l] = 1;
            S[PTX_SREG_IS_EXPLICIT_CLUSTER * 32 + l] = 0;
        }
    }
    return 0;
}

static void free_ctx(sim_ctx *c)
{
    if (c->warps) {
        for (uint32_t i = 0; i < c->nwarps; i++) {
            free(c->warps[i].file);
            free(c->warps[i].stack);
            free(c->warps[i].local);
        }
        free(c->warps);
    }
    if (c->nregions > c->res->nbuffers) free(c->region[c->nregions - 1].data); /* module globals */
    free(c->param);
    free(c->shared);
    sim_tc_free(c);
    sim_program_free(&c->prog);
}

/* --- blocks ---------------------------------------------------------------- */

static void refresh_clock(sim_ctx *c, sim_warp *w)
{
    uint64_t *S = w->file + c->prog.sreg_off;
    uint64_t t = c->warp_insns;
    for (int l = 0; l < 32; l++) {
        S[PTX_SREG_CLOCK * 32 + l] = (uint32_t)t;
        S[PTX_SREG_CLOCK_HI * 32 + l] = (uint32_t)(t >> 32);
        S[PTX_SREG_CLOCK64 * 32 + l] = t;
        S[PTX_SREG_GLOBALTIMER * 32 + l] = t;
    }
}

static bool uses_clock(const sim_program *p)
{
    for (int i = 0; i < p->n; i++)
        if (p->insns[i].reads_clock) return true;
    return false;
}

/* Every live warp waits at a barrier: release them, or report misuse. Warps that
 * have exited do not hold a barrier up: bar.sync waits only for the non-exited
 * threads of the block (PTX ISA, barrier), so `if (t >= n) return;` before
 * __syncthreads() is legal even when it empties whole warps. */
static int release_barrier(sim_ctx *c)
{
    sim_warp *first = NULL;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        sim_warp *w = &c->warps[i];
        if (w->state != SIM_W_BAR) continue;
        if (!first) first = w;
        else if (w->bar_pc != first->bar_pc) {
            const ptx_insn *a = c->prog.insns[first->bar_pc].pi;
            const ptx_insn *b = c->prog.insns[w->bar_pc].pi;
            return sim_fault(c, first, &c->prog.insns[first->bar_pc], -1,
                             "warps wait at different barriers: warp %u at line %d (PTX line %d), "
                             "warp %u at line %d (PTX line %d)",
                             first->index, a->src_line, a->ptx_line, w->index, b->src_line, b->ptx_line);
        }
    }
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].state == SIM_W_BAR) c->warps[i].state = SIM_W_RUN;
    if (c->cfg->on_sync)                         /* racecheck: a new barrier interval */
        c->cfg->on_sync(c->cfg->sync_ctx, c->block_linear, WS_SYNC_BARRIER, c->prog.insns[first->bar_pc].pi->src_line);
    return 0;
}

static int run_block(sim_ctx *c, bool clock)
{
    if (c->shared_bytes) memset(c->shared, 0xCD, c->shared_bytes);   /* poison: read-before-write shows */
    if (c->tc) sim_tc_block_start(c);                                 /* no cp.async in flight */
    if (c->cfg->on_sync) c->cfg->on_sync(c->cfg->sync_ctx, c->block_linear, WS_SYNC_BLOCK_START, 0); /* racecheck */
    for (uint32_t i = 0; i < c->nwarps; i++) {
        sim_warp *w = &c->warps[i];
        uint64_t *S = w->file + c->prog.sreg_off;
        for (int l = 0; l < 32; l++) {
            S[PTX_SREG_CTAID_X * 32 + l] = c->block[0];
            S[PTX_SREG_CTAID_Y * 32 + l] = c->block[1];
            S[PTX_SREG_CTAID_Z * 32 + l] = c->block[2];
            for (int k = 0; k < 3; k++) S[(PTX_SREG_CLUSTERID_X + k) * 32 + l] = c->block[k];
        }
        w->sp = 1;
        w->stack[0].pc = 0;
        w->stack[0].rpc = -1;
        w->stack[0].mask = w->exists;
        w->live = w->exists;
        w->carry = 0;
        w->state = c->prog.n ? SIM_W_RUN : SIM_W_DONE;
        w->exit_pc = -1;
    }
    for (;;) {
        bool any_run = false, any_bar = false;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            sim_warp *w = &c->warps[i];
            if (w->state == SIM_W_RUN) {
                if (clock) refresh_clock(c, w);
                if (sim_warp_run(c, w)) return -1;
                if (c->thread_insns > c->budget) {
                    int pc = w->state == SIM_W_DONE ? (w->exit_pc >= 0 ? w->exit_pc : 0) : w->stack[w->sp - 1].pc;
                    if (pc >= c->prog.n) pc = c->prog.n - 1;
                    return sim_fault(c, w, &c->prog.insns[pc], -1,
                                     "stopped after the instruction budget of %" PRIu64 " thread-instructions; "
                                     "this warp was at this line (a loop that never ends? a bigger launch needs --budget N)", c->budget);
                }
            }                                    /* round robin: one slice, then the next warp */
            any_run |= w->state == SIM_W_RUN;
            any_bar |= w->state == SIM_W_BAR;
        }
        if (any_run) continue;
        if (!any_bar) {
            if (c->cfg->on_sync) c->cfg->on_sync(c->cfg->sync_ctx, c->block_linear, WS_SYNC_BLOCK_END, 0); /* racecheck */
            return 0;
        }
        if (release_barrier(c)) return -1;
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
    const ws_device *most = NULL;
    for (const ws_device *const *d = ws_device_all(); *d; d++)
        if (!most || (*d)->smem_per_block_optin > most->smem_per_block_optin) most = *d;
    if (most && window > most->smem_per_block_optin) {
        ws_error_set(c->err, where_file(c), L->desc ? L->desc->line : 0, 0,
                     "%s: a block needs %" PRIu64 " bytes of shared memory (%" PRIu64 " static + %" PRIu64
                     " dynamic), more than any GPU gives one block (%s: %u bytes)",
                     c->kname, window, st, (uint64_t)L->shared_bytes, most->name, most->smem_per_block_optin);
        return -1;
    }
    uint64_t tpb = (uint64_t)L->block[0] * L->block[1] * L->block[2];
    if (nblocks > c->budget / tpb) {
        ws_error_set(c->err, where_file(c), L->desc ? L->desc->line : 0, 0,
                     "%s: %" PRIu64 " blocks of %" PRIu64 " threads cannot finish within the instruction budget of %"
                     PRIu64 " thread-instructions (each thread runs at least one); simulate fewer blocks or make "
                     "the problem smaller with -D overrides", c->kname, nblocks, tpb, c->budget);
        return -1;
    }
    return 0;
}

static int check_host_memory(sim_ctx *c)
{
    const ws_launch *L = c->L;
    uint64_t limit = c->cfg->max_host_bytes ? c->cfg->max_host_bytes : SIM_DEFAULT_HOST_BYTES;
    uint64_t tpb = (uint64_t)L->block[0] * L->block[1] * L->block[2];
    uint64_t nwarps = (tpb + 31) / 32, per_warp, warps, need = c->mod->global_bytes + c->shared_bytes;
    for (int i = 0; i < L->nbuffers; i++) need += L->buffers[i].bytes;   /* <= limit: alloc_buffers checked */
    bool over = __builtin_mul_overflow((uint64_t)c->local_bytes, 32, &per_warp) ||
                __builtin_add_overflow(per_warp, (uint64_t)c->prog.file_words * 8, &per_warp) ||
                __builtin_add_overflow(per_warp, (uint64_t)(2 * c->prog.n + 8) * sizeof(sim_simt_entry), &per_warp) ||
                __builtin_mul_overflow(per_warp, nwarps, &warps) || __builtin_add_overflow(need, warps, &need);
    if (over || need > limit) {
        ws_error_set(c->err, where_file(c), L->desc ? L->desc->line : 0, 0,
                     "%s: simulating a block needs %s%" PRIu64 " bytes of host memory (buffers, %" PRIu64
                     " bytes of shared memory, and %" PRIu64 " warps of registers and %" PRIu64 "-byte local frames), "
                     "more than the simulator's limit of %" PRIu64 " bytes",
                     c->kname, over ? "more than " : "", over ? UINT64_MAX : need, c->shared_bytes, nwarps,
                     (uint64_t)c->local_bytes, limit);
        return -1;
    }
    return 0;
}

int ws_sim_run(const ws_sim_config *cfg, ws_sim_result *res, ws_error *err)
{
    memset(res, 0, sizeof *res);
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
    if (c->L->desc) snprintf(c->kname, sizeof c->kname, "%s", c->L->desc->name);
    else plain_name(c->fn->name, c->kname, sizeof c->kname);

    const ws_launch *L = c->L;
    uint64_t nblocks_all = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    uint64_t first = cfg->first_block, count = cfg->num_blocks ? cfg->num_blocks : nblocks_all;
    int rc = -1;
    if ((uint64_t)L->block[0] * L->block[1] * L->block[2] == 0 || nblocks_all == 0) {
        ws_error_set(err, cfg->source_file ? cfg->source_file : c->mod->path, 0, 0, "%s: empty grid or block", c->kname);
        return -1;
    }
    if (first >= nblocks_all || count > nblocks_all - first) {
        ws_error_set(err, cfg->source_file ? cfg->source_file : c->mod->path, 0, 0,
                     "%s: blocks %" PRIu64 "..%" PRIu64 " asked for, but the grid has %" PRIu64 " blocks",
                     c->kname, first, first + count - 1, nblocks_all);
        return -1;
    }
    if (check_launch_limits(c, count)) return -1;
    if ((uint64_t)c->fn->cluster[0] * (c->fn->cluster[1] ? c->fn->cluster[1] : 1) * (c->fn->cluster[2] ? c->fn->cluster[2] : 1) > 1) {
        ws_error_set(err, cfg->source_file ? cfg->source_file : c->mod->path, 0, 0,
                     "%s: the kernel is launched in thread-block clusters of %dx%dx%d blocks (__cluster_dims__); the "
                     "simulator runs one block at a time and refuses cluster launches", c->kname, c->fn->cluster[0],
                     c->fn->cluster[1], c->fn->cluster[2]);
        return -1;
    }
    if (alloc_buffers(c) || build_params(c)) goto out;
    c->cnst = c->mod->const_image;
    c->const_bytes = c->mod->const_image ? c->mod->const_bytes : 0;
    c->shared_static = c->fn->static_shared_bytes;
    c->shared_dynamic = L->shared_bytes;
    c->shared_bytes = L->shared_bytes
        ? (c->fn->dyn_shared_offset > c->shared_static ? c->fn->dyn_shared_offset : c->shared_static) + L->shared_bytes
        : c->shared_static;
    c->shared = malloc(c->shared_bytes ? c->shared_bytes : 1);
    c->local_bytes = c->fn->local_bytes;
    res->pc_warp_count = calloc((size_t)(c->fn->ninsns ? c->fn->ninsns : 1), sizeof *res->pc_warp_count);
    if (!c->shared || !res->pc_warp_count) {
        ws_error_set(err, c->mod->path, 0, 0, "%s: out of memory", c->kname);
        goto out;
    }
    if (sim_decode(c) || check_host_memory(c)) goto out;
    if (alloc_warps(c)) {
        ws_error_set(err, c->mod->path, 0, 0, "%s: out of memory for %u warps", c->kname, c->nwarps);
        goto out;
    }
    bool clock = uses_clock(&c->prog);
    uint64_t step = count / 200 ? count / 200 : 1;
    uint64_t gx = L->grid[0], gy = L->grid[1];
    for (uint64_t k = 0; k < count; k++) {
        uint64_t b = first + k;
        c->block_linear = (uint32_t)b;
        c->block[0] = (uint32_t)(b % gx);
        c->block[1] = (uint32_t)((b / gx) % gy);
        c->block[2] = (uint32_t)(b / (gx * gy));
        if (run_block(c, clock)) goto out;
        if (cfg->progress && ((k + 1) % step == 0 || k + 1 == count)) cfg->progress(cfg->progress_ctx, k + 1, count);
    }
    rc = 0;
out:
    res->thread_insns = c->thread_insns;
    res->warp_insns = c->warp_insns;
    res->mem_events = c->seq;
    free_ctx(c);
    if (rc) {                                    /* nothing to hand back but the counters */
        for (int i = 0; i < res->nbuffers; i++) { free(res->buffer_data[i]); res->buffer_data[i] = NULL; }
        res->nbuffers = 0;
        free(res->pc_warp_count);
        res->pc_warp_count = NULL;
    }
    return rc;
}

void ws_sim_result_free(ws_sim_result *res)
{
    if (!res) return;
    for (int i = 0; i < res->nbuffers; i++) free(res->buffer_data[i]);
    free(res->pc_warp_count);
    memset(res, 0, sizeof *res);
}
