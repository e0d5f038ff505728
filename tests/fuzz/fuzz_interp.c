/* fuzz_interp.c - libFuzzer target for the warp interpreter (sim/interp/interp.c and
 * friends) and the checkers behind it (racecheck, memcheck) on fuzzed PTX: when
 * the text parses, each entry runs on a tiny launch (1-3 blocks of 1-192
 * threads chosen from a hash of the input, a 256-element buffer per pointer
 * parameter, a small instruction budget, memory errors as warnings). Invariant
 * checked: the run ends (success or a one-line error), every event keeps
 * sim/interp/event.h's rules, and the memcheck counts add up to the total. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../sim/interp/interp.h"
#include "../../sim/interp/memcheck.h"
#include "../../sim/interp/racecheck.h"
#include "fuzz_common.h"
#include "fuzz_ptx_check.h"

#define FUZZ_BUDGET 200000ull           /* thread-instructions per run: long loops end here */
#define FUZZ_HOST_BYTES (64ull << 20)   /* buffers beyond this are refused, not allocated */

typedef struct { uint64_t next_seq; uint32_t nwarps; } fuzz_listen;

static void fuzz_on_event(void *ctx, const ws_mem_event *ev)
{
    fuzz_listen *L = ctx;
    if (ev->seq != L->next_seq++) abort();                         /* 0, 1, 2 ... in order */
    if (ev->width != ev->elem_size * ev->vec || ev->width < 1 || ev->width > 16) abort();
    for (int l = 0; l < 32; l++)
        if (!(ev->active_mask >> l & 1) && ev->addr[l] != 0) abort(); /* inactive lanes read 0 */
    if (ev->warp >= L->nwarps) abort();                             /* only warps the block has */
}

/* A launch that fits any parameter list: pointers get a buffer, scalars a small
 * value; the shape comes from h so partial warps and 2D blocks get exercised. */
static int fuzz_launch(const ptx_function *fn, ws_launch *L, uint64_t h)
{
    static const uint32_t bx[] = {1, 17, 32, 48, 64, 96};
    memset(L, 0, sizeof *L);
    L->grid[0] = 1 + (uint32_t)(h % 3); L->grid[1] = L->grid[2] = 1;
    L->block[0] = bx[(h >> 8) % 6]; L->block[1] = 1 + (uint32_t)((h >> 16) % 2); L->block[2] = 1;
    L->shared_bytes = 256;
    if (fn->nparams > WS_MAX_ARGS) return -1;
    for (int i = 0; i < fn->nparams; i++) {
        const ptx_symbol *s = &fn->syms[fn->param_syms[i]];
        ws_arg *a = &L->args[L->nargs++];
        if (s->size == 8 && L->nbuffers < WS_MAX_BUFFERS) {
            ws_buffer *b = &L->buffers[L->nbuffers];
            snprintf(b->name, sizeof b->name, "b%d", L->nbuffers);
            b->type = WS_TYPE_FLOAT;
            b->count = 256;
            b->bytes = 256 * 4;
            b->init = WS_INIT_INDEX;
            a->kind = WS_ARG_BUFFER;
            a->buffer = L->nbuffers++;
        } else {
            a->kind = WS_ARG_INT;
            a->ivalue = 37;
        }
    }
    return 0;
}

static int fuzz_interp_one(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    ws_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse("fuzz.ptx", text, &err);
    free(text);
    if (!m) return 0;
    uint64_t h = 0xcbf29ce484222325ull;                          /* FNV-1a of the input: the launch shape */
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3ull;
    fuzz_check_module(m);
    int ran = 0;
    for (int f = 0; f < m->nfuncs && ran < 2; f++) {
        const ptx_function *fn = &m->funcs[f];
        ws_launch L;
        if (!fn->is_entry || fuzz_launch(fn, &L, h)) continue;
        ran++;
        fuzz_listen lc = {0, (L.block[0] * L.block[1] + 31) / 32};
        ws_sim_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.module = m;
        cfg.fn = fn;
        cfg.launch = &L;
        cfg.source_file = "fuzz.cu";
        cfg.max_thread_insns = FUZZ_BUDGET;
        cfg.memory_errors_are_warnings = true;
        cfg.max_host_bytes = FUZZ_HOST_BYTES;
        cfg.listener = fuzz_on_event;
        cfg.listener_ctx = &lc;
        ws_racecheck *rc = ws_racecheck_new(L.block);
        if (!rc) abort();
        ws_racecheck_attach(rc, &cfg);
        ws_sim_result res;
        if (ws_sim_run(&cfg, &res, &err)) {
            fuzz_check_error(&err);
        } else {
            if (res.nbuffers != L.nbuffers || res.mem_events != lc.next_seq) abort();
            if (res.memory_warnings && res.first_warning.kind != WS_FAULT_MEMORY) abort();
            uint64_t sum = 0;
            for (int k = 0; k < WS_MEMERR_KINDS; k++) sum += res.memerr_count[k];
            if (sum != res.memory_warnings) abort();                /* memcheck adds up */
        }
        static FILE *devnull;
        if (!devnull) devnull = fopen("/dev/null", "w");
        if (devnull) {
            ws_racecheck_print(rc, devnull, "fuzz.cu", fn->name);
            ws_memcheck_print(&res, devnull);
        }
        ws_racecheck_free(rc);
        ws_sim_result_free(&res);
    }
    ptx_free(m);
    return 0;
}

#ifndef FUZZ_NO_MAIN /* tests/test_fuzz_regressions.c includes this file and calls fuzz_interp_one */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_interp_one(data, size); }
#endif
