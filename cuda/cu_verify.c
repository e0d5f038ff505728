/* cu_verify.c - output comparison between GPU and simulator (see cu_verify.h). */
#include "cu_verify.h"

#include <stdio.h>
#include <string.h>

#include "../common/bufdiff.h"
#include "../common/buffers.h"
#include "../sim/interp/approx.h"

/* The first output of L that got and want disagree on (within bound), in err. */
static int verify(const ws_launch *L, void *const *got, void *const *want, const ws_fp_bound *bound,
                  const char *how, ws_error *err)
{
    for (int i = 0; i < L->nbuffers; i++) {
        const ws_buffer *b = &L->buffers[i];
        if (!b->output || !b->bytes) continue;
        int64_t k = ws_buffer_compare_within(b, got[i], want[i], bound, NULL, NULL);
        if (k < 0) continue;
        char g[64], w[64], where[96], tol[400];
        ws_buffer_format_scalar(b, got[i], (uint64_t)k, g, sizeof g);
        ws_buffer_format_scalar(b, want[i], (uint64_t)k, w, sizeof w);
        int lanes = ws_type_lanes(b->type);
        if (lanes > 1)
            snprintf(where, sizeof where, "index %lld (element %lld, lane %d)", (long long)k, (long long)(k / lanes),
                     (int)(k % lanes));
        else
            snprintf(where, sizeof where, "index %lld", (long long)k);
        /* the description's tolerance, and the approximate instructions' bound when there is one */
        char mine[64] = "";
        if (b->tol > 0 && b->ulp > 0) snprintf(mine, sizeof mine, "tolerance %g relative or %u ulp", b->tol, b->ulp);
        else if (b->tol > 0) snprintf(mine, sizeof mine, "tolerance %g relative", b->tol);
        else if (b->ulp > 0) snprintf(mine, sizeof mine, "within %u ulp", b->ulp);
        bool exact = !bound || (bound->ulps == 0 && bound->abs == 0);   /* ws_approx_describe says "bit-exact" */
        if (mine[0] && exact) snprintf(tol, sizeof tol, "%s", mine);
        else if (mine[0]) snprintf(tol, sizeof tol, "%s, or %s", mine, how);
        else snprintf(tol, sizeof tol, "%s", how ? how : "bit-exact");
        const char *file = L->desc && L->desc->file ? L->desc->file : "gpu";
        int line = L->desc ? L->desc->line : 0;
        ws_error_set(err, file, line, 0, "output '%s' differs from the simulator at %s: GPU %s, simulator %s (%.380s)",
                     b->name, where, g, w, tol);
        return 1;
    }
    return 0;
}

int cu_verify_outputs(const ws_launch *L, void *const *got, void *const *want, ws_error *err)
{
    return verify(L, got, want, NULL, NULL, err);
}

int cu_verify_outputs_approx(const ws_launch *L, const ptx_module *m, const ptx_function *fn, void *const *got,
                             void *const *want, char *how, size_t how_cap, ws_error *err)
{
    ws_approx_use use;
    ws_approx_scan(m, fn, &use);
    char text[400];
    ws_approx_describe(&use, text, sizeof text);
    if (how && how_cap) snprintf(how, how_cap, "%s", text);
    ws_fp_bound bound = {use.ulps, use.abs};
    return verify(L, got, want, &bound, text, err);
}

int cu_verify_diff_text(const ws_launch *L, const ptx_module *m, const ptx_function *fn, void *const *got,
                        void *const *want, const char *indent, char *out, size_t cap)
{
    ws_fp_bound bound = {0, 0};
    if (m && fn) {
        ws_approx_use use;
        ws_approx_scan(m, fn, &use);
        bound = (ws_fp_bound){use.ulps, use.abs};
    }
    int differ = 0;
    size_t n = 0;
    if (cap) out[0] = 0;
    for (int i = 0; i < L->nbuffers; i++) {
        const ws_buffer *b = &L->buffers[i];
        if (!b->output || !b->bytes) continue;
        ws_buffer_diff d;
        if (!ws_buffer_diff_of(b, got[i], want[i], &bound, &d)) continue;
        differ++;
        if (n + 1 < cap) n += strlen(ws_buffer_diff_text(b, &d, "simulator", "GPU", indent, out + n, cap - n));
    }
    return differ;
}

int cu_verify_simulate(const ptx_module *m, const ptx_function *fn, const ws_launch *L, ws_mem_listener listener,
                       void *listener_ctx, ws_sim_result *res, ws_error *err)
{
    ws_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.module = m;
    cfg.fn = fn;
    cfg.launch = L;
    cfg.source_file = L->desc ? L->desc->file : NULL;
    cfg.listener = listener;
    cfg.listener_ctx = listener_ctx;
    memset(res, 0, sizeof *res);
    return ws_sim_run(&cfg, res, err);
}
