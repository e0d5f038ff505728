/* test_cmd_sim.c - `warpscope sim` end to end on catalog kernels (run from the
 * repository root): the JSON totals follow from the kernels' access patterns, and
 * bad command lines give the documented exit codes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../common/commands.h"
#include "capture.h"
#include "fresh_cache.h"

/* Runs ws_cmd_sim with argv (NULL-terminated), stdout captured into *out (malloc'd). */
static int run_sim(char **out, ...)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = "sim";
    va_list ap;
    va_start(ap, out);
    for (char *a; (a = va_arg(ap, char *)) && argc < 31;)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    return ws_test_capture(ws_cmd_sim, argc, argv, out);
}

static double total(cJSON *doc, const char *name)
{
    cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItem(doc, "totals"))
        if (!strcmp(cJSON_GetObjectItem(m, "name")->valuestring, name))
            return cJSON_GetObjectItem(m, "value")->valuedouble;
    fail_msg("metric %s missing", name);
    return -1;
}

static int setup(void **state)
{
    (void)state;
    setenv("WARPSCOPE_CATALOG", "demos", 1);
    return 0;
}

static void test_copy_of_n_floats_reads_n_over_8_sectors(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=8192", "--json", NULL), WS_EXIT_OK);
    cJSON *doc = cJSON_Parse(out);
    assert_non_null(doc);
    const double n = 8192;
    /* one warp instruction per 32 floats; 32 x 4 B = 4 sectors each */
    assert_true(total(doc, "smsp__sass_inst_executed_op_global_ld.sum") == n / 32);
    assert_true(total(doc, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == n / 32);
    assert_true(total(doc, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == n * 4 / 32);
    assert_true(total(doc, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == n * 4 / 32);
    assert_true(total(doc, "lts__t_sectors_srcunit_tex_op_read.sum") == n * 4 / 32); /* cold: all miss L1 */
    cJSON *timing = cJSON_GetObjectItem(doc, "timing");
    assert_true(cJSON_GetObjectItem(timing, "predicted_us")->valuedouble > 0);
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "lines")) >= 2); /* a load row and a store row */
    cJSON_Delete(doc);
    free(out);
}

static void test_shared_stride_2_costs_two_wavefronts_per_access(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "shared_stride_s2", "-D", "N=2048", "--json", NULL), WS_EXIT_OK);
    cJSON *doc = cJSON_Parse(out);
    assert_non_null(doc);
    const double warps = 2048 / 32;
    /* lanes l and l+16 share a bank at stride 2: gcd(2, 32) = 2 wavefronts, 1 ncu conflict */
    assert_true(total(doc, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 2 * warps);
    assert_true(total(doc, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 2 * warps);
    assert_true(total(doc, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == warps);
    cJSON_Delete(doc);
    free(out);
}

/* The registers ptxas -v reports for entry when nvcc compiles path for arch with the options
 * warpscope's PTX is made with (-O3 -lineinfo); -1 when there is no nvcc here. */
static int toolkit_regs(const char *path, const char *arch, const char *entry)
{
    const char *nvcc = access("/usr/local/cuda/bin/nvcc", X_OK) == 0 ? "/usr/local/cuda/bin/nvcc" : "nvcc";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s -cubin -arch=%s -O3 -lineinfo -Xptxas -v -o /dev/null %s 2>&1", nvcc, arch, path);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    char line[1024];
    bool in_entry = false;
    int regs = -1;
    while (fgets(line, sizeof line, p)) {
        const char *q = strstr(line, "Compiling entry function '");
        if (q) in_entry = !strncmp(q + strlen("Compiling entry function '"), entry, strlen(entry));
        else if (in_entry && (q = strstr(line, "Used ")) && regs < 0) sscanf(q, "Used %d registers", &regs);
    }
    return pclose(p) == 0 ? regs : -1;
}

static void test_device_t4_compiles_for_sm_75_and_says_so(void **state)
{
    (void)state;
    /* matmul_tiled32 is matmul_tiled; sm_75 allocates it other registers than sm_90 */
    int want = toolkit_regs("demos/matmul.cu", "sm_75", "_Z12matmul_tiledPfS_S_iii");
    char *out;
    assert_int_equal(run_sim(&out, "matmul_tiled32", "--device", "t4", NULL), WS_EXIT_OK);
    const char *res = strstr(out, "\nresources  ");
    assert_non_null(res);
    if (want > 0) {
        char expect[160];
        snprintf(expect, sizeof expect, "\nresources  %d registers/thread (ptxas -arch=sm_75, run now", want);
        print_message("  ptxas -arch=sm_75 gives %d registers\n", want);
        assert_memory_equal(res, expect, strlen(expect));
    } else {                                   /* no toolkit: the sm_90 figures, named as an approximation */
        assert_non_null(strstr(res, "ptxas for sm_90, demos/matmul.resources, used for sm_75 as an approximation"));
    }
    free(out);
    /* the default profile keeps the checked-in sm_90 report */
    assert_int_equal(run_sim(&out, "matmul_tiled32", NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, " registers/thread (ptxas, demos/matmul.resources)"));
    free(out);
}

static void test_text_csv_and_compare_forms_run(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    assert_non_null(strstr(out, "predicted"));
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--csv", NULL), WS_EXIT_OK);
    assert_memory_equal(out, "kernel,variant,scope,line,metric,unit,value,basis,verdict,cause\n", 63);
    assert_non_null(strstr(out, "\ncopy_float,N=4096,kernel,,ws__predicted_time_us,us,"));
    free(out);
    assert_int_equal(run_sim(&out, "--compare", "shared_stride_s1", "shared_stride_s32", "-D", "N=1024", NULL),
                     WS_EXIT_OK);
    assert_non_null(strstr(out, "B/A"));
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--device", "t4", NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "T4"));
    free(out);
}

/* tests/data/results/h200.json records copy_float with -D N=4096: 0.00512 ms median of
 * 20 runs, 32768 bytes / 5.12 us = 6.4 GB/s. */
#define FIXTURE "tests/data/results"

static void test_sim_shows_the_gpu_run_recorded_with_the_same_overrides(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--results", FIXTURE, NULL), WS_EXIT_OK);
    const char *want = "\nmeasured   5.12 us median (20 runs), 6.4 GB/s on NVIDIA H200, 2026-11-30 "
                       "(tests/data/results/h200.json)\n";
    assert_non_null(strstr(out, want));
    assert_true(strstr(out, want) > strstr(out, "\npredicted ")); /* after the prediction */
    free(out);
}

static void test_a_run_with_other_overrides_is_named_as_such(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=8192", "--results", FIXTURE, NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "\nmeasured   on NVIDIA H200 only with -D N=4096: 5.12 us median (20 runs), 6.4 GB/s, "
                                "2026-11-30 (tests/data/results/h200.json)\n"));
    free(out);
    /* two runs recorded, neither at these sizes: the one shown, then the other by its -D */
    assert_int_equal(run_sim(&out, "transpose_padded", "-D", "W=64", "-D", "H=64", "--results", FIXTURE, NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "\nmeasured   on NVIDIA H200 only with -D W=8192 H=8192 (also -D W=4096 H=4096): "));
    free(out);
    /* no file for the T4: no measured line at all */
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--device", "t4", "--results", FIXTURE, NULL),
                     WS_EXIT_OK);
    assert_null(strstr(out, "measured "));
    free(out);
}

static void test_json_csv_and_compare_carry_the_measurement(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--results", FIXTURE, "--json", NULL), WS_EXIT_OK);
    cJSON *doc = cJSON_Parse(out);
    assert_non_null(doc);
    cJSON *m = cJSON_GetObjectItem(doc, "measured");
    assert_true(cJSON_IsObject(m));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(m, "same_overrides")));
    assert_true(fabs(cJSON_GetObjectItem(m, "median_us")->valuedouble - 5.12) < 1e-9);
    assert_true(cJSON_GetObjectItem(m, "bandwidth_gbs")->valuedouble == 6.4);
    assert_int_equal(cJSON_GetObjectItem(m, "reps")->valueint, 20);
    assert_string_equal(cJSON_GetObjectItem(m, "gpu")->valuestring, "NVIDIA H200");
    cJSON_Delete(doc);
    free(out);

    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--device", "t4", "--results", FIXTURE, "--json", NULL),
                     WS_EXIT_OK);
    doc = cJSON_Parse(out);
    assert_non_null(doc);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(doc, "measured")));
    cJSON_Delete(doc);
    free(out);

    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--results", FIXTURE, "--csv", NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "\ncopy_float,N=4096,kernel,,ws__measured_time_us,us,5.12,measured,,\n"));
    assert_non_null(strstr(out, "\ncopy_float,N=4096,kernel,,ws__measured_bandwidth_gbs,GB/s,6.4,measured,,\n"));
    free(out);
    /* a run of another size is not this launch's row */
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=8192", "--results", FIXTURE, "--csv", NULL), WS_EXIT_OK);
    assert_null(strstr(out, "ws__measured"));
    free(out);

    assert_int_equal(run_sim(&out, "--compare", "copy_float", "copy_float4", "-D", "N=4096", "--results", FIXTURE, NULL),
                     WS_EXIT_OK);
    assert_non_null(strstr(out, "\n  A measured 5.12 us median (20 runs), 6.4 GB/s on NVIDIA H200"));
    assert_null(strstr(out, "B measured")); /* nothing recorded for copy_float4 */
    free(out);
}

static void test_bad_command_lines_exit_with_usage(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "no_such_kernel_anywhere", NULL), WS_EXIT_USAGE);
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "--device", "nosuchgpu", NULL), WS_EXIT_USAGE);
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "--json", "--csv", NULL), WS_EXIT_USAGE);
    free(out);
    assert_int_equal(run_sim(&out, "--compare", "copy_float", NULL), WS_EXIT_USAGE);
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "-D", "NOPE=3", NULL), WS_EXIT_USAGE);
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "--frobnicate", NULL), WS_EXIT_USAGE);
    free(out);
    assert_int_equal(run_sim(&out, "--help", NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "--compare"));
    free(out);
}

/* Probe B of the architecture review: the options once lived in a global never reset, so a
 * second in-process call ran with the first one's --budget and failed. */
static void test_a_second_in_process_call_does_not_inherit_the_first_calls_budget(void **state)
{
    (void)state;
    char *out;
    /* 4096 threads each execute at least one instruction: more than 1000 thread-instructions, so
     * the launch is refused before it runs (an input error, exit 1) */
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--budget", "1000", NULL), WS_EXIT_USAGE);
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", NULL), WS_EXIT_OK);
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--budget=1000", NULL), WS_EXIT_USAGE);
    free(out);
}

static void test_a_second_in_process_call_does_not_inherit_memcheck_or_its_findings(void **state)
{
    (void)state;
    char *out;
    /* the planted reduction reads shared memory past its end: --memcheck counts it and exits 2 */
    assert_int_equal(run_sim(&out, "--memcheck", "tests/data/planted/reduction_off_by_one.cu", NULL),
                     WS_EXIT_KERNEL_FAULT);
    free(out);
    /* a global flag kept "found" (and --memcheck) set: this clean kernel exited 2 */
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", NULL), WS_EXIT_OK);
    free(out);
}

static void test_options_take_their_value_after_an_equals_sign_too(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--device=t4", NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "T4"));
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "-DN=4096", "--results=" FIXTURE, NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "\nmeasured   5.12 us median (20 runs)"));
    free(out);
}

static void test_a_simulation_is_for_a_profile_and_shows_whole_source_lines(void **state)
{
    (void)state;
    /* the longest line of transpose_naive's range is its signature; read it from the file */
    FILE *f = fopen("demos/transpose.cu", "r");
    assert_non_null(f);
    char line[512], want[512] = "";
    while (fgets(line, sizeof line, f))
        if (strstr(line, "void transpose_naive(")) {
            line[strcspn(line, "\n")] = 0;
            snprintf(want, sizeof want, "%s", line + strspn(line, " \t"));
            break;
        }
    fclose(f);
    assert_true(strlen(want) > 44); /* longer than the old 44-column cut */
    char *out;
    assert_int_equal(run_sim(&out, "transpose_naive", "--lines", NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "simulated for NVIDIA H200 (profile h200"));
    assert_null(strstr(out, ") on NVIDIA")); /* never "ran on" the GPU */
    assert_non_null(strstr(out, want));
    free(out);
    /* --compare --lines: both per-line tables, A then B */
    assert_int_equal(run_sim(&out, "--compare", "transpose_naive", "transpose_coalesced", "--lines", NULL), WS_EXIT_OK);
    char *a = strstr(out, "\nA = transpose_naive\nper source line");
    char *b = strstr(out, "\nB = transpose_coalesced\nper source line");
    assert_non_null(a);
    assert_non_null(b);
    assert_true(a < b);
    assert_non_null(strstr(out, "simulated for NVIDIA H200 (profile h200)"));
    free(out);
}

#define CONTENTION "tests/data/atomics/contention.cu"

/* JSON of one contention kernel (tests/data/atomics/contention.cu) with N threads. */
static cJSON *contention_doc(const char *kernel, const char *n)
{
    char arg[128], d[32];
    snprintf(arg, sizeof arg, CONTENTION ":%s", kernel);
    snprintf(d, sizeof d, "N=%s", n);
    char *out;
    assert_int_equal(run_sim(&out, arg, "-D", d, "--json", NULL), WS_EXIT_OK);
    cJSON *doc = cJSON_Parse(out);
    free(out);
    assert_non_null(doc);
    return doc;
}

static bool has_note(cJSON *doc, const char *mechanism)
{
    cJSON *x;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "timing"), "notes"))
        if (!strcmp(cJSON_GetObjectItem(x, "mechanism")->valuestring, mechanism))
            return true;
    return false;
}

#define PROBE "tests/data/atomics/probe.cu"

/* JSON of one probe kernel (tests/data/atomics/probe.cu) with the given -D settings. */
static cJSON *probe_doc(const char *kernel, const char *d1, const char *d2)
{
    char arg[128];
    snprintf(arg, sizeof arg, PROBE ":%s", kernel);
    char *out;
    assert_int_equal(run_sim(&out, arg, "-D", d1, "-D", d2, "--json", NULL), WS_EXIT_OK);
    cJSON *doc = cJSON_Parse(out);
    free(out);
    assert_non_null(doc);
    return doc;
}

static void test_n_threads_adding_to_one_address_are_n_serialised_ops_and_n_sectors(void **state)
{
    (void)state;
    const double n = 16384;
    /* the probe's k_global, mode 0: the address is computed, so ptxas cannot aggregate it */
    cJSON *doc = probe_doc("probe_g_red", "THREADS=16384", "MODE=0");
    /* 32 lanes on one word: 32 sectors per instruction (RED in SASS, atom at PTX level) */
    double sectors = total(doc, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum") +
                     total(doc, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum");
    assert_true(sectors == n);
    /* from the SMs, L2's op_atom row counts ATOMs only (RED under op_red, as the H200 does) */
    assert_true(total(doc, "lts__t_sectors_srcunit_tex_op_atom.sum") ==
                total(doc, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"));
    assert_true(total(doc, "lts__t_sectors_op_red.sum") + total(doc, "lts__t_sectors_op_atom.sum") == 1.5 * n);
    cJSON *t = cJSON_GetObjectItem(doc, "timing");
    /* the H200 profile: 0.732 ns per same-address op (results/h200-contention.md) */
    assert_true(fabs(cJSON_GetObjectItem(t, "atomics_us")->valuedouble - n * 0.732 / 1000.0) < 1e-9);
    assert_string_equal(cJSON_GetObjectItem(t, "bound")->valuestring, "atomics (same-address contention)");
    assert_string_equal(cJSON_GetObjectItem(t, "confidence")->valuestring, "low");
    assert_true(has_note(doc, "contended atomics"));
    cJSON_Delete(doc);
    /* atomicAdd(&ctr[0], 1): in the machine code ptxas aggregates it over the warp (VOTEU.ANY,
     * POPC, one elected lane's RED): one lane-op and one sector per warp */
    doc = contention_doc("red_one_address", "16384");
    const char *level = cJSON_GetObjectItem(doc, "counters_level")->valuestring;
    double per = strncmp(level, "SASS", 4) == 0 ? 32 : 1;
    if (per == 32)
        assert_non_null(strstr(level, "1 atomic(s) aggregated over the warp"));
    sectors = total(doc, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum") +
              total(doc, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum");
    assert_true(sectors == n / per);
    t = cJSON_GetObjectItem(doc, "timing");
    assert_true(fabs(cJSON_GetObjectItem(t, "atomics_us")->valuedouble - n / per * 0.732 / 1000.0) < 1e-9);
    cJSON_Delete(doc);
}

static void test_shared_bins_by_lane_pass_once_and_in_one_bank_32_times(void **state)
{
    (void)state;
    const double warps = 16384 / 32;
    cJSON *doc = contention_doc("shared_bins_lanes", "16384");
    assert_true(total(doc, "ws__shared_atom_passes.sum") == warps);
    cJSON_Delete(doc);
    doc = contention_doc("shared_bins_one_bank", "16384");
    assert_true(total(doc, "ws__shared_atom_passes.sum") == 32 * warps);
    cJSON_Delete(doc);
    doc = contention_doc("shared_one_word", "16384");   /* lanes on one word combine (H200, ncu) */
    assert_true(total(doc, "ws__shared_atom_passes.sum") == warps);
    assert_true(total(doc, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum") == warps); /* bank rule */
    cJSON_Delete(doc);
}

/* The line's JSON row: the (line, instructions) row whose kinds contain kind. */
static cJSON *line_row(cJSON *doc, const char *src_part, const char *kind)
{
    cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItem(doc, "lines"))
        if (strstr(cJSON_GetObjectItem(m, "source")->valuestring, src_part) &&
            strstr(cJSON_GetObjectItem(m, "instructions")->valuestring, kind))
            return m;
    fail_msg("no line row with %s and %s", src_part, kind);
    return NULL;
}

static void test_a_store_run_by_one_lane_of_32_is_three_percent_active(void **state)
{
    (void)state;
    char *out;
    /* reduce_interleaved: 256-thread blocks, `if (tid == 0) out[blockIdx.x] = smem[0]`: only warp 0
       of a block has tid 0, and it runs the store with 1 lane of 32 */
    assert_int_equal(run_sim(&out, "reduce_interleaved", "-D", "N=16384", "--json", NULL), WS_EXIT_OK);
    cJSON *doc = cJSON_Parse(out);
    assert_non_null(doc);
    const double blocks = 16384 / 256;
    assert_true(total(doc, "smsp__sass_inst_executed_op_global_st.sum") == blocks);
    assert_true(fabs(total(doc, "ws__active_lanes_global_op_st.pct") - 100.0 / 32) < 1e-9);
    /* the first load line: every lane of every warp reads one float */
    assert_true(total(doc, "ws__active_lanes_global_op_ld.pct") == 100);
    cJSON *st = line_row(doc, "out[blockIdx.x] = smem[0]", "st.global");
    assert_true(fabs(cJSON_GetObjectItem(st, "active_lanes_pct")->valuedouble - 3.125) < 1e-9);
    /* at its ideal sectors all the same: the active lanes are the waste the sectors do not show */
    assert_true(cJSON_GetObjectItem(st, "sectors")->valuedouble == cJSON_GetObjectItem(st, "sectors_ideal")->valuedouble);
    /* the kernel's SIMT rows are the interpreter's instruction counts */
    cJSON *simd = cJSON_GetObjectItem(doc, "simulation");
    assert_non_null(simd);
    double wi = cJSON_GetObjectItem(simd, "warp_instructions")->valuedouble;
    double ti = cJSON_GetObjectItem(simd, "thread_instructions")->valuedouble;
    assert_true(wi > 0 && ti > wi);
    assert_true(total(doc, "smsp__thread_inst_executed.sum") == ti);
    assert_true(fabs(total(doc, "smsp__average_thread_inst_executed_per_inst_executed.ratio") - ti / wi) < 1e-9);
    assert_true(fabs(total(doc, "ws__simt_efficiency.pct") - 100.0 * ti / (32 * wi)) < 1e-9);
    assert_true(total(doc, "ws__simt_efficiency.pct") < 100); /* tid % (2*s) thins the lanes */
    cJSON_Delete(doc);
    free(out);
    /* the text table has the lanes column: 3.1% on the store's row */
    assert_int_equal(run_sim(&out, "reduce_interleaved", "-D", "N=16384", NULL), WS_EXIT_OK);
    const char *row = strstr(out, "out[blockIdx.x] = smem[0]");
    assert_non_null(row);
    const char *eol = strchr(row, '\n');
    assert_non_null(strstr(row, "3.1%"));
    assert_true(strstr(row, "3.1%") < eol);
    assert_non_null(strstr(out, " lanes "));
    free(out);
}

static void test_a_cas_retry_loop_and_a_plain_copy_say_what_they_rest_on(void **state)
{
    (void)state;
    cJSON *doc = contention_doc("cas_max", "4096");
    assert_true(has_note(doc, "CAS retry loop"));
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "timing"), "confidence")->valuestring, "low");
    cJSON_Delete(doc);
    char *out;
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=8192", "--json", NULL), WS_EXIT_OK);
    doc = cJSON_Parse(out);
    free(out);
    cJSON *t = cJSON_GetObjectItem(doc, "timing");
    assert_string_equal(cJSON_GetObjectItem(t, "confidence")->valuestring, "high");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(t, "notes")), 0);
    assert_true(cJSON_GetObjectItem(t, "atomics_us")->valuedouble == 0);
    cJSON_Delete(doc);
}

static void test_compare_names_the_faster_variant_its_bounds_and_a_confidence(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "--compare", CONTENTION ":red_one_address", CONTENTION ":red_distinct", "-D",
                             "N=65536", "--json", NULL), WS_EXIT_OK);
    cJSON *doc = cJSON_Parse(out);
    free(out);
    assert_non_null(doc);
    cJSON *v = cJSON_GetObjectItem(doc, "verdict");
    assert_non_null(v);
    /* 65536 ops on one address (48 us at 0.732 ns each) against 65536 on distinct words */
    assert_string_equal(cJSON_GetObjectItem(v, "faster")->valuestring, "B");
    assert_true(cJSON_GetObjectItem(v, "ratio_a_over_b")->valuedouble > 1.25);
    assert_string_equal(cJSON_GetObjectItem(v, "bound_a")->valuestring, "atomics");
    assert_string_equal(cJSON_GetObjectItem(v, "confidence")->valuestring, "low"); /* A: contended atomics */
    cJSON_Delete(doc);
    /* two copies of one kernel: the same time, inside the model's error, launch-dominated */
    assert_int_equal(run_sim(&out, "--compare", "copy_float", "copy_float", "-D", "N=1024", "--json", NULL), WS_EXIT_OK);
    doc = cJSON_Parse(out);
    free(out);
    v = cJSON_GetObjectItem(doc, "verdict");
    assert_string_equal(cJSON_GetObjectItem(v, "confidence")->valuestring, "low");
    assert_true(cJSON_GetObjectItem(v, "ratio_a_over_b")->valuedouble == 1);
    assert_string_equal(cJSON_GetObjectItem(v, "faster")->valuestring, "same");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v, "launch_dominates_both")));
    /* 1024 floats: a few ns of traffic beside the 4.3-us launch: the launch limits each */
    assert_string_equal(cJSON_GetObjectItem(v, "limiter_a")->valuestring, "launch");
    assert_string_equal(cJSON_GetObjectItem(v, "limiter_b")->valuestring, "launch");
    cJSON_Delete(doc);
}

/* The text form says the same: who is faster and by how much, the confidence, each variant's
 * limiter, and that the launch dominates where it does. */
static void test_compare_text_gives_the_verdict_its_confidence_and_each_limiter(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "--compare", CONTENTION ":red_one_address", CONTENTION ":red_distinct", "-D",
                             "N=1048576", NULL), WS_EXIT_OK);
    /* A: 2^20 REDs on one address, one per warp after the warp's lanes combine: 32768 x 0.732 ns
       = 24 us of atomics, 5.6x the 4.3-us launch. B: distinct words, its work under the launch */
    assert_non_null(strstr(out, "  verdict: B faster ("));
    assert_non_null(strstr(out, "x), confidence low: the margin is well beyond")); /* low: A's contended atomics */
    assert_non_null(strstr(out, "  limited by: A atomics, B launch\n"));
    assert_null(strstr(out, "launch overhead dominates"));
    free(out);
    assert_int_equal(run_sim(&out, "--compare", "copy_float", "copy_float", "-D", "N=1024", NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "  verdict: B as fast as A (1.00x), confidence low: "));
    assert_non_null(strstr(out, "the launch overhead dominates both"));
    assert_non_null(strstr(out, "  limited by: A launch, B launch\n"));
    free(out);
}

int main(void)
{
    if (ws_test_fresh_cache()) return 1;   /* tools run now, not products an earlier run kept */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_of_n_floats_reads_n_over_8_sectors),
        cmocka_unit_test(test_n_threads_adding_to_one_address_are_n_serialised_ops_and_n_sectors),
        cmocka_unit_test(test_shared_bins_by_lane_pass_once_and_in_one_bank_32_times),
        cmocka_unit_test(test_a_cas_retry_loop_and_a_plain_copy_say_what_they_rest_on),
        cmocka_unit_test(test_compare_names_the_faster_variant_its_bounds_and_a_confidence),
        cmocka_unit_test(test_compare_text_gives_the_verdict_its_confidence_and_each_limiter),
        cmocka_unit_test(test_shared_stride_2_costs_two_wavefronts_per_access),
        cmocka_unit_test(test_text_csv_and_compare_forms_run),
        cmocka_unit_test(test_a_simulation_is_for_a_profile_and_shows_whole_source_lines),
        cmocka_unit_test(test_device_t4_compiles_for_sm_75_and_says_so),
        cmocka_unit_test(test_sim_shows_the_gpu_run_recorded_with_the_same_overrides),
        cmocka_unit_test(test_a_run_with_other_overrides_is_named_as_such),
        cmocka_unit_test(test_json_csv_and_compare_carry_the_measurement),
        cmocka_unit_test(test_bad_command_lines_exit_with_usage),
        cmocka_unit_test(test_a_second_in_process_call_does_not_inherit_the_first_calls_budget),
        cmocka_unit_test(test_a_second_in_process_call_does_not_inherit_memcheck_or_its_findings),
        cmocka_unit_test(test_options_take_their_value_after_an_equals_sign_too),
        cmocka_unit_test(test_a_store_run_by_one_lane_of_32_is_three_percent_active),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
