/* test_check_replay.c - `warpscope check --replay`: a recorded run is re-simulated and
 * re-judged against its recorded GPU values, with no GPU. The recorded files here are
 * written by the test, with GPU values from first principles. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../common/commands.h"
#include "../common/text.h"
#include "../common/toolkit.h"
#include "../cuda/check_explain.h"
#include "../cuda/check_replay.h"
#include "../cuda/cu_results.h"

/* One copy_float run (N = 2^20 floats, 256-thread blocks): every warp loads 32 x 4 B =
 * 4 sectors, so 2^20 x 4 / 32 = 131,072 load sectors; recorded_sim is what the simulator
 * said when it was recorded, gpu_sectors what the GPU counted. */
static void write_record_as(const char *path, double recorded_sim, double gpu_sectors, const char *basis,
                            const char *time)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"device\": {\"name\": \"NVIDIA H200\"}, \"runs\": [{\"kernel\": \"copy_float\", \"overrides\": \"\","
            " %s%s%s %s"
            " \"registers\": 10, \"local_bytes\": 0, \"static_shared_bytes\": 0, \"counters\": ["
            "{\"metric\": \"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\", \"sim\": %.0f, \"gpu\": %.0f},"
            "{\"metric\": \"lts__t_sectors_srcunit_tex_op_read.sum\", \"sim\": 131072, \"gpu\": 131072}]}]}\n",
            basis ? "\"sim_basis\": \"" : "", basis ? basis : "", basis ? "\"," : "", time ? time : "",
            recorded_sim, gpu_sectors);
    fclose(f);
}

/* A record whose simulator counted the PTX (this machine's replays are PTX-level: main sets
 * WARPSCOPE_SASS=off), so its exact rows are judged. */
static void write_record(const char *path, double recorded_sim, double gpu_sectors)
{
    write_record_as(path, recorded_sim, gpu_sectors, "ptx", NULL);
}

static char *replay_text(const char *path, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    ws_error err;
    *rc = chk_replay(path, NULL, 0, false, out, &err);
    fclose(out);
    return buf;
}

static void test_replay_agrees_with_a_first_principles_record(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_replay_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_record(path, 131072, 131072);
    int rc;
    char *text = replay_text(path, &rc);
    assert_int_equal(rc, WS_EXIT_OK);
    /* the exact row and the cache row both agree, before and now */
    assert_non_null(strstr(text, "| exact | equal | 1/1 (100%) | 1/1 (100%) |"));
    assert_non_null(strstr(text, "| cache | within 10% | 1/1 (100%) | 1/1 (100%) |"));
    assert_non_null(strstr(text, "| copy_float |"));
    free(text);
    unlink(path);
}

/* The record said sim = gpu = 7 (agreed); the simulator now counts 131,072: an exact
 * counter that agreed no longer does, which is a regression (exit 3). */
static void test_an_exact_counter_that_stops_agreeing_fails_the_replay(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_replay_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_record(path, 7, 7);
    int rc;
    char *text = replay_text(path, &rc);
    assert_int_equal(rc, WS_EXIT_MISMATCH);
    assert_non_null(strstr(text, "| exact | equal | 1/1 (100%) | 0/1 (0%) |"));
    assert_non_null(strstr(text, "`l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum` | exact | 7 | 131072 | 7 |"));
    free(text);
    unlink(path);
}

/* wmma_gemm_naive as the H200 recorded it (issue 24): ncu counted the LDG.E / STG.E.64 ptxas
 * made of its wmma.load/store - 4096 load instructions and requests, 32768 sectors; 256 store
 * instructions and requests, 2048 sectors (64 warps x 8 k-steps x 2 fragments x 4 LDG.E of
 * 8 sectors; 64 x 4 STG.E.64 of 8 sectors) - where the simulator then counted none. With
 * ptxas and nvdisasm the replay counts the machine code and agrees on all six; without them
 * it is PTX-level and leaves the six out (the record has no "sim_basis": machine code). */
static void test_the_wmma_gemm_replays_the_global_counts_the_h200_recorded(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_replay_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    static const struct { const char *m; int gpu; } rec[] = {
        {"smsp__sass_inst_executed_op_global_ld.sum", 4096}, {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 4096},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 32768}, {"smsp__sass_inst_executed_op_global_st.sum", 256},
        {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 256}, {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 2048},
    };
    fprintf(f, "{\"device\": {\"name\": \"NVIDIA H200\"}, \"runs\": [{\"kernel\": \"wmma_gemm_naive\", "
               "\"overrides\": \"\", \"counters\": [");
    for (int i = 0; i < 6; i++)
        fprintf(f, "%s{\"metric\": \"%s\", \"sim\": 0, \"gpu\": %d}", i ? ", " : "", rec[i].m, rec[i].gpu);
    fprintf(f, "]}]}\n");
    fclose(f);
    char tool[WS_PATH_MAX];
    ws_error terr;
    bool sass = !ws_tool_find(WS_TOOL_PTXAS, tool, sizeof tool, &terr) &&
                !ws_tool_find(WS_TOOL_NVDISASM, tool, sizeof tool, &terr);
    if (sass)
        unsetenv("WARPSCOPE_SASS"); /* main's PTX-level default off for this one: the machine code is the point */
    int rc;
    char *text = replay_text(path, &rc);
    setenv("WARPSCOPE_SASS", "off", 1);
    assert_int_equal(rc, WS_EXIT_OK);
    if (sass) {
        assert_int_equal(rc, WS_EXIT_OK);
        if (!strstr(text, "| exact | equal | 0/6 (0%) | 6/6 (100%) |")) fail_msg("replay said:\n%s", text);
    } else { /* PTX level: the record counted machine code, so the six are left out, not failed */
        assert_int_equal(rc, WS_EXIT_OK);
        assert_non_null(strstr(text, "6 exact rows of 1 runs left out"));
    }
    free(text);
    unlink(path);
}

static void test_a_file_without_runs_is_a_usage_error(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_replay_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "{\"device\": {}}", 14), 14);
    close(fd);
    ws_error err;
    assert_int_equal(chk_replay(path, NULL, 0, false, stdout, &err), WS_EXIT_USAGE);
    assert_non_null(strstr(err.msg, "no \"runs\" array"));
    assert_int_equal(chk_replay("/nonexistent/results.json", NULL, 0, false, stdout, &err), WS_EXIT_USAGE);
    unlink(path);
}

/* Issue 21 item 9: a record made from the machine code (its exact rows SASS counts: 7 here,
 * which the PTX does not give) replayed where nvdisasm is missing. At PTX level it cannot be
 * reproduced: the exact row is left out with a note, not called differing, and the replay
 * exits 0. A record from before "sim_basis" was written counts as machine code. */
static void test_a_machine_code_record_replayed_at_ptx_level_leaves_exact_rows_out(void **state)
{
    (void)state;
    const char *bases[] = {"sass", NULL};
    for (int i = 0; i < 2; i++) {
        char path[] = "/tmp/ws_test_replay_XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        write_record_as(path, 7, 7, bases[i], NULL);
        int rc;
        char *text = replay_text(path, &rc);
        assert_int_equal(rc, WS_EXIT_OK);
        assert_non_null(strstr(text, "note: 1 exact rows of 1 runs left out: the record counted the machine code"));
        assert_non_null(strstr(text, "| exact | equal | 1/1 (100%) | - |"));       /* recorded judged, now not */
        assert_non_null(strstr(text, "| cache | within 10% | 1/1 (100%) | 1/1 (100%) |")); /* still judged */
        assert_null(strstr(text, "| differs |"));
        free(text);
        unlink(path);
    }
}

/* The cp.async probes of tests/data/tensor/sass_forms.cu and demos/tensorcore.cu's
 * mma_cp_async as the H200 counted their LDGSTS shared side (results/h200-tensorcore), with
 * the simulator's old store-rule values as "sim". From first principles, per warp instruction
 * (8 warps a probe): the store rule of 16-byte lanes is one wavefront per quarter-warp when
 * its 8 rows fall in 8 bank groups (4), one per lane when all 32 rows are in bank group 0
 * (32, 28 of them conflicts); 4-byte lanes 1, 8-byte 2. The zero-filling form (a src-size
 * operand, LDGSTS...ZFILL) of a 16-byte copy costs its copying lanes twice: rows 2 x 4 = 8,
 * rows 128 B apart 2 x 32 = 64 (still 28 conflicts), lanes 16-31 zero-filled 2 x 2 + 2 = 6;
 * mma_cp_async's copies have no src-size (LDGSTS.E.BYPASS.128): 512 x 4 = 2048. */
static void test_the_cp_async_probes_replay_the_shared_wavefronts_the_h200_counted(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_replay_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    static const struct { const char *kernel, *file; int sim, gpu, conflicts; } rec[] = {
        {"ldgsts_rows", "tests/data/tensor/sass_forms.cu", 32, 8 * 8, 0},
        {"ldgsts_row_per_group", "tests/data/tensor/sass_forms.cu", 256, 8 * 64, 8 * 28},
        {"ldgsts_ca4", "tests/data/tensor/sass_forms.cu", 8, 8 * 1, 0},
        {"ldgsts_ca8", "tests/data/tensor/sass_forms.cu", 16, 8 * 2, 0},
        {"ldgsts_zfill_half", "tests/data/tensor/sass_forms.cu", 32, 8 * 6, 0},
        {"mma_cp_async", "demos/tensorcore.cu", 2048, 512 * 4, 0},
    };
    fprintf(f, "{\"device\": {\"name\": \"NVIDIA H200\"}, \"runs\": [");
    for (int i = 0; i < 6; i++)
        fprintf(f, "%s{\"kernel\": \"%s\", \"file\": \"%s\", \"overrides\": \"\", \"sim_basis\": \"ptx\", \"counters\": ["
                   "{\"metric\": \"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum\", \"sim\": %d, \"gpu\": %d},"
                   "{\"metric\": \"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum\", \"sim\": %d, \"gpu\": %d}]}",
                i ? ", " : "", rec[i].kernel, rec[i].file, rec[i].sim, rec[i].gpu, rec[i].conflicts, rec[i].conflicts);
    fprintf(f, "]}\n");
    fclose(f);
    int rc;
    char *text = replay_text(path, &rc);
    assert_int_equal(rc, WS_EXIT_OK);
    /* recorded: the 6 conflict rows and the 3 wavefront rows the store rule had right; now all 12 */
    assert_non_null(strstr(text, "| exact | equal | 9/12 (75%) | 12/12 (100%) |"));
    assert_null(strstr(text, "| differs |"));
    free(text);
    unlink(path);
}

/* results/h200-inst/h200.json (scripts/inst-record.py from scripts/gpu-inst.sh's ncu run): 11 launches
 * of 9 catalog kernels, ptxas's unrolled loops among them, where the H200 counted the warp instructions
 * issued and per pipe. With ptxas and nvdisasm the replay counts the machine code: the total, alu and
 * fma rows equal the GPU's on every launch (33 rows; an approximate count is judged within 10%, but
 * it is equal too); fmaheavy, lsu, adu, cbu and uniform have no simulator value (not modelled: no row).
 * Without them the replay is PTX level and none of these rows has a value or is judged. */
static void test_the_h200_instruction_record_replays_every_instruction_row(void **state)
{
    (void)state;
    static const char *const judged[] = {"smsp__inst_executed.sum", "sm__inst_executed_pipe_alu.sum",
                                         "sm__inst_executed_pipe_fma.sum"};
    char tool[WS_PATH_MAX];
    ws_error terr;
    bool sass = !ws_tool_find(WS_TOOL_PTXAS, tool, sizeof tool, &terr) &&
                !ws_tool_find(WS_TOOL_NVDISASM, tool, sizeof tool, &terr);
    if (sass) unsetenv("WARPSCOPE_SASS"); /* the machine code is the point */
    chk_replay_doc d;
    ws_error err;
    int rc = chk_replay_collect("results/h200-inst/h200.json", NULL, 0, false, &d, &err);
    setenv("WARPSCOPE_SASS", "off", 1);
    if (rc) fail_msg("replay: %d %s", rc, err.msg);
    assert_int_equal(d.nruns, 11);
    int rows = 0, exact = 0;
    for (int i = 0; i < d.nruns; i++) {
        const chk_replay_run *r = &d.runs[i];
        assert_int_equal(r->nrows, 8); /* every metric gpu-inst.sh asked ncu for */
        for (int k = 0; k < r->nrows; k++) {
            const chk_row *a = &r->now[k];
            bool ours = false;
            for (int j = 0; j < 3; j++) ours |= !strcmp(a->metric, judged[j]);
            if (!ours) { /* a pipe the SASS classifier does not decide: no value rather than a wrong one */
                assert_false(a->has_sim);
                assert_true(a->has_gpu);
                continue;
            }
            if (!sass) {
                assert_false(a->has_sim);
                assert_true(a->verdict != CHK_AGREE && a->verdict != CHK_DIFFER);
                continue;
            }
            if (!a->has_sim || a->sim != a->gpu || a->verdict != CHK_AGREE)
                fail_msg("%s [%s] %s: sim %g gpu %g (%s)", r->kernel, r->overrides, a->metric, a->sim, a->gpu,
                         chk_verdict_name(a->verdict));
            assert_true(a->cls == CHK_EXACT || a->cls == CHK_CACHE);
            /* copy_32x32 has no loop (one element per thread): nothing for its count to approximate */
            if (!strcmp(r->kernel, "copy_32x32")) assert_int_equal(a->cls, CHK_EXACT);
            exact += a->cls == CHK_EXACT;
            rows++;
        }
    }
    if (sass) {
        assert_int_equal(rows, 33);
        assert_true(exact >= 3);
    }
    chk_replay_doc_free(&d);
}

/* A recorded event time of 0 ms (or one below 0) is no measurement: the file is refused,
 * naming the run and the field, exit 1. */
static void test_a_zero_ms_event_time_is_refused(void **state)
{
    (void)state;
    const char *times[] = {"\"time\": {\"median_ms\": 0, \"reps\": 20},", "\"time\": {\"median_ms\": -1},"};
    for (int i = 0; i < 2; i++) {
        char path[] = "/tmp/ws_test_replay_XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        write_record_as(path, 131072, 131072, "ptx", times[i]);
        ws_error err;
        FILE *out = fopen("/dev/null", "w");
        assert_int_equal(chk_replay(path, NULL, 0, false, out, &err), WS_EXIT_USAGE);
        fclose(out);
        assert_string_equal(err.file, path);
        assert_non_null(strstr(err.msg, "run 1 (copy_float): time.median_ms is"));
        assert_non_null(strstr(err.msg, "not a measured time"));
        unlink(path);
    }
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    assert_non_null(a);
    assert_non_null(b);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, a)) > 0) assert_int_equal(fwrite(buf, 1, n, b), n);
    fclose(a);
    fclose(b);
}

/* A corpus run records its file relative to the repository ("corpus/<owner>+<name>/..."). Here
 * a repository is made in /tmp: demos/ (an empty catalog) beside corpus/k/ holding a copy of the
 * catalog's coalescing.cu and its PTX; replayed from inside demos/, where corpus/ is not, the
 * file is found relative to the repository (the catalog's parent), and a run whose corpus file
 * was never built is listed "corpus not built", not an error. */
static void test_a_corpus_file_resolves_from_the_repository_and_an_unbuilt_one_is_listed(void **state)
{
    (void)state;
    char root[] = "/tmp/ws_test_corpus_XXXXXX", d[256], k[256], json[300], cwd[4096];
    assert_non_null(mkdtemp(root));
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(d, sizeof d, "%s/demos", root);
    assert_int_equal(mkdir(d, 0700), 0);
    snprintf(k, sizeof k, "%s/corpus", root);
    assert_int_equal(mkdir(k, 0700), 0);
    snprintf(k, sizeof k, "%s/corpus/k", root);
    assert_int_equal(mkdir(k, 0700), 0);
    const char *ext[] = {"cu", "ptx", "resources"};
    for (int i = 0; i < 3; i++) {
        char from[64], to[300];
        snprintf(from, sizeof from, "demos/coalescing.%s", ext[i]);
        snprintf(to, sizeof to, "%s/coalescing.%s", k, ext[i]);
        copy_file(from, to);
    }
    snprintf(json, sizeof json, "%s/h200.json", root);
    FILE *f = fopen(json, "w");
    assert_non_null(f);
    fprintf(f, "{\"device\": {\"name\": \"NVIDIA H200\"}, \"runs\": ["
               "{\"kernel\": \"copy_float\", \"file\": \"corpus/k/coalescing.cu\", \"overrides\": \"\", "
               "\"sim_basis\": \"ptx\", \"registers\": 10, \"counters\": [{\"metric\": "
               "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\", \"sim\": 131072, \"gpu\": 131072}]},"
               "{\"kernel\": \"gone\", \"file\": \"corpus/absent/ws_gone.cu\", \"overrides\": \"\", "
               "\"registers\": 10, \"counters\": [{\"metric\": "
               "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\", \"sim\": 1, \"gpu\": 1}]}]}\n");
    fclose(f);
    setenv("WARPSCOPE_CATALOG", d, 1);
    assert_int_equal(chdir(d), 0);
    chk_replay_doc doc;
    ws_error err;
    int rc = chk_replay_collect(json, NULL, 0, false, &doc, &err);
    assert_int_equal(chdir(cwd), 0);
    unsetenv("WARPSCOPE_CATALOG");
    if (rc) fail_msg("replay: %s", err.msg);
    assert_int_equal(doc.nruns, 1);
    assert_false(doc.runs[0].catalog);                    /* a kernel outside the catalog */
    assert_int_equal(doc.agree[1][CHK_EXACT], 1);         /* 131,072 sectors, as counted */
    assert_int_equal(doc.nskips, 1);
    assert_string_equal(doc.skips[0].kernel, "gone");
    assert_string_equal(doc.skips[0].why, CHK_REPLAY_CORPUS_MISSING);
    chk_replay_doc_free(&doc);
    for (int i = 0; i < 3; i++) {
        char to[300];
        snprintf(to, sizeof to, "%s/coalescing.%s", k, ext[i]);
        unlink(to);
    }
    unlink(json);
    rmdir(k);
    snprintf(k, sizeof k, "%s/corpus", root);
    rmdir(k);
    rmdir(d);
    rmdir(root);
}

/* A run as `check --no-sim` records it (cmd_check.c): the GPU's values, no simulator side (every
 * row has_sim false, verdict missing), written by the results writer itself into a file of one
 * run. overrides: its -D text; rows: metric and GPU value pairs. */
typedef struct {
    const char *metric;
    double gpu;
} gpu_value;

static void write_no_sim_record(const char *path, const char *kernel, const char *file, const char *overrides,
                                double median_ms, const gpu_value *v, int n)
{
    chk_row rows[16];
    assert_true(n <= 16);
    cu_result_run r;
    memset(&r, 0, sizeof r);
    snprintf(r.kernel, sizeof r.kernel, "%s", kernel);
    snprintf(r.file, sizeof r.file, "%s", file);
    snprintf(r.overrides, sizeof r.overrides, "%s", overrides);
    r.attrs.num_regs = 10;
    r.timed = true;
    r.timing.reps = 10;
    r.timing.median_ms = r.timing.min_ms = r.timing.max_ms = median_ms;
    r.output_ok = -1;
    snprintf(r.output, sizeof r.output, "not checked (--no-sim)");
    r.no_sim = true;
    for (int i = 0; i < n; i++) chk_row_set(&rows[i], v[i].metric, false, 0, true, v[i].gpu);
    r.rows = rows;
    r.nrows = n;
    cJSON *root = cJSON_CreateObject(), *dev = cJSON_AddObjectToObject(root, "device");
    cJSON_AddStringToObject(dev, "name", "NVIDIA H200");
    cJSON *runs = cJSON_AddArrayToObject(root, "runs"), *run = cu_results_run_json(&r);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(run, "no_sim")));   /* the record says what it is */
    assert_null(cJSON_GetObjectItem(run, "sim_basis"));              /* and that nothing was simulated */
    cJSON_AddItemToArray(runs, run);
    char *text = ws_json_print(root);
    cJSON_Delete(root);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
}

/* Today's row of metric in r (the test fails without one). */
static const chk_row *row_of(const chk_replay_run *r, const char *metric)
{
    for (int i = 0; i < r->nrows; i++)
        if (!strcmp(r->now[i].metric, metric)) return &r->now[i];
    fail_msg("no row %s", metric);
    return NULL;
}

/* copy_float at N = 2^24 floats (65,536 blocks of 256 threads) recorded with --no-sim. From first
 * principles: a warp's 32 floats are one request of 4 sectors, so 2^24 / 32 = 524,288 load requests,
 * 2^24 x 4 / 32 = 2,097,152 load and as many store sectors, the same L2 read and write sectors, and
 * 2^24 x 4 B = 64 MiB read from DRAM (beyond the 60 MiB L2, nothing is reused); the time is the H200's
 * copy_float rate at 2^26 (0.2036 ms, results/h200.json's bandwidth table) at a quarter the size. The
 * replay samples it (every block of a kind runs the same counts: exact counters exact) and judges
 * every recorded row: the exact rows exact, the cache rows within 10%, the time. */
static void test_a_no_sim_run_replays_sampled_with_every_recorded_counter_judged(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_replay_nosim_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    const gpu_value v[] = {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 524288},
                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 2097152},
                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 2097152},
                           {"lts__t_sectors_srcunit_tex_op_read.sum", 2097152},
                           {"lts__t_sectors_srcunit_tex_op_write.sum", 2097152},
                           {"dram__bytes_read.sum", 67108864},
                           {"gpu__time_duration.sum", 0.2036e6 / 4}};
    write_no_sim_record(path, "copy_float", "demos/coalescing.cu", "N=16777216", 0.2036 / 4, v, 7);
    chk_replay_doc doc;
    ws_error err;
    int rc = chk_replay_collect(path, NULL, 0, false, &doc, &err);
    unlink(path);
    if (rc) fail_msg("replay: %s", err.msg);
    assert_int_equal(doc.nruns, 1);
    const chk_replay_run *r = &doc.runs[0];
    assert_true(r->no_sim);
    assert_false(r->timed_only);
    assert_true(r->sampled);
    assert_int_equal(r->estimated, 0);                    /* the sample states its exact counters exact */
    assert_int_equal(doc.judged[1][CHK_EXACT], 3);
    assert_int_equal(doc.agree[1][CHK_EXACT], 3);
    assert_int_equal(doc.judged[1][CHK_CACHE], 3);
    assert_int_equal(doc.agree[1][CHK_CACHE], 3);
    assert_int_equal(doc.judged[1][CHK_TIME], 1);         /* judged; its verdict is the timing model's */
    for (int c = 0; c < CHK_NCLASSES; c++) assert_int_equal(doc.judged[0][c], 0); /* nothing recorded to judge */
    const chk_row *a = row_of(r, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    assert_true(a->sim == 2097152 && a->cls == CHK_EXACT && a->verdict == CHK_AGREE);
    assert_string_equal(chk_shown_cause(a), "");
    chk_replay_doc_free(&doc);
}

/* copy_32x32 at W = H = 4096: 128 x 128 blocks of 32 x 32 threads. A warp is one row of 32 floats
 * (one request, 4 sectors): 4096^2 / 32 = 524,288 load requests. The sample takes the kinds of edge
 * block beyond its first waves from one block each, so its exact counters are estimated (sim/sample.c
 * says so): each exact row is judged within the cache tolerance and its cause opens with "sampled: an
 * estimate from N of 16384 blocks". The requests are recorded as counted; the load sectors 2% above
 * 4096^2 x 4 / 32 = 2,097,152 (an equal judgement would call it differing; within 10% it agrees); the
 * store sectors 1.5 times it (beyond 10%: differs, and the cause still opens with the estimate). */
static void test_a_sampled_run_whose_exact_counters_are_estimates_is_judged_within_the_cache_tolerance(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_replay_nosim_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    const gpu_value v[] = {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 524288},
                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 2097152 * 1.02},
                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 2097152 * 1.5},
                           {"lts__t_sectors_srcunit_tex_op_read.sum", 2097152}};
    write_no_sim_record(path, "copy_32x32", "demos/transpose.cu", "W=4096 H=4096", 0.06, v, 4);
    int rc;
    char *text = replay_text(path, &rc);
    chk_replay_doc doc;
    ws_error err;
    int rc2 = chk_replay_collect(path, NULL, 0, false, &doc, &err);
    unlink(path);
    assert_int_equal(rc, WS_EXIT_OK);                     /* an estimate that differs fails nothing */
    if (rc2) fail_msg("replay: %s", err.msg);
    const chk_replay_run *r = &doc.runs[0];
    assert_true(r->sampled);
    assert_int_equal(r->estimated, 3);
    assert_int_equal(doc.judged[1][CHK_EXACT], 0);        /* no estimate is called exact */
    assert_int_equal(doc.judged[1][CHK_CACHE], 4);        /* the three estimates and the L2 row */
    assert_int_equal(doc.agree[1][CHK_CACHE], 3);
    const char *want[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"};
    const chk_verdict verdict[] = {CHK_AGREE, CHK_AGREE, CHK_DIFFER};
    for (int i = 0; i < 3; i++) {
        const chk_row *a = row_of(r, want[i]);
        assert_int_equal(a->cls, CHK_CACHE);
        assert_int_equal(a->verdict, verdict[i]);
        const char *c = chk_shown_cause(a);            /* shown, agreeing or not */
        if (strncmp(c, CHK_SAMPLED_ESTIMATE, strlen(CHK_SAMPLED_ESTIMATE)) || !strstr(c, " of 16384 blocks") ||
            !strstr(c, "exact counters estimated") || !strstr(c, "judged within the cache tolerance"))
            fail_msg("row %s: cause '%s'", want[i], c);
    }
    const chk_row *l2 = row_of(r, "lts__t_sectors_srcunit_tex_op_read.sum");
    assert_string_equal(chk_shown_cause(l2), "");        /* a cache row is judged as it always is */
    /* the markdown's rows say it too */
    const char *row = strstr(text, "`l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum` | cache |");
    if (!row || strncmp(strstr(row, "| DIFFERS | ") + 12, CHK_SAMPLED_ESTIMATE, strlen(CHK_SAMPLED_ESTIMATE)))
        fail_msg("the differing estimate's row:\n%s", text);
    chk_replay_doc_free(&doc);
    free(text);
}

int main(void)
{
    setenv("WARPSCOPE_SASS", "off", 1); /* PTX-level on every machine, nvdisasm or not */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_agrees_with_a_first_principles_record),
        cmocka_unit_test(test_an_exact_counter_that_stops_agreeing_fails_the_replay),
        cmocka_unit_test(test_the_wmma_gemm_replays_the_global_counts_the_h200_recorded),
        cmocka_unit_test(test_a_file_without_runs_is_a_usage_error),
        cmocka_unit_test(test_a_machine_code_record_replayed_at_ptx_level_leaves_exact_rows_out),
        cmocka_unit_test(test_a_zero_ms_event_time_is_refused),
        cmocka_unit_test(test_a_corpus_file_resolves_from_the_repository_and_an_unbuilt_one_is_listed),
        cmocka_unit_test(test_the_cp_async_probes_replay_the_shared_wavefronts_the_h200_counted),
        cmocka_unit_test(test_the_h200_instruction_record_replays_every_instruction_row),
        cmocka_unit_test(test_a_no_sim_run_replays_sampled_with_every_recorded_counter_judged),
        cmocka_unit_test(test_a_sampled_run_whose_exact_counters_are_estimates_is_judged_within_the_cache_tolerance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
