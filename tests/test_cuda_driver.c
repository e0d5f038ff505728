/* test_cuda_driver.c - the GPU backend without a GPU: no driver library, or a
 * driver that cannot initialise (the toolkit's stub libcuda.so), makes `gpu`
 * and `check` exit with WS_EXIT_NO_GPU and a plain message; every driver entry
 * point the backend uses resolves against the stub's symbol table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/commands.h"
#include "../cuda/cu_driver.h"
#include "../cuda/cu_types.h"

/* Runs cmd in-process with stderr captured; returns its exit code. */
static int run_captured(int (*cmd)(int, char **), int argc, char **argv, char *out, size_t cap)
{
    char path[] = "/tmp/warpscope-test-stderr-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    int rc = cmd(argc, argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, out, cap - 1);
    out[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    return rc;
}

static void test_gpu_without_a_driver_library_exits_no_gpu_and_says_so(void **state)
{
    (void)state;
    setenv("WARPSCOPE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    char out[4096];
    char *argv[] = {"gpu", "copy_float", NULL};
    int rc = run_captured(ws_cmd_gpu, 2, argv, out, sizeof out);
    assert_int_equal(rc, WS_EXIT_NO_GPU);
#ifdef WS_HAVE_CUDA
    assert_non_null(strstr(out, "no CUDA driver"));
    assert_non_null(strstr(out, "/nonexistent/libcuda.so.1"));
#else
    assert_non_null(strstr(out, "no CUDA backend"));
#endif
    char *argv2[] = {"check", "--all", NULL};
    assert_int_equal(run_captured(ws_cmd_check, 2, argv2, out, sizeof out), WS_EXIT_NO_GPU);
    unsetenv("WARPSCOPE_LIBCUDA");
}

static void test_bad_command_lines_are_usage_errors_before_any_driver_work(void **state)
{
    (void)state;
    setenv("WARPSCOPE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    char out[4096];
    char *a1[] = {"gpu", NULL};
    assert_int_equal(run_captured(ws_cmd_gpu, 1, a1, out, sizeof out), WS_EXIT_USAGE);
    assert_non_null(strstr(out, "which kernel"));
    char *a2[] = {"gpu", "copy", "--reps", "0", NULL};
    assert_int_equal(run_captured(ws_cmd_gpu, 4, a2, out, sizeof out), WS_EXIT_USAGE);
    char *a3[] = {"check", "copy", "--all", NULL};
    assert_int_equal(run_captured(ws_cmd_check, 3, a3, out, sizeof out), WS_EXIT_USAGE);
    char *a4[] = {"gpu", "a", "b", NULL};
    assert_int_equal(run_captured(ws_cmd_gpu, 3, a4, out, sizeof out), WS_EXIT_USAGE);
    unsetenv("WARPSCOPE_LIBCUDA");
}

#ifdef WS_HAVE_CUDA
static const char *stub_path(void)
{
    static const char *cands[] = {"/usr/local/cuda/lib64/stubs/libcuda.so", "/usr/local/cuda/lib/stubs/libcuda.so",
                                  "/usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so", NULL};
    for (int i = 0; cands[i]; i++)
        if (access(cands[i], R_OK) == 0) return cands[i];
    return NULL;
}
#endif

static void test_every_driver_entry_point_resolves_in_the_stub_library(void **state)
{
    (void)state;
#ifdef WS_HAVE_CUDA
    const char *p = stub_path();
    if (!p) skip(); /* reported as SKIPPED: this toolkit ships no stub */
    void *lib = dlopen(p, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(lib);
    cu_driver d;
    ws_error err;
    assert_int_equal(cu_driver_resolve(&d, lib, p, &err), 0);
    assert_non_null(d.MemAlloc);
    assert_non_null(d.EventElapsedTime);
    assert_non_null(d.LaunchKernel);
    assert_non_null(d.LaunchCooperativeKernel);  /* descriptions marked cooperative */
    /* a library without the symbols is refused, naming the first one missing */
    void *self = dlopen(NULL, RTLD_NOW);
    assert_int_equal(cu_driver_resolve(&d, self, "self", &err), -1);
    assert_non_null(strstr(err.msg, "cuInit"));
    dlclose(lib);
#else
    skip();
#endif
}

static void test_a_driver_that_cannot_initialise_is_no_gpu(void **state)
{
    (void)state;
#ifdef WS_HAVE_CUDA
    const char *p = stub_path();
    if (!p) skip();
    setenv("WARPSCOPE_LIBCUDA", p, 1);
    cu_session s;
    ws_error err;
    assert_int_equal(cu_session_open(&s, &err), WS_EXIT_NO_GPU);
    assert_non_null(strstr(err.msg, "cuInit failed"));
    assert_null(s.drv.lib); /* closed again */
    unsetenv("WARPSCOPE_LIBCUDA");
#else
    skip();
#endif
}

static void test_device_keys_are_short_file_names(void **state)
{
    (void)state;
    char k[64];
    cu_device_key("NVIDIA H200", k, sizeof k);
    assert_string_equal(k, "h200");
    cu_device_key("NVIDIA H100 80GB HBM3", k, sizeof k);
    assert_string_equal(k, "h100-80gb-hbm3");
    cu_device_key("Tesla T4", k, sizeof k);
    assert_string_equal(k, "tesla-t4");
    cu_device_key("  ", k, sizeof k);
    assert_string_equal(k, "gpu");
    cu_device_key("NVIDIA A100-SXM4-40GB", k, 8);
    assert_string_equal(k, "a100-sx");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_without_a_driver_library_exits_no_gpu_and_says_so),
        cmocka_unit_test(test_bad_command_lines_are_usage_errors_before_any_driver_work),
        cmocka_unit_test(test_every_driver_entry_point_resolves_in_the_stub_library),
        cmocka_unit_test(test_a_driver_that_cannot_initialise_is_no_gpu),
        cmocka_unit_test(test_device_keys_are_short_file_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
