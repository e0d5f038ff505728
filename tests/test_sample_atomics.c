/* test_sample_atomics.c - block sampling and atomics with no state space (sim/sample.h,
 * sim/frontend/provenance.h), through `warpscope sim` on tests/data/atomics/generic_shared.cu (run
 * from the repository root) and on PTX: a generic atomic on a __shared__ counter and libcu++'s
 * cuda::pipeline_shared_state are the block's own and are sampled; one through a kernel parameter,
 * one shared in some blocks and global in others, and global ones in a called function run
 * full saying why; a shared pointer the proof trusts that lands on a global buffer fails the
 * sampled run (and not the full one). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../common/commands.h"
#include "../sim/frontend/ptx.h"
#include "../sim/sample.h"
#include "capture.h"

#define GENERIC "tests/data/atomics/generic_shared.cu"

/* ws_cmd_sim on GENERIC:kernel with the options (NULL-terminated); stdout into *out, stderr into
   *err (both malloc'd; err may be NULL). */
static int run_sim(char **out, char **err, const char *kernel, ...)
{
    char target[128], *argv[16];
    snprintf(target, sizeof target, "%s:%s", GENERIC, kernel);
    int argc = 0;
    argv[argc++] = "sim";
    argv[argc++] = target;
    va_list ap;
    va_start(ap, kernel);
    for (char *a; (a = va_arg(ap, char *)) && argc < 15;) argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    FILE *e = tmpfile();
    assert_non_null(e);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0 && dup2(fileno(e), STDERR_FILENO) >= 0);
    int rc = ws_test_capture(ws_cmd_sim, argc, argv, out);
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    long n = ftell(e);
    rewind(e);
    if (err) {
        assert_non_null(*err = calloc((size_t)(n > 0 ? n : 0) + 1, 1));
        assert_true(n <= 0 || fread(*err, 1, (size_t)n, e) == (size_t)n);
    }
    fclose(e);
    return rc;
}

static cJSON *sim_json(const char *kernel, const char *mode, const char *value)
{
    char *out;
    int rc = value ? run_sim(&out, NULL, kernel, mode, value, "--json", NULL) : run_sim(&out, NULL, kernel, mode, "--json", NULL);
    assert_int_equal(rc, WS_EXIT_OK);
    cJSON *doc = cJSON_Parse(out);
    free(out);
    assert_non_null(doc);
    return doc;
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

static bool sampled(cJSON *doc) { return cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "sampling"), "sampled")); }

static const char *sampling_text(cJSON *doc)
{
    return cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "sampling"), "text")->valuestring;
}

/* 4096 blocks of 256 threads, one wave (132 SMs x 8 blocks) sampled: each block's warps do one
   atom each on its __shared__ counter (lanes on one word: ptxas would not aggregate the asm), so
   the grid's shared atomics are 4096 x 8, none global */
static void test_a_generic_atomic_on_a_shared_counter_is_sampled_and_counts_one_per_warp(void **state)
{
    (void)state;
    cJSON *d = sim_json("generic_shared_counter", "--sample-waves", "1");
    assert_true(sampled(d));
    assert_true(total(d, "smsp__sass_inst_executed_op_shared_atom.sum") == 4096.0 * 8);
    assert_true(total(d, "smsp__sass_inst_executed_op_global_atom.sum") == 0);
    assert_true(total(d, "smsp__sass_inst_executed_op_global_st.sum") == 4096); /* the last arrival's store */
    cJSON_Delete(d);
}

/* cuda::pipeline's destructor: each warp's leader (match.any over the lanes' one address) takes
   its popc off the shared state's count with one generic atom: 8 a block. Its copies: 2 stages of
   8 warps' cp.async of 4 bytes a lane, 4 sectors each, which ncu counts as global loads too */
static void test_a_cuda_pipelines_shared_state_is_sampled(void **state)
{
    (void)state;
    cJSON *d = sim_json("generic_pipeline_counter", "--sample-waves", "1");
    assert_true(sampled(d));
    assert_true(total(d, "smsp__sass_inst_executed_op_shared_atom.sum") == 4096.0 * 8);
    assert_true(total(d, "smsp__sass_inst_executed_op_global_atom.sum") == 0);
    assert_true(total(d, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 4096.0 * 2 * 8);
    assert_true(total(d, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 4096.0 * 2 * 8 * 4);
    cJSON_Delete(d);
}

static void test_a_generic_atomic_through_a_kernel_parameter_runs_full_saying_global_atomics(void **state)
{
    (void)state;
    const char *kernels[] = {"generic_param_counter", "generic_either_counter"}; /* the second: shared in odd blocks */
    for (int i = 0; i < 2; i++) {
        cJSON *d = sim_json(kernels[i], "--sample", NULL);
        assert_false(sampled(d));
        assert_non_null(strstr(sampling_text(d), "not sampled: global atomics (their results steer no branch"));
        assert_true(total(d, "smsp__sass_inst_executed_op_global_atom.sum") == (i ? 4 * 8 : 8 * 8)); /* 8 blocks */
        cJSON_Delete(d);
    }
}

static void test_a_shared_pointer_moved_onto_global_memory_fails_the_sampled_run_not_the_full_one(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(run_sim(&out, &err, "generic_shared_escape", "--sample-waves", "1", NULL), WS_EXIT_INTERNAL);
    assert_non_null(strstr(err, "block sampling relied on its generic atomics addressing shared memory"));
    assert_non_null(strstr(err, "of the sampled blocks reached global memory"));
    free(out);
    free(err);
    cJSON *d = sim_json("generic_shared_escape", "--full", NULL);
    assert_true(total(d, "smsp__sass_inst_executed_op_global_atom.sum") == 4096.0 * 8);
    cJSON_Delete(d);
}

#define HEADER ".version 9.0\n.target sm_90\n.address_size 64\n"
/* cuda::pipeline_shared_state's last-arrival test (its destructor): the atom's result decides a branch */
#define SHARED_ATOM_STEERS                                                                                  \
    "  mov.u32 %r1, sh;\n  { .reg .b64 %tmp;\n    cvt.u64.u32 %tmp, %r1;\n    cvta.shared.u64 %rd2, %tmp; }\n" \
    "  add.s64 %rd3, %rd2, 64;\n  atom.add.acquire.cta.u32 %r2, [%rd3], -1;\n  setp.ne.s32 %p1, %r2, 1;\n"     \
    "  @%p1 bra $L_end;\n  mbarrier.inval.shared.b64 [%r1];\n$L_end:\n"

static ptx_module *parse(const char *text)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse("test.ptx", text, &err);
    if (!m) fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
    assert_non_null(m);
    return m;
}

static void test_a_shared_atomics_result_that_steers_a_branch_does_not_refuse_sampling(void **state)
{
    (void)state;
    const char *entry = ".visible .entry k(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
                        "  .reg .b64 %rd<6>;\n  .shared .align 8 .b8 sh[72];\n";
    ws_launch L;
    memset(&L, 0, sizeof L);
    char text[2048];
    snprintf(text, sizeof text, "%s%s%s  ret;\n}\n", HEADER, entry, SHARED_ATOM_STEERS);
    ptx_module *m = parse(text);
    assert_false(ws_atom_result_steers(&m->funcs[0]));
    assert_null(ws_sample_refusal(m, &m->funcs[0], &L));
    ptx_free(m);
    /* beside a global reduction: refused for that one, whose result steers nothing */
    snprintf(text, sizeof text, "%s%s%s  ld.param.u64 %%rd4, [p];\n  red.add.u32 [%%rd4], 1;\n  ret;\n}\n", HEADER,
             entry, SHARED_ATOM_STEERS);
    m = parse(text);
    assert_false(ws_atom_result_steers(&m->funcs[0]));
    const char *why = ws_sample_refusal(m, &m->funcs[0], &L);
    assert_non_null(why);
    assert_non_null(strstr(why, "steer no branch or address"));
    ptx_free(m);
}

static void test_global_atomics_in_a_called_function_refuse_sampling_and_shared_ones_do_not(void **state)
{
    (void)state;
    /* f adds to global memory through its parameter; g to a module-scope __shared__ counter */
    const char *text = HEADER ".shared .align 4 .b8 cs[4];\n"
                              ".func f(.param .b64 a)\n{\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [a];\n"
                              "  red.global.add.u32 [%rd1], 1;\n  ret;\n}\n"
                              ".func g()\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<3>;\n  mov.u64 %rd1, cs;\n"
                              "  cvta.shared.u64 %rd2, %rd1;\n  atom.add.u32 %r1, [%rd2], 1;\n  ret;\n}\n"
                              ".visible .entry kf(.param .u64 p)\n{\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n"
                              "  { .param .b64 a0;\n  st.param.b64 [a0], %rd1;\n  call f, (a0);\n  }\n  ret;\n}\n"
                              ".visible .entry kg()\n{\n  call g, ();\n  ret;\n}\n";
    ptx_module *m = parse(text);
    ws_launch L;
    memset(&L, 0, sizeof L);
    const char *why = ws_sample_refusal(m, ptx_find_function(m, "kf"), &L);
    assert_non_null(why);
    assert_non_null(strstr(why, "global atomics in a function it calls"));
    assert_null(ws_sample_refusal(m, ptx_find_function(m, "kg"), &L));
    ptx_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_generic_atomic_on_a_shared_counter_is_sampled_and_counts_one_per_warp),
        cmocka_unit_test(test_a_cuda_pipelines_shared_state_is_sampled),
        cmocka_unit_test(test_a_generic_atomic_through_a_kernel_parameter_runs_full_saying_global_atomics),
        cmocka_unit_test(test_a_shared_pointer_moved_onto_global_memory_fails_the_sampled_run_not_the_full_one),
        cmocka_unit_test(test_a_shared_atomics_result_that_steers_a_branch_does_not_refuse_sampling),
        cmocka_unit_test(test_global_atomics_in_a_called_function_refuse_sampling_and_shared_ones_do_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
