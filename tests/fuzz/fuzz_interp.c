/* fuzz_interp.c - libFuzzer target for the warp interpreter (sim/interp.c and
 * friends) on fuzzed PTX: when the text parses, each entry runs on a tiny launch
 * (2 blocks of 48 threads, a 256-element buffer per pointer parameter, a small
 * instruction budget, memory errors as warnings). Invariant checked: the run
 * ends (success or a one-line error), and every event keeps sim/event.h's rules. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../sim/interp.h"
#include "fuzz_common.h"
#include "fuzz_ptx_check.h"

#define FUZZ_BUDGET 200000ull           /* thread-instructions per run: long loops end here */
#define FUZZ_HOST_BYTES (64ull << 20)   /* buffers beyond this are refused, not allocated */

typedef struct { uint64_t next_seq; } fuzz_listen;

static void fuzz_on_event(void *ctx, const ws_mem_event *ev)
{
    fuzz_listen *L = ctx;
    if (ev->seq != L->next_seq++) abort();                         /* 0, 1, 2 ... in order */
    if (ev->width != ev->elem_size * ev->vec || ev->width < 1 || ev->width > 16) abort();
    for (int l = 0; l < 32; l++)
        if (!(ev->active_mask >> l & 1) && ev->addr[l] != 0) abort(); /* inactive lanes read 0 */
    if (ev->warp >= 2) abort();                                     /* 48 threads: warps 0 and 1 */
}

/* A launch that fits any parameter list: pointers get a buffer, scalars a small value. */
static int fuzz_launch(const ptx_function *fn, ws_launch *L)
{
    memset(L, 0, sizeof *L);
    L->grid[0] = 2; L->grid[1] = L->grid[2] = 1;
    L->block[0] = 48; L->block[1] = L->block[2] = 1;
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
    fuzz_check_module(m);
    int ran = 0;
    for (int f = 0; f < m->nfuncs && ran < 2; f++) {
        const ptx_function *fn = &m->funcs[f];
        ws_launch L;
        if (!fn->is_entry || fuzz_launch(fn, &L)) continue;
        ran++;
        fuzz_listen lc = {0};
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
        ws_sim_result res;
        if (ws_sim_run(&cfg, &res, &err)) {
            fuzz_check_error(&err);
        } else {
            if (res.nbuffers != L.nbuffers || res.mem_events != lc.next_seq) abort();
            if (res.memory_warnings && !res.first_warning[0]) abort();
        }
        ws_sim_result_free(&res);
    }
    ptx_free(m);
    return 0;
}

#ifndef FUZZ_NO_MAIN /* tests/test_fuzz_regressions.c includes this file and calls fuzz_interp_one */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_interp_one(data, size); }
#endif
