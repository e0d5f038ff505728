/* test_save.c - `--save DIR` (common/save.h, cuda/check_save.h): the files a save writes are the
 * .npy bytes NumPy's format defines (header typed out here, data as given), read back by the
 * project's own reader (buffers.c's file() check and fill); the manifest lists each file with its
 * role, dtype, shape, size and the SHA-256 of its bytes; `sim --save` writes what the kernel
 * computes (copy: the index; saxpy: 2x + y from SplitMix64's inputs, worked out here); the check's
 * two sides land in sim/ and gpu/; bad folders and names are refused. Last, NumPy itself reads a
 * save (tests/npy_check.py; the test fails, loudly, where python3-numpy is missing). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../common/buffers.h"
#include "../common/commands.h"
#include "../common/save.h"
#include "../common/sha256.h"
#include "../cuda/check_save.h"
#include "capture.h"

static char tmpdir[64];

static int setup(void **state)
{
    (void)state;
    setenv("WARPSCOPE_CATALOG", "demos", 1);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ws-test-save-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -r %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    unsigned char *d = malloc(*n + 1);
    assert_non_null(d);
    assert_int_equal(fread(d, 1, *n, f), *n);
    d[*n] = 0;
    fclose(f);
    return d;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The .npy NumPy's format defines for dict and data: magic, 1.0, length, dict, spaces, '\n'
 * (to a multiple of 64), data. */
static void assert_npy_file(const char *path, const char *dict, const void *data, size_t n)
{
    size_t dl = strlen(dict), total = 64;
    while (total < 10 + dl + 1) total += 64;
    unsigned char *want = malloc(total + n);
    assert_non_null(want);
    memcpy(want, "\x93NUMPY\x01\x00", 8);
    want[8] = (unsigned char)((total - 10) & 0xff);
    want[9] = (unsigned char)((total - 10) >> 8);
    memcpy(want + 10, dict, dl);
    memset(want + 10 + dl, ' ', total - 11 - dl);
    want[total - 1] = '\n';
    memcpy(want + total, data, n);
    size_t got_n;
    unsigned char *got = slurp(path, &got_n);
    assert_int_equal(got_n, total + n);
    assert_memory_equal(got, want, total + n);
    free(got);
    free(want);
}

/* Reads a saved file back as buffer b would take it (init=file): the project's reader. */
static void *read_back(const char *path, ws_type t, uint64_t count)
{
    ws_buffer b = {.type = t, .count = count, .bytes = count * ws_type_size(t), .init = WS_INIT_FILE};
    snprintf(b.name, sizeof b.name, "back");
    snprintf(b.file, sizeof b.file, "%s", path);
    ws_error err;
    if (ws_buffer_check_file(&b, &err)) fail_msg("%s", err.msg);
    void *d = malloc(b.bytes ? b.bytes : 1);
    assert_non_null(d);
    assert_int_equal(ws_buffer_fill_checked(&b, d, &err), 0);
    return d;
}

static ws_buffer buffer(const char *name, ws_type t, uint64_t count, ws_init_kind init, bool output)
{
    ws_buffer b = {.type = t, .count = count, .bytes = count * ws_type_size(t), .init = init, .output = output};
    snprintf(b.name, sizeof b.name, "%s", name);
    return b;
}

static cJSON *manifest(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    size_t n;
    char *text = (char *)slurp(path, &n);
    cJSON *m = cJSON_Parse(text);
    free(text);
    assert_non_null(m);
    return m;
}

static void test_a_save_writes_numpys_bytes_and_a_manifest_of_them(void **state)
{
    (void)state;
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = 3; L.grid[1] = L.grid[2] = 1;
    L.block[0] = 64; L.block[1] = L.block[2] = 1;
    L.nparams = 1;
    snprintf(L.param_names[0], sizeof L.param_names[0], "N");
    L.param_values[0] = 3;
    L.nbuffers = 4;
    L.buffers[0] = buffer("out", WS_TYPE_FLOAT4, 3, WS_INIT_ZERO, true);
    L.buffers[1] = buffer("idx", WS_TYPE_INT, 5, WS_INIT_INDEX, false);
    L.buffers[2] = buffer("h", WS_TYPE_HALF, 2, WS_INIT_ZERO, true);
    L.buffers[3] = buffer("scratch", WS_TYPE_UCHAR, 4, WS_INIT_ZERO, false);
    L.buffers[3].uninit = true;                  /* init=none: no initial contents to save */
    float out[12];
    for (int k = 0; k < 12; k++) out[k] = 0.5f * (float)k - 1.0f;
    uint16_t h[2] = {0x3c00, 0xc000};             /* 1.0 and -2.0 in binary16 */
    int junk[5] = {9, 9, 9, 9, 9};                /* idx's final contents: not an output, never read */
    unsigned char scratch[4] = {0};
    void *final[4] = {out, junk, h, scratch};
    char dir[128];
    snprintf(dir, sizeof dir, "%s/a/b", tmpdir);  /* missing parents are made */
    ws_error err;
    assert_int_equal(ws_save_mkdir(dir, &err), 0);
    ws_save_opts o = {.computed_by = "simulator", .overrides = "N=3", .inputs = true};
    int n = -1;
    if (ws_save_buffers(dir, &L, final, &o, &n, &err)) fail_msg("%s", err.msg);
    assert_int_equal(n, 5);                      /* outputs out, h; inputs out, idx, h (scratch has none) */
    char path[256];
    snprintf(path, sizeof path, "%s/out.npy", dir);
    assert_npy_file(path, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", out, sizeof out);
    float *back = read_back(path, WS_TYPE_FLOAT4, 3);
    assert_memory_equal(back, out, sizeof out);
    free(back);
    snprintf(path, sizeof path, "%s/h.npy", dir);
    assert_npy_file(path, "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }", h, sizeof h);
    snprintf(path, sizeof path, "%s/idx.in.npy", dir);
    int idx[5] = {0, 1, 2, 3, 4};                /* init=index */
    assert_npy_file(path, "{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }", idx, sizeof idx);
    snprintf(path, sizeof path, "%s/out.in.npy", dir);
    float zeros[12] = {0};
    assert_npy_file(path, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", zeros, sizeof zeros);
    snprintf(path, sizeof path, "%s/idx.npy", dir);
    assert_false(exists(path));                  /* not an output */
    snprintf(path, sizeof path, "%s/scratch.in.npy", dir);
    assert_false(exists(path));

    cJSON *m = manifest(dir);
    assert_string_equal(cJSON_GetObjectItem(m, "computed_by")->valuestring, "simulator");
    assert_string_equal(cJSON_GetObjectItem(m, "defines")->valuestring, "N=3");
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "params"), "N")->valueint, 3);
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(m, "grid"), 0)->valueint, 3);
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(m, "block"), 0)->valueint, 64);
    cJSON *list = cJSON_GetObjectItem(m, "buffers");
    assert_int_equal(cJSON_GetArraySize(list), 5);
    const char *files[] = {"out.in.npy", "out.npy", "idx.in.npy", "h.in.npy", "h.npy"};
    const char *roles[] = {"input", "output", "input", "input", "output"};
    for (int i = 0; i < 5; i++) {
        cJSON *e = cJSON_GetArrayItem(list, i);
        assert_string_equal(cJSON_GetObjectItem(e, "file")->valuestring, files[i]);
        assert_string_equal(cJSON_GetObjectItem(e, "role")->valuestring, roles[i]);
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        size_t fn;
        unsigned char *bytes = slurp(path, &fn);     /* the digest of the bytes on disk */
        ws_sha256 s;
        ws_sha256_init(&s);
        ws_sha256_update(&s, bytes, fn);
        char hex[65];
        bool have = ws_sha256_hex(&s, hex);
        free(bytes);
        if (have) assert_string_equal(cJSON_GetObjectItem(e, "sha256")->valuestring, hex);
        else assert_null(cJSON_GetObjectItem(e, "sha256"));   /* a build without libcrypto */
    }
    cJSON *e = cJSON_GetArrayItem(list, 1);
    assert_string_equal(cJSON_GetObjectItem(e, "dtype")->valuestring, "<f4");
    assert_string_equal(cJSON_GetObjectItem(e, "type")->valuestring, "float4");
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(e, "shape"), 1)->valueint, 4);
    assert_int_equal(cJSON_GetObjectItem(e, "bytes")->valueint, 48);
    cJSON_Delete(m);
    /* no temporary is left beside the files (outfile.c renames each into place) */
    snprintf(path, sizeof path, "ls %s | grep -q tmp-", dir);
    assert_int_not_equal(system(path), 0);
}

static void test_a_folder_that_is_a_file_or_a_name_that_leaves_it_is_refused(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/file", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    ws_error err;
    assert_int_equal(ws_save_mkdir(path, &err), -1);
    assert_non_null(strstr(err.msg, "is a file, not a folder"));
    snprintf(path, sizeof path, "%s/file/under", tmpdir);
    assert_int_equal(ws_save_mkdir(path, &err), -1);
    assert_non_null(strstr(err.msg, "/file is a file, not a folder"));
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.nbuffers = 1;
    L.buffers[0] = buffer("../escape", WS_TYPE_INT, 1, WS_INIT_ZERO, true);
    int x = 0;
    void *final[1] = {&x};
    ws_save_opts o = {.computed_by = "simulator"};
    assert_int_equal(ws_save_buffers(tmpdir, &L, final, &o, NULL, &err), WS_EXIT_USAGE);
    assert_non_null(strstr(err.msg, "cannot save buffer '../escape': its name is not a C identifier"));
    snprintf(path, sizeof path, "%s/../escape.npy", tmpdir);
    assert_false(exists(path));
    snprintf(path, sizeof path, "%s/manifest.json", tmpdir);
    assert_false(exists(path));
}

/* Runs ws_cmd_sim with the arguments (NULL-terminated), stdout captured and dropped. */
static int sim(const char *first, ...)
{
    char *argv[24] = {"sim", (char *)first};
    int argc = 2;
    va_list ap;
    va_start(ap, first);
    for (char *a; (a = va_arg(ap, char *)) && argc < 23;) argv[argc++] = a;
    va_end(ap);
    char *out;
    int rc = ws_test_capture(ws_cmd_sim, argc, argv, &out);
    free(out);
    return rc;
}

static void test_sim_save_writes_what_the_kernel_computed(void **state)
{
    (void)state;
    char dir[128], path[256];
    snprintf(dir, sizeof dir, "%s/copy", tmpdir);
    assert_int_equal(sim("copy_float", "-D", "N=1000", "--save", dir, NULL), WS_EXIT_OK);
    snprintf(path, sizeof path, "%s/out.npy", dir);
    float *out = read_back(path, WS_TYPE_FLOAT, 1000);
    for (int k = 0; k < 1000; k++) assert_true(out[k] == (float)k);   /* in = index, copied */
    free(out);
    snprintf(path, sizeof path, "%s/in.npy", dir);
    assert_false(exists(path));                  /* an input, without --save-inputs */

    /* saxpy: y = 2x + y, x = random(21), y = random(22): SplitMix64 of seed + k, its top 53 bits
       over 2^53 (common/buffers.h), to float; 2x is exact, so fma and mul-then-add agree */
    snprintf(dir, sizeof dir, "%s/saxpy", tmpdir);
    assert_int_equal(sim("saxpy_block256", "-D", "N=1000", "--save", dir, "--save-inputs", NULL), WS_EXIT_OK);
    snprintf(path, sizeof path, "%s/y.npy", dir);
    float *y = read_back(path, WS_TYPE_FLOAT, 1000);
    snprintf(path, sizeof path, "%s/x.in.npy", dir);
    float *x0 = read_back(path, WS_TYPE_FLOAT, 1000);
    for (uint64_t k = 0; k < 1000; k++) {
        float x = (float)((double)(ws_splitmix64(21 + k) >> 11) * 0x1p-53);
        float yy = (float)((double)(ws_splitmix64(22 + k) >> 11) * 0x1p-53);
        assert_true(x0[k] == x);
        if (y[k] != 2.0f * x + yy) fail_msg("y[%llu] = %.9g, want 2x + y = %.9g", (unsigned long long)k, y[k], 2.0f * x + yy);
    }
    free(y);
    free(x0);
    cJSON *m = manifest(dir);
    assert_string_equal(cJSON_GetObjectItem(m, "kernel")->valuestring, "saxpy_block256");
    assert_string_equal(cJSON_GetObjectItem(m, "file")->valuestring, "demos/occupancy.cu");
    assert_string_equal(cJSON_GetObjectItem(m, "defines")->valuestring, "N=1000");
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(m, "grid"), 0)->valueint, 4);   /* cdiv(1000, 256) */
    cJSON_Delete(m);

    /* NumPy itself: loads, numpy.save's bytes, hashlib's digests, the same values (tests/npy_check.py) */
    snprintf(path, sizeof path, "python3 tests/npy_check.py %s 1000", dir);
    int rc = system(path);
    if (rc != 0)
        fail_msg("tests/npy_check.py failed (exit %d)%s", WEXITSTATUS(rc),
                 WEXITSTATUS(rc) == 2 ? ": python3-numpy is missing; scripts/deps.sh installs it" : "");
}

static void test_check_save_puts_each_side_in_its_folder(void **state)
{
    (void)state;
    ws_kernel_desc d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "k_one");
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.desc = &d;
    L.nbuffers = 1;
    L.buffers[0] = buffer("out", WS_TYPE_INT, 2, WS_INIT_ZERO, true);
    int s[2] = {1, 2}, g[2] = {1, 3};
    void *sim_data[1] = {s}, *gpu_data[1] = {g};
    char base[128], where[256], path[300];
    snprintf(base, sizeof base, "%s/chk", tmpdir);
    chk_save_opts o = {.dir = base, .overrides = "", .entry = "_Z5k_onePi"};
    ws_error err;
    if (chk_save_run(&o, &L, sim_data, gpu_data, where, sizeof where, &err)) fail_msg("%s", err.msg);
    assert_string_equal(where, base);
    snprintf(path, sizeof path, "%s/sim/out.npy", base);
    int *back = read_back(path, WS_TYPE_INT, 2);
    assert_memory_equal(back, s, sizeof s);
    free(back);
    snprintf(path, sizeof path, "%s/gpu/out.npy", base);
    back = read_back(path, WS_TYPE_INT, 2);
    assert_memory_equal(back, g, sizeof g);
    free(back);
    snprintf(path, sizeof path, "%s/gpu", base);
    cJSON *m = manifest(path);
    assert_string_equal(cJSON_GetObjectItem(m, "computed_by")->valuestring, "gpu");
    assert_string_equal(cJSON_GetObjectItem(m, "entry")->valuestring, "_Z5k_onePi");
    cJSON_Delete(m);
    /* several kernels: a folder each; --gpu-only (no simulator side): gpu/ alone */
    o.per_kernel = true;
    if (chk_save_run(&o, &L, NULL, gpu_data, where, sizeof where, &err)) fail_msg("%s", err.msg);
    snprintf(path, sizeof path, "%s/k_one/gpu/out.npy", base);
    assert_true(exists(path));
    snprintf(path, sizeof path, "%s/k_one/sim", base);
    assert_false(exists(path));
    snprintf(d.name, sizeof d.name, "../up");
    assert_int_equal(chk_save_run(&o, &L, NULL, gpu_data, where, sizeof where, &err), WS_EXIT_USAGE);
    assert_non_null(strstr(err.msg, "its name is not a C identifier"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_save_writes_numpys_bytes_and_a_manifest_of_them),
        cmocka_unit_test(test_a_folder_that_is_a_file_or_a_name_that_leaves_it_is_refused),
        cmocka_unit_test(test_sim_save_writes_what_the_kernel_computed),
        cmocka_unit_test(test_check_save_puts_each_side_in_its_folder),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
