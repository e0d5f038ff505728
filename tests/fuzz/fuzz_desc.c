/* fuzz_desc.c - libFuzzer target for the description parser (common/desc.c,
 * common/expr.c): parse, apply "// -D NAME=EXPR" lines as overrides, resolve,
 * fill small buffers. Invariant checked: the parser never crashes, and every
 * failure fills a one-line message with a sane location (ws_error.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/buffers.h"
#include "../../common/desc.h"
#include "fuzz_common.h"

/* Lines "// -D NAME=EXPR" in the input become overrides, so the fuzzer also
 * reaches the command-line path while seeds stay ordinary .cu files. */
static void collect_overrides(const char *text, ws_overrides *ov)
{
    memset(ov, 0, sizeof *ov);
    for (const char *p = strstr(text, "// -D "); p; p = strstr(p + 1, "// -D ")) {
        char line[256];
        const char *s = p + 6;
        size_t n = strcspn(s, "\n");
        if (n >= sizeof line) n = sizeof line - 1;
        memcpy(line, s, n);
        line[n] = '\0';
        ws_error err;
        if (ws_overrides_add(ov, line, &err)) fuzz_check_error(&err);
    }
}

static int fuzz_desc_one(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    ws_desc_file *f = NULL;
    ws_error err;
    memset(&err, 0, sizeof err);
    if (ws_desc_parse("fuzz.cu", text, &f, &err)) {
        fuzz_check_error(&err);
        free(text);
        return 0;
    }
    ws_overrides ov;
    collect_overrides(text, &ov);
    for (int k = 0; k < f->nkernels; k++) {
        const ws_kernel_desc *d = &f->kernels[k];
        if (ws_desc_find(f, d->name) == NULL) abort(); /* every parsed description is findable */
        ws_launch L;
        for (int pass = 0; pass < 2; pass++) {
            if (ws_desc_resolve(d, pass ? &ov : NULL, &L, &err)) {
                fuzz_check_error(&err);
                continue;
            }
            for (int b = 0; b < L.nbuffers; b++) {
                const ws_buffer *B = &L.buffers[b];
                if (B->bytes != B->count * ws_type_size(B->type)) abort();
                if (B->bytes > 1 << 16) continue; /* contents, not size, are what is fuzzed */
                void *mem = malloc(B->bytes ? B->bytes : 1);
                ws_buffer_fill(B, mem);
                char s[64];
                if (B->count) ws_buffer_format_scalar(B, mem, B->count - 1, s, sizeof s);
                free(mem);
            }
        }
    }
    ws_desc_free(f);
    free(text);
    return 0;
}

#ifndef FUZZ_NO_MAIN /* tests/test_fuzz_regressions.c includes this file and calls fuzz_desc_one */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_desc_one(data, size); }
#endif
