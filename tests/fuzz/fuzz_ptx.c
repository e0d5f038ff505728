/* fuzz_ptx.c - libFuzzer target for the PTX parser (sim/frontend/ptx_parse.c): any text
 * either parses into a fully resolved module (checked operand by operand,
 * then printed back) or fails with a one-line path:line:col error. */
#include <stdint.h>
#include <stdlib.h>

#include "../../sim/frontend/ptx.h"
#include "fuzz_common.h"
#include "fuzz_ptx_check.h"

static int fuzz_ptx_one(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    ws_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse("fuzz.ptx", text, &err);
    if (!m) fuzz_check_error(&err);
    else {
        fuzz_check_module(m);
        ptx_free(m);
    }
    free(text);
    return 0;
}

#ifndef FUZZ_NO_MAIN /* tests/test_fuzz_regressions.c includes this file and calls fuzz_ptx_one */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_ptx_one(data, size); }
#endif
