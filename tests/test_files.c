/* test_files.c - whole-file reads: every byte comes back followed by a NUL, a file
 * past the limit or missing is an error naming it, and a NUL inside text is found
 * at its line and column. */
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

#include "../common/files.h"

/* Writes n bytes of data to a fresh temporary file; its path goes to path. */
static void write_tmp(char *path, const char *data, size_t n)
{
    strcpy(path, "/tmp/ws_test_files_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, n), (ssize_t)n);
    close(fd);
}

static void test_a_file_comes_back_whole_with_a_nul_after_it(void **state)
{
    (void)state;
    /* 200 000 bytes: more than the first 64 KiB buffer, so the buffer must grow twice */
    size_t n = 200000;
    char *data = malloc(n);
    assert_non_null(data);
    for (size_t i = 0; i < n; i++)
        data[i] = (char)('a' + i % 26);
    char path[64];
    write_tmp(path, data, n);
    size_t len = 0;
    char *got = ws_read_file(path, 0, &len, NULL);
    assert_non_null(got);
    assert_int_equal(len, n);
    assert_memory_equal(got, data, n);
    assert_int_equal(got[n], 0);
    free(got);
    unlink(path);
    free(data);
}

static void test_an_empty_file_is_an_empty_string(void **state)
{
    (void)state;
    char path[64];
    write_tmp(path, "", 0);
    size_t len = 99;
    char *got = ws_read_file(path, 0, &len, NULL);
    assert_non_null(got);
    assert_int_equal(len, 0);
    assert_string_equal(got, "");
    free(got);
    unlink(path);
}

static void test_a_missing_file_is_an_error_naming_it(void **state)
{
    (void)state;
    ws_error err;
    memset(&err, 0, sizeof err);
    assert_null(ws_read_file("/nonexistent/k.cu", 0, NULL, &err));
    assert_string_equal(err.file, "/nonexistent/k.cu");
    assert_non_null(strstr(err.msg, "cannot open"));
    assert_null(ws_read_file("/nonexistent/k.cu", 0, NULL, NULL)); /* err may be NULL */
}

static void test_a_file_past_the_limit_is_refused(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_files_big_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static char block[1 << 16];
    for (int i = 0; i < 17; i++) assert_int_equal(write(fd, block, sizeof block), (ssize_t)sizeof block);
    close(fd);                                    /* 17 x 64 KiB: just over 1 MiB */
    ws_error err;
    memset(&err, 0, sizeof err);
    assert_null(ws_read_file(path, 1u << 20, NULL, &err));
    assert_non_null(strstr(err.msg, "larger than 1 MiB"));
    size_t n = 0;
    char *all = ws_read_file(path, 2u << 20, &n, NULL);
    assert_non_null(all);
    assert_int_equal(n, 17u << 16);
    free(all);
    unlink(path);
}

/* Only regular files are read: /dev/zero never ends, a FIFO without a writer would block
 * forever, and a repository can ship `k.ptx -> /dev/zero`. Each is refused at once, by kind. */
static void test_anything_but_a_regular_file_is_refused_at_once(void **state)
{
    (void)state;
    char dir[] = "/tmp/ws_files_kinds_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char fifo[64], link[64];
    snprintf(fifo, sizeof fifo, "%s/k.ptx", dir);
    snprintf(link, sizeof link, "%s/z.ptx", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(symlink("/dev/zero", link), 0);
    struct { const char *path, *kind; } cases[] = {
        {"/dev/zero", "a character device"}, {fifo, "a FIFO"}, {link, "a character device"}, {dir, "a folder"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ws_error err;
        memset(&err, 0, sizeof err);
        assert_null(ws_read_file(cases[i].path, 0, NULL, &err));
        if (!strstr(err.msg, cases[i].kind) || !strstr(err.msg, "only regular files"))
            fail_msg("%s: %s", cases[i].path, err.msg);
    }
    unlink(fifo);
    unlink(link);
    rmdir(dir);
}

static void test_a_nul_byte_is_found_at_its_line_and_column(void **state)
{
    (void)state;
    const char text[] = "ab\ncd\x00"
                        "e";
    int line = 0, col = 0;
    assert_true(ws_text_has_nul(text, sizeof text - 1, &line, &col));
    assert_int_equal(line, 2); /* after one newline */
    assert_int_equal(col, 3);  /* 'c', 'd', then the NUL */
    assert_false(ws_text_has_nul("plain", 5, &line, &col));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_file_comes_back_whole_with_a_nul_after_it),
        cmocka_unit_test(test_an_empty_file_is_an_empty_string),
        cmocka_unit_test(test_a_missing_file_is_an_error_naming_it),
        cmocka_unit_test(test_a_file_past_the_limit_is_refused),
        cmocka_unit_test(test_anything_but_a_regular_file_is_refused_at_once),
        cmocka_unit_test(test_a_nul_byte_is_found_at_its_line_and_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
