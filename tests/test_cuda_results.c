/* test_cuda_results.c - recorded results: the JSON a run writes, the merge of
 * several invocations into one file, and the markdown generated from it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cuda/cu_results.h"
#include "../common/files.h"

static void device(cu_device_info *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "NVIDIA H200");
    cu_device_key(d->name, d->key, sizeof d->key);
    d->cc_major = 9;
    d->sm_count = 132;
    d->l2_bytes = 62914560;
    d->driver_api_version = 13000;
    snprintf(d->driver_version, sizeof d->driver_version, "580.159.04");
}

/* A copy of 2^26 floats: 2 * 256 MiB moved in 0.125 ms is 4294.97 GB/s. */
static void run(cu_result_run *r, const char *kernel, const char *ov, chk_row *rows)
{
    memset(r, 0, sizeof *r);
    snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
    snprintf(r->file, sizeof r->file, "demos/coalescing.cu");
    snprintf(r->overrides, sizeof r->overrides, "%s", ov);
    r->timed = true;
    r->timing.reps = 20;
    r->timing.median_ms = 0.125;
    r->timing.bytes_moved = 2ull << 28;
    r->timing.bandwidth_gbs = (double)r->timing.bytes_moved / 0.125e-3 / 1e9;
    r->timing.copy_gbs = r->timing.bandwidth_gbs / 0.95;
    r->output_ok = 1;
    snprintf(r->output, sizeof r->output, "agrees with the simulator");
    chk_row_set(&rows[0], "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", true, 8388608, true, 8388608);
    chk_row_set(&rows[1], "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", true, 8388608, true, 8388609);
    r->rows = rows;
    r->nrows = 2;
}

static char *slurp(const char *path)
{
    char *text = ws_read_file(path, 0, NULL, NULL);
    assert_non_null(text);
    return text;
}

static void test_a_later_recording_without_counters_keeps_the_ncu_version_of_kept_runs(void **state)
{
    (void)state;
    char path[] = "/tmp/warpscope-results-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    cu_device_info d;
    device(&d);
    ws_error err;
    chk_row rows[2];
    cu_result_run r;
    cJSON *with_ncu = cu_results_device_json(&d, "2025.3.1.0"), *without = cu_results_device_json(&d, NULL);
    cJSON *runs = cJSON_CreateArray();
    run(&r, "copy_float", "", rows);
    cJSON_AddItemToArray(runs, cu_results_run_json(&r));
    assert_int_equal(cu_results_record(path, with_ncu, runs, &err), 0);
    cJSON_Delete(runs);
    runs = cJSON_CreateArray(); /* a bandwidth-only run (check --gpu-only) */
    run(&r, "copy_float", "N=67108864", rows);
    cJSON_AddItemToArray(runs, cu_results_run_json(&r));
    assert_int_equal(cu_results_record(path, without, runs, &err), 0);
    cJSON_Delete(runs);
    cJSON_Delete(with_ncu);
    cJSON_Delete(without);
    char *text = slurp(path);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "device"), "ncu")->valuestring, "2025.3.1.0");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "runs")), 2);
    cJSON_Delete(root);
    unlink(path);
}

static void test_runs_merge_by_kernel_and_overrides_and_render_as_markdown(void **state)
{
    (void)state;
    char path[] = "/tmp/warpscope-results-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path); /* start without a file */
    cu_device_info d;
    device(&d);
    ws_error err;
    chk_row rows[2];
    cu_result_run r;
    cJSON *dev = cu_results_device_json(&d, "2025.3.1.0");
    assert_string_equal(cJSON_GetObjectItem(dev, "key")->valuestring, "h200");

    cJSON *runs = cJSON_CreateArray();
    run(&r, "copy_float", "", rows);
    cJSON_AddItemToArray(runs, cu_results_run_json(&r));
    run(&r, "copy_float", "N=67108864", rows);
    cJSON_AddItemToArray(runs, cu_results_run_json(&r));
    assert_int_equal(cu_results_record(path, dev, runs, &err), 0);
    cJSON_Delete(runs);

    /* a second invocation replaces the default-size run and keeps the large one */
    runs = cJSON_CreateArray();
    run(&r, "copy_float", "", rows);
    r.timing.median_ms = 0.25;
    cJSON_AddItemToArray(runs, cu_results_run_json(&r));
    assert_int_equal(cu_results_record(path, dev, runs, &err), 0);
    cJSON_Delete(runs);
    cJSON_Delete(dev);

    char *text = slurp(path);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    cJSON *all = cJSON_GetObjectItem(root, "runs");
    assert_int_equal(cJSON_GetArraySize(all), 2);
    int found_new = 0;
    cJSON *x;
    cJSON_ArrayForEach(x, all) {
        if (!strcmp(cJSON_GetObjectItem(x, "overrides")->valuestring, "")) {
            found_new = cJSON_GetObjectItem(cJSON_GetObjectItem(x, "time"), "median_ms")->valuedouble == 0.25;
        }
        cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItem(x, "counters"), 1);
        assert_string_equal(cJSON_GetObjectItem(c0, "verdict")->valuestring, "differs");
        assert_string_equal(cJSON_GetObjectItem(c0, "class")->valuestring, "exact");
    }
    assert_true(found_new);
    cJSON_Delete(root);

    char mdpath[] = "/tmp/warpscope-md-XXXXXX";
    fd = mkstemp(mdpath);
    assert_true(fd >= 0);
    FILE *md = fdopen(fd, "w+");
    assert_int_equal(cu_results_markdown(path, md, &err), 0);
    fclose(md);
    text = slurp(mdpath);
    assert_non_null(strstr(text, "# warpscope check on NVIDIA H200"));
    assert_non_null(strstr(text, "| copy_float | N=67108864 |"));
    assert_non_null(strstr(text, "95.0%")); /* bandwidth / ceiling */
    assert_non_null(strstr(text, "| exact | equal | 2 | 4 | 50% |")); /* per run: 1 of 2 sector rows agree */
    assert_non_null(strstr(text, "`l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum`"));
    free(text);
    unlink(mdpath);
    unlink(path);
    assert_int_equal(cu_results_markdown("/nonexistent.json", stdout, &err), -1);
}

/* A recorded time that is not positive shows as "-", and so does every bandwidth of that run:
 * tests/data/results/bad_times.json holds a negative median with a positive bandwidth. */
static void test_markdown_prints_no_bandwidth_for_a_time_that_is_not_one(void **state)
{
    (void)state;
    char mdpath[] = "/tmp/warpscope-md-XXXXXX";
    int fd = mkstemp(mdpath);
    assert_true(fd >= 0);
    FILE *md = fdopen(fd, "w+");
    ws_error err;
    assert_int_equal(cu_results_markdown("tests/data/results/bad_times.json", md, &err), 0);
    fclose(md);
    char *text = slurp(mdpath);
    assert_null(strstr(text, "-0.0050"));
    assert_null(strstr(text, "-6.4"));
    assert_null(strstr(text, "| 6.4 |"));                 /* its time was negative or missing */
    assert_non_null(strstr(text, "| copy_float | N=4096 | - | - | - | - | - |"));
    assert_non_null(strstr(text, "| copy_float | N=4096 | 0.0050 | - | - | - | - |")); /* null bandwidth */
    free(text);
    unlink(mdpath);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_merge_by_kernel_and_overrides_and_render_as_markdown),
        cmocka_unit_test(test_a_later_recording_without_counters_keeps_the_ncu_version_of_kept_runs),
        cmocka_unit_test(test_markdown_prints_no_bandwidth_for_a_time_that_is_not_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
