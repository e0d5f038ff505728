/* test_cmd_sim.c - `warpscope sim` end to end on catalog kernels (run from the
 * repository root): the JSON totals follow from the kernels' access patterns, and
 * bad command lines give the documented exit codes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../common/commands.h"

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

    char path[] = "/tmp/ws_test_cmd_sim_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    int rc = ws_cmd_sim(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    off_t len = lseek(fd, 0, SEEK_END);
    lseek(fd, 0, SEEK_SET);
    *out = calloc(1, (size_t)len + 1);
    assert_int_equal(read(fd, *out, (size_t)len), len);
    close(fd);
    unlink(path);
    return rc;
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

static void test_text_csv_and_compare_forms_run(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    assert_non_null(strstr(out, "predicted"));
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--csv", NULL), WS_EXIT_OK);
    assert_memory_equal(out, "scope,line,name,value,basis,description\n", 40);
    free(out);
    assert_int_equal(run_sim(&out, "--compare", "shared_stride_s1", "shared_stride_s32", "-D", "N=1024", NULL),
                     WS_EXIT_OK);
    assert_non_null(strstr(out, "B/A"));
    free(out);
    assert_int_equal(run_sim(&out, "copy_float", "-D", "N=4096", "--device", "t4", NULL), WS_EXIT_OK);
    assert_non_null(strstr(out, "T4"));
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_of_n_floats_reads_n_over_8_sectors),
        cmocka_unit_test(test_shared_stride_2_costs_two_wavefronts_per_access),
        cmocka_unit_test(test_text_csv_and_compare_forms_run),
        cmocka_unit_test(test_bad_command_lines_exit_with_usage),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
