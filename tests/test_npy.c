/* test_npy.c - the .npy header warpscope writes is byte for byte what NumPy's format 1.0
 * specifies (the dict literal typed out here, padded with spaces to a multiple of 64 and ended
 * by '\n'), the reader takes it back, and the reader refuses every header that is not exactly
 * the three keys with sound values, naming the file and the key. SHA-256 (common/sha256.c)
 * against the test vectors of FIPS 180-2 appendix B. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/npy.h"
#include "../common/sha256.h"

static char tmpdir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ws-test-npy-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -r %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The expected version-1.0 header of dict: magic, 1, 0, the length little-endian, the dict,
 * spaces, '\n', the whole a multiple of 64 bytes (NumPy's format.rst). */
static size_t expected_header(const char *dict, char *out)
{
    size_t dl = strlen(dict), total = 64;
    while (total < 10 + dl + 1) total += 64;
    size_t hlen = total - 10;
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    out[8] = (char)(hlen & 0xff);
    out[9] = (char)(hlen >> 8);
    memcpy(out + 10, dict, dl);
    memset(out + 10 + dl, ' ', total - 11 - dl);
    out[total - 1] = '\n';
    return total;
}

static void test_written_headers_are_numpys_dict_padded_to_64_bytes(void **state)
{
    (void)state;
    struct { const char *descr; uint64_t shape[2]; int ndim; const char *dict; } cases[] = {
        {"<f4", {3}, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"},
        {"<f4", {256, 4}, 2, "{'descr': '<f4', 'fortran_order': False, 'shape': (256, 4), }"},
        {"|i1", {0}, 1, "{'descr': '|i1', 'fortran_order': False, 'shape': (0,), }"},
        {"<u2", {1099511627776ull}, 1, "{'descr': '<u2', 'fortran_order': False, 'shape': (1099511627776,), }"},
        {"<f8", {0}, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char got[512], want[512];
        size_t gl = ws_npy_format_header(cases[i].descr, cases[i].shape, cases[i].ndim, got, sizeof got);
        size_t wl = expected_header(cases[i].dict, want);
        assert_int_equal(gl, wl);
        assert_int_equal(gl % 64, 0);
        assert_memory_equal(got, want, wl);
    }
    /* the first case in full: 10 + 58 + 1 = 69 bytes round up to 128, so the length field is 118 */
    char h[128];
    assert_int_equal(ws_npy_format_header("<f4", (uint64_t[]){3}, 1, h, sizeof h), 128);
    assert_int_equal((unsigned char)h[8], 118);
    assert_int_equal(h[9], 0);
    assert_int_equal(ws_npy_format_header("<f4", (uint64_t[]){3}, 1, h, 127), 0);   /* does not fit: refused */
}

static void test_the_dtype_follows_the_scalar_type(void **state)
{
    (void)state;
    assert_string_equal(ws_npy_descr(WS_TYPE_FLOAT), "<f4");
    assert_string_equal(ws_npy_descr(WS_TYPE_DOUBLE), "<f8");
    assert_string_equal(ws_npy_descr(WS_TYPE_HALF), "<f2");
    assert_string_equal(ws_npy_descr(WS_TYPE_BF16), "<u2");       /* NumPy has no bfloat16: raw bits */
    assert_string_equal(ws_npy_descr(WS_TYPE_CHAR), "|i1");
    assert_string_equal(ws_npy_descr(WS_TYPE_UCHAR), "|u1");
    assert_string_equal(ws_npy_descr(WS_TYPE_LONG), "<i8");
    assert_string_equal(ws_npy_descr(WS_TYPE_UINT), "<u4");
    assert_null(ws_npy_descr(WS_TYPE_FLOAT4));                     /* a vector is its scalar, twice the dims */
    ws_buffer b = {.type = WS_TYPE_FLOAT4, .count = 7};
    uint64_t shape[2];
    assert_int_equal(ws_npy_buffer_shape(&b, shape), 2);
    assert_int_equal(shape[0], 7);
    assert_int_equal(shape[1], 4);
    b.type = WS_TYPE_INT;
    assert_int_equal(ws_npy_buffer_shape(&b, shape), 1);
    assert_int_equal(shape[0], 7);
}

/* A file of the raw header bytes head (hl of them) and 'data' bytes of zeros. */
static const char *write_file(const char *name, const void *head, size_t hl, size_t data)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(head, 1, hl, f), hl);
    for (size_t i = 0; i < data; i++) fputc(0, f);
    fclose(f);
    return path;
}

static int read_header(const char *path, ws_npy_header *h, ws_error *err)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    uint64_t size = (uint64_t)ftell(f);
    rewind(f);
    int rc = ws_npy_read_header(f, size, path, h, err);
    fclose(f);
    return rc;
}

static void test_the_reader_takes_back_what_the_writer_wrote(void **state)
{
    (void)state;
    char head[256];
    size_t hl = ws_npy_format_header("<f4", (uint64_t[]){256, 4}, 2, head, sizeof head);
    const char *path = write_file("ok.npy", head, hl, 4096);
    ws_npy_header h;
    ws_error err;
    assert_int_equal(read_header(path, &h, &err), 0);
    assert_string_equal(h.descr, "<f4");
    assert_int_equal(h.ndim, 2);
    assert_int_equal(h.shape[0], 256);
    assert_int_equal(h.shape[1], 4);
    assert_int_equal(h.values, 1024);
    assert_int_equal(h.data_offset, hl);
    /* keys in another order, double quotes, no trailing comma, version 2.0: still NumPy's format */
    const char *dict = "{\"shape\": (2, 3), \"descr\": \"|u1\", \"fortran_order\": False}";
    char v2[128];
    size_t dl = strlen(dict), total = 128;
    memcpy(v2, "\x93NUMPY\x02\x00", 8);
    v2[8] = (char)(total - 12);
    v2[9] = v2[10] = v2[11] = 0;
    memset(v2 + 12, ' ', total - 12);
    memcpy(v2 + 12, dict, dl);
    v2[total - 1] = '\n';
    path = write_file("v2.npy", v2, total, 6);
    assert_int_equal(read_header(path, &h, &err), 0);
    assert_int_equal(h.major, 2);
    assert_string_equal(h.descr, "|u1");
    assert_int_equal(h.values, 6);
    assert_int_equal(h.data_offset, 128);
}

static void test_the_reader_refuses_headers_numpy_would_not_write_naming_the_key(void **state)
{
    (void)state;
    struct { const char *dict; const char *want; } bad[] = {
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'extra': 1, }",
         "the .npy header has key 'extra'; a .npy header holds exactly 'descr', 'fortran_order' and 'shape'"},
        {"{'descr': '<f4', 'shape': (3,), }", "the .npy header has no key 'fortran_order'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
         "the .npy header gives key 'descr' twice"},
        {"{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }", "'fortran_order' is True; save the array in C order"},
        {"{'descr': '<f4', 'fortran_order': 0, 'shape': (3,), }", "'fortran_order' is '0', not False"},
        {"{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }", "'descr' '<c8' is not a dtype warpscope reads"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,), }", "'descr' is not a quoted string"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3), }", "'shape' (3) is a number, not a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3 4), }", "'shape' '(3 4)' is not a tuple of integers"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }", "is not a tuple of integers"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [3], }", "'shape' is not a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", "is too large"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,) 'x' }", "a ',' or '}' was expected"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), } x", "after its dict"},
        {"['descr', '<f4']", "is not a dict literal"},
        {"{descr: '<f4', 'fortran_order': False, 'shape': (3,), }", "the .npy header's key is not a quoted string"},
        {"{'descr' '<f4', 'fortran_order': False, 'shape': (3,), }", "no ':' after key 'descr'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char head[256];
        size_t hl = expected_header(bad[i].dict, head);
        char name[32];
        snprintf(name, sizeof name, "bad%zu.npy", i);
        const char *path = write_file(name, head, hl, 12);
        ws_npy_header h;
        ws_error err;
        memset(&err, 0, sizeof err);
        if (!read_header(path, &h, &err)) fail_msg("%s accepted: %s", name, bad[i].dict);
        if (!strstr(err.msg, bad[i].want)) fail_msg("%s: got '%s', expected '%s'", name, err.msg, bad[i].want);
        assert_non_null(strstr(err.msg, path));         /* every message names the file */
    }
    /* a version NumPy never wrote, and no magic at all */
    char head[256];
    size_t hl = expected_header("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", head);
    head[7] = 1;
    ws_npy_header h;
    ws_error err;
    assert_int_equal(read_header(write_file("v11.npy", head, hl, 12), &h, &err), -1);
    assert_non_null(strstr(err.msg, "format version 1.1"));
    head[0] = 'X';
    assert_int_equal(read_header(write_file("nomagic.npy", head, hl, 12), &h, &err), -1);
    assert_non_null(strstr(err.msg, "no \\x93NUMPY magic"));
}

static void hex_of(const void *data, size_t n, size_t split, char hex[65])
{
    ws_sha256 s;
    ws_sha256_init(&s);
    ws_sha256_update(&s, data, split);            /* fed in two pieces: the digest of the whole */
    ws_sha256_update(&s, (const char *)data + split, n - split);
    ws_sha256_hex(&s, hex);
}

static void test_sha256_gives_the_standards_digests(void **state)
{
    (void)state;
    char hex[65];
    if (!ws_sha256_available()) {                 /* a build without libcrypto: no digest, said plainly */
        hex_of("abc", 3, 1, hex);
        assert_string_equal(hex, "");
        return;
    }
    hex_of("", 0, 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hex_of("abc", 3, 1, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";   /* 56 bytes: two blocks */
    hex_of(two, strlen(two), 55, hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char *mil = malloc(1000000);                  /* one million 'a' */
    assert_non_null(mil);
    memset(mil, 'a', 1000000);
    hex_of(mil, 1000000, 333333, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(mil);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_written_headers_are_numpys_dict_padded_to_64_bytes),
        cmocka_unit_test(test_the_dtype_follows_the_scalar_type),
        cmocka_unit_test(test_the_reader_takes_back_what_the_writer_wrote),
        cmocka_unit_test(test_the_reader_refuses_headers_numpy_would_not_write_naming_the_key),
        cmocka_unit_test(test_sha256_gives_the_standards_digests),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
