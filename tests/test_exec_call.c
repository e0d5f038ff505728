/* test_exec_call.c - the PTX real compilers emit, run through the default path (a .cu
 * with its descriptions, its checked-in PTX when fresh, the simulation pipeline):
 * calls with any arguments, recursion and its limit, calls through function tables,
 * local frames passed down, printf as the host formats it, a failed assert as the
 * GPU prints it, special registers, trap/brkpt, names past 128 characters, and a file
 * whose unsupported kernels are refused one by one while the others run.
 * Kernels in tests/data/calls; every expectation is computed here from the C. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/commands.h"
#include "../common/files.h"
#include "../sim/simulate.h"

#define DATA "tests/data/calls/"

static ws_catalog *cat;

static int load(void **state)
{
    (void)state;
    ws_error err;
    if (ws_catalog_load("demos", &cat, &err)) {
        ws_error_print(&err);
        return -1;
    }
    return 0;
}

static int unload(void **state)
{
    (void)state;
    ws_catalog_free(cat);
    return 0;
}

/* --- harness ---------------------------------------------------------------- */

typedef struct {
    ws_simulation s;
    ws_error err;
    int rc;
    char *printed;              /* what the kernel printed (printf, failed asserts) */
} run_t;

/* Opens "file.cu:kernel" of DATA and runs it on the H200 with printf captured. */
static int run(run_t *r, const char *kernel)
{
    memset(r, 0, sizeof *r);
    char arg[256];
    snprintf(arg, sizeof arg, DATA "%s", kernel);
    FILE *out = tmpfile();
    assert_non_null(out);
    r->rc = ws_simulation_open(&r->s, cat, arg, NULL, ws_device_find("h200"), NULL, &r->err);
    if (r->rc == WS_EXIT_OK) {
        ws_simulation_opts o = {.printf_out = out};
        r->rc = ws_simulation_run(&r->s, &o, &r->err);
    }
    long n = ftell(out);
    r->printed = calloc((size_t)n + 1, 1);
    assert_non_null(r->printed);
    rewind(out);
    assert_int_equal(fread(r->printed, 1, (size_t)n, out), (size_t)n);
    fclose(out);
    return r->rc;
}

static void run_ok(run_t *r, const char *kernel)
{
    if (run(r, kernel) != WS_EXIT_OK) {
        char msg[WS_PATH_MAX + WS_MSG_MAX + 32];
        ws_error_format(&r->err, msg, sizeof msg);
        fail_msg("%s: %s", kernel, msg);
    }
    assert_true(r->s.fn->is_entry);
}

static void done(run_t *r)
{
    ws_simulation_close(&r->s);
    free(r->printed);
}

/* Final contents of the buffer named name. */
static const void *buffer(const run_t *r, const char *name)
{
    for (int i = 0; i < r->s.launch.nbuffers; i++)
        if (!strcmp(r->s.launch.buffers[i].name, name)) return r->s.result.buffer_data[i];
    fail_msg("no buffer %s", name);
    return NULL;
}

/* The 1-based line of the first line of DATA file that contains needle. */
static int line_of(const char *file, const char *needle)
{
    char path[256];
    snprintf(path, sizeof path, DATA "%s", file);
    char *text = ws_read_file(path, 0, NULL, NULL);
    assert_non_null(text);
    const char *at = strstr(text, needle);
    assert_non_null(at);
    int line = 1;
    for (const char *p = text; p < at; p++) line += *p == '\n';
    free(text);
    return line;
}

static void assert_contains(const char *text, const char *needle)
{
    if (!strstr(text, needle)) fail_msg("'%s' is not in '%s'", needle, text);
}

/* --- calls ------------------------------------------------------------------- */

typedef struct { double d; int i[5]; char c; } pack;

/* abi.cu's mixed_args, in the same types and order (C11 keeps float sums in float). */
static double mixed_args(int a, long b, float c, double d, const int *p, pack s, short h, unsigned char u)
{
    if ((a & 1) == 0) return -(double)(a + b) + h;
    return a + b + c + d + p[0] + s.d + s.i[4] + s.c + h * u;
}

/* Eight arguments of six types, one a 32-byte struct by value, reach the callee; odd lanes
 * take a longer branch inside it than even ones, and every lane gets its own result. */
static void test_eight_arguments_and_a_struct_by_value_reach_the_callee_and_its_result_returns(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "abi.cu:many_arguments");
    const double *out = buffer(&r, "out");
    for (int t = 0; t < 64; t++) {
        int p = t;                              /* init=index */
        float f = (float)t;
        pack s;
        s.d = f * 0.5;
        for (int k = 0; k < 5; k++) s.i[k] = k * p;
        s.c = (char)(p % 7);
        double want = mixed_args(t, 10L * p, f * 0.25f, f + 2.0, &p, s, (short)(p - 40), (unsigned char)(p * 9));
        if (out[t] != want) fail_msg("lane %d: %.17g, want %.17g", t, out[t], want);
    }
    done(&r);
}

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

/* fib calls itself twice per level, to depth 11: every lane its own tree of calls. */
static void test_recursion_gives_each_lane_its_own_call_tree(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "abi.cu:recursion");
    const int *out = buffer(&r, "out");
    for (int t = 0; t < 32; t++) assert_int_equal(out[t], fib(t % 12));
    done(&r);
}

/* op_table[t % 3] holds the addresses of add, sub and mul: one warp calls three
 * functions through one call instruction, each lane the one its index picks. */
static void test_a_table_of_function_addresses_calls_each_lanes_own_target(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "abi.cu:function_table");
    const int *out = buffer(&r, "out");
    for (int t = 0; t < 32; t++) assert_int_equal(out[t], t % 3 == 0 ? t + 3 : t % 3 == 1 ? t - 3 : t * 3);
    done(&r);
}

/* fill() writes through a pointer to its caller's local array, from a frame above it:
 * out = sum_filled(n, v) + a[t % 4] with a[k] = t + k, sum_filled = sum (v + k)(k + 1). */
static void test_a_callee_writes_its_callers_local_array_through_a_generic_pointer(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "abi.cu:local_frames");
    const int *out = buffer(&r, "out");
    for (int t = 0; t < 32; t++) {
        int n = t % 8 + 1, v = 100 * t, s = 0;
        for (int k = 0; k < n; k++) s += (v + k) * (k + 1);
        assert_int_equal(out[t], s + t + t % 4);
    }
    done(&r);
}

/* runaway() never stops calling itself: the run stops at the depth limit, a kernel
 * fault that names the function and the line of the call. */
static void test_recursion_without_end_stops_at_the_depth_limit_with_a_located_fault(void **state)
{
    (void)state;
    run_t r;
    assert_int_equal(run(&r, "abi.cu:unbounded_recursion"), WS_EXIT_KERNEL_FAULT);
    assert_contains(r.err.msg, "calls nested 512 deep");
    assert_contains(r.err.msg, "runaway");
    assert_contains(r.err.msg, "recursion that does not end");
    assert_int_equal(r.err.line, line_of("abi.cu", "return runaway(stop, n + 1)"));
    done(&r);
}

/* --- printf ------------------------------------------------------------------ */

/* Appends printf(fmt, ...) as the host formats it. */
static void add(char **buf, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char **buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    *buf = realloc(*buf, *len + (size_t)n + 1);
    assert_non_null(*buf);
    va_start(ap, fmt);
    vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    *len += (size_t)n;
}

/* Every conversion CUDA's printf knows, with flags, widths, precisions (also '*') and
 * size words: the simulator's text is what the host's printf makes of the same values,
 * lane by lane in lane order; the last printf runs on odd lanes only. */
static void test_printf_prints_what_the_hosts_printf_makes_of_each_lanes_values(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "printf.cu:printf_formats");
    char *want = NULL;
    size_t len = 0;
    for (int t = 0; t < 8; t++) {
        int i = t * 37 - 100;
        add(&want, &len, "%d|%i|%u|%x|%X|%#x|%o|%5d|%-5d|%05d|%+d|%hd|%hhu\n", i, i, (unsigned)i * 7u, i, i, i, t, i,
            i, i, i, (short)(i * 1000), (unsigned char)(i + 300));
    }
    for (int t = 0; t < 8; t++) {
        float x = (float)t * 1.25f - 3.0f;
        add(&want, &len, "%f|%.3f|%e|%.2E|%g|%G|%10.4f|%-10.1f|%a|%%|%c%c\n", x, x, x * 1e6f, (double)x / 7,
            x * 1e-9f, (double)x * 1e20, x, x, (double)x, 'a' + t, '0' + t % 10);
    }
    for (int t = 0; t < 8; t++) {
        float x = (float)t * 1.25f - 3.0f;
        add(&want, &len, "%s|%.3s|%8s|%-8s|%ld|%lld|%lu|%llx|%*d|%.*f\n", "warp", "scope", "gpu", "sim",
            -123456789012L * t, 1LL << (40 + t), 42UL * t, 0xfeedfacecafeULL + t, t + 2, t, t % 4, (double)x);
    }
    for (int t = 1; t < 8; t += 2) add(&want, &len, "odd lane %d of block %d\n", t, 0);
    assert_string_equal(r.printed, want);
    assert_int_equal(r.s.result.printf_calls, 8 * 3 + 4);
    free(want);
    done(&r);
}

/* The GPU's printf FIFO (1 MiB) bounds what a launch prints: 32 lanes x 64 lines of 1,000 bytes
 * are 2,048,000 bytes; 1,048 whole lines (1,048,000 bytes) fit, the 1,049th does not, and from
 * there on everything is dropped and counted: the rest of the lines (1,000,000 bytes) and, per
 * lane, two fields of 999,999,999 characters plus "|" and "\n" (2,000,000,000 bytes), which are
 * never formatted (a field that alone passes the FIFO). */
static void test_printf_stops_at_the_gpus_fifo_and_counts_what_it_dropped(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "printf.cu:printf_flood");
    assert_int_equal(r.s.result.printf_bytes, 1048000);
    assert_int_equal(strlen(r.printed), 1048000);
    assert_int_equal(r.s.result.printf_dropped, 1000000ull + 32ull * 2000000000ull);
    const char *p = r.printed;
    for (int j = 0; j < 1048; j++) {              /* line j: k = j / 32 (all lanes print line k in turn) */
        char want[1001];
        snprintf(want, sizeof want, "%0999d\n", j / 32);
        if (strncmp(p, want, 1000)) fail_msg("line %d differs", j);
        p += 1000;
    }
    done(&r);
}

/* printf from a called function: blocks in order, lanes in order. */
static void test_printf_inside_a_called_function_prints_block_by_block(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "printf.cu:printf_in_a_function");
    char *want = NULL;
    size_t len = 0;
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 4; t++) add(&want, &len, "from a function: %d %.1f\n", b * 4 + t, t * 0.5);
    assert_string_equal(r.printed, want);
    free(want);
    done(&r);
}

/* %s of NULL prints "(null)"; precision cuts a string; past 32 arguments CUDA's printf
 * prints the format as it stands, so the 33rd %d appears as "%d". */
static void test_printf_prints_null_strings_and_stops_reading_after_32_arguments(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "printf.cu:printf_edges");
    char *want = NULL;
    size_t len = 0;
    add(&want, &len, "[(null)] [%5.2s] [%-6c] [%+.3e]\n", "abc", 'z', -1234.5);
    for (int i = 1; i <= 32; i++) add(&want, &len, "%d ", i);
    add(&want, &len, "%%d|\n");
    assert_string_equal(r.printed, want);
    free(want);
    done(&r);
}

/* Issue 21 item 10: "text" holds 8 x 'A' and no NUL; printf("[%s]") reads on to byte 8, past
 * its end. The fault names the buffer, where the string starts in it (byte 0) and its size. */
static void test_a_printf_string_past_its_buffers_end_names_the_buffer(void **state)
{
    (void)state;
    run_t r;
    assert_int_equal(run(&r, "printf_overrun.cu"), WS_EXIT_KERNEL_FAULT);
    assert_contains(r.err.msg, "while reading a printf %s argument: the string starts at byte 0 of buffer 'text' and "
                               "runs past the end of it (8 bytes) with no NUL");
    done(&r);
}

/* --- assert ------------------------------------------------------------------ */

/* idx[t] = t fails assert(idx[t] < 40) in threads 40..63, all in warp 1: each prints the
 * GPU's line "file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `cond` failed."
 * and the run stops as a kernel fault at that line, naming the first failing lane. */
static void test_a_failed_assert_prints_the_gpus_line_per_thread_and_faults(void **state)
{
    (void)state;
    run_t r;
    assert_int_equal(run(&r, "assert.cu:assert_in_bounds"), WS_EXIT_KERNEL_FAULT);
    int line = line_of("assert.cu", "assert(idx[t] < n)");
    char *want = NULL;
    size_t len = 0;
    for (int t = 40; t < 64; t++)
        add(&want, &len, "tests/data/calls/assert.cu:%d: void assert_in_bounds(const int *, int *, int): "
            "block: [0,0,0], thread: [%d,0,0] Assertion `idx[t] < n` failed.\n", line, t);
    assert_string_equal(r.printed, want);
    assert_int_equal(r.err.line, line);
    assert_contains(r.err.msg, "warp 1 lane 8");
    assert_contains(r.err.msg, "device-side assert failed");
    assert_contains(r.err.msg, "thread: [40,0,0] Assertion `idx[t] < n` failed.");
    free(want);
    done(&r);
}

/* --- special registers --------------------------------------------------------- */

/* Index of the n-th (0-based) instruction of fn that reads special register sreg. */
static int nth_read(const ptx_function *fn, ptx_sreg sreg, int n)
{
    for (int i = 0; i < fn->ninsns; i++)
        for (int k = 0; k < fn->insns[i].nopnd; k++)
            if (fn->insns[i].opnd[k].kind == PTX_OPND_SREG && fn->insns[i].opnd[k].sreg == sreg && n-- == 0) return i;
    fail_msg("%s read fewer times", ptx_sreg_name(sreg));
    return -1;
}

/* Two blocks of 32 x 2 threads: two warps each, 40 bytes of static shared memory
 * (16-aligned: dynamic starts at 48) and 256 dynamic. docs/interp.md lists the values. */
static void test_special_registers_read_the_documented_values(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "sregs.cu:special_registers");
    const uint64_t *out = buffer(&r, "out");
    int c0 = nth_read(r.s.fn, PTX_SREG_CLOCK64, 0), c1 = nth_read(r.s.fn, PTX_SREG_CLOCK64, 1);
    for (int b = 0; b < 2; b++)
        for (unsigned t = 0; t < 64; t++) {
            const uint64_t *o = out + (b * 64 + t) * 16;
            unsigned lane = t % 32;
            assert_int_equal(o[0], 32);                     /* warpSize: WARP_SZ */
            assert_int_equal(o[1], lane);
            assert_int_equal(o[2], t / 32);                 /* %warpid: the warp's index in its block */
            assert_int_equal(o[3], 2);                      /* %nwarpid: warps per block */
            assert_int_equal(o[4], (1u << lane) - 1);       /* %lanemask_lt */
            assert_int_equal(o[5], (uint32_t)~((1u << lane) - 1));
            assert_int_equal(o[6], 0);                      /* %smid: one SM runs every block */
            assert_int_equal(o[7], 1);                      /* %nsmid */
            assert_int_equal(o[8], 0);                      /* %envreg0: a plain launch has none */
            assert_int_equal(o[9], 0);
            assert_int_equal(o[10], 256);                   /* %dynamic_smem_size */
            assert_int_equal(o[11], 48 + 256);              /* %total_smem_size: the block's window */
            assert_int_equal(o[12], (uint64_t)(c1 - c0));   /* %clock64: the instructions between the reads */
            assert_int_equal(o[14], 1);                     /* %cluster_nctarank: no clusters */
            assert_int_equal(o[15], t + t % 10);        /* dyn[t] + fixed[t % 10] */
        }
    /* %globaltimer reads the same count of warp instructions: the four warps run the same
     * straight-line code one after another, so each reads one warp's worth later */
    uint64_t per_warp = r.s.result.warp_insns / 4;
    assert_int_equal(r.s.result.warp_insns % 4, 0);
    for (int w = 1; w < 4; w++) assert_int_equal(out[w * 32 * 16 + 13] - out[13], w * per_warp);
    assert_int_equal(out[31 * 16 + 13], out[13]);           /* one value for the lanes of a warp */
    done(&r);
}

/* --- trap, brkpt, fences ------------------------------------------------------- */

static void test_trap_stops_the_kernel_naming_the_lane_and_line(void **state)
{
    (void)state;
    run_t r;
    assert_int_equal(run(&r, "trap.cu:trap_on_lane"), WS_EXIT_KERNEL_FAULT);
    assert_int_equal(r.err.line, line_of("trap.cu", "__trap();"));
    assert_contains(r.err.msg, "warp 1 lane 5");            /* thread 37 */
    assert_contains(r.err.msg, "trap executed");
    done(&r);
    assert_int_equal(run(&r, "trap.cu:breakpoint"), WS_EXIT_KERNEL_FAULT);
    assert_int_equal(r.err.line, line_of("trap.cu", "__brkpt();"));
    assert_contains(r.err.msg, "warp 0 lane 3");
    assert_contains(r.err.msg, "brkpt executed");
    done(&r);
}

static void test_nanosleep_fences_and_pmevent_run_as_no_ops(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "trap.cu:waits_and_fences");
    const int *out = buffer(&r, "out");
    for (int t = 0; t < 64; t++) assert_int_equal(out[t], t + 1000);
    done(&r);
}

/* --- a file with kernels the simulator refuses ------------------------------------ */

/* mixed.cu: healthy kernels run; a texture fetch and malloc refuse only the kernels that
 * reach them (directly or through a call), each naming the construct and the .cu line. */
static void test_unsupported_kernels_are_refused_one_by_one_and_the_others_run(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "mixed.cu:healthy");
    const float *f = buffer(&r, "out");
    for (int t = 0; t < 32; t++) assert_true(f[t] == t * 2.0f);
    done(&r);
    run_ok(&r, "mixed.cu:also_healthy");
    const int *o = buffer(&r, "out");
    for (int t = 0; t < 32; t++) assert_int_equal(o[t], 32 - t);
    done(&r);

    int fetch = line_of("mixed.cu", "out[threadIdx.x] = tex1Dfetch<float>(tex, threadIdx.x);");
    assert_int_equal(run(&r, "mixed.cu:uses_a_texture"), WS_EXIT_USAGE);
    assert_contains(r.err.file, "mixed.cu");
    assert_int_equal(r.err.line, fetch);
    assert_contains(r.err.msg, "kernel 'uses_a_texture' cannot be simulated");
    assert_contains(r.err.msg, "unsupported instruction 'tex.1d");
    done(&r);

    assert_int_equal(run(&r, "mixed.cu:calls_a_texture_helper"), WS_EXIT_USAGE);
    assert_int_equal(r.err.line, line_of("mixed.cu", "return tex1Dfetch<float>(tex, i) + 1.0f;"));
    assert_contains(r.err.msg, "kernel 'calls_a_texture_helper' cannot be simulated");
    assert_contains(r.err.msg, "in the function fetch(unsigned long long, int) that it calls");
    done(&r);

    assert_int_equal(run(&r, "mixed.cu:uses_the_heap"), WS_EXIT_USAGE);
    assert_int_equal(r.err.line, line_of("mixed.cu", "malloc(sizeof(int))"));
    assert_contains(r.err.msg, "call to 'malloc'");
    done(&r);
}

/* --- long names ---------------------------------------------------------------- */

/* A module variable, a device function and a kernel with names of 170-200 characters. */
static void test_names_past_128_characters_parse_and_run(void **state)
{
    (void)state;
    run_t r;
    run_ok(&r, "long_names.cu:long_names");
    const int *out = buffer(&r, "out");
    for (int t = 0; t < 32; t++) assert_int_equal(out[t], 3 * t + t);
    const ptx_module *m = r.s.mod;
    int longest = 0;
    for (int i = 0; i < m->nfuncs; i++) longest = strlen(m->funcs[i].name) > (size_t)longest ? (int)strlen(m->funcs[i].name) : longest;
    assert_true(longest > 170);
    /* the long-named kernel, launched through the interpreter (a description names at most 63) */
    const ptx_function *k = ptx_find_function(m, "a_kernel_whose_name_goes_on_and_on_well_past_the_old_limit_of_one_"
                                                 "hundred_and_twenty_eight_characters_that_the_ptx_parser_used_to_have_"
                                                 "for_every_identifier_of_the_ptx_parser_x");
    assert_non_null(k);
    assert_true(strlen(k->name) > 128);
    ws_launch L = r.s.launch;
    ws_sim_config cfg = {.module = m, .fn = k, .launch = &L, .source_file = DATA "long_names.cu"};
    ws_sim_result res;
    ws_error err;
    assert_int_equal(ws_sim_run(&cfg, &res, &err), 0);
    const int *o2 = res.buffer_data[0];
    for (int t = 0; t < 32; t++) assert_int_equal(o2[t], 5 * t);   /* the variable is zero in a fresh launch */
    ws_sim_result_free(&res);
    done(&r);
}

/* --- hand-written PTX ----------------------------------------------------------- */

#define HEADER ".version 9.0\n.target sm_90\n.address_size 64\n"

typedef struct {
    ptx_module *m;
    ws_launch L;
    ws_sim_config cfg;
    ws_sim_result res;
    ws_error err;
    int stores;                 /* global stores seen, and the active mask of the last */
    uint32_t last_mask;
} hand_t;

static void on_store(void *ctx, const ws_mem_event *ev)
{
    hand_t *h = ctx;
    if (ev->op == WS_MEM_STORE && ev->space == WS_SPACE_GLOBAL) { h->stores++; h->last_mask = ev->active_mask; }
}

/* Runs kernel k of text on one warp of 32 threads with out = int[32] filled with -1 and
 * %envreg0..31 from env (NULL: the default, zero). */
static int hand_run_env(hand_t *h, const char *text, const uint64_t *env)
{
    memset(h, 0, sizeof *h);
    h->cfg.envreg = env;
    h->m = ptx_parse("hand.ptx", text, &h->err);
    if (!h->m) fail_msg("%d:%d: %s", h->err.line, h->err.col, h->err.msg);
    ws_buffer *b = &h->L.buffers[0];
    snprintf(b->name, sizeof b->name, "out");
    b->type = WS_TYPE_INT;
    b->count = 32;
    b->bytes = 128;
    b->init = WS_INIT_CONST;
    b->const_value = -1;
    h->L.nbuffers = 1;
    h->L.nargs = 1;
    h->L.args[0].kind = WS_ARG_BUFFER;
    h->L.grid[0] = h->L.grid[1] = h->L.grid[2] = 1;
    h->L.block[0] = 32;
    h->L.block[1] = h->L.block[2] = 1;
    h->cfg.module = h->m;
    h->cfg.fn = ptx_find_function(h->m, "k");
    assert_non_null(h->cfg.fn);
    h->cfg.launch = &h->L;
    h->cfg.listener = on_store;
    h->cfg.listener_ctx = h;
    return ws_sim_run(&h->cfg, &h->res, &h->err);
}

static int hand_run(hand_t *h, const char *text) { return hand_run_env(h, text, NULL); }

static void hand_done(hand_t *h)
{
    ws_sim_result_free(&h->res);
    ptx_free(h->m);
}

static const char *const diverging_callee = HEADER
    ".func (.param .b32 r) f(.param .b32 x)\n{\n"
    "\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n"
    "\tld.param.u32 %r1, [x];\n"
    "\tsetp.lt.u32 %p1, %r1, 8;\n\t@%p1 bra EARLY;\n"          /* lanes 0-7 return early */
    "\tsetp.ge.u32 %p2, %r1, 24;\n\t@%p2 exit;\n"               /* lanes 24-31 end their thread */
    "\tadd.u32 %r2, %r1, 1000;\n\tst.param.b32 [r], %r2;\n\tret;\n"
    "EARLY:\n\tmov.u32 %r3, 100;\n\tst.param.b32 [r], %r3;\n\tret;\n}\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n"
    "\t{\n\t.param .b32 a;\n\t.param .b32 ret;\n\tst.param.b32 [a], %r1;\n"
    "\tcall.uni (ret), f, (a);\n\tld.param.b32 %r2, [ret];\n\t}\n"
    "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r2;\n\tret;\n}\n";

/* Inside the callee lanes 0-7 return early, 24-31 exit, 8-23 return later: the caller goes
 * on once, with the lanes that returned (one store, mask 0x00ffffff), each with its value. */
static void test_lanes_that_return_apart_reconverge_in_the_caller_and_exited_lanes_stay_gone(void **state)
{
    (void)state;
    hand_t h;
    assert_int_equal(hand_run(&h, diverging_callee), 0);
    const int *out = h.res.buffer_data[0];
    for (int t = 0; t < 32; t++) assert_int_equal(out[t], t < 8 ? 100 : t < 24 ? 1000 + t : -1);
    assert_int_equal(h.stores, 1);
    assert_int_equal(h.last_mask, 0x00ffffffu);
    hand_done(&h);
}

#define INDIRECT_BY_PARITY(odd_target) HEADER \
    ".func (.param .b32 r) twice(.param .b32 x)\n{\n\t.reg .b32 %r<3>;\n" \
    "\tld.param.u32 %r1, [x];\n\tadd.u32 %r2, %r1, %r1;\n\tst.param.b32 [r], %r2;\n\tret;\n}\n" \
    ".func (.param .b32 r) negate(.param .b32 x)\n{\n\t.reg .b32 %r<3>;\n" \
    "\tld.param.u32 %r1, [x];\n\tneg.s32 %r2, %r1;\n\tst.param.b32 [r], %r2;\n\tret;\n}\n" \
    ".func (.param .b32 r) two(.param .b32 x, .param .b32 y)\n{\n\tret;\n}\n" \
    ".visible .entry k(.param .u64 out)\n{\n" \
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n" \
    "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n" \
    "\tmov.u64 %rd4, twice;\n\tmov.u64 %rd5, " odd_target ";\n" \
    "\tand.b32 %r3, %r1, 1;\n\tsetp.eq.u32 %p1, %r3, 0;\n\tselp.b64 %rd6, %rd4, %rd5, %p1;\n" \
    "\t{\n\t.param .b32 a;\n\t.param .b32 ret;\n\tst.param.b32 [a], %r1;\n" \
    "\tproto : .callprototype (.param .b32 _) _ (.param .b32 _);\n" \
    "\tcall (ret), %rd6, (a), proto;\n\tld.param.b32 %r2, [ret];\n\t}\n" \
    "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r2;\n\tret;\n}\n"

/* Even lanes call twice(), odd lanes negate(), through one register: both groups run,
 * and the warp stores once, all 32 lanes together. */
static void test_an_indirect_call_runs_each_target_for_its_lanes_then_reconverges(void **state)
{
    (void)state;
    hand_t h;
    assert_int_equal(hand_run(&h, INDIRECT_BY_PARITY("negate")), 0);
    const int *out = h.res.buffer_data[0];
    for (int t = 0; t < 32; t++) assert_int_equal(out[t], t % 2 ? -t : 2 * t);
    assert_int_equal(h.stores, 1);
    assert_int_equal(h.last_mask, 0xffffffffu);
    hand_done(&h);
}

/* The odd lanes' target takes two parameters, the call passes one: a located fault. */
static void test_an_indirect_call_to_a_function_of_another_shape_is_a_located_fault(void **state)
{
    (void)state;
    hand_t h;
    assert_int_equal(hand_run(&h, INDIRECT_BY_PARITY("two")), -1);
    assert_non_null(strstr(h.err.msg, "the call passes 1 argument to two, which takes 2"));
    assert_int_equal(h.err.line, 41);                      /* the call's PTX line (no .loc): 3 + 8 + 8 + 4 + 18 */
    hand_done(&h);
}

/* %envreg0..31 read what the launch sets (a cooperative launch's grid workspace on a
 * GPU), and zero for a plain launch. */
static void test_envreg_reads_the_launchs_environment_values(void **state)
{
    (void)state;
    const char *text = HEADER ".visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
                       "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %envreg3;\n"
                       "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r2;\n"
                       "\tret;\n}\n";
    uint64_t env[32] = {0};
    env[3] = 0xabcd;
    hand_t h;
    assert_int_equal(hand_run_env(&h, text, env), 0);
    const int *out = h.res.buffer_data[0];
    for (int t = 0; t < 32; t++) assert_int_equal(out[t], 0xabcd);
    hand_done(&h);
    assert_int_equal(hand_run(&h, text), 0);
    out = h.res.buffer_data[0];
    for (int t = 0; t < 32; t++) assert_int_equal(out[t], 0);
    hand_done(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eight_arguments_and_a_struct_by_value_reach_the_callee_and_its_result_returns),
        cmocka_unit_test(test_recursion_gives_each_lane_its_own_call_tree),
        cmocka_unit_test(test_a_table_of_function_addresses_calls_each_lanes_own_target),
        cmocka_unit_test(test_a_callee_writes_its_callers_local_array_through_a_generic_pointer),
        cmocka_unit_test(test_recursion_without_end_stops_at_the_depth_limit_with_a_located_fault),
        cmocka_unit_test(test_printf_prints_what_the_hosts_printf_makes_of_each_lanes_values),
        cmocka_unit_test(test_printf_stops_at_the_gpus_fifo_and_counts_what_it_dropped),
        cmocka_unit_test(test_printf_inside_a_called_function_prints_block_by_block),
        cmocka_unit_test(test_a_printf_string_past_its_buffers_end_names_the_buffer),
        cmocka_unit_test(test_printf_prints_null_strings_and_stops_reading_after_32_arguments),
        cmocka_unit_test(test_a_failed_assert_prints_the_gpus_line_per_thread_and_faults),
        cmocka_unit_test(test_special_registers_read_the_documented_values),
        cmocka_unit_test(test_trap_stops_the_kernel_naming_the_lane_and_line),
        cmocka_unit_test(test_nanosleep_fences_and_pmevent_run_as_no_ops),
        cmocka_unit_test(test_unsupported_kernels_are_refused_one_by_one_and_the_others_run),
        cmocka_unit_test(test_names_past_128_characters_parse_and_run),
        cmocka_unit_test(test_lanes_that_return_apart_reconverge_in_the_caller_and_exited_lanes_stay_gone),
        cmocka_unit_test(test_an_indirect_call_runs_each_target_for_its_lanes_then_reconverges),
        cmocka_unit_test(test_an_indirect_call_to_a_function_of_another_shape_is_a_located_fault),
        cmocka_unit_test(test_envreg_reads_the_launchs_environment_values),
    };
    return cmocka_run_group_tests(tests, load, unload);
}
